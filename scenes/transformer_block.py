"""Where attention lives: a real forward pass through one GPT-style block, then a stack of them.

Follows seed 003 "Where Attention Lives in GPT" (embeddings, positions, blocks of attention,
layer norm and feed-forward, x96 in GPT-3) and seed 004 slides 4, 7 and 8 (FeedForward,
LayerNorm, EncoderBlock), built the way GPT-2 and GPT-3 build a block: layer norm before
each part (pre-norm), GELU, a feed-forward layer four times d_model wide, learned positions
(Radford et al. 2019, section 2.3; Brown et al. 2020, section 2.1 and Table 2.1).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Brace,
    Circle,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    Rectangle,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED, THE_CAT_SAT, lookup, sentence_example
from attention_math.traces.transformer_block import transformer_block_trace

from .kit import ExplainerScene
from .kit.heatmaps import Cells, weights_heatmap
from .kit.layout import BODY_TOP, CONTENT_WIDTH, LEFT_EDGE, RIGHT_EDGE, Region, center_in, hang_from, keep_inside, pin
from .kit.tables import NumberGrid, number_cell_width
from .kit.text import elided_label, formula, label, on_one_baseline, on_one_line, word_rows
from .theme import format_number, parse_number

CELL_W, CELL_H = 0.92, 0.46
"""The narrowest cell of a token's vector, and its height (a cell widens to keep a minus sign clear of its border)."""
ROW_SHOWN = 5
"""Numbers of a token's vector printed in the rows of steps 4 to 9, at the small size; "⋯" stands for the rest.

Eight numbers at the smallest size in tight cells were hard to read, their minus signs touching the borders (review 13).
"""
ROW_CELL_H = 0.5
"""Height of a cell of those rows (numbers at the small size)."""
MASKED_GREY = 0.35
"""Opacity of the grey that fills a masked cell of the attention maps (the dark map colour of a small weight otherwise)."""
BAND_SQUARE = 0.18
"""Side of a square of the banded-mask sketch in the last step (8 tokens: 1.44 units; at 1.1 it was hard to read, review 17)."""
NEGATIVE_SHADE = 0.35
"""Opacity of the masked colour filling a widened cell whose input to GELU was negative (a box inside the cell crossed its number)."""
PANEL_LEFT = -3.05
"""Left edge of the room right of the block diagram."""
MAX_MAP_CELLS = 16
"""Most heads × tokens the attention maps show in a row with numbers still readable (one decimal when narrow)."""
MIN_MAP_CELL = 0.62
"""Narrowest attention-map cell: "0.6" in the body font at the smallest size, with a clear gap."""
MAP_GAP = 0.3
"""Gap between two heads' maps."""
MAX_LABEL_WIDTH = 1.6
"""Widest a token label gets beside a grid; a longer word is elided (it is shown whole in the tokens step)."""
ROW_TOP = 2.3
"""Height of the first token row of a step, under the heading and the row's name."""
DIMMED = 0.3
"""Opacity of the rows not followed, so one row reads and the others stay in grey."""
ROUNDED = "≈: 0.01 off the rounded parts shown"
"""Under an addition whose shown sum misses the sum of its shown, rounded parts (a "≈" in that cell)."""
ROUNDED_EXACT = "rounded to 2 decimals; each sum adds up as shown"
"""Under an addition whose shown sums all equal their shown parts' (no "≈")."""
RANDOM_WEIGHTS = "all weights random, a fixed random seed: not trained"
"""At the bottom of the attention and feed-forward steps: W_Q … W_O, W₁ and W₂ alike (review 17: W₁, W₂ were never said random)."""
NUMBER_ROW_H = 0.32
"""Least height of a row of numbers at the smallest size: the digits' ink (0.21) and a clear gap above and below."""
RANDOM_INPUT = "embeddings and positions random, a fixed random seed: not trained"
"""At the bottom of steps 2 to 4 (review 18: only the voice said so)."""
RANDOM_POSITIONS = "positions random, a fixed random seed: not trained"
"""The same for a teacher's sentence, whose embeddings' source note says where they come from."""
SHOWN_COLUMNS = 4
"""Numbers of each token's vector printed in steps 2 and 3, in larger cells; "⋯" stands for the rest."""
WIDE_CELL_H = 0.5
"""Height of a cell in the larger, elided grids of steps 2 and 3 (numbers at the small size)."""
MINUS_ROOM = 0.12
"""Added to an elided row's cells: "−0.02" at full width looked touching its borders (review 15)."""
MARK_ROOM = 0.16
"""Added to the cells of an addition's rows (steps 6 and 8): a "≈" fits left of "−0.84", clear of it and the border."""
TREE_AT = LEFT * 1.0 + DOWN * 0.3
"""Where GPT's parts are listed as a tree (the pointer to attention right of it)."""


def add_row_labels(theme, grid: NumberGrid, tokens, width: float, size: int, color: str | None = None) -> VGroup:
    """Tokens left of ``grid``'s rows, at most ``width`` wide each (a long word elided, never shrunk past the minimum)."""
    labels = VGroup(
        *[
            elided_label(theme, token, width, size=size, color=color).next_to(grid.cell(i, 0), LEFT, buff=0.15)
            for i, token in enumerate(tokens)
        ]
    )
    grid.row_labels = labels
    grid.add(labels)
    return labels


def add_column_labels(theme, grid: NumberGrid, tokens, size: int, color: str | None = None) -> VGroup:
    """Tokens above ``grid``'s columns on one baseline, each at most a cell wide (longer ones elided).

    Staggered at two heights they read as two header rows (review 7).
    """
    cell_w = grid.cell(0, 0).width
    labels = VGroup(
        *[
            elided_label(theme, token, cell_w - 0.08, size=size, color=color).next_to(grid.cell(0, j), UP, buff=0.1)
            for j, token in enumerate(tokens)
        ]
    )
    on_one_baseline(list(labels))
    grid.col_labels = labels
    grid.add(labels)
    return labels


class BlockDiagram(VGroup):
    """A GPT block drawn top to bottom: x, layer norm, attention, add, layer norm, feed-forward, add.

    The two residual connections run down the right-hand side into the two adds.
    """

    PARTS = (
        ("input", "x", "muted", 0.45),
        ("norm1", "layer norm", "text", 0.48),
        ("attention", "multi-head\nattention", "query", 0.78),
        ("add1", "+", "text", 0.42),
        ("norm2", "layer norm", "text", 0.48),
        ("ff", "feed-forward", "value", 0.48),
        ("add2", "+", "text", 0.42),
    )

    def __init__(self, theme, center_x: float = -5.05, top: float = 2.8, width: float = 2.4, gap: float = 0.3):
        super().__init__()
        self.boxes = {}
        y = top
        for name, text, color_role, height in self.PARTS:
            color = getattr(theme, color_role)
            if name.startswith("add"):
                box = Circle(radius=height / 2, stroke_color=color, stroke_width=2.5)
            else:
                box = Rectangle(width=width, height=height, stroke_color=color, stroke_width=2.5)
            box.move_to([center_x, y - height / 2, 0])
            words = label(theme, text, size=theme.small_size if len(text) > 1 else theme.body_size, color=color)
            words.move_to(box)
            self.boxes[name] = VGroup(box, words)
            self.add(self.boxes[name])
            y -= height + gap
        names = [p[0] for p in self.PARTS]
        self.arrows = VGroup(*[self._down_arrow(self.boxes[a], self.boxes[b], theme) for a, b in zip(names, names[1:])])
        out = label(theme, "output", size=theme.small_size, color=theme.muted).next_to(self.boxes["add2"], DOWN, buff=0.3)
        self.arrows.add(self._down_arrow(self.boxes["add2"], out, theme))
        self.output_label = out
        side = center_x + width / 2 + 0.25
        self.residuals = VGroup(
            self._residual(self.arrows[0], self.boxes["add1"], side, theme),
            self._residual(self.arrows[3], self.boxes["add2"], side, theme),
        )
        self.add(self.arrows, out, self.residuals)

    @staticmethod
    def _down_arrow(above, below, theme):
        return Arrow(
            above.get_bottom(), below.get_top(), buff=0.03, stroke_width=3, color=theme.line, max_tip_length_to_length_ratio=0.35
        )

    @staticmethod
    def _residual(from_arrow, into, x, theme):
        """From the middle of ``from_arrow`` right to ``x``, down, and back left into ``into``."""
        start = from_arrow.get_center()
        corner_top = [x, start[1], 0]
        corner_bottom = [x, into.get_y(), 0]
        return VGroup(
            Line(start, corner_top, color=theme.line, stroke_width=3),
            Line(corner_top, corner_bottom, color=theme.line, stroke_width=3),
            Arrow(
                corner_bottom, into.get_right(), buff=0.0, stroke_width=3, color=theme.line, max_tip_length_to_length_ratio=0.5
            ),
        )


