"""The RNN bottleneck: a sentence squeezed through one hidden state, against attention's direct links.

English to Spanish through one fixed-size vector (the encoder-decoder RNNs before Bahdanau et
al. 2015), the steps between words (Vaswani et al. 2017, section 4), and how much of each word is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..examples import DEFAULT_SEED, SPANISH_TRANSLATION, THE_CAT_SAT, Example, random_matrix
from ..masks import causal_mask
from ..rnn import final_state_change, rnn_hidden_states
from .base import Trace

__all__ = ["BottleneckTrace", "bottleneck_trace"]


@dataclass(frozen=True, eq=False)
class BottleneckTrace(Trace):
    """An RNN reading a sentence through one hidden state, against attention's direct links.

    Attributes
    ----------
    seed
        Seed of ``numpy.random.default_rng`` that drew the RNN weights.
    tokens
        The source sentence, one token per position.
    target_tokens
        Its translation, which the decoder must produce from the final state.
    embeddings
        One input row per token, ``(n, d)``.
    w_x, w_h
        RNN input weights ``(d, d_h)`` and recurrent weights ``(d_h, d_h)``.
    hidden_states
        ``(n, d_h)``: the state after each token; the last row is all the decoder gets.
    sentence_numbers
        How many numbers the sentence holds (``n * d``).
    state_numbers
        How many numbers the hidden state holds (``d_h``), whatever the length.
    rnn_flow
        ``(n, n)`` 0/1: 1 where position i can draw on position j at all (j <= i):
        ``np.tril(np.ones((n, n)))``. A causal mask allows attention exactly the same pairs, so this
        matrix says nothing of what separates the two: the path length (``rnn_path_lengths``).
    attention_flow
        ``(n, n)`` 0/1: all ones: attention without a mask reaches every pair.
    rnn_hops
        ``(n,)``: steps through the hidden state from the first word to word i (i).
    attention_hops
        ``(n,)``: steps from the first word to word i with attention (1; 0 to itself).
    rnn_path_lengths
        ``(n, n)``: the fewest steps information from word j takes to reach position i through
        the chain, ``i - j`` for ``j <= i``; ``inf`` for ``j > i`` (a left-to-right RNN never reads ahead).
    causal_attention_path_lengths
        ``(n, n)``: the same with attention under a causal mask: 1 step for ``j < i``, 0 on the
        diagonal, ``inf`` above it. The mask decides *which* words are reached (the same triangle
        as the RNN's), not how many steps it takes.
    attention_path_lengths
        ``(n, n)``: attention without a mask: 1 step between any two words, 0 on the diagonal.
    nudge
        What :func:`attention_math.rnn.final_state_change` adds to every number of one word.
    final_state_change
        ``(n,)``: how far the last hidden state moves when word j's numbers all change by ``nudge``,
        in this untrained RNN (random weights): the share of each word left in the one vector.
    source
        Where the sentence, its translation and the RNN's weights come from.
    """

    seed: int
    tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]
    embeddings: np.ndarray
    w_x: np.ndarray
    w_h: np.ndarray
    hidden_states: np.ndarray
    sentence_numbers: int
    state_numbers: int
    rnn_flow: np.ndarray
    attention_flow: np.ndarray
    rnn_hops: np.ndarray
    attention_hops: np.ndarray
    rnn_path_lengths: np.ndarray
    causal_attention_path_lengths: np.ndarray
    attention_path_lengths: np.ndarray
    nudge: float
    final_state_change: np.ndarray
    source: str

    @property
    def final_state(self) -> np.ndarray:
        """The one fixed-size vector a decoder without attention receives."""
        return self.hidden_states[-1]


def path_lengths(n: int) -> dict[str, np.ndarray]:
    """Fewest steps from word j to position i (row i, column j): through the chain, and with attention.

    Path length is what separates an RNN from attention (Vaswani et al. 2017, section 4:
    maximum path length O(n) for a recurrent layer, O(1) for self-attention), causal or not.
    Unreachable pairs (``j > i`` for the RNN and for causal attention) are ``inf``.
    """
    rows, cols = np.indices((n, n))  # (n, n) each: i and j
    ahead = cols > rows
    one_step = np.where(rows == cols, 0.0, 1.0)
    return {
        "rnn_path_lengths": np.where(ahead, np.inf, rows - cols).astype(float),
        "causal_attention_path_lengths": np.where(ahead, np.inf, one_step),
        "attention_path_lengths": one_step,
    }


def bottleneck_trace(
    seed: int = DEFAULT_SEED,
    example: Example = THE_CAT_SAT,
    target_tokens: Sequence[str] = SPANISH_TRANSLATION,
    hidden_size: int | None = None,
) -> BottleneckTrace:
    """Run a small random RNN over an example sentence and record how information can flow.

    The RNN is untrained: its weights are drawn from ``default_rng(seed)``. ``hidden_size``
    defaults to the embedding width.
    """
    x = example.embeddings
    n, d = x.shape
    d_h = d if hidden_size is None else hidden_size
    rng = np.random.default_rng(seed)
    w_x = random_matrix(rng, d, d_h)
    w_h = random_matrix(rng, d_h, d_h)
    positions = np.arange(n)
    return BottleneckTrace(
        seed=seed,
        tokens=tuple(example.tokens),
        target_tokens=tuple(target_tokens),
        embeddings=x,
        w_x=w_x,
        w_h=w_h,
        hidden_states=rnn_hidden_states(x, w_x, w_h),
        sentence_numbers=int(x.size),
        state_numbers=int(d_h),
        # Through the chain, state i has read exactly the words j <= i: a causal pattern.
        rnn_flow=causal_mask(n).astype(float),
        attention_flow=np.ones((n, n)),
        # Word i is i steps down the chain from word 0; attention links any two words by one step.
        rnn_hops=positions,
        attention_hops=(positions > 0).astype(int),
        **path_lengths(n),
        nudge=0.5,
        final_state_change=final_state_change(x, w_x, w_h, 0.5),
        source=(
            f"{example.source}; an untrained RNN, weights drawn from default_rng({seed}); "
            "the Spanish is a human translation, not the RNN's output"
        ),
    )
