"""Multi-head attention: split d_model into heads, eight patterns, concatenate, project, scale up.

Follows seed 000 "Multi-Head Attention" (8 heads drawn as a 2 x 4 grid of
heatmaps; GPT-3's 96 heads x 96 layers), seed 001 part 4 (the reshape to
(heads, seq, d_head) and back, then W_O) and seed 003 "Scale Comparison".
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

from attention_math import DEFAULT_SEED, THE_CAT_SAT, sentence_example
from attention_math.traces.multi_head import multi_head_trace

from .kit import ExplainerScene
from .kit.components import NumberGrid, fit_label, formula, label
from .theme import format_number

CELL_WIDTH = 0.72
"""Wide enough for "−0.5" at the smallest font, so 16 columns fit the frame (hence d_model ≤ 16)."""
CELL_HEIGHT = 0.4
LABEL_BUFF = 0.15
"""Gap between a row label and its row (as NumberGrid draws it)."""
USABLE_WIDTH = 13.9
"""Frame width minus a small margin: what a row of grids and their token labels may span."""
MAX_LABEL_WIDTH = 4.0
"""Widest a token label gets, however much room there is."""
PATTERN_WIDTH, PATTERN_HEIGHT = 14.0, 5.04
"""Room for the heatmaps of all heads: the frame's width less a margin; from y = 2.0 down to y = -3.04."""
MIN_HEAT_CELL = 0.52
"""Narrowest heatmap cell that holds "0.5" at the smallest font."""
MAX_HEAT_CELL = (0.8, 0.55)
"""Largest heatmap cell (width, height), for few heads or few tokens."""
GRID_TOP = 2.35
"""Top edge of the (6, 16) matrices, under the heading and their name."""
NAME_X, DEMO_X, GPT3_X, ROW_STEP = -6.0, 2.6, 5.3, 0.72
"""Scale table: left edge of the row names, centres of the two model columns, row spacing."""


def plural(count: int, noun: str) -> str:
    """``"1 head"``, ``"8 heads"``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def place(grid: NumberGrid, left: float, top: float) -> NumberGrid:
    """Move ``grid`` so that its cells' top-left corner is at (``left``, ``top``)."""
    corner = grid.cells.get_corner(UP + LEFT)
    grid.shift(RIGHT * (left - corner[0]) + UP * (top - corner[1]))
    return grid


