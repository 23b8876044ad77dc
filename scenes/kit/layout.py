"""Where things go on the frame: its safe area and named regions, in manim units.

The frame is 14.22 units wide (x from -7.11 to 7.11) and 8 tall (y from -4 to 4). Everything
stays inside the safe area, the frame less 5 % of its width and height on each side (what
broadcast calls action-safe: a projector or a player's controls may hide the rest). Scenes
place and size things against these names instead of repeating coordinates: a :class:`Region`
and the helpers that place in one (:func:`pin`, :func:`keep_inside`, :func:`shrink_to_fit`,
:func:`align_to_cells`, :func:`center_between`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Mobject

M = TypeVar("M", bound=Mobject)

__all__ = [
    "Region",
    "SAFE_AREA",
    "CONTENT",
    "BODY",
    "BODY_TOP",
    "keep_inside",
    "shrink_to_fit",
    "pin",
    "align_to_cells",
    "center_between",
    "center_in",
    "hang_from",
    "HEADING_LINE",
    "SAFE_LEFT",
    "SAFE_RIGHT",
    "SAFE_TOP",
    "SAFE_BOTTOM",
    "LEFT_EDGE",
    "RIGHT_EDGE",
    "CONTENT_WIDTH",
    "HEADING_WIDTH",
    "NOTE_WIDTH",
    "CAPTION_WIDTH",
]

FRAME_WIDTH = 8.0 * 16 / 9
FRAME_HEIGHT = 8.0

SAFE_RIGHT = FRAME_WIDTH / 2 - 0.05 * FRAME_WIDTH
"""The furthest right anything may reach: 6.4 (the frame ends at 7.11)."""

SAFE_LEFT = -SAFE_RIGHT
SAFE_TOP = FRAME_HEIGHT / 2 - 0.05 * FRAME_HEIGHT
"""The highest anything may reach: 3.6 (the frame ends at 4)."""

SAFE_BOTTOM = -SAFE_TOP

RIGHT_EDGE = SAFE_RIGHT - 0.02
"""Where scenes put their rightmost things (a hair inside the safe area)."""

LEFT_EDGE = SAFE_LEFT + 0.02
"""Where scenes put their leftmost things."""

CONTENT_WIDTH = RIGHT_EDGE - LEFT_EDGE
"""The width between the edges."""

HEADING_WIDTH = 12.7
"""Widest a heading gets (the frame less its margins); a longer one shrinks to it."""

NOTE_WIDTH = 12.7
"""Widest a note line at the bottom of the frame gets."""

CAPTION_WIDTH = 12.5
"""Widest a line of explanation at the bottom of the frame gets."""


@dataclass(frozen=True)
class Region:
    """A rectangle of the frame that things are placed in, kept inside and shrunk to: ``left < right``, ``bottom < top``.

    Scenes name the regions they use (``layout.BODY``, a chart's plot area) and place against
    their edges, so a picture reads as "under the heading, right half" instead of coordinates.
    """

    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def center(self) -> np.ndarray:
        return np.array([(self.left + self.right) / 2, (self.bottom + self.top) / 2, 0.0])

    def keep_inside(self, mobject: M) -> M:
        """Shift ``mobject`` the least that brings it inside (see :func:`keep_inside`)."""
        return keep_inside(mobject, left=self.left, right=self.right, top=self.top, bottom=self.bottom)

    def shrink_to_fit(self, mobject: M) -> M:
        """Scale ``mobject`` down, never up, until it fits the region's width and height."""
        return shrink_to_fit(mobject, self.width, self.height)

    def pin(self, mobject: M, edge: np.ndarray, y: float | None = None) -> M:
        """Put ``mobject`` against the region's ``edge`` (``LEFT``, ``RIGHT``, ``UP``, ``DOWN`` or a corner).

        ``y`` keeps the height given instead (for a left or right edge): a tag on the heading's line.
        """
        return pin(mobject, edge, self, y)


SAFE_AREA = Region(SAFE_LEFT, SAFE_RIGHT, SAFE_BOTTOM, SAFE_TOP)
"""All of the frame anything may reach."""

CONTENT = Region(LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM, SAFE_TOP)
"""The safe area a hair in from its sides, where scenes put their leftmost and rightmost things."""

HEADING_LINE = SAFE_TOP - 0.35
"""The middle of the heading's line: where a tag right of the heading (``d = 4``) sits."""

BODY_TOP = 2.75
"""The top of a step's picture: the heading's line and a line of names above it stay free."""

BODY = Region(LEFT_EDGE, RIGHT_EDGE, SAFE_BOTTOM, BODY_TOP)
"""Under the heading, across the content's width: where a step draws its picture."""


def keep_inside(
    mobject: M,
    left: float | None = LEFT_EDGE,
    right: float | None = RIGHT_EDGE,
    top: float | None = None,
    bottom: float | None = None,
) -> M:
    """Shift ``mobject`` the least that keeps it within the edges given (None leaves a side free).

    A teacher's long word makes a picture wider than planned: it slides back inside instead of
    leaving the frame. Each side is one shift, left first, then right, top, bottom: a picture
    wider than the room ends against its right edge.
    """
    if left is not None:
        mobject.shift(RIGHT * max(0.0, left - mobject.get_left()[0]))
    if right is not None:
        mobject.shift(LEFT * max(0.0, mobject.get_right()[0] - right))
    if top is not None:
        mobject.shift(DOWN * max(0.0, mobject.get_top()[1] - top))
    if bottom is not None:
        mobject.shift(UP * max(0.0, bottom - mobject.get_bottom()[1]))
    return mobject


def shrink_to_fit(mobject: M, width: float, height: float | None = None) -> M:
    """Scale ``mobject`` down, never up, to at most ``width`` wide (and ``height`` tall)."""
    if mobject.width > width:
        mobject.scale_to_fit_width(width)
    if height is not None and mobject.height > height:
        mobject.scale_to_fit_height(height)
    return mobject


def pin(mobject: M, edge: np.ndarray, region: Region = CONTENT, y: float | None = None) -> M:
    """Put ``mobject`` inside ``region`` against its ``edge`` (a direction such as ``RIGHT`` or ``UL``).

    Along an axis the edge does not name, the mobject stays where it is (or goes to height ``y``).
    """
    x, y_now, _ = mobject.get_center()
    if edge[0] > 0:
        x = region.right - mobject.width / 2
    elif edge[0] < 0:
        x = region.left + mobject.width / 2
    if y is not None:
        y_now = y
    elif edge[1] > 0:
        y_now = region.top - mobject.height / 2
    elif edge[1] < 0:
        y_now = region.bottom + mobject.height / 2
    return mobject.move_to([x, y_now, 0])


def align_to_cells(mobject: M, cells: Mobject, left: float, top: float) -> M:
    """Shift ``mobject`` so that the top-left corner of its ``cells`` (a grid's cells) is at (``left``, ``top``)."""
    corner = cells.get_corner(UP + LEFT)
    return mobject.shift(RIGHT * (left - corner[0]) + UP * (top - corner[1]))


def center_between(mobject: M, above: Mobject, below: Mobject, gap_above: float = 0.3, gap_below: float = 0.25) -> M:
    """Centre ``mobject`` across the frame, halfway down the room between ``above`` and ``below`` (a heading, a note).

    The room starts ``gap_above`` under ``above``'s bottom and ends ``gap_below`` over ``below``'s top.
    """
    return mobject.move_to([0, (above.get_bottom()[1] - gap_above + below.get_top()[1] + gap_below) / 2, 0])


def center_in(mobject: M, region: Region, y: float | None = None) -> M:
    """Centre ``mobject`` in ``region``, or across it at height ``y`` when given (a picture beside a row)."""
    center = region.center
    return mobject.move_to([center[0], center[1] if y is None else y, 0])


def hang_from(mobject: M, top: float, region: Region = CONTENT) -> M:
    """Centre ``mobject`` across ``region`` with its top at ``top`` (a row under the heading, a grid under a row)."""
    return mobject.move_to([region.center[0], top - mobject.height / 2, 0])
