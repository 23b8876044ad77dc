"""A test build's third shortcut: a new ``Text`` built from glyphs parsed once per process (:func:`glyphs_parsed_once`).

Only for builds without video (:func:`tests.helpers.build_without_video`); each run,
``tests/test_build_shortcuts.py`` checks that every kind of text the scenes draw comes out as manim's own parse.
"""

from __future__ import annotations

import copy
import enum
import io
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePath
from xml.etree import ElementTree

import numpy as np
import svgelements
from manim import RIGHT, MarkupText, SVGMobject, Text, VGroup, config
from manim.constants import RendererType
from manim.utils.color import ManimColor

__all__ = ["CHECKED_WITH", "glyphs_parsed_once", "parsing_versions"]

_SVG_NAMESPACE = "{http://www.w3.org/2000/svg"
_HREFS = ("{http://www.w3.org/1999/xlink}href", "href")  # svgelements reads both, the second winning
_PAINT = frozenset(
    ("fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-width")
    + ("stroke-linecap", "stroke-linejoin", "stroke-miterlimit")
)
"""The style properties a Pango drawing may set (a drawing with any other, ``display`` or ``transform`` say, is left to manim)."""
_ATTRIBUTES = {
    "svg": frozenset(),
    "g": frozenset(),
    "defs": frozenset(),
    "symbol": frozenset({"overflow"}),
    "path": frozenset({"d"}),
    "use": frozenset({"x", "y", *_HREFS}),
}
"""The elements of a Pango drawing and their attributes besides ``id``, ``style`` and :data:`_PAINT`."""
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)")
IMMUTABLE = (int, float, str, type(None), enum.Enum, PurePath, np.generic)
"""Values a copy of a mobject may share with it, as ``copy.deepcopy`` shares them: they cannot change."""


CHECKED_WITH = {"manim": "0.22.0", "svgelements": "1.9.6"}
"""The versions whose parsing :func:`glyphs_parsed_once` follows, checked bit for bit; with any other, every drawing
is left to manim (and ``test_glyphs_parsed_once_makes_every_text_as_manim_does`` fails until it is checked again)."""


def parsing_versions() -> dict[str, str]:
    """The versions of manim and svgelements this process runs."""
    import manim

    return {"manim": manim.__version__, "svgelements": svgelements.SVGELEMENTS_VERSION}


class _NotPango(Exception):
    """A drawing, or a glyph in it, that :func:`glyphs_parsed_once` leaves to manim."""


class _Glyph:
    """One glyph outline (a path's ``d``) as manim's ``VMobjectFromSVGPath`` turns it into points, for any place.

    ``VMobjectFromSVGPath.handle_commands`` run once on the outline's own coordinates, keeping which coordinates each
    point is made of rather than its value: a point is a coordinate of the path, or ``(a + b + c) / 3`` of three (a
    line or a quadratic curve made cubic). :meth:`points` redoes those sums on the coordinates moved by a ``<use>``'s
    ``x`` and ``y``, as svgelements moves them (``x * 1 + y * 0 + e`` is ``x + e`` in floating point): the same
    operations on the same numbers, so the same bits.
    """

    def __init__(self, d: str):
        path = svgelements.Path()
        path.parse(d)
        coordinates: list[tuple[float, float]] = []

        def coordinate(point) -> int:
            coordinates.append((point[0], point[1]))
            return len(coordinates) - 1

        made: list[tuple[int, int, int] | int] = []  # per point: its coordinate, or the three whose mean it is
        pen = subpath = None
        for segment in path:
            kind = type(segment)
            if kind is svgelements.Move:
                pen = subpath = coordinate(segment.end)
            elif kind in (svgelements.Line, svgelements.Close):
                if pen is None or subpath is None:
                    raise _NotPango("a line before the path's first move")
                if kind is svgelements.Close:
                    gap = np.linalg.norm(np.subtract(coordinates[pen], coordinates[subpath]))
                    if abs(gap - 0.0001) < 1e-7:
                        raise _NotPango("a closing gap too near manim's 0.0001 to be sure of it once moved")
                    if gap <= 0.0001:
                        continue
                    end = subpath
                else:
                    end = coordinate(segment.end)
                made += [pen, (pen, pen, end), (pen, end, end), end]
                pen = end
            elif kind is svgelements.QuadraticBezier:
                if pen is None:
                    raise _NotPango("a curve before the path's first move")
                control, end = coordinate(segment.control), coordinate(segment.end)
                made += [pen, (pen, control, control), (control, control, end), end]
                pen = end
            elif kind is svgelements.CubicBezier:
                if pen is None:
                    raise _NotPango("a curve before the path's first move")
                made += [pen, coordinate(segment.control1), coordinate(segment.control2), coordinate(segment.end)]
                pen = made[-1]
            else:  # an arc, which manim approximates after the move (other bits)
                raise _NotPango(f"a {kind.__name__} segment")
        self.size = len(made)
        self.coordinates = np.array([(x, y, 0.0) for x, y in coordinates], dtype=float).reshape(-1, 3)
        self.direct = np.array([i for i, part in enumerate(made) if isinstance(part, int)], dtype=int)
        self.taken = np.array([part for part in made if isinstance(part, int)], dtype=int)
        self.means = np.array([i for i, part in enumerate(made) if not isinstance(part, int)], dtype=int)
        self.terms = np.array([part for part in made if not isinstance(part, int)], dtype=int).reshape(-1, 3).T

    def points(self, x: float, y: float) -> np.ndarray:
        moved = self.coordinates + (x, y, 0.0)
        points = np.empty((self.size, 3))
        points[self.direct] = moved[self.taken]
        a, b, c = (moved[terms] for terms in self.terms)
        points[self.means] = (a + b + c) / 3
        # SVGMobject.handle_transform: an identity matrix and a zero shift after svgelements applied the move
        # (bit for bit, -0.0 becomes 0.0 and nothing else changes)
        points += 0.0
        return points


