"""The tests' drafts (:mod:`tests.drafts.draft_renders`) keep a render's frames where a test reads them.

A draft draws only some frames of an animation; what the tests read of a render (its frame count, each step's last
frame, the poster, the deck's stills) must be a full render's. Checked here on a small scene drawn both ways.
"""

from __future__ import annotations

import numpy as np
from manim import LEFT, RIGHT, Circle, Create, Scene, Square, config, tempconfig
from manim.renderer.cairo_renderer import CairoRenderer

from .drafts.draft_renders import _drawing_every


class Moves(Scene):
    """Two animations of unlike lengths (in frames: 14 and 8, neither a multiple of five), then a wait."""

    def construct(self):
        square = Square().shift(LEFT)
        self.play(square.animate.shift(2 * RIGHT), run_time=14 / 15)
        self.play(Create(Circle()), run_time=8 / 15)
        self.wait(0.2)


class FramesKept(CairoRenderer):
    """manim's renderer, keeping every frame it writes instead of encoding it."""

    def add_frame(self, frame, num_frames=1):
        self.kept.extend([frame.copy()] * num_frames)


class DraftFramesKept(FramesKept):
    """The same, drawing as a draft does."""


_drawing_every(DraftFramesKept, config, 5)


def frames(renderer_class) -> list[np.ndarray]:
    with tempconfig({"frame_rate": 15, "pixel_width": 160, "pixel_height": 90, "dry_run": True, "progress_bar": "none"}):
        renderer = renderer_class()
        renderer.kept = []
        Moves(renderer=renderer).render()
    return renderer.kept


def test_a_draft_has_every_frame_and_draws_each_animations_first_and_last_and_every_fifth():
    full, draft = frames(FramesKept), frames(DraftFramesKept)
    assert len(draft) == len(full) == 14 + 8 + 3
    drawn = [0, 5, 10, 13] + [14 + k for k in (0, 5, 7)] + [22, 23, 24]
    for index in drawn:
        assert np.array_equal(draft[index], full[index]), f"frame {index} was not drawn"
    held = [index for index in range(len(full)) if index not in drawn]
    for index in held:
        assert np.array_equal(draft[index], draft[index - 1]), f"frame {index} is not the one drawn before"
    assert not all(np.array_equal(full[index], full[index - 1]) for index in held), "the scene should move"
