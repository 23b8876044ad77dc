"""A real trained model: all-MiniLM-L6-v2's 72 heads on "The animal didn't cross the street…".

Follows seed 000 "Self-Attention Explained" (what does "it" refer to?) and
"Multi-Head Attention" (each head learns its own relationship), with a trained
6-layer, 12-head BERT encoder instead of made-up numbers: WordPiece pieces, every
head's weights at once, then one head's real scores, scaling and softmax for the
query piece.
"""

from __future__ import annotations

from manim import (
    DOWN,
    DR,
    LEFT,
    PI,
    RIGHT,
    UP,
    UR,
    FadeIn,
    GrowFromEdge,
    Indicate,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
)

from attention_math import DEFAULT_SENTENCE, trained_heads_trace, trained_token_count

from .kit import ExplainerScene
from .kit.components import ColorScale, formula, heatmap_patches, label
from .theme import format_number

DEFAULT_TOKEN = "it"


def fit(text: Text, width: float) -> Text:
    """Shrink ``text`` to ``width`` when it is wider (long user pieces in a fixed slot)."""
    if text.width > width:
        text.scale_to_fit_width(width)
    return text


class TrainedHeadsScene(ExplainerScene):
    name = "trained-heads"
    title = "Inside a trained transformer"
    description = "all-MiniLM-L6-v2 reads a sentence: WordPiece pieces, all 72 heads, one head's real numbers."
    sources = "seed 000 'Self-Attention Explained' (the animal/street sentence) and 'Multi-Head Attention'"

    options = ("sentence", "token")
    min_tokens = 2
    max_tokens = 16
    """Most pieces ([CLS] and [SEP] included): the closing heatmap prints all n x n weights at the smallest readable size."""

    @classmethod
    def build_trace(cls, sentence: str | None = None, token: str | None = None):
        return trained_heads_trace(DEFAULT_SENTENCE if sentence is None else sentence, DEFAULT_TOKEN if token is None else token)

    @classmethod
    def check_settings(cls, settings: dict) -> None:
        """Refuse a sentence with too many pieces, or a token that is not one of them (may raise ModelNotInstalled)."""
        sentence = settings.get("sentence", DEFAULT_SENTENCE)
        token = settings.get("token", DEFAULT_TOKEN)
        count = trained_token_count(sentence)
        if count > cls.max_tokens:
            raise ValueError(
                f"--sentence becomes {count} WordPiece pieces with [CLS] and [SEP]; {cls.name} shows at most {cls.max_tokens}"
            )
        try:
            trained_heads_trace(sentence, token)
        except ValueError as error:
            if "token" not in settings and "is not in the sentence" in str(error):
                raise ValueError(f"give --token: the default {error}") from None
            raise

    def construct(self):
        t = self.trace
        self.query_piece = t.tokens[t.focus]
        self.top_piece = t.tokens[t.top_key]
        self.show_pieces(t)
        self.show_all_heads(t)
        self.show_query_and_key(t)
        self.show_row(t)
        self.show_whole_head(t)

    # --- (a) WordPiece -----------------------------------------------------------

    def piece_box(self, t, j: int, ids, size: int) -> VGroup:
        """Piece ``j`` in a box with its vocabulary id underneath."""
        theme = self.theme
        split = t.piece_words[j] >= 0 and len(t.word_pieces(t.piece_words[j])) > 1
        color = theme.key if t.special[j] else theme.query if j == t.focus else theme.highlight if split else theme.text
        text = fit(label(theme, t.tokens[j], size=size, color=color), 2.6)
        number = ids.numbers[j].set_color(theme.muted)
        width = max(text.width, number.width) + 0.3
        box = Rectangle(
            width=width,
            height=text.height + number.height + 0.55,
            stroke_color=color if color != theme.text else theme.line,
            stroke_width=2,
        )
        text.next_to(box.get_top(), DOWN, buff=0.2)
        number.next_to(box.get_bottom(), UP, buff=0.15)
        return VGroup(box, text, number)

    @staticmethod
    def wrap(boxes, width: float = 13.2) -> VGroup:
        """Boxes left to right in centred rows no wider than ``width``."""
        rows, row = [], []
        for box in boxes:
            if row and sum(b.width + 0.15 for b in row) + box.width > width:
                rows.append(row)
                row = []
            row.append(box)
        rows.append(row)
        return VGroup(*[VGroup(*r).arrange(RIGHT, buff=0.15) for r in rows]).arrange(DOWN, buff=0.3)

    def show_pieces(self, t):
        theme = self.theme
        split_words = [w for w in range(len(t.words)) if len(t.word_pieces(w)) > 1]
        if split_words:
            first = split_words[0]
            pieces = t.word_pieces(first)
            split_text = (
                f"“{t.words[first]}” becomes {format_number(len(pieces), 0)} pieces, {' '.join(pieces)}: "
                "the tokenizer splits off punctuation, and a word missing from the vocabulary is cut into known pieces, “##” marking a continuation. "
            )
        else:
            split_text = "Every word here is in the vocabulary, so each becomes one piece. "
        caption = (
            f"A trained model does not read words: it reads pieces from a WordPiece vocabulary of {format_number(t.vocab_size, 0)} entries, "
            f"lower-cased, each with its id. {split_text}"
            "[CLS] is added at the start of every input and [SEP] at the end."
        )
        with self.step("wordpiece-pieces", caption):
            heading = self.heading("What the model reads: WordPiece pieces")
            sentence = label(theme, f"“{t.sentence}”", color=theme.muted)
            words = t.sentence.split()
            if sentence.width > 12.8 and len(words) > 1:  # two lines read better than tiny text
                half = len(words) // 2
                sentence = label(theme, f"“{' '.join(words[:half])}\n{' '.join(words[half:])}”", color=theme.muted)
            fit(sentence, 12.8)
            sentence.next_to(heading, DOWN, buff=0.4).set_x(0)
            ids = self.grid("token_ids", 0, font_size=theme.small_size)
            for size in (theme.body_size, theme.small_size):  # smaller pieces when they need three rows
                boxes = [self.piece_box(t, j, ids, size) for j in range(len(t.tokens))]
                piece_rows = self.wrap(boxes)
                if len(piece_rows) <= 2:
                    break
            piece_rows.next_to(sentence, DOWN, buff=0.5).set_x(0)

            notes = VGroup()
            for w in split_words[:2]:
                note = label(theme, f"{t.words[w]}  →  {'  '.join(t.word_pieces(w))}", color=theme.highlight)
                notes.add(fit(note, 12.5))
            specials = label(
                theme, "[CLS] starts the input, [SEP] ends it;  ids underneath", size=theme.small_size, color=theme.key
            )
            notes.add(specials).arrange(DOWN, buff=0.25).next_to(piece_rows, DOWN, buff=0.5).set_x(0)
            while len(notes) and notes.get_bottom()[1] < -3.1:  # keep the caption area free; the caption says it too
                notes.remove(notes[0])
                if len(notes):
                    notes.arrange(DOWN, buff=0.25).next_to(piece_rows, DOWN, buff=0.5).set_x(0)
            self.play(FadeIn(heading), FadeIn(sentence))
            self.play(*[FadeIn(VGroup(box[0], box[1])) for box in boxes], lag_ratio=0.08, run_time=2)
            self.play(*[FadeIn(box[2]) for box in boxes], run_time=0.8)
            self.play(FadeIn(notes, shift=UP * 0.2))

    @property
    def candidates_look_back(self) -> bool:
        """Whether the head was chosen among earlier words only, the one right before the query aside.

        That is the trace's first choice of candidates (see ``attention_math.traces.trained_heads``); short
        sentences fall back to any word but the neighbours, then to any word.
        """
        t = self.trace
        return all(j < t.focus - 1 for j, candidate in enumerate(t.candidates) if candidate)

    # --- (b) the model view --------------------------------------------------------

    def show_all_heads(self, t):
        theme = self.theme
        size, gap = 0.78, 0.12
        n_layers, n_heads = t.n_layers, t.n_heads
        top_row, top_col = t.layer, t.head
        looks_back = (
            "earlier word, not the one right before it (many heads just watch the previous piece)"
            if self.candidates_look_back
            else "other word"
        )
        caption = (
            f"The model has {format_number(n_layers, 0)} layers of {format_number(n_heads, 0)} heads, "
            f"{format_number(n_layers * n_heads, 0)} heads in all, counted from 0 as in the code. "
            f"Each square is one head's {format_number(t.n_tokens, 0)} × {format_number(t.n_tokens, 0)} weights, one row per query piece; "
            "brighter means more weight. Every head has learned its own pattern. "
            f"We pick the head where “{self.query_piece}” puts the most weight on one {looks_back}: "
            f"layer {format_number(top_row, 0)}, head {format_number(top_col, 0)}, "
            f"with {format_number(t.top_weight, 2)} on “{self.top_piece}”."
        )
        with self.step("all-72-heads", caption):
            self.clear()
            heading = self.heading(
                f"All {format_number(n_layers * n_heads, 0)} heads: {format_number(n_layers, 0)} layers × {format_number(n_heads, 0)} heads"
            )
            step = size + gap
            left, top = -5.55, 2.35
            frames = VGroup()
            for layer in range(n_layers):
                for head in range(n_heads):
                    frame = Rectangle(width=size, height=size, stroke_color=theme.line, stroke_width=1)
                    frames.add(frame.move_to([left + head * step + size / 2, top - layer * step - size / 2, 0]))
            cell = size / t.n_tokens
            layers = [
                heatmap_patches(
                    theme,
                    [(t.all_weights[layer, head], (left + head * step, top - layer * step)) for head in range(n_heads)],
                    cell,
                )
                for layer in range(n_layers)
            ]
            # Structural labels (which layer, which head), not values.
            layer_labels = VGroup(
                *[
                    label(theme, f"layer {layer}", size=theme.min_size, color=theme.muted).next_to(
                        frames[layer * n_heads], LEFT, buff=0.2
                    )
                    for layer in range(n_layers)
                ]
            )
            head_labels = VGroup(
                *[
                    label(theme, str(head), size=theme.min_size, color=theme.muted).next_to(frames[head], UP, buff=0.12)
                    for head in range(n_heads)
                ]
            )
            head_word = label(theme, "head", size=theme.min_size, color=theme.muted).next_to(head_labels[0], LEFT, buff=0.2)
            head_word.align_to(layer_labels, RIGHT)
            scale = ColorScale(theme, height=2.5, width=0.22)
            scale.next_to(frames, RIGHT, buff=0.3).align_to(frames, DOWN)
            scale_ends = VGroup(
                label(theme, "1", size=theme.min_size, mono=True).next_to(scale, RIGHT, buff=0.1).align_to(scale, UP),
                label(theme, "0", size=theme.min_size, mono=True).next_to(scale, RIGHT, buff=0.1).align_to(scale, DOWN),
            )
            self.play(
                FadeIn(heading), FadeIn(layer_labels), FadeIn(head_labels), FadeIn(head_word), FadeIn(scale), FadeIn(scale_ends)
            )
            self.play(FadeIn(frames), run_time=0.6)
            for patches in layers:
                self.play(FadeIn(patches), run_time=0.6)
            chosen = frames[top_row * n_heads + top_col]
            box = SurroundingRectangle(chosen, color=theme.highlight, buff=0.04, stroke_width=5)
            self.play(FadeIn(box))
            self.play(Indicate(VGroup(box, layer_labels[top_row], head_labels[top_col]), color=theme.highlight), run_time=1.2)
            self.wait(1)

    # --- (c) one head, one query ---------------------------------------------------

    def vector_rows(self, source: str, color: str, name: str, decimals: int = 1) -> VGroup:
        """A d_head-number vector from the trace as two rows of cells, its name above."""
        theme = self.theme
        width, height = 0.8, 0.46
        grid = self.grid(source, decimals, cell_width=width, cell_height=height, font_size=theme.min_size)
        half = (grid.shape[1] + 1) // 2
        for d in range(grid.shape[1]):
            grid.cells[d].move_to(RIGHT * (d % half) * width + DOWN * (d // half) * height)
            grid.numbers[d].move_to(grid.cells[d])
        grid.cells.set_stroke(color, opacity=0.7)
        title = fit(label(theme, name, size=theme.small_size, color=color), 12.0)
        title.next_to(grid.cells, UP, buff=0.15).align_to(grid.cells, LEFT)
        return VGroup(title, grid)

    def show_query_and_key(self, t):
        theme = self.theme
        j = t.top_key
        caption = (
            f"Inside layer {format_number(t.layer, 0)}, head {format_number(t.head, 0)}, every piece's {format_number(t.d_model, 0)} numbers "
            f"are projected to a query and a key of {format_number(t.d_head, 0)} numbers each, with weights the model learned. "
            f"The score of “{self.query_piece}” for “{self.top_piece}” is the dot product of its query and that key: "
            f"multiply them number by number, and the {format_number(t.d_head, 0)} products add up to {format_number(t.focus_raw_scores[j], 1)}."
        )
        with self.step("query-and-key", caption):
            self.clear()
            heading = self.heading(f"Layer {format_number(t.layer, 0)}, head {format_number(t.head, 0)}: a query meets a key")
            query = self.vector_rows("focus_q", theme.query, f"query of “{self.query_piece}”")
            key = self.vector_rows(f"k[{j}]", theme.key, f"key of “{self.top_piece}”")
            terms = self.vector_rows(f"focus_terms[{j}]", theme.value, "their products, number by number")
            VGroup(query, key, terms).arrange(DOWN, buff=0.4).next_to(heading, DOWN, buff=0.45).set_x(0)
            score = VGroup(
                label(theme, "sum of the products:", size=theme.small_size, color=theme.muted),
                formula(theme, r"q \cdot k ="),
                self.number(f"focus_raw_scores[{j}]", 1, size=theme.body_size),
            ).arrange(RIGHT, buff=0.2)
            score.next_to(terms, DOWN, buff=0.35)
            self.play(FadeIn(heading))
            self.play(FadeIn(query), run_time=1.2)
            self.play(FadeIn(key), run_time=1.2)
            # Plain fades: transforming 64 numbers into 32 (or 32 into one) copies every glyph and was
            # most of this scene's render time.
            self.play(FadeIn(terms, shift=DOWN * 0.2), run_time=1.5)
            self.play(
                FadeIn(score, shift=DOWN * 0.2), Indicate(terms[1].cells, color=theme.value, scale_factor=1.02), run_time=1.5
            )
            self.wait(1)

    def show_row(self, t):
        theme = self.theme
        n, i, top = t.n_tokens, t.focus, t.top_key
        row_height = min(0.42, 5.2 / n)
        cell_width = 1.15
        top_y = 2.35
        label_right, raw_x, scaled_x, bars_x = -3.3, -2.55, -1.15, -0.25

        def row_y(j):
            return top_y - (j + 0.5) * row_height

        def column(source, decimals, x):
            grid = self.grid(source, decimals, cell_width=cell_width, cell_height=row_height, font_size=theme.min_size)
            for j in range(n):
                grid.cells[j].move_to([x, row_y(j), 0])
                grid.numbers[j].move_to(grid.cells[j])
            return grid

        piece_labels = VGroup()
        for j, piece in enumerate(t.tokens):
            color = theme.query if j == i else theme.key
            text = fit(label(theme, piece, size=theme.min_size, color=color), 2.1)
            piece_labels.add(text.move_to([label_right - text.width / 2, row_y(j), 0]))

        raw = column("focus_raw_scores", 1, raw_x)
        raw_name = formula(theme, r"q \cdot k_j", size=theme.body_size).next_to(raw.cells[0], UP, buff=0.2)
        low, high = t.focus_raw_scores.min(), t.focus_raw_scores.max()
        caption = (
            f"The same dot product with every key gives “{self.query_piece}” one raw score per piece, "
            f"from {format_number(low, 1)} to {format_number(high, 1)}. "
            f"The highest belongs to “{t.tokens[int(t.focus_raw_scores.argmax())]}”."
        )
        with self.step("raw-scores", caption):
            self.clear()
            heading = self.heading(f"“{self.query_piece}” scores every piece")
            self.play(FadeIn(heading), FadeIn(piece_labels, lag_ratio=0.05), FadeIn(raw_name))
            self.play(FadeIn(raw.cells), FadeIn(raw.numbers, lag_ratio=0.08), run_time=2)
            self.play(Indicate(piece_labels[i], color=theme.query), run_time=0.8)

        scaled = column("focus_scaled_scores", 2, scaled_x)
        scaled_name = formula(theme, r"\div \sqrt{d_\mathrm{head}}", size=theme.body_size).next_to(scaled.cells[0], UP, buff=0.2)
        scale = VGroup(
            formula(theme, r"\sqrt{d_\mathrm{head}} =", size=theme.body_size),
            label(theme, "√", size=theme.body_size),
            self.number("d_head", 0, size=theme.body_size),
            label(theme, "=", size=theme.body_size),
            self.number("scale", 2, size=theme.body_size),
        )
        scale.arrange(RIGHT, buff=0.18)
        scale[2].next_to(scale[1], RIGHT, buff=0.04)
        scale[3:].shift(LEFT * 0.14)
        scale.to_corner(UR, buff=0.5)
        scale_heading = self.heading(f"“{self.query_piece}”: divide by √d_head")
        caption = (
            f"Divide every score by the square root of d_head = {format_number(t.d_head, 0)}, that is by {format_number(t.scale, 2)}, "
            f"as in every transformer. The scores now run from {format_number(t.focus_scaled_scores.min(), 2)} "
            f"to {format_number(t.focus_scaled_scores.max(), 2)}."
        )
        with self.step("scale", caption):
            self.play(ReplacementTransform(heading, scale_heading), FadeIn(scaled_name), FadeIn(scale))
            self.play(TransformFromCopy(raw.cells, scaled.cells), TransformFromCopy(raw.numbers, scaled.numbers), run_time=1.5)

        bars = self.bars(
            "focus_weights", t.tokens, 2, height=4.6, bar_width=row_height * 0.7, color=theme.value, number_size=theme.min_size
        )
        for j, (bar, number) in enumerate(zip(bars.bars, bars.numbers)):
            bar.rotate(-PI / 2)  # a horizontal bar, growing to the right
            bar.move_to([bars_x + bar.width / 2, row_y(j), 0])
            number.next_to(bar, RIGHT, buff=0.12)
        weights_name = formula(theme, r"\mathrm{softmax}", size=theme.body_size)
        weights_name.next_to(bars.bars[0], UP, buff=0.2).align_to(bars.bars[0], LEFT).match_y(raw_name)
        total = formula(theme, r"\textstyle\sum_j w_j = 1", size=theme.body_size)
        total.next_to(weights_name, RIGHT, buff=0.8)
        softmax_heading = self.heading(f"“{self.query_piece}”: softmax gives the weights")
        others = sorted((j for j in range(n) if t.candidates[j]), key=lambda j: -t.focus_weights[j])
        runner_up = others[1] if len(others) > 1 else None
        # The runner-up among the same candidates the head was chosen by (see show_all_heads).
        among = "earlier words (the one right before it aside)" if self.candidates_look_back else "other words"
        second = (
            f", and the runner-up among the {among}, “{t.tokens[runner_up]}”, gets {format_number(t.focus_weights[runner_up], 2)}"
            if runner_up is not None
            else ""
        )
        caption = (
            "Softmax turns the scaled scores into weights between 0 and 1 that add up to 1. "
            f"“{self.query_piece}” puts {format_number(t.top_weight, 2)} on “{self.top_piece}”{second}."
        )
        with self.step("softmax", caption):
            self.play(ReplacementTransform(scale_heading, softmax_heading), FadeIn(weights_name), FadeIn(total))
            self.play(*[GrowFromEdge(bar, LEFT) for bar in bars.bars], run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.05), run_time=1)
            self.play(
                FadeIn(SurroundingRectangle(VGroup(piece_labels[top], bars.numbers[top]), color=theme.highlight, buff=0.05))
            )

    # --- (d) the whole head ---------------------------------------------------------

    def show_whole_head(self, t):
        theme = self.theme
        n, i, top = t.n_tokens, t.focus, t.top_key
        label_width, column_label_height = 1.3, 1.0
        cell_width = min(0.95, (13.6 - label_width - 0.15) / n)
        decimals = 2 if cell_width >= 0.8 else 1  # "0.00" needs 0.63 units at the smallest size; leave a gap
        if top == i - 1:
            pattern = ", the piece just before it: this head follows word order more than meaning"
        elif top == i + 1:
            pattern = ", the piece just after it: this head follows word order more than meaning"
        else:
            pattern = ""
        caption = (
            f"The whole of layer {format_number(t.layer, 0)}, head {format_number(t.head, 0)}: every piece as a query, one row each, "
            "and every row adds up to 1. "
            f"Among the other words, “{self.query_piece}” attends most to “{self.top_piece}” ({format_number(t.top_weight, 2)}){pattern}. "
            "Other heads learn other patterns, and the next layers combine them."
        )
        with self.step("whole-head", caption):
            self.clear()
            heading = self.heading(f"Layer {format_number(t.layer, 0)}, head {format_number(t.head, 0)}: all the weights")
            # Column labels hang under the heading; the rows share what is left down to the caption area.
            grid_top = heading.get_bottom()[1] - 0.2 - column_label_height - 0.12
            cell_height = min(0.55, (grid_top + 3.1) / n)
            heatmap = self.grid(
                "weights",
                decimals,
                heat=True,
                vmin=0.0,
                vmax=1.0,
                cell_width=cell_width,
                cell_height=cell_height,
                font_size=theme.min_size,
            )
            heatmap.next_to([(label_width + 0.15) / 2 - n * cell_width / 2, grid_top, 0], DR, buff=0)  # labels + grid centred
            rows = VGroup()
            for j, piece in enumerate(t.tokens):
                text = fit(label(theme, piece, size=theme.min_size, color=theme.query), label_width)
                rows.add(text.next_to(heatmap.cell(j, 0), LEFT, buff=0.15))
            columns = VGroup()
            for j, piece in enumerate(t.tokens):
                text = fit(label(theme, piece, size=theme.min_size, color=theme.key), column_label_height).rotate(PI / 2)
                columns.add(text.next_to(heatmap.cell(0, j), UP, buff=0.12))
            queries = label(theme, "queries ↓", size=theme.min_size, color=theme.query)
            queries.next_to(rows[0], UP, buff=0.3).align_to(rows, RIGHT)
            self.play(FadeIn(heading), FadeIn(rows), FadeIn(columns), FadeIn(queries))
            self.play(FadeIn(heatmap.cells), FadeIn(heatmap.numbers), run_time=1.5)
            # Tight above and below so the neighbouring rows stay readable; room on the left for the label.
            row_box = Rectangle(
                width=heatmap.row(i).width + label_width + 0.35, height=cell_height + 0.04, color=theme.highlight, stroke_width=4
            )
            row_box.move_to(heatmap.row(i)).align_to(heatmap.row(i), RIGHT).shift(RIGHT * 0.05)
            self.play(FadeIn(row_box))
            self.play(Indicate(heatmap.number(i, top), color=theme.highlight, scale_factor=1.4), run_time=1.2)
            self.wait(1)