_GLYPH_OUTLINES: dict[str, _Glyph | None] = {}
"""Every glyph outline :func:`glyphs_parsed_once` met in this process, by its ``d`` (None: left to manim)."""


class _Pristine:
    """A mobject just built and never changed, and mobjects made in its state: its arrays, lists and colours copied."""

    def __init__(self, mobject):
        self.kind, self.state = type(mobject), dict(mobject.__dict__)
        self.arrays = [name for name, value in self.state.items() if type(value) is np.ndarray]
        self.lists = [name for name, value in self.state.items() if type(value) is list and not value]
        self.others = [
            name
            for name, value in self.state.items()
            if name not in self.arrays and name not in self.lists and not isinstance(value, IMMUTABLE)
        ]

    def copy(self):
        made = object.__new__(self.kind)
        state = made.__dict__
        state.update(self.state)
        for name in self.arrays:
            state[name] = state[name].copy()
        for name in self.lists:
            state[name] = []
        for name in self.others:
            state[name] = copy.deepcopy(state[name])
        return made


def _outline(root: ElementTree.Element) -> tuple:
    """The tree svgelements parses from ``root`` (manim's modified Pango drawing), as ``(id, children, glyph)`` nodes.

    ``children`` is None for an element that is no group, ``glyph`` ``(d, x, y, paint)`` for a path: its outline, the
    move of the ``<use>`` it is drawn by, and the style it inherits. It follows ``SVG.parse``: ``<defs>`` is not drawn,
    a ``<use>`` holds what it refers to, a ``<symbol>`` is an element of its own followed by its children, style
    properties are inherited with ``style`` overriding attributes. Any other element, attribute or property raises
    :class:`_NotPango`.
    """
    by_id = {element.attrib["id"]: element for element in root.iter() if "id" in element.attrib}

    def walk(element, inherited: dict, siblings: list, move: tuple | None) -> None:
        tag = element.tag
        if tag.startswith(_SVG_NAMESPACE):
            tag = tag.split("}", 1)[1]
        if tag not in _ATTRIBUTES or (tag == "svg" and element is not root):
            raise _NotPango(f"<{tag}>")
        attributes = dict(element.attrib)
        for name in attributes:
            if name not in _ATTRIBUTES[tag] and name not in _PAINT and name not in ("id", "style"):
                raise _NotPango(f"{name} on <{tag}>")
        for equate in attributes.get("style", "").split(";"):
            if not equate.strip():
                continue
            pair = equate.split(":")
            if len(pair) != 2 or pair[0].strip() not in _PAINT:  # (a value with a colon too: left to manim)
                raise _NotPango(f"style {equate.strip()!r}")
            attributes[pair[0].strip()] = pair[1].strip()
        paint = {**inherited, **{name: value for name, value in attributes.items() if name in _PAINT}}
        if any("currentcolor" in value.lower() for value in paint.values()):
            raise _NotPango("currentColor")
        name = attributes.get("id")
        if tag == "defs":
            return
        if tag in ("svg", "g"):
            children: list = []
            siblings.append((name, children, None))
            for child in element:
                walk(child, paint, children, move)
        elif tag == "use":
            if move is not None:
                raise _NotPango("a <use> inside a <use>")
            place = [attributes.get(axis, "0") for axis in ("x", "y")]
            if not all(_PLAIN_NUMBER.fullmatch(value) for value in place):
                raise _NotPango(f"a <use> at {place}")
            children = []
            siblings.append((name, children, None))
            for child in element:
                walk(child, paint, children, (float(place[0]), float(place[1])))
            url = next((attributes[href] for href in reversed(_HREFS) if href in attributes), None)
            if url is not None:
                if url[1:] not in by_id:
                    raise _NotPango(f"a <use> of {url}")
                walk(by_id[url[1:]], paint, children, (float(place[0]), float(place[1])))
        elif tag == "symbol":
            siblings.append((name, None, None))
            for child in element:
                walk(child, paint, siblings, move)
        else:  # path
            if "d" not in attributes or len(element):
                raise _NotPango("a <path> without d, or with children")
            x, y = move or (0.0, 0.0)
            siblings.append((name, None, (attributes["d"], x, y, tuple(sorted(paint.items())))))

    top: list = []
    walk(root, {"color": "black", "fill": "black", "stroke": "none"}, top, None)
    return top[0]


