"""Multi-head attention: the split into heads, each head's pattern, and the scale of GPT-3.

Follows seed 000 "Multi-Head Attention" (8 heads, a 2 x 4 grid of heatmaps,
GPT-3's 96 heads x 96 layers), seed 001 part 4 (the reshape to
``(heads, seq, d_head)`` and back) and seed 003 "Scale Comparison".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import multi_head_attention
from ..examples import GPT3, THE_CAT_SAT, ModelSize, random_matrix
from .base import Trace

__all__ = ["MultiHeadTrace", "multi_head_trace", "PATTERN_SEED", "this_video_model"]

PATTERN_SEED = 2194
"""The default seed: of seeds 0 to 2,999, the one whose weakest head is sharpest at 16 numbers and 8 heads
(every head's average strongest weight at least 0.40, against 0.17 for six tokens weighted evenly), so each
head's heatmap shows a pattern of its own. The matrices are still random; the video says which seed."""


def this_video_model(d_model: int, n_heads: int) -> ModelSize:
    """The model the video runs: one layer of multi-head attention, four projections without biases."""
    return ModelSize(
        "This video",
        d_model,
        n_heads,
        1,
        4 * d_model * d_model,
        "one layer: W_Q, W_K, W_V and W_O, each d_model x d_model, no biases",
        0,  # one attention layer and nothing else: no feed-forward network, no embedding table
    )


@dataclass(frozen=True, eq=False)
class MultiHeadTrace(Trace):
    """One multi-head self-attention pass with every intermediate, and a scale comparison.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew the embeddings and the weights.
    tokens
        One label per input row.
    n_heads
        Number of heads; ``d_head = d_model / n_heads``.
    x
        Inputs ``(seq, d_model)``, random normal entries.
    w_q, w_k, w_v, w_o
        Projections ``(d_model, d_model)`` from :func:`attention_math.random_matrix`.
    q, k, v
        Full projections ``x @ w``, ``(seq, d_model)``, before the split.
    q_heads, k_heads, v_heads
        The same numbers split into heads, ``(n_heads, seq, d_head)``: head h owns
        columns ``h * d_head`` to ``(h + 1) * d_head``.
    scores
        Scaled scores per head, ``(n_heads, seq, seq)``.
    weights
        Attention weights per head, ``(n_heads, seq, seq)``; each row sums to 1.
    head_outputs
        ``weights @ v_heads``, ``(n_heads, seq, d_head)``.
    concat
        Head outputs side by side again, ``(seq, d_model)``.
    output
        ``concat @ w_o``, ``(seq, d_model)``.
    output_parts
        ``(n_heads, seq, d_model)``: head h's share of the output, its columns of ``concat`` times its
        rows of ``w_o``; summed over the heads they give ``output``, so every output number mixes all heads.
    source
        Where the inputs come from, said on screen.
    cost_models
        The two ways compared for cost: one head as wide as the model, and the heads of this pass.
    cost_projection_params
        Numbers in W_Q, W_K, W_V and W_O, ``4 * d_model**2`` both ways: a head's share of the columns is
        a slice of the same matrices, so splitting adds no parameters.
    cost_score_macs
        Multiply-adds of the scores ``Q Kᵀ``: ``seq² * d_model`` for one head, ``heads * seq² * d_head`` split.
    cost_value_macs
        Multiply-adds of the weights times the values, the same two ways.
    cost_weights
        Attention weights the softmax makes: ``seq²`` for one head, ``heads * seq²`` split (the one cost that grows).
    scale_models
        Names of the compared models: this video's own model (``d_model`` and ``n_heads`` above,
        one layer), then GPT-3.
    scale_d_model, scale_heads, scale_layers
        Their stated widths, heads per layer and layers.
    scale_head_dim
        ``scale_d_model / scale_heads``: the width each head works in.
    scale_total_heads
        ``scale_heads * scale_layers``: attention heads in the whole model.
    scale_layer_attention_params
        ``4 * d_model**2``: the numbers in one layer's projection matrices W_Q, W_K, W_V and W_O
        (biases left out; this video's model has none).
    scale_attention_params
        ``4 * d_model**2 * layers``: the same over all layers.
    scale_attention_params_billions
        The same in billions.
    scale_feed_forward_params
        ``2 * d_model * d_ff * layers``: the weights of every block's feed-forward network, its two
        matrices ``(d_model, d_ff)`` and ``(d_ff, d_model)`` (biases left out); 0 for this video's model,
        which has none. GPT-3's ``d_ff = 4 * d_model`` makes it ``8 * d_model**2 * layers``.
    scale_feed_forward_params_billions
        The same in billions.
    scale_total_params
        All parameters of the whole model: for GPT-3 as its paper states them (175 billion), for
        this video's model its four projections.
    scale_total_params_billions
        The same in billions.
    """

    seed: int
    tokens: tuple[str, ...]
    n_heads: int
    x: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    q_heads: np.ndarray
    k_heads: np.ndarray
    v_heads: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    output: np.ndarray
    output_parts: np.ndarray
    source: str
    cost_models: tuple[str, ...]
    cost_projection_params: np.ndarray
    cost_score_macs: np.ndarray
    cost_value_macs: np.ndarray
    cost_weights: np.ndarray
    scale_models: tuple[str, ...]
    scale_d_model: np.ndarray
    scale_heads: np.ndarray
    scale_layers: np.ndarray
    scale_head_dim: np.ndarray
    scale_total_heads: np.ndarray
    scale_layer_attention_params: np.ndarray
    scale_attention_params: np.ndarray
    scale_attention_params_billions: np.ndarray
    scale_feed_forward_params: np.ndarray
    scale_feed_forward_params_billions: np.ndarray
    scale_total_params: np.ndarray
    scale_total_params_billions: np.ndarray

    @property
    def d_model(self) -> int:
        """Width of the token vectors."""
        return int(self.x.shape[1])

    @property
    def d_head(self) -> int:
        """Width of each head's queries, keys and values."""
        return int(self.q_heads.shape[2])


def multi_head_trace(
    seed: int = PATTERN_SEED,
    tokens: Sequence[str] = THE_CAT_SAT.tokens,
    d_model: int = 16,
    n_heads: int = 8,
    compare_with: Sequence[ModelSize] = (GPT3,),
) -> MultiHeadTrace:
    """Run multi-head self-attention on seeded random embeddings and compare its size with real models.

    The embeddings are ``(len(tokens), d_model)`` standard normal numbers and the
    four projections come from :func:`attention_math.random_matrix`, all drawn from
    ``numpy.random.default_rng(seed)`` in the order x, W_Q, W_K, W_V, W_O. The size
    comparison's first column is the model just run (:func:`this_video_model`), then ``compare_with``.
    """
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((len(tokens), d_model))  # (seq, d_model)
    w_q, w_k, w_v, w_o = (random_matrix(rng, d_model, d_model) for _ in range(4))
    result = multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)

    models = (this_video_model(d_model, n_heads), *compare_with)
    d = np.array([m.d_model for m in models])
    heads = np.array([m.n_heads for m in models])
    layers = np.array([m.n_layers for m in models])
    total = np.array([m.total_params for m in models], dtype=float)
    # Four (d_model, d_model) projections per layer: W_Q, W_K, W_V, W_O.
    layer_attention_params = 4 * d.astype(np.int64) ** 2
    attention_params = layer_attention_params * layers
    if any(m.d_ff is None for m in models):
        raise ValueError("every compared model needs its feed-forward width d_ff stated (0 for none)")
    feed_forward_params = 2 * d.astype(np.int64) * np.array([m.d_ff for m in models], dtype=np.int64) * layers
    if np.any(d % heads):
        raise ValueError("every compared model needs d_model divisible by its number of heads")
    seq = len(tokens)
    _, _, d_head = result.q.shape  # (heads, seq, d_head)
    projections = sum(w.size for w in (w_q, w_k, w_v, w_o))  # the same matrices whatever the number of heads
    return MultiHeadTrace(
        seed=seed,
        tokens=tuple(tokens),
        n_heads=n_heads,
        x=x,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        w_o=w_o,
        q=x @ w_q,  # (seq, d_model)
        k=x @ w_k,
        v=x @ w_v,
        q_heads=result.q,
        k_heads=result.k,
        v_heads=result.v,
        scores=result.scores,
        weights=result.weights,
        head_outputs=result.head_outputs,
        concat=result.concat,
        output=result.output,
        output_parts=np.stack(
            [result.concat[:, h * d_head : (h + 1) * d_head] @ w_o[h * d_head : (h + 1) * d_head] for h in range(n_heads)]
        ),
        source=f"random embeddings and projection matrices, numpy default_rng({seed})",
        cost_models=(f"1 head of {d_model}", f"{n_heads} heads of {d_head}"),
        cost_projection_params=np.array([projections, projections]),
        cost_score_macs=np.array([seq * seq * d_model, n_heads * seq * seq * d_head]),
        cost_value_macs=np.array([seq * seq * d_model, n_heads * seq * seq * d_head]),
        cost_weights=np.array([seq * seq, n_heads * seq * seq]),
        scale_models=tuple(m.name for m in models),
        scale_d_model=d,
        scale_heads=heads,
        scale_layers=layers,
        scale_head_dim=d // heads,
        scale_total_heads=heads * layers,
        scale_layer_attention_params=layer_attention_params,
        scale_attention_params=attention_params,
        scale_attention_params_billions=attention_params / 1e9,
        scale_feed_forward_params=feed_forward_params,
        scale_feed_forward_params_billions=feed_forward_params / 1e9,
        scale_total_params=total,
        scale_total_params_billions=total / 1e9,
    )
