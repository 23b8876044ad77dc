"""Common mistakes, computed: what a learner gets who makes one of them, for the wrong options of a question.

A multiple-choice question's wrong options are never typed: each is the result of one named
mistake, run on the same inputs as the right answer (forgetting to divide by sqrt(d_k), softmax
over the wrong axis, forgetting the mask, summing the keys instead of the values...). Each function
here makes exactly one mistake and nothing else; :data:`MISTAKES` says what each mistake is, in the
words the feedback uses. Pure numpy, like the rest of :mod:`attention_math`.
"""

from __future__ import annotations

import numpy as np

from .core import softmax

__all__ = [
    "MISTAKES",
    "softmax_without_scaling",
    "softmax_divided_by_d_k",
    "softmax_without_mask",
    "softmax_over_queries",
    "weighted_sum_of_keys",
    "plain_average_of_values",
    "exponentials_not_normalised",
    "scores_divided_by_their_sum",
    "score_from_inputs",
    "sample_variance",
    "standard_deviation_for_variance",
    "entry_variance_for_dot_product",
    "head_width_multiplied",
    "head_width_unsplit",
    "cache_of_keys_only",
    "cache_of_one_token",
    "score_with_values",
    "mean_of_squares",
    "swapped_sin_cos",
    "linear_growth",
    "cosine_of_degrees",
    "sine_of_degrees",
    "copying_position",
    "position_counted_from_zero",
]

MISTAKES: dict[str, str] = {
    "no-scaling": "softmax without dividing by √d_k",
    "divided-by-d-k": "the scores divided by d_k instead of its square root",
    "no-mask": "softmax without the mask: the hidden keys kept their scores",
    "wrong-axis": "softmax over the wrong axis (down a column, over the queries, instead of along the row of keys)",
    "summed-keys": "the weights applied to the keys instead of the values",
    "plain-average": "a plain average of the values, as if every key had the same weight",
    "no-normalising": "e to the power of the score, never divided by the sum of the exponentials",
    "no-exponential": "the score divided by the sum of the scores, without exponentiating first",
    "no-projection": "the dot product of the embeddings, without the projections W_Q and W_K",
    "sample-variance": "the sample variance (dividing by n − 1, torch.var's default), where layer norm divides by n",
    "standard-deviation": "√d_k, the standard deviation of the dot product, not its variance",
    "entry-variance": "1, the variance of one entry, as if adding d_k products did not add up their variances",
    "multiplied-heads": "d_model multiplied by the number of heads instead of divided",
    "unsplit-head": "the whole width d_model, as if each head saw every dimension",
    "keys-only": "the key cache alone: the values are cached too",
    "one-token": "the numbers one token adds to the caches (a key and a value), not the whole cache after every step",
    "value-for-key": "the query's dot product with the value vector instead of the key",
    "no-centring": "the mean of x², without subtracting the mean first",
    "swapped-sin-cos": "sin and cos swapped: the even dimensions take sin, the odd ones cos",
    "linear-growth": "the growth of a cost linear in n: doubling n doubles it, while n × n cells grow four times",
    "degrees": "the angle read in degrees instead of radians",
    "copying": "output step t reading input position t: that copies the sequence instead of reversing it",
    "counted-from-zero": "n − t: the mirrored position counted from 0, while the positions here count from 1",
}
"""Each named mistake, as the feedback says it ("This is softmax without dividing by √d_k.")."""


def _row_mask(mask: np.ndarray | None, shape: tuple[int, ...]) -> np.ndarray:
    return np.ones(shape, dtype=bool) if mask is None else np.broadcast_to(np.asarray(mask, dtype=bool), shape)


