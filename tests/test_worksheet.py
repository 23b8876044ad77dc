"""Worksheets: exercises on the video's own numbers, with an answer key read from the trace."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
import torch
from click.testing import CliRunner

import render
from attention_explainer.pages.worksheet import exercises_for, write_worksheet
from attention_math import attention_trace, causal_mask, causal_mask_trace, self_attention_trace, softmax_trace
from scenes import SCENES
from scenes.self_attention import SelfAttentionScene
from scenes.softmax import SoftmaxScene
from scenes.theme import format_number, parse_number


def table_rows(page: str, caption: str) -> list[list[float]]:
    """The numbers of the table with ``caption`` on the page, row by row."""
    table = re.search(r"<table><caption>" + re.escape(caption) + r"</caption>(.*?)</table>", page, re.S)
    assert table, f"no table {caption!r}"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [[parse_number(cell) for cell in re.findall(r"<td>(.*?)</td>", row)] for row in rows if "<td>" in row]


def test_cli_writes_a_worksheet_per_scene(tmp_path):
    result = CliRunner().invoke(render.main, ["worksheet", "self-attention", "scaling", "--media-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        str(tmp_path / "self-attention" / "worksheet.html"),
        str(tmp_path / "scaling" / "worksheet.html"),
    ]


def test_answer_key_is_the_trace(tmp_path):
    trace = self_attention_trace()
    page = write_worksheet(SelfAttentionScene, trace, tmp_path / "w.html").read_text()
    i = trace.focus
    assert table_rows(page, "query q (“cat”)") == [[round(v, 2) for v in trace.q[i]]]
    np.testing.assert_allclose(table_rows(page, "keys K, one row per key"), trace.k, atol=0.005)
    np.testing.assert_allclose(table_rows(page, "q · k")[0], trace.raw_scores[i], atol=0.005)
    np.testing.assert_allclose(table_rows(page, "attention weights")[0], trace.weights[i], atol=0.0005)
    np.testing.assert_allclose(table_rows(page, "output")[0], trace.output[i], atol=0.0005)
    assert page.index("Answer key") > page.index("Exercises")


def test_a_masked_trace_gets_a_masking_exercise(tmp_path):
    trace = attention_trace(["a", "b", "c"], np.eye(3), mask=causal_mask(3), focus=0)
    questions = [e.question for e in exercises_for(trace)]
    assert any("hides “b”, “c”" in q for q in questions)
    page = write_worksheet(SelfAttentionScene, trace, tmp_path / "w.html").read_text()
    assert table_rows(page, "masked scores")[0][1:] == [float("-inf")] * 2
    assert format_number(float("-inf")) in page


def test_softmax_worksheet_is_the_courses_exercise_with_the_computed_answer(tmp_path):
    trace = softmax_trace()
    page = write_worksheet(SoftmaxScene, trace, tmp_path / "w.html").read_text()
    np.testing.assert_allclose(table_rows(page, "scores")[0], [0.89, 0.76, 0.31], atol=0.005)  # seed 000's stated scores
    weights = table_rows(page, "weights before scaling")[0]
    np.testing.assert_allclose(weights, torch.softmax(torch.tensor([0.89, 0.76, 0.31]), 0).numpy(), atol=0.0005)
    # The attention weights divide the scores by √d_k first, d_k = 2 (the query's length), as the scene now does.
    scores = torch.tensor(trace.keys) @ torch.tensor(trace.query)
    scaled = torch.softmax(scores / math.sqrt(len(trace.query)), 0).numpy()
    np.testing.assert_allclose(table_rows(page, "attention weights")[0], scaled, atol=0.0005)


def test_mask_scenes_get_attention_exercises_with_their_mask():
    trace = causal_mask_trace()
    questions = [e.question for e in exercises_for(trace)]
    assert any("The mask hides" in q for q in questions)


def trace_arrays(trace) -> list[np.ndarray]:
    """Every numeric field of the trace as handed out (its JSON), each row of one, and each entry of a row."""
    arrays = []
    for value in json.loads(trace.to_json()).values():
        try:
            array = np.array(value, dtype=float)
        except (TypeError, ValueError):
            continue  # words, tokens, sources
        arrays.append(array)
        rows = list(array) if array.ndim >= 1 else []
        arrays.extend(rows)
        arrays.extend(entry for row in rows if np.ndim(row) >= 1 for entry in row)
    return arrays


def matches(printed: np.ndarray, values: np.ndarray, decimals: int) -> bool:
    """Whether ``printed`` is ``values`` rounded to ``decimals`` (infinities equal)."""
    values = np.ravel(values)
    if values.size != printed.size:
        return False
    same = np.isinf(printed) & (printed == values)
    with np.errstate(invalid="ignore"):  # an infinity minus itself: equal, as ``same`` says
        return bool(np.all(same | (np.abs(printed - values) <= 0.5 * 10.0**-decimals + 1e-9)))


@pytest.mark.parametrize("name", list(SCENES))
def test_every_scene_has_a_worksheet_whose_numbers_are_its_trace(name, tmp_path):
    """Every table printed is, as rounded, a field of the trace's JSON (what the explorer hands out) or a row of one;
    a table that gathers numbers from several fields has each of them among the trace's numbers."""
    scene = SCENES[name]
    trace = scene.build_trace()
    page = write_worksheet(scene, trace, tmp_path / "w.html").read_text()
    exercises = exercises_for(trace)
    assert len(exercises) >= 1 and page.count("<li>") >= 2 * len(exercises)
    arrays = trace_arrays(trace)
    numbers = np.concatenate([np.ravel(array) for array in arrays])
    for exercise in exercises:
        for table in exercise.answer + exercise.given:
            printed = np.array(table_rows(page, table.caption), dtype=float).ravel()
            if any(matches(printed, array, table.decimals) for array in arrays):
                continue
            for number in printed:
                assert any(matches(np.array([number]), value, table.decimals) for value in numbers), (table.caption, number)


