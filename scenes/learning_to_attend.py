"""Learning to attend: two encoder–decoders trained here to reverse sequences, one with additive attention.

Both networks are trained for real (torch, an optional extra) from one seed on the same
batches; the scene shows the run's own numbers: both loss and accuracy curves, one held-out
example's attention going from flat to the anti-diagonal, and accuracy against length, where
the model without attention keeps up on short sequences and falls behind on long ones.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Create, Dot, FadeIn, FadeOut, ReplacementTransform, SurroundingRectangle, VGroup

from attention_math.learning import import_torch
from attention_math.reversal import LENGTH_RANGE, ReversalSettings
from attention_math.traces.learning_to_attend import learning_to_attend_trace

from .kit import ExplainerScene
from .kit.charts import LineChart
from .kit.heatmaps import AxisLabels, Cells, weights_heatmap
from .kit.layout import BODY, BODY_TOP, CONTENT, LEFT_EDGE, RIGHT_EDGE, Region, center_in, hang_from, pin
from .kit.tables import TokenRow
from .kit.text import formula, label
from .theme import format_number
from .training import trained

LEFT_CHART = Region(LEFT_EDGE + 1.3, -1.0, -2.3, 1.5)
"""The loss curves: the left half under the heading, room left of it for the axis numbers."""
RIGHT_CHART = Region(1.6, RIGHT_EDGE - 1.5, -2.3, 1.5)
"""The accuracy curves: the right half, room right of it for the final values."""
HEATMAP_ROOM = Region(LEFT_EDGE, 3.0, -3.3, BODY_TOP)
"""Where the example's attention matrix goes: left of the alignment curve."""
ALIGNMENT_CHART = Region(3.9, RIGHT_EDGE - 0.5, -0.9, 1.5)
"""The mean weight on the mirrored position over training, right of the matrix."""
LENGTH_CHART = Region(LEFT_EDGE + 3.5, RIGHT_EDGE - 0.9, -0.7, 1.9)
"""Accuracy against length: the curves, with the table of their numbers underneath."""

ADDITIVE_SCORE = (r"\mathrm{score}_j = v^\top \tanh(W_s\, s + W_h\, h_j + b)",)
ATTENTION_WEIGHTS = (r"\alpha = \mathrm{softmax}(\mathrm{score}), \quad c = \sum_j \alpha_j\, h_j",)
NO_ATTENTION = (r"c = h_{\mathrm{final}} \;\text{ at every step}",)
SYMBOLS_NAMED = (
    r"s:\ \text{decoder state}\qquad h_j:\ \text{encoder output at position } j",
    r"c:\ \text{what the decoder reads}\qquad W_s,\, W_h,\, v,\, b:\ \text{learned}",
)
"""What the formulas' letters stand for, two lines under them."""


def count(value: float) -> str:
    """A whole number as the screen writes it (1,500)."""
    return format_number(value, 0)


