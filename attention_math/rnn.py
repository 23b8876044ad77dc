"""A plain recurrent network: what came before attention, and its bottleneck.

An RNN reads a sentence one word at a time and carries everything it has read in
one fixed-size hidden state; a decoder without attention gets only the last one
(seed 000 "The Problem Without Attention", seed 003 "Before Attention").
"""

from __future__ import annotations

import numpy as np

__all__ = ["rnn_hidden_states"]


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
