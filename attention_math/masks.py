"""Attention masks: which keys each query may see (causal, padding), and padding a batch.

A boolean mask is True where a query may attend, as in
``torch.nn.functional.scaled_dot_product_attention``; attention puts ``-inf`` in the
scores where it is False, so softmax gives those keys weight exactly 0.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

__all__ = [
    "PAD",
    "causal_mask",
    "banded_causal_mask",
    "padding_mask",
    "additive_mask",
    "pad_batch",
]

PAD = "<pad>"
"""The padding token's label."""


def causal_mask(n: int) -> np.ndarray:
    """Boolean ``(n, n)`` mask, True on and below the diagonal (query i sees keys j <= i)."""
    return np.tril(np.ones((n, n), dtype=bool))


def banded_causal_mask(n: int, band: int) -> np.ndarray:
    """Boolean ``(n, n)`` mask, True where key j is one of the ``band`` tokens up to query i (``i - band < j <= i``).

    A locally banded causal pattern: each query sees only itself and the ``band - 1`` tokens just before it
    (the "locally banded sparse attention" GPT-3 alternates with dense layers, Brown et al. 2020, section 2.1).
    """
    if band < 1:
        raise ValueError(f"band must be at least 1, got {band}")
    return np.tril(np.ones((n, n), dtype=bool)) & ~np.tril(np.ones((n, n), dtype=bool), k=-band)


def padding_mask(valid) -> np.ndarray:
    """Boolean ``(..., 1, n_k)`` mask from 1/0 (or bool) per key; padded keys are False.

    The singleton query axis broadcasts over every query row, so the result
    can be combined with :func:`causal_mask` by ``&``.
    """
    valid = np.asarray(valid)
    if not np.isin(valid, (0, 1)).all():
        raise ValueError(f"padding flags must be 1/0 or True/False, got {valid.tolist()}")
    return valid.astype(bool)[..., np.newaxis, :]


def additive_mask(mask: np.ndarray) -> np.ndarray:
    """The same mask as numbers to add to the scores: ``0`` where ``mask`` is True, ``-inf`` where it is False.

    ``scores + additive_mask(mask)`` equals ``np.where(mask, scores, -inf)``; seed 003
    writes the causal mask this way.
    """
    return np.where(mask, 0.0, -np.inf)


def pad_batch(
    batch: Sequence[Sequence[str]], max_len: int, side: str = "right"
) -> tuple[tuple[tuple[str, ...], ...], np.ndarray]:
    """Pad every sentence of ``batch`` with :data:`PAD` to ``max_len`` tokens, after its words or before them.

    Parameters
    ----------
    batch
        Sentences as sequences of tokens, each at most ``max_len`` long.
    max_len
        Length of every padded sentence.
    side
        ``"right"`` puts the pads after the words (training); ``"left"`` before them, so that
        every sentence ends at the last position (batched generation).

    Returns
    -------
    batch_tokens, batch_valid
        The padded sentences, and ``(n_sentences, max_len)`` flags: 1 for a real
        token, 0 for padding (what :func:`padding_mask` takes).
    """
    if any(len(tokens) > max_len for tokens in batch):
        raise ValueError(f"a sentence is longer than max_len={max_len}")
    if side not in ("right", "left"):
        raise ValueError(f"side must be 'right' or 'left', got {side!r}")
    left = side == "left"

    def padded(row: Sequence, pad) -> tuple:
        pads = (pad,) * (max_len - len(row))
        return (*pads, *row) if left else (*row, *pads)

    batch_tokens = tuple(padded(tuple(tokens), PAD) for tokens in batch)
    batch_valid = np.array([padded((1,) * len(tokens), 0) for tokens in batch])  # (n_sentences, max_len)
    return batch_tokens, batch_valid
