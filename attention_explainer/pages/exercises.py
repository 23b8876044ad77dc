"""The exercises on a scene's own numbers: what the worksheet prints and the questions ask, from one place.

Each exercise's given numbers and answers are read from the scene's trace ("Calculate attention weights
manually"), as :class:`Table` objects that carry their rounding. The worksheet (:mod:`.worksheet`) prints
them with an answer key; the questions (:mod:`.questions`) ask for entries of the same tables, rounded
the same way, so the handout, the quiz, the video and ``trace.json`` agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from attention_math import (
    AttentionTrace,
    BottleneckTrace,
    ComplexityTrace,
    CrossAttentionTrace,
    KVCacheTrace,
    LearningToAttendTrace,
    MultiHeadTrace,
    PaddingMaskTrace,
    PositionalTrace,
    ScalingTrace,
    SentimentAttentionTrace,
    SoftmaxTrace,
    Trace,
    TrainedHeadsTrace,
    TransformerBlockTrace,
)
from attention_style import format_number

__all__ = ["Table", "Exercise", "EXERCISES_BY_TRACE", "exercises_for"]


@dataclass(frozen=True)
class Table:
    """Numbers to print, with optional row and column labels."""

    caption: str
    values: np.ndarray
    decimals: int = 2
    rows: Sequence[str] | None = None
    columns: Sequence[str] | None = None


@dataclass(frozen=True)
class Exercise:
    """One question, the numbers it gives, and the answer from the trace."""

    question: str
    given: list[Table] = field(default_factory=list)
    answer: list[Table] = field(default_factory=list)
    note: str = ""


def _own_score_in_the_row(trace: AttentionTrace) -> str:
    """What the focus row shows of the Q = K shortcut: its score with itself, and whether it is the row's largest."""
    i = trace.focus
    query, own = trace.query_tokens[i], trace.raw_scores[i, i]
    top = int(trace.raw_scores[i].argmax())
    if trace.raw_scores[i, top] <= own:
        return f"Here “{query}” scores {format_number(own, 2)} with itself, the largest in its row."
    return (
        f"Here “{query}” scores {format_number(own, 2)} with itself but {format_number(trace.raw_scores[i, top], 2)} "
        f"with the longer “{trace.key_tokens[top]}”."
    )


def scaled_caption(scale: float) -> str:
    """The scaled scores' caption, √d_k as written: "q · k / 2" for a whole number, never "/ 2.000"."""
    return f"q · k / {format_number(scale, 0 if float(scale).is_integer() else 3)}"


def attention_exercises(trace: AttentionTrace) -> list[Exercise]:
    """Scores, scaling, masking, softmax and the weighted sum for the trace's focus query."""
    i = trace.focus
    query = trace.query_tokens[i]
    keys = list(trace.key_tokens)
    dims = [f"d{d + 1}" for d in range(trace.d_k)]
    exercises = [
        Exercise(
            f"Compute the score of the query “{query}” against every key: the dot product q · k.",
            given=[
                Table(f"query q (“{query}”)", trace.q[i], 2, columns=dims),
                Table("keys K, one row per key", trace.k, 2, rows=keys, columns=dims),
            ],
            answer=[Table("q · k", trace.raw_scores[i], 2, columns=keys)],
            note=(
                "Here Q = K = V = X, with no W_Q, W_K, W_V (a shortcut): a word's score with itself is its squared "
                "length. It wins the row only if no longer word points its way: the longest word always looks most "
                "at itself, a shorter one may look most at a longer one. " + _own_score_in_the_row(trace)
                if trace.w_q is None and trace.self_scores.size
                else (
                    "The embeddings X are made up, not learned, and W_Q, W_K, W_V are random: the scores carry no "
                    "learned meaning. With these random matrices, words given larger embeddings tend to get larger "
                    "scores for every query: not a rule (a longer key can as well score more negative)."
                    if "W_Q, W_K, W_V drawn from default_rng" in trace.source
                    else ""
                )
            ),
        ),
        Exercise(
            f"Divide each score by √d_k (d_k = {trace.d_k}).",
            answer=[Table(scaled_caption(trace.scale), trace.scaled_scores[i], 3, columns=keys)],
        ),
    ]
    if not trace.mask[i].all():
        hidden = ", ".join(f"“{k}”" for k, visible in zip(keys, trace.mask[i]) if not visible)
        exercises.append(
            Exercise(
                f"The mask hides {hidden} from “{query}”. Replace those scaled scores by −∞.",
                answer=[Table("masked scores", trace.masked_scores[i], 3, columns=keys)],
            )
        )
    exercises += [
        Exercise(
            "Apply softmax: exponentiate each score, add them up, divide each by the sum. Check that the weights add up to 1.",
            answer=[Table("attention weights", trace.weights[i], 3, columns=keys)],
            # Only a scene with a mask has masked keys to speak of.
            note="" if trace.mask.all() else "A masked key (−∞) gets weight exactly 0: e to the −∞ is 0.",
        ),
        Exercise(
            f"Compute the output for “{query}”: multiply each value row by its attention weight, "
            "then add the scaled rows column by column.",
            given=[
                Table("values V, one row per key", trace.v, 2, rows=keys, columns=[f"d{d + 1}" for d in range(trace.v.shape[1])])
            ],
            answer=[
                Table(
                    "each value row × its attention weight",
                    trace.weighted_values[i],
                    3,
                    rows=keys,
                    columns=[f"d{d + 1}" for d in range(trace.v.shape[1])],
                ),
                Table("output", trace.output[i], 3, columns=[f"d{d + 1}" for d in range(trace.v.shape[1])]),
            ],
        ),
    ]
    return exercises


