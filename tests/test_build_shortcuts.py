"""The test builds' shortcuts (a ``Text`` made once, fades without copies) leave every step as manim leaves it: a canary
on one scene's shared build."""

from __future__ import annotations

import numpy as np
import pytest

from scenes import SCENES

from .helpers import RecordingVoice, build_without_video, built_scene

CANARY = "scaling"
"""A short scene whose fades shift as they come and go, and whose numbers repeat (its texts are made again)."""


def step_ends(scene) -> dict[str, list[tuple]]:
    """Per step: what every mobject on screen was when it ended (kind, points, colours, stroke width, depth), to a
    billionth (manim's fade back leaves an opacity of 0.9999999999999999 where the shortcut leaves 1.0)."""

    def state(part) -> tuple:
        colours = [part.get_fill_rgbas(), part.get_stroke_rgbas()] if hasattr(part, "fill_rgbas") else []
        width = float(part.get_stroke_width()) if hasattr(part, "stroke_width") else None
        rounded = [np.round(array, 9).tolist() for array in (part.points, *colours)]
        return (type(part).__name__, rounded, width, part.z_index)

    return {step: [state(part) for part in parts] for step, parts in scene.recording.ended.items()}


@pytest.mark.scenes
@pytest.mark.xdist_group(CANARY)
def test_a_build_without_shortcuts_ends_every_step_the_same():
    voice = RecordingVoice()
    plain = build_without_video(SCENES[CANARY], shortcuts=False, voice=voice, speak=voice.spoken_form)
    shared = step_ends(built_scene(CANARY))
    assert len(shared) == len(built_scene(CANARY).steps) > 3
    ends = step_ends(plain)
    assert list(ends) == list(shared)
    for step, parts in ends.items():
        assert parts == shared[step], f"{CANARY}: step {step} ends otherwise without the shortcuts (to a billionth)"
