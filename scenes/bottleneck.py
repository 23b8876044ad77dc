"""Before attention: an RNN squeezes "The cat sat on the mat" through one hidden state.

English to Spanish through one fixed-size vector, in an untrained RNN whose weights are
random (said on screen). How much of each word is left in that vector is measured, not told:
the last state's change when one word's numbers change. Setting ``np.tril`` (RNN) against
``np.ones`` (attention) would mix up two things: which words can be reached (a causal mask gives attention the same
triangle as an RNN) and how many steps it takes (the RNN's real weakness). The scene
shows path lengths instead, as in Vaswani et al. 2017, section 4. Two kinds of attention are
named apart: the translator's attention over the English words (Bahdanau et al. 2015) at the end,
whose alignment lines are drawn by hand and say so on screen, and self-attention (English word to
English word) in the path lengths. Self-attention is older than 2017 (Cheng et al. 2016, Parikh et al.
2016); what 2017 brought is the Transformer, a model built from attention alone, and that is what the
scene dates to 2017.
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
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    Indicate,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED
from attention_math.traces.bottleneck import bottleneck_trace

from .kit import ExplainerScene
from .kit.heatmaps import attention_heatmap
from .kit.tables import NumberGrid, TokenRow
from .kit.text import formula, label
from .theme import format_number

RNN_FORMULA = r"h_t = \tanh(x_t W_x + h_{t-1} W_h)"
PATH_CELL_WIDTH, PATH_CELL_HEIGHT = 0.8, 0.55
STATE_CELL_WIDTH = 1.2
"""A hidden state's cells: "−0.53" at the small size clear of both borders."""
RNN_PATHS_X, ATTENTION_PATHS_X = -3.2, 3.5
"""Centres of the two path-length matrices' cells."""

# Where things go, step by step (centres).
SOURCE_AT, STATE_AT, TARGET_AT = UP * 1.9, DOWN * 0.15, DOWN * 2.2
"""Step 1, top to bottom: the English words, the one vector the RNN hands over, the Spanish words."""
RULE_AT, RULE_SINKS = DOWN * 2.1, DOWN * 0.3
"""Steps 2-3: the RNN's rule under the chain of states, then what replaces it (the rule sinks as it fades)."""
HOPS_AT, ROW_NAMES_ROOM, HOP_WORDS_AT = UP * 1.75, RIGHT * 0.9, DOWN * 0.75
"""Step 4: the table of step counts (moved right to leave its row names room), the words the hops link."""
ENGLISH_AT, SPANISH_AT, BENEFITS_AT = UP * 1.7, DOWN * 0.9, DOWN * 2.3
"""Step 7, top to bottom: the English words, the Spanish words linked to every one, what attention brings."""


