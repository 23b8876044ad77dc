"""Questions from the trace: placed at their steps, wrong options that are real mistakes, the worksheet's numbers, GIFT.

Built from traces alone (no video): each scene's package is written around stand-in render products by
the real :func:`~attention_explainer.pages.write.write_package`, and exported as the CLI exports it.
The wrong options are recomputed here with torch, never with :mod:`attention_math`, and the GIFT file
is read back by a small GIFT parser written here from Moodle's description of the format.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import math
import re
import shutil

import numpy as np
import pytest
import torch
from markupsafe import escape

from attention_explainer.exports.export import export_package
from attention_explainer.exports.gift import gift_escape
from attention_explainer.options import RenderJob, check_inputs
from attention_explainer.package.questions import (
    QuestionsError,
    UnreadableAnswer,
    check_answer,
    check_questions,
    read_questions,
    read_typed_number,
)
from attention_explainer.pages.questions import questions_for
from attention_explainer.pages.worksheet import worksheet_page
from attention_explainer.pages.write import write_package
from attention_math.mistakes import MISTAKES
from scenes import SCENES, build_trace
from scenes.theme import format_number

from .helpers import run

# --- what each scene is, without rendering it ------------------------------------------------------


@functools.lru_cache(maxsize=None)
def scene_steps(name: str) -> tuple[str, ...]:
    """The step names a scene's source opens (``with self.step("name")``), read with ``ast``, in order."""
    tree = ast.parse(inspect.getsource(inspect.getmodule(SCENES[name])))
    return tuple(
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "step"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    )


CUSTOM = {
    "self-attention, a teacher's sentence": ("self-attention", {"sentence": "I love learning about attention"}),
    "qkv, another seed": ("qkv", {"seed": "7"}),
    "multi-head, another size": ("multi-head", {"d_model": "12", "heads": "3"}),
    "scaling, another seed": ("scaling", {"seed": "11"}),
    "causal-mask, a teacher's sentence": ("causal-mask", {"sentence": "we read one word at a time"}),
    "multi-head, one head": ("multi-head", {"d_model": "16", "heads": "1"}),
}
"""Renders with their own sentence, seed or size: each gets questions from its own trace."""

CASES = {name: (name, {}) for name in SCENES} | CUSTOM


@functools.lru_cache(maxsize=None)
def case(label: str):
    """``(scene, trace, questions as JSON)`` of a case, built once per test process (the trained scenes train once per run)."""
    name, given = CASES[label]
    inputs = check_inputs((name,), given, SCENES, skip_missing=False)[0][name] if given else {}
    trace = build_trace(name, inputs)
    return name, trace, [question.to_json() for question in questions_for(name, trace)]


def fake_package(folder, name: str, trace, steps=None):
    """A render's package written around stand-in render products (one line per step), as a render writes it."""
    steps = list(steps or scene_steps(name))
    (folder / "sections").mkdir(parents=True)
    sections = []
    for index, step in enumerate(steps, start=1):
        line = {"text": f"About {step}.", "spoken": f"About {step}.", "start": float(index - 1), "end": index - 0.5}
        clip = f"sections/{index:02d}-{step}.mp4"
        sections.append(
            {"index": index, "name": step, "title": f"Step {index}", "caption": line["text"], "lines": [line]}
            | {"start": index - 1.0, "duration": 1.0}
            | {"file": clip}
        )
        (folder / clip).write_bytes(b"stand-in clip")
    (folder / "sections.json").write_text(json.dumps(sections), encoding="utf-8")
    (folder / "trace.json").write_text(trace.to_json(), encoding="utf-8")
    for stand_in in (f"{name}.mp4", "poster.png"):  # the pages only name them
        (folder / stand_in).write_bytes(b"stand-in")
    write_package(folder, RenderJob(name, quality="low"), trace, "render", "package", scene_class=SCENES[name], versions={})
    return folder


# --- placement and shape ---------------------------------------------------------------------------


