"""Causal masking, GPT-style: the lower-triangular mask, −∞ scores, and BERT against GPT.

Follows seed 001 part 7 ("The Causal Mask": the decoder can only see the past),
seed 003 ("Causal Masking", "Implementing Causal Mask", "BERT vs GPT") and
seed 002 (``masked_fill(mask == 0, -inf)``), on seed 000's "The cat sat on the mat"
embeddings with Q = K = V = X.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attention_math import THE_CAT_SAT, sentence_example
from attention_math.masking import causal_mask_trace

from .base import ExplainerScene
from .components import TokenRow, axis_names, formula, label, shade_mask
from .theme import format_number

CHECK, CROSS = "✓", "✗"


class CausalMaskScene(ExplainerScene):
    name = "causal-mask"
    title = "Causal masking (GPT) vs bidirectional (BERT)"
    description = "GPT's lower-triangular mask: −∞ above the diagonal, softmax over the past; BERT vs GPT."
    sources = "seed 001 part 7; seed 003 'Causal Masking', 'BERT vs GPT'; seed 002 masked_fill"

    options = ("sentence",)
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return causal_mask_trace(example, focus=min(2, len(example.tokens) - 1))

    def construct(self):
        t = self.trace
        theme = self.theme
        tokens = t.query_tokens
        n = len(tokens)
        i = t.focus
        query = tokens[i]

        seen = [tokens[j] for j in range(n) if t.mask[i, j]]
        unseen = [tokens[j] for j in range(n) if not t.mask[i, j]]
        caption = (
            f"GPT writes text one token at a time, so when it reaches “{query}”, the words after it are not written yet. "
            "During training it reads whole sentences, so attention must be stopped from looking ahead."
        )
        with self.step("no-looking-ahead", caption):
            heading = self.heading("Causal masking: no looking ahead")
            row = TokenRow(theme, tokens, size=theme.title_size, buff=0.45).move_to(UP * 0.6)
            for j, box in enumerate(row):
                if not t.mask[i, j]:
                    box[1].set_color(theme.muted)
                    box[0].set_stroke(theme.line)
            row[i][0].set_stroke(theme.query, width=4)
            row[i][1].set_color(theme.query)
            query_name = label(theme, f"query: {query}", color=theme.query).next_to(row[i], UP, buff=0.5)
            marks = VGroup(*[
                label(theme, CHECK if t.mask[i, j] else CROSS, size=theme.title_size, color=theme.value if t.mask[i, j] else theme.masked)
                .next_to(row[j], DOWN, buff=0.35)
                for j in range(n)
            ])
            notes = VGroup(
                label(theme, f"{CHECK} may look at: " + ", ".join(seen), color=theme.value),
                label(theme, f"{CROSS} not written yet: " + ", ".join(unseen), color=theme.masked),
            ).arrange(DOWN, buff=0.35, aligned_edge=LEFT).next_to(marks, DOWN, buff=0.8)
            self.play(FadeIn(heading), FadeIn(row, lag_ratio=0.1), run_time=1.5)
            self.play(FadeIn(query_name, shift=DOWN * 0.2))
            self.play(FadeIn(marks, lag_ratio=0.15), run_time=1.5)
            self.play(FadeIn(notes[0]), FadeIn(notes[1]))

        caption = (
            "The causal mask is a lower-triangular grid: row i is the query, column j the key, and 1 means that i may attend to j. "
            f"“{tokens[0]}” sees only itself, “{tokens[-1]}” sees all {n} tokens."
        )
        with self.step("the-mask", caption):
            self.clear()
            heading = self.heading("The causal mask: 1 = may attend")
            mask = self.grid(
                "mask", 0, cell_width=0.8, cell_height=0.55, row_labels=tokens, col_labels=tokens,
                row_label_color=theme.query, col_label_color=theme.key,
            )
            shade_mask(theme, mask, t.mask)
            mask.move_to(LEFT * 2.6 + DOWN * 0.35)
            names = axis_names(theme, mask)
            legend = VGroup(
                label(theme, f"1  {CHECK}  key at or before the query", size=theme.small_size, color=theme.value),
                label(theme, f"0  {CROSS}  key in the future", size=theme.small_size, color=theme.masked),
                label(theme, "np.tril(np.ones((n, n)))", size=theme.small_size, color=theme.muted, mono=True),
            ).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
            legend.next_to(mask, RIGHT, buff=0.8)
            self.play(FadeIn(heading), FadeIn(mask.row_labels), FadeIn(mask.col_labels), FadeIn(names))
            for r in range(n):
                self.play(FadeIn(mask.row(r)), run_time=0.4)
            self.play(FadeIn(legend[:2], lag_ratio=0.3))
            self.play(FadeIn(legend[2]))

        caption = (
            "The scores are the self-attention scene's: Q = K = V = the course embeddings of “The cat sat on the mat”, "
            f"divided by √{t.d_k} = {format_number(t.scale, 0)}. "
            "Adding the mask M, 0 where allowed and minus infinity above the diagonal, blanks out every future key."
        )
        with self.step("minus-infinity", caption):
            self.clear()
            heading = self.heading("Masked scores: −∞ above the diagonal")
            scores = self.grid("scaled_scores", 2, cell_width=0.8, cell_height=0.55, font_size=theme.min_size, row_labels=tokens, col_labels=tokens,
                               row_label_color=theme.query, col_label_color=theme.key)
            scores.move_to(LEFT * 3.3 + DOWN * 0.45)
            scores_name = formula(theme, r"QK^\top / \sqrt{d_k}").next_to(scores.col_labels, UP, buff=0.3)
            additive = self.grid("additive_mask", 0, cell_width=0.6, cell_height=0.55, font_size=theme.min_size)
            additive.next_to(scores.cells, RIGHT, buff=1.4)
            plus = label(theme, "+", size=theme.title_size).move_to((scores.cells.get_right() + additive.get_left()) / 2)
            additive_name = formula(theme, r"M").next_to(additive, UP, buff=0.3).align_to(scores_name, DOWN)
            self.play(FadeIn(heading), FadeIn(scores.row_labels), FadeIn(scores.col_labels), FadeIn(scores_name))
            self.play(FadeIn(scores.cells), FadeIn(scores.numbers, lag_ratio=0.02), run_time=1.2)
            self.play(FadeIn(plus), FadeIn(additive_name), FadeIn(additive), run_time=1.0)
            masked = self.grid("masked_scores", 2, cell_width=0.8, cell_height=0.55, font_size=theme.min_size)
            masked.move_to(scores.cells)
            masked_name = formula(theme, r"QK^\top / \sqrt{d_k} + M").move_to(scores_name)
            self.play(
                ReplacementTransform(VGroup(scores.cells, scores.numbers), masked),
                ReplacementTransform(scores_name, masked_name),
                run_time=1.8,
            )
            self.wait(0.5)

        first_row = t.weights[0]
        caption = (
            "Softmax turns minus infinity into exactly 0, so each row shares its weight among the visible keys only. "
            f"“{tokens[0]}” sees only itself and gives it {format_number(first_row[0], 2)}; "
            f"“{tokens[1]}” splits {format_number(t.weights[1, 0], 2)} and {format_number(t.weights[1, 1], 2)}. Every row still sums to 1."
        )
        with self.step("softmax-over-the-past", caption):
            new_heading = self.heading("Softmax over the visible keys only")
            self.play(FadeOut(plus), FadeOut(additive), FadeOut(additive_name), ReplacementTransform(heading, new_heading), run_time=0.8)
            weights = self.grid("weights", 2, heat=True, vmin=0.0, vmax=1.0, cell_width=0.8, cell_height=0.55, font_size=theme.min_size,
                                col_labels=tokens, col_label_color=theme.key)
            weights.next_to(masked, RIGHT, buff=0.9).align_to(masked, UP)
            weights.shift(UP * (masked.get_top()[1] - weights.cells.get_top()[1]))
            weights_name = formula(theme, r"\mathrm{softmax}").next_to(weights.col_labels, UP, buff=0.3).align_to(masked_name, DOWN)
            sums = self.grid("row_sums", 2, cell_width=0.8, cell_height=0.55, font_size=theme.min_size)
            sums_column = VGroup(*[VGroup(sums.cells[r], sums.numbers[r]) for r in range(n)])
            for r in range(n):
                sums_column[r].move_to(weights.cell(r, n - 1)).shift(RIGHT * 1.0)
            sums_name = formula(theme, r"\textstyle\sum").next_to(sums_column[0], UP, buff=0.2).align_to(weights_name, DOWN)
            arrow = label(theme, "→", size=theme.title_size).move_to((masked.get_right() + weights.cells.get_left()) / 2)
            self.play(FadeIn(arrow), FadeIn(weights_name), FadeIn(weights.col_labels))
            self.play(TransformFromCopy(masked, VGroup(weights.cells, weights.numbers)), run_time=1.8)
            self.play(FadeIn(sums_name), FadeIn(sums_column, lag_ratio=0.1))
            self.play(
                FadeIn(SurroundingRectangle(weights.row(0), color=theme.highlight, buff=0.03)),
                FadeIn(SurroundingRectangle(weights.row(1), color=theme.highlight, buff=0.03)),
            )

        bidirectional_row = t.bidirectional_weights[i]
        visible = ", ".join(format_number(w, 2) for w in t.weights[i, : len(seen)])
        caption = (
            "Same scores, two rules. "
            f"Bidirectional attention, as in BERT, lets “{query}” look at all {n} words, “{tokens[-1]}” included ({format_number(bidirectional_row[-1], 2)}). "
            f"Causal attention, as in GPT, gives its weight to {', '.join('“' + s + '”' for s in seen)} only: {visible}."
        )
        with self.step("bert-vs-gpt", caption):
            self.clear()
            heading = self.heading("Same scores: BERT vs GPT")
            maps = []
            for source, title, x in (("bidirectional_weights", "BERT: bidirectional", -3.45), ("weights", "GPT: causal", 3.45)):
                heatmap = self.grid(source, 2, heat=True, vmin=0.0, vmax=1.0, cell_width=0.88, cell_height=0.62,
                                    row_labels=tokens, col_labels=tokens, row_label_color=theme.query, col_label_color=theme.key)
                heatmap.move_to(RIGHT * x + DOWN * 0.55)
                name = label(theme, title, color=theme.text).next_to(heatmap.col_labels, UP, buff=0.35)
                box = SurroundingRectangle(heatmap.row(i), color=theme.highlight, buff=0.03)
                maps.append((heatmap, name, box))
            self.play(FadeIn(heading))
            for heatmap, name, _ in maps:
                self.play(FadeIn(name), FadeIn(heatmap), run_time=1.2)
            self.play(*[FadeIn(box) for _, _, box in maps])

        caption = (
            "BERT sees every position and learns by filling in a hidden [MASK] word, which suits understanding text. "
            "GPT sees only the past and learns to predict the next token, which is what generation needs."
        )
        with self.step("which-is-which", caption):
            self.clear()
            heading = self.heading("BERT vs GPT")
            rows = (
                ("", "BERT", "GPT"),
                ("Masking", "Bidirectional", "Causal"),
                ("Sees", "All positions", "Only the past"),
                ("Training", "Fill in [MASK]", "Predict next token"),
                ("Use case", "Understanding", "Generation"),
                ("Example", "Sentiment analysis", "ChatGPT"),
            )
            table = self.table(rows)
            table.next_to(heading, DOWN, buff=0.7)
            table.set_x(0)
            self.play(FadeIn(heading), FadeIn(table[0]))
            for line in table[1:]:
                self.play(FadeIn(line, shift=UP * 0.1), run_time=0.6)
            self.wait(1)

    def table(self, rows) -> VGroup:
        """A three-column text table with a rule under the header row."""
        theme = self.theme
        widths = (2.8, 4.8, 4.2)
        colors = (theme.muted, theme.key, theme.query)
        lines = VGroup()
        for r, row in enumerate(rows):
            cells = VGroup()
            for c, text in enumerate(row):
                if not text:
                    continue
                size = theme.title_size if r == 0 else theme.body_size
                cell = label(theme, text, size=size, color=colors[c] if (r == 0 or c == 0) else theme.text)
                cell.move_to(RIGHT * (sum(widths[:c]) + 0.1), aligned_edge=LEFT)
                cells.add(cell)
            cells.shift(DOWN * r * 0.85)
            lines.add(cells)
        rule = Line(DOWN * 0.45, DOWN * 0.45 + RIGHT * sum(widths), color=theme.line)
        lines[0].add(rule)
        return lines

