"""Where attention lives: one transformer block, and blocks stacked on top of each other.

A block is the post-norm encoder block of seed 004 slide 8::

    x = norm1(x + attention(x))
    x = norm2(x + ff(x))

with multi-head self-attention from :mod:`attention_math.core`, layer norm
(slide 7) and the position-wise feed-forward network Linear-ReLU-Linear (slide 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .core import causal_mask, multi_head_attention, sinusoidal_encoding
from .examples import DEFAULT_SEED, THE_CAT_SAT, random_matrix
from .traces import Trace

__all__ = [
    "layer_norm",
    "feed_forward",
    "BlockWeights",
    "BlockResult",
    "random_block_weights",
    "transformer_block",
    "TransformerBlockTrace",
    "transformer_block_trace",
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


def feed_forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The position-wise feed-forward network ``ReLU(x W1 + b1) W2 + b2``, row by row.

    Parameters
    ----------
    x
        Inputs ``(seq, d_model)``.
    w1, b1
        First layer, ``(d_model, d_ff)`` and ``(d_ff,)``.
    w2, b2
        Second layer, ``(d_ff, d_model)`` and ``(d_model,)``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(output, hidden)`` with shapes ``(seq, d_model)`` and ``(seq, d_ff)``.
    """
    hidden = np.maximum(0.0, np.asarray(x, dtype=float) @ w1 + b1)  # (seq, d_ff)
    return hidden @ w2 + b2, hidden


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


@dataclass(frozen=True, eq=False)
class BlockResult:
    """Every intermediate of one block's forward pass.

    Attributes
    ----------
    attention_weights
        Per head, ``(n_heads, seq, seq)``.
    attention
        Multi-head attention output ``(seq, d_model)``.
    residual1
        ``x + attention``.
    norm1
        ``layer_norm(residual1)``.
    hidden
        Feed-forward hidden layer after ReLU, ``(seq, d_ff)``.
    ff
        Feed-forward output ``(seq, d_model)``.
    residual2
        ``norm1 + ff``.
    output
        ``layer_norm(residual2)``: the block's output.
    """

    attention_weights: np.ndarray
    attention: np.ndarray
    residual1: np.ndarray
    norm1: np.ndarray
    hidden: np.ndarray
    ff: np.ndarray
    residual2: np.ndarray
    output: np.ndarray


def transformer_block(
    x: np.ndarray, weights: BlockWeights, n_heads: int, mask: np.ndarray | None = None, eps: float = 1e-5
) -> BlockResult:
    """One post-norm transformer block: ``x = norm1(x + attention(x)); x = norm2(x + ff(x))``.

    Parameters
    ----------
    x
        Inputs ``(seq, d_model)``.
    weights
        The block's parameters.
    n_heads
        Attention heads; must divide ``d_model``.
    mask
        Boolean, True where a query may attend (e.g. :func:`causal_mask` for GPT).
    eps
        Layer norm's variance epsilon.
    """
    w = weights
    attention = multi_head_attention(x, w.w_q, w.w_k, w.w_v, w.w_o, n_heads, mask=mask)
    residual1 = np.asarray(x, dtype=float) + attention.output
    norm1 = layer_norm(residual1, w.gamma1, w.beta1, eps)
    ff, hidden = feed_forward(norm1, w.w1, w.b1, w.w2, w.b2)
    residual2 = norm1 + ff
    output = layer_norm(residual2, w.gamma2, w.beta2, eps)
    return BlockResult(attention.weights, attention.output, residual1, norm1, hidden, ff, residual2, output)