@pytest.mark.parametrize("label", list(CASES))
def test_every_render_asks_two_to_four_questions_each_at_the_end_of_one_of_its_steps(label):
    name, _, questions = case(label)
    assert 2 <= len(questions) <= 4
    steps = scene_steps(name)
    assert steps, name
    assert all(question["step"] in steps for question in questions), [q["step"] for q in questions]
    # In the order of the video: a question never comes back to an earlier step.
    positions = [steps.index(question["step"]) for question in questions]
    assert positions == sorted(positions)
    check_questions({"scene": name, "title": "t", "questions": questions}, steps)
    for question in questions:
        if question["kind"] == "choice":
            texts = [option["text"] for option in question["options"]]
            assert len(set(texts)) == len(texts) >= 2
            assert [o["text"] for o in question["options"] if o["correct"]] == [question["answer"]]
            for option in question["options"]:
                if not option["correct"]:
                    assert option["feedback"] == f"This is {MISTAKES[option['mistake']]}."
        else:
            unit = 10.0 ** -question["decimals"]
            # As rounded for a whole number or one decimal; from two decimals, the slack of working from rounded numbers (1 unit, or 1%).
            slack = 0.5 * unit if question["decimals"] < 2 else max(unit, 0.01 * abs(question["value"]))
            assert slack <= question["tolerance"] < slack + unit
            if question["decimals"] >= 2:
                assert f"within ±{format_number(question['tolerance'], question['decimals'])}" in question["stem"]


def test_the_catalog_asks_both_kinds_and_most_scenes_ask_a_choice():
    kinds = {name: {q["kind"] for q in case(name)[2]} for name in SCENES}
    assert all(kinds.values())
    with_choice = [name for name, found in kinds.items() if "choice" in found]
    assert len(with_choice) >= 14, sorted(set(SCENES) - set(with_choice))


def test_a_render_with_its_own_sentence_or_size_gets_its_own_questions():
    default = {q["id"]: q for q in case("self-attention")[2]}
    custom = {q["id"]: q for q in case("self-attention, a teacher's sentence")[2]}
    assert "“love”" in " ".join(q["stem"] for q in custom.values()) and "“cat”" not in " ".join(
        q["stem"] for q in custom.values()
    )
    assert [q["answer"] for q in custom.values()] != [q["answer"] for q in default.values()]
    sized = {q["id"]: q for q in case("multi-head, another size")[2]}
    assert sized["multi-head-1"]["answer"] == "4"  # 12 ÷ 3


def test_a_choice_whose_every_mistake_gives_the_right_answer_is_asked_as_a_typed_number():
    """With one head, d_model × heads and d_model are both the head's width: no wrong option is left to offer."""
    width = case("multi-head, one head")[2][0]
    assert width["source"]["field"] == "d_head" and width["kind"] == "numeric" and width["answer"] == "16"
    assert case("multi-head")[2][0]["kind"] == "choice"


# --- the numbers: the trace's, rounded as shown; the mistakes recomputed with torch ---------------


def tensor(values) -> torch.Tensor:
    return torch.tensor(np.asarray(values, dtype=float), dtype=torch.float64)


def masked(scores: torch.Tensor, mask) -> torch.Tensor:
    return scores.masked_fill(~torch.tensor(np.asarray(mask, dtype=bool)), float("-inf"))


def column_softmax(scores: torch.Tensor) -> torch.Tensor:
    """Softmax down each column; a column with every entry hidden gets weight 0 (torch says NaN)."""
    return torch.nan_to_num(torch.softmax(scores, dim=0), nan=0.0)


def attention_weights(t, scores: torch.Tensor, use_mask: bool = True) -> torch.Tensor:
    return torch.softmax(masked(scores, t.mask) if use_mask else scores, dim=-1)


def qkv(t):
    """Q, K and V recomputed from the inputs and projections the trace holds (identity when it has none)."""

    def project(x, w):
        return tensor(x) if w is None else tensor(x) @ tensor(w)

    return project(t.x_query, t.w_q), project(t.x_key, t.w_k), project(t.x_key, t.w_v)


