"""attention_math against PyTorch, closed forms, the course material, and properties."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attention_math as am

from .helpers import to_json_in_a_fresh_process, torch_weights

finite = st.floats(-30, 30, allow_nan=False, allow_infinity=False, width=64)


def rng(seed=0):
    return np.random.default_rng(seed)


# --- softmax -----------------------------------------------------------------


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6), elements=finite))
def test_softmax_matches_torch(x):
    np.testing.assert_allclose(am.softmax(x), torch.softmax(torch.as_tensor(x), dim=-1).numpy(), rtol=1e-12, atol=1e-15)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=6), elements=finite))
def test_softmax_rows_sum_to_one_along_any_axis(x):
    np.testing.assert_allclose(am.softmax(x, axis=0).sum(axis=0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(am.softmax(x).sum(axis=-1), 1.0, rtol=1e-12)


def test_softmax_is_stable_for_huge_scores():
    weights = am.softmax(np.array([1000.0, 1000.0, -1000.0]))
    np.testing.assert_array_equal(weights, [0.5, 0.5, 0.0])


def test_softmax_gives_exact_zero_to_minus_inf():
    weights = am.softmax(np.array([[1.0, -np.inf, 2.0], [-np.inf, 0.0, -np.inf]]))
    assert weights[0, 1] == 0.0 and weights[1, 0] == 0.0 and weights[1, 2] == 0.0
    assert weights[1, 1] == 1.0


def test_softmax_of_an_all_masked_row_is_a_clear_error():
    with pytest.raises(ValueError, match="all -inf"):
        am.softmax(np.array([[0.0, 1.0], [-np.inf, -np.inf]]))


# --- scaled dot-product attention ---------------------------------------------


@pytest.mark.parametrize("batch_shape", [(), (2,), (2, 3)])
@pytest.mark.parametrize("scale", [True, False])
def test_sdpa_matches_torch(batch_shape, scale):
    r = rng(1)
    q, k, v = r.normal(size=(*batch_shape, 4, 8)), r.normal(size=(*batch_shape, 5, 8)), r.normal(size=(*batch_shape, 5, 3))
    output, weights = am.scaled_dot_product_attention(q, k, v, scale=scale)
    torch_scale = None if scale else 1.0
    expected = F.scaled_dot_product_attention(*map(torch.as_tensor, (q, k, v)), scale=torch_scale).numpy()
    np.testing.assert_allclose(output, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights, torch_weights(q, k, scale=torch_scale), rtol=1e-10, atol=1e-12)


def test_sdpa_with_boolean_mask_matches_torch():
    r = rng(2)
    q, k, v = r.normal(size=(2, 4, 6)), r.normal(size=(2, 5, 6)), r.normal(size=(2, 5, 6))
    mask = r.random((2, 4, 5)) > 0.4
    mask[..., 0] = True  # every query keeps at least one key
    output, weights = am.scaled_dot_product_attention(q, k, v, mask=mask)
    expected = F.scaled_dot_product_attention(*map(torch.as_tensor, (q, k, v)), attn_mask=torch.as_tensor(mask)).numpy()
    np.testing.assert_allclose(output, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(weights, torch_weights(q, k, mask), rtol=1e-10, atol=1e-12)
    assert np.all(weights[~mask] == 0.0)


def test_causal_mask_matches_torch_is_causal():
    r = rng(3)
    q, k, v = r.normal(size=(3, 6, 4)), r.normal(size=(3, 6, 4)), r.normal(size=(3, 6, 4))
    output, weights = am.scaled_dot_product_attention(q, k, v, mask=am.causal_mask(6))
    expected = F.scaled_dot_product_attention(*map(torch.as_tensor, (q, k, v)), is_causal=True).numpy()
    np.testing.assert_allclose(output, expected, rtol=1e-10, atol=1e-12)
    assert np.all(np.triu(weights[0], k=1) == 0.0)


def test_causal_mask_is_lower_triangular():
    np.testing.assert_array_equal(am.causal_mask(3), [[True, False, False], [True, True, False], [True, True, True]])


def test_padding_mask_hides_padded_keys_for_every_query():
    mask = am.padding_mask([1, 1, 1, 0, 0])
    assert mask.shape == (1, 5)
    r = rng(4)
    x = r.normal(size=(5, 4))
    _, weights = am.scaled_dot_product_attention(x, x, x, mask=mask & am.causal_mask(5))
    assert np.all(weights[:, 3:] == 0.0)
    np.testing.assert_allclose(weights.sum(-1), 1.0)
    with pytest.raises(ValueError):
        am.padding_mask([1, 2, 0])


@settings(max_examples=60, deadline=None)
@given(n_q=st.integers(1, 5), n_k=st.integers(1, 5), d=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_sdpa_properties(n_q, n_k, d, seed):
    r = rng(seed)
    q, k, v = r.normal(size=(n_q, d)), r.normal(size=(n_k, d)), r.normal(size=(n_k, 3))
    mask = r.random((n_q, n_k)) > 0.5
    mask[np.arange(n_q), r.integers(0, n_k, n_q)] = True
    output, weights = am.scaled_dot_product_attention(q, k, v, mask=mask)
    assert output.shape == (n_q, 3) and weights.shape == (n_q, n_k)
    np.testing.assert_allclose(weights.sum(-1), 1.0, rtol=1e-12)
    assert np.all(weights[~mask] == 0.0)
    assert np.all(weights >= 0)


# --- heads ---------------------------------------------------------------------


@given(seq=st.integers(1, 6), n_heads=st.integers(1, 4), d_head=st.integers(1, 5), seed=st.integers(0, 1000))
def test_split_merge_round_trip(seq, n_heads, d_head, seed):
    x = rng(seed).normal(size=(seq, n_heads * d_head))
    heads = am.split_heads(x, n_heads)
    assert heads.shape == (n_heads, seq, d_head)
    np.testing.assert_array_equal(heads[1 % n_heads], x[:, (1 % n_heads) * d_head : (1 % n_heads + 1) * d_head])
    np.testing.assert_array_equal(am.merge_heads(heads), x)


def test_split_heads_names_both_numbers_when_they_do_not_divide():
    with pytest.raises(ValueError, match=r"d_model=10.*n_heads=4"):
        am.split_heads(np.zeros((3, 10)), 4)


@pytest.mark.parametrize("use_mask", [False, True])
def test_multi_head_attention_matches_torch_module(use_mask):
    r = rng(5)
    seq, d_model, n_heads = 5, 16, 4
    x = r.normal(size=(seq, d_model))
    w_q, w_k, w_v, w_o = (r.normal(size=(d_model, d_model)) / 4 for _ in range(4))
    mask = am.causal_mask(seq) if use_mask else None
    result = am.multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, mask=mask)

    module = torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # torch computes x @ W.T, ours x @ w: copy the transposes in.
        module.in_proj_weight.copy_(torch.as_tensor(np.concatenate([w_q.T, w_k.T, w_v.T])))
        module.out_proj.weight.copy_(torch.as_tensor(w_o.T))
    xt = torch.as_tensor(x)[None]
    torch_mask = None if mask is None else torch.as_tensor(~mask)  # torch's boolean attn_mask marks what is *hidden*
    output, weights = module(xt, xt, xt, attn_mask=torch_mask, need_weights=True, average_attn_weights=False)
    np.testing.assert_allclose(result.output, output[0].detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(result.weights, weights[0].detach().numpy(), rtol=1e-10, atol=1e-12)
    assert result.q.shape == (n_heads, seq, d_model // n_heads)


# --- positional encoding -------------------------------------------------------


def test_sinusoidal_encoding_matches_closed_form():
    seq_len, d_model = 50, 128
    encoding = am.sinusoidal_encoding(seq_len, d_model)
    for pos in (0, 1, 7, 49):
        for i in range(d_model // 2):
            angle = pos / 10000 ** (2 * i / d_model)
            assert encoding[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
            assert encoding[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)


def test_sinusoidal_fingerprints_of_the_course_material():
    # Seed 000 ("Why It Works"): the first positions' encodings, to two decimals.
    expected = [[0.00, 1.00, 0.00, 1.00], [0.84, 0.54, 0.01, 1.00], [0.91, -0.42, 0.02, 1.00]]
    np.testing.assert_allclose(am.sinusoidal_encoding(3, 4), expected, atol=0.005)


# --- the course material's examples and the traces ------------------------------


def test_cat_dog_mat_exercise_scores():
    # Seed 000, Exercise 2 states the dot products [0.89, 0.76, 0.31].
    example = am.CAT_DOG_MAT
    scores = am.attention_scores(example.embeddings[:1], example.embeddings, scale=False)
    np.testing.assert_allclose(scores[0], [0.89, 0.76, 0.31], atol=1e-12)


def test_self_attention_trace_matches_torch():
    trace = am.self_attention_trace()
    x = np.array(am.THE_CAT_SAT.embeddings)
    np.testing.assert_allclose(trace.raw_scores, x @ x.T, atol=1e-12)
    np.testing.assert_allclose(trace.scaled_scores, x @ x.T / 2, atol=1e-12)
    np.testing.assert_allclose(trace.weights, torch_weights(x, x), rtol=1e-10)
    expected_output = F.scaled_dot_product_attention(*(torch.as_tensor(x),) * 3).numpy()
    np.testing.assert_allclose(trace.output, expected_output, rtol=1e-10)
    np.testing.assert_allclose(trace.focus_terms.sum(-1), trace.raw_scores[trace.focus], atol=1e-12)
    assert trace.query_tokens[trace.focus] == "cat"


def test_weighted_values_are_each_value_row_times_its_torch_weight_and_add_up_to_torch_output():
    """The rows the weighted sum shows: weight × value row per key, summed over the keys into SDPA's output."""
    for trace in (am.self_attention_trace(), am.qkv_trace(), am.causal_mask_trace()):
        q, k, v = (torch.as_tensor(np.array(a)) for a in (trace.q, trace.k, trace.v))
        mask = torch.as_tensor(np.array(trace.mask))
        weights = torch_weights(trace.q, trace.k, mask=np.array(trace.mask))
        expected = weights[:, :, None] * v.numpy()[None, :, :]  # (n_q, n_k, d_v)
        np.testing.assert_allclose(trace.weighted_values, expected, rtol=1e-10, atol=1e-15)
        output = F.scaled_dot_product_attention(q, k, v, attn_mask=mask).numpy()
        np.testing.assert_allclose(trace.weighted_values.sum(axis=1), output, rtol=1e-10)
        # A masked key's row is scaled by exactly 0.
        assert (trace.weighted_values[~np.array(trace.mask)] == 0).all()


