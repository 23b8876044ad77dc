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

from manim import FadeIn, Scene, Square, Text, always_redraw, tempconfig

from .conftest import counting_text_constructions

# A very low frame rate keeps the test quick; a per-frame rebuild still adds one object per frame.
FRAME_RATE = 2


def constructions(scene_class, frame_rate: int, skip_animations: bool = False) -> Counter:
    """How many text mobjects of each kind the scene constructs, played at ``frame_rate`` or with no frames."""
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
        with counting_text_constructions() as counts, tempconfig(settings):
            scene_class(skip_animations=skip_animations).render()
    return counts


class RedrawsEveryFrame(Scene):
    """The trap the guard exists for."""

    def construct(self):
        self.add(always_redraw(lambda: Text("0.25")))
        self.play(FadeIn(Square()), run_time=2)


def test_the_guard_catches_a_per_frame_rebuild():
    assert constructions(RedrawsEveryFrame, FRAME_RATE) != constructions(RedrawsEveryFrame, FRAME_RATE, skip_animations=True)


# Each scene of the catalog is played in test_scenes.py, against the count of the build its checks share.
