"""The interactive explorer: every matrix of a render's trace as a heatmap with its numbers, beside the video.

``explore.html`` is built from the package's own ``trace.json`` and ``sections.json``, read back and
validated. What it shows comes from the trace's structure, not from a table per scene:

- every array of numbers is a heatmap table with each value printed in its cell;
- an axis is labelled with the trace's tokens when a list of words has its length (a list sharing part
  of the array's name first: ``weights_a`` with ``sentence_a``, ``contrast_weights`` with
  ``contrast_tokens``; rows prefer query tokens, columns key tokens);
- the leading axes of 3-D and 4-D arrays are picked with a selector, named ``head`` or ``layer`` when the
  trace's ``n_heads`` or ``n_layers`` has their length;
- an array named ``*weight*`` whose rows are probability distributions (non-negative, summing to 1)
  with tokens on both axes is *attention weights*: hovering or focusing a query token shows its row
  as bars with their numbers.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from attention_style import DARK, Palette

from ..files import write_atomic
from ..package.captions import cues_for
from ..package.sections import SectionsError, check_steps
from .fields import field_descriptions
from .templating import render_page

__all__ = ["ExplorerError", "ExplorerField", "read_trace", "trace_fields", "explorer_data", "explorer_page", "write_explorer"]

ROW_SUM_TOLERANCE = 1e-6
"""How far from 1 a row of attention weights may sum (softmax in float64 is far closer)."""

OPEN_CELLS = 64
"""Arrays with at most this many cells per table are shown open; larger ones open on a click."""

INFINITIES = {"inf": math.inf, "-inf": -math.inf}
"""How ``trace.json`` writes infinities (JSON has none): a masked score is ``"-inf"``."""


class ExplorerError(ValueError):
    """A ``trace.json`` or ``sections.json`` the explorer cannot show; the message says which file and what is wrong."""


@dataclass
class ExplorerField:
    """One array of a trace, with what the page needs to draw it.

    Attributes
    ----------
    name
        The trace's field name.
    kind
        ``"numbers"``, ``"flags"`` (booleans) or ``"text"``.
    shape
        The array's shape.
    values
        The nested lists as read (infinities as ``"inf"``/``"-inf"``).
    decimals
        Decimals each number is printed with.
    low, high
        The colour map's ends: the array's smallest and largest finite values.
    rows, columns
        Token labels of the last two axes (``rows`` is ``None`` for a 1-D array), or ``None`` for indices.
    leading
        One selector per leading axis: its ``name`` (``"head"``, ``"layer"``...), ``labels`` and ``default``.
    attention
        Attention weights with tokens on both axes: the page's hover and focus view.
    distribution
        A 1-D array of weights summing to 1, drawn as bars under its table.
    description
        What the trace class's docstring says of the field (see :mod:`.fields`).
    """

    name: str
    kind: str
    shape: tuple[int, ...]
    values: Any
    decimals: int = 0
    low: float = 0.0
    high: float = 1.0
    rows: list[str] | None = None
    columns: list[str] | None = None
    leading: list[dict] = field(default_factory=list)
    attention: bool = False
    distribution: bool = False
    description: str = ""


def read_json(path: Path, what: str) -> Any:
    """The JSON in ``path``, or an :class:`ExplorerError` naming ``what`` and why it cannot be read."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ExplorerError(f"{what} ({path}) cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ExplorerError(f"{what} ({path}) is not UTF-8 text") from None
    except ValueError as error:
        raise ExplorerError(f"{what} ({path}) is not valid JSON: {error}") from None


def read_trace(path: Path) -> dict[str, Any]:
    """A package's ``trace.json``, validated (see :func:`trace_fields`)."""
    trace = read_json(path, "trace.json")
    trace_fields(trace)
    return trace