def test_scaling_trace_measures_variance_close_to_d_k():
    trace = am.scaling_trace()
    for d_k, variance, scaled in zip(trace.d_k_values, trace.variances, trace.scaled_variances):
        assert variance == pytest.approx(d_k, rel=0.15)
        assert scaled == pytest.approx(1.0, rel=0.15)
    assert trace.hist_counts.sum(axis=1).tolist() == [trace.n_samples] * 3
    np.testing.assert_allclose(trace.row_unscaled_weights, torch.softmax(torch.tensor(trace.row_raw_scores), -1).numpy())
    np.testing.assert_allclose(trace.row_scaled_weights, torch_weights(trace.row_query[None], trace.row_keys)[0], rtol=1e-10)
    # The point of the scene: unscaled softmax is nearly one-hot, scaled is not.
    assert trace.row_unscaled_weights.max() > 0.95
    assert trace.row_scaled_weights.max() < 0.8


def test_scaling_trace_gradient_into_the_scores_matches_torch_autograd():
    """The slopes the scene shows are softmax's Jacobian at each row, as torch's autograd computes it."""
    trace = am.scaling_trace()
    rows = (
        (trace.row_raw_scores, trace.row_unscaled_jacobian, trace.row_unscaled_slopes, trace.row_unscaled_max_slope),
        (trace.row_scaled_scores, trace.row_scaled_jacobian, trace.row_scaled_slopes, trace.row_scaled_max_slope),
    )
    for scores, jacobian, slopes, largest in rows:
        expected = torch.autograd.functional.jacobian(lambda s: torch.softmax(s, -1), torch.tensor(scores)).numpy()
        np.testing.assert_allclose(jacobian, expected, rtol=1e-10, atol=1e-15)
        np.testing.assert_allclose(slopes, np.diag(expected), rtol=1e-10, atol=1e-15)
        assert largest == pytest.approx(np.abs(expected).max(), rel=1e-10)
        assert largest <= 0.25
    # The scene's claim: without scaling, far less gradient reaches the scores (0.00024 against 0.25 here).
    assert trace.row_unscaled_max_slope * 100 < trace.row_scaled_max_slope
    # Dividing first, on the unscaled axis: every scaled product falls within two bins of 0 (a spike).
    counts = trace.scaled_counts_on_raw_edges
    assert counts.sum(axis=1).tolist() == [trace.n_samples] * len(trace.d_k_values)
    middle = len(trace.hist_edges) // 2
    assert counts[:, middle - 2 : middle + 2].sum() == counts.sum()


def test_traces_are_reproducible_frozen_and_strict_json():
    a, c = am.scaling_trace(seed=7), am.scaling_trace(seed=8)
    assert [a.to_json(), c.to_json()] == to_json_in_a_fresh_process("am.scaling_trace(seed=7)", "am.scaling_trace(seed=8)")
    assert a.to_json() != c.to_json()
    with pytest.raises(ValueError):
        a.variances[0] = 0.0
    masked = am.attention_trace(["a", "b"], np.eye(2), mask=am.causal_mask(2))
    data = json.loads(masked.to_json())
    assert data["masked_scores"][0][1] == "-inf"
    assert data["kind"] == "AttentionTrace"


def test_lookup_reads_paths():
    trace = am.self_attention_trace()
    np.testing.assert_array_equal(am.lookup(trace, "weights[1]"), trace.weights[1])
    assert am.lookup(trace, "weights[1, 2]") == trace.weights[1, 2]
    np.testing.assert_array_equal(am.lookup(trace, "focus_terms[:, 0]"), trace.focus_terms[:, 0])
    with pytest.raises(KeyError):
        am.lookup(trace, "nonsense")
