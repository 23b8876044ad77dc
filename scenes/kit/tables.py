"""Tables of numbers and rows of tokens: :class:`NumberGrid` (optionally a heatmap), :class:`TokenRow`, masks."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, Text, VGroup

from ..theme import Theme, colormap_color, readable_on
from .text import boxed_on_baseline, elided_label, label, label_lines, number_label, on_one_baseline

__all__ = [
    "CELL_PADDING",
    "MINUS_PADDING",
    "NumberGrid",
    "TokenRow",
    "fitted_width",
    "number_cell_width",
    "one_number_size",
    "shade_mask",
]


CELL_PADDING = 0.06
"""Least gap between a number's ink and its cell's border line (8 px at 1080p), where the readable size allows."""

MINUS_PADDING = 0.12
"""The same gap for a negative number: a minus sign's flat bar 0.06 from a border line looked joined to it (review 6)."""


def _padding(number: Text) -> float:
    return MINUS_PADDING if number.original_text.startswith("−") else CELL_PADDING


def number_cell_width(theme: Theme, values, decimals: int = 2, size: int | None = None, mono: bool = True) -> float:
    """How wide a grid's cells must be for its widest number, minus sign included, to keep its gaps at full size.

    A scene that sizes its cells for "0.30" gets "−1.04" squeezed towards its borders; pass
    ``max(wanted, number_cell_width(...))`` as the grid's ``cell_width`` instead.
    """
    finite = [float(v) for v in np.ravel(np.asarray(values, dtype=float)) if np.isfinite(v)]
    numbers = [number_label(theme, value, decimals, size=size, mono=mono) for value in finite]
    return max((number.width + 2 * _padding(number) for number in numbers), default=0.0)


def fitted_width(theme: Theme, number: Text, cell_width: float) -> float:
    """How wide ``number`` may be drawn in a cell ``cell_width`` wide: clear of both borders by :data:`CELL_PADDING` (:data:`MINUS_PADDING` for a negative one).

    A number never grows, and never shrinks below the theme's smallest readable size for the
    padding (it then fills 90 % of the cell, as a cell too narrow for its number always did):
    a scene that wants clear borders gives its numbers cells wide enough.
    """
    at_min_size = number.width * theme.min_size / number.font_size
    return min(number.width, max(cell_width - 2 * _padding(number), min(at_min_size, cell_width * 0.9)))


