"""The claims a second reviewer found wrong or loose in scaling, held to the trace.

Each expected value is worked out here from the trace's own arrays (numpy), not read from the scene's code.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import MathTex

from scenes.theme import format_number

from .helpers import built_scene, captions, looks_at_the_shared_build

pytestmark = pytest.mark.xdist_group("scaling")  # beside scaling's shared build (one build per run, not two)


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """d p_i / d s_j of softmax at weights ``p``: p_i (δ_ij − p_j)."""
    return np.diag(p) - np.outer(p, p)


def test_scaling_gradient_words_are_what_holds_for_the_weights_shown():
    scene = built_scene("scaling")
    t = scene.trace
    said = captions(scene)
    raw = np.asarray(t.row_unscaled_weights, dtype=float)
    scaled = np.asarray(t.row_scaled_weights, dtype=float)
    # The exact statement: a weight's slope in its own score is p(1 − p), at most 1/4.
    line = "A weight's slope with respect to its own score is p(1 − p): at most 1/4, near 0 when p is near 0 or 1."
    assert line in said["softmax-without-scaling"]
    assert "at most p(1 − p)" not in " ".join(said.values())
    for p in (raw, scaled):
        jacobian = softmax_jacobian(p)
        assert np.allclose(np.diag(jacobian), p * (1 - p))
        assert (p * (1 - p)).max() <= 0.25
        # "No weight's slope in any score is larger": every entry is within the largest p(1 − p).
        assert np.abs(jacobian).max() <= (p * (1 - p)).max() + 1e-15
    # Without scaling the weights are near 0 or 1, so every slope is near 0, as shown.
    assert raw.max() > 0.99 and np.sort(raw)[-2] < 0.01
    assert format_number((raw * (1 - raw)).max(), 5) in said["softmax-without-scaling"]
    assert "No weight's slope in any score is larger" in said["softmax-without-scaling"]
    # With scaling the largest is near the bound, and said so only because it is.
    largest = (scaled * (1 - scaled)).max()
    assert largest >= 0.24
    assert f"now {format_number(largest, 2)}, near the most it can be, 1/4" in said["softmax-with-scaling"]


_stale_axes: list[str] = []
"""The steps in which an axis still read q · k alone after the division began (:func:`_look_for_stale_axes`)."""
_divide_step_seen: list[str] = []


@looks_at_the_shared_build("scaling")
def _look_for_stale_axes(scene, ended):
    if not scene.steps or scene.steps[-1].name not in ("divide-by-sqrt-dk",):
        return
    _divide_step_seen.append(scene.steps[-1].name)
    for mobject in scene.mobjects:
        for part in mobject.get_family():
            if isinstance(part, MathTex) and part.tex_string.strip() == r"q \cdot k":
                _stale_axes.append(scene.steps[-1].name)


def test_scaling_axis_is_named_for_the_divided_scores_as_soon_as_they_are_divided():
    """After the division's first animation, no axis under the bars still reads q · k alone."""
    built_scene("scaling")
    assert _divide_step_seen, "the division's step was watched"
    assert not _stale_axes


def test_scaling_worksheet_words_the_slope_as_the_scene_does():
    from attention_explainer.pages.exercises import exercises_for

    t = built_scene("scaling").trace
    text = " ".join(exercise.question for exercise in exercises_for(t))
    assert "The slope of weight p_j with respect to its own score is p_j (1 − p_j), at most 1/4" in text
    assert "gradient into score j from weight j" not in text
