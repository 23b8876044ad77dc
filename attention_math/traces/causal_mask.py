"""The causal mask: GPT-style attention to earlier tokens only, against BERT-style attention to all.

Follows seed 001 part 7 and seed 003 ("Causal Masking", "BERT vs GPT"). The trace
is an :class:`~attention_math.traces.self_attention.AttentionTrace` with a few
extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..examples import THE_CAT_SAT, Example
from ..masks import additive_mask, causal_mask
from .self_attention import AttentionTrace, attention_trace, extend_trace

__all__ = ["CausalMaskTrace", "causal_mask_trace"]


@dataclass(frozen=True, eq=False)
class CausalMaskTrace(AttentionTrace):
    """Causal (GPT-style) self-attention, with the bidirectional (BERT-style) weights of the same scores.

    The inherited fields are the causal pass: ``mask`` is lower-triangular,
    ``masked_scores`` holds ``-inf`` above the diagonal and ``weights`` is 0 there.

    Attributes
    ----------
    additive_mask
        ``0`` where ``mask`` is True and ``-inf`` above the diagonal: it is added to the
        scores, ``masked_scores = scaled_scores + additive_mask``.
    bidirectional_weights
        ``softmax(scaled_scores)`` with no mask, ``(n, n)``: every query sees every key.
    bidirectional_output
        ``bidirectional_weights @ v``, ``(n, d_v)``.
    row_sums
        ``weights.sum(-1)``, ``(n,)``: 1 for every row, over its visible keys only.
    even_shares
        ``1 / mask.sum(-1)``, ``(n,)``: each key's weight if a row spread its weight evenly over the keys it
        may see, ``1 / (i + 1)`` for row ``i`` (without the mask every row's even share is ``uniform_weight``).
    visible_shares
        ``(bidirectional_weights * mask).sum(-1)``, ``(n,)``: how much of row ``i``'s unmasked weight falls on
        the keys the mask lets it see. The mask divides exactly those weights by it: ``weights[i, j] =
        bidirectional_weights[i, j] / visible_shares[i]`` for every visible key ``j`` (the same ratios).
    """

    additive_mask: np.ndarray
    bidirectional_weights: np.ndarray
    bidirectional_output: np.ndarray
    row_sums: np.ndarray
    even_shares: np.ndarray
    visible_shares: np.ndarray


def causal_mask_trace(example: Example = THE_CAT_SAT, focus: int = 2) -> CausalMaskTrace:
    """Causal and bidirectional self-attention on an example's embeddings, Q = K = V = X.

    ``focus`` defaults to "sat", a query that sees some keys and not others.
    """
    n = len(example.tokens)
    causal = attention_trace(example.tokens, example.embeddings, mask=causal_mask(n), focus=focus, source=example.source)
    bidirectional = attention_trace(example.tokens, example.embeddings, focus=focus)
    return extend_trace(
        CausalMaskTrace,
        causal,
        additive_mask=additive_mask(causal.mask),
        bidirectional_weights=bidirectional.weights,
        bidirectional_output=bidirectional.output,
        row_sums=causal.weights.sum(axis=-1),
        even_shares=1.0 / causal.mask.sum(axis=-1),
        visible_shares=(bidirectional.weights * causal.mask).sum(axis=-1),
    )
