"""The layout rule, measured on what a scene has on screen: big enough to read, no overlaps, inside the safe area.

- **Size.** Every text and number is at least :data:`MIN_GLYPH_HEIGHT` tall, measured as the
  height of a capital letter or a digit (2.5 % of the frame's height: 27 px at 1080p).
- **Overlap.** No two texts (a ``Text`` or a whole formula) share any area.
- **Safe area.** Everything drawn stays inside the frame less a 5 % margin on each side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DEFAULT_FONT_SIZE,
    SCALE_FACTOR_PER_FONT_POINT,
    MathTex,
    Mobject,
    SingleStringMathTex,
    Tex,
    Text,
    VMobject,
    config,
)
from manim.mobject.text.text_mobject import TEXT_MOB_SCALE_FACTOR

from scenes.kit.layout import SAFE_BOTTOM, SAFE_LEFT, SAFE_RIGHT, SAFE_TOP

MIN_GLYPH_HEIGHT = 0.025 * 8.0
"""2.5 % of the frame's height of 8 units."""

# Height of a capital letter or digit per point of font size, measured in manim 0.22:
# DejaVu Sans "H" at font size 20 is 0.2031 units tall; the formulas' Helvetica "8" at 20 is 0.1514.
TEXT_CAP_PER_POINT = 0.2031 / 20
TEX_CAP_PER_POINT = 0.1514 / 20

TOLERANCE = 0.01
"""Units of overlap or overhang ignored (a hundredth of a unit is 1.35 px at 1080p)."""


@dataclass(frozen=True)
class Box:
    left: float
    right: float
    bottom: float
    top: float

    def overlaps(self, other: Box) -> bool:
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.top, other.top) - max(self.bottom, other.bottom)
        return width > TOLERANCE and height > TOLERANCE


def _boundary(mobject: Mobject) -> np.ndarray:
    """The points manim's ``get_points_defining_boundary`` gives (for a ``VMobject``: every anchor of its family).

    A ``VMobject``'s anchors are taken as array slices, not manim's point-by-point list of pairs: the same points
    (in another order, which no box depends on), in a fraction of the time this check took after every animation.
    """
    if type(mobject).get_points_defining_boundary is not VMobject.get_points_defining_boundary:
        return mobject.get_points_defining_boundary()
    parts = []
    for part in mobject.get_family():
        points = part.points
        if len(points) == 1:
            parts.append(points)
        elif len(points):
            step = part.n_points_per_cubic_curve
            parts += [points[::step], points[step - 1 :: step]]
    return np.concatenate(parts) if parts else np.zeros((0, 3))


def _box(mobject: Mobject) -> Box:
    """The box manim's ``get_left``, ``get_right``, ``get_bottom`` and ``get_top`` give, from one pass over the points."""
    points = _boundary(mobject)
    if len(points) == 0:
        return Box(0.0, 0.0, 0.0, 0.0)  # as manim's critical points of nothing
    (left, bottom), (right, top) = points[:, :2].min(axis=0), points[:, :2].max(axis=0)
    return Box(left, right, bottom, top)


