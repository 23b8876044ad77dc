"""Queries, keys and values: three projections of the same embeddings.

Follows seed 003 "Query, Key, Value" and seed 000 "What am I looking for?". The
trace is an :class:`~attention_math.traces.self_attention.AttentionTrace` with
``W_Q``, ``W_K`` and ``W_V`` filled in.
"""

from __future__ import annotations

import numpy as np

from ..examples import DEFAULT_SEED, THE_CAT_SAT, Example, random_matrix
from .self_attention import AttentionTrace, attention_trace

__all__ = ["qkv_trace"]


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