def test_unknown_scene_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(render.main, ["worksheet", "nope", "--media-dir", str(tmp_path)])
    assert result.exit_code == 2 and "unknown scene 'nope'" in result.output


def test_cross_attention_worksheet_follows_its_scene_without_masks(tmp_path):
    """The scene uses no mask, so neither does its worksheet; the query is the shifted-right decoder position."""
    from attention_math import cross_attention_trace
    from scenes.cross_attention import CrossAttentionScene

    trace = cross_attention_trace()
    page = write_worksheet(CrossAttentionScene, trace, tmp_path / "w.html").read_text()
    questions = " ".join(e.question + " " + e.note for e in exercises_for(trace))
    # No mask in use: no −∞, no masked-key note (the only "masked" is the remark on a padded batch's pads).
    assert "−∞" not in page and "A masked key" not in questions and "The mask hides" not in questions
    assert questions.lower().count("masked") == questions.count("the English pads would still be masked")
    assert "reads “El” and writes “gato”" in page
    q, k = torch.tensor(np.array(trace.q)), torch.tensor(np.array(trace.k))
    weights = torch.softmax(q @ k.T / np.sqrt(k.shape[1]), dim=-1).numpy()  # V = K: no projections
    np.testing.assert_allclose(table_rows(page, "attention weights")[0], weights[trace.focus], atol=0.0005)
    matrix = np.array(table_rows(page, "attention weights, one row per decoder position"))
    assert matrix.shape == (7, 6)
    np.testing.assert_allclose(matrix, weights, atol=0.005)


