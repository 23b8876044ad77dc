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
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
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

CELL_WIDTH, CELL_HEIGHT = 0.95, 0.4
"""A (seq, columns) matrix's cells: wide enough for "−1.3" at the small size clear of both borders."""
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
    sources = "Vaswani et al. 2017, 3.2.2 (multi-head attention); GPT-3: Brown et al. 2020, Table 2.1"

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
            self.say("One attention head gives each token one set of attention weights.")
            self.play(FadeIn(heading))
            self.say("Several heads give several sets, side by side.")
            self.play(FadeIn(sentence, lag_ratio=0.1), run_time=1.2)
            self.say("Each head is ordinary attention, with queries, keys and values of its own.")
            self.play(Write(equation[0]), run_time=1.2)
            self.say("Their outputs are joined and mixed by one more matrix, W_O.")
            self.play(Write(equation[1]), run_time=1.2)

    # --- 2. the input ------------------------------------------------------------------

    def show_input(self, t):
        seq, d_model = t.x.shape
        with self.step("the-input", "The input X"):
            self.clear()
            heading = self.heading("The input")
            x = self.columns(lambda h, a, b: f"x[:, {a}:{b}]", GRID_TOP)
            x_name = self.matrix_name(
                x.grids[0], self.maths("X"), self.words(f"{seq} tokens × {d_model} numbers, random (seed {t.seed})")
            )
            elided = self.words(f"⋯ columns not shown ({self.elision_words()})").next_to(x, DOWN, buff=0.3)
            self.current_heading = heading
            self.say(f"Our input: {plural(seq, 'token')}, each a vector of d_model = {d_model} numbers.")
            self.play(FadeIn(heading), FadeIn(x_name))
            self.play(FadeIn(x), FadeIn(elided), run_time=1.5)
            self.say(f"The numbers are random, drawn with seed {t.seed}; a few columns stand for all {d_model}.")
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
            self.say(f"W_Q is a {d_model} by {d_model} projection matrix, random here.")
            self.play(Indicate(q_name[0], color=self.theme.highlight), run_time=1.0)
            self.say("Keys and values are made the same way, with W_K and W_V.")
        self.q, self.q_name = q, q_name

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
                formula(theme, rf"({seq}, {d_model}) \to ({t.n_heads}, {seq}, {t.d_head})"),
            ).set_color(theme.highlight)
            titles = self.head_titles(q)
            owned = self.column_numbers(q)
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
                self.say(f"Now split the {d_model} columns among the {t.n_heads} heads: {t.d_head} each, in its own colour.")
            self.play(
                self.retitle("Split into heads"),
                *colour,
                FadeIn(shape[0]),
                FadeOut(self.q_name),
                FadeOut(self.elided),
                FadeIn(titles),
                FadeIn(owned),
                run_time=1.5,
            )
            self.say(f"The reshape turns ({seq}, {d_model}) into ({t.n_heads}, {seq}, {t.d_head}).")
            self.play(FadeIn(shape[1]), run_time=0.8)
            shifts = self.split_shifts(q)
            heads = [head for head in q.parts if head is not None]
            moves = [q.parts[head].animate.shift(shift) for head, shift in shifts.items()]
            moves += [title.animate.shift(shifts[head]) for title, head in zip(titles, heads)]
            moves += [number.animate.shift(shifts[head]) for number, head in zip(owned[1:], heads)]
            moves.append(owned[0].animate.shift(shifts[next(iter(shifts))]))
            self.say("No number changes: they are only regrouped, head by head.")
            self.play(*moves, run_time=1.5)

    # --- 5. no extra cost --------------------------------------------------------------

    def show_no_extra_cost(self, t):
        theme = self.theme
        with self.step("no-extra-cost", "Splitting adds no parameters or cost"):
            self.clear()
            heading = self.heading("Splitting adds no parameters or multiply-adds")
            header = VGroup(
                label(theme, t.cost_models[0], size=theme.body_size, color=theme.key).move_to([VIDEO_X, HEADER_Y, 0]),
                label(theme, t.cost_models[1], size=theme.body_size, color=theme.key).move_to([GPT3_X, HEADER_Y, 0]),
            )
            rows = [
                ("W_Q, W_K, W_V, W_O: numbers", r"4\, d_{model}^2", "cost_projection_params"),
                ("scores: multiply-adds", r"n^2 d_{model} = h\, n^2 d_{head}", "cost_score_macs"),
                ("weights × values: multiply-adds", "", "cost_value_macs"),
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
            self.say("Does splitting cost anything? Compare one head as wide as the model with the split.")
            self.play(FadeIn(heading), FadeIn(header), FadeIn(note))
            self.say(f"The matrices are the same {t.d_model} by {t.d_model} ones: each head just takes a slice of their columns.")
            self.play(FadeIn(table[0]), run_time=0.8)
            self.say(
                f"The scores cost the same too: {t.n_heads} heads of {t.d_head} numbers "
                f"do the multiply-adds of one head of {t.d_model}, and so do weights times values."
            )
            self.play(FadeIn(table[1]), FadeIn(table[2]), run_time=0.8)
            self.say(f"What grows is the number of attention weights: {t.n_heads} maps instead of one, so {t.n_heads} patterns.")
            self.play(FadeIn(table[3]), run_time=0.8)

    # --- 6. a pattern per head ---------------------------------------------------------

    def show_patterns(self, t):
        theme = self.theme
        # Four heatmaps a page (2 x 2), so each cell is wide enough to read: 8 heads take two pages.
        pages = [list(range(first, min(first + 4, t.n_heads))) for first in range(0, t.n_heads, 4)]
        with self.step("head-patterns", "One attention pattern per head"):
            self.clear()
            heading = self.heading(f"{plural(t.n_heads, 'head')}, {plural(t.n_heads, 'attention pattern')}")
            picked = ", picked so the maps differ clearly" if t.seed == PATTERN_SEED else ""
            note = self.note_lines(
                (f"Random, untrained projections (seed {t.seed}{picked}):", "the patterns mean nothing. Colours run from 0 to 1.")
            )
            if t.n_heads == 1:
                self.say(f"The head runs ordinary attention with its {t.d_head}-number queries and keys.")
            else:
                self.say(f"Each head runs ordinary attention with its own {t.d_head}-number queries and keys.")
            self.play(FadeIn(heading), FadeIn(note))
            shown = VGroup()
            for k, page in enumerate(pages):
                sources, titles = [f"weights[{h}]" for h in page], [f"head {h + 1}" for h in page]
                patterns = HeadGrid(self, sources, titles, t.tokens, PATTERNS)
                maps, titles = patterns.maps, patterns.titles
                for title, h in zip(titles, page):
                    title.set_color(theme.head_color(h))
                if k == 0:
                    n = len(t.tokens)
                    self.say(f"So each gets its own {n} × {n} pattern of attention weights, every row summing to 1.")
                else:
                    heads = f"Head {page[0] + 1}" if len(page) == 1 else f"Heads {page[0] + 1} to {page[-1] + 1}"
                    self.say(f"{heads}: patterns of their own again.")
                    self.play(FadeOut(shown), run_time=0.6)
                for heatmap, title in zip(maps, titles):
                    self.play(FadeIn(heatmap), FadeIn(title), run_time=0.5)
                shown = VGroup(*maps, titles)
                if k == 0:
                    self.say("The projections are random, not trained, so these patterns mean nothing:")
                    self.say("they only show that each head weighs the same words its own way.")
            self.say("What trained heads attend to is the subject of the trained-heads video.")

    # --- 7. concatenate ----------------------------------------------------------------

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
            self.say(f"Each head returns {plural(t.d_head, 'number')} per token: its weights times its values.")
            self.play(FadeIn(heading), FadeIn(titles), FadeIn(blocks), run_time=1.2)
            concat = self.columns(lambda h, a, b: f"concat[:, {a}:{b}]", GRID_TOP, colored=True)
            joined_titles = VGroup(self.head_titles(concat), self.column_numbers(concat))
            self.say(f"Side by side, every token has {d_model} numbers again; each head keeps its colour and its columns.")
            self.play(
                *[ReplacementTransform(a, b) for a, b in zip(blocks, concat)],
                ReplacementTransform(titles, joined_titles),
                run_time=1.5,
            )
            self.wait(0.5)
        self.concat, self.concat_numbers = concat, joined_titles[1]

    # --- 8. the output projection ------------------------------------------------------

    def show_output(self, t):
        seq, d_model = t.concat.shape
        concat = self.concat
        with self.step("output-projection", "Mix the heads with W_O"):
            below = self.concat_numbers.get_bottom()[1] - 0.75
            output = self.columns(lambda h, a, b: f"output[:, {a}:{b}]", below, with_labels=False)
            output_labels = concat.row_labels.copy().shift(
                output.grids[0].cells.get_center() - concat.grids[0].cells.get_center()
            )
            output_name = self.matrix_name(
                output.grids[0],
                self.maths(r"\mathrm{output} = \mathrm{Concat}\; W_O", self.theme.text),
                self.words(f"{seq} × {d_model}"),
            )
            self.say(f"A last {d_model} by {d_model} projection matrix, W_O, mixes the heads.")
            self.play(self.retitle("Mix the heads with W_O"), FadeIn(output_name), FadeIn(output_labels))
            self.play(
                *[TransformFromCopy(VGroup(*[g for g in concat.grids]), VGroup(*[g for g in output.grids]))],
                FadeIn(VGroup(*[m for m in output if not isinstance(m, NumberGrid)])),
                run_time=1.8,
            )
            self.say("Each output number is a sum over all the heads' columns, so it has no head of its own: no colour.")
            self.say(f"The result has the input's shape, {seq} by {d_model}, ready for the next layer.")

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
        with self.step("scale-comparison", "At scale: GPT-3, per layer"):
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
        with self.step("whole-models", "At scale: whole models"):
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