def _shape_and_kind(name: str, value: list) -> tuple[tuple[int, ...], str]:
    """The shape of a nested list and what its leaves are; a ragged or mixed one is an :class:`ExplorerError`."""
    shape = []
    level = [value]
    while level and all(isinstance(item, list) for item in level):
        lengths = {len(item) for item in level}
        if len(lengths) != 1:
            raise ExplorerError(f"trace.json: field {name!r} is ragged (rows of {', '.join(map(str, sorted(lengths)))} items)")
        shape.append(lengths.pop())
        level = [leaf for item in level for leaf in item]
    if any(isinstance(item, list) for item in level):
        raise ExplorerError(f"trace.json: field {name!r} mixes lists and single values at depth {len(shape)}")
    if all(isinstance(item, bool) for item in level):
        return tuple(shape), "flags"
    if all(_is_number(item) for item in level):
        return tuple(shape), "numbers"
    if all(isinstance(item, str) for item in level):
        return tuple(shape), "text"
    for item in level:
        if not (_is_number(item) or isinstance(item, (str, bool))):
            raise ExplorerError(f"trace.json: field {name!r} holds {item!r}, which is not a finite number, a flag or text")
    raise ExplorerError(f"trace.json: field {name!r} mixes numbers, flags and text")


def _is_number(item: Any) -> bool:
    if isinstance(item, bool):
        return False
    if isinstance(item, int):
        return True
    if isinstance(item, float):
        return math.isfinite(item)
    return isinstance(item, str) and item in INFINITIES


def trace_fields(trace: Any) -> tuple[dict[str, Any], list[ExplorerField]]:
    """Split a trace read from JSON into its single values and its arrays, checking every one.

    Raises
    ------
    ExplorerError
        When the trace is not an object with a ``kind``, or an array is ragged, mixes kinds or holds
        something that is not a finite number (``"inf"``/``"-inf"`` allowed), a flag or text.
    """
    if not isinstance(trace, dict):
        raise ExplorerError(f"trace.json holds a {type(trace).__name__}, not an object of named fields")
    if not isinstance(trace.get("kind"), str) or not trace["kind"]:
        raise ExplorerError("trace.json has no 'kind' (the trace's type)")
    scalars: dict[str, Any] = {}
    arrays: list[ExplorerField] = []
    for name, value in trace.items():
        if name == "kind" or value is None:
            continue
        if isinstance(value, list):
            shape, kind = _shape_and_kind(name, value)
            if 0 not in shape:
                arrays.append(ExplorerField(name, kind, shape, value))
        elif isinstance(value, bool) or isinstance(value, str) or _is_number(value):
            scalars[name] = value
        else:
            raise ExplorerError(
                f"trace.json: field {name!r} holds {value!r}, which is not a finite number, a flag, text or a list"
            )
    return scalars, arrays


def _flat(values: Any) -> list:
    return [leaf for item in values for leaf in _flat(item)] if isinstance(values, list) else [values]


def _number(item: Any) -> float:
    return INFINITIES[item] if isinstance(item, str) else float(item)


def _name_parts(name: str) -> set[str]:
    """The words of a field's name, singular: ``contrast_tokens`` -> {"contrast", "token"}."""
    return {part[:-1] if part.endswith("s") and len(part) > 2 else part for part in name.lower().split("_") if part}


DEFAULT_LABELS = {"rows": ("query_tokens", "tokens", "key_tokens"), "columns": ("key_tokens", "tokens", "query_tokens")}
"""Token lists that label any axis of their length; others label only arrays sharing part of their name."""


def _labels_for(name: str, size: int, axis: str, token_lists: dict[str, list[str]]) -> list[str] | None:
    """The token list that labels an axis of ``size`` of the array ``name`` (see the module's docstring)."""
    candidates = [(list_name, tokens) for list_name, tokens in token_lists.items() if len(tokens) == size and list_name != name]
    generic = {"token", "tokens", "weight", "score", "query", "key", "value"}
    own = _name_parts(name) - generic
    for list_name, tokens in candidates:
        if own & (_name_parts(list_name) - generic):
            return tokens
    for default in DEFAULT_LABELS[axis]:
        for list_name, tokens in candidates:
            if list_name == default:
                return tokens
    return None


