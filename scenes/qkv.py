"""Queries, keys and values: three projections of the same embeddings, then Q meets K.

The library analogy ("What am I looking for?" / "What do I contain?"), with hand-made
4-number embeddings of "The cat sat on the mat" and seeded random 4x4 projection
matrices W_Q, W_K, W_V (the default seed of every trace, not one picked for its look).
W and the projections show their first two columns (fewer, larger numbers); Q, K and V
end side by side. The score table's bright columns are said to come from the hand-made
embeddings (the words given the largest numbers), which the trace checks, never read as meaning.
"""

from __future__ import annotations

import numpy as np
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
    Text,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import THE_CAT_SAT, sentence_example
from attention_math.traces.qkv import (
    QKV_SEED,
    bright_keys,
    bright_queries,
    common_top_key,
    longest_embeddings,
    most_asymmetric_key,
    qkv_trace,
    same_embeddings,
    top_keys,
    top_shown_alone,
)

from .kit import ExplainerScene
from .kit.heatmaps import attention_heatmap, axis_names
from .kit.layout import CONTENT_WIDTH, LEFT_EDGE, RIGHT_EDGE, SAFE_LEFT, center_between, keep_inside
from .kit.scene import Shown
from .kit.tables import NumberGrid
from .kit.text import elided_label, formula, label, word_rows
from .kit.worked_sums import WorkedSum
from .theme import format_number

CELLS = {"cell_width": 1.0, "cell_height": 0.58}
"""Matrix cells wide enough that "−0.98" keeps the readable size with room either side."""

WIDE_CELLS = {"cell_width": 1.3, "cell_height": 0.6}
"""Cells for two-decimal numbers at the small size, with room either side ("−0.98" clear of its borders)."""

SHOWN_COLUMNS = 2
"""Columns of W and of Q, K, V drawn; an ellipsis stands for the rest (fewer, larger numbers)."""

ELLIPSIS_ROOM = 0.45
"""Width an ellipsis right of a matrix takes, gap included."""

SLOT_GAP = 0.55
"""Room between Q, K and V side by side."""

RECIPES_AT = RIGHT * 2.2 + UP * 0.5
"""Where Q = X W_Q, K = X W_K, V = X W_V are written, right of X."""


PROJECTION_GAP = 0.5
"""Room between X, W and the result, for the "·" and "=" between them."""

LABEL_WIDTH = 2.6
"""Widest a word left of a matrix may be; longer words lose their end to an ellipsis."""

NAME_GAP = 0.25
"""Least room between two names side by side above their matrices."""

MEET_GAP = 0.6
"""Room between Q and K where a query meets a key."""


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
"""Places of words, as said: a sentence has at most :attr:`QKVScene.max_tokens` (eight) words."""


