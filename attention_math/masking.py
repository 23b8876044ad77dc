"""Masks and cross-attention: causal (GPT) against bidirectional (BERT), padding, and translation.

Every trace here is an :class:`~attention_math.traces.AttentionTrace` (built by
:func:`~attention_math.traces.attention_trace`) with a few extra fields, so a
scene reads ``"weights"``, ``"masked_scores"`` or ``"mask"`` by the same paths
as in the self-attention scene.

Follows seed 001 part 7 and seed 003 ("Causal Masking", "BERT vs GPT") for the
causal mask, seed 004 slide 9 (valid keys ``[1, 1, 1, 0, 0]``) for padding, and
seed 004 slide 12 (``CrossAttention``) with seed 000's translation example
("The cat sat on the mat" -> "El gato se sentó en la alfombra") for cross-attention.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .core import causal_mask, padding_mask
from .examples import DEFAULT_SEED, SPANISH_TRANSLATION, THE_CAT_SAT, Example
from .traces import AttentionTrace, attention_trace

__all__ = [
    "CausalMaskTrace",
    "PaddingMaskTrace",
    "CrossAttentionTrace",
    "causal_mask_trace",
    "padding_mask_trace",
    "cross_attention_trace",
    "translation_embeddings",
    "PAD",
    "PADDING_BATCH",
    "ENGLISH",
    "SPANISH",
    "ALIGNMENT",
]

PAD = "<pad>"
"""The padding token's label."""

PADDING_BATCH = (("The", "cat", "sat"), ("cat", "sat", "on", "the", "mat"), ("The", "mat"))
"""Three sentences of different lengths, in the words of :data:`THE_CAT_SAT` (so each has an embedding)."""

ENGLISH = ("The", "cat", "sat", "on", "the", "mat")
"""The encoder's sentence (seed 000's translation example)."""

SPANISH = SPANISH_TRANSLATION
"""The decoder's sentence: seed 000's translation of :data:`ENGLISH`."""

ALIGNMENT = (0, 1, 2, 2, 3, 4, 5)
"""For each Spanish token, the index of its English counterpart: El->The, gato->cat,
se->sat, sentó->sat, en->on, la->the, alfombra->mat."""


def _extend(cls: type, base: AttentionTrace, **extra: Any):
    """An ``AttentionTrace`` subclass instance: every field of ``base`` plus ``extra``."""
    inherited = {field.name: getattr(base, field.name) for field in dataclasses.fields(AttentionTrace)}
    return cls(**inherited, **extra)


# --- causal mask ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CausalMaskTrace(AttentionTrace):
    """Causal (GPT-style) self-attention, with the bidirectional (BERT-style) weights of the same scores.

    The inherited fields are the causal pass: ``mask`` is lower-triangular,
    ``masked_scores`` holds ``-inf`` above the diagonal and ``weights`` is 0 there.

    Attributes
    ----------
    additive_mask
        ``0`` where ``mask`` is True and ``-inf`` above the diagonal: seed 003 adds it to the
        scores, ``masked_scores = scaled_scores + additive_mask``.
    bidirectional_weights
        ``softmax(scaled_scores)`` with no mask, ``(n, n)``: every query sees every key.
    bidirectional_output
        ``bidirectional_weights @ v``, ``(n, d_v)``.
    row_sums
        ``weights.sum(-1)``, ``(n,)``: 1 for every row, over its visible keys only.
    """

    additive_mask: np.ndarray
    bidirectional_weights: np.ndarray
    bidirectional_output: np.ndarray
    row_sums: np.ndarray


def causal_mask_trace(example: Example = THE_CAT_SAT, focus: int = 2) -> CausalMaskTrace:
    """Causal and bidirectional self-attention on an example's embeddings, Q = K = V = X.

    ``focus`` defaults to "sat", a query that sees some keys and not others.
    """
    n = len(example.tokens)
    causal = attention_trace(example.tokens, example.embeddings, mask=causal_mask(n), focus=focus, source=example.source)
    bidirectional = attention_trace(example.tokens, example.embeddings, focus=focus)
    return _extend(
        CausalMaskTrace,
        causal,
        additive_mask=np.where(causal.mask, 0.0, -np.inf),
        bidirectional_weights=bidirectional.weights,
        bidirectional_output=bidirectional.output,
        row_sums=causal.weights.sum(axis=-1),
    )


