"""Generation and cost: the KV cache, and counting the multiply-adds of attention.

The cost is counted exactly instead of timed, so a video shows the same numbers
on every machine. A multiply-add is one ``a * b`` accumulated into a sum: a dot
product of two length-``d`` vectors is ``d`` of them, and a ``(m, k) @ (k, p)``
matrix product is ``m * k * p``. Softmax, the division by ``sqrt(d_k)`` and the
mask are not multiply-adds and are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import attention_scores, scaled_dot_product_attention, softmax
from .masks import causal_mask

__all__ = [
    "cached_step_macs",
    "full_step_macs",
    "generation_macs",
    "attention_macs",
    "CachedGeneration",
    "generate_with_cache",
    "generate_without_cache",
]


# --- counting multiply-adds ----------------------------------------------------


def cached_step_macs(t: int, d: int) -> int:
    """Multiply-adds of generation step ``t`` (``t`` tokens so far, the new one included) with a KV cache.

    Only the new token is projected (``q``, ``k``, ``v``: ``3 d²``); its one query
    row is scored against the ``t`` cached keys (``t d``) and weights the ``t``
    cached values (``t d``)::

        3 d² + 2 t d
    """
    return 3 * d * d + 2 * t * d


def full_step_macs(t: int, d: int) -> int:
    """Multiply-adds of generation step ``t`` without a cache: everything recomputed from scratch.

    All ``t`` tokens are projected again (``3 t d²``), the full ``t × t`` score
    matrix ``Q Kᵀ`` is computed (``t² d``; the causal mask hides the upper
    triangle afterwards, it does not skip the products) and the weights multiply
    ``V`` (``t² d``)::

        3 t d² + 2 t² d
    """
    return 3 * t * d * d + 2 * t * t * d


def generation_macs(n: int, d: int) -> tuple[int, int]:
    """Total multiply-adds to generate ``n`` tokens: ``(with_cache, without_cache)``.

    The sums of :func:`cached_step_macs` and :func:`full_step_macs` over
    ``t = 1 … n`` in closed form::

        with cache:     3 n d² + d n (n + 1)
        without cache:  3 d² n (n + 1) / 2 + d n (n + 1) (2n + 1) / 3
    """
    with_cache = 3 * n * d * d + d * n * (n + 1)
    without_cache = 3 * d * d * n * (n + 1) // 2 + d * n * (n + 1) * (2 * n + 1) // 3
    return with_cache, without_cache


def attention_macs(n: int, d: int) -> tuple[int, int]:
    """Multiply-adds of one attention head over ``n`` tokens of width ``d``: ``(Q Kᵀ, weights @ V)``.

    ``Q Kᵀ`` is ``(n, d) @ (d, n)``: ``n · n · d``; ``weights @ V`` is
    ``(n, n) @ (n, d)``: ``n · n · d`` again.
    """
    return n * n * d, n * n * d


LAYER_PARTS = ("Q, K, V projections", "Q Kᵀ", "weights · V", "output projection", "feed-forward")
"""The parts of one transformer layer whose multiply-adds :func:`layer_macs` counts, in its order."""


def layer_macs(n: int, d_model: int, d_ff: int) -> tuple[int, int, int, int, int]:
    """Multiply-adds of one transformer layer (all its heads) over ``n`` tokens, part by part (:data:`LAYER_PARTS`).

    Q, K and V are ``(n, d_model) @ (d_model, d_model)`` each: ``3 n d_model²``. Over all heads,
    ``Q Kᵀ`` and ``weights @ V`` are ``n² d_model`` each (``heads · n · n · d_head``). The output
    projection is ``n d_model²``, the feed-forward ``(n, d_model) @ (d_model, d_ff)`` and back: ``2 n d_model d_ff``.
    Biases, layer norms, softmax and the residual adds (``O(n d_model)`` or ``O(n²)`` single operations) are not counted.
    """
    return (3 * n * d_model**2, n * n * d_model, n * n * d_model, n * d_model**2, 2 * n * d_model * d_ff)


# --- the KV cache ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CachedGeneration:
    """Every intermediate of generating a sequence one token at a time with a key/value cache.

    Step ``t`` (0-based) adds token ``t``: its query row ``q[t]`` is scored against
    the cached keys ``k[:t+1]`` and weights the cached values ``v[:t+1]``.

    Attributes
    ----------
    q
        Each step's query row, ``(n, d)``.
    k, v
        The key and value caches after the last step, ``(n, d)``.
    scores
        Row ``t`` holds step ``t``'s scaled scores ``q[t] · k[j] / sqrt(d)`` for ``j <= t``;
        ``-inf`` where ``j > t`` (not yet generated), ``(n, n)``.
    weights
        Row ``t`` holds step ``t``'s softmax weights over the ``t + 1`` cached keys; 0 beyond, ``(n, n)``.
    outputs
        Row ``t`` is step ``t``'s output ``weights[t] @ v`` from the cache, ``(n, d)``.
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    outputs: np.ndarray


def generate_with_cache(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> CachedGeneration:
    """Attend over ``x`` one token at a time, keeping the keys and values of earlier tokens in a cache.

    Follows seed 004 slide 13 (``CachedAttention``): each step projects only the
    new token, writes its key and value into the cache and attends with its one
    query over the cache so far.

    Parameters
    ----------
    x
        Embeddings ``(n, d)`` of the tokens, in the order they are generated.
    w_q, w_k, w_v
        Projections ``(d, d)``.
    """
    x = np.asarray(x, dtype=float)
    n, d = x.shape
    # One token per step; the caches grow by one row each.
    k_cache = np.zeros((0, d))
    v_cache = np.zeros((0, d))
    q_rows, scores, weights, outputs = [], np.full((n, n), -np.inf), np.zeros((n, n)), np.zeros((n, d))
    for t in range(n):
        q_t, k_t, v_t = x[t] @ w_q, x[t] @ w_k, x[t] @ w_v  # (d,) each: only the new token is projected
        k_cache = np.vstack([k_cache, k_t])  # (t + 1, d)
        v_cache = np.vstack([v_cache, v_t])  # (t + 1, d)
        row = attention_scores(q_t[np.newaxis], k_cache)[0]  # (t + 1,)
        scores[t, : t + 1] = row
        weights[t, : t + 1] = softmax(row)
        outputs[t] = weights[t, : t + 1] @ v_cache
        q_rows.append(q_t)
    return CachedGeneration(q=np.array(q_rows), k=k_cache, v=v_cache, scores=scores, weights=weights, outputs=outputs)


def generate_without_cache(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> np.ndarray:
    """The outputs of the same generation with no cache: every step recomputed from scratch.

    Step ``t`` projects tokens ``0 … t`` again and runs full causal attention over
    them; only its last row is the new token's output.

    Returns
    -------
    numpy.ndarray
        ``(n, d)``; row ``t`` is step ``t``'s output, equal (up to rounding) to
        :func:`generate_with_cache`'s.
    """
    x = np.asarray(x, dtype=float)
    n, d = x.shape
    recomputed = np.zeros((n, d))
    for t in range(n):
        prefix = x[: t + 1]  # (t + 1, d)
        out, _ = scaled_dot_product_attention(prefix @ w_q, prefix @ w_k, prefix @ w_v, mask=causal_mask(t + 1))
        recomputed[t] = out[-1]
    return recomputed
