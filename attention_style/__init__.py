"""Colours and number formats shared by the videos and the pages: a leaf that imports neither manim nor scenes.

Every text colour is chosen to keep a contrast ratio of at least 4.5:1 against its palette's
background (WCAG AA; checked in ``tests/test_theme.py``), and the heatmap colour map is viridis,
which stays ordered for colour-blind viewers and in greyscale. Colours for Q, K and V follow the
Okabe-Ito palette. The scenes' :class:`scenes.theme.Theme` adds the sizes a frame is drawn with;
the pages and exports take a :class:`Palette` from here, so writing a page never loads a scene.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

__all__ = [
    "Palette",
    "PALETTES",
    "DARK",
    "LIGHT",
    "VIRIDIS",
    "MINUS",
    "format_number",
    "parse_number",
    "contrast_ratio",
    "colormap_color",
    "readable_on",
    "palette_fields",
]

# Eleven evenly spaced stops of matplotlib's viridis (0.0, 0.1, ..., 1.0).
VIRIDIS = (
    "#440154",
    "#482475",
    "#414487",
    "#355F8D",
    "#2A788E",
    "#21918C",
    "#22A884",
    "#44BF70",
    "#7AD151",
    "#BDDF26",
    "#FDE725",
)


@dataclass(frozen=True)
class Palette:
    """A theme's colours and fonts: what a video and the pages around it share."""

    name: str
    background: str
    text: str
    muted: str
    query: str
    key: str
    value: str
    highlight: str
    masked: str
    line: str
    surface: str
    """Cards and table headers on web pages, a step off the background."""
    font: str = "DejaVu Sans"
    mono_font: str = "DejaVu Sans Mono"
    colormap: tuple[str, ...] = field(default=VIRIDIS)
    heads: tuple[str, ...] = ()
    """One colour per attention head (a head's columns, blocks and titles), kept through split and concatenation."""

    def head_color(self, head: int) -> str:
        """The colour of head ``head`` (numbered from 0); more heads than colours reuse them in turn."""
        return self.heads[head % len(self.heads)]

    @property
    def text_colors(self) -> dict[str, str]:
        """Every colour that text is drawn in, by role (what the contrast test checks)."""
        return {
            "text": self.text,
            "muted": self.muted,
            "query": self.query,
            "key": self.key,
            "value": self.value,
            "highlight": self.highlight,
            "masked": self.masked,
            **{f"head {h + 1}": color for h, color in enumerate(self.heads)},
        }


def palette_fields(palette: Palette) -> dict:
    """A palette's fields by name, to build a richer theme from it (``Theme(**palette_fields(DARK))``)."""
    return {item.name: getattr(palette, item.name) for item in fields(Palette)}


DARK = Palette(
    name="dark",
    background="#111318",
    text="#F2F2F2",
    muted="#B4B9C6",
    query="#E69F00",  # Okabe-Ito orange
    key="#56B4E9",  # Okabe-Ito sky blue
    value="#3DD6A3",  # Okabe-Ito bluish green, lightened for text on a dark background
    highlight="#F0E442",  # Okabe-Ito yellow
    masked="#E07A7A",
    line="#5A6070",
    surface="#1B1E26",
    # Heads 4 and 8 kept clear of the query orange and the highlight yellow.
    heads=("#F8A5C2", "#7FD3C6", "#C7A6F7", "#E879F9", "#9CCF6B", "#F4978E", "#8FB8F7", "#C8B6A6"),
)

LIGHT = Palette(
    name="light",
    background="#FFFFFF",
    text="#141414",
    muted="#50555F",
    query="#A35200",
    key="#005A9C",
    value="#00704F",
    highlight="#7A3A8C",
    masked="#B0281E",
    line="#9AA0AA",
    surface="#F1F2F4",
    # Head 4 kept clear of the query orange.
    heads=("#B0306A", "#11756A", "#6B3FB0", "#6D4C41", "#3D7A12", "#B23A2E", "#2856A8", "#6B6B00"),
)

PALETTES = {palette.name: palette for palette in (DARK, LIGHT)}

MINUS = "\u2212"


def format_number(value: float, decimals: int = 2) -> str:
    """Format a number as shown on screen: fixed decimals, thousands grouped (16,384), a true minus sign, no "−0.00".

    ``-inf`` (a masked score) is shown as "−∞".
    """
    value = float(value)
    if math.isinf(value):
        return ("" if value > 0 else MINUS) + "\u221e"
    text = f"{value:,.{decimals}f}"
    if float(text.replace(",", "")) == 0:
        text = text.lstrip("-")
    return text.replace("-", MINUS)


def parse_number(text: str) -> float:
    """Inverse of :func:`format_number` for a test: read the number a Text shows."""
    text = text.strip().replace(MINUS, "-").replace(",", "")
    if text in ("\u221e", "-\u221e"):
        return float(text.replace("\u221e", "inf"))
    return float(text)


def _relative_luminance(hex_color: str) -> float:
    channels = [int(hex_color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two ``#RRGGBB`` colours, from 1 to 21."""
    lighter, darker = sorted((_relative_luminance(foreground), _relative_luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def colormap_color(theme: Palette, fraction: float) -> str:
    """The colour map's colour at ``fraction`` in [0, 1], linearly between its stops."""
    fraction = min(max(float(fraction), 0.0), 1.0)
    position = fraction * (len(theme.colormap) - 1)
    low = int(math.floor(position))
    high = min(low + 1, len(theme.colormap) - 1)
    t = position - low
    a = [int(theme.colormap[low][i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(theme.colormap[high][i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02X}" for x, y in zip(a, b))


def readable_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (for numbers inside heatmap cells)."""
    return "#000000" if contrast_ratio("#000000", fill) >= contrast_ratio("#FFFFFF", fill) else "#FFFFFF"