def _leading_axis(size: int, scalars: dict[str, Any], token_lists: dict[str, list[str]], rows_name: str) -> dict:
    """How to pick along a leading axis: by head or layer (1-based, as people count them), by token, or by index."""
    for count_name, value in scalars.items():
        if count_name.startswith("n_") and value == size and not isinstance(value, bool):
            unit = count_name[2:].rstrip("s") or "index"
            # The trace's own pick (trained-heads names its layer and head, counted from 0) is shown first.
            chosen = scalars.get(unit)
            default = chosen if isinstance(chosen, int) and not isinstance(chosen, bool) and 0 <= chosen < size else 0
            return {"name": unit, "labels": [f"{unit} {k + 1}" for k in range(size)], "default": default}
    tokens = _labels_for(rows_name, size, "rows", token_lists)
    if tokens is not None:
        return {"name": "token", "labels": [f"{k + 1}: {token}" for k, token in enumerate(tokens)], "default": 0}
    return {"name": "index", "labels": [str(k) for k in range(size)], "default": 0}


def _decimals(numbers: list[float], integers: bool) -> int:
    """Decimals to print: none for counts, two for most values, fewer for large ones, more for tiny ones."""
    finite = [abs(x) for x in numbers if math.isfinite(x)]
    if integers or not finite:
        return 0
    largest = max(finite)
    if largest >= 1000:
        return 0
    if largest >= 100:
        return 1
    if 1e-6 <= largest < 0.1:  # below that, float rounding around 0: two decimals show 0.00
        return 1 - math.floor(math.log10(largest))
    return 2


def _is_attention(array: ExplorerField) -> bool:
    """Whether ``array`` is attention weights: named so, tokens on both axes, each row a probability distribution."""
    return len(array.shape) >= 2 and array.rows is not None and array.columns is not None and _is_distribution(array)


