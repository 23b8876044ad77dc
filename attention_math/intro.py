"""The first ideas of attention: the RNN bottleneck, queries/keys/values, and softmax.

Traces for three introductory scenes, in plain numpy:

- :func:`bottleneck_trace`: an RNN squeezes "The cat sat on the mat" through one
  hidden state (seed 000 "The Problem Without Attention", seed 001 part 1,
  seed 003 "Before Attention" / "With Attention").
- :func:`qkv_trace`: Q, K and V as three projections of the same embeddings
  (seed 003 "Query, Key, Value", seed 000 "What am I looking for?").
- :func:`softmax_trace`: from scores to weights, on seed 000's Exercise 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .core import attention_scores, causal_mask, softmax
from .examples import CAT_DOG_MAT, DEFAULT_SEED, SPANISH_TRANSLATION, THE_CAT_SAT, Example, random_matrix
from .traces import AttentionTrace, Trace, attention_trace

__all__ = [
    "rnn_hidden_states",
    "BottleneckTrace",
    "bottleneck_trace",
    "qkv_trace",
    "SoftmaxTrace",
    "softmax_trace",
]

"""Seed 000's target sentence for "The cat sat on the mat"."""


def rnn_hidden_states(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray) -> np.ndarray:
    """Hidden states of a plain tanh RNN without biases, one per input row.

    ``h_t = tanh(x_t @ w_x + h_{t-1} @ w_h)`` with ``h_0 = 0``, the recurrence of
    ``torch.nn.RNN(bias=False)`` written with row vectors.

    Parameters
    ----------
    x
        Inputs ``(seq, d_in)``, read in order.
    w_x, w_h
        Input weights ``(d_in, d_h)`` and recurrent weights ``(d_h, d_h)``.

    Returns
    -------
    numpy.ndarray
        States ``(seq, d_h)``; row t has read inputs 0..t and nothing after.
    """
    x = np.asarray(x, dtype=float)
    h = np.zeros(np.shape(w_h)[0])
    states = []
    for x_t in x:
        # The only path from earlier words to later ones runs through h.
        h = np.tanh(x_t @ w_x + h @ w_h)
        states.append(h)
    return np.array(states).reshape(len(x), len(h))  # (seq, d_h), also for seq = 0


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
        ``(n, n)`` 0/1: 1 where position i can draw on position j through the chain
        (j <= i), ``np.tril(np.ones((n, n)))``.
    attention_flow
        ``(n, n)`` 0/1: all ones, every position reaches every other directly.
    rnn_hops
        ``(n,)``: steps through the hidden state from the first word to word i (i).
    attention_hops
        ``(n,)``: steps from the first word to word i with attention (1; 0 to itself).
    source
        Where the sentence and its translation come from.
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
    source: str

    @property
    def final_state(self) -> np.ndarray:
        """The one fixed-size vector a decoder without attention receives."""
        return self.hidden_states[-1]


def bottleneck_trace(
    seed: int = DEFAULT_SEED,
    example: Example = THE_CAT_SAT,
    target_tokens: Sequence[str] = SPANISH_TRANSLATION,
    hidden_size: int | None = None,
) -> BottleneckTrace:
    """Run a small random RNN over an example sentence and record how information can flow.

    Follows seed 000 "The Problem Without Attention" (English to Spanish through one
    fixed-size vector), seed 001 part 1 (``np.tril`` against ``np.ones`` adjacency)
    and seed 003 "Before Attention: The RNN Bottleneck" / "With Attention: Direct Access".
    ``hidden_size`` defaults to the embedding width.
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
        source="seed 000 'The Problem Without Attention'; seed 001 part 1; seed 003 'Before Attention'",
    )


def qkv_trace(seed: int = DEFAULT_SEED, example: Example = THE_CAT_SAT, focus: int = 1) -> AttentionTrace:
    """Self-attention with queries, keys and values projected from the same embeddings.

    ``W_Q``, ``W_K`` and ``W_V`` are drawn in that order from
    ``numpy.random.default_rng(seed)`` (square, so ``d_k`` is the embedding width);
    ``focus`` defaults to "cat", the row a scene works out by hand.
    """
    d = example.embeddings.shape[1]
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v = (random_matrix(rng, d, d) for _ in range(3))
    return attention_trace(
        example.tokens,
        example.embeddings,
        w_q=w_q,
        w_k=w_k,
        w_v=w_v,
        focus=focus,
        source=f"{example.source}; W_Q, W_K, W_V drawn from default_rng({seed})",
    )


@dataclass(frozen=True, eq=False)
class SoftmaxTrace(Trace):
    """One row of scores turned into weights, step by step, and the same row sharpened.

    Attributes
    ----------
    tokens
        The keys, one per score.
    query
        The query vector ``(d,)``.
    keys
        The key vectors ``(n, d)``.
    scores
        ``keys @ query``, ``(n,)`` (unscaled, as in the exercise).
    exp_scores
        ``exp(scores)``: every one positive.
    exp_sum
        Their sum, the normaliser.
    weights
        ``exp_scores / exp_sum``: softmax of the scores.
    weight_sum
        The weights added up (1 up to rounding).
    multipliers
        ``(m,)``: factors the row is multiplied by to widen the gaps between scores.
    sharpened_scores
        ``(m, n)``: ``multipliers[:, None] * scores``.
    sharpened_weights
        ``(m, n)``: softmax of each sharpened row; row 0 is ``weights`` when the first factor is 1.
    source
        Where the row comes from.
    """

    tokens: tuple[str, ...]
    query: np.ndarray
    keys: np.ndarray
    scores: np.ndarray
    exp_scores: np.ndarray
    exp_sum: float
    weights: np.ndarray
    weight_sum: float
    multipliers: np.ndarray
    sharpened_scores: np.ndarray
    sharpened_weights: np.ndarray
    source: str


def softmax_trace(
    example: Example = CAT_DOG_MAT,
    query_index: int = 0,
    multipliers: Sequence[float] = (1, 2, 4, 8),
) -> SoftmaxTrace:
    """Softmax of one query's dot products with every key, written out as exp, sum, divide.

    The default is seed 000's Exercise 2: query "cat" = [0.5, 0.8] against keys cat,
    dog and mat, scores [0.89, 0.76, 0.31]. Its weights are computed here; the
    notebook's printed answer [0.44, 0.38, 0.18] does not match its own code.
    """
    keys = example.embeddings
    query = keys[query_index]
    scores = attention_scores(query[np.newaxis], keys, scale=False)[0]  # (n,)
    # No max-subtraction here: these small scores are safe, and e^score is what the class computes by hand.
    exp_scores = np.exp(scores)
    exp_sum = float(exp_scores.sum())
    weights = exp_scores / exp_sum
    multipliers = np.asarray(multipliers, dtype=float)
    sharpened_scores = multipliers[:, np.newaxis] * scores  # (m, n)
    return SoftmaxTrace(
        tokens=tuple(example.tokens),
        query=query,
        keys=keys,
        scores=scores,
        exp_scores=exp_scores,
        exp_sum=exp_sum,
        weights=weights,
        weight_sum=float(weights.sum()),
        multipliers=multipliers,
        sharpened_scores=sharpened_scores,
        sharpened_weights=softmax(sharpened_scores),
        source=example.source,
    )
