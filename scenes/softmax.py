"""From scores to weights: softmax as exponentiate, sum, divide, on a query "cat" and three keys.

Follows seed 000 "Attention Mathematics" (softmax turns similarities into weights
that sum to 1; large values make it too sharp) and Exercise 2 (query "cat"
against keys cat, dog, mat), showing the computed weights. The screen says the
numbers are made up by hand and the query is cat's own key.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    Line,
    MathTex,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math.traces.softmax import softmax_trace

from .kit import ExplainerScene
from .kit.layout import keep_inside
from .kit.text import formula, label
from .theme import format_number

SOFTMAX_FORMULA = (r"\mathrm{softmax}(s)_j = ", r"\frac{e^{s_j}}{\sum_k e^{s_k}}")

ROW_Y = (0.65, -0.1, -0.85)
"""Heights of the table's rows, one per key."""
EXPANSIONS_AT = DOWN * 2.25
"""Where the scores' dot products are written out, under the table (their left edge then goes under the keys')."""
SUM_AT = DOWN * 1.85
"""Where the sum of the exponentials is written, under the table."""
WHY_AT = DOWN * 2.75
"""Where the weights are added up, and why they make 1, under the table."""
TAKEAWAY_AT = UP * 0.3
"""The centre of the summary: a little above the frame's, clear of the captions."""
PANELS_WIDTH = 13.0
"""Room across the frame for the charts of the scores multiplied by each factor, side by side."""
STRIP_ROWS = (UP * 1.2, DOWN * 0.9)
"""Centres of the two strips of random dot products (a small d_k, then a large one)."""
STRIP_LENGTH = 7.0
"""Width of each strip's axis; the same scale in both rows, so their spreads compare at a glance."""
STRIP_BAND = 0.5
"""Height of the band each strip's dots are spread over (by their order, not at random), so dense parts read as dense."""
STRIP_LAYERS = 9
"""How many heights the dots of a strip take in turn across its band."""
SCALED_COLUMNS = (-4.2, -1.9, 0.4)
"""Where the scores, the scores divided by √d_k and their weights stand in the scaled example."""


def on_baseline(words, *parts) -> None:
    """Stand each part's first glyph on the baseline of ``words``' first glyph (none of those glyphs descends).

    Aligning bottoms would not do: a "p" or "g" among the words reaches below the baseline, and a formula's box is deeper.
    """
    base = words[0].get_bottom()[1]
    for part in parts:
        glyph = part[0][0] if isinstance(part, MathTex) else part[0]
        part.shift(UP * (base - glyph.get_bottom()[1]))


def places(value: float) -> int:
    """Decimals that show ``value`` exactly, up to 3 (a factor 0.5 or 8, a temperature 0.125)."""
    return next((k for k in range(3) if abs(round(value, k) - value) < 1e-9), 3)


"""How far a formula set among words drops to sit on their baseline (LaTeX's box is deeper than its glyphs)."""