class TransformerBlockScene(ExplainerScene):
    name = "transformer-block"
    title = "Where attention lives: the transformer block"
    description = "Embeddings + positions, then a GPT-style block: layer norm, attention, add; layer norm, feed-forward, add."
    sources = (
        "Vaswani et al. 2017 (the post-norm block); "
        "GPT-2 (Radford et al. 2019, 2.3) and GPT-3 (Brown et al. 2020, 2.1, Table 2.1)"
    )

    options = ("sentence", "seed", "d_model", "heads")
    max_tokens = 6
    # A token's vector is one row of cells right of the block diagram: 8 cells fill it.
    default_d_model, d_model_range = 8, (4, 8)
    default_heads, heads_range = 2, (1, 4)
    DEFAULT_TOKENS = THE_CAT_SAT.tokens[:4]

    @classmethod
    def build_trace(
        cls, sentence: str | None = None, seed: int = DEFAULT_SEED, d_model: int | None = None, heads: int | None = None
    ):
        d_model = d_model or cls.default_d_model
        heads = heads or cls.default_heads
        if sentence is None:
            return transformer_block_trace(cls.DEFAULT_TOKENS, seed, d_model, heads)
        example = sentence_example(sentence, dim=d_model)
        return transformer_block_trace(
            example.tokens, seed, d_model, heads, embeddings=example.embeddings, embeddings_source=example.source
        )

    @classmethod
    def check_settings(cls, settings: dict) -> None:
        """Refuse more heads × tokens than the attention maps show side by side."""
        tokens = len(settings["sentence"].split()) if "sentence" in settings else len(cls.DEFAULT_TOKENS)
        heads = settings.get("heads", cls.default_heads)
        if heads * tokens > MAX_MAP_CELLS:
            raise ValueError(
                f"{heads} heads of {tokens} tokens do not fit the attention maps: {cls.name} shows at most "
                f"{MAX_MAP_CELLS} heads × tokens (with {heads} heads, at most {MAX_MAP_CELLS // heads} tokens)"
            )

    @property
    def course_input(self) -> bool:
        """Whether the block runs on the default tokens with seeded embeddings (no teacher's sentence)."""
        return self.trace.embeddings_source.startswith("embeddings: random")

    def construct(self):
        t = self.trace
        self.show_gpt_tree(t)
        self.show_tokens(t)
        self.show_input(t)
        self.diagram = BlockDiagram(self.theme)
        self.show_first_norm(t)
        self.show_attention(t)
        self.show_residual(t)
        self.show_feed_forward(t)
        self.show_output(t)
        self.show_stack(t)

    # --- helpers ---------------------------------------------------------------------

    def token_row(
        self,
        name_tex: str,
        source: str,
        y: float,
        color: str | None = None,
        decimals: int = 2,
        full: bool = False,
        size: int | None = None,
        cell_h: float = ROW_CELL_H,
        room: float = 0.0,
    ) -> VGroup:
        """One token's vector as a row of cells ending at the right edge, its name (a formula) just above it.

        The first :data:`ROW_SHOWN` numbers, at the small size, and a "⋯" for the rest; ``full`` prints every
        number (at ``size``). Cells are as wide as the widest number needs, and never narrower than a
        two-decimal "−9.99", so the rows of a step line up; ``room`` widens them more (for a "≈" mark).
        """
        theme = self.theme
        size = size or theme.small_size
        values = np.atleast_1d(np.asarray(lookup(self.trace, source), dtype=float))
        shown = len(values) if full else min(ROW_SHOWN, len(values))
        path = source if shown == len(values) else f"{source[:-1]}, 0:{shown}]"
        width = max(
            CELL_W, number_cell_width(theme, [-9.99], 2, size=size), number_cell_width(theme, values, decimals, size=size)
        )
        if not full:  # five cells leave room: a minus sign clear of the border by eye (review 15), not only by the test
            width += MINUS_ROOM + room
        # Up to the next twentieth: glyphs' ink differs by a hair between rows, and eight cells added it up to a visible step.
        width = math.ceil(width * 20 - 1e-9) / 20
        grid = self.grid(path, decimals, cell_width=width, cell_height=cell_h, font_size=size)
        if color:
            grid.cells.set_stroke(color)
        if shown < len(values):
            grid.add(label(theme, "⋯", size=theme.small_size, color=theme.muted).next_to(grid.cells, RIGHT, buff=0.12))
        pin(grid, RIGHT, y=y)
        name = VGroup()
        if name_tex:
            name = formula(theme, name_tex, size=theme.aside_formula_size).set_color(color or theme.text)
            name.next_to(grid, UP, buff=0.1).align_to(grid, LEFT)
            # A narrow d_model's row is shorter than a long name (h = GELU(...) at d_model 4): the name then
            # ends at the right edge instead of past it.
            self.keep_inside(name)
        return VGroup(name, grid)

    def row_note(self, row: VGroup) -> VGroup:
        """Under ``row``'s cells, right-aligned: how many of the token's numbers the rows print."""
        theme, d = self.theme, self.trace.d_model
        if ROW_SHOWN >= d:
            return VGroup()
        words = f"{ROW_SHOWN} of {d} numbers a row; ⋯ the other {d - ROW_SHOWN}"
        note = label(theme, words, size=theme.min_size, color=theme.muted)
        return note.next_to(row[1], DOWN, buff=0.12).align_to(row[1], RIGHT)

    @staticmethod
    def keep_inside(mobject):
        """Shift ``mobject`` left as far as it reaches past the right edge (a narrow d_model's rows are short)."""
        return keep_inside(mobject, left=None)

    def footer(self, words: str) -> VGroup:
        """``words`` at the bottom right, at the small size (review 18: the note size was hard to read at 720p)."""
        return pin(label(self.theme, words, size=self.theme.small_size, color=self.theme.muted), DOWN + RIGHT)

    def random_input_note(self, step: int) -> VGroup:
        """The footer saying the embeddings and positions are random, or only the positions (a teacher's
        sentence brings its own embeddings; in step 2 its source note says where from, so no footer)."""
        if self.course_input:
            return self.footer(RANDOM_INPUT)
        return VGroup() if step == 2 else self.footer(RANDOM_POSITIONS)

    def elided_grid(self, source: str, cell_h: float = WIDE_CELL_H, size: int | None = None, room: float = 0.0) -> NumberGrid:
        """The first :data:`SHOWN_COLUMNS` numbers of every token's row of ``source``, in cells large enough for them.

        The numbers are at the small size, or the smallest when ``cell_h`` is too short for it (six tokens);
        ``room`` is what a sum's cells need besides their numbers (a "≈" mark).
        """
        theme, t = self.theme, self.trace
        shown = min(SHOWN_COLUMNS, t.d_model)
        size = size or (theme.small_size if cell_h >= 0.42 else theme.min_size)
        needed = number_cell_width(theme, getattr(t, source)[:, :shown], 2, size=size) + MINUS_ROOM + room
        cell_w = max(CELL_W, needed)
        return self.grid(f"{source}[:, 0:{shown}]", 2, cell_width=cell_w, cell_height=cell_h, font_size=size)

    def elision(self, grid: NumberGrid, below: bool = False) -> VGroup:
        """A "⋯" right of each of ``grid``'s rows for the numbers not shown, and (``below``) a line saying so."""
        theme, t = self.theme, self.trace
        shown = grid.shape[1]
        if shown >= t.d_model:
            return VGroup()
        dots = VGroup(
            *[
                label(theme, "⋯", size=theme.small_size, color=theme.muted).next_to(grid.cell(i, shown - 1), RIGHT, buff=0.12)
                for i in range(grid.shape[0])
            ]
        )
        if below:
            words = f"{shown} of {t.d_model} numbers a row; ⋯ the other {t.d_model - shown}"
            dots.add(label(theme, words, size=theme.small_size, color=theme.muted).next_to(grid.cells, DOWN, buff=0.25))
        return dots

    def approx_marks(self, step: str, sources: tuple[str, str, str], grid: NumberGrid, row: int, token: int) -> VGroup:
        """A "≈" in each cell of ``grid``'s ``row`` whose shown sum is not the sum of its two shown parts.

        ``sources`` name the two parts and the sum (token ``token``'s rows in the trace); every number is
        compared as printed (two decimals), so a mark says what a viewer adding by hand would find: the sum
        of the unrounded parts, rounded, is 0.01 off (review 18: five such cells, unmarked). Kept in
        ``self.sums[step]`` for the tests.
        """
        theme = self.theme
        a, b, total = (np.atleast_1d(getattr(self.trace, source)[token]) for source in sources)
        marks = VGroup()
        off = []
        for j in range(grid.shape[1]):
            parts = parse_number(format_number(a[j], 2)) + parse_number(format_number(b[j], 2))
            if round(parts, 2) != parse_number(format_number(total[j], 2)):
                off.append(j)
                cell, number = grid.cell(row, j), grid.number(row, j)
                mark = label(theme, "≈", size=theme.small_size, color=theme.highlight)
                room = number.get_left()[0] - cell.get_left()[0]  # centred in the room left of the number
                marks.add(mark.next_to(number, LEFT, buff=(room - mark.width) / 2).set_y(number.get_y()))
        self.sums = {**getattr(self, "sums", {}), step: (sources, token, off, marks, grid, row)}
        return marks

    def rounded_note(self, row: VGroup, marks: VGroup) -> VGroup:
        """:data:`ROUNDED` (or :data:`ROUNDED_EXACT` without ``marks``) under ``row``'s cells, from their left edge.

        At the small size (review 18: the note size was hard to read at 720p); ends at the right edge if longer.
        """
        theme = self.theme
        note = label(theme, ROUNDED if marks.submobjects else ROUNDED_EXACT, size=theme.small_size, color=theme.muted)
        return self.keep_inside(note.next_to(row[1], DOWN, buff=0.12).align_to(row[1].cells, LEFT))

    def add_down(self, rows: VGroup, rounded: VGroup) -> None:
        """The sum row appears under the two rows it adds: their cells move down into it, its numbers fade in.

        Moving the numbers too smeared them into blobs for half a second, and the "≈" note came before
        the sum it is about (review 15): the note now comes with the sum.
        """
        total = rows[2][1]
        rest = VGroup(*[part for part in total.submobjects if part is not total.cells])
        self.play(
            ReplacementTransform(VGroup(rows[0][1].cells, rows[1][1].cells).copy(), total.cells),
            FadeIn(rest),
            FadeIn(rows[2][0]),
            FadeIn(rounded),
            run_time=1.0,
        )
        self.remove(total.cells, rest)
        self.add(total)

    def stats(self, mean: str, variance: str, row: VGroup, decimals: int = 2) -> VGroup:
        """Mean and variance of a row, stacked left of its cells (``decimals`` each)."""
        theme = self.theme
        lines = VGroup(
            VGroup(
                label(theme, "mean", size=theme.small_size, color=theme.muted),
                self.number(mean, decimals, size=theme.small_size),
            ),
            VGroup(
                label(theme, "variance", size=theme.small_size, color=theme.muted),
                self.number(variance, decimals, size=theme.small_size),
            ),
        )
        for line in lines:
            line.arrange(RIGHT, buff=0.15)
        lines.arrange(DOWN, aligned_edge=RIGHT, buff=0.08)
        return lines.next_to(row[1], LEFT, buff=0.25)

    def widths(self, before: str, after: str) -> VGroup:
        """A layer's input and output widths, "8 → 32", read from the trace."""
        theme = self.theme
        return VGroup(
            self.number(before, 0, color=theme.muted),
            label(theme, "→", size=theme.small_size, color=theme.muted),
            self.number(after, 0, color=theme.muted),
        ).arrange(RIGHT, buff=0.12)

    def mark(self, part: str):
        """Put the highlight on the diagram's ``part`` (an animation)."""
        new = SurroundingRectangle(self.diagram.boxes[part], color=self.theme.highlight, buff=0.06, stroke_width=4)
        old, self.marker = getattr(self, "marker", None), new
        return FadeIn(new) if old is None else ReplacementTransform(old, new)

    def new_panel(self, title: str) -> None:
        """Clear the room right of the diagram and put up the step's heading."""
        keep = [self.diagram] + ([self.marker] if getattr(self, "marker", None) else [])
        self.clear(*keep)
        self.play(FadeIn(self.heading(title)), run_time=0.5)

    # --- 1. the tree from seed 003 -----------------------------------------------------

    def show_gpt_tree(self, t):
        theme = self.theme
        size = theme.small_size

        def line(text, color=None):
            return label(theme, text, size=size, mono=True, color=color)

        with self.step("where-attention-lives", "Where attention lives in GPT"):
            heading = self.heading("Where attention lives in GPT")
            block_line = VGroup(
                line("├── Transformer block (×"),
                self.number("gpt3_layers", 0, size=size, color=theme.highlight),
                line("in the largest GPT-3)"),
            ).arrange(RIGHT, buff=0.12)
            # "×96" as one word (review 18: a wide gap after the ×).
            block_line[1].next_to(block_line[0], RIGHT, buff=0.04)
            block_line[2].next_to(block_line[1], RIGHT, buff=0.12)
            block_line[2].align_to(block_line[0], DOWN)
            lines = VGroup(
                line("GPT-2, GPT-3"),
                line("├── Token embedding"),
                line("├── Position embedding (learned)"),
                block_line,
                line("│   ├── Layer norm"),
                line("│   ├── Multi-head self-attention (causal)", theme.query),
                line("│   ├── Add (residual)"),
                line("│   ├── Layer norm"),
                line("│   ├── Feed-forward network", theme.value),
                line("│   └── Add (residual)"),
                line("├── Layer norm (final)"),
                line("└── Output projection"),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.13)
            lines.move_to(TREE_AT)
            for k in (5, 8):  # the outer "│" of a coloured part is the tree's, not the part's: one colour down the tree
                lines[k][0].set_color(theme.text)
            gaps = self.tree_connectors(lines)
            pointer = label(theme, "← attention", size=theme.small_size, color=theme.highlight).next_to(lines[5], RIGHT, buff=0.3)
            self.say("Attention is one part of a bigger machine: GPT.")
            self.play(FadeIn(heading), FadeIn(lines[0]))
            self.say("Tokens are embedded, and a learned position vector is added.")
            self.play(*[FadeIn(VGroup(lines[k], gaps[k]), shift=RIGHT * 0.2) for k in (1, 2)], run_time=0.8)
            self.say(f"Then comes a stack of transformer blocks: {t.gpt3_layers} of them in the largest GPT-3.")
            self.play(FadeIn(VGroup(lines[3], gaps[3]), shift=RIGHT * 0.2), run_time=0.6)
            self.say("Each block: layer norm, attention, add; layer norm, feed-forward, add.")
            self.play(*[FadeIn(VGroup(lines[k], gaps[k]), shift=RIGHT * 0.2) for k in range(4, 10)], run_time=1.2)
            self.play(Indicate(lines[5], color=theme.query, scale_factor=1.05), FadeIn(pointer))
            self.say("A last layer norm, and a projection that scores the next token.")
            self.play(*[FadeIn(VGroup(lines[k], gaps[k]), shift=RIGHT * 0.2) for k in (10, 11)], run_time=0.8)
            self.say("The 2017 transformer put each layer norm after its add; GPT-2 and GPT-3 put it first.")
            order = VGroup(
                *[
                    label(
                        theme, "← GPT-2, GPT-3: first; 2017: after the add", size=theme.small_size, color=theme.highlight
                    ).next_to(lines[k], RIGHT, buff=0.35)
                    for k in (4, 7)
                ]
            )
            # Only the words "Layer norm" (its 9 glyphs; Text has none for spaces), clear of the tree's "│" (review 15).
            self.highlight(*[VGroup(*lines[k][-9:]) for k in (4, 7)], buff=0.1, run_time=0.6)
            self.play(FadeIn(order), run_time=0.6)

    @staticmethod
    def tree_connectors(lines: VGroup) -> list[VGroup]:
        """Bars that close the gaps between the tree's "│", "├" and "└" glyphs (review 18: broken between rows).

        ``gaps[k]`` fills the gap above row ``k``, so it comes in with that row. The bars are as wide as the
        "│" glyph of row 4 and stand where it stands: the outer column for rows 2 to 11, the inner one
        (the block's parts) for rows 5 to 9.
        """

        def glyphs(k):
            return lines[k][0] if k == 3 else lines[k]  # row 3 is "├── Transformer block (×" + number + words

        bar = glyphs(4)[0]
        inner_x = glyphs(4)[1].get_left()[0] + bar.width / 2
        gaps = [VGroup() for _ in lines]
        for column, x, rows in ((0, bar.get_x(), range(2, 12)), (1, inner_x, range(5, 10))):
            for k in rows:
                top, bottom = glyphs(k - 1)[column].get_bottom()[1], glyphs(k)[column].get_top()[1]
                if top - bottom > 1e-3:
                    middle = (top + bottom) / 2
                    piece = Rectangle(width=bar.width, height=top - bottom, stroke_width=0)
                    gaps[k].add(piece.set_fill(bar.get_fill_color(), opacity=1).set_x(x).set_y(middle))
        return gaps

    # --- 2. tokens become vectors ------------------------------------------------------

    def show_tokens(self, t):
        theme = self.theme
        n, d = len(t.tokens), t.d_model
        with self.step("tokens", "Each token becomes a vector"):
            self.clear()
            heading = self.heading("Each token becomes a vector")
            note = None if self.course_input else self.source_note(t.embeddings_source)
            random_note = self.random_input_note(2)
            # The screen's only grid: large, unless six long words wrap and the note leaves it less room; where the
            # words on their lines would leave rows too low for their numbers, the words are drawn smaller.
            floor = (note.get_top()[1] + 0.2) if note is not None else random_note.get_top()[1] + 0.2
            for size in (theme.body_size, theme.small_size, theme.min_size):
                words = word_rows(theme, t.tokens, CONTENT_WIDTH, size=size)
                hang_from(words, BODY_TOP)
                room = words.get_bottom()[1] - 0.45 - floor - 0.55  # the "4 of 8 numbers" line below the cells
                if room / n >= NUMBER_ROW_H:
                    break
            cell_h = min(0.62, room / n)
            # Rows too low for the small size take the smallest (elided_grid's rule), never numbers touching their borders.
            grid = self.elided_grid("embeddings", cell_h, theme.body_size if cell_h >= 0.55 else None)
            names = theme.small_size if cell_h >= 0.42 else theme.min_size  # the rows' names as their numbers
            label_w = min(MAX_LABEL_WIDTH, max(label(theme, w, size=names).width for w in t.tokens))
            add_row_labels(theme, grid, t.tokens, label_w, names, color=theme.muted)
            hang_from(grid, words.get_bottom()[1] - 0.45)
            self.say(f"Our sentence: {n} tokens.")
            self.play(FadeIn(heading), FadeIn(words, lag_ratio=0.1), FadeIn(random_note), run_time=1.0)
            self.say(f"Each token becomes a vector of {d} numbers: its token embedding.")
            self.play(FadeIn(grid), FadeIn(self.elision(grid, below=True)), run_time=1.0)
            if note is None:
                self.say(
                    "In GPT they are learned; ours are random (the note below).",
                    spoken="In GPT they are learned; ours are random.",
                )
                self.wait(0.5)
            else:
                self.say("Each word brings a made-up vector of its own; the note says how.")
                self.play(FadeIn(note))

    # --- 3. embeddings + positions -------------------------------------------------------

    def show_input(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("embeddings-plus-positions", "Token + position embeddings"):
            self.clear()
            heading = self.heading("Token embedding + position embedding")
            names = VGroup(
                label(theme, "token embeddings", size=theme.small_size, color=theme.muted),
                label(theme, "+ position embeddings", size=theme.small_size, color=theme.key),
                label(theme, "= x, the block's input", size=theme.small_size, color=theme.highlight),
            )
            random_note = self.random_input_note(3)
            top, bottom = 2.75, random_note.get_top()[1] + 0.15
            # Six tokens leave rows too low for their numbers to clear the cells' borders: the gaps between the
            # three grids give way first (0.3, down to 0.1), so rows keep NUMBER_ROW_H.
            gap = min(0.3, max(0.1, (top - bottom - 3 * n * NUMBER_ROW_H) / 2))
            shown = min(SHOWN_COLUMNS, t.d_model)
            positions = [f"pos {i + 1}" for i in range(n)]  # a position embedding belongs to a place, not a word
            natural = max(label(theme, name, size=theme.small_size).width for name in (*t.tokens, *positions))
            grids, dots = VGroup(), VGroup()
            for source in ("embeddings", "positions", "x"):
                cell_h = min(WIDE_CELL_H, (top - bottom - 2 * gap) / (3 * n))
                grid = self.elided_grid(source, cell_h, room=MARK_ROOM if source == "x" else 0.0)
                # Only the followed token's row printed; the others are empty grey cells: no wall of numbers.
                self.print_only(grid, [(t.focus, j) for j in range(shown)], path=lambda i, j, s=source: f"{s}[{i}, {j}]")
                for i in range(n):
                    if i != t.focus:
                        grid.row(i).set_opacity(DIMMED)
                grids.add(grid)
            # The three grids' cells can differ in width (a minus sign widens a column): the widest sets the room.
            grid_w = max(grid.cells.width for grid in grids) + (0.45 if shown < t.d_model else 0.0)
            label_w = min(natural, MAX_LABEL_WIDTH, CONTENT_WIDTH - grid_w - 0.15 - 0.35 - names.width)
            # Six tokens over the footer leave rows too low for the small size (its labels touched, review 18's footer).
            row_size = theme.small_size if grids[0].cell(0, 0).height >= 0.33 else theme.min_size
            for source, grid in zip(("embeddings", "positions", "x"), grids):
                rows = positions if source == "positions" else t.tokens
                add_row_labels(theme, grid, rows, label_w, row_size, color=theme.muted)
            grids.arrange(DOWN, buff=gap, aligned_edge=RIGHT)
            total = label_w + 0.15 + grid_w + 0.35 + names.width
            right = LEFT_EDGE + (CONTENT_WIDTH - total) / 2 + label_w + 0.15 + max(grid.cells.width for grid in grids)
            grids.shift(RIGHT * (right - grids.get_right()[0]) + UP * (top - grids.get_top()[1]))
            for grid in grids:
                dots.add(self.elision(grid))
            names_left = grids.get_right()[0] + grid_w - max(grid.cells.width for grid in grids) + 0.35
            for name, grid in zip(names, grids):
                name.next_to(grid, RIGHT).set_x(names_left + name.width / 2)
            marks = self.approx_marks("embeddings-plus-positions", ("embeddings", "positions", "x"), grids[2], t.focus, t.focus)
            words = "≈: this sum is 0.01 off\nthe rounded parts shown" if marks.submobjects else "rounded to 2 decimals"
            rounded = VGroup(marks, label(theme, words, size=theme.small_size, color=theme.muted))
            rounded[1].next_to(names[2], DOWN, buff=0.15).align_to(names[2], LEFT)
            self.say("GPT adds a position embedding: one learned vector per position.")
            self.play(FadeIn(heading), FadeIn(names[0]), FadeIn(grids[0]), FadeIn(dots[0]), FadeIn(random_note), run_time=1.0)
            too = " too" if self.course_input else ""
            self.say(f"Ours are random{too}: the note below.")
            self.play(FadeIn(names[1]), FadeIn(grids[1]), FadeIn(dots[1]), run_time=1.0)
            # "The bright row" was the darker one (review 14): the row is outlined as the line names it.
            self.say(f"Their sum, x, enters the first block: for “{t.tokens[t.focus]}”, the highlighted row.")
            self.play(FadeIn(names[2]), FadeIn(grids[2]), FadeIn(dots[2]), FadeIn(rounded), run_time=1.0)
            self.highlight(grids[2].row(t.focus), buff=0.04)

    # --- 4. layer norm before attention --------------------------------------------------

    def show_first_norm(self, t):
        theme = self.theme
        f = t.focus
        token = t.tokens[f]
        with self.step("layer-norm", "Layer norm, first"):
            self.clear()
            heading = self.heading("Layer norm, first")
            rows = VGroup(
                self.token_row(r"x", f"x[{f}]", ROW_TOP),
                self.token_row(r"\mathrm{norm}_1(x)", f"norm1[{f}]", ROW_TOP - 3.0, color=theme.highlight),
            )
            # Three decimals: at two, this input's mean and variance both read 0.48, like a bug.
            before = self.stats(f"x_mean[{f}]", f"x_var[{f}]", rows[0], decimals=3)
            after = self.stats(f"norm1_mean[{f}]", f"norm1_var[{f}]", rows[1])
            norm = formula(
                theme,
                r"\mathrm{norm}(x) = \gamma \, \frac{x - \mathrm{mean}}{\sqrt{\mathrm{variance} + \epsilon}} + \beta",
                size=theme.aside_formula_size,
            )
            defaults = formula(theme, r"\gamma = 1,\ \beta = 0\ \text{at the start}", size=theme.aside_formula_size)
            # ε named (review 14: it was in the formula without a word).
            epsilon = label(theme, "ε: a tiny number, so never a division by 0", size=theme.small_size, color=theme.muted)
            VGroup(norm, epsilon, defaults).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            # Centred in the gap between the two rows.
            gap = Region(LEFT_EDGE, RIGHT_EDGE, rows[1][0].get_top()[1], rows[0][1].get_bottom()[1])
            center_in(VGroup(norm, epsilon, defaults), gap)
            self.keep_inside(VGroup(norm, epsilon, defaults).align_to(rows[0][1], LEFT))
            self.say(f"Into the block. We follow one token, “{token}”.")
            random_note = self.random_input_note(4)
            self.play(FadeIn(heading), FadeIn(self.diagram), self.mark("input"), FadeIn(random_note), run_time=1.0)
            self.play(FadeIn(rows[0]), FadeIn(before), run_time=0.8)
            self.say("Layer norm comes first: subtract the vector's mean, divide by its spread.")
            self.play(self.mark("norm1"), Write(norm), FadeIn(epsilon), run_time=1.2)
            self.say(
                "Its scale γ and shift β are learned; they start at 1 and 0.",
                spoken="Its scale gamma and shift beta are learned; they start at 1 and 0.",
            )
            self.play(FadeIn(defaults), run_time=0.6)
            self.play(ReplacementTransform(rows[0][1].copy(), rows[1][1]), FadeIn(rows[1][0]), run_time=1.0)
            mean, variance = format_number(t.norm1_mean[f], 2), format_number(t.norm1_var[f], 2)
            self.say(f"Now the mean is {mean} and the variance {variance}.")
            self.play(FadeIn(after), FadeIn(self.row_note(rows[1])), run_time=0.6)

    # --- 5. causal multi-head attention --------------------------------------------------

    def show_attention(self, t):
        theme = self.theme
        f = t.focus
        n = len(t.tokens)
        natural = max(label(theme, word, size=theme.min_size).width for word in t.tokens)
        # As many heads side by side as keep cells readable (long words elided first); the others on a next page.
        per_page = t.n_heads
        while per_page > 1:
            room = RIGHT_EDGE - PANEL_LEFT - 0.15 - MAP_GAP * (per_page - 1)
            if min(natural, MAX_LABEL_WIDTH, room - per_page * n * MIN_MAP_CELL) >= min(natural, 0.6):
                break
            per_page -= 1
        per_page = -(-t.n_heads // -(-t.n_heads // per_page))  # the pages as even as they go: 2 + 2, not 3 + 1
        room = RIGHT_EDGE - PANEL_LEFT - 0.15 - MAP_GAP * (per_page - 1)
        label_w = min(MAX_LABEL_WIDTH, natural, room - per_page * n * MIN_MAP_CELL)
        cell_w = min(0.9, (room - label_w) / (per_page * n))
        decimals = 2 if cell_w >= 0.66 else 1
        cell_h = min(0.46, 2.5 / n)  # (review 15: a little lower, for the axes' line under the maps)
        pages = [list(range(first, min(first + per_page, t.n_heads))) for first in range(0, t.n_heads, per_page)]
        with self.step("multi-head-attention", "Causal multi-head attention"):
            self.new_panel("Causal multi-head attention")
            shown = VGroup()
            note = self.footer(RANDOM_WEIGHTS)
            # Well clear of the note (review 17: 0.15 under the output row, it read as that row's label).
            joined, projected = self.joined_heads(note.get_top()[1] + 0.45)
            for k, page in enumerate(pages):
                maps = self.attention_maps(page, label_w, cell_w, cell_h, decimals)
                if k == 0:
                    # How a head's weights are made, under the maps (review 18: queries and keys were only said).
                    how = self.weights_formula().next_to(maps, DOWN, buff=0.25)
                    self.keep_inside(how.align_to(maps, RIGHT))
                # Which axis is which, said once under the maps (review 15: rows and columns were only coloured).
                masked_words = (
                    VGroup(
                        label(theme, "grey: masked, a later token (−∞, so weight 0)", size=theme.small_size, color=theme.masked),
                        VGroup(
                            label(theme, "rows: query (looking),", size=theme.small_size, color=theme.query),
                            label(theme, "columns: key (looked at)", size=theme.small_size, color=theme.key),
                        ).arrange(RIGHT, buff=0.15),
                    )
                    .arrange(DOWN, aligned_edge=RIGHT, buff=0.08)
                    .next_to(how, DOWN, buff=0.2)
                )
                self.keep_inside(masked_words.align_to(maps, RIGHT))
                line = self.row_sum_line(page, decimals, first=k == 0)
                if k == 0:
                    heads_words = "One head: its" if t.n_heads == 1 else f"{t.n_heads} heads; each head's"
                    self.say("Attention reads the normalised vectors, not x itself.")
                    self.play(self.mark("attention"), FadeIn(note), run_time=0.8)
                    # Said as the formula under the maps shows it (review 18: "4-number queries and keys", unseen).
                    self.say(f"{heads_words} weights: softmax of queries times keys.")
                    self.play(*[FadeIn(m) for m in maps], FadeIn(how), run_time=1.2)
                    self.say("As in GPT it is causal: a token sees itself and earlier tokens.")
                    self.play(FadeIn(masked_words), run_time=1.0)
                    legend = VGroup(how, masked_words)  # shown once, for every page of maps
                else:
                    self.say(f"Heads {page[0] + 1} to {page[-1] + 1}:" if len(page) > 1 else f"Head {page[0] + 1}:")
                    self.play(FadeOut(shown), *[FadeIn(m) for m in maps], run_time=1.0)
                # What these weights show whatever the (random) matrices: a row is shared out, later tokens get 0
                # (review 17: "0.58 and 0.95 to itself" invited a reading random weights cannot carry).
                self.say(line)
                # White: a yellow outline vanished around the yellow of a large weight. Tight (buff 0.01): the last
                # map ends at the right edge.
                self.highlight(*[VGroup(*[heat.cell(f, j) for j in range(n)]) for _, heat in maps], color=theme.text, buff=0.01)
                shown = maps
            self.say(f"Each head gives {t.d_head} numbers; side by side they make {t.d_model}.")
            heads, (grid, titles, joined_name) = joined
            # The maps' notes are gone before the name comes: only the maps must stay clear of it.
            if joined_name.submobjects and joined_name.get_top()[1] > shown.get_bottom()[1] - 0.25:
                joined_name = self.joined_name(grid, titles, words=False)  # tall maps (many tokens): no room
            # The maps' notes make way for the heads' outputs (tall maps leave them no room beside the titles).
            self.play(FadeIn(heads), FadeOut(legend), run_time=0.8)
            # Number by number into the joined row: head h's j-th number is the joined row's (h × d_head + j)-th.
            old = VGroup(*[part for g, _ in heads for part in (*g.cells, *g.numbers)])
            new = VGroup(*[part for h in range(t.n_heads) for part in self.head_slice(grid, h)])
            self.play(
                ReplacementTransform(old, new),
                ReplacementTransform(VGroup(*[title for _, title in heads]), titles),
                *([FadeIn(joined_name)] if joined_name.submobjects else []),
                run_time=1.0,
            )
            self.remove(new)
            self.add(grid)
            self.say(f"A last matrix turns them into attention's output: {t.d_model} numbers.")
            self.play(FadeIn(projected), run_time=1.0)

    def head_slice(self, grid: NumberGrid, h: int) -> list:
        """Head ``h``'s cells, then its numbers, in the joined row ``grid`` (the order of a head's own grid's parts)."""
        columns = range(h * self.trace.d_head, (h + 1) * self.trace.d_head)
        return [*[grid.cell(0, j) for j in columns], *[grid.number(0, j) for j in columns]]

    def row_sum_line(self, heads: list[int], decimals: int, first: bool) -> str:
        """The line said over the focus token's row in ``heads``' maps: it adds up to 1, its later tokens get 0.

        Read from the trace: "adds up to 1" as the printed numbers (at ``decimals``) add up, or else
        "(before rounding)"; "the later tokens get 0" only when the token has later tokens.
        """
        t = self.trace
        f, n = t.focus, len(t.tokens)
        printed = [sum(float(format_number(t.attention_weights[h, f, j], decimals)) for j in range(n)) for h in heads]
        rounding = "" if all(abs(total - 1.0) < 1e-9 for total in printed) else " (before rounding)"
        later = "; the later tokens get 0" if f < n - 1 else ""
        row = f"the row of “{t.tokens[f]}” adds up to 1{rounding}{later}."
        if not first:
            return f"Here too, {row}"
        return f"In each head, {row}" if len(heads) > 1 else row[0].upper() + row[1:]

    def grey_out(self, heat) -> None:
        """Turn the masked cells of ``heat`` grey, their numbers in the masked colour (from the map's first frame:
        review 18 saw them first coloured like real weights)."""
        t = self.trace
        n = len(t.tokens)
        for i, j in ((i, j) for i in range(n) for j in range(n) if not t.mask[i, j]):
            heat.cell(i, j).set_fill(self.theme.line, opacity=MASKED_GREY)
            heat.number(i, j).set_color(self.theme.masked)

    def weights_formula(self) -> VGroup:
        """How a head makes its weights and its output, in two lines (√ of the trace's head width)."""
        theme, t = self.theme, self.trace
        lines = VGroup(
            formula(
                theme,
                r"Q = n\,W_Q,\ \ K = n\,W_K,\ \ V = n\,W_V \quad (n = \mathrm{norm}_1(x))",
                size=theme.aside_formula_size,
            ),
            formula(
                theme,
                rf"\mathrm{{weights}} = \mathrm{{softmax}}(Q K^\top / \sqrt{{{t.d_head}}} + \mathrm{{mask}}),"
                r"\quad \mathrm{out} = \mathrm{weights}\; V",
                size=theme.aside_formula_size,
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
        return lines

    def joined_heads(self, bottom: float) -> tuple[VGroup, VGroup]:
        """The focus token's head outputs side by side, then joined, then projected by W_O: above ``bottom``.

        Returns ``((heads, joined), projected)``: ``heads`` holds one grid per head (with its title) and
        ``joined`` the one grid they become; ``projected`` is attention's output row, named for the token.
        Every number is the trace's (``head_outputs``, ``concat``, ``attention``), all of them printed.
        """
        theme, t = self.theme, self.trace
        f, token = t.focus, t.tokens[t.focus]
        size = theme.dense_number_size
        projected = self.token_row(
            r"\mathrm{attention}(\mathrm{norm}_1(x))",
            f"attention[{f}]",
            bottom + CELL_H / 2,
            color=theme.query,
            full=True,
            size=size,
            cell_h=CELL_H,
        )
        projected[1].align_to([0, bottom, 0], DOWN)
        # The token's name is a user's word: drawn with Text beside the formula, never in LaTeX.
        for_token = VGroup(
            label(theme, "for", size=theme.small_size, color=theme.query),
            elided_label(theme, f"“{token}”", MAX_LABEL_WIDTH, size=theme.small_size, color=theme.query),
        ).arrange(RIGHT, buff=0.12)
        name = VGroup(projected[0], for_token.next_to(projected[0], RIGHT, buff=0.2))
        name.next_to(projected[1], UP, buff=0.1).align_to(projected[1], LEFT)
        projected = VGroup(name, projected[1])
        cell_w = projected[1].cell(0, 0).width
        gap = 0.15
        heads = VGroup()
        for h in range(t.n_heads):
            grid = self.grid(f"head_outputs[{h}, {f}]", 2, cell_width=cell_w, cell_height=CELL_H, font_size=size)
            grid.cells.set_stroke(theme.heads[h % len(theme.heads)])
            title = label(theme, f"head {h + 1}", size=theme.min_size, color=theme.heads[h % len(theme.heads)])
            heads.add(VGroup(grid, title.next_to(grid, UP, buff=0.08)))
        heads.arrange(RIGHT, buff=gap, aligned_edge=DOWN)
        heads.next_to(projected[0], UP, buff=0.55)
        self.keep_inside(heads.align_to(projected[1], RIGHT))
        joined = self.grid(f"concat[{f}]", 2, cell_width=cell_w, cell_height=CELL_H, font_size=size)
        for h in range(t.n_heads):
            for j in range(h * t.d_head, (h + 1) * t.d_head):
                joined.cell(0, j).set_stroke(theme.heads[h % len(theme.heads)])
        joined.align_to(projected[1], RIGHT).align_to(heads[0][0], DOWN)
        titles = VGroup(
            *[
                title.copy().next_to(VGroup(*[joined.cell(0, j) for j in range(h * t.d_head, (h + 1) * t.d_head)]), UP, buff=0.08)
                for h, (_, title) in enumerate(heads)
            ]
        )
        joined_name = self.joined_name(joined, titles)
        # Between the joined row and the output's name, clear of the name (a long word widens it).
        x = min(joined.get_x(), RIGHT_EDGE - 1.2)
        arrow = Arrow(
            [x, joined.get_bottom()[1], 0],
            [x, projected[0].get_top()[1], 0],
            buff=0.04,
            stroke_width=3,
            color=theme.line,
            max_tip_length_to_length_ratio=0.4,
        )
        w_o = formula(theme, r"\times\,W_O", size=theme.aside_formula_size).next_to(arrow, RIGHT, buff=0.15)
        return VGroup(heads, VGroup(joined, titles, joined_name)), VGroup(arrow, w_o, projected)

    def joined_name(self, joined: NumberGrid, titles: VGroup, words: bool = True) -> VGroup:
        """Whose row ``joined`` is and how a head makes its numbers, above ``titles``.

        "joined, for “cat”: each head's weights × its 4-number values" (review 14: the row was not
        said to be the token's, nor how a head gives its numbers), from the row's left end, or ending at
        the right edge when longer than the row (narrow heads), or only "joined, for “cat”:" if even
        that is too long. Without ``words`` (no room under the maps) only "joined, for “cat”:", on the
        titles' line left of the first title, or nothing.
        """
        theme, t = self.theme, self.trace
        token = t.tokens[t.focus]
        row_room = RIGHT_EDGE - joined.get_left()[0]
        room = RIGHT_EDGE - self.diagram.get_right()[0] - 0.3
        for tail in (f": each head's weights × its {t.d_head}-number values", ":") if words else (":",):
            for size in (theme.small_size, theme.min_size):
                parts = [
                    label(theme, "joined, for", size=size, color=theme.muted),
                    elided_label(theme, f"“{token}”", MAX_LABEL_WIDTH, size=size, color=theme.muted),
                    label(theme, tail, size=size, color=theme.muted),
                ]
                parts[1].next_to(parts[0], RIGHT, buff=0.12)
                parts[2].next_to(parts[1], RIGHT, buff=0.04)
                # On one line: next_to had centred them (review 17: the quoted word stood above the line).
                on_one_line(parts)
                name = VGroup(*parts)
                if not words:
                    name.align_to(joined, LEFT).align_to(titles[0], DOWN)
                    return name if name.get_right()[0] + 0.2 <= titles[0].get_left()[0] else VGroup()
                if name.width <= room:
                    name.next_to(titles, UP, buff=0.12)
                    if name.width <= row_room:
                        return name.align_to(joined, LEFT)
                    return name.align_to(RIGHT * RIGHT_EDGE, RIGHT)
        return VGroup()

    def attention_maps(self, heads: list[int], label_w: float, cell_w: float, cell_h: float, decimals: int) -> VGroup:
        """Heatmaps of the attention weights of ``heads`` side by side, titled, ending at the right edge."""
        theme, t = self.theme, self.trace
        maps = VGroup()
        for k, h in enumerate(heads):
            # The small size where the cells have room for it (review 18: 22 px numbers were hard to read).
            size = theme.small_size if cell_w >= 0.74 and cell_h >= 0.42 else theme.min_size
            cells = Cells(cell_w, cell_h, size, mono=False)
            heat = weights_heatmap(self, f"attention_weights[{h}]", None, None, decimals, cells=cells)
            heat.cells.set_stroke(theme.background, width=3)
            self.grey_out(heat)
            if k == 0:
                add_row_labels(theme, heat, t.tokens, label_w, theme.min_size, color=theme.query)
            add_column_labels(theme, heat, t.tokens, theme.min_size, color=theme.key)
            # In the head's colour, as its numbers are in the joined row (review 14).
            title = label(theme, f"head {h + 1}", size=theme.small_size, color=theme.heads[h % len(theme.heads)])
            maps.add(VGroup(title.next_to(heat.col_labels, UP, buff=0.12), heat))
        maps.arrange(RIGHT, buff=MAP_GAP, aligned_edge=DOWN)
        return maps.shift(RIGHT * (RIGHT_EDGE - maps.get_right()[0]) + UP * (2.85 - maps.get_top()[1]))

    # --- 6. the residual connection ---------------------------------------------------

    def show_residual(self, t):
        theme = self.theme
        f = t.focus
        with self.step("residual", "Add: the residual connection"):
            self.new_panel("Add: the residual connection")
            rows = VGroup(
                self.token_row(r"x", f"x[{f}]", ROW_TOP, room=MARK_ROOM),
                self.token_row(
                    r"+\ \mathrm{attention}(\mathrm{norm}_1(x))",
                    f"attention[{f}]",
                    ROW_TOP - 1.0,
                    color=theme.query,
                    room=MARK_ROOM,
                ),
                self.token_row(r"=\ x + \mathrm{attention}", f"residual1[{f}]", ROW_TOP - 2.0, room=MARK_ROOM),
            )
            marks = self.approx_marks("residual", ("x", "attention", "residual1"), rows[2][1], 0, f)
            rounded = VGroup(marks, self.rounded_note(rows[2], marks))
            self.say("The residual connection adds attention's output to x itself.")
            self.play(self.mark("add1"), FadeIn(rows[0]), FadeIn(rows[1]), run_time=1.0)
            self.add_down(rows, rounded)
            update = formula(theme, r"x \leftarrow x + \mathrm{attention}(\mathrm{norm}_1(x))", size=theme.aside_formula_size)
            self.keep_inside(update.next_to(rounded[1], DOWN, buff=0.3).align_to(rows[2][1], LEFT))
            self.say("So each part adds to what the token already carries.")
            self.play(Indicate(self.diagram.residuals[0], color=theme.highlight), Write(update), run_time=1.2)

    # --- 7. feed-forward -------------------------------------------------------------------

    def show_feed_forward(self, t):
        theme = self.theme
        f = t.focus
        d = t.d_model
        parts = t.d_ff // d
        with self.step("feed-forward", "Feed-forward: widen, GELU, narrow"):
            self.new_panel(f"Feed-forward, for “{t.tokens[f]}”")
            norm2 = self.token_row(r"\mathrm{norm}_2(x + \mathrm{attention})", f"norm2[{f}]", ROW_TOP, color=theme.highlight)
            hidden_top = ROW_TOP - 1.2
            size = theme.dense_number_size

            def widened(source: str, name: str) -> list[VGroup]:
                """The focus token's ``d_ff`` numbers of ``source``, ``d`` per line; only GELU's examples printed."""
                rows = [
                    self.token_row(
                        name if k == 0 else "",
                        f"{source}[{f}, {k * d}:{(k + 1) * d}]",
                        hidden_top - k * CELL_H,
                        color=theme.value,
                        full=True,
                        size=size,
                        cell_h=CELL_H,
                    )
                    for k in range(parts)
                ]
                # Printed only where a line reads them (GELU's examples): no wall of 32.
                for k, row in enumerate(rows):
                    self.print_only(
                        row[1],
                        [(0, j) for j in range(d) if k * d + j in t.gelu_examples],
                        path=lambda i, j, k=k: f"{source}[{f}, {k * d + j}]",
                    )
                return rows

            # First the widened layer's numbers (z), then GELU turns each into h, in the same cells.
            pre = widened("pre_activation", r"z = \mathrm{norm}_2(x + \mathrm{attention})\,W_1 + b_1")
            hidden = widened("hidden", r"h = \mathrm{GELU}(z)")
            # Two lines at the small size: the count now, "printed: ..." with the examples it points to (review 14:
            # shown before anything was below, it pointed at nothing).
            count = label(theme, f"one token: {t.d_ff} numbers, {d} per line", size=theme.small_size, color=theme.muted)
            printed_note = label(
                theme,
                f"{len(t.gelu_examples)} of the {t.d_ff} printed; the others left blank",
                size=theme.small_size,
                color=theme.muted,
            )
            wrapped = VGroup(count, printed_note).arrange(DOWN, aligned_edge=RIGHT, buff=0.08)
            ff_y = hidden[-1][1].get_bottom()[1] - 0.1 - wrapped.height - 0.15 - 0.4 - ROW_CELL_H / 2
            ff = self.token_row(r"\mathrm{ff} = h\,W_2 + b_2", f"ff[{f}]", ff_y, color=theme.value)
            if wrapped.width <= hidden[-1][1].width:
                wrapped.next_to(hidden[-1][1], DOWN, buff=0.1).align_to(hidden[-1][1], RIGHT)
            else:  # a narrow model: left of the lower lines (only the first has a formula there), clear of ff's
                count = label(theme, f"one token:\n{t.d_ff} numbers,\n{d} per line", size=theme.min_size, color=theme.muted)
                count.next_to(hidden[-1][1], LEFT, buff=0.3).align_to(hidden[-1][1], DOWN)
                printed_note = VGroup()
            shapes = VGroup(self.widths("d_model", "d_ff"), self.widths("d_ff", "d_model"))
            # Above the grid's right end: the name changes from z to h beside it.
            shapes[0].next_to(pre[0][1], UP, buff=0.12).align_to(pre[0][1], RIGHT)
            if shapes[0].get_left()[0] < pre[0][0].get_right()[0] + 0.3:  # a narrow model's row: left of it instead
                shapes[0].next_to(pre[0][1], LEFT, buff=0.3).align_to(pre[0][1], UP)
            shapes[1].next_to(ff[0], RIGHT, buff=0.4)
            self.keep_inside(shapes[1])
            hidden_cells = [hidden[k // d][1].cells[k % d] for k in range(t.d_ff)]
            negative = [k for k in range(t.d_ff) if t.pre_activation[f, k] < 0]
            random_note = self.footer(RANDOM_WEIGHTS)
            self.say("Layer norm again, then a small network per token, its weights random too.")
            self.play(self.mark("norm2"), FadeIn(norm2), FadeIn(random_note), run_time=0.8)
            # The blank cells said not printed as they appear (review 18: for a line they read as zeros);
            # "the model width", not "d_model", heard (review 18: read out as two letters).
            shown_words = f"; {len(t.gelu_examples)} of them printed" if printed_note.submobjects else ""
            self.say(
                f"It widens the {d} numbers to {t.d_ff}: four times the model width, as in GPT-3{shown_words}.",
            )
            self.play(
                self.mark("ff"),
                ReplacementTransform(norm2[1].copy(), VGroup(*[row[1] for row in pre])),
                FadeIn(pre[0][0]),
                FadeIn(count),
                FadeIn(printed_note),
                FadeIn(shapes[0]),
                run_time=1.2,
            )
            # Below the notes, where ff's row comes later: they make way for it (review 17: "the examples below"
            # pointed past ff's row, and four blocks of text crowded the bottom).
            above = wrapped if printed_note.submobjects else hidden[-1][1]
            examples = self.gelu_examples(t).next_to(above, DOWN, buff=0.3).align_to(ff[1], LEFT)
            self.keep_inside(examples)
            name, tanh, pairs = examples
            befores = VGroup(*[pair[0] for pair in pairs])
            printed = VGroup(*[pre[k // d][1].number(0, k % d) for k in t.gelu_examples])
            # z, not x: x is the block's input in this scene, and the grid above is z.
            # The block computes GPT-2's tanh form, not zΦ(z) itself: said, with how close it is (review 17).
            # The acronym expanded once, shown and said (review 18).
            self.say(
                "GELU (Gaussian error linear unit) multiplies each z by Φ(z), the chance a standard normal is "
                "below z (here, as in GPT-2, a close tanh formula).",
                spoken="GELU, the Gaussian error linear unit, multiplies each z by the chance a standard "
                "normal is below z; here, as in GPT-2, a close formula computes it.",
            )
            # The examples' inputs are carried out of the cells they were printed in; the grid keeps z until
            # the voice has given every example's output (review 14: the outputs showed before they were said).
            self.play(
                FadeIn(name),
                FadeIn(tanh),
                TransformFromCopy(printed, befores),
                *[FadeIn(pair[1]) for pair in pairs],
                run_time=1.0,
            )
            big, small, low = (
                f"{format_number(t.pre_activation[f, k], 2)} → {format_number(t.hidden[f, k], 2)}" for k in t.gelu_examples
            )
            self.say(f"Large numbers pass almost whole ({big}); small positive ones shrink ({small}).")
            self.play(FadeIn(pairs[0][2]), FadeIn(pairs[1][2]), run_time=0.8)
            self.say(f"Negative ones end near 0 ({low}).")
            self.play(FadeIn(pairs[2][2]), run_time=0.8)
            # Every pair complete: now the grid turns into GELU's outputs, h.
            self.play(
                *[ReplacementTransform(p[1], h[1]) for p, h in zip(pre, hidden)],
                ReplacementTransform(pre[0][0], hidden[0][0]),
                run_time=1.0,
            )
            self.say(f"Here {t.hidden_negative[f]} of the {t.d_ff} were negative: the shaded ones.")
            self.play(*[hidden_cells[k].animate.set_fill(theme.masked, opacity=NEGATIVE_SHADE) for k in negative], run_time=1.0)
            self.say(f"A second layer brings them back to {d} numbers.")
            self.play(FadeOut(examples), FadeOut(printed_note), run_time=0.4)
            self.play(
                ReplacementTransform(VGroup(*[row[1] for row in hidden]).copy(), ff[1]),
                FadeIn(ff[0]),
                FadeIn(shapes[1]),
                run_time=1.2,
            )

    def gelu_examples(self, t) -> VGroup:
        """GELU's formula over three of the focus token's numbers, before → after, read from the trace."""
        theme = self.theme
        f = t.focus
        name = formula(theme, r"\mathrm{GELU}(z) = z\,\Phi(z)", size=theme.aside_formula_size).set_color(theme.value)
        tanh = VGroup(
            label(theme, "here, as in GPT-2: the tanh form, within", size=theme.small_size, color=theme.muted),
            self.number("gelu_tanh_bound", 3, size=theme.small_size, color=theme.muted, mono=False),
            label(theme, "of zΦ(z)", size=theme.small_size, color=theme.muted),
        ).arrange(RIGHT, buff=0.1)
        on_one_line(list(tanh))
        pairs = VGroup(
            *[
                VGroup(
                    self.number(f"pre_activation[{f}, {k}]", 2, size=theme.small_size),
                    label(theme, "→", size=theme.small_size, color=theme.muted),
                    self.number(f"hidden[{f}, {k}]", 2, size=theme.small_size, color=theme.value),
                ).arrange(RIGHT, buff=0.12)
                for k in t.gelu_examples
            ]
        ).arrange(RIGHT, buff=0.6)
        return VGroup(name, tanh, pairs).arrange(DOWN, aligned_edge=LEFT, buff=0.2)

    # --- 8. add again: the block's output --------------------------------------------------

    def show_output(self, t):
        theme = self.theme
        f = t.focus
        with self.step("add-again", "Add again: the block's output"):
            self.new_panel("Add again: the block's output")
            rows = VGroup(
                self.token_row(r"x + \mathrm{attention}", f"residual1[{f}]", ROW_TOP, room=MARK_ROOM),
                self.token_row(r"+\ \mathrm{ff}", f"ff[{f}]", ROW_TOP - 1.0, color=theme.value, room=MARK_ROOM),
                self.token_row(r"=\ \mathrm{output}", f"output[{f}]", ROW_TOP - 2.0, color=theme.highlight, room=MARK_ROOM),
            )
            block = VGroup(
                formula(theme, r"x \leftarrow x + \mathrm{attention}(\mathrm{norm}_1(x))", size=theme.aside_formula_size),
                formula(theme, r"x \leftarrow x + \mathrm{ff}(\mathrm{norm}_2(x))", size=theme.aside_formula_size),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
            marks = self.approx_marks("add-again", ("residual1", "ff", "output"), rows[2][1], 0, f)
            rounded = VGroup(marks, self.rounded_note(rows[2], marks))
            self.keep_inside(block.next_to(rounded[1], DOWN, buff=0.3).align_to(rows[2][1], LEFT))
            # Both halves of the 2017 block, as large as GPT's (review 14: small, grey, and only the first half).
            original = VGroup(
                label(theme, "2017 original (Vaswani et al.):", size=theme.small_size, color=theme.muted),
                formula(theme, r"x \leftarrow \mathrm{norm}_1(x + \mathrm{attention}(x))", size=theme.aside_formula_size),
                formula(theme, r"x \leftarrow \mathrm{norm}_2(x + \mathrm{ff}(x))", size=theme.aside_formula_size),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.2)
            self.keep_inside(original.next_to(block, DOWN, buff=0.35).align_to(block, LEFT))
            self.say("Add the feed-forward output too: that is the block's output.")
            self.play(self.mark("add2"), FadeIn(rows[0]), FadeIn(rows[1]), run_time=0.8)
            self.add_down(rows, rounded)
            # Said in words (review 14: the transcript's "in two lines:" was followed by the 2017 sentence).
            self.say(f"Still {t.d_model} numbers per token. Each part: normalise, transform, add.")
            self.play(Write(block), Indicate(self.diagram.output_label, color=theme.highlight), run_time=1.5)
            self.say("The 2017 Transformer normalises after each add instead.")
            self.play(FadeIn(original), run_time=0.8)

    # --- 9. stacked N times ---------------------------------------------------------------------

    def show_stack(self, t):
        theme = self.theme
        f = t.focus
        diagram = self.diagram
        with self.step("stacked-n-times", "Blocks stacked N times"):
            self.new_panel("Stacked N times")
            self.play(FadeOut(self.marker), run_time=0.4)
            self.marker = None
            brace = Brace(
                VGroup(diagram.boxes["norm1"], diagram.boxes["add2"], diagram.residuals), RIGHT, color=theme.highlight, buff=0.1
            )
            times = label(theme, "× N", size=theme.body_size, color=theme.highlight).next_to(brace, RIGHT, buff=0.1)
            # Level with the last add, below the rows of numbers on the right.
            times.set_y(diagram.boxes["add2"].get_y())
            start = self.token_row(r"x", f"x[{f}]", ROW_TOP)
            # A little tighter than the other steps' rows: room below for a banded sketch large enough to read (review 17).
            step = 0.58
            layer_rows = VGroup()
            for i in range(t.n_layers):
                row = self.token_row("", f"layer_outputs[{i}, {f}]", ROW_TOP - 0.75 - step * i, color=theme.highlight)
                name = VGroup(
                    label(theme, "block", size=theme.small_size, color=theme.muted), self.number(f"block_numbers[{i}]", 0)
                ).arrange(RIGHT, buff=0.12)
                name.next_to(row[1], LEFT, buff=0.25)
                layer_rows.add(VGroup(name, row[1]))
            final = self.token_row(
                r"\mathrm{final\ norm}", "final_norm[{}]".format(f), layer_rows.get_bottom()[1] - 0.7, color=theme.text
            )
            # Two lines: the width is each token's, not a block's ("96 blocks of 12,288 numbers" misread).
            gpt = VGroup(
                VGroup(
                    label(theme, "The largest GPT-3 stacks", size=theme.small_size, color=theme.muted),
                    self.number("gpt3_layers", 0, size=theme.small_size, color=theme.highlight),
                    label(theme, "blocks;", size=theme.small_size, color=theme.muted),
                ).arrange(RIGHT, buff=0.14),
                VGroup(
                    label(theme, "each token a vector of", size=theme.small_size, color=theme.muted),
                    self.number("gpt3_d_model", 0, size=theme.small_size, color=theme.highlight),
                    label(theme, "numbers", size=theme.small_size, color=theme.muted),
                ).arrange(RIGHT, buff=0.14),
            ).arrange(DOWN, buff=0.12, aligned_edge=RIGHT)
            gpt.next_to(final, DOWN, buff=0.3).align_to(final[1], RIGHT)
            self.say(f"{t.d_model} numbers in, {t.d_model} out: so blocks stack, each with its own weights.")
            self.play(FadeIn(brace), FadeIn(times), FadeIn(start), run_time=1.0)
            self.say(f"Here {t.n_layers} blocks carry “{t.tokens[f]}” along.")
            previous = start[1]
            for row in layer_rows:
                self.play(ReplacementTransform(previous.copy(), row[1]), FadeIn(row[0]), run_time=0.8)
                previous = row[1]
            self.say("GPT-2 and GPT-3 add one last layer norm after the final block.")
            self.play(ReplacementTransform(previous.copy(), final[1]), FadeIn(final[0]), run_time=0.8)
            self.say(
                f"The largest GPT-3 stacks {t.gpt3_layers} blocks, {format_number(t.gpt3_d_model, 0)} numbers wide.",
            )
            self.play(FadeIn(gpt, shift=UP * 0.2))
            # Brown et al. 2020, section 2.1: "alternating dense and locally banded sparse attention patterns".
            # The paper gives no order, so none is said; "locally banded" said as what it means.
            band = self.banded_sketch().next_to(gpt, DOWN, buff=0.2).align_to(gpt, RIGHT)
            # Brown et al. 2020, 2.1: every GPT-3 size; the reason is the Sparse Transformer's (Child et al. 2019),
            # which GPT-3 cites, not one the GPT-3 paper gives (review 18).
            self.say("In all GPT-3 sizes every other layer is banded: the Sparse Transformer's idea, to save work.")
            self.play(FadeIn(band), run_time=0.8)

    def banded_sketch(self) -> VGroup:
        """The trace's small banded causal mask as squares (lit where a query may look), with what it shows beside it."""
        theme, mask = self.theme, self.trace.banded_mask
        n = len(mask)
        squares = VGroup(
            *[
                Square(BAND_SQUARE, stroke_color=theme.line, stroke_width=1)
                .set_fill(theme.value if mask[i][j] else theme.surface, opacity=1)
                .move_to(RIGHT * j * BAND_SQUARE + DOWN * i * BAND_SQUARE)
                for i in range(n)
                for j in range(n)
            ]
        )
        words = VGroup(
            label(theme, "a banded layer (a sketch):", size=theme.small_size, color=theme.muted),
            label(theme, "each token sees itself and", size=theme.small_size, color=theme.muted),
            label(theme, "only the few just before it", size=theme.small_size, color=theme.muted),
        ).arrange(DOWN, aligned_edge=RIGHT, buff=0.08)
        return VGroup(words, squares).arrange(RIGHT, buff=0.3)