def _overlapping(boxes: list[Box]) -> list[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of ``boxes`` that overlap (:meth:`Box.overlaps`), in that order: all pairs at once.

    Pair by pair in Python this was a seventh of the layout rule's time on a scene's grids of numbers.
    """
    if len(boxes) < 2:
        return []
    left, right, bottom, top = np.array([[box.left, box.right, box.bottom, box.top] for box in boxes]).T
    width = np.minimum.outer(right, right) - np.maximum.outer(left, left)
    height = np.minimum.outer(top, top) - np.maximum.outer(bottom, bottom)
    overlap = np.triu((width > TOLERANCE) & (height > TOLERANCE), k=1)
    return [(int(i), int(j)) for i, j in np.argwhere(overlap)]


def _inside_safe_area(box: Box) -> bool:
    return (
        box.left >= SAFE_LEFT - TOLERANCE
        and box.right <= SAFE_RIGHT + TOLERANCE
        and box.bottom >= SAFE_BOTTOM - TOLERANCE
        and box.top <= SAFE_TOP + TOLERANCE
    )


def _visible(mobject: Mobject) -> bool:
    if not mobject.has_points():
        return False
    fill = mobject.get_fill_opacity() if hasattr(mobject, "get_fill_opacity") else 1.0
    stroke = mobject.get_stroke_opacity() if hasattr(mobject, "get_stroke_opacity") else 0.0
    stroke_width = mobject.get_stroke_width() if hasattr(mobject, "get_stroke_width") else 0.0
    return fill > 0.01 or (stroke > 0.01 and stroke_width > 0)


def texts_on_screen(mobjects: list[Mobject]) -> list[Mobject]:
    """Every visible text on screen: each ``Text`` and each whole formula, not their glyphs."""
    found: list[Mobject] = []

    def walk(mobject: Mobject) -> None:
        if isinstance(mobject, (Text, SingleStringMathTex, MathTex, Tex)):
            if any(_visible(part) for part in mobject.get_family()):
                found.append(mobject)
            return
        for part in mobject.submobjects:
            walk(part)

    for mobject in mobjects:
        walk(mobject)
    return found


def _font_size(text: Mobject) -> float:
    """``text.font_size``, as manim works it out from the text's height, with the height taken in one pass over the points.

    manim's ``height`` walks the family one submobject at a time (a fifth of a scene build, measured after every
    animation); the highest and lowest of the same points give the same height, and the rest is manim's formula.
    """
    points = [part.points[:, 1] for part in text.get_family() if len(part.points)]
    height = float(np.max([p.max() for p in points]) - np.min([p.min() for p in points])) if points else 0
    if isinstance(text, Text):
        return height / text.initial_height / TEXT_MOB_SCALE_FACTOR * 2.4 * text._font_size / DEFAULT_FONT_SIZE
    return height / text.initial_height / SCALE_FACTOR_PER_FONT_POINT


def glyph_height(text: Mobject) -> float:
    """The height of a capital letter or digit of ``text`` at its current size, in manim units."""
    if isinstance(text, Text):
        return _font_size(text) * TEXT_CAP_PER_POINT
    return _font_size(text) * TEX_CAP_PER_POINT


def describe(text: Mobject) -> str:
    content = getattr(text, "original_text", None) or getattr(text, "tex_string", None) or type(text).__name__
    return repr(" ".join(str(content).split())[:40])


def layout_problems(mobjects: list[Mobject]) -> list[str]:
    """What breaks the layout rule among ``mobjects`` (a scene's ``mobjects`` at one moment)."""
    problems = []
    texts = texts_on_screen(mobjects)
    for text in texts:
        height = glyph_height(text)
        if height < MIN_GLYPH_HEIGHT - 1e-6:
            pixels = height / config.frame_height * 1080
            problems.append(f"too small: {describe(text)} is {pixels:.0f} px tall at 1080p (at least 27)")
    for first, second in _overlapping([_box(text) for text in texts]):
        problems.append(f"overlap: {describe(texts[first])} and {describe(texts[second])}")
    for mobject in mobjects:
        if _inside_safe_area(_box(mobject)):
            continue  # all of it inside, visible or not: no part to look at one by one
        parts = [part for part in mobject.get_family() if _visible(part)]
        for part in parts:
            box = _box(part)
            if not _inside_safe_area(box):
                name = describe(part) if isinstance(part, (Text, SingleStringMathTex)) else type(part).__name__
                problems.append(
                    f"outside the safe area: {name} spans x {box.left:.2f} to {box.right:.2f}, y {box.bottom:.2f} to {box.top:.2f}"
                )
                break
    return problems


CELL_CLEARANCE = 0.05
"""Least gap, in units, between a number's ink and its cell's border line (7 px at 1080p; a border is 2 to 4 px wide)."""


def glyph_clearance_problems(mobjects: list[Mobject], clearance: float = CELL_CLEARANCE) -> list[str]:
    """Numbers whose ink comes closer than ``clearance`` to the border of the cell they are drawn in.

    Walks every :class:`~scenes.kit.tables.NumberGrid` on screen and measures each visible number's
    glyphs (the text's own outline box: its ink, not a box around it) against its cell's rectangle.
    A number moved out of its cell (carried to another picture) is not in a cell and is left out.
    """
    from scenes.kit.tables import NumberGrid

    problems: list[str] = []
    grids: list[NumberGrid] = []

    def walk(mobject: Mobject) -> None:
        if isinstance(mobject, NumberGrid):
            grids.append(mobject)
        for part in mobject.submobjects:
            walk(part)

    for mobject in mobjects:
        walk(mobject)
    for grid in grids:
        for cell, number in zip(grid.cells, grid.numbers):
            if not any(_visible(part) for part in number.get_family()):
                continue
            ink, box = _box(number), _box(cell)
            centre_x, centre_y = (ink.left + ink.right) / 2, (ink.bottom + ink.top) / 2
            if not (box.left < centre_x < box.right and box.bottom < centre_y < box.top):
                continue
            gaps = (ink.left - box.left, box.right - ink.right, ink.bottom - box.bottom, box.top - ink.top)
            if min(gaps) < clearance - 1e-9:
                problems.append(
                    f"glyphs near a border: {describe(number)} is {min(gaps):.3f} from its cell's edge "
                    f"(cell {box.right - box.left:.2f} × {box.top - box.bottom:.2f}, ink {ink.right - ink.left:.2f} × "
                    f"{ink.top - ink.bottom:.2f})"
                )
    return problems
