"""The bottleneck, QKV and softmax traces (attention_math.traces) against PyTorch, closed forms and the course."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attention_math as am
from attention_math.rnn import rnn_hidden_states
from attention_math.traces.bottleneck import bottleneck_trace
from attention_math.traces.qkv import qkv_trace
from attention_math.traces.softmax import softmax_trace

from .helpers import to_json_in_a_fresh_process


def tensor(a) -> torch.Tensor:
    """A float64 tensor of a copy of ``a`` (trace arrays are read-only, which torch warns about)."""
    return torch.from_numpy(np.array(a, dtype=float))


def torch_rnn(x, w_x, w_h):
    """torch.nn.RNN (tanh, no biases) with our weights; torch multiplies by W.T, so the transposes go in."""
    rnn = torch.nn.RNN(w_x.shape[0], w_x.shape[1], bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        rnn.weight_ih_l0.copy_(tensor(w_x.T))
        rnn.weight_hh_l0.copy_(tensor(w_h.T))
    return rnn


def hops_from_first(edges: np.ndarray) -> np.ndarray:
    """Breadth-first search: fewest edges from node 0 to every node of a directed graph."""
    n = len(edges)
    distance = np.full(n, -1)
    distance[0] = 0
    queue = deque([0])
    while queue:
        node = queue.popleft()
        for neighbour in np.flatnonzero(edges[node]):
            if distance[neighbour] < 0:
                distance[neighbour] = distance[node] + 1
                queue.append(neighbour)
    return distance


# --- the RNN bottleneck ------------------------------------------------------------


def test_rnn_hidden_states_match_torch_rnn():
    r = np.random.default_rng(0)
    x, w_x, w_h = r.normal(size=(7, 3)), r.normal(size=(3, 5)), r.normal(size=(5, 5))
    expected, last = torch_rnn(x, w_x, w_h)(tensor(x)[None])
    np.testing.assert_allclose(rnn_hidden_states(x, w_x, w_h), expected[0].detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(rnn_hidden_states(x, w_x, w_h)[-1], last[0, 0].detach().numpy(), rtol=1e-12)


def test_the_final_state_change_is_torch_rnns_last_state_moved_by_one_nudged_word():
    """Each word nudged in turn through torch.nn.RNN: how far its last state moves, as the bottleneck scene shows."""
    trace = bottleneck_trace()
    rnn = torch_rnn(trace.embeddings, trace.w_x, trace.w_h)
    _, base = rnn(tensor(trace.embeddings)[None])
    for j, shown in enumerate(trace.final_state_change):
        nudged = tensor(trace.embeddings)
        nudged[j] += trace.nudge
        _, moved = rnn(nudged[None])
        assert abs(torch.linalg.norm(moved - base).item() - shown) < 1e-12
    # With the default weights the first word moves the last state least and the last word most: early words fade.
    assert trace.final_state_change[0] < trace.final_state_change[-1] / 10
    assert trace.final_state_change.argmax() == len(trace.tokens) - 1


def test_bottleneck_trace_runs_the_rnn_on_the_course_sentence():
    trace = bottleneck_trace()
    assert trace.tokens == ("The", "cat", "sat", "on", "the", "mat")
    assert " ".join(trace.target_tokens) == "El gato se sentó en la alfombra"
    expected, _ = torch_rnn(trace.embeddings, trace.w_x, trace.w_h)(tensor(trace.embeddings)[None])
    np.testing.assert_allclose(trace.hidden_states, expected[0].detach().numpy(), rtol=1e-12, atol=1e-14)
    # The bottleneck: the whole sentence against one state of fixed size.
    assert trace.sentence_numbers == np.size(am.THE_CAT_SAT.embeddings)
    assert trace.state_numbers == trace.final_state.size < trace.sentence_numbers


def test_flow_matrices_are_the_course_tril_and_ones():
    trace = bottleneck_trace()
    n = len(trace.tokens)
    np.testing.assert_array_equal(trace.rnn_flow, np.tril(np.ones((n, n))))
    np.testing.assert_array_equal(trace.attention_flow, np.ones((n, n)))


def test_rnn_flow_is_what_the_rnn_state_depends_on():
    # State i changes with word j exactly when the flow matrix has a 1 at (i, j).
    trace = bottleneck_trace()
    rnn = torch_rnn(trace.embeddings, trace.w_x, trace.w_h)
    jacobian = torch.autograd.functional.jacobian(lambda x: rnn(x[None])[0][0], tensor(trace.embeddings))
    depends = (jacobian.abs().sum(dim=(1, 3)) > 0).numpy()  # (n_states, n_words)
    np.testing.assert_array_equal(depends, trace.rnn_flow == 1)


def test_hops_are_shortest_paths_through_the_chain_and_through_attention():
    trace = bottleneck_trace()
    n = len(trace.tokens)
    chain = np.eye(n, k=1, dtype=bool)  # word t hands its state to word t + 1
    all_to_all = ~np.eye(n, dtype=bool)
    np.testing.assert_array_equal(trace.rnn_hops, hops_from_first(chain))
    np.testing.assert_array_equal(trace.attention_hops, hops_from_first(all_to_all))
    assert trace.rnn_hops[-1] == n - 1 and trace.attention_hops[-1] == 1


def path_lengths_by_search(edges: np.ndarray) -> np.ndarray:
    """Breadth-first search from every node: fewest edges from node j to node i (row i, column j); inf where none."""
    n = len(edges)
    lengths = np.full((n, n), np.inf)
    for source in range(n):
        distance, queue = {source: 0}, deque([source])
        while queue:
            node = queue.popleft()
            for neighbour in np.flatnonzero(edges[node]):
                if neighbour not in distance:
                    distance[neighbour] = distance[node] + 1
                    queue.append(neighbour)
        for target, steps in distance.items():
            lengths[target, source] = steps
    return lengths


def test_path_lengths_are_shortest_paths_and_the_mask_does_not_lengthen_them():
    """RNN: j reaches i after i - j steps; attention: one step, masked or not. The mask only hides pairs."""
    trace = bottleneck_trace()
    n = len(trace.tokens)
    chain = np.eye(n, k=1, dtype=bool)  # word t hands its state to word t + 1
    causal = np.triu(np.ones((n, n), dtype=bool), k=1)  # an earlier word j reaches every later i
    all_to_all = ~np.eye(n, dtype=bool)
    np.testing.assert_array_equal(trace.rnn_path_lengths, path_lengths_by_search(chain))
    np.testing.assert_array_equal(trace.causal_attention_path_lengths, path_lengths_by_search(causal))
    np.testing.assert_array_equal(trace.attention_path_lengths, path_lengths_by_search(all_to_all))
    # The same pairs are reachable through the chain and through causal attention: the course's np.tril.
    np.testing.assert_array_equal(np.isfinite(trace.rnn_path_lengths), trace.rnn_flow == 1)
    np.testing.assert_array_equal(np.isfinite(trace.causal_attention_path_lengths), trace.rnn_flow == 1)
    # The first column is the hop row the scene counts.
    np.testing.assert_array_equal(trace.rnn_path_lengths[:, 0], trace.rnn_hops)
    np.testing.assert_array_equal(trace.attention_path_lengths[:, 0], trace.attention_hops)
    assert trace.rnn_path_lengths.max(initial=0, where=np.isfinite(trace.rnn_path_lengths)) == n - 1
    assert trace.causal_attention_path_lengths.max(initial=0, where=np.isfinite(trace.causal_attention_path_lengths)) == 1


def test_bottleneck_trace_is_reproducible_and_seeded():
    assert [bottleneck_trace(seed=3).to_json()] == to_json_in_a_fresh_process("am.bottleneck_trace(seed=3)")
    assert bottleneck_trace(seed=3).to_json() != bottleneck_trace(seed=4).to_json()


# --- queries, keys and values --------------------------------------------------------


def test_qkv_projections_match_torch_linear():
    trace = qkv_trace()
    x = tensor(am.THE_CAT_SAT.embeddings)
    for name, w in (("q", trace.w_q), ("k", trace.w_k), ("v", trace.w_v)):
        expected = F.linear(x, tensor(w.T)).numpy()  # torch's linear computes x @ W.T
        np.testing.assert_allclose(getattr(trace, name), expected, rtol=1e-12, atol=1e-15, err_msg=name)


def test_qkv_weights_are_three_different_seeded_matrices():
    trace = qkv_trace()
    rng = np.random.default_rng(am.DEFAULT_SEED)
    for w in (trace.w_q, trace.w_k, trace.w_v):
        np.testing.assert_array_equal(w, rng.standard_normal((4, 4)) / 2)  # scale 1 / sqrt(4)
    assert not np.allclose(trace.q, trace.k) and not np.allclose(trace.k, trace.v)
    assert qkv_trace(seed=1).to_json() != trace.to_json()


def test_qkv_scores_and_weights_match_torch_attention():
    trace = qkv_trace()
    q, k, v = (tensor(getattr(trace, name)) for name in "qkv")
    np.testing.assert_allclose(trace.scaled_scores, (q @ k.T / np.sqrt(4)).numpy(), rtol=1e-12)
    np.testing.assert_allclose(trace.weights, torch.softmax(q @ k.T / 2, dim=-1).numpy(), rtol=1e-12)
    np.testing.assert_allclose(trace.output, F.scaled_dot_product_attention(q, k, v).numpy(), rtol=1e-10)


def test_qkv_worked_entry_is_a_row_times_a_column():
    # The scene writes Q[cat, 0] as the sum of X[cat, d] * W_Q[d, 0].
    trace = qkv_trace()
    i = trace.focus
    assert trace.query_tokens[i] == "cat"
    by_hand = sum(trace.x_query[i, d] * trace.w_q[d, 0] for d in range(4))
    assert trace.q[i, 0] == pytest.approx(by_hand, abs=1e-15)


# --- softmax -------------------------------------------------------------------------


def test_softmax_trace_reproduces_exercise_2_scores():
    trace = softmax_trace()
    assert trace.tokens == ("cat", "dog", "mat")
    np.testing.assert_array_equal(trace.query, [0.5, 0.8])
    np.testing.assert_allclose(trace.scores, [0.89, 0.76, 0.31], atol=1e-12)  # seed 000's stated scores


def test_softmax_steps_match_torch_softmax():
    trace = softmax_trace()
    np.testing.assert_allclose(trace.exp_scores, torch.exp(tensor(trace.scores)).numpy(), rtol=1e-14)
    assert trace.exp_sum == pytest.approx(trace.exp_scores.sum(), rel=1e-14)
    np.testing.assert_allclose(trace.exp_scores / trace.exp_sum, trace.weights, rtol=1e-14)
    np.testing.assert_allclose(trace.weights, torch.softmax(tensor(trace.scores), dim=-1).numpy(), rtol=1e-12)
    assert trace.weight_sum == pytest.approx(1.0, abs=1e-12)


def test_exercise_2_computed_weights_differ_from_the_stated_answer():
    # Seed 000 prints [0.44, 0.38, 0.18]; its own code gives about [0.41, 0.36, 0.23].
    weights = softmax_trace().weights
    assert np.round(weights, 2).tolist() == [0.41, 0.36, 0.23]
    assert not np.allclose(weights, [0.44, 0.38, 0.18], atol=0.005)
    assert np.argmax(weights) == 0  # the notebook's conclusion stands: "cat" gets the most


def test_sharpened_rows_match_torch_and_sharpen():
    trace = softmax_trace()
    np.testing.assert_allclose(trace.sharpened_scores, np.outer(trace.multipliers, trace.scores), rtol=1e-14)
    expected = torch.softmax(tensor(trace.sharpened_scores), dim=-1).numpy()
    np.testing.assert_allclose(trace.sharpened_weights, expected, rtol=1e-12)
    assert trace.multipliers[trace.unchanged] == 1
    np.testing.assert_allclose(trace.sharpened_weights[trace.unchanged], trace.weights, rtol=1e-12)
    # The factors grow left to right, below 1 and above: the top weight grows and the bottom one shrinks with each.
    assert np.all(np.diff(trace.multipliers) > 0) and trace.multipliers[0] < 1 < trace.multipliers[-1]
    assert np.all(np.diff(trace.sharpened_weights[:, 0]) > 0)
    assert np.all(np.diff(trace.sharpened_weights[:, -1]) < 0)
    # Below 1 the weights flatten: closer to an even share than the scores as they are.
    even = 1 / len(trace.tokens)
    assert np.abs(trace.sharpened_weights[0] - even).max() < np.abs(trace.weights - even).max()
    np.testing.assert_allclose(trace.temperatures * trace.multipliers, 1.0, rtol=1e-15)
    assert trace.negative_score < 0 < trace.negative_exp
    assert trace.negative_exp == pytest.approx(
        float(torch.exp(torch.tensor(trace.negative_score, dtype=torch.float64))), rel=1e-12
    )


def test_intro_traces_are_frozen():
    trace = softmax_trace()
    with pytest.raises(ValueError):
        trace.weights[0] = 1.0
    with pytest.raises(ValueError):
        bottleneck_trace().rnn_flow[0, 1] = 1.0
