"""A real trained model: all-MiniLM-L6-v2's 72 heads on "The animal didn't cross the street…".

What does "it" refer to, and does each head learn its own relationship? Asked of a trained
model instead of made-up numbers: all-MiniLM-L6-v2, a MiniLM (a 6-layer, 12-head, 384-wide
BERT-style encoder: every second layer of the 12-layer MiniLM, itself distilled from a larger model)
fine-tuned for sentence embeddings: WordPiece pieces, every
head's weights at once, then one head's real scores, scaling and softmax for the
query piece, and what that head does when one word changes the meaning of "it".
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    UR,
    FadeIn,
    FadeOut,
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
from .kit.heatmaps import AxisLabels, Cells, ColorScale, heatmap_patches, weights_heatmap
from .kit.layout import CONTENT_WIDTH, LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM, SAFE_TOP, Region, keep_inside, pin
from .kit.text import formula, label
from .theme import format_number

BARS_ROOM = Region(-0.25, RIGHT_EDGE, SAFE_BOTTOM, SAFE_TOP)
"""Right of the score columns: where the query's weight bars start."""

DEFAULT_TOKEN = "it"


def fit(text: Text, width: float) -> Text:
    """Shrink ``text`` to ``width`` when it is wider (long user pieces in a fixed slot)."""
    if text.width > width:
        text.scale_to_fit_width(width)
    return text


ROW_BOX_LABEL_ROOM = 0.12
"""Room added between a row label's first glyph and the row box's left side, so the stroke never touches it."""


