"""Multi-head attention: split d_model into heads, a pattern per head, concatenate, project, scale up.

Follows seed 000 "Multi-Head Attention" (8 heads drawn as a 2 x 4 grid of
heatmaps; GPT-3's 96 heads x 96 layers), seed 001 part 4 (the reshape to
(heads, seq, d_head) and back, then W_O) and seed 003 "Scale Comparison", whose
table is redrawn with the model this video runs beside GPT-3 (Brown et al. 2020, Table 2.1).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
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

from attention_math import THE_CAT_SAT, lookup, sentence_example
from attention_math.traces.multi_head import PATTERN_SEED, multi_head_trace

from .kit import ExplainerScene
from .kit.heatmaps import AxisLabels, Cells, ColorScale, HeadGrid, weights_heatmap
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
from .kit.scene import Shown
from .kit.tables import NumberGrid, number_cell_width
from .kit.text import elided_label, formula, label, word_rows
from .theme import format_number

CELL_WIDTH, CELL_HEIGHT = 0.95, 0.4
"""A (seq, columns) matrix's cells: wide enough for "−1.3" at the small size clear of both borders."""
WIDE_CELL_WIDTH = 1.15
"""Cells of the values and the output of one head, shown with two decimals: "−0.46" at the small size is
0.97 wide, so it keeps the size of "0.57" and stays clear of both borders."""
PRODUCT_GAP = 0.4
MIN_LABEL_ROOM = 1.0
"""Room step 7 keeps for each column of word labels, so a long word keeps a few letters before its "…"."""
"""Gap between the matrices of "weights × values = output" and their signs."""
LABEL_BUFF = 0.15
"""Gap between a row label and its row (as NumberGrid draws it)."""
MAX_LABEL_WIDTH = 2.0
"""Widest a token label gets beside a matrix; a longer word is elided (it is shown whole in the first step)."""
GRID_TOP = 2.35
"""Top edge of the (seq, d_model) matrices, under the heading and their name."""
DOTS_WIDTH = 0.5
"""Room of a "⋯" that stands for columns or heads not shown."""
HEAD_GAP = 0.45
"""Gap between two heads' column blocks once they are split apart."""
PATTERNS = Region(LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM + 0.85, BODY_TOP)
"""Room for the heatmaps of a page of heads, above the two lines that say where the numbers come from."""
EQUATIONS_AT = DOWN * 1.2
"""Where the two equations of the first step go, unless the teacher's words reach lower."""
HEADER_Y, ROW_STEP = 2.45, 0.6
"""Scale table: height of the column names, row spacing."""
VIDEO_X, GPT3_X = 1.75, 4.75
"""Scale table: centres of the two model columns."""


def column_plan(d_head: int, n_heads: int) -> list[tuple[int | None, int, int]]:
    """Which columns of a (seq, d_model) matrix are drawn: runs ``(head, first, end)`` and "⋯" as ``(head, 0, 0)``.

    Few, large cells: at most three heads (the first two, "⋯" for the middle ones as ``(None, 0, 0)``, the
    last), and of a head wider than three columns only its first one or two and its last, a "⋯" between.
    """
    heads = list(range(n_heads)) if n_heads <= 3 else [0, 1, None, n_heads - 1]
    first = 2 if n_heads <= 2 else 1
    plan: list[tuple[int | None, int, int]] = []
    for h in heads:
        if h is None:
            plan.append((None, 0, 0))
            continue
        start, end = h * d_head, (h + 1) * d_head
        if d_head <= 3:
            plan.append((h, start, end))
        else:
            plan += [(h, start, start + first), (h, 0, 0), (h, end - 1, end)]
    return plan


