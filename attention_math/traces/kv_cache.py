"""The KV cache: generating one token at a time without recomputing earlier keys and values.

Step by step against recomputing from scratch, with the multiply-adds each way
counted by :mod:`attention_math.generation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import scaled_dot_product_attention
from ..examples import DEFAULT_SEED, THE_CAT_SAT, Example, random_matrix
from ..generation import cached_step_macs, full_step_macs, generate_with_cache, generate_without_cache, generation_macs
from ..masks import causal_mask
from .base import Trace

__all__ = ["KVCacheTrace", "kv_cache_trace", "GPT2_SMALL", "LLAMA2_70B"]

GPT2_SMALL = {"name": "GPT-2 small", "layers": 12, "d_model": 768, "heads": 12, "context": 1024}
"""Radford et al. 2019, 'Language Models are Unsupervised Multitask Learners', Table 2 (117M: 12 layers,
d_model 768) and section 2.3 (context of 1024 tokens); the same as ``transformers.GPT2Config()``'s defaults,
whose ``n_head`` gives the 12 heads (the paper does not list them)."""

LLAMA2_70B = {"name": "Llama 2 70B", "layers": 80, "query_heads": 64, "kv_heads": 8, "head_size": 128}
"""A real model with grouped-query attention (Ainslie et al. 2023: query heads in groups, each group sharing one
key/value head). Touvron et al. 2023, 'Llama 2', section 2.2 (grouped-query attention in the 34B and 70B models);
the numbers are those of meta-llama/Llama-2-70b-hf's config.json: num_hidden_layers 80, num_attention_heads 64,
num_key_value_heads 8, hidden_size 8192 (64 heads of 128); its k_proj maps 8192 to 1024 numbers, 8 heads of 128."""


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
    difference_decimals
        The decimal place of ``max_difference``'s first digit (16 for 0.0000000000000002); 0 when there is
        no difference at all. Shown with that many decimals, the difference reads as its first digit.
    difference_digit, difference_exponent
        ``max_difference`` rounded to one digit as ``difference_digit × 10**difference_exponent``
        (2 and -16 for 0.0000000000000002): the difference as the screen writes it; 0 and 0 when there is none.
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
        Numbers held in the K and V caches after ``n`` steps: ``2 n d`` (one layer, one head).
    real_model
        A real model whose cache is counted the same way (GPT-2 small).
    real_layers, real_d_model, real_context
        Its layers, its width (heads × head size) and the longest text it reads, in tokens.
    real_heads, real_head_size
        Its attention heads per layer and each head's width: ``real_heads × real_head_size = real_d_model``.
    real_numbers_per_token
        Numbers each token adds to its caches: a key and a value of ``real_d_model`` in every layer,
        ``2 × layers × d_model``.
    real_cache_numbers
        The caches' numbers at ``real_context`` tokens.
    real_cache_mib
        Their memory in float32, in MiB (``2**20`` bytes).
    gqa_model
        A real model with grouped-query attention (Llama 2 70B, see :data:`LLAMA2_70B`).
    gqa_layers, gqa_query_heads, gqa_kv_heads, gqa_head_size
        Its layers, its query heads per layer, the key/value heads they share, and each head's width.
    gqa_separate_numbers
        Cache numbers one token adds to one layer if each query head had its own key and value head:
        ``2 × gqa_query_heads × gqa_head_size``.
    gqa_shared_numbers
        The same with the shared key/value heads it has: ``2 × gqa_kv_heads × gqa_head_size``.
    gqa_shrink
        ``gqa_separate_numbers / gqa_shared_numbers``: how many times smaller the shared cache is.
    source
        What the numbers are: the head, its random weights, the cache, and where the embeddings come from.
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
    difference_decimals: int
    difference_digit: int
    difference_exponent: int
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
    real_model: str
    real_layers: int
    real_d_model: int
    real_context: int
    real_heads: int
    real_head_size: int
    real_numbers_per_token: int
    real_cache_numbers: int
    real_cache_mib: float
    gqa_model: str
    gqa_layers: int
    gqa_query_heads: int
    gqa_kv_heads: int
    gqa_head_size: int
    gqa_separate_numbers: int
    gqa_shared_numbers: int
    gqa_shrink: float
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

    See :func:`attention_math.generation.generate_with_cache`. The projections are
    drawn from ``default_rng(seed)``.
    """
    rng = np.random.default_rng(seed)
    x = np.asarray(example.embeddings, dtype=float)
    n, d = x.shape
    w_q, w_k, w_v = (random_matrix(rng, d, d, scale=1.0) for _ in range(3))
    scale = float(np.sqrt(d))

    cached = generate_with_cache(x, w_q, w_k, w_v)  # one token per step, the caches grow by one row each
    # The same outputs recomputed from scratch: full causal attention over tokens 0..t, last row.
    recomputed = generate_without_cache(x, w_q, w_k, w_v)
    _, recomputed_weights = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, mask=causal_mask(n))

    step_tokens = np.arange(1, n + 1)
    macs_cached = np.array([cached_step_macs(int(t), d) for t in step_tokens])
    macs_full = np.array([full_step_macs(int(t), d) for t in step_tokens])
    total_cached, total_full = int(macs_cached.sum()), int(macs_full.sum())
    long = np.array([generation_macs(int(length), d) for length in long_lengths])  # (len(long_lengths), 2)
    # Every layer caches a key and a value per token, each as wide as the model (all heads side by side).
    per_token = 2 * GPT2_SMALL["layers"] * GPT2_SMALL["d_model"]
    real_numbers = per_token * GPT2_SMALL["context"]
    max_difference = float(np.abs(cached.outputs - recomputed).max())
    # The place of the difference's first digit: shown with that many decimals, it reads as one digit, not 0.00.
    difference_decimals = 0 if max_difference == 0 else int(-np.floor(np.log10(max_difference)))
    # One significant digit, as "2 × 10⁻¹⁶": rounding may carry it to 10, which is 1 of the place before.
    difference_digit = int(round(max_difference * 10.0**difference_decimals))
    difference_exponent = -difference_decimals
    if difference_digit == 10:
        difference_digit, difference_exponent = 1, difference_exponent + 1
    seeded = "a fixed random seed" if seed == DEFAULT_SEED else f"random seed {seed}"
    return KVCacheTrace(
        seed=seed,
        tokens=example.tokens,
        x=x,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        q=cached.q,
        k=cached.k,
        v=cached.v,
        scale=scale,
        scores=cached.scores,
        weights=cached.weights,
        outputs=cached.outputs,
        recomputed_outputs=recomputed,
        recomputed_weights=recomputed_weights,
        max_difference=max_difference,
        outputs_match=bool(np.allclose(cached.outputs, recomputed)),
        difference_decimals=difference_decimals,
        difference_digit=difference_digit,
        difference_exponent=difference_exponent,
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
        real_model=GPT2_SMALL["name"],
        real_layers=GPT2_SMALL["layers"],
        real_d_model=GPT2_SMALL["d_model"],
        real_context=GPT2_SMALL["context"],
        real_heads=GPT2_SMALL["heads"],
        real_head_size=GPT2_SMALL["d_model"] // GPT2_SMALL["heads"],
        real_numbers_per_token=per_token,
        real_cache_numbers=real_numbers,
        real_cache_mib=real_numbers * 4 / 2**20,  # float32
        gqa_model=LLAMA2_70B["name"],
        gqa_layers=LLAMA2_70B["layers"],
        gqa_query_heads=LLAMA2_70B["query_heads"],
        gqa_kv_heads=LLAMA2_70B["kv_heads"],
        gqa_head_size=LLAMA2_70B["head_size"],
        gqa_separate_numbers=2 * LLAMA2_70B["query_heads"] * LLAMA2_70B["head_size"],
        gqa_shared_numbers=2 * LLAMA2_70B["kv_heads"] * LLAMA2_70B["head_size"],
        gqa_shrink=LLAMA2_70B["query_heads"] / LLAMA2_70B["kv_heads"],
        source=f"one attention head with random projections ({seeded}), generating with a key/value cache; {example.source}",
        embeddings_source=example.source,
    )
