"""Positional encoding: attention alone ignores word order; sine and cosine fingerprints fix it.

Follows seed 000 "Positional Encoding" ("Dog bites man" vs "Man bites dog",
the fingerprints of positions 0-2, the 50 x 128 heatmap, the similarity of
positions 5, 6 and 30), seed 001 part 5 (single dimensions as curves) and
seed 004 slide 5.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    SurroundingRectangle,
    VGroup,
    VMobject,
    Write,
)

from attention_math import DEFAULT_SEED
from attention_math.traces.positional_encoding import positional_trace

from .kit import ExplainerScene
from .kit.charts import LineChart
from .kit.heatmaps import ColorGrid, ColorScale, attention_heatmap
from .kit.layout import BODY_TOP, LEFT_EDGE, RIGHT_EDGE, Region
from .kit.tables import number_cell_width
from .kit.text import formula, label, on_one_baseline
from .theme import format_number

CENTRES = (-3.1, 3.5)
"""Where the two sentences' matrices are centred: the left one's words stay inside the safe area."""
POSITION_CENTRES, POSITION_CELL = (-3.3, 3.1), 1.05
"""With positions added, narrower cells and the right matrix further left: each row's "+PE(p)" goes right of it."""
TITLES_Y = 2.65
"""Height of the two sentences, above their matrices."""
FORMULA_AT = UP * 1.7
"""Where the two cases of the encoding's formula go, above the table of fingerprints."""
ENCODING_AT = LEFT * 0.4 + DOWN * 0.25
"""The centre of the full encoding's colour grid (its colour scale goes right of it)."""
WAVE_NAMES_LEFT = LEFT_EDGE + 0.05
"""Where the names of the waves start, left of the curves."""
SIMILARITY_AT, COSINE_AT, PAIRS_AT = LEFT * 3.15 + DOWN * 0.3, RIGHT * 3.3 + UP * 2.15, RIGHT * 3.3 + UP * 0.75
"""The similarity step: its grid on the left; on the right the cosine's formula, then the two pairs compared."""
SIMILARITY_CURVE = Region(0.9, RIGHT_EDGE - 0.3, -2.55, -0.4)
"""Where the similarity of one position with every other is drawn, under the two pairs."""

PE_FORMULA = (
    r"PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
    r"PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
)


