"""Why attention costs O(n²): attention weights and multiply-adds counted for growing n.

Time and memory for different sequence lengths and head widths, with exact counts
instead of timings so the video is reproducible; then one whole GPT-2-small layer,
where the projections and the feed-forward (linear in n) outweigh the n² part at 1,024 tokens
(the n² part reaches half only at 4,608 tokens, past GPT-2's context). The memory counted is that of
the n × n attention weights as a plain implementation stores them; FlashAttention
(Dao et al. 2022) computes them in tiles and never stores them whole, but does the
same n²·d work.
"""

from __future__ import annotations

from manim import DOWN, LEFT, PI, RIGHT, UP, FadeIn, FadeOut, GrowFromEdge, Rectangle, Square, Text, VGroup, Write

from attention_math.traces.complexity import complexity_trace

from .kit import ExplainerScene
from .kit.layout import (
    CONTENT_WIDTH,
    HEADING_LINE,
    NOTE_WIDTH,
    RIGHT_EDGE,
    SAFE_BOTTOM,
    SAFE_TOP,
    Region,
    keep_inside,
    pin,
)
from .kit.text import formula, label, on_one_line
from .theme import format_number

CELL = 0.2
"""Side of one weight's square in the n × n grids: constant, so a grid's area shows n²."""

PICTURE_AT = DOWN * 0.1
"""Where the grids and the bars are centred: a little under the middle, their names under them."""
PAIR_OFFSET = RIGHT * 0.95
"""From each n's bar of n² to its bar of n, beside it: room between them for an outline round a bar and its number
(at 0.7, the outline round "256", wider than its bar, touched the number)."""
FIRST_ROW_DROP = 0.85
"""From a table's header down to its first row."""
TAG_ROOM = Region(3.35, RIGHT_EDGE, SAFE_BOTTOM, SAFE_TOP)
"""Right of the table of lengths: where the tag on a real model's context goes."""
TAKEAWAY_AT = DOWN * 0.2
"""Where the takeaway's lines are centred."""
HIGHLIGHT_ROOM = 0.15
"""Room between an outline and the numbers it marks (the default's 0.06 touched "256" and "billion")."""
LABEL_DROP = 0.12
"""How far the bars' n labels move down: an outline round a bar's foot touched "8,192" under it."""
MEMORY_COLUMNS = (-5.0, -1.6, 2.5)
"""Column centres of the memory table: its last header, "memory, MiB (4n² bytes)", is the widest."""
WIDE_COLUMNS = (0.55, 1.45, 2.35, 3.3, 4.2)
"""Step 6's layer twice as wide: its names' right edge, the narrow layer's centre, the arrow's, the wide layer's,
and the growth's left edge."""
WIDE_TOP = -1.4
"""Step 6: the first row (the widths) of the layer twice as wide, under the table of one head's widths."""
WIDE_GAP = 0.46
"""Step 6: from row to row of the layer twice as wide (its lines at the small size)."""


