"""Cross-attention: a decoder's queries against an encoder's keys and values, on a translation.

Follows seed 004 slide 12 (``CrossAttention``) with seed 000's translation example
("The cat sat on the mat" -> "El gato se sentó en la alfombra"). As in training, the decoder
reads the translation shifted right by one (``<s> El gato ... la``): the position that reads
"El" writes "gato", so its query is the one that should find "cat". The trace is an
:class:`~attention_math.traces.self_attention.AttentionTrace` with a few extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..examples import ALIGNMENT, DEFAULT_SEED, ENGLISH, SPANISH, translation_embeddings
from .self_attention import AttentionTrace, attention_trace, extend_trace

__all__ = ["START", "CrossAttentionTrace", "cross_attention_trace"]

START = "<s>"
"""The start token the decoder reads first, where the translation is shifted right."""


@dataclass(frozen=True, eq=False)
class CrossAttentionTrace(AttentionTrace):
    """Cross-attention: the decoder's Spanish queries against the encoder's English keys and values.

    The inherited fields are the cross-attention pass: ``x_query`` and ``q`` are
    the decoder's ``(7, d)``, ``x_key``, ``k`` and ``v`` the encoder's ``(6, d)``,
    and ``weights`` is the rectangular ``(7, 6)`` matrix. ``query_tokens`` is the
    decoder's input, the translation shifted right (``<s> El gato se sentó en la``).

    Attributes
    ----------
    seed, embedding_length, noise
        Settings of :func:`translation_embeddings` (toy embeddings, not a trained model).
    target_tokens
        What each decoder position writes (``El gato se sentó en la alfombra``): the
        word after the one it reads.
    alignment
        For each decoder position, the index of the English word that the word it writes translates.
    self_weights
        The encoder's own self-attention (Q, K and V all English), ``(6, 6)``, to compare.
    encoder_self_dots
        ``(6,)``: each English vector's dot product with itself, its squared length (all equal, ``length²``).
    encoder_other_dot
        The largest dot product between two different English vectors: below every self dot product,
        which is why the encoder's self-attention diagonal wins.
    """

    seed: int
    embedding_length: float
    noise: float
    target_tokens: tuple[str, ...]
    alignment: tuple[int, ...]
    self_weights: np.ndarray
    encoder_self_dots: np.ndarray
    encoder_other_dot: float


def cross_attention_trace(
    seed: int = DEFAULT_SEED, d_model: int = 5, length: float = 3.0, noise: float = 0.2, focus: int = 1
) -> CrossAttentionTrace:
    """Cross-attention from :data:`SPANISH` (decoder) to :data:`ENGLISH` (encoder) on toy embeddings.

    Toy vectors, not a trained model: the decoder's query at each position is the vector of
    the English partner of the word it writes, plus noise (what a trained decoder learns to
    produce; :func:`translation_embeddings` builds them). No projections, so Q is those
    vectors and K = V the English ones, and the alignment stays visible. ``focus`` defaults
    to the position that reads "El" and writes "gato" (seed 000: "When translating 'gato':
    focus on 'cat'"). Five numbers per vector keep the weighted sum's rows on screen; with
    the default seed every position's largest weight still lands on its partner.
    """
    english, queries = translation_embeddings(seed, d_model, length, noise)  # (6, d), (7, d): one query per word written
    decoder_input = (START, *SPANISH[:-1])  # shifted right: position i reads the word before the one it writes
    source = (
        f"toy vectors (seed {seed}): English = random directions of length {length:g}, "
        f"decoder query = partner of the word it writes + noise {noise:g}"
    )
    cross = attention_trace(decoder_input, queries, ENGLISH, english, focus=focus, source=source)
    encoder_self = attention_trace(ENGLISH, english)
    return extend_trace(
        CrossAttentionTrace,
        cross,
        seed=seed,
        embedding_length=float(length),
        noise=float(noise),
        target_tokens=SPANISH,
        alignment=ALIGNMENT,
        self_weights=encoder_self.weights,
        encoder_self_dots=encoder_self.self_scores,
        encoder_other_dot=float(encoder_self.raw_scores[~np.eye(len(ENGLISH), dtype=bool)].max()),
    )
