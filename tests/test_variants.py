"""A teacher's render is described as rendered: its sentence, seed and sizes, never the default's."""

from __future__ import annotations

import pytest

from attention_explainer.options import validate, variant_folder
from attention_explainer.package.captions import to_transcript
from attention_explainer.pages.presenter import write_presenter
from attention_explainer.pages.templating import about_render
from attention_explainer.pages.worksheet import exercises_for, worksheet_page
from scenes import SCENES

SENTENCE = "Dogs chase small cats"
# trained-heads reads WordPiece pieces and sentiment-attention only words of its vocabulary: each has its own tests.
SENTENCE_SCENES = [
    name
    for name, scene in SCENES.items()
    if "sentence" in scene.options and name != "trained-heads" and not getattr(scene, "vocabulary", None)
]


def custom_trace(name: str):
    scene = SCENES[name]
    given = {"sentence": SENTENCE}
    if "seed" in scene.options:
        given["seed"] = "7"
    if "heads" in scene.options:
        given["heads"] = str(scene.heads_range[0])
    return scene, scene.build_trace(**validate(scene, given))


@pytest.mark.parametrize("name", SENTENCE_SCENES)
def test_every_page_names_the_teachers_sentence_and_never_the_default(name, tmp_path):
    scene, trace = custom_trace(name)
    about = about_render(scene, trace)
    assert f"“{SENTENCE}”" in about and "cat sat" not in about.lower()
    if "seed" in scene.options:  # in the inputs line, or in where the trace's numbers come from
        assert "random seed 7" in about or "default_rng(7)" in getattr(trace, "source", ""), about
    if "heads" in scene.options:
        assert f"heads {scene.heads_range[0]}" in about
    steps = [{"name": "one", "title": "One", "caption": "A line.", "file": "sections/01-one.mp4"}]
    presenter = write_presenter(tmp_path, scene.title, steps, about).read_text(encoding="utf-8")
    transcript = to_transcript(scene.title, steps, about)
    pages = [presenter, transcript]
    if exercises_for(trace):
        pages.append(worksheet_page(scene, trace))
    for page in pages:
        assert SENTENCE in page and "cat sat" not in page.lower()


def test_a_default_render_is_described_with_the_course_sentence():
    scene = SCENES["self-attention"]
    assert "“The cat sat on the mat”" in about_render(scene, scene.build_trace())


@pytest.mark.parametrize(
    "name, given",
    [
        ("multi-head", {"heads": "8"}),
        ("multi-head", {"d_model": "16", "heads": "8"}),
        ("transformer-block", {"heads": "2", "d_model": "8"}),
        ("scaling", {"seed": "42"}),
    ],
)
def test_the_default_value_given_explicitly_renders_into_the_default_folder(name, given):
    scene = SCENES[name]
    assert variant_folder(name, validate(scene, given)) == name


def test_a_value_other_than_the_default_gets_its_own_folder():
    scene = SCENES["multi-head"]
    assert variant_folder("multi-head", validate(scene, {"heads": "4"})) != "multi-head"


def test_a_light_render_sits_beside_the_dark_one_and_dark_keeps_the_plain_folder(tmp_path):
    from attention_explainer.options import RenderJob
    from attention_explainer.pipeline.folders import Folders

    folders = Folders(tmp_path / "media", tmp_path / "cache")
    dark, light = RenderJob("scaling", quality="low"), RenderJob("scaling", quality="low", theme="light")
    assert folders.published("scaling", dark.variant, "low") == tmp_path / "media" / "scaling" / "low"
    light_folder = folders.published("scaling", light.variant, "low")
    assert light_folder.parent.name.startswith("scaling--light-") and light_folder.name == "low"
    narrated_light = RenderJob("scaling", quality="low", theme="light", voice="joe")
    assert len({dark.folder, light.folder, narrated_light.folder}) == 3
