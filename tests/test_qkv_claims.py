"""The claims a second reviewer found wrong or loose in qkv, held to the trace.

Each expected value is worked out here from the trace's own arrays (numpy), not read from the scene's code.
"""

from __future__ import annotations

import numpy as np
import pytest

from scenes import SCENES
from scenes.theme import format_number

from .helpers import build_without_video, built_scene, captions, shown

pytestmark = pytest.mark.xdist_group("qkv")  # beside qkv's shared build (one build per run, not two)


def test_qkv_library_table_gives_a_value_one_item_and_the_blend_to_the_output():
    scene = built_scene("qkv")
    texts = shown(scene, "library")
    # Four rows, four library cells: the value's is one book's contents, the blend is the output's.
    assert {"Value", "each book's contents", "Output", "a blend of contents"} <= texts
    said = captions(scene)["library"]
    value_line = said[said.index("The values") : said.index("The output")]
    assert "blend" not in value_line
    assert "The output is what you take home: a blend of the contents" in captions(scene)["library"]


def test_qkv_top_score_line_says_every_query_scores_that_key_highest_and_names_the_worked_score():
    scene = built_scene("qkv")
    t = scene.trace
    said = captions(scene)["scores-heatmap"]
    i, worked = t.focus, len(t.key_tokens) - 1
    row = t.scaled_scores[i]
    top = int(np.argmax(row))
    order = np.argsort(-row)
    runner_up = int(order[1])
    # Every query scores the same key highest in the default trace, and the line says so at once.
    assert {int(np.argmax(r)) for r in t.scaled_scores} == {top}
    # Said of the key's column, never as "a word scores highest with itself" (heard that way, it was false).
    assert f"Every query scores highest with the key “{t.key_tokens[top]}”; for “{t.query_tokens[i]}” it is" in said
    assert "So does every query" not in said and "why, below" not in said
    # The table shows two decimals: where a row's top is not alone there, the line says the margin is smaller.
    shown_rows = np.round(t.scaled_scores, 2)
    alone = all(np.count_nonzero(r == r.max()) == 1 for r in shown_rows)
    assert ("by less than the two decimals shown" in said) == (not alone)
    # The bright columns are the largest embeddings with these random matrices, not in general.
    assert "With these random matrices, the bright columns" in said
    # The runner-up is the very score step 6 worked out, said as such.
    assert runner_up == worked
    assert f"“{t.key_tokens[runner_up]}”, {format_number(row[runner_up], 2)}, the score we computed" in said
    assert format_number(t.scaled_scores[i, worked], 2) in captions(scene)["query-meets-key"]
    # The same words' rows are bright as their columns are: the rows' means, as the columns' are read.
    columns, rows = t.scaled_scores.mean(axis=0), t.scaled_scores.mean(axis=1)
    bright_columns = set(np.flatnonzero(columns > (columns.min() + columns.max()) / 2))
    bright_rows = set(np.flatnonzero(rows > (rows.min() + rows.max()) / 2))
    assert bright_rows == bright_columns
    # "Brighter than the other rows", not "bright": the "sat" row is mid-coloured. What holds is that each
    # named row's mean is above every other row's.
    assert min(rows[sorted(bright_rows)]) > max(np.delete(rows, sorted(bright_rows)))
    assert "Their rows are brighter than the other rows, for the same reason." in said
    assert "Their rows are bright for" not in said


def test_qkv_names_which_word_is_the_query_and_the_places_of_two_words_heard_alike():
    scene = built_scene("qkv")
    t = scene.trace
    lines = [line for step in scene.steps if step.name == "scores-heatmap" for line in step.lines]
    # "The" and "the" share an embedding (rows 0 and 4 of X equal): the voice says their places, not the words twice.
    assert np.array_equal(t.x_key[0], t.x_key[4])
    tie = next(line for line in lines if "same embedding" in line.text)
    assert tie.text.startswith("“The” and “the”, words 1 and 5,")
    assert tie.spoken.startswith("the first word, The, and the fifth word, the,")
    # Which word is the query, both ways, with the scores the table shows.
    i = t.focus
    other = int(np.argmax(np.abs(t.scaled_scores[i] - t.scaled_scores[:, i]) - np.eye(len(t.key_tokens))[i] * 9))
    there, back = format_number(t.scaled_scores[i, other], 2), format_number(t.scaled_scores[other, i], 2)
    a, b = t.query_tokens[i], t.query_tokens[other]
    pair = next(line for line in lines if line.text.startswith("Not symmetric"))
    assert f"query “{a}”, key “{b}”: {there}; the other way round, {back}" in pair.text
    assert f"{a}'s query against {b}'s key" in pair.spoken


def test_qkv_says_the_shown_weights_are_rounded_where_they_do_not_add_to_one():
    scene = built_scene("qkv")
    t = scene.trace
    shown_sum = np.round(t.weights[t.focus], 2).sum()
    # The course sentence's shown weights add to 1.02: the line must not leave "sum to 1" unqualified.
    assert round(shown_sum, 2) != 1.0
    said = captions(scene)["values-mixed"]
    assert "weights that sum to 1 (before rounding)." in said


def test_qkv_random_projections_are_said_on_screen_when_spoken_and_v_is_not_named_before_it_is_shown():
    scene = built_scene("qkv")
    assert "fixed random seed" in captions(scene)["q-projection"]
    assert "(a fixed random seed)" in shown(scene, "q-projection")
    assert not any("V" in text.split(":")[0] for text in shown(scene, "k-projection") if "columns shown" in text)
    assert "A later scene" not in " ".join(captions(scene).values())


def test_qkv_lays_out_a_long_worked_sum_inside_the_frame():
    """A two-line worked sum (seed 7): nothing overlaps, nothing leaves the safe area, every number clears its borders.

    The most rows and long words are test_inputs.py's most-words build (eight words, each long), checked the same way.
    """
    trace = SCENES["qkv"].build_trace(seed=7)
    scene = build_without_video(SCENES["qkv"], watch_layout=True, draw=False, trace=trace)
    assert not scene.recording.layout_problems, list(scene.recording.layout_problems)
    assert not scene.recording.glyph_problems, list(scene.recording.glyph_problems)


def test_qkv_uses_v_its_query_weights_times_the_value_rows_are_the_output_shown():
    """Review 5: V was computed but never used. Step 8 shows one query's weights times V, added up."""
    scene = built_scene("qkv")
    t = scene.trace
    i = t.focus
    scores = t.scaled_scores[i]
    weights = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    np.testing.assert_allclose(t.weights[i], weights)
    np.testing.assert_allclose(t.output[i], weights @ t.v)
    texts = shown(scene, "values-mixed")
    for value in (*t.output[i], *weights):
        assert format_number(value, 2) in texts
    top = int(np.argmax(weights))
    said = captions(scene)["values-mixed"]
    assert f"the most from “{t.key_tokens[top]}”, weight {format_number(weights[top], 2)}" in said
