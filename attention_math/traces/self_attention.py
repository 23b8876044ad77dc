"""Self-attention, and the trace of one attention pass with every intermediate.

:class:`AttentionTrace` is shared: the self-attention and Q/K/V scenes show it as
it is, and the mask and cross-attention traces extend it with a few fields of
their own (see :func:`extend_trace`), so a scene reads ``"weights"``,
``"masked_scores"`` or ``"mask"`` by the same paths everywhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..core import attention_scores, softmax
from ..examples import THE_CAT_SAT, Example
from .base import Trace

__all__ = ["AttentionTrace", "SelfAttentionTrace", "attention_trace", "self_attention_trace", "extend_trace"]


@dataclass(frozen=True, eq=False)
class AttentionTrace(Trace):
    """One attention pass, query rows against key columns, with every intermediate.

    Attributes
    ----------
    query_tokens, key_tokens
        Labels of the rows and the columns (the same for self-attention).
    x_query, x_key
        Inputs the queries and the keys/values are projected from.
    w_q, w_k, w_v
        Projections; ``None`` when Q, K and V are the inputs themselves.
    q, k, v
        Queries ``(n_q, d_k)``, keys ``(n_k, d_k)``, values ``(n_k, d_v)``.
    raw_scores
        ``q @ k.T``, ``(n_q, n_k)``.
    scale
        ``sqrt(d_k)``, what the raw scores are divided by.
    scaled_scores
        ``raw_scores / scale``.
    mask
        Boolean ``(n_q, n_k)``, True where a query may attend; all True without a mask.
    masked_scores
        ``scaled_scores`` with ``-inf`` where the mask is False.
    weights
        ``softmax(masked_scores)`` over keys; each row sums to 1.
    output
        ``weights @ v``, ``(n_q, d_v)``.
    weighted_values
        ``weights[i, j] * v[j]``, ``(n_q, n_k, d_v)``: each value row scaled by its attention
        weight; summed over the keys (axis 1) they give ``output``.
    focus
        Index of the query row a scene walks through one dot product at a time.
    focus_terms
        ``q[focus] * k``: the products whose row sums are ``raw_scores[focus]``.
    uniform_weight
        ``1 / n_k``: each key's weight if attention were spread evenly, what near-even weights are compared with.
    self_scores
        ``raw_scores[i, i]`` for each query (self-attention only, else empty): with Q = K a word's score with
        itself is its squared length, ``|x_i|²``. It is the row's largest score unless a longer row points its
        way (see :class:`SelfAttentionTrace`).
    source
        Where the inputs come from, said on screen.
    """

    query_tokens: tuple[str, ...]
    key_tokens: tuple[str, ...]
    x_query: np.ndarray
    x_key: np.ndarray
    w_q: np.ndarray | None
    w_k: np.ndarray | None
    w_v: np.ndarray | None
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    raw_scores: np.ndarray
    scale: float
    scaled_scores: np.ndarray
    mask: np.ndarray
    masked_scores: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    weighted_values: np.ndarray
    focus: int
    focus_terms: np.ndarray
    uniform_weight: float
    self_scores: np.ndarray
    source: str

    @property
    def d_k(self) -> int:
        """Width of the queries and keys."""
        return int(self.q.shape[-1])


def attention_trace(
    query_tokens: Sequence[str],
    x_query: np.ndarray,
    key_tokens: Sequence[str] | None = None,
    x_key: np.ndarray | None = None,
    w_q: np.ndarray | None = None,
    w_k: np.ndarray | None = None,
    w_v: np.ndarray | None = None,
    mask: np.ndarray | None = None,
    focus: int = 0,
    source: str = "",
) -> AttentionTrace:
    """Run attention and keep every intermediate.

    Without ``key_tokens``/``x_key`` this is self-attention (keys and values come
    from ``x_query``). Without projections, Q, K and V are the inputs themselves,
    as in the course notebooks' first example.
    """
    x_query = np.asarray(x_query, dtype=float)
    self_attention = x_key is None
    x_key = x_query if self_attention else np.asarray(x_key, dtype=float)
    key_tokens = tuple(query_tokens if key_tokens is None else key_tokens)
    if len(query_tokens) != len(x_query) or len(key_tokens) != len(x_key):
        raise ValueError("one token label per input row is needed")

    q = x_query if w_q is None else x_query @ w_q  # (n_q, d_k)
    k = x_key if w_k is None else x_key @ w_k  # (n_k, d_k)
    v = x_key if w_v is None else x_key @ w_v  # (n_k, d_v)
    raw_scores = attention_scores(q, k, scale=False)  # (n_q, n_k)
    scale = float(np.sqrt(q.shape[-1]))
    scaled_scores = raw_scores / scale
    mask = np.ones(raw_scores.shape, dtype=bool) if mask is None else np.broadcast_to(mask, raw_scores.shape)
    masked_scores = np.where(mask, scaled_scores, -np.inf)
    weights = softmax(masked_scores)
    output = weights @ v  # (n_q, d_v)
    weighted_values = weights[:, :, np.newaxis] * v[np.newaxis, :, :]  # (n_q, n_k, d_v)
    return AttentionTrace(
        query_tokens=tuple(query_tokens),
        key_tokens=key_tokens,
        x_query=x_query,
        x_key=x_key,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        q=q,
        k=k,
        v=v,
        raw_scores=raw_scores,
        scale=scale,
        scaled_scores=scaled_scores,
        mask=np.array(mask, dtype=bool),
        masked_scores=masked_scores,
        weights=weights,
        output=output,
        weighted_values=weighted_values,
        focus=focus,
        focus_terms=q[focus] * k,  # (n_k, d_k)
        uniform_weight=1.0 / len(key_tokens),
        self_scores=np.diagonal(raw_scores).copy() if self_attention else np.zeros(0),
        source=source,
    )


@dataclass(frozen=True, eq=False)
class SelfAttentionTrace(AttentionTrace):
    """Self-attention with Q = K = V = X, and where each word looks most.

    With Q = K, ``x_i · x_j ≤ |x_i| |x_j|`` (Cauchy–Schwarz): a word scores higher with another word than with
    itself only when that word is longer than it and points its way. So the longest word always looks most at
    itself, and a word that looks most elsewhere looks at a longer word.

    Attributes
    ----------
    strongest_keys
        ``(n,)``: for each query, the key it gives the largest weight (softmax keeps the order, so also its
        largest score); on a tie with itself (a repeated word), the word itself.
    strongest_scores
        ``(n,)``: ``raw_scores[i, strongest_keys[i]]``, each row's largest score, to compare with ``self_scores``.
    looks_at_itself
        ``(n,)`` booleans: ``strongest_keys[i] == i``, the word's score with itself is its row's largest.
    """

    strongest_keys: np.ndarray
    strongest_scores: np.ndarray
    looks_at_itself: np.ndarray


def self_attention_trace(example: Example = THE_CAT_SAT, focus: int = 1) -> SelfAttentionTrace:
    """Self-attention on an example's embeddings with Q = K = V = X (seed 000's first example).

    ``focus`` defaults to "cat", the query the notebook asks about.
    """
    base = attention_trace(example.tokens, example.embeddings, focus=focus, source=example.source)
    rows = np.arange(len(base.query_tokens))
    # A repeated word scores exactly as much with its twin as with itself: the tie goes to the word itself.
    itself = base.self_scores >= base.raw_scores.max(axis=1)
    strongest = np.where(itself, rows, base.raw_scores.argmax(axis=1))
    return extend_trace(
        SelfAttentionTrace,
        base,
        strongest_keys=strongest,
        strongest_scores=base.raw_scores[rows, strongest],
        looks_at_itself=itself,
    )


def extend_trace(cls: type, base: AttentionTrace, **extra: Any):
    """An ``AttentionTrace`` subclass instance: every field of ``base`` plus ``extra``."""
    inherited = {field.name: getattr(base, field.name) for field in dataclasses.fields(AttentionTrace)}
    return cls(**inherited, **extra)