# --- padding mask --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PaddingMaskTrace(AttentionTrace):
    """Self-attention over one padded sentence of a batch: no mask, the padding mask, padding & causal.

    The inherited fields are the pass with the padding mask: ``mask`` is the
    valid-key row repeated for every query, ``weights`` is exactly 0 in the
    padded columns.

    Attributes
    ----------
    batch_tokens
        Every sentence of the batch padded with :data:`PAD` to ``max_len`` tokens.
    batch_valid
        ``(n_sentences, max_len)`` of 1 (a real token) and 0 (padding).
    lengths
        Real tokens per sentence, before padding.
    sentence
        Index of the sentence attended over; its tokens are ``query_tokens``.
    valid
        ``batch_valid[sentence]``, e.g. ``[1, 1, 1, 0, 0]``.
    unmasked_weights
        Softmax of the scaled scores with no mask: the padded keys get weight too.
    pad_share
        ``(max_len,)``: the weight each query gives the padded keys in total, without the mask.
    causal_mask
        Lower-triangular ``(max_len, max_len)``.
    combined_mask
        ``mask & causal_mask``: a real key at or before the query.
    combined_masked_scores
        ``scaled_scores`` with ``-inf`` where ``combined_mask`` is False.
    combined_weights
        Softmax of ``combined_masked_scores``; key 0 is visible to every query, so no row is all ``-inf``.
    """

    batch_tokens: tuple[tuple[str, ...], ...]
    batch_valid: np.ndarray
    lengths: tuple[int, ...]
    sentence: int
    valid: np.ndarray
    unmasked_weights: np.ndarray
    pad_share: np.ndarray
    causal_mask: np.ndarray
    combined_mask: np.ndarray
    combined_masked_scores: np.ndarray
    combined_weights: np.ndarray


def padding_mask_trace(
    batch: Sequence[Sequence[str]] = PADDING_BATCH,
    max_len: int = 5,
    sentence: int = 0,
    example: Example = THE_CAT_SAT,
    focus: int = 0,
) -> PaddingMaskTrace:
    """Pad a batch to ``max_len`` and run attention over one of its sentences with each mask.

    Real tokens take their embedding from ``example``; the pad token's embedding is
    all zeros (as PyTorch's ``nn.Embedding(padding_idx=...)`` starts it), so any
    weight a pad gets comes from the missing mask, not from its content.
    """
    if any(len(tokens) > max_len for tokens in batch):
        raise ValueError(f"a sentence is longer than max_len={max_len}")
    lookup_row = dict(zip(example.tokens, example.embeddings))
    batch_tokens = tuple(tuple(tokens) + (PAD,) * (max_len - len(tokens)) for tokens in batch)
    batch_valid = np.array([[1] * len(tokens) + [0] * (max_len - len(tokens)) for tokens in batch])  # (n_sentences, max_len)
    tokens = batch_tokens[sentence]
    width = example.embeddings.shape[1]
    x = np.stack([lookup_row[token] if token != PAD else np.zeros(width) for token in tokens])  # (max_len, d)
    valid = batch_valid[sentence]
    keys_mask = padding_mask(valid)  # (1, max_len): broadcast over every query row
    causal = causal_mask(max_len)
    source = f"{example.source}; <pad> embedding = zeros"

    padded = attention_trace(tokens, x, mask=keys_mask, focus=focus, source=source)
    unmasked = attention_trace(tokens, x, focus=focus)
    combined = attention_trace(tokens, x, mask=keys_mask & causal, focus=focus)
    return _extend(
        PaddingMaskTrace,
        padded,
        batch_tokens=batch_tokens,
        batch_valid=batch_valid,
        lengths=tuple(len(tokens) for tokens in batch),
        sentence=sentence,
        valid=valid,
        unmasked_weights=unmasked.weights,
        pad_share=unmasked.weights[:, valid == 0].sum(axis=-1),
        causal_mask=causal,
        combined_mask=combined.mask,
        combined_masked_scores=combined.masked_scores,
        combined_weights=combined.weights,
    )


# --- cross-attention -----------------------------------------------------------------------


def translation_embeddings(
    seed: int = DEFAULT_SEED, d_model: int = 6, length: float = 3.0, noise: float = 0.2
) -> tuple[np.ndarray, np.ndarray]:
    """Toy embeddings for :data:`ENGLISH` and :data:`SPANISH` in which translation pairs are similar.

    Not a trained model: each English token gets a random direction of length
    ``length``; each Spanish token copies its :data:`ALIGNMENT` partner's vector and
    adds normal noise of size ``noise``. Partners then have a large dot product and
    other pairs a small one, so attention can find the alignment.

    Returns
    -------
    english, spanish
        ``(6, d_model)`` and ``(7, d_model)``.
    """
    rng = np.random.default_rng(seed)
    directions = rng.standard_normal((len(ENGLISH), d_model))
    english = length * directions / np.linalg.norm(directions, axis=1, keepdims=True)  # (6, d_model)
    spanish = english[list(ALIGNMENT)] + noise * rng.standard_normal((len(SPANISH), d_model))  # (7, d_model)
    return english, spanish


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
    return _extend(
        CrossAttentionTrace,
        cross,
        seed=seed,
        embedding_length=float(length),
        noise=float(noise),
        alignment=ALIGNMENT,
        self_weights=encoder_self.weights,
    )
