"""Causal masking, GPT-style: the lower-triangular mask, −∞ scores, and BERT against GPT.

Follows seed 001 part 7 ("The Causal Mask": the decoder can only see the past),
seed 003 ("Causal Masking", "Implementing Causal Mask", "BERT vs GPT") and
seed 002 (``masked_fill(mask == 0, -inf)``), on seed 000's "The cat sat on the mat"
embeddings with Q = K = V = X.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from manim import (
    DL,
    DOWN,
    LEFT,
    RIGHT,
    UL,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attention_math import THE_CAT_SAT, sentence_example
from attention_math.traces.causal_mask import causal_mask_trace

from .kit import ExplainerScene
from .kit.heatmaps import AxisLabels, Cells, axis_names, weights_heatmap
from .kit.layout import BODY_TOP, CONTENT_WIDTH, LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM, keep_inside, shrink_to_fit
from .kit.tables import NumberGrid, TokenRow, shade_mask
from .kit.text import elided_label, fit_label, formula, label, label_lines
from .theme import format_number

CHECK, CROSS = "✓", "✗"


LABEL_WIDTH = 1.6
"""Widest a word beside a matrix may be; longer words lose their end to an ellipsis."""

MASK_AT = DOWN * 0.35
"""Where the 1/0 mask is centred (with its words), before it is kept inside the frame."""

EMBEDDINGS_AT = DOWN * 0.2
"""Where the embeddings are centred, before they are kept inside the frame."""

SCORES_AT = DOWN * 0.3
"""Where the scores are centred, before they are kept inside the frame."""

MAPS_AT = DOWN * 0.55
"""Where BERT's and GPT's maps are centred before each goes to its side of the frame."""

TABLE_CELL_TOP = 0.2
"""Where the tops of a table row's words sit before the row is moved down to its place."""

ROWS_AT = DOWN * 0.3
"""Where the query's two rows of weights are centred, before they are kept inside the frame."""


def short(theme, token: str, width: float = LABEL_WIDTH) -> str:
    """``token`` as it fits ``width`` at a readable size: whole, or cut with an ellipsis."""
    return elided_label(theme, token, width, size=theme.small_size).original_text


def words_counted(count: int) -> str:
    """How many words a note stands for: "the word" or "the 5 words"."""
    return "the word" if count == 1 else f"the {count} words"


