"""Nothing a render publishes refers to material the viewer does not have (the course's notebooks, exercises, seeds).

The scenes come from a course's notebooks, but a viewer gets only the package: its video, captions,
transcript, sections, narration, manifest, trace, worksheet, questions and explorer page. Each of those texts is
built here, as the package writes it, from every scene built without video.
"""

from __future__ import annotations

import json
import re

import pytest

from attention_explainer.package import captions
from attention_explainer.pages.explorer import explorer_page
from attention_explainer.pages.questions import questions_document, questions_for
from attention_explainer.pages.templating import about_render
from attention_explainer.pages.worksheet import exercises_for, worksheet_page
from scenes import SCENES

from .helpers import built_scene

COURSE_WORDS = re.compile(
    r"notebook|\bcourses?\b|\bcourse's\b|\bexercise\s*\d|\bthe exercise\b|\bseed\s+0\d\d\b|\bweek\s*\d|\bslides?\b|"
    r"\bseed document|\"exercise\"\s*:",
    re.IGNORECASE,
)
"""How the course material is named: its notebooks, exercises ("the exercise"), seed files ("seed 004"), weeks and slides."""


def published_texts(name: str) -> dict[str, str]:
    """Every text the package of scene ``name`` publishes (its default render), by file, as the package writes it."""
    scene = built_scene(name)
    scene_class = SCENES[name]
    sections = [
        {
            "index": index,
            "name": step.name,
            "title": step.title,
            "caption": step.caption,
            "lines": [{"text": line.text, "spoken": line.spoken, "start": line.start, "end": line.end} for line in step.lines],
            "start": step.start,
            "duration": step.duration,
            "file": f"sections/{index:02d}-{step.name}.mp4",
        }
        for index, step in enumerate(scene.steps, start=1)
    ]
    about = about_render(scene_class, scene.trace)
    trace_json = scene.trace.to_json()
    texts = {
        "on screen": "\n".join(sorted(set().union(*scene.recording.texts.values()))),
        "captions.vtt": captions.to_vtt(captions.cues_for(sections)),
        "transcript.txt": captions.to_transcript(scene_class.title, sections, about),
        "sections.json": json.dumps(sections, ensure_ascii=False),
        "narration.json": "\n".join(scene.voice.said),
        "manifest.json": json.dumps(
            {"title": scene_class.title, "description": about, "sources": scene_class.sources}, ensure_ascii=False
        ),
        "trace.json": trace_json,
        "explore.html": explorer_page(json.loads(trace_json), sections, scene_class.title, f"{name}.mp4", about),
    }
    questions = questions_document(name, scene_class.title, scene.trace, [step.name for step in scene.steps])
    # Built with its real steps, the scene keeps every question: none is placed at a step it does not have.
    assert len(questions["questions"]) == len(questions_for(name, scene.trace)), [step.name for step in scene.steps]
    texts["questions.json"] = json.dumps(questions, ensure_ascii=False)
    if exercises_for(scene.trace):
        texts["worksheet.html"] = worksheet_page(scene_class, scene.trace)
    return texts


@pytest.mark.parametrize("name", list(SCENES))
def test_no_published_text_refers_to_the_course_material(name):
    found = [
        f"{file}: …{text[max(0, m.start() - 40) : m.end() + 40]}…"
        for file, text in published_texts(name).items()
        for m in COURSE_WORDS.finditer(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "text",
    [
        "from the course notebook",
        "Exercise 2 of the course",
        "(unscaled, as in the exercise)",
        "seed 004",
        "(seed 001 part 3)",
        "week 13",
        "the slides",
    ],
)
def test_the_course_words_are_found(text):
    assert COURSE_WORDS.search(text)


@pytest.mark.parametrize("text", ["Exercises", "random matrices (seed 1348)", "coursework", "slider"])
def test_words_that_are_not_the_course_pass(text):
    assert not COURSE_WORDS.search(text)
