"""Self-attention on "The cat sat on the mat", one dot product at a time.

Follows seed 000 ("Simple Attention Mechanism from Scratch"): 4-dimensional
embeddings, Q = K = V = X, the query "cat", and the 6x6 heatmap.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    UR,
    FadeIn,
    GrowFromEdge,
    FadeOut,
    Indicate,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import THE_CAT_SAT, self_attention_trace, sentence_example

from .base import ExplainerScene
from .components import axis_names, formula, label
from .theme import format_number


class SelfAttentionScene(ExplainerScene):
    name = "self-attention"
    title = "Self-attention, step by step"
    description = "\"The cat sat on the mat\": scores, scaling, softmax and the weighted sum, then the 6×6 heatmap."
    sources = "seed 000 'Simple Attention Mechanism from Scratch' and 'Self-Attention Explained'"

    options = ("sentence",)
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return self_attention_trace(example, focus=min(1, len(example.tokens) - 1))

    def construct(self):
        t = self.trace
        theme = self.theme
        i = t.focus
        query = t.query_tokens[i]
        n = len(t.key_tokens)

        caption = (
            f"{n} tokens, each with a {t.x_query.shape[1]}-number embedding from the course notebook. "
            "To keep every number visible, the queries, keys and values are the embeddings themselves: Q = K = V = X."
        )
        with self.step("embeddings", caption):
            heading = self.heading("Self-attention: " + " ".join(t.query_tokens))
            x = self.grid("x_key", 1, cell_width=0.8, cell_height=0.55, row_labels=t.key_tokens)
            # X's cells: top edge at y = 1.85, centred at x = -4.4, leaving room for four columns and the bars.
            x.shift(LEFT * (4.4 + x.cells.get_center()[0]) + UP * (1.85 - x.cells.get_top()[1]))
            x_name = formula(theme, r"X = Q = K = V", size=theme.body_size).next_to(x.cells, UP, buff=0.3)
            self.play(FadeIn(heading))
            self.play(FadeIn(x.row_labels, lag_ratio=0.1), FadeIn(x.cells), FadeIn(x.numbers), run_time=1.5)
            self.play(Write(x_name))

        caption = (
            f"Take “{query}” as the query: which words should it look at? "
            "Its score for each key is the dot product of its query vector with that key."
        )
        with self.step("query", caption):
            query_box = SurroundingRectangle(x.row(i), color=theme.query, buff=0.04)
            query_name = label(theme, f"query: {query}", color=theme.query)
            query_name.to_corner(UR, buff=0.5)
            self.play(FadeIn(query_box), FadeIn(query_name))

        # Columns beside X, one number per key row: raw score, scaled score, weight.
        def column(source, decimals, x_position):
            grid = self.grid(source, decimals, cell_width=1.05, cell_height=0.55)
            for j in range(n):
                grid.cells[j].move_to(x.cell(j, 0)).set_x(x_position)
                grid.numbers[j].move_to(grid.cells[j])
            return grid

        first_column = x.cells.get_right()[0] + 1.0
        raw = column(f"raw_scores[{i}]", 2, first_column)
        raw_name = formula(theme, r"q \cdot k_j", size=theme.body_size).next_to(raw.cells[0], UP, buff=0.3)
        caption = (
            "Multiply the query and each key number by number and add the products: "
            f"{self._expansion_text(0)}. One score per key."
        )
        with self.step("dot-products", caption):
            self.play(FadeIn(raw_name))
            expansion = None
            for j in range(n):
                key_box = SurroundingRectangle(x.row(j), color=theme.key, buff=0.02)
                new_expansion = self.expansion(j).move_to(DOWN * 2.55)
                run_time = 1.2 if j == 0 else 0.6
                fades = [FadeOut(expansion)] if expansion is not None else []
                self.play(FadeIn(key_box), FadeIn(new_expansion), *fades, run_time=run_time)
                self.play(TransformFromCopy(new_expansion[-1], VGroup(raw.cells[j], raw.numbers[j])), FadeOut(key_box), run_time=run_time)
                if j == 0:
                    self.wait(1.5)
                expansion = new_expansion
            self.play(FadeOut(expansion))

        scaled = column(f"scaled_scores[{i}]", 2, first_column + 1.5)
        scaled_name = formula(theme, r"\div \sqrt{d_k}", size=theme.body_size).next_to(scaled.cells[0], UP, buff=0.3)
        scale = VGroup(formula(theme, r"\sqrt{d_k} =", size=theme.body_size), self.number("scale", 0, size=theme.body_size)).arrange(RIGHT, buff=0.12)
        scale.next_to(scaled.cells[-1], DOWN, buff=0.3)
        caption = (
            f"Divide every score by the square root of d_k = {t.d_k}, that is by {format_number(t.scale, 0)}, "
            "so that the scores keep a moderate spread."
        )
        with self.step("scale", caption):
            self.play(FadeIn(scaled_name), FadeIn(scale))
            self.play(TransformFromCopy(raw.cells, scaled.cells), TransformFromCopy(raw.numbers, scaled.numbers), run_time=1.5)

        weights = column(f"weights[{i}]", 2, first_column + 3.0)
        weights_name = formula(theme, r"\mathrm{softmax}", size=theme.body_size).next_to(weights.cells[0], UP, buff=0.3)
        total = formula(theme, r"\textstyle\sum_j w_j = 1", size=theme.body_size).next_to(weights.cells[-1], DOWN, buff=0.3)
        bars = self.bars(
            f"weights[{i}]", t.key_tokens, height=2.6, spacing=0.75, bar_width=0.5, color=theme.value,
            max_value=float(t.weights[i].max()), number_size=theme.min_size,
        )
        bars.move_to(RIGHT * 4.5).align_to(x.cells, DOWN)
        top = int(t.weights[i].argmax())
        caption = (
            "Softmax turns the scaled scores into weights between 0 and 1 that add up to 1. "
            f"“{query}” gives the largest weight, {format_number(t.weights[i, top], 2)}, to “{t.key_tokens[top]}”."
        )
        with self.step("softmax", caption):
            self.play(FadeIn(weights_name))
            self.play(TransformFromCopy(scaled.cells, weights.cells), TransformFromCopy(scaled.numbers, weights.numbers), run_time=1.5)
            self.play(FadeIn(total), FadeIn(bars.labels), GrowFromEdge(bars.bars, DOWN), run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.1))

        output = self.grid(f"output[{i}]", 2, cell_width=0.95, cell_height=0.55)
        output_name = formula(theme, r"\textstyle\sum_j w_j v_j =", size=theme.body_size)
        VGroup(output_name, output).arrange(RIGHT, buff=0.2).next_to(x.cells, DOWN, buff=0.55).align_to(x.row_labels, LEFT)
        caption = (
            f"The output for “{query}” is the weighted sum of the value rows: each row of V times its weight, added up. "
            f"The result, [{', '.join(format_number(v, 2) for v in t.output[i])}], is a new “{query}” that carries its context."
        )
        with self.step("weighted-sum", caption):
            self.play(FadeOut(scale), FadeOut(total), Indicate(x_name, color=theme.value), run_time=0.8)
            self.play(*[Indicate(VGroup(weights.cells[j], x.row(j)), color=theme.value, scale_factor=1.03) for j in range(n)], run_time=1.2)
            self.play(FadeIn(output_name), TransformFromCopy(VGroup(*x.cells, *x.numbers), VGroup(*output.cells, *output.numbers)), run_time=1.8)
            self.wait(1)

        strongest = sorted(range(n), key=lambda j: -t.weights[i, j])[:2]
        caption = (
            "Do the same for every token as the query and you get the full attention matrix: row i says where token i looks, and every row sums to 1. "
            f"“{query}” looks most at “{t.key_tokens[strongest[0]]}” ({format_number(t.weights[i, strongest[0]], 2)}), "
            f"then “{t.key_tokens[strongest[1]]}” ({format_number(t.weights[i, strongest[1]], 2)})."
        )
        with self.step("heatmap", caption):
            self.clear()
            heading = self.heading("Attention weights: every query, every key")
            heatmap = self.grid(
                "weights", 2, heat=True, vmin=0.0, cell_width=1.05, cell_height=0.62,
                row_labels=t.query_tokens, col_labels=t.key_tokens, row_label_color=theme.query, col_label_color=theme.key,
            )
            heatmap.move_to(DOWN * 0.3)
            names = axis_names(theme, heatmap)
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names))
            for row in range(n):
                self.play(FadeIn(heatmap.row(row)), run_time=0.4)
            self.play(FadeIn(SurroundingRectangle(heatmap.row(i), color=theme.highlight, buff=0.03)))
            self.wait(1)

    def _expansion_text(self, j: int) -> str:
        """The first dot product written out in the caption, from the trace."""
        t = self.trace
        terms = " + ".join(f"{format_number(a, 1)}×{format_number(b, 1)}" for a, b in zip(t.q[t.focus], t.k[j]))
        return f"for “{t.key_tokens[j]}”, {terms} = {format_number(t.raw_scores[t.focus, j], 2)}"

    def expansion(self, j: int) -> VGroup:
        """q · k_j written out term by term, every number read from the trace."""
        theme = self.theme
        t = self.trace
        i = t.focus
        parts = [label(theme, f"q · k({t.key_tokens[j]}) =", size=theme.small_size)]
        for d in range(t.d_k):
            if d:
                parts.append(label(theme, "+", size=theme.small_size))
            parts += [
                self.number(f"q[{i}, {d}]", 1, color=theme.query),
                label(theme, "×", size=theme.small_size),
                self.number(f"k[{j}, {d}]", 1, color=theme.key),
            ]
        parts += [label(theme, "=", size=theme.small_size), self.number(f"raw_scores[{i}, {j}]", 2)]
        return VGroup(*parts).arrange(RIGHT, buff=0.12)