class NumberGrid(VGroup):
    """A matrix of numbers in cells, optionally coloured by value as a heatmap.

    Parameters
    ----------
    theme
        Colours and fonts.
    values
        A 1-D row or a 2-D matrix; ``-inf`` cells (masked scores) show "−∞".
    decimals
        Decimals shown; a shown number is the value rounded to this many.
    heat
        Colour each cell from the theme's colour map between ``vmin`` and ``vmax``.
    row_labels, col_labels
        Optional labels (tokens) left of the rows and above the columns.
    row_label_width
        Widest a row label may be; longer tokens shrink to it, down to the readable size, then lose their end to an
        ellipsis (column labels likewise fit their room above the cells: :func:`.text.elided_label`).
    col_label_lines
        Lines the column labels take turns on, so each may be that many cells wide (a
        teacher's long words); 0 picks the fewest lines, up to 3, at which every label
        keeps its size, or else the readable size (see :func:`label_lines`).
    mono_numbers
        Numbers in the monospace font (aligned digits); False uses the body font, whose
        "0.6" is 13 % narrower, for many small heatmaps side by side.
    """

    def __init__(
        self,
        theme: Theme,
        values,
        decimals: int = 2,
        heat: bool = False,
        vmin: float | None = None,
        vmax: float | None = None,
        cell_width: float = 0.95,
        cell_height: float = 0.55,
        font_size: int | None = None,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        row_label_color: str | None = None,
        col_label_color: str | None = None,
        label_size: int | None = None,
        row_label_width: float = 2.2,
        col_label_lines: int = 1,
        mono_numbers: bool = True,
        grouped: bool = True,
    ):
        super().__init__()
        values = np.asarray(values, dtype=float)
        values = values.reshape(1, -1) if values.ndim == 1 else values
        finite = values[np.isfinite(values)]
        vmin = float(finite.min()) if vmin is None and finite.size else (vmin or 0.0)
        vmax = float(finite.max()) if vmax is None and finite.size else (vmax or 1.0)
        n_rows, n_cols = values.shape
        font_size = font_size or theme.small_size

        self.cells = VGroup()
        self.numbers = VGroup()
        for i in range(n_rows):
            for j in range(n_cols):
                value = values[i, j]
                cell = Rectangle(width=cell_width, height=cell_height, stroke_color=theme.line, stroke_width=1.5)
                cell.move_to(RIGHT * j * cell_width + DOWN * i * cell_height)
                text_color = theme.text
                if not np.isfinite(value):
                    cell.set_fill(theme.background, opacity=1)
                    text_color = theme.masked
                elif heat:
                    fraction = 0.5 if vmax == vmin else (value - vmin) / (vmax - vmin)
                    fill = colormap_color(theme, fraction)
                    cell.set_fill(fill, opacity=1)
                    text_color = readable_on(fill)
                number = number_label(theme, value, decimals, size=font_size, color=text_color, mono=mono_numbers)
                if not grouped:  # labels such as token ids, not quantities: 1996, not 1,996
                    text = number.original_text.replace(",", "")
                    number = label(theme, text, size=font_size, color=text_color, mono=mono_numbers)
                self.cells.add(cell)
                self.numbers.add(number)
        # One size for every number, the one the widest needs: a fit per cell drew "−0.41" smaller than "0.73".
        scale = min((fitted_width(theme, number, cell_width) / number.width for number in self.numbers), default=1.0)
        for number, cell in zip(self.numbers, self.cells):
            number.scale(scale).move_to(cell)
        self.add(self.cells, self.numbers)
        self.shape = (n_rows, n_cols)

        self.row_labels = VGroup()
        self.col_labels = VGroup()
        size = label_size or theme.small_size
        if row_labels is not None:
            for i, token in enumerate(row_labels):
                text = elided_label(theme, token, row_label_width, size=size, color=row_label_color)
                text.next_to(self.cell(i, 0), LEFT, buff=0.15)
                self.row_labels.add(text)
            on_one_baseline(self.row_labels, [self.cell(i, 0).get_y() for i in range(len(self.row_labels))])
            self.add(self.row_labels)
        if col_labels is not None:
            # Picking the lines, words keep a gap of 15% of a cell; placed, they may fill 95% of their room.
            lines = col_label_lines or label_lines(theme, col_labels, cell_width * 0.85, size)
            ends = [-np.inf] * lines  # right edge of the last label on each line
            for j, token in enumerate(col_labels):
                text = elided_label(theme, token, cell_width * lines * 0.95, size=size, color=col_label_color)
                text.next_to(self.cell(0, j), UP, buff=0.12)
                # The lowest line where the label clears its neighbours: short words stay on the first
                # (else the line with the most room: on ``lines`` lines it clears by at least 5% of a cell).
                gap = min(0.25, 0.2 * cell_width)
                free = [k for k in range(lines) if text.get_left()[0] > ends[k] + gap] or [int(np.argmin(ends))]
                line = free[0]
                text.shift(UP * line * 0.38)
                ends[line] = text.get_right()[0]
                self.col_labels.add(text)
            on_one_baseline(self.col_labels)
            self.add(self.col_labels)

    def cell(self, i: int, j: int) -> Rectangle:
        """The cell at row ``i``, column ``j``."""
        return self.cells[i * self.shape[1] + j]

    def number(self, i: int, j: int) -> Text:
        """The number drawn in cell ``(i, j)``."""
        return self.numbers[i * self.shape[1] + j]

    def row(self, i: int) -> VGroup:
        """Cells and numbers of row ``i``."""
        n_cols = self.shape[1]
        return VGroup(*self.cells[i * n_cols : (i + 1) * n_cols], *self.numbers[i * n_cols : (i + 1) * n_cols])

    def column(self, j: int) -> VGroup:
        """Cells and numbers of column ``j``."""
        return VGroup(*[self.cell(i, j) for i in range(self.shape[0])], *[self.number(i, j) for i in range(self.shape[0])])


def one_number_size(grids: Sequence[NumberGrid]) -> None:
    """Draw the numbers of ``grids`` (rows of one table) at the smallest size any of them has, each centred in its cell.

    Each grid sizes its numbers for its own widest; grids read as one table (a weighted sum's
    rows) must not show a column's "−0.41" smaller than the "0.73" under it.
    """
    smallest = min(number.font_size for grid in grids for number in grid.numbers)
    for grid in grids:
        for number, cell in zip(grid.numbers, grid.cells):
            number.scale(smallest / number.font_size).move_to(cell)


class TokenRow(VGroup):
    """Tokens side by side in boxes; user text, so drawn with ``Text`` only.

    A row wider than ``max_width`` (a teacher's long sentence) is shrunk to it as a whole.
    Every box is as tall, and every word stands on one baseline ("my" as high as "The").
    """

    def __init__(
        self,
        theme: Theme,
        tokens: Sequence[str],
        color: str | None = None,
        size: int | None = None,
        buff: float = 0.25,
        max_width: float = 13.0,
    ):
        super().__init__()
        texts = [label(theme, token, size=size or theme.body_size, color=color) for token in tokens]
        self.add(*boxed_on_baseline(texts, (0.3, 0.25), 0.3, color or theme.line))
        self.arrange(RIGHT, buff=buff)
        if self.width > max_width:
            self.scale_to_fit_width(max_width)


def shade_mask(theme: Theme, grid: "NumberGrid", mask) -> "NumberGrid":
    """Colour a drawn 1/0 mask: allowed cells tinted, hidden cells' numbers in the masked colour.

    ``mask`` is the boolean mask the grid shows (read from the trace); nothing is computed.
    """
    n_rows, n_cols = grid.shape
    for i in range(n_rows):
        for j in range(n_cols):
            if mask[i][j]:
                grid.cell(i, j).set_fill(theme.value, opacity=0.28)
            else:
                grid.number(i, j).set_color(theme.masked)
    return grid
