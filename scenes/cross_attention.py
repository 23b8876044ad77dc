"""Cross-attention: a decoder's Spanish queries attend to an encoder's English keys and values.

Follows seed 000 (the translation "The cat sat on the mat" -> "El gato se sentó en
la alfombra", "When translating 'gato': focus on 'cat'"; "Regular attention:
Source -> Target"), seed 004 slide 12 (``CrossAttention``: Q from the decoder
state, K and V from the encoder output) and seed 002 ("different Q vs K,V
sources"). The embeddings are toy ones built so that translation pairs are
similar (see :func:`attention_math.examples.translation_embeddings`).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attention_math import DEFAULT_SEED
from attention_math.traces.cross_attention import cross_attention_trace

from .kit import ExplainerScene
from .kit.components import TokenRow, formula, label
from .theme import format_number


class CrossAttentionScene(ExplainerScene):
    name = "cross-attention"
    title = "Cross-attention in translation"
    description = "Spanish decoder queries attend to English encoder keys/values: a 7×6 weight matrix."
    sources = "seed 000 translation example; seed 004 slide 12 CrossAttention; seed 002 cross-attention exercise"

    options = ("seed",)

    @classmethod
    def build_trace(cls, seed: int = DEFAULT_SEED):
        return cross_attention_trace(seed)

    def construct(self):
        t = self.trace
        theme = self.theme
        english, spanish = t.key_tokens, t.query_tokens
        i = t.focus
        word = spanish[i]
        partner = english[t.alignment[i]]
        top = int(t.weights[i].argmax())

        caption = (
            f"Translation has two sequences. The encoder reads “{' '.join(english)}”; the decoder writes “{' '.join(spanish)}”. "
            f"When it writes “{word}”, it should look at “{partner}”: cross-attention is how it looks."
        )
        with self.step("two-sentences", caption):
            heading = self.heading("Cross-attention: translating")
            source_row = TokenRow(theme, english, color=theme.key, size=theme.title_size, buff=0.35).move_to(UP * 1.25)
            target_row = TokenRow(theme, spanish, color=theme.query, size=theme.title_size, buff=0.3).move_to(DOWN * 1.45)
            source_name = label(theme, "encoder (English)", color=theme.key).next_to(source_row, UP, buff=0.35)
            target_name = label(theme, "decoder (Spanish)", color=theme.query).next_to(target_row, DOWN, buff=0.35)
            arrow = Arrow(target_row[i].get_top(), source_row[t.alignment[i]].get_bottom(), color=theme.highlight, buff=0.1)
            quote = label(theme, f"translating “{word}”: look at “{partner}”", color=theme.highlight)
            quote.next_to(arrow.get_center(), RIGHT, buff=0.4)
            self.play(FadeIn(heading), FadeIn(source_name), FadeIn(source_row, lag_ratio=0.1), run_time=1.5)
            self.play(FadeIn(target_name), FadeIn(target_row, lag_ratio=0.1), run_time=1.5)
            self.play(GrowFromEdge(arrow, DOWN), FadeIn(quote))

        caption = (
            "These are toy embeddings built so that translation partners are similar, not a trained model. "
            f"Each English word is a random direction of length {format_number(t.embedding_length, 0)} (seed {format_number(t.seed, 0)}); "
            f"each Spanish word copies its partner's vector and adds a little noise, as “{word}” does from “{partner}”."
        )
        with self.step("toy-embeddings", caption):
            self.clear()
            heading = self.heading("Toy embeddings, not a trained model")
            pairs = VGroup()
            for q, k in enumerate(t.alignment):
                pairs.add(
                    VGroup(
                        label(theme, spanish[q], color=theme.query),
                        label(theme, "→", color=theme.muted),
                        label(theme, english[k], color=theme.key),
                    )
                )
            for pair in pairs:
                pair[0].move_to(LEFT * 0.3, aligned_edge=RIGHT)
                pair[1].move_to(pair[0].get_right() + RIGHT * 0.35)
                pair[2].next_to(pair[1], RIGHT, buff=0.2)
            for row, pair in enumerate(pairs):
                pair.shift(DOWN * row * 0.68)
            pairs.move_to(LEFT * 4.3 + DOWN * 0.45)
            pairs_name = label(theme, "partners", color=theme.muted).next_to(pairs, UP, buff=0.35)
            recipe = VGroup(
                VGroup(
                    label(theme, "English: random direction, length"), self.number("embedding_length", 0, size=theme.body_size)
                ).arrange(RIGHT, buff=0.15),
                VGroup(label(theme, "Spanish: partner + noise of size"), self.number("noise", 1, size=theme.body_size)).arrange(
                    RIGHT, buff=0.15
                ),
            ).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
            source_vector = self.grid(f"x_key[{t.alignment[i]}]", 1, cell_width=0.9, cell_height=0.6)
            target_vector = self.grid(f"x_query[{i}]", 1, cell_width=0.9, cell_height=0.6)
            vectors = VGroup(
                VGroup(label(theme, partner, color=theme.key), source_vector),
                VGroup(label(theme, word, color=theme.query), target_vector),
            )
            for name, grid in vectors:
                name.next_to(grid, LEFT, buff=0.3)
            vectors.arrange(DOWN, buff=0.25, aligned_edge=RIGHT)
            right = VGroup(recipe, vectors).arrange(DOWN, buff=0.9, aligned_edge=LEFT)
            right.next_to(pairs, RIGHT, buff=1.0).align_to(pairs_name, UP)
            self.play(FadeIn(heading), FadeIn(pairs_name), FadeIn(pairs, lag_ratio=0.1), run_time=1.5)
            self.play(FadeIn(recipe[0]))
            self.play(FadeIn(vectors[0]))
            self.play(FadeIn(recipe[1]))
            self.play(TransformFromCopy(vectors[0][1], vectors[1][1]), FadeIn(vectors[1][0]), run_time=1.5)
            self.play(FadeIn(SurroundingRectangle(pairs[i], color=theme.highlight, buff=0.08)))

        caption = (
            f"The queries come from the decoder: one row per Spanish word, {len(spanish)} rows. "
            f"The keys and values come from the encoder: one row per English word, {len(english)} rows. "
            "There are no projections here, so Q is the Spanish vectors and K = V the English ones."
        )
        with self.step("q-from-decoder-kv-from-encoder", caption):
            self.clear()
            heading = self.heading("Q from the decoder, K and V from the encoder")
            q = self.grid(
                "q",
                1,
                cell_width=0.85,
                cell_height=0.55,
                font_size=theme.min_size,
                row_labels=spanish,
                row_label_color=theme.query,
            )
            k = self.grid(
                "k", 1, cell_width=0.85, cell_height=0.55, font_size=theme.min_size, row_labels=english, row_label_color=theme.key
            )
            q.move_to(LEFT * 3.05 + DOWN * 0.65)
            k.move_to(RIGHT * 3.75).align_to(q, UP)
            q_name = formula(theme, r"Q = X_{\mathrm{decoder}}").next_to(q.cells, UP, buff=0.35)
            k_name = formula(theme, r"K = V = X_{\mathrm{encoder}}").next_to(k.cells, UP, buff=0.35)
            self.play(FadeIn(heading))
            self.play(FadeIn(q_name), FadeIn(q), run_time=1.5)
            self.play(FadeIn(k_name), FadeIn(k), run_time=1.5)

        scaled = t.scaled_scores[i]
        caption = (
            f"“{word}” scores every English key with a dot product divided by √{t.d_k}. "
            f"Its score for “{english[top]}” is {format_number(scaled[top], 2)}, the largest, "
            f"so softmax gives “{english[top]}” {format_number(t.weights[i, top], 2)} of its attention."
        )
        with self.step("one-query", caption):
            self.clear()
            heading = self.heading(f"The query “{word}” against the {len(english)} keys")
            scores = self.grid(
                f"scaled_scores[{i}]", 2, cell_width=1.2, cell_height=0.6, col_labels=english, col_label_color=theme.key
            )
            scores.move_to(RIGHT * 0.9 + UP * 1.45)
            scores_name = formula(theme, r"q \cdot k_j / \sqrt{d_k}").next_to(scores.cells, LEFT, buff=0.35)
            bars = self.bars(f"weights[{i}]", english, height=2.2, spacing=1.2, bar_width=0.6, color=theme.value)
            bars.shift(scores.cells[0].get_center()[0] * RIGHT - bars.bars[0].get_center()[0] * RIGHT)
            bars.shift(DOWN * (2.3 + bars.bars[0].get_bottom()[1]))
            bars_name = formula(theme, r"\mathrm{softmax}").next_to(scores_name, DOWN, buff=1.6).align_to(scores_name, RIGHT)
            self.play(FadeIn(heading), FadeIn(scores_name), FadeIn(scores.col_labels))
            self.play(FadeIn(scores.cells), FadeIn(scores.numbers, lag_ratio=0.1), run_time=1.2)
            self.play(FadeIn(bars_name), FadeIn(bars.labels), GrowFromEdge(bars.bars, DOWN), run_time=1.2)
            self.play(FadeIn(bars.numbers, lag_ratio=0.1))
            top_box = SurroundingRectangle(
                VGroup(scores.cells[top], bars.bars[top], bars.numbers[top]), color=theme.highlight, buff=0.08
            )
            self.play(FadeIn(top_box))

        caption = (
            f"The output for “{word}” is the weights times the encoder's value rows, added up: "
            f"an English-side summary, mostly “{english[top]}”, that the decoder uses to pick the next Spanish word."
        )
        with self.step("context-vector", caption):
            output = self.grid(f"output[{i}]", 2, cell_width=1.05, cell_height=0.55)
            value = self.grid(f"v[{top}]", 2, cell_width=1.05, cell_height=0.55)
            output_name = formula(theme, r"\textstyle\sum_j w_j v_j =")
            value_name = label(theme, f"v({english[top]}) =", size=theme.small_size, color=theme.key)
            lines = VGroup(
                VGroup(output_name, output).arrange(RIGHT, buff=0.25), VGroup(value_name, value).arrange(RIGHT, buff=0.25)
            )
            lines.arrange(DOWN, buff=0.3, aligned_edge=RIGHT)
            lines.move_to(scores.cells).align_to(scores.cells, RIGHT).align_to(scores.cells, DOWN).shift(UP * 0.2)
            new_heading = self.heading(f"The output for “{word}”")
            self.play(
                FadeOut(scores), FadeOut(scores_name), FadeOut(top_box), ReplacementTransform(heading, new_heading), run_time=0.8
            )
            self.play(FadeIn(output_name), TransformFromCopy(bars.bars, VGroup(output.cells, output.numbers)), run_time=1.5)
            self.play(FadeIn(value_name), FadeIn(value))

        rows_to = [english[int(j)] for j in t.weights.argmax(axis=1)]
        caption = (
            f"Every Spanish word does the same: {len(spanish)} queries against {len(english)} keys give a {len(spanish)} by {len(english)} matrix, not a square. "
            "Each row sums to 1 over the English words, and each row's largest weight lands on "
            + ("its partner: " if rows_to == [english[k] for k in t.alignment] else "")
            + ", ".join(f"{s} → {e}" for s, e in zip(spanish, rows_to))
            + "."
        )
        with self.step("the-weight-matrix", caption):
            self.clear()
            heading = self.heading("Cross-attention weights")
            heatmap = self.grid(
                "weights",
                2,
                heat=True,
                vmin=0.0,
                vmax=1.0,
                cell_width=1.0,
                cell_height=0.56,
                row_labels=spanish,
                col_labels=english,
                row_label_color=theme.query,
                col_label_color=theme.key,
            )
            heatmap.move_to(DOWN * 0.45)
            names = VGroup(
                label(theme, "Spanish queries ↓", size=theme.small_size, color=theme.query),
                label(theme, "English keys →", size=theme.small_size, color=theme.key),
            )
            names[0].next_to(heatmap.row_labels, UP, buff=0.45).align_to(heatmap.row_labels, RIGHT)
            names[1].next_to(heatmap.col_labels, UP, buff=0.2)
            self.play(FadeIn(heading), FadeIn(heatmap.row_labels), FadeIn(heatmap.col_labels), FadeIn(names))
            for r in range(len(spanish)):
                self.play(FadeIn(heatmap.row(r)), run_time=0.4)
            boxes = [
                SurroundingRectangle(heatmap.cell(r, int(j)), color=theme.highlight, buff=0.03)
                for r, j in enumerate(t.weights.argmax(axis=1))
            ]
            self.play(*[FadeIn(box) for box in boxes])
            self.wait(0.5)

        caption = (
            "In self-attention, Q, K and V all come from one sequence, so the matrix is square: here the English sentence attends to itself. "
            "In cross-attention, Q comes from the decoder and K, V from the encoder: one row per target word, one column per source word."
        )
        with self.step("self-vs-cross", caption):
            self.clear()
            heading = self.heading("Self-attention vs cross-attention")
            maps = []
            for source, rows, title, row_color, x in (
                ("self_weights", english, "Self: Q, K, V from English", theme.key, -3.5),
                ("weights", spanish, "Cross: Q Spanish, K, V English", theme.query, 3.4),
            ):
                heatmap = self.grid(
                    source,
                    2,
                    heat=True,
                    vmin=0.0,
                    vmax=1.0,
                    cell_width=0.85,
                    cell_height=0.55,
                    font_size=theme.min_size,
                    row_labels=rows,
                    col_labels=english,
                    row_label_color=row_color,
                    col_label_color=theme.key,
                )
                heatmap.move_to(RIGHT * x).align_to(DOWN * 2.9, DOWN)
                name = label(theme, title, size=theme.small_size).next_to(heatmap.col_labels, UP, buff=0.3)
                maps.append(VGroup(name, heatmap))
            maps[0].align_to(maps[1], UP)
            self.play(FadeIn(heading))
            self.play(FadeIn(maps[0]), run_time=1.2)
            self.play(FadeIn(maps[1]), run_time=1.2)