def attention_options(t, index):
    """The attention pass's right answers and mistakes, with torch, keyed by (field, mistake)."""
    q, k, v = qkv(t)
    raw = q @ k.T
    d_k = q.shape[1]
    weights = attention_weights(t, raw / math.sqrt(d_k))
    mask = torch.tensor(np.asarray(t.mask, dtype=bool)).to(torch.float64)
    return {
        ("weights", None): lambda: weights[index],
        ("weights", "no-scaling"): lambda: attention_weights(t, raw)[index],
        ("weights", "divided-by-d-k"): lambda: attention_weights(t, raw / d_k)[index],
        ("weights", "no-mask"): lambda: attention_weights(t, raw / math.sqrt(d_k), use_mask=False)[index],
        ("weights", "wrong-axis"): lambda: column_softmax(masked(raw / math.sqrt(d_k), t.mask))[index],
        ("output", None): lambda: (weights @ v)[index],
        ("output", "summed-keys"): lambda: (weights @ k)[index],
        ("output", "plain-average"): lambda: ((mask / mask.sum(dim=-1, keepdim=True)) @ v)[index],
        ("output", "no-scaling"): lambda: (attention_weights(t, raw) @ v)[index],
        ("raw_scores", None): lambda: raw[index],
        ("raw_scores", "no-projection"): lambda: (tensor(t.x_query) @ tensor(t.x_key).T)[index],
        ("raw_scores", "value-for-key"): lambda: (q @ v.T)[index],
    }


def row_softmax_options(raw, d_k, index):
    """A row of raw scores: softmax after dividing by √d_k, and its two scaling mistakes."""
    raw = tensor(raw)
    return {
        None: lambda: torch.softmax(raw / math.sqrt(d_k), dim=-1)[index],
        "no-scaling": lambda: torch.softmax(raw, dim=-1)[index],
        "divided-by-d-k": lambda: torch.softmax(raw / d_k, dim=-1)[index],
    }


def word_softmax_options(scores, index):
    """Softmax of plain scores, and softmax without the exponential or without the sum."""
    scores = tensor(scores)
    return {
        None: lambda: torch.softmax(scores, dim=-1)[index],
        "no-exponential": lambda: (scores / scores.sum())[index],
        "no-normalising": lambda: torch.exp(scores)[index],
    }


