"""Queries, keys and values: three projections of the same embeddings, then Q meets K.

Follows seed 003 "Query, Key, Value" (the library analogy) and seed 000
"What am I looking for?" / "What do I have to offer?", with the 4-dimensional
"The cat sat on the mat" embeddings of seed 000 and seeded random 4x4 weights.
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

from attention_math import DEFAULT_SEED, THE_CAT_SAT, sentence_example
from attention_math.traces.qkv import qkv_trace

from .kit import ExplainerScene
from .kit.components import axis_names, formula, label
from .kit.layout import RIGHT_EDGE
from .theme import format_number

CELLS = {"cell_width": 1.0, "cell_height": 0.58, "font_size": 22}
"""Matrix cells wide enough that "−0.98" keeps its full font size."""


LABEL_WIDTH = 2.6
"""Widest a word left of a matrix may be; longer words shrink to it."""


class QKVScene(ExplainerScene):
    name = "qkv"
    title = "Queries, keys and values"
    description = "Q, K and V are three projections X·W of the same embeddings; Q and K meet in the scores."
    sources = "seed 003 'Query, Key, Value'; seed 000 'Attention Mathematics' (What am I looking for?)"

    options = ("sentence", "seed")
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None, seed: int = DEFAULT_SEED):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return qkv_trace(seed, example, focus=min(1, len(example.tokens) - 1))

    def construct(self):
        t = self.trace
        n = len(t.query_tokens)
        # Up to six rows as in the course; seven or eight start higher and sit closer, so the line under them fits.
        self.top = 1.75 if n <= 6 else 2.0
        self.cells = CELLS if n <= 6 else {**CELLS, "cell_height": 0.5}
        self.show_library()
        self.show_embeddings(t)
        colors = {"q": self.theme.query, "k": self.theme.key, "v": self.theme.value}
        captions = {
            "q": (
                f"Multiply X by a {t.w_q.shape[0]}×{t.w_q.shape[1]} weight matrix W_Q to get the queries Q. "
                f"Each entry is a row of X times a column of W_Q: for “{t.query_tokens[t.focus]}”, "
                f"{self.expansion_text()}. The weights here are random; a trained model learns them."
            ),
            "k": (
                "The same X times a second matrix, W_K, gives the keys K: one row per word saying what it contains. "
                "Same words, different numbers."
            ),
            "v": (
                "And a third matrix, W_V, gives the values V: what each word hands over once it is chosen. "
                "Three projections of one X."
            ),
        }
        previous = None
        for name in "qkv":
            previous = self.show_projection(t, name, colors[name], captions[name], previous)
        self.show_meeting(t)
        self.show_heatmap(t)

    def show_library(self):
        theme = self.theme
        caption = (
            "Attention works like searching a library. The query is your search term: what am I looking for? "
            "The keys are the book titles: what does each item contain? "
            "The values are the books' contents: what you take home when a title matches."
        )
        with self.step("library", caption):
            heading = self.heading("Query, key, value: searching a library")
            rows = [
                ("Query", "What am I looking for?", "your search term", theme.query),
                ("Key", "What do I contain?", "book titles and tags", theme.key),
                ("Value", "What do I hand over?", "book contents", theme.value),
            ]
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
                x = -6.2
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
            for row in table:
                self.play(FadeIn(row[0]), FadeIn(row[1], shift=RIGHT * 0.2), run_time=0.8)
                self.play(FadeIn(row[2], shift=RIGHT * 0.2), run_time=0.7)
            self.wait(1)

    def show_embeddings(self, t):
        theme = self.theme
        course = t.query_tokens == THE_CAT_SAT.tokens
        origin = (
            "from the course notebook"
            if course
            else "the course notebook's for its own words, made-up numbers for any other word (see the line below)"
        )
        caption = (
            f"Each word of “{' '.join(t.query_tokens)}” starts as one embedding row of {t.x_query.shape[1]} numbers, "
            f"{origin}. Queries, keys and values are all made from this same X, by three different matrices."
        )
        with self.step("embeddings", caption):
            self.clear()
            heading = self.heading("One X, three projections")
            # Centred at x = -4.5 as in the course example; long words push X right, in narrower cells.
            widest = max(label(theme, token, size=theme.small_size).width for token in t.query_tokens)
            narrow = {} if widest <= 0.85 else {"cell_width": 0.65, "font_size": theme.min_size}
            x = self.grid(
                "x_query",
                1,
                row_labels=t.query_tokens,
                row_label_width=LABEL_WIDTH,
                **{**self.cells, "cell_width": 0.7, **narrow},
            )
            centre = max(-4.5, -RIGHT_EDGE + x.row_labels.width + 0.15 + x.cells.width / 2)
            x.shift(RIGHT * (centre - x.cells.get_center()[0]) + UP * (self.top - x.cells.get_top()[1]))
            x_name = formula(theme, r"X").next_to(x.cells, UP, buff=0.2)
            recipes = (
                VGroup(
                    formula(theme, r"Q = X\,W_Q", colors={"Q": theme.query, "W_Q": theme.query}),
                    formula(theme, r"K = X\,W_K", colors={"K": theme.key, "W_K": theme.key}),
                    formula(theme, r"V = X\,W_V", colors={"V": theme.value, "W_V": theme.value}),
                )
                .arrange(DOWN, buff=0.5, aligned_edge=LEFT)
                .move_to(RIGHT * 2.2 + UP * 0.5)
            )
            self.play(
                FadeIn(heading),
                FadeIn(x_name),
                FadeIn(x.row_labels, lag_ratio=0.1),
                FadeIn(x.cells),
                FadeIn(x.numbers),
                run_time=1.5,
            )
            self.play(FadeIn(recipes, lag_ratio=0.4), run_time=1.5)
            self.note = self.inputs_note(course)
            if self.note is not None:
                self.play(FadeIn(self.note))
            self.x, self.x_name, self.heading_mobject, self.recipes = x, x_name, heading, recipes
            self.wait(1)

    def inputs_note(self, course: bool) -> VGroup | None:
        """Where a teacher's sentence or seed gets its numbers (from the trace's ``source``); None for the course's."""
        embeddings, weights = self.trace.source.rsplit("; ", 1)
        if not course:
            return self.source_note(embeddings, more=(weights,))
        if not weights.endswith(f"default_rng({DEFAULT_SEED})"):
            return self.note_lines((weights,))
        return None

    def expansion_text(self) -> str:
        """The worked entry Q[focus, 0] in the caption, every number from the trace."""
        t = self.trace
        i = t.focus

        def factor(value):
            text = format_number(value, 2)
            return f"({text})" if value < 0 else text  # a bracketed minus reads better after "×"

        terms = " + ".join(f"{format_number(t.x_query[i, d], 1)}×{factor(t.w_q[d, 0])}" for d in range(t.w_q.shape[0]))
        return f"{terms} = {format_number(t.q[i, 0], 2)}"

    def expansion(self) -> VGroup:
        """Row ``focus`` of X times column 0 of W_Q, written out, every number read from the trace."""
        theme = self.theme
        t = self.trace
        i = t.focus
        parts = []
        for d in range(t.w_q.shape[0]):
            if d:
                parts.append(label(theme, "+", size=theme.small_size))
            parts += [
                self.number(f"x_query[{i}, {d}]", 1),
                label(theme, "×", size=theme.small_size),
                self.number(f"w_q[{d}, 0]", 2, color=theme.query),
            ]
        parts += [label(theme, "=", size=theme.small_size), self.number(f"q[{i}, 0]", 2, color=theme.query)]
        return VGroup(*parts).arrange(RIGHT, buff=0.12)

    def show_projection(self, t, name: str, color: str, caption: str, previous):
        """One projection ``X · W = result`` beside X; returns what the next projection replaces."""
        theme = self.theme
        upper = name.upper()
        with self.step(f"{name}-projection", caption):
            # W and the result 0.7 apart right of X; when long words push X right, gaps and cells narrow to fit.
            room = RIGHT_EDGE - self.x.cells.get_right()[0]
            gap = 0.7 if room >= 8 + 1.4 else 0.55
            cells = {**self.cells, "cell_width": min(1.0, (room - 2 * gap) / 8)}
            w = self.grid(f"w_{name}", 2, **cells)
            w.shift(RIGHT * (self.x.cells.get_right()[0] + gap - w.cells.get_left()[0]) + UP * (self.top - w.cells.get_top()[1]))
            result = self.grid(name, 2, **cells)
            result.shift(
                RIGHT * (w.cells.get_right()[0] + gap - result.cells.get_left()[0]) + UP * (self.top - result.cells.get_top()[1])
            )
            dot = (
                label(theme, "·", size=theme.title_size)
                .move_to((self.x.cells.get_right() + w.cells.get_left()) / 2)
                .set_y(self.x.cells.get_center()[1])
            )
            equals = (
                label(theme, "=", size=theme.title_size)
                .move_to((w.cells.get_right() + result.cells.get_left()) / 2)
                .set_y(self.x.cells.get_center()[1])
            )
            w_name = formula(theme, f"W_{upper}", colors={f"W_{upper}": color}).next_to(w.cells, UP, buff=0.2)
            result_name = formula(theme, upper, colors={upper: color}).next_to(result.cells, UP, buff=0.2)
            if previous is None:
                leaving = [self.recipes] + ([self.note] if self.note is not None else [])
                self.play(*[FadeOut(m) for m in leaving], FadeIn(dot), FadeIn(equals))
                self.play(FadeIn(w_name), FadeIn(w.cells), FadeIn(w.numbers), run_time=1.0)
            else:
                old_w, old_w_name, old_result, old_result_name, dot, equals = previous
                self.play(FadeOut(old_result), FadeOut(old_result_name), run_time=0.6)
                self.play(ReplacementTransform(old_w, w), ReplacementTransform(old_w_name, w_name), run_time=1.2)
            self.play(FadeIn(result_name), FadeIn(result.cells))
            if name == "q":
                self.work_one_entry(t, w, result)
            else:
                for i in range(len(t.query_tokens)):
                    row = VGroup(*result.numbers[i * 4 : (i + 1) * 4])
                    self.play(FadeIn(row, shift=RIGHT * 0.15), run_time=0.4)
            self.wait(1)
        return w, w_name, result, result_name, dot, equals

    def work_one_entry(self, t, w, result):
        """Highlight one row of X and one column of W_Q, write out their product, then fill in Q."""
        theme = self.theme
        i = t.focus
        row_box = SurroundingRectangle(self.x.row(i), color=theme.highlight, buff=0.03)
        column_box = SurroundingRectangle(w.column(0), color=theme.highlight, buff=0.03)
        cell_box = SurroundingRectangle(result.cell(i, 0), color=theme.highlight, buff=0.03)
        expansion = self.expansion().move_to(DOWN * 2.45)
        self.play(FadeIn(row_box), FadeIn(column_box))
        self.play(FadeIn(expansion), run_time=1.2)
        self.play(TransformFromCopy(expansion[-1], result.number(i, 0)), FadeIn(cell_box), run_time=1.0)
        self.wait(1.5)
        others = VGroup(
            *[result.number(r, c) for r in range(result.shape[0]) for c in range(result.shape[1]) if (r, c) != (i, 0)]
        )
        self.play(
            FadeOut(row_box),
            FadeOut(column_box),
            FadeOut(cell_box),
            FadeOut(expansion),
            FadeIn(others, lag_ratio=0.03),
            run_time=1.5,
        )

    def show_meeting(self, t):
        theme = self.theme
        i, j = t.focus, len(t.key_tokens) - 1
        caption = (
            f"Now a query meets a key. The score of “{t.query_tokens[i]}” for “{t.key_tokens[j]}” is the dot product "
            f"of its query row with the key row of “{t.key_tokens[j]}”, divided by √d_k = {format_number(t.scale, 0)}: "
            f"{format_number(t.raw_scores[i, j], 2)} ÷ {format_number(t.scale, 0)} = {format_number(t.scaled_scores[i, j], 2)}."
        )
        with self.step("query-meets-key", caption):
            self.clear()
            heading = self.heading("A query meets a key")
            q = self.grid(
                "q", 2, **self.cells, row_labels=t.query_tokens, row_label_color=theme.query, row_label_width=LABEL_WIDTH
            )
            k = self.grid("k", 2, **self.cells, row_labels=t.key_tokens, row_label_color=theme.key, row_label_width=LABEL_WIDTH)
            # Q centred at x = -3.3 and K at 3.3 as in the course example; long words push Q right and K's words between them.
            q_centre = max(-3.3, -RIGHT_EDGE + q.width - q.cells.width / 2)
            q.shift(RIGHT * (q_centre - q.cells.get_center()[0]) + UP * (self.top - q.cells.get_top()[1]))
            k_centre = max(3.3, q.cells.get_right()[0] + 0.3 + k.width - k.cells.width / 2)
            k.shift(RIGHT * (k_centre - k.cells.get_center()[0]) + UP * (self.top - k.cells.get_top()[1]))
            q_name = formula(theme, "Q", colors={"Q": theme.query}).next_to(q.cells, UP, buff=0.2)
            k_name = formula(theme, "K", colors={"K": theme.key}).next_to(k.cells, UP, buff=0.2)
            self.play(FadeIn(heading), FadeIn(q), FadeIn(k), FadeIn(q_name), FadeIn(k_name), run_time=1.2)
            q_box = SurroundingRectangle(q.row(i), color=theme.query, buff=0.04)
            k_box = SurroundingRectangle(k.row(j), color=theme.key, buff=0.04)
            self.play(FadeIn(q_box), FadeIn(k_box))

            parts = [label(theme, "(", size=theme.small_size)]
            for d in range(t.d_k):
                if d:
                    parts.append(label(theme, "+", size=theme.small_size))
                parts += [
                    self.number(f"q[{i}, {d}]", 2, color=theme.query),
                    label(theme, "×", size=theme.small_size),
                    self.number(f"k[{j}, {d}]", 2, color=theme.key),
                ]
            parts += [
                label(theme, ") ÷", size=theme.small_size),
                self.number("scale", 0),
                label(theme, "=", size=theme.small_size),
                self.number(f"scaled_scores[{i}, {j}]", 2, color=theme.highlight, size=theme.body_size),
            ]
            score = VGroup(*parts).arrange(RIGHT, buff=0.1).move_to(DOWN * 2.45)
            if score.width > 13.2:
                score.scale_to_fit_width(13.2)
            self.play(FadeIn(score, lag_ratio=0.05), run_time=2.0)
            self.play(Indicate(parts[-1], color=theme.highlight))
            self.wait(1)

    def show_heatmap(self, t):
        theme = self.theme
        i = t.focus
        top = int(t.scaled_scores[i].argmax())
        caption = (
            "Do that for every query and every key: Q·Kᵀ / √d_k is a table of scores, one row per query. "
            f"“{t.query_tokens[i]}” scores highest with “{t.key_tokens[top]}”, {format_number(t.scaled_scores[i, top], 2)}. "
            "Softmax turns each row into weights, and the weights mix the values V."
        )
        with self.step("scores-heatmap", caption):
            self.clear()
            heading = self.heading("Scores: every query against every key")
            n = len(t.query_tokens)
            heatmap = self.grid(
                "scaled_scores",
                2,
                heat=True,
                cell_width=1.05,
                cell_height=min(0.6, 4.0 / n),
                row_labels=t.query_tokens,
                col_labels=t.key_tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                row_label_width=LABEL_WIDTH,
                col_label_lines=0,
            )
            heatmap.move_to(DOWN * 0.35 + LEFT * 1.6)
            names = axis_names(theme, heatmap)
            recipe = formula(theme, r"\frac{Q K^\top}{\sqrt{d_k}}", size=56, colors={"Q": theme.query, "K": theme.key})
            # Beside the cells, where long key words above them cannot reach.
            recipe.next_to(heatmap.cells, RIGHT, buff=0.7).set_y(heatmap.get_y())
            # Eight columns or long words: the whole picture moves into the frame, and down from the heading.
            picture = VGroup(heatmap, names, recipe)
            if picture.get_left()[0] < -RIGHT_EDGE:
                picture.set_x(0)
            picture.shift(DOWN * max(0.0, picture.get_top()[1] - 2.75))
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names), Write(recipe))
            for row in range(len(t.query_tokens)):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4)
            self.play(FadeIn(SurroundingRectangle(heatmap.cell(i, top), color=theme.highlight, buff=0.02, stroke_width=5)))
            self.wait(1)
