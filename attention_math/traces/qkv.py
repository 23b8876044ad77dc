"""Queries, keys and values: three projections of the same embeddings.

Queries ask "what am I looking for?", keys "what do I contain?" (Vaswani et al. 2017, 3.2). The
trace is an :class:`~attention_math.traces.self_attention.AttentionTrace` with
``W_Q``, ``W_K`` and ``W_V`` filled in.
"""

from __future__ import annotations

import numpy as np

from ..examples import DEFAULT_SEED, THE_CAT_SAT, Example, random_matrix
from .self_attention import AttentionTrace, attention_trace

__all__ = [
    "qkv_trace",
    "most_asymmetric_key",
    "top_keys",
    "same_embeddings",
    "bright_keys",
    "longest_embeddings",
    "QKV_SEED",
]

QKV_SEED = DEFAULT_SEED
"""The seed the Q/K/V scene draws its random projection matrices with by default (the default of every trace).

Not picked for the look of its score table. Its broad pattern (bright columns for cat, sat and mat)
comes from the hand-made embeddings, not from the seed: see :func:`bright_keys`.
"""


def qkv_trace(seed: int = DEFAULT_SEED, example: Example = THE_CAT_SAT, focus: int = 1) -> AttentionTrace:
    """Self-attention with queries, keys and values projected from the same embeddings.

    ``W_Q``, ``W_K`` and ``W_V`` are drawn in that order from
    ``numpy.random.default_rng(seed)`` (square, so ``d_k`` is the embedding width);
    ``focus`` defaults to "cat", the row a scene works out by hand.
    """
    d = example.embeddings.shape[1]
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v = (random_matrix(rng, d, d) for _ in range(3))
    return attention_trace(
        example.tokens,
        example.embeddings,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        focus=focus,
        source=f"{example.source}; W_Q, W_K, W_V drawn from default_rng({seed})",
    )


def most_asymmetric_key(trace: AttentionTrace, query: int) -> int:
    """The key ``j != query`` whose score from ``query`` differs most from its own score for ``query``.

    ``scaled_scores[query, j]`` against ``scaled_scores[j, query]``: with W_Q different from
    W_K the score table is not symmetric, and this pair shows it most.
    """
    scores = trace.scaled_scores
    gaps = np.abs(scores[query, :] - scores[:, query])  # (n,)
    gaps[query] = -1.0
    return int(np.argmax(gaps))


def top_keys(trace: AttentionTrace, query: int) -> list[int]:
    """Every key that ties for the highest score of ``query`` (a word twice with one embedding gives one key twice)."""
    row = trace.scaled_scores[query]
    return [int(j) for j in np.flatnonzero(row == row.max())]


def same_embeddings(trace: AttentionTrace) -> list[tuple[int, ...]]:
    """Groups of two or more positions whose embeddings are equal ("The" and "the"): their keys, queries and values are too."""
    groups: dict[bytes, list[int]] = {}
    for position, row in enumerate(np.asarray(trace.x_key)):
        groups.setdefault(row.tobytes(), []).append(position)
    return [tuple(group) for group in groups.values() if len(group) > 1]


def bright_keys(trace: AttentionTrace) -> list[int]:
    """The keys whose column of scaled scores is bright: its mean above the middle of the columns' means.

    The score table's colours go from its lowest to its highest score; a column whose mean sits
    above halfway between the dimmest and the brightest column's mean is what a viewer sees as a
    bright column.
    """
    means = trace.scaled_scores.mean(axis=0)  # (n_k,) one mean per key column
    middle = (means.min() + means.max()) / 2
    return [int(j) for j in np.flatnonzero(means > middle)]


def longest_embeddings(trace: AttentionTrace, count: int) -> list[int]:
    """The ``count`` keys whose embeddings (rows of ``x_key``) are longest, in key order.

    With random W_Q and W_K a longer embedding gives larger queries and keys on average, so the
    keys given the largest numbers tend to score highest for every query.
    """
    lengths = np.linalg.norm(trace.x_key, axis=1)  # (n_k,)
    return sorted(int(j) for j in np.argsort(-lengths, kind="stable")[:count])


def bright_queries(trace: AttentionTrace) -> list[int]:
    """The queries whose row of scaled scores is bright: its mean above the middle of the rows' means (as :func:`bright_keys`)."""
    means = trace.scaled_scores.mean(axis=1)  # (n_q,) one mean per query row
    middle = (means.min() + means.max()) / 2
    return [int(i) for i in np.flatnonzero(means > middle)]


def top_shown_alone(trace: AttentionTrace, decimals: int = 2) -> bool:
    """Whether every row's highest scaled score is still highest alone when rounded to ``decimals``, as a table shows it."""
    shown = np.round(trace.scaled_scores, decimals)
    return all(np.count_nonzero(row == row.max()) == 1 for row in shown)


def common_top_key(trace: AttentionTrace) -> int | None:
    """The key that every query scores highest, alone in every row; None when the rows' highest keys differ or tie."""
    scores = trace.scaled_scores
    tops = {int(j) for row in scores for j in np.flatnonzero(row == row.max())}
    alone = all(np.count_nonzero(row == row.max()) == 1 for row in scores)
    return tops.pop() if alone and len(tops) == 1 else None
