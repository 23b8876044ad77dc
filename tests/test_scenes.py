"""What each scene shows equals its trace, its steps are captioned, and it stays on screen."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from manim import Text, config

from attention_explainer.package.captions import MAX_CHARACTERS_PER_SECOND, MAX_LINE, MIN_CUE_SECONDS, cues_for
from attention_math import THE_CAT_SAT
from scenes import SCENES
from scenes.kit import Shown
from scenes.kit.tables import NumberGrid
from scenes.kit.text import label
from scenes.theme import format_number, parse_number

from .helpers import build_without_video, built_scene, check_shown_numbers, step_title_problems

# The trace paths each scene must put on screen: its key numbers.
REQUIRED_SOURCES = {
    "bottleneck": {
        "hidden_states[5]",
        "rnn_path_lengths",
        "causal_attention_path_lengths",
        "attention_path_lengths",
        "rnn_hops",
        "attention_hops",
        "rnn_hops[5]",
        "attention_hops[5]",
        "sentence_numbers",
        "state_numbers",
    },
    "qkv": {
        "x_query",
        "w_q[:, 0:2]",
        "q[:, 0:2]",
        "k[:, 0:2]",
        "v[:, 0:2]",
        "q",
        "k",
        "q[1, 0]",
        "scale",
        "scaled_scores[1, 5]",
        "scaled_scores",
    },
    "softmax": {
        "query",
        "keys",
        "scores",
        "exp_scores",
        "exp_sum",
        "weights",
        "weight_sum",
        "key_lengths[0]",
        "key_lengths[1]",
        "sharpened_scores[0]",
        "sharpened_scores[2]",
        "sharpened_weights[0]",
        "sharpened_weights[1]",
        "sharpened_weights[2]",
        "temperatures[0]",
        "temperatures[2]",
        "negative_exp",
    },
    "scaling": {
        "variances[0]",
        "variances[1]",
        "variances[2]",
        "scaled_variances[0]",
        "scaled_variances[1]",
        "scaled_variances[2]",
        "row_raw_scores",
        "row_scaled_scores",
        "row_unscaled_weights",
        "row_scaled_weights",
        "row_scale",
    },
    "self-attention": {
        "x_key",
        "raw_scores[1]",
        "scaled_scores[1]",
        "weights[1]",
        "output[1]",
        "weighted_values[1, 0]",
        "weighted_values[1, 5]",
        "weights",
        "scale",
        "self_scores",
        "strongest_scores",
    },
    "multi-head": {
        "x[:, 0:2]",
        "q[:, 0:2]",
        "q[:, 14:16]",
        # The heatmaps print one query's row ("cat"); colour carries the rest.
        *(f"weights[{h}, 1]" for h in range(8)),
        "weights[0, 1]",
        "v_heads[0]",
        "head_outputs[0]",
        # One output number as the sum of every head's share (heads 1, 2 and 8 drawn, "⋯" for the rest).
        "output_parts[0, 1, 0]",
        "output_parts[1, 1, 0]",
        "output_parts[7, 1, 0]",
        "output[1, 0]",
        "head_outputs[0, :, 0:2]",
        "head_outputs[7, :, 0:2]",
        "concat[:, 0:2]",
        "output[:, 0:2]",
        "cost_projection_params[0]",
        "cost_projection_params[1]",
        "cost_score_macs[0]",
        "cost_score_macs[1]",
        "cost_weights[1]",
        "scale_d_model[1]",
        "scale_heads[1]",
        "scale_layers[1]",
        "scale_head_dim[0]",
        "scale_head_dim[1]",
        "scale_total_heads[1]",
        "scale_attention_params[0]",
        "scale_layer_attention_params[0]",
        "scale_layer_attention_params[1]",
        "scale_attention_params_billions[1]",
        "scale_total_params[0]",
        "scale_total_params_billions[1]",
    },
    "positional-encoding": {
        "x_a",
        "x_b",
        "weights_a",
        "weights_b",
        "self_scores_a[1]",
        # Why "man" gives "dog" more than itself: their score beats its own (review 8).
        "scaled_scores_a[2, 0]",
        "pe_small",
        "x_a_pos",
        "x_b_pos",
        "weights_a_pos",
        "weights_b_pos",
        "pe_min",
        "pe_max",
        "curve_wavelengths[0]",
        "curve_wavelengths[3]",
        "similarity_near",
        "similarity_far",
    },
    "causal-mask": {
        "mask",
        "x_query",
        "scaled_scores",
        "masked_scores",
        "weights",
        "row_sums",
        # Step 6 prints the query's row ("sat") of each map; colour carries the rest. "mat included (0.20)":
        "bidirectional_weights[2, 5]",
        "self_scores[1]",
        # "in the same ratios", shown: sat's unmasked weights on its visible keys, their sum, and each divided by it.
        "bidirectional_weights[2, 0]",
        "visible_shares[2]",
    },
    "padding-mask": {
        "batch_valid",
        "valid",
        "mask",
        "unmasked_weights",
        "pad_share",
        "masked_scores",
        "weights",
        "causal_mask",
        "causal_weights",
        "combined_weights",
        "left_causal_weights",
        "left_combined_weights",
    },
    "cross-attention": {
        "embedding_length",
        "noise",
        "x_key[1]",
        "x_query[1]",
        # Q, K, V and the sum show 2 of their 5 columns; the self map only the numbers its lines read.
        "q[:, 0:2]",
        "k[:, 0:2]",
        "scaled_scores[1]",
        "weights[1]",
        "output[1, 0:2]",
        "v[1, 0:2]",
        "weighted_values[1, 1, 0:2]",
        "weights",
        "self_weights[0, 0]",
    },
    "kv-cache": {
        "k",
        "v",
        "q[5]",
        "scores[5, :6]",
        "weights[5, :6]",
        "outputs[5]",
        "outputs",
        "recomputed_outputs",
        "macs_cached",
        "macs_full",
        "total_cached",
        "total_full",
        "saving_ratio",
        "long_ratios[2]",
        "cache_floats",
        "d",
        "real_numbers_per_token",
        "real_cache_numbers",
        "real_cache_mib",
        "real_heads",
        "real_head_size",
        "difference_digit",
        "difference_exponent",
        "gqa_separate_numbers",
        "gqa_shared_numbers",
        "gqa_shrink",
    },
    "transformer-block": {
        "embeddings[:, 0:4]",
        "embeddings[1, 0]",
        "positions[1, 0]",
        "x[1, 0]",
        "attention_weights[0]",
        "attention_weights[1]",
        "head_outputs[0, 1]",
        "head_outputs[1, 1]",
        "concat[1]",
        "attention[1]",
        "residual1[1, 0:5]",
        "x_mean[1]",
        "x_var[1]",
        "norm1[1, 0:5]",
        "norm1_mean[1]",
        "norm1_var[1]",
        "norm2[1, 0:5]",
        "pre_activation[1, 26]",
        "ff[1, 0:5]",
        "output[1, 0:5]",
        "layer_outputs[2, 1, 0:5]",
        "final_norm[1, 0:5]",
        "gpt3_layers",
        "gpt3_d_model",
        "d_ff",
    },
    "trained-heads": {
        "token_ids",
        "focus_q[:8]",
        "k[2, :8]",
        "focus_terms[2, :8]",
        "focus_raw_scores",
        "scale",
        "focus_scaled_scores",
        "focus_weights",
        "weights[0, 0]",
        "d_head",
    },
    "learning-to-attend": {
        "attention_loss[20]",
        "baseline_loss[20]",
        "attention_accuracy[20]",
        "baseline_accuracy[20]",
        "snapshots[0, 0, 9]",
        "snapshots[20, 0, 9]",
        "example_mirror_weight[20]",
        "mirror_weight_curve[20]",
        "mirror_weight",
        "uniform_weight",
        "mirror_argmax",
        "lengths",
        "attention_accuracy_by_length",
        "baseline_accuracy_by_length",
    },
    "sentiment-attention": {
        "n_reviews",
        "n_training",
        "n_heldout",
        "final_train_percent",
        "final_heldout_percent",
        "weights[0, :9]",
        "probabilities[0]",
        "weights[7, :5]",
        "probabilities[7]",
        "word_alone[7, 3]",
        "probabilities[5]",
        "heldout_percent_negated",
        "heldout_percent_plain",
        "negation_alone[0]",
        "word_alone[7, 4]",
        "word_alone[5, 4]",
        "weights[7, 3]",
        "weights[5, 3]",
    },
    "complexity": {
        "grid_cells[3]",
        "weight_millions[4]",
        "weight_mib[4]",
        "qk_billions[4]",
        "total_billions[4]",
        "total_millions[0]",
        "memory_growth[0]",
        "growth[0]",
        "relative_macs",
        "relative_lengths",
        "width_macs_millions[2]",
        "width_weight_millions[2]",
        "width_growth[0]",
        "layer_half_n",
        "d",
        "layer_gmacs[0, 4]",
        "layer_total_gmacs[1]",
        "layer_growth",
    },
}


def test_every_scene_declares_required_numbers():
    assert set(REQUIRED_SOURCES) == set(SCENES)


def test_shown_numbers_equal_the_trace_as_rounded(scene):
    check_shown_numbers(scene)


@pytest.mark.xdist_group("self-attention")
def test_the_check_catches_a_wrong_number_on_screen():
    scene = built_scene("self-attention")
    heatmap = next(shown for shown in scene.shown if shown.source == "weights")
    wrong_text = label(scene.theme, format_number(scene.trace.weights[1, 0] + 0.01, 2))
    wrong = Shown("weights[1, 0]", (wrong_text,), 2)
    transposed = Shown("weights", tuple(heatmap.texts[k] for k in np.arange(36).reshape(6, 6).T.ravel()), 2)
    # The right numbers, built the way the scene builds them, but never put on screen.
    off_screen = Shown("weights", tuple(NumberGrid(scene.theme, scene.trace.weights, 2).numbers), 2)
    for bad, seen in ((wrong, {id(wrong_text)}), (transposed, scene.recording.seen), (off_screen, scene.recording.seen)):
        fake = SimpleNamespace(trace=scene.trace, shown=[bad], recording=SimpleNamespace(seen=seen))
        with pytest.raises(AssertionError):
            check_shown_numbers(fake)


@pytest.mark.xdist_group("self-attention")
def test_self_attention_shows_what_torch_computes_and_its_sums_add_up():
    """Read off the screen alone, checked against PyTorch and against each other, never against the trace."""
    scene = built_scene("self-attention")
    x = torch.tensor(THE_CAT_SAT.embeddings, dtype=torch.float64)
    weights = torch.softmax(x @ x.T / 2.0, dim=-1).numpy()  # Q = K = V = X, d_k = 4
    heatmap = next(shown for shown in scene.shown if shown.source == "weights")
    on_screen = np.array([parse_number(text.original_text) for text in heatmap.texts]).reshape(6, 6)
    np.testing.assert_allclose(on_screen, weights, atol=0.005 + 1e-9)
    # Each worked dot product: the products of the numbers shown add up to the score shown.
    terms, checked = [], 0
    for shown in scene.shown:
        value = parse_number(shown.texts[0].original_text) if len(shown.texts) == 1 else None
        if shown.source.startswith(("q[", "k[")) and value is not None:
            terms.append(value)
        elif shown.source.startswith("raw_scores[1, ") and terms:
            pairs = np.array(terms).reshape(-1, 2)
            # Each factor and the score are rounded to 2 decimals: each off by at most 0.005.
            bound = 0.005 * np.abs(pairs).sum() + 0.005 + 1e-9
            assert abs(pairs.prod(axis=1).sum() - value) <= bound, (shown.source, terms, value)
            terms, checked = [], checked + 1
    assert checked == 6


@pytest.mark.xdist_group("self-attention")
def test_self_attention_weighted_sum_adds_up_on_screen():
    """Read off the screen: each scaled row is the weight shown times the value row shown, and the rows add up to the output shown."""
    scene = built_scene("self-attention")
    i, n = scene.trace.focus, len(scene.trace.key_tokens)

    def read(source: str) -> tuple[np.ndarray, int]:
        shown = [s for s in scene.shown if s.source == source]
        assert shown, f"{source} is not on screen"
        return np.array([parse_number(text.original_text) for text in shown[-1].texts]), shown[-1].decimals

    products, output_bound = [], 0.0
    for j in range(n):
        (weight,), weight_decimals = read(f"weights[{i}, {j}]")
        value, value_decimals = read(f"v[{j}]")
        product, product_decimals = read(f"weighted_values[{i}, {j}]")
        # Each number shown is off by at most half its last decimal.
        bound = 0.5 * (10.0**-weight_decimals * np.abs(value) + 10.0**-value_decimals * abs(weight) + 10.0**-product_decimals)
        assert (np.abs(weight * value - product) <= bound + 1e-9).all(), (j, weight, value, product)
        products.append(product)
        output_bound += 0.5 * 10.0**-product_decimals
    output, output_decimals = read(f"output[{i}]")
    total = np.sum(products, axis=0)
    assert (np.abs(total - output) <= output_bound + 0.5 * 10.0**-output_decimals + 1e-9).all(), (total, output)


@pytest.mark.xdist_group("multi-head")
def test_multi_head_names_no_internal_video_and_cites_trained_heads():
    scene = built_scene("multi-head")
    lines = [line.text for step in scene.steps for line in step.lines]
    assert not any("trained-heads" in line or "next layer" in line for line in lines)
    # What follows the attention is said without skipping it: the output is added back to the input. The
    # feed-forward layers are named only where a table row shows their size (never told without a picture).
    assert any("added back" in line for line in lines)
    feed_forward = [step.name for step in scene.steps for line in step.lines if "feed-forward" in line.text]
    assert feed_forward and set(feed_forward) == {"whole-models"}
    assert any("feed-forward" in text for text in scene.recording.texts["whole-models"])
    texts = set().union(*scene.recording.texts.values())
    assert any("Clark et al. 2019" in text for text in texts)
    # The seed was picked for its look: said on screen and aloud alike, never as a bare number.
    assert not any(f"seed {scene.trace.seed}" in line for line in lines)
    assert any("picked" in line.text and "picked" in line.spoken for step in scene.steps for line in step.lines)


def test_scene_shows_its_key_numbers(scene):
    shown_sources = {shown.source for shown in scene.shown}
    missing = REQUIRED_SOURCES[scene.name] - shown_sources
    assert not missing, f"{scene.name} never shows {sorted(missing)}"


def test_steps_are_named_titled_and_captioned(scene):
    names = [step.name for step in scene.steps]
    assert len(names) >= 4 and len(set(names)) == len(names)
    titles = [step.title for step in scene.steps]
    assert len(set(titles)) == len(titles), f"two steps share a title: {titles}"
    assert [problem for step in scene.steps for problem in step_title_problems(step.name, step.title)] == []
    for step in scene.steps:
        assert step.caption.strip()
        assert step.duration * 15 >= len(step.caption) - 1, f"{step.name}: too short to read its caption"


def test_scene_length_suits_a_class(scene):
    assert 60 <= scene.steps[-1].end <= 180


def test_every_step_ends_on_a_picture_cairo_draws(scene):
    """The build draws each step's last picture (its clip's last frame, the poster's and the deck's still)."""
    stills = scene.recording.stills
    assert list(stills) == [step.name for step in scene.steps]
    blank = [name for name, drawn in stills.items() if drawn < 0.005]
    assert not blank, f"{type(scene).__name__}: steps ending on a picture with almost nothing drawn: {blank}"


def test_layout_rule_with_the_default_inputs(scene):
    """No text too small, no two texts overlapping, nothing outside the safe area, after any animation (tests/layout.py)."""
    problems = list(scene.recording.layout_problems)
    assert not problems, f"{type(scene).__name__}: {len(problems)} problems:\n" + "\n".join(problems[:40])


def test_everything_stays_inside_the_frame(scene):
    half_width, half_height = config.frame_width / 2, config.frame_height / 2
    for step, (left, right, bottom, top) in scene.recording.extent.items():
        assert -half_width < left and right < half_width, f"{step}: runs off the frame sideways ({left:.2f}, {right:.2f})"
        assert -half_height < bottom and top < half_height, f"{step}: runs off the frame vertically ({bottom:.2f}, {top:.2f})"


def sections_of(scene) -> list[dict]:
    """The steps as the application writes them into sections.json (see ``package.write_render_products``)."""
    return [
        {
            "caption": step.caption,
            "start": step.start,
            "duration": step.end - step.start,
            "lines": [{"text": line.text, "start": line.start, "end": line.end} for line in step.lines],
        }
        for step in scene.steps
    ]


def test_each_line_is_on_screen_while_its_step_lasts_and_long_enough_to_read(scene):
    for step in scene.steps:
        assert step.lines, f"{step.name}: says nothing"
        times = [step.start] + [t for line in step.lines for t in (line.start, line.end)] + [step.end]
        assert times == sorted(times), f"{step.name}: lines out of order or outside the step"
        assert step.lines[-1].end == step.end, step.name
        for line in step.lines:
            assert line.end - line.start >= len(line.text) / 15 - 1e-6, f"{step.name}: too short to read {line.text!r}"


DECIMAL = re.compile(r"[−-]?\d[\d,]*\.\d+")


def test_every_decimal_a_line_says_is_on_screen_as_written_during_its_step(scene):
    """A caption quotes numbers exactly as the screen shows them (0.6 on screen is never 0.63 in words)."""
    for step in scene.steps:
        shown = {text.strip().replace("-", "−") for text in scene.recording.texts[step.name]}
        for line in step.lines:
            for number in DECIMAL.findall(line.text):
                assert number.replace("-", "−") in shown, f"{step.name}: says {number} but the screen shows no such number"


@pytest.mark.xdist_group("qkv")
def test_qkv_heatmap_shows_the_asymmetry_it_says_and_says_how_its_pattern_was_made():
    """The score table read off the screen is PyTorch's; the pair called not symmetric differs on screen;
    the pattern is never called chance: the bright columns it names are the brightest on screen and the words
    whose hand-made embeddings are longest."""
    scene = built_scene("qkv")
    trace = scene.trace
    step = next(step for step in scene.steps if step.name == "scores-heatmap")
    q, k = torch.tensor(np.array(trace.q)), torch.tensor(np.array(trace.k))
    heatmap = next(shown for shown in scene.shown if shown.source == "scaled_scores")
    n = len(trace.query_tokens)
    on_screen = np.array([parse_number(text.original_text) for text in heatmap.texts]).reshape(n, n)
    np.testing.assert_allclose(on_screen, (q @ k.T / np.sqrt(q.shape[1])).numpy(), atol=0.005 + 1e-9)
    line = next(line.text for line in step.lines if line.text.startswith("Not symmetric"))
    # "query “cat”, key “sat”: 0.72; the other way round, 0.48": the line names which word is the query.
    first, other = re.findall(r"“([^”]*)”", line)
    assert f"query “{first}”, key “{other}”" in line and "the other way round" in line
    forward, backward = (parse_number(number) for number in DECIMAL.findall(line))
    i, j = trace.query_tokens.index(first), trace.key_tokens.index(other)
    assert (on_screen[i, j], on_screen[j, i]) == (forward, backward)
    assert forward != backward

    assert "chance" not in " ".join(step.caption for step in scene.steps)
    assert "made up by hand and the matrices are random, so no meaning is learned" in step.caption
    assert any("a fixed random seed" in text for text in scene.recording.texts[step.name]), "the seed is said as what it is"
    assert not any("seed 42" in text for texts in scene.recording.texts.values() for text in texts)
    bright_line = next(line.text for line in step.lines if "the bright columns" in line.text)
    named = set(re.findall(r"“([^”]*)”", bright_line))
    means = on_screen.mean(axis=0)
    brightest = {trace.key_tokens[c] for c in range(n) if means[c] > (means.min() + means.max()) / 2}
    lengths = np.linalg.norm(THE_CAT_SAT.embeddings, axis=1)
    longest = {THE_CAT_SAT.tokens[c] for c in np.argsort(-lengths)[: len(named)]}
    assert named == brightest == longest == {"cat", "sat", "mat"}


@pytest.mark.xdist_group("qkv")
def test_qkv_ends_its_projections_with_q_k_and_v_side_by_side_each_row_named():
    """At the end of the values' step Q, K and V are on screen together, each row with its word, all at a readable size."""
    scene = built_scene("qkv")
    ends = scene.recording.ended
    grids = {shown.source: shown for shown in scene.shown if shown.source in ("q[:, 0:2]", "k[:, 0:2]", "v[:, 0:2]")}
    assert set(grids) == {"q[:, 0:2]", "k[:, 0:2]", "v[:, 0:2]"}
    on_screen = {id(part) for part in ends["v-projection"]}
    for shown in grids.values():
        assert all(id(text) in on_screen for text in shown.texts), shown.source
        assert min(text.font_size for text in shown.texts) >= scene.theme.small_size - 1e-6, shown.source
    words = [part for part in ends["v-projection"] if isinstance(part, Text) and part.original_text in scene.trace.query_tokens]
    # Every word three times (Q's, K's and V's rows); "The" and "the" are two words.
    assert sorted(text.original_text for text in words) == sorted(list(scene.trace.query_tokens) * 3)


