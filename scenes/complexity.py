"""Why attention costs O(n²): weight matrices and multiply-adds counted for growing n.

Follows seed 002 "Further Practice" 4 (Complexity Analysis: time and memory for
different sequence lengths and attention dimensionalities), with exact counts
instead of timings so the video is reproducible.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, GrowFromEdge, Rectangle, VGroup, Write

from attention_math.traces.complexity import complexity_trace

from .kit import ExplainerScene
from .kit.components import formula, label
from .theme import format_number

CELL = 0.2
"""Side of one weight's square in the n × n grids: constant, so a grid's area shows n²."""


class ComplexityScene(ExplainerScene):
    name = "complexity"
    title = "Why attention costs O(n²)"
    description = "n tokens make an n×n weight matrix: memory and multiply-adds counted as n doubles."
    sources = "seed 002 'Further Practice' 4 (Complexity Analysis)"

    @classmethod
    def build_trace(cls):
        return complexity_trace()

    def construct(self):
        t = self.trace
        self.show_grids(t)
        self.show_memory(t)
        self.show_multiply_adds(t)
        self.show_doubling(t)
        self.show_width(t)
        self.show_takeaway(t)

    def table(self, header: list, rows: list, columns_x, top: float = 1.9, row_gap: float = 0.78) -> tuple[VGroup, list]:
        """Header texts and rows of already-built texts placed at fixed column centres."""
        header = VGroup(*header)
        for text, x in zip(header, columns_x):
            text.move_to([x, top, 0])
        for r, row in enumerate(rows):
            for text, x in zip(row, columns_x):
                text.move_to([x, top - 0.85 - row_gap * r, 0])
        return header, rows

    def show_grids(self, t):
        theme = self.theme
        cells = ", ".join(format_number(c, 0) for c in t.grid_cells)
        caption = (
            "Attention scores every query against every key, so n tokens make an n × n matrix of weights. "
            f"Each time n doubles, the matrix has {format_number(t.memory_growth[0], 0)} times the cells: {cells}."
        )
        with self.step("every-query-every-key", caption):
            heading = self.heading("n tokens, n × n weights")
            grids = VGroup()
            for size in t.grid_sizes:
                squares = VGroup(
                    *[
                        Rectangle(
                            width=CELL,
                            height=CELL,
                            stroke_color=theme.key,
                            stroke_width=1,
                            fill_color=theme.key,
                            fill_opacity=0.35,
                        ).move_to(RIGHT * j * CELL + DOWN * i * CELL)
                        for i in range(int(size))
                        for j in range(int(size))
                    ]
                )
                grids.add(squares)
            grids.arrange(RIGHT, buff=1.3, aligned_edge=DOWN).move_to(DOWN * 0.1)
            names, counts = VGroup(), VGroup()
            for i, grid in enumerate(grids):
                names.add(
                    VGroup(
                        label(theme, "n =", size=theme.small_size), self.number(f"grid_sizes[{i}]", 0, size=theme.small_size)
                    ).arrange(RIGHT, buff=0.12)
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
            equation = formula(theme, r"n \text{ queries} \times n \text{ keys} = n^2 \text{ weights}").next_to(
                counts, DOWN, buff=0.55
            )
            self.play(FadeIn(heading))
            for grid, name, count in zip(grids, names, counts):
                self.play(FadeIn(name), GrowFromEdge(grid, DOWN), run_time=0.8)
                self.play(FadeIn(count), run_time=0.4)
            self.play(Write(equation))

    def show_memory(self, t):
        theme = self.theme
        caption = (
            "Each weight is a float32 of four bytes. For one head in one layer, the weights take "
            f"{format_number(t.weight_mib[0], 0)} MiB at {format_number(t.lengths[0], 0)} tokens and "
            f"{format_number(t.weight_mib[-1], 0)} MiB at {format_number(t.lengths[-1], 0)} tokens."
        )
        with self.step("memory", caption):
            self.clear()
            heading = self.heading("Memory of the weights (one head, float32)")
            header = [
                label(theme, "tokens n", size=theme.body_size, color=theme.muted),
                formula(theme, r"\text{weights } n^2"),
                formula(theme, r"\text{bytes } 4n^2"),
                label(theme, "MiB", size=theme.body_size, color=theme.muted),
            ]
            rows = [
                [
                    self.number(f"lengths[{i}]", 0, size=theme.body_size),
                    self.number(f"weight_counts[{i}]", 0, size=theme.body_size, color=theme.key),
                    self.number(f"weight_bytes[{i}]", 0, size=theme.body_size, color=theme.key),
                    self.number(f"weight_mib[{i}]", 0, size=theme.body_size, color=theme.highlight),
                ]
                for i in range(len(t.lengths))
            ]
            header, rows = self.table(header, rows, (-4.6, -1.4, 1.9, 4.7))
            self.play(FadeIn(heading), FadeIn(header))
            for row in rows:
                self.play(FadeIn(VGroup(*row), shift=UP * 0.15), run_time=0.7)
            self.wait(1)

    def show_multiply_adds(self, t):
        theme = self.theme
        caption = (
            f"Time too. Q Kᵀ multiplies an n × d matrix by a d × n one: n·n·d multiply-adds. "
            f"The weights times V is (n × n)·(n × d): n·n·d again. With d = {t.d}, that is "
            f"{format_number(t.total_macs[-1] / 1e9, 1)} billion multiply-adds at {format_number(t.lengths[-1], 0)} tokens."
        )
        with self.step("multiply-adds", caption):
            self.clear()
            heading = self.heading("Multiply-adds of one head")
            width = VGroup(formula(theme, r"d ="), self.number("d", 0, size=theme.body_size)).arrange(RIGHT, buff=0.15)
            width.move_to([5.6, heading.get_y(), 0])
            header = [
                label(theme, "tokens n", size=theme.body_size, color=theme.muted),
                formula(theme, r"QK^\top\!: n \cdot n \cdot d"),
                formula(theme, r"\text{weights}\,V\!: n \cdot n \cdot d"),
                formula(theme, r"\text{total } 2n^2d"),
            ]
            rows = [
                [
                    self.number(f"lengths[{i}]", 0, size=theme.body_size),
                    self.number(f"qk_macs[{i}]", 0, size=theme.body_size, color=theme.query),
                    self.number(f"av_macs[{i}]", 0, size=theme.body_size, color=theme.value),
                    self.number(f"total_macs[{i}]", 0, size=theme.body_size, color=theme.highlight),
                ]
                for i in range(len(t.lengths))
            ]
            header, rows = self.table(header, rows, (-5.2, -2.0, 1.3, 4.6))
            self.play(FadeIn(heading), FadeIn(width), FadeIn(header))
            for row in rows:
                self.play(FadeIn(VGroup(*row), shift=UP * 0.15), run_time=0.7)
            self.wait(1)

    def show_doubling(self, t):
        theme = self.theme
        ratio = format_number(t.relative_lengths[-1], 0)
        caption = (
            f"Divide each count by the one before: doubling n multiplies the work by {format_number(t.growth[0], 2)}, every time. "
            f"{ratio} times the tokens cost {format_number(t.relative_macs[-1], 0)} times the multiply-adds; "
            f"a cost linear in n would have grown only {ratio} times."
        )
        with self.step("doubling-quadruples", caption):
            self.clear()
            heading = self.heading("Doubling n quadruples the cost")
            names = [format_number(n, 0) for n in t.lengths]
            max_value = float(t.relative_macs.max())
            quadratic = self.bars(
                "relative_macs", names, 0, height=3.6, spacing=2.2, bar_width=0.55, color=theme.query, max_value=max_value
            )
            linear = self.bars(
                "relative_lengths", names, 0, height=3.6, spacing=2.2, bar_width=0.55, color=theme.key, max_value=max_value
            )
            linear.remove(linear.labels)  # the n labels are drawn once, under the pairs of bars
            linear.shift(RIGHT * 0.7)
            VGroup(quadratic, linear).move_to(DOWN * 0.1)
            quadratic.labels.shift(RIGHT * 0.35)
            growth = VGroup()
            for i in range(len(t.growth)):
                step = VGroup(
                    label(theme, "×", size=theme.small_size, color=theme.highlight),
                    self.number(f"growth[{i}]", 2, color=theme.highlight),
                ).arrange(RIGHT, buff=0.05)
                step.move_to((quadratic.labels[i].get_center() + quadratic.labels[i + 1].get_center()) / 2 + DOWN * 0.5)
                growth.add(step)
            legend = VGroup(
                label(theme, "attention: 2n²d, relative to the first", size=theme.small_size, color=theme.query),
                label(theme, "if it grew like n", size=theme.small_size, color=theme.key),
            ).arrange(DOWN, aligned_edge=LEFT, buff=0.15)
            legend.next_to(heading, DOWN, buff=0.35).align_to(heading, LEFT)
            self.play(FadeIn(heading), FadeIn(legend), FadeIn(quadratic.labels))
            self.play(GrowFromEdge(quadratic.bars, DOWN), GrowFromEdge(linear.bars, DOWN), run_time=1.5)
            self.play(FadeIn(quadratic.numbers), FadeIn(linear.numbers))
            self.play(FadeIn(growth, lag_ratio=0.3), run_time=1.5)
            self.wait(1)

    def show_width(self, t):
        theme = self.theme
        caption = (
            f"The width d is another matter. At n = {format_number(t.width_n, 0)}, doubling d from "
            f"{format_number(t.widths[0], 0)} to {format_number(t.widths[-1], 0)} only doubles the multiply-adds each time, "
            "and the n × n weights do not grow at all."
        )
        with self.step("width-is-linear", caption):
            self.clear()
            heading = self.heading("Doubling d only doubles the cost")
            fixed = VGroup(formula(theme, r"n ="), self.number("width_n", 0, size=theme.body_size)).arrange(RIGHT, buff=0.15)
            fixed.move_to([5.4, heading.get_y(), 0])
            header = [
                label(theme, "width d", size=theme.body_size, color=theme.muted),
                formula(theme, r"2n^2d"),
                label(theme, "× previous", size=theme.body_size, color=theme.muted),
            ]
            rows = []
            for i in range(len(t.widths)):
                row = [
                    self.number(f"widths[{i}]", 0, size=theme.body_size),
                    self.number(f"width_macs[{i}]", 0, size=theme.body_size, color=theme.highlight),
                ]
                if i:
                    row.append(
                        VGroup(
                            label(theme, "×", size=theme.body_size),
                            self.number(f"width_growth[{i - 1}]", 2, size=theme.body_size),
                        ).arrange(RIGHT, buff=0.05)
                    )
                rows.append(row)
            header, rows = self.table(header, rows, (-3.5, 0.3, 3.6), row_gap=0.8)
            self.play(FadeIn(heading), FadeIn(fixed), FadeIn(header))
            for row in rows:
                self.play(FadeIn(VGroup(*row), shift=UP * 0.15), run_time=0.8)
            self.wait(1)

    def show_takeaway(self, t):
        theme = self.theme
        caption = (
            "Attention's memory grows with n² and its work with n²·d: double the context, quadruple the cost. "
            "That is why long contexts are expensive, and why the course's reading list, from Reformer to Longformer, "
            "looks for ways around the n × n matrix."
        )
        with self.step("takeaway", caption):
            self.clear()
            heading = self.heading("Why attention costs O(n²)")
            lines = (
                VGroup(
                    VGroup(label(theme, "memory:", color=theme.key), formula(theme, r"n^2 \text{ weights} = O(n^2)")).arrange(
                        RIGHT, buff=0.3
                    ),
                    VGroup(
                        label(theme, "time:", color=theme.query), formula(theme, r"2n^2d \text{ multiply-adds} = O(n^2 d)")
                    ).arrange(RIGHT, buff=0.3),
                    VGroup(
                        label(theme, "double n  →  cost ×", color=theme.highlight),
                        self.number("growth[0]", 0, size=theme.body_size, color=theme.highlight),
                    ).arrange(RIGHT, buff=0.15),
                )
                .arrange(DOWN, buff=0.6, aligned_edge=LEFT)
                .move_to(DOWN * 0.2)
            )
            self.play(FadeIn(heading))
            for line in lines:
                self.play(FadeIn(line, shift=UP * 0.2), run_time=0.8)
            self.wait(1)
