"""Where attention lives: a real forward pass through a small transformer block, then a stack of them.

Follows seed 003 "Where Attention Lives in GPT" and seed 004 slides 4, 7 and 8;
the block itself is :func:`attention_math.block.transformer_block`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..block import random_block_weights, transformer_block
from ..examples import DEFAULT_SEED, THE_CAT_SAT
from ..masks import causal_mask
from ..positions import sinusoidal_encoding
from .base import Trace

__all__ = ["TransformerBlockTrace", "transformer_block_trace"]


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