def test_multi_head_worksheet_compares_the_videos_own_model_with_gpt3(tmp_path):
    """The table's first column is the model the video runs (read off its tensors), the second GPT-3's paper numbers."""
    scene_class = SCENES["multi-head"]
    trace = scene_class.build_trace()
    page = write_worksheet(scene_class, trace, tmp_path / "w.html").read_text()
    d_model, heads = trace.x.shape[1], trace.weights.shape[0]
    assert table_rows(page, "d_model") == [[d_model, 12_288]]
    assert table_rows(page, "heads per layer") == [[heads, 96]]
    assert table_rows(page, "head dimension") == [[d_model // heads, 128]]
    projections = sum(w.size for w in (trace.w_q, trace.w_k, trace.w_v, trace.w_o))
    assert table_rows(page, "attention projections, one layer") == [[projections, 4 * 12_288**2]]
    assert "64" not in re.findall(r"<td>(.*?)</td>", page)  # not the course notebook's demo (d_model 64)


def test_block_worksheet_normalises_the_blocks_input_as_torch_does(tmp_path):
    scene_class = SCENES["transformer-block"]
    trace = scene_class.build_trace()
    page = write_worksheet(scene_class, trace, tmp_path / "w.html").read_text()
    x = torch.tensor(trace.x[trace.focus])
    mean, variance = x.mean().item(), x.var(unbiased=False).item()
    np.testing.assert_allclose(table_rows(page, "mean and variance")[0], [mean, variance], atol=0.0005)
    normed = torch.nn.functional.layer_norm(x, (x.numel(),)).numpy()
    np.testing.assert_allclose(table_rows(page, "norm₁(x)")[0], normed, atol=0.005)
    assert table_rows(page, "d_ff") == [[4 * trace.x.shape[1], 4 * 12_288]]


def test_the_weighted_sum_exercise_shows_each_scaled_value_row_adding_up_to_the_output(tmp_path):
    """The answer key writes the weighted sum out: weight × value row per key (PyTorch's weights), summed into the output."""
    trace = self_attention_trace()
    page = write_worksheet(SelfAttentionScene, trace, tmp_path / "w.html").read_text()
    i = trace.focus
    x = torch.tensor(np.array(trace.x_key))
    weights = torch.softmax(x @ x.T / 2.0, dim=-1)[i]  # Q = K = V = X, d_k = 4
    scaled_rows = np.array(table_rows(page, "each value row × its attention weight"))
    np.testing.assert_allclose(scaled_rows, (weights[:, None] * x).numpy(), atol=0.0005)
    # Each printed number is off by at most 0.0005: the printed rows add up to the printed output.
    np.testing.assert_allclose(scaled_rows.sum(axis=0), table_rows(page, "output")[0], atol=0.0005 * (len(scaled_rows) + 1))


def test_qkv_worksheet_says_how_its_numbers_were_made_and_what_drives_the_scores():
    """Hand-made embeddings and random matrices are named as such; the tendency the note states holds in the scores."""
    from attention_math import qkv_trace

    trace = qkv_trace()
    notes = " ".join(e.note for e in exercises_for(trace))
    assert "made up, not learned" in notes and "W_Q, W_K, W_V are random" in notes and "chance" not in notes
    q = torch.tensor(np.array(trace.x_query)) @ torch.tensor(np.array(trace.w_q))
    k = torch.tensor(np.array(trace.x_key)) @ torch.tensor(np.array(trace.w_k))
    column_means = (q @ k.T / 2).mean(dim=0).numpy()
    lengths = np.linalg.norm(trace.x_key, axis=1)
    assert column_means[np.argmax(lengths)] > column_means[np.argmin(lengths)]
    # The shortcut's note belongs to the scenes without projections, not to this one.
    assert "Q = K = V = X" not in notes


def test_padding_mask_worksheet_says_what_its_row_shows_of_the_q_equals_k_shortcut():
    """The review found "a word's score with itself favours its own column" false for "The"'s row: say what holds."""
    from scenes.padding_mask import PaddingMaskScene

    trace = PaddingMaskScene.build_trace()
    note = exercises_for(trace)[0].note
    i = trace.focus
    assert trace.raw_scores[i].argmax() != i  # "The" is short: a longer word outscores its own column
    assert "“The” scores 0.06 with itself but 0.25 with the longer “sat”" in note
    assert "favours its own column" not in note


def test_complexity_key_gives_each_product_as_asked_and_refers_to_nothing_unprinted(tmp_path):
    """Review 14: exercise 1 asks for QKᵀ and weights·V "(n²d each)"; the key gave only their sum 2n²d, so a right
    answer looked half the key's. Each product is given (n²d, worked out here), then the sum; and a key whose
    exercises print no numbers no longer refers to "the rounded ones printed above"."""
    from attention_math.traces.complexity import complexity_trace
    from scenes.complexity import ComplexityScene

    trace = complexity_trace()
    page = write_worksheet(ComplexityScene, trace, tmp_path / "w.html").read_text()
    n = np.array([512, 1024, 2048, 4096, 8192], dtype=float)
    d = 64
    assert table_rows(page, "multiply-adds of QKᵀ (n²d)") == [list(n * n * d)]
    assert table_rows(page, "multiply-adds of weights·V (n²d)") == [list(n * n * d)]
    assert table_rows(page, "QKᵀ and weights·V together (2n²d)") == [list(2 * n * n * d)]
    assert table_rows(page, "multiply-adds of QKᵀ (n²d)")[0][0] == 16_777_216  # what a student answers at 512
    assert not any(exercise.given for exercise in exercises_for(trace))
    assert "printed above" not in page and "printed with the exercises" not in page
    assert "as the video shows them" in page
    # A worksheet that does print given numbers still points at them.
    softmax = write_worksheet(SoftmaxScene, softmax_trace(), tmp_path / "s.html").read_text()
    assert any(exercise.given for exercise in exercises_for(softmax_trace())) == ("printed with the exercises" in softmax)
