"""Generation and cost: the KV cache, and why attention costs O(n²).

Both traces count multiply-adds exactly instead of timing anything, so a video
shows the same numbers on every machine. A multiply-add is one ``a * b``
accumulated into a sum: a dot product of two length-``d`` vectors is ``d`` of
them, and a ``(m, k) @ (k, p)`` matrix product is ``m * k * p``. Softmax, the
division by ``sqrt(d_k)`` and the mask are not multiply-adds and are not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .core import attention_scores, causal_mask, scaled_dot_product_attention, softmax
from .examples import DEFAULT_SEED, THE_CAT_SAT, Example, random_matrix
from .traces import Trace

__all__ = [
    "cached_step_macs",
    "full_step_macs",
    "generation_macs",
    "attention_macs",
    "KVCacheTrace",
    "kv_cache_trace",
    "ComplexityTrace",
    "complexity_trace",
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


# --- the KV cache ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class KVCacheTrace(Trace):
    """Autoregressive generation with a key/value cache, step by step, and what it saves.

    Step ``t`` (0-based) adds token ``t``: its query row ``q[t]`` is scored
    against the cached keys ``k[:t+1]`` and weights the cached values ``v[:t+1]``.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew the projections.
    tokens
        The generated tokens, one per step.
    x
        Their embeddings ``(n, d)``.
    w_q, w_k, w_v
        Projections ``(d, d)``.
    q, k, v
        Per-token projections ``(n, d)``; ``k`` and ``v`` are the caches after the last step.
    scale
        ``sqrt(d)``.
    scores
        Row ``t`` holds step ``t``'s scaled scores ``q[t] · k[j] / sqrt(d)`` for ``j <= t``;
        ``-inf`` where ``j > t`` (not yet generated), ``(n, n)``.
    weights
        Row ``t`` holds step ``t``'s softmax weights over the ``t + 1`` cached keys; 0 beyond, ``(n, n)``.
    outputs
        Row ``t`` is step ``t``'s output ``weights[t] @ v`` from the cache, ``(n, d)``.
    recomputed_outputs
        Row ``t`` is the last row of full causal attention recomputed from scratch over tokens ``0 … t``.
    recomputed_weights
        Full causal attention weights over all ``n`` tokens, recomputed from scratch, ``(n, n)``.
    max_difference
        Largest ``|outputs - recomputed_outputs|``.
    outputs_match
        ``numpy.allclose(outputs, recomputed_outputs)``.
    step_tokens
        ``1 … n``: tokens in the sequence at each step (``t`` in the counting formulas).
    macs_cached, macs_full
        Multiply-adds per step with the cache (``3d² + 2td``) and without (``3td² + 2t²d``), ``(n,)``.
    total_cached, total_full
        Their sums over the ``n`` steps.
    saving_ratio
        ``total_full / total_cached``.
    long_lengths
        Longer generations whose totals are counted with the same ``d``.
    long_cached, long_full, long_ratios
        Total multiply-adds with and without the cache for each of ``long_lengths``, and their ratio.
    cache_floats
        Numbers held in the K and V caches after ``n`` steps: ``2 n d``.
    source
        The course material this follows.
    embeddings_source
        Where the embeddings come from (the example's ``source``), said on screen for a teacher's sentence.
    """

    seed: int
    tokens: tuple[str, ...]
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scale: float
    scores: np.ndarray
    weights: np.ndarray
    outputs: np.ndarray
    recomputed_outputs: np.ndarray
    recomputed_weights: np.ndarray
    max_difference: float
    outputs_match: bool
    step_tokens: np.ndarray
    macs_cached: np.ndarray
    macs_full: np.ndarray
    total_cached: int
    total_full: int
    saving_ratio: float
    long_lengths: np.ndarray
    long_cached: np.ndarray
    long_full: np.ndarray
    long_ratios: np.ndarray
    cache_floats: int
    source: str
    embeddings_source: str

    @property
    def d(self) -> int:
        """Width of the embeddings, queries, keys and values."""
        return int(self.x.shape[1])


def kv_cache_trace(
    example: Example = THE_CAT_SAT,
    seed: int = DEFAULT_SEED,
    long_lengths: Sequence[int] = (64, 512, 4096),
) -> KVCacheTrace:
    """Generate ``example``'s tokens one at a time with a KV cache, and check it against recomputing.

    Follows seed 004 slide 13 (``CachedAttention``): each step writes the new
    key and value into the cache and attends with the one new query over the
    cache so far. The projections are drawn from ``default_rng(seed)``.
    """
    rng = np.random.default_rng(seed)
    x = np.asarray(example.embeddings, dtype=float)
    n, d = x.shape
    w_q, w_k, w_v = (random_matrix(rng, d, d, scale=1.0) for _ in range(3))
    scale = float(np.sqrt(d))

    # Generation: one token per step, the caches grow by one row each.
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

    # The same outputs recomputed from scratch: full causal attention over tokens 0..t, last row.
    recomputed = np.zeros((n, d))
    for t in range(n):
        prefix = x[: t + 1]
        out, _ = scaled_dot_product_attention(prefix @ w_q, prefix @ w_k, prefix @ w_v, mask=causal_mask(t + 1))
        recomputed[t] = out[-1]
    _, recomputed_weights = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, mask=causal_mask(n))

    step_tokens = np.arange(1, n + 1)
    macs_cached = np.array([cached_step_macs(int(t), d) for t in step_tokens])
    macs_full = np.array([full_step_macs(int(t), d) for t in step_tokens])
    total_cached, total_full = int(macs_cached.sum()), int(macs_full.sum())
    long = np.array([generation_macs(int(length), d) for length in long_lengths])  # (len(long_lengths), 2)
    return KVCacheTrace(
        seed=seed,
        tokens=example.tokens,
        x=x,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        q=np.array(q_rows),
        k=k_cache,
        v=v_cache,
        scale=scale,
        scores=scores,
        weights=weights,
        outputs=outputs,
        recomputed_outputs=recomputed,
        recomputed_weights=recomputed_weights,
        max_difference=float(np.abs(outputs - recomputed).max()),
        outputs_match=bool(np.allclose(outputs, recomputed)),
        step_tokens=step_tokens,
        macs_cached=macs_cached,
        macs_full=macs_full,
        total_cached=total_cached,
        total_full=total_full,
        saving_ratio=total_full / total_cached,
        long_lengths=np.array(long_lengths),
        long_cached=long[:, 0],
        long_full=long[:, 1],
        long_ratios=long[:, 1] / long[:, 0],
        cache_floats=2 * n * d,
        source="seed 004 slide 13, 'Performance Optimization with Attention Caching' (CachedAttention)",
        embeddings_source=example.source,
    )


# --- O(n²) ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ComplexityTrace(Trace):
    """What one attention head costs as the sequence grows: exact counts, not timings.

    Attributes
    ----------
    grid_sizes
        Small ``n`` drawn as ``n × n`` grids of weights.
    grid_cells
        ``n²`` for each of ``grid_sizes``.
    d
        Width of the queries, keys and values (the head dimension).
    lengths
        Sequence lengths ``n`` compared, each double the one before.
    weight_counts
        Attention weights per head: ``n²``.
    weight_bytes
        Their memory in float32: ``4 n²`` bytes.
    weight_mib
        The same in MiB (``2**20`` bytes).
    qk_macs, av_macs
        Multiply-adds of ``Q Kᵀ`` and of ``weights @ V``: ``n · n · d`` each.
    total_macs
        ``qk_macs + av_macs = 2 n² d``.
    growth
        ``total_macs[i] / total_macs[i - 1]`` for ``i >= 1``: the cost of doubling ``n``.
    memory_growth
        ``weight_counts[i] / weight_counts[i - 1]``.
    relative_macs
        ``total_macs / total_macs[0]``.
    relative_lengths
        ``lengths / lengths[0]``, for comparison with a cost that grew linearly.
    width_n
        The fixed ``n`` at which the widths are compared.
    widths
        Head dimensions ``d`` compared at ``width_n``.
    width_macs
        ``2 n² d`` for each width.
    width_growth
        ``width_macs[i] / width_macs[i - 1]``.
    source
        The course material this follows.
    """

    grid_sizes: np.ndarray
    grid_cells: np.ndarray
    d: int
    lengths: np.ndarray
    weight_counts: np.ndarray
    weight_bytes: np.ndarray
    weight_mib: np.ndarray
    qk_macs: np.ndarray
    av_macs: np.ndarray
    total_macs: np.ndarray
    growth: np.ndarray
    memory_growth: np.ndarray
    relative_macs: np.ndarray
    relative_lengths: np.ndarray
    width_n: int
    widths: np.ndarray
    width_macs: np.ndarray
    width_growth: np.ndarray
    source: str


def complexity_trace(
    lengths: Sequence[int] = (512, 1024, 2048, 4096, 8192),
    d: int = 64,
    grid_sizes: Sequence[int] = (2, 4, 8, 16),
    widths: Sequence[int] = (32, 64, 128),
    width_n: int = 1024,
) -> ComplexityTrace:
    """Count the memory and multiply-adds of one attention head for growing sequence lengths.

    Follows seed 002 "Further Practice" 4 (measure time and memory for different
    sequence lengths and attention dimensionalities), with exact counts so the
    video is the same on every machine.
    """
    lengths = np.array(lengths, dtype=np.int64)
    counts = np.array([attention_macs(int(n), d) for n in lengths], dtype=np.int64)  # (len(lengths), 2)
    total = counts.sum(axis=1)
    weight_counts = lengths * lengths
    weight_bytes = 4 * weight_counts  # float32
    width_macs = np.array([sum(attention_macs(width_n, int(w))) for w in widths], dtype=np.int64)
    grid_sizes = np.array(grid_sizes, dtype=np.int64)
    return ComplexityTrace(
        grid_sizes=grid_sizes,
        grid_cells=grid_sizes * grid_sizes,
        d=d,
        lengths=lengths,
        weight_counts=weight_counts,
        weight_bytes=weight_bytes,
        weight_mib=weight_bytes / 2**20,
        qk_macs=counts[:, 0],
        av_macs=counts[:, 1],
        total_macs=total,
        growth=total[1:] / total[:-1],
        memory_growth=weight_counts[1:] / weight_counts[:-1],
        relative_macs=total / total[0],
        relative_lengths=lengths / lengths[0],
        width_n=width_n,
        widths=np.array(widths, dtype=np.int64),
        width_macs=width_macs,
        width_growth=width_macs[1:] / width_macs[:-1],
        source="seed 002, 'Further Practice' 4: Complexity Analysis",
    )