def softmax_without_scaling(raw_scores: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Softmax of the raw scores q · k, masked but never divided by sqrt(d_k) (``no-scaling``)."""
    raw_scores = np.asarray(raw_scores, dtype=float)
    return softmax(np.where(_row_mask(mask, raw_scores.shape), raw_scores, -np.inf))


def softmax_divided_by_d_k(raw_scores: np.ndarray, d_k: int, mask: np.ndarray | None = None) -> np.ndarray:
    """Softmax of the raw scores divided by d_k itself, not by its square root (``divided-by-d-k``)."""
    return softmax_without_scaling(np.asarray(raw_scores, dtype=float) / d_k, mask)


def softmax_without_mask(scaled_scores: np.ndarray) -> np.ndarray:
    """Softmax of the scaled scores with the mask left out: hidden keys take weight (``no-mask``)."""
    return softmax(np.asarray(scaled_scores, dtype=float))


def softmax_over_queries(masked_scores: np.ndarray) -> np.ndarray:
    """Softmax down each column (over the queries, axis 0) instead of along each row of keys (``wrong-axis``).

    A column whose entries are all masked (``-inf``) has no distribution: its weights are 0.
    """
    masked_scores = np.asarray(masked_scores, dtype=float)  # (n_q, n_k)
    visible = ~np.isneginf(masked_scores).all(axis=0)  # (n_k,): columns with a visible entry
    weights = np.zeros_like(masked_scores)
    weights[:, visible] = softmax(masked_scores[:, visible], axis=0)
    return weights


def weighted_sum_of_keys(weights: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``weights @ k``: the attention weights applied to the keys instead of the values (``summed-keys``)."""
    return np.asarray(weights, dtype=float) @ np.asarray(k, dtype=float)  # (n_q, d_k)


def plain_average_of_values(v: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The mean of the visible value rows, every key weighted the same (``plain-average``): ``(n_q, d_v)``."""
    v = np.asarray(v, dtype=float)
    mask = _row_mask(mask, (1, len(v))) if mask is None else np.asarray(mask, dtype=bool)
    return (mask / mask.sum(axis=-1, keepdims=True)) @ v


def exponentials_not_normalised(scores: np.ndarray) -> np.ndarray:
    """``exp(scores)``: softmax that never divides by the sum (``no-normalising``)."""
    return np.exp(np.asarray(scores, dtype=float))


def scores_divided_by_their_sum(scores: np.ndarray) -> np.ndarray:
    """``scores / sum(scores)`` along the last axis: normalising without exponentiating (``no-exponential``)."""
    scores = np.asarray(scores, dtype=float)
    return scores / scores.sum(axis=-1, keepdims=True)


def score_from_inputs(x_query: np.ndarray, x_key: np.ndarray) -> np.ndarray:
    """``x_query @ x_key.T``: the scores of the embeddings, the projections W_Q and W_K forgotten (``no-projection``)."""
    return np.asarray(x_query, dtype=float) @ np.asarray(x_key, dtype=float).T  # (n_q, n_k)


def sample_variance(x: np.ndarray) -> np.ndarray:
    """The variance over the last axis divided by n − 1 (``sample-variance``); layer norm divides by n."""
    return np.var(np.asarray(x, dtype=float), axis=-1, ddof=1)


def standard_deviation_for_variance(d_k: int | np.ndarray) -> np.ndarray:
    """``sqrt(d_k)``: the spread of q · k given for its variance (``standard-deviation``)."""
    return np.sqrt(np.asarray(d_k, dtype=float))


def entry_variance_for_dot_product(d_k: int | np.ndarray) -> np.ndarray:
    """1 for every width: the variance of one product q_i k_i given for the sum of d_k of them (``entry-variance``)."""
    return np.ones_like(np.asarray(d_k, dtype=float))


def head_width_multiplied(d_model: int | np.ndarray, heads: int | np.ndarray) -> np.ndarray:
    """``d_model × heads`` for a head's width (``multiplied-heads``); it is ``d_model ÷ heads``."""
    return np.asarray(d_model, dtype=float) * np.asarray(heads, dtype=float)


def head_width_unsplit(d_model: int | np.ndarray) -> np.ndarray:
    """``d_model`` for a head's width: the split into heads forgotten (``unsplit-head``)."""
    return np.asarray(d_model, dtype=float)


def cache_of_keys_only(n_tokens: int, d: int) -> float:
    """``n × d``: the numbers of the key cache alone, the value cache forgotten (``keys-only``)."""
    return float(n_tokens * d)


def cache_of_one_token(d: int) -> float:
    """``2 × d``: the numbers one token adds to the caches, given for the whole cache after n steps (``one-token``)."""
    return float(2 * d)


def score_with_values(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``q @ v.T``: the query's dot product with the value vectors instead of the keys (``value-for-key``)."""
    return np.asarray(q, dtype=float) @ np.asarray(v, dtype=float).T  # (n_q, n_k)


def mean_of_squares(x: np.ndarray) -> np.ndarray:
    """The mean of x² over the last axis: a variance with the mean never subtracted (``no-centring``)."""
    x = np.asarray(x, dtype=float)
    return np.mean(x * x, axis=-1)


def swapped_sin_cos(angle: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(cos, sin)`` of the angle where ``(sin, cos)`` belong: even and odd dimensions swapped (``swapped-sin-cos``)."""
    angle = np.asarray(angle, dtype=float)
    return np.cos(angle), np.sin(angle)


def linear_growth(lengths: np.ndarray) -> np.ndarray:
    """The factor each count grows by from one length to the next, were it linear in n (``linear-growth``).

    Where the lengths double, that is 2; attention's n × n part grows by 4.
    """
    lengths = np.asarray(lengths, dtype=float)
    return lengths[1:] / lengths[:-1]


def cosine_of_degrees(angle: float | np.ndarray) -> np.ndarray:
    """``cos`` of an angle meant in radians, read in degrees (``degrees``)."""
    return np.cos(np.deg2rad(np.asarray(angle, dtype=float)))


def sine_of_degrees(angle: float | np.ndarray) -> np.ndarray:
    """``sin`` of an angle meant in radians, read in degrees (``degrees``)."""
    return np.sin(np.deg2rad(np.asarray(angle, dtype=float)))


def copying_position(step: int) -> int:
    """Input position ``step`` for output step ``step`` (from 1): copying, not reversing (``copying``)."""
    return int(step)


def position_counted_from_zero(n: int, step: int) -> int:
    """``n − step``: the mirrored position of output step ``step`` counted from 0 (``counted-from-zero``)."""
    return int(n) - int(step)
