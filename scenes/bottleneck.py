"""Before attention: an RNN squeezes "The cat sat on the mat" through one hidden state.

Follows seed 000 "The Problem Without Attention" (English to Spanish through one
fixed-size vector, and its three problems), seed 001 part 1 (``np.tril`` against
``np.ones`` information flow) and seed 003 "Before Attention: The RNN Bottleneck"
and "With Attention: Direct Access".
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    CurvedArrow,
    FadeIn,
    GrowArrow,
    Indicate,
    Line,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED
from attention_math.traces.bottleneck import bottleneck_trace

from .kit import ExplainerScene
from .kit.components import TokenRow, formula, label
from .theme import format_number

RNN_FORMULA = r"h_t = \tanh(x_t W_x + h_{t-1} W_h)"


class BottleneckScene(ExplainerScene):
    name = "bottleneck"
    title = "Before attention: the RNN bottleneck"
    description = "An RNN squeezes a sentence through one hidden state; attention links every word to every word."
    sources = "seed 000 'The Problem Without Attention'; seed 001 part 1; seed 003 'Before Attention' / 'With Attention'"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return bottleneck_trace(seed)

    def construct(self):
        t = self.trace
        self.show_translation(t)
        self.show_chain(t)
        self.show_bottleneck(t)
        self.show_flow(t)
        self.show_path_lengths(t)
        self.show_direct_access(t)

    def state_column(self, index: int, x: float, top: float):
        """Hidden state ``index`` as a column of cells, its top edge at ``top``."""
        grid = self.grid(f"hidden_states[{index}]", 2, cell_width=1.0, cell_height=0.5)
        for d, (cell, number) in enumerate(zip(grid.cells, grid.numbers)):
            cell.move_to(RIGHT * x + UP * (top - 0.25 - 0.5 * d))
            number.move_to(cell)
        return grid

    def show_translation(self, t):
        theme = self.theme
        caption = (
            f"Translate “{' '.join(t.tokens)}” into “{' '.join(t.target_tokens)}”. "
            "Before attention, an RNN read the English words one by one "
            f"and handed the translator one fixed-size vector: {format_number(t.state_numbers, 0)} numbers here."
        )
        with self.step("one-vector", caption):
            heading = self.heading("The problem without attention")
            english = TokenRow(theme, t.tokens, size=theme.body_size).move_to(UP * 1.9)
            spanish = TokenRow(theme, t.target_tokens, color=theme.value, size=theme.body_size).move_to(DOWN * 2.2)
            vector = self.grid(f"hidden_states[{len(t.tokens) - 1}]", 2, cell_width=1.2, cell_height=0.6)
            vector.move_to(DOWN * 0.15)
            vector_box = SurroundingRectangle(vector, color=theme.highlight, buff=0.12)
            vector_name = label(theme, "one fixed-size vector", size=theme.small_size, color=theme.highlight)
            vector_name.next_to(vector_box, RIGHT, buff=0.3)
            reads = Arrow(english.get_bottom(), vector_box.get_top(), buff=0.12, color=theme.line, stroke_width=5)
            writes = Arrow(vector_box.get_bottom(), spanish.get_top(), buff=0.12, color=theme.line, stroke_width=5)
            read_name = label(theme, "RNN reads word by word", size=theme.small_size, color=theme.muted).next_to(
                reads, RIGHT, buff=0.3
            )
            write_name = label(theme, "translator writes", size=theme.small_size, color=theme.muted).next_to(
                writes, RIGHT, buff=0.3
            )
            self.play(FadeIn(heading), FadeIn(english, lag_ratio=0.1), run_time=1.2)
            self.play(GrowArrow(reads), FadeIn(read_name), run_time=1.0)
            self.play(FadeIn(vector), FadeIn(vector_box), FadeIn(vector_name))
            self.play(GrowArrow(writes), FadeIn(write_name), run_time=1.0)
            self.play(FadeIn(spanish, lag_ratio=0.1), run_time=1.2)
            self.wait(1)

    def show_chain(self, t):
        theme = self.theme
        n = len(t.tokens)
        caption = (
            "The RNN mixes each word's embedding into its hidden state and passes the state on to the next word. "
            f"Word by word the state changes, but it always holds {format_number(t.state_numbers, 0)} numbers."
        )
        with self.step("hidden-state-chain", caption):
            self.clear()
            heading = self.heading("An RNN reads one word at a time")
            xs = [(j - (n - 1) / 2) * 2.1 for j in range(n)]
            words = VGroup(*[label(theme, token).move_to(RIGHT * x + UP * 2.0) for token, x in zip(t.tokens, xs)])
            states = [self.state_column(j, x, top=1.2) for j, x in enumerate(xs)]
            names = VGroup(
                *[
                    formula(theme, f"h_{j + 1}", size=theme.body_size).next_to(s.cells, DOWN, buff=0.2)
                    for j, s in enumerate(states)
                ]
            )
            downs = [
                Arrow(w.get_bottom(), s.cells.get_top(), buff=0.08, color=theme.line, stroke_width=3)
                for w, s in zip(words, states)
            ]
            passes = [
                Arrow(a.cells.get_right(), b.cells.get_left(), buff=0.08, color=theme.highlight, stroke_width=4)
                for a, b in zip(states, states[1:])
            ]
            equation = formula(theme, RNN_FORMULA).move_to(DOWN * 2.1)
            self.play(FadeIn(heading), Write(equation), run_time=1.2)
            for j in range(n):
                self.play(FadeIn(words[j]), GrowArrow(downs[j]), run_time=0.5)
                if j == 0:
                    self.play(FadeIn(states[j]), FadeIn(names[j]), run_time=0.7)
                else:
                    # The cells travel along the chain; the numbers fade in (numbers of unequal length morph badly).
                    self.play(
                        GrowArrow(passes[j - 1]),
                        TransformFromCopy(states[j - 1].cells, states[j].cells),
                        FadeIn(states[j].numbers),
                        FadeIn(names[j]),
                        run_time=0.9,
                    )
            self.states, self.state_names, self.equation = states, names, equation
            self.wait(1)

    def show_bottleneck(self, t):
        theme = self.theme
        caption = (
            f"Only the last state reaches the translator: {format_number(t.sentence_numbers, 0)} numbers of sentence "
            f"squeezed into {format_number(t.state_numbers, 0)}. That is the bottleneck. "
            "Early words fade as later ones are mixed in, and every word is squeezed the same way, even “the” and “on”."
        )
        with self.step("bottleneck", caption):
            last = self.states[-1]
            box = SurroundingRectangle(VGroup(last.cells, self.state_names[-1]), color=theme.highlight, buff=0.1)
            squeeze = VGroup(
                self.number("sentence_numbers", 0, size=theme.body_size),
                label(theme, "numbers in the sentence  →  only", color=theme.muted),
                self.number("state_numbers", 0, size=theme.body_size, color=theme.highlight),
                label(theme, "reach the translator", color=theme.muted),
            ).arrange(RIGHT, buff=0.2)
            squeeze.move_to(DOWN * 2.1)
            # Dim what the translator never sees: the earlier states' numbers and outlines (cells stay unfilled).
            dims = [s.numbers.animate.set_opacity(0.35) for s in self.states[:-1]]
            dims += [s.cells.animate.set_stroke(opacity=0.35) for s in self.states[:-1]]
            self.play(FadeIn(box), *dims, run_time=1.0)
            self.play(self.equation.animate.set_opacity(0).shift(DOWN * 0.3), FadeIn(squeeze), run_time=1.0)
            self.play(Indicate(last.numbers, color=theme.highlight, scale_factor=1.05))
            self.wait(1)

    def show_flow(self, t):
        theme = self.theme
        caption = (
            "Write the information flow as a matrix: row i marks the positions that position i can draw on. "
            "Through the hidden state, position i only sees positions up to i: a lower triangle of ones, np.tril."
        )

        def flow_grid(source):
            return self.grid(
                source,
                0,
                heat=True,
                vmin=0.0,
                vmax=1.0,
                cell_width=0.8,
                cell_height=0.55,
                row_labels=t.tokens,
                col_labels=t.tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
            )

        with self.step("rnn-flow", caption):
            self.clear()
            heading = self.heading("Who can use whom?")
            rnn = flow_grid("rnn_flow")
            rnn.shift(RIGHT * (-3.3 - rnn.cells.get_center()[0]) + UP * (-0.05 - rnn.cells.get_center()[1]))
            rnn_title = label(theme, "RNN: through the chain", color=theme.text).next_to(rnn.col_labels, UP, buff=0.3)
            rnn_title.set_x(rnn.cells.get_center()[0])
            axes = label(theme, "row: position i   column: position j it can use", size=theme.small_size, color=theme.muted)
            axes.next_to(rnn.cells, DOWN, buff=0.35).set_x(0)
            self.play(
                FadeIn(heading),
                FadeIn(rnn_title),
                FadeIn(rnn.row_labels),
                FadeIn(rnn.col_labels),
                FadeIn(rnn.cells),
                FadeIn(axes),
            )
            for i in range(len(t.tokens)):
                self.play(FadeIn(VGroup(*rnn.numbers[i * len(t.tokens) : (i + 1) * len(t.tokens)])), run_time=0.35)
            self.rnn_grid = rnn
            self.wait(1)

        caption = (
            "With attention, every position connects directly to every other position: a matrix of ones, np.ones. "
            "Even “The” can use “mat”."
        )
        with self.step("attention-flow", caption):
            attention = flow_grid("attention_flow")
            attention.shift(
                RIGHT * (3.9 - attention.cells.get_center()[0])
                + UP * (rnn.cells.get_center()[1] - attention.cells.get_center()[1])
            )
            attention_title = label(theme, "Attention: all-to-all", color=theme.text).next_to(attention.col_labels, UP, buff=0.3)
            attention_title.set_x(attention.cells.get_center()[0])
            self.play(FadeIn(attention_title), FadeIn(attention.row_labels), FadeIn(attention.col_labels))
            self.play(TransformFromCopy(VGroup(rnn.cells, rnn.numbers), VGroup(attention.cells, attention.numbers)), run_time=1.5)
            corner = SurroundingRectangle(attention.cell(0, len(t.tokens) - 1), color=theme.highlight, buff=0.02, stroke_width=5)
            self.play(FadeIn(corner))
            self.wait(1)

    def show_path_lengths(self, t):
        theme = self.theme
        n = len(t.tokens)
        caption = (
            f"Count the steps from the first word to the last: through the chain, “{t.tokens[0]}” reaches “{t.tokens[-1]}” "
            f"after {format_number(t.rnn_hops[-1], 0)} hops, n − 1 for n words; with attention it is {format_number(t.attention_hops[-1], 0)} hop "
            "at any distance. Long paths are where RNNs forget."
        )
        with self.step("path-lengths", caption):
            self.clear()
            heading = self.heading(f"Hops from “{t.tokens[0]}” to each word")
            rnn = self.grid(
                "rnn_hops",
                0,
                cell_width=1.1,
                cell_height=0.55,
                font_size=theme.body_size,
                col_labels=t.tokens,
                col_label_color=theme.key,
            )
            attention = self.grid("attention_hops", 0, cell_width=1.1, cell_height=0.55, font_size=theme.body_size)
            attention.next_to(rnn, DOWN, buff=0)
            VGroup(rnn, attention).move_to(UP * 1.75).shift(RIGHT * 0.9)
            row_names = VGroup(
                label(theme, "RNN", color=theme.highlight).next_to(rnn.cells, LEFT, buff=0.3),
                label(theme, "attention", color=theme.query).next_to(attention.cells, LEFT, buff=0.3),
            )
            self.play(FadeIn(heading), FadeIn(rnn.col_labels))
            self.play(FadeIn(row_names[0]), FadeIn(rnn.cells), FadeIn(rnn.numbers, lag_ratio=0.2), run_time=1.2)

            words = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.6).move_to(DOWN * 0.75)
            hops = VGroup(
                *[
                    CurvedArrow(
                        a.get_bottom() + DOWN * 0.05,
                        b.get_bottom() + DOWN * 0.05,
                        angle=1.6,
                        color=theme.highlight,
                        stroke_width=4,
                    )
                    for a, b in zip(words, words[1:])
                ]
            )
            direct = CurvedArrow(
                words[0].get_top() + UP * 0.05, words[-1].get_top() + UP * 0.05, angle=-0.55, color=theme.query, stroke_width=4
            )
            self.play(FadeIn(words))
            for h in hops:
                self.play(FadeIn(h), run_time=0.3)
            rnn_count = (
                VGroup(
                    label(theme, "RNN:", size=theme.small_size, color=theme.highlight),
                    self.number(f"rnn_hops[{n - 1}]", 0, size=theme.body_size, color=theme.highlight),
                    label(theme, "hops", size=theme.small_size, color=theme.highlight),
                )
                .arrange(RIGHT, buff=0.15)
                .next_to(hops, DOWN, buff=0.2)
            )
            self.play(FadeIn(rnn_count))
            self.play(FadeIn(row_names[1]), FadeIn(attention.cells), FadeIn(attention.numbers, lag_ratio=0.2), run_time=1.2)
            attention_count = VGroup(
                label(theme, "attention:", size=theme.small_size, color=theme.query),
                self.number(f"attention_hops[{n - 1}]", 0, size=theme.body_size, color=theme.query),
                label(theme, "hop", size=theme.small_size, color=theme.query),
            ).arrange(RIGHT, buff=0.15)
            attention_count.next_to(direct, UP, buff=0.1)
            self.play(FadeIn(direct), FadeIn(attention_count))
            self.play(
                Indicate(
                    VGroup(rnn.cells[-1], rnn.numbers[-1], attention.cells[-1], attention.numbers[-1]), color=theme.highlight
                )
            )
            self.wait(1)

    def show_direct_access(self, t):
        theme = self.theme
        cat, mat = t.tokens.index("cat"), t.tokens.index("mat")
        gato, alfombra = t.target_tokens.index("gato"), t.target_tokens.index("alfombra")
        caption = (
            "With attention the translator keeps every English word and looks straight at the one it needs: "
            f"“{t.target_tokens[gato]}” at “{t.tokens[cat]}”, “{t.target_tokens[alfombra]}” at “{t.tokens[mat]}”. "
            "No bottleneck, no distance limit, and it learns what to focus on."
        )
        with self.step("direct-access", caption):
            self.clear()
            heading = self.heading("With attention: direct access")
            english = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.4).move_to(UP * 1.7)
            spanish = TokenRow(theme, t.target_tokens, color=theme.value, size=theme.body_size).move_to(DOWN * 0.9)
            links = VGroup(
                *[
                    Line(s.get_top(), e.get_bottom(), color=theme.line, stroke_width=1.5, stroke_opacity=0.6)
                    for s in spanish
                    for e in english
                ]
            )
            strong = VGroup(
                Line(spanish[gato].get_top(), english[cat].get_bottom(), color=theme.highlight, stroke_width=6),
                Line(spanish[alfombra].get_top(), english[mat].get_bottom(), color=theme.highlight, stroke_width=6),
            )
            benefits = label(theme, "no bottleneck  ·  any distance  ·  learned focus", color=theme.muted)
            benefits.move_to(DOWN * 2.3)
            self.play(FadeIn(heading), FadeIn(english), FadeIn(spanish))
            self.play(FadeIn(links), run_time=1.2)
            self.play(FadeIn(strong[0]), Indicate(spanish[gato], color=theme.highlight))
            self.play(FadeIn(strong[1]), Indicate(spanish[alfombra], color=theme.highlight))
            self.play(FadeIn(benefits, shift=UP * 0.2))
            self.wait(1)
