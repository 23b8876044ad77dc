"""``questions.json``: a render's questions, each at the end of one of its steps; the one reader, checker and marker.

The file holds ``{"scene", "title", "questions": [...]}``. Every question has an ``id``, the ``step``
it follows (a step name of ``sections.json``), its ``kind`` (``numeric`` or ``choice``), a ``stem``,
the right ``answer`` as shown with its ``decimals``, a ``feedback`` and the ``source`` it was read
from (a worksheet exercise, its answer or given table and the entry in it; a trace field and index). A numeric question carries the
``value`` as shown and a ``tolerance`` (:func:`tolerance_for`) for working from rounded numbers; a choice question its
``options`` (``text``, ``correct``, ``feedback`` and, for a wrong one, the ``mistake`` it results from).

:func:`check_answer` marks a typed answer; an entry that is not a number (``12,5``, ``abc``) is
refused with a message saying how to type one, never marked wrong.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Sequence

__all__ = [
    "QUESTIONS",
    "QuestionsError",
    "UnreadableAnswer",
    "check_questions",
    "read_questions",
    "shown_value",
    "tolerance_for",
    "read_typed_number",
    "check_answer",
]

QUESTIONS = "questions.json"

KINDS = ("numeric", "choice")

MINUS = "\u2212"

# A number as typed: a sign, digits (thousands grouped by commas, or not), a decimal point and digits.
_TYPED = re.compile(r"[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?")


class QuestionsError(ValueError):
    """A ``questions.json`` that is not a render's questions; the message says which question and what is wrong."""


class UnreadableAnswer(ValueError):
    """A typed answer that is not a number; the message says what was typed and how to type a number."""


def tolerance_for(decimals: int, value: float) -> float:
    """How far a typed answer may be from the shown ``value`` and still count as right.

    An answer to two or more decimals is worked out by hand from the rounded numbers on screen,
    which moves its last digit (the video shows 1.51 ÷ 2, a learner types 0.755, the unrounded
    answer is 0.756): one unit of the last decimal, or 1% of the value when that is more, in whole
    units. A whole number (a count, a width) and a one-decimal answer are asked as rounded: half a
    unit, since one unit of a single decimal can reach the next value on screen.
    """
    unit = 10.0**-decimals
    if decimals < 2:
        return 0.5 * unit
    return unit * max(1, math.ceil(round(0.01 * abs(value) / unit, 9)))


def shown_value(text: str) -> float:
    """The number a shown answer (``format_number``'s text: ``12,288``, ``−0.25``) stands for."""
    return float(text.replace(MINUS, "-").replace(",", ""))


def read_typed_number(typed: str) -> float:
    """The number a learner typed: ``0.25``, ``-0.25`` or ``−0.25``, ``12288`` or ``12,288``, ``.5``.

    Raises :class:`UnreadableAnswer` for anything else, with one line saying how to type it: a
    decimal comma (``12,5``) is not read as 125 nor as 12.5.
    """
    text = str(typed).strip().replace(MINUS, "-").replace(" ", "")
    if not text:
        raise UnreadableAnswer("no answer was typed: type a number, like 0.25")
    if _TYPED.fullmatch(text) and any(c.isdigit() for c in text):
        return float(text.replace(",", ""))
    if re.fullmatch(r"[+-]?\d+,\d+", text):
        raise UnreadableAnswer(
            f"“{typed.strip()}” is not a number as typed here: use a point for decimals "
            f"({text.replace(',', '.')}), and commas only between groups of three digits (12,288)"
        )
    raise UnreadableAnswer(f"“{typed.strip()}” is not a number: type digits, with a point for decimals, like 0.25")


