"""Softmax: from one row of scores to weights, as exp, sum and divide, on seed 000's Exercise 2."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import attention_scores, softmax
from ..examples import CAT_DOG_MAT, Example
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
        The query vector ``(d,)``.
    keys
        The key vectors ``(n, d)``.
    scores
        ``keys @ query``, ``(n,)`` (unscaled, as in the exercise).
    exp_scores
        ``exp(scores)``: every one positive.
    exp_sum
        Their sum, the normaliser.
    weights
        ``exp_scores / exp_sum``: softmax of the scores.
    weight_sum
        The weights added up (1 up to rounding).
    multipliers
        ``(m,)``: factors the row is multiplied by to widen the gaps between scores.
    sharpened_scores
        ``(m, n)``: ``multipliers[:, None] * scores``.
    sharpened_weights
        ``(m, n)``: softmax of each sharpened row; row 0 is ``weights`` when the first factor is 1.
    source
        Where the row comes from.
    """

    tokens: tuple[str, ...]
    query: np.ndarray
    keys: np.ndarray
    scores: np.ndarray
    exp_scores: np.ndarray
    exp_sum: float
    weights: np.ndarray
    weight_sum: float
    multipliers: np.ndarray
    sharpened_scores: np.ndarray
    sharpened_weights: np.ndarray
    source: str


def softmax_trace(
    example: Example = CAT_DOG_MAT,
    query_index: int = 0,
    multipliers: Sequence[float] = (1, 2, 4, 8),
) -> SoftmaxTrace:
    """Softmax of one query's dot products with every key, written out as exp, sum, divide.

    The default is seed 000's Exercise 2: query "cat" = [0.5, 0.8] against keys cat,
    dog and mat, scores [0.89, 0.76, 0.31]. Its weights are computed here; the
    notebook's printed answer [0.44, 0.38, 0.18] does not match its own code.
    """
    keys = example.embeddings
    query = keys[query_index]
    scores = attention_scores(query[np.newaxis], keys, scale=False)[0]  # (n,)
    # No max-subtraction here: these small scores are safe, and e^score is what the class computes by hand.
    exp_scores = np.exp(scores)
    exp_sum = float(exp_scores.sum())
    weights = exp_scores / exp_sum
    multipliers = np.asarray(multipliers, dtype=float)
    sharpened_scores = multipliers[:, np.newaxis] * scores  # (m, n)
    return SoftmaxTrace(
        tokens=tuple(example.tokens),
        query=query,
        keys=keys,
        scores=scores,
        exp_scores=exp_scores,
        exp_sum=exp_sum,
        weights=weights,
        weight_sum=float(weights.sum()),
        multipliers=multipliers,
        sharpened_scores=sharpened_scores,
        sharpened_weights=softmax(sharpened_scores),
        source=example.source,
    )