@pytest.mark.xdist_group("qkv")
def test_qkv_says_a_tie_when_the_two_copies_of_the_tie_for_the_top_score():
    """With seed 1348 "cat" scores "The" and "the" highest, equally (one embedding, so one key): the line says a tie, not a winner."""
    scene_class = SCENES["qkv"]
    trace = scene_class.build_trace(seed=1348)
    q, k = torch.tensor(np.array(trace.q)), torch.tensor(np.array(trace.k))
    row = (q @ k.T / 2)[trace.focus]
    tied = [trace.key_tokens[j] for j in torch.nonzero(row == row.max()).ravel().tolist()]
    assert tied == ["The", "the"]  # the torch reference: two keys share the top score exactly
    scene = build_without_video(scene_class, trace=trace, draw=False)
    caption = next(step for step in scene.steps if step.name == "scores-heatmap").caption
    top = format_number(float(row.max()), 2)
    assert f"“cat” scores highest with “The” and “the”, tied at {top}." in caption
    assert "“The” and “the”, words 1 and 5, have the same embedding, so the same key" in caption


def test_scaling_formula_matches_the_computation():
    """The row at d_k = 64 is divided by 8, as the formula on screen says, and its scores are q · k (PyTorch's)."""
    trace = SCENES["scaling"].build_trace()
    assert (trace.row_d_k, trace.row_scale) == (64, 8.0)
    scores = torch.tensor(trace.row_keys) @ torch.tensor(trace.row_query)
    np.testing.assert_allclose(trace.row_raw_scores, scores.numpy(), rtol=1e-12)
    np.testing.assert_allclose(trace.row_scaled_scores, (scores / 8).numpy(), rtol=1e-12)
    np.testing.assert_allclose(trace.row_scaled_weights, torch.softmax(scores / 8, dim=0).numpy(), rtol=1e-12)


