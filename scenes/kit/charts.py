"""Charts: a histogram, bars of a distribution, and a line chart of a function."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from manim import DOWN, ORIGIN, RIGHT, UP, Line, Rectangle, VGroup, VMobject

from ..theme import Theme
from .layout import Region
from .text import label, number_label

__all__ = ["Histogram", "WeightBars", "LineChart"]


class Histogram(VGroup):
    """Bars of counts over bin edges, on an axis from the first edge to the last.

    Parameters
    ----------
    counts, edges
        As from ``numpy.histogram``; ``len(edges) == len(counts) + 1``.
    max_count
        Count that fills ``height``; share it between histograms to compare them.
    """

    def __init__(self, theme: Theme, counts, edges, width: float, height: float, color: str, max_count: float | None = None):
        super().__init__()
        counts = np.asarray(counts, dtype=float)
        edges = np.asarray(edges, dtype=float)
        max_count = max_count or counts.max()
        span = edges[-1] - edges[0]
        self.axis = Line(ORIGIN, RIGHT * width, color=theme.line, stroke_width=2)
        self.bars = VGroup()
        for count, left, right in zip(counts, edges[:-1], edges[1:]):
            if count == 0:
                continue
            bar_width = (right - left) / span * width
            bar_height = count / max_count * height
            bar = Rectangle(width=bar_width, height=bar_height, stroke_width=0, fill_color=color, fill_opacity=0.85)
            bar.move_to(RIGHT * ((left + right) / 2 - edges[0]) / span * width + UP * bar_height / 2)
            self.bars.add(bar)
        self.add(self.axis, self.bars)

    def x_to_point(self, x: float, edges) -> np.ndarray:
        """Point on the axis for data value ``x`` (with the histogram's ``edges``)."""
        edges = np.asarray(edges, dtype=float)
        return self.axis.point_from_proportion((x - edges[0]) / (edges[-1] - edges[0]))


class WeightBars(VGroup):
    """A distribution as vertical bars with its number on top and a label under each bar.

    A bar of value ``max_value`` is ``height`` tall; charts compared side by side share both.
    """

    def __init__(
        self,
        theme: Theme,
        weights,
        labels: Sequence[str],
        decimals: int = 2,
        height: float = 2.0,
        bar_width: float = 0.6,
        spacing: float = 1.0,
        color: str | None = None,
        max_value: float = 1.0,
        number_size: int | None = None,
    ):
        super().__init__()
        weights = np.asarray(weights, dtype=float)
        self.bars = VGroup()
        self.numbers = VGroup()
        self.labels = VGroup()
        for j, (weight, name) in enumerate(zip(weights, labels)):
            x = RIGHT * j * spacing
            bar_height = max(weight / max_value * height, 0.02)
            bar = Rectangle(width=bar_width, height=bar_height, stroke_width=0, fill_color=color or theme.value, fill_opacity=0.9)
            bar.move_to(x + UP * bar_height / 2)
            number = number_label(theme, weight, decimals, size=number_size)
            number.next_to(bar, UP, buff=0.1)
            token = label(theme, name, size=theme.small_size, color=theme.muted)
            if token.width > spacing * 0.95:
                token.scale_to_fit_width(spacing * 0.95)
            token.move_to(x + DOWN * 0.3)
            self.bars.add(bar)
            self.numbers.add(number)
            self.labels.add(token)
        self.add(self.bars, self.numbers, self.labels)


class LineChart(VGroup):
    """A curve through ``values[p]`` at x = 0, 1, …, over a region, with its x axis at ``low`` and y axis at x = 0.

    The region's left and right edges are x = 0 and the last position; its bottom and top are
    ``low`` and ``high``. :meth:`to_point` gives where any (x, value) lies, to mark or label it.

    Attributes
    ----------
    axes
        The x axis (at ``low``) and the y axis (at x = 0).
    curve
        The line through the values.
    """

    def __init__(self, theme: Theme, values, region: Region, low: float, high: float, color: str, stroke_width: float = 4):
        super().__init__()
        self.region, self.low, self.high = region, low, high
        values = np.asarray(values, dtype=float)
        self.last = len(values) - 1
        self.axes = VGroup(
            Line(self.to_point(0, low), self.to_point(self.last, low), color=theme.line),
            Line(self.to_point(0, low), self.to_point(0, high), color=theme.line),
        )
        self.curve = VMobject(stroke_color=color, stroke_width=stroke_width)
        self.curve.set_points_as_corners([self.to_point(x, value) for x, value in enumerate(values)])
        self.add(self.axes, self.curve)

    def to_point(self, x: float, value: float) -> np.ndarray:
        """Where position ``x`` with ``value`` lies on the chart."""
        r = self.region
        return np.array(
            [
                r.left + (r.right - r.left) * x / self.last,
                r.bottom + (r.top - r.bottom) * (value - self.low) / (self.high - self.low),
                0.0,
            ]
        )
