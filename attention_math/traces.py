"""Traces: every number a scene shows, computed once and frozen.

A trace is a frozen dataclass of numpy arrays (made read-only) and plain values.
Scenes read traces and never compute attention maths themselves; tests compare
what a scene draws with its trace; ``to_json`` hands the same numbers out as a
file beside the video.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .core import attention_scores, softmax
from .examples import DEFAULT_SEED, THE_CAT_SAT, Example

__all__ = [
    "Trace",
    "AttentionTrace",
    "ScalingTrace",
    "attention_trace",
    "self_attention_trace",
    "scaling_trace",
    "lookup",
]


def _to_jsonable(value: Any) -> Any:
    """Arrays to nested lists; infinities to the strings "inf"/"-inf" (JSON has no infinity)."""
    if isinstance(value, np.ndarray):
        return _to_jsonable(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (np.floating, float)):
        value = float(value)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


@dataclass(frozen=True, eq=False)
class Trace:
    """Base class: freezes array fields and serialises to JSON."""

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                value = value.copy()
                value.setflags(write=False)
                object.__setattr__(self, field.name, value)

    @property
    def settings(self) -> dict[str, Any]:
        """The plain (non-array) fields: seeds, sizes, tokens, sources; what a manifest records."""
        return {
            field.name: _to_jsonable(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if not isinstance(getattr(self, field.name), np.ndarray)
        }

    def to_dict(self) -> dict[str, Any]:
        """All fields, JSON-ready, plus the trace's kind."""
        data = {"kind": type(self).__name__}
        for field in dataclasses.fields(self):
            data[field.name] = _to_jsonable(getattr(self, field.name))
        return data

    def to_json(self) -> str:
        """The trace as strict JSON text (no NaN or Infinity literals)."""
        return json.dumps(self.to_dict(), indent=1, allow_nan=False, ensure_ascii=False)


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
    focus
        Index of the query row a scene walks through one dot product at a time.
    focus_terms
        ``q[focus] * k``: the products whose row sums are ``raw_scores[focus]``.
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
    focus: int
    focus_terms: np.ndarray
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
        focus=focus,
        focus_terms=q[focus] * k,  # (n_k, d_k)
        source=source,
    )


def self_attention_trace(example: Example = THE_CAT_SAT, focus: int = 1) -> AttentionTrace:
    """Self-attention on an example's embeddings with Q = K = V = X (seed 000's first example).

    ``focus`` defaults to "cat", the query the notebook asks about.
    """
    return attention_trace(example.tokens, example.embeddings, focus=focus, source=example.source)


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
    row_d_k: int
    row_query: np.ndarray
    row_keys: np.ndarray
    row_scale: float
    row_raw_scores: np.ndarray
    row_scaled_scores: np.ndarray
    row_unscaled_weights: np.ndarray
    row_scaled_weights: np.ndarray


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

    Follows seed 001 part 3 (1000 random pairs for d_k = 8, 64, 512) and seed 003
    "Why scaling matters" (one row of scores at d_k = 64, divided by 8).
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
        row_d_k=row_d_k,
        row_query=row_query,
        row_keys=row_keys,
        row_scale=row_scale,
        row_raw_scores=row_raw,
        row_scaled_scores=row_scaled,
        row_unscaled_weights=softmax(row_raw),
        row_scaled_weights=softmax(row_scaled),
    )


_PATH = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:\[(?P<index>[^\]]*)\])?$")


def lookup(trace: Trace, path: str) -> np.ndarray:
    """The values at ``path`` in ``trace``: a field name, optionally indexed numpy-style.

    ``"weights"``, ``"weights[1]"``, ``"weights[1, 2]"``, ``"hist_edges[0]"`` and
    ``"focus_terms[:, 0]"`` are paths. Scenes name what they show by such a path,
    and tests read the same path to check what was drawn.
    """
    match = _PATH.match(path.replace(" ", ""))
    if not match or not hasattr(trace, match["name"]):
        raise KeyError(f"{type(trace).__name__} has no field for path {path!r}")
    value = np.asarray(getattr(trace, match["name"]))
    if match["index"] is None:
        return value
    index = []
    for part in match["index"].split(","):
        if ":" in part:
            index.append(slice(*[int(p) if p else None for p in part.split(":")]))
        else:
            index.append(int(part))
    return value[tuple(index)]
