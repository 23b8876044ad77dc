"""Where attention lives: a real forward pass through a small GPT-style block, then a stack of them.

Built the way
GPT-2 and GPT-3 build their blocks (pre-norm, GELU, a feed-forward layer 4 x d_model wide, learned
position embeddings): :func:`attention_math.block.gpt_block`. The weights are random, not trained.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..block import gelu_tanh_bound, gpt_block, layer_norm, random_block_weights
from ..examples import DEFAULT_SEED, GPT3, THE_CAT_SAT
from ..masks import banded_causal_mask, causal_mask
from .base import Trace

__all__ = ["TransformerBlockTrace", "transformer_block_trace", "gelu_examples", "FF_MULTIPLIER", "BAND_TOKENS", "BAND"]

FF_MULTIPLIER = 4
"""The feed-forward layer is this many times d_model wide, in GPT-2 and GPT-3 (d_ff = 4 d_model,
Brown et al. 2020, section 2.1) as in the 2017 transformer (2048 = 4 x 512)."""


BAND_TOKENS = 8
"""Tokens of the small picture of a locally banded layer's mask (GPT-3 alternates dense and banded layers)."""

BAND = 3
"""Keys each query sees in that picture: itself and the two before it. The paper gives GPT-3's band
width only by reference to the Sparse Transformer, so the picture says it shows the idea, not GPT-3's width."""


