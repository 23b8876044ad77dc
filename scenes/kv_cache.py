"""Generating one token at a time with a KV cache, and the multiply-adds it saves.

Follows seed 004 slide 13 (``CachedAttention``): each new token writes its key
and value into the cache and attends with its one query row over the cache so far.
"""

from __future__ import annotations

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
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    VGroup,
    Write,
)

from attention_math import DEFAULT_SEED, THE_CAT_SAT, sentence_example
from attention_math.traces.kv_cache import kv_cache_trace

from .kit import ExplainerScene
from .kit.components import TokenRow, formula, label
from .kit.layout import HEADING_WIDTH, LEFT_EDGE
from .theme import format_number

CELL_W, CELL_H = 0.95, 0.5
K_FIRST_X = -5.2
"""Centre of the K cache's first cell; further right when long words need room on its left."""
MAX_LABEL_WIDTH = 3.2
"""Widest a token label left of the K cache gets: the cache and V keep their place in the frame."""
ROW_WIDTH = 13.0
"""Widest the row of words in the first step gets."""
COLUMN_WIDTH, COLUMN_HEIGHT = 3.6, 5.4
"""Largest the column of words gets when the row would be too small to read (long words)."""
# Transforms between different mobjects use ReplacementTransform(source.copy(), target): TransformFromCopy
# would align the *target's* submobjects with the source's and leave it with duplicated cells.
CACHED_FORMULA = r"3d^2 + 2td"
FULL_FORMULA = r"3td^2 + 2t^2d"


