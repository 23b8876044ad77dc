"""From scores to weights: softmax as exponentiate, sum, divide, on a query "cat" and three keys.

Follows seed 000 "Attention Mathematics" (softmax turns similarities into weights
that sum to 1; large values make it too sharp) and Exercise 2 (query "cat"
against keys cat, dog, mat), showing the computed weights.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, FadeOut, GrowFromEdge, Indicate, TransformFromCopy, VGroup, Write

from attention_math.traces.softmax import softmax_trace

from .kit import ExplainerScene
from .kit.text import formula, label
from .theme import format_number

SOFTMAX_FORMULA = (r"\mathrm{softmax}(s)_j = ", r"\frac{e^{s_j}}{\sum_k e^{s_k}}")

ROW_Y = (0.65, -0.1, -0.85)
"""Heights of the table's rows, one per key."""
EXPANSIONS_AT = DOWN * 2.25
"""Where the scores' dot products are written out, under the table (their left edge then goes under the keys')."""
SUM_AT = DOWN * 1.85
"""Where the sum of the exponentials is written, under the table."""
WHY_AT = DOWN * 2.3
"""Where the weights are added up, and why they make 1, under the table."""
TAKEAWAY_AT = UP * 0.3
"""The centre of the summary: a little above the frame's, clear of the captions."""
BASELINE_DROP = DOWN * 0.02
"""How far a formula set among words drops to sit on their baseline (LaTeX's box is deeper than its glyphs)."""


