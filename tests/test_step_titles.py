"""Step titles: every step of every scene has one written for people, and the reader holds packages to it.

Read from the scenes' source with ``ast`` (nothing is built), so a step behind a condition (a
teacher's sentence, one head) is checked too; ``test_scenes`` checks the titles of the default builds.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from attention_explainer.package.sections import SectionsError, check_steps, read_sections

from .helpers import step_title_problems

SCENE_FILES = sorted(path for path in (Path(__file__).resolve().parent.parent / "scenes").glob("*.py"))


def step_calls(path: Path) -> list[ast.Call]:
    """Every ``self.step(...)`` call in the scene file ``path``."""
    return [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "step"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
    ]


def titled_steps(path: Path) -> list[tuple[str, object]]:
    """``(slug, title)`` of each step opened in ``path``; a title that is not a string literal is kept as its source."""
    steps = []
    for call in step_calls(path):
        arguments = [*call.args, *(keyword.value for keyword in call.keywords if keyword.arg in ("name", "title"))]
        slug, title = (arguments + [None, None])[:2]
        assert isinstance(slug, ast.Constant) and isinstance(slug.value, str), f"{path.name}: a step's slug is not written out"
        steps.append((slug.value, title.value if isinstance(title, ast.Constant) else ast.unparse(title) if title else None))
    return steps


def test_the_scene_files_are_read():
    """The checker sees the catalog's steps: 16 scenes open their steps with ``self.step``."""
    assert sum(1 for path in SCENE_FILES if step_calls(path)) == 16


@pytest.mark.parametrize("path", [path for path in SCENE_FILES if step_calls(path)], ids=lambda path: path.stem)
def test_every_step_has_a_title_written_for_people(path):
    steps = titled_steps(path)
    assert [problem for slug, title in steps for problem in step_title_problems(slug, title)] == []
    titles = [title for _, title in steps]
    assert len(set(titles)) == len(titles), f"{path.name}: two steps share a title"


@pytest.mark.parametrize(
    ("name", "title", "problem"),
    [
        ("divide-by-sqrt-dk", "Divide by sqrt dk", "its slug's words"),
        ("the-question", "The question", "its slug's words"),
        ("the-question", "the question of scale", "start with a capital"),
        ("the-question", "Why divide?.", "ends with a period"),
        ("the-question", "Why " + "very " * 8 + "long", "more than 40"),
        ("the-question", "Why\ndivide", "a line break"),
        ("the-question", "", "no title"),
        ("the-question", None, "no title"),
    ],
)
def test_the_title_rule_catches_what_it_says(name, title, problem):
    assert any(problem in found for found in step_title_problems(name, title))
    assert step_title_problems("divide-by-sqrt-dk", "Divide by √d_k") == []


STEP = {
    "index": 1,
    "name": "divide-by-sqrt-dk",
    "title": "Divide by √d_k",
    "caption": "Divide.",
    "lines": [{"text": "Divide.", "spoken": "", "start": 0.0, "end": 1.0}],
    "start": 0.0,
    "duration": 1.0,
    "file": "sections/01-divide-by-sqrt-dk.mp4",
}


@pytest.mark.parametrize("title", ["missing", "", "   ", None, 3, ["Divide"]])
def test_the_reader_refuses_a_step_without_a_title(tmp_path, title):
    step = {key: value for key, value in STEP.items() if key != "title"} if title == "missing" else {**STEP, "title": title}
    assert check_steps([STEP], complete=True) == [STEP]
    with pytest.raises(SectionsError, match="step 2 has no title"):
        check_steps([STEP, {**step, "index": 2}], complete=True)
    (tmp_path / "sections.json").write_text(json.dumps([step]), encoding="utf-8")
    with pytest.raises(SectionsError, match="step 1 has no title"):
        read_sections(tmp_path)