class LearningToAttendScene(ExplainerScene):
    name = "learning-to-attend"
    title = "Learning to attend"
    description = (
        "Two encoder–decoder GRUs trained here to reverse sequences, with and without additive attention: "
        "their curves, the alignment they learn, and accuracy against length."
    )
    sources = "additive attention (Bahdanau, Cho and Bengio, 2014); both models trained here with torch"
    poster_step = "attention-is-learned"

    options = ("seed", "length")
    length_range = LENGTH_RANGE
    trains = True
    """Built from a training run cached in the render's cache folder (see :func:`scenes.build_trace`)."""

    @classmethod
    def build_trace(cls, seed: int = 0, length: int = ReversalSettings().length, cache_dir=None):
        settings = ReversalSettings(seed=seed, length=length)
        return trained("reversal", cache_dir, lambda folder: learning_to_attend_trace(settings, cache_dir=folder))

    @classmethod
    def check_settings(cls, settings: dict) -> None:
        """Training needs torch (the optional extra): say how to install it before anything renders."""
        import_torch()

    def construct(self):
        t = self.trace
        self.attention_color, self.baseline_color = self.theme.value, self.theme.query
        self.last = len(t.checkpoints) - 1
        self.set_the_task()
        self.train_both()
        self.watch_attention_learn()
        self.measure_the_alignment()
        self.compare_lengths()
        self.sum_up()

    @property
    def aligned(self) -> bool:
        """Whether the trained model's largest weight is on the mirrored position for most output steps."""
        return self.trace.mirror_argmax > 0.5

    @property
    def aligned_words(self) -> str:
        """How the trained alignment is described: on the anti-diagonal only when the run put it there."""
        return "the weight sits on the anti-diagonal," if self.aligned else "the weight on the mirrored position is"

    def legend(self) -> VGroup:
        """Which colour is which model."""
        theme = self.theme
        return VGroup(
            label(theme, "with attention", size=theme.small_size, color=self.attention_color),
            label(theme, "without attention", size=theme.small_size, color=self.baseline_color),
        ).arrange(RIGHT, buff=0.8)

    # --- 1. the task and the two networks ---------------------------------------------------

    def set_the_task(self):
        """Step 1: reverse a sequence; two networks, one with additive attention, one without."""
        t, theme = self.trace, self.theme
        with self.step("the-task", "The task: reverse a sequence"):
            heading = self.heading("Learning to attend: reverse a sequence")
            source = TokenRow(theme, t.example_source, color=theme.key)
            target = TokenRow(theme, t.example_target, color=theme.query)
            names = VGroup(
                label(theme, "read", size=theme.small_size, color=theme.muted),
                label(theme, "write", size=theme.small_size, color=theme.muted),
            )
            rows = VGroup(source, target).arrange(DOWN, buff=0.3)
            hang_from(rows, BODY_TOP)
            names[0].next_to(source, LEFT, buff=0.3)
            names[1].next_to(target, LEFT, buff=0.3)
            with_attention = VGroup(
                label(
                    theme,
                    "with attention: each output step scores every input position",
                    size=theme.small_size,
                    color=self.attention_color,
                ),
                formula(theme, *ADDITIVE_SCORE, size=theme.formula_size),
                formula(theme, *ATTENTION_WEIGHTS, size=theme.formula_size),
                VGroup(*[formula(theme, line, size=theme.min_formula_size) for line in SYMBOLS_NAMED]).arrange(DOWN, buff=0.08),
            ).arrange(DOWN, buff=0.2)
            without = VGroup(
                label(
                    theme,
                    "without: the decoder sees only the encoder's final state",
                    size=theme.small_size,
                    color=self.baseline_color,
                ),
                formula(theme, *NO_ATTENTION, size=theme.formula_size),
            ).arrange(DOWN, buff=0.2)
            VGroup(with_attention, without).arrange(DOWN, buff=0.3).next_to(rows, DOWN, buff=0.3)
            same_start = self.note_lines(("two networks: the same starting weights, the same batches",))
            history = self.note_lines(
                (
                    "Additive attention: Bahdanau, Cho and Bengio, 2014,",
                    "three years before the transformer's scaled dot product (2017)",
                )
            )

            self.say(f"The task: read {count(t.length)} letters and write them in reverse order.")
            self.play(FadeIn(heading), FadeIn(names[0]), FadeIn(source))
            self.play(FadeIn(names[1]), FadeIn(target), run_time=1.2)
            self.say("Two networks learn it, from the same starting weights, on the same batches.")
            self.play(FadeIn(same_start))
            self.say(
                "Both are encoder–decoder GRUs. With attention, each output step scores every input position, "
                "and reads c, the weighted average of the encoder outputs."
            )
            self.play(FadeIn(with_attention, shift=UP * 0.2), run_time=1.2)
            self.say(
                "The score is the additive one from Bahdanau, Cho and Bengio in 2014, "
                "three years before the transformer's scaled dot product."
            )
            self.play(ReplacementTransform(same_start, history))
            self.say("Without attention, the decoder sees only the encoder's final state: one vector for the whole sequence.")
            # The citation has been said; it leaves the bottom to the second network (sources stay in the last step's note).
            self.play(FadeOut(history), FadeIn(without, shift=UP * 0.2), run_time=1.2)

    # --- 2. training curves ---------------------------------------------------------------------

    def chart(self, name: str, region: Region, attention: str, baseline: str, low: float, high: float, decimals: int):
        """Both models' curves at ``attention`` and ``baseline`` (trace fields) over the checkpoints, in ``region``."""
        t, theme = self.trace, self.theme
        first = LineChart(theme, getattr(t, attention), region, low, high, color=self.attention_color)
        second = LineChart(theme, getattr(t, baseline), region, low, high, color=self.baseline_color)
        title = label(theme, name, size=theme.body_size).next_to(first.to_point(self.last / 2, high), UP, buff=0.25)
        ticks = VGroup(
            label(theme, format_number(high, 0 if high == int(high) else 1), size=theme.small_size, mono=True).next_to(
                first.to_point(0, high), LEFT, buff=0.15
            ),
            label(theme, format_number(low, 0), size=theme.small_size, mono=True).next_to(
                first.to_point(0, low), LEFT, buff=0.15
            ),
            self.number("checkpoints[0]", 0).next_to(first.to_point(0, low), DOWN, buff=0.15),
            self.number(f"checkpoints[{self.last}]", 0).next_to(first.to_point(self.last, low), DOWN, buff=0.15),
        )
        ends = VGroup(
            self.number(f"{attention}[{self.last}]", decimals, size=theme.body_size, color=self.attention_color),
            self.number(f"{baseline}[{self.last}]", decimals, size=theme.body_size, color=self.baseline_color),
        )
        for end, chart, values in zip(ends, (first, second), (getattr(t, attention), getattr(t, baseline))):
            end.next_to(chart.to_point(self.last, values[-1]), RIGHT, buff=0.15)
            # Clear of the last step's number under the axis's end.
            end.set_y(max(end.get_y(), first.to_point(0, low)[1] + end.height / 2 + 0.15))
        if abs(ends[0].get_y() - ends[1].get_y()) < ends[0].height + 0.1:  # close curves: one label under the other
            middle = (ends[0].get_y() + ends[1].get_y()) / 2
            ends.arrange(DOWN, buff=0.1, aligned_edge=LEFT).move_to(ends, aligned_edge=LEFT).set_y(middle)
            room = Region(region.left, RIGHT_EDGE, first.to_point(0, low)[1] + 0.15, first.to_point(0, high)[1])
            room.keep_inside(ends)
        return VGroup(first.axes, title, ticks), first.curve, second.curve, ends

    def train_both(self):
        """Step 2: held-out loss and accuracy of both models over training."""
        t, theme = self.trace, self.theme
        high_loss = float(np.ceil(max(t.attention_loss.max(), t.baseline_loss.max())))
        loss_frame, loss_attention, loss_baseline, loss_ends = self.chart(
            "held-out loss", LEFT_CHART, "attention_loss", "baseline_loss", 0.0, high_loss, 2
        )
        accuracy_frame, accuracy_attention, accuracy_baseline, accuracy_ends = self.chart(
            "held-out token accuracy", RIGHT_CHART, "attention_accuracy", "baseline_accuracy", 0.0, 1.0, 2
        )
        batches = label(theme, "batches of training", size=theme.small_size, color=theme.muted)
        batches.next_to(loss_frame[2][2], DOWN, buff=0.1).set_x(0)
        legend = self.legend()
        pin(legend, DOWN, CONTENT).set_x(0)
        with self.step("training-curves", "Training both: loss and accuracy"):
            self.clear()
            heading = self.heading("Training both, measured on held-out sequences")
            self.play(FadeIn(heading), FadeIn(legend))
            self.say(
                f"Every {count(t.checkpoints[1])} batches, both are measured on {count(t.heldout_per_length)} "
                f"sequences of length {count(t.length)} they never trained on."
            )
            self.play(FadeIn(loss_frame), FadeIn(accuracy_frame), FadeIn(batches))
            self.play(Create(loss_attention), Create(loss_baseline), run_time=2)
            self.say(
                f"The loss falls for both: to {format_number(t.attention_loss[-1], 2)} with attention, "
                f"{format_number(t.baseline_loss[-1], 2)} without."
            )
            self.play(FadeIn(loss_ends))
            self.play(Create(accuracy_attention), Create(accuracy_baseline), run_time=2)
            # The loss is measured with the right letters fed in, accuracy with the model's own: different measures.
            self.say(
                f"Accuracy is another measure: the model writes on its own, fed its own letters, not the right ones as for the loss. With attention it gets "
                f"{percent(t.final_attention_accuracy)} of the letters right; without, {percent(t.final_baseline_accuracy)}."
            )
            self.play(FadeIn(accuracy_ends))
            self.highlight(*accuracy_ends)

    # --- 3. the example's attention, from flat to the anti-diagonal -------------------------------

    def snapshot(self, index: int):
        """The example's attention matrix at checkpoint ``index``: output steps down, input positions across."""
        t, theme = self.trace, self.theme
        n = t.length
        # Cells as wide as the room allows, so neighbouring numbers never run together.
        cell = min(0.86, (HEATMAP_ROOM.width - 0.5) / n), min(0.46, (HEATMAP_ROOM.height - 1.3) / n)
        grid = weights_heatmap(
            self,
            f"snapshots[{index}]",
            list(t.example_target),
            list(t.example_source),
            2,
            cells=Cells(cell[0], cell[1], number_size=theme.small_size, mono=False),
            labels=AxisLabels(width=0.6, size=theme.small_size),
        )
        center_in(grid, HEATMAP_ROOM).shift(DOWN * 0.1)
        # Colour carries the matrix; only the mirrored positions, the ones the lines talk about, print their
        # weight (100 numbers were a wall).
        self.print_only(grid, {(i, n - 1 - i) for i in range(n)})
        # Room above the key labels for "should write ↓" and "reads →".
        return HEATMAP_ROOM.keep_inside(grid)

    def watch_attention_learn(self):
        """Step 3: one held-out example's attention at several points of training, next to the alignment curve."""
        t, theme = self.trace, self.theme
        shown = list(t.snapshot_indices)
        grids = [self.snapshot(index) for index in shown]
        # The rows are the letters it should write (the model's own greedy run gave the weights; early on it
        # writes other letters): "writes" claimed they were its output.
        writes = label(theme, "should write ↓", size=theme.small_size, color=theme.query)
        writes.next_to(grids[0].col_labels, UP, buff=0.2).align_to(grids[0].row_labels, LEFT)
        reads = label(theme, "reads →", size=theme.small_size, color=theme.key).next_to(writes, RIGHT, buff=0.6)
        axes_names = VGroup(writes, reads)
        curve = LineChart(theme, t.mirror_weight_curve, ALIGNMENT_CHART, 0.0, 1.0, color=theme.highlight)
        # Three short lines: two long ones ran over the matrix's last column labels.
        curve_title = label(
            theme,
            f"mean weight on the\nmirrored position,\n{count(t.heldout_per_length)} held-out",
            size=theme.small_size,
            color=theme.highlight,
        )
        curve_title.next_to(curve.to_point(self.last / 2, 1.0), UP, buff=0.2)
        curve_ticks = VGroup(
            label(theme, "1", size=theme.small_size, mono=True).next_to(curve.to_point(0, 1.0), LEFT, buff=0.15),
            label(theme, "0", size=theme.small_size, mono=True).next_to(curve.to_point(0, 0.0), LEFT, buff=0.15),
            self.number("checkpoints[0]", 0).next_to(curve.to_point(0, 0.0), DOWN, buff=0.15),
            self.number(f"checkpoints[{self.last}]", 0).next_to(curve.to_point(self.last, 0.0), DOWN, buff=0.15),
        )
        CONTENT.keep_inside(curve_title)
        batches = label(theme, "batches", size=theme.small_size, color=theme.muted).next_to(curve_ticks[2:], DOWN, buff=0.1)
        stamps = []
        for index in shown:
            stamp = VGroup(
                VGroup(
                    label(theme, "after", size=theme.small_size, color=theme.muted),
                    self.number(f"checkpoints[{index}]", 0, size=theme.body_size),
                    label(theme, "batches", size=theme.small_size, color=theme.muted),
                ).arrange(RIGHT, buff=0.15),
                VGroup(
                    label(theme, "this sequence", size=theme.small_size, color=theme.muted),
                    self.number(f"example_mirror_weight[{index}]", 2, size=theme.body_size),
                ).arrange(RIGHT, buff=0.15),
                VGroup(
                    label(theme, f"mean of {count(t.heldout_per_length)} held-out", size=theme.small_size, color=theme.muted),
                    self.number(f"mirror_weight_curve[{index}]", 2, size=theme.body_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.15),
            ).arrange(DOWN, buff=0.15, aligned_edge=RIGHT)
            stamp.next_to(batches, DOWN, buff=0.35).align_to(curve_title, RIGHT)
            stamps.append(CONTENT.keep_inside(stamp))
        dots = [Dot(curve.to_point(index, t.mirror_weight_curve[index]), radius=0.09, color=theme.highlight) for index in shown]
        mirror = VGroup(
            *[
                SurroundingRectangle(grids[-1].cell(i, t.length - 1 - i), color=theme.highlight, buff=0.0, stroke_width=4)
                for i in range(t.length)
            ]
        ).set_z_index(2)  # over each new snapshot as it replaces the last
        # The curve drawn in pieces, each up to the checkpoint the counter shows (it ran ahead of the counter).
        pieces = [
            curve.curve.copy().pointwise_become_partial(curve.curve, shown[k - 1] / self.last, shown[k] / self.last)
            for k in range(1, len(shown))
        ]
        with self.step("attention-is-learned", "Where it looks, as it learns"):
            self.clear()
            heading = self.heading("Where the attention model looks, as it learns")
            self.say(
                "Here is one held-out sequence: each row is an output step, each column an input position; "
                "brighter means more weight."
            )
            self.play(FadeIn(heading), FadeIn(grids[0]), FadeIn(axes_names))
            self.say("Reversal needs the anti-diagonal: the first output reads the last input, and so on.")
            self.play(Create(mirror), run_time=1.2)
            self.say(
                f"Before training the weights are flat: about {format_number(t.uniform_weight, 2)} on every position, "
                f"one in {count(t.length)}."
            )
            self.play(FadeIn(curve.axes), FadeIn(curve_title), FadeIn(curve_ticks), FadeIn(batches))
            self.play(FadeIn(dots[0]), FadeIn(stamps[0]))
            for k in range(1, len(shown)):
                index = shown[k]
                if k < len(shown) - 1:
                    self.say(
                        f"After {count(t.checkpoints[index])} batches: "
                        f"{format_number(t.example_mirror_weight[index], 2)} on this sequence's mirrored positions."
                    )
                else:
                    self.say(
                        f"After {count(t.checkpoints[index])} batches, {self.aligned_words} "
                        f"{format_number(t.example_mirror_weight[index], 2)} on average on this sequence; "
                        f"{format_number(t.mirror_weight_curve[index], 2)} over all "
                        f"{count(t.heldout_per_length)} held-out sequences."
                    )
                self.play(
                    ReplacementTransform(grids[k - 1], grids[k]),
                    ReplacementTransform(stamps[k - 1], stamps[k]),
                    Create(pieces[k - 1]),
                    FadeIn(dots[k]),
                    run_time=1.5,
                )
            self.say("Nobody wrote this alignment. The network learned it from the loss alone.")
            self.wait(0.5)

    # --- 4. the alignment measured, and the example's answers ------------------------------------

    def measure_the_alignment(self):
        """Step 4: the trained alignment over all held-out sequences, and what each model wrote for the example."""
        t, theme = self.trace, self.theme
        facts = VGroup(
            VGroup(
                label(theme, "mean weight on the mirrored position", size=theme.body_size),
                self.number("mirror_weight", 2, size=theme.title_size, color=theme.highlight),
            ),
            VGroup(
                label(theme, "flat attention would give", size=theme.body_size, color=theme.muted),
                self.number("uniform_weight", 2, size=theme.title_size, color=theme.muted),
            ),
            VGroup(
                label(theme, "output steps whose largest weight is there", size=theme.body_size),
                self.number("mirror_argmax", 2, size=theme.title_size, color=theme.highlight),
            ),
        )
        for fact in facts:
            fact.arrange(RIGHT, buff=0.4)
        facts.arrange(DOWN, buff=0.35, aligned_edge=RIGHT)
        hang_from(facts, BODY_TOP)

        rows = VGroup()
        for name, letters, color in (
            ("right answer", t.example_target, theme.text),
            ("with attention", t.attention_prediction, self.attention_color),
            ("without attention", t.baseline_prediction, self.baseline_color),
        ):
            row = TokenRow(theme, letters, color=color)
            for k, letter in enumerate(letters):
                if letter != t.example_target[k]:
                    row[k].set_color(theme.masked)
            rows.add(VGroup(label(theme, name, size=theme.small_size, color=color), row).arrange(RIGHT, buff=0.4))
        rows.arrange(DOWN, buff=0.25, aligned_edge=RIGHT).next_to(facts, DOWN, buff=0.6)
        BODY.keep_inside(rows)
        wrong_attention = sum(a != b for a, b in zip(t.attention_prediction, t.example_target))
        wrong_baseline = sum(a != b for a, b in zip(t.baseline_prediction, t.example_target))
        with self.step("the-alignment-measured", "The alignment over held-out sequences"):
            self.clear()
            heading = self.heading(f"The alignment, over all {count(t.heldout_per_length)} held-out sequences")
            self.play(FadeIn(heading))
            self.say(
                f"Over all {count(t.heldout_per_length)} held-out sequences, the mean weight on the mirrored position "
                f"is {format_number(t.mirror_weight, 2)}; flat attention would give {format_number(t.uniform_weight, 2)}."
            )
            self.play(FadeIn(facts[0]), FadeIn(facts[1]), run_time=1.2)
            self.say(
                f"And in {percent(t.mirror_argmax)} of the output steps, the largest weight is on it.",
            )
            self.play(FadeIn(facts[2]))
            self.say("Back to the example: what each trained model wrote.")
            example_heading = self.heading("Back to the example: what each model wrote")
            self.play(ReplacementTransform(heading, example_heading), FadeIn(rows, lag_ratio=0.2), run_time=1.5)
            self.say(self.example_verdict(wrong_attention, wrong_baseline))
            self.wait(0.5)

    @staticmethod
    def example_verdict(wrong_attention: int, wrong_baseline: int) -> str:
        """What the example's answers show, in words, as the run has them (letters wrong in red)."""

        def letters(k: int) -> str:
            return "every letter right" if k == 0 else f"{count(k)} letter{'s' if k > 1 else ''} wrong"

        red = ", in red" if wrong_attention or wrong_baseline else ""
        return f"With attention: {letters(wrong_attention)}. Without: {letters(wrong_baseline)}{red}."

    # --- 5. accuracy against length ----------------------------------------------------------------

    def compare_lengths(self):
        """Step 5: both trained models on every length; where the one without attention keeps up, and where not."""
        t, theme = self.trace, self.theme
        attention = LineChart(theme, t.attention_accuracy_by_length, LENGTH_CHART, 0.0, 1.0, color=self.attention_color)
        baseline = LineChart(theme, t.baseline_accuracy_by_length, LENGTH_CHART, 0.0, 1.0, color=self.baseline_color)
        k = len(t.lengths)
        points = VGroup(
            *[
                Dot(attention.to_point(i, t.attention_accuracy_by_length[i]), radius=0.07, color=self.attention_color)
                for i in range(k)
            ],
            *[
                Dot(baseline.to_point(i, t.baseline_accuracy_by_length[i]), radius=0.07, color=self.baseline_color)
                for i in range(k)
            ],
        )
        ticks = VGroup(
            label(theme, "1", size=theme.small_size, mono=True).next_to(attention.to_point(0, 1.0), LEFT, buff=0.15),
            label(theme, "0", size=theme.small_size, mono=True).next_to(attention.to_point(0, 0.0), LEFT, buff=0.15),
        )
        title = label(theme, "held-out token accuracy", size=theme.small_size, color=theme.muted)
        title.next_to(attention.to_point(0, 1.0), UP, buff=0.2).align_to(attention.axes, LEFT)
        spacing = attention.to_point(1, 0)[0] - attention.to_point(0, 0)[0]
        width = min(spacing, 1.2)
        table = self.grid("lengths", 0, cell_width=width, cell_height=0.45, font_size=theme.small_size)
        accuracies = VGroup(
            self.grid("attention_accuracy_by_length", 2, cell_width=width, cell_height=0.45, font_size=theme.small_size),
            self.grid("baseline_accuracy_by_length", 2, cell_width=width, cell_height=0.45, font_size=theme.small_size),
        )
        for grid in (table, *accuracies):  # each column under its point on the chart
            for j in range(1, k):
                grid.column(j).shift(RIGHT * j * (spacing - width))
        for row, color in zip(accuracies, (self.attention_color, self.baseline_color)):
            row.numbers.set_color(color)
        rows = VGroup(table, *accuracies).arrange(DOWN, buff=0)
        rows.shift(RIGHT * (attention.to_point(0, 0)[0] - table.cell(0, 0).get_x()))
        rows.next_to(attention.to_point(0, 0.0), DOWN, buff=0.35, coor_mask=np.array([0, 1, 0]))
        names = VGroup(
            label(theme, "length", size=theme.small_size, color=theme.muted),
            label(theme, "with attention", size=theme.small_size, color=self.attention_color),
            label(theme, "without", size=theme.small_size, color=self.baseline_color),
        )
        for name, row in zip(names, rows):
            name.next_to(row, LEFT, buff=0.25)
        # What "one 48-number state" names, under the row it explains.
        state = label(theme, f"one state of {count(t.hidden_size)} numbers", size=theme.min_size, color=self.baseline_color)
        state.next_to(names[2], DOWN, buff=0.12).align_to(names[2], RIGHT)
        # Wider than the row name it hangs under: keep it inside the safe area, reaching right under the row instead.
        if state.get_left()[0] < LEFT_EDGE:
            state.shift(RIGHT * (LEFT_EDGE - state.get_left()[0]))
        keeps_up = [int(length) for length, same in zip(t.lengths, t.baseline_keeps_up) if same]
        falls = [i for i, same in enumerate(t.baseline_keeps_up) if not same]
        # Around the cells, not the digits: a box on the digits touched them.
        marks = VGroup(
            *[SurroundingRectangle(accuracies[1].cell(0, i), color=theme.masked, buff=0.0, stroke_width=4) for i in falls]
        )
        with self.step("accuracy-by-length", "Accuracy against length"):
            self.clear()
            heading = self.heading("Accuracy against length, after equal training")
            self.say(
                f"Now both trained models on every length from {count(t.lengths[0])} to {count(t.lengths[-1])}, "
                f"{count(t.heldout_per_length)} held-out sequences each."
            )
            self.play(FadeIn(heading), FadeIn(attention.axes), FadeIn(ticks), FadeIn(title), FadeIn(names), FadeIn(table))
            self.play(Create(attention.curve), Create(baseline.curve), FadeIn(points), FadeIn(accuracies), run_time=2)
            self.say(self.keeps_up_line(keeps_up))
            if keeps_up:
                # Both models' cells at each such length, outlined while the line is said.
                self.highlight(
                    *[
                        VGroup(accuracies[0].cell(0, i), accuracies[1].cell(0, i))
                        for i, same in enumerate(t.baseline_keeps_up)
                        if same
                    ],
                    buff=0.0,
                )
            if falls:
                behind = (
                    f"here, one {count(t.hidden_size)}-number state, trained as long as the attention model, "
                    "did not carry the long sequences."
                )
                self.say(
                    f"From length {count(t.lengths[falls[0]])} it falls behind, to "
                    f"{format_number(t.baseline_accuracy_by_length[-1], 2)} at {count(t.lengths[-1])}: {behind}",
                    spoken=f"From length {count(t.lengths[falls[0]])} it falls behind, to "
                    f"{percent(t.baseline_accuracy_by_length[-1])} at {count(t.lengths[-1])}: {behind}",
                )
                self.play(Create(marks), FadeIn(state), run_time=1.2)
            lowest = int(np.argmin(t.attention_accuracy_by_length))
            self.say(
                f"With attention, its lowest is {format_number(t.attention_accuracy_by_length[lowest], 2)}: "
                "the decoder reads each input where it is.",
                spoken=f"With attention, its lowest is {percent(t.attention_accuracy_by_length[lowest])}: "
                "the decoder reads each input where it is.",
            )
            self.highlight(accuracies[0].cell(0, lowest), buff=0.0)

    def keeps_up_line(self, keeps_up: list[int]) -> str:
        """Where the model without attention does as well, said as the run shows it."""
        t = self.trace
        if not keeps_up:
            return "The model without attention falls behind at every length, even the shortest."
        if len(keeps_up) == len(t.lengths):
            return "Here the model without attention keeps up at every length: this run shows no bottleneck."
        shortest, longest = keeps_up[0], keeps_up[-1]
        where = f"length {count(shortest)}" if shortest == longest else f"lengths {count(shortest)} to {count(longest)}"
        return f"On short sequences, {where}, the model without attention keeps up: here one state is enough."

    # --- 6. takeaway -----------------------------------------------------------------------------

    def sum_up(self):
        """Step 6: what the run showed."""
        t, theme = self.trace, self.theme
        falls = not all(t.baseline_keeps_up)
        points = VGroup(
            label(theme, "The attention weights were learned from the loss, not written.", size=theme.body_size),
            label(
                theme,
                "They found the reversal's alignment: the anti-diagonal."
                if self.aligned
                else "They moved towards the mirrored position, not all the way.",
                size=theme.body_size,
            ),
            label(
                theme,
                "Without attention, one state carried the sequence: in this run it fell behind on long ones."
                if falls
                else "Without attention, one state carried these short sequences as well.",
                size=theme.body_size,
            ),
            label(theme, "Transformers keep the idea, with a scaled dot product as the score.", size=theme.body_size),
        ).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
        BODY.shrink_to_fit(points)
        center_in(points, BODY)
        note = self.source_note()
        with self.step("takeaway", "What the run showed"):
            self.clear()
            heading = self.heading("What the run showed")
            self.say(
                "The alignment was learned, not written: the loss alone pulled the weights onto the anti-diagonal."
                if self.aligned
                else "The alignment was learned, not written, though this run did not reach the anti-diagonal."
            )
            self.play(FadeIn(heading), FadeIn(points[:2], lag_ratio=0.3), run_time=1.5)
            self.say(
                "Without attention, one final state had to carry the whole sequence, and in this run it fell behind on long ones."
                if falls
                else "Without attention, one final state was enough at these lengths: the bottleneck needs longer sequences."
            )
            self.play(FadeIn(points[2]))
            self.say("The transformer keeps the idea and changes the score: a scaled dot product instead of the additive one.")
            self.play(FadeIn(points[3]), FadeIn(note))


def percent(value: float) -> str:
    """A share as a person says it: 0.97 is "97 percent"."""
    return f"{round(100 * float(value))} percent"