def padding_mask_exercises(trace: PaddingMaskTrace) -> list[Exercise]:
    """The attention exercises with the padding mask, then what the pads take when the mask is forgotten."""
    return [
        *attention_exercises(trace),
        Exercise(
            "Forget the padding mask: apply softmax to the scaled scores with the pads' columns left in. "
            "How much weight does each query give the pads in total?",
            answer=[Table("weight on the pads without a mask", trace.pad_share, 3, columns=list(trace.query_tokens))],
            note="A pad's embedding is all zeros, so its score is 0: e to the 0 is 1, and that share is taken from the real words.",
        ),
    ]


def scaling_exercises(trace: ScalingTrace) -> list[Exercise]:
    """Predict the variance of dot products, then compare softmax with and without scaling."""
    widths = [f"d_k = {d}" for d in trace.d_k_values]
    keys = [f"k{j + 1}" for j in range(len(trace.row_raw_scores))]
    return [
        Exercise(
            "q and k have d_k independent entries of mean 0 and variance 1. What is the variance of q · k? "
            "Predict it for each width, then compare with what the video measured.",
            answer=[
                Table("predicted: d_k", np.array(trace.d_k_values, dtype=float), 0, columns=widths),
                Table(f"measured on {trace.n_samples} pairs", trace.variances, 1, columns=widths),
                Table("measured after dividing by √d_k", trace.scaled_variances, 2, columns=widths),
            ],
        ),
        Exercise(
            f"These are the raw scores of one query against {len(keys)} keys (d_k = {trace.row_d_k}; "
            f"random vectors, a fixed random seed: {trace.seed}). "
            "Apply softmax to them as they are, then after dividing by √d_k. Which is nearly one-hot?",
            given=[Table("raw scores q · k", trace.row_raw_scores, 2, columns=keys)],
            answer=[
                Table("attention weights without scaling", trace.row_unscaled_weights, 3, columns=keys),
                Table(f"scores ÷ {format_number(trace.row_scale, 0)}", trace.row_scaled_scores, 3, columns=keys),
                Table("attention weights with scaling", trace.row_scaled_weights, 3, columns=keys),
            ],
        ),
        Exercise(
            "The slope of weight p_j with respect to its own score is p_j (1 − p_j), at most 1/4, and no weight's slope "
            "in any score is larger than the row's largest p_j (1 − p_j). Compute it for every key, without and "
            "with scaling. Which row passes almost no gradient back to the scores (and so to W_Q and W_K)?",
            answer=[
                Table("p (1 − p) without scaling", trace.row_unscaled_slopes, 5, columns=keys),
                Table("p (1 − p) with scaling", trace.row_scaled_slopes, 3, columns=keys),
            ],
        ),
    ]