def choice_references(name: str, t, question: dict) -> dict:
    """Each option's value recomputed with torch for ``question`` of scene ``name``: by mistake (``None``: the right one)."""
    field, index = question["source"]["field"], tuple(question["source"]["index"])
    if name in ("self-attention", "qkv", "causal-mask", "padding-mask", "cross-attention"):
        return {mistake: f for (f_name, mistake), f in attention_options(t, index).items() if f_name == field}
    if name == "softmax":
        return word_softmax_options(t.scores, index)
    if name == "sentiment-attention":
        first, j = index
        return word_softmax_options(t.scores[first, : int(t.sentence_lengths[first])], j)
    if name == "scaling" and field == "row_scaled_weights":
        return row_softmax_options(t.row_raw_scores, t.row_d_k, index)
    if name == "trained-heads":
        return row_softmax_options(t.focus_raw_scores, t.d_head, index)
    if name == "scaling":
        d_k = t.d_k_values[index[0]]
        # The variance of a sum of d_k independent products of unit normals, and of one product: torch's closed forms.
        one = torch.tensor(1.0, dtype=torch.float64)
        return {None: lambda: d_k * one * one, "standard-deviation": lambda: torch.sqrt(d_k * one), "entry-variance": lambda: one}
    if name == "multi-head":
        d_model, heads = t.x.shape[1], t.n_heads
        return {None: lambda: d_model // heads, "multiplied-heads": lambda: d_model * heads, "unsplit-head": lambda: d_model}
    if name == "positional-encoding":
        one = torch.tensor(1.0, dtype=torch.float64)
        return {
            None: lambda: torch.cos(one),
            "degrees": lambda: torch.cos(torch.deg2rad(one)),
            "swapped-sin-cos": lambda: torch.sin(one),
        }
    if name == "kv-cache":
        n, d = len(t.step_tokens), t.q.shape[1]
        keys, values = torch.zeros(n, d), torch.zeros(n, d)
        return {
            None: lambda: keys.numel() + values.numel(),
            "keys-only": lambda: keys.numel(),
            "one-token": lambda: keys[0].numel() + values[0].numel(),
        }
    if name == "transformer-block":
        x = tensor(t.x[index[0]])
        return {
            None: lambda: torch.var(x, unbiased=False),
            "sample-variance": lambda: torch.var(x, unbiased=True),
            "no-centring": lambda: (x * x).mean(),
        }
    if name == "complexity":
        n = tensor(t.lengths)
        return {None: lambda: (n[1] ** 2) / (n[0] ** 2), "linear-growth": lambda: n[1] / n[0]}
    if name == "learning-to-attend":
        n, step = t.length, index[0] + 1
        reversed_positions = torch.flip(torch.arange(1, n + 1), dims=[0])  # output step t reads position n − t + 1
        return {None: lambda: reversed_positions[step - 1], "copying": lambda: step, "counted-from-zero": lambda: n - step}
    raise AssertionError(f"no torch reference for {name}'s {field}")


def shown(value, decimals: int) -> str:
    return format_number(float(value), decimals)


@pytest.mark.parametrize("label", list(CASES))
def test_each_wrong_option_is_its_named_mistake_computed_independently_with_torch(label):
    name, trace, questions = case(label)
    choices = [question for question in questions if question["kind"] == "choice"]
    for question in choices:
        references = choice_references(name, trace, question)
        assert shown(references[None](), question["decimals"]) == question["answer"], question["id"]
        for option in question["options"]:
            if not option["correct"]:
                assert option["mistake"] in references, (question["id"], option["mistake"])
                assert shown(references[option["mistake"]](), question["decimals"]) == option["text"], (question["id"], option)
                assert option["text"] != question["answer"]


def test_a_mistake_that_gives_the_right_answer_is_not_offered():
    """Self-attention here has V = K = X: summing the keys is summing the values, so that option would be right."""
    _, trace, questions = case("self-attention")
    output = next(q for q in questions if q["source"]["field"] == "output")
    assert np.allclose(trace.k, trace.v)
    assert "summed-keys" not in {option.get("mistake") for option in output["options"]}
    _, trace, questions = case("qkv")  # with projections V differs from K, but qkv asks no output: the attention pass does
    assert not np.allclose(trace.k, trace.v)


DERIVED = {
    "d_head": lambda t, index: t.x.shape[1] / t.n_heads,
    "mirror_position": lambda t, index: t.length - index[0],
}
"""Answers that are sizes read off a trace rather than one of its fields: recomputed here."""


def trace_value(trace, field: str, index: tuple[int, ...]) -> float:
    if field in DERIVED:
        return float(DERIVED[field](trace, index))
    return float(np.asarray(getattr(trace, field), dtype=float)[index])


@pytest.mark.parametrize("label", list(CASES))
def test_every_numeric_answer_is_its_trace_value_rounded_as_shown(label):
    _, trace, questions = case(label)
    for question in questions:
        if question["kind"] != "numeric":
            continue
        value = trace_value(trace, question["source"]["field"], tuple(question["source"]["index"]))
        assert question["answer"] == format_number(value, question["decimals"]), question["id"]
        assert abs(value - question["value"]) <= 0.5 * 10.0 ** -question["decimals"] + 1e-12
        # Accepts what lies within its tolerance of the answer as shown, not beyond.
        slack = question["tolerance"]
        for typed in (question["value"] + 0.9 * slack, question["value"] - 0.9 * slack):
            assert check_answer(question, repr(typed))[0] is True
        assert check_answer(question, repr(question["value"] + 1.1 * slack))[0] is False


def test_an_answer_worked_by_hand_from_the_rounded_numbers_on_screen_counts_as_right():
    """A reviewer's two cases: qkv shows the score 1.51 and "÷ 2" (1.51 / 2 = 0.755, the answer 0.756);
    cross-attention's worksheet prints q and k to two decimals, whose product is not the unrounded 8.34."""
    _, qkv, questions = case("qkv")
    scaled = next(q for q in questions if q["source"]["field"] == "scaled_scores")
    i, j = scaled["source"]["index"]
    score_shown = round(float(qkv.raw_scores[i, j]), 2)
    assert check_answer(scaled, repr(score_shown / math.sqrt(qkv.d_k)))[0] is True
    _, cross, questions = case("cross-attention")
    score = next(q for q in questions if q["source"]["field"] == "raw_scores")
    i, j = score["source"]["index"]
    by_hand = float(np.round(cross.q[i], 2) @ np.round(cross.k[j], 2))
    assert abs(by_hand - score["value"]) > 0.005  # the case the old half-unit tolerance refused
    assert check_answer(score, repr(by_hand))[0] is True
    # Forgetting to divide by √d_k is still wrong.
    assert check_answer(scaled, repr(score_shown))[0] is False


@pytest.mark.parametrize("label", list(CASES))
def test_every_square_root_a_question_writes_out_is_its_value_at_the_decimals_written(label):
    """ "√32 = 6" was written in a feedback (√32 is 5.66): "=" only for an exact root, "≈" to the digits shown."""
    _, _, questions = case(label)
    text = json.dumps(questions, ensure_ascii=False)
    for radicand, sign, written in re.findall(r"√(\d+) ([=≈]) (\d+(?:\.\d+)?)", text):
        root = math.sqrt(int(radicand))
        decimals = len(written.partition(".")[2])
        assert abs(root - float(written)) <= 0.5 * 10.0**-decimals + 1e-12, f"√{radicand} {sign} {written}"
        assert (sign == "=") == (root == float(written)), f"√{radicand} {sign} {written}"


# --- the worksheet's answer key and the questions agree ---------------------------------------------


def worksheet_cells(page: str, source: dict) -> list[list[str]]:
    """The cells, as printed, of the table a question's source names: its exercise's (numbered from 1) given or answer table."""
    exercises, key = page.split('<section class="key">')
    section = key if source["part"] == "answer" else exercises
    items = re.findall(r"<li>(.*?)</li>", section.split("<ol>", 1)[1], re.S)
    caption = re.escape(str(escape(source["table"])))
    found = re.search(r"<table><caption>" + caption + r"</caption>(.*?)</table>", items[source["worksheet_item"] - 1], re.S)
    assert found, f"no table {source['table']!r} in exercise {source['exercise']}"
    rows = re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)
    return [re.findall(r"<td>(.*?)</td>", row) for row in rows if "<td>" in row]