@contextmanager
def glyphs_parsed_once(check: bool = False) -> Iterator[Counter]:
    """Inside the block, a new ``Text``'s drawing is built from glyphs parsed once per process, not by svgelements.

    A new ``Text`` (a number or a word never shown before) was half of a cold build in manim's parse of Pango's
    drawing: svgelements parsing a glyph's path again at every ``<use>`` of it, then a ``VMobjectFromSVGPath`` and
    a ``VGroup`` per element, each built from scratch (a third of a millisecond each). Pango's drawing is a
    ``<symbol>`` per glyph and a ``<use x= y=>`` per character. Here the drawing is read with ElementTree,
    following ``SVG.parse``'s rules for the few elements Pango writes (:func:`_outline`); each outline becomes points
    once per process (:class:`_Glyph`); each style is given to one glyph by manim's own code once per block, and the
    glyphs are copies of it with their own points; the element groups (``id_to_vgroup_dict``) are made as
    ``get_mobjects_from`` makes them, and the text is flipped as ``generate_mobject`` flips it.

    It is safe because nothing is approximated: a glyph's points are the same floating-point operations on the same
    numbers as svgelements' move and manim's ``handle_commands`` (so the same bits), and a copy of a glyph or group
    just built, with its own arrays, lists and colours, is in the state of one built anew. Every submobject, group,
    point and colour comes out bit for bit as manim makes it, but a glyph's ``path_obj`` (svgelements' parse, read
    only while the glyph is built) is None, as :func:`texts_made_once` and the scenes' ``cheap_to_copy`` leave it. A
    drawing with anything else (an element, attribute or style property Pango does not write, an arc, a class that
    changes how its drawing is parsed, OpenGL) is left to manim. Only for builds without video.

    Parameters
    ----------
    check
        Also have manim parse every drawing read here, and fail unless both are the same, bit for bit.

    Yields
    ------
    Counter
        How many drawings were read here (``"read"``) and how many were left to manim (``"manim"``).

    Notes
    -----
    ``test_glyphs_parsed_once_makes_every_text_as_manim_does`` reads every kind of text the scenes draw with
    ``check``; ``test_a_build_without_shortcuts_ends_every_step_the_same`` builds a scene with and without the test
    shortcuts and compares every step's end.
    """
    original = SVGMobject.generate_mobject
    counts: Counter = Counter()
    checked = parsing_versions() == CHECKED_WITH
    styled: dict[tuple, _Pristine] = {}  # per block: made by this block's manim
    group = _Pristine(VGroup())

    def glyph_in(self, paint: tuple) -> _Pristine:
        """A glyph with ``paint``'s style, as ``get_mob_from_shape_element`` makes it (points aside)."""
        if paint not in styled:
            drawing = ElementTree.Element("svg")
            attributes = {"d": "M 0 0 L 1 0 L 1 1 Z", "transform": "translate(3, 5)", **dict(paint)}
            ElementTree.SubElement(drawing, "path", attributes)
            parsed = svgelements.SVG.parse(io.BytesIO(ElementTree.tostring(drawing)))
            (shape,) = [element for element in parsed.elements() if isinstance(element, svgelements.Path)]
            glyph = self.path_to_mobject(shape)
            self.apply_style_to_mobject(glyph, shape)
            glyph.path_obj = None
            styled[paint] = _Pristine(glyph)
        return styled[paint]

    def read(self) -> bool:
        """Build ``self``'s drawing as ``generate_mobject`` does; False (nothing changed) if it is no Pango drawing."""
        if (
            not checked
            or not isinstance(self, (Text, MarkupText))
            or config.renderer != RendererType.CAIRO
            or self.path_string_config
            or any(
                getattr(type(self), method) is not getattr(SVGMobject, method)
                for method in ("get_file_path", "modify_xml_tree", "generate_config_style_dict", "get_mobjects_from")
                + ("get_mob_from_shape_element", "path_to_mobject", "apply_style_to_mobject", "handle_transform")
            )
        ):
            return False
        root = self.modify_xml_tree(ElementTree.parse(self.get_file_path())).getroot()
        try:
            top = _outline(root)
            stack = [top]
            while stack:
                _, children, glyph = stack.pop()
                stack.extend(children or ())
                if glyph is not None and glyph[0] not in _GLYPH_OUTLINES:
                    try:
                        _GLYPH_OUTLINES[glyph[0]] = _Glyph(glyph[0])
                    except _NotPango:
                        _GLYPH_OUTLINES[glyph[0]] = None
                if glyph is not None and _GLYPH_OUTLINES[glyph[0]] is None:
                    raise _NotPango("an outline left to manim")
        except _NotPango:
            return False
        # get_mobjects_from's walk, element for element
        result = []
        stack = [(top, 1)]
        number = 0
        names = ["root"]
        groups = {"root": group.copy()}
        while stack:
            (name, children, glyph), depth = stack.pop()
            names = names[0:depth]
            if name is None:
                name = f"numbered_group_{number}"
                number += 1
            names.append(name)
            groups[name] = group.copy()
            if children is not None:
                stack.extend((child, depth + 1) for child in children[::-1])
            if glyph is not None:
                d, x, y, paint = glyph
                outline = _GLYPH_OUTLINES[d]
                if outline.size == 0:
                    continue  # no points: manim drops it
                made = glyph_in(self, paint).copy()
                made.points = outline.points(x, y)
                result.append(made)
                for parent in names[:-1]:
                    members = groups[parent].submobjects
                    if any(member is made for member in members):  # (two parents of one name: add moves it last)
                        members.remove(made)
                    members.append(made)
        self.add(*result)
        self.id_to_vgroup_dict = groups
        self.flip(RIGHT)
        return True

    def generate(self):
        if check:
            twin = copy.copy(self)
            twin.submobjects, twin.points = [], self.points.copy()
            original(twin)
        if read(self):
            counts["read"] += 1
            if check:
                problems = _drawing_differences(twin, self)
                assert not problems, f"{self.file_name}: read otherwise than manim parses it: {problems[:5]}"
        else:
            counts["manim"] += 1
            original(self)
        return self

    SVGMobject.generate_mobject = generate
    try:
        yield counts
    finally:
        SVGMobject.generate_mobject = original