class KVCacheScene(ExplainerScene):
    name = "kv-cache"
    title = "The KV cache"
    description = "Generating token by token: one new query row against cached keys and values, and the work saved."
    sources = "seed 004 slide 13 'Performance Optimization with Attention Caching' (CachedAttention)"

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
        self.show_same_result(t)
        self.show_counts(t)
        self.show_takeaway(t)

    # --- 1. one token at a time ---------------------------------------------------

    def show_generation(self, t):
        theme = self.theme
        n = len(t.tokens)
        caption = (
            "A model like GPT writes text one token at a time. "
            "Each new token attends to itself and to every token before it, never to the future."
        )
        with self.step("one-token-at-a-time", caption):
            heading = self.generation_heading()
            row = TokenRow(theme, t.tokens, size=theme.body_size, buff=0.35, max_width=float("inf"))
            # Words that would shrink below 70% in one row (long ones) stand in a column instead.
            column = row.width > ROW_WIDTH / 0.7
            if column:
                row = TokenRow(theme, t.tokens, size=theme.small_size, max_width=float("inf"))
                row.arrange(DOWN, buff=0.12, aligned_edge=RIGHT)
                if row.width > COLUMN_WIDTH:
                    row.scale_to_fit_width(COLUMN_WIDTH)
                if row.height > COLUMN_HEIGHT:
                    row.scale_to_fit_height(COLUMN_HEIGHT)
                row.shift(RIGHT * (LEFT_EDGE + 0.3 - row.get_left()[0]) + UP * (-0.15 - row.get_y()))
            else:
                if row.width > ROW_WIDTH:
                    row.scale_to_fit_width(ROW_WIDTH)
                row.move_to(UP * 0.3)
            self.play(FadeIn(heading))
            arrows = VGroup()
            for i in range(n):
                self.play(FadeIn(row[i], shift=LEFT * 0.2), FadeOut(arrows), run_time=0.5)
                arrows = VGroup(*[self.attend_arrow(row, i, j, column) for j in range(i)])
                highlight = row[i][0].copy().set_stroke(theme.query, width=4)
                self.play(FadeIn(arrows), FadeIn(highlight), run_time=0.6)
                self.remove(highlight)
            projections = formula(theme, r"q_t = x_t W_Q, \quad k_t = x_t W_K, \quad v_t = x_t W_V", size=theme.formula_size)
            note = label(theme, "each step: the new token's query, key and value", size=theme.small_size, color=theme.muted)
            text = VGroup(projections, note).arrange(DOWN, buff=0.35)
            if t.tokens != THE_CAT_SAT.tokens:
                # A teacher's sentence: say where its embeddings come from.
                text.add(self.source_note(t.embeddings_source)).arrange(DOWN, buff=0.35)
                text[-1].shift(DOWN * 0.1)
            if column:
                # Right of the column and its arrows, centred in the room left there.
                left = row.get_right()[0] + 1.0
                if text.width > -LEFT_EDGE - left:
                    text.scale_to_fit_width(-LEFT_EDGE - left)
                text.move_to([(left - LEFT_EDGE) / 2, row.get_y(), 0])
            else:
                text.next_to(row, DOWN, buff=1.0)
            self.play(Write(projections), FadeIn(note))
            if len(text) > 2:
                self.play(FadeIn(text[2]))

    def attend_arrow(self, row: VGroup, i: int, j: int, column: bool) -> CurvedArrow:
        """The arrow from word ``i`` back to word ``j``: an arc over the row, or right of the column."""
        style = dict(angle=0.9, color=self.theme.query, stroke_width=3, tip_length=0.15)
        if column:
            x = row.get_right()[0] + 0.1
            return CurvedArrow([x, row[i].get_y(), 0], [x, row[j].get_y(), 0], **style)
        return CurvedArrow(row[i].get_top() + UP * 0.05, row[j].get_top() + UP * 0.05, **style)

    def generation_heading(self) -> Text:
        """ "Generating “sentence”" when it fits the frame's width, else a heading without the sentence."""
        sentence = "Generating “" + " ".join(self.trace.tokens) + "”"
        fits = label(self.theme, sentence, size=self.theme.title_size).width <= HEADING_WIDTH
        return self.heading(sentence if fits else "Generating one token at a time")

    # --- 2-3. the caches grow ------------------------------------------------------

    def cache_layout(self, t):
        """K cache, V cache, the score and weight columns between them, the query and output rows."""
        theme = self.theme
        # Long words get up to MAX_LABEL_WIDTH left of K: K moves right as far as that needs (V still fits).
        natural = max(label(theme, token, size=theme.small_size).width for token in t.tokens)
        label_w = min(natural, MAX_LABEL_WIDTH)
        first_x = max(K_FIRST_X, LEFT_EDGE + label_w + 0.15 + CELL_W / 2)
        k = self.grid(
            "k",
            2,
            cell_width=CELL_W,
            cell_height=CELL_H,
            row_labels=t.tokens,
            row_label_color=theme.muted,
            font_size=theme.min_size,
            row_label_width=label_w,
        )
        v = self.grid("v", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.min_size)
        k.cells.set_stroke(theme.key)
        v.cells.set_stroke(theme.value)
        # K's first cell at (first_x, 2.0); the columns and V follow to the right.
        k.shift(RIGHT * (first_x - k.cell(0, 0).get_x()) + UP * (2.0 - k.cell(0, 0).get_y()))
        self.score_x = k.cells.get_right()[0] + 0.35 + CELL_W / 2
        self.weight_x = self.score_x + CELL_W + 0.3
        v.shift(
            RIGHT * (self.weight_x + CELL_W / 2 + 0.35 - v.cells.get_left()[0])
            + UP * (k.cells.get_top()[1] - v.cells.get_top()[1])
        )
        titles = VGroup(
            label(theme, "K cache", size=theme.small_size, color=theme.key).next_to(k.cells, UP, buff=0.2),
            label(theme, "score", size=theme.small_size, color=theme.muted).move_to([self.score_x, 0, 0]),
            label(theme, "weight", size=theme.small_size, color=theme.value).move_to([self.weight_x, 0, 0]),
            label(theme, "V cache", size=theme.small_size, color=theme.value).next_to(v.cells, UP, buff=0.2),
        )
        titles[1].set_y(titles[0].get_y())
        titles[2].set_y(titles[0].get_y())
        return k, v, titles

    def column(self, source, rows, x, cache):
        """A trace row drawn as a column, one cell beside each cache row it belongs to."""
        grid = self.grid(source, 2, cell_width=CELL_W, cell_height=CELL_H, font_size=self.theme.min_size)
        for j in range(rows):
            grid.cells[j].move_to([x, cache.cell(j, 0).get_y(), 0])
            grid.numbers[j].move_to(grid.cells[j])
        return grid

    def query_row(self, step, k):
        theme = self.theme
        q = self.grid(f"q[{step}]", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.min_size)
        q.cells.set_stroke(theme.query)
        q.move_to(k.cells).align_to(k.cells, LEFT).set_y(k.cells.get_bottom()[1] - 0.75)
        return q

    def output_row(self, step, v):
        out = self.grid(f"outputs[{step}]", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=self.theme.min_size)
        out.move_to(v.cells).align_to(v.cells, LEFT).set_y(v.cells.get_bottom()[1] - 0.75)
        return out

    def show_cache(self, t):
        theme = self.theme
        n = len(t.tokens)
        last = n - 1
        caption = (
            "At each step only the new token is projected: one query row, one key row and one value row. "
            "The key and value are appended to the caches, which grow by one row per step; "
            "the query is scored against every cached key and mixes the cached values."
        )
        with self.step("cache-grows", caption):
            self.clear()
            heading = self.heading("Keys and values are cached")
            k, v, titles = self.cache_layout(t)
            q_name = label(theme, "new q", size=theme.small_size, color=theme.query)
            out_name = label(theme, "output", size=theme.small_size)
            self.play(FadeIn(heading), FadeIn(titles))
            q = out = scores = weights = None
            for step in range(last):
                new_q, new_out = self.query_row(step, k), self.output_row(step, v)
                new_scores = self.column(f"scores[{step}, :{step + 1}]", step + 1, self.score_x, k)
                new_weights = self.column(f"weights[{step}, :{step + 1}]", step + 1, self.weight_x, k)
                if q is None:
                    q_name.next_to(new_q, LEFT, buff=0.2)
                    out_name.next_to(new_out, UP, buff=0.15)
                    self.play(FadeIn(q_name), FadeIn(new_q), run_time=0.6)
                else:
                    self.play(ReplacementTransform(q, new_q), FadeOut(scores), FadeOut(weights), FadeOut(out), run_time=0.6)
                self.play(
                    FadeIn(k.row_labels[step]),
                    FadeIn(k.row(step), shift=DOWN * 0.2),
                    FadeIn(v.row(step), shift=DOWN * 0.2),
                    run_time=0.6,
                )
                self.play(FadeIn(new_scores), run_time=0.4)
                self.play(ReplacementTransform(new_scores.copy(), new_weights), run_time=0.5)
                self.play(FadeIn(new_out, shift=DOWN * 0.2), FadeIn(out_name), run_time=0.5)
                q, out, scores, weights = new_q, new_out, new_scores, new_weights

        token = t.tokens[last]
        top = int(t.weights[last].argmax())
        caption = (
            f"The last step, “{token}”: its query meets {'both' if n == 2 else f'all {n}'} cached keys. "
            f"Softmax gives the largest weight, {format_number(t.weights[last, top], 2)}, to “{t.tokens[top]}”, "
            "and the output is the weighted sum of the cached values."
        )
        with self.step("one-new-row", caption):
            new_q, new_out = self.query_row(last, k), self.output_row(last, v)
            new_scores = self.column(f"scores[{last}, :{n}]", n, self.score_x, k)
            new_weights = self.column(f"weights[{last}, :{n}]", n, self.weight_x, k)
            self.play(ReplacementTransform(q, new_q), FadeOut(scores), FadeOut(weights), FadeOut(out), run_time=0.8)
            self.play(
                FadeIn(k.row_labels[last]),
                FadeIn(k.row(last), shift=DOWN * 0.2),
                FadeIn(v.row(last), shift=DOWN * 0.2),
                run_time=0.8,
            )
            self.play(Indicate(new_q, color=theme.query, scale_factor=1.05), run_time=0.8)
            self.play(ReplacementTransform(k.cells.copy(), new_scores.cells), FadeIn(new_scores.numbers), run_time=1.2)
            self.play(ReplacementTransform(new_scores.copy(), new_weights), run_time=1.0)
            box = SurroundingRectangle(
                VGroup(new_weights.cells[top], k.row_labels[top], v.row(top)), color=theme.highlight, buff=0.04
            )
            self.play(FadeIn(box), run_time=0.6)
            self.play(ReplacementTransform(v.cells.copy(), new_out.cells), FadeIn(new_out.numbers), run_time=1.2)
            self.wait(1)

    # --- 4. the same as recomputing ------------------------------------------------

    def show_same_result(self, t):
        theme = self.theme
        caption = (
            "Is the cache exact? Recompute full causal attention from scratch over the tokens so far and keep its last row. "
            f"Every output matches the cached one: numpy's allclose says {t.outputs_match}."
        )
        with self.step("same-as-recomputing", caption):
            self.clear()
            heading = self.heading("Cached = recomputed from scratch")
            cached = self.grid(
                "outputs",
                2,
                cell_width=CELL_W,
                cell_height=CELL_H,
                row_labels=t.tokens,
                row_label_color=theme.muted,
                font_size=theme.min_size,
                row_label_width=MAX_LABEL_WIDTH,
            )
            full = self.grid("recomputed_outputs", 2, cell_width=CELL_W, cell_height=CELL_H, font_size=theme.min_size)
            equals = label(theme, "=", size=theme.title_size)
            VGroup(cached, equals, full).arrange(RIGHT, buff=0.5).move_to(DOWN * 0.2)
            names = VGroup(
                label(theme, "with the cache", size=theme.small_size, color=theme.key).next_to(cached.cells, UP, buff=0.25),
                label(theme, "full causal attention,\nlast row each step", size=theme.small_size, color=theme.value).next_to(
                    full.cells, UP, buff=0.25
                ),
            )
            names[0].align_to(names[1], DOWN)
            verdict = label(
                theme,
                f"np.allclose(cached, recomputed) → {t.outputs_match}",
                size=theme.small_size,
                mono=True,
                color=theme.highlight,
            )
            verdict.next_to(VGroup(cached, full), DOWN, buff=0.45)
            self.play(FadeIn(heading), FadeIn(names[0]), FadeIn(cached), run_time=1.2)
            self.play(FadeIn(names[1]), FadeIn(equals), FadeIn(full), run_time=1.2)
            self.play(Write(verdict))
            self.wait(1)

    # --- 5-6. counting the work ------------------------------------------------------

    def show_counts(self, t):
        theme = self.theme
        n = len(t.tokens)
        caption = (
            "Count the multiply-adds at step t, with t tokens so far and width d. "
            "With the cache: project one token (3d²), score one row (td) and mix the values (td). "
            "Without it: project all t tokens (3td²), the full t×t scores (t²d) and t rows of mixing (t²d)."
        )
        with self.step("count-multiply-adds", caption):
            self.clear()
            heading = self.heading("Multiply-adds per step")
            width = VGroup(formula(theme, r"d ="), self.number("d", 0, size=theme.body_size)).arrange(RIGHT, buff=0.15)
            width.to_corner(UR, buff=0.5)
            cached_formula = formula(theme, r"\text{with cache: }", CACHED_FORMULA, size=theme.formula_size)
            full_formula = formula(theme, r"\text{without: }", FULL_FORMULA, size=theme.formula_size)
            cached_formula[1].set_color(theme.key)
            full_formula[1].set_color(theme.query)
            formulas = VGroup(cached_formula, full_formula).arrange(RIGHT, buff=1.0).move_to(UP * 2.0)

            steps = self.grid("step_tokens", 0, cell_width=CELL_W, cell_height=CELL_H)
            steps.cells.set_stroke(width=0)
            cached = self.grid("macs_cached", 0, cell_width=CELL_W, cell_height=CELL_H)
            full = self.grid("macs_full", 0, cell_width=CELL_W, cell_height=CELL_H)
            cached.cells.set_stroke(theme.key)
            full.cells.set_stroke(theme.query)
            VGroup(steps, cached, full).arrange(DOWN, buff=0.15).move_to(DOWN * 0.1 + RIGHT * 0.6)
            names = VGroup(
                formula(theme, r"t =", size=theme.body_size),
                label(theme, "with cache", size=theme.small_size, color=theme.key),
                label(theme, "without", size=theme.small_size, color=theme.query),
            )
            for name, row in zip(names, (steps, cached, full)):
                name.next_to(row, LEFT, buff=0.3)
            self.play(FadeIn(heading), FadeIn(width), Write(formulas), run_time=1.5)
            self.play(FadeIn(names[0]), FadeIn(steps), run_time=0.6)
            for i in range(n):
                self.play(FadeIn(cached.column(i)), FadeIn(full.column(i)), run_time=0.45)
            self.play(FadeIn(names[1:]), run_time=0.5)

        caption = (
            f"Add up the {n} steps: {format_number(t.total_cached, 0)} multiply-adds with the cache against "
            f"{format_number(t.total_full, 0)} without, {format_number(t.saving_ratio, 2)} times fewer. "
            "The saving grows with the length of the text."
        )
        with self.step("totals", caption):
            total_title = label(theme, "total", size=theme.small_size, color=theme.muted)
            totals = VGroup(self.number("total_cached", 0, color=theme.key), self.number("total_full", 0, color=theme.query))
            for total, row in zip(totals, (cached, full)):
                total.next_to(row, RIGHT, buff=0.5)
            totals[1].align_to(totals[0], LEFT)
            total_title.next_to(totals, UP, buff=0.1).set_y(steps.get_y())
            ratio = VGroup(
                label(theme, "without ÷ with =", size=theme.body_size),
                self.number("saving_ratio", 2, size=theme.body_size, color=theme.highlight),
            ).arrange(RIGHT, buff=0.2)
            ratio.next_to(VGroup(steps, cached, full), DOWN, buff=0.5)
            self.play(
                FadeIn(total_title),
                ReplacementTransform(cached.numbers.copy(), totals[0]),
                ReplacementTransform(full.numbers.copy(), totals[1]),
                run_time=1.5,
            )
            self.play(FadeIn(ratio, shift=UP * 0.2))
            self.wait(1)

        caption = (
            "For longer texts the gap widens fast: at "
            f"{format_number(t.long_lengths[-1], 0)} tokens, recomputing costs {format_number(t.long_ratios[-1], 0)} times "
            "the multiply-adds of the cache, because each step redoes work that grows with t²."
        )
        with self.step("longer-texts", caption):
            self.clear()
            heading = self.heading("Total multiply-adds to generate n tokens")
            header = VGroup(
                label(theme, "tokens n", color=theme.muted),
                label(theme, "with cache", color=theme.key),
                label(theme, "without", color=theme.query),
                label(theme, "ratio", color=theme.highlight),
            )
            columns_x = (-4.6, -1.5, 2.2, 5.2)
            for text, x in zip(header, columns_x):
                text.move_to([x, 1.9, 0])
            rows = [
                VGroup(
                    *[
                        self.number(source, decimals, size=theme.body_size)
                        for source, decimals in (
                            (f"step_tokens[{n - 1}]", 0),
                            ("total_cached", 0),
                            ("total_full", 0),
                            ("saving_ratio", 2),
                        )
                    ]
                )
            ]
            for i in range(len(t.long_lengths)):
                rows.append(
                    VGroup(
                        *[
                            self.number(f"{field}[{i}]", decimals, size=theme.body_size)
                            for field, decimals in (("long_lengths", 0), ("long_cached", 0), ("long_full", 0), ("long_ratios", 2))
                        ]
                    )
                )
            for r, row in enumerate(rows):
                for text, x in zip(row, columns_x):
                    text.move_to([x, 1.0 - 0.85 * r, 0])
                row[1].set_color(theme.key)
                row[2].set_color(theme.query)
                row[3].set_color(theme.highlight)
            self.play(FadeIn(heading), FadeIn(header))
            for row in rows:
                self.play(FadeIn(row, shift=UP * 0.15), run_time=0.7)
            self.wait(1)

    # --- 7. takeaway ---------------------------------------------------------------------

    def show_takeaway(self, t):
        theme = self.theme
        caption = (
            "The KV cache trades memory for compute: it keeps every key and value, "
            f"{format_number(t.cache_floats, 0)} numbers here, so each new token costs one query row "
            "instead of recomputing the whole sequence."
        )
        with self.step("takeaway", caption):
            self.clear()
            heading = self.heading("The KV cache")
            lines = (
                VGroup(
                    VGroup(label(theme, "per step with the cache:", color=theme.key), formula(theme, CACHED_FORMULA)).arrange(
                        RIGHT, buff=0.3
                    ),
                    VGroup(label(theme, "per step recomputing:", color=theme.query), formula(theme, FULL_FORMULA)).arrange(
                        RIGHT, buff=0.3
                    ),
                    VGroup(
                        label(theme, "memory of the cache: 2 × n × d =", color=theme.muted),
                        self.number("cache_floats", 0, size=theme.body_size),
                        label(theme, "numbers", color=theme.muted),
                    ).arrange(RIGHT, buff=0.2),
                )
                .arrange(DOWN, buff=0.6, aligned_edge=LEFT)
                .move_to(DOWN * 0.2)
            )
            self.play(FadeIn(heading))
            for line in lines:
                self.play(FadeIn(line, shift=UP * 0.2), run_time=0.8)
            self.wait(1)
