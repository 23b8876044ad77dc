"""Self-attention on "The cat sat on the mat", one dot product at a time.

Follows seed 000 ("Simple Attention Mechanism from Scratch"): 4-dimensional
embeddings, Q = K = V = X, the query "cat", the weighted sum of the value rows,
and the 6x6 heatmap.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UL,
    UP,
    UR,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    VMobject,
    Write,
)

from attention_math import THE_CAT_SAT, self_attention_trace, sentence_example

from .kit import ExplainerScene
from .kit.heatmaps import AxisLabels, Cells, axis_names, weights_heatmap
from .kit.layout import (
    CONTENT_WIDTH,
    LEFT_EDGE,
    RIGHT_EDGE,
    SAFE_AREA,
    SAFE_LEFT,
    SAFE_RIGHT,
    SAFE_TOP,
    center_between,
    keep_inside,
    pin,
)
from .kit.tables import NumberGrid
from .kit.text import elided_label, formula, label, word_rows
from .kit.worked_sums import WeightedSum, WorkedSum
from .theme import format_number

ROUNDED = "rounded: the shown rows may add up to 0.01 off"
"""Under the weighted sum: every number is rounded on its own, so the column sums shown can differ from the rows' sums."""

LABEL_WIDTH = 3.0
"""Widest a token label left of a matrix may be; longer words lose their end to an ellipsis."""


SIDE_WORD_WIDTH = 1.1
"""Widest a key word beside a row's largest score may be."""

SIDE_WIDTH = 0.35 + 0.95 + 0.3 + 0.95 + 0.12 + SIDE_WORD_WIDTH
"""Width of the scores beside the full attention map (:meth:`SelfAttentionScene.scores_beside`), its word included."""

AXIS_NAME_WIDTH = 0.7
"""Room for the heatmap's axis name left of its words (``axis_names``)."""


def short(theme, token: str, width: float = LABEL_WIDTH, size: int | None = None) -> str:
    """``token`` as it fits ``width`` at a readable size: whole, or cut with an ellipsis.

    The text only, as :func:`elided_label` fitted it (shrunk towards the smallest size first): drawn again at a larger
    size it is wider than ``width``. Where the width is a hard limit, draw :func:`elided_label` itself.
    """
    return elided_label(theme, token, width, size=size or theme.small_size).original_text


