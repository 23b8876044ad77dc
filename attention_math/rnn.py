"""A plain recurrent network: what came before attention, and its bottleneck.

An RNN reads a sentence one word at a time and carries everything it has read in
one fixed-size hidden state; a decoder without attention gets only the last one
(the bottleneck Bahdanau et al. 2015 removed with attention).
"""

from __future__ import annotations

import numpy as np

__all__ = ["rnn_hidden_states", "final_state_change"]


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


def final_state_change(x: np.ndarray, w_x: np.ndarray, w_h: np.ndarray, nudge: float) -> np.ndarray:
    """How far the last hidden state moves when one word's input changes, word by word, ``(seq,)``.

    Entry ``j`` is the Euclidean length of ``h_last(x') - h_last(x)``, where ``x'`` is ``x`` with
    ``nudge`` added to every number of row ``j`` alone: the same change for every word, so the
    entries compare how much of each position is left in the one vector a decoder gets.
    """
    x = np.asarray(x, dtype=float)
    last = rnn_hidden_states(x, w_x, w_h)[-1]
    changes = []
    for j in range(len(x)):
        nudged = x.copy()
        nudged[j] += nudge
        changes.append(np.linalg.norm(rnn_hidden_states(nudged, w_x, w_h)[-1] - last))
    return np.array(changes)
