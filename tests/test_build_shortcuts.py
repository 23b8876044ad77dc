"""The test builds' shortcuts (a ``Text`` made once, each glyph parsed once, fades and ``ReplacementTransform`` without
copies) leave every step as manim leaves it: a canary on one scene's shared build, every kind of text the scenes draw
read as manim parses it, and a scene the transform shortcut cannot follow refused."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
import pytest
from manim import RIGHT, MarkupText, Text, tempconfig

from scenes import SCENES
from scenes.kit.text import label, number_label
from scenes.theme import DARK, LIGHT

from .glyphs import CHECKED_WITH, glyphs_parsed_once, parsing_versions
from .helpers import RecordingVoice, build_without_video, built_scene, looks_at_the_shared_build
from .shared_renders import RENDERED_SENTENCE

CANARY = "scaling"
"""A short scene whose fades shift as they come and go, whose bars and axis are transformed into others, and whose
numbers repeat (its texts are made again)."""


def state(part) -> tuple:
    """What a mobject is (kind, points, colours, stroke width, depth), to a billionth (manim's fade back leaves an
    opacity of 0.9999999999999999 where the shortcut leaves 1.0)."""
    colours = [part.get_fill_rgbas(), part.get_stroke_rgbas()] if hasattr(part, "fill_rgbas") else []
    width = float(part.get_stroke_width()) if hasattr(part, "stroke_width") else None
    rounded = [np.round(array, 9).tolist() for array in (part.points, *colours)]
    return (type(part).__name__, rounded, width, part.z_index)


def watching_step_ends() -> tuple[dict[str, list[tuple]], Callable]:
    """What a look keeps, and the look (an ``observe``): as each step ends, what every mobject on screen is then.

    Taken then, not read after the build: a mobject a later step transforms is changed by manim's transform (aligned
    to its target, point for point) and left as it was by the shortcut, once it is off the scene.
    """
    ends: dict[str, list[tuple]] = {}

    def look(scene, ended) -> None:
        if ended is not None:
            ends[ended.name] = [state(part) for mobject in scene.mobjects for part in mobject.get_family()]

    return ends, look


SHARED_ENDS, _look = watching_step_ends()
looks_at_the_shared_build(CANARY)(_look)


@pytest.mark.scenes
@pytest.mark.xdist_group(CANARY)
def test_a_build_without_shortcuts_ends_every_step_the_same():
    voice = RecordingVoice()
    ends, look = watching_step_ends()
    # No frame drawn: drawing reads the mobjects, it never changes them.
    build_without_video(SCENES[CANARY], shortcuts=False, draw=False, observe=look, voice=voice, speak=voice.spoken_form)
    shared = built_scene(CANARY)  # its look fills SHARED_ENDS as it is built
    assert len(SHARED_ENDS) == len(shared.steps) > 3
    assert list(ends) == list(SHARED_ENDS)
    for step, parts in ends.items():
        assert parts == SHARED_ENDS[step], f"{CANARY}: step {step} ends otherwise without the shortcuts (to a billionth)"


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


def test_animating_again_what_a_replacement_transform_replaced_is_refused():
    """The shortcut leaves what a ``ReplacementTransform`` replaced as it was, where manim aligns it to its target:
    a scene that brings it back would differ from its render, so the build says so instead."""
    from manim import Circle, ReplacementTransform, Square

    from scenes.kit.scene import ExplainerScene

    from .helpers import ReplacedReused

    class TransformsBack(ExplainerScene):
        name = "transforms-back"

        @classmethod
        def build_trace(cls, **settings):
            return SimpleNamespace()

        def construct(self):
            with self.step("there", "There and back"):
                square, circle = Square(), Circle().shift(RIGHT)
                self.add(square)
                self.play(ReplacementTransform(square, circle))
                self.play(ReplacementTransform(circle, square))

    with pytest.raises(ReplacedReused, match="TransformsBack animates again what a ReplacementTransform replaced"):
        build_without_video(TransformsBack, draw=False)


def test_a_text_copied_by_plan_is_deepcopys_copy():
    """A ``Text`` copied by :class:`.helpers._Copier`'s plan is what ``copy.deepcopy`` makes of the cached one.

    The same members, attributes (in the same order) and values, no array, list or dict shared with the cached text,
    and no ``original_id`` on the text itself.
    """
    import copy

    from manim import Mobject
    from manim.utils.color.core import ManimColor

    from .helpers import _Copier

    def shape(value, members: dict) -> object:
        """``value`` as plain data, members by their first position: equal for two copies made alike."""
        if isinstance(value, Mobject):
            if id(value) not in members:
                members[id(value)] = len(members)
                return (type(value).__name__, [(k, shape(v, members)) for k, v in value.__dict__.items() if k != "original_id"])
            return ("member", members[id(value)])
        if isinstance(value, np.ndarray):
            return ("array", value.dtype.str, value.shape, value.tobytes())
        if isinstance(value, ManimColor):
            return ("colour", value.to_hex(with_alpha=True))
        if isinstance(value, (list, tuple)):
            return (type(value).__name__, [shape(v, members) for v in value])
        if isinstance(value, dict):
            return ("dict", [(k, shape(v, members)) for k, v in value.items()])
        return repr(value)

    def mutable(value, found: set) -> set:
        """The ids of every array, list and dict reachable from ``value``."""
        if isinstance(value, Mobject):
            if id(value) not in found:
                found.add(id(value))
                mutable(value.__dict__, found)
        elif isinstance(value, (np.ndarray, list, dict, tuple, ManimColor)):
            if not isinstance(value, tuple):
                found.add(id(value))
            items = (
                value.__dict__.values() if isinstance(value, ManimColor) else value.values() if isinstance(value, dict) else value
            )
            if not isinstance(value, np.ndarray):
                for item in items:
                    mutable(item, found)
        return found

    texts = [
        label(DARK, "Keys & values"),
        number_label(DARK, -0.25, 2),
        Text("猫 café 🙂", t2c={"猫": "#ff0000"}),
        Text("x", weight="BOLD"),
    ]
    for text in texts:
        for part in text.get_family():  # as texts_made_once leaves them: each glyph's parsed path dropped once built
            if hasattr(part, "path_obj"):
                part.path_obj = None
        cached = copy.deepcopy(text)
        copier = _Copier(cached)
        for _ in range(2):  # the first copy works the plan out, the second follows it
            planned = object.__new__(type(text))
            copier.copy_into(planned)
            assert copier.kinds, f"{text.original_text!r} fell back to deepcopy"
            expected = copy.deepcopy(cached)
            del expected.original_id
            assert not hasattr(planned, "original_id")
            assert shape(planned, {}) == shape(expected, {})
            shared = mutable(planned, set()) & mutable(cached, set())
            assert not shared, f"{text.original_text!r}: the copy shares {len(shared)} arrays, lists or dicts with the cache"
            assert [m.original_id for m in planned.get_family()[1:]] == [m.original_id for m in expected.get_family()[1:]]
