"""The base of every trace: frozen numpy fields, JSON, and paths that name what a scene shows.

A trace is a frozen dataclass of numpy arrays (made read-only) and plain values.
Scenes read traces and never compute attention maths themselves; tests compare
what a scene draws with its trace; ``to_json`` hands the same numbers out as a
file beside the video.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Trace", "lookup"]


def _to_jsonable(value: Any) -> Any:
    """Arrays to nested lists; infinities to the strings "inf"/"-inf" (JSON has no infinity)."""
    if isinstance(value, np.ndarray):
        return _to_jsonable(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (np.floating, float)):
        value = float(value)
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


@dataclass(frozen=True, eq=False)
class Trace:
    """Base class: freezes array fields and serialises to JSON."""

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray):
                value = value.copy()
                value.setflags(write=False)
                object.__setattr__(self, field.name, value)

    @property
    def settings(self) -> dict[str, Any]:
        """The plain (non-array) fields: seeds, sizes, tokens, sources; what a manifest records."""
        return {
            field.name: _to_jsonable(getattr(self, field.name))
            for field in dataclasses.fields(self)
            if not isinstance(getattr(self, field.name), np.ndarray)
        }

    def to_dict(self) -> dict[str, Any]:
        """All fields, JSON-ready, plus the trace's kind."""
        data = {"kind": type(self).__name__}
        for field in dataclasses.fields(self):
            data[field.name] = _to_jsonable(getattr(self, field.name))
        return data

    def to_json(self) -> str:
        """The trace as strict JSON text (no NaN or Infinity literals)."""
        return json.dumps(self.to_dict(), indent=1, allow_nan=False, ensure_ascii=False)


_PATH = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:\[(?P<index>[^\]]*)\])?$")


def lookup(trace: Trace, path: str) -> np.ndarray:
    """The values at ``path`` in ``trace``: a field name, optionally indexed numpy-style.

    ``"weights"``, ``"weights[1]"``, ``"weights[1, 2]"``, ``"hist_edges[0]"`` and
    ``"focus_terms[:, 0]"`` are paths. Scenes name what they show by such a path,
    and tests read the same path to check what was drawn.
    """
    match = _PATH.match(path.replace(" ", ""))
    if not match or not hasattr(trace, match["name"]):
        raise KeyError(f"{type(trace).__name__} has no field for path {path!r}")
    value = np.asarray(getattr(trace, match["name"]))
    if match["index"] is None:
        return value
    index = []
    for part in match["index"].split(","):
        if ":" in part:
            index.append(slice(*[int(p) if p else None for p in part.split(":")]))
        else:
            index.append(int(part))
    return value[tuple(index)]