def _factor(value: float) -> str:
    """A factor as written: 8, 0.5, 0.125 (no more decimals than it has)."""
    return format_number(value, next((k for k in range(3) if abs(round(value, k) - value) < 1e-9), 3))


def softmax_exercises(trace: SoftmaxTrace) -> list[Exercise]:
    """Softmax by hand: dot products, then exponentiate, sum and divide."""
    keys = list(trace.tokens)
    dims = [f"d{d + 1}" for d in range(len(trace.query))]
    return [
        Exercise(
            f"Query “{keys[0]}” = the first row below, “{keys[0]}”'s own key (all numbers made up by hand). "
            "Compute its dot product with every key. Which key scores highest, and why is that no surprise?",
            given=[Table("keys", trace.keys, 2, rows=keys, columns=dims)],
            answer=[Table("scores", trace.scores, 2, columns=keys)],
            # The "why" of the question, from the trace's key lengths: the query's own key wins when no key is longer.
            note=(
                f"Why: the query is “{keys[0]}”'s own key, and no other key is longer ("
                + ", ".join(f"|{k}| = {format_number(length, 2)}" for k, length in zip(keys, trace.key_lengths))
                + "): another key scores at most |q| |k|, below |q|²."
                if trace.key_lengths[0] >= trace.key_lengths.max()
                else ""
            ),
        ),
        Exercise(
            "Apply softmax to the scores by hand: e to the power of each score, their sum, each divided by the sum.",
            answer=[
                Table("e to the power of each score", trace.exp_scores, 3, columns=keys),
                Table("sum", np.array([trace.exp_sum]), 3),
                # Not yet the attention weights: attention divides the scores by √d_k first (the last exercise).
                Table("weights before scaling", trace.weights, 3, columns=keys),
            ],
        ),
        Exercise(
            f"Multiply the scores by {', '.join(_factor(m) for m in trace.multipliers)} and apply softmax again. "
            "What happens to the largest weight as the gaps between scores shrink, and as they grow?",
            answer=[
                Table(f"weights, scores × {_factor(m)}", w, 3, columns=keys)
                for m, w in zip(trace.multipliers, trace.sharpened_weights)
            ],
        ),
        Exercise(
            f"Attention divides the scores by √d_k before softmax; here d_k = {trace.d_k}. Divide the scores by "
            f"√{trace.d_k} and apply softmax. Does “{keys[0]}” get more or less than before scaling?",
            answer=[
                Table(f"scores ÷ √{trace.d_k}", trace.scaled_scores, 3, columns=keys),
                Table("attention weights", trace.scaled_weights, 3, columns=keys),
            ],
        ),
    ]


def bottleneck_exercises(trace: BottleneckTrace) -> list[Exercise]:
    """How much of the sentence reaches the end of an RNN, and how far information travels."""
    words = list(trace.tokens)
    return [
        Exercise(
            f"The sentence has {len(words)} words of {trace.embeddings.shape[1]} numbers each, read by an untrained RNN "
            "(random weights). "
            "How many numbers go in, and how many reach the translator through the RNN's last hidden state?",
            given=[Table("last hidden state", trace.hidden_states[-1], 2)],
            answer=[
                Table(
                    "numbers in, numbers through",
                    np.array([trace.sentence_numbers, trace.state_numbers], dtype=float),
                    0,
                    columns=["in", "through"],
                )
            ],
        ),
        Exercise(
            f"How many steps does “{words[0]}” need to reach each word, through the RNN's chain and with attention?",
            answer=[
                Table("steps from the first word: RNN", trace.rnn_hops, 0, columns=words),
                Table("steps from the first word: attention", trace.attention_hops, 0, columns=words),
            ],
        ),
        Exercise(
            "Fill in the fewest steps from word j (column) to word i (row): through the RNN's chain, "
            "with attention under a causal mask, and with attention without a mask (∞ where word j never reaches word i). "
            "Which pairs does the mask hide? Does it make any path longer?",
            answer=[
                Table("RNN", trace.rnn_path_lengths, 0, rows=words, columns=words),
                Table("attention, causal mask", trace.causal_attention_path_lengths, 0, rows=words, columns=words),
                Table("attention, no mask", trace.attention_path_lengths, 0, rows=words, columns=words),
            ],
            note="The causal mask hides the same pairs as the RNN (j > i) but every path it keeps is one step long.",
        ),
    ]