def side_by_side(group: VGroup, gap: float) -> VGroup:
    """``group``'s parts in a row ``gap`` apart, the gaps narrowed (to 0.2 at least) when long words make it too wide."""
    group.arrange(RIGHT, buff=gap, aligned_edge=UP)
    excess = group.width - CONTENT_WIDTH
    if excess > 0 and len(group) > 1:
        group.arrange(RIGHT, buff=max(0.2, gap - excess / (len(group) - 1)), aligned_edge=UP)
    return group


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
        self.show_values_used()

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
        self.x_cells = {"cell_width": 0.85, "font_size": theme.small_size} if widest <= 1.2 else {"cell_width": 0.6}
        elided = 2 * (SHOWN_COLUMNS * WIDE_CELLS["cell_width"] + ELLIPSIS_ROOM)
        room = CONTENT_WIDTH - 2 * PROJECTION_GAP - elided - 4 * self.x_cells["cell_width"] - 0.15
        self.words_width = min(LABEL_WIDTH, room)
        self.words = self.cut_words(self.words_width)
        # Q, K and V side by side: three elided matrices, each with its words.
        slot = (CONTENT_WIDTH - 2 * SLOT_GAP) / 3 - SHOWN_COLUMNS * WIDE_CELLS["cell_width"] - ELLIPSIS_ROOM - 0.15
        self.slot_width = slot
        self.slot_words = self.cut_words(slot)
        # Q and K whole, side by side, for one dot product; seven or eight rows sit closer, so the sum fits below.
        # (0.06 each side: the box that marks the meeting rows stands that far outside the cells.)
        self.meet_width = (CONTENT_WIDTH - MEET_GAP) / 2 - 4 * WIDE_CELLS["cell_width"] - 0.15 - 0.06
        self.meet_words = self.cut_words(self.meet_width)
        self.meet_cell_height = 0.55 if n <= 6 else 0.42

    def cut_words(self, width: float) -> list[str]:
        """The sentence's words, each cut with an ellipsis to ``width`` at the small size.

        A grid drawing them takes the same ``width`` as its ``row_label_width``: a cut word is measured
        at the readable size, and the grid shrinks it there from the small size it starts at.
        """
        theme = self.theme
        return [elided_label(theme, token, width, size=theme.small_size).original_text for token in self.trace.query_tokens]

    def elided_grid(self, name: str, **kwargs) -> NumberGrid:
        """The first :data:`SHOWN_COLUMNS` columns of the trace's matrix ``name``, an ellipsis right of them for the rest."""
        theme = self.theme
        grid = self.grid(f"{name}[:, 0:{SHOWN_COLUMNS}]", 2, **{**WIDE_CELLS, "font_size": theme.small_size}, **kwargs)
        grid.more = label(theme, "…", size=theme.body_size, color=theme.muted).next_to(grid.cells, RIGHT, buff=0.12)
        grid.add(grid.more)
        return grid

    def show_library(self):
        """Step 1: the library analogy, one row per role."""
        theme = self.theme
        rows = [
            ("Query", "What am I looking for?", "your search term", theme.query),
            ("Key", "What do I contain?", "book titles and tags", theme.key),
            # A value is one item's content; the blend of values is the output, its own row.
            ("Value", "What do I hand over?", "each book's contents", theme.value),
            ("Output", "What do I take home?", "a blend of contents", theme.text),
        ]
        lines = (
            "The query is your search term: what am I looking for?",
            "The keys are the titles: what does each book contain?",
            "The values are the contents: what each book hands over.",
            "The output is what you take home: a blend of the contents, most from the best matches.",
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
                    part.move_to(RIGHT * (x + part.width / 2) + UP * (1.0 - 1.2 * r))
                    x += widths[c] + 0.55  # four rows: "Output" widens the first column
            titles = VGroup(
                label(theme, "in attention", size=theme.small_size, color=theme.muted)
                .next_to(table[0][1], UP, buff=0.45)
                .align_to(table[0][1], LEFT),
                label(theme, "in a library", size=theme.small_size, color=theme.muted)
                .next_to(table[0][2], UP, buff=0.45)
                .align_to(table[0][2], LEFT),
            )
            # On one baseline: the bottoms of their first letters ("i", no descender), not of "library"'s "y".
            titles[1].shift(UP * (titles[0][0].get_bottom()[1] - titles[1][0].get_bottom()[1]))
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
            x = self.grid("x_query", 1, row_labels=self.words, row_label_width=self.words_width, **{**self.cells, **self.x_cells})
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
            self.step_heading = heading

    def retitled(self, text: str):
        """The animation that turns the heading on screen into ``text``: each projection step names itself."""
        heading = self.heading(text)
        old, self.step_heading = self.step_heading, heading
        return ReplacementTransform(old, heading)

    def color(self, name: str) -> str:
        """The colour of q, k or v."""
        return {"q": self.theme.query, "k": self.theme.key, "v": self.theme.value}[name]

    def projection(self, name: str) -> tuple[NumberGrid, NumberGrid, object, object]:
        """``W`` and ``X W`` for ``name`` (q, k or v) right of X, with their names: their first columns, then an ellipsis."""
        theme = self.theme
        color = self.color(name)
        upper = name.upper()
        w = self.elided_grid(f"w_{name}")
        w.shift(
            RIGHT * (self.x.cells.get_right()[0] + PROJECTION_GAP - w.cells.get_left()[0])
            + UP * (self.top - w.cells.get_top()[1])
        )
        result = self.elided_grid(name)
        result.shift(
            RIGHT * (w.more.get_right()[0] + PROJECTION_GAP - result.cells.get_left()[0])
            + UP * (self.top - result.cells.get_top()[1])
        )
        # Higher than Q's name: clear of the box drawn round W's first column.
        w_name = formula(theme, f"W_{upper}", colors={f"W_{upper}": color}).next_to(w.cells, UP, buff=0.3)
        result_name = formula(theme, upper, colors={upper: color}).next_to(result.cells, UP, buff=0.2)
        return w, result, w_name, result_name

    def project_queries(self):
        """Step 3: Q = X W_Q, with one entry worked out."""
        t, theme = self.trace, self.theme
        w, result, w_name, result_name = self.projection("q")
        # "×", not "·": a centred dot at 720p reads as a speck.
        dot = label(theme, "×", size=theme.title_size).move_to((self.x.cells.get_right() + w.cells.get_left()) / 2)
        equals = label(theme, "=", size=theme.title_size).move_to((w.more.get_right() + result.cells.get_left()) / 2)
        dot.set_y(self.x.cells.get_center()[1])
        equals.set_y(self.x.cells.get_center()[1])
        shape = f"{t.w_q.shape[0]}×{t.w_q.shape[1]}"
        shown = self.note_lines(
            (f"Of W_Q and Q, the first {SHOWN_COLUMNS} of {t.w_q.shape[1]} columns are shown; “…” stands for the rest.",)
        )
        with self.step("q-projection", "Queries: Q = X·W_Q"):
            self.say(f"Multiply X by a {shape} projection matrix W_Q to get the queries Q.")
            leaving = [self.recipes] + ([self.note] if self.note is not None else [])
            self.play(*[FadeOut(m) for m in leaving], FadeIn(dot), FadeIn(equals), self.retitled("Queries: Q = X·W_Q"))
            self.play(FadeIn(w_name), FadeIn(w.cells), FadeIn(w.numbers), FadeIn(w.more), FadeIn(shown), run_time=1.0)
            self.play(FadeIn(result_name), FadeIn(result.cells))
            self.work_one_entry(w, result)
            seeded = "a fixed random seed" if self.seed == QKV_SEED else f"random seed {self.seed}"
            random = VGroup(
                # The smallest size: the seed's words fit under W_Q's two columns, clear of X.
                label(theme, "random", size=theme.min_size, color=theme.muted),
                label(theme, f"({seeded})", size=theme.min_size, color=theme.muted),
            ).arrange(DOWN, buff=0.1)
            random.next_to(w.cells, DOWN, buff=0.25)
            self.say("These matrices are random, drawn with a fixed random seed; a trained model learns them.")
            self.play(Indicate(w_name, color=theme.highlight), FadeIn(random))
        self.random_note = random
        self.projected = (w, w_name, result, result_name, dot, equals, shown)

    def work_one_entry(self, w, result):
        """Highlight one row of X and one column of W_Q, write out their product, then fill in Q."""
        t, theme = self.trace, self.theme
        i = t.focus
        row_box = SurroundingRectangle(self.x.row(i), color=theme.highlight, buff=0.05)
        column_box = SurroundingRectangle(w.column(0), color=theme.highlight, buff=0.05)
        cell_box = SurroundingRectangle(result.cell(i, 0), color=theme.highlight, buff=0.05)
        worked = WorkedSum(
            self,
            [f"x_query[{i}, {d}]" for d in range(t.w_q.shape[0])],
            [f"w_q[{d}, 0]" for d in range(t.w_q.shape[0])],
            f"q[{i}, 0]",
            decimals=(1, 2, 2),
            colors=(None, theme.query, theme.query),
        )
        worked.next_to(self.x.cells, DOWN, buff=0.5)
        keep_inside(worked.set_x(0), right=None)
        self.say("Each entry of Q is a row of X times a column of W_Q, added up.")
        self.play(FadeIn(row_box), FadeIn(column_box))
        self.play(FadeIn(worked), run_time=1.2)
        self.say(f"For “{t.query_tokens[i]}”, the first number of its query is {format_number(t.q[i, 0], 2)}.")
        self.play(TransformFromCopy(worked.result, result.number(i, 0)), FadeIn(cell_box), run_time=1.0)
        others = VGroup(
            *[result.number(r, c) for r in range(result.shape[0]) for c in range(result.shape[1]) if (r, c) != (i, 0)],
            result.more,
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

    def side_by_side(self) -> list[tuple[NumberGrid, object]]:
        """Q, K and V side by side, each with its words and its recipe above it, their tops where X's was."""
        theme = self.theme
        slots = []
        for name in "qkv":
            color, upper = self.color(name), name.upper()
            grid = self.elided_grid(name, row_labels=self.slot_words, row_label_color=color, row_label_width=self.slot_width)
            recipe = formula(theme, rf"{upper} = X\,W_{upper}", colors={upper: color, f"W_{upper}": color})
            slots.append((grid, recipe))
        side_by_side(VGroup(*[grid for grid, _ in slots]), SLOT_GAP)
        for grid, recipe in slots:
            grid.shift(UP * (self.top - grid.cells.get_top()[1]))
            recipe.next_to(grid.cells, UP, buff=0.25)
        keep_inside(VGroup(*[VGroup(grid, recipe) for grid, recipe in slots]))
        return slots

    def show_slot(self, grid: NumberGrid, recipe, *also) -> None:
        """A projection's recipe and cells (with the animations ``also``), then its rows one by one, each with its word."""
        self.play(FadeIn(recipe), FadeIn(grid.cells), FadeIn(grid.more), *also)
        for i in range(grid.shape[0]):
            row = VGroup(grid.row_labels[i], *[grid.number(i, c) for c in range(grid.shape[1])])
            self.play(FadeIn(row, shift=RIGHT * 0.15), run_time=0.4)

    def project_keys(self):
        """Step 4: K = X W_K, beside Q; X and W_Q make room for Q, K and V side by side."""
        t, theme = self.trace, self.theme
        i = t.focus
        w, w_name, old_q, old_q_name, dot, equals, shown = self.projected
        slots = self.side_by_side()
        (q, q_recipe), (k, k_recipe) = slots[0], slots[1]
        shown_now = self.note_lines(
            # Names no V: V is not on screen yet.
            (f"Each: the first {SHOWN_COLUMNS} of its {t.w_q.shape[1]} columns shown; the same X times a different W.",)
        )
        with self.step("k-projection", "Keys: K = X·W_K"):
            self.say("The same X times a second matrix, W_K, gives the keys K.")
            self.play(
                *[FadeOut(m) for m in (self.x, self.x_name, w, w_name, dot, equals, old_q_name, shown, self.random_note)],
                self.retitled("Keys: K = X·W_K"),
                run_time=0.8,
            )
            self.play(
                ReplacementTransform(VGroup(old_q.cells, old_q.numbers, old_q.more), VGroup(q.cells, q.numbers, q.more)),
                FadeIn(q.row_labels),
                FadeIn(q_recipe),
                FadeIn(shown_now),
                run_time=1.2,
            )
            self.show_slot(k, k_recipe)
            self.say("One row per word: what it contains. Same words, different numbers.")
            boxes = [SurroundingRectangle(grid.row(i), color=theme.highlight, buff=0.05) for grid in (q, k)]
            self.play(*[FadeIn(box) for box in boxes])
        self.slots, self.row_boxes = slots, boxes

    def project_values(self):
        """Step 5: V = X W_V, and the three projections of one X side by side."""
        t, theme = self.trace, self.theme
        v, v_recipe = self.slots[2]
        with self.step("v-projection", "Values: V = X·W_V"):
            self.say("A third matrix, W_V, gives the values V.")
            self.show_slot(v, v_recipe, self.retitled("Values: V = X·W_V"))
            self.say(
                f"What each word hands over once it is chosen. Three projections of one X: “{t.query_tokens[t.focus]}” in each."
            )
            box = SurroundingRectangle(v.row(t.focus), color=theme.highlight, buff=0.05)
            self.play(FadeIn(box))
            self.play(Indicate(VGroup(*self.row_boxes, box), color=theme.highlight, scale_factor=1.03))

    def show_meeting(self):
        """Step 6: one query row meets one key row: their dot product, then divided by √d_k."""
        t, theme = self.trace, self.theme
        i, j = t.focus, len(t.key_tokens) - 1
        with self.step("query-meets-key", "A query meets a key: q·k / √d_k"):
            self.say(f"Now a query meets a key: “{t.query_tokens[i]}” against “{t.key_tokens[j]}”.")
            self.clear()
            heading = self.heading("A query meets a key")
            # A little shorter than elsewhere: the worked sum, its division and the note fit below.
            whole = {**WIDE_CELLS, "cell_height": self.meet_cell_height, "font_size": theme.small_size}
            whole.update(row_labels=self.meet_words, row_label_width=self.meet_width)
            q = self.grid("q", 2, **whole, row_label_color=theme.query)
            k = self.grid("k", 2, **whole, row_label_color=theme.key)
            VGroup(q, k).arrange(RIGHT, buff=MEET_GAP, aligned_edge=UP).set_x(0)
            for grid in (q, k):
                grid.shift(UP * (self.top - grid.cells.get_top()[1]))
            q_name = formula(theme, "Q", colors={"Q": theme.query}).next_to(q.cells, UP, buff=0.2)
            k_name = formula(theme, "K", colors={"K": theme.key}).next_to(k.cells, UP, buff=0.2)
            self.play(FadeIn(heading), FadeIn(q), FadeIn(k), FadeIn(q_name), FadeIn(k_name), run_time=1.2)
            q_box = SurroundingRectangle(q.row(i), color=theme.query, buff=0.06)
            k_box = SurroundingRectangle(k.row(j), color=theme.key, buff=0.06)
            # The two rows that meet stay bright; the others step back.
            dimmed = [
                VGroup(grid.row_labels[r], *[grid.number(r, c) for c in range(grid.shape[1])])
                for grid, keep in ((q, i), (k, j))
                for r in range(grid.shape[0])
                if r != keep
            ]
            self.play(FadeIn(q_box), FadeIn(k_box), *[part.animate.set_opacity(0.35) for part in dimmed])

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
            # One line: a second would reach the worked sum when its numbers are long (seed 7).
            why = self.note_lines((f"Why ÷ √{t.d_k}: wider rows give bigger dot products; dividing keeps the scores in range.",))
            self.say("Their score starts as the dot product of the two rows.")
            self.play(FadeIn(worked, lag_ratio=0.05), run_time=2.0)
            self.say(
                f"d_k is {t.d_k}, so divide by its square root, {format_number(t.scale, 0)}: "
                f"{format_number(t.raw_scores[i, j], 2)} ÷ {format_number(t.scale, 0)} = {format_number(t.scaled_scores[i, j], 2)}."
            )
            self.play(TransformFromCopy(worked.result, scaled[0]), FadeIn(scaled[1:]))
            self.play(Indicate(scaled[-1], color=theme.highlight))
            self.say(
                # Short: a teacher's eight long words leave the scene little room within three minutes.
                "Wider rows give bigger dot products: dividing keeps them in range for softmax."
            )
            if why.get_top()[1] > scaled.get_bottom()[1] - 0.1:
                # A long worked sum (two lines, seed 7) leaves the note no room: the sum goes, its result stays.
                self.play(FadeOut(worked), scaled.animate.move_to(worked, aligned_edge=UP), FadeIn(why))
            else:
                self.play(FadeIn(why))

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
            course = t.query_tokens == THE_CAT_SAT.tokens
            made = "made up by hand" if course else "made up for this example"
            seeded = "a fixed random seed" if self.seed == QKV_SEED else f"random seed {self.seed}"
            bright = bright_keys(t)
            # The bright columns are said to be the longest embeddings only where the trace shows it.
            explained = 0 < len(bright) < len(t.key_tokens) and bright == longest_embeddings(t, len(bright))
            note = self.note_lines(
                (
                    f"Embeddings {made}; projection matrices random ({seeded}).",
                    "No meaning is learned"
                    + ("; with these matrices, bright columns are the largest embeddings." if explained else "."),
                )
            )
            picture = VGroup(heatmap, names, recipe)
            keep_inside(center_between(picture, heading, note))
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names), Write(recipe))
            for row in range(n):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4)
            self.say(self.top_line(i, tops, explained))
            best = VGroup(*[SurroundingRectangle(heatmap.cell(i, j), color=theme.text, buff=0.02, stroke_width=5) for j in tops])
            leaving = []  # outlines kept while their line is read, gone with the next picture
            if common_top_key(t) == tops[0]:
                # "So does every query": the whole column, thin, under the cell's box.
                column = SurroundingRectangle(heatmap.column(tops[0]), color=theme.muted, buff=0.05, stroke_width=2)
                self.play(FadeIn(best), FadeIn(column))
                leaving.append(column)
            else:
                self.play(FadeIn(best))
            runner_up = self.runner_up(i, tops)
            computed = len(t.key_tokens) - 1  # the key step 6 worked out
            if runner_up is not None:
                said = ", the score we computed" if runner_up == computed else ""
                self.say(
                    f"Next for “{t.query_tokens[i]}”: “{t.key_tokens[runner_up]}”, "
                    f"{format_number(t.scaled_scores[i, runner_up], 2)}{said}."
                )
                second = SurroundingRectangle(heatmap.cell(i, runner_up), color=theme.highlight, buff=0.02, stroke_width=5)
                self.play(FadeIn(second))
                leaving.append(second)
            # Each comparison alone on the table: the earlier outlines go as the next come.
            shown_before = [best, *leaving]
            leaving = []
            for group in same_embeddings(t):
                words = " and ".join(f"“{t.key_tokens[j]}”" for j in group)
                # By ear "the word The and the word the" are one word twice: the voice names their places.
                places = " and ".join(f"the {ORDINALS[j]} word, {t.key_tokens[j]}," for j in group)
                self.say(
                    f"{words}, words {' and '.join(str(j + 1) for j in group)}, have the same embedding, "
                    "so the same key: their columns are equal.",
                    spoken=f"{places} have the same embedding, so the same key: their columns are equal.",
                )
                # Outlined for the whole line, so the two columns can be compared number by number.
                ties = VGroup(
                    *[SurroundingRectangle(heatmap.column(j), color=theme.highlight, buff=0.03, stroke_width=4) for j in group]
                )
                self.play(FadeIn(ties), *[FadeOut(m) for m in shown_before])
                shown_before = []
                leaving.append(ties)
            there, back = format_number(t.scaled_scores[i, other], 2), format_number(t.scaled_scores[other, i], 2)
            a, b = t.query_tokens[i], t.query_tokens[other]
            # Which word is the query, said both ways (the voice cannot show the quotation marks).
            self.say(
                f"Not symmetric: query “{a}”, key “{b}”: {there}; the other way round, {back}.",
                spoken=f"Not symmetric: {a}'s query against {b}'s key is {there}; {b}'s query against {a}'s key, {back}.",
            )
            pair = VGroup(
                SurroundingRectangle(heatmap.cell(i, other), color=theme.query, buff=0.02, stroke_width=5),
                SurroundingRectangle(heatmap.cell(other, i), color=theme.key, buff=0.02, stroke_width=5),
            )
            self.play(FadeIn(pair), *[FadeOut(m) for m in [*shown_before, *leaving]])
            self.say("W_Q and W_K differ, so what a word looks for differs from what it offers.")
            self.play(Indicate(pair, color=theme.highlight))
            self.say(f"The embeddings were {made} and the matrices are random, so no meaning is learned here.")
            self.play(FadeIn(note))
            if explained:
                words = self.listed([t.key_tokens[j] for j in bright])
                self.say(f"With these random matrices, the bright columns, {words}, are the words given the largest numbers.")
                columns = VGroup(
                    *[SurroundingRectangle(heatmap.column(j), color=theme.text, buff=0.03, stroke_width=4) for j in bright]
                )
                # Alone on the table: the earlier outlines go, so these read as whole columns.
                self.play(FadeOut(pair), FadeIn(columns))
                # Their rows are brighter than the rest (the same words as queries), said and outlined only where
                # the trace shows it: each of their rows' means above every other row's. Not "bright": a row
                # such as "sat" (0.09 to 0.48) is mid-coloured, only brighter than the others.
                if bright_queries(t) == bright:
                    self.say("Their rows are brighter than the other rows, for the same reason.")
                    rows = VGroup(
                        *[SurroundingRectangle(heatmap.row(r), color=theme.query, buff=0.03, stroke_width=4) for r in bright]
                    )
                    self.play(FadeIn(rows))
            self.say("Softmax then turns each row into attention weights, which mix the values V.")
            self.wait(0.5)

    def show_values_used(self):
        """Step 8: what V is for: the query's weights times the value rows, added up, are its output."""
        t, theme = self.trace, self.theme
        i = t.focus
        word = t.query_tokens[i]
        top = int(np.argmax(t.weights[i]))
        # Two copies of one word (one embedding, so one key) share the top weight: both are named.
        tied = [j for j in range(len(t.key_tokens)) if np.isclose(t.weights[i, j], t.weights[i, top], rtol=0, atol=1e-12)]
        most = " and ".join(f"“{t.key_tokens[j]}”" for j in tied)
        each = " each" if len(tied) > 1 else ""
        with self.step("values-mixed", "What V is for: the output"):
            # The weights sum to 1; rounded to two decimals, as shown, they may not (1.02 for "cat"): said always.
            self.say(f"Softmax turns the scores of “{word}” into weights that sum to 1 (before rounding).")
            self.clear()
            heading = self.heading(f"The output of “{word}”: weights × V")
            # The weights as a column, each beside the value row it multiplies (recorded as shown, in order).
            weights = NumberGrid(
                theme,
                np.asarray(t.weights[i]).reshape(-1, 1),
                2,
                row_labels=self.words,
                row_label_color=theme.key,
                row_label_width=self.words_width,
                **self.cells,
            )
            self.shown.append(Shown(f"weights[{i}]", tuple(weights.numbers), 2))
            values = self.grid("v", 2, **self.cells)
            values.cells.set_stroke(theme.value, width=2.5)
            times = formula(theme, r"\times")
            output = self.grid(f"output[{i}]", 2, **self.cells)
            output.cells.set_stroke(theme.highlight, width=2.5)
            table = VGroup(weights, times, values).arrange(RIGHT, buff=0.3)
            times.set_y(values.cells.get_y())
            output.next_to(values.cells, DOWN, buff=0.5).align_to(values.cells, LEFT)
            equals = formula(theme, "=").next_to(output, LEFT, buff=0.3)
            values_name = label(theme, "V: the values", size=theme.small_size, color=theme.value)
            values_name.next_to(values.cells, UP, buff=0.2)
            # The weights' name may reach from the words' left edge to just short of V's name: a long
            # word loses its end to "…" there, at the small size, never shrunk and never over V's name.
            room = values_name.get_left()[0] - NAME_GAP - weights.get_left()[0]
            weights_name = self.quoted("weights of “{}”", word, room, theme.muted)
            weights_name.next_to(weights.cells, UP, buff=0.2).set_y(values_name.get_y())
            keep_inside(weights_name, left=weights.get_left()[0], right=values_name.get_left()[0] - NAME_GAP)
            picture = VGroup(table, output, equals, weights_name, values_name)
            picture.move_to(DOWN * 0.3)
            keep_inside(picture)
            # The output's name takes what is left right of the output, up to the safe area's edge.
            # When that is too little for the name (a wide V), it goes left of "=", under the weights.
            room = RIGHT_EDGE - output.get_right()[0] - 0.3
            output_name = self.quoted("output of “{}”", word, room, theme.highlight)
            if output_name.width <= room:
                output_name.next_to(output, RIGHT, buff=0.3)
            else:
                room = equals.get_left()[0] - 0.3 - LEFT_EDGE
                output_name = self.quoted("output of “{}”", word, room, theme.highlight)
                output_name.next_to(equals, LEFT, buff=0.3)
            names = VGroup(weights_name, values_name, output_name)
            self.play(FadeIn(heading), FadeIn(weights), FadeIn(names[0]))
            self.say("Each weight scales the value row beside it, one row per word,")
            self.play(FadeIn(times), FadeIn(values), FadeIn(names[1]))
            self.highlight(weights.row(top), values.row(top))
            self.say(
                f"and the rows added up are the output of “{word}”: a blend of the values, "
                f"the most from {most}, weight {format_number(t.weights[i, top], 2)}{each}."
            )
            self.play(FadeIn(equals), TransformFromCopy(values, output), FadeIn(names[2]), run_time=1.5)
            self.highlight(weights.row(top), values.row(top))

    def quoted(self, template: str, word: str, width: float, color: str) -> Text:
        """``template`` with ``word`` in it at the small size, the word cut with "…" until it fits ``width``.

        The text around the word (its quotes included) stays whole; only the word loses its end, one
        letter at a time, so the label keeps the readable size however long the teacher's word is.
        """
        theme = self.theme
        text = label(theme, template.format(word), size=theme.small_size, color=color)
        kept = len(word)
        while text.width > width and kept > 1:
            kept -= 1
            text = label(theme, template.format(word[:kept] + "…"), size=theme.small_size, color=color)
        return text

    @staticmethod
    def listed(words: list[str]) -> str:
        """“cat”, “sat” and “mat”: words quoted, the last joined by "and"."""
        quoted = [f"“{word}”" for word in words]
        return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]

    def runner_up(self, i: int, tops: list[int]) -> int | None:
        """The second-highest key of query ``i`` when one key is highest alone; None for a tie."""
        t = self.trace
        if len(tops) > 1:
            return None
        return max((j for j in range(len(t.key_tokens)) if j != tops[0]), key=lambda j: t.scaled_scores[i, j])

    def top_line(self, i: int, tops: list[int], explained: bool) -> str:
        """What the highest score of query ``i`` is, said as the numbers say it: one key, or a tie.

        When every query scores the same key highest, the line says so at once, so the top cell is not
        read as "a word matches itself"; ``explained`` (the bright columns are the longest embeddings)
        adds that the reason comes below.
        """
        t = self.trace
        word, best = t.query_tokens[i], format_number(t.scaled_scores[i, tops[0]], 2)
        if len(tops) > 1:
            tied = " and ".join(f"“{t.key_tokens[j]}”" for j in tops)
            return f"“{word}” scores highest with {tied}, tied at {best}."
        key = t.key_tokens[tops[0]]
        if common_top_key(t) != tops[0]:
            return f"“{word}” scores highest with “{key}”: {best}."
        # Said of the column, never "a word scores highest with itself": that holds for one row here at most.
        line = f"Every query scores highest with the key “{key}”; for “{word}” it is {best}."
        if not top_shown_alone(t):
            line += " In some rows it wins by less than the two decimals shown."
        return line + (" We'll see why in a moment." if explained else "")