def plural(count: int, noun: str) -> str:
    """``"1 head"``, ``"8 heads"``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


class MultiHeadScene(ExplainerScene):
    name = "multi-head"
    title = "Multi-head attention"
    description = "d_model {d_model} split into {heads} heads: {heads} attention patterns, concatenated and mixed by W_O."
    sources = (
        "Vaswani et al. 2017, 3.2.2 (multi-head attention); GPT-3: Brown et al. 2020, Table 2.1; "
        "trained heads: Clark et al. 2019, What Does BERT Look At?"
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
        self.show_no_extra_cost(t)
        self.show_patterns(t)
        self.show_one_head_output(t)
        self.show_concat(t)
        self.show_output(t)
        self.show_scale(t)
        self.show_whole_models(t)

    # --- helpers -------------------------------------------------------------------------

    def token_label_width(self, cells_width: float, size: int) -> float:
        """How wide the token labels left of ``cells_width`` of cells may be: as needed, at most what the frame leaves."""
        natural = max(label(self.theme, token, size=size).width for token in self.trace.tokens)
        return min(natural, CONTENT_WIDTH - cells_width - LABEL_BUFF, MAX_LABEL_WIDTH)

    def label_room(self, room: float, size: int) -> float:
        """How wide token labels at ``size`` may be given ``room``: as needed, at most ``room`` and :data:`MAX_LABEL_WIDTH`."""
        natural = max(label(self.theme, token, size=size).width for token in self.trace.tokens)
        return min(natural, room, MAX_LABEL_WIDTH)

    def row_labels(self, grid: NumberGrid, width: float, size: int, color: str | None = None) -> VGroup:
        """The tokens left of ``grid``'s rows, each at most ``width`` wide (a long word elided, never shrunk past the minimum)."""
        labels = VGroup()
        for i, token in enumerate(self.trace.tokens):
            text = elided_label(self.theme, token, width, size=size, color=color)
            labels.add(text.next_to(grid.cell(i, 0), LEFT, buff=LABEL_BUFF))
        grid.row_labels = labels
        grid.add(labels)
        return labels

    def columns(self, source, top: float, split: bool = False, colored: bool = False, with_labels: bool = True) -> VGroup:
        """A (seq, d_model) matrix drawn as the columns of :func:`column_plan`, centred, its cells' top at ``top``.

        ``source(head, first, end)`` names the trace path of a run of columns. With ``split`` the heads
        stand apart; with ``colored`` each head's cells take its colour. The result's ``parts`` maps each
        head (None for the heads left out) to its grids and "⋯", ``grids`` lists every grid, and
        ``row_labels`` are the tokens left of the first one.
        """
        t, theme = self.trace, self.theme
        picture, grids, parts = VGroup(), [], {}
        x, previous = 0.0, "start"
        for head, first, end in column_plan(t.d_head, t.n_heads):
            if split and previous != "start" and head != previous:
                x += HEAD_GAP
            previous = head
            color = theme.head_color(head) if colored and head is not None else theme.muted
            if end == 0:
                dots = label(theme, "⋯", size=theme.body_size, color=color)
                dots.move_to(RIGHT * (x + DOTS_WIDTH / 2) + UP * (top - len(t.tokens) * CELL_HEIGHT / 2))
                parts.setdefault(head, VGroup()).add(dots)
                picture.add(dots)
                x += DOTS_WIDTH
                continue
            grid = self.grid(source(head, first, end), 1, cell_width=CELL_WIDTH, cell_height=CELL_HEIGHT, mono_numbers=False)
            align_to_cells(grid, grid.cells, x, top)
            if colored:
                grid.cells.set_fill(color, opacity=0.22).set_stroke(color, width=2.5)
            grids.append(grid)
            parts.setdefault(head, VGroup()).add(grid)
            picture.add(grid)
            x += (end - first) * CELL_WIDTH
        label_w = self.token_label_width(picture.width, theme.small_size)
        if with_labels:
            self.row_labels(grids[0], label_w, theme.small_size)  # inside the first grid: they move with it
        # Centred with the labels; the labels stand left of the first grid.
        picture.shift(LEFT * (picture.get_center()[0]))
        picture.grids, picture.parts = grids, parts
        picture.row_labels = grids[0].row_labels if with_labels else VGroup()
        return picture

    def column_numbers(self, picture: VGroup) -> VGroup:
        """Which columns of d_model each head owns ("1–2" under head 1...), in its colour, "columns" under the tokens."""
        t, theme = self.trace, self.theme
        numbers = VGroup()
        for head, part in picture.parts.items():
            if head is None:
                continue
            first, last = head * t.d_head + 1, (head + 1) * t.d_head
            text = f"{first}–{last}" if last > first else f"{first}"
            cells = VGroup(*[m.cells for m in part if isinstance(m, NumberGrid)])
            numbers.add(label(theme, text, size=theme.min_size, color=theme.head_color(head)).next_to(cells, DOWN, buff=0.12))
        name = label(theme, "columns", size=theme.min_size, color=theme.muted)
        name.next_to(picture.grids[0].cells, LEFT, buff=LABEL_BUFF).align_to(numbers, DOWN)
        return VGroup(name, *numbers)

    def head_titles(self, picture: VGroup) -> VGroup:
        """ "head h" in the head's colour over each head's columns (none over the "⋯" of heads left out)."""
        theme = self.theme
        titles = VGroup()
        for head, part in picture.parts.items():
            if head is None:
                continue
            title = label(theme, f"head {head + 1}", size=theme.min_size, color=theme.head_color(head))
            cells = VGroup(*[m.cells for m in part if isinstance(m, NumberGrid)])
            titles.add(title.next_to(cells, UP, buff=0.12))
        return titles

    def matrix_name(self, grid: NumberGrid, *parts) -> VGroup:
        """A matrix's name (formulas and words side by side), just above its cells, inside the frame."""
        name = VGroup(*parts).arrange(RIGHT, buff=0.18)
        name.next_to(grid.cells, UP, buff=0.2).align_to(grid.cells, LEFT)
        # A narrow matrix (small d_model) has a name wider than itself: keep the name inside the frame.
        return keep_inside(name, left=None)

    def keep_row_numbers(self, heatmap: NumberGrid, row: int) -> None:
        """Leave only row ``row``'s numbers in ``heatmap`` (colour carries the rest), and record only those as shown."""
        n_cols = heatmap.shape[1]
        kept = tuple(heatmap.numbers[row * n_cols : (row + 1) * n_cols])
        hidden = [number for number in heatmap.numbers if number not in kept]
        heatmap.numbers.remove(*hidden)
        heatmap.remove(*hidden)
        k, shown = next((k, shown) for k, shown in enumerate(self.shown) if kept[0] in shown.texts)
        self.shown[k] = Shown(f"{shown.source[:-1]}, {row}]", kept, shown.decimals)

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

    def elision_words(self) -> str:
        """What the "⋯" stand for, said under a matrix's name."""
        t = self.trace
        return f"{t.d_model} columns, {sum(end - first for _, first, end in column_plan(t.d_head, t.n_heads))} shown"

    # --- 1. the idea -------------------------------------------------------------------

    def show_idea(self, t):
        theme = self.theme
        with self.step("the-idea", "The idea: several heads at once"):
            heading = self.heading(f"Multi-head attention: {plural(t.n_heads, 'head')}")
            sentence = self.sentence_rows()
            equation = VGroup(
                formula(theme, r"\mathrm{head}_i = \mathrm{softmax}\left(\frac{Q_i K_i^\top}{\sqrt{d_{head}}}\right) V_i"),
                formula(theme, r"\mathrm{MultiHead}(X) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W_O"),
            ).arrange(DOWN, buff=0.45)
            keep_inside(equation.move_to(EQUATIONS_AT), left=None, right=None, top=sentence.get_bottom()[1] - 0.4)
            self.say("Several attention heads work side by side on the same words.")
            self.play(FadeIn(heading), FadeIn(sentence, lag_ratio=0.1), run_time=1.2)
            self.say("Each head is ordinary attention, with queries, keys and values of its own.")
            self.play(Write(equation[0]), run_time=1.2)
            self.say("Their outputs are joined and mixed by one more matrix.")
            self.play(Write(equation[1]), run_time=1.2)

    # --- 2. the input ------------------------------------------------------------------

    def show_input(self, t):
        seq, d_model = t.x.shape
        with self.step("the-input", "The input X"):
            self.clear()
            heading = self.heading("The input")
            x = self.columns(lambda h, a, b: f"x[:, {a}:{b}]", GRID_TOP)
            picked = "a seed picked for clear patterns" if t.seed == PATTERN_SEED else "a fixed random seed"
            x_name = self.matrix_name(
                x.grids[0], self.maths("X"), self.words(f"{seq} tokens × {d_model} numbers, random ({picked})")
            )
            elided = self.words(f"⋯ columns not shown ({self.elision_words()})").next_to(x, DOWN, buff=0.3)
            self.current_heading = heading
            self.say(f"Our input: {plural(seq, 'token')}, each a vector of {d_model} numbers: d_model is {d_model}.")
            self.play(FadeIn(heading), FadeIn(x_name))
            self.play(FadeIn(x), FadeIn(elided), run_time=1.5)
            self.say(f"Random numbers, from {picked}.")
            self.play(Indicate(x_name[1], color=self.theme.highlight), run_time=1.0)
        self.x, self.x_name, self.elided = x, x_name, elided

    # --- 3. one big projection ---------------------------------------------------------

    def show_projection(self, t):
        seq, d_model = t.q.shape
        with self.step("project", "One projection for all heads: Q = X·W_Q"):
            q = self.columns(lambda h, a, b: f"q[:, {a}:{b}]", GRID_TOP)
            q_name = self.matrix_name(
                q.grids[0], self.maths(r"Q = X\,W_Q", self.theme.query), self.words(f"still {seq} × {d_model}")
            )
            self.say("One big projection makes the queries of all heads at once.")
            self.play(
                self.retitle("One projection for all heads"),
                ReplacementTransform(self.x_name, q_name),
                ReplacementTransform(self.x, q),
                run_time=1.5,
            )
            self.say(f"W_Q is a random {d_model} by {d_model} matrix.")
            diagram = self.projection_diagram(t).next_to(self.elided, DOWN, buff=0.45)
            keep_inside(diagram)
            self.play(FadeIn(diagram[0]), Indicate(q_name[0], color=self.theme.highlight), run_time=1.0)
            self.say("Keys and values: the same, with W_K and W_V.")
            self.play(FadeIn(diagram[1]), FadeIn(diagram[2]), run_time=1.0)
            if t.n_heads > 1:
                first, last = 1, t.d_head
                # Two columns are "1 and 2": "1 to 2" is heard as a range that skips nothing.
                columns = (
                    f"column {first}"
                    if first == last
                    else f"columns {first} and {last}"
                    if last == first + 1
                    else f"columns {first} to {last}"
                )
                self.say(f"Head 1 uses only its slice: {columns} of each.")
                head = self.theme.head_color(0)
                self.play(
                    *[strip.animate.set_fill(head, opacity=0.7) for strip in diagram.strips],
                    *[
                        grid.cells.animate.set_fill(head, opacity=0.22).set_stroke(head, width=2.5)
                        for grid in q.parts[0]
                        if isinstance(grid, NumberGrid)
                    ],
                    run_time=1.2,
                )
        self.q, self.q_name, self.diagram = q, q_name, diagram

    def projection_diagram(self, t) -> VGroup:
        """X times W_Q, W_K and W_V, drawn as shapes (a d_model square, a seq × d_model result), head 1's columns tinted.

        Its ``strips`` are head 1's slices, still clear: they take head 1's colour when the voice names the slice.
        """
        theme = self.theme
        side = 1.3
        seq, d_model = t.q.shape
        head = theme.head_color(0)
        parts, strips = VGroup(), []
        for weight, result, color in ((r"W_Q", "Q", theme.query), (r"W_K", "K", theme.key), (r"W_V", "V", theme.value)):
            square = Rectangle(width=side, height=side, stroke_color=color, stroke_width=2.5)
            block = Rectangle(width=side, height=side * seq / d_model, stroke_color=color, stroke_width=2.5)
            for box in (square, block):
                strip = Rectangle(
                    width=box.width * t.d_head / d_model, height=box.height, stroke_width=0, fill_color=head, fill_opacity=0
                )
                strips.append(strip.align_to(box, LEFT).align_to(box, UP))
                box.add(strip)
            # Its size inside it: "W_Q is a random 16 by 16 matrix" is said over this square.
            size = label(theme, f"{d_model} × {d_model}", size=theme.min_size, color=theme.muted).move_to(square)
            matrix = VGroup(square, size, self.maths(weight, color).next_to(square, DOWN, buff=0.12))
            out = VGroup(block, self.maths(result, color).next_to(block, DOWN, buff=0.12))
            equation = VGroup(self.maths(r"X\,\cdot", theme.text), matrix, self.maths("=", theme.text), out)
            equation.arrange(RIGHT, buff=0.2)
            equation[2].match_y(square)
            equation[0].match_y(square)
            out.align_to(matrix, UP)
            parts.add(equation)
        parts.arrange(RIGHT, buff=0.7)
        parts.strips = strips
        return parts

    def output_diagram(self, t) -> VGroup:
        """Concat times W_O equals the output, drawn as shapes with their sizes: head h's columns of Concat in its
        colour, and its rows of W_O (the rows those columns multiply) in the same colour."""
        theme = self.theme
        side = 1.8
        seq, d_model = t.concat.shape
        unit = side / max(d_model, seq)  # a narrow model (d_model 4) has a concatenation taller than wide

        def box(rows: int, cols: int, color: str) -> Rectangle:
            return Rectangle(width=cols * unit, height=rows * unit, stroke_color=color, stroke_width=2.5)

        concat, w_o, output = box(seq, d_model, theme.muted), box(*t.w_o.shape, theme.muted), box(*t.output.shape, theme.text)
        for h in range(t.n_heads):
            color = theme.head_color(h)
            column = Rectangle(width=t.d_head * unit, height=concat.height, stroke_width=0, fill_color=color, fill_opacity=0.6)
            concat.add(column.align_to(concat, UP).align_to(concat, LEFT).shift(RIGHT * h * t.d_head * unit))
            row = Rectangle(width=w_o.width, height=t.d_head * unit, stroke_width=0, fill_color=color, fill_opacity=0.6)
            w_o.add(row.align_to(w_o, UP).align_to(w_o, LEFT).shift(DOWN * h * t.d_head * unit))

        def named(shape: Rectangle, tex: str, size: tuple[int, int]) -> VGroup:
            name = VGroup(self.maths(tex, theme.text), self.words(f"{size[0]} × {size[1]}")).arrange(RIGHT, buff=0.15)
            return VGroup(shape, name.next_to(shape, DOWN, buff=0.15))

        parts = VGroup(
            named(concat, r"\mathrm{Concat}", t.concat.shape),
            self.maths(r"\cdot", theme.text),
            named(w_o, "W_O", t.w_o.shape),
            self.maths("=", theme.text),
            named(output, r"\mathrm{output}", t.output.shape),
        ).arrange(RIGHT, buff=0.3)
        # The three shapes centred on one line, the signs between them, each name under its shape.
        middle = parts[2][0].get_center()[1]
        for k in (0, 4):
            parts[k].shift(UP * (middle - parts[k][0].get_center()[1]))
        for k in (1, 3):
            parts[k].set_y(middle)
        return parts

    # --- 4. the split into heads -------------------------------------------------------

    def split_shifts(self, picture: VGroup) -> dict:
        """How far each head's part of an unsplit ``picture`` moves when the heads stand :data:`HEAD_GAP` apart, centred."""
        heads = list(picture.parts)
        middle = (len(heads) - 1) / 2
        return {head: RIGHT * (k - middle) * HEAD_GAP for k, head in enumerate(heads)}

    def show_split(self, t):
        theme = self.theme
        seq, d_model = t.q.shape
        q = self.q
        with self.step("split-into-heads", "Split into heads: d_head = d_model ÷ h"):
            shape = VGroup(
                formula(theme, rf"d_{{head}} = d_{{model}} \div h = {d_model} \div {t.n_heads} = {t.d_head}"),
                formula(theme, rf"({seq}, {d_model}) \to ({seq}, {t.n_heads}, {t.d_head}) \to ({t.n_heads}, {seq}, {t.d_head})"),
            ).set_color(theme.highlight)
            titles = self.head_titles(q)
            owned = self.column_numbers(q)
            # The table stays named: a "Q" left of the head titles, where the row labels' column is.
            q_tag = self.maths("Q", theme.query).next_to(q.grids[0].cells, LEFT, buff=LABEL_BUFF).match_y(titles)
            # In the room under the matrix, where the split leaves it.
            shape.arrange(DOWN, buff=0.45).next_to(owned, DOWN, buff=0.8)
            shape.shift(LEFT * shape.get_center()[0])
            colour = [
                part.animate.set_color(theme.head_color(head))
                if not isinstance(part, NumberGrid)
                else part.cells.animate.set_fill(theme.head_color(head), opacity=0.22).set_stroke(
                    theme.head_color(head), width=2.5
                )
                for head, parts in q.parts.items()
                if head is not None
                for part in parts
            ]
            if t.n_heads == 1:
                self.say(f"With one head nothing is split: it keeps all {d_model} columns.")
            else:
                self.say(f"Now split the {d_model} columns of Q among the {t.n_heads} heads: {t.d_head} each, in its own colour.")
            self.play(
                self.retitle("Split into heads"),
                *colour,
                FadeIn(shape[0]),
                ReplacementTransform(self.q_name, q_tag),
                FadeOut(self.elided),
                FadeOut(self.diagram),
                FadeIn(titles),
                FadeIn(owned),
                run_time=1.5,
            )
            self.say(f"Reshaped to ({seq}, {t.n_heads}, {t.d_head}), then heads first: ({t.n_heads}, {seq}, {t.d_head}).")
            self.play(FadeIn(shape[1]), run_time=0.8)
            shifts = self.split_shifts(q)
            heads = [head for head in q.parts if head is not None]
            moves = [q.parts[head].animate.shift(shift) for head, shift in shifts.items()]
            moves += [title.animate.shift(shifts[head]) for title, head in zip(titles, heads)]
            moves += [number.animate.shift(shifts[head]) for number, head in zip(owned[1:], heads)]
            moves.append(owned[0].animate.shift(shifts[next(iter(shifts))]))
            moves.append(q_tag.animate.shift(shifts[next(iter(shifts))]))
            self.say("No number changes: they are only regrouped, head by head.")
            self.play(*moves, run_time=1.5)

    # --- 5. no extra cost --------------------------------------------------------------

    def show_no_extra_cost(self, t):
        theme = self.theme
        with self.step("no-extra-cost", "No extra parameters or multiply-adds"):
            self.clear()
            heading = self.heading("Splitting adds no parameters or multiply-adds")
            header = VGroup(
                label(theme, t.cost_models[0], size=theme.body_size, color=theme.key).move_to([VIDEO_X, HEADER_Y, 0]),
                label(theme, t.cost_models[1], size=theme.body_size, color=theme.key).move_to([GPT3_X, HEADER_Y, 0]),
            )
            rows = [
                ("W_Q, W_K, W_V, W_O: numbers", r"4\, d_{model}^2", "cost_projection_params"),
                ("scores: multiply-adds", r"n^2 d_{model} = h\, n^2 d_{head}", "cost_score_macs"),
                ("weights × values: multiply-adds", r"h\, n^2 d_{head}", "cost_value_macs"),
                ("attention weights", r"h\, n^2", "cost_weights"),
            ]
            table = VGroup(
                *[
                    self.table_row(name, tex, (source, source), HEADER_Y - (k + 1) * ROW_STEP)
                    for k, (name, tex, source) in enumerate(rows)
                ]
            )
            note = self.note_lines(
                (
                    f"d_model = h × d_head: {t.d_model} = {t.n_heads} × {t.d_head}; n = {len(t.tokens)} tokens.",
                    "Each head uses a slice of the same matrices.",
                )
            )
            self.say("Does splitting cost anything? One wide head against the split.")
            self.play(FadeIn(heading), FadeIn(header), FadeIn(note))
            self.say("The same matrices: each head takes a slice of their columns.")
            self.play(FadeIn(table[0]), run_time=0.8)
            self.say(f"The multiply-adds are the same too: {t.n_heads} heads of {t.d_head} do the work of one of {t.d_model}.")
            self.play(FadeIn(table[1]), FadeIn(table[2]), run_time=0.8)
            self.say(f"Only the attention weights grow: {t.n_heads} maps instead of one.")
            self.play(FadeIn(table[3]), run_time=0.8)

    # --- 6. a pattern per head ---------------------------------------------------------

    def show_patterns(self, t):
        theme = self.theme
        # Four heatmaps a page (2 x 2): colour carries each pattern; numbers only in one query's row.
        pages = [list(range(first, min(first + 4, t.n_heads))) for first in range(0, t.n_heads, 4)]
        focus = min(1, len(t.tokens) - 1)
        word = t.tokens[focus]
        with self.step("head-patterns", "One attention pattern per head"):
            self.clear()
            heading = self.heading(f"{plural(t.n_heads, 'head')}, {plural(t.n_heads, 'attention pattern')}")
            picked = "a seed picked for clear maps" if t.seed == PATTERN_SEED else "a fixed random seed"
            note = self.note_lines(
                (
                    "Rows: the query, the word that looks. Columns: the key, the word looked at.",
                    f"Untrained, random ({picked}): the patterns mean nothing.",
                )
            )
            scale = ColorScale(theme, PATTERNS.height * 0.5)
            ends = VGroup(
                label(theme, "1", size=theme.min_size, color=theme.muted).next_to(scale, UP, buff=0.1),
                label(theme, "0", size=theme.min_size, color=theme.muted).next_to(scale, DOWN, buff=0.1),
            )
            bar = VGroup(scale, ends)
            pin(bar, RIGHT, PATTERNS)
            if t.n_heads == 1:
                self.say(f"The head runs ordinary attention with its {t.d_head}-number queries and keys.")
            else:
                self.say(f"Each head runs ordinary attention with its own {t.d_head}-number queries and keys.")
            # The first page's titles and words come with the first line, so it is not said over an empty frame.
            first = HeadGrid(
                self,
                [f"weights[{h}]" for h in pages[0]],
                [f"head {h + 1}" for h in pages[0]],
                t.tokens,
                Region(PATTERNS.left, bar.get_left()[0] - 0.3, PATTERNS.bottom, PATTERNS.top),
            )
            for title, h in zip(first.titles, pages[0]):
                title.set_color(theme.head_color(h))
            frames = VGroup(*first.titles, *[VGroup(m.row_labels, m.col_labels) for m in first.maps])
            self.play(FadeIn(heading), FadeIn(note), FadeIn(bar), FadeIn(frames))
            shown = VGroup()
            room = Region(PATTERNS.left, bar.get_left()[0] - 0.3, PATTERNS.bottom, PATTERNS.top)
            for k, page in enumerate(pages):
                sources, titles = [f"weights[{h}]" for h in page], [f"head {h + 1}" for h in page]
                patterns = first if k == 0 else HeadGrid(self, sources, titles, t.tokens, room)
                maps, titles = patterns.maps, patterns.titles
                rows = VGroup()
                for heatmap, title, h in zip(maps, titles, page):
                    title.set_color(theme.head_color(h))
                    self.keep_row_numbers(heatmap, focus)
                    rows.add(SurroundingRectangle(heatmap.row(focus), color=theme.highlight, buff=0.02, stroke_width=3))
                if k == 0:
                    n = len(t.tokens)
                    self.say(
                        f"So each gets its own {n} × {n} pattern of attention weights; "
                        f"numbers in the row of “{word}”; every row sums to 1."
                    )
                else:
                    heads = f"Head {page[0] + 1}" if len(page) == 1 else f"Heads {page[0] + 1} to {page[-1] + 1}"
                    self.say(f"{heads}: their own patterns.")
                    self.play(FadeOut(shown), run_time=0.6)
                for heatmap, title in zip(maps, titles):
                    if k == 0:  # its titles and words are already on screen
                        self.play(FadeIn(VGroup(heatmap.cells, heatmap.numbers)), run_time=0.5)
                    else:
                        self.play(FadeIn(heatmap), FadeIn(title), run_time=0.5)
                self.play(FadeIn(rows), run_time=0.5)
                shown = VGroup(*maps, titles, rows)
                if k == 0:
                    self.say(f"Random projections, {picked}: the patterns only show that each head weighs words its own way.")
            self.say("Trained heads learn jobs: in BERT, some look at the previous word, some at the next, some at punctuation.")
            source = self.note_lines(("Trained heads: Clark et al. 2019, What Does BERT Look At?",))
            # In the place of the axes' line (the maps are read by now): a third line would reach the words above.
            source.move_to(note[0])
            self.play(FadeOut(note[0]), FadeIn(source))

    # --- 7. concatenate ----------------------------------------------------------------

    def show_one_head_output(self, t):
        """Head 1's weights times its values: its (seq, d_head) output, one row worked out by colour."""
        theme = self.theme
        seq = len(t.tokens)
        focus = min(1, seq - 1)
        word = t.tokens[focus]
        with self.step("one-head-output", "One head's output: weights × values"):
            self.clear()
            heading = self.heading("Head 1: its weights times its values")
            # The keys above the weights' columns and beside the value rows: the weight over a word goes with its value row.
            keys = [elided_label(theme, token, 0.75, size=theme.min_size).original_text for token in t.tokens]
            # Wide enough that "0.34" keeps its gap to both borders (at 0.8 the digits of neighbours ran together).
            weight_width = max(0.8, number_cell_width(theme, t.weights[0, focus], 2, size=theme.small_size, mono=False) + 0.02)
            weights = weights_heatmap(
                self,
                "weights[0]",
                None,
                keys,
                2,
                cells=Cells(weight_width, CELL_HEIGHT, mono=False),
                labels=AxisLabels(size=theme.min_size),
            )
            self.keep_row_numbers(weights, focus)
            self.head_weights = weights  # tests measure its numbers' gaps
            # Few, large cells: a head wider than 2 numbers (one head of 16) shows its first 2 columns, said below.
            shown = min(t.d_head, 2)
            columns = "" if shown == t.d_head else f", :, 0:{shown}"
            value_source, output_source = f"v_heads[0{columns}]", f"head_outputs[0{columns}]"
            # Cells as wide as the widest number needs, minus sign included: none is drawn smaller than the rest.
            cell_width = max(
                WIDE_CELL_WIDTH,
                *(
                    number_cell_width(theme, lookup(t, source), 2, size=theme.small_size, mono=False)
                    for source in (value_source, output_source)
                ),
            )
            values = self.grid(value_source, 2, cell_width=cell_width, cell_height=CELL_HEIGHT, mono_numbers=False)
            values.cells.set_stroke(theme.value, width=2.5)
            output = self.grid(output_source, 2, cell_width=cell_width, cell_height=CELL_HEIGHT, mono_numbers=False)
            output.cells.set_fill(theme.head_color(0), opacity=0.22).set_stroke(theme.head_color(0), width=2.5)
            times, equals = self.maths(r"\times", theme.text), self.maths("=", theme.text)
            # The word labels share what the cells leave of the frame: a long word is cut ("…"), never shrunk.
            parts = (weights, times, values, equals, output)
            free = CONTENT_WIDTH - sum(part.width for part in parts) - 2 * LABEL_BUFF
            # Six words leave the labels little room: the gaps close up (not below 0.2) before a word is cut to "w…".
            gap = min(PRODUCT_GAP, max(0.2, (free - 2 * MIN_LABEL_ROOM) / (len(parts) - 1)))
            free -= (len(parts) - 1) * gap
            # The room is shared as the two columns of words need it (the values' words are smaller).
            needs = [self.label_room(free, size) for size in (theme.small_size, theme.min_size)]
            share = min(1.0, free / sum(needs))
            self.row_labels(weights, needs[0] * share, theme.small_size, theme.query)
            self.row_labels(values, needs[1] * share, theme.min_size, theme.key)
            product = VGroup(*parts).arrange(RIGHT, buff=gap)
            product.move_to(BODY.center)
            keep_inside(product)
            if columns:
                product.add(
                    self.words(f"values and output: first {shown} of {t.d_head} columns").next_to(product, DOWN, buff=0.3)
                )
            average = self.weighted_sum(t, focus).next_to(product, DOWN, buff=0.45 if not columns else 0.3)
            # Under a columns note (one head of 16) the sum may reach below the safe area: all of it moves up.
            keep_inside(VGroup(product, average), left=None, right=None, bottom=SAFE_BOTTOM + 0.02)
            keep_inside(average)
            names = VGroup(
                self.words("attention weights").next_to(weights.col_labels, UP, buff=0.15),
                self.words("its values", theme.value).next_to(values.cells, UP, buff=0.2),
                self.words("its output", theme.head_color(0)).next_to(output.cells, UP, buff=0.2),
            )
            for name in names[1:]:  # the three names on one line, above the weights' key words
                name.set_y(names[0].get_y())
            rows = VGroup(
                SurroundingRectangle(weights.row(focus), color=theme.highlight, buff=0.02, stroke_width=3),
                SurroundingRectangle(output.row(focus), color=theme.highlight, buff=0.02, stroke_width=3),
            )
            self.say(f"Each head returns {plural(t.d_head, 'number')} per token: its attention weights times its values.")
            self.play(FadeIn(heading), FadeIn(product), FadeIn(names), run_time=1.2)
            self.say(f"In the row of “{word}”, its weights average the value rows.")
            self.play(Create(rows), run_time=1.0)
            # Shown, not only told: the first output number as each weight times its word's value, added up
            # (on this line: the scene has no second to spare under three minutes).
            self.highlight(values.column(0), color=theme.value, buff=0.03, run_time=0.4)
            self.play(FadeIn(average), run_time=0.6)

    def show_concat(self, t):
        seq, d_model = t.concat.shape
        d = t.d_head
        with self.step("concatenate", "Concatenate the heads"):
            self.clear()
            heading = self.heading(f"Concatenate the heads: {seq} × {d_model} again")
            self.current_heading = heading
            blocks = self.columns(
                lambda h, a, b: f"head_outputs[{h}, :, {a - h * d}:{b - h * d}]", GRID_TOP, split=True, colored=True
            )
            titles = VGroup(self.head_titles(blocks), self.column_numbers(blocks))
            self.say(f"Every head does the same: {plural(t.n_heads, 'block')}.")
            # Said as drawn: which share of the columns the picture keeps, and its rounding.
            drawn = sum(end - first for _, first, end in column_plan(t.d_head, t.n_heads))
            kept = f"{drawn} of the {d_model} columns shown (⋯ the rest), rounded to one decimal."
            rounding = self.note_lines((kept if drawn < d_model else "Rounded to one decimal.",))
            self.play(FadeIn(heading), FadeIn(titles), FadeIn(blocks), FadeIn(rounding), run_time=1.2)
            concat = self.columns(lambda h, a, b: f"concat[:, {a}:{b}]", GRID_TOP, colored=True)
            joined_titles = VGroup(self.head_titles(concat), self.column_numbers(concat))
            self.say(f"Side by side, every token has {d_model} numbers again, each head in its colour.")
            self.play(
                *[ReplacementTransform(a, b) for a, b in zip(blocks, concat)],
                ReplacementTransform(titles, joined_titles),
                run_time=1.5,
            )
            self.wait(0.5)
        self.concat, self.concat_numbers, self.rounding = concat, joined_titles[1], rounding

    # --- 8. the output projection ------------------------------------------------------

    def weighted_sum(self, t, focus: int) -> VGroup:
        """Head 1's first output number for the query ``focus``: weight × value for each key, added up ("≈": rounded).

        Every number is read from the trace; with more than four keys the middle terms are elided ("⋯").
        """
        theme, seq = self.theme, len(t.tokens)
        size = theme.small_size
        keys = list(range(seq)) if seq <= 4 else [0, 1, 2, None, seq - 1]
        parts = VGroup()
        for j in keys:
            if parts:
                parts.add(label(theme, "+", size=size, color=theme.muted))
            if j is None:
                parts.add(label(theme, "⋯", size=size, color=theme.muted))
                continue
            value = self.number(f"v_heads[0, {j}, 0]", 2, size=size, color=theme.value, mono=False)
            negative = value.original_text.startswith("−")
            factors = [
                self.number(f"weights[0, {focus}, {j}]", 2, size=size, mono=False),
                label(theme, "×", size=size, color=theme.muted),
                *([label(theme, "(", size=size, color=theme.muted)] if negative else []),
                value,
                *([label(theme, ")", size=size, color=theme.muted)] if negative else []),
            ]
            parts.add(VGroup(*factors).arrange(RIGHT, buff=0.06))
        total = self.number(f"head_outputs[0, {focus}, 0]", 2, size=size, color=theme.head_color(0), mono=False)
        parts.add(self.maths(r"\approx", theme.text), total)
        parts.arrange(RIGHT, buff=0.14)
        note = self.words("weights × column 1 of the values, added up (numbers rounded, so ≈)")
        return VGroup(parts, note).arrange(DOWN, buff=0.15)

    def show_output(self, t):
        seq, d_model = t.concat.shape
        concat, theme = self.concat, self.theme
        focus = min(1, seq - 1)
        # On screen a long word is cut (the sum beside it needs the room); the voice says it whole.
        whole_word = t.tokens[focus]
        word = elided_label(theme, whole_word, 2.0, size=theme.small_size).original_text
        heads = [head for head in concat.parts if head is not None]
        with self.step("output-projection", "Mix the heads with W_O"):
            # One output number, as the sum of one share per head: that head's columns of the row times its rows of W_O.
            rows = {
                head: SurroundingRectangle(
                    VGroup(*[m.row(focus) for m in concat.parts[head] if isinstance(m, NumberGrid)]),
                    color=theme.head_color(head),
                    buff=0.04,
                    stroke_width=4,
                )
                for head in heads
            }
            terms = VGroup()
            shares = {}
            for head in concat.parts:
                if head is None:
                    term = label(theme, "⋯", size=theme.body_size, color=theme.muted)
                else:
                    term = self.number(f"output_parts[{head}, {focus}, 0]", 2, size=theme.body_size, color=theme.head_color(head))
                    shares[head] = term
                # "a + −b" is written "a −b": a negative share's own minus sign joins it to the sum.
                if len(terms) and not term.original_text.startswith("−"):
                    terms.add(label(theme, "+", size=theme.body_size, color=theme.muted))
                terms.add(term)
            self.share_terms = terms  # the sum as drawn, term by term (tests read its signs)
            total = self.number(f"output[{focus}, 0]", 2, size=theme.body_size)
            name = label(theme, f"output of “{word}”, column 1:", size=theme.small_size, color=theme.muted)
            equation = VGroup(name, *terms, self.maths(r"\approx", theme.text), total).arrange(RIGHT, buff=0.18)
            if equation.width > CONTENT_WIDTH:
                # Many heads or a long word: the name on its own line, the sum under it.
                VGroup(*equation[1:]).next_to(name, DOWN, buff=0.2).align_to(name, LEFT)
            equation.next_to(self.concat_numbers, DOWN, buff=1.1)
            keep_inside(equation)
            rounded = self.words(
                "each head's share: its 2 columns of this row times its rows of W_O, rounded"
                if t.d_head == 2
                else "each head's share: its columns of this row times its rows of W_O, rounded"
            ).next_to(equation, DOWN, buff=0.3)
            keep_inside(rounded)
            links = VGroup(
                *[
                    Line(
                        rows[head].get_bottom(), shares[head].get_top() + UP * 0.08, color=theme.head_color(head), stroke_width=3
                    )
                    for head in heads
                ]
            )
            below = self.concat_numbers.get_bottom()[1] - 0.75
            output = self.columns(lambda h, a, b: f"output[:, {a}:{b}]", below, with_labels=False)
            # Under the concatenation, column for column.
            output.shift(RIGHT * (concat.grids[0].cells.get_left()[0] - output.grids[0].cells.get_left()[0]))
            # Straight down: the output's cells start where the concatenation's do, so the words keep their x.
            output_labels = concat.row_labels.copy().shift(
                UP * (output.grids[0].cells.get_center()[1] - concat.grids[0].cells.get_center()[1])
            )
            output_name = self.matrix_name(
                output.grids[0],
                self.maths(r"\mathrm{output} = \mathrm{Concat}\; W_O", theme.text),
                self.words(f"{seq} × {d_model}, the shape of X"),
            )
            picked = SurroundingRectangle(output.grids[0].cell(focus, 0), color=theme.highlight, buff=0.03, stroke_width=4)
            diagram = self.output_diagram(t).next_to(self.concat_numbers, DOWN, buff=0.6)
            diagram.shift(LEFT * diagram.get_center()[0])
            keep_inside(diagram)
            self.say(f"A last {d_model} by {d_model} matrix, W_O, mixes the heads: each head's columns meet its rows of W_O.")
            self.play(self.retitle("Mix the heads with W_O"), FadeIn(diagram), FadeOut(self.rounding), run_time=1.2)
            self.say(f"The first output number of “{whole_word}”: every head adds its share.")
            # The lines to the shares cross the rows below: those rows and the column numbers dim meanwhile.
            others = VGroup(
                self.concat_numbers,
                *[grid.number(i, j) for grid in concat.grids for i in range(seq) if i != focus for j in range(grid.shape[1])],
            )
            self.play(FadeOut(diagram), *[Create(rect) for rect in rows.values()], others.animate.set_opacity(0.2), run_time=0.8)
            self.play(FadeIn(name), *[Create(line) for line in links], FadeIn(terms, lag_ratio=0.1), run_time=1.8)
            self.play(FadeIn(equation[-2:]), FadeIn(rounded), run_time=0.8)
            self.play(Indicate(total, color=theme.highlight), run_time=1.0)
            self.say("Every output number sums all the heads, so it has no colour.")
            self.play(FadeOut(VGroup(equation, rounded, links)), others.animate.set_opacity(1.0), run_time=0.6)
            self.play(FadeIn(output_name), FadeIn(output_labels), FadeIn(output), Create(picked), run_time=1.5)
            self.say(f"{seq} by {d_model}, the shape of the input X, so it can be added back to X.")
            self.play(Indicate(output_name, color=theme.highlight), run_time=1.0)

    # --- 8. the same idea at GPT-3's scale ---------------------------------------------

    def table_row(
        self, name: str, tex: str, sources: tuple[str, str], y: float, decimals=(0, 0), unit: str = "", none_if_zero=()
    ) -> VGroup:
        """One row of the scale table: its name and formula, then this video's value and GPT-3's (with ``unit``).

        A model in ``none_if_zero`` (0 this video, 1 GPT-3) whose value is 0 shows "none": it has no such part.
        """
        theme = self.theme
        title = VGroup(label(theme, name, size=theme.small_size, color=theme.muted))
        if tex:
            title.add(self.maths(tex, theme.muted))
        title.arrange(RIGHT, buff=0.25)
        title.move_to([0, y, 0]).align_to([LEFT_EDGE, 0, 0], LEFT)
        values = []
        for m, x in ((0, VIDEO_X), (1, GPT3_X)):
            if m in none_if_zero and lookup(self.trace, f"{sources[m]}[{m}]") == 0:
                values.append(label(theme, "none", size=theme.small_size, color=theme.muted).move_to([x, y, 0]))
                continue
            value = self.number(f"{sources[m]}[{m}]", decimals[m], size=theme.body_size)
            if unit and m == 1:
                value = VGroup(value, label(theme, unit, size=theme.small_size)).arrange(RIGHT, buff=0.15, aligned_edge=DOWN)
            values.append(value.move_to([x, y, 0]))
        return VGroup(title, *values)

    def show_scale(self, t):
        theme = self.theme
        with self.step("scale-comparison", "At scale: this model beside GPT-3"):
            self.clear()
            heading = self.heading(f"{t.scale_models[0]} and {t.scale_models[1]}")
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
                ("attention projections, one layer", r"4\, d_{model}^2", "scale_layer_attention_params"),
            ]
            table = VGroup(
                *[
                    self.table_row(name, tex, (source, source), HEADER_Y - (k + 1) * ROW_STEP)
                    for k, (name, tex, source) in enumerate(rows)
                ]
            )
            note = self.note_lines(("GPT-3: Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1",))
            video, big = 0, 1
            self.say("The same idea at scale: this video's model beside GPT-3.")
            self.play(FadeIn(heading), FadeIn(header), FadeIn(note), FadeIn(table[0]), FadeIn(table[1]))
            self.say(f"Each head works in d_model ÷ h numbers: {t.scale_head_dim[video]} here, {t.scale_head_dim[big]} in GPT-3.")
            self.play(FadeIn(table[2]), run_time=0.8)
            self.say(
                f"GPT-3 has {t.scale_heads[big]} heads in each of its {t.scale_layers[big]} layers: "
                f"{format_number(t.scale_total_heads[big], 0)} heads in all."
            )
            self.play(FadeIn(table[3]), FadeIn(table[4]), run_time=0.8)
            self.say(
                f"One layer's W_Q, W_K, W_V and W_O hold 4 × d_model² numbers: "
                f"{format_number(t.scale_layer_attention_params[video], 0)} here, "
                f"{format_number(t.scale_layer_attention_params[big], 0)} in GPT-3."
            )
            self.play(FadeIn(table[5]), run_time=0.8)
            self.play(Indicate(table[5][1:], color=theme.highlight), run_time=1.2)
        self.table, self.scale_heading, self.scale_header, self.scale_note = table, heading, header, note

    def show_whole_models(self, t):
        """Where all the parameters are, counted alike for both models: attention, feed-forward layers, everything."""
        theme = self.theme
        video, big = 0, 1
        with self.step("whole-models", "At scale: all the parameters"):
            heading = self.heading(f"{t.scale_models[0]} and {t.scale_models[1]}: all the parameters")
            top = HEADER_Y - ROW_STEP
            layers, one_layer = self.table[3], self.table[5]
            rows = VGroup(
                self.table_row(
                    "attention projections, all layers",
                    r"4\, d_{model}^2 L",
                    ("scale_attention_params", "scale_attention_params_billions"),
                    top - 2 * ROW_STEP,
                    (0, 1),
                    "billion",
                ),
                self.table_row(
                    "feed-forward layers, all layers",
                    r"2\, d_{model}\, d_{ff} L",
                    ("scale_feed_forward_params", "scale_feed_forward_params_billions"),
                    top - 3 * ROW_STEP,
                    (0, 1),
                    "billion",
                    none_if_zero=(video,),
                ),
                self.table_row(
                    "all parameters, whole model",
                    "",
                    ("scale_total_params", "scale_total_params_billions"),
                    top - 4 * ROW_STEP,
                    (0, 0),
                    "billion",
                ),
            )
            note = self.note_lines(
                (
                    "GPT-3: Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1;",
                    "d_ff = 4 × d_model (its section 2.1). The formulas count weights, without biases.",
                )
            )
            others = [row for k, row in enumerate(self.table) if k not in (3, 5)]
            self.play(
                ReplacementTransform(self.scale_heading, heading),
                *[FadeOut(row) for row in others],
                layers.animate.set_y(top),
                one_layer.animate.set_y(top - ROW_STEP),
                ReplacementTransform(self.scale_note, note),
                run_time=1.0,
            )
            self.say(
                f"In all {t.scale_layers[big]} layers of GPT-3: "
                f"{format_number(t.scale_attention_params_billions[big], 1)} billion numbers in the projections."
            )
            self.play(FadeIn(rows[0]), run_time=0.8)
            self.say(
                "Its feed-forward layers, 4 times as wide as d_model, hold "
                f"{format_number(t.scale_feed_forward_params_billions[big], 1)} billion."
            )
            self.play(FadeIn(rows[1]), run_time=0.8)
            self.say(
                f"All of GPT-3: {format_number(t.scale_total_params_billions[big], 0)} billion parameters, "
                "almost all in these two parts."
            )
            self.play(FadeIn(rows[2]), run_time=0.8)
            self.play(Indicate(rows[2][2], color=theme.highlight), run_time=1.0)
            self.say(
                f"This video's model is one attention layer, nothing else: {format_number(t.scale_total_params[video], 0)} numbers."
            )
            self.play(Indicate(rows[2][1], color=theme.highlight), run_time=1.0)
