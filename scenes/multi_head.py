"""Multi-head attention: split d_model into heads, a pattern per head, concatenate, project, scale up.

Follows seed 000 "Multi-Head Attention" (8 heads drawn as a 2 x 4 grid of
heatmaps; GPT-3's 96 heads x 96 layers), seed 001 part 4 (the reshape to
(heads, seq, d_head) and back, then W_O) and seed 003 "Scale Comparison", whose
table is redrawn with the model this video runs beside GPT-3 (Brown et al. 2020, Table 2.1).
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
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import THE_CAT_SAT, sentence_example
from attention_math.traces.multi_head import PATTERN_SEED, multi_head_trace

from .kit import ExplainerScene
from .kit.heatmaps import HeadGrid
from .kit.layout import (
    BODY,
    BODY_TOP,
    CONTENT_WIDTH,
    LEFT_EDGE,
    RIGHT_EDGE,
    SAFE_BOTTOM,
    Region,
    align_to_cells,
    keep_inside,
    pin,
)
from .kit.tables import NumberGrid
from .kit.text import elided_label, formula, label, word_rows
from .theme import format_number

CELL_WIDTH = 0.72
"""Wide enough for "−0.5" at the smallest font with a gap, so 16 columns fit the frame (hence d_model ≤ 16)."""
CELL_HEIGHT = 0.4
LABEL_BUFF = 0.15
"""Gap between a row label and its row (as NumberGrid draws it)."""
MAX_LABEL_WIDTH = 2.0
"""Widest a token label gets beside a matrix; a longer word is elided (it is shown whole in the first step)."""
GRID_TOP = 2.35
"""Top edge of the (seq, d_model) matrices, under the heading and their name."""
BLOCK_GAP = 0.2
"""Gap between two heads' blocks."""
PATTERNS = Region(LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM + 0.55, BODY_TOP)
"""Room for the heatmaps of a page of heads, above the note that says where the numbers come from."""
EQUATIONS_AT = DOWN * 1.2
"""Where the two equations of the first step go, unless the teacher's words reach lower."""
HEADER_Y, ROW_STEP = 2.45, 0.6
"""Scale table: height of the column names, row spacing."""
VIDEO_X, GPT3_X = 1.75, 4.75
"""Scale table: centres of the two model columns."""