class MultiHeadScene(ExplainerScene):
    name = "multi-head"
    title = "Multi-head attention"
    description = "d_model split into 8 heads, 8 attention patterns, concatenation and W_O, then GPT-3's scale."
    sources = "seed 000 'Multi-Head Attention'; seed 001 part 4; seed 003 'Multi-Head Attention' and 'Scale Comparison'"

    options = ("sentence", "seed", "d_model", "heads")
    # Eight 2 x 4 heatmaps of n x n weights must share one screen: six tokens is the most that stay readable.
    max_tokens = 6
    # One column per number at a readable width: 16 columns fill the frame.
    default_d_model, d_model_range = 16, (4, 16)
    default_heads, heads_range = 8, (1, 8)

    @classmethod
    def build_trace(
        cls, sentence: str | None = None, seed: int = DEFAULT_SEED, d_model: int | None = None, heads: int | None = None
    ):
        tokens = THE_CAT_SAT.tokens if sentence is None else sentence_example(sentence).tokens
        return multi_head_trace(seed, tokens, d_model or cls.default_d_model, heads or cls.default_heads)

    def construct(self):
        t = self.trace
        self.show_input(t)
        self.show_split(t)
        self.show_patterns(t)
        self.show_concat(t)
        self.show_scale(t)

    def label_width(self, cells_width: float, size: int) -> float:
        """How wide the token labels left of ``cells_width`` of cells may be: as needed, at most what the frame leaves."""
        natural = max(label(self.theme, token, size=size).width for token in self.trace.tokens)
        return min(natural, USABLE_WIDTH - cells_width - LABEL_BUFF, MAX_LABEL_WIDTH)

    def labelled_left(self, cells_width: float, size: int) -> tuple[float, float]:
        """Left edge of the cells that centres labels and cells together in the frame, and the labels' width."""
        label_w = self.label_width(cells_width, size)
        return -(label_w + LABEL_BUFF + cells_width) / 2 + label_w + LABEL_BUFF, label_w

    def wide_grid(self, source: str, with_labels: bool = True) -> NumberGrid:
        """A (seq, d_model) matrix with one decimal, tokens on the left, centred in the frame."""
        labels = self.trace.tokens if with_labels else None
        width = self.trace.d_model * CELL_WIDTH
        left, label_w = self.labelled_left(width, self.theme.small_size)
        grid = self.grid(
            source,
            1,
            cell_width=CELL_WIDTH,
            cell_height=CELL_HEIGHT,
            font_size=self.theme.min_size,
            row_labels=labels,
            row_label_width=label_w,
        )
        return place(grid, left, GRID_TOP)

    def matrix_name(self, text: str, grid: NumberGrid) -> VGroup:
        """A matrix's name and shape, just above its cells."""
        name = label(self.theme, text, size=self.theme.small_size, color=self.theme.muted)
        name.next_to(grid.cells, UP, buff=0.2).align_to(grid.cells, LEFT)
        # A narrow matrix (small d_model) has a name wider than itself: keep the name inside the frame.
        overhang = name.get_right()[0] - USABLE_WIDTH / 2
        if overhang > 0:
            name.shift(LEFT * overhang)
        return name

    def show_input(self, t):
        theme = self.theme
        seq, d_model = t.x.shape
        caption = (
            "One attention head can learn only one kind of relationship, so transformers run several heads side by side. "
            f"Our input: the {seq} tokens of “{' '.join(t.tokens)}”, each a vector of d_model = {d_model} random numbers (seed {t.seed})."
        )
        with self.step("the-input", caption):
            heading = self.heading(f"Multi-head attention: {plural(t.n_heads, 'head')}")
            x = self.wide_grid("x")
            x_name = self.matrix_name(f"X: {seq} tokens × {d_model} numbers, random (numpy default_rng({t.seed}))", x)
            self.play(FadeIn(heading), FadeIn(x_name))
            self.play(FadeIn(x.row_labels, lag_ratio=0.1), FadeIn(x.cells), FadeIn(x.numbers), run_time=1.5)
            equation = VGroup(
                formula(theme, r"\mathrm{head}_i = \mathrm{softmax}\left(\frac{Q_i K_i^\top}{\sqrt{d_{head}}}\right) V_i"),
                formula(theme, r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W_O"),
            ).arrange(DOWN, buff=0.45)
            equation.move_to(DOWN * 1.55)
            self.play(Write(equation[0]), run_time=1.2)
            self.play(Write(equation[1]), run_time=1.2)
        self.x, self.x_name, self.equation = x, x_name, equation

        caption = (
            f"First one big projection makes the queries for all heads at once: Q = X times W_Q, a {d_model} by {d_model} matrix "
            "of random weights. Keys and values are made the same way, with W_K and W_V."
        )
        with self.step("project", caption):
            q = self.wide_grid("q")
            q_name = self.matrix_name(f"Q = X · W_Q: still {seq} × {d_model}", q)
            self.play(
                ReplacementTransform(self.x_name, q_name),
                ReplacementTransform(self.x.cells, q.cells),
                ReplacementTransform(self.x.numbers, q.numbers),
                run_time=1.5,
            )
            self.add(q)
            # X's labels were faded in on their own: they leave too (Q has the same labels), so Q can move.
            self.remove(self.x, self.x.row_labels)
            self.wait(1)
        self.q, self.q_name = q, q_name

    def show_split(self, t):
        theme = self.theme
        q = self.q
        seq, d_model = t.q.shape
        if t.n_heads == 1:
            caption = (
                f"With a single head nothing is split: it keeps all {d_model} columns, so d_head = {t.d_head}. "
                f"The reshape only adds a head axis, ({seq}, {d_model}) into (1, {seq}, {t.d_head}); no number changes."
            )
        else:
            caption = (
                f"Now split the {d_model} columns among the {t.n_heads} heads: {d_model} ÷ {t.n_heads} = {t.d_head} "
                f"{'column' if t.d_head == 1 else 'columns'} each. "
                f"The reshape turns ({seq}, {d_model}) into ({t.n_heads}, {seq}, {t.d_head}); no number changes, they are only regrouped."
            )
        with self.step("split-into-heads", caption):
            shape = VGroup(
                label(theme, f"d_head = {d_model} ÷ {t.n_heads} = {t.d_head}", size=theme.small_size, color=theme.highlight),
                label(
                    theme, f"({seq}, {d_model}) → ({t.n_heads}, {seq}, {t.d_head})", size=theme.small_size, color=theme.highlight
                ),
            )
            self.place_shape(shape)
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
            self.play(FadeOut(self.equation), FadeIn(shape), FadeIn(pairs, lag_ratio=0.1), run_time=1.5)

            blocks, titles = self.head_blocks("q_heads", top=-0.55)
            self.play(FadeIn(titles, lag_ratio=0.05), run_time=0.8)
            moves = [
                TransformFromCopy(
                    VGroup(*[q.cell(i, h * t.d_head + j) for i in range(seq) for j in range(t.d_head)]), blocks[h].cells
                )
                for h in range(t.n_heads)
            ]
            moves += [
                TransformFromCopy(
                    VGroup(*[q.number(i, h * t.d_head + j) for i in range(seq) for j in range(t.d_head)]), blocks[h].numbers
                )
                for h in range(t.n_heads)
            ]
            self.play(*moves, FadeIn(blocks[0].row_labels), run_time=2)
            self.wait(1)

    def place_shape(self, shape: VGroup) -> None:
        """Put the two shape lines of the split on Q's name line, or in a column right of Q.

        Layouts in order of preference: one line after the name (ending where Q ends, or a
        little further), the lines stacked right of Q, one tighter line. Q and its name move
        left only when no layout fits where they are (d_model from about 9 to 14).
        """
        q, q_name = self.q, self.q_name
        half = USABLE_WIDTH / 2
        free_left = VGroup(q, q_name).get_left()[0] + half

        def overhang(stacked: bool, buff: float, gap: float) -> float:
            if stacked:
                shape.arrange(DOWN, buff=buff, aligned_edge=LEFT)
                return q.cells.get_right()[0] + gap + shape.width - half
            shape.arrange(RIGHT, buff=buff)
            return q_name.get_right()[0] + gap + shape.width - half

        layouts = ((False, 0.6, 0.4), (True, 0.2, 0.4), (False, 0.35, 0.3))
        # A layout that fits where Q is; else the first that fits with Q moved left; else the last,
        # with Q as far left as it goes and the lines shrunk to the room left (long words and a wide Q).
        fitting = [layout for layout in layouts if overhang(*layout) <= 0]
        movable = [layout for layout in layouts if overhang(*layout) <= free_left]
        stacked, buff, gap = (fitting or movable or layouts[-1:])[0]
        shift = min(overhang(stacked, buff, gap), free_left)
        if shift > 0:
            self.play(VGroup(q, q_name).animate.shift(LEFT * shift), run_time=0.8)
        if stacked:
            shape.next_to(q.cells, RIGHT, buff=gap).align_to(q.cells, UP)
        else:
            shape.next_to(q_name, RIGHT, buff=gap)
            if shape.get_right()[0] < q.cells.get_right()[0]:
                shape.align_to(q.cells, RIGHT)
        if shape.get_right()[0] > half:
            left = shape.get_left()[0]
            shape.scale_to_fit_width(half - left).align_to([left, 0, 0], LEFT)

    def head_blocks(self, source: str, top: float) -> tuple[list[NumberGrid], VGroup]:
        """One (seq, d_head) grid per head in a row, with "head h" above each; tokens left of the first."""
        t = self.trace
        titles = VGroup(
            *[label(self.theme, f"head {h + 1}", size=self.theme.min_size, color=self.theme.highlight) for h in range(t.n_heads)]
        )
        block_width = t.d_head * CELL_WIDTH
        # Blocks one column wide are narrower than their titles: the gap keeps the titles apart.
        gap = max(0.16, max(title.width for title in titles) - block_width + 0.12)
        total = t.n_heads * block_width + (t.n_heads - 1) * gap
        left, label_w = self.labelled_left(total, self.theme.small_size)
        blocks = []
        for h in range(t.n_heads):
            labels = t.tokens if h == 0 else None
            block = self.grid(
                f"{source}[{h}]",
                1,
                cell_width=CELL_WIDTH,
                cell_height=CELL_HEIGHT,
                font_size=self.theme.min_size,
                row_labels=labels,
                row_label_width=label_w,
            )
            place(block, left + h * (block_width + gap), top)
            titles[h].next_to(block.cells, UP, buff=0.12)
            blocks.append(block)
        return blocks, titles

    def show_patterns(self, t):
        theme = self.theme
        n = len(t.tokens)
        # The strongest single weight of each head: which word it makes which word look at.
        peaks = [np.unravel_index(int(np.argmax(t.weights[h])), t.weights[h].shape) for h in range(t.n_heads)]
        ranked = sorted(range(t.n_heads), key=lambda h: -t.weights[h][peaks[h]])
        marked = ranked[:2]

        def describe(h):
            i, j = peaks[h]
            return f"head {h + 1} sends “{t.tokens[i]}” to “{t.tokens[j]}” with weight {format_number(t.weights[h, i, j], 2)}"

        if t.n_heads == 1:
            caption = (
                f"The head now runs ordinary attention with its {t.d_head}-number queries and keys, and gets one {n} × {n} pattern: "
                f"{describe(0)}. With more heads, each would get a pattern of its own."
            )
        else:
            caption = (
                f"Each head now runs ordinary attention with its own {t.d_head}-number queries and keys, so each gets its own {n} × {n} pattern. "
                f"Same sentence, {t.n_heads} different views: {describe(marked[0])}, {describe(marked[1])}."
            )
        with self.step("head-patterns", caption):
            self.clear()
            heading = self.heading(f"{plural(t.n_heads, 'head')}, {plural(t.n_heads, 'attention pattern')}")
            vmax = float(t.weights.max())
            # Up to four heatmaps per row, at most two rows; the cells fill the frame's width and height.
            rows = -(-t.n_heads // 4)
            columns = -(-t.n_heads // rows)
            gap, row_gap, top = 0.14, 0.48, 2.0
            natural = max(label(theme, token, size=theme.min_size).width for token in t.tokens)
            label_w = min(
                natural, MAX_LABEL_WIDTH, PATTERN_WIDTH - LABEL_BUFF - (columns - 1) * gap - columns * n * MIN_HEAT_CELL
            )
            cell_w = min(MAX_HEAT_CELL[0], (PATTERN_WIDTH - LABEL_BUFF - label_w - (columns - 1) * gap) / (columns * n))
            cell_h = min(MAX_HEAT_CELL[1], (PATTERN_HEIGHT - (rows - 1) * row_gap) / (rows * n))
            roomy = cell_w >= 0.75 and cell_h >= 0.5
            size = theme.small_size if roomy else theme.min_size
            stagger = 0.29 if roomy else 0.24
            width = n * cell_w
            left0 = -(label_w + LABEL_BUFF + columns * width + (columns - 1) * gap) / 2 + label_w + LABEL_BUFF
            maps, titles = [], VGroup()
            for h in range(t.n_heads):
                row, col = divmod(h, columns)
                heatmap = self.grid(
                    f"weights[{h}]",
                    1,
                    heat=True,
                    vmin=0.0,
                    vmax=vmax,
                    cell_width=cell_w,
                    cell_height=cell_h,
                    font_size=size,
                    label_size=size,
                    row_labels=t.tokens if col == 0 else None,
                    row_label_color=theme.query,
                    row_label_width=label_w,
                )
                place(heatmap, left0 + col * (width + gap), top - row * (n * cell_h + row_gap))
                # Background-coloured borders keep neighbouring numbers apart in such small cells.
                heatmap.cells.set_stroke(theme.background, width=3)
                if row == 0:
                    heatmap.col_labels = self.key_labels(heatmap, col, last=col == columns - 1, size=size, stagger=stagger)
                    heatmap.add(heatmap.col_labels)
                above = heatmap.col_labels if row == 0 else heatmap.cells
                titles.add(label(theme, f"head {h + 1}", size=theme.min_size, color=theme.highlight).next_to(above, UP, buff=0.1))
                maps.append(heatmap)
            self.play(FadeIn(heading))
            for h, heatmap in enumerate(maps):
                self.play(FadeIn(heatmap), FadeIn(titles[h]), run_time=0.6)
            boxes = VGroup(
                *[SurroundingRectangle(maps[h].cell(*peaks[h]), color=theme.highlight, buff=0.0, stroke_width=4) for h in marked]
            )
            self.play(FadeIn(boxes))
            self.wait(1)

    def key_labels(self, heatmap: NumberGrid, col: int, last: bool, size: int, stagger: float) -> VGroup:
        """The key tokens above a heatmap's columns, every other one higher, so each may be two cells wide.

        Which labels sit higher follows the column's place in the whole row of heatmaps, so
        the last label of one heatmap and the first of the next are never at the same height.
        The rightmost label of the row ends with its cell, inside the frame, and reaches left at most
        half a cell, clear of the label two columns before it.
        """
        theme, n = self.theme, heatmap.shape[1]
        cell_w = heatmap.cell(0, 0).width
        labels = VGroup()
        for j, token in enumerate(self.trace.tokens):
            edge = last and j == n - 1
            text = fit_label(theme, token, 1.5 * cell_w - 0.1 if edge else 2 * cell_w - 0.1, size=size, color=theme.key)
            text.next_to(heatmap.cell(0, j), UP, buff=0.12)
            if edge and text.width > cell_w:
                text.align_to(heatmap.cell(0, j), RIGHT)
            labels.add(text)
        # Higher by more than the tallest label (a "g" or an emoji reaches lower or higher than "The").
        stagger = max(stagger, max(text.height for text in labels) + 0.04)
        for j, text in enumerate(labels):
            if (col * n + j) % 2:
                text.shift(UP * stagger)
        return labels

    def show_concat(self, t):
        seq, d_model = t.concat.shape
        if t.n_heads == 1:
            caption = (
                f"The head returns {t.d_head} numbers per token: its weights times its own values. "
                f"With one head the concatenation is just that output, shape ({seq}, {d_model})."
            )
        else:
            caption = (
                f"Each head returns {plural(t.d_head, 'number')} per token: its weights times its own values. "
                f"Put the {t.n_heads} outputs side by side and every token has {d_model} numbers again: the concatenation, shape ({seq}, {d_model})."
            )
        with self.step("concatenate", caption):
            self.clear()
            heading = self.heading("Concatenate the heads")
            blocks, titles = self.head_blocks("head_outputs", top=GRID_TOP - 0.35)
            self.play(FadeIn(heading), FadeIn(titles), *[FadeIn(b) for b in blocks], run_time=1.2)
            self.wait(1)
            concat = self.wide_grid("concat")
            heads = ", ".join(f"head {h + 1}" for h in range(t.n_heads)) if t.n_heads <= 2 else f"head 1, …, head {t.n_heads}"
            concat_name = self.matrix_name(f"Concat({heads}): {seq} × {d_model}", concat)
            # Each block slides onto its own columns of the concatenation.
            moves = []
            for h, block in enumerate(blocks):
                moves.append(block.animate.shift(concat.cell(0, h * t.d_head).get_center() - block.cell(0, 0).get_center()))
            self.play(*moves, ReplacementTransform(titles, concat_name), run_time=1.5)
            self.remove(*blocks)
            self.add(concat)
            self.wait(1)

        caption = (
            f"A last {d_model} by {d_model} matrix, W_O, mixes what the heads found into one output per token. "
            f"The result has the input's shape, ({seq}, {d_model}), ready for the next layer."
        )
        with self.step("output-projection", caption):
            output = self.wide_grid("output", with_labels=False)
            output.shift(DOWN * (seq * CELL_HEIGHT + 0.75))
            output_labels = concat.row_labels.copy().shift(output.cells.get_center() - concat.cells.get_center())
            output_name = self.matrix_name(f"output = Concat · W_O: {seq} × {d_model}", output)
            self.play(FadeIn(output_name), FadeIn(output_labels))
            self.play(
                TransformFromCopy(concat.cells, output.cells), TransformFromCopy(concat.numbers, output.numbers), run_time=1.8
            )
            self.wait(1)

    def show_scale(self, t):
        theme = self.theme
        demo, big = 0, 1
        caption = (
            f"The same idea at scale, from the course's comparison. Head dim is d_model ÷ heads: {t.scale_d_model[demo]} ÷ {t.scale_heads[demo]} = {t.scale_head_dim[demo]} "
            f"in our demo, {t.scale_d_model[big]} ÷ {t.scale_heads[big]} = {t.scale_head_dim[big]} in GPT-3. "
            f"With {t.scale_heads[big]} heads in each of {t.scale_layers[big]} layers, GPT-3 has {t.scale_total_heads[big]} attention heads."
        )
        with self.step("scale-comparison", caption):
            self.clear()
            heading = self.heading(f"{t.scale_models[demo]} vs {t.scale_models[big]}")
            rows = [
                ("d_model (numbers per token)", "scale_d_model", False),
                ("heads per layer", "scale_heads", False),
                ("head dim = d_model ÷ heads", "scale_head_dim", True),
                ("layers", "scale_layers", False),
                ("heads in all = heads × layers", "scale_total_heads", True),
            ]
            table = VGroup()
            header = VGroup(*[label(theme, name, size=theme.body_size, color=theme.key) for name in t.scale_models])
            header[0].move_to([DEMO_X, 2.2, 0])
            header[1].move_to([GPT3_X, 2.2, 0])
            for name, source, computed in rows:
                color = theme.highlight if computed else theme.text
                table.add(
                    VGroup(
                        label(theme, name, size=theme.small_size, color=theme.highlight if computed else theme.muted),
                        *[self.number(f"{source}[{m}]", 0, size=theme.body_size, color=color) for m in (demo, big)],
                    )
                )
            params = VGroup(
                label(theme, "parameters", size=theme.small_size, color=theme.muted),
                self.number(f"scale_attention_params[{demo}]", 0, size=theme.body_size),
                VGroup(
                    self.number(f"scale_total_params_billions[{big}]", 0, size=theme.body_size),
                    label(theme, "billion", size=theme.small_size),
                ).arrange(RIGHT, buff=0.15, aligned_edge=DOWN),
            )
            table.add(params)
            for k, row in enumerate(table):
                y = 2.2 - (k + 1) * ROW_STEP
                row[0].move_to([0, y, 0]).align_to([NAME_X, 0, 0], LEFT)
                row[1].move_to([DEMO_X, y, 0])
                row[2].move_to([GPT3_X, y, 0])
            self.play(FadeIn(heading), FadeIn(header))
            for row in table:
                self.play(FadeIn(row), run_time=0.6)
            self.play(
                *[Indicate(table[k][1:], color=theme.highlight) for k, (_, _, computed) in enumerate(rows) if computed],
                run_time=1.2,
            )
            self.wait(1)

        caption = (
            f"Our demo's {t.scale_attention_params[demo]} parameters are its four {t.scale_d_model[demo]} × {t.scale_d_model[demo]} projections. "
            f"GPT-3's {format_number(t.scale_total_params_billions[big], 0)} billion also count feed-forward layers and embeddings; "
            f"its attention projections alone hold {format_number(t.scale_attention_params_billions[big], 1)} billion. Same concepts, different scale."
        )
        with self.step("same-idea-bigger", caption):
            attention = VGroup(
                label(theme, "attention weights = 4 · d_model² · layers", size=theme.small_size, color=theme.highlight),
                self.number(f"scale_attention_params[{demo}]", 0, size=theme.body_size, color=theme.highlight),
                VGroup(
                    self.number(f"scale_attention_params_billions[{big}]", 1, size=theme.body_size, color=theme.highlight),
                    label(theme, "billion", size=theme.small_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.15, aligned_edge=DOWN),
            )
            y = 2.2 - (len(table) + 1) * ROW_STEP
            attention[0].move_to([0, y, 0]).align_to([NAME_X, 0, 0], LEFT)
            attention[1].move_to([DEMO_X, y, 0])
            attention[2].move_to([GPT3_X, y, 0])
            self.play(FadeIn(attention, shift=UP * 0.2), Indicate(table[-1], color=theme.highlight), run_time=1.5)
            self.wait(1)