def multi_head_exercises(trace: MultiHeadTrace) -> list[Exercise]:
    """The split into heads, and the model sizes of the course."""
    d_model = trace.x.shape[1]
    d_head = trace.q_heads.shape[2]
    models = list(trace.scale_models)
    return [
        Exercise(
            f"Q is {trace.q.shape[0]} × {d_model}. Split it into {trace.n_heads} heads: what is each head's width, "
            "and which numbers of the first token go to head 1?",
            given=[Table("Q, first token", trace.q[0], 1)],
            answer=[
                Table("d_head = d_model ÷ heads", np.array([d_head], dtype=float), 0),
                Table("head 1, first token", trace.q_heads[0, 0], 1),
            ],
        ),
        Exercise(
            "Complete the table for the video's own model and GPT-3: head dimension = d_model ÷ heads; "
            "heads in all = heads × layers; numbers in one layer's projection matrices W_Q, W_K, W_V, W_O "
            "= 4 × d_model² (biases left out).",
            given=[
                Table("d_model", trace.scale_d_model, 0, columns=models),
                Table("heads per layer", trace.scale_heads, 0, columns=models),
                Table("layers", trace.scale_layers, 0, columns=models),
            ],
            answer=[
                Table("head dimension", trace.scale_head_dim, 0, columns=models),
                Table("heads in all", trace.scale_total_heads, 0, columns=models),
                Table("attention projections, one layer", trace.scale_layer_attention_params, 0, columns=models),
            ],
            note="GPT-3: Brown et al. 2020, Table 2.1. Its 175 billion parameters also count the feed-forward "
            "layers and embeddings, so compare them with a whole model, not with one layer's projections.",
        ),
    ]


def positional_exercises(trace: PositionalTrace) -> list[Exercise]:
    """The first fingerprints by hand, and the similarity of near and far positions."""
    return [
        Exercise(
            "With d_model = 4, compute PE(pos, 0) = sin(pos), PE(pos, 1) = cos(pos), PE(pos, 2) = sin(pos / 100) "
            "and PE(pos, 3) = cos(pos / 100) for positions 0, 1 and 2 (angles in radians).",
            answer=[
                Table(
                    "PE",
                    trace.pe_small,
                    2,
                    rows=[f"position {p}" for p in range(len(trace.pe_small))],
                    columns=["sin", "cos", "sin", "cos"],
                )
            ],
        ),
        Exercise(
            f"The video compares position {trace.reference} with positions {trace.near} and {trace.far} "
            f"(d_model = {trace.d_model}). Which is more similar, and why?",
            answer=[
                Table(
                    "cosine similarity",
                    np.array([trace.similarity_near, trace.similarity_far]),
                    4,
                    columns=[f"{trace.reference} and {trace.near}", f"{trace.reference} and {trace.far}"],
                )
            ],
        ),
    ]


def kv_cache_exercises(trace: KVCacheTrace) -> list[Exercise]:
    """The multiply-adds of each generation step, with and without the cache."""
    steps = [str(int(t)) for t in trace.step_tokens]
    d = trace.q.shape[1]
    return [
        Exercise(
            f"Count one attention head's multiply-adds (d = {d}) at each generation step t: its projections, "
            "its scores q · k and its mixing of the values. With a cache that is 3d² + td + td; recomputing "
            "everything, 3td² + t²d + t²d. Add them up. How many times as much work is recomputing?",
            answer=[
                Table("with the cache", trace.macs_cached, 0, columns=steps),
                Table("recomputing", trace.macs_full, 0, columns=steps),
                Table("totals", np.array([trace.total_cached, trace.total_full]), 0, columns=["cached", "recomputed"]),
                Table("ratio", np.array([trace.saving_ratio]), 2, columns=["recomputed ÷ cached"]),
            ],
        ),
        Exercise(
            f"How many numbers do the K and V caches hold after all {len(steps)} steps (one head, d = {d})? "
            f"{trace.real_model} has {trace.real_layers} layers of width {trace.real_d_model} and reads up to "
            f"{format_number(trace.real_context, 0)} tokens: how many numbers does its cache add per token, how many at "
            "its full length, and how many MiB is that in float32 (4 bytes each)?",
            answer=[
                Table("the cache in this video", np.array([trace.cache_floats]), 0, columns=["2 × n × d"]),
                Table(
                    trace.real_model,
                    np.array([trace.real_numbers_per_token, trace.real_cache_numbers, trace.real_cache_mib]),
                    0,
                    columns=["per token", "at full length", "MiB"],
                ),
            ],
        ),
    ]


