"""Where attention lives: a real forward pass through one transformer block, then a stack of them.

Follows seed 003 "Where Attention Lives in GPT" (embeddings, positions, blocks
of attention, layer norm and feed-forward, x96 in GPT-3) and seed 004 slides 4,
7 and 8 (FeedForward, LayerNorm, EncoderBlock: x = norm1(x + attention(x));
x = norm2(x + ff(x))).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Brace,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED, THE_CAT_SAT, sentence_example
from attention_math.traces.transformer_block import transformer_block_trace

from .kit import ExplainerScene
from .kit.components import formula, label
from .kit.layout import LEFT_EDGE, RIGHT_EDGE
from .theme import format_number

CELL_W, CELL_H = 0.92, 0.46
GRID_LEFT = -0.6
"""Left edge of the one-token rows in the right-hand panel; their names end just left of it."""
"""Leftmost and rightmost x anything reaches (the frame's edges less a margin)."""
MAPS_LEFT, MAPS_RIGHT = -3.6, 6.7
"""Room for the attention maps right of the block diagram."""
MAX_MAP_CELLS = 12
"""Most heads × tokens the attention maps show in a row with numbers still readable (one decimal when narrow)."""
BLOCK_FORMULA = (r"x = \mathrm{norm}_1(x + \mathrm{attention}(x))", r"x = \mathrm{norm}_2(x + \mathrm{ff}(x))")


class BlockDiagram(VGroup):
    """The block drawn top to bottom: input, attention, add & norm, feed-forward, add & norm.

    The two residual connections run down the right-hand side into the add & norm boxes.
    """

    PARTS = (
        ("input", "embedding\n+ position", "muted", 0.8),
        ("attention", "multi-head\nattention", "query", 0.8),
        ("norm1", "add & norm", "text", 0.58),
        ("ff", "feed-forward", "value", 0.58),
        ("norm2", "add & norm", "text", 0.58),
    )

    def __init__(self, theme, center_x: float = -5.55, top: float = 2.75, width: float = 2.6, gap: float = 0.42):
        super().__init__()
        self.boxes = {}
        y = top
        for name, text, color_role, height in self.PARTS:
            color = getattr(theme, color_role)
            box = Rectangle(width=width, height=height, stroke_color=color, stroke_width=2.5)
            box.move_to([center_x, y - height / 2, 0])
            words = label(theme, text, size=theme.small_size, color=color if color_role != "text" else theme.text)
            words.move_to(box)
            self.boxes[name] = VGroup(box, words)
            self.add(self.boxes[name])
            y -= height + gap
        names = [p[0] for p in self.PARTS]
        self.arrows = VGroup()
        for above, below in zip(names, names[1:]):
            self.arrows.add(self._down_arrow(self.boxes[above], self.boxes[below], theme))
        out = label(theme, "output", size=theme.small_size, color=theme.muted).next_to(self.boxes["norm2"], DOWN, buff=0.42)
        self.arrows.add(
            Arrow(
                self.boxes["norm2"].get_bottom(),
                out.get_top(),
                buff=0.05,
                stroke_width=3,
                color=theme.line,
                max_tip_length_to_length_ratio=0.3,
            )
        )
        self.output_label = out
        self.residuals = VGroup(
            self._residual(self.arrows[0], self.boxes["norm1"], center_x + width / 2 + 0.3, theme),
            self._residual(self.arrows[2], self.boxes["norm2"], center_x + width / 2 + 0.3, theme),
        )
        self.add(self.arrows, out, self.residuals)

    @staticmethod
    def _down_arrow(above, below, theme):
        return Arrow(
            above.get_bottom(), below.get_top(), buff=0.04, stroke_width=3, color=theme.line, max_tip_length_to_length_ratio=0.3
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
    description = "Embeddings + positions, attention, residuals, layer norm and feed-forward, stacked N times."
    sources = "seed 003 'Where Attention Lives in GPT'; seed 004 slides 4, 7, 8 (FeedForward, LayerNorm, EncoderBlock)"

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
            return transformer_block_trace(cls.DEFAULT_TOKENS, seed, d_model, heads, d_ff=2 * d_model)
        example = sentence_example(sentence, dim=d_model)
        return transformer_block_trace(
            example.tokens,
            seed,
            d_model,
            heads,
            d_ff=2 * d_model,
            embeddings=example.embeddings,
            embeddings_source=example.source,
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
        self.show_input(t)
        diagram = BlockDiagram(self.theme)
        self.show_attention(t, diagram)
        self.show_first_norm(t, diagram)
        self.show_feed_forward(t, diagram)
        self.show_second_norm(t, diagram)
        self.show_stack(t, diagram)

    # --- helpers ---------------------------------------------------------------------

    def token_row(self, name_tex: str, source: str, y: float, color: str | None = None):
        """One token's vector as a row of cells at height ``y``, named by a formula on its left."""
        theme = self.theme
        grid = self.grid(source, 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.min_size)
        if color:
            grid.cells.set_stroke(color)
        grid.move_to([GRID_LEFT + grid.width / 2, y, 0])
        name = VGroup()
        if name_tex:
            name = formula(theme, name_tex, size=theme.body_size).next_to(grid, LEFT, buff=0.25)
        return VGroup(name, grid)

    def widths(self, before: str, after: str) -> VGroup:
        """A layer's input and output widths, "8 → 16", read from the trace."""
        theme = self.theme
        return VGroup(
            self.number(before, 0, color=theme.muted),
            label(theme, "→", size=theme.small_size, color=theme.muted),
            self.number(after, 0, color=theme.muted),
        ).arrange(RIGHT, buff=0.12)

    def highlight(self, diagram, part: str):
        return SurroundingRectangle(diagram.boxes[part], color=self.theme.highlight, buff=0.08, stroke_width=4)

    def move_highlight(self, old, diagram, part: str):
        new = self.highlight(diagram, part)
        self.play(ReplacementTransform(old, new), run_time=0.6)
        return new

    # --- 1. the tree from seed 003 -----------------------------------------------------

    def show_gpt_tree(self, t):
        theme = self.theme
        caption = (
            "Attention is one part of a bigger machine. In GPT, tokens are embedded, positions are added, "
            f"and the result passes through a stack of transformer blocks, {format_number(t.gpt3_layers, 0)} of them in GPT-3. "
            "Each block holds attention, layer norm and a feed-forward network."
        )
        with self.step("where-attention-lives", caption):
            heading = self.heading("Where attention lives in GPT")
            size = theme.small_size + 2

            def line(text, color=None):
                return label(theme, text, size=size, mono=True, color=color)

            block_line = VGroup(
                line("├── Transformer Block (×"),
                self.number("gpt3_layers", 0, size=size, color=theme.highlight),
                line("in GPT-3)"),
            ).arrange(RIGHT, buff=0.12)
            block_line[2].align_to(block_line[0], DOWN)
            lines = VGroup(
                line("GPT"),
                line("├── Token Embedding"),
                line("├── Position Embedding"),
                block_line,
                line("│   ├── Multi-Head Self-Attention (causal)", theme.query),
                line("│   ├── Layer Norm"),
                line("│   ├── Feed-Forward Network", theme.value),
                line("│   └── Layer Norm"),
                line("└── Output Projection"),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.16)
            lines.move_to([-1.2, -0.1, 0])
            self.play(FadeIn(heading))
            for item in lines:
                self.play(FadeIn(item, shift=RIGHT * 0.2), run_time=0.35)
            pointer = label(theme, "← attention", size=theme.small_size, color=theme.highlight).next_to(lines[4], RIGHT, buff=0.3)
            self.play(Indicate(lines[4], color=theme.query, scale_factor=1.05), FadeIn(pointer))

    # --- 2. embeddings + positions -------------------------------------------------------

    def show_input(self, t):
        theme = self.theme
        n, d = len(t.tokens), t.d_model
        embedded = (
            f"The embeddings are random (seed {t.seed})"
            if self.course_input
            else "Each word brings its own embedding (where from is noted below)"
        )
        caption = (
            f"Our block is small enough to see every number: {n} tokens, each a vector of {d} numbers. "
            f"{embedded}; the sinusoidal position encodings add where each token sits. "
            "Their sum x is what enters the block."
        )
        with self.step("embeddings-plus-positions", caption):
            self.clear()
            heading = self.heading("Input: token embedding + position")
            note = None if self.course_input else self.source_note(t.embeddings_source)
            names = VGroup(
                label(theme, "token embeddings", size=theme.small_size, color=theme.muted),
                label(theme, "+ position encodings", size=theme.small_size, color=theme.key),
                label(theme, "= x, the block's input", size=theme.small_size, color=theme.highlight),
            )
            # Three grids of n rows between the heading and the bottom (or the note): rows get lower for more tokens.
            top, bottom, gap = 2.75, (note.get_top()[1] + 0.2) if note else -3.55, 0.32
            cell_h = min(0.42, (top - bottom - 2 * gap) / (3 * n))
            # Cells end at x = 1.7, or further right when long words need room on their left (the names still fit).
            grid_w = d * CELL_W
            natural = max(label(theme, token, size=theme.small_size).width for token in t.tokens)
            right = min(max(1.7, LEFT_EDGE + natural + 0.15 + grid_w), RIGHT_EDGE - 0.35 - names.width)
            grids = VGroup(
                *[
                    self.grid(
                        source,
                        2,
                        cell_width=CELL_W,
                        cell_height=cell_h,
                        font_size=theme.min_size,
                        row_labels=t.tokens,
                        row_label_color=theme.muted,
                        row_label_width=right - grid_w - 0.15 - LEFT_EDGE,
                        label_size=theme.small_size if cell_h >= 0.42 else theme.min_size,
                    )
                    for source in ("embeddings", "positions", "x")
                ]
            )
            grids.arrange(DOWN, buff=gap, aligned_edge=RIGHT)
            grids.shift(RIGHT * (right - grids.get_right()[0]) + UP * (top - grids.get_top()[1]))
            for name, grid in zip(names, grids):
                name.next_to(grid, RIGHT, buff=0.35)
            self.play(FadeIn(heading))
            for name, grid in zip(names, grids):
                self.play(FadeIn(name), FadeIn(grid), run_time=1.0)
            if note:
                self.play(FadeIn(note))
            self.wait(1)

    # --- 3. multi-head attention -----------------------------------------------------------

    def show_attention(self, t, diagram):
        theme = self.theme
        f = t.focus
        token = t.tokens[f]
        # The maps share the room right of the diagram: cells narrow as heads × tokens grows (see check_settings),
        # and narrow cells show one decimal so that neighbouring numbers stay apart.
        label_w = min(1.6, max(label(theme, word, size=theme.small_size).width for word in t.tokens))
        cell_w = min(0.9, (MAPS_RIGHT - MAPS_LEFT - label_w - 0.15 - 0.5 * (t.n_heads - 1)) / (t.n_heads * len(t.tokens)))
        self.map_decimals = 2 if cell_w >= 0.85 else 1
        gives = [
            f"head {h + 1} gives {format_number(t.attention_weights[h, f, f], self.map_decimals)} to itself"
            for h in range(t.n_heads)
        ]
        heads = gives[0] if len(gives) == 1 else ", ".join(gives[:-1]) + " and " + gives[-1]
        caption = (
            f"Multi-head attention: {t.n_heads} {'head' if t.n_heads == 1 else 'heads'}, each with its own {t.d_head}-number queries and keys. "
            f"As in GPT it is causal, so “{token}” sees only itself and the tokens before it: {heads}. "
            f"The heads' outputs are joined and projected back to {t.d_model} numbers per token."
        )
        with self.step("multi-head-attention", caption):
            self.clear()
            heading = self.heading("Multi-head attention")
            self.play(FadeIn(heading), FadeIn(diagram), run_time=1.0)
            self.marker = self.highlight(diagram, "attention")
            self.play(FadeIn(self.marker), run_time=0.5)
            maps = VGroup()
            for h in range(t.n_heads):
                heat = self.grid(
                    f"attention_weights[{h}]",
                    self.map_decimals,
                    heat=True,
                    vmin=0.0,
                    vmax=1.0,
                    cell_width=cell_w,
                    cell_height=0.48,
                    font_size=theme.min_size,
                    row_labels=t.tokens if h == 0 else None,
                    col_labels=t.tokens,
                    row_label_color=theme.query,
                    col_label_color=theme.key,
                    row_label_width=label_w,
                    col_label_lines=0,
                )
                title = label(theme, f"head {h + 1}", size=theme.small_size, color=theme.muted).next_to(
                    heat.col_labels, UP, buff=0.15
                )
                maps.add(VGroup(title, heat))
            maps.arrange(RIGHT, buff=0.5, aligned_edge=DOWN)
            if maps.width > MAPS_RIGHT - MAPS_LEFT:
                # Long words' column labels reach past their map: the row shrinks a little to stay clear of the diagram.
                maps.scale_to_fit_width(MAPS_RIGHT - MAPS_LEFT)
            maps.shift(RIGHT * (MAPS_RIGHT - maps.get_right()[0]) + UP * (2.7 - maps.get_top()[1]))
            # The output row below the maps (lower when long words stack their labels or there are many tokens).
            output = self.token_row(
                r"\mathrm{attention}(x)", f"attention[{f}]", min(-1.35, maps.get_bottom()[1] - 0.85), color=theme.query
            )
            focus_name = (
                label(theme, f"for “{token}”:", size=theme.small_size, color=theme.muted)
                .next_to(output, UP, buff=0.2)
                .align_to(output, LEFT)
            )
            self.play(*[FadeIn(m) for m in maps], run_time=1.2)
            rows = VGroup(*[maps[h][1].row(f) for h in range(t.n_heads)])
            self.play(Indicate(rows, color=theme.highlight, scale_factor=1.05), run_time=1.0)
            self.play(FadeIn(focus_name), FadeIn(output), run_time=1.0)
            self.wait(1)

    # --- 4. add & norm -------------------------------------------------------------------------

    def show_first_norm(self, t, diagram):
        theme = self.theme
        f = t.focus
        caption = (
            f"Residual connection: add the attention output back onto x. Then layer norm rescales each token's vector "
            f"to mean 0 and variance 1: for “{t.tokens[f]}” the mean {format_number(t.residual1_mean[f], 2)} "
            f"and variance {format_number(t.residual1_var[f], 2)} become {format_number(t.norm1_mean[f], 2)} and {format_number(t.norm1_var[f], 2)}."
        )
        with self.step("add-and-norm", caption):
            self.clear(diagram, self.marker)
            heading = self.heading(f"Add & norm, for “{t.tokens[f]}”")
            self.play(FadeIn(heading), run_time=0.5)
            self.marker = self.move_highlight(self.marker, diagram, "norm1")
            rows = VGroup(
                self.token_row(r"x", f"x[{f}]", 2.35),
                self.token_row(r"+\,\mathrm{attention}(x)", f"attention[{f}]", 1.6, color=theme.query),
                self.token_row(r"=\,\mathrm{sum}", f"residual1[{f}]", 0.85),
                self.token_row(r"\mathrm{norm}_1", f"norm1[{f}]", -0.55, color=theme.highlight),
            )
            stats = VGroup(
                label(theme, "mean", size=theme.small_size, color=theme.muted),
                self.number(f"residual1_mean[{f}]", 2),
                label(theme, "variance", size=theme.small_size, color=theme.muted),
                self.number(f"residual1_var[{f}]", 2),
            ).arrange(RIGHT, buff=0.2)
            stats.next_to(rows[2], DOWN, buff=0.14).align_to(rows[2][1], RIGHT)
            new_stats = VGroup(
                label(theme, "mean", size=theme.small_size, color=theme.muted),
                self.number(f"norm1_mean[{f}]", 2),
                label(theme, "variance", size=theme.small_size, color=theme.muted),
                self.number(f"norm1_var[{f}]", 2),
            ).arrange(RIGHT, buff=0.2)
            new_stats.next_to(rows[3], DOWN, buff=0.14).align_to(rows[3][1], RIGHT)
            norm = formula(
                theme,
                r"\mathrm{norm}(x) = \gamma \, \frac{x - \mathrm{mean}}{\sqrt{\mathrm{variance} + \epsilon}} + \beta",
                size=theme.body_size,
            )
            norm.next_to(new_stats, DOWN, buff=0.35).align_to(rows[3][1], LEFT)
            defaults = (
                formula(theme, r"\gamma = 1,\ \beta = 0", size=theme.body_size)
                .next_to(norm, DOWN, buff=0.15)
                .align_to(norm, LEFT)
            )
            self.play(FadeIn(rows[0]), run_time=0.6)
            self.play(FadeIn(rows[1]), run_time=0.6)
            self.play(ReplacementTransform(VGroup(rows[0][1], rows[1][1]).copy(), rows[2][1]), FadeIn(rows[2][0]), run_time=1.0)
            self.play(FadeIn(stats), run_time=0.5)
            self.play(Write(norm), FadeIn(defaults), run_time=1.2)
            self.play(ReplacementTransform(rows[2][1].copy(), rows[3][1]), FadeIn(rows[3][0]), run_time=1.0)
            self.play(FadeIn(new_stats), run_time=0.5)
            self.wait(1)

    # --- 5. feed-forward ------------------------------------------------------------------------

    def show_feed_forward(self, t, diagram):
        theme = self.theme
        f = t.focus
        half = t.d_ff // 2
        caption = (
            f"The feed-forward network works on each token alone. A first layer widens the {t.d_model} numbers to {t.d_ff}, "
            f"ReLU sets the negative ones to zero ({format_number(t.hidden_zeros[f], 0)} of {t.d_ff} here), "
            f"and a second layer brings them back to {t.d_model}."
        )
        with self.step("feed-forward", caption):
            self.clear(diagram, self.marker)
            heading = self.heading(f"Feed-forward, for “{t.tokens[f]}”")
            self.play(FadeIn(heading), run_time=0.5)
            self.marker = self.move_highlight(self.marker, diagram, "ff")
            rows = VGroup(
                self.token_row(r"\mathrm{norm}_1", f"norm1[{f}]", 2.35, color=theme.highlight),
                self.token_row(r"h = \mathrm{ReLU}(x W_1 + b_1)", f"hidden[{f}, :{half}]", 1.25, color=theme.value),
                self.token_row(r"", f"hidden[{f}, {half}:]", 0.79, color=theme.value),
                self.token_row(r"\mathrm{ff} = h W_2 + b_2", f"ff[{f}]", -0.45, color=theme.value),
            )
            shapes = VGroup(self.widths("d_model", "d_ff"), self.widths("d_ff", "d_model"))
            shapes[0].next_to(rows[1][1], UP, buff=0.1).align_to(rows[1][1], RIGHT)
            shapes[1].next_to(rows[3][1], UP, buff=0.1).align_to(rows[3][1], RIGHT)
            zeros = VGroup(
                *[
                    SurroundingRectangle(rows[1 + k // half][1].cells[k % half], color=theme.masked, buff=0.0, stroke_width=3)
                    for k in range(t.d_ff)
                    if t.hidden[f, k] == 0.0
                ]
            )
            self.play(FadeIn(rows[0]), run_time=0.6)
            self.play(
                ReplacementTransform(rows[0][1].copy(), VGroup(rows[1][1], rows[2][1])),
                FadeIn(rows[1][0]),
                FadeIn(shapes[0]),
                run_time=1.2,
            )
            self.play(FadeIn(zeros, lag_ratio=0.1), run_time=1.0)
            self.play(
                ReplacementTransform(VGroup(rows[1][1], rows[2][1]).copy(), rows[3][1]),
                FadeIn(rows[3][0]),
                FadeIn(shapes[1]),
                run_time=1.2,
            )
            self.wait(1)

    # --- 6. add & norm again --------------------------------------------------------------------

    def show_second_norm(self, t, diagram):
        theme = self.theme
        f = t.focus
        caption = (
            "Add the feed-forward input back on and normalise again: that is the block's output, "
            f"still {t.d_model} numbers per token. In two lines: x = norm1(x + attention(x)), then x = norm2(x + ff(x))."
        )
        with self.step("add-and-norm-again", caption):
            self.clear(diagram, self.marker)
            heading = self.heading(f"Add & norm again, for “{t.tokens[f]}”")
            self.play(FadeIn(heading), run_time=0.5)
            self.marker = self.move_highlight(self.marker, diagram, "norm2")
            rows = VGroup(
                self.token_row(r"\mathrm{norm}_1", f"norm1[{f}]", 2.35, color=theme.highlight),
                self.token_row(r"+\,\mathrm{ff}", f"ff[{f}]", 1.6, color=theme.value),
                self.token_row(r"=\,\mathrm{sum}", f"residual2[{f}]", 0.85),
                self.token_row(r"\mathrm{norm}_2", f"output[{f}]", -0.1, color=theme.highlight),
            )
            block = VGroup(*[formula(theme, line) for line in BLOCK_FORMULA]).arrange(DOWN, aligned_edge=LEFT, buff=0.25)
            block.next_to(rows[3], DOWN, buff=0.6).align_to(rows[3][1], LEFT)
            self.play(FadeIn(rows[0]), FadeIn(rows[1]), run_time=0.8)
            self.play(ReplacementTransform(VGroup(rows[0][1], rows[1][1]).copy(), rows[2][1]), FadeIn(rows[2][0]), run_time=1.0)
            self.play(ReplacementTransform(rows[2][1].copy(), rows[3][1]), FadeIn(rows[3][0]), run_time=1.0)
            self.play(Indicate(diagram.output_label, color=theme.highlight), Write(block), run_time=1.5)
            self.wait(1)

    # --- 7. stacked N times ---------------------------------------------------------------------

    def show_stack(self, t, diagram):
        theme = self.theme
        f = t.focus
        caption = (
            f"{t.d_model} numbers per token in, {t.d_model} out: so blocks stack, each with its own weights, "
            f"the output of one the input of the next. Here {t.n_layers} blocks carry “{t.tokens[f]}” along; "
            f"GPT-3 stacks {format_number(t.gpt3_layers, 0)}."
        )
        with self.step("stacked-n-times", caption):
            self.clear(diagram, self.marker)
            heading = self.heading("Stacked N times")
            self.play(FadeIn(heading), FadeOut(self.marker), run_time=0.6)
            brace = Brace(
                VGroup(diagram.boxes["attention"], diagram.boxes["norm2"], diagram.residuals),
                RIGHT,
                color=theme.highlight,
                buff=0.1,
            )
            times = VGroup(label(theme, "× N", size=theme.body_size, color=theme.highlight)).next_to(brace, RIGHT, buff=0.1)
            start = self.token_row(r"x", f"x[{f}]", 2.35)
            layer_rows = VGroup()
            for i in range(t.n_layers):
                row = self.token_row(r"", f"layer_outputs[{i}, {f}]", 1.2 - 0.75 * i, color=theme.highlight)
                name = VGroup(
                    label(theme, "block", size=theme.small_size, color=theme.muted), self.number(f"block_numbers[{i}]", 0)
                ).arrange(RIGHT, buff=0.12)
                name.next_to(row[1], LEFT, buff=0.25)
                layer_rows.add(VGroup(name, row[1]))
            gpt = VGroup(
                label(theme, "GPT-3: the same block ×", size=theme.body_size, color=theme.muted),
                self.number("gpt3_layers", 0, size=theme.body_size, color=theme.highlight),
            ).arrange(RIGHT, buff=0.15)
            gpt.next_to(layer_rows, DOWN, buff=0.55).align_to(layer_rows[-1][1], LEFT)
            self.play(FadeIn(brace), FadeIn(times), FadeIn(start), run_time=1.0)
            previous = start[1]
            for row in layer_rows:
                self.play(ReplacementTransform(previous.copy(), row[1]), FadeIn(row[0]), run_time=0.9)
                previous = row[1]
            self.play(FadeIn(gpt, shift=UP * 0.2))
            self.wait(1)
