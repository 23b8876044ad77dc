"""No scene rebuilds text glyphs every frame: constructions must not grow with the frame rate.

Rebuilding a Tex/Text/DecimalNumber per frame was measured as 87% of render time (an 8x8
heatmap with 64 numbers, 4 s at 1080p60). Only code that runs per frame can rebuild per frame:
an updater, a redraw, a value tracker, a changing number, or an animation of the scene's own.
So every module of the scenes and their kit is read, and none may use one (a static check, on
every scene). One scene is also played (dry run: every frame computed, none drawn) as a canary,
its text constructions counted against its build with no frames at all, which cannot depend on
the frame rate: a per-frame rebuild adds constructions with every frame played.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from manim import FadeIn, Scene, Square, Text, always_redraw

import scenes
from scenes import SCENES

from .helpers import built_scene, constructions

# A very low frame rate keeps the canary quick; a per-frame rebuild still adds one object per frame.
FRAME_RATE = 2

PER_FRAME = {
    "always_redraw",
    "always",
    "f_always",
    "add_updater",
    "UpdateFromFunc",
    "UpdateFromAlphaFunc",
    "ValueTracker",
    "ComplexValueTracker",
    "DecimalNumber",
    "Integer",
    "Variable",
    "ChangeDecimalToValue",
    "ChangingDecimal",
    "become",
    "TracedPath",
    "interpolate_mobject",
    "interpolate_submobject",
}
"""manim's ways to run code on every frame (or to hold a number that is rebuilt when it changes)."""


def per_frame_code(source: str) -> list[str]:
    """The names in ``source`` that run code every frame (:data:`PER_FRAME`), and its own animation classes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if isinstance(node, (ast.FunctionDef, ast.alias)):
            name = node.name
        if name in PER_FRAME:
            found.append(f"line {node.lineno}: {name}" if hasattr(node, "lineno") else name)
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base) for base in node.bases]
            if any("Animation" in base or "Transform" in base or base in ("Write", "Create") for base in bases):
                found.append(f"line {node.lineno}: class {node.name}({', '.join(bases)})")
    return found


class RedrawsEveryFrame(Scene):
    """The trap the guard exists for."""

    def construct(self):
        self.add(always_redraw(lambda: Text("0.25")))
        self.play(FadeIn(Square()), run_time=2)


def test_the_guard_catches_a_per_frame_rebuild():
    assert constructions(RedrawsEveryFrame, FRAME_RATE) != constructions(RedrawsEveryFrame, FRAME_RATE, skip_animations=True)
    assert [found.split(": ")[1] for found in per_frame_code(inspect.getsource(RedrawsEveryFrame))] == ["always_redraw"]


def test_the_static_check_catches_each_way_to_run_code_every_frame():
    samples = {
        "number.add_updater(lambda m: m.set_value(t.get_value()))": "add_updater",
        "self.play(ChangeDecimalToValue(number, 3))": "ChangeDecimalToValue",
        "tracker = ValueTracker(0)": "ValueTracker",
        "grid.become(NumberGrid(theme, values))": "become",
        "from manim import always_redraw as redraw": "always_redraw",
        "class Count(Animation):\n    def interpolate_mobject(self, alpha): ...": "interpolate_mobject",
    }
    for source, name in samples.items():
        assert any(name in found for found in per_frame_code(source)), source
    assert per_frame_code("self.play(FadeIn(grid), Transform(a, b))") == []


def scene_modules() -> list[Path]:
    root = Path(scenes.__file__).parent
    return sorted(root.rglob("*.py"))


@pytest.mark.parametrize("path", scene_modules(), ids=lambda path: path.name)
def test_no_scene_or_kit_module_runs_code_every_frame(path):
    """Every scene, and the kit they draw with: nothing that could rebuild text per frame (see the module's docstring)."""
    assert per_frame_code(path.read_text(encoding="utf-8")) == [], path


def test_the_modules_checked_hold_every_scene():
    checked = {path.resolve() for path in scene_modules()}
    assert {Path(inspect.getfile(scene_class)).resolve() for scene_class in SCENES.values()} <= checked


@pytest.mark.render  # plays every frame
@pytest.mark.xdist_group("self-attention")
def test_a_scene_played_frame_by_frame_builds_no_more_text_than_with_no_frame():
    """The canary: self-attention (heatmap, bars, worked sums: the kit's drawings) played, against its shared build's count."""
    assert constructions(SCENES["self-attention"], FRAME_RATE) == built_scene("self-attention").text_constructions
