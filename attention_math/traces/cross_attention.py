"""Cross-attention: a decoder's queries against an encoder's keys and values, on a translation.

Follows seed 004 slide 12 (``CrossAttention``) with seed 000's translation example
("The cat sat on the mat" -> "El gato se sentó en la alfombra"). The trace is an
:class:`~attention_math.traces.self_attention.AttentionTrace` with a few extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..examples import ALIGNMENT, DEFAULT_SEED, ENGLISH, SPANISH, translation_embeddings
from .self_attention import AttentionTrace, attention_trace, extend_trace

__all__ = ["CrossAttentionTrace", "cross_attention_trace"]


@dataclass(frozen=True, eq=False)
class CrossAttentionTrace(AttentionTrace):
    """Cross-attention: the decoder's Spanish queries against the encoder's English keys and values.

    The inherited fields are the cross-attention pass: ``x_query`` and ``q`` are
    the decoder's ``(7, d)``, ``x_key``, ``k`` and ``v`` the encoder's ``(6, d)``,
    and ``weights`` is the rectangular ``(7, 6)`` matrix.

    Attributes
    ----------
    seed, embedding_length, noise
        Settings of :func:`translation_embeddings` (toy embeddings, not a trained model).
    alignment
        For each query token, the index of the key token it translates.
    self_weights
        The encoder's own self-attention (Q, K and V all English), ``(6, 6)``, to compare.
    """

    seed: int
    embedding_length: float
    noise: float
    alignment: tuple[int, ...]
    self_weights: np.ndarray


def cross_attention_trace(
    seed: int = DEFAULT_SEED, d_model: int = 6, length: float = 3.0, noise: float = 0.2, focus: int = 1
) -> CrossAttentionTrace:
    """Cross-attention from :data:`SPANISH` (decoder) to :data:`ENGLISH` (encoder) on toy embeddings.

    No projections, so Q is the Spanish vectors and K = V the English ones and the
    alignment stays visible. ``focus`` defaults to "gato" (seed 000: "When translating
    'gato': focus on 'cat'").
    """
    english, spanish = translation_embeddings(seed, d_model, length, noise)
    source = (
        f"toy embeddings (seed {seed}): English = random directions of length {length:g}, Spanish = partner + noise {noise:g}"
    )
    cross = attention_trace(SPANISH, spanish, ENGLISH, english, focus=focus, source=source)
    encoder_self = attention_trace(ENGLISH, english)
    return extend_trace(
        CrossAttentionTrace,
        cross,
        seed=seed,
        embedding_length=float(length),
        noise=float(noise),
        alignment=ALIGNMENT,
        self_weights=encoder_self.weights,
    )
