"""Numbers clear of their cells' borders, and weights coloured on the absolute scale 0 to 1.

The ink of a number (its glyphs' outline box) is measured against its cell's rectangle after
every animation of a scene (see :func:`.layout.glyph_clearance_problems`), and a weight's cell
takes the colour map's colour at the weight itself, never at its share of the map's largest.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from manim import ManimColor

from attention_math import lookup
from scenes.kit.heatmaps import HeadGrid, weights_heatmap
from scenes.kit.layout import CONTENT, Region
from scenes.kit.tables import CELL_PADDING, NumberGrid, number_cell_width
from scenes.theme import DARK, colormap_color

from .helpers import built_scene
from .layout import CELL_CLEARANCE, glyph_clearance_problems

CHECKED_SCENES = (
    "self-attention",
    "causal-mask",
    "padding-mask",
    "positional-encoding",
    "cross-attention",
    "multi-head",
    "qkv",
    "bottleneck",
    "kv-cache",
    "transformer-block",
)
"""The scenes whose every number is held clear of its cell's borders (the others' cells are wider than their numbers too,
and join this list as they are checked)."""


class Source:
    """What a scene hands the kit: its theme and grids read by path (here from a dict of arrays)."""

    theme = DARK

    def __init__(self, **arrays):
        self.trace = SimpleNamespace(**arrays)

    def grid(self, source: str, decimals: int = 2, **kwargs) -> NumberGrid:
        return NumberGrid(self.theme, lookup(self.trace, source), decimals, **kwargs)


def hex_of(mobject) -> str:
    return ManimColor(mobject.get_fill_color()).to_hex().upper()


def test_the_check_finds_a_number_that_touches_its_border_and_passes_one_that_clears_it():
    tight = NumberGrid(DARK, [[-0.55]], 2, cell_width=0.5, cell_height=0.5)
    # A cell as wide as its number's ink plus a little: the glyphs touch the border line.
    tight.cells[0].stretch_to_fit_width(tight.numbers[0].width + 0.02)
    assert [p.split(":")[0] for p in glyph_clearance_problems([tight])] == ["glyphs near a border"]
    roomy = NumberGrid(DARK, [[-0.55]], 2, cell_width=1.2, cell_height=0.6)
    assert glyph_clearance_problems([roomy]) == []


def test_a_grid_keeps_its_numbers_clear_of_the_borders_down_to_the_readable_size():
    grid = NumberGrid(DARK, [[-0.57, 0.5]], 2, cell_width=1.0, cell_height=0.5)  # "−0.57" at 24 is wider than 1.0 - 2 × pad
    number, cell = grid.numbers[0], grid.cells[0]
    assert number.get_left()[0] - cell.get_left()[0] >= CELL_PADDING - 1e-6
    assert CELL_PADDING > CELL_CLEARANCE  # the grid keeps more room than the check asks for
    # Where the padding would push a number below the smallest readable size, it stops at that size.
    narrow = NumberGrid(DARK, [[-0.57]], 2, cell_width=0.9, cell_height=0.5, font_size=DARK.min_size)
    assert narrow.numbers[0].font_size == pytest.approx(DARK.min_size)


def test_a_minus_sign_keeps_a_wider_gap_from_its_border_and_cells_can_be_sized_for_it():
    """Review 6: "−1.04" in cells sized for "0.30" had its minus bar 0.06 from the border line, where it looked joined."""
    least = 0.1  # 9 px at 720p: a gap the eye sees between a flat bar and a border line
    grid = NumberGrid(DARK, [[0.3, -1.04]], 2, cell_width=1.1, cell_height=0.58)
    number, cell = grid.numbers[1], grid.cells[1]
    assert number.original_text.startswith("\u2212")
    assert number.get_left()[0] - cell.get_left()[0] >= least
    assert cell.get_right()[0] - number.get_right()[0] >= least
    # Cells as wide as number_cell_width leave every number at its full size with that gap.
    width = number_cell_width(DARK, [[0.3, -1.04], [-0.02, 0.94]], 2)
    roomy = NumberGrid(DARK, [[0.3, -1.04], [-0.02, 0.94]], 2, cell_width=width, cell_height=0.58)
    assert all(n.font_size == pytest.approx(DARK.small_size) for n in roomy.numbers)
    for n, c in zip(roomy.numbers, roomy.cells):
        assert min(n.get_left()[0] - c.get_left()[0], c.get_right()[0] - n.get_right()[0]) >= least - 1e-6
    assert glyph_clearance_problems([grid, roomy]) == []


@pytest.mark.parametrize("mono", [True, False])
def test_every_number_of_a_grid_is_drawn_at_one_size_whatever_its_sign(mono):
    """A minus sign widens a number; fitting each cell on its own drew "−0.41" smaller than "0.73" beside it."""
    values = [[-0.41, 0.73, 0.05], [1.06, -1.25, -0.08]]
    grid = NumberGrid(DARK, values, 2, cell_width=1.0, cell_height=0.5, mono_numbers=mono)
    sizes = [number.font_size for number in grid.numbers]
    assert max(sizes) - min(sizes) < 1e-6 * max(sizes), sizes
    # Digits are as tall in every cell (a minus is lower than a digit, so each number's ink is its digits' height).
    heights = [number.height for number in grid.numbers]
    assert max(heights) - min(heights) < 1e-6, heights
    negative = [number.original_text for number, value in zip(grid.numbers, np.ravel(values)) if value < 0]
    assert all(text.startswith("\u2212") and "-" not in text for text in negative), negative  # the true minus sign
    # Still clear of the borders: the widest number sets the size.
    assert all(number.width <= cell.width - 2 * CELL_PADDING + 1e-6 for number, cell in zip(grid.numbers, grid.cells))


def test_a_weighted_sums_rows_show_their_numbers_at_one_size():
    """Each row of a weighted sum is a grid of its own; a column of them must still read as one table."""
    from scenes.kit.worked_sums import WeightedSum

    class Scene(Source):
        def number(self, source: str, decimals: int = 2, **kwargs):
            from scenes.kit.text import number_label

            return number_label(self.theme, float(lookup(self.trace, source)), decimals, **kwargs)

    weights = np.array([0.2, 0.8])
    values = np.array([[0.5, 0.25], [-1.25, 0.75]])  # only the second row holds a negative number
    scene = Scene(w=weights, v=values, wv=weights[:, None] * values, out=(weights[:, None] * values).sum(axis=0))
    total = WeightedSum(scene, ["a", "b"], "w[{j}]", "v[{j}]", "wv[{j}]", "out", cell_width=0.8)
    sizes = [number.font_size for grid in (*total.values, *total.products, total.output) for number in grid.numbers]
    assert max(sizes) - min(sizes) < 1e-6 * max(sizes), sizes


def test_head_grid_colours_weights_on_the_fixed_scale_0_to_1():
    tokens = ["the", "cat", "sat"]
    near_uniform = np.array([[[0.30, 0.33, 0.37], [0.34, 0.33, 0.33], [0.31, 0.36, 0.33]]])  # largest weight 0.37
    grid = HeadGrid(
        Source(weights=near_uniform), ["weights[0]"], ["head 1"], tokens, Region(CONTENT.left, CONTENT.right, -3, 2.5)
    )
    cell = grid.maps[0].cell(0, 2)
    assert hex_of(cell) == colormap_color(DARK, 0.37).upper()
    assert hex_of(cell) != colormap_color(DARK, 1.0).upper()  # not the top of the map, as colours by the largest weight were


def test_weights_heatmap_colours_a_weight_by_its_own_value():
    scene = Source(weights=np.array([[0.11, 0.26, 0.63]]))
    heatmap = weights_heatmap(scene, "weights", ["q"], ["a", "b", "c"])
    assert [hex_of(heatmap.cell(0, j)) for j in range(3)] == [colormap_color(DARK, w).upper() for w in (0.11, 0.26, 0.63)]


@pytest.mark.parametrize("name", CHECKED_SCENES)
def test_every_number_clears_its_cells_borders(name):
    """After every animation of the scene's default build, each number's ink stays CELL_CLEARANCE inside its cell."""
    problems = list(built_scene(name).recording.glyph_problems)
    assert not problems, f"{name}: {len(problems)} numbers near a border:\n" + "\n".join(problems[:20])
