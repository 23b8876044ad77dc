"""``sections.json``: a render's steps, each with its name, title, caption, lines, start, duration and clip.

A step's ``name`` is its slug (section id, clip file name, anchor); its ``title`` is what people read
wherever the step is named (``Divide by √d_k``), written in the scene by hand.

:func:`read_sections` is the one reader and checker: the gallery, the explorer, the presenter's
writer and the exports all read steps through it, so a damaged file is refused the same way everywhere.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..files import is_inside_path
from .captions import cues_for

__all__ = ["SECTIONS", "SectionsError", "check_steps", "read_sections"]

SECTIONS = "sections.json"


class SectionsError(ValueError):
    """A ``sections.json`` that is not a render's steps; the message says which step and what is wrong."""


def _seconds(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and value >= 0


def check_steps(steps: Any, complete: bool = False) -> list[dict]:
    """``steps`` (as read from ``sections.json``) once checked: a non-empty list of steps with a name, title, caption, start and duration.

    ``complete`` also asks for what a render writes and an export plays: each step's ``index``,
    ``lines`` and clip ``file`` (a path inside the package). Raises :class:`SectionsError`.
    """
    if not isinstance(steps, list) or not steps:
        raise SectionsError("sections.json holds no list of steps")
    for number, step in enumerate(steps, start=1):
        if not isinstance(step, dict) or not isinstance(step.get("name"), str) or not isinstance(step.get("caption"), str):
            raise SectionsError(f"sections.json: step {number} has no name or caption")
        if not isinstance(step.get("title"), str) or not step["title"].strip():
            # Renders made before steps had titles: refused like any other damaged package (render it again).
            raise SectionsError(f"sections.json: step {number} has no title")
        if not _seconds(step.get("start")):
            raise SectionsError(f"sections.json: step {number} has no start time in seconds")
        if not _seconds(step.get("duration")):
            raise SectionsError(f"sections.json: step {number} has no duration in seconds")
        if complete:
            if isinstance(step.get("index"), bool) or not isinstance(step.get("index"), int):
                raise SectionsError(f"sections.json: step {number} has no index")
            if not isinstance(step.get("lines"), list):
                raise SectionsError(f"sections.json: step {number} has no lines")
            if not is_inside_path(step.get("file")):
                raise SectionsError(f"sections.json: step {number} has no clip file inside the package")
    try:
        cues_for(steps)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise SectionsError("sections.json: a step's lines have no text, start or end") from None
    return steps


def read_sections(folder: Path, complete: bool = False) -> list[dict]:
    """The checked steps of the package in ``folder`` (see :func:`check_steps`); :class:`SectionsError` when unreadable."""
    path = Path(folder) / SECTIONS
    try:
        steps = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SectionsError(f"sections.json ({path}) cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise SectionsError(f"sections.json ({path}) is not UTF-8 text") from None
    except ValueError as error:
        raise SectionsError(f"sections.json ({path}) is not valid JSON: {error}") from None
    return check_steps(steps, complete)