def plural(count: int, noun: str) -> str:
    """``"1 head"``, ``"8 heads"``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


class MultiHeadScene(ExplainerScene):
    name = "multi-head"
    title = "Multi-head attention"
    description = "d_model {d_model} split into {heads} heads: {heads} attention patterns, concatenated and mixed by W_O."
    sources = (
        "seed 000 'Multi-Head Attention'; seed 001 part 4; seed 003 'Multi-Head Attention' and 'Scale Comparison'; "
        "GPT-3: Brown et al. 2020, Table 2.1"
    )

    options = ("sentence", "seed", "d_model", "heads")
    # Eight 2 x 4 heatmaps of n x n weights must share one screen: six tokens is the most that stay readable.
    max_tokens = 6
    # One column per number at a readable width: 16 columns fill the frame.
    default_d_model, d_model_range = 16, (4, 16)
    default_heads, heads_range = 8, (1, 8)

    @classmethod
    def build_trace(
        cls, sentence: str | None = None, seed: int = PATTERN_SEED, d_model: int | None = None, heads: int | None = None
    ):
        tokens = THE_CAT_SAT.tokens if sentence is None else sentence_example(sentence).tokens
        return multi_head_trace(seed, tokens, d_model or cls.default_d_model, heads or cls.default_heads)

    def construct(self):
        t = self.trace
        self.show_idea(t)
        self.show_input(t)
        self.show_projection(t)
        self.show_split(t)
        self.show_patterns(t)
        self.show_concat(t)
        self.show_output(t)
        self.show_scale(t)
        self.show_whole_models(t)

    # --- helpers -------------------------------------------------------------------------

    def token_label_width(self, cells_width: float, size: int) -> float:
        """How wide the token labels left of ``cells_width`` of cells may be: as needed, at most what the frame leaves."""
        natural = max(label(self.theme, token, size=size).width for token in self.trace.tokens)
        return min(natural, CONTENT_WIDTH - cells_width - LABEL_BUFF, MAX_LABEL_WIDTH)

    def row_labels(self, grid: NumberGrid, width: float, size: int, color: str | None = None) -> VGroup:
        """The tokens left of ``grid``'s rows, each at most ``width`` wide (a long word elided, never shrunk past the minimum)."""
        labels = VGroup()
        for i, token in enumerate(self.trace.tokens):
            text = elided_label(self.theme, token, width, size=size, color=color)
            labels.add(text.next_to(grid.cell(i, 0), LEFT, buff=LABEL_BUFF))
        grid.row_labels = labels
        grid.add(labels)
        return labels

    def wide_grid(self, source: str, with_labels: bool = True) -> NumberGrid:
        """A (seq, d_model) matrix with one decimal, tokens on the left, centred in the frame."""
        size = self.theme.small_size
        width = self.trace.d_model * CELL_WIDTH
        label_w = self.token_label_width(width, size)
        left = -(label_w + LABEL_BUFF + width) / 2 + label_w + LABEL_BUFF
        grid = self.grid(source, 1, cell_width=CELL_WIDTH, cell_height=CELL_HEIGHT, font_size=self.theme.min_size)
        align_to_cells(grid, grid.cells, left, GRID_TOP)
        if with_labels:
            self.row_labels(grid, label_w, size)
        return grid

    def matrix_name(self, grid: NumberGrid, *parts) -> VGroup:
        """A matrix's name (formulas and words side by side), just above its cells, inside the frame."""
        name = VGroup(*parts).arrange(RIGHT, buff=0.18)
        name.next_to(grid.cells, UP, buff=0.2).align_to(grid.cells, LEFT)
        # A narrow matrix (small d_model) has a name wider than itself: keep the name inside the frame.
        name.shift(LEFT * max(0.0, name.get_right()[0] - RIGHT_EDGE))
        return name

    def retitle(self, text: str):
        """The animation that swaps the step's heading for ``text``."""
        heading = self.heading(text)
        old, self.current_heading = self.current_heading, heading
        return ReplacementTransform(old, heading)

    def words(self, text: str, color: str | None = None) -> VGroup:
        return label(self.theme, text, size=self.theme.small_size, color=color or self.theme.muted)

    def maths(self, tex: str, color: str | None = None):
        """A formula beside words of the small size, as tall as they look."""
        return formula(self.theme, tex, size=self.theme.aside_formula_size).set_color(color or self.theme.muted)

    def sentence_rows(self) -> VGroup:
        """The teacher's words, whole, in boxes, wrapped onto as many lines as the frame's width needs, at the body's top."""
        return pin(word_rows(self.theme, self.trace.tokens, CONTENT_WIDTH), UP, BODY)

    # --- 1. the idea -------------------------------------------------------------------

    def show_idea(self, t):
        theme = self.theme
        with self.step("the-idea"):
            heading = self.heading(f"Multi-head attention: {plural(t.n_heads, 'head')}")
            sentence = self.sentence_rows()
            equation = VGroup(
                formula(theme, r"\mathrm{head}_i = \mathrm{softmax}\left(\frac{Q_i K_i^\top}{\sqrt{d_{head}}}\right) V_i"),
                formula(theme, r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W_O"),
            ).arrange(DOWN, buff=0.45)
            keep_inside(equation.move_to(EQUATIONS_AT), left=None, right=None, top=sentence.get_bottom()[1] - 0.4)
            self.say("One attention head gives each token one set of attention weights.")
            self.play(FadeIn(heading))
            self.say("Several heads side by side can follow several kinds of relationship.")
            self.play(FadeIn(sentence, lag_ratio=0.1), run_time=1.2)
            self.say("Each head is ordinary attention, with queries, keys and values of its own.")
            self.play(Write(equation[0]), run_time=1.2)
            self.say("Their outputs are joined and mixed by one more matrix, W_O.")
            self.play(Write(equation[1]), run_time=1.2)

    # --- 2. the input ------------------------------------------------------------------

    def show_input(self, t):
        seq, d_model = t.x.shape
        with self.step("the-input"):
            self.clear()
            heading = self.heading("The input")
            x = self.wide_grid("x")
            x_name = self.matrix_name(x, self.maths("X"), self.words(f"{seq} tokens × {d_model} numbers, random (seed {t.seed})"))
            self.current_heading = heading
            self.say(f"Our input: {plural(seq, 'token')}, each a vector of d_model = {d_model} numbers.")
            self.play(FadeIn(heading), FadeIn(x_name))
            self.play(FadeIn(x.row_labels, lag_ratio=0.1), FadeIn(x.cells), FadeIn(x.numbers), run_time=1.5)
            self.say(f"The numbers are random, drawn with seed {t.seed}.")
            self.play(Indicate(x_name[1], color=self.theme.highlight), run_time=1.0)
        self.x, self.x_name = x, x_name

    # --- 3. one big projection ---------------------------------------------------------

    def show_projection(self, t):
        seq, d_model = t.q.shape
        with self.step("project"):
            q = self.wide_grid("q")
            q_name = self.matrix_name(q, self.maths(r"Q = X\,W_Q", self.theme.query), self.words(f"still {seq} × {d_model}"))
            self.say("One big projection makes the queries of all heads at once.")
            self.play(
                self.retitle("One projection for all heads"),
                ReplacementTransform(self.x_name, q_name),
                ReplacementTransform(self.x.cells, q.cells),
                ReplacementTransform(self.x.numbers, q.numbers),
                run_time=1.5,
            )
            self.add(q)
            # X's labels were faded in on their own: they leave too (Q has the same labels), so Q can move.
            self.remove(self.x, self.x.row_labels)
            self.say(f"W_Q is a {d_model} by {d_model} projection matrix, random here.")
            self.play(Indicate(q_name[0], color=self.theme.highlight), run_time=1.0)
            self.say("Keys and values are made the same way, with W_K and W_V.")
            self.wait(0.5)
        self.q = q

    # --- 4. the split into heads -------------------------------------------------------

    def show_split(self, t):
        theme = self.theme
        q = self.q
        seq, d_model = t.q.shape
        with self.step("split-into-heads"):
            shape = VGroup(
                formula(theme, rf"d_{{head}} = {d_model} \div {t.n_heads} = {t.d_head}", size=theme.min_formula_size),
                formula(theme, rf"({seq}, {d_model}) \to ({t.n_heads}, {seq}, {t.d_head})", size=theme.min_formula_size),
            ).set_color(theme.highlight)
            shape.arrange(RIGHT, buff=0.6)
            heading = self.heading("Split into heads")
            pin(shape, RIGHT, y=heading.get_y())
            pairs = VGroup(
                *[
                    SurroundingRectangle(
                        VGroup(q.cell(0, h * t.d_head), q.cell(seq - 1, (h + 1) * t.d_head - 1)),
                        color=theme.highlight,
                        buff=0.0,
                        stroke_width=3,
                    )
                    for h in range(t.n_heads)
                ]
            )
            blocks, titles = self.head_blocks("q_heads", top=-0.65)
            if t.n_heads == 1:
                self.say(f"With one head nothing is split: it keeps all {d_model} columns.")
            else:
                self.say(f"Now split the {d_model} columns among the {t.n_heads} heads: {t.d_head} each.")
            self.play(self.retitle("Split into heads"), FadeIn(pairs, lag_ratio=0.1), FadeIn(shape[0]), run_time=1.5)
            self.say(f"The reshape turns ({seq}, {d_model}) into ({t.n_heads}, {seq}, {t.d_head}).")
            self.play(FadeIn(shape[1]), FadeIn(titles, lag_ratio=0.05), run_time=0.8)
            moves = []
            for h, block in blocks:
                columns = range(h * t.d_head, (h + 1) * t.d_head)
                moves.append(TransformFromCopy(VGroup(*[q.cell(i, j) for i in range(seq) for j in columns]), block.cells))
                moves.append(TransformFromCopy(VGroup(*[q.number(i, j) for i in range(seq) for j in columns]), block.numbers))
            self.say("No number changes: they are only regrouped, head by head.")
            self.play(*moves, *[FadeIn(block.row_labels) for _, block in blocks], run_time=2)

    def head_blocks(self, source: str, top: float) -> tuple[list[tuple[int, NumberGrid]], list]:
        """One (seq, d_head) grid per head in a row, "head h" above each, tokens left of the first.

        When all heads do not fit the frame's width at a readable size, the middle ones are
        left out and a "⋯" stands for them: the first heads, ⋯, the last head.
        """
        t, theme = self.trace, self.theme
        size = theme.small_size
        block_width = t.d_head * CELL_WIDTH
        title_width = label(theme, f"head {t.n_heads}", size=theme.min_size).width
        step = max(block_width, title_width) + BLOCK_GAP
        # As wide as the labels of the full matrix, which the blocks come from and go back to.
        label_w = self.token_label_width(t.d_model * CELL_WIDTH, size)
        dots_width = 0.6
        shown = list(range(t.n_heads))
        if label_w + LABEL_BUFF + t.n_heads * step - BLOCK_GAP > CONTENT_WIDTH:
            fits = int((CONTENT_WIDTH - label_w - LABEL_BUFF - dots_width + BLOCK_GAP) // step)
            shown = list(range(max(1, fits - 1))) + [t.n_heads - 1]
        elided = len(shown) < t.n_heads
        total = label_w + LABEL_BUFF + len(shown) * step - BLOCK_GAP + (dots_width if elided else 0.0)
        left = -total / 2 + label_w + LABEL_BUFF
        blocks, titles = [], []
        x = left
        for k, h in enumerate(shown):
            if k == len(shown) - 1 and elided:
                dots = label(theme, "⋯", size=theme.body_size, color=theme.muted)
                dots.move_to([x + dots_width / 2 - BLOCK_GAP / 2, top - len(t.tokens) * CELL_HEIGHT / 2, 0])
                titles.append(dots)
                x += dots_width
            block = self.grid(f"{source}[{h}]", 1, cell_width=CELL_WIDTH, cell_height=CELL_HEIGHT, font_size=theme.min_size)
            align_to_cells(block, block.cells, x + (step - BLOCK_GAP - block_width) / 2, top)
            if k == 0:
                self.row_labels(block, label_w, size)
            title = label(theme, f"head {h + 1}", size=theme.min_size, color=theme.highlight)
            titles.append(title.next_to(block.cells, UP, buff=0.12))
            blocks.append((h, block))
            x += step
        return blocks, VGroup(*titles)

    # --- 5. a pattern per head ---------------------------------------------------------

    def show_patterns(self, t):
        theme = self.theme
        # Four heatmaps a page (2 x 2), so each cell is wide enough to read: 8 heads take two pages.
        pages = [list(range(first, min(first + 4, t.n_heads))) for first in range(0, t.n_heads, 4)]
        # The strongest single weight of each head: which word looks most at which.
        peaks = [np.unravel_index(int(np.argmax(t.weights[h])), t.weights[h].shape) for h in range(t.n_heads)]

        with self.step("head-patterns"):
            self.clear()
            heading = self.heading(f"{plural(t.n_heads, 'head')}, {plural(t.n_heads, 'attention pattern')}")
            picked = " (picked for clear patterns)" if t.seed == PATTERN_SEED else ""
            note = self.note_lines((f"random projection matrices, seed {t.seed}{picked}",))
            if t.n_heads == 1:
                self.say(f"The head runs ordinary attention with its {t.d_head}-number queries and keys.")
            else:
                self.say(f"Each head runs ordinary attention with its own {t.d_head}-number queries and keys.")
            self.play(FadeIn(heading), FadeIn(note))
            shown = VGroup()
            for k, page in enumerate(pages):
                sources, titles = [f"weights[{h}]" for h in page], [f"head {h + 1}" for h in page]
                patterns = HeadGrid(self, sources, titles, t.tokens, PATTERNS)
                maps, titles, decimals = patterns.maps, patterns.titles, patterns.decimals
                if k == 0:
                    n = len(t.tokens)
                    self.say(f"So each gets its own {n} × {n} pattern of attention weights.")
                else:
                    heads = f"Head {page[0] + 1}" if len(page) == 1 else f"Heads {page[0] + 1} to {page[-1] + 1}"
                    self.say(f"{heads}: patterns of their own again.")
                    self.play(FadeOut(shown), run_time=0.6)
                for heatmap, title in zip(maps, titles):
                    self.play(FadeIn(heatmap), FadeIn(title), run_time=0.5)
                shown = VGroup(*maps, titles)
                if k == 0:
                    self.say("The projection matrices are random, not trained: the patterns mean nothing yet.")
                    self.wait(0.3)
                # The head of this page whose strongest weight is largest: where the pattern is clearest.
                h = max(page, key=lambda head: t.weights[head][peaks[head]])
                i, j = peaks[h]
                weight = format_number(t.weights[h, i, j], decimals)
                self.say(f"In head {h + 1}, “{t.tokens[i]}” looks most at “{t.tokens[j]}”: weight {weight}.")
                box = SurroundingRectangle(maps[page.index(h)].cell(i, j), color=theme.highlight, buff=0.0, stroke_width=5)
                self.play(FadeIn(box), Indicate(titles[page.index(h)], color=theme.highlight), run_time=1.0)
                shown.add(box)

    # --- 6. concatenate ----------------------------------------------------------------

    def show_concat(self, t):
        seq, d_model = t.concat.shape
        with self.step("concatenate"):
            self.clear()
            heading = self.heading("Concatenate the heads")
            blocks, titles = self.head_blocks("head_outputs", top=GRID_TOP - 0.35)
            self.say(f"Each head returns {plural(t.d_head, 'number')} per token: its weights times its values.")
            self.play(FadeIn(heading), FadeIn(titles), *[FadeIn(b) for _, b in blocks], run_time=1.2)
            concat = self.wide_grid("concat")
            heads = ", ".join(f"head {h + 1}" for h in range(t.n_heads)) if t.n_heads <= 2 else f"head 1, …, head {t.n_heads}"
            concat_name = self.matrix_name(concat, self.words(f"Concat({heads}): {seq} × {d_model}"))
            moves = [
                block.animate.shift(concat.cell(0, h * t.d_head).get_center() - block.cell(0, 0).get_center())
                for h, block in blocks
            ]
            self.say(f"Side by side, every token has {d_model} numbers again: the concatenation.")
            self.play(*moves, ReplacementTransform(titles, concat_name), run_time=1.5)
            self.remove(*[block for _, block in blocks])
            self.add(concat)
            self.wait(0.5)
        self.concat = concat

    # --- 7. the output projection ------------------------------------------------------

    def show_output(self, t):
        seq, d_model = t.concat.shape
        concat = self.concat
        with self.step("output-projection"):
            output = self.wide_grid("output", with_labels=False)
            output.shift(DOWN * (seq * CELL_HEIGHT + 0.75))
            output_labels = concat.row_labels.copy().shift(output.cells.get_center() - concat.cells.get_center())
            output_name = self.matrix_name(
                output, self.maths(r"\mathrm{output} = \mathrm{Concat}\; W_O", self.theme.text), self.words(f"{seq} × {d_model}")
            )
            self.say(f"A last {d_model} by {d_model} projection matrix, W_O, mixes what the heads found.")
            self.play(FadeIn(output_name), FadeIn(output_labels))
            self.play(
                TransformFromCopy(concat.cells, output.cells), TransformFromCopy(concat.numbers, output.numbers), run_time=1.8
            )
            self.say(f"The result has the input's shape, {seq} by {d_model}, ready for the next layer.")
            self.wait(0.5)

    # --- 8. the same idea at GPT-3's scale ---------------------------------------------

    def table_row(self, name: str, tex: str, sources: tuple[str, str], y: float, decimals=(0, 0), unit: str = "") -> VGroup:
        """One row of the scale table: its name and formula, then this video's value and GPT-3's (with ``unit``)."""
        theme = self.theme
        title = VGroup(label(theme, name, size=theme.small_size, color=theme.muted))
        if tex:
            title.add(self.maths(tex, theme.muted))
        title.arrange(RIGHT, buff=0.25)
        title.move_to([0, y, 0]).align_to([LEFT_EDGE, 0, 0], LEFT)
        values = []
        for m, x in ((0, VIDEO_X), (1, GPT3_X)):
            value = self.number(f"{sources[m]}[{m}]", decimals[m], size=theme.body_size)
            if unit and m == 1:
                value = VGroup(value, label(theme, unit, size=theme.small_size)).arrange(RIGHT, buff=0.15, aligned_edge=DOWN)
            values.append(value.move_to([x, y, 0]))
        return VGroup(title, *values)

    def show_scale(self, t):
        theme = self.theme
        with self.step("scale-comparison"):
            self.clear()
            heading = self.heading(f"{t.scale_models[0]} and {t.scale_models[1]}, per layer")
            header = VGroup(
                label(theme, t.scale_models[0], size=theme.body_size, color=theme.key).move_to([VIDEO_X, HEADER_Y, 0]),
                label(theme, t.scale_models[1], size=theme.body_size, color=theme.key).move_to([GPT3_X, HEADER_Y, 0]),
            )
            rows = [
                ("numbers per token", r"d_{model}", "scale_d_model"),
                ("heads per layer", r"h", "scale_heads"),
                ("numbers per head", r"d_{head} = d_{model} / h", "scale_head_dim"),
                ("layers", r"L", "scale_layers"),
                ("heads in all", r"h \times L", "scale_total_heads"),
                ("projection matrices, one layer", r"4\, d_{model}^2", "scale_layer_attention_params"),
            ]
            table = VGroup(
                *[
                    self.table_row(name, tex, (source, source), HEADER_Y - (k + 1) * ROW_STEP)
                    for k, (name, tex, source) in enumerate(rows)
                ]
            )
            note = self.note_lines(("GPT-3: Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1",))
            video, big = 0, 1
            self.say("The same idea at scale: the model of this video beside GPT-3.")
            self.play(FadeIn(heading), FadeIn(header), FadeIn(note), FadeIn(table[0]), FadeIn(table[1]))
            self.say(f"Each head works in d_model ÷ h numbers: {t.scale_head_dim[video]} here, {t.scale_head_dim[big]} in GPT-3.")
            self.play(FadeIn(table[2]), run_time=0.8)
            self.say(
                f"GPT-3 has {t.scale_heads[big]} heads in each of its {t.scale_layers[big]} layers: "
                f"{format_number(t.scale_total_heads[big], 0)} heads in all."
            )
            self.play(FadeIn(table[3]), FadeIn(table[4]), run_time=0.8)
            self.say("One layer's projection matrices W_Q, W_K, W_V and W_O hold 4 × d_model² numbers.")
            self.play(FadeIn(table[5]), run_time=0.8)
            self.say(
                f"That is {format_number(t.scale_layer_attention_params[video], 0)} here, "
                f"and {format_number(t.scale_layer_attention_params[big], 0)} in one layer of GPT-3."
            )
            self.play(Indicate(table[5][1:], color=theme.highlight), run_time=1.2)
        self.table, self.scale_heading = table, heading

    def show_whole_models(self, t):
        theme = self.theme
        video, big = 0, 1
        with self.step("whole-models"):
            heading = self.heading(f"{t.scale_models[0]} and {t.scale_models[1]}, whole models")
            y = HEADER_Y - (len(self.table) + 1) * ROW_STEP - 0.15
            rows = VGroup(
                self.table_row(
                    "projection matrices, all layers",
                    r"4\, d_{model}^2 L",
                    ("scale_attention_params", "scale_attention_params_billions"),
                    y,
                    (0, 1),
                    "billion",
                ),
                self.table_row(
                    "all parameters", "", ("scale_total_params", "scale_total_params_billions"), y - ROW_STEP, (0, 0), "billion"
                ),
            )
            self.play(ReplacementTransform(self.scale_heading, heading), run_time=0.6)
            self.say(
                f"Over all {t.scale_layers[big]} layers, GPT-3's projection matrices hold "
                f"{format_number(t.scale_attention_params_billions[big], 1)} billion numbers."
            )
            self.play(FadeIn(rows[0]), run_time=0.8)
            self.say(f"The whole of GPT-3 has {format_number(t.scale_total_params_billions[big], 0)} billion parameters.")
            self.play(FadeIn(rows[1]), run_time=0.8)
            self.say("Most of the rest sits in the feed-forward layers of its blocks.")
            self.play(Indicate(rows[1][2], color=theme.highlight), run_time=1.0)
            self.say(
                f"This video's model is one attention layer: its {format_number(t.scale_total_params[video], 0)} "
                "numbers are all it has."
            )
            self.play(Indicate(rows[1][1], color=theme.highlight), run_time=1.0)
            self.say("Same concepts, very different scale.")