class ComplexityScene(ExplainerScene):
    name = "complexity"
    title = "Why attention costs O(n²)"
    description = "n tokens make an n×n matrix of attention weights: memory and multiply-adds counted as n doubles."
    sources = (
        "exact counts; GPT-2 small's 12 layers and d_model 768: Radford et al. 2019 (Table 2), its 1,024-token "
        "context: section 2.3, its 12 heads and d_ff 3,072: OpenAI's released code and config (n_head, 4 × n_embd); "
        "FlashAttention: Dao et al. 2022; Reformer: Kitaev et al. 2020; Longformer: Beltagy et al. 2020"
    )
    poster_step = "doubling-quadruples"

    @classmethod
    def build_trace(cls):
        return complexity_trace()

    def construct(self):
        t = self.trace
        self.show_grids(t)
        self.show_memory(t)
        self.show_multiply_adds(t)
        self.show_doubling(t)
        self.show_layer(t)
        self.show_width(t)
        self.show_half(t)
        self.show_takeaway(t)

    def table(
        self, header: list, rows: list, columns_x, top: float = 1.9, row_gap: float = 0.78, drop: float = FIRST_ROW_DROP
    ) -> tuple[VGroup, list]:
        """Header texts and rows of already-built texts placed at fixed column centres, the header on one baseline."""
        header = VGroup(*header)
        for text, x in zip(header, columns_x):
            text.move_to([x, top, 0])
        on_one_line(list(header))  # centred, "weights·V" and "weights n²" (no descender) stood higher (review 17)
        for r, row in enumerate(rows):
            for text, x in zip(row, columns_x):
                text.move_to([x, top - drop - row_gap * r, 0])
        return header, rows

    def readable(self, base: str, i: int, size: int | None = None, color: str | None = None) -> VGroup:
        """Count ``i`` of ``base`` as a person says it, "33.6 million" or "8.59 billion", from the trace's
        ``{base}_millions`` and ``{base}_billions``: three significant digits instead of a wall of ten."""
        theme = self.theme
        size = size or theme.body_size
        millions = float(getattr(self.trace, f"{base}_millions")[i])
        if millions >= 1000:
            source, decimals, unit = f"{base}_billions[{i}]", 2, "billion"
        else:
            source, decimals, unit = f"{base}_millions[{i}]", 0 if millions >= 100 else 1 if millions >= 10 else 2, "million"
        return VGroup(
            self.number(source, decimals, size=size, color=color, mono=False),
            label(theme, unit, size=theme.small_size, color=color),
        ).arrange(RIGHT, buff=0.12, aligned_edge=DOWN)

    def aside(self, lines: tuple[str, ...], color: str | None = None) -> VGroup:
        """Side-note lines at the bottom of the frame, at the small size: the kit's notes (the least size) were
        hard to read from the back of a room, and these carry claims (what is not counted, a length past the limit)."""
        theme = self.theme
        note = VGroup(*[label(theme, line, size=theme.small_size, color=color or theme.muted) for line in lines])
        note.arrange(DOWN, buff=0.15)
        if note.width > NOTE_WIDTH:  # only a much longer note than these would need it
            note.scale_to_fit_width(NOTE_WIDTH)
        return note.move_to([0, SAFE_BOTTOM + note.height / 2, 0])

    def corner(self, name: str, source: str) -> VGroup:
        """ "d = 64" (or "n = 1,024") at the top right, beside the heading, its number from the trace."""
        fixed = VGroup(label(self.theme, name + " ="), self.number(source, 0, size=self.theme.body_size, mono=False))
        fixed.arrange(RIGHT, buff=0.2)  # as wide as the space in "n =": 0.15 read "n =1,024" (review 14)
        return pin(fixed, RIGHT, y=HEADING_LINE)

    # --- 1. n × n ---------------------------------------------------------------------

    def weight_grids(self, t) -> VGroup:
        theme = self.theme
        grids = VGroup()
        for size in t.grid_sizes:
            squares = VGroup(
                *[
                    Rectangle(
                        width=CELL, height=CELL, stroke_color=theme.key, stroke_width=1, fill_color=theme.key, fill_opacity=0.35
                    ).move_to(RIGHT * j * CELL + DOWN * i * CELL)
                    for i in range(int(size))
                    for j in range(int(size))
                ]
            )
            grids.add(squares)
        return grids.arrange(RIGHT, buff=1.7, aligned_edge=DOWN).move_to(PICTURE_AT)

    def show_grids(self, t):
        theme = self.theme
        with self.step("every-query-every-key", "Every query, every key: n × n weights"):
            heading = self.heading("n tokens, n × n attention weights")
            grids = self.weight_grids(t)
            names, counts = VGroup(), VGroup()
            for i, grid in enumerate(grids):
                names.add(
                    VGroup(
                        label(theme, "n =", size=theme.small_size),
                        self.number(f"grid_sizes[{i}]", 0, size=theme.small_size, mono=False),
                    ).arrange(RIGHT, buff=0.17)  # as wide as the space in "n =": 0.12 read "n =2" (review 14)
                )
                counts.add(
                    VGroup(
                        self.number(f"grid_cells[{i}]", 0, size=theme.small_size, color=theme.key),
                        label(theme, "weights", size=theme.small_size, color=theme.muted),
                    ).arrange(RIGHT, buff=0.12)
                )
                names[-1].next_to(grid, UP, buff=0.25)
                counts[-1].next_to(grid, DOWN, buff=0.25)
            names.align_to(grids[-1], UP).shift(UP * (names[-1].height + 0.25))
            equation = formula(theme, r"n \text{ queries} \times n \text{ keys} = n^2 \text{ attention weights}")
            equation.next_to(counts, DOWN, buff=0.8)
            # What a grid's rows and columns are, where the formula comes later: shown while the first line says it.
            first = grids[0]
            axes = label(theme, "one row per query, one column per key: a square per pair", size=theme.small_size)
            axes.move_to(equation)
            # The biggest grid's sides named, as the caption says them: its rows are queries, its columns keys.
            biggest = grids[-1]
            keys = label(theme, "keys →", size=theme.small_size, color=theme.muted)
            keys.next_to(biggest, UP, buff=0.1).align_to(biggest, LEFT)
            names[-1].next_to(keys, UP, buff=0.1).set_x(biggest.get_x())  # its name above "keys →", not beside it
            queries = label(theme, "queries →", size=theme.small_size, color=theme.muted).rotate(-PI / 2)
            queries.next_to(biggest, LEFT, buff=0.12).align_to(biggest, UP)
            sides = VGroup(keys, queries)
            # "×4" between neighbouring grids' counts, as the doubling step later marks its bars.
            times = VGroup()
            for i in range(len(grids) - 1):
                mark = VGroup(
                    label(theme, "×", size=theme.small_size, color=theme.highlight),
                    self.number(f"memory_growth[{i}]", 0, size=theme.small_size, color=theme.highlight, mono=False),
                ).arrange(RIGHT, buff=0.05)
                between = (grids[i].get_right() + grids[i + 1].get_left()) / 2
                mark.next_to(counts, DOWN, buff=0.15).set_x(between[0])  # under the counts: they fill the gaps
                times.add(mark)

            # The grids first, then "every query against every key" said on the biggest one, its sides named: said
            # over the tiny 2 × 2 grid alone, nothing on screen showed queries or keys (review 19).
            self.say("n tokens make an n × n matrix of attention weights.")  # a word cut for one added
            self.play(FadeIn(heading), FadeIn(names[0]), GrowFromEdge(first, DOWN), run_time=0.8)
            self.play(FadeIn(counts[0]), run_time=0.3)
            # Quicker than before (0.8 s and 0.4 s): the line waited on the grids, and the scene keeps within its length.
            for grid, name, count in zip(grids[1:], names[1:], counts[1:]):
                self.play(FadeIn(name), GrowFromEdge(grid, DOWN), run_time=0.6)
                self.play(FadeIn(count), run_time=0.3)
            self.say("Attention scores every query against every key.")
            self.play(FadeIn(sides), FadeIn(axes), run_time=0.6)
            # The counts are under the grids, not read out too: the scene keeps within its length.
            self.say(f"Each time n doubles, {format_number(t.memory_growth[0], 0)} times the cells.")
            self.play(FadeIn(times, lag_ratio=0.3), run_time=1.2)
            self.say(
                "n queries times n keys: n² attention weights.", spoken="n queries times n keys: n squared attention weights."
            )
            self.play(FadeOut(axes), Write(equation))

    # --- 2. memory --------------------------------------------------------------------

    def show_memory(self, t):
        theme = self.theme
        with self.step("memory", "Memory of the attention weights"):
            self.clear()
            heading = self.heading("Memory of the attention weights")
            header = [
                label(theme, "tokens n", size=theme.body_size, color=theme.muted),
                label(theme, "weights n²", size=theme.body_size, color=theme.muted),
                label(theme, "memory, MiB (4n² bytes)", size=theme.body_size, color=theme.muted),
            ]
            rows = [
                [
                    self.number(f"lengths[{i}]", 0, size=theme.body_size, mono=False),
                    self.readable("weight", i, color=theme.key),
                    self.number(f"weight_mib[{i}]", 0, size=theme.body_size, color=theme.key, mono=False),
                ]
                for i in range(len(t.lengths))
            ]
            header, rows = self.table(header, rows, MEMORY_COLUMNS, top=2.1, row_gap=0.58)  # room for two lines of kept
            scope = label(theme, "one head, one layer, one text of n tokens, float32", size=theme.small_size, color=theme.muted)
            scope.next_to(VGroup(*rows[-1]), DOWN, buff=0.45).set_x(0)
            flash = label(theme, "FlashAttention (Dao et al. 2022): tiles, never all stored", size=theme.small_size)
            # Why the memory matters: a model keeps one such matrix per head per layer (training keeps them all
            # for the backward pass; dropout keeps another copy, so the count is a lower bound). "12 layers × 12 heads
            # = 144": "(12×12)" was never said to be layers and heads (review 17); "12 heads × 12 layers kept" read as
            # if layers were kept (review 14). "in float32" on this line too: in float16 it is half (review 17).
            small = {"size": theme.small_size, "color": theme.key}

            def count(source: str):
                return self.number(source, 0, mono=False, **small)

            kept = VGroup(
                VGroup(
                    label(theme, f"{t.layer_model}:", **small),
                    count("layer_count"),
                    label(theme, "layers ×", **small),
                    count("layer_heads"),
                    label(theme, "heads =", **small),
                    VGroup(count("kept_copies"), label(theme, ",", **small)).arrange(RIGHT, buff=0.03, aligned_edge=DOWN),
                    label(theme, "kept for training's backward pass:", **small),
                ).arrange(RIGHT, buff=0.14),
                VGroup(
                    label(theme, "at least", **small),
                    count("kept_mib"),
                    label(theme, "MiB in float32 per text of", **small),
                    count("context_length"),
                    label(theme, "tokens", **small),
                ).arrange(RIGHT, buff=0.14),
            ).arrange(DOWN, buff=0.12)
            for line in kept:  # words and numbers on one baseline: "12 heads × 12 layers" jumped (review 14)
                on_one_line([part for part in line.get_family() if isinstance(part, Text)])
            VGroup(scope, kept, flash).arrange(DOWN, buff=0.2).next_to(VGroup(*rows[-1]), DOWN, buff=0.3).set_x(0)

            self.say("A plain implementation stores every weight: in float32, 4 bytes each.")
            self.play(FadeIn(heading), FadeIn(header), FadeIn(scope))
            self.say(f"One head, one layer: {format_number(t.weight_mib[0], 0)} MiB at {format_number(t.lengths[0], 0)} tokens,")
            for row in rows:
                self.play(FadeIn(VGroup(*row), shift=UP * 0.15), run_time=0.5)  # 0.7: the short line waited on them
                if row is rows[0]:
                    self.say(f"and {format_number(t.weight_mib[-1], 0)} MiB at {format_number(t.lengths[-1], 0)} tokens.")
            self.show_context(t, rows, kept)
            self.say("FlashAttention works in tiles and never stores them all.")
            self.play(FadeIn(flash), run_time=0.5)
            self.highlight(VGroup(*[row[2] for row in rows]), buff=HIGHLIGHT_ROOM)

    def show_context(self, t, rows, kept: VGroup) -> None:
        """Mark the row of a real model's longest text, when it is one of the lengths, and show ``kept``: the memory
        of all that model's heads at that length."""
        lengths = [int(n) for n in t.lengths]
        if t.context_length not in lengths:
            return
        row = rows[lengths.index(t.context_length)]
        # On two lines: "GPT-2 small's context" on one ran past the frame's right edge.
        tag = VGroup(
            label(self.theme, f"← {t.context_model}'s", size=self.theme.small_size),
            label(self.theme, "context", size=self.theme.small_size),
        ).arrange(DOWN, buff=0.08, aligned_edge=LEFT)
        pin(tag.next_to(row[-1], RIGHT, buff=0.35), LEFT, TAG_ROOM)
        # "Training": said, not only shown, that the 576 MiB are training's, not a forward pass's (review 15); and
        # said per text of 1,024 tokens, as the screen says, not as if the whole training run's (review 18).
        self.say(
            f"Training {t.context_model} on a text of {format_number(t.context_length, 0)} tokens, its limit, keeps "
            f"{format_number(t.kept_copies, 0)} heads' weights: at least {format_number(t.kept_mib, 0)} MiB."
        )
        self.play(FadeIn(tag, shift=LEFT * 0.2), FadeIn(kept))

    # --- 3. multiply-adds --------------------------------------------------------------------

    def show_multiply_adds(self, t):
        theme = self.theme
        with self.step("multiply-adds", "Multiply-adds of one head"):
            self.clear()
            heading = self.heading("Multiply-adds of one head")
            width = self.corner("one head's width d", "d")
            # One column for Q Kᵀ and weights · V: their counts are the same, two equal columns were a wall (review 19).
            header = [
                label(theme, "tokens n", size=theme.body_size, color=theme.muted),
                label(theme, "QKᵀ, weights·V: n·n·d each", size=theme.body_size, color=theme.query),
                label(theme, "total 2n²d", size=theme.body_size, color=theme.highlight),
            ]
            # Counts as a person says them ("8.59 billion"), not ten digits each.
            rows = [
                [
                    self.number(f"lengths[{i}]", 0, size=theme.body_size, mono=False),
                    self.readable("qk", i, color=theme.query),
                    self.readable("total", i, color=theme.highlight),
                ]
                for i in range(len(t.lengths))
            ]
            header, rows = self.table(header, rows, (-5.4, -0.7, 4.3), top=2.05, row_gap=0.7)  # room for the note
            # The shapes multiplied, under their products' name: the voice says them (review 17).
            shapes = VGroup(
                label(theme, "n×d · d×n → n×n", size=theme.small_size, color=theme.query),
                label(theme, "n×n · n×d → n×d", size=theme.small_size, color=theme.query),
            ).arrange(RIGHT, buff=0.5)
            shapes.next_to(header[1], DOWN, buff=0.12)
            on_one_line(list(shapes))
            total = format_number(t.total_billions[-1], 2)

            # No blank start (review 19): the lengths come with the first line, each count as its line says it.
            self.say(f"The work grows the same way. Take one head, d = {t.d}.")
            self.play(FadeIn(heading), FadeIn(width), FadeIn(header[0]), FadeIn(VGroup(*[row[0] for row in rows])))
            self.say(
                "Q Kᵀ: an n × d matrix times a d × n one, n·n·d multiply-adds.",
                spoken="Q K transpose: an n by d matrix times a d by n one, n times n times d multiply-adds.",
            )
            self.play(FadeIn(header[1]), FadeIn(shapes[0]), FadeIn(VGroup(*[row[1] for row in rows]), lag_ratio=0.2))
            self.say(
                "The weights times V: n × n times n × d, n·n·d again.",
                spoken="The weights times V: n by n times n by d, n times n times d again.",
            )
            self.play(FadeIn(shapes[1]), FadeIn(header[2]), FadeIn(VGroup(*[row[2] for row in rows]), lag_ratio=0.2))
            self.say(
                f"At {format_number(t.lengths[-1], 0)} tokens: {total} billion multiply-adds, for one head.",
                spoken=f"At {format_number(t.lengths[-1], 0)} tokens: about "
                f"{format_number(t.total_billions[-1], 1)} billion multiply-adds, for one head.",
            )
            self.highlight(VGroup(*rows[-1]), buff=HIGHLIGHT_ROOM)
            # The projections named as step 5's rows name them, not W_Q (code-style in a caption, review 18); and
            # the list as step 5's: scaling and softmax named too (n² steps, not multiply-adds).
            note = self.aside(
                (
                    "Not counted here: the Q, K, V projections, the output projection,",  # one line was too wide
                    "which mixes the heads' outputs, and the feed-forward: they grow like n;",
                    "nor scaling and softmax: n² steps each, small beside 2n²d.",
                ),
                color=theme.value,
            )
            note[-1].set_color(theme.muted)  # not a part that grows like n: not in the colour of those
            # Short: the note on screen names each part (the scene keeps within its length).
            self.say("Not counted: the projections and the feed-forward, which grow like n.")
            self.play(FadeIn(note))

    # --- 4. doubling n ------------------------------------------------------------------

    def show_doubling(self, t):
        theme = self.theme
        ratio = format_number(t.relative_lengths[-1], 0)
        first = format_number(t.lengths[0], 0)
        with self.step("doubling-quadruples", "Doubling n quadruples the n × n work"):
            self.clear()
            heading = self.heading("Doubling n quadruples the n × n work")
            names = [format_number(n, 0) for n in t.lengths]
            max_value = float(t.relative_macs.max())
            quadratic = self.bars(
                "relative_macs", names, 0, height=3.6, spacing=2.2, bar_width=0.55, color=theme.query, max_value=max_value
            )
            linear = self.bars(
                "relative_lengths", names, 0, height=3.6, spacing=2.2, bar_width=0.55, color=theme.value, max_value=max_value
            )
            linear.remove(linear.labels)  # the n labels are drawn once, under the pairs of bars
            linear.shift(PAIR_OFFSET)
            VGroup(quadratic, linear).move_to(PICTURE_AT)
            quadratic.labels.shift(PAIR_OFFSET / 2 + DOWN * LABEL_DROP)  # under the middle of each pair
            axis = label(theme, "tokens n", size=theme.small_size, color=theme.muted)  # the axis named (review 14)
            axis.next_to(quadratic.labels, DOWN, buff=0.75)  # under the "×4" marks: left of "512" it read "tokens n 512"
            growth = VGroup()
            for i in range(len(t.growth)):
                step = VGroup(
                    label(theme, "×", size=theme.small_size, color=theme.highlight),
                    self.number(f"growth[{i}]", 0, color=theme.highlight, mono=False),  # exactly 4: no false decimals
                ).arrange(RIGHT, buff=0.05)
                step.move_to((quadratic.labels[i].get_center() + quadratic.labels[i + 1].get_center()) / 2 + DOWN * 0.5)
                growth.add(step)
            legend = VGroup(
                VGroup(
                    label(theme, "attention:", size=theme.small_size, color=theme.query),
                    formula(theme, r"2n^2d", size=theme.min_formula_size).set_color(theme.query),
                    label(theme, f"÷ its value at {first} tokens", size=theme.small_size, color=theme.query),
                ).arrange(RIGHT, buff=0.15),
                label(theme, "a cost that grows like n", size=theme.small_size, color=theme.value),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
            legend.next_to(heading, DOWN, buff=0.35).align_to(heading, LEFT)

            # Said as a division (review 15): "each count over the one at 512" was hard to parse by ear.
            # Which bar is which (review 19): one real cost, and beside it only a reference that grows like n.
            self.say(
                f"Attention's work ÷ its value at {first} tokens; for comparison, a cost that grows like n.",
                spoken=f"Attention's work divided by its value at {first} tokens; for comparison, a cost that grows like n.",
            )
            self.play(FadeIn(heading), FadeIn(legend), FadeIn(quadratic.labels), FadeIn(axis))
            self.play(GrowFromEdge(quadratic.bars, DOWN), GrowFromEdge(linear.bars, DOWN), run_time=1.5)
            self.play(FadeIn(quadratic.numbers), FadeIn(linear.numbers))
            self.say(f"Each doubling of n multiplies this n × n work by {format_number(t.growth[0], 0)}, every time.")
            self.play(FadeIn(growth, lag_ratio=0.3), run_time=1.5)
            # One line for both last bars: two lines said the comparison at more length (the scene keeps its length).
            self.say(
                f"{ratio} times the tokens cost {format_number(t.relative_macs[-1], 0)} times the multiply-adds; "
                f"a cost linear in n, only {ratio} times."
            )
            # The numbers outlined, not the bars with them: round both, the outlines overlapped each other and the
            # "8,192" under the bars (review 19).
            self.highlight(quadratic.numbers[-1], buff=HIGHLIGHT_ROOM)
            self.highlight(linear.numbers[-1], color=theme.value, buff=HIGHLIGHT_ROOM)

    # --- 5. a whole layer ------------------------------------------------------------------

    def show_layer(self, t):
        theme = self.theme
        short, long = (format_number(n, 0) for n in t.layer_lengths)
        ratio = format_number(t.layer_ff_ratio, 0)
        with self.step("whole-layer", "A whole layer, not just the n × n part"):
            self.clear()
            heading = self.heading(f"A whole layer of {t.layer_model}")
            # Each width named in words, as the captions and the voice say them ("the model width"), then its symbol.
            sizes = VGroup(
                VGroup(
                    label(theme, "model width", size=theme.small_size, color=theme.muted),
                    formula(theme, r"d_\text{model} ="),
                    self.number("layer_d_model", 0, size=theme.body_size, mono=False),
                ),
                VGroup(
                    label(theme, "=", size=theme.small_size, color=theme.muted),
                    self.number("layer_heads", 0, size=theme.small_size, color=theme.muted),
                    label(theme, "heads ×", size=theme.small_size, color=theme.muted),
                    self.number("layer_d_head", 0, size=theme.small_size, color=theme.muted),
                ),
                VGroup(
                    label(theme, "feed-forward width", size=theme.small_size, color=theme.muted),
                    formula(theme, r"d_\text{ff} ="),
                    self.number("layer_d_ff", 0, size=theme.body_size, mono=False),
                ),
            )
            for pair in sizes:
                pair.arrange(RIGHT, buff=0.12)
            sizes.arrange(RIGHT, buff=0.3)  # 0.5 with "model width" added ran past the frame's right edge
            sizes.next_to(heading, DOWN, buff=0.25).align_to(heading, LEFT)
            quadratic = (1, 2)
            header = [
                label(theme, "multiply-adds, billions", size=theme.small_size, color=theme.muted),
                label(theme, f"n = {short}", size=theme.body_size, color=theme.muted),
                label(theme, f"n = {long} *", size=theme.body_size, color=theme.muted),
            ]
            rows = [
                [
                    label(theme, part, size=theme.small_size, color=theme.query if p in quadratic else theme.value),
                    self.number(f"layer_gmacs[0, {p}]", 2, size=theme.small_size),
                    self.number(f"layer_gmacs[1, {p}]", 2, size=theme.small_size),
                ]
                for p, part in enumerate(t.layer_parts)
            ]
            rows.append(
                [
                    label(theme, "whole layer", size=theme.small_size, color=theme.highlight),
                    self.number("layer_total_gmacs[0]", 2, size=theme.small_size, color=theme.highlight),
                    self.number("layer_total_gmacs[1]", 2, size=theme.small_size, color=theme.highlight),
                ]
            )
            rows.append(
                [
                    label(theme, "n × n part's share", size=theme.small_size, color=theme.query),
                    *[
                        VGroup(
                            self.number(f"layer_quadratic_percent[{i}]", 0, size=theme.small_size, color=theme.query),
                            label(theme, "%", size=theme.small_size, color=theme.query),
                        ).arrange(RIGHT, buff=0.08)
                        for i in range(2)
                    ],
                ]
            )
            # Rows closer (0.47, a drop of 0.85): room for the footnote under them.
            header, rows = self.table(header, rows, (-3.3, 1.2, 4.2), top=1.8, row_gap=0.43, drop=0.65)
            growth = VGroup(
                label(theme, "double n: the whole layer ×", size=theme.small_size, color=theme.highlight),
                VGroup(  # the semicolon tight on its number: "× 2.36 ;" had a stray space (review 14)
                    self.number("layer_growth", 2, size=theme.small_size, color=theme.highlight, mono=False),
                    label(theme, ";", size=theme.small_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.03),
                label(theme, "the n × n part ×", size=theme.small_size, color=theme.query),
                self.number("growth[0]", 0, size=theme.small_size, color=theme.query, mono=False),
            ).arrange(RIGHT, buff=0.15)
            on_one_line([part for part in growth.get_family() if isinstance(part, Text)])
            growth.next_to(VGroup(*rows[-1]), DOWN, buff=0.25).set_x(0)
            # What the shares count, here where they are shown (review 17: GPT-2 is causal), in two lines, said aloud
            # as they appear: three small grey lines under the table were never read (review 18).
            note = self.aside(
                (
                    f"* {long} tokens: past {t.context_model}'s {short}-token limit; a layer of the same sizes.",
                    "All n² scores counted, even causally masked ones; not biases, norms, softmax.",
                )
            )
            # What the rows' colours mean, beside the heading: step 4's green bar was a made-up linear cost (review 17).
            key = VGroup(
                *[
                    VGroup(
                        Square(CELL, stroke_width=0, fill_color=color, fill_opacity=1),
                        label(theme, words, size=theme.small_size, color=color),
                    ).arrange(RIGHT, buff=0.12)
                    for color, words in ((theme.query, "grows like n²"), (theme.value, "grows like n"))
                ]
            ).arrange(RIGHT, buff=0.6)
            # Under the table, not squeezed beside the heading (review 19): the sizes line has the top to itself.
            key.next_to(growth, DOWN, buff=0.2).set_x(0)
            share = format_number(100 * t.layer_quadratic_share[0], 0)

            # Widths in words in the captions, not d_ff and d_model (code-style there, review 18).
            self.say(
                f"Now a whole {t.layer_model} layer: model width {format_number(t.layer_d_model, 0)}, "
                f"feed-forward width {format_number(t.layer_d_ff, 0)}."
            )
            # The parts' names come with the header, their numbers as each is said: the empty table waited 14 s
            # (review 14); and the whole layer's total only once all its parts are on screen (it came before them).
            parts = range(len(t.layer_parts))
            self.play(FadeIn(heading), FadeIn(key), FadeIn(sizes), FadeIn(header), FadeIn(VGroup(*[rows[p][0] for p in parts])))
            # The footnote said as it appears (review 18); the 2,048 column's limit is its first line, shown.
            self.say(
                "Counted as plain code: all n² scores, even masked ones; not biases, norms or softmax.",
                spoken="Counted as plain code: all n squared scores, even masked ones; not biases, norms or softmax.",
            )
            self.play(FadeIn(note))
            # The feed-forward costs 2 n d_model d_ff: like n × d_model² only because d_ff is 4 d_model (say so).
            self.say(
                f"With the feed-forward {ratio} times the model width, as in GPT-2, projections and feed-forward "
                "grow like n × width²: linear in n.",
                spoken=f"With the feed-forward {ratio} times the model width, as in GPT-2, projections and feed-forward "
                "grow like n times the width squared: linear in n.",
            )
            self.play(*[FadeIn(VGroup(*rows[p][1:])) for p in parts if p not in quadratic], run_time=1.0)
            # The cost per head, then the heads: "n² × d_model: 12 heads of 64" ended on a tag hard to follow (review 18).
            self.say(
                f"Q Kᵀ and weights · V, the n × n part: each costs {t.layer_heads} heads × n² × {t.layer_d_head}.",
                spoken=f"Q K transpose and the weights times V, the n by n part: each costs {t.layer_heads} heads "
                f"times n squared times {t.layer_d_head}.",
            )
            self.play(*[FadeIn(VGroup(*rows[p][1:])) for p in quadratic], run_time=1.0)
            self.say(
                f"At {short} tokens the n × n part is only {share} percent of the layer.",
                spoken=f"At {short} tokens the n by n part is only {share} percent of the layer.",
            )
            self.play(FadeIn(VGroup(*rows[-2])), FadeIn(VGroup(*rows[-1][:2])))
            self.say(
                f"So doubling n multiplies the whole layer by {format_number(t.layer_growth, 2)}, "
                f"not {format_number(t.growth[0], 0)}; the n × n share grows to "
                f"{format_number(t.layer_quadratic_percent[1], 0)} percent.",
                spoken=f"So doubling n multiplies the whole layer by {format_number(t.layer_growth, 2)}, "
                f"not {format_number(t.growth[0], 0)}; the n by n share grows to "
                f"{format_number(t.layer_quadratic_percent[1], 0)} percent.",
            )
            self.play(FadeIn(VGroup(*rows[-1][2:])), FadeIn(growth, shift=UP * 0.2))

    # --- 6. the width d ---------------------------------------------------------------

    def show_width(self, t):
        theme = self.theme
        with self.step("width-is-linear", "Doubling d only doubles the n × n work"):
            self.clear()
            heading = self.heading("Doubling d only doubles the n × n work")
            fixed = self.corner("n", "width_n")
            fixed.next_to(heading, DOWN, buff=0.25).align_to(heading, LEFT)  # the long title fills the top line
            header = [
                label(theme, "one head's width d", size=theme.body_size, color=theme.muted),
                label(theme, "weights n²", size=theme.body_size, color=theme.key),
                label(theme, "work 2n²d", size=theme.body_size, color=theme.query),
                label(theme, "× previous", size=theme.body_size, color=theme.muted),
            ]
            rows = []
            for i in range(len(t.widths)):
                row = [
                    self.number(f"widths[{i}]", 0, size=theme.body_size, mono=False),
                    self.readable("width_weight", i, color=theme.key),
                    self.readable("width_macs", i, color=theme.query),
                ]
                if i:
                    row.append(
                        VGroup(
                            label(theme, "×", size=theme.body_size),
                            self.number(f"width_growth[{i - 1}]", 0, size=theme.body_size, mono=False),  # exactly 2
                        ).arrange(RIGHT, buff=0.05)
                    )
                rows.append(row)
            header, rows = self.table(header, rows, (-4.3, -0.9, 2.2, 4.9), top=1.85, row_gap=0.58, drop=0.65)

            # d here is one head's width; the projections grow with the model's width d_model, a different d.
            # Then a frame of its own, said (the table above is one head, review 18): a whole layer whose heads are
            # twice as wide, part by part, so the n × n part's ×2 and the rest's ×4 are shown, not only told (review
            # 18). Not GPT-2 small's layer but one of its shape twice as wide: its widths shown (review 15).
            small = theme.small_size

            def cell(*parts, color: str) -> VGroup:
                """Words (str) and trace numbers ((path, decimals)) in ``color``, on one baseline: a comma or "%"
                tight on the number before it, a number tight on the "×" before it."""
                texts = [
                    label(theme, part, size=small, color=color)
                    if isinstance(part, str)
                    else self.number(part[0], part[1], size=small, color=color, mono=False)
                    for part in parts
                ]
                for before, after, part, previous in zip(texts, texts[1:], parts[1:], parts):
                    tight = (isinstance(part, str) and part[0] in ",:%") or (isinstance(previous, str) and previous[-1] == "×")
                    after.next_to(before, RIGHT, buff=0.04 if tight else 0.12)
                on_one_line(texts)
                return VGroup(*texts)

            intro = cell(
                f"a {t.layer_model} layer, twice as wide: its",
                ("layer_heads", 0),
                "heads",
                ("layer_d_head", 0),
                "→",
                ("layer_wide_d_head", 0),
                "wide, d_ff ×",
                ("layer_wide_factor", 0),
                color=theme.text,
            )
            # Name, narrow layer, "→", wide layer, growth: one row per part, the parts adding up to the whole.
            parts = [
                ("multiply-adds (billions) at d_model", ("layer_d_model", 0), ("layer_wide_d_model", 0), None, theme.muted),
                (
                    "n × n part",
                    ("layer_wide_quadratic_gmacs[0]", 2),
                    ("layer_wide_quadratic_gmacs[1]", 2),
                    ("layer_wide_quadratic_growth", 0),
                    theme.query,
                ),
                (
                    "projections, feed-forward",
                    ("layer_wide_linear_gmacs[0]", 2),
                    ("layer_wide_linear_gmacs[1]", 2),
                    ("projection_width_growth", 0),
                    theme.value,
                ),
                (
                    "whole layer",
                    ("layer_total_gmacs[0]", 2),
                    ("layer_wide_total_gmacs", 2),
                    ("layer_wide_growth", 2),
                    theme.highlight,
                ),
                (
                    "n × n share",
                    ("layer_wide_quadratic_percent[0]", 0),
                    ("layer_wide_quadratic_percent[1]", 0),
                    None,
                    theme.query,
                ),
            ]
            table = []
            for r, (name, narrow, wide, growth, color) in enumerate(parts):
                unit = ("%",) if name == "n × n share" else ()
                row = [
                    label(theme, name, size=small, color=color),
                    cell(narrow, *unit, color=color),
                    label(theme, "→", size=small, color=color),
                    cell(wide, *unit, color=color),
                ]
                if growth is not None:
                    row.append(cell("×", growth, color=color))
                y = WIDE_TOP - WIDE_GAP * r
                row[0].move_to([WIDE_COLUMNS[0], y, 0]).align_to([WIDE_COLUMNS[0], 0, 0], RIGHT)
                for text, x in zip(row[1:4], WIDE_COLUMNS[1:4]):
                    text.move_to([x, y, 0])
                if growth is not None:
                    row[4].move_to([WIDE_COLUMNS[4], y, 0]).align_to([WIDE_COLUMNS[4], 0, 0], LEFT)
                on_one_line([part for text in row for part in text.get_family() if isinstance(part, Text)])
                table.append(VGroup(*row))
            intro.next_to(table[0], UP, buff=WIDE_GAP - table[0].height / 2).set_x(0)
            VGroup(intro, *table).move_to(PICTURE_AT)  # where the one-head table was: it fades first (review 19)

            self.say(f"Now one head's width d, at {format_number(t.width_n, 0)} tokens.")
            self.play(FadeIn(heading), FadeIn(fixed), FadeIn(header))
            self.say(
                f"Doubling d from {format_number(t.widths[0], 0)} to {format_number(t.widths[-1], 0)} "
                f"multiplies the n × n work by {format_number(t.width_growth[0], 0)} each time."
            )
            for row in rows:
                self.play(FadeIn(VGroup(*row), shift=UP * 0.15), run_time=0.8)
            self.say("And the n × n attention weights do not grow at all.")
            self.highlight(VGroup(header[1], *[row[1] for row in rows]), color=theme.key, buff=HIGHLIGHT_ROOM)
            # With the number of heads fixed, a head twice as wide is a model twice as wide: said, with the
            # feed-forward's doubling, which the ×4 needs (review 12).
            # "made twice as wide", and its model width said: heard alone, "a GPT-2 small layer" was the real one (review 19).
            self.say(
                f"Now a {t.layer_model} layer made twice as wide: model width {format_number(t.layer_wide_d_model, 0)}, "
                f"{t.layer_heads} heads {t.layer_wide_d_head} wide:"
            )
            # One table at a time: the one-head table goes before the layer's comes (two stacked were heavy, review 19).
            self.play(FadeOut(header), *[FadeOut(VGroup(*row)) for row in rows], run_time=0.3)
            self.play(FadeIn(intro, shift=UP * 0.15), FadeIn(table[0], shift=UP * 0.15))
            self.say(
                f"the n × n part costs {format_number(t.layer_wide_quadratic_growth, 0)} times, "
                f"the rest {format_number(t.projection_width_growth, 0)} times,"
            )
            self.play(FadeIn(table[1], shift=UP * 0.15))
            self.play(FadeIn(table[2], shift=UP * 0.15))
            # The step's point said, not only shown: widening makes the n × n share smaller (review 19).
            self.say(
                f"the whole layer {format_number(t.layer_wide_growth, 2)} times: the n × n share falls from "
                f"{format_number(t.layer_wide_quadratic_percent[0], 0)} to {format_number(t.layer_wide_quadratic_percent[1], 0)} percent.",
                spoken=f"the whole layer {format_number(t.layer_wide_growth, 2)} times: the n by n share falls from "
                f"{format_number(t.layer_wide_quadratic_percent[0], 0)} to {format_number(t.layer_wide_quadratic_percent[1], 0)} percent.",
            )
            self.play(FadeIn(table[3], shift=UP * 0.15), FadeIn(table[4], shift=UP * 0.15))

    # --- 7. where the n × n part is half ---------------------------------------------------

    def show_half(self, t):
        """Where the n × n part catches up with the rest of a layer: 2n²·d_model = (4d_model² + 2d_model·d_ff)·n."""
        theme = self.theme
        d_model, d_ff, half = (format_number(v, 0) for v in (t.layer_d_model, t.layer_d_ff, t.layer_half_n))
        with self.step("half-the-layer", "When the n × n part is half a layer"):
            self.clear()
            heading = self.heading(f"When the n × n part is half of a {t.layer_model} layer")

            def worded(words: str, tex: str, color: str, *more) -> VGroup:
                """Words, then a formula, in one colour on one line (and ``more`` after them)."""
                return VGroup(label(theme, words, color=color), formula(theme, tex).set_color(color), *more).arrange(
                    RIGHT, buff=0.25
                )

            quadratic = worded("n × n part:", r"2\,n^2\,d_\text{model}", theme.query)
            rest = worded(
                "the rest:",
                r"(4\,d_\text{model}^2 + 2\,d_\text{model}\,d_\text{ff})\;n",
                theme.value,
                # Where the 4 and the 2 come from (review 19): d_model² per projection, d_model·d_ff per matrix.
                VGroup(
                    label(theme, "4: Q, K, V, output projections", size=theme.small_size, color=theme.muted),
                    label(theme, "2: the feed-forward's two matrices", size=theme.small_size, color=theme.muted),
                ).arrange(DOWN, aligned_edge=LEFT, buff=0.08),
            )
            # The algebra shown, not only said (review 18): both sides set equal, then divided by 2n·d_model.
            equal = worded(
                "equal when",
                r"2\,n^2\,d_\text{model} = (4\,d_\text{model}^2 + 2\,d_\text{model}\,d_\text{ff})\;n",
                theme.highlight,
            )
            divided = worded(
                "divide by",
                r"2\,n\,d_\text{model}{:}\quad n = 2\,d_\text{model} + d_\text{ff}",
                theme.highlight,
            )
            numbers = VGroup(
                label(theme, "n = 2 ×", color=theme.highlight),
                self.number("layer_d_model", 0, size=theme.body_size, color=theme.highlight, mono=False),
                label(theme, "+", color=theme.highlight),
                self.number("layer_d_ff", 0, size=theme.body_size, color=theme.highlight, mono=False),
                label(theme, "=", color=theme.highlight),
                self.number("layer_half_n", 0, size=theme.body_size, color=theme.highlight, mono=False),
                label(theme, "tokens *", color=theme.highlight),  # its footnote comes with it
            ).arrange(RIGHT, buff=0.25)  # room for the outline round 4,608
            on_one_line([part for part in numbers.get_family() if isinstance(part, Text)])  # "3,072" rose above "768"
            check = VGroup(
                label(theme, "there, each:", size=theme.small_size, color=theme.muted),
                self.number("layer_half_billions[0]", 1, size=theme.small_size, color=theme.query, mono=False),
                label(theme, "billion and", size=theme.small_size, color=theme.muted),
                self.number("layer_half_billions[1]", 1, size=theme.small_size, color=theme.value, mono=False),
                label(theme, "billion multiply-adds", size=theme.small_size, color=theme.muted),
            ).arrange(RIGHT, buff=0.12)
            lines = VGroup(quadratic, rest, equal, divided, numbers, check).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
            lines.move_to(TAKEAWAY_AT)
            keep_inside(lines)
            # Captions in words, not d_model and d_ff (code-style there, review 18): the formulas are on screen.
            self.say(
                "When is the n × n part half a layer? Over all heads it costs 2n² × the model width.",
                spoken="When is the n by n part half a layer? Over all heads it costs two n squared times the model width.",
            )
            self.play(FadeIn(heading), FadeIn(quadratic, shift=UP * 0.2))
            self.say("The rest, linear in n: 4 projections and the feed-forward's 2 matrices.")
            self.play(FadeIn(rest, shift=UP * 0.2))
            self.say(
                f"Equal when n is twice the model width plus the feed-forward width: 2 × {d_model} + {d_ff} = {half} tokens.",
                spoken=f"Equal when n is twice the model width plus the feed-forward width: "
                f"two times {d_model} plus {d_ff}, that is {half} tokens.",
            )
            self.play(FadeIn(equal, shift=UP * 0.2))
            self.play(FadeIn(divided, shift=UP * 0.2))
            self.play(FadeIn(numbers, shift=UP * 0.2))
            # The check and the limit are read off the screen, not said: the scene keeps within three minutes.
            # GPT-2 is causal: a kernel that skips the masked half would move the crossover (review 15). Said in full
            # at step 5, where the counts are first shown; here one line, readable (three were crowded, review 17).
            limit = self.aside(
                (
                    f"* {half} tokens: past {t.context_model}'s {format_number(t.context_length, 0)}-token limit; "
                    "all n² scores counted.",
                )
            )
            self.play(FadeIn(check), FadeIn(limit))
            self.highlight(numbers[-2], buff=0.1)

    # --- 8. takeaway -----------------------------------------------------------------------

    def show_takeaway(self, t):
        theme = self.theme
        with self.step("takeaway", "Why attention costs O(n²)"):
            self.clear()
            heading = self.heading("Why attention costs O(n²)")
            lines = (
                VGroup(
                    # In the words' font, as the other lines: LaTeX here mixed two faces (review 17).
                    VGroup(
                        label(theme, "memory:", color=theme.key),
                        label(theme, "n² weights = O(n²)"),
                        label(theme, "if stored whole", size=theme.small_size, color=theme.muted),
                    ).arrange(RIGHT, buff=0.3),
                    VGroup(label(theme, "work:", color=theme.query), label(theme, "2n²d multiply-adds = O(n²d)")).arrange(
                        RIGHT, buff=0.3
                    ),
                    VGroup(
                        label(theme, "double n  →  n × n part ×", color=theme.highlight),
                        self.number("growth[0]", 0, size=theme.body_size, color=theme.highlight, mono=False),
                    ).arrange(RIGHT, buff=0.15),
                    VGroup(
                        VGroup(
                            label(theme, f"n × n part: half of a layer of {t.layer_model}'s sizes at n =", color=theme.query),
                            self.number("layer_half_n", 0, size=theme.body_size, color=theme.query, mono=False),
                            label(theme, "tokens", color=theme.query),
                        ).arrange(RIGHT, buff=0.15),
                        VGroup(
                            label(theme, f"past {t.context_model}'s limit of", size=theme.small_size, color=theme.muted),
                            self.number("context_length", 0, size=theme.small_size, color=theme.muted, mono=False),
                            label(theme, "tokens", size=theme.small_size, color=theme.muted),
                        ).arrange(RIGHT, buff=0.1),
                    ).arrange(DOWN, aligned_edge=LEFT, buff=0.12),
                    VGroup(
                        label(theme, "FlashAttention: never stored whole, still of order n²·d work"),
                        label(theme, "Reformer, Longformer: only part of the matrix"),
                    ).arrange(DOWN, aligned_edge=LEFT, buff=0.25),
                )
                .arrange(DOWN, buff=0.45, aligned_edge=LEFT)
                .move_to(TAKEAWAY_AT)
            )
            for row in (lines[0], lines[1], *lines[3]):  # "= 4,608 tokens" jumped between words and numbers (review 14)
                on_one_line([part for part in row.get_family() if isinstance(part, Text)])
            if lines.width > CONTENT_WIDTH - 0.1:  # only a much longer line than these would reach the frame's edges
                lines.scale_to_fit_width(CONTENT_WIDTH - 0.1)
            # Memory and work in one line, FlashAttention and the others in one: a shorter recap (the scene keeps
            # within its length).
            self.say(
                "Stored whole, the weights take memory of order n²; the work grows with n²·d.",
                spoken="Stored whole, the weights take memory of order n squared; the work grows with n squared times d.",
            )
            self.play(FadeIn(heading), FadeIn(lines[0], shift=UP * 0.2), run_time=0.8)
            self.play(FadeIn(lines[1], shift=UP * 0.2), run_time=0.8)
            self.say(f"Double the context: the n × n part costs {format_number(t.growth[0], 0)} times as much.")
            self.play(FadeIn(lines[2], shift=UP * 0.2), run_time=0.8)
            # The whole layer's ×2.36 is step 5's finding, not repeated here: the scene keeps within three minutes.
            # Half of a layer's work, as the screen says, not of "the work" (review 14), and past the model's limit:
            # no longer than the line it replaced (the silent build keeps within its length).
            self.say(
                f"The n² part reaches half a layer's work at {format_number(t.layer_half_n, 0)} tokens, "
                f"past {t.context_model}'s limit.",
                spoken=f"The n squared part reaches half a layer's work at {format_number(t.layer_half_n, 0)} tokens, "
                f"past {t.context_model}'s limit.",
            )
            self.play(FadeIn(lines[3], shift=UP * 0.2), run_time=0.8)
            self.say(
                "FlashAttention never stores it whole, but still does work of order n²·d; Reformer and Longformer "
                "compute only part of it.",
                spoken="FlashAttention never stores it whole, but still does work of order n squared times d; Reformer "
                "and Longformer compute only part of it.",
            )
            # Each method's line as it is said: the Reformer line waited on screen while FlashAttention was read.
            self.play(FadeIn(lines[4][0], shift=UP * 0.2), run_time=0.8)
            self.play(FadeIn(lines[4][1], shift=UP * 0.2), run_time=0.8)
