"""Multi-head and positional-encoding traces against PyTorch, closed forms and the course material."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attention_math as am
from attention_math.positions import cosine_similarity_matrix, encoding_curves, wavelengths
from attention_math.traces.multi_head import PATTERN_SEED, multi_head_trace
from attention_math.traces.positional_encoding import positional_trace
from scenes.theme import parse_number

from .helpers import built_scene, to_json_in_a_fresh_process


def torch_self_attention_weights(x):
    """PyTorch's weights of self-attention with Q = K = V = x: SDPA applied to identity values."""
    x = torch.as_tensor(np.array(x))
    return F.scaled_dot_product_attention(x, x, torch.eye(len(x), dtype=torch.float64)).numpy()


# --- multi-head ------------------------------------------------------------------


@pytest.fixture(scope="module")
def heads():
    return multi_head_trace()


def test_multi_head_trace_matches_torch_module(heads):
    t = heads
    module = torch.nn.MultiheadAttention(t.d_model, t.n_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # torch computes x @ W.T, ours x @ w: copy the transposes in.
        module.in_proj_weight.copy_(torch.as_tensor(np.concatenate([t.w_q.T, t.w_k.T, t.w_v.T])))
        module.out_proj.weight.copy_(torch.as_tensor(np.array(t.w_o.T)))
    x = torch.as_tensor(np.array(t.x))[None]
    output, weights = module(x, x, x, need_weights=True, average_attn_weights=False)
    np.testing.assert_allclose(t.output, output[0].detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(t.weights, weights[0].detach().numpy(), rtol=1e-10, atol=1e-12)


def test_each_heads_share_of_the_output_sums_to_torchs_output(heads):
    """What the W_O step shows: every output number is the sum of one share per head, torch's output in all."""
    t = heads
    module = torch.nn.MultiheadAttention(t.d_model, t.n_heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        module.in_proj_weight.copy_(torch.as_tensor(np.concatenate([t.w_q.T, t.w_k.T, t.w_v.T])))
        module.out_proj.weight.copy_(torch.as_tensor(np.array(t.w_o.T)))
    x = torch.as_tensor(np.array(t.x))[None]
    output = module(x, x, x, need_weights=False)[0][0].detach().numpy()
    assert t.output_parts.shape == (t.n_heads, *t.output.shape)
    np.testing.assert_allclose(t.output_parts.sum(axis=0), output, rtol=1e-10, atol=1e-12)
    # No head's share is zero: each output number really mixes every head.
    assert (np.abs(t.output_parts) > 1e-6).all()


@pytest.mark.parametrize("n_heads", [1, 2, 8])
def test_splitting_into_heads_adds_no_parameters_or_multiply_adds(n_heads):
    """What the no-extra-cost step shows: PyTorch's module has as many parameters with 1 head as with h, and the
    scores' multiply-adds counted from the arrays' shapes are the same split or whole; only the weights multiply."""
    t = multi_head_trace(d_model=16, n_heads=n_heads)
    one, split = (torch.nn.MultiheadAttention(16, h, bias=False, batch_first=True, dtype=torch.float64) for h in (1, n_heads))
    counts = [sum(p.numel() for p in module.parameters()) for module in (one, split)]
    assert counts[0] == counts[1] == t.cost_projection_params[0] == t.cost_projection_params[1]
    heads, seq, d_head = t.q_heads.shape
    # einsum's multiply-adds: one per (head, query, key, feature) of Q_i K_i^T.
    split_scores = np.einsum("hqd,hkd->hqk", t.q_heads, t.k_heads)
    assert split_scores.size * d_head == heads * seq * seq * d_head == t.cost_score_macs[1]
    assert seq * seq * t.d_model == t.cost_score_macs[0] == t.cost_score_macs[1]
    assert t.cost_value_macs[0] == t.cost_value_macs[1] == t.cost_score_macs[0]
    assert t.cost_weights[1] == t.weights.size == n_heads * t.cost_weights[0]


def test_multi_head_trace_shapes_follow_the_course(heads):
    t = heads
    assert (len(t.tokens), t.d_model, t.n_heads, t.d_head) == (6, 16, 8, 2)
    assert t.tokens == ("The", "cat", "sat", "on", "the", "mat")
    assert t.weights.shape == (8, 6, 6)
    np.testing.assert_allclose(t.weights.sum(-1), 1.0, rtol=1e-12)


def test_heads_regroup_the_projection_without_changing_a_number(heads):
    t = heads
    for name in "qkv":
        full, split = getattr(t, name), getattr(t, f"{name}_heads")
        for h in range(t.n_heads):
            # Head h owns columns 2h and 2h+1 of the full projection.
            np.testing.assert_array_equal(split[h], full[:, h * t.d_head : (h + 1) * t.d_head])
        np.testing.assert_array_equal(am.merge_heads(split), full)
    np.testing.assert_array_equal(torch.as_tensor(np.array(t.q)).view(6, 8, 2).transpose(0, 1).numpy(), t.q_heads)
    np.testing.assert_allclose(t.q, t.x @ t.w_q, rtol=1e-12)


def test_concat_and_output_projection(heads):
    t = heads
    for h in range(t.n_heads):
        np.testing.assert_allclose(t.head_outputs[h], t.weights[h] @ t.v_heads[h], rtol=1e-12)
    np.testing.assert_array_equal(t.concat, np.concatenate(list(t.head_outputs), axis=1))
    np.testing.assert_allclose(t.output, t.concat @ t.w_o, rtol=1e-12)


def test_heads_differ_from_each_other(heads):
    # The scene's point: each head has its own pattern.
    for a in range(heads.n_heads):
        for b in range(a + 1, heads.n_heads):
            assert np.abs(heads.weights[a] - heads.weights[b]).max() > 0.1


# GPT-3 175B as its paper states it: Brown et al. 2020, "Language Models are Few-Shot Learners", Table 2.1
# (n_params 175.0B, n_layers 96, d_model 12288, n_heads 96, d_head 128).
PAPER_GPT3 = {"d_model": 12_288, "heads": 96, "d_head": 128, "layers": 96, "params_billions": 175}


def video_model(trace) -> dict:
    """The model the trace really ran, read off its tensors (never off its scale comparison)."""
    d_model = trace.x.shape[1]
    heads = trace.weights.shape[0]
    projections = sum(w.size for w in (trace.w_q, trace.w_k, trace.w_v, trace.w_o))
    return {
        "d_model": d_model,
        "heads": heads,
        "d_head": trace.q_heads.shape[2],
        "layers": 1,
        "heads_in_all": heads,
        "layer_projections": projections,
        "all_projections": projections,
        "params": projections,
    }


@pytest.mark.parametrize("d_model, n_heads", [(16, 8), (8, 2), (4, 4), (12, 3)])
def test_the_comparisons_first_column_is_the_model_the_video_runs(d_model, n_heads):
    t = multi_head_trace(d_model=d_model, n_heads=n_heads)
    model = video_model(t)
    assert t.scale_models[0] == "This video"
    assert (model["d_model"], model["heads"], model["d_head"]) == (d_model, n_heads, d_model // n_heads)
    column = [t.scale_d_model[0], t.scale_heads[0], t.scale_head_dim[0], t.scale_layers[0], t.scale_total_heads[0]]
    assert column == [model[k] for k in ("d_model", "heads", "d_head", "layers", "heads_in_all")]
    assert t.scale_layer_attention_params[0] == model["layer_projections"] == 4 * d_model**2
    assert t.scale_attention_params[0] == model["all_projections"]
    assert t.scale_total_params[0] == model["params"]


def test_gpt3_column_against_the_paper(heads):
    assert heads.scale_models[1] == "GPT-3"
    column = [heads.scale_d_model[1], heads.scale_heads[1], heads.scale_head_dim[1], heads.scale_layers[1]]
    assert column == [PAPER_GPT3[k] for k in ("d_model", "heads", "d_head", "layers")]
    assert heads.scale_total_heads[1] == 96 * 96 == 9_216  # seed 000: 96 heads x 96 layers
    # W_Q, W_K, W_V, W_O: four d_model x d_model matrices per layer (biases left out), like with like.
    assert heads.scale_layer_attention_params[1] == 4 * 12_288**2 == 603_979_776
    assert heads.scale_attention_params[1] == 603_979_776 * 96
    assert round(heads.scale_attention_params_billions[1], 1) == 58.0
    assert heads.scale_total_params_billions[1] == PAPER_GPT3["params_billions"]
    # The projections are a third of GPT-3: the rest is mostly its feed-forward layers, 2 x d x 4d per layer.
    feed_forward = 2 * 12_288 * 4 * 12_288 * 96
    assert heads.scale_attention_params[1] + feed_forward == pytest.approx(175e9, rel=0.01)
    assert feed_forward > 175e9 - heads.scale_attention_params[1] - feed_forward


@pytest.mark.xdist_group("multi-head")
def test_the_scale_table_on_screen_shows_this_videos_model_beside_gpt3():
    """Read off the screen: the first column is the model the scene ran, the second the paper's GPT-3."""
    scene = built_scene("multi-head")
    screen = {shown.source: parse_number(shown.texts[0].original_text) for shown in scene.shown if len(shown.texts) == 1}
    model = video_model(scene.trace)
    expected = {
        "scale_d_model[0]": model["d_model"],
        "scale_heads[0]": model["heads"],
        "scale_head_dim[0]": model["d_head"],
        "scale_layers[0]": model["layers"],
        "scale_total_heads[0]": model["heads_in_all"],
        "scale_layer_attention_params[0]": model["layer_projections"],
        "scale_attention_params[0]": model["all_projections"],
        "scale_total_params[0]": model["params"],
        "scale_d_model[1]": 12_288,
        "scale_heads[1]": 96,
        "scale_head_dim[1]": 128,
        "scale_layers[1]": 96,
        "scale_total_heads[1]": 9_216,
        "scale_layer_attention_params[1]": 603_979_776,
        "scale_attention_params_billions[1]": 58.0,
        "scale_total_params_billions[1]": 175,
    }
    assert {source: screen.get(source) for source in expected} == expected
    assert (model["d_model"], model["heads"]) == (16, 8)  # the scene's defaults: 16 numbers, 8 heads of 2


def test_the_default_seed_gives_each_head_a_pattern_of_its_own(heads):
    """Random matrices from the default seed: every head's rows lean clearly on some key (uniform would be 1/6)."""
    assert heads.seed == PATTERN_SEED
    strongest = heads.weights.max(axis=-1).mean(axis=-1)  # per head: its rows' largest weight, on average
    assert strongest.min() >= 0.4
    favourite_keys = {int(heads.weights[h].mean(axis=0).argmax()) for h in range(heads.n_heads)}
    assert len(favourite_keys) >= 4


def test_multi_head_trace_is_reproducible():
    assert [multi_head_trace(seed=3).to_json()] == to_json_in_a_fresh_process("am.multi_head_trace(seed=3)")
    assert multi_head_trace(seed=3).to_json() != multi_head_trace(seed=4).to_json()


# --- positional encoding ------------------------------------------------------------


@pytest.fixture(scope="module")
def positions():
    return positional_trace()


def closed_form(pos, dim, d_model):
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(...), one number at a time."""
    angle = pos / 10000 ** ((dim - dim % 2) / d_model)
    return math.sin(angle) if dim % 2 == 0 else math.cos(angle)


def test_positional_trace_matches_the_closed_form(positions):
    t = positions
    assert t.pe.shape == (50, 128)
    for pos in range(t.seq_len):
        for dim in range(t.d_model):
            assert t.pe[pos, dim] == pytest.approx(closed_form(pos, dim, t.d_model), abs=1e-12)
    assert t.pe_min == pytest.approx(min(closed_form(p, d, 128) for p in range(50) for d in range(128)))
    assert t.pe_max == 1.0
    # Every position has its own fingerprint: no two rows of the 50 x 128 encoding are alike.
    distances = np.linalg.norm(t.pe[:, None, :] - t.pe[None, :, :], axis=-1)
    assert distances[~np.eye(t.seq_len, dtype=bool)].min() > 0.1


def test_curves_follow_the_formula_between_positions(positions):
    t = positions
    for row, dim in enumerate(t.curve_dims):
        for x, y in zip(t.curve_x[::7], t.curve_y[row, ::7]):
            assert y == pytest.approx(closed_form(x, dim, t.d_model), abs=1e-12)
        np.testing.assert_allclose(t.curve_points[row], [closed_form(p, dim, t.d_model) for p in range(t.seq_len)], atol=1e-12)
    # A wavelength later the curve is back where it started.
    for dim, wavelength in zip(t.curve_dims, t.curve_wavelengths):
        assert closed_form(wavelength, dim, t.d_model) == pytest.approx(closed_form(0.0, dim, t.d_model), abs=1e-9)
    assert list(t.curve_wavelengths) == sorted(t.curve_wavelengths)  # higher dimensions repeat more slowly
    np.testing.assert_allclose(encoding_curves([0, 1, 2], range(4), 4).T, am.sinusoidal_encoding(3, 4), atol=1e-12)
    np.testing.assert_allclose(wavelengths([0, 1], 4), 2 * math.pi, rtol=1e-12)


def test_fingerprints_of_the_course_material(positions):
    # Seed 000 ("Why It Works"): the first positions' encodings, to two decimals.
    expected = [[0.00, 1.00, 0.00, 1.00], [0.84, 0.54, 0.01, 1.00], [0.91, -0.42, 0.02, 1.00]]
    np.testing.assert_allclose(positions.pe_small, expected, atol=0.005)


def test_attention_without_positions_ignores_word_order(positions):
    t = positions
    assert t.sentence_a == ("dog", "bites", "man") and t.sentence_b == ("man", "bites", "dog")
    assert t.sentence_a[1] == t.sentence_b[1] == "bites"  # the scene: "bites" keeps position 1
    np.testing.assert_array_equal(t.x_b, t.x_a[list(t.order_b)])
    np.testing.assert_allclose(t.weights_a, torch_self_attention_weights(t.x_a), rtol=1e-10)
    np.testing.assert_allclose(t.weights_b, torch_self_attention_weights(t.x_b), rtol=1e-10)
    # Permuted input, permuted weights: every word gives every other word the same weight.
    order = list(t.order_b)
    np.testing.assert_allclose(t.weights_b, t.weights_a[order][:, order], rtol=1e-12)
    for i, word in enumerate(t.sentence_a):
        for j, other in enumerate(t.sentence_a):
            assert t.weights_a[i, j] == pytest.approx(t.weights_b[t.sentence_b.index(word), t.sentence_b.index(other)])


def test_positions_make_word_order_visible(positions):
    t = positions
    np.testing.assert_allclose(t.x_a_pos, t.x_a + am.sinusoidal_encoding(3, t.d_small), rtol=1e-12)
    np.testing.assert_allclose(t.weights_a_pos, torch_self_attention_weights(t.x_a_pos), rtol=1e-10)
    np.testing.assert_allclose(t.weights_b_pos, torch_self_attention_weights(t.x_b_pos), rtol=1e-10)
    order = list(t.order_b)
    # What "dog" gives "man" now depends on who comes first, by more than the screen's rounding.
    dog, man = t.sentence_a.index("dog"), t.sentence_a.index("man")
    dog_b, man_b = t.sentence_b.index("dog"), t.sentence_b.index("man")
    assert abs(t.weights_a_pos[dog, man] - t.weights_b_pos[dog_b, man_b]) > 0.05
    assert not np.allclose(t.weights_b_pos, t.weights_a_pos[order][:, order], atol=0.01)


def test_cosine_similarities_match_torch(positions):
    t = positions
    pe = torch.as_tensor(np.array(t.pe))
    expected = F.cosine_similarity(pe[:, None, :], pe[None, :, :], dim=-1).numpy()
    np.testing.assert_allclose(t.similarity, expected, rtol=1e-10, atol=1e-12)
    assert (t.reference, t.near, t.far) == (5, 6, 30)
    assert t.similarity_near == pytest.approx(F.cosine_similarity(pe[5], pe[6], dim=0).item(), rel=1e-12)
    assert t.similarity_far == pytest.approx(F.cosine_similarity(pe[5], pe[30], dim=0).item(), rel=1e-12)
    # Seed 000: neighbours are similar, distant positions less so; every position equals itself.
    assert t.similarity_near > t.similarity_far
    np.testing.assert_allclose(np.diag(t.similarity), 1.0, rtol=1e-12)
    np.testing.assert_allclose(cosine_similarity_matrix([[3.0, 4.0], [4.0, 3.0]]), [[1.0, 0.96], [0.96, 1.0]], rtol=1e-12)


def test_positional_trace_is_reproducible_and_validates_sentences():
    assert [positional_trace(seed=1).to_json()] == to_json_in_a_fresh_process("am.positional_trace(seed=1)")
    assert positional_trace(seed=1).to_json() != positional_trace(seed=2).to_json()
    with pytest.raises(ValueError):
        positional_trace(sentence_b=("cat", "bites", "dog"))


# --- multi-head: what the screen and the voice claim, held to the trace ------------------------------------


@pytest.mark.xdist_group("multi-head")
def test_whole_model_rows_count_like_with_like():
    """Each row of the last table counts the same thing in both columns, and every spoken claim holds for the screen.

    Rows: attention projections over all layers, feed-forward weights over all layers (this video's model has
    none: "none", not a number), all parameters. GPT-3's feed-forward layers are d_ff = 4 d_model wide (Brown et
    al. 2020, section 2.1), two d_model x d_ff matrices per layer.
    """
    scene = built_scene("multi-head")
    t = scene.trace
    screen = {shown.source: parse_number(shown.texts[0].original_text) for shown in scene.shown if len(shown.texts) == 1}
    d, layers = PAPER_GPT3["d_model"], PAPER_GPT3["layers"]
    assert screen["scale_feed_forward_params_billions[1]"] == round(2 * d * (4 * d) * layers / 1e9, 1) == 116.0
    assert "scale_feed_forward_params[0]" not in screen  # this video's model has no feed-forward layers...
    assert "none" in scene.recording.texts["whole-models"]  # ... and the screen says so in words
    model = video_model(t)
    assert screen["scale_attention_params[0]"] == screen["scale_total_params[0]"] == model["params"]  # nothing else
    # "almost all in these two parts": the two shown GPT-3 parts against its shown total.
    gpt3_parts = screen["scale_attention_params_billions[1]"] + screen["scale_feed_forward_params_billions[1]"]
    assert 0.99 * screen["scale_total_params_billions[1]"] <= gpt3_parts <= screen["scale_total_params_billions[1]"]
    lines = {line.text for step in scene.steps if step.name == "whole-models" for line in step.lines}
    assert any("4 times as wide as d_model" in line and "116.0 billion" in line for line in lines)
    assert am.GPT3.d_ff == 4 * am.GPT3.d_model
    assert any("one attention layer, nothing else" in line and f"{model['params']:,}" in line for line in lines)


@pytest.mark.xdist_group("multi-head")
def test_no_heading_says_per_layer_over_totals():
    """The scale table holds totals (layers, heads in all, whole models): no heading or step title calls it "per layer"."""
    scene = built_scene("multi-head")
    assert not any("per layer" in step.title for step in scene.steps)
    models = scene.trace.scale_models
    for step in ("scale-comparison", "whole-models"):
        texts = scene.recording.texts[step]
        headings = {text for text in texts if text.startswith(f"{models[0]} and {models[1]}")}
        assert headings and not any("per layer" in heading for heading in headings), (step, headings)
    assert "heads per layer" in scene.recording.texts["scale-comparison"]  # the one row that is per layer says so


@pytest.mark.xdist_group("multi-head")
def test_w_o_is_drawn_with_the_traces_shapes():
    """Step 9 draws Concat · W_O = output as shapes, each named with its size from the trace."""
    scene = built_scene("multi-head")
    t = scene.trace
    texts = scene.recording.texts["output-projection"]
    for shape in (t.concat.shape, t.w_o.shape, t.output.shape):
        assert f"{shape[0]} × {shape[1]}" in texts, shape
    assert t.w_o.shape == (t.d_model, t.d_model) and t.output.shape == t.x.shape  # "the shape of the input X"
    spoken = [line.text for step in scene.steps if step.name == "output-projection" for line in step.lines]
    assert any(f"{t.d_model} by {t.d_model} matrix, W_O" in line for line in spoken)
    assert any(f"{t.x.shape[0]} by {t.x.shape[1]}, the shape of the input X" in line for line in spoken)
    # "each head's columns meet its rows of W_O": the shares, summed over the heads, are the output.
    np.testing.assert_allclose(t.output_parts.sum(axis=0), t.output, atol=1e-12)
    for h in range(t.n_heads):
        cols = slice(h * t.d_head, (h + 1) * t.d_head)
        np.testing.assert_allclose(t.output_parts[h], t.concat[:, cols] @ t.w_o[cols], atol=1e-12)


@pytest.mark.xdist_group("multi-head")
def test_the_share_sum_never_writes_plus_minus():
    """ "0.03 + 0.18 + ⋯ −0.35": a negative share is joined by its own minus, never "+ −0.35"."""
    scene = built_scene("multi-head")
    terms = [term.original_text for term in scene.share_terms]
    assert any(term.startswith("−") for term in terms[1:]), terms  # the default build has a negative share
    for before, after in zip(terms, terms[1:]):
        assert not (before == "+" and after.startswith("−")), terms
        assert before == "+" or after == "+" or after.startswith("−"), terms  # every two terms are joined


@pytest.mark.xdist_group("multi-head")
def test_one_heads_values_and_output_keep_one_size():
    """Step 7's value and output cells are wide enough that no number ("−0.46" beside "0.57") is shrunk."""
    scene = built_scene("multi-head")
    for source in ("v_heads[0]", "head_outputs[0]"):
        shown = next(s for s in scene.shown if s.source == source)
        sizes = {round(text.font_size, 6) for text in shown.texts}
        assert sizes == {round(scene.theme.small_size, 6)}, (source, sizes)
        assert any(text.original_text.startswith("−") for text in shown.texts)


def test_the_reshape_is_said_as_it_is_done(heads):
    """ "Reshaped to (6, 8, 2), then heads first: (8, 6, 2)": the split heads are Q reshaped, then transposed."""
    t = heads
    seq, d_model = t.q.shape
    assert t.q_heads.shape == (t.n_heads, seq, t.d_head)
    np.testing.assert_array_equal(t.q_heads, t.q.reshape(seq, t.n_heads, t.d_head).transpose(1, 0, 2))


@pytest.mark.xdist_group("multi-head")
def test_the_shown_row_of_cat_averages_the_shown_values():
    """Step 7, read off the screen: the row of "cat" (weights, 2 decimals) times the values gives its output row."""
    scene = built_scene("multi-head")
    read = {s.source: np.array([parse_number(text.original_text) for text in s.texts]) for s in scene.shown}
    focus = 1
    weights = read[f"weights[0, {focus}]"]
    values = read["v_heads[0]"].reshape(len(weights), -1)
    output = read["head_outputs[0]"].reshape(len(weights), -1)[focus]
    assert weights.sum() == pytest.approx(1, abs=len(weights) * 0.005)
    # Each shown number is off by at most half its last digit: bound the error of the product of rounded numbers.
    bound = 0.005 * np.abs(values).sum(axis=0) + 0.005 * (np.abs(weights).sum() + len(weights) * 0.005) + 0.005
    assert (np.abs(weights @ values - output) <= bound + 1e-9).all(), (weights @ values, output)