def _is_distribution(array: ExplorerField) -> bool:
    """Whether ``array`` is named as weights and each of its rows is non-negative and sums to 1."""
    if array.kind != "numbers" or "weight" not in array.name.lower():
        return False
    width = array.shape[-1]
    flat = [_number(x) for x in _flat(array.values)]
    for start in range(0, len(flat), width):
        row = flat[start : start + width]
        if any(not math.isfinite(x) or x < 0 for x in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
            return False
    return True


def explorer_fields(trace: dict[str, Any]) -> tuple[dict[str, Any], list[ExplorerField]]:
    """The trace's single values and its arrays, each array labelled, scaled and marked as attention or not."""
    scalars, arrays = trace_fields(trace)
    token_lists = {a.name: list(a.values) for a in arrays if a.kind == "text" and len(a.shape) == 1}
    descriptions = field_descriptions(trace["kind"])
    for array in arrays:
        array.description = descriptions.get(array.name, "")
        if array.kind == "text" and len(array.shape) == 1:
            continue
        if len(array.shape) >= 2:
            array.rows = _labels_for(array.name, array.shape[-2], "rows", token_lists)
        array.columns = _labels_for(array.name, array.shape[-1], "columns", token_lists)
        array.leading = [_leading_axis(size, scalars, token_lists, array.name) for size in array.shape[:-2]]
        if array.kind == "numbers":
            flat = _flat(array.values)
            numbers = [_number(x) for x in flat]
            finite = [x for x in numbers if math.isfinite(x)] or [0.0]
            array.decimals = _decimals(numbers, all(isinstance(x, int) for x in flat))
            array.low, array.high = min(finite), max(finite)
            array.attention = _is_attention(array)
            array.distribution = len(array.shape) == 1 and _is_distribution(array)
        elif array.kind == "flags":
            array.low, array.high = 0.0, 1.0
    return scalars, arrays


def _steps(sections: Any) -> list[dict]:
    """The steps of ``sections.json`` the page lists (number, title, caption, start), checked (see :func:`..package.sections.check_steps`)."""
    try:
        check_steps(sections)
    except SectionsError as error:
        raise ExplorerError(str(error)) from None
    steps = []
    for number, step in enumerate(sections, start=1):
        minutes, seconds = divmod(int(step["start"]), 60)
        steps.append(
            {
                "number": number,
                "title": step["title"],
                "caption": step["caption"],
                "start": step["start"],
                "clock": f"{minutes}:{seconds:02d}",
            }
        )
    return steps


def _cues(sections: list) -> list[dict]:
    """The captions as cues for the page to add itself (browsers refuse a ``<track>`` file opened from disk)."""
    return [asdict(cue) for cue in cues_for(sections)]


def explorer_data(trace: dict[str, Any], theme: Palette = DARK) -> dict[str, Any]:
    """What the page's script draws: every array with its labels and scale, the colour map, which arrays are attention."""
    scalars, arrays = explorer_fields(trace)
    shown = [a for a in arrays if not (a.kind == "text" and len(a.shape) == 1)]
    focus = scalars.get("focus")
    return {
        "colormap": list(theme.colormap),
        # The query the video walks through is the one shown first.
        "focus": focus if isinstance(focus, int) and not isinstance(focus, bool) else 0,
        "fields": [
            {
                "name": a.name,
                "kind": a.kind,
                "shape": list(a.shape),
                "values": a.values,
                "decimals": a.decimals,
                "low": a.low,
                "high": a.high,
                "rows": a.rows,
                "columns": a.columns,
                "leading": a.leading,
                "attention": a.attention,
                "distribution": a.distribution,
                "description": a.description,
                "open": math.prod(a.shape[-2:]) <= OPEN_CELLS or a.attention,
            }
            for a in shown
        ],
        "panels": _panels(shown),
    }


def _panels(arrays: list[ExplorerField]) -> list[list[int]]:
    """Which arrays share a table: neighbours of one length and labels (``scale_heads``, ``scale_layers``...), one row each.

    A row of weights keeps a panel of its own, where its bars are drawn.
    """
    panels: list[list[int]] = []
    for index, array in enumerate(arrays):
        previous = arrays[panels[-1][-1]] if panels else None
        if (
            previous is not None
            and len(array.shape) == 1
            and array.kind != "text"
            and not array.distribution
            and len(previous.shape) == 1
            and previous.kind != "text"
            and not previous.distribution
            and array.shape == previous.shape
            and array.columns == previous.columns
        ):
            panels[-1].append(index)
        else:
            panels.append([index])
    return panels


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def explorer_page(
    trace: dict[str, Any],
    sections: Any,
    title: str,
    video: str,
    about: str = "",
    theme: Palette = DARK,
    webm: str | None = None,
    links: list[tuple[str, str]] = (),
) -> str:
    """The explorer page of one render: ``trace`` and ``sections`` as read from its JSON files, its video's file name.

    ``links`` are ``(href, text)`` pairs to the package's other pages.
    """
    steps = _steps(sections)
    scalars, arrays = explorer_fields(trace)
    token_lists = [(a.name, a.values) for a in arrays if a.kind == "text" and len(a.shape) == 1]
    return render_page(
        "explore.html",
        title=title,
        about=about,
        video=video,
        webm=webm,
        links=list(links),
        steps=steps,
        cues=_cues(sections),
        settings=[(name, _scalar_text(value)) for name, value in scalars.items()],
        token_lists=token_lists,
        kind=trace["kind"],
        data=explorer_data(trace, theme),
        theme=theme,
    )


def write_explorer(package: Path, scene: str, title: str, about: str = "", theme: Palette = DARK) -> Path:
    """Write ``explore.html`` into ``package`` from its ``trace.json`` and ``sections.json`` (both validated)."""
    package = Path(package)
    trace = read_trace(package / "trace.json")
    sections = read_json(package / "sections.json", "sections.json")
    webm = f"{scene}.webm" if (package / f"{scene}.webm").is_file() else None
    links = [(href, text) for href, text in PAGE_LINKS if (package / href).is_file()]
    page = explorer_page(trace, sections, title, f"{scene}.mp4", about, theme, webm, links)
    return write_atomic(package / "explore.html", page)


PAGE_LINKS = (
    ("present.html", "Step-through presenter"),
    ("worksheet.html", "Worksheet"),
    ("transcript.txt", "Transcript"),
    ("trace.json", "All numbers (trace.json)"),
)
"""The package's other files the explorer links to, when they are there (written before it)."""
