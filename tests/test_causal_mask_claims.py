"""The claims a fresh reviewer (review 6) found loose or unshown in causal-mask, held to the trace and the screen.

Each expected value is worked out here from the trace's own arrays (numpy), not read from the scene's code.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import ManimColor

from scenes.theme import format_number

from .helpers import built_scene, captions, looks_at_the_shared_build, shown

pytestmark = pytest.mark.xdist_group("causal-mask")


def test_the_mask_keeps_the_visible_keys_ratios_and_the_said_numbers_are_the_traces():
    scene = built_scene("causal-mask")
    t, said = scene.trace, captions(scene)["bert-vs-gpt"]
    i, k = t.focus, int(t.mask[t.focus].sum())
    # "in the same ratios": each visible causal weight is the unmasked one times one factor, above 1.
    factor = t.weights[i, :k] / t.bidirectional_weights[i, :k]
    np.testing.assert_allclose(factor, factor[0])
    assert factor[0] > 1
    assert "in the same ratios" in said
    before = [format_number(w, 2) for w in t.bidirectional_weights[i, :k]]
    after = [format_number(w, 2) for w in t.weights[i, :k]]
    assert ", ".join(before[:-1]) + " and " + before[-1] + " become " + ", ".join(after[:-1]) + " and " + after[-1] in said
    # Review 8: the ratios are shown, not only told. The footer shows the unmasked weights on the visible keys,
    # their sum ("=" only when the shown parts add up to the shown sum) and each divided by it, as the causal row.
    share = t.bidirectional_weights[i, :k].sum()
    np.testing.assert_allclose(t.visible_shares[i], share)
    np.testing.assert_allclose(t.weights[i, :k], t.bidirectional_weights[i, :k] / share)
    rows = [" ".join(part.original_text for part in row).replace(" ,", ",") for row in scene.ratio_note]
    total = format_number(share, 2)
    adds_up = round(sum(float(b) for b in before), 2) == float(total)
    assert rows[0].endswith(" + ".join(before) + (" = " if adds_up else " ≈ ") + total)
    assert rows[1].endswith(f"each divided by {total} → " + ", ".join(after))
    assert {*before, total, *after} <= shown(scene, "bert-vs-gpt")
    # The old claim, contradicted by the 0.29 / 0.71 row, is gone.
    assert "stays near an even share" not in said and "give close scores" not in said


_outlined: dict[str, list] = {}
"""Line text -> centres of the outlines on screen while it was the current line, in causal-mask's shared build."""


@looks_at_the_shared_build("causal-mask")
def _look_at_the_outlines(scene, ended):
    if scene.steps and scene.steps[-1].lines and scene.highlights:
        centres = _outlined.setdefault(scene.steps[-1].lines[-1].text, [])
        centres += [tuple(np.round(box.get_center(), 3)) for group in scene.highlights for box in group]


def test_each_named_weight_is_outlined_while_its_line_is_said_and_step_six_prints_few_large_numbers():
    scene = built_scene("causal-mask")
    outlined = _outlined
    t, n = scene.trace, len(scene.trace.query_tokens)
    bert, gpt = scene.maps[0][0], scene.maps[1][0]
    mat_line = next(text for text in outlined if text.startswith(f"“{t.query_tokens[-1]}” included"))
    assert format_number(t.bidirectional_weights[t.focus, -1], 2) in mat_line
    assert tuple(np.round(bert.cell(t.focus, n - 1).get_center(), 3)) in outlined[mat_line]
    # Only the query's row prints its numbers, at the theme's small size (not the least size).
    for heatmap in (bert, gpt):
        printed = [number for number in heatmap.numbers if len(number.submobjects)]
        assert len(printed) == n
        assert min(number.font_size for number in printed) >= scene.theme.small_size - 0.5


def test_the_footer_follows_the_word_the_voice_explains_and_the_table_matches_the_mask():
    scene = built_scene("causal-mask")
    t = scene.trace
    texts = shown(scene, "softmax-over-the-past")
    # "on" gives "cat" more than itself: the footer shows those two scores, not only cat's.
    r = next(r for r in range(1, len(t.query_tokens)) if int(np.argmax(t.weights[r])) != r)
    top = int(np.argmax(t.weights[r]))
    assert t.scaled_scores[r, top] > t.scaled_scores[r, r]
    assert f"“{t.query_tokens[r]}” with itself:" in texts
    assert format_number(t.scaled_scores[r, top], 3) in texts and format_number(t.scaled_scores[r, r], 3) in texts
    # cat with The at the same precision as cat with itself (0.115, not 0.12).
    assert format_number(t.scaled_scores[1, 0], 3) in texts
    # The mask lets a query see the keys at or before it: itself included.
    assert np.all(np.diag(t.mask))
    assert "The past and itself" in shown(scene, "which-is-which")
    said = " ".join(captions(scene).values())
    assert "not an attention mask" in said and "one token at a time" in said


def test_the_masked_cells_of_the_weights_differ_in_kind_from_small_weights():
    """Review 8: masked weights (exactly 0) were the colour map's dark end, like a real 0.11; now unfilled, in red."""
    scene = built_scene("causal-mask")
    t, theme = scene.trace, scene.theme
    gpt, bert = scene.maps[1][0], scene.maps[0][0]
    n = len(t.query_tokens)
    background = ManimColor(theme.background).to_hex().lower()
    for r in range(n):
        for c in range(n):
            fill = gpt.cell(r, c).get_fill_color().to_hex().lower()
            assert (fill == background) == (not t.mask[r, c])
            # BERT's map hides nothing: every cell keeps its colour.
            assert bert.cell(r, c).get_fill_color().to_hex().lower() != background
    hidden = [gpt.number(t.focus, c) for c in range(n) if not t.mask[t.focus, c]]
    assert hidden and all(number.get_color().to_hex().lower() == ManimColor(theme.masked).to_hex().lower() for number in hidden)
