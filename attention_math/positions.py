"""Positional encoding: the sinusoidal fingerprints of positions, as a table and as curves.

Attention by itself ignores word order; the original Transformer adds
:func:`sinusoidal_encoding` to the embeddings so that every position has its own
fingerprint. Also here: single dimensions as curves and their wavelengths (seed 001
part 5), and the cosine similarity of positions (seed 000 "Positional Encoding").
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = [
    "sinusoidal_encoding",
    "encoding_curves",
    "wavelengths",
    "cosine_similarity_matrix",
]


def sinusoidal_encoding(seq_len: int, d_model: int) -> np.ndarray:
    """The original Transformer's positional encoding, ``(seq_len, d_model)``.

    PE[pos, 2i] = sin(pos / 10000^(2i/d_model)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d_model)).
    """
    if seq_len < 0 or d_model <= 0 or d_model % 2:
        raise ValueError(f"need seq_len >= 0 and a positive even d_model, got {seq_len}, {d_model}")
    positions = np.arange(seq_len)[:, np.newaxis]  # (seq_len, 1)
    two_i = np.arange(0, d_model, 2)  # (d_model / 2,)
    angles = positions / np.power(10000.0, two_i / d_model)  # (seq_len, d_model / 2)
    encoding = np.empty((seq_len, d_model))
    encoding[:, 0::2] = np.sin(angles)
    encoding[:, 1::2] = np.cos(angles)
    return encoding


def encoding_curves(positions, dims: Sequence[int], d_model: int) -> np.ndarray:
    """Encoding dimensions ``dims`` at any (also fractional) positions, ``(len(dims), len(positions))``.

    The same formula as :func:`sinusoidal_encoding`, evaluated
    between whole positions too, so a scene can draw each dimension as a curve.
    """
    positions = np.asarray(positions, dtype=float)
    dims = np.asarray(dims)
    # Dimensions 2i and 2i+1 share the angle pos / 10000^(2i / d_model).
    angles = positions[np.newaxis, :] / np.power(10000.0, (dims - dims % 2)[:, np.newaxis] / d_model)
    return np.where((dims % 2 == 0)[:, np.newaxis], np.sin(angles), np.cos(angles))


def wavelengths(dims: Sequence[int], d_model: int) -> np.ndarray:
    """Positions after which each dimension repeats: ``2 pi * 10000^(2i / d_model)``."""
    dims = np.asarray(dims)
    return 2 * np.pi * np.power(10000.0, (dims - dims % 2) / d_model)


def cosine_similarity_matrix(x: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of rows of ``x``, ``(n, n)``."""
    x = np.asarray(x, dtype=float)
    unit = x / np.linalg.norm(x, axis=1, keepdims=True)  # (n, d), rows of length 1
    return unit @ unit.T
