"""Why attention divides by sqrt(d_k): sampled dot products, then one row under softmax.

Follows seed 001 part 3 (1000 random pairs for d_k = 8, 64, 512) and seed 003
"Why scaling matters" (one row of scores at d_k = 64, divided by 8).
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, GrowFromEdge, ReplacementTransform, VGroup, Write

from attention_math import DEFAULT_SEED, scaling_trace

from .kit import ExplainerScene
from .kit.components import Histogram, formula, label
from .theme import format_number

ATTENTION_FORMULA = (r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(", r"\frac{QK^\top}{\sqrt{d_k}}", r"\right)V")


class ScalingScene(ExplainerScene):
    name = "scaling"
    title = "Why divide by √d_k"
    description = "Dot products grow with d_k; dividing by √d_k keeps softmax smooth instead of one-hot."
    sources = "seed 001 part 3; seed 003 'Why scaling matters'"
    poster_step = "softmax-with-scaling"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return scaling_trace(seed)

    def construct(self):
        t = self.trace
        self.show_question()
        self.show_spread(t)
        self.show_one_row(t)

    def show_question(self):
        theme = self.theme
        caption = (
            "Attention divides every score by the square root of d_k, the width of the queries and keys. "
            "Why? Let's measure what happens without it."
        )
        with self.step("the-question", caption):
            equation = formula(theme, *ATTENTION_FORMULA, size=44)
            equation[1].set_color(theme.highlight)
            question = label(theme, "Why divide by the square root of d_k?", color=theme.muted)
            VGroup(equation, question).arrange(DOWN, buff=0.8)
            self.play(Write(equation), run_time=2)
            self.play(FadeIn(question, shift=UP * 0.2))

    def show_spread(self, t):
        theme = self.theme
        widths = t.d_k_values
        variances = ", ".join(format_number(v, 1) for v in t.variances)
        caption = (
            f"Draw {t.n_samples:,} random pairs q, k with unit-variance entries for each width d_k. "
            "Their dot product q·k adds up d_k random terms, so its spread grows with d_k: "
            f"the measured variances are {variances}, close to d_k itself."
        )
        colors = (theme.query, theme.key, theme.value)
        with self.step("dot-products-grow", caption):
            self.clear()
            heading = self.heading("Dot products of random vectors")
            self.play(FadeIn(heading))
            rows, variance_labels, histograms = [], [], []
            max_count = t.hist_counts.max()
            for i in range(len(widths)):
                histogram = Histogram(
                    theme, t.hist_counts[i], t.hist_edges, width=7.9, height=1.55, color=colors[i], max_count=max_count
                )
                name = VGroup(formula(theme, r"d_k ="), self.number(f"d_k_values[{i}]", 0, size=theme.body_size)).arrange(
                    RIGHT, buff=0.15
                )
                variance = VGroup(
                    label(theme, "variance", size=theme.small_size, color=theme.muted),
                    self.number(f"variances[{i}]", 1, size=theme.body_size),
                ).arrange(RIGHT, buff=0.2)
                row = VGroup(name, histogram, variance)
                row.arrange(RIGHT, buff=0.4, aligned_edge=DOWN)
                rows.append(row)
                histograms.append(histogram)
                variance_labels.append(variance)
            VGroup(*rows).arrange(DOWN, buff=0.75, aligned_edge=LEFT).next_to(heading, DOWN, buff=0.7).to_edge(LEFT, buff=0.6)
            ticks = self.axis_ticks(histograms[-1], t.hist_edges, "hist_edges")
            for row, histogram in zip(rows, histograms):
                self.play(FadeIn(row[0]), FadeIn(histogram.axis), run_time=0.6)
                self.play(GrowFromEdge(histogram.bars, DOWN), run_time=1.2)
                self.play(FadeIn(row[2]), run_time=0.5)
            self.play(FadeIn(ticks))
            self.wait(1)

        scaled = ", ".join(format_number(v, 2) for v in t.scaled_variances)
        caption = (
            "Now divide every dot product by the square root of its d_k. "
            f"The three spreads become the same: measured variances {scaled}, all close to 1, whatever the width."
        )
        with self.step("divide-by-sqrt-dk", caption):
            new_heading = self.heading("Divided by the square root of d_k")
            animations = [ReplacementTransform(heading, new_heading)]
            max_count = t.scaled_hist_counts.max()
            for i, (histogram, variance) in enumerate(zip(histograms, variance_labels)):
                scaled_histogram = Histogram(
                    theme,
                    t.scaled_hist_counts[i],
                    t.scaled_hist_edges,
                    width=7.9,
                    height=1.55,
                    color=colors[i],
                    max_count=max_count,
                )
                scaled_histogram.move_to(histogram, aligned_edge=DOWN)
                scaled_variance = self.number(f"scaled_variances[{i}]", 2, size=theme.body_size).move_to(
                    variance[1], aligned_edge=LEFT
                )
                animations += [
                    ReplacementTransform(histogram.bars, scaled_histogram.bars),
                    ReplacementTransform(variance[1], scaled_variance),
                ]
            new_ticks = self.axis_ticks(histograms[-1], t.scaled_hist_edges, "scaled_hist_edges")
            animations.append(ReplacementTransform(ticks, new_ticks))
            self.play(*animations, run_time=2)
            self.wait(1)

    def axis_ticks(self, histogram, edges, source):
        """Labels of the first edge, zero and the last edge under a histogram's axis."""
        theme = self.theme
        last = len(edges) - 1
        left = self.number(f"{source}[0]", 0).next_to(histogram.axis.get_start(), DOWN, buff=0.15)
        right = self.number(f"{source}[{last}]", 0).next_to(histogram.axis.get_end(), DOWN, buff=0.15)
        zero = label(theme, "0", size=theme.small_size, mono=True).next_to(histogram.x_to_point(0.0, edges), DOWN, buff=0.15)
        return VGroup(left, zero, right)

    def show_one_row(self, t):
        theme = self.theme
        keys = [f"k{chr(0x2080 + j + 1)}" for j in range(len(t.row_raw_scores))]
        low, high = t.row_raw_scores.min(), t.row_raw_scores.max()
        caption = (
            f"Now one real query q against {len(keys)} keys, all {t.row_d_k}-dimensional. "
            f"The raw scores q·k run from {format_number(low, 1)} to {format_number(high, 1)}."
        )
        with self.step("one-row-of-scores", caption):
            self.clear()
            heading = self.heading(f"One query, {len(keys)} keys, d_k = {t.row_d_k}")
            raw = self.grid("row_raw_scores", 1, col_labels=keys, col_label_color=theme.key, cell_width=1.05)
            raw_name = formula(theme, r"q \cdot k_j").next_to(raw, LEFT, buff=0.4)
            VGroup(raw_name, raw).move_to(UP * 2.1)
            self.play(FadeIn(heading), FadeIn(raw_name), FadeIn(raw.col_labels))
            self.play(FadeIn(raw.cells), FadeIn(raw.numbers, lag_ratio=0.15), run_time=1.5)

        winner = int(t.row_unscaled_weights.argmax())
        caption = (
            f"Softmax of these raw scores is nearly one-hot: key {winner + 1} takes "
            f"{format_number(t.row_unscaled_weights[winner], 2)} of the weight and the others almost nothing. "
            "A softmax this saturated passes back almost no gradient, so learning stalls."
        )
        with self.step("softmax-without-scaling", caption):
            unscaled = self.bars("row_unscaled_weights", keys, height=2.0, spacing=0.95, color=theme.query)
            unscaled_title = formula(theme, r"\mathrm{softmax}(q \cdot k_j)", size=theme.body_size)
            unscaled_group = VGroup(unscaled_title, unscaled).arrange(DOWN, buff=0.35).move_to(LEFT * 3.4 + DOWN * 1.35)
            self.play(FadeIn(unscaled_title), GrowFromEdge(unscaled.bars, DOWN), FadeIn(unscaled.labels), run_time=1.2)
            self.play(FadeIn(unscaled.numbers, lag_ratio=0.1))

        spread = t.row_scaled_scores
        caption = (
            f"Divide by the square root of {t.row_d_k}, which is {format_number(t.row_scale, 0)}: "
            f"the scores shrink to {format_number(spread.min(), 2)} … {format_number(spread.max(), 2)}, "
            f"and softmax spreads the weight; key {int(t.row_scaled_weights.argmax()) + 1} still leads with "
            f"{format_number(t.row_scaled_weights.max(), 2)}, but every key keeps a share and a gradient."
        )
        with self.step("softmax-with-scaling", caption):
            scaled = self.grid("row_scaled_scores", 2, cell_width=1.05).next_to(raw, DOWN, buff=0.35)
            scale = VGroup(label(theme, "÷", size=theme.body_size), self.number("row_scale", 0, size=theme.body_size)).arrange(
                RIGHT, buff=0.1
            )
            scale.next_to(scaled, LEFT, buff=0.4)
            self.play(FadeIn(scale))
            self.play(ReplacementTransform(raw.copy(), scaled), run_time=1.5)
            scaled_bars = self.bars("row_scaled_weights", keys, height=2.0, spacing=0.95, color=theme.value)
            scaled_title = formula(theme, r"\mathrm{softmax}\left(\frac{q \cdot k_j}{\sqrt{d_k}}\right)", size=theme.body_size)
            scaled_group = VGroup(scaled_title, scaled_bars).arrange(DOWN, buff=0.2)
            scaled_group.move_to(RIGHT * 3.4 + DOWN * 1.35).align_to(unscaled_group, DOWN)
            scaled_title.match_y(unscaled_title)
            self.play(FadeIn(scaled_title), GrowFromEdge(scaled_bars.bars, DOWN), FadeIn(scaled_bars.labels), run_time=1.2)
            self.play(FadeIn(scaled_bars.numbers, lag_ratio=0.1))
            self.wait(1)

        caption = (
            "Dividing by the square root of d_k keeps the scores' variance near 1 at any width, "
            "so softmax stays smooth instead of one-hot, and the model keeps learning."
        )
        with self.step("takeaway", caption):
            self.clear()
            equation = formula(self.theme, *ATTENTION_FORMULA, size=44)
            equation[1].set_color(self.theme.highlight)
            summary = label(self.theme, "variance ≈ d_k  →  ÷ √d_k  →  variance ≈ 1", color=self.theme.muted)
            VGroup(equation, summary).arrange(DOWN, buff=0.8)
            self.play(FadeIn(equation), FadeIn(summary, shift=UP * 0.2))
            self.wait(1)
