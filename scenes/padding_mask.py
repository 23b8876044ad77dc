"""Padding masks: a padded batch, <pad> keys getting weight 0, and padding combined with causal.

Follows seed 004 slide 9 ("Attention Masking Strategies": valid keys
``[1, 1, 1, 0, 0]``, ``combined_mask = causal_mask * padding_mask``), seed 002
(``masked_fill(mask == 0, -inf)``) and seed 000's exercise "Implement masking for
padding tokens", with the course embeddings of "The cat sat on the mat".
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, FadeIn, Rectangle, SurroundingRectangle, TransformFromCopy, VGroup

from attention_math.masks import PAD
from attention_math.traces.padding_mask import padding_mask_trace

from .kit import ExplainerScene
from .kit.components import formula, label, shade_mask
from .theme import format_number

CELLS = {"cell_width": 1.0, "cell_height": 0.6, "label_size": 20}
"""Cells wide enough for a "<pad>" label at the minimum text size."""


class PaddingMaskScene(ExplainerScene):
    name = "padding-mask"
    title = "Padding masks"
    description = "Pad a batch to one length, give <pad> keys weight exactly 0, and combine with the causal mask."
    sources = "seed 004 slide 9 'Attention Masking Strategies'; seed 002 masked_fill; seed 000 padding exercise"

    @classmethod
    def build_trace(cls):
        return padding_mask_trace()

    def construct(self):
        t = self.trace
        theme = self.theme
        tokens = t.query_tokens
        n = len(tokens)
        pads = [j for j in range(n) if not t.valid[j]]
        real = [j for j in range(n) if t.valid[j]]
        sentence = " ".join(tokens[j] for j in real)

        lengths = ", ".join(str(length) for length in t.lengths[:-1]) + f" and {t.lengths[-1]}"
        caption = (
            f"To run sentences through the model together, a batch must be a rectangle. These have {lengths} tokens, "
            f"so the shorter ones are filled up to {n} with a {PAD} token, and a row of 1s and 0s records which tokens are real."
        )
        with self.step("a-padded-batch", caption):
            heading = self.heading(f"A batch padded to {n} tokens")
            rows = VGroup()
            for sequence in t.batch_tokens:
                boxes = VGroup()
                for token in sequence:
                    color = theme.masked if token == PAD else theme.text
                    text = label(theme, token, color=color)
                    box = Rectangle(
                        width=1.5, height=0.75, stroke_color=theme.masked if token == PAD else theme.line, stroke_width=2
                    )
                    boxes.add(VGroup(box, text.move_to(box)))
                rows.add(boxes.arrange(RIGHT, buff=0.12))
            rows.arrange(DOWN, buff=0.35).move_to(LEFT * 2.2 + DOWN * 0.3)
            valid = self.grid("batch_valid", 0, cell_width=0.75, cell_height=0.75, font_size=theme.body_size)
            shade_mask(theme, valid, t.batch_valid)
            valid.next_to(rows, RIGHT, buff=1.0).align_to(rows, UP)
            tokens_name = label(theme, "tokens", color=theme.muted).next_to(rows, UP, buff=0.35)
            valid_name = label(theme, "valid (1 = real)", color=theme.muted).next_to(valid, UP, buff=0.35)
            self.play(FadeIn(heading), FadeIn(tokens_name))
            for boxes in rows:
                self.play(FadeIn(boxes, lag_ratio=0.1), run_time=0.8)
            self.play(FadeIn(valid_name), FadeIn(valid), run_time=1.2)
            self.play(
                FadeIn(SurroundingRectangle(VGroup(rows[t.sentence], valid.row(t.sentence)), color=theme.highlight, buff=0.1))
            )

        caption = (
            f"Take the first sentence, “{sentence}” and {len(pads)} pads. "
            "The padding mask copies its valid row to every query: any query may look at the real keys, no query may look at a pad."
        )
        with self.step("the-padding-mask", caption):
            self.clear()
            heading = self.heading("Padding mask: one row for every query")
            valid_row = self.grid("valid", 0, col_labels=tokens, col_label_color=theme.key, **CELLS)
            shade_mask(theme, valid_row, [t.valid])
            mask = self.grid("mask", 0, row_labels=tokens, row_label_color=theme.query, **CELLS)
            shade_mask(theme, mask, t.mask)
            mask.move_to(LEFT * 2.3 + DOWN * 1.1)
            valid_row.next_to(mask.cells, UP, buff=1.25)
            valid_name = label(theme, "valid keys", size=theme.small_size, color=theme.muted).next_to(
                valid_row.cells, LEFT, buff=0.3
            )
            arrow = label(theme, "↓ copied to every query row", size=theme.small_size, color=theme.muted)
            arrow.move_to((valid_row.cells.get_bottom() + mask.cells.get_top()) / 2)
            legend = (
                VGroup(
                    label(theme, "1  real key: may attend", size=theme.small_size, color=theme.value),
                    label(theme, f"0  {PAD} key: hidden", size=theme.small_size, color=theme.masked),
                )
                .arrange(DOWN, buff=0.4, aligned_edge=LEFT)
                .next_to(mask, RIGHT, buff=0.9)
            )
            self.play(FadeIn(heading), FadeIn(valid_name), FadeIn(valid_row))
            self.play(FadeIn(arrow), FadeIn(mask.row_labels))
            self.play(*[TransformFromCopy(valid_row.cells, mask.row(r)[:n]) for r in range(n)], run_time=1.5)
            self.play(*[FadeIn(mask.row(r)[n:]) for r in range(n)], FadeIn(legend, lag_ratio=0.3))

        share = t.pad_share[t.focus]
        caption = (
            f"Without a mask the pads take part. Their embedding is all zeros, yet softmax still gives them weight: "
            f"“{tokens[t.focus]}” spends {format_number(share, 2)} of its attention on the {len(pads)} pads, which carry no meaning at all."
        )
        with self.step("pads-leak-without-a-mask", caption):
            self.clear()
            heading = self.heading(f"No mask: the {PAD} keys take weight")
            note = label(theme, f"Q = K = V = course embeddings; {PAD} = zeros", size=theme.small_size, color=theme.muted)
            note.next_to(heading, DOWN, buff=0.25).align_to(heading, LEFT)
            unmasked = self.grid(
                "unmasked_weights",
                2,
                heat=True,
                vmin=0.0,
                vmax=1.0,
                row_labels=tokens,
                col_labels=tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                **CELLS,
            )
            unmasked.move_to(LEFT * 1.6 + DOWN * 0.75)
            shares = self.grid("pad_share", 2, **CELLS)
            for r in range(n):
                VGroup(shares.cells[r], shares.numbers[r]).move_to(unmasked.cell(r, n - 1)).shift(RIGHT * 2.6)
            shares_name = label(theme, f"weight on {PAD}", size=theme.small_size, color=theme.masked)
            shares_name.next_to(shares.cells[0], UP, buff=0.25)
            pad_boxes = VGroup(*[SurroundingRectangle(unmasked.column(j), color=theme.masked, buff=0.04) for j in pads])
            self.play(FadeIn(heading), FadeIn(note), FadeIn(unmasked.row_labels), FadeIn(unmasked.col_labels))
            for r in range(n):
                self.play(FadeIn(unmasked.row(r)), run_time=0.4)
            self.play(FadeIn(pad_boxes))
            self.play(FadeIn(shares_name), FadeIn(shares, lag_ratio=0.1))

        kept = ", ".join(format_number(t.weights[t.focus, j], 2) for j in real)
        caption = (
            "With the mask, the pad columns become minus infinity and softmax gives them exactly 0. "
            f"Each row now sums to 1 over the {len(real)} real keys: “{tokens[t.focus]}” gives {kept}."
        )
        with self.step("pad-keys-get-zero", caption):
            self.clear()
            heading = self.heading(f"Masked: {PAD} keys get exactly 0")
            masked = self.grid(
                "masked_scores",
                2,
                row_labels=tokens,
                col_labels=tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                **CELLS,
            )
            masked.move_to(LEFT * 3.2 + DOWN * 0.5)
            weights = self.grid(
                "weights", 2, heat=True, vmin=0.0, vmax=1.0, col_labels=tokens, col_label_color=theme.key, **CELLS
            )
            weights.next_to(masked, RIGHT, buff=1.0).align_to(masked, DOWN)
            masked_name = formula(theme, r"QK^\top/\sqrt{d_k}\ \text{masked}").next_to(masked.col_labels, UP, buff=0.3)
            weights_name = (
                formula(theme, r"\mathrm{softmax}").next_to(weights.col_labels, UP, buff=0.3).align_to(masked_name, DOWN)
            )
            arrow = label(theme, "→", size=theme.title_size).move_to((masked.get_right() + weights.cells.get_left()) / 2)
            self.play(FadeIn(heading), FadeIn(masked_name), FadeIn(masked), run_time=1.2)
            self.play(FadeIn(arrow), FadeIn(weights_name), FadeIn(weights.col_labels))
            self.play(
                TransformFromCopy(VGroup(masked.cells, masked.numbers), VGroup(weights.cells, weights.numbers)), run_time=1.8
            )
            self.play(*[FadeIn(SurroundingRectangle(weights.column(j), color=theme.masked, buff=0.04)) for j in pads])

        caption = (
            "A GPT-style decoder needs both rules at once. "
            "The combined mask is padding AND causal: a key must be real and must not lie in the future."
        )
        with self.step("padding-and-causal", caption):
            self.clear()
            heading = self.heading("Padding & causal")
            valid_row = self.grid("valid", 0, col_labels=tokens, col_label_color=theme.key, **CELLS)
            shade_mask(theme, valid_row, [t.valid])
            causal = self.grid("causal_mask", 0, row_labels=tokens, row_label_color=theme.query, **CELLS)
            shade_mask(theme, causal, t.causal_mask)
            # Rows line up with the causal grid's, so its query labels serve both.
            combined = self.grid("combined_mask", 0, col_labels=tokens, col_label_color=theme.key, **CELLS)
            shade_mask(theme, combined, t.combined_mask)
            causal.move_to(LEFT * 3.1 + DOWN * 0.95)
            valid_row.next_to(causal.cells, UP, buff=0.75)
            combined.next_to(causal, RIGHT, buff=1.3).align_to(causal, DOWN)
            names = VGroup(
                label(theme, "padding", size=theme.small_size).next_to(valid_row.cells, LEFT, buff=0.3),
                label(theme, "&", size=theme.body_size).move_to((valid_row.cells.get_bottom() + causal.cells.get_top()) / 2),
                label(theme, "causal", size=theme.small_size).next_to(causal.cells, DOWN, buff=0.25),
                label(theme, "=", size=theme.title_size).move_to((causal.get_right() + combined.get_left()) / 2),
                label(theme, "padding & causal", size=theme.small_size, color=theme.highlight).next_to(
                    combined.cells, DOWN, buff=0.25
                ),
            )
            self.play(FadeIn(heading))
            self.play(FadeIn(valid_row), FadeIn(names[0]), run_time=1.0)
            self.play(FadeIn(names[1]), FadeIn(causal), FadeIn(names[2]), run_time=1.0)
            self.play(FadeIn(names[3]), FadeIn(combined), FadeIn(names[4]), run_time=1.2)

        caption = (
            f"The pad positions are still queries, so their rows are computed too. "
            f"Key 0, “{tokens[0]}”, is visible to every row, so no row is all minus infinity and softmax stays defined; "
            f"the outputs of the pad rows are simply ignored later."
        )
        with self.step("combined-weights", caption):
            self.clear()
            heading = self.heading("Padding & causal: the weights")
            masked = self.grid(
                "combined_masked_scores",
                2,
                row_labels=tokens,
                col_labels=tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                **CELLS,
            )
            masked.move_to(LEFT * 3.2 + DOWN * 0.5)
            weights = self.grid(
                "combined_weights", 2, heat=True, vmin=0.0, vmax=1.0, col_labels=tokens, col_label_color=theme.key, **CELLS
            )
            weights.next_to(masked, RIGHT, buff=1.0).align_to(masked, DOWN)
            masked_name = formula(theme, r"\text{scores, both masks}").next_to(masked.col_labels, UP, buff=0.3)
            weights_name = (
                formula(theme, r"\mathrm{softmax}").next_to(weights.col_labels, UP, buff=0.3).align_to(masked_name, DOWN)
            )
            arrow = label(theme, "→", size=theme.title_size).move_to((masked.get_right() + weights.cells.get_left()) / 2)
            key_zero = SurroundingRectangle(masked.column(0), color=theme.value, buff=0.04)
            pad_query_rows = VGroup(*[SurroundingRectangle(weights.row(j), color=theme.masked, buff=0.04) for j in pads])
            self.play(FadeIn(heading), FadeIn(masked_name), FadeIn(masked), run_time=1.2)
            self.play(FadeIn(key_zero))
            self.play(FadeIn(arrow), FadeIn(weights_name), FadeIn(weights.col_labels))
            self.play(
                TransformFromCopy(VGroup(masked.cells, masked.numbers), VGroup(weights.cells, weights.numbers)), run_time=1.8
            )
            self.play(FadeIn(pad_query_rows))
