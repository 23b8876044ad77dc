"""What each field of a trace means, for the explorer: data in ``fields.json``, not read from docstrings at run time.

``fields.json`` maps a trace's kind (its class name) to its fields' descriptions, taken from the
numpy-style ``Attributes`` sections of the trace classes in :mod:`attention_math`. It is written by
``python -m attention_explainer.pages.fields`` after a trace's docstring changes;
``tests/test_explorer.py`` fails while it differs from the docstrings. The explorer reads only the
file, so writing a page never imports the maths, and the package hash covers the descriptions it shows.
"""

from __future__ import annotations

import inspect
import json
import re
from functools import lru_cache
from pathlib import Path

from ..files import write_atomic

__all__ = ["FIELDS", "field_descriptions", "describe_traces", "write_fields"]

FIELDS = Path(__file__).resolve().parent / "fields.json"


@lru_cache(maxsize=1)
def _descriptions() -> dict[str, dict[str, str]]:
    try:
        data = json.loads(FIELDS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        kind: {name: text for name, text in fields.items() if isinstance(text, str)}
        for kind, fields in data.items()
        if isinstance(fields, dict)
    }


def field_descriptions(kind: str) -> dict[str, str]:
    """Each field's description for a trace of ``kind`` (empty for a kind ``fields.json`` does not know)."""
    return dict(_descriptions().get(kind, {}))


def _attributes(trace_class: type) -> dict[str, str]:
    """A trace class's fields and what its ``Attributes`` sections say of them, its bases' first."""
    descriptions: dict[str, str] = {}
    # A subclass (the mask traces extend AttentionTrace) documents only its own fields: its bases' come first.
    for cls in reversed(trace_class.__mro__):
        text = (cls.__dict__.get("__doc__") or "").split("Attributes\n    ----------\n", 1)
        if len(text) < 2:
            continue
        names: list[str] = []
        for line in text[1].splitlines():
            if line.startswith("        "):
                for name in names:
                    descriptions[name] = f"{descriptions.get(name, '')} {line.strip()}".strip()
            elif line.startswith("    ") and line.strip():
                names = [name.strip() for name in line.split(",")]
                for name in names:
                    descriptions[name] = ""
            elif line.strip():
                break
    # The docstrings' reStructuredText: ``code`` and :func:`names` read as plain text.
    return {name: re.sub(r":\w+:`~?\.?([^`]+)`", r"\1", text.replace("``", "")) for name, text in descriptions.items()}


def describe_traces() -> dict[str, dict[str, str]]:
    """Every trace class of :mod:`attention_math` by kind, with its fields' descriptions from its docstrings."""
    import attention_math

    classes = [getattr(attention_math, name) for name in dir(attention_math)]
    return {
        cls.__name__: _attributes(cls)
        for cls in sorted((c for c in classes if inspect.isclass(c) and hasattr(c, "to_json")), key=lambda c: c.__name__)
    }


def write_fields() -> Path:
    """Write ``fields.json`` from the trace classes' docstrings."""
    text = json.dumps(describe_traces(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    _descriptions.cache_clear()
    return write_atomic(FIELDS, text)


if __name__ == "__main__":
    print(write_fields())
