"""Shared components drawn the fast way still draw the right thing.

Large heatmaps are a few shapes of merged rectangles instead of a square per value,
and text drops what manim only needs while building it; both must leave the picture
unchanged: every cell in its value's colour, every glyph where it was.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_math.traces.positional_encoding import positional_trace
from scenes.kit.heatmaps import COLOR_GRID_LEVELS, ColorGrid
from scenes.kit.tables import NumberGrid, TokenRow
from scenes.kit.text import formula, label, word_rows
from scenes.theme import DARK, LIGHT, colormap_color

POINTS_PER_RECTANGLE = 16  # four sides, each a cubic Bézier curve of four points


def painted_rectangles(grid: ColorGrid) -> tuple[np.ndarray, list[str]]:
    """Every rectangle the grid fills, as (x0, x1, y0, y1) rows, and each one's fill colour."""
    boxes, colours = [], []
    for shape in grid:
        points = shape.points.reshape(-1, POINTS_PER_RECTANGLE, 3)
        boxes.append(
            np.stack([points[:, :, 0].min(1), points[:, :, 0].max(1), points[:, :, 1].min(1), points[:, :, 1].max(1)], axis=1)
        )
        colours += [shape.get_fill_color().to_hex().upper()] * len(points)
    return np.concatenate(boxes), colours


def matrices():
    rng = np.random.default_rng(0)
    stripes = np.tile(np.linspace(-1, 1, 9), (7, 1))  # constant columns: rectangles merge down the rows
    blocks = np.kron(rng.integers(0, 4, size=(4, 5)), np.ones((3, 2)))  # equal runs above each other
    return {
        "positional encoding": positional_trace().pe,
        "random": rng.normal(size=(11, 13)),
        "stripes": stripes,
        "blocks": blocks,
        "constant": np.full((3, 4), 0.3),
    }


