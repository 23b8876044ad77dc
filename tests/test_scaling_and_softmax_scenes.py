"""What the scaling and softmax scenes say and draw: the random row called random, aligned histograms, e^s as a formula."""

from __future__ import annotations

import pytest
from manim import MathTex

from scenes.theme import format_number

from .helpers import built_scene


@pytest.fixture(scope="module")
def scaling():
    return built_scene("scaling")


@pytest.fixture(scope="module")
def softmax():
    return built_scene("softmax")


def lines(scene) -> list[str]:
    return [line.text for step in scene.steps for line in step.lines]


@pytest.mark.xdist_group("scaling")
def test_scaling_calls_its_row_random_and_its_seed_fixed_alike_on_screen_and_aloud(scaling):
    step = next(step for step in scaling.steps if step.name == "one-row-of-scores")
    seed = format_number(scaling.trace.seed, 0)
    said = [line for line in step.lines if "random" in line.text]
    # Caption and voice say the same words: "a fixed random seed", its number only in the page's settings.
    assert said and all("a fixed random seed" in line.text and "a fixed random seed" in line.spoken for line in said)
    texts = scaling.recording.texts[step.name]
    assert "random vectors (a fixed random seed)" in texts
    assert not any(f"seed {seed}" in line for line in lines(scaling))
    assert not any("real" in line for line in lines(scaling))


@pytest.mark.xdist_group("scaling")
def test_scaling_shows_the_gradient_claim_with_the_trace_numbers(scaling):
    """The slopes said and shown are the trace's p(1 − p), and the unscaled one is the far smaller."""
    t = scaling.trace
    tiny, back = format_number(t.row_unscaled_max_slope, 5), format_number(t.row_scaled_max_slope, 2)
    without = next(step for step in scaling.steps if step.name == "softmax-without-scaling")
    with_ = next(step for step in scaling.steps if step.name == "softmax-with-scaling")
    assert any(tiny in line.text for line in without.lines) and tiny in scaling.recording.texts[without.name]
    assert any(back in line.text for line in with_.lines) and back in scaling.recording.texts[with_.name]
    assert float(tiny) * 100 < float(back)
    # Said as the source says it: the gradient into the scores, not "learning stalls".
    assert not any("stalls" in line or "keeps learning" in line for line in lines(scaling))


@pytest.mark.xdist_group("scaling")
def test_scaling_divides_on_the_unscaled_axis_before_zooming_and_says_so(scaling):
    step = next(step for step in scaling.steps if step.name == "divide-by-sqrt-dk")
    texts = [line.text for line in step.lines]
    t = scaling.trace
    raw = format_number(t.hist_edges[-1], 0)
    scaled = format_number(t.scaled_hist_edges[-1], 0)
    same_axis = next(i for i, text in enumerate(texts) if "same axis" in text)
    zoom = next(i for i, text in enumerate(texts) if "zoom" in text.lower())
    assert raw in texts[same_axis] and scaled in texts[zoom] and same_axis < zoom


@pytest.mark.xdist_group("scaling")
def test_scaling_histograms_share_one_x_axis_and_do_not_overlap(scaling):
    histograms = scaling.histograms
    assert len(histograms) == 3
    starts = [h.axis.get_start()[0] for h in histograms]
    ends = [h.axis.get_end()[0] for h in histograms]
    assert max(starts) - min(starts) < 1e-9 and max(ends) - min(ends) < 1e-9
    # Each histogram's tallest bar stays below the axis of the row above it.
    for upper, lower in zip(histograms, histograms[1:]):
        assert lower.get_top()[1] < upper.axis.get_start()[1] - 0.1


@pytest.mark.xdist_group("softmax")
def test_softmax_writes_e_to_the_s_as_a_formula_never_as_plain_text(softmax):
    texts = set().union(*softmax.recording.texts.values())  # every Text on screen in any step
    assert texts and not any("e^" in text for text in texts)
    formulas = [part for m in softmax.mobjects for part in m.get_family() if isinstance(part, MathTex)]
    assert any("e^{s_j}" in formula.get_tex_string() for formula in formulas)
    assert not any("e^" in line for line in lines(softmax))


@pytest.mark.xdist_group("softmax")
def test_softmax_outputs_are_called_attention_weights(softmax):
    said = " ".join(lines(softmax))
    assert "attention weights" in said
