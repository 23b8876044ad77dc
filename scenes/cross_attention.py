"""Cross-attention: a decoder's queries attend to an encoder's English keys and values.

Follows seed 000 (the translation "The cat sat on the mat" -> "El gato se sentó en
la alfombra", "When translating 'gato': focus on 'cat'"; "Regular attention:
Source -> Target"), seed 004 slide 12 (``CrossAttention``: Q from the decoder
state, K and V from the encoder output) and seed 002 ("different Q vs K,V
sources"). As in training, the decoder reads the translation shifted right by one:
the position that reads "El" writes "gato", and it is that position's query that
looks for "cat". The vectors are toy ones built so that each decoder query points
at the English partner of the word it writes (see
:func:`attention_math.traces.cross_attention.cross_attention_trace`).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attention_math import DEFAULT_SEED
from attention_math.traces.cross_attention import cross_attention_trace

from .kit import ExplainerScene
from .kit.heatmaps import AxisLabels, Cells, weights_heatmap
from .kit.layout import LEFT_EDGE, RIGHT_EDGE, keep_inside, pin
from .kit.scene import Shown
from .kit.tables import TokenRow
from .kit.text import formula, label
from .kit.worked_sums import WeightedSum
from .theme import format_number

SOURCE_ROW_AT = UP * 1.7
"""Where the encoder's English words are, above the decoder's two rows."""
COLUMNS_AT = DOWN * 1.3
"""Where the decoder's columns (what it writes over what it reads) are, before they move right of their names."""
TABLE_LINE = 0.56
"""Height of a line of the toy table (who looks at whom)."""
TABLE_GAP = 0.3
"""Between the toy table's columns."""
SCORES_AT = RIGHT * 0.9 + UP * 1.45
"""Where one query's row of scores is, its name left of it and its weights under it."""
SUM_AT = DOWN * 0.35
"""Where the weighted sum is centred, before it is kept inside the edges."""
SHOWN_COLUMNS = 2
"""Numbers shown of each 5-number row of Q, K and V (the rest elided): fewer, larger cells."""
ROUNDED = "≈ by hand: the numbers shown are rounded, so their sum can be 0.01 off"
"""Under the weighted sum, whose output comes from the unrounded rows."""
ELLIPSIS_ROOM = 0.4
"""Room for the "⋯" right of an elided row of the weighted sum."""
READ_LEAST = 0.05
"""The smallest weight of a compared row printed in the self vs cross step (the rest: colour only)."""
MATRIX_AT = DOWN * 0.45 + RIGHT * 0.6
"""Where the weight matrix is centred: right of the middle, for the long decoder names left of it."""


