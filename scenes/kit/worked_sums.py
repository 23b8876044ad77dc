"""Worked sums: a dot product written out term by term, and attention's weighted sum of value rows."""

from __future__ import annotations

from typing import Protocol, Sequence

from manim import DOWN, LEFT, RIGHT, Line, Mobject, Text, VGroup

from ..theme import Theme
from .tables import NumberGrid, one_number_size
from .text import elided_label, formula, label

__all__ = ["NumberSource", "WorkedSum", "WeightedSum"]


class NumberSource(Protocol):
    """What hands numbers to a component by trace path, remembering them as shown (an ``ExplainerScene``)."""

    theme: Theme

    def grid(self, source: str, decimals: int = 2, **kwargs) -> "NumberGrid": ...

    def number(self, source: str, decimals: int = 2, **kwargs) -> Text: ...


class WorkedSum(VGroup):
    """A sum of products written out, every number read from the trace: ``name a₁×b₁ + a₂×b₂ + … = result``.

    The idiom of a worked dot product (a query times a key, a row of X times a column of W_Q).
    ``left`` and ``right`` are the trace paths of the factors, ``result`` the path of the sum;
    with ``divide_by`` the sum is bracketed and divided: ``(a₁×b₁ + …) ÷ s = result``. A line
    wider than ``max_width`` breaks after a "+" into two lines rather than shrinking below the
    readable size.

    Attributes
    ----------
    factors
        The factors as drawn, in pairs: ``factors[2 d]`` from ``left[d]``, ``factors[2 d + 1]`` from ``right[d]``.
    result
        The drawn result.
    """

    def __init__(
        self,
        scene: NumberSource,
        left: Sequence[str],
        right: Sequence[str],
        result: str,
        name: Mobject | None = None,
        decimals: tuple[int, int, int] = (2, 2, 2),
        colors: tuple[str | None, str | None, str | None] = (None, None, None),
        divide_by: str | None = None,
        size: int | None = None,
        result_size: int | None = None,
        max_width: float = 12.6,
        buff: float = 0.12,
    ):
        super().__init__()
        theme = scene.theme
        size = size or theme.small_size

        def sign(text: str) -> Text:
            return label(theme, text, size=size)

        self.factors = VGroup()
        terms = []
        for d, (a, b) in enumerate(zip(left, right)):
            first = scene.number(a, decimals[0], size=size, color=colors[0])
            second = scene.number(b, decimals[1], size=size, color=colors[1])
            self.factors.add(first, second)
            term = VGroup(*([sign("+")] if d else []), first, sign("×"), second)
            terms.append(term.arrange(RIGHT, buff=buff))
        self.result = scene.number(result, decimals[2], size=result_size or size, color=colors[2])
        head = [name] if name is not None else []
        if divide_by is not None:
            head.append(sign("("))
            tail = [sign(") ÷"), scene.number(divide_by, 0, size=size), sign("="), self.result]
        else:
            tail = [sign("="), self.result]
        parts = [*head, *terms, *tail]
        line = VGroup(*parts).arrange(RIGHT, buff=buff)
        if line.width <= max_width:
            self.add(*parts)
            return
        # Two lines: the terms split in the middle, the second line starting under the first term.
        half = (len(terms) + 1) // 2
        first_line = VGroup(*head, *terms[:half]).arrange(RIGHT, buff=buff)
        second_line = VGroup(*terms[half:], *tail).arrange(RIGHT, buff=buff)
        second_line.next_to(first_line, DOWN, buff=0.3).align_to(terms[0], LEFT)
        self.add(*head, *terms, *tail)


