"""Why attention costs O(n²): the memory and multiply-adds of one head as the sequence grows.

Exact counts from :func:`attention_math.generation.attention_macs`, not timings,
so a video shows the same numbers on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..generation import LAYER_PARTS, attention_macs, layer_macs
from .base import Trace

__all__ = ["ComplexityTrace", "complexity_trace"]


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
    weight_millions
        ``weight_counts`` in millions, as a person says them ("about 67 million").
    qk_millions, av_millions, total_millions, qk_billions, av_billions, total_billions
        ``qk_macs``, ``av_macs`` and ``total_macs`` in millions and in billions ("8.59 billion"), as shown.
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
    width_macs_millions
        ``width_macs`` in millions.
    width_weight_millions
        The attention weights at ``width_n`` for each width, in millions: ``width_n²``, the same whatever ``d``.
    context_model, context_length
        A real model whose longest text is one of ``lengths``, and that length: GPT-2 small reads up
        to 1,024 tokens (Radford et al. 2019, section 2.3; ``transformers.GPT2Config().n_positions``),
        with dense attention in every layer. Named "GPT-2 small", not "GPT-2": the paper's "GPT-2" is its
        1.5 B model (48 layers of 25 heads), and the 144 heads and 576 MiB said with this name are the small one's.
    layer_model, layer_d_model, layer_d_ff
        A real model whose whole layer is counted: GPT-2 small, ``d_model`` 768 and a feed-forward
        3,072 wide (``d_model``: Radford et al. 2019, Table 2; the 12 heads and ``d_ff``, which Table 2 does not
        give: OpenAI's released code and ``transformers.GPT2Config()``: ``n_head`` 12, ``n_embd`` 768, ``n_inner``
        ``None``, meaning 4 × 768).
    layer_parts
        What :func:`attention_math.generation.layer_macs` counts in one layer, in order.
    layer_lengths
        ``n`` for the whole layer: the model's context and its double.
    layer_macs
        ``(len(layer_lengths), len(layer_parts))``: multiply-adds of each part of one layer (all heads).
    layer_gmacs, layer_total_gmacs
        The same in billions, and their sum per length.
    layer_growth
        ``layer_total_gmacs[1] / layer_total_gmacs[0]``: what doubling ``n`` does to the whole layer.
    layer_quadratic_share
        Per length, the share of the layer's multiply-adds in ``Q Kᵀ`` and ``weights · V`` (the ``n²`` part).
    layer_quadratic_percent
        ``100 · layer_quadratic_share``, as shown.
    projection_width_growth
        What doubling ``d_model`` and ``d_ff`` does to the projections and the feed-forward of one layer
        (they grow like ``n d²``): ``4``.
    layer_wide_d_model
        ``2 · layer_d_model`` = 1,536: the width of the layer counted in ``layer_wide_total_gmacs``, a layer of
        GPT-2 small's shape made twice as wide, not GPT-2 small itself.
    layer_wide_factor
        ``layer_wide_d_model / layer_d_model`` = 2: how many times wider that layer is, in ``d_model``, ``d_ff`` and
        each head's width alike (its heads as many).
    layer_wide_d_head
        ``2 · layer_d_head`` = 128: the width of each of that wider layer's heads (the 12 heads fixed).
    layer_wide_total_gmacs
        The whole layer's multiply-adds at ``layer_lengths[0]`` = 1,024 tokens (as the widths'), in billions, with ``d_model`` and ``d_ff`` doubled
        (the heads fixed, each twice as wide): what the projections' ×4 and the ``n²`` part's ×2 make together.
    layer_wide_growth
        ``layer_wide_total_gmacs / layer_total_gmacs[0]``: what doubling the width does to the whole layer.
    layer_wide_quadratic_gmacs, layer_wide_linear_gmacs
        ``(2,)``: at ``layer_lengths[0]`` tokens, GPT-2 small's layer and the one twice as wide: the ``n²`` part
        (``Q Kᵀ`` and ``weights · V``, ``2 n² d_model``) and the rest (projections and feed-forward,
        ``4 n d_model² + 2 n d_model d_ff``), in billions. Each pair adds up to ``layer_total_gmacs[0]`` and
        ``layer_wide_total_gmacs``.
    layer_wide_quadratic_growth
        ``layer_wide_quadratic_gmacs[1] / layer_wide_quadratic_gmacs[0]`` = 2: the ``n²`` part doubles with the
        width, while the rest grows by ``projection_width_growth`` = 4.
    layer_wide_quadratic_percent
        ``(2,)``: the ``n²`` part's share of those two layers' multiply-adds, in percent (18 and 10).
    layer_heads, layer_d_head
        GPT-2 small's 12 heads of 64: over all heads the ``n²`` part costs ``n² · heads · d_head = n² d_model``.
    layer_half_n
        The smallest ``n`` at which the ``n²`` part is at least half of the layer's multiply-adds
        (``2n²d ≥ n(4d² + 2 d d_ff)``, so ``n ≥ 2d + d_ff``): 4,608 for GPT-2 small, past its 1,024-token context.
    layer_half_billions
        ``(2,)``: at ``layer_half_n`` tokens, the ``n²`` part's multiply-adds and the rest's, in billions: equal.
    layer_ff_ratio
        ``layer_d_ff / layer_d_model``: 4 in GPT-2, which is why its feed-forward, ``2 n d_model d_ff``,
        grows like ``n d_model²``.
    layer_count, kept_copies, kept_mib
        GPT-2 small's 12 layers (``GPT2Config().n_layer``); ``layer_heads · layer_count`` = 144 n × n weight
        matrices per text; their float32 memory at ``context_length`` tokens in MiB, if all are kept (as
        training keeps them for the backward pass): 576, a lower bound (dropout keeps another copy).
    source
        What the numbers are.
    """

    grid_sizes: np.ndarray
    grid_cells: np.ndarray
    d: int
    lengths: np.ndarray
    weight_counts: np.ndarray
    weight_bytes: np.ndarray
    weight_mib: np.ndarray
    weight_millions: np.ndarray
    qk_millions: np.ndarray
    av_millions: np.ndarray
    total_millions: np.ndarray
    qk_billions: np.ndarray
    av_billions: np.ndarray
    total_billions: np.ndarray
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
    width_macs_millions: np.ndarray
    width_weight_millions: np.ndarray
    context_model: str
    context_length: int
    layer_model: str
    layer_d_model: int
    layer_d_ff: int
    layer_parts: tuple[str, ...]
    layer_lengths: np.ndarray
    layer_macs: np.ndarray
    layer_gmacs: np.ndarray
    layer_total_gmacs: np.ndarray
    layer_growth: float
    layer_quadratic_share: np.ndarray
    layer_quadratic_percent: np.ndarray
    projection_width_growth: float
    layer_wide_d_model: int
    layer_wide_factor: float
    layer_wide_d_head: int
    layer_wide_total_gmacs: float
    layer_wide_growth: float
    layer_wide_quadratic_gmacs: np.ndarray
    layer_wide_linear_gmacs: np.ndarray
    layer_wide_quadratic_growth: float
    layer_wide_quadratic_percent: np.ndarray
    layer_heads: int
    layer_d_head: int
    layer_half_n: int
    layer_half_billions: np.ndarray
    layer_ff_ratio: float
    layer_count: int
    kept_copies: int
    kept_mib: float
    source: str


