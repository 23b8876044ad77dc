"""The padding mask: a batch padded to one length, and padded keys hidden from every query.

Follows seed 004 slide 9 (valid keys ``[1, 1, 1, 0, 0]``), then combines the
padding mask with the causal mask. The trace is an
:class:`~attention_math.traces.self_attention.AttentionTrace` with a few extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..examples import PADDING_BATCH, THE_CAT_SAT, Example
from ..masks import PAD, causal_mask, pad_batch, padding_mask
from .self_attention import AttentionTrace, attention_trace, extend_trace

__all__ = ["PaddingMaskTrace", "padding_mask_trace"]


@dataclass(frozen=True, eq=False)
class PaddingMaskTrace(AttentionTrace):
    """Self-attention over one padded sentence of a batch: no mask, the padding mask, padding & causal.

    The inherited fields are the pass with the padding mask: ``mask`` is the
    valid-key row repeated for every query, ``weights`` is exactly 0 in the
    padded columns.

    Attributes
    ----------
    batch_tokens
        Every sentence of the batch padded with :data:`~attention_math.masks.PAD` to ``max_len`` tokens.
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
    batch_tokens, batch_valid = pad_batch(batch, max_len)  # batch_valid: (n_sentences, max_len)
    lookup_row = dict(zip(example.tokens, example.embeddings))
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
    return extend_trace(
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
