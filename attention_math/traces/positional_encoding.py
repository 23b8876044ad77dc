"""Positional encoding: attention ignores word order, and sin/cos fingerprints fix it.

Follows seed 000 "Positional Encoding" ("Dog bites man" vs "Man bites dog",
the fingerprints of positions 0-2, the 50 x 128 heatmap, cosine similarity of
positions 5, 6 and 30), seed 001 part 5 (curves of single dimensions) and
seed 004 slide 5.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..core import scaled_dot_product_attention
from ..examples import DEFAULT_SEED
from ..positions import cosine_similarity_matrix, encoding_curves, sinusoidal_encoding, wavelengths
from .base import Trace

__all__ = ["PositionalTrace", "positional_trace"]


def _self_attention_weights(x: np.ndarray) -> np.ndarray:
    """Weights of self-attention with Q = K = V = x (seed 000's first example)."""
    _, weights = scaled_dot_product_attention(x, x, x)
    return weights


@dataclass(frozen=True, eq=False)
class PositionalTrace(Trace):
    """Why attention needs positions, and what the sinusoidal encoding looks like.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew the word embeddings.
    words
        The vocabulary of the two sentences, one embedding row each.
    word_embeddings
        ``(len(words), d_small)`` random normal numbers.
    sentence_a, sentence_b
        The same words in two orders ("dog bites man", "man bites dog").
    order_b
        ``order_b[i]`` is the position in sentence a of sentence b's word i.
    x_a, x_b
        The sentences' embeddings, ``(3, d_small)``: the same rows, reordered.
    weights_a, weights_b
        Self-attention weights (Q = K = V = x) without positions, ``(3, 3)``;
        ``weights_b == weights_a[order_b][:, order_b]``.
    scale
        ``sqrt(d_small)``, what the scores are divided by.
    self_scores_a
        ``(x_a ** 2).sum(-1) / scale``, ``(3,)``: with Q = K each word's scaled score with itself is its squared
        length divided by ``scale``, so a long vector tends to look most at itself and a short one may not.
    scaled_scores_a
        ``x_a @ x_a.T / scale``, ``(3, 3)``: the scores before softmax (``self_scores_a`` is its diagonal); a short
        vector's score with a longer neighbour may beat its score with itself.
    positions_b
        ``positions_b[i]`` is the position in sentence b of sentence a's word i (whose fingerprint it gets there).
    pe_small
        ``sinusoidal_encoding(3, d_small)``: the fingerprints of positions 0, 1, 2.
    x_a_pos, x_b_pos
        Embeddings plus ``pe_small``.
    weights_a_pos, weights_b_pos
        Self-attention weights with positions added; no longer a reordering of each other.
    seq_len, d_model
        Size of the large encoding (50 positions x 128 dimensions).
    pe
        ``sinusoidal_encoding(seq_len, d_model)``.
    pe_min, pe_max
        Its smallest and largest value (the ends of the colour scale).
    positions, dims
        ``0 .. seq_len - 1`` and ``0 .. d_model - 1``, the heatmap's axes.
    curve_dims
        The dimensions drawn as curves.
    curve_wavelengths
        Positions after which each of them repeats.
    curve_x
        Fine positions from 0 to ``seq_len - 1`` for drawing the curves.
    curve_y
        ``(len(curve_dims), len(curve_x))``: the encoding formula along ``curve_x``.
    curve_points
        ``pe[:, curve_dims].T``: the values at whole positions, ``(len(curve_dims), seq_len)``.
    similarity
        Cosine similarity of every pair of positions, ``(seq_len, seq_len)``.
    similarity_min, similarity_max
        Its smallest and largest value (the ends of its colour scale).
    reference, near, far
        The positions compared: 5 with 6 (near), and 5 with 30 (far).
    similarity_near, similarity_far
        ``similarity[reference, near]`` and ``similarity[reference, far]``.
    """

    seed: int
    words: tuple[str, ...]
    word_embeddings: np.ndarray
    sentence_a: tuple[str, ...]
    sentence_b: tuple[str, ...]
    order_b: tuple[int, ...]
    x_a: np.ndarray
    x_b: np.ndarray
    weights_a: np.ndarray
    weights_b: np.ndarray
    scale: float
    self_scores_a: np.ndarray
    scaled_scores_a: np.ndarray
    positions_b: tuple[int, ...]
    pe_small: np.ndarray
    x_a_pos: np.ndarray
    x_b_pos: np.ndarray
    weights_a_pos: np.ndarray
    weights_b_pos: np.ndarray
    seq_len: int
    d_model: int
    pe: np.ndarray
    pe_min: float
    pe_max: float
    positions: np.ndarray
    dims: np.ndarray
    curve_dims: tuple[int, ...]
    curve_wavelengths: np.ndarray
    curve_x: np.ndarray
    curve_y: np.ndarray
    curve_points: np.ndarray
    similarity: np.ndarray
    similarity_min: float
    similarity_max: float
    reference: int
    near: int
    far: int
    similarity_near: float
    similarity_far: float

    @property
    def d_small(self) -> int:
        """Width of the word embeddings in the word-order example."""
        return int(self.word_embeddings.shape[1])


def positional_trace(
    seed: int = DEFAULT_SEED,
    sentence_a: Sequence[str] = ("dog", "bites", "man"),
    sentence_b: Sequence[str] = ("man", "bites", "dog"),
    d_small: int = 4,
    seq_len: int = 50,
    d_model: int = 128,
    curve_dims: Sequence[int] = (0, 20, 40, 60),
    reference: int = 5,
    near: int = 6,
    far: int = 30,
    samples_per_position: int = 8,
) -> PositionalTrace:
    """Show that attention ignores word order, then build the sinusoidal encoding.

    The word embeddings are ``d_small`` standard normal numbers per word from
    ``numpy.random.default_rng(seed)``, one row per distinct word of ``sentence_a``;
    ``sentence_b`` must use the same words.
    """
    words = tuple(dict.fromkeys(sentence_a))  # distinct words, first-seen order
    if sorted(sentence_b) != sorted(sentence_a) or len(words) != len(sentence_a):
        raise ValueError("sentence_b must reorder sentence_a's words, each used once")
    rng = np.random.default_rng(seed)
    word_embeddings = rng.standard_normal((len(words), d_small))  # (n_words, d_small)
    x_a = word_embeddings[[words.index(w) for w in sentence_a]]  # (3, d_small)
    x_b = word_embeddings[[words.index(w) for w in sentence_b]]
    order_b = tuple(sentence_a.index(w) for w in sentence_b)
    pe_small = sinusoidal_encoding(len(sentence_a), d_small)  # (3, d_small)

    pe = sinusoidal_encoding(seq_len, d_model)  # (seq_len, d_model)
    curve_x = np.linspace(0, seq_len - 1, (seq_len - 1) * samples_per_position + 1)
    similarity = cosine_similarity_matrix(pe)  # (seq_len, seq_len)
    return PositionalTrace(
        seed=seed,
        words=words,
        word_embeddings=word_embeddings,
        sentence_a=tuple(sentence_a),
        sentence_b=tuple(sentence_b),
        order_b=order_b,
        x_a=x_a,
        x_b=x_b,
        weights_a=_self_attention_weights(x_a),
        weights_b=_self_attention_weights(x_b),
        scale=float(np.sqrt(d_small)),
        self_scores_a=(x_a**2).sum(axis=-1) / np.sqrt(d_small),
        scaled_scores_a=x_a @ x_a.T / np.sqrt(d_small),  # (3, 3)
        positions_b=tuple(tuple(sentence_b).index(w) for w in sentence_a),
        pe_small=pe_small,
        x_a_pos=x_a + pe_small,
        x_b_pos=x_b + pe_small,
        weights_a_pos=_self_attention_weights(x_a + pe_small),
        weights_b_pos=_self_attention_weights(x_b + pe_small),
        seq_len=seq_len,
        d_model=d_model,
        pe=pe,
        pe_min=float(pe.min()),
        pe_max=float(pe.max()),
        positions=np.arange(seq_len),
        dims=np.arange(d_model),
        curve_dims=tuple(int(d) for d in curve_dims),
        curve_wavelengths=wavelengths(curve_dims, d_model),
        curve_x=curve_x,
        curve_y=encoding_curves(curve_x, curve_dims, d_model),
        curve_points=pe[:, list(curve_dims)].T,  # (len(curve_dims), seq_len)
        similarity=similarity,
        similarity_min=float(similarity.min()),
        similarity_max=float(similarity.max()),
        reference=reference,
        near=near,
        far=far,
        similarity_near=float(similarity[reference, near]),
        similarity_far=float(similarity[reference, far]),
    )
