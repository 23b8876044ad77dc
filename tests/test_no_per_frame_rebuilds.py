"""No scene rebuilds text glyphs every frame: constructions must not grow with the frame rate.

Rebuilding a Tex/Text/DecimalNumber per frame was measured as 87% of render time (an 8x8
heatmap with 64 numbers, 4 s at 1080p60). Each scene is played (dry run: every frame computed, none drawn)
and its text constructions counted; the bound they must not exceed is the count with no
frames at all (animations skipped), which cannot depend on the frame rate. A per-frame
rebuild adds constructions with every frame played.
"""

from __future__ import annotations

import tempfile
from collections import Counter

import pytest
from manim import (
    DecimalNumber,
    FadeIn,
    MarkupText,
    MathTex,
    Scene,
    SingleStringMathTex,
    Square,
    Tex,
    Text,
    always_redraw,
    tempconfig,
)

from scenes import SCENES

pytestmark = pytest.mark.render  # plays every frame of every scene

COUNTED = (Text, MarkupText, Tex, MathTex, SingleStringMathTex, DecimalNumber)
# A very low frame rate keeps the test quick; a per-frame rebuild still adds one object per frame.
FRAME_RATE = 2


def constructions(scene_class, frame_rate: int, skip_animations: bool = False) -> Counter:
    """How many text mobjects of each kind the scene constructs, played at ``frame_rate`` or with no frames."""
    counts: Counter = Counter()
    originals = {cls: cls.__init__ for cls in COUNTED}

    def counting(cls):
        def init(self, *args, **kwargs):
            if type(self) is cls:
                counts[cls.__name__] += 1
            originals[cls](self, *args, **kwargs)

        return init

    with tempfile.TemporaryDirectory() as media_dir:
        settings = {
            "dry_run": True,
            "media_dir": media_dir,
            "pixel_width": 320,
            "pixel_height": 180,
            "frame_rate": frame_rate,
            "verbosity": "WARNING",
            "progress_bar": "none",
            "disable_caching": True,
        }
        try:
            for cls in COUNTED:
                cls.__init__ = counting(cls)
            with tempconfig(settings):
                scene_class(skip_animations=skip_animations).render()
        finally:
            for cls, init in originals.items():
                cls.__init__ = init
    return counts


class RedrawsEveryFrame(Scene):
    """The trap the guard exists for."""

    def construct(self):
        self.add(always_redraw(lambda: Text("0.25")))
        self.play(FadeIn(Square()), run_time=2)


def test_the_guard_catches_a_per_frame_rebuild():
    assert constructions(RedrawsEveryFrame, FRAME_RATE) != constructions(RedrawsEveryFrame, FRAME_RATE, skip_animations=True)


@pytest.mark.parametrize("name", list(SCENES))
def test_playing_every_frame_builds_no_more_text_than_no_frame(name):
    assert constructions(SCENES[name], FRAME_RATE) == constructions(SCENES[name], FRAME_RATE, skip_animations=True)