@dataclass(frozen=True, eq=False)
class TransformerBlockTrace(Trace):
    """A real forward pass through a small transformer block, then through a stack of them.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew every weight (and the embeddings, unless given).
    tokens
        The input tokens.
    focus
        Index of the token whose vector a scene follows through the block.
    n_heads, d_ff, eps
        Heads, feed-forward width and layer norm epsilon.
    causal
        Whether attention is causal (GPT) or sees every token (an encoder).
    embeddings
        Token embeddings ``(seq, d_model)``.
    positions
        Sinusoidal positional encodings ``(seq, d_model)``.
    x
        ``embeddings + positions``: the first block's input.
    attention_weights
        Per head, ``(n_heads, seq, seq)``.
    attention, residual1, norm1, hidden, ff, residual2, output
        The first block's intermediates, as in :class:`BlockResult`.
    residual1_mean, residual1_var, norm1_mean, norm1_var
        Per token mean and (biased) variance before and after the first layer norm, ``(seq,)``.
    hidden_zeros
        Per token, how many of the ``d_ff`` hidden numbers ReLU set to zero, ``(seq,)``.
    n_layers
        Blocks in the stack, each with its own weights.
    block_numbers
        ``1 … n_layers``, to name the blocks of the stack.
    layer_outputs
        Output of each block of the stack, ``(n_layers, seq, d_model)``; ``layer_outputs[0] == output``.
    gpt3_layers
        Blocks in GPT-3, as seed 003 states.
    source
        The course material this follows.
    embeddings_source
        Where the embeddings come from, said on screen for a teacher's sentence.
    """

    seed: int
    tokens: tuple[str, ...]
    focus: int
    n_heads: int
    d_ff: int
    eps: float
    causal: bool
    embeddings: np.ndarray
    positions: np.ndarray
    x: np.ndarray
    attention_weights: np.ndarray
    attention: np.ndarray
    residual1: np.ndarray
    norm1: np.ndarray
    hidden: np.ndarray
    ff: np.ndarray
    residual2: np.ndarray
    output: np.ndarray
    residual1_mean: np.ndarray
    residual1_var: np.ndarray
    norm1_mean: np.ndarray
    norm1_var: np.ndarray
    hidden_zeros: np.ndarray
    n_layers: int
    block_numbers: np.ndarray
    layer_outputs: np.ndarray
    gpt3_layers: int
    source: str
    embeddings_source: str

    @property
    def d_model(self) -> int:
        """Width of every token vector between the sublayers."""
        return int(self.x.shape[1])

    @property
    def d_head(self) -> int:
        """Width of each head's queries, keys and values."""
        return self.d_model // self.n_heads


def transformer_block_trace(
    tokens: Sequence[str] = THE_CAT_SAT.tokens[:4],
    seed: int = DEFAULT_SEED,
    d_model: int = 8,
    n_heads: int = 2,
    d_ff: int = 16,
    n_layers: int = 3,
    causal: bool = True,
    focus: int = 1,
    eps: float = 1e-5,
    embeddings: np.ndarray | None = None,
    embeddings_source: str | None = None,
) -> TransformerBlockTrace:
    """Embed ``tokens``, add positions, and run them through ``n_layers`` seeded blocks.

    Follows seed 003 "Where Attention Lives in GPT" (token and position
    embeddings, then blocks of causal multi-head attention, layer norm and a
    feed-forward network, x96 in GPT-3) and seed 004 slides 4, 7 and 8
    (FeedForward, LayerNorm, EncoderBlock).

    The embeddings are drawn from the seed unless ``embeddings`` (``(seq, d_model)``, e.g. a
    teacher's sentence's word vectors) are given with ``embeddings_source`` saying where they
    come from. They are drawn either way, so a seed gives the same block weights for any sentence.
    """
    rng = np.random.default_rng(seed)
    seq = len(tokens)
    drawn = rng.standard_normal((seq, d_model))
    if embeddings is None:
        embeddings, embeddings_source = drawn, f"embeddings: random numbers from default_rng({seed})"
    elif np.shape(embeddings) != (seq, d_model) or embeddings_source is None:
        raise ValueError(f"embeddings must be ({seq}, {d_model}) and come with their embeddings_source")
    positions = sinusoidal_encoding(seq, d_model)
    x = embeddings + positions
    mask = causal_mask(seq) if causal else None
    layers = []
    current = x
    for _ in range(n_layers):
        result = transformer_block(current, random_block_weights(rng, d_model, d_ff), n_heads, mask=mask, eps=eps)
        layers.append(result)
        current = result.output
    first = layers[0]
    return TransformerBlockTrace(
        seed=seed,
        tokens=tuple(tokens),
        focus=focus,
        n_heads=n_heads,
        d_ff=d_ff,
        eps=eps,
        causal=causal,
        embeddings=embeddings,
        positions=positions,
        x=x,
        attention_weights=first.attention_weights,
        attention=first.attention,
        residual1=first.residual1,
        norm1=first.norm1,
        hidden=first.hidden,
        ff=first.ff,
        residual2=first.residual2,
        output=first.output,
        residual1_mean=first.residual1.mean(axis=-1),
        residual1_var=first.residual1.var(axis=-1),
        norm1_mean=first.norm1.mean(axis=-1),
        norm1_var=first.norm1.var(axis=-1),
        hidden_zeros=(first.hidden == 0.0).sum(axis=-1),
        n_layers=n_layers,
        block_numbers=np.arange(1, n_layers + 1),
        layer_outputs=np.stack([layer.output for layer in layers]),
        gpt3_layers=96,
        source="seed 003 'Where Attention Lives in GPT'; seed 004 slides 4, 7, 8 (FeedForward, LayerNorm, EncoderBlock)",
        embeddings_source=embeddings_source,
    )
