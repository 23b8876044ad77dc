"""What the ninth fresh review found weak in padding-mask and cross-attention (and the seventh in
transformer-block's worksheet), held to the trace: each line's numbers are the trace's and are on screen."""

from __future__ import annotations

import numpy as np
import pytest

from attention_explainer.pages.exercises import exercises_for
from scenes.theme import format_number
from scenes.transformer_block import TransformerBlockScene

from .helpers import built_scene


def step_of(scene, name: str):
    return next(step for step in scene.steps if step.name == name)


@pytest.mark.xdist_group("padding-mask")
def test_padding_comparison_is_said_with_both_rows_of_the_trace_on_screen():
    scene = built_scene("padding-mask")
    t = scene.trace
    real = np.flatnonzero(t.valid)
    pads = int((t.valid == 0).sum())
    no_pads = ", ".join(format_number(t.weights[t.focus, j], 2) for j in real)
    padded = ", ".join(format_number(t.unmasked_weights[t.focus, j], 2) for j in real)
    line = next(li for li in step_of(scene, "pads-leak-without-a-mask").lines if "depends on how much padding" in li.text)
    # The sentence ends on the comparison, not on a colon.
    assert line.text.endswith(f"with no pads, “{t.query_tokens[t.focus]}” gives {no_pads}; with {pads} pads, only {padded}.")
    # Masked, the real keys' weights are those of the sentence with no pads at all (it is what the line calls them).
    assert not np.allclose(t.weights[t.focus, real], t.unmasked_weights[t.focus, real])
    shown = scene.recording.texts["pads-leak-without-a-mask"]
    assert {format_number(t.weights[t.focus, j], 2) for j in real} <= shown
    assert {format_number(t.unmasked_weights[t.focus, j], 2) for j in real} <= shown


@pytest.mark.xdist_group("padding-mask")
def test_padding_self_score_line_divides_the_squared_length_by_the_root_of_d_k():
    scene = built_scene("padding-mask")
    t = scene.trace
    d_k = t.x_query.shape[1]
    assert t.scale == pytest.approx(np.sqrt(d_k))
    # The score the softmax table is built from is the squared length over √d_k.
    np.testing.assert_allclose(np.diag(t.scaled_scores), np.sum(t.x_query**2, axis=1) / t.scale)
    line = next(li for li in step_of(scene, "pads-leak-without-a-mask").lines if "squared length" in li.text)
    assert f"squared length, divided by {format_number(t.scale, 0)}:" in line.text
    assert any(f"÷ √d_k = {format_number(t.scale, 0)}" in text for text in scene.recording.texts["pads-leak-without-a-mask"])
    # The caption spells no W_Q with a literal underscore.
    assert not any("W_" in li.text for li in step_of(scene, "pads-leak-without-a-mask").lines)


@pytest.mark.xdist_group("padding-mask")
def test_padding_left_step_marks_the_next_tokens_slot_and_the_rows_left_out():
    scene = built_scene("padding-mask")
    t = scene.trace
    texts = scene.recording.texts["left-padding-needs-both"]
    assert "next token" in texts and not any("goes here" in text for text in texts)
    said = " ".join(li.text for li in step_of(scene, "left-padding-needs-both").lines)
    assert "whose output predicts the next token" in said and "where the next token goes" not in said
    # The tables' query rows are the real tokens only: the note says the pad rows are left out.
    assert len(t.left_queries) == int(t.left_valid.sum()) < len(t.left_tokens)
    assert any(text.startswith("<pad> query rows left out") for text in texts)


@pytest.mark.xdist_group("cross-attention")
def test_cross_rows_sum_to_one_up_to_rounding_as_shown():
    scene = built_scene("cross-attention")
    t = scene.trace
    said = " ".join(li.text for li in step_of(scene, "the-weight-matrix").lines)
    shown_sums = [sum(float(format_number(w, 2)) for w in row) for row in t.weights]
    # Some shown row does not add to 1.00: the line must say "up to rounding"; the true rows do sum to 1.
    assert any(abs(s - 1.0) > 0.005 for s in shown_sums)
    np.testing.assert_allclose(t.weights.sum(axis=1), 1.0)
    assert "each row sums to 1, up to rounding" in said


@pytest.mark.xdist_group("cross-attention")
def test_cross_no_mask_is_on_screen_and_true_in_the_trace():
    scene = built_scene("cross-attention")
    t = scene.trace
    assert t.mask is None or bool(np.all(t.mask))
    assert np.all(t.weights > 0)
    assert f"no mask: each row sees all {len(t.key_tokens)} English words" in scene.recording.texts["the-weight-matrix"]


@pytest.mark.xdist_group("cross-attention")
def test_cross_self_map_names_the_shortcut_and_the_decoder_layer_is_drawn():
    scene = built_scene("cross-attention")
    texts = scene.recording.texts["self-vs-cross"]
    assert any(text.startswith("Self, no projections:") for text in texts)
    assert {"masked self-attention", "cross-attention", "feed-forward"} <= texts
    said = " ".join(li.text for li in step_of(scene, "one-query").lines)
    assert "chance overlap between random vectors" in said


@pytest.mark.parametrize("options", [{}, {"d_model": 4}, {"seed": 7}, {"sentence": "Dogs chase cats"}])
def test_block_worksheet_variance_worked_from_the_printed_x_is_the_key(options):
    trace = TransformerBlockScene.build_trace(**options)
    exercise = exercises_for(trace)[0]
    x = exercise.given[0]
    key = exercise.answer[0]
    printed = np.array([float(format_number(v, x.decimals).replace("−", "-")) for v in x.values])
    # A student who works from the x on the page gets the key's mean and variance at the key's decimals.
    assert format_number(printed.mean(), key.decimals) == format_number(key.values[0], key.decimals)
    assert format_number(printed.var(), key.decimals) == format_number(key.values[1], key.decimals)
