"""Printable worksheets: a scene's exercises on the very numbers its video shows, with an answer key.

The exercises themselves (:mod:`.exercises`) are built from the scene's trace: the given numbers and the
answers are both read from it, so the handout, the video, the questions and ``trace.json`` agree.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from attention_math import Trace
from attention_style import LIGHT, format_number

from ..files import write_atomic
from .exercises import Exercise, Table, exercises_for
from .templating import about_render, render_page

__all__ = ["Table", "Exercise", "exercises_for", "worksheet_page", "write_worksheet"]


def _cells(table: Table) -> list[list[str]]:
    """The table's numbers as shown: the trace values rounded to the table's decimals."""
    return [[format_number(v, table.decimals) for v in row] for row in np.atleast_2d(table.values)]


def worksheet_page(scene_class, trace: Trace) -> str:
    """The printable worksheet of ``scene_class`` for ``trace``, as HTML.

    Raises
    ------
    LookupError
        When the scene's trace kind has no exercises yet.
    """
    exercises = exercises_for(trace)
    if not exercises:
        raise LookupError(f"the {scene_class.name} scene has no worksheet exercises yet")

    def table(t: Table) -> dict:
        return {"caption": t.caption, "rows": t.rows, "columns": t.columns, "cells": _cells(t)}

    return render_page(
        "worksheet.html",
        title=scene_class.title,
        description=about_render(scene_class, trace),
        source=getattr(trace, "source", "") or scene_class.sources,
        exercises=[
            {"question": e.question, "note": e.note, "given": [table(t) for t in e.given], "answer": [table(t) for t in e.answer]}
            for e in exercises
        ],
        theme=LIGHT,
    )


def write_worksheet(scene_class, trace: Trace, target: Path) -> Path:
    """Write the printable worksheet of ``scene_class`` for ``trace`` to ``target`` (see :func:`worksheet_page`)."""
    return write_atomic(target, worksheet_page(scene_class, trace))
