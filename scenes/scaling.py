"""Why attention divides by sqrt(d_k): sampled dot products, then one row under softmax.

1000 random pairs for d_k = 8, 64, 512, then one row of scores at d_k = 64, divided by 8
(Vaswani et al. 2017, footnote 4: q · k has mean 0 and variance d_k).
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, GrowFromEdge, Indicate, ReplacementTransform, VGroup, Write

from attention_math import DEFAULT_SEED, scaling_trace

from .kit import ExplainerScene
from .kit.charts import Histogram
from .kit.layout import SAFE_AREA, keep_inside, pin
from .kit.text import formula, label
from .theme import format_number

ATTENTION_FORMULA = (r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(", r"\frac{QK^\top}{\sqrt{d_k}}", r"\right)V")

SCORES_ROW = UP * 1.9
"""Where the row of one query's scores sits: under the heading, above the two charts."""
NEAR_QUARTER = 0.24
"""A largest p(1 − p) at least this is said to be near its bound, 1/4 (p within 0.1 of 1/2)."""
CHARTS = (LEFT * 3.3 + DOWN * 1.55, RIGHT * 3.3 + DOWN * 1.55)
"""Where the two charts of attention weights sit side by side: without scaling, then with it."""


class ScalingScene(ExplainerScene):
    name = "scaling"
    title = "Why divide by √d_k"
    description = "Dot products grow with d_k; dividing by √d_k keeps softmax smooth instead of one-hot."
    sources = "Vaswani et al. 2017, 3.2.1 and footnote 4 (q · k has variance d_k; dividing by √d_k)"
    poster_step = "softmax-with-scaling"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return scaling_trace(seed)

    def construct(self):
        self.ask_why()
        self.sample_dot_products()
        self.divide_each_by_its_root()
        self.score_one_row()
        self.softmax_without_scaling()
        self.softmax_with_scaling()
        self.sum_up()

    def ask_why(self):
        """Step 1: the formula, and the question."""
        theme = self.theme
        with self.step("the-question", "Why divide by √d_k?"):
            equation = formula(theme, *ATTENTION_FORMULA, size=theme.headline_formula_size)
            equation[1].set_color(theme.highlight)
            question = VGroup(
                label(theme, "Why divide by", color=theme.muted), formula(theme, r"\sqrt{d_k}\,?", size=theme.large_formula_size)
            )
            question.arrange(RIGHT, buff=0.2)
            VGroup(equation, question).arrange(DOWN, buff=0.8)
            self.say("Attention divides every score by the square root of d_k.")
            self.play(Write(equation), run_time=2)
            self.say("d_k is the width of the queries and keys: how many numbers each has.")
            # Only d_k, the last two glyphs of the fraction (Q, K, ⊤, bar, the root's two strokes, d, k).
            self.play(Indicate(equation[1][-2:], color=theme.highlight, scale_factor=1.5), run_time=1.2)
            self.say("Why divide? Let's measure what happens without it.")
            self.play(FadeIn(question, shift=UP * 0.2))

    # The histograms share one x axis: the same bin edges, drawn at the same place and width in every row.

    HISTOGRAM_LEFT = -3.3
    HISTOGRAM_WIDTH = 7.4
    HISTOGRAM_HEIGHT = 1.3
    ROW_BASES = (0.95, -0.8, -2.55)
    """Heights of the three histograms' axes, one row per d_k."""

    def histogram(self, counts, edges, row: int, max_count: float) -> Histogram:
        # One neutral colour for every width: the rows differ by d_k, written beside them, not by colour
        # (orange, blue and green mean query, key and value in every other scene).
        histogram = Histogram(
            self.theme,
            counts,
            edges,
            width=self.HISTOGRAM_WIDTH,
            height=self.HISTOGRAM_HEIGHT,
            color=self.theme.muted,
            max_count=max_count,
        )
        # Placed by its axis, so bars of every row stand on the same line at the same x.
        histogram.shift(RIGHT * self.HISTOGRAM_LEFT + UP * self.ROW_BASES[row] - histogram.axis.get_start())
        return histogram

    def axis_name(self, tex: str) -> VGroup:
        """What the histograms' axes measure, under the ticks of the bottom one: the x quantity, and what a bar's height counts."""
        theme = self.theme
        # "across: … ;" rather than a "·" after q · k, which read as a third factor of the product.
        name = VGroup(
            label(theme, "across:", size=theme.small_size, color=theme.muted),
            formula(theme, tex, size=theme.aside_formula_size),
            label(theme, ";  bar height: how many of the", size=theme.small_size, color=theme.muted),
            self.number("n_samples", 0, size=theme.small_size, color=theme.muted),
            label(theme, "pairs", size=theme.small_size, color=theme.muted),
        ).arrange(RIGHT, buff=0.15)
        # The semicolon against the formula it ends.
        name[2:].shift(LEFT * 0.12)
        return name.next_to(self.ticks, DOWN, buff=0.15).match_x(self.histograms[-1].axis)

    def sample_dot_products(self):
        """Step 2: dot products of random vectors spread wider as d_k grows."""
        t, theme = self.trace, self.theme
        self.histograms, self.variance_numbers, names = [], [], VGroup()
        variance_words = VGroup()
        # One count scale for the raw histograms and for the same products divided (step 3), drawn on the
        # same axis: a bar's height means the same number of pairs before and after dividing.
        self.raw_axis_max_count = max(t.hist_counts.max(), t.scaled_counts_on_raw_edges.max())
        for i in range(len(t.d_k_values)):
            histogram = self.histogram(t.hist_counts[i], t.hist_edges, i, self.raw_axis_max_count)
            name = VGroup(formula(theme, r"d_k ="), self.number(f"d_k_values[{i}]", 0, size=theme.body_size)).arrange(
                RIGHT, buff=0.15
            )
            name.move_to(histogram.axis.get_start() + LEFT * (0.35 + name.width / 2) + UP * 0.35)
            words = label(theme, "variance", size=theme.small_size, color=theme.muted)
            number = self.number(f"variances[{i}]", 1, size=theme.body_size)
            words.move_to(histogram.axis.get_end() + RIGHT * (0.3 + words.width / 2) + UP * 0.65)
            number.next_to(words, DOWN, buff=0.12).align_to(words, LEFT)
            self.histograms.append(histogram)
            self.variance_numbers.append(number)
            names.add(name)
            variance_words.add(VGroup(words, number))
        self.ticks = self.axis_ticks(self.histograms[-1], t.hist_edges, "hist_edges")
        self.x_name = self.axis_name(r"q \cdot k")
        variances = ", ".join(format_number(v, 1) for v in t.variances)
        with self.step("dot-products-grow", "Dot products grow with d_k"):
            self.clear()
            self.heading_text = self.heading("Dot products of random vectors")
            self.play(FadeIn(self.heading_text))
            self.say(f"For each width d_k, draw {format_number(t.n_samples, 0)} pairs of random vectors q and k.")
            self.entries = label(
                theme, "entries: random (a fixed random seed), mean 0, variance 1", size=theme.small_size, color=theme.muted
            )
            self.entries.next_to(self.heading_text, DOWN, buff=0.15).align_to(self.heading_text, LEFT)
            self.play(FadeIn(self.entries))
            self.say("Each dot product q·k adds up d_k products of random numbers.")
            for i, histogram in enumerate(self.histograms):
                self.play(FadeIn(names[i]), FadeIn(histogram.axis), run_time=0.5)
                self.play(GrowFromEdge(histogram.bars, DOWN), run_time=1.0)
                if i == 0:
                    self.play(FadeIn(self.ticks), FadeIn(self.x_name))
            self.say("So its spread grows with d_k: the histograms get wider.")
            self.play(*[Indicate(h.bars, color=theme.highlight, scale_factor=1.02) for h in self.histograms], run_time=1.0)
            # The variances appear with the line that reads them, not a line before.
            self.say(f"The measured variances are {variances}: close to d_k itself.")
            self.play(*[FadeIn(words) for words in variance_words], run_time=0.8)
            self.play(Indicate(VGroup(*self.variance_numbers), color=theme.highlight), run_time=1.2)

    def divide_each_by_its_root(self):
        """Step 3: each dot product divided by the square root of its d_k, on the same axis; then the axis zooms in."""
        t, theme = self.trace, self.theme
        new_heading = VGroup(
            label(theme, "Each divided by", size=theme.title_size),
            formula(theme, r"\sqrt{d_k}", size=theme.headline_formula_size),
        )
        new_heading.arrange(RIGHT, buff=0.2)
        pin(new_heading, LEFT, SAFE_AREA, y=self.heading_text.get_y())
        divide = [ReplacementTransform(self.heading_text, new_heading)]
        zoom, measured = [], []
        max_count = t.scaled_hist_counts.max()
        for i, (histogram, variance) in enumerate(zip(self.histograms, self.variance_numbers)):
            # First on the unscaled axis (the products pile up next to 0), then on an axis zoomed in to fit them.
            spike = self.histogram(t.scaled_counts_on_raw_edges[i], t.hist_edges, i, self.raw_axis_max_count)
            scaled_histogram = self.histogram(t.scaled_hist_counts[i], t.scaled_hist_edges, i, max_count)
            scaled_variance = self.number(f"scaled_variances[{i}]", 2, size=theme.body_size)
            scaled_variance.move_to(variance, aligned_edge=LEFT)
            # The raw variances leave with the division; the scaled ones come with the line that reads them.
            divide += [ReplacementTransform(histogram.bars, spike.bars), FadeOut(variance)]
            measured.append(scaled_variance)
            zoom.append(ReplacementTransform(spike.bars, scaled_histogram.bars))
        new_ticks = self.axis_ticks(self.histograms[-1], t.scaled_hist_edges, "scaled_hist_edges")
        new_x_name = self.axis_name(r"q \cdot k \,/\, \sqrt{d_k}")
        # The axis is named q·k/√d_k as soon as the bars are divided; the ticks change with the zoom.
        divide.append(ReplacementTransform(self.x_name, new_x_name))
        zoom.append(ReplacementTransform(self.ticks, new_ticks))
        last = len(t.hist_edges) - 1
        raw_range = f"{format_number(t.hist_edges[0], 0)} to {format_number(t.hist_edges[last], 0)}"
        scaled_range = f"{format_number(t.scaled_hist_edges[0], 0)} to {format_number(t.scaled_hist_edges[last], 0)}"
        scaled = ", ".join(format_number(v, 2) for v in t.scaled_variances)
        with self.step("divide-by-sqrt-dk", "Divide by √d_k"):
            self.say("Now divide every dot product by the square root of its d_k.")
            self.play(*divide, run_time=2)
            self.say(f"On the same axis, from {raw_range}, all three shrink to a narrow spike around 0.")
            self.wait(0.5)
            self.say(f"Now zoom in: the axis runs from {scaled_range} instead.")
            self.play(*zoom, run_time=2)
            self.play(Indicate(new_ticks, color=theme.highlight), run_time=1)
            self.say("Zoomed in, the three spreads are the same, whatever the width.")
            self.wait(0.5)
            self.say(f"Measured variances: {scaled}, all close to 1.")
            self.play(*[FadeIn(number) for number in measured], run_time=0.8)
            self.play(Indicate(VGroup(*measured), color=theme.highlight), run_time=1.0)

    def axis_ticks(self, histogram, edges, source):
        """Labels of the first edge, zero and the last edge under a histogram's axis."""
        theme = self.theme
        last = len(edges) - 1
        left = self.number(f"{source}[0]", 0).next_to(histogram.axis.get_start(), DOWN, buff=0.15)
        right = self.number(f"{source}[{last}]", 0).next_to(histogram.axis.get_end(), DOWN, buff=0.15)
        zero = label(theme, "0", size=theme.small_size, mono=True).next_to(histogram.x_to_point(0.0, edges), DOWN, buff=0.15)
        return VGroup(left, zero, right)

    def score_one_row(self):
        """Step 4: one query against a few keys, at d_k = 64, without scaling."""
        t, theme = self.trace, self.theme
        self.keys = [f"k{chr(0x2080 + j + 1)}" for j in range(len(t.row_raw_scores))]
        low, high = t.row_raw_scores.min(), t.row_raw_scores.max()
        self.raw = raw = self.grid("row_raw_scores", 1, col_labels=self.keys, col_label_color=theme.key, cell_width=1.3)
        raw_name = formula(theme, r"q \cdot k_j").next_to(raw, LEFT, buff=0.4)
        VGroup(raw_name, raw).move_to(SCORES_ROW)
        with self.step("one-row-of-scores", "One query, one row of scores"):
            self.clear()
            heading = self.heading(f"One query, {format_number(len(self.keys), 0)} keys, width {format_number(t.row_d_k, 0)}")
            seed = label(theme, "random vectors (a fixed random seed)", size=theme.small_size, color=theme.muted)
            seed.next_to(heading, DOWN, buff=0.15).align_to(heading, LEFT)
            self.say(
                f"Now one query against {format_number(len(self.keys), 0)} keys, each {format_number(t.row_d_k, 0)} numbers wide."
            )
            self.play(FadeIn(heading), FadeIn(raw_name), FadeIn(raw.col_labels))
            self.say("They are random vectors too, drawn with a fixed random seed.")
            self.play(FadeIn(seed))
            self.say(f"The raw scores q·k run from {format_number(low, 1)} to {format_number(high, 1)}.")
            self.play(FadeIn(raw.cells), FadeIn(raw.numbers, lag_ratio=0.15), run_time=1.5)

    def chart(self, title, bars, slope_source: str, decimals: int) -> VGroup:
        """A chart of attention weights under its title, and under it softmax's largest slope there, from the trace."""
        theme = self.theme
        slope = VGroup(
            formula(theme, r"\text{largest } p\,(1-p) =", size=theme.aside_formula_size),
            self.number(slope_source, decimals, size=theme.body_size),
        ).arrange(RIGHT, buff=0.15)
        return VGroup(title, bars, slope).arrange(DOWN, buff=0.22)

    def softmax_without_scaling(self):
        """Step 5: softmax of the raw scores is nearly one-hot, and its gradient into the scores nearly vanishes."""
        t, theme = self.trace, self.theme
        winner = int(t.row_unscaled_weights.argmax())
        # Without and with scaling in a neutral pair: orange, blue and green mean query, key and value.
        unscaled = self.bars("row_unscaled_weights", self.keys, height=1.5, spacing=1.0, color=theme.muted)
        self.unscaled_title = formula(theme, r"\mathrm{softmax}(q \cdot k_j)", size=theme.body_size)
        self.unscaled_group = self.chart(self.unscaled_title, unscaled, "row_unscaled_max_slope", 5)
        # Under the row of scores and the divided row that step 6 puts beneath it.
        self.unscaled_group.next_to(self.raw, DOWN, buff=self.raw.height + 0.55)
        self.unscaled_group.set_x(CHARTS[0][0])
        slope = self.unscaled_group[2]
        tiny = format_number(t.row_unscaled_max_slope, 5)
        # What holds exactly: a weight's derivative with respect to its own score is p(1 − p), at most 1/4.
        # Right of the rows of scores (s_j), in three short lines: the only room the two rows and charts leave.
        self.rule = VGroup(
            formula(theme, r"\partial p_j / \partial s_j", size=theme.aside_formula_size),
            formula(theme, r"= p_j\,(1-p_j)", size=theme.aside_formula_size),
            formula(theme, r"\le 1/4", size=theme.aside_formula_size),
            # s_j named: the score of key j that softmax is given.
            formula(theme, r"s_j:\ \text{score } j", size=theme.min_formula_size),
        ).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
        self.rule.next_to(self.raw, RIGHT, buff=0.35).align_to(self.raw.cells, UP)
        keep_inside(self.rule)
        with self.step("softmax-without-scaling", "Softmax without scaling: nearly one-hot"):
            self.say("Softmax turns these raw scores into attention weights.")
            self.play(FadeIn(self.unscaled_title), GrowFromEdge(unscaled.bars, DOWN), FadeIn(unscaled.labels), run_time=1.2)
            self.play(FadeIn(unscaled.numbers, lag_ratio=0.1))
            self.say(
                f"They are nearly one-hot: key {winner + 1} takes {format_number(t.row_unscaled_weights[winner], 2)}, "
                "the others almost nothing."
            )
            self.play(Indicate(unscaled.numbers[winner], color=theme.highlight), run_time=1)
            self.say(
                "A weight's slope with respect to its own score is p(1 − p): at most 1/4, near 0 when p is near 0 or 1.",
                spoken="A weight's slope with respect to its own score is p times one minus p: at most one quarter, "
                "near zero when p is near zero or one.",
            )
            self.play(FadeIn(self.rule, shift=UP * 0.1))
            self.say(f"Here the largest is only {tiny}.")
            self.play(FadeIn(slope, shift=UP * 0.1))
            self.play(Indicate(slope[1], color=theme.highlight), run_time=1)
            # Exact: a slope of weight i in another score j is −p_i p_j, and p_j ≤ 1 − p_i, so none is larger.
            self.say(
                "No weight's slope in any score is larger, so little gradient reaches the scores, and W_Q and W_K barely learn."
            )
            self.wait(0.5)

    def softmax_with_scaling(self):
        """Step 6: the same row divided by the square root of 64, then softmax: smooth, and its gradient back."""
        t, theme = self.trace, self.theme
        spread = t.row_scaled_scores
        scaled = self.grid("row_scaled_scores", 2, cell_width=1.3).next_to(self.raw, DOWN, buff=0.3)
        scale = VGroup(label(theme, "÷", size=theme.body_size), self.number("row_scale", 0, size=theme.body_size)).arrange(
            RIGHT, buff=0.1
        )
        scale.next_to(scaled, LEFT, buff=0.4)
        scaled_bars = self.bars("row_scaled_weights", self.keys, height=1.5, spacing=1.0, color=theme.text)
        scaled_title = formula(theme, r"\mathrm{softmax}(q \cdot k_j \,/\, \sqrt{d_k})", size=theme.body_size)
        scaled_group = self.chart(scaled_title, scaled_bars, "row_scaled_max_slope", 2)
        scaled_group.set_x(CHARTS[1][0]).align_to(self.unscaled_group, DOWN)
        scaled_title.match_y(self.unscaled_title)
        slope = scaled_group[2]
        leader = int(t.row_scaled_weights.argmax())
        with self.step("softmax-with-scaling", "Softmax with scaling: q·k / √d_k"):
            self.say(f"d_k is {format_number(t.row_d_k, 0)}, so divide by its square root, {format_number(t.row_scale, 0)}.")
            self.play(FadeIn(scale))
            self.play(ReplacementTransform(self.raw.copy(), scaled), run_time=1.5)
            self.say(f"The scores shrink to between {format_number(spread.min(), 2)} and {format_number(spread.max(), 2)}.")
            self.wait(0.3)
            self.say("Softmax now spreads the attention weights.")
            self.play(FadeIn(scaled_title), GrowFromEdge(scaled_bars.bars, DOWN), FadeIn(scaled_bars.labels), run_time=1.2)
            self.play(FadeIn(scaled_bars.numbers, lag_ratio=0.1))
            self.say(
                f"Key {leader + 1} still leads with {format_number(t.row_scaled_weights[leader], 2)}, but every key keeps a share."
            )
            self.play(Indicate(scaled_bars.numbers[leader], color=theme.highlight), run_time=1)
            largest = format_number(t.row_scaled_max_slope, 2)
            # "Near the most it can be" only where the trace's slope is near 1/4.
            near = ", near the most it can be, 1/4" if t.row_scaled_max_slope >= NEAR_QUARTER else ""
            spoken_near = ", near the most it can be, one quarter" if near else ""
            self.say(
                f"And the largest p(1 − p) is now {largest}{near}: the gradient reaches the scores again.",
                spoken=f"And the largest p times one minus p is now {largest}{spoken_near}: the gradient reaches the scores again.",
            )
            self.play(FadeIn(slope, shift=UP * 0.1))
            self.play(Indicate(slope[1], color=theme.highlight), run_time=1)

    def sum_up(self):
        """Step 7: the takeaway, with the assumption it rests on."""
        theme = self.theme
        with self.step("takeaway", "Why √d_k: variance stays near 1"):
            self.clear()
            equation = formula(theme, *ATTENTION_FORMULA, size=theme.headline_formula_size)
            equation[1].set_color(theme.highlight)
            summary = formula(
                theme,
                r"\mathrm{variance} \approx d_k \;\rightarrow\; \div\sqrt{d_k} \;\rightarrow\; \mathrm{variance} \approx 1",
                size=theme.formula_size,
            )
            summary.set_color(theme.muted)
            assumption = label(
                theme, "assuming q and k have independent entries, mean 0, variance 1", size=theme.small_size, color=theme.muted
            )
            VGroup(equation, summary, assumption).arrange(DOWN, buff=0.6)
            self.say("Dividing by the square root of d_k keeps the scores' variance near 1 at any width,")
            self.play(FadeIn(equation), FadeIn(summary, shift=UP * 0.2))
            self.say("assuming q and k have independent entries with mean 0 and variance 1.")
            self.play(FadeIn(assumption, shift=UP * 0.2))
            self.say("So softmax stays smooth instead of one-hot, and gradient still reaches the queries and keys.")
            self.play(Indicate(equation[1], color=theme.highlight), run_time=1.2)
