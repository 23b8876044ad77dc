"""The claims a fresh reviewer (review 6) found unsaid or unshown in positional-encoding, held to the trace and the screen.

Each expected value is worked out here from the trace's own arrays (numpy), not read from the scene's code.
"""

from __future__ import annotations

import numpy as np
import pytest

from scenes.theme import format_number

from .helpers import built_scene, captions, looks_at_the_shared_build, shown

pytestmark = pytest.mark.xdist_group("positional-encoding")


def test_the_similarity_floor_and_the_diagonal_stripes_are_said_and_true():
    scene = built_scene("positional-encoding")
    t, said = scene.trace, captions(scene)["nearby-positions-look-alike"]
    s = t.similarity
    # One colour per diagonal: the similarity of i and j depends on j − i alone.
    np.testing.assert_allclose(s[1:, 1:], s[:-1, :-1], atol=1e-12)
    assert "depends only on how far apart two positions are" in said
    # The floor: no pair below it, and it is far above 0 (the axis starts there, which the screen says).
    assert s.min() == pytest.approx(t.similarity_min) and t.similarity_min > 0.4
    # "No pair below 0.48" was false (the lowest is 0.478): the lowest, rounded, with "about".
    assert f"The lowest pair scores about {format_number(s.min(), 2)}" in said
    assert "(the lowest similarity), not at zero." in shown(scene, "nearby-positions-look-alike")
    # Step 4 still says which shortcut its weights use.
    assert "Still the shortcut: Q = K = V = X + PE, no W_Q, W_K, W_V" in shown(scene, "positions-change-the-weights")
    assert "has a period of" in captions(scene)["waves"] and "repeats every" not in captions(scene)["waves"]


_outlines: dict[str, int] = {}
"""Line text -> the most outlines on screen at once while it was said, in positional-encoding's shared build."""


@looks_at_the_shared_build("positional-encoding")
def _count_the_outlines(scene, ended):
    if scene.steps and scene.steps[-1].lines:
        text = scene.steps[-1].lines[-1].text
        on_screen = sum(len(group) for group in scene.highlights if group in scene.mobjects)
        _outlines[text] = max(_outlines.get(text, 0), on_screen)


def test_minus_signs_clear_their_borders_and_old_outlines_go_before_new_ones():
    scene = built_scene("positional-encoding")
    outlines = _outlines
    shorter = [text for text in outlines if text.startswith("A word with a shorter vector may not")]
    # Only the row's top weight and the word itself: the "dog gives man" boxes of an earlier line are gone.
    assert shorter and all(outlines[text] == 2 for text in shorter)
    for _, x, _ in scene.columns:
        for number, cell in zip(x.numbers, x.cells):
            if number.original_text.startswith("\u2212"):
                gap = min(number.get_left()[0] - cell.get_left()[0], cell.get_right()[0] - number.get_right()[0])
                assert gap >= 0.1, (number.original_text, gap)


def test_review8_the_shorter_vectors_reason_the_idea_line_and_larger_x_plus_pe_numbers():
    scene = built_scene("positional-encoding")
    t, theme = scene.trace, scene.theme
    n = len(t.sentence_a)
    # A row that gives a neighbour more than itself: its score with that neighbour beats its own, and both are shown.
    others = [r for r in range(n) if int(np.argmax(t.weights_a[r])) != r]
    assert others
    texts = shown(scene, "same-weights")
    for r in others:
        top = int(np.argmax(t.weights_a[r]))
        with_top = (t.x_a[r] @ t.x_a[top]) / np.sqrt(t.x_a.shape[1])
        np.testing.assert_allclose(t.scaled_scores_a[r, top], with_top)
        assert with_top > t.self_scores_a[r]
        assert f"“{t.sentence_a[r]}” with “{t.sentence_a[top]}”:" in texts and format_number(with_top, 2) in texts
    # The first line of step 3 has the idea on screen, not the heading alone.
    assert "fingerprint of its position" in shown(scene, "sin-cos-fingerprints")
    # X + PE at the small size at least (side by side they shrank to the least size), each sentence on its own line.
    for _, x, *_ in scene.position_columns:
        assert min(number.font_size for number in x.numbers) >= theme.small_size - 0.5
    (_, first, *_), (_, second, *_) = scene.position_columns
    assert first.cells.get_bottom()[1] > second.cells.get_top()[1]