@pytest.mark.parametrize("label", list(CASES))
def test_the_worksheets_answer_key_prints_each_questions_answer_with_the_same_rounding(label):
    name, trace, questions = case(label)
    page = worksheet_page(SCENES[name], trace)
    for question in questions:
        cells = worksheet_cells(page, question["source"])
        entry = question["source"]["entry"]
        printed = cells[entry[0]][entry[1]] if len(entry) == 2 else [cell for row in cells for cell in row][entry[0]]
        assert printed == question["answer"], question["id"]


# --- questions.json in the package -------------------------------------------------------------------


def test_a_package_holds_its_questions_listed_in_its_manifest_and_checked_when_read(tmp_path):
    name, trace, questions = case("self-attention")
    folder = fake_package(tmp_path / name / "low", name, trace)
    document = read_questions(folder, scene_steps(name))
    assert document["questions"] == questions and document["scene"] == name
    entries = {entry["path"]: entry for entry in json.loads((folder / "manifest.json").read_text())["files"]}
    assert entries["questions.json"]["part"] == "package"
    # A damaged file is refused with one line naming the question.
    broken = json.loads((folder / "questions.json").read_text())
    broken["questions"][1]["options"][0]["correct"] = not broken["questions"][1]["options"][0]["correct"]
    (folder / "questions.json").write_text(json.dumps(broken))
    with pytest.raises(QuestionsError, match="question 2") as error:
        read_questions(folder)
    assert "\n" not in str(error.value)
    (folder / "questions.json").write_text("{not json")
    with pytest.raises(QuestionsError, match="not valid JSON"):
        read_questions(folder)


