"""What a fresh reviewer (review 5) found unlabelled or cluttered in multi-head, held to the screen.

Each expected value is worked out here from the trace (its tokens, its focus row), not read from the scene's code.
"""

from __future__ import annotations

import pytest

from .helpers import built_scene, looks_at_the_shared_build, shown

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


_brightest: dict[str, float] = {}
"""Line text -> the most opaque number of a row other than the worked one, at any animation's end of multi-head's shared build."""


@looks_at_the_shared_build("multi-head")
def _look_at_the_other_rows(scene, ended):
    concat = getattr(scene, "concat", None)
    if concat is None or not scene.steps or not scene.steps[-1].lines:
        return
    focus = min(1, len(scene.trace.tokens) - 1)
    others = [
        grid.number(i, j) for grid in concat.grids for i in range(grid.shape[0]) if i != focus for j in range(grid.shape[1])
    ]
    text = scene.steps[-1].lines[-1].text
    opacity = max(number.get_fill_opacity() for number in others)
    _brightest[text] = max(_brightest.get(text, 0.0), opacity)


def test_the_rows_the_share_lines_cross_are_dimmed_while_they_are_drawn():
    scene = built_scene("multi-head")
    brightest = _brightest
    word = scene.trace.tokens[min(1, len(scene.trace.tokens) - 1)]
    share = next(text for text in brightest if text.startswith(f"The first output number of “{word}”"))
    assert brightest[share] <= 0.25
    after = next(text for text in brightest if text.startswith("Every output number sums all the heads"))
    assert brightest[after] == pytest.approx(1.0)


def test_review8_the_average_of_the_value_rows_is_shown_and_the_weights_keep_gaps():
    import numpy as np

    from scenes.kit.tables import CELL_PADDING
    from scenes.theme import format_number

    scene = built_scene("multi-head")
    t = scene.trace
    focus = 1
    # "its weights average the value rows", shown: each weight times its word's value, added up, is the output.
    np.testing.assert_allclose(t.weights[0, focus] @ t.v_heads[0, :, 0], t.head_outputs[0, focus, 0])
    np.testing.assert_allclose(t.weights[0, focus].sum(), 1.0)
    texts = shown(scene, "one-head-output")
    total = format_number(t.head_outputs[0, focus, 0], 2)
    assert total in texts
    for j in (0, 1, 2, len(t.tokens) - 1):
        assert format_number(t.weights[0, focus, j], 2) in texts
        assert format_number(t.v_heads[0, j, 0], 2) in texts
    # Step 7's weights: every printed number clear of its cell's borders, and the course's words whole (not "T…").
    weights = scene.head_weights
    for number, cell in zip(weights.numbers, weights.cells):
        gap = min(number.get_left()[0] - cell.get_left()[0], cell.get_right()[0] - number.get_right()[0])
        assert gap >= CELL_PADDING - 1e-6, (number.original_text, gap)
    assert {"The", "mat"} <= texts and not {"T…", "m…"} & texts
