"""Fonts and sizes, on top of the shared colours and number formats: the one place scenes take them from.

The colours, the fonts' names, the colour map and :func:`format_number` live in :mod:`attention_style`,
a leaf the pages share without loading a scene; a :class:`Theme` is its :class:`~attention_style.Palette`
plus the sizes a frame is drawn with. Every text colour keeps a contrast ratio of at least 4.5:1
against its background (WCAG AA; checked in ``tests/test_theme.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import attention_style
from attention_style import (
    MINUS,
    VIRIDIS,
    Palette,
    colormap_color,
    contrast_ratio,
    format_number,
    palette_fields,
    parse_number,
    readable_on,
)

__all__ = [
    "Theme",
    "THEMES",
    "DARK",
    "LIGHT",
    "format_number",
    "parse_number",
    "contrast_ratio",
    "colormap_color",
    "readable_on",
    "VIRIDIS",
    "MINUS",
]


@dataclass(frozen=True)
class Theme(Palette):
    """A complete visual theme: a palette and the sizes text and formulas are drawn at; scenes never name a colour or a font."""

    title_size: int = 40
    body_size: int = 30
    small_size: int = 24
    formula_size: int = 36
    """LaTeX glyphs look smaller than Text at the same size."""
    min_size: int = 20
    """No text is drawn smaller: its capitals and digits are 2.5 % of the frame's height (27 px at 1080p)."""
    min_formula_size: int = 27
    """No formula is drawn smaller: LaTeX's capitals at 27 are as tall as ``Text``'s at 20."""
    dense_number_size: int = 22
    """Numbers in a heatmap's cells when the cells are a little wider than the smallest (a few tokens)."""
    aside_formula_size: int = 32
    """A formula among words of the small size, as tall as they look."""
    large_formula_size: int = 40
    """A formula on a line of its own that the step is about."""
    pair_formula_size: int = 42
    """Two formulas stacked as a pair (a definition in two cases)."""
    headline_formula_size: int = 44
    """The formula a video is about (attention's), opening and closing it."""
    display_formula_size: int = 48
    """One short formula shown alone, the summary of a step."""
    hero_formula_size: int = 56
    """A formula shown alone as large as the frame allows, beside a heatmap it explains."""


DARK = Theme(**palette_fields(attention_style.DARK))
LIGHT = Theme(**palette_fields(attention_style.LIGHT))

THEMES = {theme.name: theme for theme in (DARK, LIGHT)}
