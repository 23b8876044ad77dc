"""A render's questions in Moodle's GIFT format, for a question bank: numeric with tolerance, multiple choice with feedback.

Written from the package's own ``questions.json`` (read back and checked, each question's step among
the render's steps), so the bank asks what the video asked. One question per paragraph::

    // self-attention, step 6 (softmax)
    ::self-attention-2::[plain]After softmax, how much ...{
    =0.261#Right. Divide each score ...
    ~%0%0.212#This is the scores divided by d_k instead of its square root.
    }

A numeric answer is ``{#value:tolerance#feedback}``, the tolerance the one questions.json carries (:func:`~attention_explainer.package.questions.tolerance_for`:
exact for a whole number, room for working from the rounded numbers shown otherwise). Every text (a teacher's sentence among them) has GIFT's special characters ``~ = # { } :``
and the backslash escaped with a backslash, and its line breaks made spaces, so no text can end a
question, start an answer or open a comment; ``[plain]`` keeps Moodle from reading it as HTML.
"""

from __future__ import annotations

from pathlib import Path

from ..package.manifest import read_manifest
from ..package.questions import QUESTIONS, QuestionsError, read_questions
from ..package.reader import Package

__all__ = ["GIFT_SPECIAL", "gift_escape", "gift_text", "write_gift"]

GIFT_SPECIAL = "~=#{}:"
"""The characters GIFT gives a meaning (answers, feedback, braces, names): escaped in every text."""


def gift_escape(text: str) -> str:
    """``text`` as GIFT reads it literally: the backslash and ``~ = # { } :`` escaped, line breaks made spaces."""
    escaped = str(text).replace("\\", "\\\\")
    for character in GIFT_SPECIAL:
        escaped = escaped.replace(character, "\\" + character)
    return " ".join(escaped.split())


def _number(value: float, decimals: int) -> str:
    """A number as GIFT's numeric answers take it: a point, an ASCII minus, no grouping."""
    return f"{value:.{decimals}f}"


def _question(question: dict, step_number: dict[str, int], scene: str) -> str:
    head = f"// {scene}, step {step_number[question['step']]} ({question['step']})\n"
    head += f"::{gift_escape(question['id'])}::[plain]{gift_escape(question['stem'])}"
    if question["kind"] == "numeric":
        decimals = question["decimals"]
        answer = f"{_number(question['value'], decimals)}:{_number(question['tolerance'], decimals + 1)}"
        return f"{head}{{#{answer}#{gift_escape(question['feedback'])}}}\n"
    lines = [
        f"{'=' if option['correct'] else '~%0%'}{gift_escape(option['text'])}#{gift_escape(option['feedback'])}"
        for option in question["options"]
    ]
    return head + "{\n" + "\n".join(lines) + "\n}\n"


def gift_text(package: Package) -> str:
    """The GIFT file of ``package``'s questions; ``ValueError`` when the render has none, or they cannot be read back."""
    listed = {step["name"]: step["index"] for step in package.steps}
    manifest = read_manifest(package.folder) or {"files": []}
    if QUESTIONS not in {entry["path"] for entry in manifest["files"]}:
        raise ValueError(f"{package.folder} has no {QUESTIONS} (render it again, or this scene has no questions)")
    try:
        document = read_questions(package.folder, list(listed))
    except QuestionsError as error:
        raise ValueError(str(error)) from None
    if not document["questions"]:
        raise ValueError(f"{package.folder / QUESTIONS} holds no questions")
    title = " ".join(package.title.split())
    header = f"// {title}: questions on the numbers of the video, from attention-explainer\n\n"
    # A category per scene in the course's bank; a scene's name is a slug, but only letters, digits and - are kept.
    category = "".join(c for c in package.scene if c.isalnum() or c == "-") or "scene"
    header += f"$CATEGORY: $course$/attention-explainer/{category}\n\n"
    return header + "\n".join(_question(question, listed, package.scene) for question in document["questions"])


def write_gift(package: Package, target: Path) -> None:
    """Write the GIFT file of ``package``'s questions to ``target`` (a temporary file the export renames into place)."""
    target.write_text(gift_text(package), encoding="utf-8")
