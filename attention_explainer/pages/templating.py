"""The Jinja2 environment every page is rendered with: autoescaping, and JSON safe inside ``<script>``."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

__all__ = ["render_page", "render_from", "script_json", "about_render", "TEMPLATES"]

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The page templates; the package hash covers every file of this package (see :mod:`..pipeline.freshness`)."""

# Inside <script>, "</script>" ends the element and "<!--" opens a comment whatever the JSON
# means; U+2028 and U+2029 end a line in older JavaScript. As \u escapes they are plain data.
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: Any) -> Markup:
    """``value`` as JSON that can sit inside a ``<script>`` element whatever strings it holds."""
    text = json.dumps(value, ensure_ascii=False)
    return Markup("".join(_SCRIPT_ESCAPES.get(character, character) for character in text))


@lru_cache(maxsize=4)
def _environment(templates: tuple[Path, ...]) -> Environment:
    environment = Environment(
        loader=FileSystemLoader(list(templates)),
        autoescape=select_autoescape(["html"], default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    environment.filters["script_json"] = script_json
    return environment


INPUT_NAMES = {"sentence": "sentence", "token": "query token", "seed": "random seed", "d_model": "d_model", "heads": "heads"}


WORD_INPUTS = ("sentence", "token")


def _as_written(name: str, value: str) -> str:
    """An input as a reader takes it: words in quotes, a number (seed, size) as a plain number."""
    return f"“{value}”" if name in WORD_INPUTS else value


def about_render(scene_class, trace) -> str:
    """What a render shows, as rendered: the scene's description and the inputs its trace was built from.

    A teacher's sentence, seed and sizes appear here instead of the defaults', e.g.
    ``"Dogs chase cats": scores, ... weights — sentence “Dogs chase cats”, random seed 7.``
    It is one sentence ending in a full stop, whatever it ends with (a quoted input), so what a
    page adds after it starts a sentence of its own.
    """
    inputs = ", ".join(
        f"{INPUT_NAMES.get(name, name)} {_as_written(name, value)}" for name, value in scene_class.inputs_as_rendered(trace)
    )
    description = " ".join(scene_class.describe(trace).split())
    if inputs:
        # The description's own full stop would sit before the dash: the inputs end the sentence instead.
        description = f"{description.removesuffix('.')} — {inputs}"
    return description if description.endswith((".", "!", "?", "…")) else description + "."


def render_page(template: str, **context: Any) -> str:
    """Render one of the templates in ``templates/`` with ``context``."""
    return render_from((TEMPLATES,), template, **context)


def render_from(folders: tuple[Path, ...], template: str, **context: Any) -> str:
    """Render ``template``, looked up in ``folders`` in order, with ``context`` (an export's page with the pages' style)."""
    return _environment(tuple(folders)).get_template(template).render(**context)