def test_a_question_at_a_step_the_render_does_not_have_is_refused_by_the_checker():
    name, _, questions = case("softmax")
    with pytest.raises(QuestionsError, match="step 'scores', which the render does not have"):
        check_questions({"scene": name, "title": "t", "questions": questions}, ["takeaway"])


# --- typed answers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("12,5", "use a point for decimals (12.5)"),
        ("abc", "“abc” is not a number: type digits, with a point for decimals, like 0.25"),
        ("", "no answer was typed"),
        ("1.2.3", "is not a number"),
    ],
)
def test_an_unreadable_typed_answer_gives_a_clear_message_not_a_wrong_mark(typed, says):
    question = case("self-attention")[2][0]  # a numeric question
    assert question["kind"] == "numeric"
    with pytest.raises(UnreadableAnswer) as error:
        check_answer(question, typed)
    assert says in str(error.value) and "\n" not in str(error.value)


def test_typed_numbers_are_read_as_a_learner_types_them():
    assert read_typed_number("12,288") == 12288 and read_typed_number(" −0.25 ") == -0.25 and read_typed_number(".5") == 0.5
    question = {"kind": "numeric", "id": "x", "value": 0.261, "tolerance": 0.0005, "answer": "0.261", "feedback": "Softmax."}
    assert check_answer(question, "0.2606") == (True, "Softmax.")
    right, feedback = check_answer(question, "0.2616")
    assert not right and feedback.startswith("Not quite: the answer is 0.261.")


# --- GIFT: a parser written from Moodle's description, and the round trip -----------------------------


GIFT_ESCAPABLE = "~=#{}:\\n"


def gift_tokens(text: str) -> list[tuple[str, bool]]:
    """Each character of ``text`` with whether it was escaped by a backslash (``\\n`` is a line break)."""
    tokens, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in GIFT_ESCAPABLE:
            tokens.append(("\n" if text[i + 1] == "n" else text[i + 1], True))
            i += 2
        else:
            tokens.append((text[i], False))
            i += 1
    return tokens


def split_tokens(tokens, separators: str):
    """Split at unescaped ``separators``: ``[(separator before, tokens)]``, the first with separator ``""``."""
    parts, current, before = [], [], ""
    for char, escaped in tokens:
        if char in separators and not escaped:
            parts.append((before, current))
            current, before = [], char
        else:
            current.append((char, escaped))
    parts.append((before, current))
    return parts


def plain(tokens) -> str:
    return "".join(char for char, _ in tokens).strip()


def parse_gift(text: str) -> list[dict]:
    """Read a GIFT file: questions separated by blank lines; ``//`` comments and ``$CATEGORY`` lines skipped.

    Each question: ``::name::`` then an optional ``[format]``, its text, and ``{...}``: ``#value:tolerance#feedback``
    (numeric) or answers ``=right#feedback`` / ``~%weight%wrong#feedback`` (multiple choice).
    """
    questions = []
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    for block in re.split(r"\n\s*\n", "\n".join(lines)):
        if not block.strip() or block.strip().startswith("$CATEGORY:"):
            continue
        tokens = gift_tokens(block.strip())
        assert plain(tokens[:2]) == "::" and not tokens[0][1], block
        end = next(i for i in range(2, len(tokens) - 1) if tokens[i : i + 2] == [(":", False), (":", False)])
        name, rest = plain(tokens[2:end]), tokens[end + 2 :]
        text_format = ""
        if plain(rest[:1]) == "[":
            close = next(i for i, (char, _) in enumerate(rest) if char == "]")
            text_format, rest = plain(rest[1:close]), rest[close + 1 :]
        opening = next(i for i, token in enumerate(rest) if token == ("{", False))
        closing = max(i for i, token in enumerate(rest) if token == ("}", False))
        assert plain(rest[closing + 1 :]) == "", f"text after the answers of {name}"
        stem, answers = plain(rest[:opening]), rest[opening + 1 : closing]
        question = {"name": name, "format": text_format, "stem": stem}
        if plain(answers).startswith("#"):
            start = next(i for i, token in enumerate(answers) if token == ("#", False))
            parts = split_tokens(answers[start + 1 :], "#")
            value, tolerance = (plain(part) for _, part in split_tokens(parts[0][1], ":"))
            question |= {"kind": "numeric", "value": float(value), "tolerance": float(tolerance)}
            question["feedback"] = plain(parts[1][1]) if len(parts) > 1 else ""
        else:
            options = []
            for marker, part in split_tokens(answers, "=~")[1:]:
                pieces = split_tokens(part, "#")
                answer = plain(pieces[0][1])
                weight = re.match(r"%(-?\d+(\.\d+)?)%", answer)
                if weight:
                    answer = answer[weight.end() :].strip()
                options.append(
                    {
                        "text": answer,
                        "correct": marker == "=",
                        "weight": float(weight.group(1)) if weight else (100.0 if marker == "=" else 0.0),
                        "feedback": plain(pieces[1][1]) if len(pieces) > 1 else "",
                    }
                )
            question |= {"kind": "choice", "options": options}
        questions.append(question)
    return questions


