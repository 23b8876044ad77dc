"""Every text colour of every theme is readable on its background (WCAG AA, 4.5:1)."""

from __future__ import annotations

import pytest

from scenes.theme import THEMES, colormap_color, contrast_ratio, format_number, parse_number, readable_on


def test_contrast_ratio_of_known_pairs():
    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_text_colours_reach_4_5_to_1(theme):
    for role, colour in theme.text_colors.items():
        assert contrast_ratio(colour, theme.background) >= 4.5, f"{theme.name} {role} {colour}"


@pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))
def test_numbers_in_heatmap_cells_are_readable(theme):
    for k in range(101):
        fill = colormap_color(theme, k / 100)
        assert contrast_ratio(readable_on(fill), fill) >= 4.5, fill


def test_number_format_round_trips():
    for value, decimals, text in (
        (0.2605, 2, "0.26"),
        (-1.5, 1, "\u22121.5"),
        (-0.001, 2, "0.00"),
        (float("-inf"), 2, "\u2212\u221e"),
    ):
        assert format_number(value, decimals) == text
        assert parse_number(text) == pytest.approx(round(value, decimals))