@pytest.mark.parametrize("theme", [DARK, LIGHT], ids=["dark", "light"])
@pytest.mark.parametrize("name", list(matrices()))
def test_color_grid_paints_every_cell_once_in_its_values_colour(name, theme):
    values = matrices()[name]
    vmin, vmax = float(values.min()), float(values.max())
    grid = ColorGrid(theme, values, cell_width=0.2, cell_height=0.15, vmin=vmin, vmax=vmax).move_to([1.0, -0.5, 0])
    boxes, colours = painted_rectangles(grid)
    level_of = {colormap_color(theme, k / (COLOR_GRID_LEVELS - 1)).upper(): k for k in range(COLOR_GRID_LEVELS)}
    half_step = 0.5 / (COLOR_GRID_LEVELS - 1)

    n_rows, n_cols = values.shape
    assert grid.width == pytest.approx(0.2 * n_cols) and grid.height == pytest.approx(0.15 * n_rows)
    # The rectangles tile the grid: their areas add up to it, and each cell's centre is in exactly one.
    areas = (boxes[:, 1] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 2])
    assert areas.sum() == pytest.approx(grid.width * grid.height)
    left, top = grid.get_left()[0], grid.get_top()[1]
    rows, cols = np.indices(values.shape)
    x, y = (left + (cols + 0.5) * 0.2).ravel(), (top - (rows + 0.5) * 0.15).ravel()
    for i, j in ((0, 0), (n_rows - 1, n_cols - 1), (n_rows // 2, n_cols // 3)):  # where scenes place labels
        np.testing.assert_allclose(grid.cell(i, j).get_center()[:2], [x[i * n_cols + j], y[i * n_cols + j]])
    inside = (boxes[:, 0] < x[:, None]) & (x[:, None] < boxes[:, 1]) & (boxes[:, 2] < y[:, None]) & (y[:, None] < boxes[:, 3])
    assert (inside.sum(axis=1) == 1).all(), "a cell is painted more than once, or not at all"
    fractions = np.full(values.size, 0.5) if vmax == vmin else ((values - vmin) / (vmax - vmin)).ravel()
    shown = np.array([level_of[colours[k]] for k in inside.argmax(axis=1)]) / (COLOR_GRID_LEVELS - 1)
    assert np.abs(shown - fractions).max() <= half_step + 1e-9


def test_color_grid_is_far_fewer_rectangles_than_cells():
    values = positional_trace().pe
    grid = ColorGrid(DARK, values, cell_width=0.08, cell_height=0.09, vmin=float(values.min()), vmax=float(values.max()))
    boxes, _ = painted_rectangles(grid)
    assert len(grid) <= COLOR_GRID_LEVELS
    assert len(boxes) < values.size / 2


@pytest.mark.parametrize(
    "make",
    [lambda: label(DARK, "0.25 “tokens” 猫", mono=False), lambda: formula(DARK, r"\frac{QK^T}{\sqrt{d_k}}")],
    ids=["text", "formula"],
)
def test_text_is_copied_without_its_build_time_svg_paths_and_unchanged(make):
    text = make()
    parts = [part for part in text.get_family() if len(part.points)]
    assert parts and all(getattr(part, "path_obj", None) is None for part in text.get_family())
    copy = text.copy()
    copied = [part for part in copy.get_family() if len(part.points)]
    assert len(copied) == len(parts)
    for original, duplicate in zip(parts, copied):
        np.testing.assert_array_equal(original.points, duplicate.points)
        assert original.get_fill_color() == duplicate.get_fill_color()


# Letters whose foot is flat on the baseline (no descender, no overshoot), by their index in the word.
FEET = {"The": (0, 1), "my": (0,), "gin": (1, 2), "on": (1,), "jam": (2,), "lazy": (0,)}


def feet(text) -> list[float]:
    """The heights of the feet of ``text``'s flat-footed letters: where its baseline is drawn."""
    return [text[k].get_bottom()[1] for k in FEET[text.original_text]]


def test_a_token_row_stands_its_words_on_one_baseline_in_boxes_of_one_height():
    """Centring each word on its ink put "my" (a descender) higher than "The" and gave each box its word's height."""
    row = TokenRow(DARK, list(FEET))
    boxes, texts = [box for box, _ in row], [text for _, text in row]
    assert np.ptp([box.get_top()[1] for box in boxes]) < 1e-6
    assert np.ptp([box.get_bottom()[1] for box in boxes]) < 1e-6
    assert np.ptp([foot for text in texts for foot in feet(text)]) < 1e-3
    for box, text in zip(boxes, texts):  # every word still inside its box
        assert box.get_bottom()[1] < text.get_bottom()[1] and text.get_top()[1] < box.get_top()[1]


def test_word_rows_stand_every_line_on_one_baseline_in_boxes_of_one_height():
    lines = word_rows(DARK, list(FEET) * 2, width=6.0)
    assert len(lines) > 1  # wrapped, so the boxes of different lines are compared too
    boxes = [box for line in lines for box, _ in line]
    assert np.ptp([box.height for box in boxes]) < 1e-6
    for line in lines:
        assert np.ptp([box.get_bottom()[1] for box, _ in line]) < 1e-6
        assert np.ptp([foot for _, text in line for foot in feet(text)]) < 1e-3
        # One baseline at one height in every box: the feet stand as far above the boxes' bottom in each line.
        first_box, first_text = line[0]
        assert feet(first_text)[0] - first_box.get_bottom()[1] == pytest.approx(
            feet(lines[0][0][1])[0] - lines[0][0][0].get_bottom()[1], abs=1e-3
        )


def test_a_grids_row_and_column_names_stand_on_baselines():
    """Centred on their ink, "dog" stood higher than "bites" above the columns, and "on" higher than "The" beside its row."""
    words = list(FEET)
    grid = NumberGrid(DARK, np.zeros((len(words), len(words))), row_labels=words, col_labels=words, col_label_lines=1)
    assert np.ptp([foot for text in grid.col_labels for foot in feet(text)]) < 1e-3
    above_centre = [foot - grid.cell(i, 0).get_y() for i, text in enumerate(grid.row_labels) for foot in feet(text)]
    assert np.ptp(above_centre) < 1e-3


def test_a_grids_long_names_keep_the_readable_size_and_their_room():
    """A teacher's long words beside and above narrow cells shrink to the readable size, then lose their end to "…".

    qkv's scores once drew a key cut to fit 2.8 units in the 2.71 its three lines of names leave: shrunk to fit, it fell
    to 19.4 points (the readable size is 20); a whole long word fell further.
    """
    words = [r"\input{/etc/hostname}int", "50%a_bcharacteristically", "café猫🙂uncharacteristic", "cat"]
    cell_width = 0.95
    grid = NumberGrid(
        DARK, np.zeros((4, 4)), row_labels=words, col_labels=words, cell_width=cell_width, row_label_width=1.5, col_label_lines=3
    )
    for names, room in ((grid.row_labels, 1.5), (grid.col_labels, cell_width * 3 * 0.95)):
        for name, word in zip(names, words):
            assert name.font_size >= DARK.min_size - 1e-6, (word, name.font_size)
            assert name.width <= room + 1e-6, (word, name.width, room)
            assert name.original_text == word or (name.original_text.endswith("…") and word.startswith(name.original_text[:-1]))
    assert grid.row_labels[3].original_text == "cat"
