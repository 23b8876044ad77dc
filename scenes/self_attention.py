"""Self-attention on "The cat sat on the mat", one dot product at a time.

Follows seed 000 ("Simple Attention Mechanism from Scratch"): 4-dimensional
embeddings, Q = K = V = X, the query "cat", and the 6x6 heatmap.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UL,
    UP,
    UR,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    Write,
    config,
)

from attention_math import THE_CAT_SAT, self_attention_trace, sentence_example

from .kit import ExplainerScene
from .kit.components import NumberGrid, axis_names, fit_label, formula, label
from .kit.layout import RIGHT_EDGE
from .theme import format_number

LABEL_WIDTH = 3.0
"""Widest a token label left of a matrix may be; longer words shrink to it."""


class SelfAttentionScene(ExplainerScene):
    name = "self-attention"
    title = "Self-attention, step by step"
    description = '"The cat sat on the mat": scores, scaling, softmax and the weighted sum, then the 6×6 heatmap.'
    sources = "seed 000 'Simple Attention Mechanism from Scratch' and 'Self-Attention Explained'"

    options = ("sentence",)
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return self_attention_trace(example, focus=min(1, len(example.tokens) - 1))

    def construct(self):
        self.show_embeddings()
        self.pick_the_query()
        self.score_every_key()
        self.scale_the_scores()
        self.softmax_the_scores()
        self.sum_the_values()
        self.show_every_query()

    # The steps share the picture they build on: X on the left, one column per stage beside it.

    def show_embeddings(self):
        """Step 1: the tokens and their embeddings, X = Q = K = V."""
        t, theme = self.trace, self.theme
        n = len(t.key_tokens)
        course = t.query_tokens == THE_CAT_SAT.tokens
        origin = (
            " from the course notebook"
            if course
            else ": the course notebook's vectors for its own words, made-up numbers for any other word (see the line below)"
        )
        caption = (
            f"{n} tokens, each with a {t.x_query.shape[1]}-number embedding{origin}. "
            "To keep every number visible, the queries, keys and values are the embeddings themselves: Q = K = V = X."
        )
        self.query_name = fit_label(theme, f"query: {t.query_tokens[t.focus]}", 4.0, color=theme.query).to_corner(UR, buff=0.5)
        # Rows 0.55 apart; eight rows start higher and sit closer, so the line under X still fits.
        self.row_height = min(0.55, 4.0 / n)
        top = 1.85 if n <= 6 else 2.1
        with self.step("embeddings", caption):
            heading = self.title_heading(self.query_name)
            x = self.grid(
                "x_key", 1, cell_width=0.8, cell_height=self.row_height, row_labels=t.key_tokens, row_label_width=LABEL_WIDTH
            )
            # X's cells centred at x = -4.4, leaving room for four columns and the bars; long words push X right.
            centre = max(-4.4, -RIGHT_EDGE + x.row_labels.width + 0.15 + x.cells.width / 2)
            x.shift(RIGHT * (centre - x.cells.get_center()[0]) + UP * (top - x.cells.get_top()[1]))
            self.x_name = formula(theme, r"X = Q = K = V", size=theme.body_size).next_to(x.cells, UP, buff=0.3)
            self.play(FadeIn(heading))
            self.play(FadeIn(x.row_labels, lag_ratio=0.1), FadeIn(x.cells), FadeIn(x.numbers), run_time=1.5)
            self.play(Write(self.x_name))
            self.note = None if course else self.source_note()
            if self.note is not None:
                self.play(FadeIn(self.note))
        self.x = x
        self.first_column = x.cells.get_right()[0] + 1.0

    def pick_the_query(self):
        """Step 2: one token as the query."""
        t, theme = self.trace, self.theme
        query = t.query_tokens[t.focus]
        caption = (
            f"Take “{query}” as the query: which words should it look at? "
            "Its score for each key is the dot product of its query vector with that key."
        )
        with self.step("query", caption):
            query_box = SurroundingRectangle(self.x.row(t.focus), color=theme.query, buff=0.04)
            fades = [FadeOut(self.note)] if self.note is not None else []
            self.play(FadeIn(query_box), FadeIn(self.query_name), *fades)

    def column(self, source: str, decimals: int, x_position: float) -> NumberGrid:
        """A column of trace values beside X, one number per key row (raw score, scaled score, weight)."""
        grid = self.grid(source, decimals, cell_width=1.05, cell_height=self.row_height)
        for j in range(len(self.trace.key_tokens)):
            grid.cells[j].move_to(self.x.cell(j, 0)).set_x(x_position)
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def score_every_key(self):
        """Step 3: the query's dot product with each key, worked out term by term."""
        t, theme, x = self.trace, self.theme, self.x
        i, n = t.focus, len(t.key_tokens)
        self.raw = raw = self.column(f"raw_scores[{i}]", 2, self.first_column)
        raw_name = formula(theme, r"q \cdot k_j", size=theme.body_size).next_to(raw.cells[0], UP, buff=0.3)
        caption = (
            "Multiply the query and each key number by number and add the products: "
            f"{self._expansion_text(0)}. One score per key."
        )
        with self.step("dot-products", caption):
            self.play(FadeIn(raw_name))
            expansion = None
            for j in range(n):
                key_box = SurroundingRectangle(x.row(j), color=theme.key, buff=0.02)
                new_expansion = self.expansion(j).move_to(DOWN * max(2.55, 0.6 - x.cells.get_bottom()[1]))
                run_time = 1.2 if j == 0 else 0.6
                fades = [FadeOut(expansion)] if expansion is not None else []
                self.play(FadeIn(key_box), FadeIn(new_expansion), *fades, run_time=run_time)
                self.play(
                    TransformFromCopy(new_expansion[-1], VGroup(raw.cells[j], raw.numbers[j])),
                    FadeOut(key_box),
                    run_time=run_time,
                )
                if j == 0:
                    self.wait(1.5)
                expansion = new_expansion
            self.play(FadeOut(expansion))

    def scale_the_scores(self):
        """Step 4: every score divided by the square root of d_k."""
        t, theme, raw = self.trace, self.theme, self.raw
        self.scaled = scaled = self.column(f"scaled_scores[{t.focus}]", 2, self.first_column + 1.5)
        scaled_name = formula(theme, r"\div \sqrt{d_k}", size=theme.body_size).next_to(scaled.cells[0], UP, buff=0.3)
        self.scale_label = VGroup(
            formula(theme, r"\sqrt{d_k} =", size=theme.body_size), self.number("scale", 0, size=theme.body_size)
        ).arrange(RIGHT, buff=0.12)
        self.scale_label.next_to(scaled.cells[-1], DOWN, buff=0.3)
        caption = (
            f"Divide every score by the square root of d_k = {t.d_k}, that is by {format_number(t.scale, 0)}, "
            "so that the scores keep a moderate spread."
        )
        with self.step("scale", caption):
            self.play(FadeIn(scaled_name), FadeIn(self.scale_label))
            self.play(TransformFromCopy(raw.cells, scaled.cells), TransformFromCopy(raw.numbers, scaled.numbers), run_time=1.5)

    def softmax_the_scores(self):
        """Step 5: softmax turns the scaled scores into weights, shown as numbers and bars."""
        t, theme, scaled = self.trace, self.theme, self.scaled
        i = t.focus
        self.weight_column = weights = self.column(f"weights[{i}]", 2, self.first_column + 3.0)
        weights_name = formula(theme, r"\mathrm{softmax}", size=theme.body_size).next_to(weights.cells[0], UP, buff=0.3)
        self.total = formula(theme, r"\textstyle\sum_j w_j = 1", size=theme.body_size).next_to(weights.cells[-1], DOWN, buff=0.3)
        bars, grow_from = self.weight_bars(self.x, weights)
        top = int(t.weights[i].argmax())
        caption = (
            "Softmax turns the scaled scores into weights between 0 and 1 that add up to 1. "
            f"“{t.query_tokens[i]}” gives the largest weight, {format_number(t.weights[i, top], 2)}, to “{t.key_tokens[top]}”."
        )
        with self.step("softmax", caption):
            self.play(FadeIn(weights_name))
            self.play(
                TransformFromCopy(scaled.cells, weights.cells), TransformFromCopy(scaled.numbers, weights.numbers), run_time=1.5
            )
            self.play(FadeIn(self.total), FadeIn(bars.labels), GrowFromEdge(bars.bars, grow_from), run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.1))

    def sum_the_values(self):
        """Step 6: the output, the weighted sum of the value rows."""
        t, theme, x, weights = self.trace, self.theme, self.x, self.weight_column
        i, n = t.focus, len(t.key_tokens)
        query = t.query_tokens[i]
        output = self.grid(f"output[{i}]", 2, cell_width=0.95, cell_height=0.55)
        output_name = formula(theme, r"\textstyle\sum_j w_j v_j =", size=theme.body_size)
        VGroup(output_name, output).arrange(RIGHT, buff=0.2).next_to(x.cells, DOWN, buff=0.55).align_to(x.row_labels, LEFT)
        caption = (
            f"The output for “{query}” is the weighted sum of the value rows: each row of V times its weight, added up. "
            f"The result, [{', '.join(format_number(v, 2) for v in t.output[i])}], is a new “{query}” that carries its context."
        )
        with self.step("weighted-sum", caption):
            self.play(FadeOut(self.scale_label), FadeOut(self.total), Indicate(self.x_name, color=theme.value), run_time=0.8)
            self.play(
                *[Indicate(VGroup(weights.cells[j], x.row(j)), color=theme.value, scale_factor=1.03) for j in range(n)],
                run_time=1.2,
            )
            self.play(
                FadeIn(output_name),
                TransformFromCopy(VGroup(*x.cells, *x.numbers), VGroup(*output.cells, *output.numbers)),
                run_time=1.8,
            )
            self.wait(1)

    def show_every_query(self):
        """Step 7: the whole attention matrix, every query against every key."""
        t, theme = self.trace, self.theme
        i, n = t.focus, len(t.key_tokens)
        strongest = sorted(range(n), key=lambda j: -t.weights[i, j])[:2]
        caption = (
            "Do the same for every token as the query and you get the full attention matrix: row i says where token i looks, and every row sums to 1. "
            f"“{t.query_tokens[i]}” looks most at “{t.key_tokens[strongest[0]]}” ({format_number(t.weights[i, strongest[0]], 2)}), "
            f"then “{t.key_tokens[strongest[1]]}” ({format_number(t.weights[i, strongest[1]], 2)})."
        )
        with self.step("heatmap", caption):
            self.clear()
            heading = self.heading("Attention weights: every query, every key")
            heatmap = self.grid(
                "weights",
                2,
                heat=True,
                vmin=0.0,
                cell_width=1.05,
                cell_height=min(0.62, 4.0 / n),
                row_labels=t.query_tokens,
                col_labels=t.key_tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                row_label_width=3.0,
                col_label_lines=0,
            )
            heatmap.move_to(DOWN * 0.3)
            names = axis_names(theme, heatmap)
            # Long key words take two or three lines: the map moves down if its names would reach the heading.
            VGroup(heatmap, names).shift(DOWN * max(0.0, VGroup(heatmap, names).get_top()[1] - 2.75))
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names))
            for row in range(n):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4)
            self.play(FadeIn(SurroundingRectangle(heatmap.row(i), color=theme.highlight, buff=0.03)))
            self.wait(1)

    def title_heading(self, query_name) -> Text:
        """ "Self-attention: <the sentence>", left of ``query_name``; a sentence too long for it is left out.

        The heading shrinks at most to the body size; the rows of X show the words anyway.
        """
        room = query_name.get_left()[0] - 0.4 - (-config.frame_width / 2 + 0.45)
        smallest = self.theme.body_size / self.theme.title_size
        for text in (
            "Self-attention: " + " ".join(self.trace.query_tokens),
            "Self-attention, one query at a time",
            "Self-attention",
        ):
            heading = self.heading(text)
            if heading.width * smallest <= room:
                break
        if heading.width > room:
            heading.scale_to_fit_width(room).to_corner(UL, buff=0.45)
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

    def _expansion_text(self, j: int) -> str:
        """The first dot product written out in the caption, from the trace."""
        t = self.trace
        terms = " + ".join(f"{format_number(a, 1)}×{format_number(b, 1)}" for a, b in zip(t.q[t.focus], t.k[j]))
        return f"for “{t.key_tokens[j]}”, {terms} = {format_number(t.raw_scores[t.focus, j], 2)}"

    def expansion(self, j: int) -> VGroup:
        """q · k_j written out term by term, every number read from the trace."""
        theme = self.theme
        t = self.trace
        i = t.focus
        # A long key word shrinks this label, so the sum stays on the screen.
        parts = [fit_label(theme, f"q · k({t.key_tokens[j]}) =", 3.6, size=theme.small_size)]
        for d in range(t.d_k):
            if d:
                parts.append(label(theme, "+", size=theme.small_size))
            parts += [
                self.number(f"q[{i}, {d}]", 1, color=theme.query),
                label(theme, "×", size=theme.small_size),
                self.number(f"k[{j}, {d}]", 1, color=theme.key),
            ]
        parts += [label(theme, "=", size=theme.small_size), self.number(f"raw_scores[{i}, {j}]", 2)]
        return VGroup(*parts).arrange(RIGHT, buff=0.12)
