"""Generating one token at a time with a KV cache, and the multiply-adds it saves.

Each new token writes its key
and value into the cache and attends with its one query row over the cache so far.
The scene runs one attention head of width d = 4; a real model keeps such a cache in
every layer, for every head (GPT-2 small's numbers close the scene).
"""

from __future__ import annotations

import textwrap

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    UR,
    CurvedArrow,
    FadeIn,
    FadeOut,
    Indicate,
    Line,
    Rectangle,
    ReplacementTransform,
    Square,
    SurroundingRectangle,
    Text,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED, THE_CAT_SAT, sentence_example
from attention_math.traces.kv_cache import kv_cache_trace

from .kit import ExplainerScene
from .kit.layout import (
    HEADING_LINE,
    HEADING_WIDTH,
    LEFT_EDGE,
    RIGHT_EDGE,
    SAFE_BOTTOM,
    SAFE_TOP,
    Region,
    center_in,
    keep_inside,
    pin,
)
from .kit.tables import TokenRow
from .kit.text import elided_label, formula, label
from .theme import format_number

CELL_W, CELL_H = 1.1, 0.5
"""A key, value, query or output cell: wide enough that "−0.99" at the dense size clears its borders."""
COLUMN_W = 1.0
"""A score or weight cell beside the caches (narrower: K, V and both columns must fit the frame's width)."""
K_FIRST_X = -5.2
"""Centre of the K cache's first cell; further right when long words need room on its left."""
MAX_LABEL_WIDTH = 0.9
"""Widest a token label left of the K cache gets (longer words are elided): K, the score and
weight columns and V then still fit between the safe edges (at 0.95, V reached 0.02 past the right one)."""
ROW_WIDTH = RIGHT_EDGE - LEFT_EDGE - 0.2
"""Widest the row of words in the first step gets."""
COLUMN_WIDTH = 3.6
"""Widest the column of words gets when the row would be too small to read (long words)."""
# Transforms between different mobjects use ReplacementTransform(source.copy(), target): TransformFromCopy
# would align the *target's* submobjects with the source's and leave it with duplicated cells.
WORDS_AT = UP * 0.8
"""Where the words in one row are (their query, key and value rows under them)."""
UNDER_CACHE = 0.8
"""From a cache's bottom to the middle of the query or output row under it."""
EQUAL_OUTPUTS_AT = DOWN * 0.2
"""Where the cached outputs, "=" and the recomputed ones are centred."""
FORMULAS_AT = UP * 2.0
"""Where the two counting formulas are, above the table of counts."""
COUNTS_AT = DOWN * 0.1 + RIGHT * 0.3
"""Where the table of counts per step is centred (its row names left of it)."""
TOTALS_COLUMNS_X = (-4.6, -1.6, 1.9, 5.3)
"""The centres of the columns of the totals table: tokens, with cache, without, ratio."""
TOTALS_HEADER_Y = 1.9
"""The height of the totals table's header."""
TOTALS_FIRST_ROW_Y, TOTALS_ROW_STEP = 1.0, 0.85
"""The height of the totals table's first row, and from one row to the next."""
MIDDLE_NAMED = 4
"""The most tokens between the first and the last step named in one line (more are counted instead)."""
TAKEAWAY_AT = DOWN * 0.2
"""Where the takeaway's lines are centred."""
PROJECTION_AT = DOWN * 3.15
"""Where the projection formula of the new token is, under the caches in step 2."""
WORK_TITLE_AT, MEMORY_TITLE_AT = LEFT * 3.4 + UP * 1.9, RIGHT * 3.4 + UP * 1.9
"""The takeaway's two sides: the work per step (left) and the memory kept (right)."""
REAL_MODEL_AT, GQA_AT = UP * 1.55, UP * 0.05
"""The middles of GPT-2 small's lines and of the grouped-query line above its picture."""

ORDINALS = {
    n: word
    for n, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
        "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(),
        start=1,
    )
}
"""The decimal place of a difference, said as a word ("the sixteenth decimal place")."""

CACHED_FORMULA = r"3d^2 + 2td"
FULL_FORMULA = r"3td^2 + 2t^2d"
CACHED_PARTS = r"\underbrace{3d^2}_{\text{project}} + \underbrace{td}_{q \cdot k} + \underbrace{td}_{\text{mix}}"
"""The per-step count with the cache, each part named: the formula the takeaway shows as CACHED_FORMULA."""
FULL_PARTS = r"\underbrace{3td^2}_{\text{project}} + \underbrace{t^2d}_{q \cdot k} + \underbrace{t^2d}_{\text{mix}}"
"""The per-step count without the cache, each part named: FULL_FORMULA."""


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
"""An exponent written raised in a caption ("10⁻¹⁶")."""

FLAT_BOTTOMED = set("1247EFHIKLMNTXZhiklmnrxz")
"""Glyphs that sit on the baseline with a flat bottom: no descender, no overshoot of a round letter."""


def baseline(text: Text) -> float | None:
    """The baseline's height under ``text``: the bottom of its first flat-bottomed glyph, else of a round letter or
    digit (which dips a hair below it), else None (symbols alone, such as "=")."""
    glyphs = "".join(c for c in text.original_text if not c.isspace())
    # A ligature ("fl" in "float32") is one glyph: only the glyphs before the first one match their characters.
    ligatures = [glyphs.find(pair) for pair in ("ff", "fi", "fl") if pair in glyphs]
    pairs = list(zip(glyphs[: min(ligatures, default=len(glyphs))], text.submobjects))
    for sits in (lambda c: c in FLAT_BOTTOMED, lambda c: c.isalnum() and c not in "gjpqyQJ"):
        bottom = next((glyph.get_bottom()[1] for c, glyph in pairs if sits(c)), None)
        if bottom is not None:
            return bottom
    return None