def block_exercises(trace: TransformerBlockTrace) -> list[Exercise]:
    """Layer norm of one token's input by hand, and the widths of the feed-forward layer."""
    f = trace.focus
    return [
        Exercise(
            f"Before attention, a GPT block normalises each token's vector. For “{trace.tokens[f]}”: compute the mean "
            "and variance of x, then (x − mean) / √(variance + ε) with ε ≈ 0 (γ = 1, β = 0).",
            # Three decimals, as the answer: worked from x at two, the variance came out 0.485 against the key's 0.482.
            given=[Table("x = token embedding + position embedding", trace.x[f], 3)],
            answer=[
                Table("mean and variance", np.array([trace.x_mean[f], trace.x_var[f]]), 3, columns=["mean", "variance"]),
                Table("norm₁(x)", trace.norm1[f], 2),
            ],
        ),
        Exercise(
            "GPT-2 and GPT-3 make the feed-forward layer four times as wide as the model (d_ff = 4 × d_model). "
            "How wide is it in the video's block, and in GPT-3 (d_model = 12,288)?",
            answer=[
                Table(
                    "d_ff",
                    np.array([trace.d_ff, trace.gpt3_d_ff], dtype=float),
                    0,
                    columns=["the video's block", "GPT-3"],
                )
            ],
            note="GPT-3: Brown et al. 2020, section 2.1 and Table 2.1.",
        ),
    ]


def complexity_exercises(trace: ComplexityTrace) -> list[Exercise]:
    """Weights, bytes and multiply-adds of attention for growing sequence lengths."""
    lengths = [str(int(n)) for n in trace.lengths]
    return [
        Exercise(
            f"For each sequence length n, in one head of width d = {trace.d}: how many attention weights (n²), "
            "how many bytes when they are all stored in float32 (4 each), and how many multiply-adds for QKᵀ and "
            "for weights·V (n²d each)? What happens to these counts of the n × n part when n doubles?",
            answer=[
                Table("weights", trace.weight_counts, 0, columns=lengths),
                Table("bytes", trace.weight_bytes, 0, columns=lengths),
                # Each product as asked, then their sum: one table of sums read as twice the answer (review 14).
                Table("multiply-adds of QKᵀ (n²d)", trace.qk_macs, 0, columns=lengths),
                Table("multiply-adds of weights·V (n²d)", trace.av_macs, 0, columns=lengths),
                Table("QKᵀ and weights·V together (2n²d)", trace.total_macs, 0, columns=lengths),
                Table("growth when n doubles", trace.growth, 1),
            ],
        ),
        Exercise(
            f"Now a whole layer of {trace.layer_model} (d_model = {trace.layer_d_model}, feed-forward "
            f"{format_number(trace.layer_d_ff, 0)} wide), all heads: count the multiply-adds of each part, in billions, "
            f"at n = {format_number(trace.layer_lengths[0], 0)} and n = {format_number(trace.layer_lengths[1], 0)}: "
            "Q, K, V projections (3 n d_model²), QKᵀ and weights·V (n² d_model each, over all heads), the output "
            "projection (n d_model²), the feed-forward (2 n d_model d_ff); here d_model, not one head's width. "
            "By how much does the whole layer grow when n doubles?",
            answer=[
                Table(
                    "multiply-adds, billions",
                    trace.layer_gmacs.T,
                    2,
                    rows=list(trace.layer_parts),
                    columns=[format_number(n, 0) for n in trace.layer_lengths],
                ),
                Table(
                    "whole layer, billions",
                    trace.layer_total_gmacs,
                    2,
                    columns=[format_number(n, 0) for n in trace.layer_lengths],
                ),
                Table("growth of the whole layer when n doubles", np.array([trace.layer_growth]), 2),
            ],
            # As the scene's step 5 says: GPT-2 is causal, and a kernel that skips the masked half would count less.
            note="Biases, layer norms, softmax and residual adds are not counted; the n × n part counts all n² scores, "
            "as a plain implementation computes them, even those GPT-2's causal mask hides. At this length the projections and "
            "the feed-forward, which grow like n, outweigh the n × n part, so the layer grows by less than 4. "
            f"{format_number(trace.layer_lengths[1], 0)} tokens is past {trace.context_model}'s "
            f"{format_number(trace.context_length, 0)}-token "
            "context: that column counts a layer of the same sizes. The n × n part reaches half of such a layer only at "
            f"n = {format_number(trace.layer_half_n, 0)} (2 d_model + d_ff).",
        ),
    ]