class SelfAttentionScene(ExplainerScene):
    name = "self-attention"
    title = "Self-attention, step by step"
    description = '"{sentence}": scores, scaling, softmax and the weighted sum, then the heatmap of all attention weights.'
    sources = "Vaswani et al. 2017, 3.2.1 (scaled dot-product attention); embeddings made up by hand"

    options = ("sentence",)
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return self_attention_trace(example, focus=min(1, len(example.tokens) - 1))

    def construct(self):
        self.show_words_whole()
        self.show_embeddings()
        self.pick_the_query()
        self.score_every_key()
        self.scale_the_scores()
        self.softmax_the_scores()
        self.sum_the_values()
        self.show_every_query()

    # The steps share the picture they build on: X on the left, one column per stage beside it.

    @property
    def course(self) -> bool:
        """Whether the sentence is the course notebook's own."""
        return self.trace.query_tokens == THE_CAT_SAT.tokens

    def show_words_whole(self):
        """A step only for a sentence with words too long for the labels beside the numbers: every word, whole."""
        t, theme = self.trace, self.theme
        if [short(theme, token) for token in t.key_tokens] == list(t.key_tokens):
            return
        with self.step("your-sentence", "Your sentence, word by word"):
            self.say("Your sentence, word by word. Beside the numbers, long words are cut short.")
            heading = self.heading("Your sentence")
            whole = word_rows(theme, t.key_tokens, CONTENT_WIDTH - 0.4, size=theme.body_size)
            whole.move_to([0, 0, 0])
            self.play(FadeIn(heading), FadeIn(whole, lag_ratio=0.1))

    def show_embeddings(self):
        """Step 1: the tokens and their embeddings, X = Q = K = V."""
        t, theme = self.trace, self.theme
        n = len(t.key_tokens)
        self.labels = [short(theme, token) for token in t.key_tokens]
        query = short(theme, t.query_tokens[t.focus], 2.6, size=theme.body_size)
        self.query_name = label(theme, f"query: {query}", color=theme.query)
        pin(self.query_name, UR, SAFE_AREA)
        # Rows 0.55 apart; eight rows start higher and sit closer, so the line under X still fits.
        self.row_height = min(0.55, 4.0 / n)
        top = 1.85 if n <= 6 else 2.1
        with self.step("embeddings", "Embeddings: Q = K = V = X"):
            origin = "made up by hand for this example" if self.course else "made up for this video"
            self.say(f"Each word is a row of {t.x_query.shape[1]} numbers, its embedding, {origin}.")
            self.clear()
            heading = self.title_heading(self.query_name)
            x = self.grid(
                "x_key", 1, cell_width=0.8, cell_height=self.row_height, row_labels=self.labels, row_label_width=LABEL_WIDTH
            )
            # X's cells centred at x = -4.4, leaving room for four columns and the bars; long words push X right.
            centre = max(-4.4, LEFT_EDGE + x.row_labels.width + 0.15 + x.cells.width / 2)
            x.shift(RIGHT * (centre - x.cells.get_center()[0]) + UP * (top - x.cells.get_top()[1]))
            self.x_name = formula(theme, r"X = Q = K = V", size=theme.body_size).next_to(x.cells, UP, buff=0.3)
            self.shortcut = self.note_lines(
                (
                    "Shortcut: no learned projections. Q, K and V are the embeddings themselves,",
                    "so a word's score with itself is its length squared: long rows score high.",
                )
            )
            self.play(FadeIn(heading))
            self.play(FadeIn(x.row_labels, lag_ratio=0.1), FadeIn(x.cells), FadeIn(x.numbers), run_time=1.5)
            # Two spellings of one word ("The", "the") with the same row: said, so two equal rows are no puzzle.
            twins = next(
                (
                    (a, b)
                    for a in range(n)
                    for b in range(a + 1, n)
                    if t.key_tokens[a].lower() == t.key_tokens[b].lower() and np.array_equal(t.x_key[a], t.x_key[b])
                ),
                None,
            )
            if twins is not None:
                first, second = (t.key_tokens[k] for k in twins)
                same = (
                    f"“{first}” and “{second}” share one embedding"
                    if first != second
                    else f"“{first}” appears twice, with one embedding"
                )
                self.say(
                    f"{same}: the same row of numbers.",
                    spoken=f"The word {first.lower()} appears twice, with one embedding: the same row of numbers.",
                )
                boxes = VGroup(*[SurroundingRectangle(x.row(k), color=theme.highlight, buff=0.03) for k in twins])
                self.play(FadeIn(boxes))
            else:
                boxes = VGroup()
            self.say(
                "A shortcut: a real model makes Q, K and V with three learned matrices, W_Q, W_K and W_V.",
                spoken="A shortcut: a real model makes the queries, keys and values with three learned matrices.",
            )
            # The twins' boxes stay through their line, and go as the next picture comes.
            self.play(Write(self.x_name), *([FadeOut(boxes)] if len(boxes) else []))
            self.say("Here we skip them: the queries, keys and values are these rows themselves.")
            self.play(FadeIn(self.shortcut))
            self.note = None
            if not self.course:
                self.say("Words of the example sentence keep its numbers; the others get made-up ones.")
                self.note = self.source_note()
                self.play(FadeOut(self.shortcut), FadeIn(self.note))
        self.x = x
        self.first_column = x.cells.get_right()[0] + 1.0

    def pick_the_query(self):
        """Step 2: one token as the query."""
        t, theme = self.trace, self.theme
        with self.step("query", "One word as the query"):
            self.say(f"Take “{t.query_tokens[t.focus]}” as the query: which words should it look at?")
            query_box = SurroundingRectangle(self.x.row(t.focus), color=theme.query, buff=0.04)
            fades = [FadeOut(self.note)] if self.note is not None else [FadeOut(self.shortcut)]
            self.play(FadeIn(query_box), FadeIn(self.query_name), *fades)
            self.say("Its score for each key is the dot product of its query row with that key's row.")
            # The scores' column header, where step 3 fills in the scores under it.
            self.raw_name = formula(theme, r"q \cdot k_j", size=theme.body_size)
            self.raw_name.next_to(self.x.cell(0, 0), UP, buff=0.3).set_x(self.first_column)
            self.play(Write(self.raw_name))

    def column(self, source: str, decimals: int, x_position: float) -> NumberGrid:
        """A column of trace values beside X, one number per key row (raw score, scaled score, weight)."""
        grid = self.grid(source, decimals, cell_width=1.05, cell_height=self.row_height)
        for j in range(len(self.trace.key_tokens)):
            grid.cells[j].move_to(self.x.cell(j, 0)).set_x(x_position)
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def dot_product(self, j: int) -> WorkedSum:
        """q · k_j written out term by term under X, every number read from the trace."""
        t, theme = self.trace, self.theme
        i = t.focus
        name = label(theme, f"q · k({short(theme, t.key_tokens[j], 2.4)}) =", size=theme.small_size)
        worked = WorkedSum(
            self,
            [f"q[{i}, {d}]" for d in range(t.d_k)],
            [f"k[{j}, {d}]" for d in range(t.d_k)],
            f"raw_scores[{i}, {j}]",
            name=name,
            decimals=(1, 1, 2),
            colors=(theme.query, theme.key, None),
            max_width=CONTENT_WIDTH,
        )
        worked.next_to(self.x.cells, DOWN, buff=0.45).align_to(self.x.row_labels, LEFT)
        return worked

    def score_every_key(self):
        """Step 3: the query's dot product with each key, worked out term by term."""
        t, theme, x = self.trace, self.theme, self.x
        i, n = t.focus, len(t.key_tokens)
        self.raw = raw = self.column(f"raw_scores[{i}]", 2, self.first_column)
        raw_name = self.raw_name.next_to(raw.cells[0], UP, buff=0.3)
        with self.step("dot-products", "Dot products: one score per key"):
            self.say("Multiply the query and a key number by number, then add the products.")
            self.play(Indicate(raw_name, color=theme.query))
            worked = None
            for j in range(n):
                if j == 1:
                    self.say("The same for every key: one score per key.")
                key_box = SurroundingRectangle(x.row(j), color=theme.key, buff=0.02)
                new_worked = self.dot_product(j)
                # Seven or eight keys go faster: the scene stays within three minutes.
                run_time = 1.2 if j == 0 else (0.6 if n <= 6 else 0.25)
                fades = [FadeOut(worked)] if worked is not None else []
                self.play(FadeIn(key_box), FadeIn(new_worked), *fades, run_time=run_time)
                if j == 0:
                    self.say(f"For the key “{t.key_tokens[0]}”, the products add up to {format_number(t.raw_scores[i, 0], 2)}.")
                self.play(
                    TransformFromCopy(new_worked.result, VGroup(raw.cells[j], raw.numbers[j])),
                    FadeOut(key_box),
                    run_time=run_time,
                )
                worked = new_worked
            self.play(FadeOut(worked))

    def scale_the_scores(self):
        """Step 4: every score divided by the square root of d_k."""
        t, theme, raw = self.trace, self.theme, self.raw
        self.scaled = scaled = self.column(f"scaled_scores[{t.focus}]", 2, self.first_column + 1.5)
        scaled_name = formula(theme, r"\div \sqrt{d_k}", size=theme.body_size).next_to(scaled.cells[0], UP, buff=0.3)
        self.scale_label = VGroup(
            formula(theme, r"\sqrt{d_k} =", size=theme.body_size), self.number("scale", 0, size=theme.body_size)
        ).arrange(RIGHT, buff=0.12)
        self.scale_label.next_to(scaled.cells[-1], DOWN, buff=0.3)
        with self.step("scale", "Scale: divide by √d_k"):
            self.say(f"d_k is {t.d_k}, so divide every score by its square root, {format_number(t.scale, 0)}.")
            self.play(FadeIn(scaled_name), FadeIn(self.scale_label))
            self.play(TransformFromCopy(raw.cells, scaled.cells), TransformFromCopy(raw.numbers, scaled.numbers), run_time=1.5)
            self.say("It keeps the scores' spread moderate however many numbers a row has.")

    def softmax_the_scores(self):
        """Step 5: softmax turns the scaled scores into attention weights, shown as numbers and bars."""
        t, theme, scaled = self.trace, self.theme, self.scaled
        i = t.focus
        self.weight_column = weights = self.column(f"weights[{i}]", 2, self.first_column + 3.0)
        weights_name = formula(theme, r"\mathrm{softmax}", size=theme.body_size).next_to(weights.cells[0], UP, buff=0.3)
        self.total = formula(theme, r"\textstyle\sum_j w_j = 1", size=theme.body_size).next_to(weights.cells[-1], DOWN, buff=0.3)
        self.weight_chart, grow_from = self.weight_bars(self.x, weights)
        bars = self.weight_chart
        top = int(t.weights[i].argmax())
        with self.step("softmax", "Softmax: scores to attention weights"):
            self.say("Softmax turns the scaled scores into attention weights.")
            self.play(FadeIn(weights_name))
            self.play(
                TransformFromCopy(scaled.cells, weights.cells), TransformFromCopy(scaled.numbers, weights.numbers), run_time=1.5
            )
            self.say("Each is between 0 and 1, and together they add up to 1.")
            self.play(FadeIn(self.total), FadeIn(bars.labels), GrowFromEdge(bars.bars, grow_from), run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.1))
            self.say(
                f"“{t.query_tokens[i]}” gives the largest weight, {format_number(t.weights[i, top], 2)}, to “{t.key_tokens[top]}”."
            )
            top_box = VGroup(
                SurroundingRectangle(weights.cells[top], color=theme.highlight, buff=0.04),
                SurroundingRectangle(bars.bars[top], color=theme.highlight, buff=0.04),
            )
            self.play(FadeIn(top_box), Indicate(weights.numbers[top], color=theme.highlight))
            self.explain_the_shortcut(top)
            self.say(
                f"Yet no weight is far from an even share, 1/{len(t.key_tokens)}: the scores differ little.",
                spoken=f"Yet no weight is far from an even share, one in {len(t.key_tokens)}: the scores differ little.",
            )
            self.play(FadeOut(top_box), FadeIn(self.even_share), *self.even_share_line(bars, grow_from, top))

    def even_share_line(self, bars, grow_from, top: int) -> list:
        """A dashed line across the bars where a weight of 1/n would reach, named "1/n": how far each bar is from it.

        Returns the animations: the line drawn, and the numbers of bars shorter than it moved past it.
        """
        t, theme = self.trace, self.theme
        n = len(t.key_tokens)
        tallest = bars.bars[top]
        # The bars are drawn to scale from the edge they grow from: the largest weight reaches the tallest bar's end.
        share = t.uniform_weight / t.weights[t.focus, top]
        if grow_from is DOWN:
            level = tallest.get_bottom()[1] + tallest.height * share
            line = DashedLine(
                [bars.bars.get_left()[0] - 0.1, level, 0], [bars.bars.get_right()[0] + 0.1, level, 0], color=theme.muted
            )
            name = label(theme, f"1/{n}", size=theme.min_size, color=theme.muted).next_to(line, RIGHT, buff=0.1)
            crossed = [
                j for j, number in enumerate(bars.numbers) if number.get_bottom()[1] - 0.05 <= level <= number.get_top()[1] + 0.05
            ]
            moves = [bars.numbers[j].animate.next_to(line, UP, buff=0.1).set_x(bars.numbers[j].get_x()) for j in crossed]
        else:
            level = tallest.get_left()[0] + tallest.width * share
            line = DashedLine(
                [level, bars.bars.get_top()[1] + 0.1, 0], [level, bars.bars.get_bottom()[1] - 0.1, 0], color=theme.muted
            )
            name = label(theme, f"1/{n}", size=theme.min_size, color=theme.muted).next_to(line, UP, buff=0.05)
            crossed = [
                j for j, number in enumerate(bars.numbers) if number.get_left()[0] - 0.05 <= level <= number.get_right()[0] + 0.05
            ]
            moves = [bars.numbers[j].animate.next_to(line, RIGHT, buff=0.1).set_y(bars.numbers[j].get_y()) for j in crossed]
        # A number the line would cross (just past a short bar) moves past the line instead.
        return [Create(line), FadeIn(name), *moves]

    def explain_the_shortcut(self, top: int) -> None:
        """What Q = K does to the focus row: its score with itself is its squared length, said and boxed in the scores."""
        t, theme = self.trace, self.theme
        i = t.focus
        n = len(t.key_tokens)
        self.even_share = VGroup(
            label(theme, f"even share 1/{n} =", size=theme.small_size, color=theme.muted),
            self.number("uniform_weight", 2, size=theme.small_size, color=theme.muted),
        ).arrange(RIGHT, buff=0.12)
        self.even_share.next_to(self.total, DOWN, buff=0.2).align_to(self.total, LEFT)
        keep_inside(self.even_share, left=None)
        query = t.query_tokens[i]
        box = SurroundingRectangle(self.raw.cells[i], color=theme.highlight, buff=0.03)
        if top == i:
            second = int(max((j for j in range(n) if j != i), key=lambda j: t.raw_scores[i, j]))
            others, rival = t.raw_scores[i, second], t.key_tokens[second]
            # Both numbers the line compares are boxed.
            box = VGroup(box, SurroundingRectangle(self.raw.cells[second], color=theme.highlight, buff=0.03))
            self.say(
                f"That is the shortcut at work: with Q = K, “{query}” scored with itself is its own length squared, "
                f"{format_number(t.raw_scores[i, i], 2)}, more than with “{rival}”, {format_number(others, 2)}.",
                spoken=f"That is the shortcut at work: with the queries equal to the keys, “{query}” scored with itself "
                f"is its own length squared, {format_number(t.raw_scores[i, i], 2)}, "
                f"more than with “{rival}”, {format_number(others, 2)}.",
            )
        else:
            self.say(
                f"With Q = K, “{query}” scored with itself is its own length squared, {format_number(t.raw_scores[i, i], 2)};",
                spoken=f"With the queries equal to the keys, “{query}” scored with itself is its own length squared, "
                f"{format_number(t.raw_scores[i, i], 2)};",
            )
            self.play(FadeIn(box))
            self.say("another word's row is longer still and points the same way, so it wins here.")
            return
        self.play(FadeIn(box))

    def sum_the_values(self):
        """Step 6: the output, written out: each value row times its weight, then the rows added."""
        t, theme, x, weights = self.trace, self.theme, self.x, self.weight_column
        i, n = t.focus, len(t.key_tokens)
        query = t.query_tokens[i]
        total = WeightedSum(
            self,
            self.labels,
            weight=f"weights[{i}, {{j}}]",
            value="v[{j}]",
            product=f"weighted_values[{i}, {{j}}]",
            output=f"output[{i}]",
            output_name=formula(theme, r"\textstyle\sum_j w_j v_j =", size=theme.body_size),
            value_decimals=1,
            row_height=min(0.5, 3.6 / (n + 1)),
            label_width=LABEL_WIDTH,
            weight_color=theme.value,
        )
        # Words as wide as a word may be make the sum wider than the safe area: its widest labels give up the difference.
        total.fit_width(SAFE_RIGHT - SAFE_LEFT - 0.05)
        names = VGroup(
            formula(theme, r"w_j", size=theme.body_size).next_to(total.weights, UP, buff=0.2).align_to(total.weights, RIGHT),
            formula(theme, r"v_j", size=theme.body_size).next_to(total.values[0].cells, UP, buff=0.2),
            formula(theme, r"w_j v_j", size=theme.body_size).next_to(total.products[0].cells, UP, buff=0.2),
        )
        picture = VGroup(total, names)
        picture.move_to([0, 0, 0]).shift(UP * (SAFE_TOP - 0.9 - picture.get_top()[1]))
        keep_inside(picture, left=SAFE_LEFT + 0.05, right=None)
        old = [m for m in self.mobjects if m not in (self.heading_mobject, self.query_name)]
        with self.step("weighted-sum", "Weighted sum of the values"):
            self.say(f"The output for “{query}” mixes the value rows, using these attention weights.")
            self.play(
                TransformFromCopy(weights.numbers, total.weights),
                TransformFromCopy(VGroup(*x.cells, *x.numbers), VGroup(*[m for v in total.values for m in v])),
                TransformFromCopy(x.row_labels, total.labels),
                *[FadeOut(m) for m in old],
                FadeIn(total.times),
                FadeIn(names[:2]),
                run_time=1.8,
            )
            self.say("Here V = X too, so the value rows are the embedding rows.")
            self.play(Indicate(total.values, color=theme.value, scale_factor=1.03))
            self.say(
                f"Scale each value row by its weight: {format_number(t.weights[i, 0], 2)} times the row of “{t.key_tokens[0]}”."
            )
            self.play(FadeIn(names[2]), FadeIn(total.equals[0]), TransformFromCopy(total.values[0], total.products[0]))
            self.say("The same for every row: a big weight keeps much of its row, a small one little.")
            self.play(
                *[FadeIn(total.equals[j]) for j in range(1, n)],
                *[TransformFromCopy(total.values[j], total.products[j]) for j in range(1, n)],
                run_time=1.5,
            )
            self.say("Then add the scaled rows, column by column.")
            self.play(Create(total.rule))
            self.play(
                FadeIn(total.output_name),
                TransformFromCopy(
                    VGroup(*[m for p in total.products for m in p]), VGroup(*total.output.cells, *total.output.numbers)
                ),
                run_time=1.8,
            )
            # Sums of the exact products, each number then rounded: adding the rounded rows by hand can miss by 0.01.
            rounded = label(theme, ROUNDED, size=theme.small_size, color=theme.muted)
            rounded.next_to(total.output.cells, DOWN, buff=0.3).align_to(total.output.cells, RIGHT)
            keep_inside(rounded)
            self.say(
                "Each number is rounded to two decimals, so adding the shown rows can miss a sum by 0.01.",
                spoken="Each number is rounded to two decimals, so adding the shown rows can miss a sum by one hundredth.",
            )
            self.play(FadeIn(rounded))
            self.say(f"The sum is the new vector for “{query}”: its own row, mixed with the rows it attends to.")
            # The new row named, and the old row it came from boxed: "mixed" is seen, old against new.
            new_name = label(theme, f"new “{short(theme, query, 1.6)}”", size=theme.small_size, color=theme.query)
            # Left of the sum's name, where the row labels' column ends: the right edge has no room.
            new_name.next_to(total.output_name, LEFT, buff=0.25)
            keep_inside(new_name)
            old_row = SurroundingRectangle(total.values[i], color=theme.query, buff=0.04)
            self.play(FadeIn(old_row), FadeIn(new_name), Indicate(total.output, color=theme.highlight, scale_factor=1.05))
        self.weighted_sum = total

    def show_every_query(self):
        """Step 7: the whole attention matrix, every query against every key, and why long rows take the most."""
        t, theme = self.trace, self.theme
        i, n = t.focus, len(t.key_tokens)
        strongest = sorted(range(n), key=lambda j: -t.weights[i, j])[:2]
        with self.step("heatmap", "The full attention matrix"):
            self.say("Do the same with every word as the query: the full attention matrix.")
            self.clear()
            heading = self.heading("Attention weights: every query, every key")
            # Narrower cells for more words: the scores beside the map need room too.
            cell = (min(1.05, 6.3 / n), min(0.62, 3.6 / n))
            # Long words are cut to what is left beside the cells and the scores (SIDE_WIDTH), and a key to
            # what three staggered lines above its column hold at the readable size.
            query_width = min(LABEL_WIDTH, CONTENT_WIDTH - n * cell[0] - SIDE_WIDTH - AXIS_NAME_WIDTH - 0.25)
            queries = [short(theme, token, query_width) for token in t.query_tokens]
            keys = [short(theme, token, min(2.9, 2.2 * cell[0])) for token in t.key_tokens]
            labels = AxisLabels(query_width)
            heatmap = weights_heatmap(self, "weights", queries, keys, cells=Cells(*cell), labels=labels)
            lowest, highest = float(t.weights.min()), float(t.weights.max())
            origin = "Embeddings made up by hand" if self.course else "Made-up embeddings"
            note = self.note_with_numbers(
                (
                    (f"{origin}, Q = K = V = X: dot products, not learned meaning.",),
                    # Words without descenders: the row lines up on the bottoms of its parts.
                    (
                        "Colour scale 0 to 1. Values from",
                        format_number(lowest, 2),
                        "to",
                        format_number(highest, 2),
                        "near an even share of",
                        ("uniform_weight", 2),
                    ),
                )
            )
            names = axis_names(theme, heatmap)
            side = self.scores_beside(heatmap)
            picture = VGroup(heatmap, names, side)
            # Under the heading, above the note; long key words take two or three lines. The boxes later drawn round
            # the scores beside the rows reach 0.08 past them: the right edge leaves them room.
            keep_inside(center_between(picture, heading, note), left=SAFE_LEFT + 0.05, right=SAFE_RIGHT - 0.1)
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names), FadeIn(note))
            for row in range(n):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4 if n <= 6 else 0.25)
            self.say("Row by row: where each word looks. Every row adds up to 1, before rounding.")
            # A box sweeps down the rows, one row at a time: each row is one word's weights.
            self.marks = VGroup()
            sweep = SurroundingRectangle(heatmap.row(0), color=theme.query, buff=0.03)
            self.play(FadeIn(sweep), Indicate(heatmap.row_labels[0], color=theme.query), run_time=0.4)
            for row in range(1, n):
                self.play(
                    sweep.animate.move_to(SurroundingRectangle(heatmap.row(row), buff=0.03)), run_time=0.3 if n <= 6 else 0.2
                )
            self.marks = VGroup(sweep)
            self.say(
                f"“{t.query_tokens[i]}” looks most at “{t.key_tokens[strongest[0]]}” "
                f"({format_number(t.weights[i, strongest[0]], 2)}), "
                f"then “{t.key_tokens[strongest[1]]}” ({format_number(t.weights[i, strongest[1]], 2)})."
            )
            self.mark(SurroundingRectangle(heatmap.row(i), color=theme.highlight, buff=0.03))
            self.explain_where_rows_look(heatmap, side)
            self.say(
                f"And every weight lies between {format_number(lowest, 2)} and {format_number(highest, 2)}, "
                f"near an even share of 1/{n}: close scores, so no word looks anywhere decisively.",
                spoken=f"And every weight lies between {format_number(lowest, 2)} and {format_number(highest, 2)}, "
                f"near an even share of one in {n}: close scores, so no word looks anywhere decisively.",
            )
            # The smallest and the largest weight on the map, each boxed where it is.
            low = np.unravel_index(int(t.weights.argmin()), t.weights.shape)
            high = np.unravel_index(int(t.weights.argmax()), t.weights.shape)
            self.mark(
                SurroundingRectangle(heatmap.cell(*low), color=theme.query, buff=0.02),
                SurroundingRectangle(heatmap.cell(*high), color=theme.highlight, buff=0.02),
                Indicate(note, color=theme.highlight, scale_factor=1.03),
            )

    def mark(self, *boxes_and_animations) -> None:
        """Fade in new boxes (and play any animations given with them), fading out the boxes shown before."""
        boxes = [b for b in boxes_and_animations if isinstance(b, VMobject)]
        animations = [a for a in boxes_and_animations if not isinstance(a, VMobject)]
        old = self.marks
        self.marks = VGroup(*boxes)
        fades = [FadeOut(old)] if len(old) else []
        self.play(*fades, *[FadeIn(b) for b in boxes], *animations)

    def scores_beside(self, heatmap) -> VGroup:
        """Right of the heatmap, per query row: its score with itself and its row's largest score, with that key's word.

        Scores, not weights: with Q = K the score with itself is the word's squared length, the number that explains
        the row; softmax keeps the order, so the largest score is the largest weight.
        """
        t, theme = self.trace, self.theme
        n = len(t.key_tokens)
        itself = self.grid("self_scores", 2, cell_width=0.95, cell_height=heatmap.cells[0].height)
        largest = self.grid("strongest_scores", 2, cell_width=0.95, cell_height=heatmap.cells[0].height)
        words = VGroup()
        for r in range(n):
            itself.cells[r].next_to(heatmap.cell(r, n - 1), RIGHT, buff=0.35)
            largest.cells[r].next_to(itself.cells[r], RIGHT, buff=0.3)
            itself.numbers[r].move_to(itself.cells[r])
            largest.numbers[r].move_to(largest.cells[r])
            # Drawn as fitted (a word shrunk to fit is not drawn again at full size, past its room).
            word = elided_label(theme, t.key_tokens[t.strongest_keys[r]], SIDE_WORD_WIDTH, size=theme.small_size, color=theme.key)
            words.add(word.next_to(largest.cells[r], RIGHT, buff=0.12))
        headers = VGroup(
            label(theme, "itself", size=theme.small_size, color=theme.muted).next_to(itself.cells[0], UP, buff=0.15),
            label(theme, "largest", size=theme.small_size, color=theme.muted).next_to(largest.cells[0], UP, buff=0.15),
        )
        headers.align_to(heatmap.col_labels, DOWN)
        # Below the columns, where the key words staggered above the last columns cannot reach it.
        title = label(theme, "scores q · k", size=theme.small_size, color=theme.muted)
        title.next_to(VGroup(itself.cells[n - 1], largest.cells[n - 1]), DOWN, buff=0.2)
        side = VGroup(title, headers, itself, largest, words)
        side.title, side.headers, side.itself, side.largest, side.words = title, headers, itself, largest, words
        return side

    def explain_where_rows_look(self, heatmap, side) -> None:
        """Which rows look most at themselves and which at a longer word, each claim from the trace and boxed."""
        t, theme = self.trace, self.theme
        n = len(t.key_tokens)
        own = [r for r in range(n) if t.looks_at_itself[r]]
        elsewhere = [r for r in range(n) if not t.looks_at_itself[r]]

        def quoted(rows, more: bool = False) -> str:
            # More than three words are counted, not listed: the boxes show which (a list of long words outruns the step).
            if len(rows) > 3:
                return f"{len(rows)} more words" if more else f"{len(rows)} of the {n} words"
            names = [f"“{t.query_tokens[r]}”" for r in rows]
            return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

        def side_row(r: int) -> VGroup:
            return VGroup(side.itself.cells[r], side.largest.cells[r], side.words[r])

        self.say(
            "With Q = K a word's score with itself is its length squared. Beside each row: that score, and the row's largest.",
            spoken="With the queries equal to the keys, a word's score with itself is its length squared. "
            "Beside each row: that score, and the row's largest.",
        )
        self.play(
            FadeIn(side.title),
            FadeIn(side.headers),
            FadeIn(VGroup(side.itself.cells, side.itself.numbers)),
            FadeIn(VGroup(side.largest.cells, side.largest.numbers, side.words)),
            run_time=1.2,
        )
        if own:
            each = "it looks" if len(own) == 1 else "each looks"
            self.say(f"For {quoted(own)} the two are equal: {each} most at itself.")
            self.mark(
                *[SurroundingRectangle(heatmap.cell(r, r), color=theme.query, buff=0.02) for r in own],
                *[SurroundingRectangle(side_row(r), color=theme.query, buff=0.08) for r in own],
            )
        if not elsewhere:
            self.say("Length wins here, not meaning: that is the shortcut.")
            return
        # The longest word that looks elsewhere: the clearest case of a longer word winning.
        r = max(elsewhere, key=lambda row: t.self_scores[row])
        j = int(t.strongest_keys[r])
        word, winner = t.query_tokens[r], t.key_tokens[j]
        self.say(
            f"“{word}” scores {format_number(t.self_scores[r], 2)} with itself but {format_number(t.strongest_scores[r], 2)} "
            f"with “{winner}”, a longer word ({format_number(t.self_scores[j], 2)} with itself) pointing a similar way."
        )
        self.mark(
            SurroundingRectangle(heatmap.cell(r, j), color=theme.highlight, buff=0.02),
            SurroundingRectangle(side_row(r), color=theme.highlight, buff=0.08),
            SurroundingRectangle(side.itself.cells[j], color=theme.key, buff=0.04),
        )
        rest = [row for row in elsewhere if row != r]
        if rest:
            verb = "looks" if len(rest) == 1 else "look"
            claim = "the dot product wins here — length and direction — not meaning."
            # Two spellings of one word ("The", "the") sound alike: said once, "the word the, both times".
            spoken_names = []
            for row in rest:
                name = t.query_tokens[row]
                twins = [other for other in rest if t.query_tokens[other].lower() == name.lower()]
                if len(twins) > 1 and row == twins[0]:
                    spoken_names.append(f"the word {name.lower()}, {'both' if len(twins) == 2 else 'all'} times")
                elif len(twins) == 1:
                    spoken_names.append(f"the word {name}")
            said = spoken_names[0] if len(spoken_names) == 1 else ", ".join(spoken_names[:-1]) + ", and " + spoken_names[-1]
            if len(rest) > 3:
                said = quoted(rest, more=True)
            self.say(
                f"{quoted(rest, more=True)} too {verb} most at a longer word: {claim}",
                spoken=f"{said[0].upper() + said[1:]}{',' if ', ' in said else ''} {verb} most at a longer word too: "
                "the dot product wins here, length and direction, not meaning.",
            )
            self.mark(
                *[SurroundingRectangle(heatmap.row(row), color=theme.highlight, buff=0.03) for row in rest],
                *[
                    SurroundingRectangle(heatmap.cell(row, int(t.strongest_keys[row])), color=theme.key, buff=0.02)
                    for row in rest
                ],
                *[SurroundingRectangle(side_row(row), color=theme.highlight, buff=0.05) for row in rest],
            )
        else:
            self.say("Length wins here, not meaning: that is the shortcut.")

    def title_heading(self, query_name) -> Text:
        """ "Self-attention: <the sentence>", left of ``query_name``; a sentence too long for it is left out.

        The heading shrinks at most to the body size; the rows of X show the words anyway.
        """
        room = query_name.get_left()[0] - 0.4 - SAFE_LEFT
        for text in (
            "Self-attention: " + " ".join(self.trace.query_tokens),
            "Self-attention, one query at a time",
            "Self-attention",
        ):
            heading = self.heading(text)
            if heading.width > room:
                heading.scale_to_fit_width(room)
            if heading.font_size >= self.theme.body_size - 1e-6:
                break
        pin(heading, UL, SAFE_AREA)
        self.heading_mobject = heading
        return heading

    def weight_bars(self, x, weights):
        """The weights of the focus row as bars beside the weights column, and the edge they grow from.

        Upright bars with the words under them when they fit (the course example);
        otherwise one bar per row of X, in that row, where the word is already written.
        """
        t = self.trace
        theme = self.theme
        i = t.focus
        n = len(t.key_tokens)
        left = weights.cells.get_right()[0] + 0.45
        spacing = min(0.75, (RIGHT_EDGE - left - 0.1) / n)
        words_fit = all(label(theme, token, size=theme.min_size).width <= spacing * 0.95 for token in t.key_tokens)
        upright = spacing >= 0.72 and words_fit
        length = 2.6 if upright else RIGHT_EDGE - left - 0.8
        bars = self.bars(
            f"weights[{i}]",
            t.key_tokens,
            height=length,
            spacing=spacing,
            bar_width=0.5 if upright else 0.3,
            color=theme.value,
            max_value=float(t.weights[i].max()),
            number_size=theme.min_size,
        )
        if upright:
            width = (n - 1) * spacing + 0.5
            bars.move_to(RIGHT * min(4.5, RIGHT_EDGE - width / 2)).align_to(x.cells, DOWN)
            # Few rows make X short: the bars then hang from its top instead of standing on its bottom.
            bars.shift(DOWN * max(0.0, bars.get_top()[1] - x.cells.get_top()[1] - 0.25))
            return bars, DOWN
        for j, (bar, number) in enumerate(zip(bars.bars, bars.numbers)):
            bar.rotate(-PI / 2)
            bar.move_to(weights.cells[j]).align_to(weights.cells[j], LEFT).shift(RIGHT * (weights.cells[j].width + 0.3))
            number.next_to(bar, RIGHT, buff=0.1)
        bars.remove(bars.labels)
        bars.labels = VGroup()
        return bars, LEFT