class CrossAttentionScene(ExplainerScene):
    name = "cross-attention"
    title = "Cross-attention in translation"
    description = "A decoder's 7 queries attend to the encoder's 6 English keys and values: a 7×6 weight matrix."
    sources = "Vaswani et al. 2017, 3.2.3 (encoder-decoder attention); toy vectors built so translations align"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return cross_attention_trace(seed)

    def construct(self):
        t = self.trace
        self.english = t.key_tokens
        i = t.focus
        self.reads, self.writes = t.query_tokens[i], t.target_tokens[i]
        self.partner = self.english[t.alignment[i]]
        # A decoder position is named by what it reads and what it writes: "El → gato".
        self.positions = [f"{read} → {write}" for read, write in zip(t.query_tokens, t.target_tokens)]
        self.two_sentences()
        self.toy_vectors()
        self.queries_and_keys()
        self.one_query()
        self.weighted_sum()
        self.weight_matrix()
        self.self_versus_cross()

    def elided_grid(self, source: str, **kwargs):
        """The first :data:`SHOWN_COLUMNS` columns of the trace's matrix ``source``, an ellipsis right of them."""
        theme = self.theme
        grid = self.grid(f"{source}[:, 0:{SHOWN_COLUMNS}]", 2, **kwargs)
        grid.more = label(theme, "⋯", size=theme.body_size, color=theme.muted).next_to(grid.cells, RIGHT, buff=0.12)
        grid.add(grid.more)
        return grid

    def numbers_read(self, source: str, heatmap, cells) -> VGroup:
        """The numbers of ``heatmap`` (the trace's ``source``) at ``cells``: the only ones a line reads, the only ones shown.

        The heatmap's record of every number shown gives way to one record per number drawn: the rest stay
        off screen, their weights carried by the colour.
        """
        self.shown = [shown for shown in self.shown if shown.texts[0] is not heatmap.numbers[0]]
        numbers = VGroup()
        for r, j in cells:
            self.shown.append(Shown(f"{source}[{r}, {j}]", (heatmap.number(r, j),), 2))
            numbers.add(heatmap.number(r, j))
        return numbers

    @staticmethod
    def without_numbers(named_map: VGroup) -> VGroup:
        """A weight map's name, labels and coloured cells, its numbers left for the lines that read them."""
        name, heatmap = named_map
        return VGroup(name, heatmap.row_labels, heatmap.col_labels, heatmap.cells)

    # --- the steps --------------------------------------------------------------------

    def two_sentences(self):
        """Step 1: the encoder's English, the decoder's Spanish shifted right, and which word it should look at."""
        t, theme, i = self.trace, self.theme, self.trace.focus
        with self.step("two-sentences", "Two sentences: encoder and decoder"):
            heading = self.heading("Cross-attention: translating")
            source_row = TokenRow(theme, self.english, color=theme.key, size=theme.body_size, buff=0.35).move_to(SOURCE_ROW_AT)
            writes_row = TokenRow(theme, t.target_tokens, size=theme.small_size, buff=0.3)
            reads_row = TokenRow(theme, t.query_tokens, color=theme.query, size=theme.small_size, buff=0.3)
            # One column per decoder position: what it reads under what it writes.
            columns = VGroup(*[VGroup(w, r).arrange(DOWN, buff=0.5) for w, r in zip(writes_row, reads_row)]).arrange(
                RIGHT, buff=0.2
            )
            names = VGroup(
                label(theme, "encoder reads", size=theme.small_size, color=theme.key),
                label(theme, "decoder writes", size=theme.small_size),
                label(theme, "decoder reads", size=theme.small_size, color=theme.query),
            )
            # The names in a column at the left edge, the words to their right.
            columns.move_to(COLUMNS_AT)
            columns.shift(RIGHT * (LEFT_EDGE + names.width + 0.4 - columns.get_left()[0]))
            source_row.set_x(columns.get_x())
            for name, row in zip(names, (source_row, VGroup(*[c[0] for c in columns]), VGroup(*[c[1] for c in columns]))):
                pin(name, LEFT, y=row.get_y())
            steps_up = VGroup(
                *[
                    label(theme, "↑", size=theme.small_size, color=theme.muted).move_to((w.get_bottom() + r.get_top()) / 2)
                    for w, r in columns
                ]
            )
            focus_box = SurroundingRectangle(columns[i], color=theme.highlight, buff=0.08)
            arrow = Arrow(columns[i].get_top(), source_row[t.alignment[i]].get_bottom(), color=theme.highlight, buff=0.12)
            quote = label(
                theme, f"writing “{self.writes}”: look at “{self.partner}”", size=theme.small_size, color=theme.highlight
            )
            quote.next_to(arrow.get_center(), RIGHT, buff=0.4)
            self.say("Translation has two sequences.")
            self.play(FadeIn(heading))
            self.say("The encoder reads the whole English sentence.")
            self.play(FadeIn(names[0]), FadeIn(source_row, lag_ratio=0.1), run_time=1.5)
            self.say("The decoder writes the Spanish one, a word per position.")
            self.play(FadeIn(names[1]), FadeIn(VGroup(*[c[0] for c in columns]), lag_ratio=0.1), run_time=1.5)
            self.say(
                "In training it reads the translation shifted right by one, after a start token <s>.",
                spoken="In training it reads the translation shifted right by one, after a start token.",
            )
            self.play(FadeIn(names[2]), FadeIn(steps_up), FadeIn(VGroup(*[c[1] for c in columns]), lag_ratio=0.1), run_time=1.5)
            self.say(f"So the position that reads “{self.reads}” must write “{self.writes}”.")
            self.play(FadeIn(focus_box))
            self.say(f"To write “{self.writes}” it should look at “{self.partner}”: cross-attention is how it looks.")
            self.play(GrowFromEdge(arrow, DOWN), FadeIn(quote))

    def toy_vectors(self):
        """Step 2: the toy vectors, built so that each decoder query points at its partner."""
        t, theme, i = self.trace, self.theme, self.trace.focus
        with self.step("toy-vectors", "Toy vectors, not a trained model"):
            self.clear()
            heading = self.heading("Toy vectors, not a trained model")
            table = VGroup()
            for q, k in enumerate(t.alignment):
                table.add(
                    VGroup(
                        label(theme, self.positions[q], size=theme.small_size, color=theme.query),
                        label(theme, "looks at", size=theme.small_size, color=theme.muted),
                        label(theme, self.english[k], size=theme.small_size, color=theme.key),
                    )
                )
            reads_right = max(row[0].width for row in table)
            for r, row in enumerate(table):
                row[0].move_to([reads_right - row[0].width / 2, -r * TABLE_LINE, 0])
                row[1].next_to(row[0], RIGHT, buff=TABLE_GAP).set_x(reads_right + TABLE_GAP + row[1].width / 2)
                row[2].next_to(row[1], RIGHT, buff=TABLE_GAP)
            pin(table.next_to(heading, DOWN, buff=0.8), LEFT)
            recipe = VGroup(
                label(theme, "English word: 5 random numbers", size=theme.small_size),
                VGroup(
                    label(theme, "(a fixed random seed), length", size=theme.small_size),
                    self.number("embedding_length", 0, size=theme.small_size),
                ).arrange(RIGHT, buff=0.15),
                label(theme, "Decoder query: the partner of the word", size=theme.small_size),
                label(theme, "it writes, plus a little noise", size=theme.small_size),
                VGroup(
                    label(theme, "(about", size=theme.small_size),
                    self.number("noise", 1, size=theme.small_size),
                    label(theme, "per number)", size=theme.small_size),
                ).arrange(RIGHT, buff=0.15),
            ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
            source_vector = self.grid(f"x_key[{t.alignment[i]}]", 1, cell_width=0.95, cell_height=0.55)
            target_vector = self.grid(f"x_query[{i}]", 1, cell_width=0.95, cell_height=0.55)
            vectors = VGroup(
                VGroup(label(theme, self.partner, size=theme.small_size, color=theme.key), source_vector),
                VGroup(label(theme, self.positions[i], size=theme.small_size, color=theme.query), target_vector),
            )
            for name, grid in vectors:
                name.next_to(grid, LEFT, buff=0.3)
            vectors.arrange(DOWN, buff=0.25, aligned_edge=RIGHT)
            right = VGroup(recipe, vectors).arrange(DOWN, buff=0.7, aligned_edge=LEFT)
            right.next_to(table, RIGHT, buff=0.8).align_to(table, UP)
            keep_inside(right, left=None)
            self.say("These are toy vectors built for this video, not a trained model.")
            self.play(FadeIn(heading), FadeIn(table, lag_ratio=0.1), run_time=1.5)
            self.say(
                f"Each English word is five random numbers, scaled to length {format_number(t.embedding_length, 0)}, "
                "from a fixed random seed."
            )
            self.play(FadeIn(recipe[:2]))
            self.play(FadeIn(vectors[0]))
            self.say("Each decoder query copies the partner of the word it writes, plus a little noise.")
            self.play(FadeIn(recipe[2:]))
            self.play(TransformFromCopy(vectors[0][1], vectors[1][1]), FadeIn(vectors[1][0]), run_time=1.5)
            self.say(
                f"So the query writing “{self.writes}” points at “{self.partner}” by construction: "
                "this shows the mechanism, it finds nothing."
            )
            self.highlight(table[i], buff=0.14)

    def queries_and_keys(self):
        """Step 3: Q from the decoder, K and V from the encoder."""
        t, theme = self.trace, self.theme
        cells = {"cell_width": 1.25, "cell_height": 0.5, "label_size": theme.min_size}
        with self.step("q-from-decoder-kv-from-encoder", "Q from decoder, K and V from encoder"):
            self.clear()
            heading = self.heading("Q from the decoder, K and V from the encoder")
            q = self.elided_grid("q", row_labels=self.positions, row_label_color=theme.query, row_label_width=2.4, **cells)
            k = self.elided_grid("k", row_labels=self.english, row_label_color=theme.key, **cells)
            q.shift(RIGHT * (LEFT_EDGE - q.get_left()[0]) + UP * (1.2 - q.cells.get_top()[1]))
            k.shift(RIGHT * (RIGHT_EDGE - k.get_right()[0]) + UP * (1.2 - k.cells.get_top()[1]))
            q_name = formula(theme, r"Q = \text{decoder queries}").next_to(q.cells, UP, buff=0.35)
            k_name = formula(theme, r"K = V = X_{\text{encoder}}").next_to(k.cells, UP, buff=0.35)
            elided = VGroup(
                label(theme, f"{SHOWN_COLUMNS} of {t.d_k} numbers", size=theme.small_size, color=theme.muted),
                label(theme, "a row; ⋯ the rest", size=theme.small_size, color=theme.muted),
            ).arrange(DOWN, buff=0.15)
            elided.move_to([(q.get_right()[0] + k.row_labels.get_left()[0]) / 2, q.cells.get_y(), 0])
            self.say(f"The queries come from the decoder: one row per position, {len(t.query_tokens)} rows.")
            self.play(FadeIn(heading))
            self.play(FadeIn(q_name), FadeIn(q), FadeIn(elided), run_time=1.5)
            self.say(f"The keys and values come from the encoder: one row per English word, {len(self.english)} rows.")
            self.play(FadeIn(k_name), FadeIn(k), run_time=1.5)
            shortcut = self.note_lines(
                (
                    "Shortcut: no projections, so K = V = the English vectors.",
                    "A real layer first multiplies by learned matrices:",
                    "W_Q for the decoder, W_K and W_V for the encoder's output.",
                )
            )
            self.say("A shortcut: no projections here, so K and V are the English vectors themselves.")
            self.play(FadeIn(shortcut[0]), k_name.animate.set_color(theme.highlight))
            self.say(
                "A real layer applies W_Q to the decoder's vectors, and W_K and W_V to the encoder's output vectors.",
                spoken="A real layer multiplies the decoder's vectors by a learned query matrix, "
                "and the encoder's output vectors by learned key and value matrices.",
            )
            self.play(FadeIn(shortcut[1:]))

    def one_query(self):
        """Step 4: one decoder query's scores against the 6 keys, and its attention weights."""
        t, theme, i = self.trace, self.theme, self.trace.focus
        top = int(t.weights[i].argmax())
        with self.step("one-query", "One query against every English key"):
            self.clear()
            heading = self.heading(f"The query of “{self.positions[i]}” against {len(self.english)} keys")
            scores = self.grid(
                f"scaled_scores[{i}]", 2, cell_width=1.2, cell_height=0.6, col_labels=self.english, col_label_color=theme.key
            )
            scores.move_to(SCORES_AT)
            self.scores_name = formula(theme, r"q \cdot k_j / \sqrt{d_k}").next_to(scores.cells, LEFT, buff=0.35)
            bars = self.bars(f"weights[{i}]", self.english, height=2.2, spacing=1.2, bar_width=0.6, color=theme.value)
            bars.shift(scores.cells[0].get_center()[0] * RIGHT - bars.bars[0].get_center()[0] * RIGHT)
            bars.shift(DOWN * (2.3 + bars.bars[0].get_bottom()[1]))
            bars_name = (
                formula(theme, r"\mathrm{softmax}").next_to(self.scores_name, DOWN, buff=1.6).align_to(self.scores_name, RIGHT)
            )
            d_k = VGroup(formula(theme, r"d_k ="), self.number("d_k", 0, size=theme.small_size)).arrange(RIGHT, buff=0.15)
            d_k.next_to(self.scores_name, DOWN, buff=0.3).align_to(self.scores_name, RIGHT)
            self.say(f"The position that reads “{self.reads}” scores every English key:")
            self.play(FadeIn(heading), FadeIn(scores.col_labels), FadeIn(scores.cells))
            self.say(f"a dot product, divided by the square root of {t.d_k}.")
            self.play(FadeIn(self.scores_name), FadeIn(d_k))
            self.play(FadeIn(scores.numbers, lag_ratio=0.1), run_time=1.2)
            self.say(
                f"Its score for “{self.english[top]}” is {format_number(t.scaled_scores[i, top], 2)}, the largest, "
                "as the query was built to make it."
            )
            self.play(FadeIn(SurroundingRectangle(scores.cells[top], color=theme.highlight, buff=0.06)))
            self.say(
                f"Softmax gives “{self.english[top]}” {format_number(t.weights[i, top], 2)} of its attention weight; "
                "the rest is chance overlap between random vectors."
            )
            self.play(FadeIn(bars_name), FadeIn(bars.labels), GrowFromEdge(bars.bars, DOWN), run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.1))

    def weighted_sum(self):
        """Step 5: the output, each English value row scaled by its attention weight, then added."""
        t, theme, i = self.trace, self.theme, self.trace.focus
        top = int(t.weights[i].argmax())
        with self.step("context-vector", "The output: a weighted sum of values"):
            self.clear()
            heading = self.heading(f"The output of “{self.positions[i]}”")
            shown = f"0:{SHOWN_COLUMNS}"
            total = WeightedSum(
                self,
                self.english,
                weight=f"weights[{i}, {{j}}]",
                value=f"v[{{j}}, {shown}]",
                product=f"weighted_values[{i}, {{j}}, {shown}]",
                output=f"output[{i}, {shown}]",
                output_name=formula(theme, r"\textstyle\sum_j w_j v_j ="),
                cell_width=1.25,
                row_height=0.5,
                label_width=1.2,
                label_color=theme.key,
                weight_color=theme.value,
            )
            # The other columns of each row elided: a "⋯" right of every value row, scaled row and the sum
            # (what stands right of the value rows moves over to make room for theirs).
            VGroup(total.equals, total.products, total.rule, total.output, total.output_name).shift(RIGHT * ELLIPSIS_ROOM)
            more = VGroup(
                *[
                    label(theme, "⋯", size=theme.small_size, color=theme.muted).next_to(grid.cells, RIGHT, buff=0.1)
                    for grid in (*total.values, *total.products, total.output)
                ]
            )
            for j, dots in enumerate(more[: len(self.english)]):
                total.values[j].add(dots)
            for j, dots in enumerate(more[len(self.english) : 2 * len(self.english)]):
                total.products[j].add(dots)
            total.output.add(more[-1])
            elided = label(
                theme, f"{SHOWN_COLUMNS} of {t.d_k} numbers a row, ⋯ the rest", size=theme.small_size, color=theme.muted
            )
            total.move_to(SUM_AT)
            keep_inside(total)
            names = VGroup(
                label(theme, "weight", size=theme.small_size, color=theme.value).next_to(total.weights, UP, buff=0.25),
                label(theme, "value row of V", size=theme.small_size, color=theme.key).next_to(
                    total.values[0].cells, UP, buff=0.25
                ),
                label(theme, "scaled row", size=theme.small_size).next_to(total.products[0].cells, UP, buff=0.25),
            )
            names.align_to(names[1], DOWN)
            elided.next_to(names, UP, buff=0.2).align_to(names, LEFT)
            rows = [VGroup(total.labels[j], total.weights[j], total.times[j], total.values[j]) for j in range(len(self.english))]
            self.say("The output is a weighted sum of the encoder's value rows.")
            self.play(FadeIn(heading), FadeIn(names[:2]), FadeIn(elided), *[FadeIn(row) for row in rows], run_time=1.5)
            self.say("Each value row is scaled by its attention weight,")
            self.play(
                FadeIn(names[2]),
                *[FadeIn(VGroup(total.equals[j], total.products[j])) for j in range(len(self.english))],
                run_time=1.5,
            )
            # The sum is of the unrounded rows: its shown digits can differ by 0.01 from adding the shown ones.
            rounded = label(theme, ROUNDED, size=theme.min_size, color=theme.muted)
            rounded.next_to(total.output, DOWN, buff=0.25)
            keep_inside(rounded, left=None)
            self.say("then the scaled rows are added, column by column.")
            self.play(FadeIn(total.rule), FadeIn(total.output_name), FadeIn(total.output), FadeIn(rounded), run_time=1.2)
            self.say(f"Mostly “{self.english[top]}”: the English summary the decoder uses to write “{self.writes}”.")
            self.highlight(total.row(top), buff=0.1)

    def weight_matrix(self):
        """Step 6: every decoder position against every English word, a 7 × 6 matrix."""
        t, theme = self.trace, self.theme
        n_q, n_k = len(t.query_tokens), len(self.english)
        with self.step("the-weight-matrix", "Cross-attention weights: not square"):
            self.clear()
            heading = self.heading("Cross-attention weights")
            labels = AxisLabels(2.4, key_lines=1)
            heatmap = weights_heatmap(self, "weights", self.positions, self.english, cells=Cells(1.0, 0.56), labels=labels)
            heatmap.move_to(MATRIX_AT)
            names = VGroup(
                label(theme, "decoder: reads → writes ↓", size=theme.small_size, color=theme.query),
                label(theme, "English keys →", size=theme.small_size, color=theme.key),
            )
            names[1].next_to(heatmap.col_labels, UP, buff=0.2)
            names[0].next_to(heatmap.row_labels, UP, buff=0.45).align_to(heatmap.row_labels, RIGHT)
            names[0].shift(LEFT * max(0.0, names[0].get_right()[0] + 0.2 - heatmap.col_labels[0].get_left()[0]))
            boxes = [
                SurroundingRectangle(heatmap.cell(r, int(j)), color=theme.highlight, buff=0.03)
                for r, j in enumerate(t.weights.argmax(axis=1))
            ]
            follows = all(int(j) == k for j, k in zip(t.weights.argmax(axis=1), t.alignment))
            self.say(f"Every decoder position does the same: {n_q} queries against {n_k} keys.")
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names))
            self.say(f"That is a {n_q} by {n_k} matrix, not a square, and each row sums to 1, up to rounding.")
            for r in range(n_q):
                self.play(FadeIn(heatmap.row(r)), run_time=0.4)
            built = self.note_lines(
                (
                    "Toy queries, each built as its partner's vector plus noise:",
                    "the boxes show what they were built to find, not a finding.",
                )
            )
            self.say(
                "As built, each row's largest weight lands on the partner of the word it writes."
                if follows
                else "Each row's largest weight is boxed; with this seed the noise moves some off their partners."
            )
            self.play(*[FadeIn(box) for box in boxes], FadeIn(built))
            self.say("That demonstrates the mechanism; a trained decoder has to learn such queries.")
            # What the next line says, on the heading's line: nothing in the matrix is masked.
            no_mask = label(theme, f"no mask: each row sees all {n_k} English words", size=theme.small_size, color=theme.muted)
            no_mask.next_to(names[1], UP, buff=0.12).align_to(heatmap.cells, RIGHT)
            self.say("No causal mask here: the English sentence is complete, so every position may see all of it.")
            self.play(FadeIn(no_mask))
            self.say("In a padded batch, the English pads would still be masked.")

    def self_versus_cross(self):
        """Step 7: the encoder's square self-attention beside the rectangular cross-attention."""
        theme = self.theme
        cells = Cells(0.78, 0.5)
        with self.step("self-vs-cross", "Self-attention vs cross-attention"):
            self.clear()
            heading = self.heading("Self-attention vs cross-attention")
            maps = []
            n_q, n_k = len(self.positions), len(self.english)
            for source, rows, title, row_color, width in (
                ("self_weights", self.english, f"Self, {n_k} × {n_k}: Q = K = V = English", theme.key, 1.0),
                ("weights", self.positions, f"Cross, {n_q} × {n_k}: Q decoder, K, V English", theme.query, 2.0),
            ):
                labels = AxisLabels(width, theme.min_size, key_lines=1, query_color=row_color)
                heatmap = weights_heatmap(self, source, rows, self.english, cells=cells, labels=labels)
                name = label(theme, title, size=theme.small_size).next_to(heatmap.col_labels, UP, buff=0.3)
                maps.append(VGroup(name, heatmap))
            maps[0].shift(RIGHT * (LEFT_EDGE - maps[0].get_left()[0]))
            maps[1].shift(RIGHT * (RIGHT_EDGE - maps[1].get_right()[0]))
            for m in maps:
                m.shift(UP * (2.6 - m.get_top()[1]))
            t = self.trace
            own = [j for j in range(n_k) if int(t.self_weights[j].argmax()) == j]
            # Thin and just outside each cell, clear of its digits: the neighbours it crosses show colour, no numbers.
            diagonal = VGroup(
                *[SurroundingRectangle(maps[0][1].cell(j, j), color=theme.highlight, buff=0.02, stroke_width=2.5) for j in own]
            )
            # The English word two decoder positions share as partner: their rows copy that word's self row.
            shared = next((k for k in range(n_k) if list(t.alignment).count(k) > 1), t.alignment[t.focus])
            copies = [r for r, k in enumerate(t.alignment) if k == shared]
            echoes = VGroup(
                SurroundingRectangle(maps[0][1].row(shared), color=theme.value, buff=0.03),
                *[SurroundingRectangle(maps[1][1].row(r), color=theme.value, buff=0.03) for r in copies],
            )
            # Numbers only where a line reads them: the diagonal, the shared partner's self row, the rows that copy it.
            # In the compared rows only the weights of at least READ_LEAST: six numbers in these cells run together.
            self_cells = [(j, j) for j in own]
            self_cells += [
                (shared, j) for j in range(n_k) if (shared, j) not in self_cells and t.self_weights[shared, j] >= READ_LEAST
            ]
            self_read = self.numbers_read("self_weights", maps[0][1], self_cells)
            cross_cells = [(r, j) for r in copies for j in range(n_k) if t.weights[r, j] >= READ_LEAST]
            cross_read = self.numbers_read("weights", maps[1][1], cross_cells)
            note = self.note_lines(
                (
                    "Cross rows nearly repeat their partner's self row: the queries were built from those vectors.",
                    f"In those rows, weights under {format_number(READ_LEAST, 2)} are shown by colour only.",
                )
            )
            # The numbers of the first line come from the trace, each drawn as a shown number.
            aside = {"size": theme.min_size, "color": theme.muted}
            self_line = VGroup(
                label(theme, "Self, no projections: all length", **aside),
                self.number("embedding_length", 0, **aside),
                label(theme, ", so a self dot product,", **aside),
                self.number("encoder_self_dots[0]", 0, **aside),
                label(theme, ", beats the others (at most", **aside),
                self.number("encoder_other_dot", 1, **aside),
                label(theme, ").", **aside),
            )
            # A word space before each number, none before the punctuation after it.
            for before, part in zip(self_line, self_line[1:]):
                part.next_to(before, RIGHT, buff=0.03 if part.text[0] in ",)." else 0.12)
            self_line.next_to(note, UP, buff=0.12)
            self.say("In self-attention, Q, K and V come from one sequence, so the matrix is square.")
            self.play(FadeIn(heading))
            # Colour carries the weights; the numbers come only where a line reads them (diagonal, copied rows).
            self.play(FadeIn(self.without_numbers(maps[0])), run_time=1.2)
            self.say(
                f"With no projections, all {n_k} English vectors have length {format_number(t.embedding_length, 0)}, "
                f"so a word's dot product with itself, {format_number(t.encoder_self_dots[0], 0)}, beats any other, "
                f"at most {format_number(t.encoder_other_dot, 1)}: the diagonal wins."
            )
            self.play(FadeIn(diagonal), FadeIn(self_line), FadeIn(self_read[: len(own)]))
            self.say(f"In cross-attention, Q comes from the decoder and K and V from the encoder: {n_q} rows, {n_k} columns.")
            self.play(FadeIn(self.without_numbers(maps[1])), run_time=1.2)
            self.say(
                f"The numbers look alike because we built each query from its partner: the {len(copies)} rows "
                f"that write the Spanish for “{self.english[shared]}” both copy “{self.english[shared]}”.",
                # Not the Spanish words in the English voice.
                spoken=f"The numbers look alike because we built each query from its partner: the {len(copies)} rows "
                f"that write the Spanish for {self.english[shared]} both copy the word {self.english[shared]}.",
            )
            self.play(FadeIn(echoes), FadeIn(self_read[len(own) :]), FadeIn(cross_read), FadeOut(self_line), FadeIn(note))
            self.say("What differs is where the queries come from, and so the shape.")
            self.say("A decoder layer runs masked self-attention, then cross-attention, then the feed-forward.")
            self.play(FadeOut(note), FadeIn(self.decoder_layer()))

    def decoder_layer(self) -> VGroup:
        """At the bottom of the frame: a decoder layer's three parts in order, cross-attention outlined."""
        theme = self.theme
        parts = VGroup(
            *[label(theme, part, size=theme.small_size) for part in ("masked self-attention", "cross-attention", "feed-forward")]
        ).arrange(RIGHT, buff=0.7)
        boxes = VGroup(
            *[
                SurroundingRectangle(part, color=theme.highlight if k == 1 else theme.line, buff=0.15)
                for k, part in enumerate(parts)
            ]
        )
        arrows = VGroup(
            *[
                label(theme, "→", size=theme.small_size, color=theme.muted).move_to((a.get_right() + b.get_left()) / 2)
                for a, b in zip(boxes, boxes[1:])
            ]
        )
        name = label(theme, "a decoder layer:", size=theme.small_size, color=theme.muted)
        layer = VGroup(name, VGroup(boxes, parts, arrows)).arrange(DOWN, buff=0.15)
        return pin(layer.move_to([0, 0, 0]), DOWN)