def trained_heads_exercises(trace) -> list[Exercise]:
    """The chosen head's query row: scale the real scores, then softmax them; then the counter-example."""
    pieces = list(trace.tokens)
    query = pieces[trace.focus]
    head = f"layer {trace.layer_number}, head {trace.head_number}"  # numbered from 1, as in the video
    exercises = [
        Exercise(
            f"These are the raw scores q·k of “{query}” in {head} of all-MiniLM-L6-v2. "
            f"Divide each by √{trace.d_head}. Which piece scores highest?",
            given=[Table("raw scores", trace.focus_raw_scores, 1, columns=pieces)],
            answer=[Table("scaled scores", trace.focus_scaled_scores, 2, columns=pieces)],
        ),
        Exercise(
            "Apply softmax to the scaled scores. Which piece gets the most attention weight, and how much? "
            "How much goes to [CLS]?",
            answer=[Table("attention weights", trace.focus_weights, 2, columns=pieces)],
        ),
    ]
    if trace.contrast_sentence:
        compared = [pieces[j] for j in trace.compared_keys]
        exercises.append(
            Exercise(
                f"In “{trace.contrast_sentence}”, “{query}” means something else. These are the attention weights of "
                f"“{query}” in the same head, in both sentences. Does this head work out what “{query}” refers to?",
                given=[
                    Table(
                        f"attention weights of “{query}”, {head}",
                        trace.compared_weights,
                        2,
                        rows=[trace.sentence, trace.contrast_sentence],
                        columns=compared,
                    )
                ],
                note=f"No: it puts the most weight on “{pieces[trace.top_key]}” in both sentences. "
                "One head on one sentence shows a pattern, not understanding.",
            )
        )
    return exercises


def cross_attention_exercises(trace: CrossAttentionTrace) -> list[Exercise]:
    """One decoder position's query against the encoder's keys, its weights and output; the rectangular matrix.

    No masking exercise: cross-attention has no causal mask (the whole English sentence is known; no pads here).
    """
    i = trace.focus
    position = f"the decoder position that reads “{trace.query_tokens[i]}” and writes “{trace.target_tokens[i]}”"
    keys = list(trace.key_tokens)
    dims = [f"d{d + 1}" for d in range(trace.d_k)]
    values = [f"d{d + 1}" for d in range(trace.v.shape[1])]
    positions = [f"{read} → {write}" for read, write in zip(trace.query_tokens, trace.target_tokens)]
    return [
        Exercise(
            f"The query q comes from {position}; the keys K come from the encoder, one row per English word. "
            "Compute the score of q against every key: the dot product q · k.",
            given=[
                Table("decoder query q", trace.q[i], 2, columns=dims),
                Table("encoder keys K, one row per English word", trace.k, 2, rows=keys, columns=dims),
            ],
            answer=[Table("q · k", trace.raw_scores[i], 2, columns=keys)],
        ),
        Exercise(
            f"Divide each score by √d_k (d_k = {trace.d_k}).",
            answer=[Table(scaled_caption(trace.scale), trace.scaled_scores[i], 3, columns=keys)],
        ),
        Exercise(
            "Apply softmax: exponentiate each score, add them up, divide each by the sum. "
            "Which English word gets the largest attention weight? Check that the weights add up to 1.",
            answer=[Table("attention weights", trace.weights[i], 3, columns=keys)],
            note="These are toy vectors: each decoder query was built as its English partner's vector plus noise, "
            "so the largest weight lands on the partner by construction; a trained decoder learns such queries. "
            "There is no causal mask in cross-attention: the whole English sentence is known, "
            "so every decoder position may look at every English word "
            "(in a padded batch, the English pads would still be masked).",
        ),
        Exercise(
            "Compute the output: multiply each of the encoder's value rows by its attention weight, "
            "then add the scaled rows column by column (here V = K, no projections).",
            given=[Table("encoder values V, one row per English word", trace.v, 2, rows=keys, columns=values)],
            answer=[
                Table("each value row × its attention weight", trace.weighted_values[i], 3, rows=keys, columns=values),
                Table("output", trace.output[i], 3, columns=values),
            ],
        ),
        Exercise(
            "Every decoder position does the same. How many rows and columns has the matrix of all attention "
            "weights, and why is it not square?",
            answer=[Table("attention weights, one row per decoder position", trace.weights, 2, rows=positions, columns=keys)],
            note=f"{len(positions)} decoder positions (queries) by {len(keys)} English words (keys): "
            "the two sentences have different lengths.",
        ),
    ]