class SoftmaxScene(ExplainerScene):
    name = "softmax"
    title = "Softmax: from scores to weights"
    description = "Exponentiate, sum, divide: scores become weights that sum to 1; wider gaps make them sharper."
    sources = "Vaswani et al. 2017, 3.2.1 (softmax over the scores); query and keys made up by hand"

    @classmethod
    def build_trace(cls):
        # Shrink, as is, widen twice: fewer, larger panels than every factor in between. Not three: a
        # 3 × 3 table of weights would read, to the explorer, as the three words attending to each other.
        return softmax_trace(multipliers=(0.5, 1, 2, 8))

    def construct(self):
        t = self.trace
        self.show_scores(t)
        self.show_exponentiate(t)
        self.show_divide(t)
        self.show_sum_to_one(t)
        self.show_sharpening(t)
        self.show_spread(t)
        self.show_scaled(t)
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
            # How the example was made, beside it for as long as the numbers are on screen.
            made = label(
                theme, f"made up by hand: the query is {query}'s own key", size=theme.min_size, color=theme.muted
            ).next_to(query_row, RIGHT, buff=0.5)
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
            numbers = [format_number(v, 1) for v in t.query]
            self.say(
                f"A small example, made up by hand: the query for “{query}” is [{', '.join(numbers)}], {query}'s own key.",
                spoken=f"A small example, made up by hand: the query for “{query}” is {' and '.join(numbers)}, "
                f"{query}'s own key.",
            )
            self.play(FadeIn(heading), FadeIn(query_row), FadeIn(made))
            self.say(f"It meets {format_number(len(t.tokens), 0)} keys: {', '.join(t.tokens)}.")
            self.play(FadeIn(keys_title), FadeIn(keys), FadeIn(self.scores_title))
            self.say(
                "Each score is the dot product of the query with one key. Attention also divides it by the square root "
                f"of d_k, here {len(t.query)} numbers per vector; that comes at the end."
            )
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
        with self.step("exponentiate", "Exponentiate each score"):
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
            # The largest score and the largest power boxed, in the same row: the order is kept.
            top = int(t.scores.argmax())
            self.order_boxes = VGroup(
                SurroundingRectangle(self.scores.cells[top], color=self.theme.highlight, buff=0.04),
                SurroundingRectangle(self.exp.cells[top], color=self.theme.highlight, buff=0.04),
            )
            self.play(
                FadeIn(self.order_boxes), Indicate(self.exp.numbers, color=self.theme.highlight, scale_factor=1.05), run_time=1
            )

    def show_divide(self, t):
        theme = self.theme
        weights = ", ".join(format_number(w, 2) for w in t.weights)
        with self.step("sum-and-divide", "Sum, then divide"):
            self.say(f"Step 2: add them up: {format_number(t.exp_sum, 2)}.")
            self.play(FadeOut(self.order_boxes), run_time=0.3)
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
            # Why the first key wins, from the trace: the query is its own key, and no other key is longer.
            longest = bool(t.key_lengths[0] >= t.key_lengths.max())
            reason = ": the query is its own key, and no other key is longer" if longest else ", as built"
            self.say(f"The weights, before any scaling, are {weights}: “{t.tokens[0]}” gets the most{reason}.")
            # Each key's name and length a pair, the pairs apart, so the box round the first touches no glyph.
            lengths = VGroup(label(theme, "key lengths |k|:", size=theme.small_size, color=theme.muted))
            for j, token in enumerate(t.tokens):
                lengths.add(
                    VGroup(
                        label(theme, token, size=theme.small_size, color=theme.key),
                        self.number(f"key_lengths[{j}]", 2, size=theme.small_size),
                    ).arrange(RIGHT, buff=0.12)
                )
            # The title over the pairs: on one line they reached left into the sum under the table.
            pairs = VGroup(*lengths[1:]).arrange(RIGHT, buff=0.35)
            lengths = VGroup(lengths[0], pairs).arrange(DOWN, buff=0.15)
            chart_name = label(theme, "weights (unscaled)", size=theme.small_size, color=theme.value)
            chart_name.move_to([self.bar_chart.bars.get_center()[0], self.weights_title.get_y(), 0])
            keep_inside(chart_name)
            self.play(GrowFromEdge(self.bar_chart.bars, DOWN), FadeIn(self.bar_chart.labels), FadeIn(chart_name), run_time=1.2)
            self.play(FadeIn(self.bar_chart.numbers, lag_ratio=0.1))
            lengths.next_to(self.bar_chart.labels, DOWN, buff=0.3)
            keep_inside(lengths)
            # Kept while the line says why the first key wins; the note below takes their room next.
            self.lengths = VGroup(lengths, SurroundingRectangle(pairs[0], color=theme.highlight, buff=0.1))
            self.play(FadeIn(self.lengths))
            note = VGroup(
                formula(theme, "e^{s}", size=theme.aside_formula_size),
                label(theme, "keeps the order; even a negative score turns positive:", size=theme.small_size),
                formula(
                    theme, "e^{" + format_number(t.negative_score, 0).replace("−", "-") + "} =", size=theme.aside_formula_size
                ),
                self.number("negative_exp", 2, size=theme.small_size),
            ).arrange(RIGHT, buff=0.12)
            on_baseline(note[1], note[2], note[3])
            note[0].shift(UP * (note[2][0][0].get_bottom()[1] - note[0][0][0].get_bottom()[1]))
            note.next_to(total, DOWN, buff=0.35).align_to(total, LEFT)
            self.note = note
            negative = format_number(t.negative_score, 0)
            self.say(
                f"Why e to the power? It keeps the order and makes any score positive: even {negative} gives "
                f"{format_number(t.negative_exp, 2)}."
            )
            # The lengths have been read; the note's line runs under the chart where they were.
            self.play(FadeOut(self.lengths), FadeIn(note))

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
            self.say("Why do the weights add up to 1?")
            self.play(FadeOut(self.total), FadeOut(self.note))
            self.say(f"Here {' + '.join(format_number(w, 2) for w in t.weights)} = {format_number(t.weight_sum, 2)}.")
            self.play(TransformFromCopy(self.weights.numbers, VGroup(*parts[0:-2:2])), FadeIn(VGroup(*parts[1::2])), run_time=1.5)
            self.play(FadeIn(parts[-1]), Indicate(self.bar_chart.bars, color=theme.highlight, scale_factor=1.03))
            self.say("Each weight is e to the power of its score, over the same total.")
            self.play(Write(why), run_time=1.5)
            self.say("Added up, they make the total over itself: exactly 1.")
            self.play(
                FadeIn(SurroundingRectangle(why, color=theme.highlight, buff=0.18)),
                Indicate(why, color=theme.highlight, scale_factor=1.03),
                run_time=1,
            )

    def show_sharpening(self, t):
        theme = self.theme
        one = t.unchanged
        wider = [m for m in range(len(t.multipliers)) if t.multipliers[m] > 1]
        narrower = [m for m in range(len(t.multipliers)) if t.multipliers[m] < 1]
        first = t.tokens[0]
        with self.step("bigger-gaps-sharper", "Wider gaps sharpen, narrower flatten"):
            self.clear()
            heading = self.heading("Gaps between scores: wider sharpens, narrower flattens")
            charts, temperatures = VGroup(), VGroup()
            baseline = -1.95  # bottoms of all bars, so the charts compare at a glance
            count = len(t.multipliers)
            step = min(3.2, PANELS_WIDTH / count)
            for m in range(count):
                x = (m - (count - 1) / 2) * step
                bars = self.bars(
                    f"sharpened_weights[{m}]",
                    t.tokens,
                    height=3.0,
                    spacing=min(1.05, step * 0.3),
                    bar_width=min(0.55, step * 0.2),
                    color=theme.value,
                    number_size=theme.small_size,
                )
                bars.shift(RIGHT * (x - bars.bars.get_center()[0]) + UP * (baseline - bars.bars.get_bottom()[1]))
                scores = self.grid(
                    f"sharpened_scores[{m}]", 2, cell_width=min(1.0, step * 0.3), cell_height=0.6, font_size=theme.small_size
                )
                scores.move_to(RIGHT * x + UP * (baseline + 3.2))
                title = VGroup(
                    label(theme, "scores ×", size=theme.small_size, color=theme.muted),
                    self.number(f"multipliers[{m}]", places(t.multipliers[m]), size=theme.body_size),
                ).arrange(RIGHT, buff=0.12)
                title.next_to(scores, UP, buff=0.25)
                temperature = VGroup(
                    label(theme, "T =", size=theme.small_size),
                    self.number(f"temperatures[{m}]", places(t.temperatures[m]), size=theme.small_size),
                ).arrange(RIGHT, buff=0.1)
                temperature.next_to(title, UP, buff=0.15)
                charts.add(VGroup(title, scores, bars))
                temperatures.add(temperature)

            def show(m: int) -> None:
                title, scores, bars = charts[m]
                self.play(FadeIn(title), FadeIn(scores), run_time=0.5)
                self.play(GrowFromEdge(bars.bars, DOWN), FadeIn(bars.labels), FadeIn(bars.numbers), run_time=0.8)

            self.say(
                f"Now multiply the same scores by a factor. As they are, × 1, “{first}” gets "
                f"{format_number(t.sharpened_weights[one, 0], 2)}.",
                spoken=f"Now multiply the same scores by a factor. As they are, times one, “{first}” gets "
                f"{format_number(t.sharpened_weights[one, 0], 2)}.",
            )
            self.play(FadeIn(heading))
            show(one)
            if wider:
                # "by 2, then by 8": heard, "by two, eight" runs the factors together.
                factors = ", then by ".join(format_number(t.multipliers[m], places(t.multipliers[m])) for m in wider)
                top = ", ".join(format_number(t.sharpened_weights[m, 0], 2) for m in wider)
                self.say(
                    f"Multiply by {factors}: the gaps widen, and softmax hands {'more' if len(wider) == 1 else 'more and more'} to “{first}”: {top}."
                )
                for m in wider:
                    show(m)
            if narrower:
                factors = ", ".join(format_number(t.multipliers[m], places(t.multipliers[m])) for m in narrower)
                flat = ", ".join(format_number(w, 2) for w in t.sharpened_weights[narrower[0]])
                self.say(
                    f"Multiply by {factors} instead: the gaps shrink, and the weights flatten towards an even share: {flat}."
                )
                for m in narrower:
                    show(m)
            if wider:
                last = charts[wider[-1]]
                one_hot = label(theme, "one-hot: 1 for one word, 0 for all the others", size=theme.small_size, color=theme.muted)
                one_hot.next_to(charts, DOWN, buff=0.35)
                keep_inside(one_hot)
                self.say("The wider the gaps, the closer softmax gets to one-hot: all the weight on one word.")
                self.play(FadeIn(one_hot), Indicate(last[2].bars, color=theme.highlight, scale_factor=1.03))
            self.say(
                "Multiplying by m is dividing by a temperature T = 1/m: a low temperature sharpens, a high one flattens.",
                spoken="Multiplying by m is dividing by a temperature, T equals one over m: "
                "a low temperature sharpens, a high one flattens.",
            )
            self.play(FadeIn(temperatures, lag_ratio=0.1))

    def show_spread(self, t):
        """Why divide by √d_k, shown: random dot products spread like √d_k; divided by it, like 1, at any d_k."""
        theme = self.theme
        # Vaswani et al. 2017, 3.2.1, footnote 4: for q and k of independent entries with mean 0 and variance 1,
        # q · k = Σ q_i k_i has mean 0 and variance d_k, so its spread (standard deviation) is √d_k.
        small, large = (format_number(d, 0) for d in t.spread_d_k)
        with self.step("why-square-root", "Why divide by √d_k"):
            self.clear()
            heading = self.heading("Random dot products spread like √d_k")
            reach = float(abs(t.spread_dots).max())  # one scale for both strips: the widest product reaches the end
            strips, spreads, names, rows = VGroup(), [], VGroup(), []
            for r, centre in enumerate(STRIP_ROWS):
                axis = Line(LEFT * STRIP_LENGTH / 2, RIGHT * STRIP_LENGTH / 2, color=theme.muted, stroke_width=2).move_to(centre)
                zero = label(theme, "0", size=theme.min_size, color=theme.muted).next_to(axis, DOWN, buff=STRIP_BAND / 2 + 0.1)
                tick = Line(UP * 0.12, DOWN * 0.12, color=theme.muted, stroke_width=2).move_to(axis.get_center())

                def at(value: float, axis=axis) -> object:
                    return axis.get_center() + RIGHT * value / reach * STRIP_LENGTH / 2

                # Sample k sits at height k mod STRIP_LAYERS in the band: a fixed spreading, no second random draw.
                dots = VGroup(
                    *[
                        Dot(at(v), radius=0.05, color=theme.value, fill_opacity=0.6).shift(
                            UP * STRIP_BAND * ((k % STRIP_LAYERS) / (STRIP_LAYERS - 1) - 0.5)
                        )
                        for k, v in enumerate(t.spread_dots[r])
                    ]
                )
                name = VGroup(
                    label(theme, "d_k =", size=theme.small_size),
                    self.number(f"spread_d_k[{r}]", 0, size=theme.small_size),
                ).arrange(RIGHT, buff=0.1)
                name.next_to(axis, LEFT, buff=0.3)
                spread = VGroup(
                    label(theme, "spread", size=theme.small_size, color=theme.muted),
                    self.number(f"spread_std[{r}]", 2, size=theme.body_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.3)
                spread.next_to(axis, RIGHT, buff=0.3)
                strips.add(VGroup(axis, tick, zero, dots))
                names.add(name)
                spreads.append(spread)
                rows.append((axis, dots, at))
            picture = VGroup(strips, names, *spreads)
            # Centred, so the outlines round the spreads (they stand outside the numbers) stay inside the frame.
            picture.set_x(0)
            keep_inside(picture)
            note = self.note_lines(
                (
                    f"{t.spread_dots.shape[1]} random pairs q, k per row, entries of mean 0 and variance 1,",
                    "drawn with a fixed random seed; spread = standard deviation",
                )
            )
            self.say(
                "Why divide by the square root of d_k? Take random vectors whose entries have mean 0 and variance 1.",
            )
            self.play(FadeIn(heading), FadeIn(names), *[FadeIn(strip[:3]) for strip in strips], FadeIn(note))
            self.play(*[FadeIn(strip[3], lag_ratio=0.01) for strip in strips], run_time=1.5)
            self.say(
                f"A dot product adds d_k products, so its variance is d_k and its spread grows like the square root "
                f"of d_k: here {format_number(t.spread_std[0], 2)} at d_k = {small}, "
                f"{format_number(t.spread_std[1], 2)} at d_k = {large}.",
                spoken=f"A dot product adds d_k products, so its variance is d_k and its spread grows like the square "
                f"root of d_k: here {format_number(t.spread_std[0], 2)} when d_k is {small}, "
                f"{format_number(t.spread_std[1], 2)} when d_k is {large}.",
            )
            self.play(*[FadeIn(spread) for spread in spreads])
            self.highlight(spreads[0][1], spreads[1][1], buff=0.12)
            # Each product divided by its row's √d_k: the dots gather, and both spreads come to about 1.
            divided = []
            for r, (axis, dots, at) in enumerate(rows):
                by = VGroup(
                    label(theme, "÷", size=theme.small_size),
                    self.number(f"spread_scale[{r}]", 0, size=theme.small_size),
                ).arrange(RIGHT, buff=0.1)
                by.next_to(axis, UP, buff=STRIP_BAND / 2 + 0.15).align_to(axis, LEFT)
                after = VGroup(
                    label(theme, "spread", size=theme.small_size, color=theme.muted),
                    self.number(f"spread_scaled_std[{r}]", 2, size=theme.body_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.3)
                after.move_to(spreads[r], aligned_edge=LEFT)
                divided.append((by, after, [dot.animate.set_x(at(v)[0]) for dot, v in zip(dots, t.spread_scaled[r])]))
            roots = " and ".join(format_number(s, 0) for s in t.spread_scale)
            after_said = " and ".join(format_number(s, 2) for s in t.spread_scaled_std)
            self.say(
                f"Divide each by the square root of its d_k, {roots}: both spreads come to about 1, {after_said}, "
                "so softmax sees scores of the same size in a wide model as in a narrow one."
            )
            self.play(
                *[FadeIn(by) for by, _, _ in divided],
                *[move for _, _, moves in divided for move in moves],
                *[ReplacementTransform(spread, after) for spread, (_, after, _) in zip(spreads, divided)],
                run_time=2.0,
            )
            self.highlight(*[after[1] for _, after, _ in divided], buff=0.12)

    def show_scaled(self, t):
        """The example's scores divided by √d_k, as attention does, and their softmax: the attention weights."""
        theme = self.theme
        scaled = ", ".join(format_number(s, 2) for s in t.scaled_scores)
        scores = ", ".join(format_number(s, 2) for s in t.scores)
        weights = ", ".join(format_number(w, 2) for w in t.scaled_weights)
        root = format_number(t.scale, 2)
        with self.step("scaled-weights", "Our example, divided by √d_k"):
            self.clear()
            heading = self.heading(f"Our example: d_k = {t.d_k}, divide by √{t.d_k}")
            x_scores, x_scaled, x_weights = SCALED_COLUMNS
            columns = VGroup()
            raw = self.column("scores", 2, x_scores)
            divided = self.column("scaled_scores", 2, x_scaled)
            final = self.column("scaled_weights", 2, x_weights)
            words = VGroup(
                *[
                    label(theme, token, size=theme.body_size, color=theme.key).next_to(raw.cells[j], LEFT, buff=0.3)
                    for j, token in enumerate(t.tokens)
                ]
            )
            titles = VGroup(
                self.column_title(r"s", raw),
                VGroup(
                    formula(theme, r"s \div", size=theme.large_formula_size),
                    self.number("scale", 2, size=theme.body_size),
                )
                .arrange(RIGHT, buff=0.2)
                .next_to(divided.cells[0], UP, buff=0.25),
                label(theme, "softmax", size=theme.body_size).next_to(final.cells[0], UP, buff=0.25),
            )
            columns.add(raw, divided, final)
            chart = self.bars("scaled_weights", t.tokens, height=3.0, spacing=1.05, bar_width=0.65, color=theme.value)
            chart.next_to(final.cells, RIGHT, buff=0.9).align_to(final.cells, DOWN)
            chart_name = label(theme, "attention weights", size=theme.small_size, color=theme.value)
            chart_name.next_to(chart, UP, buff=0.3)
            # The unscaled weights under the chart, so "a little less than before scaling" is seen, not only said.
            before = VGroup(label(theme, "before scaling:", size=theme.small_size, color=theme.muted))
            for j in range(len(t.tokens)):
                before.add(self.number(f"weights[{j}]", 2, size=theme.small_size, color=theme.muted))
            before.arrange(RIGHT, buff=0.2).next_to(chart, DOWN, buff=0.35)
            keep_inside(VGroup(chart, chart_name, before))
            self.say(
                f"Back to our example. d_k is {t.d_k}, so attention divides the scores by its square root, {root}: "
                f"{scores} become {scaled}.",
            )
            self.play(FadeIn(heading), FadeIn(words), FadeIn(titles[0]), FadeIn(raw))
            self.play(
                FadeIn(titles[1]),
                TransformFromCopy(raw.cells, divided.cells),
                TransformFromCopy(raw.numbers, divided.numbers),
                run_time=1.5,
            )
            self.say(f"Softmax of those gives this example's attention weights: {weights}.")
            self.play(
                FadeIn(titles[2]),
                TransformFromCopy(divided.cells, final.cells),
                TransformFromCopy(divided.numbers, final.numbers),
                run_time=1.5,
            )
            self.play(GrowFromEdge(chart.bars, DOWN), FadeIn(chart.labels), FadeIn(chart.numbers), FadeIn(chart_name))
            self.say(
                f"With only {t.d_k} numbers per vector the division is small: “{t.tokens[0]}” still gets the most, "
                "a little less than before scaling."
            )
            self.play(FadeIn(before))
            self.highlight(final.cells[0], VGroup(chart.bars[0], chart.numbers[0]), before[1], buff=0.1)

    def show_takeaway(self):
        theme = self.theme
        with self.step("takeaway", "Softmax: exponentiate, sum, divide"):
            self.clear()
            heading = self.heading("Softmax in one line")
            equation = formula(theme, *SOFTMAX_FORMULA, size=theme.display_formula_size)
            equation[1].set_color(theme.highlight)
            positive = VGroup(
                label(theme, "exponentiate: every"),
                formula(theme, r"e^{s_j}", size=theme.large_formula_size),
                label(theme, "is positive"),
            )
            positive.arrange(RIGHT, buff=0.15)
            on_baseline(positive[0], positive[1], positive[2])
            points = VGroup(
                positive,
                label(theme, "sum, then divide: the attention weights add up to 1"),
                label(theme, "wider gaps between scores: sharper weights"),
            ).arrange(DOWN, buff=0.35, aligned_edge=LEFT)
            VGroup(equation, points).arrange(DOWN, buff=0.8).shift(TAKEAWAY_AT)
            self.say("Softmax: exponentiate, sum, divide.")
            self.play(FadeIn(heading), Write(equation), run_time=1.5)
            self.say("The attention weights are positive, and they add up to 1.")
            self.play(FadeIn(points[:2], shift=UP * 0.2, lag_ratio=0.3), run_time=1.5)
            self.say("They get sharper as the gaps between the scores grow.")
            self.play(FadeIn(points[2], shift=UP * 0.2), run_time=1)
