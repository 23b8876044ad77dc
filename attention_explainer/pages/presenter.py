"""The step-through presenter: plays one step, stops at its end, waits for a key; in quiz mode, asks its questions."""

from __future__ import annotations

from pathlib import Path

from attention_style import DARK, Palette

from ..files import write_atomic
from .templating import render_page

__all__ = ["write_presenter"]


def write_presenter(
    package: Path,
    title: str,
    sections: list[dict],
    about: str = "",
    narrated: bool = False,
    theme: Palette = DARK,
    questions: list[dict] | None = None,
) -> Path:
    """Write ``present.html`` into ``package`` from its sections (title, caption and clip of each step).

    ``about`` says what the render shows, with its inputs as rendered (see :func:`.templating.about_render`).
    A ``narrated`` render's clips play with their sound (M mutes and unmutes); a silent one's play muted.
    The page takes the render's ``theme``, so a light render is shown on a light page.
    ``questions`` (``questions.json``'s, checked) are asked in quiz mode (Q): when a step's clip
    ends, its questions open one by one in a dialog (a form: a labelled field or radio buttons,
    Answer, Skip; after the feedback, Continue or Enter goes on to the next step).
    """
    # "name" is what a question's "step" refers to; "title" is what the page shows.
    steps = [{"name": s["name"], "title": s["title"], "caption": s["caption"], "file": s["file"]} for s in sections]
    return write_atomic(
        package / "present.html",
        render_page(
            "presenter.html", title=title, about=about, steps=steps, theme=theme, narrated=narrated, questions=questions or []
        ),
    )