def learning_to_attend_exercises(trace: LearningToAttendTrace) -> list[Exercise]:
    """The learned alignment read off the example's matrix, and the bottleneck read off accuracy by length."""
    n = trace.length
    writes, reads = [f"{t + 1}: {letter}" for t, letter in enumerate(trace.example_target)], list(trace.example_source)
    lengths = [str(length) for length in trace.lengths]
    return [
        Exercise(
            f"Before training, the attention model's weights on a held-out sequence are flat. Each row shares 1 among "
            f"{n} input positions: what weight does each get? To reverse the sequence, which input position should "
            f"output step t read?",
            given=[
                Table(
                    "weights before training (rows: output steps, columns: input letters)", trace.snapshots[0], 2, writes, reads
                )
            ],
            answer=[
                Table("flat attention: 1 / n", np.array([trace.uniform_weight]), 2),
                Table(
                    "input position each output step should read",
                    np.arange(n, 0, -1, dtype=float),  # step t reads position n − t + 1, both counted from 1
                    0,
                    columns=[str(t + 1) for t in range(n)],
                ),
            ],
            note=f"Output step t should read input position {n} − t + 1 (counting from 1): the anti-diagonal.",
        ),
        Exercise(
            f"After {trace.steps:,} batches of training, circle the weight on the mirrored position in each row. "
            "Is it the largest in its row? Average the circled weights, and compare that with the mean over all "
            "held-out sequences and with flat attention.",
            given=[Table("weights after training", trace.snapshots[-1], 2, writes, reads)],
            answer=[
                Table(
                    f"mean weight on the mirrored position: this sequence, all {trace.heldout_per_length} held-out "
                    "sequences, and flat",
                    np.array([trace.example_mirror_weight[-1], trace.mirror_weight, trace.uniform_weight]),
                    2,
                    columns=["this sequence", "held-out mean", "flat"],
                )
            ],
            note="Nobody wrote this alignment: training on the loss alone put the weight there.",
        ),
        Exercise(
            "Both trained models were measured at every length. At which lengths does the model without attention "
            "keep up with the one with attention, and where does it fall behind? Why would it?",
            given=[Table("lengths", trace.lengths, 0)],
            answer=[
                Table("token accuracy with attention", trace.attention_accuracy_by_length, 2, columns=lengths),
                Table("token accuracy without attention", trace.baseline_accuracy_by_length, 2, columns=lengths),
            ],
            note="Without attention the decoder sees only the encoder's final state: one vector must carry the "
            f"whole sequence. Here that state ({trace.hidden_size} numbers), trained as long as the attention model, "
            "keeps up on short sequences and falls behind on long ones.",
        ),
    ]


