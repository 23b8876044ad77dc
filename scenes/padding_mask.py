"""Padding masks: a padded batch, <pad> keys getting weight 0, and when a decoder needs one.

Follows seed 004 slide 9 ("Attention Masking Strategies": valid keys
``[1, 1, 1, 0, 0]``, ``combined_mask = causal_mask * padding_mask``), seed 002
(``masked_fill(mask == 0, -inf)``) and seed 000's exercise "Implement masking for
padding tokens", with the course embeddings of "The cat sat on the mat".

A bidirectional encoder (BERT) needs the padding mask. A decoder's causal mask already
hides pads on the right from every real token; pads on the left (batched generation,
where every prompt must end at the last position) need the padding mask as well.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedVMobject,
    FadeIn,
    FadeOut,
    Rectangle,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attention_math.masks import PAD
from attention_math.traces.padding_mask import padding_mask_trace

from .kit import ExplainerScene
from .kit.heatmaps import AxisLabels, Cells, weights_heatmap
from .kit.tables import NumberGrid, shade_mask
from .kit.text import formula, label
from .theme import format_number

CELLS = Cells(1.1, 0.6)
"""Cells wide enough for a "<pad>" label at the readable size with a gap to the next (the labels are drawn at it)."""

# Where each step's picture is centred: left of the middle, leaving room on the right for what stands beside it.
BATCH_AT = LEFT * 2.6 + DOWN * 0.3
"""The padded batch (the 1/0 row of real tokens right of it)."""
MASK_AT = LEFT * 2.15 + DOWN * 1.1
"""The padding mask (the valid row above it, the legend right of it)."""
LEAK_AT = LEFT * 1.6 + DOWN * 0.75
"""The weights without a padding mask (each row's weight on the pads right of it)."""
SHARE_OFFSET = RIGHT * 2.6
"""From a row's last weight to its weight on the pads."""
MASKED_AT = LEFT * 3.05 + DOWN * 0.5
"""The masked scores (their softmax right of them)."""
CAUSAL_AT = LEFT * 2.4 + DOWN * 0.55
"""The causal mask (the note on its corner right of it)."""
PAIR_AT = LEFT * 3.1 + DOWN * 0.6
"""The first of two weight maps side by side."""
LEFT_PADDED_AT = UP * 2.1 + LEFT * 2.0
"""The left-padded prompt (where the next token goes, right of it)."""
LOW_PAIR_AT = LEFT * 3.2 + DOWN * 1.0
"""The first of two weight maps side by side, under the left-padded prompt."""


class PaddingMaskScene(ExplainerScene):
    name = "padding-mask"
    title = "Padding masks"
    description = "Pad a batch to one length, give <pad> keys weight exactly 0, and see when a decoder needs the padding mask."
    sources = "Vaswani et al. 2017, 3.2.3 (masking); Devlin et al. 2019 (BERT); Radford et al. 2019 (GPT-2)"

    @classmethod
    def build_trace(cls):
        return padding_mask_trace()

    def construct(self):
        t = self.trace
        self.tokens = t.query_tokens
        self.n = len(self.tokens)
        # The labels of the plain grids, as of the heatmaps: at the readable size.
        self.cells = {"cell_width": CELLS.width, "cell_height": CELLS.height, "label_size": self.theme.min_size}
        self.pads = [j for j in range(self.n) if not t.valid[j]]
        self.real = [j for j in range(self.n) if t.valid[j]]
        self.pad_the_batch()
        self.copy_to_every_query()
        self.pads_take_weight()
        self.pads_get_zero()
        self.causal_hides_right_pads()
        self.right_padding_changes_only_pad_rows()
        self.left_padding_needs_both()

    # --- the steps --------------------------------------------------------------------

    def pad_the_batch(self):
        """Step 1: sentences of different lengths padded to one, and the 1/0 row of real tokens."""
        t, theme = self.trace, self.theme
        with self.step("a-padded-batch", "A batch padded to one length"):
            heading = self.heading(f"A batch padded to {self.n} tokens")
            rows, pad_boxes = VGroup(), VGroup()
            for sequence in t.batch_tokens:
                boxes = VGroup(*[self.token_box(token) for token in sequence]).arrange(RIGHT, buff=0.12)
                rows.add(boxes)
                pad_boxes.add(*[box for box, token in zip(boxes, sequence) if token == PAD])
            rows.arrange(DOWN, buff=0.35).move_to(BATCH_AT)
            real_boxes = VGroup(*[box for boxes in rows for box in boxes if box not in pad_boxes])
            valid = self.grid("batch_valid", 0, cell_width=0.75, cell_height=0.75, font_size=theme.body_size)
            shade_mask(theme, valid, t.batch_valid)
            valid.next_to(rows, RIGHT, buff=0.8).align_to(rows, UP)
            # Each 1/0 row level with its sentence (the token rows stand apart): an outline of one pair then crosses no other.
            for r, boxes in enumerate(rows):
                valid.row(r).set_y(boxes.get_y())
            tokens_name = label(theme, "tokens", color=theme.muted).next_to(rows, UP, buff=0.35)
            valid_name = label(theme, "valid (1 = real)", color=theme.muted).next_to(valid, UP, buff=0.35)
            lengths = ", ".join(str(length) for length in t.lengths[:-1]) + f" and {t.lengths[-1]}"
            self.say("To run sentences through a model together, a batch must be a rectangle.")
            self.play(FadeIn(heading), FadeIn(tokens_name))
            self.say(f"These sentences have {lengths} tokens.")
            self.play(FadeIn(real_boxes, lag_ratio=0.05), run_time=1.5)
            self.say(f"The shorter ones are filled up to {self.n} with a {PAD} token.")
            self.play(FadeIn(pad_boxes, lag_ratio=0.1), run_time=1.2)
            self.say("A row of 1s and 0s records which tokens are real.")
            self.play(FadeIn(valid_name), FadeIn(valid), run_time=1.2)
            self.say("We follow the first sentence.")
            # One outline each, close to the cells: one round both crossed the valid grid's second row.
            self.highlight(rows[t.sentence], valid.row(t.sentence), buff=0.05)

    def copy_to_every_query(self):
        """Step 2: the valid row copied to every query row is the padding mask."""
        t, theme, tokens, n = self.trace, self.theme, self.tokens, self.n
        with self.step("the-padding-mask", "Padding mask: one row per query"):
            self.clear()
            heading = self.heading("Padding mask: one row for every query")
            valid_row = self.grid("valid", 0, col_labels=tokens, col_label_color=theme.key, **self.cells)
            shade_mask(theme, valid_row, [t.valid])
            mask = self.grid("mask", 0, row_labels=tokens, row_label_color=theme.query, **self.cells)
            shade_mask(theme, mask, t.mask)
            mask.move_to(MASK_AT)
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
            real = " ".join(tokens[j] for j in self.real)
            self.say(f"Take the first sentence: “{real}” and {len(self.pads)} pads.")
            self.play(FadeIn(heading), FadeIn(valid_name), FadeIn(valid_row))
            self.say("The padding mask copies its row of 1s and 0s to every query.")
            self.play(FadeIn(arrow), FadeIn(mask.row_labels))
            self.play(*[TransformFromCopy(valid_row.cells, mask.row(r)[:n]) for r in range(n)], run_time=1.5)
            self.say("Any query may look at the real keys; no query may look at a pad.")
            self.play(*[FadeIn(mask.row(r)[n:]) for r in range(n)], FadeIn(legend, lag_ratio=0.3))

    def pads_take_weight(self):
        """Step 3: a bidirectional encoder without the padding mask gives the pads weight."""
        t, theme, tokens, n = self.trace, self.theme, self.tokens, self.n
        with self.step("pads-leak-without-a-mask", "No padding mask: pads take weight"):
            self.clear()
            heading = self.heading(f"No padding mask: the {PAD} keys take weight")
            # Say only what the two-decimal weights on screen show: a word "favours" what its shown row makes largest.
            shown = np.round(t.unmasked_weights, 2)
            own, looks_past = [], []
            for r in range(len(self.real)):
                others = [j for j in self.real if j != r]
                if all(shown[r, r] > shown[r, j] for j in others):
                    own.append(tokens[r])
                else:
                    looks_past.append((tokens[r], [tokens[j] for j in others if shown[r, j] > shown[r, r]]))
            favour = " and ".join(f"“{w}”" for w in own) + (" favour themselves" if len(own) > 1 else " favours itself")
            favour_spoken = " and ".join(own) + (" favour themselves" if len(own) > 1 else " favours itself")
            for w, more in looks_past:
                favour += f"; short “{w}” looks more at " + " and ".join(f"“{m}”" for m in more) + " than at itself"
                favour_spoken += f"; the short word {w} looks more at " + " and ".join(more) + " than at itself"
            # Three lines: at the small size they would touch the table's name below them.
            first = {"size": theme.min_size, "color": theme.muted}
            note = VGroup(
                VGroup(
                    label(theme, "Shortcut: Q = K = V = X, no W_Q, W_K, W_V.", **first),
                    label(theme, f"Embeddings made up by hand; a {PAD} is a zero vector.", **first),
                ).arrange(DOWN, buff=0.12, aligned_edge=LEFT),
                VGroup(
                    label(theme, f"Small embeddings, close scores: most weights near an even 1/{n} =", **first),
                    self.number("uniform_weight", 2, **first),
                ).arrange(RIGHT, buff=0.12),
            ).arrange(DOWN, buff=0.12, aligned_edge=LEFT)
            note.next_to(heading, DOWN, buff=0.25).align_to(heading, LEFT)
            scale = format_number(t.scale, 0)
            favour_note = self.note_lines(
                (f"No projections, so a score with itself is a squared length (÷ √d_k = {scale}):", f"{favour}.")
            )
            unmasked = self.heatmap("unmasked_weights", tokens, tokens)
            unmasked.move_to(LEAK_AT)
            shares = self.grid("pad_share", 2, **self.cells)
            for r in range(n):
                VGroup(shares.cells[r], shares.numbers[r]).move_to(unmasked.cell(r, n - 1)).shift(SHARE_OFFSET)
            shares_name = label(theme, f"weight on {PAD}", size=theme.small_size, color=theme.masked)
            shares_name.next_to(shares.cells[0], UP, buff=0.25)
            unmasked_name = label(theme, "softmax, no mask", size=theme.small_size).next_to(unmasked.col_labels, UP, buff=0.25)
            # The focus row with no pads at all (masked, the pads take exactly 0, so this is the unpadded sentence's row).
            k = len(self.real)
            unpadded = self.grid(f"weights[{t.focus}:{t.focus + 1}, 0:{k}]", 2, **self.cells)
            unpadded.shift(unmasked.cell(n - 1, 0).get_center() + DOWN * 1.0 - unpadded.cells[0].get_center())
            unpadded_name = label(theme, f"← “{' '.join(tokens[j] for j in self.real)}” with no pads", size=theme.small_size)
            unpadded_name.next_to(unpadded.cells, RIGHT, buff=0.3)
            pad_boxes = VGroup(*[SurroundingRectangle(unmasked.column(j), color=theme.masked, buff=0.04) for j in self.pads])
            share = format_number(t.pad_share[t.focus], 2)
            self.say("In an encoder such as BERT, every token may look at every other token.")
            self.play(FadeIn(heading), FadeIn(unmasked.row_labels), FadeIn(unmasked.col_labels), FadeIn(unmasked_name))
            self.say(
                "A shortcut keeps the numbers few: Q, K and V are the embeddings themselves, with no projection matrices.",
                spoken="A shortcut keeps the numbers few: the queries, keys and values are the embeddings themselves.",
            )
            # The note's second line (weights near an even share) is read off the screen, not said: the scene must fit 3 minutes.
            self.play(FadeIn(note))
            self.say("Without a padding mask, the pads are keys like any other.")
            for r in range(n):
                self.play(FadeIn(unmasked.row(r)), run_time=0.4)
            self.say(
                f"With no projections, a word's score with itself is its squared length, divided by {scale}: {favour}.",
                spoken=f"With no projections, a word's score with itself is its squared length, divided by {scale}: {favour_spoken}.",
            )
            self.play(FadeIn(favour_note))
            self.say(
                "Here a pad's vector is all zeros, yet softmax still gives it weight; "
                "in BERT a pad even carries position and segment embeddings, like every token."
            )
            self.play(FadeIn(pad_boxes))
            self.say(f"“{tokens[t.focus]}” spends {share} of its attention on the {len(self.pads)} pads, which mean nothing.")
            self.play(FadeIn(shares_name), FadeIn(shares, lag_ratio=0.1))
            with_pads = ", ".join(format_number(t.unmasked_weights[t.focus, j], 2) for j in self.real)
            no_pads = ", ".join(format_number(t.weights[t.focus, j], 2) for j in self.real)
            self.say(
                "Without the mask, the result depends on how much padding the batch forced on a sentence: "
                f"with no pads, “{tokens[t.focus]}” gives {no_pads}; with {len(self.pads)} pads, only {with_pads}."
            )
            self.play(FadeOut(favour_note), FadeIn(unpadded_name), FadeIn(unpadded), run_time=0.8)
            self.highlight(VGroup(*[unmasked.cell(t.focus, j) for j in self.real]), unpadded.cells, buff=0.05)

    def pads_get_zero(self):
        """Step 4: with the padding mask the pad columns are −∞, and get weight exactly 0."""
        t, theme, tokens = self.trace, self.theme, self.tokens
        with self.step("pad-keys-get-zero", "Masked: pad keys get exactly 0"):
            self.clear()
            heading = self.heading(f"Masked: {PAD} keys get exactly 0")
            grids = {"row_labels": tokens, "col_labels": tokens, "row_label_color": theme.query, "col_label_color": theme.key}
            scores = self.grid("scaled_scores", 2, **grids, **self.cells).move_to(MASKED_AT)
            masked = self.grid("masked_scores", 2, **grids, **self.cells).move_to(MASKED_AT)
            weights = self.heatmap("weights", None, tokens)
            weights.next_to(masked, RIGHT, buff=0.6).align_to(masked, DOWN)
            scores_name = formula(theme, r"QK^\top/\sqrt{d_k}").next_to(scores.col_labels, UP, buff=0.3)
            masked_name = formula(theme, r"QK^\top/\sqrt{d_k}\ \text{masked}").next_to(masked.col_labels, UP, buff=0.3)
            weights_name = (
                formula(theme, r"\mathrm{softmax}").next_to(weights.col_labels, UP, buff=0.3).align_to(masked_name, DOWN)
            )
            arrow = label(theme, "→", size=theme.title_size).move_to((masked.get_right() + weights.cells.get_left()) / 2)
            reminder = self.reminder(heading)
            self.say("First the scores, with no mask: a pad's vector is all zeros, so every score with a pad key is 0.")
            self.play(FadeIn(heading), FadeIn(reminder), FadeIn(scores_name), FadeIn(scores), run_time=1.2)
            self.highlight(*[scores.column(j) for j in self.pads], buff=0.04)
            self.say("The padding mask puts minus infinity in the pad columns.")
            self.play(
                # The real columns are the same numbers in the same places: only the pad columns change.
                FadeOut(scores),
                FadeIn(masked),
                FadeOut(scores_name),
                FadeIn(masked_name),
                run_time=1.2,
            )
            self.say("Softmax turns minus infinity into exactly 0.")
            self.play(FadeIn(arrow), FadeIn(weights_name), FadeIn(weights.col_labels))
            self.play(
                TransformFromCopy(VGroup(masked.cells, masked.numbers), VGroup(weights.cells, weights.numbers)), run_time=1.8
            )
            self.say(f"Each row now sums to 1 over the {len(self.real)} real keys, up to rounding, as with no pads.")
            self.play(*[FadeIn(SurroundingRectangle(weights.column(j), color=theme.masked, buff=0.04)) for j in self.pads])
            self.highlight(VGroup(*[weights.cell(t.focus, j) for j in self.real]), buff=0.05)
            self.say("So an encoder that sees in both directions, like BERT, needs the padding mask.")

    def causal_hides_right_pads(self):
        """Step 5: in a decoder, pads on the right lie after every real token: the causal mask already hides them."""
        t, theme, tokens = self.trace, self.theme, self.tokens
        with self.step("causal-hides-right-pads", "Causal mask hides pads on the right"):
            self.clear()
            heading = self.heading("A decoder, pads on the right")
            causal = self.grid(
                "causal_mask",
                0,
                row_labels=tokens,
                col_labels=tokens,
                row_label_color=theme.query,
                col_label_color=theme.key,
                **self.cells,
            )
            shade_mask(theme, causal, t.causal_mask)
            causal.move_to(CAUSAL_AT)
            causal_name = label(theme, "causal mask", size=theme.small_size, color=theme.muted).next_to(
                causal.col_labels, UP, buff=0.3
            )
            corner = VGroup(*[causal.cell(r, j) for r in self.real for j in self.pads])
            corner_box = SurroundingRectangle(corner, color=theme.highlight, buff=0.04)
            corner_note = (
                VGroup(
                    label(theme, "real queries,", size=theme.small_size, color=theme.highlight),
                    label(theme, f"{PAD} keys:", size=theme.small_size, color=theme.highlight),
                    label(theme, "already 0", size=theme.small_size, color=theme.highlight),
                )
                .arrange(DOWN, buff=0.15, aligned_edge=LEFT)
                .next_to(causal.cells, RIGHT, buff=0.5)
                .align_to(corner_box, UP)
            )
            self.say("A GPT-style decoder already has the causal mask: no key after its query.")
            self.play(FadeIn(heading), FadeIn(causal_name), FadeIn(causal), run_time=1.2)
            self.say("With padding on the right, every pad comes after every real token.")
            self.play(*[FadeIn(SurroundingRectangle(causal.column(j), color=theme.masked, buff=0.04)) for j in self.pads])
            self.say("So for the real tokens, the causal mask has already hidden the pads.")
            self.play(FadeIn(corner_box), FadeIn(corner_note))

    def right_padding_changes_only_pad_rows(self):
        """Step 6: causal alone against padding & causal, right padding: the real rows are the same."""
        theme, tokens = self.theme, self.tokens
        with self.step("right-padding-needs-no-padding-mask", "Pads on the right: real rows unchanged"):
            self.clear()
            heading = self.heading("Pads on the right: real rows unchanged")
            alone = self.heatmap("causal_weights", tokens, tokens)
            both = self.heatmap("combined_weights", None, tokens)
            alone.move_to(PAIR_AT)
            both.next_to(alone, RIGHT, buff=0.6).align_to(alone, DOWN)
            names = VGroup(
                label(theme, "causal mask alone", size=theme.small_size).next_to(alone.col_labels, UP, buff=0.3),
                label(theme, "padding & causal", size=theme.small_size).next_to(both.col_labels, UP, buff=0.3),
            )
            # Level headings: the two tables' key labels differ in height ("<pad>" against "The").
            names[1].align_to(names[0], DOWN)
            real_rows = VGroup(
                *[
                    SurroundingRectangle(VGroup(*[grid.row(r) for r in self.real]), color=theme.highlight, buff=0.04)
                    for grid in (alone, both)
                ]
            )
            pad_rows = VGroup(
                *[
                    SurroundingRectangle(VGroup(*[grid.row(r) for r in self.pads]), color=theme.masked, buff=0.04)
                    for grid in (alone, both)
                ]
            )
            self.say("Here is softmax with the causal mask alone, and with both masks.")
            self.play(FadeIn(heading), FadeIn(self.reminder(heading)), FadeIn(names), FadeIn(alone), FadeIn(both), run_time=1.5)
            self.say("The rows of the real tokens are exactly the same.")
            self.play(FadeIn(real_rows))
            self.say("Only the pad rows differ, and their outputs are thrown away.")
            self.play(FadeIn(pad_rows))

    def left_padding_needs_both(self):
        """Step 7: pads on the left (batched generation) come before the real tokens: the decoder needs both masks."""
        t, theme = self.trace, self.theme
        with self.step("left-padding-needs-both", "Pads on the left: both masks needed"):
            self.clear()
            heading = self.heading("Pads on the left: both masks needed")
            row = VGroup(*[self.token_box(token) for token in t.left_tokens]).arrange(RIGHT, buff=0.12)
            row.move_to(LEFT_PADDED_AT)
            # An empty slot after the prompt: the next token is appended there, predicted from the last position.
            slot = DashedVMobject(Rectangle(width=2.0, height=0.75, stroke_color=theme.muted, stroke_width=2), num_dashes=24)
            slot_name = label(theme, "next token", size=theme.small_size, color=theme.muted).move_to(slot)
            end = VGroup(slot, slot_name).next_to(row, RIGHT, buff=0.12)
            alone = self.heatmap("left_causal_weights", t.left_queries, t.left_tokens)
            both = self.heatmap("left_combined_weights", None, t.left_tokens)
            alone.move_to(LOW_PAIR_AT)
            both.next_to(alone, RIGHT, buff=0.6).align_to(alone, DOWN)
            names = VGroup(
                label(theme, "causal mask alone", size=theme.small_size).next_to(alone.col_labels, UP, buff=0.3),
                label(theme, "padding & causal", size=theme.small_size).next_to(both.col_labels, UP, buff=0.3),
            )
            pads = [j for j, valid in enumerate(t.left_valid) if not valid]
            rows_note = label(theme, f"{PAD} query rows left out: their outputs are thrown away", **self.aside)
            rows_note.next_to(row, DOWN, buff=0.3).align_to(row, LEFT)
            pad_columns = VGroup(
                *[SurroundingRectangle(grid.column(j), color=theme.masked, buff=0.04) for grid in (alone, both) for j in pads]
            )
            positions_note = self.note_lines(
                (
                    "Same rows as without pads: true here, where the vectors carry no position.",
                    "GPT-2 adds a vector per position: its position ids must count from the first real token.",
                )
            )
            # The sentence without pads: right-padded, both masks, its real rows over its real keys (step 6).
            real_columns = [j for j, valid in enumerate(t.left_valid) if valid]
            k = len(self.real)
            unpadded = self.heatmap(f"combined_weights[0:{k}, 0:{k}]", t.left_queries, [self.tokens[j] for j in self.real])
            unpadded.shift(alone.cell(0, real_columns[0]).get_center() - unpadded.cell(0, 0).get_center())
            unpadded_name = label(theme, "no pads", size=theme.small_size).next_to(unpadded.col_labels, UP, buff=0.3)
            unpadded_name.align_to(names[0], DOWN)
            first = t.left_queries[0]
            weights = [format_number(w, 2) for w in t.left_causal_weights[0]]
            on_pads = " and ".join(weights[j] for j in pads)
            self.say("To generate text for a batch, prompts are padded on the left instead,")
            self.play(FadeIn(heading), FadeIn(self.reminder(heading)), FadeIn(row, lag_ratio=0.1), run_time=1.2)
            self.say("so that every prompt ends at the last position, whose output predicts the next token.")
            self.play(FadeIn(end))
            self.say("Now the pads come first, and the causal mask lets real tokens see them.")
            self.play(FadeIn(names[0]), FadeIn(alone), FadeIn(rows_note), run_time=1.2)
            self.say(f"“{first}” gives {on_pads} to the {len(pads)} pads.")
            self.play(FadeIn(pad_columns[: len(pads)]))
            self.say("Add the padding mask, and the pads get exactly 0 again.")
            self.play(FadeIn(names[1]), FadeIn(both), FadeIn(pad_columns[len(pads) :]), run_time=1.2)
            self.say("The real rows then equal those of the sentence without pads, as these vectors carry no position.")
            self.play(FadeOut(alone), FadeOut(names[0]), FadeOut(pad_columns[: len(pads)]), run_time=0.6)
            self.play(FadeIn(unpadded), FadeIn(unpadded_name), run_time=1.0)
            self.highlight(unpadded.cells, VGroup(*[both.column(j) for j in real_columns]), buff=0.05)
            self.play(FadeIn(positions_note))
            self.say(
                "GPT-2 adds a learned vector per position, so its position numbers must start at the first real token.",
            )
            self.say("A padding mask is needed wherever a real token could otherwise see a pad.")

    # --- pieces -----------------------------------------------------------------------

    @property
    def aside(self) -> dict:
        """How a note under a heading is drawn: small and muted (not the smallest size: read from the back of a room)."""
        return {"size": self.theme.small_size, "color": self.theme.muted}

    def reminder(self, heading) -> VGroup:
        """Under ``heading``: the weights still come from the shortcut and the hand-made embeddings of step 3."""
        text = f"Still Q = K = V = X; embeddings made up by hand, {PAD} = zeros."
        return label(self.theme, text, **self.aside).next_to(heading, DOWN, buff=0.2).align_to(heading, LEFT)

    def token_box(self, token: str, width: float = 1.3) -> VGroup:
        """A token in a box; pads in the masked colour."""
        theme = self.theme
        pad = token == PAD
        text = label(theme, token, size=theme.small_size, color=theme.masked if pad else theme.text)
        box = Rectangle(width=width, height=0.75, stroke_color=theme.masked if pad else theme.line, stroke_width=2)
        return VGroup(box, text.move_to(box))

    def heatmap(self, source: str, rows, columns) -> NumberGrid:
        """Attention weights from ``source`` coloured from 0 to 1, queries left (when given), keys on top."""
        labels = AxisLabels(size=self.theme.min_size, key_lines=1)
        return weights_heatmap(self, source, rows, columns, cells=CELLS, labels=labels)
