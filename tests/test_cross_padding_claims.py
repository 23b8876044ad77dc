"""What a fresh reviewer found weak in cross-attention and padding-mask, held to the trace.

Cross-attention drew walls of numbers (65 to 78 a step); it now shows a few columns and lets colour carry
the rest. Padding-mask claimed zero pad scores it never showed, and that the left-padded rows equal the
unpadded sentence's without showing those. Expected values are worked out here from the trace's arrays.
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import Text

from attention_math.traces.padding_mask import padding_mask_trace
from scenes.theme import format_number

from .helpers import built_scene, looks_at_the_shared_build

_most_numbers: dict[str, int] = {}
"""Per step of cross-attention's shared build: the most trace numbers it had on screen at once."""


@looks_at_the_shared_build("cross-attention")
def _count_the_numbers_on_screen(scene, ended):
    shown = {id(text) for s in scene.shown for text in s.texts}
    on_screen = {id(part) for m in scene.mobjects for part in m.get_family() if isinstance(part, Text)}
    step = scene.steps[-1].name if scene.steps else ""
    _most_numbers[step] = max(_most_numbers.get(step, 0), len(shown & on_screen))


@pytest.mark.xdist_group("cross-attention")
def test_cross_attention_shows_few_numbers_a_step_and_says_which_columns():
    scene, most = built_scene("cross-attention"), _most_numbers
    t = scene.trace
    n_q, n_k, d = len(t.query_tokens), len(t.key_tokens), t.d_k
    # The reviewer counted 65 (Q and K), 65 (the weighted sum) and 78 (two weight maps): at most half that now.
    assert most["q-from-decoder-kv-from-encoder"] <= (n_q + n_k) * d // 2, most
    assert most["context-vector"] <= (n_k + 2 * n_k * d + d) // 2, most
    assert most["self-vs-cross"] <= (n_k + n_q) * n_k // 2, most
    # The elided grids show the first columns of the trace's matrices, and the screen says how many of how many.
    sources = {s.source: s for s in scene.shown}
    shown_columns = 2
    assert shown_columns < d
    for name, matrix in (("q", t.q), ("k", t.k)):
        texts = sources[f"{name}[:, 0:{shown_columns}]"].texts
        assert [text.original_text for text in texts] == [format_number(v, 2) for v in matrix[:, :shown_columns].ravel()]
    words = scene.recording.texts
    for step in ("q-from-decoder-kv-from-encoder", "context-vector"):
        assert any(f"{shown_columns} of {d} numbers" in text for text in words[step]), words[step]


@pytest.mark.xdist_group("cross-attention")
def test_cross_attention_self_map_numbers_are_the_diagonal_the_line_reads():
    scene = built_scene("cross-attention")
    t = scene.trace
    # The line says every word's self dot product beats every other: the trace's diagonal wins each row.
    assert all(int(row.argmax()) == j for j, row in enumerate(t.self_weights))
    said = next(step.caption for step in scene.steps if step.name == "self-vs-cross")
    assert "the diagonal wins" in said


@pytest.mark.xdist_group("padding-mask")
def test_padding_scores_with_a_pad_key_are_zero_and_shown_before_the_mask():
    scene = built_scene("padding-mask")
    t = scene.trace
    pads = np.flatnonzero(t.valid == 0)
    assert pads.size and np.all(t.scaled_scores[:, pads] == 0.0)
    step = next(step for step in scene.steps if step.name == "pad-keys-get-zero")
    assert "every score with a pad key is 0" in step.caption
    # The unmasked scores are drawn in that step, their pad columns reading 0.00 (not "−0.00").
    grid = next(s for s in scene.shown if s.source == "scaled_scores")
    on_screen = np.array([text.original_text for text in grid.texts]).reshape(t.scaled_scores.shape)
    assert set(on_screen[:, pads].ravel()) == {format_number(0.0, 2)}
    assert {text.original_text for text in grid.texts} <= scene.recording.texts["pad-keys-get-zero"]


@pytest.mark.xdist_group("padding-mask")
def test_left_padded_real_rows_equal_the_unpadded_sentence_shown_beside_them():
    scene = built_scene("padding-mask")
    t = scene.trace
    real = np.flatnonzero(t.left_valid)
    k = real.size
    # Right padding with both masks is the sentence without pads (its real rows over its real keys).
    np.testing.assert_array_equal(t.left_combined_weights[:, real], t.combined_weights[:k, :k])
    unpadded = next(s for s in scene.shown if s.source == f"combined_weights[0:{k}, 0:{k}]")
    assert [x.original_text for x in unpadded.texts] == [format_number(v, 2) for v in t.combined_weights[:k, :k].ravel()]
    assert "no pads" in scene.recording.texts["left-padding-needs-both"]


@pytest.mark.xdist_group("padding-mask")
def test_without_the_mask_more_padding_in_the_batch_changes_a_sentences_weights():
    """The line "a sentence's result depends on how much padding the rest of its batch forced on it"."""
    scene = built_scene("padding-mask")
    assert "depends on how much padding" in next(s.caption for s in scene.steps if s.name == "pads-leak-without-a-mask")
    short, long = padding_mask_trace(max_len=5), padding_mask_trace(max_len=7)
    real = np.flatnonzero(short.valid)
    # Unmasked, two more pads take more of every real token's attention; masked, the real weights do not move.
    assert np.all(long.pad_share[real] > short.pad_share[real])
    np.testing.assert_allclose(long.weights[np.ix_(real, real)], short.weights[np.ix_(real, real)], rtol=1e-12)


@pytest.mark.xdist_group("padding-mask")
def test_padding_keeps_the_shortcut_note_on_screen_wherever_weights_are_shown():
    scene = built_scene("padding-mask")
    for step in ("pad-keys-get-zero", "right-padding-needs-no-padding-mask", "left-padding-needs-both"):
        assert any(text.startswith("Still Q = K = V = X") for text in scene.recording.texts[step]), step
