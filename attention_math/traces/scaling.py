"""Why attention divides by sqrt(d_k): sampled dot products grow with d_k, and softmax saturates.

1000 random pairs for d_k = 8, 64, 512, then one row of scores at d_k = 64, divided by 8, with
softmax's gradient at both rows (Vaswani et al. 2017, 3.2.1 and footnote 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import attention_scores, softmax
from ..examples import DEFAULT_SEED
from .base import Trace

__all__ = ["ScalingTrace", "scaling_trace"]


@dataclass(frozen=True, eq=False)
class ScalingTrace(Trace):
    """Why attention divides by sqrt(d_k): sampled dot products and one real row.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew every vector.
    d_k_values
        The widths compared, e.g. (8, 64, 512).
    n_samples
        Pairs (q, k) drawn per width.
    dot_products, scaled_dot_products
        ``(len(d_k_values), n_samples)``: q·k, and q·k / sqrt(d_k).
    variances, scaled_variances
        Their measured (ddof=1) variances per width: close to d_k, and close to 1.
    hist_edges, hist_counts
        A histogram per width of the dot products, on shared bin edges.
    scaled_hist_edges, scaled_hist_counts
        The same for the scaled dot products.
    scaled_counts_on_raw_edges
        ``(len(d_k_values), bins)``: the scaled dot products counted on ``hist_edges``, the unscaled axis,
        so dividing can be drawn before zooming in (they pile up in the bins next to 0).
    row_d_k
        Width of the one query row compared under softmax.
    row_query, row_keys
        The query ``(row_d_k,)`` and the keys ``(n_keys, row_d_k)``.
    row_scale
        ``sqrt(row_d_k)``.
    row_raw_scores, row_scaled_scores
        ``row_keys @ row_query``, and that divided by ``row_scale``.
    row_unscaled_weights, row_scaled_weights
        Softmax of each: nearly one-hot, and smooth.
    row_unscaled_jacobian, row_scaled_jacobian
        ``(n_keys, n_keys)``: softmax's Jacobian at each row, ``d weight_i / d input_j = p_i (δ_ij − p_j)``,
        where the input is the score softmax is given (q·k, or q·k / sqrt(d_k)): the gradient that flows
        back into the scores, and from them into the projections that make q and k.
    row_unscaled_slopes, row_scaled_slopes
        The Jacobians' diagonals, ``p (1 − p)`` per key.
    row_unscaled_max_slope, row_scaled_max_slope
        The largest entry of each Jacobian (in size): the largest ``p (1 − p)``, at most 0.25.
    """

    seed: int
    d_k_values: tuple[int, ...]
    n_samples: int
    dot_products: np.ndarray
    scaled_dot_products: np.ndarray
    variances: np.ndarray
    scaled_variances: np.ndarray
    hist_edges: np.ndarray
    hist_counts: np.ndarray
    scaled_hist_edges: np.ndarray
    scaled_hist_counts: np.ndarray
    scaled_counts_on_raw_edges: np.ndarray
    row_d_k: int
    row_query: np.ndarray
    row_keys: np.ndarray
    row_scale: float
    row_raw_scores: np.ndarray
    row_scaled_scores: np.ndarray
    row_unscaled_weights: np.ndarray
    row_scaled_weights: np.ndarray
    row_unscaled_jacobian: np.ndarray
    row_scaled_jacobian: np.ndarray
    row_unscaled_slopes: np.ndarray
    row_scaled_slopes: np.ndarray
    row_unscaled_max_slope: float
    row_scaled_max_slope: float


def _softmax_jacobian(weights: np.ndarray) -> np.ndarray:
    """Jacobian of softmax at the point where it gives ``weights``: ``diag(p) − p pᵀ``."""
    return np.diag(weights) - np.outer(weights, weights)


def _shared_histograms(samples: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Histograms of each row of ``samples`` on one set of symmetric edges that holds them all."""
    limit = float(np.ceil(np.abs(samples).max()))
    edges = np.linspace(-limit, limit, bins + 1)
    counts = np.stack([np.histogram(row, bins=edges)[0] for row in samples])
    return edges, counts


def scaling_trace(
    seed: int = DEFAULT_SEED,
    d_k_values: Sequence[int] = (8, 64, 512),
    n_samples: int = 1000,
    row_d_k: int = 64,
    n_keys: int = 6,
    bins: int = 40,
) -> ScalingTrace:
    """Sample dot products of unit-variance vectors and compare softmax with and without scaling.

    1000 random pairs for d_k = 8, 64, 512, then one row of scores at d_k = 64, divided by 8.
    """
    rng = np.random.default_rng(seed)
    dots, scaled = [], []
    for d_k in d_k_values:
        q = rng.standard_normal((n_samples, d_k))
        k = rng.standard_normal((n_samples, d_k))
        row_dots = np.einsum("nd,nd->n", q, k)  # (n_samples,): one q·k per pair
        dots.append(row_dots)
        scaled.append(row_dots / np.sqrt(d_k))
    dots, scaled = np.stack(dots), np.stack(scaled)
    hist_edges, hist_counts = _shared_histograms(dots, bins)
    scaled_hist_edges, scaled_hist_counts = _shared_histograms(scaled, bins)

    row_query = rng.standard_normal(row_d_k)
    row_keys = rng.standard_normal((n_keys, row_d_k))
    row_raw = attention_scores(row_query[np.newaxis], row_keys, scale=False)[0]  # (n_keys,)
    row_scale = float(np.sqrt(row_d_k))
    row_scaled = row_raw / row_scale
    unscaled_weights, scaled_weights = softmax(row_raw), softmax(row_scaled)
    unscaled_jacobian, scaled_jacobian = _softmax_jacobian(unscaled_weights), _softmax_jacobian(scaled_weights)
    return ScalingTrace(
        seed=seed,
        d_k_values=tuple(int(d) for d in d_k_values),
        n_samples=n_samples,
        dot_products=dots,
        scaled_dot_products=scaled,
        variances=dots.var(axis=1, ddof=1),
        scaled_variances=scaled.var(axis=1, ddof=1),
        hist_edges=hist_edges,
        hist_counts=hist_counts,
        scaled_hist_edges=scaled_hist_edges,
        scaled_hist_counts=scaled_hist_counts,
        scaled_counts_on_raw_edges=np.stack([np.histogram(row, bins=hist_edges)[0] for row in scaled]),
        row_d_k=row_d_k,
        row_query=row_query,
        row_keys=row_keys,
        row_scale=row_scale,
        row_raw_scores=row_raw,
        row_scaled_scores=row_scaled,
        row_unscaled_weights=unscaled_weights,
        row_scaled_weights=scaled_weights,
        row_unscaled_jacobian=unscaled_jacobian,
        row_scaled_jacobian=scaled_jacobian,
        row_unscaled_slopes=np.diag(unscaled_jacobian).copy(),
        row_scaled_slopes=np.diag(scaled_jacobian).copy(),
        row_unscaled_max_slope=float(np.abs(unscaled_jacobian).max()),
        row_scaled_max_slope=float(np.abs(scaled_jacobian).max()),
    )
