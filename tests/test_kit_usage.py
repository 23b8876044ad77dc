"""Scenes speak the kit's layout: sizes from the theme, few literal coordinates, short heatmap calls.

Read from the scenes' source with ``ast`` (nothing is built). What each rule counts:

- A *literal font size* is a numeric literal given as ``size``, ``font_size``, ``number_size``,
  ``result_size`` or ``label_size`` to any call, also as an outcome of a conditional
  (``22 if wide else …``) or in arithmetic (``theme.body_size + 4``), or as the value of such a key
  in a dict of keyword arguments (``{"font_size": 20}``).
  Sizes come from ``scenes/theme.py``.
- A *literal coordinate placement* is a call of a placement method (``move_to``, ``shift``,
  ``next_to``, ``align_to``, ``set_x``, ``set_y``, ``set_z``, ``to_edge``, ``to_corner``) that gets

  * a point written in numbers: an expression of numeric literals and direction constants only
    (``UP * 1.9``, ``LEFT * 3.3 + DOWN * 1.55``, ``[3.3, 2.15, 0]``, ``np.array([0, 1, 0])``);
  * a point as a list, tuple or ``np.array`` of coordinates one of which holds a numeric literal
    other than 0 (``[SAFE_LEFT + 0.2, y, 0]``, ``[0, top - 0.3, 0]``);
  * for ``set_x``, ``set_y``, ``set_z``: a number, or an expression holding a numeric literal other than 0;

  an index (``get_center()[1]``) is not a coordinate and never counts;
  * for ``to_edge``, ``to_corner``: a literal ``buff``.

  Relative placement (``next_to(x, DOWN, buff=0.3)``, ``arrange``) and named places (a region, a
  constant with a name) are not counted. Each call counts once.
- A *labelled heatmap call* is a call of ``attention_heatmap``, ``weights_heatmap``, ``HeadGrid`` or a grid call
  (``grid``, ``NumberGrid``) with ``heat=True``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SCENES = sorted((Path(__file__).resolve().parent.parent / "scenes").glob("*.py"))

SIZE_KEYWORDS = {"size", "font_size", "number_size", "result_size", "label_size"}
PLACEMENTS = {"move_to", "shift", "next_to", "align_to", "set_x", "set_y", "set_z", "to_edge", "to_corner"}
DIRECTIONS = {"UP", "DOWN", "LEFT", "RIGHT", "UL", "UR", "DL", "DR", "ORIGIN", "IN", "OUT"}
MOST_LITERAL_PLACEMENTS = 15
"""At most this many literal coordinate placements in all scenes together (92 by this count before issue 30; the issue counted 62 by a narrower rule)."""
MOST_HEATMAP_KEYWORDS = 3


def is_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def holds_number(node: ast.AST) -> bool:
    """Whether a numeric literal other than 0 appears in ``node``, indices left out (``get_center()[1]`` is no coordinate)."""
    if is_number(node):
        return node.value != 0
    if isinstance(node, ast.Subscript):
        return holds_number(node.value)
    return any(holds_number(child) for child in ast.iter_child_nodes(node))


def written_in_numbers(node: ast.AST) -> bool:
    """Numeric literals and direction constants only, combined by arithmetic or in a list, tuple or np.array."""
    if is_number(node):
        return True
    if isinstance(node, ast.Name):
        return node.id in DIRECTIONS
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(written_in_numbers(element) for element in node.elts)
    if isinstance(node, ast.BinOp):
        return written_in_numbers(node.left) and written_in_numbers(node.right)
    if isinstance(node, ast.UnaryOp):
        return written_in_numbers(node.operand)
    if is_array(node):
        return all(written_in_numbers(argument) for argument in node.args)
    return False


def is_array(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ast.unparse(node.func) in ("np.array", "numpy.array")


def point_with_a_literal(node: ast.AST) -> bool:
    """A list, tuple or np.array of coordinates, one of which holds a numeric literal other than 0."""
    if is_array(node) and node.args:
        node = node.args[0]
    return isinstance(node, (ast.List, ast.Tuple)) and any(holds_number(element) for element in node.elts)


def literal_placement(call: ast.Call) -> bool:
    method = call.func.attr
    if method in ("set_x", "set_y", "set_z"):
        return any(holds_number(argument) for argument in call.args)
    if method in ("to_edge", "to_corner"):
        return any(keyword.arg == "buff" and holds_number(keyword.value) for keyword in call.keywords)
    return any(
        (written_in_numbers(argument) and holds_number(argument)) or point_with_a_literal(argument) for argument in call.args
    )


def calls(source: str) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)]


def literal_placements(source: str) -> list[str]:
    return [
        f"{call.lineno}: {ast.unparse(call)[:100]}"
        for call in calls(source)
        if isinstance(call.func, ast.Attribute) and call.func.attr in PLACEMENTS and literal_placement(call)
    ]


def literal_sizes(source: str) -> list[str]:
    given = [(call.lineno, keyword.arg, keyword.value) for call in calls(source) for keyword in call.keywords]
    # Keyword arguments gathered in a dict first: {"font_size": 20, ...}
    given += [
        (node.lineno, key.value, value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Dict)
        for key, value in zip(node.keys, node.values)
        if isinstance(key, ast.Constant)
    ]
    return [
        f"{line}: {name}={ast.unparse(value)}"
        for line, name, value in given
        if name in SIZE_KEYWORDS and sized_by_a_literal(value)
    ]


def sized_by_a_literal(node: ast.AST) -> bool:
    """A number, a conditional with a number as one of its outcomes, or arithmetic on a number (``theme.body_size + 4``)."""
    if is_number(node):
        return True
    if isinstance(node, ast.IfExp):
        return sized_by_a_literal(node.body) or sized_by_a_literal(node.orelse)
    if isinstance(node, ast.BinOp):
        return sized_by_a_literal(node.left) or sized_by_a_literal(node.right)
    return False


def called_name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def heatmap_calls(source: str) -> list[ast.Call]:
    found = []
    for call in calls(source):
        name = called_name(call)
        heat = any(
            keyword.arg == "heat" and isinstance(keyword.value, ast.Constant) and keyword.value.value for keyword in call.keywords
        )
        if name in ("attention_heatmap", "weights_heatmap", "HeadGrid") or (name in ("grid", "NumberGrid") and heat):
            found.append(call)
    return found


@pytest.mark.parametrize("path", SCENES, ids=[path.stem for path in SCENES])
def test_scenes_take_font_sizes_from_the_theme(path):
    assert literal_sizes(path.read_text(encoding="utf-8")) == []


def test_scenes_place_by_few_literal_coordinates():
    found = [f"{path.name}:{found}" for path in SCENES for found in literal_placements(path.read_text(encoding="utf-8"))]
    assert len(found) <= MOST_LITERAL_PLACEMENTS, "\n".join(found)


@pytest.mark.parametrize("path", SCENES, ids=[path.stem for path in SCENES])
def test_labelled_heatmaps_take_at_most_three_keyword_arguments(path):
    long_calls = [
        f"{call.lineno}: {len(call.keywords)} keywords"
        for call in heatmap_calls(path.read_text(encoding="utf-8"))
        if len(call.keywords) > MOST_HEATMAP_KEYWORDS
    ]
    assert long_calls == []


def test_the_checkers_count_what_they_say():
    placements = (
        "a.move_to(UP * 1.9)\n"
        "b.move_to(LEFT * 3.3 + DOWN * 1.55)\n"
        "c.move_to([SAFE_LEFT + 0.2, y, 0])\n"
        "d.set_y(1.2).shift(np.array([0.5, 0, 0]))\n"
        "e.to_edge(UP, buff=0.4)\n"
        # not counted: relative placement, named places, a zero point
        "f.next_to(g, DOWN, buff=0.3).move_to(BODY.center).shift(UP * gap).move_to([0, y, 0])\n"
        "h.set_y(g.get_center()[1])\n"
    )
    assert len(literal_placements(placements)) == 6
    sizes = (
        "label(theme, 'x', size=30)\n"
        "formula(theme, 'x', size=22 if wide else theme.min_size)\n"
        "label(theme, 'y', size=theme.body_size + 4)\n"
        "CELLS = {'cell_width': 1.0, 'font_size': 20}\n"
        # not counted: sizes from the theme, whatever decides between them
        "label(theme, 'y', size=theme.body_size)\n"
        "label(theme, 'z', size=theme.small_size if len(text) > 1 else theme.body_size)\n"
    )
    assert len(literal_sizes(sizes)) == 4
    heatmaps = (
        "self.grid('w', 2, heat=True, vmin=0.0, cell_width=1, cell_height=1)\n"
        "attention_heatmap(self, 'w', q, k, cell=(1, 1))\n"
        "self.grid('x', 1, cell_width=1, cell_height=1, font_size=20, row_labels=q)\n"
    )
    assert [len(call.keywords) for call in heatmap_calls(heatmaps)] == [4, 1]