class BottleneckScene(ExplainerScene):
    name = "bottleneck"
    title = "Before attention: the RNN bottleneck"
    description = "An RNN squeezes a sentence through one hidden state; attention links any two words in one step."
    sources = (
        "Bahdanau, Cho and Bengio 2015 (attention instead of one fixed-size vector); "
        "Vaswani et al. 2017, section 4 (path lengths)"
    )
    poster_step = "attention-paths"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return bottleneck_trace(seed)

    def construct(self):
        t = self.trace
        self.show_translation(t)
        self.show_chain(t)
        self.show_bottleneck(t)
        self.show_fading(t)
        self.show_steps_from_the_first_word(t)
        self.show_rnn_paths(t)
        self.show_attention_paths(t)
        self.show_direct_access(t)

    # --- 1. one vector -------------------------------------------------------------

    def show_translation(self, t):
        theme = self.theme
        with self.step("one-vector", "One vector for the whole sentence"):
            heading = self.heading("The problem without attention")
            english = TokenRow(theme, t.tokens, size=theme.body_size).move_to(SOURCE_AT)
            spanish = TokenRow(theme, t.target_tokens, color=theme.value, size=theme.body_size).move_to(TARGET_AT)
            vector = self.grid(f"hidden_states[{len(t.tokens) - 1}]", 2, cell_width=1.2, cell_height=0.6)
            vector.move_to(STATE_AT)
            vector_box = SurroundingRectangle(vector, color=theme.highlight, buff=0.12)
            vector_name = label(theme, "one fixed-size vector", size=theme.small_size, color=theme.highlight)
            vector_name.next_to(vector_box, RIGHT, buff=0.3)
            reads = Arrow(english.get_bottom(), vector_box.get_top(), buff=0.12, color=theme.line, stroke_width=5)
            writes = Arrow(vector_box.get_bottom(), spanish.get_top(), buff=0.12, color=theme.line, stroke_width=5)
            read_name = label(theme, "RNN reads word by word", size=theme.small_size, color=theme.muted)
            read_name.next_to(reads, RIGHT, buff=0.3)
            # A trained translator, not this random RNN: the label must not say the random vector gives the Spanish.
            write_name = label(theme, "a trained translator must write", size=theme.small_size, color=theme.muted)
            write_name.next_to(writes, RIGHT, buff=0.3)

            sentence = " ".join(t.tokens)
            # Spoken, the quoted sentence is announced: a voice drops the quotation marks.
            self.say(f"Translate “{sentence}” into Spanish.", spoken=f"Translate the sentence, {sentence}, into Spanish.")
            self.play(FadeIn(heading), FadeIn(english, lag_ratio=0.1), run_time=1.2)
            self.say("Before attention, an RNN read the English words one by one.")
            self.play(GrowArrow(reads), FadeIn(read_name), run_time=1.0)
            untrained = self.note_lines(
                ("This RNN is untrained: random weights, from a fixed random seed.", "Its numbers show sizes, not meaning.")
            )
            self.say(f"It handed the translator one fixed-size vector: {format_number(t.state_numbers, 0)} numbers here.")
            self.play(FadeIn(vector), FadeIn(vector_box), FadeIn(vector_name))
            self.say("Our RNN is untrained, its weights random: its numbers show sizes, not meaning.")
            self.play(FadeIn(untrained))
            self.say(f"From that vector alone, a trained translator would have to write “{' '.join(t.target_tokens)}”.")
            self.play(GrowArrow(writes), FadeIn(write_name), run_time=1.0)
            self.play(FadeIn(spanish, lag_ratio=0.1), run_time=1.2)

    # --- 2. the chain of hidden states ---------------------------------------------

    def state_column(self, index: int, x: float, top: float):
        """Hidden state ``index`` as a column of cells, its top edge at ``top``."""
        grid = self.grid(f"hidden_states[{index}]", 2, cell_width=STATE_CELL_WIDTH, cell_height=0.5)
        for d, (cell, number) in enumerate(zip(grid.cells, grid.numbers)):
            cell.move_to(RIGHT * x + UP * (top - 0.25 - 0.5 * d))
            number.move_to(cell)
        return grid

    def show_chain(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("hidden-state-chain", "An RNN reads one word at a time"):
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
            # The embedding x_t of the rule, named on the arrow that carries it into h_t.
            inputs = VGroup(
                *[
                    formula(theme, f"x_{j + 1}", size=theme.aside_formula_size, colors={f"x_{j + 1}": theme.muted}).next_to(
                        a, RIGHT, buff=0.12
                    )
                    for j, a in enumerate(downs)
                ]
            )
            passes = [
                Arrow(a.cells.get_right(), b.cells.get_left(), buff=0.08, color=theme.highlight, stroke_width=4)
                for a, b in zip(states, states[1:])
            ]
            equation = formula(theme, RNN_FORMULA).move_to(RULE_AT)

            self.say("An RNN reads one word at a time, with one rule.")
            self.play(FadeIn(heading), Write(equation), run_time=1.2)
            self.say("It mixes each word's embedding into its hidden state h.")
            self.play(FadeIn(words[0]), GrowArrow(downs[0]), FadeIn(inputs[0]), run_time=0.5)
            self.play(FadeIn(states[0]), FadeIn(names[0]), run_time=0.7)
            self.say("Then it passes the state on to the next word, and the state changes.")
            for j in range(1, n):
                self.play(FadeIn(words[j]), GrowArrow(downs[j]), FadeIn(inputs[j]), run_time=0.5)
                # The cells travel along the chain; the numbers fade in (numbers of unequal length morph badly).
                self.play(
                    GrowArrow(passes[j - 1]),
                    TransformFromCopy(states[j - 1].cells, states[j].cells),
                    FadeIn(states[j].numbers),
                    FadeIn(names[j]),
                    run_time=0.9,
                )
            self.say(f"But it always holds {format_number(t.state_numbers, 0)} numbers, however long the sentence.")
            self.play(*[Indicate(s.cells, color=theme.highlight, scale_factor=1.03) for s in states], run_time=1.0)
            self.states, self.state_names, self.equation, self.words = states, names, equation, words
            self.inputs = inputs

    # --- 3. the bottleneck ------------------------------------------------------------

    def show_bottleneck(self, t):
        theme = self.theme
        with self.step("bottleneck", "The bottleneck: only the last state"):
            last = self.states[-1]
            box = SurroundingRectangle(VGroup(last.cells, self.state_names[-1]), color=theme.highlight, buff=0.1)
            n, d = t.embeddings.shape
            squeeze = VGroup(
                label(theme, f"{n} words × {d} numbers =", color=theme.muted),
                self.number("sentence_numbers", 0, size=theme.body_size),
                label(theme, "in  →  only", color=theme.muted),
                self.number("state_numbers", 0, size=theme.body_size, color=theme.highlight),
                label(theme, "reach the translator", color=theme.muted),
            ).arrange(RIGHT, buff=0.2)
            squeeze.move_to(RULE_AT)
            # Dim what the translator never sees: the earlier states' numbers and outlines (cells stay unfilled).
            dims = [s.numbers.animate.set_opacity(0.35) for s in self.states[:-1]]
            dims += [s.cells.animate.set_stroke(opacity=0.35) for s in self.states[:-1]]

            self.say("Only the last state reaches the translator.")
            self.play(FadeIn(box), *dims, run_time=1.0)
            self.say(
                f"{n} words of {d} numbers each: {format_number(t.sentence_numbers, 0)} numbers go in, squeezed into "
                f"{format_number(t.state_numbers, 0)}. That is the bottleneck."
            )
            self.play(
                self.equation.animate.set_opacity(0).shift(RULE_SINKS),
                FadeIn(squeeze),
                Indicate(self.words, color=theme.highlight, scale_factor=1.05),
                run_time=1.2,
            )
            self.play(Indicate(last.numbers, color=theme.highlight, scale_factor=1.05))

    # --- 4. how much of each word is left ------------------------------------------

    def show_fading(self, t):
        theme = self.theme
        first, last = t.tokens[0], t.tokens[-1]
        change = t.final_state_change
        with self.step("early-words-fade", "How much of each word is left?"):
            self.clear()
            heading = self.heading("How much of each word is left?")
            bars = self.bars(
                "final_state_change",
                t.tokens,
                2,
                height=3.2,
                spacing=1.9,
                bar_width=0.7,
                color=theme.highlight,
                max_value=float(change.max()),
            )
            bars.move_to(DOWN * 0.3)
            axis = VGroup(
                label(theme, "how far the last state moves when one word's numbers each get +", size=theme.small_size),
                self.number("nudge", 1, size=theme.small_size),
            ).arrange(RIGHT, buff=0.08)
            axis.set_color(theme.muted).next_to(heading, DOWN, buff=0.3).align_to(heading, LEFT)
            note = self.note_lines(("untrained RNN, random weights (a fixed random seed): what this one keeps, not a law",))

            self.say(f"Add {format_number(t.nudge, 1)} to every number of one word, and measure how far the last state moves.")
            self.play(FadeIn(heading), FadeIn(axis), FadeIn(bars.labels), FadeIn(note))
            self.play(GrowFromEdge(bars.bars, DOWN), FadeIn(bars.numbers), run_time=1.5)
            self.say(
                f"Change “{first}”: it moves {format_number(change[0], 2)}. Change “{last}”: {format_number(change[-1], 2)}."
            )
            # Outlined for the rest of the step: the two bars the line names stay marked.
            named = [SurroundingRectangle(VGroup(bars.bars[k], bars.numbers[k]), color=theme.text, buff=0.1) for k in (0, -1)]
            self.play(FadeIn(named[0]), Indicate(VGroup(bars.bars[0], bars.numbers[0]), color=theme.highlight), run_time=0.8)
            self.play(FadeIn(named[1]), Indicate(VGroup(bars.bars[-1], bars.numbers[-1]), color=theme.highlight), run_time=0.8)
            if change[0] < change[-1]:
                self.say(f"In this RNN early words fade: little of “{first}” is left in the vector the translator gets.")
            else:
                self.say(f"In this RNN “{first}” still counts more than “{last}”: how fast words fade depends on the weights.")
            self.wait(0.5)

    # --- 5. steps from the first word ----------------------------------------------

    def show_steps_from_the_first_word(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("path-lengths", "Steps between words: RNN vs attention"):
            self.clear()
            heading = self.heading(f"Steps from “{t.tokens[0]}” to each word")
            rnn = self.grid(
                "rnn_hops",
                0,
                cell_width=1.1,
                cell_height=0.55,
                font_size=theme.body_size,
                col_labels=t.tokens,
                # Neutral words: blue means self-attention in this scene.
                col_label_color=theme.text,
            )
            attention = self.grid("attention_hops", 0, cell_width=1.1, cell_height=0.55, font_size=theme.body_size)
            attention.next_to(rnn, DOWN, buff=0)
            VGroup(rnn, attention).move_to(HOPS_AT).shift(ROW_NAMES_ROOM)
            row_names = VGroup(
                label(theme, "RNN", color=theme.highlight).next_to(rnn.cells, LEFT, buff=0.3),
                label(theme, "self-attention", color=theme.key).next_to(attention.cells, LEFT, buff=0.3),
            )
            words = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.6).move_to(HOP_WORDS_AT)
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
                words[0].get_top() + UP * 0.05, words[-1].get_top() + UP * 0.05, angle=-0.55, color=theme.key, stroke_width=4
            )
            rnn_count = self.step_count("RNN:", f"rnn_hops[{n - 1}]", "steps", theme.highlight).next_to(hops, DOWN, buff=0.2)
            attention_count = self.step_count("self-attention:", f"attention_hops[{n - 1}]", "step", theme.key)
            attention_count.next_to(direct, UP, buff=0.1)

            self.say(f"Count the steps from “{t.tokens[0]}” to each word.")
            self.play(FadeIn(heading), FadeIn(rnn.col_labels), FadeIn(words))
            self.say("Through the RNN's chain, each word is one step further away.")
            self.play(FadeIn(row_names[0]), FadeIn(rnn.cells), FadeIn(rnn.numbers, lag_ratio=0.2), run_time=1.2)
            for h in hops:
                self.play(FadeIn(h), run_time=0.3)
            self.say(
                f"“{t.tokens[0]}” reaches “{t.tokens[-1]}” after {format_number(t.rnn_hops[-1], 0)} steps: n − 1 for n words."
            )
            self.play(FadeIn(rnn_count))
            self.say(
                "With self-attention, as in the Transformer of 2017, any two English words are one step apart.",
                spoken="With self-attention, as in the Transformer of twenty seventeen, any two English words are one step apart.",
            )
            self.play(FadeIn(row_names[1]), FadeIn(attention.cells), FadeIn(attention.numbers, lag_ratio=0.2), run_time=1.2)
            self.play(FadeIn(direct), FadeIn(attention_count))
            self.say("Long paths are where RNNs forget: the longer the path, the harder it is to learn.")
            self.play(
                Indicate(
                    VGroup(rnn.cells[-1], rnn.numbers[-1], attention.cells[-1], attention.numbers[-1]), color=theme.highlight
                )
            )

    def step_count(self, name: str, source: str, unit: str, color: str) -> VGroup:
        """ "RNN: 5 steps", its number read from the trace."""
        theme = self.theme
        return VGroup(
            label(theme, name, size=theme.small_size, color=color),
            self.number(source, 0, size=theme.body_size, color=color),
            label(theme, unit, size=theme.small_size, color=color),
        ).arrange(RIGHT, buff=0.15)

    # --- 6-7. every pair of words ----------------------------------------------------

    def path_grid(self, source: str, x: float) -> NumberGrid:
        """A matrix of path lengths (row i receives, column j sends), its cells centred at ``x``."""
        t = self.trace
        cell, scale = (PATH_CELL_WIDTH, PATH_CELL_HEIGHT), (0.0, float(len(t.tokens) - 1))
        grid = attention_heatmap(self, source, t.tokens, t.tokens, 0, cell=cell, scale=scale, number_size=self.theme.body_size)
        # Neutral words: blue means self-attention in this scene, not a key.
        grid.row_labels.set_color(self.theme.text)
        grid.col_labels.set_color(self.theme.text)
        return grid.shift(RIGHT * (x - grid.cells.get_x()) + UP * (-0.1 - grid.cells.get_y()))

    def matrix_title(self, text: str, grid: NumberGrid, color: str) -> VGroup:
        title = label(self.theme, text, color=color).next_to(grid.col_labels, UP, buff=0.3)
        return title.set_x(grid.cells.get_x())

    def lower_cells(self, grid: NumberGrid) -> VGroup:
        """Cells and numbers below the diagonal (j < i): the pairs both a chain and a causal mask allow."""
        n = grid.shape[0]
        return VGroup(*[VGroup(grid.cell(i, j), grid.number(i, j)) for i in range(n) for j in range(i)])

    def upper_numbers(self, grid: NumberGrid) -> VGroup:
        n = grid.shape[0]
        return VGroup(*[grid.number(i, j) for i in range(n) for j in range(i + 1, n)])

    def show_rnn_paths(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("rnn-paths", "Every pair of words through an RNN"):
            self.clear()
            heading = self.heading("Steps from word j to word i")
            rnn = self.path_grid("rnn_path_lengths", RNN_PATHS_X)
            title = self.matrix_title("RNN: through the chain", rnn, theme.highlight)
            axes = label(theme, "row i: the word that receives   column j: the word that sends", size=theme.small_size)
            axes.set_color(theme.muted).next_to(rnn.cells, DOWN, buff=0.45).set_x(0)

            self.say("Now every pair of words: row i receives, column j sends.")
            self.play(FadeIn(heading), FadeIn(title), FadeIn(rnn.row_labels), FadeIn(rnn.col_labels), FadeIn(axes))
            self.play(FadeIn(rnn.cells))
            self.say("Through the chain, word j reaches word i after i − j steps.")
            for i in range(n):
                row = VGroup(*[rnn.number(i, j) for j in range(i + 1)])
                self.play(FadeIn(row), run_time=0.35)
            self.say("∞ above the diagonal: an RNN reading left to right never sees a later word.")
            self.play(FadeIn(self.upper_numbers(rnn)), run_time=0.8)
            self.rnn_paths = rnn

    def show_attention_paths(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("attention-paths", "Every pair through attention: one step"):
            causal = self.path_grid("causal_attention_path_lengths", ATTENTION_PATHS_X)
            full = self.path_grid("attention_path_lengths", ATTENTION_PATHS_X)
            causal_title = self.matrix_title("Self-attention, causal mask", causal, theme.key)
            full_title = self.matrix_title("Self-attention, no mask", full, theme.key)

            self.say("Now self-attention with a causal mask, as in GPT.")
            self.play(FadeIn(causal_title), FadeIn(causal.row_labels), FadeIn(causal.col_labels), FadeIn(causal.cells))
            self.play(FadeIn(causal.numbers), run_time=0.8)
            self.say("It reaches the same words as the RNN: the same triangle.")
            # The ∞ triangles outlined in both matrices while the line is read, then the 1s below the diagonal.
            never = VGroup(
                *[
                    SurroundingRectangle(grid.cell(i, j), color=theme.masked, buff=0, stroke_width=4)
                    for grid in (self.rnn_paths, causal)
                    for i in range(n)
                    for j in range(i + 1, n)
                ]
            )
            self.play(
                FadeIn(never), Indicate(self.upper_numbers(self.rnn_paths)), Indicate(self.upper_numbers(causal)), run_time=1.2
            )
            self.say("But every path is one step, however far apart the words.")
            ones = VGroup(
                *[
                    SurroundingRectangle(causal.cell(i, j), color=theme.highlight, buff=0, stroke_width=4)
                    for i in range(n)
                    for j in range(i)
                ]
            )
            self.play(FadeOut(never), FadeIn(ones), run_time=1.0)
            self.say("Remove the mask: self-attention reaches every word, still in one step.")
            self.play(
                FadeOut(ones),
                ReplacementTransform(causal_title, full_title),
                ReplacementTransform(VGroup(causal.cells, causal.numbers), VGroup(full.cells, full.numbers)),
                run_time=1.2,
            )
            self.say("The mask decides which words are reached. Self-attention keeps every path short.")
            self.play(Indicate(VGroup(self.rnn_paths.cell(len(t.tokens) - 1, 0), self.rnn_paths.number(len(t.tokens) - 1, 0))))

    # --- 8. direct access ---------------------------------------------------------------

    def show_direct_access(self, t):
        theme = self.theme
        cat, mat = t.tokens.index("cat"), t.tokens.index("mat")
        gato, alfombra = t.target_tokens.index("gato"), t.target_tokens.index("alfombra")
        with self.step("direct-access", "With attention: direct access"):
            self.clear()
            heading = self.heading("The translator attends to the English words")
            english = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.4).move_to(ENGLISH_AT)
            spanish = TokenRow(theme, t.target_tokens, color=theme.value, size=theme.body_size).move_to(SPANISH_AT)
            # The vectors the translator keeps, h_1 … h_n as in step 2: what its attention looks at.
            vectors = VGroup(
                *[
                    formula(theme, f"h_{j + 1}", size=theme.aside_formula_size, colors={f"h_{j + 1}": theme.highlight}).next_to(
                        e, DOWN, buff=0.15
                    )
                    for j, e in enumerate(english)
                ]
            )
            links = VGroup(
                *[
                    Line(s.get_top(), h.get_bottom(), color=theme.line, stroke_width=1.5, stroke_opacity=0.6)
                    for s in spanish
                    for h in vectors
                ]
            )
            strong = VGroup(
                Line(spanish[gato].get_top(), vectors[cat].get_bottom(), color=theme.highlight, stroke_width=6),
                Line(spanish[alfombra].get_top(), vectors[mat].get_bottom(), color=theme.highlight, stroke_width=6),
            )
            drawn = self.note_lines(
                ("Yellow lines drawn by hand: where a trained translator looks (as in Bahdanau et al. 2015).",)
            )
            benefits = VGroup(
                label(theme, "translator → English words (2015): no bottleneck, a learned focus", size=theme.small_size),
                label(theme, "Transformer (2017): self-attention, English ↔ English, one step", size=theme.small_size),
            ).arrange(DOWN, buff=0.2)
            benefits[0].set_color(theme.muted)
            benefits[1].set_color(theme.key)
            benefits.move_to(BENEFITS_AT)

            self.say(
                "Attention for translation began with Bahdanau et al. 2015: the translator keeps a vector h for every English word.",
                spoken="Attention for translation began with Bahdanau and colleagues in twenty fifteen: "
                "the translator keeps a vector h for every English word.",
            )
            self.play(FadeIn(heading), FadeIn(english), FadeIn(spanish))
            self.play(FadeIn(vectors, lag_ratio=0.1), run_time=1.0)
            self.say("Each Spanish word can look at any of them, in one step.")
            self.play(FadeIn(links), run_time=1.2)
            self.say(f"Trained, it learns where to look, drawn here by hand: “{t.target_tokens[gato]}” at “{t.tokens[cat]}”,")
            self.play(FadeIn(strong[0]), FadeIn(drawn), Indicate(spanish[gato], color=theme.highlight))
            self.say(f"and “{t.target_tokens[alfombra]}” at “{t.tokens[mat]}”.")
            self.play(FadeIn(strong[1]), Indicate(spanish[alfombra], color=theme.highlight))
            self.say("This attention removed the bottleneck, and its focus is learned.")
            self.play(FadeIn(benefits[0], shift=UP * 0.2))
            self.say(
                "In 2017 the Transformer dropped the RNN and built on self-attention: English words linked to each other in one step.",
                spoken="In twenty seventeen the Transformer dropped the RNN and built on self-attention: "
                "English words linked to each other in one step.",
            )
            self.play(FadeIn(benefits[1], shift=UP * 0.2))