class KVCacheScene(ExplainerScene):
    name = "kv-cache"
    title = "The KV cache"
    description = "Generating token by token: one new query row against cached keys and values, and the work saved."
    sources = (
        "key/value caching in autoregressive decoding (e.g. Hugging Face transformers' past_key_values); "
        "GPT-2 small's sizes: Radford et al. 2019; grouped-query attention: Ainslie et al. 2023"
    )
    poster_step = "one-new-row"

    options = ("sentence", "seed")
    max_tokens = 8

    @classmethod
    def build_trace(cls, sentence: str | None = None, seed: int = DEFAULT_SEED):
        example = THE_CAT_SAT if sentence is None else sentence_example(sentence)
        return kv_cache_trace(example, seed)

    def construct(self):
        t = self.trace
        self.show_generation(t)
        self.show_cache(t)
        self.show_last_step(t)
        self.show_same_result(t)
        self.show_counts(t)
        self.show_totals(t)
        self.show_longer_texts(t)
        self.show_takeaway(t)
        self.show_real_model(t)

    # --- 1. one token at a time ---------------------------------------------------

    def show_generation(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("one-token-at-a-time", "Generating one token at a time"):
            heading = self.generation_heading()
            seeded = "a fixed random seed" if t.seed == DEFAULT_SEED else f"random seed {t.seed}"
            # Where every number of the scene comes from, on screen: the embeddings and the three matrices.
            if t.tokens == THE_CAT_SAT.tokens:
                embeddings = ("Embeddings made up by hand, not trained (“The” and “the” share one);",)
            else:
                embeddings = tuple(textwrap.wrap(t.embeddings_source, 64))
            note = self.note_lines((*embeddings, f"W_Q, W_K, W_V random ({seeded}): the numbers mean nothing."))
            row, column = self.token_row(t, heading, note)
            projections = self.projections_block(column)
            if column:
                # Right of the column and its arrows, centred in the room left there.
                left = row.get_right()[0] + 1.0
                center_in(projections, Region(left, RIGHT_EDGE, SAFE_BOTTOM, SAFE_TOP), y=row.get_y())
            else:
                projections.next_to(row, DOWN, buff=0.9)

            self.say("A model like GPT writes text one token at a time.")
            self.play(FadeIn(heading))
            self.say("Each new token attends to itself, the loop, and to every token before it.")
            arrows = highlight = VGroup()
            for i in range(n):
                self.play(FadeIn(row[i], shift=LEFT * 0.2), FadeOut(arrows), FadeOut(highlight), run_time=0.4)
                arrows = VGroup(*[self.attend_arrow(row, i, j, column) for j in range(i + 1)])
                # The outline stays with the arrows: the token attends to itself as well as to the ones before it.
                highlight = row[i][0].copy().set_stroke(theme.query, width=4)
                self.play(FadeIn(arrows), FadeIn(highlight), run_time=0.5)
                if i == min(2, n - 1):
                    self.say("Never to a token after it: that one does not exist yet.")
            self.say(f"The new token's query, key and value come from its embedding: each a row of d = {t.d} numbers.")
            self.play(Write(projections[0]), run_time=1.2)
            self.play(FadeIn(projections[1:]))
            self.say("Made-up embeddings, random matrices: no pattern here means anything.")
            self.play(FadeIn(note))

    def token_row(self, t, heading: Text, note: VGroup | None) -> tuple[VGroup, bool]:
        """The words in a row, or in a column left when a row would be too small to read (long words)."""
        theme = self.theme
        row = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.35, max_width=float("inf"))
        # Words that would shrink below 70% in one row (long ones) stand in a column instead.
        if row.width <= ROW_WIDTH / 0.7:
            if row.width > ROW_WIDTH:
                row.scale_to_fit_width(ROW_WIDTH)
            return row.move_to(WORDS_AT), False
        # A word too long for the column loses its end ("wwww…") rather than shrinking past the readable size.
        shown = [elided_label(theme, token, COLUMN_WIDTH - 0.3, size=theme.small_size).original_text for token in t.tokens]
        row = TokenRow(theme, shown, size=theme.small_size, max_width=float("inf"))
        row.arrange(DOWN, buff=0.1, aligned_edge=RIGHT)
        top = heading.get_bottom()[1] - 0.3
        bottom = (note.get_top()[1] if note is not None else -SAFE_TOP) + 0.25
        if row.width > COLUMN_WIDTH:
            row.scale_to_fit_width(COLUMN_WIDTH)
        if row.height > top - bottom:
            row.scale_to_fit_height(top - bottom)
        row.shift(RIGHT * (LEFT_EDGE + 0.3 - row.get_left()[0]) + UP * ((top + bottom) / 2 - row.get_y()))
        return row, True

    def projections_block(self, column: bool) -> VGroup:
        """q, k and v of the new token (in one line, or stacked beside a column), and the width d."""
        theme = self.theme
        lines = [r"q_t = x_t W_Q", r"k_t = x_t W_K", r"v_t = x_t W_V"]
        if column:
            projections = VGroup(*[formula(theme, line) for line in lines]).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        else:
            projections = formula(theme, r",\quad ".join(lines))
        width = VGroup(
            label(theme, "each a row of", size=theme.small_size, color=theme.muted),
            formula(theme, "d ="),
            self.number("d", 0, size=theme.body_size),
            label(theme, "numbers: one head", size=theme.small_size, color=theme.muted),
        ).arrange(RIGHT, buff=0.15)
        return VGroup(projections, width).arrange(DOWN, buff=0.4)

    def attend_arrow(self, row: VGroup, i: int, j: int, column: bool) -> CurvedArrow:
        """The arrow from word ``i`` back to word ``j``: an arc over the row, or right of the column; a loop when i = j."""
        style = dict(angle=0.9, color=self.theme.query, stroke_width=3, tip_length=0.15)
        if i == j:  # attending to itself: a loop above the word (right of it in a column)
            style["angle"] = -4.0 if column else 4.0
            if column:
                side = row[i].get_right() + RIGHT * 0.1
                return CurvedArrow(side + UP * 0.08, side + DOWN * 0.08, **style)
            return CurvedArrow(row[i].get_top() + UP * 0.05 + RIGHT * 0.12, row[i].get_top() + UP * 0.05 + LEFT * 0.12, **style)
        if column:
            x = row.get_right()[0] + 0.1
            return CurvedArrow([x, row[i].get_y(), 0], [x, row[j].get_y(), 0], **style)
        return CurvedArrow(row[i].get_top() + UP * 0.05, row[j].get_top() + UP * 0.05, **style)

    def generation_heading(self) -> Text:
        """ "“sentence”, token by token" when it fits the frame's width, else a heading without the sentence.

        Not "Generating “sentence”": a model with random weights does not write the sentence, it is fed in.
        """
        sentence = "“" + " ".join(self.trace.tokens) + "”, token by token"
        fits = label(self.theme, sentence, size=self.theme.title_size).width <= HEADING_WIDTH
        return self.heading(sentence if fits else "One token at a time, as in generation")

    # --- 2-3. the caches grow ------------------------------------------------------

    def row_names(self, t) -> tuple[list[str], float]:
        """The tokens as drawn left of a cache (long ones elided) and the width they take."""
        theme = self.theme
        texts = [elided_label(theme, token, MAX_LABEL_WIDTH, size=theme.small_size) for token in t.tokens]
        return [text.original_text for text in texts], max(text.width for text in texts)

    def width_note(self) -> VGroup:
        """ "d = 4" at the top right, beside the heading."""
        width = VGroup(formula(self.theme, r"d ="), self.number("d", 0, size=self.theme.body_size)).arrange(RIGHT, buff=0.15)
        return pin(width, RIGHT, y=HEADING_LINE)

    def cache_layout(self, t):
        """K cache, V cache, the score and weight columns between them, the query and output rows."""
        theme = self.theme
        names, label_w = self.row_names(t)
        # Long words get up to MAX_LABEL_WIDTH left of K: K moves right as far as that needs (V still fits).
        first_x = max(K_FIRST_X, LEFT_EDGE + 0.1 + label_w + 0.15 + CELL_W / 2)
        k = self.grid(
            "k",
            2,
            cell_width=CELL_W,
            cell_height=CELL_H,
            row_labels=names,
            row_label_color=theme.muted,
            font_size=theme.dense_number_size,
            row_label_width=label_w + 0.01,
        )
        v = self.grid("v", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.dense_number_size)
        k.cells.set_stroke(theme.key)
        v.cells.set_stroke(theme.value)
        # K's first cell at (first_x, 2.0); the columns and V follow to the right.
        k.shift(RIGHT * (first_x - k.cell(0, 0).get_x()) + UP * (2.0 - k.cell(0, 0).get_y()))
        self.score_x = k.cells.get_right()[0] + 0.25 + COLUMN_W / 2
        self.weight_x = self.score_x + COLUMN_W + 0.3
        v.shift(
            RIGHT * (self.weight_x + COLUMN_W / 2 + 0.25 - v.cells.get_left()[0])
            + UP * (k.cells.get_top()[1] - v.cells.get_top()[1])
        )
        titles = VGroup(
            label(theme, "K cache", size=theme.small_size, color=theme.key).next_to(k.cells, UP, buff=0.2),
            label(theme, "score", size=theme.small_size, color=theme.muted).move_to([self.score_x, 0, 0]),
            label(theme, "weight", size=theme.small_size).move_to([self.weight_x, 0, 0]),
            label(theme, "V cache", size=theme.small_size, color=theme.value).next_to(v.cells, UP, buff=0.2),
        )
        titles[1].set_y(titles[0].get_y())
        titles[2].set_y(titles[0].get_y())
        return k, v, titles

    def column(self, source, rows, x, cache):
        """A trace row drawn as a column, one cell beside each cache row it belongs to."""
        grid = self.grid(source, 2, cell_width=COLUMN_W, cell_height=CELL_H, font_size=self.theme.dense_number_size)
        for j in range(rows):
            grid.cells[j].move_to([x, cache.cell(j, 0).get_y(), 0])
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def query_row(self, step, k):
        theme = self.theme
        q = self.grid(f"q[{step}]", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.dense_number_size)
        q.cells.set_stroke(theme.query)
        q.move_to(k.cells).align_to(k.cells, LEFT).set_y(k.cells.get_bottom()[1] - UNDER_CACHE)
        return q

    def output_row(self, step, v):
        out = self.grid(f"outputs[{step}]", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=self.theme.dense_number_size)
        out.move_to(v.cells).align_to(v.cells, LEFT).set_y(v.cells.get_bottom()[1] - UNDER_CACHE)
        return out

    def step_parts(self, step: int, k, v):
        """Step ``step``'s query row, output row, and its score and weight columns beside the cache."""
        rows = step + 1
        return (
            self.query_row(step, k),
            self.output_row(step, v),
            self.column(f"scores[{step}, :{rows}]", rows, self.score_x, k),
            self.column(f"weights[{step}, :{rows}]", rows, self.weight_x, k),
        )

    def q_name(self, t, step: int) -> Text:
        """ "new q: “word”": which token the query row on screen belongs to."""
        names, _ = self.row_names(t)
        return label(self.theme, f"new q: “{names[step]}”", size=self.theme.small_size, color=self.theme.query)

    def show_cache(self, t):
        theme = self.theme
        last = len(t.tokens) - 1
        with self.step("cache-grows", "Keys and values are cached"):
            self.clear()
            heading = self.heading("Keys and values are cached")
            width = self.width_note()
            k, v, titles = self.cache_layout(t)
            out_name = label(theme, "output", size=theme.small_size)

            projection = formula(theme, r"q_t,\ k_t,\ v_t = x_t W_Q,\ x_t W_K,\ x_t W_V").move_to(PROJECTION_AT)
            self.say("Each step projects only the new token's embedding.")
            self.play(FadeIn(heading), FadeIn(width), FadeIn(titles), FadeIn(projection))
            # Step 0 in full: its query, key and value rows made, the key and value joining the caches, the score,
            # weight and output.
            q, out, scores, weights = self.step_parts(0, k, v)
            q_name = self.q_name(t, 0).next_to(q, UP, buff=0.1)
            out_name.next_to(out, UP, buff=0.1)
            # The new key and value rows are made under the query row, beside it, then move up into the caches.
            made_at = q.cells.get_y() - CELL_H - 0.25
            new_rows = VGroup(k.row(0), v.row(0))
            in_cache = [row.get_center() for row in new_rows]
            for row in new_rows:
                row.set_y(made_at)
            self.say("One query row, one key row and one value row.")
            # A long sentence's query row stands low: the new rows would cover the formula, which then goes.
            covered = new_rows.get_bottom()[1] < projection.get_top()[1] + 0.1
            self.play(FadeIn(q_name), FadeIn(q), FadeIn(new_rows), *([FadeOut(projection)] if covered else []), run_time=0.8)
            self.say("The key and value are appended to the caches: one row more per step.")
            self.play(
                *[row.animate.move_to(place) for row, place in zip(new_rows, in_cache)],
                FadeIn(k.row_labels[0]),
                run_time=0.8,
            )
            self.say(
                f"The query is scored against every cached key; d is {t.d}, so each score is divided by its square root, "
                f"{format_number(t.scale, 0)}."
            )
            self.play(FadeIn(scores), run_time=0.4)
            self.say("Softmax turns them into weights, which mix the cached values.")
            self.play(ReplacementTransform(scores.copy(), weights), run_time=0.5)
            self.play(FadeIn(out, shift=DOWN * 0.2), FadeIn(out_name), run_time=0.5)
            if last > 1:
                # The steps between the first and the last: each one's query row (named) and its new cache rows,
                # under one line; their scores and weights are left out (the last step shows them again).
                middle = [f"“{token}”" for token in t.tokens[1:last]]
                if len(middle) > MIDDLE_NAMED:  # long sentences: a count, not a line too long to read in time
                    words = f"the next {len(middle)} tokens"
                else:
                    words = middle[0] if len(middle) == 1 else ", ".join(middle[:-1]) + " and " + middle[-1]
                self.say(f"Then {words}: each adds a key row and a value row; nothing cached is recomputed.")
                # The projection formula goes too: a long sentence's caches reach down to where it stands.
                gone = [FadeOut(scores), FadeOut(weights), FadeOut(out), FadeOut(out_name)]
                self.play(*gone, *([] if covered else [FadeOut(projection)]), run_time=0.5)
                for step in range(1, last):
                    new_q = self.query_row(step, k)
                    new_name = self.q_name(t, step).next_to(new_q, UP, buff=0.1)
                    self.play(ReplacementTransform(q, new_q), ReplacementTransform(q_name, new_name), run_time=0.5)
                    self.add_cache_row(k, v, step, run_time=0.5)
                    q, q_name = new_q, new_name
                scores = weights = out = out_name = None
            self.cache = (k, v, q, q_name, out, out_name, scores, weights)

    def add_cache_row(self, k, v, step: int, run_time: float = 0.6) -> None:
        """Step ``step``'s key and value rows join the caches, with the token's name."""
        self.play(
            FadeIn(k.row_labels[step]),
            FadeIn(k.row(step), shift=DOWN * 0.2),
            FadeIn(v.row(step), shift=DOWN * 0.2),
            run_time=run_time,
        )

    def show_last_step(self, t):
        theme = self.theme
        n = len(t.tokens)
        last = n - 1
        k, v, q, q_name, out, out_name, scores, weights = self.cache
        top = int(t.weights[last].argmax())
        with self.step("one-new-row", "The last step: one new row"):
            new_q, new_out, new_scores, new_weights = self.step_parts(last, k, v)
            new_name = self.q_name(t, last).next_to(new_q, UP, buff=0.1)
            if out_name is None:
                out_name = label(theme, "output", size=theme.small_size).next_to(new_out, UP, buff=0.1)
            leaving = [FadeOut(m) for m in (scores, weights, out) if m is not None]

            self.say(f"The last step, “{t.tokens[last]}”: its key and value join the caches.")
            self.play(ReplacementTransform(q, new_q), ReplacementTransform(q_name, new_name), *leaving, run_time=0.8)
            self.add_cache_row(k, v, last)
            self.say(f"Its one query row meets {'both' if n == 2 else f'all {n}'} cached keys.")
            self.play(Indicate(new_q, color=theme.query, scale_factor=1.05), run_time=0.8)
            self.play(ReplacementTransform(k.cells.copy(), new_scores.cells), FadeIn(new_scores.numbers), run_time=1.2)
            self.say(
                f"Softmax gives the largest weight, {format_number(t.weights[last, top], 2)}, to “{t.tokens[top]}”; "
                "the matrices are random, so that means nothing."
            )
            self.play(ReplacementTransform(new_scores.copy(), new_weights), run_time=1.0)
            # The key, weight and value of one token, its name left outside (a box around the name touched it).
            framed = VGroup(k.row(top), new_weights.cells[top], v.row(top))
            # A long sentence's caches reach the safe area's right edge: the outline keeps inside it.
            buff = max(0.0, min(0.04, RIGHT_EDGE - framed.get_right()[0] - 0.02))
            box = SurroundingRectangle(framed, color=theme.highlight, buff=buff)
            self.play(FadeIn(box), run_time=0.6)
            self.say("The output is the weighted sum of the cached values.")
            self.play(
                FadeIn(out_name), ReplacementTransform(v.cells.copy(), new_out.cells), FadeIn(new_out.numbers), run_time=1.2
            )

    # --- 4. the same as recomputing ------------------------------------------------

    def show_same_result(self, t):
        theme = self.theme
        with self.step("same-as-recomputing", "Cached = recomputed from scratch"):
            self.clear()
            heading = self.heading("Cached = recomputed from scratch")
            names, label_w = self.row_names(t)
            cached = self.grid(
                "outputs",
                2,
                cell_width=CELL_W,
                cell_height=CELL_H,
                row_labels=names,
                row_label_color=theme.muted,
                font_size=theme.dense_number_size,
                row_label_width=label_w + 0.01,
            )
            full = self.grid("recomputed_outputs", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.dense_number_size)
            equals = label(theme, "=", size=theme.title_size)
            VGroup(cached, equals, full).arrange(RIGHT, buff=0.5).move_to(EQUAL_OUTPUTS_AT)
            titles = VGroup(
                label(theme, "with the cache", size=theme.small_size, color=theme.key).next_to(cached.cells, UP, buff=0.25),
                label(theme, "full causal attention,\nlast row each step", size=theme.small_size, color=theme.value).next_to(
                    full.cells, UP, buff=0.25
                ),
            )
            titles[0].align_to(titles[1], DOWN)
            verdict = self.difference_line(t).next_to(VGroup(cached, full), DOWN, buff=0.45)

            self.say("Is the cache exact? Here is every step's output with it.")
            self.play(FadeIn(heading), FadeIn(titles[0]), FadeIn(cached), run_time=1.2)
            self.say("Now recompute full causal attention at each step, keeping its last row.")
            self.play(FadeIn(titles[1]), FadeIn(equals), FadeIn(full), run_time=1.2)
            if t.difference_decimals:
                shown = format_number(t.max_difference, t.difference_decimals)
                digit = shown[-1]
                place = ORDINALS.get(t.difference_decimals, f"{t.difference_decimals}th")
                power = f"{t.difference_digit} × 10" + str(t.difference_exponent).translate(SUPERSCRIPTS)
                self.say(
                    f"Every output matches; the largest difference, {power}, is rounding.",
                    spoken=f"Every output matches: the largest difference is a {digit} in the {place} decimal place, "
                    "only the computer's rounding.",
                )
            else:
                self.say("Every output matches, digit for digit: no difference at all.")
            self.play(Write(verdict))
            self.say("Why the same? No token looks at a later one, so a key or value, once written, never changes.")

    def difference_line(self, t) -> VGroup:
        """The largest difference between the cached and the recomputed outputs, in words and as a number."""
        theme = self.theme
        words = dict(size=theme.small_size, color=theme.highlight)
        if not t.difference_decimals:
            return label(theme, "no difference at all, in any digit", **words)
        # "2 × 10⁻¹⁶", not sixteen decimals no one can count from the back of a room.
        line = self.words_and_numbers(
            ("largest difference:", ("difference_digit", 0), "× 10", "(the computer's rounding)"), color=theme.highlight
        )
        exponent = self.number("difference_exponent", 0, size=theme.min_size, color=theme.highlight, mono=False)
        exponent.next_to(line[2].get_corner(UR), RIGHT, buff=0.04)  # raised: its middle at the top of "10"
        line[3].next_to(exponent, RIGHT, buff=0.2).align_to(line[2], DOWN)
        return VGroup(*line[:3], exponent, line[3])

    # --- 5-7. counting the work ------------------------------------------------------

    def show_counts(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("count-multiply-adds", "Multiply-adds per step"):
            self.clear()
            heading = self.heading("Multiply-adds per step, one head")
            width = self.width_note()
            cached_formula = formula(theme, r"\text{with cache: }", CACHED_PARTS)
            full_formula = formula(theme, r"\text{without: }", FULL_PARTS)
            cached_formula[1].set_color(theme.key)
            full_formula[1].set_color(theme.query)
            VGroup(cached_formula, full_formula).arrange(RIGHT, buff=1.0).move_to(FORMULAS_AT)
            steps = self.grid("step_tokens", 0, cell_width=CELL_W, cell_height=CELL_H)
            steps.cells.set_stroke(width=0)
            cached = self.grid("macs_cached", 0, cell_width=CELL_W, cell_height=CELL_H)
            full = self.grid("macs_full", 0, cell_width=CELL_W, cell_height=CELL_H)
            cached.cells.set_stroke(theme.key)
            full.cells.set_stroke(theme.query)
            VGroup(steps, cached, full).arrange(DOWN, buff=0.15).move_to(COUNTS_AT)
            names = VGroup(
                formula(theme, r"t ="),
                label(theme, "with cache", size=theme.small_size, color=theme.key),
                label(theme, "without", size=theme.small_size, color=theme.query),
            )
            for name, row in zip(names, (steps, cached, full)):
                name.next_to(row, LEFT, buff=0.3)

            self.say("Count one head's multiply-adds at step t, with t tokens so far.")
            self.play(FadeIn(heading), FadeIn(width), FadeIn(names[0]), FadeIn(steps))
            self.say(
                "With the cache: project one token, 3d², score one row, td, mix the values, td.",
                spoken="With the cache: project one token, three d squared; score one row, t d; mix the values, t d.",
            )
            self.play(Write(cached_formula), run_time=1.2)
            self.say(
                "Without it: project all t tokens, 3td², score t × t pairs, t²d, mix t rows, t²d.",
                spoken="Without it: project all t tokens, three t d squared; score t by t pairs, t squared d; "
                "mix t rows, t squared d.",
            )
            self.play(Write(full_formula), run_time=1.2)
            why = self.note_lines(
                (
                    "Without a cache, a model reruns the whole text through every layer:",
                    "each layer's keys and values come from the layer below, for every earlier token.",
                    "Counted here: one head of one such layer.",
                )
            )
            self.say(
                "Why all t rows? Without a cache, a model reruns the whole text through every layer, "
                "because each layer's keys come from the layer below."
            )
            self.play(FadeIn(why), run_time=0.6)
            self.say(f"Step by step, for our {n} tokens:")
            self.play(FadeIn(names[1:]), run_time=0.5)
            for i in range(n):
                self.play(FadeIn(cached.column(i)), FadeIn(full.column(i)), run_time=0.45)
            self.counts = (steps, cached, full)

    def show_totals(self, t):
        theme = self.theme
        n = len(t.tokens)
        steps, cached, full = self.counts
        with self.step("totals", "Totals: with and without the cache"):
            total_title = label(theme, "total", size=theme.small_size, color=theme.muted)
            totals = VGroup(self.number("total_cached", 0, color=theme.key), self.number("total_full", 0, color=theme.query))
            for total, row in zip(totals, (cached, full)):
                total.next_to(row, RIGHT, buff=0.4)
            totals[1].align_to(totals[0], LEFT)
            total_title.next_to(totals, UP, buff=0.1).set_y(steps.get_y())
            ratio = VGroup(
                label(theme, "without ÷ with =", size=theme.body_size),
                self.number("saving_ratio", 2, size=theme.body_size, color=theme.highlight),
            ).arrange(RIGHT, buff=0.2)
            ratio.next_to(VGroup(steps, cached, full), DOWN, buff=0.5)

            self.say(
                f"Add up the {n} steps: {format_number(t.total_cached, 0)} multiply-adds with the cache, "
                f"{format_number(t.total_full, 0)} without."
            )
            self.play(
                FadeIn(total_title),
                ReplacementTransform(cached.numbers.copy(), totals[0]),
                ReplacementTransform(full.numbers.copy(), totals[1]),
                run_time=1.5,
            )
            self.say(f"For this head, recomputing costs {format_number(t.saving_ratio, 2)} times as much.")
            self.play(FadeIn(ratio, shift=UP * 0.2))

    def show_longer_texts(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("longer-texts", "Longer texts: the gap widens"):
            self.clear()
            heading = self.heading("One head's multiply-adds for n tokens")
            note = self.note_lines(
                (
                    f"Counted: one attention head of one layer, d = {t.d}: projections, scores q · k, mixing.",
                    "Projecting costs 3d² only because here the embeddings are as wide as the head;",
                    "a real model's are wider, and it does this in every head and layer, plus a feed-forward layer.",
                )
            )
            width = self.width_note()
            header = VGroup(
                label(theme, "tokens n", color=theme.muted),
                label(theme, "with cache", color=theme.key),
                label(theme, "without", color=theme.query),
                label(theme, "ratio", color=theme.highlight),
            )
            for text, x in zip(header, TOTALS_COLUMNS_X):
                text.move_to([x, TOTALS_HEADER_Y, 0])
            fields = [(f"step_tokens[{n - 1}]", "total_cached", "total_full", "saving_ratio", 2)] + [
                (f"long_lengths[{i}]", f"long_cached[{i}]", f"long_full[{i}]", f"long_ratios[{i}]", 0)
                for i in range(len(t.long_lengths))
            ]
            rows = []
            for r, (length, with_cache, without, ratio, decimals) in enumerate(fields):
                row = VGroup(
                    self.number(length, 0, size=theme.body_size),
                    self.number(with_cache, 0, size=theme.body_size, color=theme.key),
                    self.number(without, 0, size=theme.body_size, color=theme.query),
                    self.number(ratio, decimals, size=theme.body_size, color=theme.highlight),
                )
                for text, x in zip(row, TOTALS_COLUMNS_X):
                    text.move_to([x, TOTALS_FIRST_ROW_Y - TOTALS_ROW_STEP * r, 0])
                rows.append(row)

            self.say("Longer texts widen the gap fast.")
            self.play(FadeIn(heading), FadeIn(width), FadeIn(header), FadeIn(note))
            for row in rows:
                self.play(FadeIn(row, shift=UP * 0.15), run_time=0.7)
            self.say(
                f"At {format_number(t.long_lengths[-1], 0)} tokens, recomputing costs this head "
                f"{format_number(t.long_ratios[-1], 0)} times the work of the cache."
            )
            self.play(Indicate(rows[-1][3], color=theme.highlight))
            self.say(
                "Each step without the cache redoes work that grows with t².",
                spoken="Each step without the cache redoes work that grows with t squared.",
            )
            self.play(Indicate(rows[-1][2], color=theme.query))

    # --- 8. takeaway ---------------------------------------------------------------------

    def show_takeaway(self, t):
        theme = self.theme
        n = len(t.tokens)
        with self.step("takeaway", "The KV cache: memory for compute"):
            self.clear()
            heading = self.heading("The KV cache: memory for compute")
            titles = VGroup(
                label(theme, "work per step", size=theme.body_size),
                label(theme, "memory kept", size=theme.body_size),
            )
            titles[0].move_to(WORK_TITLE_AT)
            titles[1].move_to(MEMORY_TITLE_AT)
            work = VGroup(
                VGroup(
                    label(theme, "with the cache:", size=theme.small_size, color=theme.key), formula(theme, CACHED_FORMULA)
                ).arrange(DOWN, buff=0.2),
                VGroup(
                    label(theme, "recomputing:", size=theme.small_size, color=theme.query), formula(theme, FULL_FORMULA)
                ).arrange(DOWN, buff=0.2),
            ).arrange(DOWN, buff=0.45)
            work.next_to(titles[0], DOWN, buff=0.5)
            # The two caches as stacks of rows, one key row and one value row per token: what the cache keeps.
            block_w = 0.4
            caches = VGroup()
            for color in (theme.key, theme.value):
                rows = VGroup(
                    *[
                        VGroup(*[Rectangle(width=block_w, height=0.3) for _ in range(t.d)]).arrange(RIGHT, buff=0)
                        for _ in range(n)
                    ]
                ).arrange(DOWN, buff=0)
                rows.set_stroke(color, width=2)
                caches.add(rows)
            caches.arrange(RIGHT, buff=0.6).next_to(titles[1], DOWN, buff=0.55)
            cache_names = VGroup(
                label(theme, "K", size=theme.small_size, color=theme.key).next_to(caches[0], LEFT, buff=0.15),
                label(theme, "V", size=theme.small_size, color=theme.value).next_to(caches[1], RIGHT, buff=0.15),
            )
            memory = VGroup(
                formula(theme, r"2 \times n \times d ="),
                self.number("cache_floats", 0, size=theme.body_size),
                label(theme, "numbers", size=theme.small_size, color=theme.muted),
            ).arrange(RIGHT, buff=0.2)
            memory.next_to(caches, DOWN, buff=0.4)

            self.say("The KV cache trades memory for compute.")
            self.play(FadeIn(heading), FadeIn(titles), run_time=0.8)
            self.say("Each new token costs one row of work, not a rerun of the whole text.")
            self.play(FadeIn(work, shift=UP * 0.2), run_time=0.8)
            self.say(
                f"In exchange it keeps every key and value, one row more per token: "
                f"{format_number(t.cache_floats, 0)} numbers here."
            )
            self.play(FadeIn(cache_names), run_time=0.3)
            for i in range(n):
                self.play(FadeIn(caches[0][i], shift=DOWN * 0.1), FadeIn(caches[1][i], shift=DOWN * 0.1), run_time=0.3)
            self.play(FadeIn(memory, shift=UP * 0.2), run_time=0.6)

    def words_and_numbers(self, parts, color: str | None = None) -> VGroup:
        """One line of words and trace numbers in the same face and size: a part is text or ``(path, decimals)``."""
        theme = self.theme
        line = VGroup()
        for part in parts:
            if isinstance(part, tuple):
                line.add(self.number(part[0], part[1], size=theme.small_size, color=theme.highlight, mono=False))
            else:
                line.add(label(theme, part, size=theme.small_size, color=color))
        line.arrange(RIGHT, buff=0.15)
        # On one baseline: a bottom edge jumps with descenders ("layers,"), a centre with ascenders.
        baselines = [baseline(part) for part in line]
        base = next(b for b in baselines if b is not None)
        middle = label(theme, "x", size=theme.small_size)
        middle.shift(UP * (base - middle.get_bottom()[1]))
        for part, b in zip(line, baselines):
            if b is None:  # a symbol alone ("=", "×"): on the middle of the lowercase letters
                part.set_y(middle.get_y())
            else:
                part.shift(UP * (base - b))
        return line

    def show_real_model(self, t):
        theme = self.theme
        with self.step("real-model", "A real model's cache"):
            self.clear()
            heading = self.heading("A real model's cache")
            real = VGroup(
                self.words_and_numbers(
                    (
                        f"{t.real_model}:",
                        ("real_layers", 0),
                        "layers, each",
                        ("real_heads", 0),
                        "heads ×",
                        ("real_head_size", 0),
                        "=",
                        ("real_d_model", 0),
                        "wide",
                    )
                ),
                self.words_and_numbers(
                    (
                        "a key and a value per layer: 2 ×",
                        ("real_layers", 0),
                        "×",
                        ("real_d_model", 0),
                        "=",
                        ("real_numbers_per_token", 0),
                        "numbers per token",
                    )
                ),
                self.words_and_numbers(
                    (
                        "at its full context of",
                        ("real_context", 0),
                        "tokens:",
                        ("real_cache_numbers", 0),
                        "numbers,",
                        ("real_cache_mib", 0),
                        "MiB in float32",
                    )
                ),
            ).arrange(DOWN, buff=0.25, aligned_edge=LEFT)
            real.move_to(REAL_MODEL_AT)
            gqa = self.words_and_numbers(
                (
                    f"{t.gqa_model}:",
                    ("gqa_query_heads", 0),
                    "query heads share",
                    ("gqa_kv_heads", 0),
                    "key and value heads",
                ),
                color=theme.muted,
            )
            gqa.move_to(GQA_AT)
            picture = self.shared_heads_picture(t).next_to(gqa, DOWN, buff=0.35)
            picture.shift(LEFT * picture[0][0].get_x())  # the heads centred, their names in the margin
            keep_inside(picture)
            fewer = self.words_and_numbers(
                (
                    "per token and layer:",
                    ("gqa_shrink", 0),
                    "times fewer numbers,",
                    ("gqa_shared_numbers", 0),
                    "not",
                    ("gqa_separate_numbers", 0),
                ),
                color=theme.value,
            )
            fewer.next_to(picture, DOWN, buff=0.35)
            source = self.note_lines(("Llama 2: Touvron et al. 2023; grouped-query attention: Ainslie et al. 2023",))

            self.say(f"{t.real_model} keeps a cache in each of its {t.real_layers} layers, {t.real_heads} heads each.")
            self.play(FadeIn(heading), FadeIn(real[:2], shift=UP * 0.2), run_time=0.8)
            self.say(
                f"At its full context of {format_number(t.real_context, 0)} tokens: "
                f"{format_number(t.real_cache_mib, 0)} MiB in float32, for one text."
            )
            self.play(FadeIn(real[2], shift=UP * 0.2), run_time=0.8)
            self.say(
                f"Grouped-query attention shrinks it: in {t.gqa_model}, {t.gqa_query_heads} query heads share "
                f"{t.gqa_kv_heads} key and value heads."
            )
            self.play(FadeIn(gqa), FadeIn(source), run_time=0.6)
            self.play(FadeIn(picture[0]), run_time=0.6)
            self.play(FadeIn(picture[1]), FadeIn(picture[2]), run_time=0.8)
            self.say(f"So {format_number(t.gqa_shrink, 0)} times fewer numbers per token and layer.")
            self.play(FadeIn(fewer, shift=UP * 0.2), run_time=0.8)

    def shared_heads_picture(self, t) -> VGroup:
        """The query heads (small squares) in groups, each group's lines meeting its one shared key/value head.

        Returns (query heads, lines, key/value heads); the counts come from the trace.
        """
        theme = self.theme
        group = t.gqa_query_heads // t.gqa_kv_heads
        side, gap = 0.09, 0.03
        queries, shared = VGroup(), VGroup()
        groups = VGroup()
        for _ in range(t.gqa_kv_heads):
            heads = VGroup(*[Square(side) for _ in range(group)]).arrange(RIGHT, buff=gap)
            heads.set_stroke(theme.query, width=2).set_fill(theme.query, opacity=0.6)
            pair = VGroup(Square(0.22), Square(0.22)).arrange(RIGHT, buff=0.04)
            pair[0].set_stroke(theme.key, width=2).set_fill(theme.key, opacity=0.6)
            pair[1].set_stroke(theme.value, width=2).set_fill(theme.value, opacity=0.6)
            pair.next_to(heads, DOWN, buff=0.6)
            queries.add(heads)
            shared.add(pair)
            groups.add(VGroup(heads, pair))
        groups.arrange(RIGHT, buff=0.25)
        # Each query head's line to the one key/value head its group shares.
        lines = VGroup(
            *[
                Line(head.get_bottom(), pair.get_top(), stroke_width=1.5, color=theme.muted)
                for heads, pair in zip(queries, shared)
                for head in heads
            ]
        )
        names = VGroup(
            label(theme, "query heads", size=theme.min_size, color=theme.query).next_to(queries, LEFT, buff=0.2),
            label(theme, "key, value", size=theme.min_size, color=theme.key).next_to(shared, LEFT, buff=0.2),
        )
        names[1].set_y(shared.get_y())
        names[0].set_y(queries.get_y())
        return VGroup(VGroup(queries, names[0]), lines, VGroup(shared, names[1]))
