"""Scaled dot-product attention and multi-head attention, in plain numpy.

Conventions (the same everywhere in this project): rows are queries, columns are
keys, softmax runs over the last axis, and a boolean mask is True where a query
may attend, as in ``torch.nn.functional.scaled_dot_product_attention``. The masks
themselves are built in :mod:`attention_math.masks`, the positional encoding in
:mod:`attention_math.positions`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "softmax",
    "scaled_dot_product_attention",
    "attention_scores",
    "split_heads",
    "merge_heads",
    "MultiHeadResult",
    "multi_head_attention",
]


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax along ``axis``.

    ``-inf`` entries get weight exactly 0. A slice that is entirely ``-inf``
    has no defined distribution and raises ``ValueError`` instead of giving NaN.

    Parameters
    ----------
    x
        Scores of any shape.
    axis
        The axis that sums to 1.

    Returns
    -------
    numpy.ndarray
        Weights of the same shape as ``x``.
    """
    x = np.asarray(x, dtype=float)
    if np.isnan(x).any():
        raise ValueError("softmax input contains NaN")
    row_max = np.max(x, axis=axis, keepdims=True)
    if np.isneginf(row_max).any():
        raise ValueError("softmax over a row whose entries are all -inf: every key is masked, so there is nothing to attend to")
    # Subtracting the row maximum keeps exp() from overflowing; exp(-inf) is exactly 0.
    exp = np.exp(x - row_max)
    return exp / np.sum(exp, axis=axis, keepdims=True)


def attention_scores(q: np.ndarray, k: np.ndarray, scale: bool = True) -> np.ndarray:
    """Return ``q @ k^T``, divided by ``sqrt(d_k)`` when ``scale`` is true.

    Shapes: ``q`` is ``(..., n_q, d_k)``, ``k`` is ``(..., n_k, d_k)``, the result
    ``(..., n_q, n_k)``.
    """
    q = np.asarray(q, dtype=float)
    k = np.asarray(k, dtype=float)
    scores = q @ np.swapaxes(k, -1, -2)  # (..., n_q, n_k)
    if scale:
        scores = scores / np.sqrt(q.shape[-1])
    return scores


def scaled_dot_product_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    mask: np.ndarray | None = None,
    scale: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V.

    Parameters
    ----------
    q, k, v
        Queries ``(..., n_q, d_k)``, keys ``(..., n_k, d_k)``, values ``(..., n_k, d_v)``.
    mask
        Boolean, broadcastable to ``(..., n_q, n_k)``; True where a query may attend.
    scale
        False gives the unscaled variant ``softmax(Q K^T) V`` that scenes contrast it with.

    Returns
    -------
    tuple of numpy.ndarray
        ``(output, weights)`` with shapes ``(..., n_q, d_v)`` and ``(..., n_q, n_k)``.
    """
    scores = attention_scores(q, k, scale=scale)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    weights = softmax(scores, axis=-1)
    output = weights @ np.asarray(v, dtype=float)  # (..., n_q, d_v)
    return output, weights


def _check_heads(d_model: int, n_heads: int) -> int:
    if n_heads <= 0 or d_model % n_heads != 0:
        raise ValueError(
            f"d_model={d_model} is not divisible by n_heads={n_heads}: each head needs the same number of dimensions"
        )
    return d_model // n_heads


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """Reshape ``(seq, d_model)`` to ``(n_heads, seq, d_head)``; head h owns columns h*d_head..(h+1)*d_head."""
    x = np.asarray(x, dtype=float)
    seq, d_model = x.shape
    d_head = _check_heads(d_model, n_heads)
    return x.reshape(seq, n_heads, d_head).transpose(1, 0, 2)  # (n_heads, seq, d_head)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """Inverse of :func:`split_heads`: ``(n_heads, seq, d_head)`` to ``(seq, n_heads * d_head)``."""
    x = np.asarray(x, dtype=float)
    n_heads, seq, d_head = x.shape
    return x.transpose(1, 0, 2).reshape(seq, n_heads * d_head)  # (seq, d_model)


@dataclass(frozen=True, eq=False)
class MultiHeadResult:
    """Every intermediate of one multi-head attention pass.

    Attributes
    ----------
    q, k, v
        Per-head projections, ``(n_heads, seq, d_head)``.
    scores
        Scaled (and masked) scores per head, ``(n_heads, seq_q, seq_k)``.
    weights
        Attention weights per head, ``(n_heads, seq_q, seq_k)``.
    head_outputs
        ``weights @ v`` per head, ``(n_heads, seq_q, d_head)``.
    concat
        Heads side by side, ``(seq_q, d_model)``.
    output
        ``concat @ w_o``, ``(seq_q, d_model)``.
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    output: np.ndarray


def multi_head_attention(
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    w_o: np.ndarray,
    n_heads: int,
    mask: np.ndarray | None = None,
    memory: np.ndarray | None = None,
) -> MultiHeadResult:
    """Multi-head attention with projections ``x @ w`` (no biases).

    Parameters
    ----------
    x
        Inputs ``(seq, d_model)``; the queries come from here.
    w_q, w_k, w_v, w_o
        Projection matrices, each ``(d_model, d_model)``.
    n_heads
        Number of heads; must divide ``d_model``.
    mask
        Boolean, broadcastable to ``(n_heads, seq_q, seq_k)``; True where a query may attend.
    memory
        Keys and values come from here when given (cross-attention); from ``x`` otherwise.
    """
    x = np.asarray(x, dtype=float)
    source = x if memory is None else np.asarray(memory, dtype=float)
    _check_heads(x.shape[-1], n_heads)
    q = split_heads(x @ w_q, n_heads)  # (n_heads, seq_q, d_head)
    k = split_heads(source @ w_k, n_heads)  # (n_heads, seq_k, d_head)
    v = split_heads(source @ w_v, n_heads)  # (n_heads, seq_k, d_head)
    scores = attention_scores(q, k)
    if mask is not None:
        scores = np.where(np.asarray(mask, dtype=bool), scores, -np.inf)
    weights = softmax(scores)
    head_outputs = weights @ v  # (n_heads, seq_q, d_head)
    concat = merge_heads(head_outputs)  # (seq_q, d_model)
    return MultiHeadResult(q, k, v, scores, weights, head_outputs, concat, concat @ w_o)