def complexity_trace(
    lengths: Sequence[int] = (512, 1024, 2048, 4096, 8192),
    d: int = 64,
    grid_sizes: Sequence[int] = (2, 4, 8, 16),
    widths: Sequence[int] = (32, 64, 128),
    width_n: int = 1024,
) -> ComplexityTrace:
    """Count the memory and multiply-adds of one attention head for growing sequence lengths.

    Exact counts instead of timings, so the video is the same on every machine; then one whole
    layer of GPT-2 small, where the projections and the feed-forward (linear in ``n``) are counted too.
    """
    lengths = np.array(lengths, dtype=np.int64)
    counts = np.array([attention_macs(int(n), d) for n in lengths], dtype=np.int64)  # (len(lengths), 2)
    total = counts.sum(axis=1)
    weight_counts = lengths * lengths
    weight_bytes = 4 * weight_counts  # float32
    width_macs = np.array([sum(attention_macs(width_n, int(w))) for w in widths], dtype=np.int64)
    grid_sizes = np.array(grid_sizes, dtype=np.int64)
    layer_lengths = np.array([1024, 2048], dtype=np.int64)
    per_layer = np.array([layer_macs(int(n), 768, 3072) for n in layer_lengths], dtype=np.int64)  # (2, parts)
    layer_total = per_layer.sum(axis=1)
    # Per token, the projections and feed-forward cost 4d² + 2 d d_ff; the n² part 2 n d: equal at n = 2d + d_ff.
    linear_per_token = 4 * 768**2 + 2 * 768 * 3072
    linear_parts = [0, 3, 4]  # projections, output projection, feed-forward: n d² each
    wide_layer = np.array(layer_macs(1024, 2 * 768, 2 * 3072), dtype=np.int64)  # (parts,): d_model and d_ff doubled
    wide = wide_layer[linear_parts].sum()
    # The n² part and the rest, GPT-2 small's layer and the one twice as wide (rows: narrow, wide), in multiply-adds.
    split = np.array([[layer[1] + layer[2], layer[linear_parts].sum()] for layer in (per_layer[0], wide_layer)])
    projection_width_growth = float(wide / per_layer[0, linear_parts].sum())
    half_n = -(-linear_per_token // (2 * 768))  # ceiling division, exact in integers
    at_half = np.array(layer_macs(int(half_n), 768, 3072), dtype=np.int64)  # (parts,)
    half_parts = np.array([at_half[1] + at_half[2], at_half[linear_parts].sum()]) / 1e9  # n² part, the rest
    return ComplexityTrace(
        grid_sizes=grid_sizes,
        grid_cells=grid_sizes * grid_sizes,
        d=d,
        lengths=lengths,
        weight_counts=weight_counts,
        weight_bytes=weight_bytes,
        weight_mib=weight_bytes / 2**20,
        weight_millions=weight_counts / 1e6,
        qk_millions=counts[:, 0] / 1e6,
        av_millions=counts[:, 1] / 1e6,
        total_millions=total / 1e6,
        qk_billions=counts[:, 0] / 1e9,
        av_billions=counts[:, 1] / 1e9,
        total_billions=total / 1e9,
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
        width_macs_millions=width_macs / 1e6,
        # The n × n weights do not depend on the head's width: width_n² of them at every width.
        width_weight_millions=np.array([width_n * width_n for _ in widths], dtype=np.int64) / 1e6,
        context_model="GPT-2 small",
        context_length=1024,
        layer_model="GPT-2 small",
        layer_d_model=768,
        layer_d_ff=3072,
        layer_parts=LAYER_PARTS,
        layer_lengths=layer_lengths,
        layer_macs=per_layer,
        layer_gmacs=per_layer / 1e9,
        layer_total_gmacs=layer_total / 1e9,
        layer_growth=float(layer_total[1] / layer_total[0]),
        layer_quadratic_share=(per_layer[:, 1] + per_layer[:, 2]) / layer_total,
        layer_quadratic_percent=100 * (per_layer[:, 1] + per_layer[:, 2]) / layer_total,
        projection_width_growth=projection_width_growth,
        layer_wide_d_model=2 * 768,
        layer_wide_factor=2 * 768 / 768,
        layer_wide_d_head=2 * 64,
        layer_wide_total_gmacs=float(wide_layer.sum() / 1e9),
        layer_wide_growth=float(wide_layer.sum() / layer_total[0]),
        layer_wide_quadratic_gmacs=split[:, 0] / 1e9,
        layer_wide_linear_gmacs=split[:, 1] / 1e9,
        layer_wide_quadratic_growth=float(split[1, 0] / split[0, 0]),
        layer_wide_quadratic_percent=100 * split[:, 0] / split.sum(axis=1),
        layer_heads=12,
        layer_d_head=64,
        layer_half_n=int(half_n),
        layer_half_billions=half_parts,
        layer_ff_ratio=3072 / 768,
        layer_count=12,
        kept_copies=12 * 12,
        kept_mib=4 * 1024**2 * 12 * 12 / 2**20,  # float32 bytes of n² weights, each head of each layer, at 1,024
        source="exact counts of multiply-adds and stored weights (no timings); GPT-2 small's layers and d_model from "
        "Radford et al. 2019 (Table 2), its heads and feed-forward width from OpenAI's released code and config",
    )