@dataclass(frozen=True, eq=False)
class TransformerBlockTrace(Trace):
    """A real forward pass through a small pre-norm (GPT-2 / GPT-3) block, then through a stack of them.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew every weight (and the embeddings, unless given).
    tokens
        The input tokens.
    focus
        Index of the token whose vector a scene follows through the block.
    n_heads, d_ff, eps
        Heads, feed-forward width (``4 * d_model``) and layer norm epsilon.
    causal
        Whether attention is causal (GPT: each token sees itself and the tokens before it).
    embeddings
        Token embeddings ``(seq, d_model)``.
    positions
        Position embeddings ``(seq, d_model)``: one vector per position, learned in GPT; here
        random numbers, not trained.
    x
        ``embeddings + positions``: the first block's input.
    x_mean, x_var
        Per token mean and (biased) variance of ``x``, ``(seq,)``.
    norm1
        ``layer_norm(x)``: what attention reads.
    norm1_mean, norm1_var
        The same after the layer norm (0 and almost 1).
    mask
        The causal mask attention used, ``(seq, seq)``, True where a query may attend (on and below the diagonal).
    attention_weights
        Per head, ``(n_heads, seq, seq)``.
    head_outputs
        Per head, its weighted sum of values, ``(n_heads, seq, d_head)``.
    concat
        The heads' outputs joined side by side, ``(seq, d_model)``; ``attention`` is ``concat @ W_O``.
    attention, residual1, norm2, pre_activation, hidden, ff, output
        The first block's intermediates, as in :class:`attention_math.block.GPTBlockResult`.
    hidden_negative
        Per token, how many of the ``d_ff`` numbers were negative before GELU, ``(seq,)``.
    gelu_examples
        Three of the focus token's ``d_ff`` positions that show what GELU (``x Φ(x)``) does
        (:func:`gelu_examples`): its largest input, its smallest input of at least 0.1, its most negative input.
    gelu_tanh_bound
        How close GELU's tanh form, which GPT-2 and this block compute, stays to ``x Φ(x)``: the power of
        ten above their largest gap (:func:`attention_math.block.gelu_tanh_bound`, 0.001).
    n_layers
        Blocks in the stack, each with its own weights.
    block_numbers
        ``1 … n_layers``, to name the blocks of the stack.
    layer_outputs
        Output of each block of the stack, ``(n_layers, seq, d_model)``; ``layer_outputs[0] == output``.
    final_norm
        ``layer_norm(layer_outputs[-1])``: the layer norm GPT-2 and GPT-3 apply after the last block.
    gpt3_layers, gpt3_d_model, gpt3_d_ff
        GPT-3's blocks, width and feed-forward width (Brown et al. 2020, Table 2.1; d_ff = 4 d_model).
    banded_mask
        A small locally banded causal mask, ``(BAND_TOKENS, BAND_TOKENS)``, each query seeing itself and
        the ``BAND - 1`` tokens before it: the kind of layer GPT-3 alternates with dense ones (an illustration).
    source
        What the block is built as.
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
    x_mean: np.ndarray
    x_var: np.ndarray
    norm1: np.ndarray
    norm1_mean: np.ndarray
    norm1_var: np.ndarray
    mask: np.ndarray
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
    hidden_negative: np.ndarray
    gelu_examples: np.ndarray
    gelu_tanh_bound: float
    n_layers: int
    block_numbers: np.ndarray
    layer_outputs: np.ndarray
    final_norm: np.ndarray
    gpt3_layers: int
    gpt3_d_model: int
    gpt3_d_ff: int
    banded_mask: np.ndarray
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


def gelu_examples(pre_activation: np.ndarray) -> np.ndarray:
    """Three positions of one token's feed-forward input that show GELU's shape, ``(3,)``.

    The largest input (passed almost whole), the smallest input of at least 0.1 (a small positive,
    which GELU shrinks: ``Φ(0.14)`` is about 0.56), and the most negative (pulled to near 0).
    Positions may repeat when the row has no input of a kind.
    """
    row = np.asarray(pre_activation, dtype=float)
    small = np.flatnonzero(row >= 0.1)
    smallest = small[np.argmin(row[small])] if small.size else int(np.argmax(row))
    return np.array([int(np.argmax(row)), int(smallest), int(np.argmin(row))])


def transformer_block_trace(
    tokens: Sequence[str] = THE_CAT_SAT.tokens[:4],
    seed: int = DEFAULT_SEED,
    d_model: int = 8,
    n_heads: int = 2,
    n_layers: int = 3,
    focus: int = 1,
    eps: float = 1e-5,
    embeddings: np.ndarray | None = None,
    embeddings_source: str | None = None,
) -> TransformerBlockTrace:
    """Embed ``tokens``, add position embeddings, and run them through ``n_layers`` seeded GPT-style blocks.

    Draws from ``numpy.random.default_rng(seed)``, in order: the token embeddings ``(seq, d_model)``
    (used unless ``embeddings`` are given, with ``embeddings_source`` saying where they come from, so a
    seed gives the same weights for any sentence), the position embeddings ``(seq, d_model)``, then
    each block's weights (:func:`attention_math.block.random_block_weights` with ``d_ff = 4 d_model``).
    Attention is causal, as in GPT.
    """
    rng = np.random.default_rng(seed)
    seq = len(tokens)
    d_ff = FF_MULTIPLIER * d_model
    drawn = rng.standard_normal((seq, d_model))
    if embeddings is None:
        embeddings, embeddings_source = drawn, f"embeddings: random numbers from default_rng({seed})"
    elif np.shape(embeddings) != (seq, d_model) or embeddings_source is None:
        raise ValueError(f"embeddings must be ({seq}, {d_model}) and come with their embeddings_source")
    positions = rng.standard_normal((seq, d_model))  # learned in GPT; random before training
    x = np.asarray(embeddings, dtype=float) + positions
    mask = causal_mask(seq)
    layers = []
    current = x
    for _ in range(n_layers):
        result = gpt_block(current, random_block_weights(rng, d_model, d_ff), n_heads, mask=mask, eps=eps)
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
        causal=True,
        embeddings=np.asarray(embeddings, dtype=float),
        positions=positions,
        x=x,
        x_mean=x.mean(axis=-1),
        x_var=x.var(axis=-1),
        norm1=first.norm1,
        norm1_mean=first.norm1.mean(axis=-1),
        norm1_var=first.norm1.var(axis=-1),
        mask=mask,
        attention_weights=first.attention_weights,
        head_outputs=first.head_outputs,
        concat=first.concat,
        attention=first.attention,
        residual1=first.residual1,
        norm2=first.norm2,
        pre_activation=first.pre_activation,
        hidden=first.hidden,
        ff=first.ff,
        output=first.output,
        hidden_negative=(first.pre_activation < 0).sum(axis=-1),
        gelu_examples=gelu_examples(first.pre_activation[focus]),
        gelu_tanh_bound=gelu_tanh_bound(),
        n_layers=n_layers,
        block_numbers=np.arange(1, n_layers + 1),
        layer_outputs=np.stack([layer.output for layer in layers]),
        final_norm=layer_norm(layers[-1].output, eps=eps),
        gpt3_layers=GPT3.n_layers,
        gpt3_d_model=GPT3.d_model,
        gpt3_d_ff=FF_MULTIPLIER * GPT3.d_model,
        banded_mask=banded_causal_mask(BAND_TOKENS, BAND),
        source=(
            "random weights, built as GPT-2 and GPT-3 build a block (Radford et al. 2019, section 2.3; Brown et al. 2020, section 2.1)"
        ),
        embeddings_source=embeddings_source,
    )