class CausalMaskScene(ExplainerScene):
    name = "causal-mask"
    title = "Causal masking (GPT) vs bidirectional (BERT)"
    description = "GPT's lower-triangular mask: −∞ above the diagonal, softmax over the past; BERT vs GPT."
    sources = "Vaswani et al. 2017, 3.2.3 (masking in the decoder); Radford et al. 2019 (GPT-2); Devlin et al. 2019 (BERT)"

    options = ("sentence",)
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        # "sat" in the course sentence; always a word with at least one word after it.
        return causal_mask_trace(example, focus=min(2, len(example.tokens) - 2))

    def construct(self):
        t = self.trace
        self.tokens = t.query_tokens
        self.n = len(self.tokens)
        # Grid labels: whole words, or cut with an ellipsis when too long (step 1 shows every word whole).
        self.short = [short(self.theme, token) for token in self.tokens]
        self.course = self.tokens == THE_CAT_SAT.tokens
        self.no_looking_ahead()
        self.show_the_mask()
        self.show_the_embeddings()
        self.add_minus_infinity()
        self.softmax_over_the_past()
        self.bert_versus_gpt()
        self.which_is_which()

    # --- the steps --------------------------------------------------------------------

    def no_looking_ahead(self):
        """Step 1: the words, the query, and which words it may see."""
        t, theme, tokens = self.trace, self.theme, self.tokens
        i = t.focus
        seen = [tokens[j] for j in range(self.n) if t.mask[i, j]]
        unseen = [tokens[j] for j in range(self.n) if not t.mask[i, j]]
        with self.step("no-looking-ahead", "No looking ahead at later tokens"):
            heading = self.heading("Causal masking: no looking ahead")
            row, marks, lines = self.token_lines()
            for j, box in enumerate(row):
                if not t.mask[i, j]:
                    box[1].set_color(theme.muted)
                    box[0].set_stroke(theme.line)
            row[i][0].set_stroke(theme.query, width=4)
            row[i][1].set_color(theme.query)
            query_name = fit_label(theme, f"query: {tokens[i]}", 2 * RIGHT_EDGE, color=theme.query).next_to(row[i], UP, buff=0.5)
            # A query on a second line of words has its name above them all.
            query_name.shift(UP * max(0.0, row.get_top()[1] + 0.3 - query_name.get_bottom()[1]))
            keep_inside(query_name)
            notes, hidden = self.seen_and_unseen(seen, unseen, marks, lines)
            self.say("GPT writes text one token at a time; here every token is a word.")
            self.play(FadeIn(heading))
            # One word after another, as they are written: only up to the query (the rest come in training).
            for box in row[: i + 1]:
                self.play(FadeIn(box), run_time=0.3)
            self.say(f"When it reaches “{tokens[i]}”, the words after it are not written yet.")
            self.play(FadeIn(query_name, shift=DOWN * 0.2))
            self.play(FadeIn(marks[: i + 1], lag_ratio=0.15), run_time=1.5)
            self.play(FadeIn(notes))
            self.say("In training it reads whole sentences and predicts every next word at once,")
            # The later words now exist, in grey, each with its ✗.
            self.play(
                ReplacementTransform(notes[1], hidden),
                FadeIn(VGroup(*row[i + 1 :]), lag_ratio=0.15),
                FadeIn(marks[i + 1 :], lag_ratio=0.15),
                run_time=1.5,
            )
            self.say("so each word must be stopped from looking ahead at the words it should predict.")
            self.play(Indicate(hidden, color=theme.masked, scale_factor=1.03))

    def show_the_mask(self):
        """Step 2: the lower-triangular 1/0 mask, rows queries, columns keys."""
        theme, tokens, n = self.theme, self.tokens, self.n
        with self.step("the-mask", "The causal mask: 1 = may attend"):
            self.clear()
            heading = self.heading("The causal mask: 1 = may attend")
            # Cells 0.8 wide as in the course example; many or long words narrow them, and then the legend too.
            left = max(self.label_width(), 1.55) + 0.15  # the words, or "queries ↓" above them
            for size, buff in ((theme.small_size, 0.8), (theme.min_size, 0.5)):
                legend = VGroup(
                    label(theme, f"1  {CHECK}  key at or before the query", size=size, color=theme.value),
                    label(theme, f"0  {CROSS}  key in the future", size=size, color=theme.masked),
                    label(theme, f"in code: np.tril(np.ones(({n}, {n})))", size=size, color=theme.muted, mono=True),
                ).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
                cell_width = min(0.8, (CONTENT_WIDTH - left - buff - legend.width) / n)
                if cell_width >= 0.78:
                    break
            # Long words make the labels wider than guessed: narrower cells then, so the legend fits beside.
            for _ in range(3):
                probe = self.mask_grid(cell_width, shown=False)
                excess = VGroup(probe, axis_names(theme, probe)).width + buff + legend.width - (CONTENT_WIDTH - 0.05)
                if excess <= 0:
                    break
                cell_width -= excess / n
            mask = self.mask_grid(cell_width)
            mask.move_to(MASK_AT)
            names = axis_names(theme, mask)
            # Beside the cells, never beside a long last word above them.
            legend.next_to(mask.cells, RIGHT, buff=buff).set_y(mask.cells.get_y())
            legend.shift(DOWN * max(0.0, legend.get_top()[1] - mask.cells.get_top()[1]))
            self.place(VGroup(mask, names, legend))
            self.say("The causal mask is a lower-triangular grid: row i is the query, column j the key.")
            self.play(FadeIn(heading), FadeIn(mask.row_labels), FadeIn(mask.col_labels), FadeIn(names))
            for r in range(n):
                self.play(FadeIn(mask.row(r)), run_time=0.4)
            self.say("1 means that query i may attend to key j; 0 hides a key in the future.")
            self.play(FadeIn(legend[:2], lag_ratio=0.3))
            self.say(f"“{tokens[0]}” sees only itself, “{tokens[-1]}” sees all {n} words.")
            self.play(*[Create(SurroundingRectangle(mask.row(r), color=theme.highlight, buff=0.03)) for r in (0, n - 1)])
            self.say(
                f"In code, NumPy's tril keeps the lower triangle of a {n} by {n} grid of ones.",
                spoken=f"In code, the NumPy function tril keeps the lower triangle of a {n} by {n} grid of ones.",
            )
            self.play(FadeIn(legend[2]))

    def show_the_embeddings(self):
        """Step 3: the embeddings the scores come from, and how they were made."""
        t, theme = self.trace, self.theme
        with self.step("the-embeddings", "The embeddings: made up by hand"):
            self.clear()
            heading = self.heading("The embeddings X" if not self.course else "Embeddings made up by hand")
            cell_width = min(1.3, (CONTENT_WIDTH - self.label_width() - 0.3) / t.x_query.shape[1])
            x = self.grid(
                "x_query",
                1,
                cell_width=cell_width,
                cell_height=min(0.62, 3.8 / self.n),
                font_size=theme.body_size if self.n <= 6 else theme.small_size,
                row_labels=self.short,
                row_label_color=theme.query,
                row_label_width=LABEL_WIDTH,
            )
            x.move_to(EMBEDDINGS_AT)
            self.place(x)
            if self.course:
                note = self.note_lines(("Made up by hand, not from a trained model; no positions are added.",))
                self.say(f"Each word has {t.x_query.shape[1]} numbers, made up by hand, not from a trained model.")
                self.play(FadeIn(heading), FadeIn(x), FadeIn(note))
                same = [r for r in range(1, self.n) if np.array_equal(t.x_query[r], t.x_query[0])]
                if same:
                    r = same[0]
                    self.say(
                        f"“{self.tokens[0]}” and “{self.tokens[r]}” are the same word, so they have the same row: "
                        "nothing here tells their places apart."
                    )
                    self.play(*[Create(SurroundingRectangle(x.row(k), color=theme.highlight, buff=0.03)) for k in (0, r)])
            else:
                note = self.source_note()
                self.say(f"Each word has {t.x_query.shape[1]} numbers; the bottom line says where they come from.")
                self.play(FadeIn(heading), FadeIn(x), FadeIn(note))

    def add_minus_infinity(self):
        """Step 4: the scaled scores, then plus M (0 or −∞): the masked scores."""
        t, theme = self.trace, self.theme
        # Fewer, larger cells: the scores alone (M is said and written, its 0s are the mask of step 2).
        width = min(1.15, (CONTENT_WIDTH - self.label_width() - 0.3) / self.n)
        size = theme.small_size if width >= 0.95 else theme.min_size
        self.cells = cells = {"cell_width": width, "cell_height": min(0.62, 3.6 / self.n), "font_size": size}
        shortcut = (
            "Shortcut: Q = K = V = X, no W_Q, W_K, W_V.",
            "A word's score with itself is its squared length divided by √d_k.",
        )
        with self.step("minus-infinity", "Masked scores: −∞ above the diagonal"):
            self.clear()
            self.minus_heading = self.heading("Masked scores: −∞ above the diagonal")
            self.scores = scores = self.grid(
                "scaled_scores",
                2,
                **cells,
                row_labels=self.short,
                col_labels=self.short,
                row_label_color=theme.query,
                col_label_color=theme.key,
                row_label_width=LABEL_WIDTH,
                col_label_lines=0,
            )
            scores_name = formula(theme, r"QK^\top / \sqrt{d_k}").next_to(scores.col_labels, UP, buff=0.3)
            picture = VGroup(scores, scores_name)
            picture.move_to(SCORES_AT)
            self.place(picture)
            # Many rows start right under the heading, clear of the note at the bottom.
            if self.n > 6:
                picture.shift(UP * (BODY_TOP - picture.get_top()[1]))
            self.note = self.note_lines(shortcut)
            self.say(
                "Start from the scores, with a shortcut: no W_Q, W_K or W_V, so Q, K and V are the embeddings themselves.",
                spoken="Start from the scores, with a shortcut: no learned projections, "
                "so the queries, keys and values are the embeddings themselves.",
            )
            self.play(
                FadeIn(self.minus_heading),
                FadeIn(scores.row_labels),
                FadeIn(scores.col_labels),
                FadeIn(scores_name),
                FadeIn(self.note),
            )
            self.say(
                f"Each score is a dot product q · k; d_k is {t.d_k}, so divide by its square root, {format_number(t.scale, 0)}.",
                spoken=f"Each score is the dot product of a query and a key; d k is {t.d_k}, "
                f"so divide by its square root, {format_number(t.scale, 0)}.",
            )
            self.play(FadeIn(scores.cells), FadeIn(scores.numbers, lag_ratio=0.02), run_time=1.2)
            self.masked = masked = self.grid("masked_scores", 2, **cells)
            masked.move_to(scores.cells)
            self.masked_name = formula(theme, r"QK^\top / \sqrt{d_k} + M").move_to(scores_name)
            rule = label(theme, "M: 0 on and below the diagonal, −∞ above", size=theme.small_size, color=theme.masked)
            rule.next_to(scores.cells, DOWN, buff=0.2)
            self.say(
                "Add the mask M: 0 where a key is allowed, minus infinity above the diagonal.",
                spoken="Add the mask M: zero where a key is allowed, minus infinity above the diagonal.",
            )
            # The rule takes the shortcut note's place under the scores.
            self.play(ReplacementTransform(scores_name, self.masked_name), FadeOut(self.note), FadeIn(rule), run_time=1.0)
            self.say("Every future key's score becomes minus infinity.")
            self.play(ReplacementTransform(VGroup(scores.cells, scores.numbers), masked), run_time=1.8)
            self.mask_rule = rule

    def softmax_over_the_past(self):
        """Step 5: softmax of the masked scores, each row over its visible keys, summing to 1."""
        t, theme, n, cells, masked = self.trace, self.theme, self.n, self.cells, self.masked
        with self.step("softmax-over-the-past", "Softmax over the visible keys only"):
            new_heading = self.heading("Softmax over the visible keys only")
            self.say("Softmax turns minus infinity into exactly 0.")
            self.play(FadeOut(self.mask_rule), ReplacementTransform(self.minus_heading, new_heading), run_time=0.8)
            # Beside the masked scores as in the course example; where that does not fit, in their place.
            beside = masked.get_right()[0] + 0.9 + n * cells["cell_width"] + 1.4 <= RIGHT_EDGE
            # In their place the weights take the room M leaves, in wider cells, so their numbers stay apart.
            width = cells["cell_width"] if beside else min(1.0, (RIGHT_EDGE - 1.4 - masked.get_left()[0]) / n)
            weights = weights_heatmap(
                self, "weights", None, self.short, cells=Cells(width, cells["cell_height"], cells["font_size"])
            )
            self.set_apart_masked(weights, lambda r, c: t.mask[r, c])
            if beside:
                weights.next_to(masked, RIGHT, buff=0.9).align_to(masked, UP)
                weights.shift(UP * (masked.get_top()[1] - weights.cells.get_top()[1]))
                weights_name = (
                    formula(theme, r"\mathrm{softmax}").next_to(weights.col_labels, UP, buff=0.3).align_to(self.masked_name, DOWN)
                )
            else:
                weights.shift(masked.get_corner(UL) - weights.cells.get_corner(UL))
                weights_name = formula(theme, r"\mathrm{softmax}(QK^\top / \sqrt{d_k} + M)")
                # Between the heading and the key words, as high as they leave room for (long words stand on three lines).
                above = VGroup(weights.col_labels, self.scores.col_labels).get_top()[1] + 0.12
                room = new_heading.get_bottom()[1] - 0.12 - above
                if weights_name.height > room:
                    weights_name.scale_to_fit_height(room)
                weights_name.move_to(self.masked_name).set_y(above + room / 2)
            sums = self.grid("row_sums", 2, **{**cells, "cell_width": 0.8})
            sums_column = VGroup(*[VGroup(sums.cells[r], sums.numbers[r]) for r in range(n)])
            for r in range(n):
                sums_column[r].move_to(weights.cell(r, n - 1)).shift(RIGHT * (cells["cell_width"] / 2 + 0.6))
            sums_name = formula(theme, r"\textstyle\sum").next_to(sums_column[0], UP, buff=0.2).align_to(weights_name, DOWN)
            # Two wide words leave the long name no room over two columns: it ends half a unit left of the sums' name
            # (closer, the two read as one formula), shrunk first if it would otherwise cross the left edge.
            room_right = sums_name.get_left()[0] - 0.5
            if not beside and weights_name.get_right()[0] > room_right:
                shrink_to_fit(weights_name, room_right - LEFT_EDGE)
                weights_name.shift(RIGHT * (room_right - weights_name.get_right()[0]))
            if beside:
                arrow = label(theme, "→", size=theme.title_size).move_to((masked.get_right() + weights.cells.get_left()) / 2)
                self.play(FadeIn(arrow), FadeIn(weights_name), FadeIn(weights.col_labels))
                self.play(TransformFromCopy(masked, VGroup(weights.cells, weights.numbers)), run_time=1.8)
            else:
                self.play(ReplacementTransform(self.masked_name, weights_name))
                self.play(
                    ReplacementTransform(masked, VGroup(weights.cells, weights.numbers)),
                    ReplacementTransform(self.scores.col_labels, weights.col_labels),
                    run_time=1.8,
                )
            self.say("Each row shares its weight among the keys it may see, and still sums to 1.")
            self.play(FadeIn(sums_name), FadeIn(sums_column, lag_ratio=0.1))
            first, second = self.tokens[0], self.tokens[1]
            self.say(f"“{first}” sees only itself and gives it {format_number(t.weights[0, 0], 2)};")
            self.play(FadeIn(SurroundingRectangle(weights.row(0), color=theme.highlight, buff=0.03)))
            self.say(f"“{second}” splits {format_number(t.weights[1, 0], 2)} and {format_number(t.weights[1, 1], 2)}.")
            self.play(FadeIn(SurroundingRectangle(weights.row(1), color=theme.highlight, buff=0.03)))
            evidence = None
            if t.weights[1, 1] > t.weights[1, 0]:
                # The evidence stays on screen: the two scores behind the two weights.
                evidence = self.note_with_numbers(
                    (
                        (
                            f"“{self.short[1]}” with itself: its squared length",
                            ("self_scores[1]", 2),
                            "/",
                            ("scale", 0),
                            "=",
                            ("scaled_scores[1, 1]", 3),
                        ),
                        (f"“{self.short[1]}” with “{self.short[0]}”:", ("scaled_scores[1, 0]", 3)),
                    )
                )
                self.say(
                    f"It keeps more for itself because Q = K: its score with itself is its squared length divided by "
                    f"{format_number(t.scale, 0)}, {format_number(t.scaled_scores[1, 1], 3)}, "
                    f"against {format_number(t.scaled_scores[1, 0], 3)} with “{first}”.",
                    spoken=f"It keeps more for itself because the queries equal the keys: its score with itself is its "
                    f"squared length divided by {format_number(t.scale, 0)}, {format_number(t.scaled_scores[1, 1], 3)}, "
                    f"against {format_number(t.scaled_scores[1, 0], 3)} with “{first}”.",
                )
                self.play(
                    FadeIn(evidence),
                    Create(SurroundingRectangle(weights.cell(1, 1), color=theme.highlight, buff=0.0, stroke_width=5)),
                )
            # Long vectors win their rows; a short one may give a longer neighbour more than itself.
            short_rows = [r for r in range(1, n) if int(np.argmax(t.weights[r])) != r]
            if short_rows:
                r = short_rows[0]
                top = int(np.argmax(t.weights[r]))
                self.say(
                    f"A word with a shorter vector may not: “{self.tokens[r]}” gives “{self.tokens[top]}” "
                    f"{format_number(t.weights[r, top], 2)}, itself {format_number(t.weights[r, r], 2)}. "
                    "That is the shortcut, not meaning."
                )
                # The footer now gives this row's two scores, not the row above's.
                scores = self.note_with_numbers(
                    (
                        (f"“{self.short[r]}” with “{self.short[top]}”:", (f"scaled_scores[{r}, {top}]", 3)),
                        (f"“{self.short[r]}” with itself:", (f"scaled_scores[{r}, {r}]", 3)),
                    )
                )
                self.play(
                    *([FadeOut(evidence)] if evidence is not None else []),
                    FadeIn(scores),
                    Create(SurroundingRectangle(weights.cell(r, top), color=theme.highlight, buff=0.0, stroke_width=5)),
                    Create(SurroundingRectangle(weights.cell(r, r), color=theme.muted, buff=0.0, stroke_width=5)),
                )

    def bert_versus_gpt(self):
        """Step 6: the same scores with no mask (BERT) and with the causal mask (GPT)."""
        t, tokens, n = self.trace, self.tokens, self.n
        i = t.focus
        seen = [tokens[j] for j in range(n) if t.mask[i, j]]
        shares = [format_number(w, 2) for w in t.weights[i, : len(seen)]]
        visible = ", ".join(shares[:-1]) + " and " + shares[-1]
        with self.step("bert-vs-gpt", "Same scores: BERT vs GPT"):
            self.clear()
            heading = self.heading("Same scores: BERT vs GPT")
            # Two maps side by side, cells 0.88 wide as in the course example, narrower for more words;
            # when eight words or long ones leave too little room, just the query's row of each.
            cell_width = min(0.88, (CONTENT_WIDTH - 0.7) / 2 / n - (self.label_width() + 0.15) / n)
            full = cell_width >= 0.84
            self.maps = maps = self.model_maps(cell_width) if full else self.model_rows()
            row = i if full else 0  # the query's row in each picture
            frames = [VGroup(heatmap.row_labels, heatmap.col_labels, name) for heatmap, name, _ in maps]
            self.say("Same scores, two rules.")
            self.play(FadeIn(heading), *[FadeIn(frame) for frame in frames])
            self.say(f"Bidirectional attention, as in BERT, lets “{tokens[i]}” look at all {n} words,")
            self.play(FadeIn(VGroup(maps[0][0].cells, maps[0][0].numbers)), FadeIn(maps[0][2]), run_time=1.2)
            self.say(f"“{tokens[-1]}” included ({format_number(t.bidirectional_weights[i, -1], 2)}).")
            self.highlight(maps[0][0].cell(row, n - 1), buff=0.0)
            self.say(f"Causal attention, as in GPT, lets it look only at {', '.join('“' + s + '”' for s in seen)}:")
            self.play(FadeIn(VGroup(maps[1][0].cells, maps[1][0].numbers)), run_time=1.2)
            self.say(f"{visible}, summing to 1.")
            self.play(FadeIn(maps[1][2]))
            if self.course:
                k = len(seen)
                before = [format_number(w, 2) for w in t.bidirectional_weights[i, :k]]
                # Same scores, fewer keys: each visible weight is the unmasked one divided by their share, so the ratios stay.
                self.say(f"Softmax shares all the weight of “{tokens[i]}” among its {k} visible keys, in the same ratios:")
                visible_cells = [maps[m][0].cell(row, j) for m in (0, 1) for j in range(k)]
                self.highlight(*visible_cells, buff=0.0)
                share = format_number(t.visible_shares[i], 2)
                # Shown parts that do not add up to the shown total (rounding) are joined by "≈", not "=".
                adds_up = abs(sum(float(b) for b in before) - float(share)) < 0.005
                parts = [part for j in range(k) for part in ("+", (f"bidirectional_weights[{i}, {j}]", 2))][1:]
                after = [part for j in range(k) for part in (",", (f"weights[{i}, {j}]", 2))][1:]
                self.ratio_note = note = self.note_with_numbers(
                    (
                        (
                            f"No mask: “{tokens[i]}” gives its {k} visible keys",
                            *parts,
                            "=" if adds_up else "≈",
                            (f"visible_shares[{i}]", 2),
                        ),
                        ("Causal mask: each divided by", (f"visible_shares[{i}]", 2), "→", *after),
                    )
                )
                # A comma sits against the number before it, as in text (the note spaces every part alike).
                for part_row in note:
                    for k_part in range(1, len(part_row)):
                        part = part_row[k_part]
                        if getattr(part, "original_text", "") == ",":
                            gap = part.get_left()[0] - part_row[k_part - 1].get_right()[0] - 0.03
                            VGroup(*part_row[k_part:]).shift(LEFT * gap)
                self.say(
                    f"Without the mask they hold {' + '.join(before)} {'=' if adds_up else '≈'} {share} of its weight;",
                    spoken=f"Without the mask they hold {' plus '.join(before)}, {'which is' if adds_up else 'about'} {share} "
                    "of its weight;",
                )
                self.play(FadeIn(note[0]))
                self.highlight(*visible_cells[:k], buff=0.0)
                self.say(f"the mask divides each by {share}: {', '.join(before[:-1])} and {before[-1]} become {visible}.")
                self.play(FadeIn(note[1]))
                self.highlight(*visible_cells[k:], buff=0.0)

    def which_is_which(self):
        """Step 7: BERT against GPT, each column as the voice names it."""
        with self.step("which-is-which", "BERT for understanding, GPT for writing"):
            self.clear()
            heading = self.heading("BERT vs GPT")
            rows = (
                ("", "BERT", "GPT"),
                ("Attention", "Bidirectional", "Causal"),
                ("Sees", "All positions", "The past and itself"),
                ("Training", "Fill in [MASK] words", "Predict the next word"),
                ("Use case", "Understanding", "Generation"),
            )
            table = self.table(rows)
            table.next_to(heading, DOWN, buff=0.7)
            table.set_x(0)
            # The header row holds "BERT", "GPT" and the rule under them; every other row its name and two cells.
            names = VGroup(table[0][2], *[line[0] for line in table[1:]])
            bert = VGroup(table[0][0], *[line[1] for line in table[1:]])
            gpt = VGroup(table[0][1], *[line[2] for line in table[1:]])
            self.say(
                "BERT sees every position and learns to fill in blanked-out words, most of them marked by a [MASK] token: "
                "a word in its input, not an attention mask.",
                spoken="BERT sees every position and learns to fill in words that were blanked out, most of them marked "
                "by a special mask token: a word in its input, not an attention mask.",
            )
            self.play(FadeIn(heading), FadeIn(names))
            self.play(FadeIn(bert[:4], lag_ratio=0.3), run_time=1.5)
            self.say("That suits understanding text.")
            self.play(FadeIn(bert[4], shift=UP * 0.1), run_time=0.6)
            self.say("GPT sees only the past and the word itself, and learns to predict the next word,")
            self.play(FadeIn(gpt[:4], lag_ratio=0.3), run_time=1.5)
            self.say("which is what generation needs.")
            self.play(FadeIn(gpt[4], shift=UP * 0.1), run_time=0.6)

    # --- pieces -----------------------------------------------------------------------

    def mask_grid(self, cell_width: float, shown: bool = True) -> NumberGrid:
        """The 1/0 causal mask with the words along both sides, allowed cells tinted (a probe to measure when not ``shown``)."""
        theme = self.theme
        build = partial(self.grid, "mask") if shown else partial(NumberGrid, theme, self.trace.mask)
        # The key words over narrow cells: on as many staggered lines as they need (three at most), each
        # cut with "…" to the room its lines give at the readable size; shrunk whole, they were too small.
        lines = label_lines(theme, self.short, cell_width * 0.85, theme.small_size)
        keys = [short(theme, token, cell_width * lines * 0.95) for token in self.short]
        mask = build(
            0,
            cell_width=cell_width,
            cell_height=min(0.55, 4.0 / self.n),
            row_labels=self.short,
            col_labels=keys,
            row_label_color=theme.query,
            col_label_color=theme.key,
            row_label_width=LABEL_WIDTH,
            col_label_lines=lines,
        )
        return shade_mask(theme, mask, self.trace.mask)

    def set_apart_masked(self, heatmap, visible) -> None:
        """Draw the cells ``visible(row, column)`` says the mask hides as the masked scores were: no colour, red numbers.

        Their weight is exactly 0, but on the colour map 0 is the same dark end as a small weight
        such as 0.11: on the background, in the masked colour, the hidden triangle differs in kind.
        """
        rows, columns = heatmap.shape
        for r in range(rows):
            for c in range(columns):
                if not visible(r, c):
                    heatmap.cell(r, c).set_fill(self.theme.background, opacity=1)
                    heatmap.number(r, c).set_color(self.theme.masked)

    def label_width(self) -> float:
        """Width of the widest word as a row label (at most :data:`LABEL_WIDTH`)."""
        return min(
            LABEL_WIDTH, max(label(self.theme, token, size=self.theme.small_size).width for token in self.trace.query_tokens)
        )

    @staticmethod
    def place(picture: VGroup) -> None:
        """Keep ``picture`` inside the edges (left-aligned when it is wide), and below the heading."""
        keep_inside(picture, top=BODY_TOP)

    def model_maps(self, cell_width: float) -> list:
        """BERT's and GPT's weight maps side by side, each with its name and the query's row boxed."""
        theme = self.theme
        t = self.trace
        tokens = t.query_tokens
        maps: list = []
        for source, title in (("bidirectional_weights", "no mask (as in BERT)"), ("weights", "causal mask (as in GPT)")):
            # The readable size keeps the digits of neighbouring cells apart.
            # Numbers only in the query's row, at the small size: colour shows the rest (two 6 × 6 walls of
            # numbers at the least size were too small to read).
            # The body font's digits are narrower: a row of "0.12" "0.21" keeps gaps between its cells' numbers.
            cells = Cells(cell_width, min(0.62, 4.0 / len(tokens)), theme.small_size, mono=False)
            heatmap = weights_heatmap(self, source, self.short, self.short, cells=cells, labels=AxisLabels(LABEL_WIDTH))
            self.print_only(heatmap, [(t.focus, j) for j in range(len(tokens))])
            if source == "weights":
                self.set_apart_masked(heatmap, lambda r, c: t.mask[r, c])
            heatmap.move_to(MAPS_AT)
            name = label(theme, title, color=theme.text).next_to(heatmap.col_labels, UP, buff=0.35)
            box = SurroundingRectangle(heatmap.row(t.focus), color=theme.highlight, buff=0.03)
            # BERT's map from the left edge, GPT's to the right edge (its box's line inside too).
            both = VGroup(heatmap, name, box)
            edge = LEFT_EDGE + 0.05 - both.get_left()[0] if not maps else RIGHT_EDGE - 0.05 - both.get_right()[0]
            both.shift(RIGHT * edge)
            maps.append((heatmap, name, box))
        keep_inside(VGroup(*[VGroup(*m) for m in maps]), left=None, right=None, top=BODY_TOP)
        return maps

    def model_rows(self) -> list:
        """The query's row of BERT's weights above GPT's, under the words: the comparison the caption makes."""
        theme = self.theme
        t = self.trace
        i = t.focus
        n = len(t.key_tokens)
        names = ("no mask (as in BERT)", "causal mask (as in GPT)")
        name_width = max(label(theme, name, size=theme.small_size).width for name in names)
        # A word above a cell may be 2.8 cells wide: the last one reaches 0.9 of a cell past the row's end.
        cell_width = min(1.1, (2 * RIGHT_EDGE - name_width - 0.8) / (n + 0.9))
        maps = []
        for source, title, color in (
            (f"bidirectional_weights[{i}]", names[0], theme.key),
            (f"weights[{i}]", names[1], theme.query),
        ):
            first = not maps
            keys = [short(theme, token, 2.8 * cell_width) for token in t.key_tokens] if first else None
            labels = AxisLabels(name_width, query_color=color)
            row = weights_heatmap(self, source, [title], keys, cells=Cells(cell_width, 0.62, mono=False), labels=labels)
            if not first:
                self.set_apart_masked(row, lambda r, c: t.mask[i, c])
            if not first:
                row.shift(maps[0].cells.get_corner(DL) + DOWN * 0.3 - row.cells.get_corner(UL))
            maps.append(row)
        query_name = fit_label(theme, f"query: {t.query_tokens[i]}", 2 * RIGHT_EDGE, color=theme.query)
        query_name.next_to(maps[0].col_labels, UP, buff=0.4).align_to(maps[0].cells, LEFT)
        picture = VGroup(*maps, query_name)
        picture.move_to(ROWS_AT)
        self.place(picture)
        boxes = [SurroundingRectangle(row.cells, color=theme.highlight, buff=0.03) for row in maps]
        return [(maps[0], query_name, boxes[0]), (maps[1], VGroup(), boxes[1])]

    def seen_and_unseen(self, seen: list[str], unseen: list[str], marks: VGroup, lines: int) -> tuple[VGroup, VGroup]:
        """The notes under the words, and the one that replaces the second once the later words are written but hidden.

        They list the words; where the lists would leave the safe area or the hidden ones take more lines than the
        note they replace (a teacher's many long words), they count them instead: each word's ✓ or ✗ is on screen.
        """
        theme = self.theme
        # Under words on two or three lines the notes are smaller, and long lists of words wrap.
        size = theme.body_size if lines == 1 else theme.small_size
        gap = 0.8 if lines == 1 else 0.35
        notes = VGroup(
            self.word_list(f"{CHECK} may look at:", seen, size, theme.value),
            self.word_list(f"{CROSS} not written yet:", unseen, size, theme.masked),
        )
        hidden = self.word_list(f"{CROSS} written, but hidden:", unseen, size, theme.masked)
        self.place_notes(notes, hidden, marks, lines, gap)
        if self.notes_fit(notes, hidden):
            return notes, hidden
        earlier = "itself only" if len(seen) == 1 else f"itself and {words_counted(len(seen) - 1)} before it"
        later = f"{words_counted(len(unseen))} after it"
        notes = VGroup(
            fit_label(theme, f"{CHECK} may look at: {earlier}", CONTENT_WIDTH, size, theme.value),
            fit_label(theme, f"{CROSS} not written yet: {later}", CONTENT_WIDTH, size, theme.masked),
        )
        hidden = fit_label(theme, f"{CROSS} written, but hidden: {later}", CONTENT_WIDTH, size, theme.masked)
        self.place_notes(notes, hidden, marks, lines, gap)
        # Two short lines: lifted into the safe area if they still reach below it, at most into the gap above them.
        lift = min(max(0.0, SAFE_BOTTOM - min(notes.get_bottom()[1], hidden.get_bottom()[1])), gap - 0.15)
        return notes.shift(UP * lift), hidden.shift(UP * lift)

    @staticmethod
    def place_notes(notes: VGroup, hidden: VGroup, marks: VGroup, lines: int, gap: float) -> None:
        """The two notes one under the other, ``gap`` under the marks; the hidden words' note where the second is."""
        notes.arrange(DOWN, buff=0.35 if lines == 1 else 0.15, aligned_edge=LEFT).next_to(marks, DOWN, buff=gap)
        hidden.move_to(notes[1], aligned_edge=LEFT)

    @staticmethod
    def notes_fit(notes: VGroup, hidden: VGroup) -> bool:
        """Whether the notes stay in the safe area and the hidden words' note grows no higher than the one it replaces."""
        bottom = min(notes.get_bottom()[1], hidden.get_bottom()[1])
        return bottom >= SAFE_BOTTOM and hidden.get_top()[1] <= notes[1].get_top()[1] + 0.05

    def word_list(self, opening: str, words: list[str], size: int, color: str) -> VGroup:
        """``opening`` and the words joined by commas, on as many lines as the frame's width needs."""
        width = 2 * RIGHT_EDGE - 0.4
        lines = [opening]
        for k, word in enumerate(words):
            text = word + ("," if k < len(words) - 1 else "")
            if k and label(self.theme, lines[-1] + " " + text, size=size).width > width:
                lines.append(text)
            else:
                lines[-1] += " " + text
        texts = VGroup(*[fit_label(self.theme, line, width, size=size, color=color) for line in lines])
        texts.arrange(DOWN, buff=0.12, aligned_edge=LEFT)
        # Later lines are indented under the first word, as far as the frame's width allows.
        indent = min(label(self.theme, opening, size=size).width + 0.1, width - max(t.width for t in texts))
        for text in texts[1:]:
            text.shift(RIGHT * max(0.0, indent))
        return texts

    def token_lines(self) -> tuple[VGroup, VGroup, int]:
        """The words in boxes with ✓ or ✗ under each, and how many lines they take.

        One line at the title size when it fits (the course sentence); otherwise two lines at
        the largest size that fits, then three, so long words stay readable.
        """
        theme = self.theme
        t = self.trace
        width = 2 * RIGHT_EDGE - 0.4
        sizes = (theme.title_size, theme.body_size, theme.small_size, theme.min_size)
        for size, most in [(theme.title_size, 1)] + [(size, 2) for size in sizes] + [(theme.small_size, 3), (theme.min_size, 8)]:
            row = TokenRow(theme, t.query_tokens, size=size, buff=0.45, max_width=float("inf"))
            lines = [[]]
            for box in row:
                if lines[-1] and sum(b.width + 0.45 for b in lines[-1]) + box.width > width:
                    lines.append([])
                lines[-1].append(box)
            if len(lines) <= most:
                break
        single = len(lines) == 1
        marks = VGroup()
        rows = VGroup()
        for line in lines:
            boxes = VGroup(*line).arrange(RIGHT, buff=0.45)
            line_marks = VGroup()
            for box in boxes:
                j = len(marks) + len(line_marks)
                seen = t.mask[t.focus, j]
                mark = label(theme, CHECK if seen else CROSS, size=size, color=theme.value if seen else theme.masked)
                line_marks.add(mark.next_to(box, DOWN, buff=0.35 if single else 0.15))
            marks.add(*line_marks)
            rows.add(VGroup(boxes, line_marks))
        rows.arrange(DOWN, buff=0.2)
        if rows.width > width:
            rows.scale_to_fit_width(width)
        # One line sits at y = 0.6 as in the course example; more lines start just under the query's name.
        rows.shift(UP * ((0.6 - rows[0][0].get_center()[1]) if single else (1.7 - rows.get_top()[1])))
        return row, marks, len(lines)

    def table(self, rows) -> VGroup:
        """A three-column text table with a rule under the header row."""
        theme = self.theme
        widths = (2.8, 5.4, 4.4)
        colors = (theme.muted, theme.key, theme.query)
        lines = VGroup()
        for r, row in enumerate(rows):
            cells = VGroup()
            for c, text in enumerate(row):
                if not text:
                    continue
                size = theme.title_size if r == 0 else theme.body_size
                cell = label(theme, text, size=size, color=colors[c] if (r == 0 or c == 0) else theme.text)
                # Tops aligned, so the words of a row share one line whatever their descenders.
                cell.move_to(RIGHT * (sum(widths[:c]) + 0.1), aligned_edge=LEFT)
                cell.shift(UP * (TABLE_CELL_TOP - cell.get_top()[1]))
                cells.add(cell)
            cells.shift(DOWN * r * 0.85)
            lines.add(cells)
        rule = Line(DOWN * 0.45, DOWN * 0.45 + RIGHT * sum(widths), color=theme.line)
        lines[0].add(rule)
        return lines