class SoftmaxScene(ExplainerScene):
    name = "softmax"
    title = "Softmax: from scores to weights"
    description = "Exponentiate, sum, divide: scores become weights that sum to 1; wider gaps make them sharper."
    sources = "Vaswani et al. 2017, 3.2.1 (softmax over the scores); query and keys made up by hand"

    @classmethod
    def build_trace(cls):
        return softmax_trace()

    def construct(self):
        t = self.trace
        self.show_scores(t)
        self.show_exponentiate(t)
        self.show_divide(t)
        self.show_sum_to_one(t)
        self.show_sharpening(t)
        self.show_takeaway()

    def column(self, source: str, decimals: int, x: float):
        """A trace row drawn as a column of cells, one per table row, centred at ``x``."""
        grid = self.grid(source, decimals, cell_width=1.25, cell_height=0.75, font_size=self.theme.body_size)
        for j, y in enumerate(ROW_Y):
            grid.cells[j].move_to(RIGHT * x + UP * y)
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def column_title(self, tex: str, column) -> VGroup:
        return formula(self.theme, tex, size=self.theme.large_formula_size).next_to(column.cells[0], UP, buff=0.25)

    def show_scores(self, t):
        theme = self.theme
        scores = ", ".join(format_number(s, 2) for s in t.scores)
        query = t.tokens[0]
        with self.step("scores", "Scores: one query against each key"):
            heading = self.heading(f"Query “{query}” against {len(t.tokens)} keys")
            query_row = VGroup(
                label(theme, f"query “{query}” =", color=theme.query),
                self.grid("query", 1, cell_width=0.9, cell_height=0.7, font_size=theme.body_size),
            ).arrange(RIGHT, buff=0.25)
            query_row.next_to(heading, DOWN, buff=0.4).align_to(heading, LEFT)
            keys = self.grid(
                "keys",
                1,
                cell_width=0.9,
                cell_height=0.75,
                font_size=theme.body_size,
                row_labels=t.tokens,
                row_label_color=theme.key,
                label_size=theme.body_size,
            )
            keys.shift(RIGHT * (-4.3 - keys.cells.get_center()[0]) + UP * (ROW_Y[1] - keys.cells.get_center()[1]))
            keys_title = label(theme, "keys", color=theme.key).next_to(keys.cells, UP, buff=0.2)
            self.scores = self.column("scores", 2, -1.9)
            self.scores_title = self.column_title(r"s = q \cdot k", self.scores)
            self.keys = keys
            self.say(f"A small example: the query “{query}” is [{', '.join(format_number(v, 1) for v in t.query)}].")
            self.play(FadeIn(heading), FadeIn(query_row))
            self.say(f"It meets {format_number(len(t.tokens), 0)} keys: {', '.join(t.tokens)}.")
            self.play(FadeIn(keys_title), FadeIn(keys), FadeIn(self.scores_title))
            self.say("Each score is the dot product of the query with one key, not yet scaled.")
            expansions = VGroup(*[self.expansion(j) for j in range(len(t.tokens))]).arrange(DOWN, buff=0.3, aligned_edge=LEFT)
            expansions.move_to(EXPANSIONS_AT).align_to(keys.row_labels, LEFT)
            for j, expansion in enumerate(expansions):
                self.play(FadeIn(expansion), run_time=0.8 if j else 1.2)
                cell = VGroup(self.scores.cells[j], self.scores.numbers[j])
                self.play(TransformFromCopy(expansion[-1], cell), run_time=0.8)
            self.expansions = expansions
            self.say(f"The scores are {scores}. How do they become attention weights?")
            self.wait(0.5)

    def expansion(self, j: int) -> VGroup:
        """q · k_j written out term by term, every number read from the trace."""
        theme = self.theme
        t = self.trace
        parts = [label(theme, f"{t.tokens[j]}:", size=theme.small_size, color=theme.key)]
        for d in range(len(t.query)):
            if d:
                parts.append(label(theme, "+", size=theme.small_size))
            parts += [
                self.number(f"query[{d}]", 1, color=theme.query),
                label(theme, "×", size=theme.small_size),
                self.number(f"keys[{j}, {d}]", 1, color=theme.key),
            ]
        parts += [label(theme, "=", size=theme.small_size), self.number(f"scores[{j}]", 2)]
        return VGroup(*parts).arrange(RIGHT, buff=0.12)

    def show_exponentiate(self, t):
        exps = ", ".join(format_number(e, 2) for e in t.exp_scores)
        with self.step("exponentiate", "Step 1: exponentiate each score"):
            self.say("Softmax, step 1: raise e to the power of each score.")
            self.play(FadeOut(self.expansions))
            self.exp = self.column("exp_scores", 2, 0.0)
            self.exp_title = self.column_title(r"e^{s}", self.exp)
            self.play(FadeIn(self.exp_title))
            self.play(
                TransformFromCopy(self.scores.cells, self.exp.cells),
                TransformFromCopy(self.scores.numbers, self.exp.numbers),
                run_time=1.5,
            )
            self.say(f"That gives {exps}.")
            self.wait(0.5)
            self.say("Every result is positive, and a bigger score still gives a bigger number.")
            self.play(Indicate(self.exp.numbers, color=self.theme.highlight, scale_factor=1.05), run_time=1)

    def show_divide(self, t):
        theme = self.theme
        weights = ", ".join(format_number(w, 2) for w in t.weights)
        with self.step("sum-and-divide", "Steps 2 and 3: sum, then divide"):
            self.say(f"Step 2: add them up: {format_number(t.exp_sum, 2)}.")
            parts = [formula(theme, r"\textstyle\sum e^{s} ="), self.number("exp_scores[0]", 2)]
            for j in range(1, len(t.tokens)):
                parts += [label(theme, "+", size=theme.small_size), self.number(f"exp_scores[{j}]", 2)]
            parts += [label(theme, "=", size=theme.small_size), self.number("exp_sum", 2, color=theme.highlight)]
            total = VGroup(*parts).arrange(RIGHT, buff=0.15).move_to(SUM_AT).align_to(self.keys.row_labels, LEFT)
            self.play(TransformFromCopy(self.exp.numbers, VGroup(*parts[1:-2:2])), FadeIn(VGroup(*parts[0:-1:2])), run_time=1.5)
            self.play(FadeIn(parts[-1]))
            self.total = VGroup(*parts)
            self.say("Step 3: divide each one by that sum.")

            self.weights = self.column("weights", 2, 1.9)
            divide = VGroup(
                formula(theme, r"\div", size=theme.body_size),
                self.number("exp_sum", 2, size=theme.body_size, color=theme.highlight),
            )
            self.weights_title = divide.arrange(RIGHT, buff=0.1).next_to(self.weights.cells[0], UP, buff=0.25)
            self.play(FadeIn(self.weights_title))
            self.play(
                TransformFromCopy(self.exp.cells, self.weights.cells),
                TransformFromCopy(self.exp.numbers, self.weights.numbers),
                run_time=1.5,
            )

            self.bar_chart = self.bars("weights", t.tokens, height=3.0, spacing=1.05, bar_width=0.65, color=theme.value)
            bottom = self.weights.cells.get_bottom()[1]
            self.bar_chart.shift(
                RIGHT * (4.9 - self.bar_chart.bars.get_center()[0]) + UP * (bottom - self.bar_chart.bars.get_bottom()[1])
            )
            self.say(f"The attention weights are {weights}: “{t.tokens[0]}” gets the most.")
            chart_name = label(theme, "attention weights", size=theme.small_size, color=theme.value)
            chart_name.move_to([self.bar_chart.bars.get_center()[0], self.weights_title.get_y(), 0])
            self.play(GrowFromEdge(self.bar_chart.bars, DOWN), FadeIn(self.bar_chart.labels), FadeIn(chart_name), run_time=1.2)
            self.play(FadeIn(self.bar_chart.numbers, lag_ratio=0.1))
            note = label(theme, "e keeps the order, makes every weight positive", size=theme.min_size, color=theme.muted)
            note.next_to(total, DOWN, buff=0.35).align_to(total, LEFT)
            self.note = note
            self.say("Why e to the power? It turns any score, even a negative one, into a positive number, keeping the order.")
            self.play(FadeIn(note))

    def show_sum_to_one(self, t):
        theme = self.theme
        with self.step("sum-to-one", "Why the weights add up to 1"):
            parts = [self.number("weights[0]", 2)]
            for j in range(1, len(t.tokens)):
                parts += [label(theme, "+", size=theme.small_size), self.number(f"weights[{j}]", 2)]
            parts += [label(theme, "=", size=theme.small_size), self.number("weight_sum", 2, color=theme.highlight)]
            added = VGroup(*parts).arrange(RIGHT, buff=0.15)
            why = formula(
                theme,
                r"\sum_j \frac{e^{s_j}}{\sum_k e^{s_k}} = \frac{\sum_j e^{s_j}}{\sum_k e^{s_k}} = 1",
                size=theme.large_formula_size,
            )
            VGroup(added, why).arrange(RIGHT, buff=0.8).move_to(WHY_AT).align_to(self.keys.row_labels, LEFT)
            self.say("Why do the attention weights add up to 1?")
            self.play(FadeOut(self.total), FadeOut(self.note))
            self.say(f"Here {' + '.join(format_number(w, 2) for w in t.weights)} = {format_number(t.weight_sum, 2)}.")
            self.play(TransformFromCopy(self.weights.numbers, VGroup(*parts[0:-2:2])), FadeIn(VGroup(*parts[1::2])), run_time=1.5)
            self.play(FadeIn(parts[-1]), Indicate(self.bar_chart.bars, color=theme.highlight, scale_factor=1.03))
            self.say("Each weight is e to the power of its score, over the same total.")
            self.play(Write(why), run_time=1.5)
            self.say("Added up, they make the total over itself: exactly 1.")
            self.play(Indicate(why, color=theme.highlight, scale_factor=1.03), run_time=1)

    def show_sharpening(self, t):
        theme = self.theme
        top = ", ".join(format_number(w, 2) for w in t.sharpened_weights[:, 0])
        factors = ", ".join(format_number(m, 0) for m in t.multipliers[1:])
        with self.step("bigger-gaps-sharper", "Wider gaps, sharper weights"):
            self.clear()
            heading = self.heading("Wider gaps between scores, sharper weights")
            charts = VGroup()
            baseline = -2.2  # bottoms of all bars, so the charts compare at a glance
            for m in range(len(t.multipliers)):
                x = (m - (len(t.multipliers) - 1) / 2) * 3.2
                bars = self.bars(
                    f"sharpened_weights[{m}]",
                    t.tokens,
                    height=3.0,
                    spacing=0.85,
                    bar_width=0.55,
                    color=theme.value,
                    number_size=theme.min_size,
                )
                bars.shift(RIGHT * (x - bars.bars.get_center()[0]) + UP * (baseline - bars.bars.get_bottom()[1]))
                scores = self.grid(f"sharpened_scores[{m}]", 2, cell_width=0.85, cell_height=0.5, font_size=theme.min_size)
                scores.move_to(RIGHT * x + UP * (baseline + 3.2))
                title = VGroup(
                    label(theme, "scores ×", size=theme.small_size, color=theme.muted),
                    self.number(f"multipliers[{m}]", 0, size=theme.body_size),
                ).arrange(RIGHT, buff=0.12)
                title.next_to(scores, UP, buff=0.25)
                charts.add(VGroup(title, scores, bars))
            self.say(f"Now multiply the same scores by {factors}: the gaps between them widen.")
            self.play(FadeIn(heading))
            for m, (title, scores, bars) in enumerate(charts):
                if m == 1:
                    self.say(f"Softmax hands more and more to “{t.tokens[0]}”: {top}.")
                self.play(FadeIn(title), FadeIn(scores), run_time=0.6)
                self.play(GrowFromEdge(bars.bars, DOWN), FadeIn(bars.labels), FadeIn(bars.numbers), run_time=1.0)
            self.say("The bigger the gaps, the closer softmax gets to one-hot.")
            self.wait(0.3)
            self.say("Multiplying the scores is dividing by a temperature: a low temperature sharpens, a high one flattens.")
            self.wait(0.5)
            self.say("Wide vectors give big scores: that is why attention divides by the square root of d_k, their width.")
            self.wait(0.5)

    def show_takeaway(self):
        theme = self.theme
        with self.step("takeaway", "Softmax: exponentiate, sum, divide"):
            self.clear()
            equation = formula(theme, *SOFTMAX_FORMULA, size=theme.display_formula_size)
            equation[1].set_color(theme.highlight)
            positive = VGroup(
                label(theme, "1. exponentiate: every"),
                formula(theme, r"e^{s_j}", size=theme.large_formula_size),
                label(theme, "is positive"),
            )
            positive.arrange(RIGHT, buff=0.15)
            positive[1].align_to(positive[0], DOWN).shift(BASELINE_DROP)
            points = VGroup(
                positive,
                label(theme, "2. sum, 3. divide: the attention weights add up to 1"),
                label(theme, "wider gaps between scores: sharper weights", color=theme.muted),
            ).arrange(DOWN, buff=0.35, aligned_edge=LEFT)
            VGroup(equation, points).arrange(DOWN, buff=0.8).shift(TAKEAWAY_AT)
            self.say("Softmax: exponentiate, sum, divide.")
            self.play(Write(equation), run_time=1.5)
            self.say("The attention weights are positive, and they add up to 1.")
            self.play(FadeIn(points[:2], shift=UP * 0.2, lag_ratio=0.3), run_time=1.5)
            self.say("They get sharper as the gaps between the scores grow.")
            self.play(FadeIn(points[2], shift=UP * 0.2), run_time=1)