class WeightedSum(VGroup):
    """The output of attention written out: each value row scaled by its attention weight, then added.

    One row per key ``j``: ``label  w_j × v_j = w_j v_j``; under the scaled rows a line,
    and their sum, the output row, aligned column by column. Every number is read from the
    trace by path: ``weight``, ``value`` and ``product`` are paths with ``{j}`` where the key
    goes (``"weights[1, {j}]"``, ``"v[{j}]"``, ``"weighted_values[1, {j}]"``), ``output``
    the path of the sum (``"output[1]"``).

    Attributes
    ----------
    labels, weights, values, products
        Per key: its label, its weight (a ``Text``), its value row and its scaled row (``NumberGrid``).
    times, equals
        The "×" and "=" signs of each row.
    rule
        The line under the scaled rows.
    output, output_name
        The sum and what stands left of it.
    """

    def __init__(
        self,
        scene: NumberSource,
        labels: Sequence[str],
        weight: str,
        value: str,
        product: str,
        output: str,
        output_name: Mobject | None = None,
        decimals: int = 2,
        value_decimals: int = 2,
        cell_width: float = 0.95,
        row_height: float = 0.55,
        label_width: float = 2.5,
        label_color: str | None = None,
        weight_color: str | None = None,
    ):
        super().__init__()
        theme = scene.theme
        self._label_style = (theme, list(labels), label_color)
        self.labels, self.weights, self.values, self.products = VGroup(), VGroup(), VGroup(), VGroup()
        self.times, self.equals = VGroup(), VGroup()
        cells = {"cell_width": cell_width, "cell_height": row_height}
        for j, name in enumerate(labels):
            y = -j * row_height
            weight_text = scene.number(weight.format(j=j), decimals, color=weight_color)
            value_row = scene.grid(value.format(j=j), value_decimals, **cells)
            product_row = scene.grid(product.format(j=j), decimals, **cells)
            times = label(theme, "×", size=theme.small_size)
            equals = label(theme, "=", size=theme.small_size)
            weight_text.move_to([weight_text.width / 2, y, 0])
            times.next_to(weight_text, RIGHT, buff=0.15)
            value_row.shift([times.get_right()[0] + 0.15 - value_row.cells.get_left()[0], y - value_row.cells.get_y(), 0])
            equals.next_to(value_row.cells, RIGHT, buff=0.2)
            product_row.shift([equals.get_right()[0] + 0.2 - product_row.cells.get_left()[0], y - product_row.cells.get_y(), 0])
            word = elided_label(theme, name, label_width, size=theme.small_size, color=label_color)
            word.next_to(weight_text, LEFT, buff=0.3).set_y(y)
            for group, part in (
                (self.labels, word),
                (self.weights, weight_text),
                (self.times, times),
                (self.values, value_row),
                (self.equals, equals),
                (self.products, product_row),
            ):
                group.add(part)
        # Weights and labels right-aligned in their columns, whatever their widths.
        right = max(w.get_right()[0] for w in self.weights)
        for word, weight_text in zip(self.labels, self.weights):
            weight_text.shift(RIGHT * (right - weight_text.get_right()[0]))
            word.shift(RIGHT * (weight_text.get_left()[0] - 0.3 - word.get_right()[0]))
        bottom = self.products[-1].cells.get_bottom()[1]
        self.rule = Line(
            [self.products[0].cells.get_left()[0], bottom - 0.15, 0],
            [self.products[0].cells.get_right()[0], bottom - 0.15, 0],
            color=theme.text,
            stroke_width=3,
        )
        self.output = scene.grid(output, decimals, **cells)
        self.output.shift(
            [
                self.products[0].cells.get_left()[0] - self.output.cells.get_left()[0],
                bottom - 0.3 - self.output.cells.get_top()[1],
                0,
            ]
        )
        one_number_size([*self.values, *self.products, self.output])
        self.output_name = output_name if output_name is not None else formula(theme, r"\textstyle\sum_j w_j v_j =")
        self.output_name.next_to(self.output.cells, LEFT, buff=0.2)
        self.add(self.labels, self.weights, self.times, self.values, self.equals, self.products, self.rule)
        self.add(self.output, self.output_name)

    def fit_width(self, width: float) -> WeightedSum:
        """Cut the widest labels (their words elided) until the sum is at most ``width`` wide: a teacher's longest words.

        The numbers keep their size; nothing changes when the sum already fits.
        """
        limit = max(word.width for word in self.labels) - (self.width - width)
        theme, names, color = self._label_style
        for j, word in enumerate(self.labels):
            if word.width > limit:
                narrower = elided_label(theme, names[j], limit, size=theme.small_size, color=color)
                self.labels[j] = narrower.move_to(word).align_to(word, RIGHT)
        return self

    def row(self, j: int) -> VGroup:
        """Everything of key ``j``'s row: label, weight, value row, scaled row and the signs."""
        return VGroup(self.labels[j], self.weights[j], self.times[j], self.values[j], self.equals[j], self.products[j])
