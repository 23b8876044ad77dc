"""The test builds' shortcuts (a ``Text`` made once, each glyph parsed once, fades without copies) leave every step as
manim leaves it: a canary on one scene's shared build, and every kind of text the scenes draw read as manim parses it."""

from __future__ import annotations

import numpy as np
import pytest
from manim import MarkupText, Text, tempconfig

from scenes import SCENES
from scenes.kit.text import label, number_label
from scenes.theme import DARK, LIGHT

from .glyphs import CHECKED_WITH, glyphs_parsed_once, parsing_versions
from .helpers import RENDERED_SENTENCE, RecordingVoice, build_without_video, built_scene

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
    # No frame drawn (a fifth of the build): drawing reads the mobjects, it never changes them.
    plain = build_without_video(SCENES[CANARY], shortcuts=False, draw=False, voice=voice, speak=voice.spoken_form)
    shared = step_ends(built_scene(CANARY))
    assert len(shared) == len(built_scene(CANARY).steps) > 3
    ends = step_ends(plain)
    assert list(ends) == list(shared)
    for step, parts in ends.items():
        assert parts == shared[step], f"{CANARY}: step {step} ends otherwise without the shortcuts (to a billionth)"


def test_glyphs_parsed_once_makes_every_text_as_manim_does(tmp_path):
    """Numbers, a hostile sentence, right-to-left words, a subscripted symbol, both fonts and both themes, markup with
    colours, underline and a background: each drawing read by the shortcut is manim's parse bit for bit (``check`` compares them), and none is
    left to manim (the shortcut would then save nothing)."""
    hostile = r'\input{/etc/hostname} 50%a_b #{<eos> </span>& "quoted" café猫🙂'
    with tempconfig({"text_dir": str(tmp_path)}), glyphs_parsed_once(check=True) as counts:
        texts = [number_label(DARK, value, 2) for value in (0.53, -0.5, 10.25, float("-inf"))]
        texts += [label(DARK, words) for words in (hostile, RENDERED_SENTENCE, "שלום עולם", "Mix the heads with W_O")]
        texts += [label(LIGHT, "the light theme", mono=True), number_label(LIGHT, 0.25, 2, mono=False)]
        texts += [Text("tinted", t2c={"tin": "#ff8800"}), Text("fading", gradient=("#ff0000", "#0000ff"))]
        texts.append(MarkupText('<span foreground="red">0</span>.<u>5</u> <span background="blue">x</span><sub>2</sub>'))
    assert counts == {"read": len(texts)}, f"checked with {CHECKED_WITH}, running {parsing_versions()}: check it again"