@pytest.mark.xdist_group("self-attention")
def test_captions_quote_trace_numbers():
    scene = built_scene("self-attention")
    trace = scene.trace
    heatmap_caption = scene.steps[-1].caption
    top = int(np.argmax(trace.weights[trace.focus]))
    assert f"“{trace.key_tokens[top]}” ({trace.weights[trace.focus, top]:.2f})" in heatmap_caption


def test_caption_cues_follow_subtitle_practice(scene):
    """Every cue: at most two lines of 42 characters, at most 17 characters per second, on screen at least a second."""
    cues = cues_for(sections_of(scene))
    for cue in cues:
        lines = cue.text.split("\n")
        seconds = cue.end - cue.start
        assert len(lines) <= 2 and max(len(line) for line in lines) <= MAX_LINE, cue
        assert len(" ".join(lines)) / seconds <= MAX_CHARACTERS_PER_SECOND, cue
        assert seconds >= MIN_CUE_SECONDS - 0.001, cue
    # Nothing is lost or reordered: the cues read back as the captions.
    assert " ".join(cue.text.replace("\n", " ") for cue in cues) == " ".join(
        " ".join(step.caption.split()) for step in scene.steps
    )


@pytest.mark.parametrize("name", ["transformer-block", "complexity", "trained-heads", "bottleneck"])
def test_the_claims_a_reviewer_found_false_are_now_said_as_the_trace_says(name):
    """GELU shrinks small positives; a cost says what it counts; the trained model is named as it is; the RNN is untrained."""
    scene = built_scene(name)
    t = scene.trace
    said = {step.name: step.caption for step in scene.steps}
    everything = " ".join(said.values())
    if name == "transformer-block":
        assert "keeps positive numbers" not in everything
        f, small = t.focus, int(t.gelu_examples[1])
        shrunk = f"small positive ones shrink ({format_number(t.pre_activation[f, small], 2)} → {format_number(t.hidden[f, small], 2)})"
        assert shrunk in said["feed-forward"]
        assert any("one token: 32 numbers, 8 per line" in text for text in scene.recording.texts["feed-forward"])
        # Shown additions of rounded rows carry a note wherever their shown digits do not add up.
        for step, (left, right, total) in {
            "embeddings-plus-positions": (t.embeddings, t.positions, t.x),
            "residual": (t.x, t.attention, t.residual1),
            "add-again": (t.residual1, t.ff, t.output),
        }.items():
            f = t.focus
            off = [k for k in range(t.d_model) if round(round(left[f, k], 2) + round(right[f, k], 2), 2) != round(total[f, k], 2)]
            noted = any(text.startswith("≈: ") for text in scene.recording.texts[step])  # review 18: "≈" marks, see test_review18
            assert noted or not off, (step, off)
        # No walls of numbers (review 7): step 3 prints only the followed token's row, 4 of its 8 numbers
        # in each of its three grids, and step 7 prints only the widened layer's numbers GELU's examples read.
        printed = [s.source for s in scene.shown if s.source.split("[")[0] in ("embeddings", "positions", "x")]
        step3 = [src for src in printed if re.fullmatch(r"\w+\[\d+, \d+\]", src)]
        assert sorted(step3) == sorted(f"{name}[{f}, {j}]" for name in ("embeddings", "positions", "x") for j in range(4))
        hidden = {s.source for s in scene.shown if s.source.startswith("hidden[")}
        assert hidden == {f"hidden[{f}, {int(k)}]" for k in t.gelu_examples}
        assert "seed 4" not in everything and not any("seed 4" in x for texts in scene.recording.texts.values() for x in texts)
        assert any(text.startswith("pos 1") for text in scene.recording.texts["embeddings-plus-positions"])
        assert "four times the model width" in said["feed-forward"]  # review 18: "d_model" was heard as two letters
    elif name == "complexity":
        assert "the cost is multiplied by" not in everything
        assert f"multiplies the whole layer by {format_number(t.layer_growth, 2)}, not 4" in said["whole-layer"]
        # W_O said what it is (review 11), as the screen says it (review 12); named as step 5's rows name it, and
        # no caption of this scene in code-style symbols (review 18: W_Q, d_model, d_ff in words there).
        assert "the projections and the feed-forward, which grow like n" in said["multiply-adds"]
        adds = scene.recording.texts["multiply-adds"]  # a set: the note's two lines, one after the other
        assert any(text.endswith("the output projection,") for text in adds)
        assert any(text.startswith("which mixes the heads' outputs,") for text in adds)
        assert not re.search(r"\b(W_[QKVO]|d_model|d_ff)\b", everything), everything
        # FlashAttention's backward pass recomputes the weights: "of order n²·d", not "the same" work (review 12).
        assert "but still does work of order n²·d" in said["takeaway"] and "the same n²·d" not in everything
        # The width step's title says what doubles (the n × n work), and the screen shows what quadruples.
        titles = {step.name: step.title for step in scene.steps}
        assert titles["width-is-linear"] == "Doubling d only doubles the n × n work"
        shown = " ".join(scene.recording.texts["width-is-linear"])
        assert "projections, feed-forward" in scene.recording.texts["width-is-linear"] and "one head's width d" in shown
        # Past the limit: the footnote of the 2,048 column, shown (its line now says what is counted, review 18).
        assert "%" in " ".join(scene.recording.texts["whole-layer"])
        assert any(text.startswith("* 2,048 tokens: past GPT-2 small's") for text in scene.recording.texts["whole-layer"])
        assert "dominates" not in everything and format_number(t.layer_half_n, 0) in said["takeaway"]
        # The review's faults: no walls of 9-10 digit counts; one d per meaning; the summary keeps its caveat.
        for step in ("memory", "multiply-adds", "width-is-linear"):
            long_numbers = [text for text in scene.recording.texts[step] if re.fullmatch(r"[\d,]{9,}", text)]
            assert not long_numbers, (step, long_numbers)
        assert "8.59 billion multiply-adds" in said["multiply-adds"]
        assert any("8.59" == text for text in scene.recording.texts["multiply-adds"])
        width_shown = " ".join(scene.recording.texts["width-is-linear"])
        # d_model, not d, for the model's width; the rule n × d_model² said at step 5, where it is first shown (the
        # width step's one long sentence that repeated it was hard to follow, review 17).
        assert "∝ n·d²" not in width_shown and "d_model" in width_shown and ", d_ff ×" in width_shown
        # Review 19: "made twice as wide", its model width said: heard alone, "a GPT-2 small layer" was the real one;
        # not GPT-2 small's own (review 18: a layer, not one head); the rule n × width² said at step 5.
        assert "Now a GPT-2 small layer made twice as wide: model width 1,536, 12 heads 128 wide:" in said["width-is-linear"]
        assert "n·d²" not in said["width-is-linear"] and "n × width²" in said["whole-layer"]
        takeaway = " ".join(scene.recording.texts["takeaway"])
        assert f"a whole {t.layer_model} layer" not in takeaway and f"a layer of {t.layer_model}'s sizes" in takeaway
        assert "passes half" not in everything and "reaches half" in said["takeaway"]
        assert 2 * t.layer_d_model + t.layer_d_ff == t.layer_half_n
    elif name == "trained-heads":
        assert "trained BERT model" not in everything
        # The claim (a distilled MiniLM fine-tuned for sentence embeddings) is said, and its facts are shown.
        # Review 10: all-MiniLM-L6-v2 is a 6-layer cut of the distilled MiniLM, not itself distilled.
        cut = f"a {t.n_layers}-layer cut of the distilled MiniLM"
        assert f"{cut}, fine-tuned for sentence embeddings" in said["all-72-heads"]
        shown_model = scene.recording.texts["all-72-heads"]
        assert cut in shown_model
        assert any("fine-tuned" in text and "embedding" in text for text in shown_model)
        # Heard: no "Row the word it", and [CLS] is never quoted as a word.
        assert "Row “" not in everything and "“[CLS]”" not in said["whole-head"]
        ids = {format_number(i, 0).replace(",", "") for i in t.token_ids}
        assert ids <= set(scene.recording.texts["wordpiece-pieces"]), "token ids are shown without thousands separators"
        assert f"The row of “{t.tokens[t.focus]}” is the one we followed" in said["whole-head"]
        # Review 10: shown rounded, a row can add up to 1.01; the line says the sum is before rounding.
        assert "Every row adds up to 1 before rounding" in said["whole-head"]
        # Review 10: "That is layer 6, head 12" came right after the layer-1 aside and seemed to mean it.
        assert "That is " not in said["all-72-heads"] and "The head we follow is layer " in said["all-72-heads"]
        assert "is one:" not in said["all-72-heads"]
    else:
        assert any("untrained" in text for text in scene.recording.texts["one-vector"])
        change = t.final_state_change
        fading = f"Change “{t.tokens[0]}”: it moves {format_number(change[0], 2)}. Change “{t.tokens[-1]}”: {format_number(change[-1], 2)}."
        assert fading in said["early-words-fade"] and change[0] < change[-1]
        # The alignment lines are hand-drawn and said so; the two kinds of attention are named apart.
        assert "drawn here by hand" in said["direct-access"]
        assert any(text.startswith("Yellow lines drawn by hand") for text in scene.recording.texts["direct-access"])
        assert "Bahdanau" in said["direct-access"] and "self-attention" in said["direct-access"].lower()
        assert "self-attention" in said["path-lengths"] and "self-attention" in said["attention-paths"]
        # The 24 numbers are the words' embeddings, counted as the trace holds them, not the hidden states on screen.
        n, d = t.embeddings.shape
        assert n * d == t.sentence_numbers
        assert f"{n} words of {d} numbers each: {t.sentence_numbers} numbers go in" in said["bottleneck"]
        assert not any("seed 42" in text for texts in scene.recording.texts.values() for text in texts)