def assert_round_trip(gift: str, questions: list[dict]) -> None:
    parsed = parse_gift(gift)
    assert [q["name"] for q in parsed] == [q["id"] for q in questions]
    for read, question in zip(parsed, questions):
        assert read["format"] == "plain" and read["stem"] == question["stem"] and read["kind"] == question["kind"]
        if question["kind"] == "numeric":
            assert read["value"] == pytest.approx(question["value"], abs=1e-12)
            assert read["tolerance"] == pytest.approx(question["tolerance"], rel=1e-12)
            assert read["feedback"] == question["feedback"]
        else:
            assert [(o["text"], o["correct"], o["feedback"]) for o in read["options"]] == [
                (o["text"], o["correct"], o["feedback"]) for o in question["options"]
            ]
            assert [o["weight"] for o in read["options"]] == [100.0 if o["correct"] else 0.0 for o in question["options"]]


def test_the_gift_parser_reads_moodles_own_examples():
    """The parser is checked on GIFT written by hand (Moodle's documentation's forms), not only on ours."""
    sample = (
        "// a comment\n::Grant::Who's buried in Grant's tomb?{~%0%Grant#No. =no one#Right ~Jefferson}\n\n"
        "::Born::[plain]When was Ulysses S. Grant born?{#1822:5#Close enough}\n\n"
        "::Esc::2 \\= 1 \\+ 1\\: true \\{or\\} \\#not\\~{=yes\\#1#it\\: is ~no}\n"
    )
    grant, born, escaped = parse_gift(sample)
    assert [(o["text"], o["correct"], o["feedback"]) for o in grant["options"]] == [
        ("Grant", False, "No."),
        ("no one", True, "Right"),
        ("Jefferson", False, ""),
    ]
    assert born == {"name": "Born", "format": "plain", "stem": "When was Ulysses S. Grant born?", "kind": "numeric"} | {
        "value": 1822.0,
        "tolerance": 5.0,
        "feedback": "Close enough",
    }
    assert escaped["stem"] == "2 = 1 \\+ 1: true {or} #not~"
    assert [(o["text"], o["feedback"]) for o in escaped["options"]] == [("yes#1", "it: is"), ("no", "")]


@pytest.mark.parametrize("label", list(CASES))
def test_the_gift_file_of_every_render_reads_back_as_its_questions(label, tmp_path):
    name, trace, questions = case(label)
    folder = fake_package(tmp_path / name / "low", name, trace)
    target = export_package(folder, "gift")
    assert target.name == f"{name}-gift.txt"
    gift = target.read_text(encoding="utf-8")
    assert_round_trip(gift, questions)
    assert f"$CATEGORY: $course$/attention-explainer/{name}\n" in gift


