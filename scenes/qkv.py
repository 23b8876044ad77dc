"""Queries, keys and values: three projections of the same embeddings, then Q meets K.

The library analogy ("What am I looking for?" / "What do I contain?"), with hand-made
4-number embeddings of "The cat sat on the mat" and seeded random 4x4 projection
matrices W_Q, W_K, W_V (the default seed of every scene, not one picked for its look).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import THE_CAT_SAT, sentence_example
from attention_math.traces.qkv import QKV_SEED, most_asymmetric_key, qkv_trace, same_embeddings, top_keys

from .kit import ExplainerScene
from .kit.heatmaps import attention_heatmap, axis_names
from .kit.layout import CONTENT_WIDTH, LEFT_EDGE, RIGHT_EDGE, SAFE_LEFT, center_between, keep_inside
from .kit.tables import NumberGrid
from .kit.text import elided_label, formula, label, word_rows
from .kit.worked_sums import WorkedSum
from .theme import format_number

CELLS = {"cell_width": 1.0, "cell_height": 0.58}
"""Matrix cells wide enough that "−0.98" keeps the readable size with room either side."""

RECIPES_AT = RIGHT * 2.2 + UP * 0.5
"""Where Q = X W_Q, K = X W_K, V = X W_V are written, right of X."""

NARROWEST_CELL = 0.95
"""Narrowest cell of a two-decimal matrix: "−0.57" keeps the readable size in it, with a margin."""

PROJECTION_GAP = 0.5
"""Room between X, W and the result, for the "·" and "=" between them."""

LABEL_WIDTH = 2.6
"""Widest a word left of a matrix may be; longer words lose their end to an ellipsis."""


class QKVScene(ExplainerScene):
    name = "qkv"
    title = "Queries, keys and values"
    description = "Q, K and V are three projections X·W of the same embeddings; Q and K meet in the scores."
    sources = "Vaswani et al. 2017, 'Attention Is All You Need', 3.2 (queries, keys, values; Q = X W_Q)"

    options = ("sentence", "seed")
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None, seed: int = QKV_SEED):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return qkv_trace(seed, example, focus=min(1, len(example.tokens) - 1))

    def construct(self):
        self.lay_out()
        self.show_library()
        self.show_words_whole()
        self.show_embeddings()
        self.project_queries()
        self.project_keys()
        self.project_values()
        self.show_meeting()
        self.show_heatmap()

    @property
    def seed(self) -> int:
        """The seed of the projection matrices, as the trace records it."""
        return int(self.trace.source.rsplit("default_rng(", 1)[1].rstrip(")"))

    def lay_out(self):
        """Sizes every step shares: where rows start, cell sizes, and the words as they fit beside a matrix."""
        t, theme = self.trace, self.theme
        n = len(t.query_tokens)
        # Up to six rows as in the course; seven or eight start higher and sit closer, so the line under them fits.
        self.top = 1.75 if n <= 6 else 2.0
        cells = {**CELLS, "font_size": self.theme.min_size}
        self.cells = cells if n <= 6 else {**cells, "cell_height": 0.5}
        widest = max(label(theme, token, size=theme.small_size).width for token in t.query_tokens)
        # Long words: X in narrow cells, and the words cut to what leaves W and the result readable cells.
        self.x_cells = {"cell_width": 0.7} if widest <= 0.85 else {"cell_width": 0.6, "font_size": theme.min_size}
        room = CONTENT_WIDTH - 2 * PROJECTION_GAP - 0.1 - 8 * NARROWEST_CELL - 4 * self.x_cells["cell_width"] - 0.15
        self.words = [
            elided_label(theme, token, min(LABEL_WIDTH, room), size=theme.small_size).original_text for token in t.query_tokens
        ]

    def show_library(self):
        """Step 1: the library analogy, one row per role."""
        theme = self.theme
        rows = [
            ("Query", "What am I looking for?", "your search term", theme.query),
            ("Key", "What do I contain?", "book titles and tags", theme.key),
            ("Value", "What do I hand over?", "book contents", theme.value),
        ]
        lines = (
            "The query is your search term: what am I looking for?",
            "The keys are the titles: what does each book contain?",
            "The values are the contents: what you take home when a title matches.",
        )
        with self.step("library", "Query, key, value: a library search"):
            self.say("Attention works like searching a library.")
            heading = self.heading("Query, key, value: searching a library")
            table = VGroup()
            for name, question, library, color in rows:
                table.add(
                    VGroup(
                        label(theme, name, size=theme.title_size, color=color),
                        label(theme, f"“{question}”"),
                        label(theme, library, color=theme.muted),
                    )
                )
            # Three aligned columns: name, question, library.
            widths = [max(row[c].width for row in table) for c in range(3)]
            for r, row in enumerate(table):
                x = SAFE_LEFT + 0.2
                for c, part in enumerate(row):
                    part.move_to(RIGHT * (x + part.width / 2) + UP * (0.9 - 1.5 * r))
                    x += widths[c] + 0.8
            titles = VGroup(
                label(theme, "in attention", size=theme.small_size, color=theme.muted)
                .next_to(table[0][1], UP, buff=0.45)
                .align_to(table[0][1], LEFT),
                label(theme, "in a library", size=theme.small_size, color=theme.muted)
                .next_to(table[0][2], UP, buff=0.45)
                .align_to(table[0][2], LEFT),
            )
            titles[1].align_to(titles[0], DOWN)
            self.play(FadeIn(heading), FadeIn(titles))
            for row, line in zip(table, lines):
                self.say(line)
                self.play(FadeIn(row[0]), FadeIn(row[1], shift=RIGHT * 0.2), run_time=0.8)
                self.play(FadeIn(row[2], shift=RIGHT * 0.2), run_time=0.7)

    def show_words_whole(self):
        """A step only for a sentence with words too long for the matrices' labels: every word, whole."""
        t, theme = self.trace, self.theme
        if list(self.words) == list(t.query_tokens):
            return
        with self.step("your-sentence", "Your sentence, word by word"):
            self.say("Your sentence, word by word. Beside the numbers, long words are cut short.")
            self.clear()
            heading = self.heading("Your sentence")
            whole = word_rows(theme, t.query_tokens, CONTENT_WIDTH - 0.4, size=theme.body_size)
            whole.move_to([0, 0, 0])
            self.play(FadeIn(heading), FadeIn(whole, lag_ratio=0.1))

    def show_embeddings(self):
        """Step 2: one X, and the three recipes Q = X W_Q, K = X W_K, V = X W_V."""
        t, theme = self.trace, self.theme
        course = t.query_tokens == THE_CAT_SAT.tokens
        with self.step("embeddings", "One X, three projections"):
            origin = ", made up by hand for this example" if course else ""
            self.say(f"Each word starts as a row of {t.x_query.shape[1]} numbers, its embedding{origin}.")
            self.clear()
            heading = self.heading("One X, three projections")
            x = self.grid("x_query", 1, row_labels=self.words, row_label_width=LABEL_WIDTH, **{**self.cells, **self.x_cells})
            # Centred at x = -4.5 as in the course example; long words push X right.
            centre = max(-4.5, LEFT_EDGE + x.row_labels.width + 0.15 + x.cells.width / 2)
            x.shift(RIGHT * (centre - x.cells.get_center()[0]) + UP * (self.top - x.cells.get_top()[1]))
            x_name = formula(theme, r"X").next_to(x.cells, UP, buff=0.2)
            recipes = (
                VGroup(
                    formula(theme, r"Q = X\,W_Q", size=theme.display_formula_size, colors={"Q": theme.query, "W_Q": theme.query}),
                    formula(theme, r"K = X\,W_K", size=theme.display_formula_size, colors={"K": theme.key, "W_K": theme.key}),
                    formula(theme, r"V = X\,W_V", size=theme.display_formula_size, colors={"V": theme.value, "W_V": theme.value}),
                )
                .arrange(DOWN, buff=0.5, aligned_edge=LEFT)
                .move_to(RECIPES_AT)
            )
            recipes.add(
                label(theme, "three projection matrices", size=theme.small_size, color=theme.muted).next_to(
                    recipes, DOWN, buff=0.45
                )
            )
            self.play(
                FadeIn(heading),
                FadeIn(x_name),
                FadeIn(x.row_labels, lag_ratio=0.1),
                FadeIn(x.cells),
                FadeIn(x.numbers),
                run_time=1.5,
            )
            self.say("Queries, keys and values are all made from this one X,")
            self.play(FadeIn(recipes, lag_ratio=0.4), run_time=1.5)
            self.say("each by its own projection matrix: W_Q, W_K and W_V.")
            self.play(Indicate(recipes, color=theme.highlight, scale_factor=1.05))
            self.note = None
            if not course:
                self.say("Words of “The cat sat on the mat” keep their hand-made numbers; others get made-up ones.")
                self.note = self.source_note(t.source.rsplit("; ", 1)[0])
                self.play(FadeIn(self.note))
            self.x, self.x_name, self.recipes = x, x_name, recipes

    def projection(self, name: str) -> tuple[NumberGrid, NumberGrid, object, object]:
        """``W`` and ``X W`` for ``name`` (q, k or v) right of X, with their names."""
        theme = self.theme
        color = {"q": theme.query, "k": theme.key, "v": theme.value}[name]
        upper = name.upper()
        room = RIGHT_EDGE - self.x.cells.get_right()[0]
        cells = {**self.cells, "cell_width": min(1.0, (room - 2 * PROJECTION_GAP - 0.1) / 8)}
        w = self.grid(f"w_{name}", 2, **cells)
        w.shift(
            RIGHT * (self.x.cells.get_right()[0] + PROJECTION_GAP - w.cells.get_left()[0])
            + UP * (self.top - w.cells.get_top()[1])
        )
        result = self.grid(name, 2, **cells)
        result.shift(
            RIGHT * (w.cells.get_right()[0] + PROJECTION_GAP - result.cells.get_left()[0])
            + UP * (self.top - result.cells.get_top()[1])
        )
        w_name = formula(theme, f"W_{upper}", colors={f"W_{upper}": color}).next_to(w.cells, UP, buff=0.2)
        result_name = formula(theme, upper, colors={upper: color}).next_to(result.cells, UP, buff=0.2)
        return w, result, w_name, result_name

    def project_queries(self):
        """Step 3: Q = X W_Q, with one entry worked out."""
        t, theme = self.trace, self.theme
        w, result, w_name, result_name = self.projection("q")
        dot = label(theme, "·", size=theme.title_size).move_to((self.x.cells.get_right() + w.cells.get_left()) / 2)
        equals = label(theme, "=", size=theme.title_size).move_to((w.cells.get_right() + result.cells.get_left()) / 2)
        dot.set_y(self.x.cells.get_center()[1])
        equals.set_y(self.x.cells.get_center()[1])
        shape = f"{t.w_q.shape[0]}×{t.w_q.shape[1]}"
        with self.step("q-projection", "Queries: Q = X·W_Q"):
            self.say(f"Multiply X by a {shape} projection matrix W_Q to get the queries Q.")
            leaving = [self.recipes] + ([self.note] if self.note is not None else [])
            self.play(*[FadeOut(m) for m in leaving], FadeIn(dot), FadeIn(equals))
            self.play(FadeIn(w_name), FadeIn(w.cells), FadeIn(w.numbers), run_time=1.0)
            self.play(FadeIn(result_name), FadeIn(result.cells))
            self.work_one_entry(w, result)
            self.say(f"These matrices are random, drawn with seed {self.seed}; a trained model learns them.")
            self.play(Indicate(w_name, color=theme.highlight))
        self.previous = (w, w_name, result, result_name)

    def work_one_entry(self, w, result):
        """Highlight one row of X and one column of W_Q, write out their product, then fill in Q."""
        t, theme = self.trace, self.theme
        i = t.focus
        row_box = SurroundingRectangle(self.x.row(i), color=theme.highlight, buff=0.03)
        column_box = SurroundingRectangle(w.column(0), color=theme.highlight, buff=0.03)
        cell_box = SurroundingRectangle(result.cell(i, 0), color=theme.highlight, buff=0.03)
        worked = WorkedSum(
            self,
            [f"x_query[{i}, {d}]" for d in range(t.w_q.shape[0])],
            [f"w_q[{d}, 0]" for d in range(t.w_q.shape[0])],
            f"q[{i}, 0]",
            decimals=(1, 2, 2),
            colors=(None, theme.query, theme.query),
        )
        worked.next_to(self.x.cells, DOWN, buff=0.5)
        worked.set_x(0).shift(RIGHT * max(0.0, LEFT_EDGE - worked.get_left()[0]))
        self.say("Each entry of Q is a row of X times a column of W_Q, added up.")
        self.play(FadeIn(row_box), FadeIn(column_box))
        self.play(FadeIn(worked), run_time=1.2)
        self.say(f"For “{t.query_tokens[i]}”, the first number of its query is {format_number(t.q[i, 0], 2)}.")
        self.play(TransformFromCopy(worked.result, result.number(i, 0)), FadeIn(cell_box), run_time=1.0)
        others = VGroup(
            *[result.number(r, c) for r in range(result.shape[0]) for c in range(result.shape[1]) if (r, c) != (i, 0)]
        )
        self.say("Every other entry is made the same way.")
        self.play(
            FadeOut(row_box),
            FadeOut(column_box),
            FadeOut(cell_box),
            FadeOut(worked),
            FadeIn(others, lag_ratio=0.03),
            run_time=1.5,
        )

    def replace_projection(self, name: str) -> None:
        """W and its result for ``name`` take the place of the previous projection's, row by row."""
        old_w, old_w_name, old_result, old_result_name = self.previous
        w, result, w_name, result_name = self.projection(name)
        self.play(FadeOut(old_result), FadeOut(old_result_name), run_time=0.6)
        self.play(ReplacementTransform(old_w, w), ReplacementTransform(old_w_name, w_name), run_time=1.2)
        self.play(FadeIn(result_name), FadeIn(result.cells))
        for i in range(result.shape[0]):
            row = VGroup(*[result.number(i, c) for c in range(result.shape[1])])
            self.play(FadeIn(row, shift=RIGHT * 0.15), run_time=0.4)
        self.previous = (w, w_name, result, result_name)

    def project_keys(self):
        """Step 4: K = X W_K."""
        with self.step("k-projection", "Keys: K = X·W_K"):
            self.say("The same X times a second matrix, W_K, gives the keys K.")
            self.replace_projection("k")
            self.say("One row per word: what it contains. Same words, different numbers.")

    def project_values(self):
        """Step 5: V = X W_V."""
        with self.step("v-projection", "Values: V = X·W_V"):
            self.say("A third matrix, W_V, gives the values V.")
            self.replace_projection("v")
            self.say("What each word hands over once it is chosen. Three projections of one X.")

    def show_meeting(self):
        """Step 6: one query row meets one key row: their dot product, then divided by √d_k."""
        t, theme = self.trace, self.theme
        i, j = t.focus, len(t.key_tokens) - 1
        with self.step("query-meets-key", "A query meets a key: q·k / √d_k"):
            self.say(f"Now a query meets a key: “{t.query_tokens[i]}” against “{t.key_tokens[j]}”.")
            self.clear()
            heading = self.heading("A query meets a key")
            q = self.grid("q", 2, **self.cells, row_labels=self.words, row_label_color=theme.query, row_label_width=LABEL_WIDTH)
            k = self.grid("k", 2, **self.cells, row_labels=self.words, row_label_color=theme.key, row_label_width=LABEL_WIDTH)
            # Q centred at x = -3.3 and K at 3.3 as in the course example; long words push Q right and K's words between them.
            q_centre = max(-3.3, LEFT_EDGE + q.width - q.cells.width / 2)
            q.shift(RIGHT * (q_centre - q.cells.get_center()[0]) + UP * (self.top - q.cells.get_top()[1]))
            k_centre = max(3.3, q.cells.get_right()[0] + 0.3 + k.width - k.cells.width / 2)
            k.shift(RIGHT * (k_centre - k.cells.get_center()[0]) + UP * (self.top - k.cells.get_top()[1]))
            q_name = formula(theme, "Q", colors={"Q": theme.query}).next_to(q.cells, UP, buff=0.2)
            k_name = formula(theme, "K", colors={"K": theme.key}).next_to(k.cells, UP, buff=0.2)
            self.play(FadeIn(heading), FadeIn(q), FadeIn(k), FadeIn(q_name), FadeIn(k_name), run_time=1.2)
            q_box = SurroundingRectangle(q.row(i), color=theme.query, buff=0.04)
            k_box = SurroundingRectangle(k.row(j), color=theme.key, buff=0.04)
            self.play(FadeIn(q_box), FadeIn(k_box))

            worked = WorkedSum(
                self,
                [f"q[{i}, {d}]" for d in range(t.d_k)],
                [f"k[{j}, {d}]" for d in range(t.d_k)],
                f"raw_scores[{i}, {j}]",
                name=label(theme, "q · k =", size=theme.small_size),
                colors=(theme.query, theme.key, None),
                max_width=CONTENT_WIDTH,
            )
            worked.next_to(VGroup(q.cells, k.cells), DOWN, buff=0.35).set_x(0)
            scaled = VGroup(
                self.number(f"raw_scores[{i}, {j}]", 2),
                label(theme, "÷", size=theme.small_size),
                self.number("scale", 0),
                label(theme, "=", size=theme.small_size),
                self.number(f"scaled_scores[{i}, {j}]", 2, color=theme.highlight, size=theme.body_size),
            ).arrange(RIGHT, buff=0.12)
            scaled.next_to(worked, DOWN, buff=0.3).set_x(0)
            self.say("Their score starts as the dot product of the two rows.")
            self.play(FadeIn(worked, lag_ratio=0.05), run_time=2.0)
            self.say(
                f"d_k is {t.d_k}, so divide by its square root, {format_number(t.scale, 0)}: "
                f"{format_number(t.raw_scores[i, j], 2)} ÷ {format_number(t.scale, 0)} = {format_number(t.scaled_scores[i, j], 2)}."
            )
            self.play(TransformFromCopy(worked.result, scaled[0]), FadeIn(scaled[1:]))
            self.play(Indicate(scaled[-1], color=theme.highlight))

    def show_heatmap(self):
        """Step 7: every query against every key, and what the pattern is (and is not)."""
        t, theme = self.trace, self.theme
        i = t.focus
        n = len(t.query_tokens)
        tops = top_keys(t, i)
        other = most_asymmetric_key(t, i)
        with self.step("scores-heatmap", "Scores: every query, every key"):
            self.say("Do that for every query and every key: a table of scores, one row per query.")
            self.clear()
            heading = self.heading("Scores: every query against every key")
            wide = n <= 6
            keys = [elided_label(theme, token, 2.8, size=theme.small_size).original_text for token in t.key_tokens]
            cell = (1.15 if wide else 0.95, min(0.6, 3.6 / n))
            numbers = theme.dense_number_size if wide else theme.min_size
            heatmap = attention_heatmap(
                self, "scaled_scores", self.words, keys, cell=cell, number_size=numbers, label_width=LABEL_WIDTH
            )
            names = axis_names(theme, heatmap)
            recipe = formula(
                theme, r"\frac{Q K^\top}{\sqrt{d_k}}", size=theme.hero_formula_size, colors={"Q": theme.query, "K": theme.key}
            )
            # Beside the cells, where long key words above them cannot reach.
            recipe.next_to(heatmap.cells, RIGHT, buff=0.5).set_y(heatmap.cells.get_y())
            chosen = "every scene's default, not picked for this picture" if self.seed == QKV_SEED else "the seed asked for"
            note = self.note_lines(
                (
                    f"Random projection matrices (seed {self.seed}): the pattern is chance, not meaning.",
                    f"Seed {self.seed}: {chosen}.",
                )
            )
            picture = VGroup(heatmap, names, recipe)
            keep_inside(center_between(picture, heading, note))
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names), Write(recipe))
            for row in range(n):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4)
            self.say(self.top_line(i, tops))
            self.play(
                *[FadeIn(SurroundingRectangle(heatmap.cell(i, j), color=theme.text, buff=0.02, stroke_width=5)) for j in tops]
            )
            for group in same_embeddings(t):
                words = " and ".join(f"“{t.key_tokens[j]}”" for j in group)
                self.say(f"{words} have the same embedding, so the same key: their columns are equal.")
                self.play(*[Indicate(heatmap.column(j), color=theme.highlight, scale_factor=1.0) for j in group])
            self.say(
                f"Not symmetric: “{t.query_tokens[i]}” for “{t.key_tokens[other]}” is "
                f"{format_number(t.scaled_scores[i, other], 2)}, the other way {format_number(t.scaled_scores[other, i], 2)}."
            )
            pair = VGroup(
                SurroundingRectangle(heatmap.cell(i, other), color=theme.query, buff=0.02, stroke_width=5),
                SurroundingRectangle(heatmap.cell(other, i), color=theme.key, buff=0.02, stroke_width=5),
            )
            self.play(FadeIn(pair))
            self.say("W_Q and W_K differ, so what a word looks for differs from what it offers.")
            self.play(Indicate(pair, color=theme.highlight))
            self.say(f"The matrices are random (seed {self.seed}): this pattern is chance, not meaning.")
            self.play(FadeIn(note))
            self.say("Softmax then turns each row into attention weights, which mix the values V.")
            self.wait(0.5)

    def top_line(self, i: int, tops: list[int]) -> str:
        """What the highest score of query ``i`` is, said as the numbers say it: one key, or a tie."""
        t = self.trace
        word, best = t.query_tokens[i], format_number(t.scaled_scores[i, tops[0]], 2)
        if len(tops) > 1:
            tied = " and ".join(f"“{t.key_tokens[j]}”" for j in tops)
            return f"“{word}” scores highest with {tied}, tied at {best}."
        runner_up = max((j for j in range(len(t.key_tokens)) if j != tops[0]), key=lambda j: t.scaled_scores[i, j])
        return (
            f"“{word}” scores highest with “{t.key_tokens[tops[0]]}”: {best}; "
            f"next “{t.key_tokens[runner_up]}”: {format_number(t.scaled_scores[i, runner_up], 2)}."
        )