def check_answer(question: dict, answer: str) -> tuple[bool, str]:
    """Mark ``answer`` to a checked question: ``(right, feedback)``.

    A numeric question takes the typed text (right when within the tolerance of the value as
    shown); a choice question takes the chosen option's text. Raises :class:`UnreadableAnswer`
    for a typed answer that is not a number, and ``ValueError`` for an option the question does not have.
    """
    if question["kind"] == "numeric":
        typed = read_typed_number(answer)
        # A hair of slack for the binary fraction: 0.2545 typed is within 0.0005 of 0.254.
        right = abs(typed - question["value"]) <= question["tolerance"] * (1 + 1e-9)
        return right, question["feedback"] if right else f"Not quite: the answer is {question['answer']}. {question['feedback']}"
    for option in question["options"]:
        if option["text"] == answer:
            return bool(option["correct"]), option["feedback"]
    raise ValueError(f"{answer!r} is not one of the options of question {question['id']}")


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_question(number: int, question: Any, steps: Sequence[str] | None) -> None:
    where = f"questions.json: question {number}"
    if not isinstance(question, dict):
        raise QuestionsError(f"{where} is not an object")
    for key in ("id", "step", "stem", "answer", "feedback"):
        if not _text(question.get(key)):
            raise QuestionsError(f"{where} has no {key}")
    if question.get("kind") not in KINDS:
        raise QuestionsError(f"{where}: kind is {question.get('kind')!r}, not numeric or choice")
    if steps is not None and question["step"] not in steps:
        raise QuestionsError(f"{where} is placed at step {question['step']!r}, which the render does not have")
    decimals = question.get("decimals")
    if not _whole(decimals) or not 0 <= decimals <= 12:
        raise QuestionsError(f"{where} has no number of decimals")
    try:
        answer = shown_value(question["answer"])
    except ValueError:
        raise QuestionsError(f"{where}: its answer {question['answer']!r} is not a number") from None
    source = question.get("source")
    if not isinstance(source, dict) or not isinstance(source.get("field"), str) or not isinstance(source.get("table"), str):
        raise QuestionsError(f"{where} has no source (a worksheet table and a trace field)")
    if not _whole(source.get("worksheet_item")) or source["worksheet_item"] < 1 or source.get("part") not in ("answer", "given"):
        raise QuestionsError(f"{where}: its source names no worksheet item and part (answer or given)")
    if not all(isinstance(source.get(key), list) and all(_whole(i) for i in source[key]) for key in ("entry", "index")):
        raise QuestionsError(f"{where}: its source's entry and index are not lists of whole numbers")
    if question["kind"] == "numeric":
        value, tolerance = question.get("value"), question.get("tolerance")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (value, tolerance)):
            raise QuestionsError(f"{where} has no value and tolerance")
        if value != answer or not math.isclose(tolerance, tolerance_for(decimals, value)):
            raise QuestionsError(
                f"{where}: its value and tolerance are not its answer as shown and the slack for rounded working"
            )
        return
    options = question.get("options")
    if not isinstance(options, list) or len(options) < 2:
        raise QuestionsError(f"{where} has fewer than two options")
    for option in options:
        if not isinstance(option, dict) or not _text(option.get("text")) or not _text(option.get("feedback")):
            raise QuestionsError(f"{where} has an option without text or feedback")
        if not isinstance(option.get("correct"), bool):
            raise QuestionsError(f"{where} has an option that is neither right nor wrong")
        if not option["correct"] and not _text(option.get("mistake")):
            raise QuestionsError(f"{where} has a wrong option without the mistake it results from")
    texts = [option["text"] for option in options]
    if len(set(texts)) != len(texts):
        raise QuestionsError(f"{where} shows two options the same")
    right = [option["text"] for option in options if option["correct"]]
    if right != [question["answer"]]:
        raise QuestionsError(f"{where} does not have its answer as its one right option")


def check_questions(document: Any, steps: Sequence[str] | None = None) -> dict:
    """``document`` (as read from ``questions.json``) once checked; ``steps``, when given, are the render's step names.

    Raises :class:`QuestionsError` naming the question and what is wrong.
    """
    if not isinstance(document, dict) or not isinstance(document.get("questions"), list):
        raise QuestionsError("questions.json holds no list of questions")
    if not _text(document.get("scene")) or not isinstance(document.get("title"), str):
        raise QuestionsError("questions.json has no scene and title")
    for number, question in enumerate(document["questions"], start=1):
        _check_question(number, question, steps)
    ids = [question["id"] for question in document["questions"]]
    if len(set(ids)) != len(ids):
        raise QuestionsError("questions.json: two questions have the same id")
    return document


def read_questions(folder: Path, steps: Sequence[str] | None = None) -> dict:
    """The checked questions of the package in ``folder`` (see :func:`check_questions`); :class:`QuestionsError` when unreadable."""
    path = Path(folder) / QUESTIONS
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise QuestionsError(f"questions.json ({path}) cannot be read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise QuestionsError(f"questions.json ({path}) is not UTF-8 text") from None
    except ValueError as error:
        raise QuestionsError(f"questions.json ({path}) is not valid JSON: {error}") from None
    return check_questions(document, steps)
