"""The kit's placement helpers and its heatmap and chart pieces put things where they say."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UL, UR, ManimColor, Rectangle, Square, VGroup

from attention_math import lookup
from scenes.kit.charts import LineChart
from scenes.kit.heatmaps import HeadGrid, attention_heatmap, axis_names
from scenes.kit.layout import (
    BODY,
    CONTENT,
    SAFE_AREA,
    Region,
    align_to_cells,
    center_between,
    keep_inside,
    pin,
    shrink_to_fit,
)
from scenes.kit.tables import NumberGrid
from scenes.theme import DARK


class Source:
    """What a scene hands the kit: its theme and grids read by path (here from a dict of arrays)."""

    theme = DARK

    def __init__(self, **arrays):
        self.trace = SimpleNamespace(**arrays)
        self.read: list[str] = []

    def grid(self, source: str, decimals: int = 2, **kwargs) -> NumberGrid:
        self.read.append(source)
        return NumberGrid(self.theme, lookup(self.trace, source), decimals, **kwargs)


def colour(mobject) -> str:
    return ManimColor(mobject.get_color()).to_hex().upper()


def test_pin_puts_a_mobject_against_a_regions_edges():
    square = Square(side_length=1.0).move_to([0.3, -0.7, 0])
    pin(square, UR, SAFE_AREA)
    assert square.get_right()[0] == pytest.approx(SAFE_AREA.right) and square.get_top()[1] == pytest.approx(SAFE_AREA.top)
    pin(square, LEFT, y=1.25)  # CONTENT by default; the height given
    assert square.get_left()[0] == pytest.approx(CONTENT.left) and square.get_y() == pytest.approx(1.25)
    pin(square, DOWN, BODY)  # an edge along one axis leaves the other as it was
    assert square.get_bottom()[1] == pytest.approx(BODY.bottom) and square.get_left()[0] == pytest.approx(CONTENT.left)


def test_keep_inside_moves_only_what_is_out_and_only_as_far_as_needed():
    inside = Square(side_length=1.0).move_to([1.0, 0.5, 0])
    keep_inside(inside, top=BODY.top, bottom=BODY.bottom)
    assert np.allclose(inside.get_center(), [1.0, 0.5, 0])
    out = Rectangle(width=2.0, height=1.0).move_to([CONTENT.right, BODY.top, 0])
    BODY.keep_inside(out)
    assert out.get_right()[0] == pytest.approx(CONTENT.right) and out.get_top()[1] == pytest.approx(BODY.top)
    too_wide = Rectangle(width=CONTENT.width + 1.0, height=1.0)
    keep_inside(too_wide)  # wider than the room: it ends against the right edge
    assert too_wide.get_right()[0] == pytest.approx(CONTENT.right)


def test_shrink_to_fit_shrinks_and_never_grows():
    big, small = Rectangle(width=8.0, height=2.0), Rectangle(width=1.0, height=0.5)
    Region(-2.0, 2.0, -3.0, 3.0).shrink_to_fit(big)
    shrink_to_fit(small, 4.0, 6.0)
    assert big.width == pytest.approx(4.0) and big.height == pytest.approx(1.0)
    assert small.width == pytest.approx(1.0) and small.height == pytest.approx(0.5)


def test_center_between_and_align_to_cells():
    above, below = Rectangle(width=1, height=1).move_to([0, 3, 0]), Rectangle(width=1, height=1).move_to([0, -3, 0])
    picture = center_between(Square(side_length=1.0).shift(RIGHT * 2), above, below, gap_above=0.5, gap_below=0.5)
    # The room runs from 2.5 - 0.5 = 2.0 down to -2.5 + 0.5 = -2.0: its middle is 0.
    assert np.allclose(picture.get_center(), [0, 0, 0])
    grid = NumberGrid(DARK, np.ones((2, 3)), cell_width=0.5, cell_height=0.4, row_labels=["a", "b"])
    align_to_cells(grid, grid.cells, -1.0, 2.0)
    assert np.allclose(grid.cells.get_corner(UL), [-1.0, 2.0, 0])
    assert grid.row_labels.get_right()[0] < -1.0  # the labels came along


def test_attention_heatmap_labels_queries_and_keys_in_their_colours():
    weights = np.array([[0.7, 0.3], [0.1, 0.9]])
    scene = Source(weights=weights)
    heatmap = attention_heatmap(scene, "weights", ["cat", "sat"], ["cat", "sat"], cell=(1.0, 0.5), scale=(0.0, 1.0))
    assert scene.read == ["weights"]  # read through the scene, so its numbers are remembered as shown
    assert [text.original_text for text in heatmap.numbers] == ["0.70", "0.30", "0.10", "0.90"]
    assert {colour(text) for text in heatmap.row_labels} == {DARK.query.upper()}
    assert {colour(text) for text in heatmap.col_labels} == {DARK.key.upper()}
    # Coloured by value on the given scale: the cells of 0.1 and 0.9 differ, and neither is the background.
    fills = {colour_of.get_fill_color().to_hex().upper() for colour_of in (heatmap.cell(1, 0), heatmap.cell(1, 1))}
    assert len(fills) == 2 and DARK.background.upper() not in fills
    names = axis_names(DARK, heatmap, rows="targets", columns="sources")
    assert [text.original_text for text in names] == ["targets ↓", "sources →"]
    assert names[1].get_bottom()[1] > heatmap.col_labels.get_top()[1]


@pytest.mark.parametrize("heads", [1, 3, 4])
def test_head_grid_fills_its_region_with_one_titled_map_per_head(heads):
    tokens = ["the", "cat", "sat", "down"]
    rng = np.random.default_rng(heads)
    weights = rng.dirichlet(np.ones(len(tokens)), size=(heads, len(tokens)))
    scene = Source(weights=weights)
    region = Region(CONTENT.left, CONTENT.right, -3.0, 2.75)
    grid = HeadGrid(scene, [f"weights[{h}]" for h in range(heads)], [f"head {h + 1}" for h in range(heads)], tokens, region)
    assert len(grid.maps) == heads and [t.original_text for t in grid.titles] == [f"head {h + 1}" for h in range(heads)]
    columns = 1 if heads == 1 else 2
    for k, heatmap in enumerate(grid.maps):
        row, col = divmod(k, columns)
        assert (len(heatmap.row_labels) > 0) == (col == 0)  # queries left of the first column only
        assert (len(heatmap.col_labels) > 0) == (row == 0)  # keys above the first row only
    maps = VGroup(*grid.maps)  # with their labels; the first row's titles stand over the region
    assert maps.get_left()[0] >= region.left - 1e-9 and maps.get_right()[0] <= region.right + 1e-9
    assert maps.get_top()[1] <= region.top + 1e-9 and maps.get_bottom()[1] >= region.bottom - 1e-9
    assert all(title.get_bottom()[1] > heatmap.get_top()[1] for title, heatmap in zip(grid.titles, grid.maps))


def test_line_chart_spans_its_region():
    values = np.array([0.2, 1.0, -0.5, 0.4])
    region = Region(-2.0, 4.0, -1.0, 1.0)
    chart = LineChart(DARK, values, region, low=-0.5, high=1.0, color=DARK.key)
    assert np.allclose(chart.to_point(0, -0.5), [-2.0, -1.0, 0]) and np.allclose(chart.to_point(3, 1.0), [4.0, 1.0, 0])
    corners = chart.curve.get_anchors()
    assert np.allclose(corners[0], chart.to_point(0, 0.2)) and np.allclose(corners[-1], chart.to_point(3, 0.4))
    assert np.allclose(chart.axes[0].get_start(), [-2.0, -1.0, 0]) and np.allclose(chart.axes[1].get_end(), [-2.0, 1.0, 0])
    assert chart.curve.get_top()[1] == pytest.approx(1.0) and chart.curve.get_bottom()[1] == pytest.approx(-1.0)


def test_pin_to_a_corner_matches_what_headings_did_by_hand():
    """The heading's old placement, written out: the helper must give the very same floats (videos stay byte-identical)."""
    square = Square(side_length=0.7).move_to([1.1, 0.2, 0])
    by_hand = square.copy().move_to([SAFE_AREA.left + square.width / 2, SAFE_AREA.top - square.height / 2, 0])
    assert np.array_equal(pin(square, UL, SAFE_AREA).points, by_hand.points)


@pytest.mark.parametrize(
    "word, width",
    [("counterproductive", 0.9), ("wwwwwwwwwwwwwwwwwwwwwwwwwwwwww", 1.6), ("internationalize", 0.35), ("猫🙂 café", 0.5)],
)
def test_an_elided_label_keeps_the_most_letters_that_fit_at_the_smallest_size(word, width):
    from scenes.kit.text import elided_label, label

    drawn = elided_label(DARK, word, width, size=DARK.small_size)
    assert drawn.text.endswith("…") and drawn.font_size == pytest.approx(DARK.min_size)
    kept = len(drawn.text) - 1
    assert word.startswith(drawn.text[:-1])
    # Independently: every shorter cut fits (or is the last resort of one letter), the next longer one does not.
    fits = [label(DARK, word[:k] + "…", size=DARK.min_size).width <= width for k in range(1, len(word))]
    assert kept == 1 and not any(fits) or fits[kept - 1] and not any(fits[kept:])