class TrainedHeadsScene(ExplainerScene):
    name = "trained-heads"
    title = "Inside a trained transformer"
    description = (
        "all-MiniLM-L6-v2 reads a sentence: WordPiece pieces, all 72 heads, one head's real numbers, "
        "and what that head does when one word changes the meaning."
    )
    sources = (
        "sentence-transformers/all-MiniLM-L6-v2 (MiniLM: Wang et al. 2020; fine-tuned for sentence embeddings); "
        "the animal/street sentence: Uszkoreit, Google AI blog 2017, 'Transformer: A Novel Neural Network Architecture'"
    )

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
        self.head_name = f"layer {format_number(t.layer_number, 0)}, head {format_number(t.head_number, 0)}"
        self.show_pieces()
        self.show_all_heads()
        self.multiply_query_and_key()
        self.score_every_piece()
        self.scale_the_scores()
        self.softmax_the_scores()
        if t.contrast_sentence:
            self.change_one_word()
        self.show_whole_head()

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
    def wrap(boxes, width: float = 12.6) -> VGroup:
        """Boxes left to right in centred rows no wider than ``width``."""
        rows, row = [], []
        for box in boxes:
            if row and sum(b.width + 0.15 for b in row) + box.width > width:
                rows.append(row)
                row = []
            row.append(box)
        rows.append(row)
        return VGroup(*[VGroup(*r).arrange(RIGHT, buff=0.15) for r in rows]).arrange(DOWN, buff=0.3)

    def show_pieces(self):
        """Step 1: the sentence as the model reads it, WordPiece pieces with their ids."""
        t, theme = self.trace, self.theme
        split_words = [w for w in range(len(t.words)) if len(t.word_pieces(w)) > 1]
        with self.step("wordpiece-pieces", "What the model reads: WordPiece pieces"):
            heading = self.heading("What the model reads: WordPiece pieces")
            sentence = label(theme, f"“{t.sentence}”", color=theme.muted)
            words = t.sentence.split()
            if sentence.width > 12.6 and len(words) > 1:  # two lines read better than tiny text
                half = len(words) // 2
                sentence = label(theme, f"“{' '.join(words[:half])}\n{' '.join(words[half:])}”", color=theme.muted)
            fit(sentence, 12.6)
            sentence.next_to(heading, DOWN, buff=0.4).set_x(0)
            # The uncased tokenizer lower-cases first ("The" becomes the piece "the"): said, and noted under the sentence.
            lowered = t.sentence != t.sentence.lower()
            above_pieces = VGroup(sentence)
            if lowered:
                lower_note = label(theme, "lower-cased first", size=theme.min_size, color=theme.muted)
                above_pieces.add(lower_note.next_to(sentence, DOWN, buff=0.12).align_to(sentence, RIGHT))
            ids = self.grid("token_ids", 0, font_size=theme.small_size, grouped=False)  # ids are labels: 1996
            for size in (theme.body_size, theme.small_size):  # smaller pieces when they need three rows
                boxes = [self.piece_box(t, j, ids, size) for j in range(len(t.tokens))]
                piece_rows = self.wrap(boxes)
                if len(piece_rows) <= 2:
                    break
            piece_rows.next_to(above_pieces, DOWN, buff=0.4).set_x(0)

            notes = VGroup()
            for w in split_words[:1]:
                note = label(theme, f"{t.words[w]}  →  {'  '.join(t.word_pieces(w))}", color=theme.highlight)
                notes.add(fit(note, 12.5))
            unknown = label(
                theme,
                f"{t.unknown_word}  →  {'  '.join(t.unknown_pieces)}   (a word not in the vocabulary)",
                color=theme.highlight,
            )
            notes.add(fit(unknown, 12.5))
            specials = label(
                theme, "[CLS] starts the input, [SEP] ends it;  ids underneath", size=theme.small_size, color=theme.key
            )
            notes.add(specials).arrange(DOWN, buff=0.25).next_to(piece_rows, DOWN, buff=0.5).set_x(0)
            while len(notes) > 1 and notes.get_bottom()[1] < SAFE_BOTTOM:
                notes.remove(notes[0])
                notes.arrange(DOWN, buff=0.25).next_to(piece_rows, DOWN, buff=0.5).set_x(0)

            self.say("A trained model does not read words: it reads pieces.")
            self.play(FadeIn(heading), FadeIn(sentence))
            lower = " lower-case" if lowered else ""
            self.say(f"Each piece comes from a WordPiece vocabulary of {format_number(t.vocab_size, 0)}{lower} entries.")
            if lowered:
                self.play(FadeIn(lower_note), run_time=0.4)
            self.play(*[FadeIn(VGroup(box[0], box[1])) for box in boxes], lag_ratio=0.08, run_time=2)
            self.say("Every piece has its id in that vocabulary, shown underneath.")
            self.play(*[FadeIn(box[2]) for box in boxes], run_time=0.8)
            # Each note appears with the line that says it (the picture follows the voice).
            shown = list(notes)
            if split_words:
                pieces = t.word_pieces(split_words[0])
                self.say(f"“{t.words[split_words[0]]}” becomes {format_number(len(pieces), 0)} pieces: {' '.join(pieces)}.")
                if len(shown) == 3:
                    self.play(FadeIn(shown.pop(0), shift=UP * 0.2))
            start = "Punctuation is split off" if split_words else "Every word here is in the vocabulary"
            unknown_said = " and ".join(piece.removeprefix("##") for piece in t.unknown_pieces)
            self.say(
                f"{start}; an unknown word is cut into known pieces: “{t.unknown_word}” becomes {' '.join(t.unknown_pieces)}.",
                spoken=f"{start}; an unknown word is cut into known pieces: the word {t.unknown_word} becomes {unknown_said}.",
            )
            if len(shown) == 2:
                self.play(FadeIn(shown.pop(0), shift=UP * 0.2))
            self.say("[CLS] is added at the start of every input, [SEP] at the end.")
            self.play(*[FadeIn(note, shift=UP * 0.2) for note in shown])
            self.highlight(boxes[0], boxes[-1], color=theme.key)

    @property
    def candidates_look_back(self) -> bool:
        """Whether the head was chosen among earlier words only, the one right before the query aside.

        That is the trace's first choice of candidates (see ``attention_math.traces.trained_heads``); short
        sentences fall back to any word but the neighbours, then to any word.
        """
        t = self.trace
        return all(j < t.focus - 1 for j, candidate in enumerate(t.candidates) if candidate)

    # --- (b) the model view --------------------------------------------------------

    def show_all_heads(self):
        """Step 2: every head's attention weights on the sentence, and the head this video follows."""
        t, theme = self.trace, self.theme
        size, gap = 0.74, 0.12
        n_layers, n_heads = t.n_layers, t.n_heads
        step = size + gap
        left, top = -5.1, 2.3
        frames = VGroup()
        for layer in range(n_layers):
            for head in range(n_heads):
                frame = Rectangle(width=size, height=size, stroke_color=theme.line, stroke_width=1)
                frames.add(frame.move_to([left + head * step + size / 2, top - layer * step - size / 2, 0]))
        cell = size / t.n_tokens
        layers = [
            heatmap_patches(
                theme, [(t.all_weights[layer, head], (left + head * step, top - layer * step)) for head in range(n_heads)], cell
            )
            for layer in range(n_layers)
        ]
        # Structural labels (which layer, which head), numbered from 1 as the words say them.
        layer_labels = VGroup(
            *[
                label(theme, f"layer {layer + 1}", size=theme.min_size, color=theme.muted).next_to(
                    frames[layer * n_heads], LEFT, buff=0.2
                )
                for layer in range(n_layers)
            ]
        )
        head_labels = VGroup(
            *[
                label(theme, str(head + 1), size=theme.min_size, color=theme.muted).next_to(frames[head], UP, buff=0.12)
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
        chosen = frames[t.layer * n_heads + t.head]
        box = SurroundingRectangle(chosen, color=theme.highlight, buff=0.04, stroke_width=5)
        pick = VGroup(
            label(theme, f"{self.head_name}:", size=theme.small_size, color=theme.highlight),
            self.number("top_weight", 2, size=theme.small_size, color=theme.highlight),
            fit(label(theme, f"on “{self.top_piece}”", size=theme.small_size, color=theme.highlight), 4.0),
        ).arrange(RIGHT, buff=0.15)
        pick.next_to(frames, DOWN, buff=0.3).align_to(frames, LEFT)
        looks_back = "earlier word" if self.candidates_look_back else "other word"
        # The thumbnails are too small for row and column labels: the rule, beside the heading.
        orientation = VGroup(
            label(theme, "in each square:", size=theme.min_size, color=theme.muted),
            VGroup(
                label(theme, "rows = queries", size=theme.min_size, color=theme.query),
                label(theme, "columns = keys", size=theme.min_size, color=theme.key),
            ).arrange(RIGHT, buff=0.3),
        ).arrange(DOWN, buff=0.1, aligned_edge=RIGHT)
        between = (SAFE_TOP + head_labels.get_top()[1]) / 2  # between the heading's top and the head numbers
        orientation.align_to(scale_ends, RIGHT).set_y(between)
        # A head that "just watches the previous piece", pointed to while the line says so.
        previous = None
        if self.candidates_look_back and t.previous_layer >= 0:
            before = frames[t.previous_layer * n_heads + t.previous_head]
            previous_name = f"layer {format_number(t.previous_layer + 1, 0)}, head {format_number(t.previous_head + 1, 0)}"
            previous_pick = VGroup(
                label(theme, f"{previous_name}:", size=theme.small_size, color=theme.key),
                self.number("previous_weight", 2, size=theme.small_size, color=theme.key),
                fit(label(theme, f"on “{t.tokens[t.focus - 1]}”", size=theme.small_size, color=theme.key), 4.0),
                label(theme, "(the piece just before)", size=theme.small_size, color=theme.muted),
            ).arrange(RIGHT, buff=0.15)
            fit(previous_pick, frames.width).next_to(frames, DOWN, buff=0.3).align_to(frames, LEFT)
            previous = (SurroundingRectangle(before, color=theme.key, buff=0.04, stroke_width=5), previous_pick, previous_name)

        with self.step("all-72-heads", "All 72 heads of the trained model"):
            self.clear()
            heading = self.heading(f"{t.model.split('/')[-1]}: all {format_number(n_layers * n_heads, 0)} heads")
            self.say(
                f"This is {t.model.split('/')[-1]}, a BERT-style encoder: {format_number(t.d_model, 0)} numbers per piece, "
                f"a {format_number(n_layers, 0)}-layer cut of the distilled MiniLM, fine-tuned for sentence embeddings.",
                spoken=f"This is all Mini L M, L 6, v 2, a BERT-style encoder: {format_number(t.d_model, 0)} numbers per piece, "
                f"a {format_number(n_layers, 0)}-layer cut of the distilled Mini L M, fine-tuned for sentence embeddings.",
            )
            # The facts the line says, on screen while it says them (the grid of heads replaces them).
            facts = VGroup(
                label(theme, f"{format_number(t.d_model, 0)} numbers per piece", color=theme.text),
                label(theme, f"a {format_number(n_layers, 0)}-layer cut of the distilled MiniLM", color=theme.text),
                label(theme, "fine-tuned: sentence → one embedding", color=theme.text),
            ).arrange(DOWN, buff=0.35)
            facts.move_to([0, 0, 0])
            self.play(FadeIn(heading))
            self.play(*[FadeIn(fact, shift=UP * 0.2) for fact in facts], lag_ratio=0.5, run_time=2.5)
            self.say(
                f"It has {format_number(n_layers, 0)} layers of {format_number(n_heads, 0)} heads, "
                f"{format_number(n_layers * n_heads, 0)} heads in all, numbered from 1."
            )
            self.play(FadeOut(facts), run_time=0.4)
            self.play(FadeIn(layer_labels), FadeIn(head_labels), FadeIn(head_word), FadeIn(frames), run_time=1.2)
            self.say("Each square is one head's attention weights on this sentence.")
            for patches in layers[:3]:
                self.play(FadeIn(patches), run_time=0.6)
            self.say("One row per query piece, one column per key: brighter means more weight.")
            self.play(FadeIn(scale), FadeIn(scale_ends), FadeIn(orientation))
            for patches in layers[3:]:
                self.play(FadeIn(patches), run_time=0.6)
            self.say("These are trained weights: each head has learned its own pattern.")
            self.wait(0.5)
            self.say(f"We follow the head where “{self.query_piece}” puts the most weight on one {looks_back}.")
            self.play(FadeIn(box))
            if previous is not None:
                previous_box, previous_pick, previous_name = previous
                self.say(f"The piece just before “{self.query_piece}” is left out: some heads only watch that one.")
                self.play(FadeIn(previous_box))
                shown_previous = format_number(t.previous_weight, 2)
                before_word = t.tokens[t.focus - 1]
                # "is one: one on" sounded like a stutter: "such a head", and "all its weight" when it is all.
                everything = "all its weight, " if shown_previous == format_number(1.0, 2) else ""
                self.say(
                    f"{previous_name.capitalize()} is such a head: {shown_previous} on “{before_word}”.",
                    spoken=f"{previous_name.capitalize()} is such a head: {everything}{shown_previous}, on “{before_word}”.",
                )
                self.play(FadeIn(previous_pick, shift=UP * 0.2))
            # Named outright: a bare "That is" right after the layer-1 aside seemed to point at the aside.
            self.say(f"The head we follow is {self.head_name}: {format_number(t.top_weight, 2)} on “{self.top_piece}”.")
            # Each indicated on its own: one Indicate over the box and both far-apart labels scaled the group
            # about its middle and threw the labels off the edge for a moment.
            if previous is not None:  # the previous-piece head gives way to the chosen one, in the same place
                self.play(FadeOut(previous[0]), FadeOut(previous[1]), run_time=0.4)
            self.play(
                FadeIn(pick),
                Indicate(box, color=theme.highlight),
                Indicate(layer_labels[t.layer], color=theme.highlight),
                Indicate(head_labels[t.head], color=theme.highlight),
            )

    # --- (c) one head, one query ---------------------------------------------------

    SHOWN_DIMS = 8
    """How many of a head's numbers step 3 prints, large; the rest are named by their count (a wall of 96 otherwise)."""

    def vector_row(self, source: str, color: str, name: str, decimals: int = 2) -> VGroup:
        """The first :attr:`SHOWN_DIMS` numbers of a d_head-number trace vector in large cells, "… N more" after them, its name above."""
        theme = self.theme
        shown = min(self.SHOWN_DIMS, self.trace.d_head)
        path = f"{source[:-1]}, :{shown}]" if source.endswith("]") else f"{source}[:{shown}]"  # "k[2]" -> "k[2, :8]"
        grid = self.grid(path, decimals, cell_width=1.25, cell_height=0.62, font_size=theme.small_size)
        grid.cells.set_stroke(color, opacity=0.7)
        row = VGroup(grid)
        if self.trace.d_head > shown:
            more = label(theme, f"… {format_number(self.trace.d_head - shown, 0)} more", size=theme.small_size, color=theme.muted)
            row.add(more.next_to(grid.cells, RIGHT, buff=0.25))
        title = fit(label(theme, name, size=theme.small_size, color=color), 9.0)
        title.next_to(grid.cells, UP, buff=0.12).align_to(grid.cells, LEFT)
        return VGroup(title, row)

    def multiply_query_and_key(self):
        """Step 3: one score worked out, the query's and one key's numbers multiplied and all their products added."""
        t, theme = self.trace, self.theme
        j = t.top_key
        shown = min(self.SHOWN_DIMS, t.d_head)
        with self.step("query-and-key", "One head: a query meets a key"):
            self.clear()
            heading = self.heading(f"{self.head_name.capitalize()}: a query meets a key")
            query = self.vector_row(
                "focus_q", theme.query, f"query of “{self.query_piece}”: its first {format_number(shown, 0)} numbers"
            )
            key = self.vector_row(f"k[{j}]", theme.key, f"key of “{self.top_piece}”: its first {format_number(shown, 0)} numbers")
            terms = self.vector_row(f"focus_terms[{j}]", theme.value, "their products, number by number")
            VGroup(query, key, terms).arrange(DOWN, buff=0.4).next_to(heading, DOWN, buff=0.4).set_x(0)
            score = VGroup(
                label(theme, f"sum of all {format_number(t.d_head, 0)} products:", size=theme.small_size, color=theme.muted),
                formula(theme, r"q \cdot k ="),
                self.number(f"focus_raw_scores[{j}]", 2, size=theme.body_size),
            ).arrange(RIGHT, buff=0.2)
            rounding = label(theme, "(every number rounded to 2 decimals)", size=theme.min_size, color=theme.muted)
            VGroup(score, rounding).arrange(DOWN, buff=0.15).next_to(terms, DOWN, buff=0.45).set_x(0)
            self.play(FadeIn(heading))
            self.say(
                f"In this head, each piece's {format_number(t.d_model, 0)} numbers become "
                f"a query and a key of {format_number(t.d_head, 0)} numbers."
            )
            self.play(FadeIn(query), run_time=1.2)
            self.say("W_Q and W_K, which make them, were learned in training.")
            self.play(FadeIn(key), run_time=1.2)
            self.say(f"The score of “{self.query_piece}” for “{self.top_piece}”: multiply them number by number.")
            self.play(FadeIn(terms, shift=DOWN * 0.2), run_time=1.5)
            self.say(
                f"Then add all {format_number(t.d_head, 0)} products: the score is {format_number(t.focus_raw_scores[j], 2)}."
            )
            self.play(FadeIn(score, shift=DOWN * 0.2), FadeIn(rounding))
            self.highlight(score[2], color=theme.value)

    # The next three steps share one picture: the pieces down the left, then a column per stage.

    def row_y(self, j: int) -> float:
        return self.rows_top - (j + 0.5) * self.row_height

    def row_span(self, j: int, *parts) -> Rectangle:
        """An unseen box exactly one row high around ``parts`` of row ``j``: outlined, it stays off the rows above and below."""
        group = VGroup(*parts)
        left, right = group.get_left()[0] - ROW_BOX_LABEL_ROOM, group.get_right()[0] + 0.06
        span = Rectangle(width=right - left, height=self.row_height, stroke_opacity=0)
        middle = (left + right) / 2
        return span.set_x(middle).set_y(self.row_y(j))

    def column(self, source: str, decimals: int, x: float):
        """The query's row of trace values as a column of cells, one beside each piece."""
        n = self.trace.n_tokens
        grid = self.grid(source, decimals, cell_width=1.15, cell_height=self.row_height, font_size=self.theme.min_size)
        for j in range(n):
            grid.cells[j].move_to([x, self.row_y(j), 0])
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def score_every_piece(self):
        """Step 4: the query's raw score for every piece."""
        t, theme = self.trace, self.theme
        n, i = t.n_tokens, t.focus
        self.rows_top = 2.35
        self.row_height = min(0.42, 5.4 / n)
        label_right, raw_x = -3.3, -2.55
        labels_room = Region(LEFT_EDGE, label_right, SAFE_BOTTOM, SAFE_TOP)  # the pieces end at label_right
        self.piece_labels = VGroup()
        for j, piece in enumerate(t.tokens):
            color = theme.query if j == i else theme.key
            text = fit(label(theme, piece, size=theme.min_size, color=color), 2.6)
            self.piece_labels.add(pin(text, RIGHT, labels_room, y=self.row_y(j)))
        self.raw = raw = self.column("focus_raw_scores", 1, raw_x)
        raw_name = formula(theme, r"q \cdot k_j", size=theme.body_size).next_to(raw.cells[0], UP, buff=0.2)
        self.column_title_y = raw_name.get_y()
        low, high = t.focus_raw_scores.min(), t.focus_raw_scores.max()
        with self.step("raw-scores", "One query scores every piece"):
            self.clear()
            self.row_heading = self.heading(f"“{self.query_piece}” scores every piece")
            self.say(f"The same dot product with every key gives “{self.query_piece}” one score per piece.")
            self.play(FadeIn(self.row_heading), FadeIn(self.piece_labels, lag_ratio=0.05), FadeIn(raw_name))
            self.play(FadeIn(raw.cells), FadeIn(raw.numbers, lag_ratio=0.08), run_time=2)
            self.say(f"They run from {format_number(low, 1)} to {format_number(high, 1)}.")
            self.highlight(raw.cells[int(t.focus_raw_scores.argmin())], raw.cells[int(t.focus_raw_scores.argmax())], buff=0.0)
            self.say(f"The highest belongs to “{t.tokens[int(t.focus_raw_scores.argmax())]}”.")
            top_raw = int(t.focus_raw_scores.argmax())
            self.highlight(self.row_span(top_raw, self.piece_labels[top_raw], raw.cells[top_raw]), buff=0.0)

    def scale_the_scores(self):
        """Step 5: every score divided by the square root of the head's width."""
        t, theme = self.trace, self.theme
        scaled = self.column("focus_scaled_scores", 2, -1.15)
        scaled_name = formula(theme, r"\div \sqrt{d_\mathrm{head}}", size=theme.body_size).next_to(scaled.cells[0], UP, buff=0.2)
        scaled_name.set_y(self.column_title_y)
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
        pin(scale, UR)
        heading = self.heading(f"“{self.query_piece}”: scale the scores")
        with self.step("scale", "Scale: divide by √d_head"):
            self.say(
                f"d_head is {format_number(t.d_head, 0)}, so divide every score by its square root, {format_number(t.scale, 2)}."
            )
            self.play(ReplacementTransform(self.row_heading, heading), FadeIn(scaled_name), FadeIn(scale))
            self.play(
                TransformFromCopy(self.raw.cells, scaled.cells), TransformFromCopy(self.raw.numbers, scaled.numbers), run_time=1.5
            )
            self.say("This model divides as the 2017 transformer did; some models, such as T5, do not.")
            self.wait(0.5)
            self.say(
                f"The scores now run from {format_number(t.focus_scaled_scores.min(), 2)} "
                f"to {format_number(t.focus_scaled_scores.max(), 2)}."
            )
            self.highlight(
                scaled.cells[int(t.focus_scaled_scores.argmin())], scaled.cells[int(t.focus_scaled_scores.argmax())], buff=0.0
            )
        self.row_heading = heading

    def softmax_the_scores(self):
        """Step 6: softmax turns the scaled scores into the query's attention weights."""
        t, theme = self.trace, self.theme
        n, top = t.n_tokens, t.top_key
        bars = self.bars(
            "focus_weights",
            t.tokens,
            2,
            height=4.6,
            bar_width=self.row_height * 0.7,
            color=theme.value,
            number_size=theme.min_size,
        )
        for j, (bar, number) in enumerate(zip(bars.bars, bars.numbers)):
            bar.rotate(-PI / 2)  # a horizontal bar, growing to the right
            pin(bar, LEFT, BARS_ROOM, y=self.row_y(j))
            number.next_to(bar, RIGHT, buff=0.12)
        weights_name = label(theme, "attention weights", size=theme.small_size, color=theme.value)
        weights_name.align_to(bars.bars[0], LEFT).set_y(self.column_title_y)
        total = formula(theme, r"\textstyle\sum_j w_j = 1", size=theme.body_size)
        total.next_to(weights_name, RIGHT, buff=0.6)
        heading = self.heading(f"“{self.query_piece}”: softmax")
        others = sorted((j for j in range(n) if t.candidates[j]), key=lambda j: -t.focus_weights[j])
        rival = t.compared_keys[-1] if t.contrast_sentence else (others[1] if len(others) > 1 else None)
        with self.step("softmax", "Softmax: the head's attention weights"):
            self.say("Softmax turns the scaled scores into attention weights that add up to 1.")
            self.play(ReplacementTransform(self.row_heading, heading), FadeIn(weights_name), FadeIn(total))
            self.play(*[GrowFromEdge(bar, LEFT) for bar in bars.bars], run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.05), run_time=1)
            self.say(f"“{self.query_piece}” puts {format_number(t.top_weight, 2)} on “{self.top_piece}”.")
            self.play(
                FadeIn(
                    SurroundingRectangle(
                        self.row_span(top, self.piece_labels[top], bars.numbers[top]), color=theme.highlight, buff=0
                    )
                )
            )
            if rival is not None and rival != top:
                self.say(f"“{t.tokens[rival]}” gets {format_number(t.focus_weights[rival], 2)}.")
                self.highlight(self.row_span(rival, self.piece_labels[rival], bars.numbers[rival]), color=theme.key, buff=0.0)
            cls_weight = format_number(t.focus_weights[0], 2)
            spare = ": heads often park spare weight there" if t.focus_weights[0] >= 0.1 else ""
            self.say(f"[CLS], which stands for no word, gets {cls_weight}{spare}.")
            self.play(
                FadeIn(SurroundingRectangle(self.row_span(0, self.piece_labels[0], bars.numbers[0]), color=theme.key, buff=0))
            )

    def change_one_word(self):
        """Step 7: the counter-example. The same head on a sentence where "it" means something else."""
        t, theme = self.trace, self.theme
        top, rival = t.compared_keys[1], t.compared_keys[-1]
        ending = t.sentence.split()[-2:]
        contrast_ending = t.contrast_sentence.split()[-2:]
        table = self.grid(
            "compared_weights",
            2,
            cell_width=2.0,
            cell_height=0.8,
            font_size=theme.body_size,
            row_labels=[f"“… {' '.join(ending)}”", f"“… {' '.join(contrast_ending)}”"],
            col_labels=[t.tokens[j] for j in t.compared_keys],
            row_label_color=theme.text,
            col_label_color=theme.key,
            label_size=theme.body_size,
            row_label_width=3.4,
        )
        sentences = VGroup(
            fit(label(theme, f"“{t.sentence}”", size=theme.small_size, color=theme.muted), 12.6),
            fit(label(theme, f"“{t.contrast_sentence}”", size=theme.small_size, color=theme.muted), 12.6),
        ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        # The words that differ between the two sentences, coloured in both (a Text's glyphs skip spaces);
        # an outline at this size would cover the neighbouring letters.
        words, contrast_words = t.sentence.split(), t.contrast_sentence.split()
        if len(words) == len(contrast_words):
            for text, own in zip(sentences, (words, contrast_words)):
                glyphs = VGroup()
                at = 1  # the opening quote mark
                for w, (a, b) in enumerate(zip(words, contrast_words)):
                    if a != b:
                        glyphs.add(*text[at : at + len(own[w])])
                    at += len(own[w])
                glyphs.set_color(theme.highlight)
        what = label(
            theme, f"attention weights of “{self.query_piece}” in {self.head_name}", size=theme.small_size, color=theme.value
        )
        verdict = fit(
            label(
                theme,
                f"Either way “{self.query_piece}” looks at “{t.tokens[top]}”: the head does not resolve “{self.query_piece}”.",
                size=theme.small_size,
                color=theme.highlight,
            ),
            CONTENT_WIDTH,
        )
        with self.step("change-one-word", "Change one word: does the head notice?"):
            self.clear()
            heading = self.heading(f"Does this head know what “{self.query_piece}” means?")
            sentences.next_to(heading, DOWN, buff=0.45).align_to(heading, LEFT)
            VGroup(what, table).arrange(DOWN, buff=0.45).next_to(sentences, DOWN, buff=0.6).set_x(0)
            verdict.next_to(table, DOWN, buff=0.6).set_x(0)
            self.say(f"Does this head work out what “{self.query_piece}” refers to? Change one word.")
            self.play(FadeIn(heading), FadeIn(sentences[0]))
            self.say(f"With “{' '.join(contrast_ending)}”, “{self.query_piece}” now means the {t.tokens[rival]}.")
            self.play(FadeIn(sentences[1], shift=DOWN * 0.2))
            self.play(
                FadeIn(what),
                FadeIn(table.cells),
                FadeIn(table.row_labels),
                FadeIn(table.col_labels),
                *[FadeIn(table.number(0, k)) for k in range(table.shape[1])],
            )
            self.say(
                f"Yet the same head still puts {format_number(t.compared_weights[1, 1], 2)} on “{t.tokens[top]}”, "
                f"and only {format_number(t.compared_weights[1, -1], 2)} on “{t.tokens[rival]}”."
            )
            self.play(*[FadeIn(table.number(1, k)) for k in range(table.shape[1])], run_time=1.2)
            self.highlight(table.cell(1, 1), table.cell(1, len(t.compared_keys) - 1), buff=0.0)
            self.say(f"So this head does not work out what “{self.query_piece}” means: it looks at “{t.tokens[top]}” either way.")
            self.play(FadeIn(verdict, shift=UP * 0.2))
            self.say("One head on one sentence shows a pattern, not understanding.")
            self.wait(0.5)

    # --- (d) the whole head ---------------------------------------------------------

    def show_whole_head(self):
        """Step 8: the chosen head's whole matrix of trained attention weights."""
        t, theme = self.trace, self.theme
        n, i, top = t.n_tokens, t.focus, t.top_key
        label_width = 1.3
        cell_width = min(0.95, (CONTENT_WIDTH - 0.1 - label_width - 0.15) / n)
        decimals = 2 if cell_width >= 0.74 else 1  # "0.00" needs 0.63 units at the smallest size; leave a gap
        heading = self.heading(f"{self.head_name.capitalize()}: all its trained weights")
        legend = VGroup(
            label(theme, "rows: queries", size=theme.small_size, color=theme.query),
            label(theme, "columns: keys", size=theme.small_size, color=theme.key),
            label(theme, f"{t.model.split('/')[-1]} on this sentence", size=theme.small_size, color=theme.muted),
        ).arrange(RIGHT, buff=0.6)
        fit(legend, CONTENT_WIDTH).next_to(heading, DOWN, buff=0.2).align_to(heading, LEFT)
        # Key labels sit on one baseline above their columns, at the readable size. A piece that fits its
        # column stays level ("'", "it": turned upright, a piece narrower than tall read as shrunk); a longer
        # one stands upright (a long word such as "because" on a staggered second row spilled over its neighbours).
        key_labels = VGroup(*[self.key_label(token, cell_width) for token in t.tokens])
        grid_top = legend.get_bottom()[1] - 0.25 - key_labels.height - 0.2
        cell_height = min(0.55, (grid_top - SAFE_BOTTOM) / n)
        # Narrow cells take the body font, whose digits are 13 % narrower: a gap between neighbours.
        cells = Cells(cell_width, cell_height, theme.min_size, mono=cell_width >= 0.85)
        labels = AxisLabels(label_width, theme.min_size)
        heatmap = weights_heatmap(self, "weights", t.tokens, None, decimals, cells=cells, labels=labels)
        favourites = sorted(set(t.row_top_keys))
        said_columns = favourites if len(favourites) <= 2 and top in favourites else []
        # Colour carries the pattern; only the numbers the lines talk about are printed (225 were a wall).
        self.print_only(heatmap, {(i, j) for j in range(n)} | {(r, j) for r in range(n) for j in said_columns})
        # Centred, then kept inside the edges (the row box reaches 0.05 past the map, and further left of the labels).
        heatmap.shift(UP * (grid_top - heatmap.cells.get_top()[1]) - RIGHT * heatmap.get_center()[0])
        keep_inside(heatmap, left=LEFT_EDGE + 0.05 + ROW_BOX_LABEL_ROOM, right=RIGHT_EDGE - 0.05)
        for j, key in enumerate(key_labels):
            key.next_to(heatmap.cell(0, j), UP, buff=0.15)
            if not key.upright:
                # Level: on the text's baseline (an apostrophe at the bottom read as a comma or a dash).
                key.shift(UP * self.ink_lift(t.tokens[j]))
        heatmap.col_labels = key_labels
        heatmap.add(key_labels)
        if t.top_key == i - 1:
            pattern = f"“{self.top_piece}”, the piece just before it."
        elif t.top_key == i + 1:
            pattern = f"“{self.top_piece}”, the piece just after it."
        else:
            pattern = f"“{self.top_piece}”, as we saw."
        shown_weight = format_number(t.top_weight, decimals)
        with self.step("whole-head", "The whole head: all its weights"):
            self.clear()
            self.say(f"Here is all of {self.head_name}: one row per query piece.")
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(legend))
            self.play(FadeIn(heatmap.cells), run_time=1.5)
            # Shown to two decimals, the row of "it" adds up to 1.01: the sum is exact only before rounding.
            self.say("Every row adds up to 1 before rounding.")
            self.wait(0.5)
            row_box = self.row_box(heatmap, i)
            self.say(f"The row of “{self.query_piece}” is the one we followed: {shown_weight} on {pattern}")
            self.play(FadeIn(row_box), FadeIn(VGroup(*[heatmap.number(i, j) for j in range(n)])))
            self.highlight(heatmap.cell(i, top), buff=0.0)
            if said_columns:
                # [CLS] is a piece, not a word: unquoted, so the voice does not call it "the word C L S".
                names = " or ".join(
                    f"the {t.tokens[j]} piece" if t.tokens[j].startswith("[") else f"“{t.tokens[j]}”" for j in favourites
                )
                self.say(f"In fact every row's largest weight goes to {names}.")
                self.play(
                    FadeOut(row_box),
                    FadeIn(VGroup(*[heatmap.number(r, j) for j in favourites for r in range(n) if r != i])),
                    run_time=1,
                )
                # Each row's largest weight outlined, and left outlined while the line is said.
                self.highlight(*[heatmap.cell(r, t.row_top_keys[r]) for r in range(n)], buff=0.0)
                count = t.row_top_keys.count(top)
                where = "every piece" if count == n else "most pieces" if 2 * count > n else "many pieces"
                self.say(
                    f"This head looks hardest at “{self.top_piece}” from {where} "
                    f"({format_number(count, 0)} of {format_number(n, 0)} rows), not only from “{self.query_piece}”."
                )
                self.highlight(*[heatmap.cell(r, top) for r in range(n) if t.row_top_keys[r] == top], buff=0.0)
            if not t.contrast_sentence:  # the counter-example step said it for the default sentence
                self.say("One head on one sentence shows a pattern, not understanding.")
                self.wait(0.5)
            self.say(
                f"Each of the {format_number(t.n_layers * t.n_heads, 0)} heads learns its own pattern; the model combines them all."
            )
            self.wait(0.5)

    def key_label(self, token: str, cell_width: float) -> Text:
        """A column's key at the readable size: level when it fits ``cell_width`` (a gap each side), else upright."""
        theme = self.theme
        text = label(theme, token, size=theme.min_size, color=theme.key)
        text.upright = text.width > cell_width - 0.1
        return text.rotate(PI / 2) if text.upright else text

    def ink_lift(self, token: str) -> float:
        """How far ``token``'s lowest ink sits above the text's baseline, at the key labels' size ("'" high, "the" at 0)."""
        reference = label(self.theme, f"x{token}", size=self.theme.min_size)
        return float(reference[1:].get_bottom()[1] - reference[0].get_bottom()[1])

    def row_box(self, heatmap, i: int) -> SurroundingRectangle:
        """A box around row ``i`` and its label, tight above and below (rows touch) but clear of the label's ink on the left."""
        box = SurroundingRectangle(VGroup(heatmap.row(i), heatmap.row_labels[i]), color=self.theme.highlight, buff=0.03)
        right = box.get_right()[0]
        box.stretch_to_fit_width(box.width + ROW_BOX_LABEL_ROOM)
        return box.shift(RIGHT * (right - box.get_right()[0]))
