"""Where attention lives: one transformer block (attention, residuals, layer norm, feed-forward).

:func:`gpt_block` is the pre-norm block of GPT-2 and GPT-3 (Radford et al. 2019, section 2.3:
layer norm "moved to the input of each sub-block"; Brown et al. 2020, section 2.1: "the same
model and architecture as GPT-2")::

    x = x + attention(norm1(x))
    x = x + ff(norm2(x))

with a GELU feed-forward network four times as wide as the model (GPT-2's ``gelu_new``, the
tanh approximation). Attention is multi-head self-attention from :mod:`attention_math.core`;
layer norm is seed 004 slide 7. (The 2017 transformer's post-norm order, ``x = norm(x + sublayer(x))``,
is shown as a formula in the transformer-block scene, not computed.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .core import multi_head_attention
from .examples import random_matrix

__all__ = [
    "layer_norm",
    "BlockWeights",
    "random_block_weights",
    "gelu",
    "gelu_exact",
    "gelu_tanh_bound",
    "GPTBlockResult",
    "gpt_block",
]


def layer_norm(x: np.ndarray, gamma: np.ndarray | None = None, beta: np.ndarray | None = None, eps: float = 1e-5) -> np.ndarray:
    """Normalise each row of ``x`` to mean 0 and variance 1, then scale by ``gamma`` and shift by ``beta``.

    ``(x - mean) / sqrt(var + eps) * gamma + beta`` over the last axis, with the
    biased variance, as ``torch.nn.LayerNorm``. ``gamma`` defaults to ones and
    ``beta`` to zeros (their initial values).
    """
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    normed = (x - mean) / np.sqrt(var + eps)
    if gamma is not None:
        normed = normed * gamma
    if beta is not None:
        normed = normed + beta
    return normed


@dataclass(frozen=True, eq=False)
class BlockWeights:
    """The parameters of one block; projections multiply from the right (``x @ w``).

    Attributes
    ----------
    w_q, w_k, w_v, w_o
        Attention projections, ``(d_model, d_model)``.
    gamma1, beta1, gamma2, beta2
        Layer norm scales and shifts, ``(d_model,)``.
    w1, b1, w2, b2
        Feed-forward layers, ``(d_model, d_ff)``, ``(d_ff,)``, ``(d_ff, d_model)``, ``(d_model,)``.
    """

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    gamma1: np.ndarray
    beta1: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    gamma2: np.ndarray
    beta2: np.ndarray


def random_block_weights(rng: np.random.Generator, d_model: int, d_ff: int) -> BlockWeights:
    """Freshly initialised weights: normal projections, zero biases, ``gamma = 1``, ``beta = 0`` (as seed 004)."""
    w_q, w_k, w_v, w_o = (random_matrix(rng, d_model, d_model) for _ in range(4))
    w1 = random_matrix(rng, d_model, d_ff)
    w2 = random_matrix(rng, d_ff, d_model)
    ones, zeros = np.ones(d_model), np.zeros(d_model)
    return BlockWeights(w_q, w_k, w_v, w_o, ones, zeros, w1, np.zeros(d_ff), w2, zeros, ones, zeros)


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU in the tanh approximation GPT-2 uses: ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``.

    It approximates ``x Φ(x)`` (Φ the standard normal's distribution function): large positive inputs
    pass almost whole, small positive ones shrink (0.14 to 0.08), negative ones are pulled towards 0
    (never below -0.17).
    """
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def gelu_exact(x: np.ndarray) -> np.ndarray:
    """GELU as defined, ``x Φ(x)``, with Φ the standard normal's distribution function (from ``math.erf``)."""
    x = np.asarray(x, dtype=float)
    return x * 0.5 * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def gelu_tanh_bound(low: float = -10.0, high: float = 10.0, points: int = 20001) -> float:
    """The power of ten just above the largest gap between :func:`gelu` (tanh form) and :func:`gelu_exact`.

    Measured on ``points`` evenly spaced inputs from ``low`` to ``high`` (beyond them both forms are x or 0
    to far below it): the gap peaks near -2.7 at about 0.00047, so the bound is 0.001.
    """
    x = np.linspace(low, high, points)
    gap = float(np.max(np.abs(gelu(x) - gelu_exact(x))))
    return float(10.0 ** math.ceil(math.log10(gap)))


@dataclass(frozen=True, eq=False)
class GPTBlockResult:
    """Every intermediate of one pre-norm (GPT-2 / GPT-3) block's forward pass.

    Attributes
    ----------
    norm1
        ``layer_norm(x)``: what attention reads, ``(seq, d_model)``.
    attention_weights
        Per head, ``(n_heads, seq, seq)``.
    head_outputs
        Each head's weighted sum of its values, ``(n_heads, seq, d_head)``.
    concat
        The heads' outputs side by side (joined), ``(seq, d_model)``; ``attention = concat @ w_o``.
    attention
        Multi-head attention output on ``norm1``, ``(seq, d_model)``.
    residual1
        ``x + attention``: the residual stream after attention.
    norm2
        ``layer_norm(residual1)``: what the feed-forward network reads.
    pre_activation
        ``norm2 @ w1 + b1``, ``(seq, d_ff)``.
    hidden
        ``gelu(pre_activation)``, ``(seq, d_ff)``.
    ff
        ``hidden @ w2 + b2``, ``(seq, d_model)``.
    output
        ``residual1 + ff``: the block's output.
    """

    norm1: np.ndarray
    attention_weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    attention: np.ndarray
    residual1: np.ndarray
    norm2: np.ndarray
    pre_activation: np.ndarray
    hidden: np.ndarray
    ff: np.ndarray
    output: np.ndarray


def gpt_block(
    x: np.ndarray, weights: BlockWeights, n_heads: int, mask: np.ndarray | None = None, eps: float = 1e-5
) -> GPTBlockResult:
    """One pre-norm block as in GPT-2 and GPT-3: ``x = x + attention(norm1(x)); x = x + ff(norm2(x))``.

    The feed-forward network is ``gelu(x W1 + b1) W2 + b2``; attention has no biases here.
    ``mask`` is boolean, True where a query may attend (:func:`attention_math.masks.causal_mask` for GPT).
    """
    w = weights
    x = np.asarray(x, dtype=float)
    norm1 = layer_norm(x, w.gamma1, w.beta1, eps)
    attention = multi_head_attention(norm1, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    residual1 = x + attention.output
    norm2 = layer_norm(residual1, w.gamma2, w.beta2, eps)
    pre_activation = norm2 @ w.w1 + w.b1  # (seq, d_ff)
    hidden = gelu(pre_activation)
    ff = hidden @ w.w2 + w.b2  # (seq, d_model)
    return GPTBlockResult(
        norm1,
        attention.weights,
        attention.head_outputs,
        attention.concat,
        attention.output,
        residual1,
        norm2,
        pre_activation,
        hidden,
        ff,
        residual1 + ff,
    )