def sentiment_attention_exercises(trace: SentimentAttentionTrace) -> list[Exercise]:
    """Softmax of one review's scores; the misleading negation; accuracy with and without negations."""
    first = trace.focus
    n = int(trace.sentence_lengths[first])
    words = list(trace.sentences[first])
    exercises = [
        Exercise(
            f"The classifier scored each word of “{' '.join(words)}”. Apply softmax to get the attention weights: "
            "exponentiate each score, add them up, divide each by the sum. Which word gets the most weight?",
            given=[Table("scores", trace.scores[first, :n], 2, columns=words)],
            answer=[Table("attention weights", trace.weights[first, :n], 2, columns=words)],
        )
    ]
    if trace.misleading >= 0:
        k, top = trace.misleading, trace.misleading_top
        review = list(trace.sentences[k])[: int(trace.sentence_lengths[k])]
        exercises.append(
            Exercise(
                f"The review “{' '.join(review)}” gives nearly all its weight to “{review[top]}”. Each word read alone "
                "as a one-word review gets the probability below. The review's logit is the weighted average of its "
                "words' lone logits: what probability of positive do you expect for the review?",
                given=[
                    Table("attention weights", trace.weights[k, : len(review)], 2, columns=review),
                    Table("P(positive) of each word alone", trace.word_alone[k, : len(review)], 2, columns=review),
                ],
                answer=[Table("P(positive) of the review", np.array([trace.probabilities[k]]), 2)],
                note="Close to the most weighted word's own reading: the weights say which words were pooled, "
                "not what they mean together.",
            )
        )
    exercises.append(
        Exercise(
            f"Of the {trace.n_heldout_random} held-out reviews drawn at random, {trace.n_heldout_negated} contain a negation word "
            f"({', '.join(trace.negation_words)}). "
            "Which group would you expect the classifier to get right more often, and why?",
            answer=[
                Table(
                    "held-out accuracy",
                    np.array([trace.heldout_accuracy_negated, trace.heldout_accuracy_plain]),
                    2,
                    columns=["with a negation", "without"],
                )
            ],
            note=f"{trace.n_heldout_negated_right} of {trace.n_heldout_negated} right with a negation (a small sample, "
            "from one run), "
            f"{trace.n_heldout_plain_right} of {trace.n_heldout_plain} without. A word's score depends on the word "
            "alone: it is the same in every review, so the negation word takes the weight (in "
            f"{trace.n_heldout_negation_first} of {trace.n_heldout_negated}) and the verdict follows what that word reads "
            "alone "
            f"(in {trace.n_heldout_negation_first_follows} of those {trace.n_heldout_negation_first}), whatever it "
            "negates. "
            + " ".join(
                f"Of the {n} with “{word}” (alone, P = {format_number(p, 2)}), {against} are labelled the opposite of that."
                for word, n, p, against in zip(
                    trace.negation_words, trace.n_heldout_with_negation, trace.negation_alone, trace.n_negation_against_lean
                )
            )
            + (
                " The training reviews with each were about as often positive as negative, so about half right is what "
                "to expect; a sample this small can fall further from it."
                if all(abs(p / n - 0.5) < 0.1 for p, n in zip(trace.n_train_negation_positive, trace.n_train_with_negation) if n)
                else ""
            )
            + " When nearly all the weight is on the negation word, a weighted average of "
            "words read one at a time cannot get both “not good” and “not bad” right; a recurrent layer before the "
            "scoring (as in Yang et al. 2016) gives each word's vector its neighbours.",
        )
    )
    return exercises


EXERCISES_BY_TRACE = {
    AttentionTrace: attention_exercises,
    PaddingMaskTrace: padding_mask_exercises,
    CrossAttentionTrace: cross_attention_exercises,
    ScalingTrace: scaling_exercises,
    SoftmaxTrace: softmax_exercises,
    BottleneckTrace: bottleneck_exercises,
    MultiHeadTrace: multi_head_exercises,
    PositionalTrace: positional_exercises,
    KVCacheTrace: kv_cache_exercises,
    TransformerBlockTrace: block_exercises,
    ComplexityTrace: complexity_exercises,
    TrainedHeadsTrace: trained_heads_exercises,
    LearningToAttendTrace: learning_to_attend_exercises,
    SentimentAttentionTrace: sentiment_attention_exercises,
}


def exercises_for(trace: Trace) -> list[Exercise]:
    """The worksheet exercises for a trace; empty when its kind has none yet."""
    # The nearest kind in the trace's class hierarchy: a CausalMaskTrace is an AttentionTrace.
    builder = next((EXERCISES_BY_TRACE[kind] for kind in type(trace).__mro__ if kind in EXERCISES_BY_TRACE), None)
    return builder(trace) if builder else []