@pytest.mark.xdist_group("kv-cache")
def test_kv_cache_says_how_its_numbers_were_made_and_what_its_counts_count():
    """The review's faults: made-up embeddings and random matrices said on screen, costs per head, the difference in words."""
    from attention_explainer.pages.exercises import kv_cache_exercises

    scene = built_scene("kv-cache")
    t = scene.trace
    said = {step.name: step.caption for step in scene.steps}
    heard = {step.name: " ".join(line.spoken for line in step.lines) for step in scene.steps}
    shown = {name: " ".join(texts) for name, texts in scene.recording.texts.items()}
    # Where the numbers come from, on screen and said; "The" and "the" do share one embedding (and so one key and value).
    assert "Embeddings made up by hand" in shown["one-token-at-a-time"]
    assert "random (a fixed random seed): the numbers mean nothing" in shown["one-token-at-a-time"]
    assert "random matrices: no pattern here means anything" in said["one-token-at-a-time"]
    assert "(“The” and “the” share one)" in shown["one-token-at-a-time"]
    assert t.tokens[0].lower() == t.tokens[4].lower() and np.array_equal(t.x[0], t.x[4])
    np.testing.assert_array_equal(t.k[0], t.k[4])
    # The largest weight is read as the trace's argmax, and as meaning nothing.
    top = int(np.argmax(t.weights[-1]))
    assert f"largest weight, {format_number(t.weights[-1, top], 2)}, to “{t.tokens[top]}”" in said["one-new-row"]
    assert "the matrices are random, so that means nothing" in said["one-new-row"]
    # Each middle step's query row says whose it is, under the line that names them.
    for step in range(1, len(t.tokens) - 1):
        assert f"new q: “{t.tokens[step]}”" in shown["cache-grows"]
        assert f"“{t.tokens[step]}”" in said["cache-grows"]
    # No code and no tolerance test: the largest difference, as shown, and heard as its digit and place.
    everything = " ".join(said.values()) + " ".join(shown.values())
    assert "allclose" not in everything and "np." not in everything
    difference = format_number(t.max_difference, t.difference_decimals)
    assert t.difference_decimals == 16 and difference == "0.0000000000000002"
    # Written as a power of ten, not sixteen decimals to count: the digit and exponent are the difference's.
    assert (t.difference_digit, t.difference_exponent) == (int(difference[-1]), -16)
    assert "the largest difference, 2 × 10⁻¹⁶, is rounding" in said["same-as-recomputing"]
    assert difference not in everything
    assert "largest difference is a two in the sixteenth decimal place" in heard["same-as-recomputing"]
    assert "(the computer's rounding)" in shown["same-as-recomputing"]
    # Every cost is one head's: in the headings, the note, and each line that gives a ratio.
    assert "Multiply-adds per step, one head" in shown["count-multiply-adds"]
    assert "One head's multiply-adds for n tokens" in shown["longer-texts"]
    assert "Counted: one attention head of one layer, d = 4: projections, scores q · k, mixing." in shown["longer-texts"]
    # 3d² holds only because the embeddings are as wide as the head: said where the counts are scaled up.
    assert "Projecting costs 3d² only because here the embeddings are as wide as the head;" in shown["longer-texts"]
    # Why the baseline recomputes every row although one layer's last row needs only the new query: said and shown.
    assert "because each layer's keys come from the layer below" in said["count-multiply-adds"]
    assert "Without a cache, a model reruns the whole text through every layer" in shown["count-multiply-adds"]
    for name in ("totals", "longer-texts"):
        for line in scene.steps[[s.name for s in scene.steps].index(name)].lines:
            if "times" in line.text:
                assert "this head" in line.text, line.text
    assert f"costs {format_number(t.saving_ratio, 2)} times" in said["totals"]
    assert f"this head {format_number(t.long_ratios[-1], 0)} times" in said["longer-texts"]
    # The real model's width is its heads; grouped-query attention is a real model's, cited, drawn and said.
    assert f"each of its {t.real_layers} layers, {t.real_heads} heads each" in said["real-model"]
    assert "At its full context of 1,024 tokens" in said["real-model"]
    assert t.real_heads * t.real_head_size == t.real_d_model
    assert f"in Llama 2 70B, {t.gqa_query_heads} query heads share {t.gqa_kv_heads} key and value heads" in said["real-model"]
    assert f"{format_number(t.gqa_shrink, 0)} times fewer numbers" in said["real-model"]
    assert "Touvron et al. 2023" in shown["real-model"] and "Ainslie et al. 2023" in shown["real-model"]
    assert "times fewer" in shown["real-model"]
    # The worksheet prints whole totals, and the ratio as the scene shows it.
    totals = {table.caption: table for exercise in kv_cache_exercises(t) for table in exercise.answer}
    assert totals["totals"].decimals == 0 and totals["ratio"].decimals == 2


@pytest.mark.xdist_group("kv-cache")
def test_kv_cache_lines_of_words_and_numbers_sit_on_one_baseline():
    """The review saw GPT-2 small's line jump between words and numbers: every part now sits on the same baseline."""
    from scenes.kv_cache import baseline

    scene = built_scene("kv-cache")
    shown = len(scene.shown)
    try:
        line = scene.words_and_numbers(("layers, each", ("real_heads", 0), "MiB in float32", ("real_cache_numbers", 0), "="))
    finally:
        del scene.shown[shown:]  # built only to measure, never on screen
    bases = [baseline(part) for part in line]
    assert bases[-1] is None  # "=" alone: set on the middle of the letters instead
    assert max(bases[:-1]) - min(bases[:-1]) < 0.005
    assert line[0].get_bottom()[1] < bases[0] - 0.02  # "layers," dips below its baseline: bottoms would not line up
