"""What a fresh reviewer (review 5) found unlabelled or cluttered in multi-head, held to the screen.

Each expected value is worked out here from the trace (its tokens, its focus row), not read from the scene's code.
"""

from __future__ import annotations

import pytest

from scenes import SCENES

from .helpers import build_without_video, built_scene, shown

pytestmark = pytest.mark.xdist_group("multi-head")


def test_the_maps_axes_and_the_value_rows_are_named_and_the_rounding_is_said():
    scene = built_scene("multi-head")
    tokens = scene.trace.tokens
    patterns = shown(scene, "head-patterns")
    assert "Rows: the query, the word that looks. Columns: the key, the word looked at." in patterns
    # One head's output: every word beside its value row, and above its weight column.
    output = shown(scene, "one-head-output")
    assert all(token in output for token in tokens), (tokens, output)
    # It once said "so all 16 columns fit" over a picture of heads 1, 2 and 8: two columns each, 6 of 16.
    assert "6 of the 16 columns shown (⋯ the rest), rounded to one decimal." in shown(scene, "concatenate")


def test_the_rows_the_share_lines_cross_are_dimmed_while_they_are_drawn():
    brightest = {}  # line text -> the most opaque number of a row other than the worked one, at any animation's end

    def look(scene, ended):
        concat = getattr(scene, "concat", None)
        if concat is None or not scene.steps or not scene.steps[-1].lines:
            return
        focus = min(1, len(scene.trace.tokens) - 1)
        others = [
            grid.number(i, j) for grid in concat.grids for i in range(grid.shape[0]) if i != focus for j in range(grid.shape[1])
        ]
        text = scene.steps[-1].lines[-1].text
        opacity = max(number.get_fill_opacity() for number in others)
        brightest[text] = max(brightest.get(text, 0.0), opacity)

    scene = build_without_video(SCENES["multi-head"], observe=look, draw=False)
    word = scene.trace.tokens[min(1, len(scene.trace.tokens) - 1)]
    share = next(text for text in brightest if text.startswith(f"The first output number of “{word}”"))
    assert brightest[share] <= 0.25
    after = next(text for text in brightest if text.startswith("Every output number sums all the heads"))
    assert brightest[after] == pytest.approx(1.0)
