"""Heatmaps: a labelled attention heatmap, the names of its axes, heads side by side, and maps too large to print.

An attention heatmap is a :class:`~scenes.kit.tables.NumberGrid` coloured by value, queries
down its left side and keys along its top, read from the trace by path through the scene (so
every shown number is remembered for the tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, UL, UP, Rectangle, VGroup, VMobject

from ..theme import Theme, colormap_color
from .layout import Region, align_to_cells
from .tables import NumberGrid
from .text import elided_label, label
from .worked_sums import NumberSource

__all__ = [
    "COLOR_GRID_LEVELS",
    "attention_heatmap",
    "weights_heatmap",
    "Cells",
    "AxisLabels",
    "axis_names",
    "HeadGrid",
    "heatmap_patches",
    "ColorGrid",
    "ColorScale",
]

COLOR_GRID_LEVELS = 64
"""Colour steps of a :class:`ColorGrid`: more than the eye tells apart on a smooth colour map."""


def attention_heatmap(
    scene: NumberSource,
    source: str,
    queries: Sequence[str] | None,
    keys: Sequence[str] | None,
    decimals: int = 2,
    *,
    cell: tuple[float, float] = (0.95, 0.55),
    scale: tuple[float | None, float | None] = (None, None),
    number_size: int | None = None,
    label_width: float = 2.2,
    key_lines: int = 0,
    mono: bool = True,
) -> NumberGrid:
    """The trace's matrix at ``source`` as a heatmap: ``queries`` left of its rows, ``keys`` above its columns.

    Parameters
    ----------
    scene
        Reads the matrix and remembers its numbers as shown (``scene.grid``).
    queries, keys
        Row and column labels (tokens), drawn in the theme's query and key colours; None leaves them out.
    cell
        A cell's width and height.
    scale
        The values at the two ends of the colour map; None takes the matrix's least or greatest.
    number_size
        Font size of the numbers in the cells (the theme's small size unless given).
    label_width
        Widest a query label may be; a longer word shrinks to it.
    key_lines
        Lines the key labels take turns on (see ``NumberGrid``'s ``col_label_lines``); 0 picks as few as fit.
    mono
        Numbers in the monospace font; False for the narrower body font.
    """
    theme = scene.theme
    return scene.grid(
        source,
        decimals,
        heat=True,
        vmin=scale[0],
        vmax=scale[1],
        cell_width=cell[0],
        cell_height=cell[1],
        font_size=number_size,
        row_labels=queries,
        col_labels=keys,
        row_label_color=theme.query,
        col_label_color=theme.key,
        row_label_width=label_width,
        col_label_lines=key_lines,
        mono_numbers=mono,
    )


def axis_names(theme: Theme, grid: NumberGrid, rows: str = "queries", columns: str = "keys") -> VGroup:
    """ "queries ↓" above a grid's row labels and "keys →" above its column labels (or other words: ``rows``, ``columns``)."""
    queries = label(theme, f"{rows} ↓", size=theme.small_size, color=theme.query)
    queries.next_to(grid.row_labels, UP, buff=0.4).align_to(grid.row_labels, RIGHT)
    # A long first key word (see ``col_label_lines``) reaches left of the map: "queries ↓" steps aside.
    queries.shift(LEFT * max(0.0, queries.get_right()[0] + 0.2 - grid.col_labels[0].get_left()[0]))
    keys = label(theme, f"{columns} →", size=theme.small_size, color=theme.key).next_to(grid.col_labels, UP, buff=0.2)
    return VGroup(queries, keys)


LABEL_BUFF = 0.15
"""Gap between a row label and its row (as ``NumberGrid`` draws it)."""


class HeadGrid(VGroup):
    """Attention heatmaps of several heads in a grid of one or two columns, filling a region.

    Query tokens stand left of the first column only, key tokens above the first row only
    (every other one higher, so each may be two cells wide), and a title over each map. The
    maps and their labels fill ``region``; the first row's titles stand just over it.
    Cells are as large as the region allows, up to ``max_cell``; the numbers show two decimals
    where a cell is wide enough, else one. Neighbouring numbers are kept apart by borders in
    the background colour. Colours run on the fixed scale 0 to 1 (as :func:`weights_heatmap`), so a
    weight near 1/n looks as weak as it is, whatever the largest weight of the map.

    Attributes
    ----------
    maps
        The heatmaps (``NumberGrid``), in the order of ``sources``.
    titles
        The title over each map.
    decimals
        The decimals the numbers show.
    """

    def __init__(
        self,
        scene: NumberSource,
        sources: Sequence[str],
        titles: Sequence[str],
        tokens: Sequence[str],
        region: Region,
        max_cell: tuple[float, float] = (0.8, 0.55),
        max_label_width: float = 2.0,
    ):
        super().__init__()
        theme = scene.theme
        n, count = len(tokens), len(sources)
        self.tokens = tuple(tokens)
        columns = 1 if count == 1 else 2
        rows = -(-count // columns)
        gap, row_gap = 0.3, 0.7
        natural = max(label(theme, token, size=theme.min_size).width for token in tokens)
        label_w = min(natural, max_label_width)
        cell_w = min(max_cell[0], (region.width - LABEL_BUFF - label_w - (columns - 1) * gap) / (columns * n))
        key_room = 0.75  # two staggered lines of key words above the first row of maps
        cell_h = min(max_cell[1], (region.top - key_room - region.bottom - (rows - 1) * row_gap) / (rows * n))
        self.decimals = 2 if cell_w >= 0.7 else 1
        width = n * cell_w
        left0 = region.center[0] - (label_w + LABEL_BUFF + columns * width + (columns - 1) * gap) / 2 + label_w + LABEL_BUFF
        self.maps, self.titles = [], VGroup()
        for k, (source, title) in enumerate(zip(sources, titles)):
            row, col = divmod(k, columns)
            heatmap = scene.grid(
                source,
                self.decimals,
                heat=True,
                vmin=0.0,
                vmax=1.0,
                cell_width=cell_w,
                cell_height=cell_h,
                font_size=theme.min_size,
                mono_numbers=False,
            )
            align_to_cells(
                heatmap, heatmap.cells, left0 + col * (width + gap), region.top - key_room - row * (n * cell_h + row_gap)
            )
            heatmap.cells.set_stroke(theme.background, width=3)
            if col == 0:
                heatmap.row_labels = self.query_labels(theme, heatmap, label_w)
                heatmap.add(heatmap.row_labels)
            if row == 0:
                heatmap.col_labels = self.key_labels(theme, heatmap, col, last=col == columns - 1)
                heatmap.add(heatmap.col_labels)
            above = heatmap.col_labels if row == 0 else heatmap.cells
            self.titles.add(label(theme, title, size=theme.min_size, color=theme.highlight).next_to(above, UP, buff=0.1))
            self.maps.append(heatmap)
        self.add(*self.maps, self.titles)

    def query_labels(self, theme: Theme, heatmap: NumberGrid, width: float) -> VGroup:
        """The tokens left of ``heatmap``'s rows, each at most ``width`` wide (a long word elided)."""
        labels = VGroup()
        for i, token in enumerate(self.tokens):
            text = elided_label(theme, token, width, size=theme.min_size, color=theme.query)
            labels.add(text.next_to(heatmap.cell(i, 0), LEFT, buff=LABEL_BUFF))
        return labels

    def key_labels(self, theme: Theme, heatmap: NumberGrid, col: int, last: bool) -> VGroup:
        """The key tokens above a heatmap's columns, every other one higher, so each may be two cells wide.

        Which labels sit higher follows the column's place in the whole row of heatmaps, so the last
        label of one heatmap and the first of the next are never at the same height. A word wider
        than its room is elided; the rightmost label ends with its cell, inside the frame.
        """
        n = heatmap.shape[1]
        cell_w = heatmap.cell(0, 0).width
        labels = VGroup()
        for j, token in enumerate(self.tokens):
            edge = last and j == n - 1
            room = (1.5 if edge else 2.0) * cell_w - 0.12
            text = elided_label(theme, token, room, size=theme.min_size, color=theme.key)
            text.next_to(heatmap.cell(0, j), UP, buff=0.1)
            if edge and text.width > cell_w:
                text.align_to(heatmap.cell(0, j), RIGHT)
            labels.add(text)
        # Two lines only when a word is wider than its cell: short words read best on one line.
        if any(text.width > cell_w - 0.12 for text in labels):
            stagger = max(text.height for text in labels) + 0.08
            for j, text in enumerate(labels):
                if (col * n + j) % 2:
                    text.shift(UP * stagger)
        return labels


def rectangle_points(boxes: np.ndarray) -> np.ndarray:
    """Cubic Bézier points of closed rectangles ``(x0, y0, x1, y1)``, one subpath each."""
    x0, y0, x1, y1 = boxes.T
    zeros = np.zeros_like(x0)
    corners = np.stack(
        [np.stack([x, y, zeros], axis=-1) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0))], axis=1
    )  # (m, 5, 3)
    start, end = corners[:, :-1], corners[:, 1:]  # (m, 4, 3): the four sides
    thirds = np.array([0.0, 1 / 3, 2 / 3, 1.0])[None, None, :, None]
    points = start[:, :, None] + thirds * (end - start)[:, :, None]  # (m, 4 sides, 4 points, 3)
    return points.reshape(-1, 3)


def heatmap_patches(theme: Theme, matrices, cell: float, levels: int = 48) -> VGroup:
    """Heatmaps too small to print numbers in, drawn as one filled shape per colour level.

    ``matrices`` is a list of ``(values, top_left)`` with values in [0, 1]. Each row's
    runs of one colour become one rectangle, a run under the same run of the row
    above extends its rectangle down, and all rectangles of a colour are one shape:
    72 heatmaps are a few dozen shapes instead of 16,000 squares. Manim's cost per
    frame grows with the shapes and rectangles it draws (measured in the README's
    rendering-speed section). Colours are the theme's colour map at ``levels`` steps.
    """
    boxes: dict[int, list[list[float]]] = {}
    for values, (left, top) in matrices:
        steps = np.clip(np.rint(np.asarray(values, dtype=float) * (levels - 1)), 0, levels - 1).astype(int)
        above: dict[tuple[int, int, int], list[float]] = {}  # the rectangle each run of the previous row ends
        for i, row in enumerate(steps):
            current = {}
            j = 0
            while j < len(row):
                k = j
                while k + 1 < len(row) and row[k + 1] == row[j]:
                    k += 1
                run = (int(row[j]), j, k)
                box = above.get(run)
                if box is None:
                    box = [left + j * cell, top - i * cell, left + (k + 1) * cell, 0.0]
                    boxes.setdefault(run[0], []).append(box)
                box[3] = top - (i + 1) * cell
                current[run] = box
                j = k + 1
            above = current
    patches = VGroup()
    for step, rectangles in sorted(boxes.items()):
        shape = VMobject(stroke_width=0, fill_color=colormap_color(theme, step / (levels - 1)), fill_opacity=1)
        shape.set_points(rectangle_points(np.array(rectangles)))
        patches.add(shape)
    return patches


class ColorGrid(VGroup):
    """A matrix too large to print, drawn as small squares coloured by value, without numbers.

    The one kind of heatmap without values in its cells: for thousands of
    values (50 x 128 encodings) a printed number per cell could not be read.
    Drawn with :func:`heatmap_patches`: one shape per colour level, not one per cell.

    Parameters
    ----------
    values
        A 2-D matrix; row 0 is drawn at the top.
    cell_width, cell_height
        Size of one square.
    vmin, vmax
        Values at the two ends of the theme's colour map.
    """

    def __init__(self, theme: Theme, values, cell_width: float, cell_height: float, vmin: float, vmax: float):
        super().__init__()
        values = np.asarray(values, dtype=float)
        self.shape = values.shape
        fractions = np.full(values.shape, 0.5) if vmax == vmin else (values - vmin) / (vmax - vmin)
        # Square cells from ``heatmap_patches``, then stretched to the cell's aspect ratio.
        self.add(*heatmap_patches(theme, [(fractions, (0.0, 0.0))], cell=1.0, levels=COLOR_GRID_LEVELS))
        self.stretch_to_fit_width(cell_width * values.shape[1])
        self.stretch_to_fit_height(cell_height * values.shape[0])

    def cell(self, i: int, j: int) -> Rectangle:
        """An invisible rectangle where cell ``(i, j)`` is now, to place labels and marks against."""
        n_rows, n_cols = self.shape
        width, height = self.width / n_cols, self.height / n_rows
        centre = self.get_corner(UL) + RIGHT * (j + 0.5) * width + DOWN * (i + 0.5) * height
        return Rectangle(width=width, height=height, stroke_width=0, fill_opacity=0).move_to(centre)


class ColorScale(VGroup):
    """A vertical colour bar of the theme's colour map, low at the bottom."""

    def __init__(self, theme: Theme, height: float, width: float = 0.25, steps: int = 40):
        super().__init__()
        step = height / steps
        for k in range(steps):
            color = colormap_color(theme, (k + 0.5) / steps)
            self.add(Rectangle(width=width, height=step, stroke_width=0, fill_color=color, fill_opacity=1).move_to(UP * k * step))


@dataclass(frozen=True)
class Cells:
    """A heatmap's cells: their width and height, and the size and font of the numbers in them.

    ``number_size`` None is the theme's small size; ``mono`` False draws the numbers in the
    body font, whose "0.6" is 13 % narrower (many small cells side by side).
    """

    width: float = 0.95
    height: float = 0.55
    number_size: int | None = None
    mono: bool = True


@dataclass(frozen=True)
class AxisLabels:
    """How a heatmap's query and key labels are drawn.

    Attributes
    ----------
    width
        Widest a query label may be; a longer word shrinks to it.
    size
        Font size of both kinds of labels (the theme's small size when None).
    key_lines
        Lines the key labels take turns on (see ``NumberGrid``'s ``col_label_lines``); 0 picks as few as fit.
    query_color
        Colour of the query labels (the theme's query colour when None): a row named after something else.
    """

    width: float = 2.2
    size: int | None = None
    key_lines: int = 0
    query_color: str | None = None


def weights_heatmap(
    scene: NumberSource,
    source: str,
    queries: Sequence[str] | None,
    keys: Sequence[str] | None,
    decimals: int = 2,
    *,
    cells: Cells = Cells(),
    labels: AxisLabels = AxisLabels(),
) -> NumberGrid:
    """Attention weights at ``source`` as a heatmap coloured on the fixed scale 0 to 1, so maps side by side compare.

    ``queries`` stand left of the rows, ``keys`` above the columns (None leaves them out); the
    cells and labels as ``cells`` and ``labels`` say.
    """
    theme = scene.theme
    return scene.grid(
        source,
        decimals,
        heat=True,
        vmin=0.0,
        vmax=1.0,
        cell_width=cells.width,
        cell_height=cells.height,
        font_size=cells.number_size,
        row_labels=queries,
        col_labels=keys,
        row_label_color=labels.query_color or theme.query,
        col_label_color=theme.key,
        label_size=labels.size,
        row_label_width=labels.width,
        col_label_lines=labels.key_lines,
        mono_numbers=cells.mono,
    )
