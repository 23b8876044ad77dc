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
def test_scaling_calls_its_row_random_and_names_the_seed(scaling):
    step = next(step for step in scaling.steps if step.name == "one-row-of-scores")
    seed = format_number(scaling.trace.seed, 0)
    assert any("random" in line.text and f"seed {seed}" in line.text for line in step.lines)
    texts = scaling.recording.texts[step.name]
    assert "random vectors, seed" in texts and seed in texts
    assert not any("real" in line for line in lines(scaling))


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