def test_a_teachers_sentence_with_gifts_special_characters_round_trips(tmp_path):
    sentence = "x{1}=2 a:b #3 ~4 back\\slash"
    inputs = check_inputs(("self-attention",), {"sentence": sentence}, SCENES, skip_missing=False)[0]["self-attention"]
    trace = build_trace("self-attention", inputs)
    questions = [question.to_json() for question in questions_for("self-attention", trace)]
    words = " ".join(q["stem"] for q in questions)
    assert any(word in words for word in ("x{1}=2", "a:b", "#3", "~4", "back\\slash"))
    folder = fake_package(tmp_path / "self-attention" / "low", "self-attention", trace)
    gift = export_package(folder, "gift").read_text(encoding="utf-8")
    assert_round_trip(gift, questions)
    # Every special character of the teacher's words is escaped where it appears.
    for word in sentence.split():
        if f"“{word}”" in words:
            assert f"“{gift_escape(word)}”" in gift


def test_gift_escaping_keeps_no_special_character_bare_and_no_line_break():
    text = "a~b=c#d{e}f:g\\h\n\nnew paragraph"
    escaped = gift_escape(text)
    assert "\n" not in escaped
    assert [char for char, was_escaped in gift_tokens(escaped) if char in "~=#{}:" and not was_escaped] == []
    assert plain(gift_tokens(escaped)) == "a~b=c#d{e}f:g\\h new paragraph"


def test_a_gift_export_of_a_render_without_questions_or_with_a_changed_file_is_one_line_and_no_file(tmp_path):
    name, trace, _ = case("softmax")
    folder = fake_package(tmp_path / name / "low", name, trace)
    (folder / "questions.json").write_text('{"scene": "softmax", "title": "t", "questions": []}')
    with pytest.raises(ValueError) as error:
        export_package(folder, "gift")
    assert "questions.json" in str(error.value) and "\n" not in str(error.value)
    # A render whose steps hold none of the questions' steps has no questions.json to export.
    other = fake_package(tmp_path / "other" / name / "low", name, trace, steps=["takeaway"])
    assert not (other / "questions.json").exists()
    with pytest.raises(ValueError, match="has no questions.json"):
        export_package(other, "gift")
    assert not list(tmp_path.rglob("*-gift.txt")) and not list(tmp_path.rglob(".*.tmp"))


@pytest.mark.render
def test_the_cli_exports_the_sessions_render_as_gift_from_its_published_questions(rendered, tmp_path):
    """The session's real render of scaling: its questions follow its real steps, and `export --to gift` reads them back."""
    media = tmp_path / "media"
    shutil.copytree(rendered[0], media)
    folder = media / "scaling" / "low"
    steps = [step["name"] for step in json.loads((folder / "sections.json").read_text())]
    document = read_questions(folder, steps)
    assert document["questions"] == case("scaling")[2]
    result = run("export", "scaling", "--to", "gift", "--quality", "low", "--media-dir", str(media), "--cache-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert str(folder / "scaling-gift.txt") in result.output.splitlines()
    assert_round_trip((folder / "scaling-gift.txt").read_text(encoding="utf-8"), document["questions"])


def test_the_presenter_carries_the_questions_as_data_even_with_a_hostile_sentence(tmp_path):
    """A teacher's words in a stem cannot end the page's <script>; a render without questions has no dialog at all."""
    hostile = "</script><b>&amp;"  # a word of at most 24 characters, as --sentence takes
    inputs = check_inputs(("self-attention",), {"sentence": f"{hostile} cat"}, SCENES, skip_missing=False)[0]
    trace = build_trace("self-attention", inputs["self-attention"])
    folder = fake_package(tmp_path / "self-attention" / "low", "self-attention", trace)
    page = (folder / "present.html").read_text(encoding="utf-8")
    start = page.index('id="questions">') + len('id="questions">')
    embedded = json.loads(page[start : page.lower().index("</script", start)])
    assert embedded == json.loads((folder / "questions.json").read_text(encoding="utf-8"))["questions"]
    assert any(f"“{hostile}”" in question["stem"] for question in embedded)
    assert page.count("<script") == page.count("</script>") == 3
    assert 'role="dialog" aria-modal="true" aria-labelledby="question-title"' in page
    without = fake_package(tmp_path / "softmax" / "low", "softmax", case("softmax")[1], steps=["takeaway"])
    page = (without / "present.html").read_text(encoding="utf-8")
    assert 'role="dialog"' not in page and 'id="questions"' not in page and "Q: questions" not in page