class PositionalEncodingScene(ExplainerScene):
    name = "positional-encoding"
    title = "Positional encoding"
    description = "“dog bites man” = “man bites dog” to attention, until sin/cos position fingerprints are added."
    sources = "Vaswani et al. 2017, 3.5 (sinusoidal positional encoding)"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return positional_trace(seed)

    def construct(self):
        self.show_order()
        self.show_same_weights()
        self.show_formula()
        self.show_order_with_positions()
        self.show_heatmap()
        self.show_waves()
        self.show_similarity()

    # --- word order ---------------------------------------------------------

    def sentence_column(self, tokens, x_source: str, x_name: str, centre: float, cell_width: float = 1.1):
        """A sentence: its title, its input rows and (built, not shown) its weights heatmap."""
        theme = self.theme
        title = label(theme, " ".join(tokens), size=theme.body_size, color=theme.highlight)
        # Wide enough for "−1.95" with its minus sign clear of the border, at the readable size at least.
        values = getattr(self.trace, x_source)
        cell_width = max(cell_width, number_cell_width(theme, values, 2, size=theme.min_size))
        x = self.grid(x_source, 2, cell_width=cell_width, cell_height=0.58, row_labels=tokens)
        x.shift(RIGHT * (centre - x.cells.get_center()[0]) + UP * (1.8 - x.cells.get_top()[1]))
        title.move_to([centre, TITLES_Y, 0])
        name = label(theme, x_name, size=theme.small_size, color=theme.muted).next_to(x.cells, UP, buff=0.15)
        return title, x, name

    def weights_column(self, tokens, source: str, centre: float):
        """The 3 x 3 weights of one sentence, queries as rows, keys as columns."""
        theme = self.theme
        heatmap = attention_heatmap(self, source, tokens, tokens, cell=(1.1, 0.58), scale=(0.0, 1.0), key_lines=1)
        heatmap.shift(RIGHT * (centre - heatmap.cells.get_center()[0]) + UP * (-1.05 - heatmap.cells.get_top()[1]))
        name = label(theme, "attention weights", size=theme.small_size, color=theme.muted).next_to(
            heatmap.col_labels, UP, buff=0.15
        )
        return heatmap, name

    def stack_sentences(self, columns) -> None:
        """Each sentence on a line of its own, X + PE left of its weights: the wider cells' numbers keep the small size.

        ``columns`` holds, per sentence, its title, X + PE, that table's name, its weights, their name and the
        "+PE(p)" tags of its rows. The title starts the line above the table; its name ends it.
        """
        gap = 0.35  # between the two sentences
        top = BODY_TOP
        for title, x, name, heatmap, heat_name, tags in columns:
            table = VGroup(x, tags)
            weights = VGroup(heatmap, heat_name)
            weights.next_to(table, RIGHT, buff=1.0)
            weights.align_to(x.cells, UP).shift(UP * (x.cells.get_top()[1] - heatmap.cells.get_top()[1]))
            name.next_to(x.cells, UP, buff=0.15).align_to(x.cells, RIGHT)
            title.next_to(x.cells, UP, buff=0.15).align_to(x, LEFT)
            on_one_baseline([title, name])
            line = VGroup(title, name, table, weights)
            line.shift(UP * (top - line.get_top()[1]) + RIGHT * -line.get_center()[0])
            top = line.get_bottom()[1] - gap

    def dog_to_man(self, tokens) -> tuple[int, int]:
        """Row of "dog" and column of "man" in a sentence's weights."""
        return tokens.index("dog"), tokens.index("man")

    def show_order(self):
        """Step 1: two sentences of the same words, in two orders: the same rows of X, reordered."""
        t, theme = self.trace, self.theme
        a, b = t.sentence_a, t.sentence_b
        with self.step("same-words-two-orders", "The same words in two orders"):
            self.say(f"Two sentences, the same three words: “{' '.join(a)}” and “{' '.join(b)}”.")
            heading = self.heading("Does attention see word order?")
            self.columns = (
                self.sentence_column(a, "x_a", "word embeddings X", CENTRES[0]),
                self.sentence_column(b, "x_b", "word embeddings X", CENTRES[1]),
            )
            self.play(FadeIn(heading), *[FadeIn(title) for title, _, _ in self.columns])
            self.say(f"Each word gets the same {t.d_small} random numbers, drawn with a fixed random seed, in both.")
            for _, x, name in self.columns:
                self.play(FadeIn(name), FadeIn(x), run_time=1.0)
            self.say("So the two inputs hold the same rows, only in another order.")
            boxes = VGroup()
            for word, color in (("dog", theme.query), ("man", theme.key)):
                for (_, x, _), tokens in zip(self.columns, (a, b)):
                    boxes.add(SurroundingRectangle(x.row(tokens.index(word)), color=color, buff=0.04))
            self.play(FadeIn(boxes, lag_ratio=0.2), run_time=1.2)
        self.order_boxes = boxes

    def show_same_weights(self):
        """Step 2: self-attention gives the same attention weights, reordered."""
        t, theme = self.trace, self.theme
        a, b = t.sentence_a, t.sentence_b
        ia, ja = self.dog_to_man(a)
        ib, jb = self.dog_to_man(b)
        with self.step("same-weights", "Without positions: the same weights"):
            self.say(
                "Run self-attention on each, with a shortcut: Q = K = V = X, no W_Q, W_K or W_V.",
                spoken="Run self-attention on each, with a shortcut: the queries, keys and values are the embeddings, "
                "with no learned projections.",
            )
            left_map, left_name = self.weights_column(a, "weights_a", CENTRES[0])
            right_map, right_name = self.weights_column(b, "weights_b", CENTRES[1])
            note = self.note_lines(
                ("Shortcut: Q = K = V = X, no W_Q, W_K, W_V", "(learned ones act row by row: still only reordered)")
            )
            self.shortcut_note = note
            self.play(FadeIn(note))
            self.play(self.order_boxes.animate.set_stroke(opacity=0.0), run_time=0.5)
            self.remove(self.order_boxes)
            for heatmap, name in ((left_map, left_name), (right_map, right_name)):
                self.play(FadeIn(name), FadeIn(heatmap), run_time=1.2)
            self.say("The attention weights are the same numbers, only reordered.")
            self.play(
                Indicate(left_map, color=theme.highlight, scale_factor=1.02),
                Indicate(right_map, color=theme.highlight, scale_factor=1.02),
            )
            self.say(f"“dog” gives “man” {format_number(t.weights_a[ia, ja], 2)} in both sentences.")
            # Outlined while said: later lines box other cells, some with the same 0.38.
            self.highlight(left_map.cell(ia, ja), right_map.cell(ib, jb), buff=0.0)
            self.say(
                "Learned W_Q, W_K and W_V would not help: they act on each row alone.",
                spoken="Learned projections would not help: they act on each row alone.",
            )
            self.own_weight_note(a, "weights_a", left_map)
            self.say("Without positions, attention cannot tell who bites whom.")
            self.play(Indicate(left_map.row_labels, color=theme.highlight), Indicate(right_map.row_labels, color=theme.highlight))

    def own_weight_note(self, tokens, source: str, heatmap) -> None:
        """What the shortcut Q = K causes, as the trace shows it row by row: long vectors look most at themselves.

        The longest vector's diagonal cell is boxed and said; a row whose largest weight is not its own
        (a shorter word beside a longer one) is boxed and said too, so the rule is never stated wider than it holds.
        """
        t, theme = self.trace, self.theme
        weights = getattr(t, source)
        n = len(tokens)
        own = [r for r in range(n) if int(np.argmax(weights[r])) == r]
        others = [r for r in range(n) if r not in own]
        if not own:
            return
        longest = int(np.argmax(t.self_scores_a))
        # The reason a shorter vector may give a neighbour more than itself: its score with that neighbour is higher
        # than its own. Said for the first such row, on the self-scores' line (a third line reached into the weights).
        reason = []
        if others:
            r, top = others[0], int(np.argmax(weights[others[0]]))
            reason = ["·", f"“{tokens[r]}” with “{tokens[top]}”:", (f"scaled_scores_a[{r}, {top}]", 2)]
        note = self.note_with_numbers(
            (
                ("A word's score with itself (before softmax) = its squared length /", ("scale", 0)),
                # "“dog”: 1.31  “bites”: 2.81  “man”: 1.05": a comma after a number stood apart from it.
                (*(part for k in range(n) for part in (f"“{tokens[k]}”:", (f"self_scores_a[{k}]", 2))), *reason),
            )
        )
        base = VGroup(note[0], *note[1][: 2 * n])
        scale = format_number(t.scale, 0)
        if longest in own:
            r = longest
            self.say(
                f"With Q = K, a word's score with itself is its squared length divided by {scale}: "
                f"the longest vector, “{tokens[r]}”, gives itself {format_number(weights[r, r], 2)}.",
                spoken=f"With the queries equal to the keys, a word's score with itself is its squared length divided by "
                f"{scale}: the longest vector, “{tokens[r]}”, gives itself {format_number(weights[r, r], 2)}.",
            )
            self.play(FadeOut(self.shortcut_note), FadeIn(base))
            self.highlight(heatmap.cell(r, r), buff=0.0)
        for k, r in enumerate(others):
            top = int(np.argmax(weights[r]))
            self.say(
                f"A word with a shorter vector may not: “{tokens[r]}” gives “{tokens[top]}” {format_number(weights[r, top], 2)}, "
                f"itself only {format_number(weights[r, r], 2)}."
            )
            if k == 0:
                # Its score with that word joins the note (with the self-scores, if no longer vector was said before).
                first = longest not in own
                self.play(
                    *([FadeOut(self.shortcut_note), FadeIn(base)] if first else []),
                    FadeIn(VGroup(*note[1][2 * n :])),
                )
            # Yellow: the word it gives most; grey: itself. Only this line's two cells are outlined.
            self.highlight(heatmap.cell(r, top), buff=0.0)
            self.highlight(heatmap.cell(r, r), color=theme.muted, buff=0.0)

    def show_formula(self):
        """Step 3: the sinusoidal encoding, and the fingerprints of positions 0, 1 and 2."""
        t, theme = self.trace, self.theme
        with self.step("sin-cos-fingerprints", "Sine and cosine fingerprints"):
            self.say("The fix: add to each word a fingerprint of its position.")
            self.clear()
            heading = self.heading("Positional encoding: a fingerprint per position")
            # The idea in one line while it is said (this line once played over the heading alone).
            idea = VGroup(
                label(theme, "word vector", size=theme.title_size, color=theme.text),
                label(theme, "+", size=theme.title_size, color=theme.muted),
                label(theme, "fingerprint of its position", size=theme.title_size, color=theme.value),
            ).arrange(RIGHT, buff=0.3)
            self.play(FadeIn(heading), FadeIn(idea, shift=UP * 0.2))
            equations = VGroup(*[formula(theme, tex, size=theme.pair_formula_size) for tex in PE_FORMULA]).arrange(
                DOWN, buff=0.4, aligned_edge=LEFT
            )
            equations.move_to(FORMULA_AT)
            kinds = ["sin", "cos"] * (t.d_small // 2)
            rows = [f"position {p}" for p in range(len(t.pe_small))]
            grid = self.grid(
                "pe_small",
                2,
                cell_width=max(1.3, number_cell_width(theme, t.pe_small, 2, size=theme.body_size)),
                cell_height=0.62,
                font_size=theme.body_size,
                row_labels=rows,
                col_labels=kinds,
                col_label_color=theme.key,
            )
            grid.shift(DOWN * 1.7 - grid.cells.get_center())
            name = VGroup(
                label(theme, "PE for", size=theme.small_size, color=theme.muted),
                formula(theme, rf"d_{{model}} = {t.d_small}", size=theme.formula_size).set_color(theme.muted),
            ).arrange(RIGHT, buff=0.15)
            name.next_to(grid.col_labels, UP, buff=0.2)
            self.say("The 2017 Transformer made it from sines and cosines of many frequencies.")
            self.play(FadeOut(idea), run_time=0.5)
            self.play(Write(equations), run_time=2)
            self.say("Even dimensions take the sine, odd ones the cosine; the divisor grows with i, so each pair turns slower.")
            self.highlight(equations)
            self.say(f"With d_model = {t.d_small}, the fingerprints of positions 0, 1 and 2:")
            self.play(FadeIn(name), FadeIn(grid.col_labels), FadeIn(grid.row_labels))
            for p in range(len(t.pe_small)):
                self.play(FadeIn(grid.row(p)), run_time=0.8)
            self.say(
                f"At position 1 the first sine is already {format_number(t.pe_small[1, 0], 2)}; "
                f"the slower second one only {format_number(t.pe_small[1, 2], 2)}."
            )
            self.play(
                *[Create(SurroundingRectangle(grid.cell(1, c), color=theme.highlight, buff=0.0, stroke_width=5)) for c in (0, 2)]
            )
            note = self.note_lines(("Sinusoidal: the 2017 Transformer. Learned, one vector per position: BERT, GPT-2.",))
            self.say("BERT and GPT-2 learn one vector per position instead; the idea is the same.")
            self.play(FadeIn(note))

    def show_order_with_positions(self):
        """Step 4: X + PE, and the attention weights now depend on the order."""
        t, theme = self.trace, self.theme
        a, b = t.sentence_a, t.sentence_b
        ia, ja = self.dog_to_man(a)
        ib, jb = self.dog_to_man(b)
        with self.step("positions-change-the-weights", "X + PE: positions change the weights"):
            self.say(
                "Add each position's fingerprint to its word: X + PE.",
                spoken="Add each position's fingerprint to its word: X plus P E.",
            )
            self.clear()
            heading = self.heading("With positions added")
            columns = []
            for tokens, x_source, w_source, centre in (
                (a, "x_a_pos", "weights_a_pos", POSITION_CENTRES[0]),
                (b, "x_b_pos", "weights_b_pos", POSITION_CENTRES[1]),
            ):
                # Cells wide enough for the small size's numbers (side by side they had to shrink to the least size).
                cell = number_cell_width(theme, getattr(t, x_source), 2, size=theme.small_size)
                title, x, name = self.sentence_column(tokens, x_source, "X + PE", centre, max(POSITION_CELL, cell))
                heatmap, heat_name = self.weights_column(tokens, w_source, centre)
                # Which fingerprint each word received: the row of PE for its position.
                tags = VGroup(
                    *[
                        label(theme, f"+PE({p})", size=theme.min_size, color=theme.value).next_to(
                            x.cell(p, t.d_small - 1), RIGHT, buff=0.15
                        )
                        for p in range(len(tokens))
                    ]
                )
                columns.append((title, x, name, heatmap, heat_name, tags))
            self.stack_sentences(columns)
            self.position_columns = columns
            # The weights below are still computed with the shortcut, now on X + PE.
            shortcut = self.note_lines(("Still the shortcut: Q = K = V = X + PE, no W_Q, W_K, W_V",))
            self.play(FadeIn(heading), FadeIn(shortcut), *[FadeIn(VGroup(c[0], c[1], c[2], c[5])) for c in columns], run_time=1.2)
            k = a.index("bites")
            self.say(
                f"“bites” stays at position {k}: it gets PE({k}) in both, so its row is the same.",
                spoken=f"“bites” stays at position {k}: it gets P E of {k} in both, so its row is the same.",
            )
            self.highlight(*[VGroup(c[1].row(k), c[5][k]) for c in columns], buff=0.05)
            pa, pb = ia, t.positions_b[ia]
            self.say(
                f"But “dog” and “man” swap fingerprints: “dog” gets PE({pa}) in one and PE({pb}) in the other.",
                spoken=f"But “dog” and “man” swap fingerprints: “dog” gets P E of {pa} in one and P E of {pb} in the other.",
            )
            # Both words boxed, each in its colour, in both sentences.
            for word, color in (("dog", theme.query), ("man", theme.key)):
                self.highlight(
                    *[VGroup(c[1].row(tokens.index(word)), c[5][tokens.index(word)]) for c, tokens in zip(columns, (a, b))],
                    color=color,
                    buff=0.05,
                )
            self.say(
                f"Now “dog” gives “man” {format_number(t.weights_a_pos[ia, ja], 2)} in “{' '.join(a)}” "
                f"but {format_number(t.weights_b_pos[ib, jb], 2)} in “{' '.join(b)}”."
            )
            for _, _, _, heatmap, heat_name, _ in columns:
                self.play(FadeIn(heat_name), FadeIn(heatmap), run_time=1.0)
            marks = VGroup(
                SurroundingRectangle(columns[0][3].cell(ia, ja), color=theme.highlight, buff=0.0, stroke_width=5),
                SurroundingRectangle(columns[1][3].cell(ib, jb), color=theme.highlight, buff=0.0, stroke_width=5),
            )
            self.play(Create(marks), run_time=1.0)
            self.say("Word order now changes the attention weights.")
            self.play(Indicate(marks, color=theme.highlight))

    # --- the full encoding ----------------------------------------------------

    def color_scale(self, grid: ColorGrid, low: str, high: str) -> VGroup:
        """A colour bar right of ``grid`` with its two end values from the trace."""
        bar = ColorScale(self.theme, height=grid.height * 0.8)
        bar.next_to(grid, RIGHT, buff=0.3)
        top = self.number(high, 2).next_to(bar, RIGHT, buff=0.12).align_to(bar, UP)
        bottom = self.number(low, 2).next_to(bar, RIGHT, buff=0.12).align_to(bar, DOWN)
        return VGroup(bar, top, bottom)

    def show_heatmap(self):
        """Step 5: a 50 x 128 encoding, one coloured square per number."""
        t, theme = self.trace, self.theme
        last_pos, last_dim = t.seq_len - 1, t.d_model - 1
        with self.step("fifty-positions", "Every position's fingerprint, in colour"):
            self.say(f"Now a larger size: {t.seq_len} positions, {t.d_model} dimensions each.")
            self.clear()
            heading = self.heading(f"Sinusoidal encoding, {t.seq_len} × {t.d_model}")
            grid = ColorGrid(theme, t.pe, cell_width=0.08, cell_height=0.09, vmin=t.pe_min, vmax=t.pe_max)
            grid.move_to(ENCODING_AT)
            scale = self.color_scale(grid, "pe_min", "pe_max")
            ticks = VGroup(
                self.number("positions[0]", 0).next_to(grid.cell(0, 0), LEFT, buff=0.15),
                self.number(f"positions[{last_pos}]", 0).next_to(grid.cell(last_pos, 0), LEFT, buff=0.15),
                # Under the grid, its left edge at the grid's: clear of the last position's number beside the row.
                self.number("dims[0]", 0).next_to(grid.cell(last_pos, 0), DOWN, buff=0.15).align_to(grid, LEFT),
                self.number(f"dims[{last_dim}]", 0).next_to(grid.cell(last_pos, last_dim), DOWN, buff=0.15),
            )
            axis_names = VGroup(
                label(theme, "position ↓", size=theme.small_size, color=theme.muted)
                .next_to(grid, UP, buff=0.12)
                .align_to(ticks[0], LEFT),
                label(theme, "dimension →", size=theme.small_size, color=theme.muted).next_to(grid, DOWN, buff=0.15),
            )
            self.play(FadeIn(heading), FadeIn(axis_names), FadeIn(ticks))
            self.say(f"{format_number(t.pe.size, 0)} numbers are too many to print: each is one coloured square.")
            self.play(FadeIn(grid), run_time=2)
            self.play(FadeIn(scale))
            r = t.reference
            row_mark = SurroundingRectangle(
                VGroup(grid.cell(r, 0), grid.cell(r, last_dim)), color=theme.highlight, buff=0.0, stroke_width=3
            )
            row_name = self.number(f"positions[{r}]", 0, color=theme.highlight).next_to(row_mark, LEFT, buff=0.15)
            self.say("Every row is one position's fingerprint, and no two rows are the same.")
            self.play(Create(row_mark), FadeIn(row_name))
            # The last quarter of the dimensions: sines near 0 and cosines near 1 over these positions.
            slow = 3 * t.d_model // 4
            slow_mark = SurroundingRectangle(
                VGroup(grid.cell(0, slow), grid.cell(last_pos, last_dim)), color=theme.text, buff=0.0, stroke_width=3
            )
            self.say(
                f"On the right the waves are so slow that over {t.seq_len} positions each sine stays near 0 "
                "and each cosine near 1: the stripes."
            )
            self.play(Create(slow_mark))

    def show_waves(self):
        """Step 6: single dimensions as waves along the positions, each with its period."""
        t, theme = self.trace, self.theme
        colors = (theme.query, theme.key, theme.value, theme.highlight)
        with self.step("waves", "Each dimension is a wave"):
            self.say("Read one column at a time: each dimension is a wave along the positions.")
            self.clear()
            heading = self.heading("Each dimension is a wave")
            left, right, amplitude, spacing = -3.9, RIGHT_EDGE - 0.3, 0.48, 1.32
            last = t.seq_len - 1

            def to_point(x, y, centre):
                return np.array([left + (right - left) * x / last, centre + amplitude * y, 0.0])

            plots = []
            for k in range(len(t.curve_dims)):
                centre = 1.95 - k * spacing
                baseline = Line(to_point(0, 0, centre), to_point(last, 0, centre), color=theme.line, stroke_width=2)
                curve = VMobject(stroke_color=colors[k], stroke_width=4)
                curve.set_points_as_corners([to_point(x, y, centre) for x, y in zip(t.curve_x, t.curve_y[k])])
                dots = VGroup(
                    *[Dot(to_point(p, y, centre), radius=0.035, color=colors[k]) for p, y in enumerate(t.curve_points[k])]
                )
                name = VGroup(
                    label(theme, "dimension", size=theme.small_size, color=colors[k]),
                    self.number(f"curve_dims[{k}]", 0, size=theme.small_size, color=colors[k]),
                )
                name.arrange(RIGHT, buff=0.12)
                period = VGroup(
                    label(theme, "period", size=theme.min_size, color=theme.muted),
                    self.number(f"curve_wavelengths[{k}]", 1, size=theme.min_size, color=theme.muted),
                )
                period.arrange(RIGHT, buff=0.12)
                names = VGroup(name, period).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
                names.move_to([0, centre, 0]).align_to([WAVE_NAMES_LEFT, 0, 0], LEFT)
                plots.append((baseline, curve, dots, names))
            bottom = 1.95 - (len(t.curve_dims) - 1) * spacing - amplitude
            axis = VGroup(
                self.number("positions[0]", 0).move_to(to_point(0, 0, bottom - 0.3)),
                label(theme, "position", size=theme.small_size, color=theme.muted).move_to(to_point(last / 2, 0, bottom - 0.3)),
                self.number(f"positions[{last}]", 0).move_to(to_point(last, 0, bottom - 0.3)),
            )
            self.play(FadeIn(heading), FadeIn(axis))
            for k, (baseline, curve, dots, names) in enumerate(plots):
                self.say(f"Dimension {t.curve_dims[k]} has a period of {format_number(t.curve_wavelengths[k], 1)} positions.")
                self.play(FadeIn(names), FadeIn(baseline), Create(curve), FadeIn(dots), run_time=1.2)
            self.say("Fast waves tell neighbours apart; slow ones tell where in a long text a word is.")
            self.highlight(plots[0][3], plots[-1][3], buff=0.05)  # the names start at the safe area's edge

    def show_similarity(self):
        """Step 7: cosine similarity of every two positions' fingerprints."""
        t, theme = self.trace, self.theme
        r, near, far = t.reference, t.near, t.far
        with self.step("nearby-positions-look-alike", "Nearby positions: similar fingerprints"):
            self.say("How alike are two positions' fingerprints?")
            self.clear()
            heading = self.heading("Nearby positions look alike")
            last = t.seq_len - 1
            grid = ColorGrid(
                theme, t.similarity, cell_width=0.085, cell_height=0.085, vmin=t.similarity_min, vmax=t.similarity_max
            )
            grid.move_to(SIMILARITY_AT)
            scale = self.color_scale(grid, "similarity_min", "similarity_max")
            ticks = VGroup(
                self.number("positions[0]", 0).next_to(grid.cell(0, 0), LEFT, buff=0.12),
                self.number(f"positions[{last}]", 0).next_to(grid.cell(last, 0), LEFT, buff=0.12),
                self.number("positions[0]", 0).next_to(grid.cell(last, 0), DOWN, buff=0.12),
                self.number(f"positions[{last}]", 0).next_to(grid.cell(last, last), DOWN, buff=0.12),
            )
            row_mark = SurroundingRectangle(
                VGroup(grid.cell(r, 0), grid.cell(r, last)), color=theme.highlight, buff=0.0, stroke_width=3
            )
            row_name = self.number(f"positions[{r}]", 0, color=theme.highlight).next_to(row_mark, LEFT, buff=0.12)
            names = VGroup(
                label(theme, "cosine similarity", size=theme.small_size, color=theme.muted).next_to(grid, UP, buff=0.2),
                label(theme, "position i", size=theme.small_size, color=theme.muted)
                .rotate(PI / 2)
                .next_to(ticks[:2], LEFT, buff=0.15),
                label(theme, "position j", size=theme.small_size, color=theme.muted).next_to(ticks[2:], DOWN, buff=0.1),
            )

            cosine = formula(theme, r"\cos(a, b) = \frac{a \cdot b}{\lVert a \rVert\, \lVert b \rVert}", size=theme.formula_size)
            cosine.move_to(COSINE_AT)
            pairs = VGroup(
                VGroup(
                    label(theme, f"positions {r} and {near}:", size=theme.small_size),
                    self.number("similarity_near", 2, size=theme.body_size, color=theme.highlight),
                ),
                VGroup(
                    label(theme, f"positions {r} and {far}:", size=theme.small_size),
                    self.number("similarity_far", 2, size=theme.body_size, color=theme.highlight),
                ),
            )
            for pair in pairs:
                pair.arrange(RIGHT, buff=0.25)
            pairs.arrange(DOWN, buff=0.25, aligned_edge=LEFT).move_to(PAIRS_AT)

            # Similarity of position `r` with every position, as a curve under the two numbers.
            low = t.similarity_min
            chart = LineChart(theme, t.similarity[r], SIMILARITY_CURVE, low, t.similarity_max, color=theme.key)
            axes, curve, to_point = chart.axes, chart.curve, chart.to_point
            marks = VGroup(*[Dot(to_point(p, t.similarity[r, p]), radius=0.08, color=theme.highlight) for p in (near, far)])
            curve_ticks = VGroup(
                self.number("similarity_max", 2).next_to(axes[1].get_end(), LEFT, buff=0.12),
                self.number("similarity_min", 2).next_to(axes[1].get_start(), LEFT, buff=0.12),
                self.number("positions[0]", 0).next_to(axes[0].get_start(), DOWN, buff=0.12),
                self.number(f"positions[{last}]", 0).next_to(axes[0].get_end(), DOWN, buff=0.12),
            )
            curve_name = label(theme, f"similarity with position {r}", size=theme.min_size, color=theme.key)
            curve_name.next_to(to_point(last / 2, low), DOWN, buff=0.15)

            self.play(FadeIn(heading), FadeIn(ticks), FadeIn(names))
            self.play(FadeIn(grid), run_time=1.5)
            self.play(FadeIn(scale), Create(row_mark), FadeIn(row_name))
            self.say("Cosine similarity compares their directions: 1 means the same direction.")
            self.play(Write(cosine), run_time=1.2)
            self.play(FadeIn(axes), FadeIn(curve_ticks), FadeIn(curve_name), Create(curve), run_time=1.5)
            lines = (
                f"Position {r} and its neighbour {near}: about {format_number(t.similarity_near, 2)}.",
                f"Position {r} and distant {far}: about {format_number(t.similarity_far, 2)}.",
            )
            for line, pair, mark in zip(lines, pairs, marks):
                self.say(line)
                self.play(FadeIn(pair), FadeIn(mark, scale=1.5), run_time=0.8)
            self.say("Nearby positions look alike, distant ones less: near and far can be told apart.")
            self.play(*[Indicate(pair[1], color=theme.highlight, scale_factor=1.05) for pair in pairs])
            # The axis and the colour bar start at the lowest similarity, not at 0: said, so 0.59 is not read as "unrelated".
            floor = self.note_with_numbers(
                (
                    (
                        "The curve's axis and the colour bar start at",
                        ("similarity_min", 2),
                        "(the lowest similarity), not at zero.",
                    ),
                )
            )
            self.say(
                f"The lowest pair scores about {format_number(t.similarity_min, 2)}: the slow dimensions barely change.",
            )
            self.play(FadeIn(floor))
            self.highlight(curve_ticks[1], scale[2])
            # Every fingerprint has the same length and its dot products depend on i − j alone: one colour per diagonal.
            gap = far - r
            # Dashed and thin, so the diagonal's own colour shows between the dashes.
            stripe = DashedLine(
                grid.cell(0, gap).get_center(), grid.cell(last - gap, last).get_center(), color=theme.text, stroke_width=2
            )
            self.say(
                "Each diagonal has one colour: the similarity depends only on how far apart two positions are.",
            )
            self.play(Create(stripe), run_time=1.0)