def _drawing_differences(expected, got) -> list[str]:
    """How ``got``'s drawing (submobjects, ``id_to_vgroup_dict``, points) differs from ``expected``'s, bit for bit.

    A glyph's ``path_obj`` (svgelements' parse, which manim reads only while building the glyph) is not compared.
    """

    def state(mobject, order: list) -> dict:
        fields = {}
        for name, value in mobject.__dict__.items():
            if name == "path_obj":
                continue
            kind = type(value).__name__
            if name == "submobjects":
                value = [next(i for i, part in enumerate(order) if part is member) for member in value]
            elif isinstance(value, np.ndarray):
                value = (value.dtype.str, value.shape, value.tobytes())
            elif isinstance(value, ManimColor):  # (whose == is np.allclose)
                value = value._internal_value.tobytes()
            fields[name] = (kind, value)
        return fields

    problems = []
    if len(expected.submobjects) != len(got.submobjects):
        problems.append(f"{len(got.submobjects)} submobjects, not {len(expected.submobjects)}")
    pairs = [(expected, got, "the text")]
    pairs += [(a, b, f"glyph {i}") for i, (a, b) in enumerate(zip(expected.submobjects, got.submobjects))]
    if list(expected.id_to_vgroup_dict) != list(got.id_to_vgroup_dict):
        problems.append(f"groups {list(got.id_to_vgroup_dict)}, not {list(expected.id_to_vgroup_dict)}")
    pairs += [(expected.id_to_vgroup_dict[k], got.id_to_vgroup_dict.get(k), f"group {k}") for k in expected.id_to_vgroup_dict]
    for a, b, what in pairs:
        if b is None or type(a) is not type(b):
            problems.append(f"{what}: a {type(b).__name__}, not a {type(a).__name__}")
            continue
        ours, theirs = state(a, expected.submobjects), state(b, got.submobjects)
        if what == "the text":
            ours, theirs = ({k: v for k, v in s.items() if k not in ("submobjects", "id_to_vgroup_dict")} for s in (ours, theirs))
        for name in ours.keys() | theirs.keys():
            if ours.get(name) != theirs.get(name):
                problems.append(f"{what}: {name} {theirs.get(name)!r:.80}, not {ours.get(name)!r:.80}")
    return problems
