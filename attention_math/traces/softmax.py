"""Softmax: from one row of scores to weights, as exp, sum and divide, on a query "cat" and three keys made up by hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import attention_scores, softmax
from ..examples import CAT_DOG_MAT, DEFAULT_SEED, Example
from .base import Trace

__all__ = ["SoftmaxTrace", "softmax_trace"]


@dataclass(frozen=True, eq=False)
class SoftmaxTrace(Trace):
    """One row of scores turned into weights, step by step, and the same row sharpened.

    Attributes
    ----------
    tokens
        The keys, one per score.
    query
        The query vector ``(d,)``: made up by hand, the first key itself (so that key scores highest, as built).
    keys
        The key vectors ``(n, d)``.
    key_lengths
        ``(n,)``: each key's length ``|k|``. With the query one of the keys, that key scores highest
        when no other key is longer (its score is ``|q|²``, another's at most ``|q| |k|``).
    scores
        ``keys @ query``, ``(n,)``, not divided by ``sqrt(d)``: softmax alone, before any scaling.
    exp_scores
        ``exp(scores)``: every one positive.
    exp_sum
        Their sum, the normaliser.
    weights
        ``exp_scores / exp_sum``: softmax of the scores.
    weight_sum
        The weights added up (1 up to rounding).
    multipliers
        ``(m,)``: factors the row is multiplied by: below 1 they shrink the gaps between scores, above 1 widen them.
    temperatures
        ``1 / multipliers``: multiplying the scores by ``m`` is dividing them by the temperature ``T = 1/m``.
    sharpened_scores
        ``(m, n)``: ``multipliers[:, None] * scores``.
    sharpened_weights
        ``(m, n)``: softmax of each row of ``sharpened_scores``; the row whose factor is 1 is ``weights``.
    unchanged
        Index of the factor 1 in ``multipliers``: the row as it is.
    negative_score
        A negative score, beside the example (whose scores are all positive): what e to the power does to it.
    negative_exp
        ``exp(negative_score)``: positive, though the score is not.
    d_k
        The query's length, 2: attention divides the scores by ``sqrt(d_k)``.
    scale
        ``sqrt(d_k)``.
    scaled_scores
        ``scores / scale``: the scores attention really uses.
    scaled_weights
        Softmax of ``scaled_scores``: the attention weights of this example.
    spread_d_k
        ``(2,)``: two widths of random vectors, a small and a large one, for why attention divides by ``sqrt(d_k)``.
    spread_dots
        ``(2, spread_samples)``: dot products ``q · k`` of random ``q`` and ``k`` with entries of mean 0 and
        variance 1 (``numpy.random.default_rng(seed)``), one row per width.
    spread_scale
        ``(2,)``: ``sqrt(spread_d_k)``, what each row is divided by.
    spread_scaled
        ``spread_dots / sqrt(spread_d_k)``: the same products divided.
    spread_std
        ``(2,)``: each row's standard deviation (its spread), about ``sqrt(d_k)``.
    spread_scaled_std
        ``(2,)``: the divided rows' standard deviations, about 1 at every width.
    source
        Where the row comes from.
    """

    tokens: tuple[str, ...]
    query: np.ndarray
    keys: np.ndarray
    key_lengths: np.ndarray
    scores: np.ndarray
    exp_scores: np.ndarray
    exp_sum: float
    weights: np.ndarray
    weight_sum: float
    multipliers: np.ndarray
    temperatures: np.ndarray
    sharpened_scores: np.ndarray
    sharpened_weights: np.ndarray
    unchanged: int
    negative_score: float
    negative_exp: float
    d_k: int
    scale: float
    scaled_scores: np.ndarray
    scaled_weights: np.ndarray
    spread_d_k: np.ndarray
    spread_dots: np.ndarray
    spread_scale: np.ndarray
    spread_scaled: np.ndarray
    spread_std: np.ndarray
    spread_scaled_std: np.ndarray
    source: str


def softmax_trace(
    example: Example = CAT_DOG_MAT,
    query_index: int = 0,
    multipliers: Sequence[float] = (0.5, 1, 2, 4, 8),
    negative_score: float = -1.0,
    spread_d_k: Sequence[int] = (4, 64),
    spread_samples: int = 200,
    seed: int = DEFAULT_SEED,
) -> SoftmaxTrace:
    """Softmax of one query's dot products with every key, written out as exp, sum, divide.

    The default is seed 000's Exercise 2: query "cat" = [0.5, 0.8] against keys cat,
    dog and mat, scores [0.89, 0.76, 0.31]. Its weights are computed here; the
    notebook's printed answer [0.44, 0.38, 0.18] does not match its own code.
    ``multipliers`` must hold 1 (the row as it is); ``negative_score`` must be below 0.
    ``spread_samples`` random pairs of each width in ``spread_d_k`` (drawn with ``seed``) show why the
    scores are divided by ``sqrt(d_k)``.
    """
    multipliers = np.asarray(multipliers, dtype=float)
    if not (multipliers == 1).any():
        raise ValueError("multipliers must include 1, the scores as they are")
    if not negative_score < 0:
        raise ValueError("negative_score must be negative")
    keys = example.embeddings
    query = keys[query_index]
    scores = attention_scores(query[np.newaxis], keys, scale=False)[0]  # (n,)
    # No max-subtraction here: these small scores are safe, and e^score is what the class computes by hand.
    exp_scores = np.exp(scores)
    exp_sum = float(exp_scores.sum())
    weights = exp_scores / exp_sum
    sharpened_scores = multipliers[:, np.newaxis] * scores  # (m, n)
    d_k = int(query.shape[0])
    scale = float(np.sqrt(d_k))
    scaled_scores = attention_scores(query[np.newaxis], keys, scale=True)[0]  # (n,) scores / sqrt(d_k)
    # Random q and k of each width: their dot products spread like sqrt(d_k); divided, like 1.
    rng = np.random.default_rng(seed)
    widths = np.asarray(spread_d_k, dtype=int)
    dots = np.stack(
        [
            np.einsum("sd,sd->s", rng.standard_normal((spread_samples, d)), rng.standard_normal((spread_samples, d)))
            for d in widths
        ]
    )  # (2, samples)
    roots = np.sqrt(widths)  # (2,)
    divided = dots / roots[:, np.newaxis]
    return SoftmaxTrace(
        tokens=tuple(example.tokens),
        query=query,
        keys=keys,
        key_lengths=np.linalg.norm(keys, axis=1),
        scores=scores,
        exp_scores=exp_scores,
        exp_sum=exp_sum,
        weights=weights,
        weight_sum=float(weights.sum()),
        multipliers=multipliers,
        temperatures=1.0 / multipliers,
        sharpened_scores=sharpened_scores,
        sharpened_weights=softmax(sharpened_scores),
        unchanged=int(np.flatnonzero(multipliers == 1)[0]),
        negative_score=float(negative_score),
        negative_exp=float(np.exp(negative_score)),
        d_k=d_k,
        scale=scale,
        scaled_scores=scaled_scores,
        scaled_weights=softmax(scaled_scores[np.newaxis])[0],
        spread_d_k=widths,
        spread_dots=dots,
        spread_scale=roots,
        spread_scaled=divided,
        spread_std=dots.std(axis=1),
        spread_scaled_std=divided.std(axis=1),
        source=example.source,
    )
