"""The pages: autoescaped templates, JSON that cannot break out of its <script>, colours from the theme."""

from __future__ import annotations

import json
import re
import zipfile

import pytest

from attention_explainer.exports.export import export_package
from attention_explainer.options import RenderJob
from attention_explainer.pages.gallery import write_gallery
from attention_explainer.pages.presenter import write_presenter
from attention_explainer.pages.templating import script_json
from attention_explainer.pages.write import write_package
from scenes import SCENES
from scenes.theme import DARK, THEMES

HOSTILE = "<!--<script></script>& \u2028\u2029 \"quoted\" 'single' </SCRIPT >"


def inline_json(page: str, element_id: str):
    """The data of ``<script type="application/json" id=...>`` as a browser reads it: up to the first ``</script``."""
    start = page.index(f'id="{element_id}">') + len(f'id="{element_id}">')
    end = page.lower().index("</script", start)
    return json.loads(page[start:end])


def test_script_json_keeps_any_string_inside_its_script():
    text = str(script_json({"word": HOSTILE}))
    assert json.loads(text) == {"word": HOSTILE}
    for dangerous in ("<", ">", "&", "\u2028", "\u2029"):
        assert dangerous not in text


def test_a_hostile_step_title_or_caption_stays_data_in_the_presenter(tmp_path):
    sections = [{"name": "x", "title": HOSTILE, "caption": f"About {HOSTILE}.", "file": "sections/01-x.mp4"}]
    page = write_presenter(tmp_path, f"Title {HOSTILE}", sections).read_text(encoding="utf-8")
    assert inline_json(page, "steps") == [
        {"name": "x", "title": HOSTILE, "caption": f"About {HOSTILE}.", "file": "sections/01-x.mp4"}
    ]
    title = re.search(r"<title>(.*)</title>", page).group(1)
    assert "<" not in title and "&lt;!--&lt;script&gt;" in title
    # Every <script> the page opens is closed once: the hostile text opened none.
    assert page.count("<script") == page.count("</script>") == 2


def test_page_colours_come_from_the_theme(tmp_path):
    page = write_presenter(tmp_path, "t", [{"name": "a", "title": "A", "caption": "b", "file": "c"}]).read_text(encoding="utf-8")
    for colour in (DARK.background, DARK.text, DARK.muted, DARK.highlight, DARK.surface):
        assert f": {colour};" in page


TITLED = "Why divide by √d_k? <q·k> & more"
"""A step's title as a scene might write it (its symbols), with markup characters that must stay text."""


def scaling_package(folder, theme: str = "dark") -> str:
    """A package of ``scaling`` written around stand-in render products (one step, titled :data:`TITLED`): its SCORM player."""
    trace = SCENES["scaling"].build_trace()
    (folder / "sections").mkdir(parents=True)
    line = {"text": "Why divide?", "spoken": "Why divide?", "start": 0.0, "end": 1.0}
    step = {"index": 1, "name": "the-question", "title": TITLED, "caption": line["text"], "lines": [line], "start": 0.0}
    (folder / "sections.json").write_text(json.dumps([{**step, "duration": 1.0, "file": "sections/01-the-question.mp4"}]))
    (folder / "trace.json").write_text(trace.to_json())
    for stand_in in ("scaling.mp4", "poster.png", "sections/01-the-question.mp4"):  # the pages only name them
        (folder / stand_in).write_bytes(b"stand-in")
    write_package(
        folder,
        RenderJob("scaling", quality="low", theme=theme),
        trace,
        "render",
        "package",
        scene_class=SCENES["scaling"],
        versions={},
    )
    with zipfile.ZipFile(export_package(folder, "scorm")) as scorm:
        return scorm.read("index.html").decode("utf-8")


def test_every_page_names_a_step_by_its_title_escaped_never_by_its_slug(tmp_path):
    folder = tmp_path / "scaling" / "low"
    player = scaling_package(folder)
    escaped = "Why divide by √d_k? &lt;q·k&gt; &amp; more"
    presenter = (folder / "present.html").read_text(encoding="utf-8")
    explorer = (folder / "explore.html").read_text(encoding="utf-8")
    transcript = (folder / "transcript.txt").read_text(encoding="utf-8")
    assert [step["title"] for step in inline_json(presenter, "steps")] == [TITLED]
    assert "replace(/-/g" not in presenter  # the page shows the title as written, not a slug it rewrites
    assert f'<span class="step-title">{escaped}</span>' in explorer
    assert f">1. {escaped}</button>" in player
    assert transcript.splitlines()[3] == f"1. {TITLED}"  # plain text: the title as written
    for name, text in (("presenter", presenter), ("explorer", explorer), ("SCORM player", player), ("transcript", transcript)):
        # The slug de-dashed, as a shown text of its own (an element's whole text, a JSON string or a transcript line).
        slug_shown = re.search(r'(>\s*(\d+\.\s*)?|"|^(\d+\.\s*)?)the question\s*(<|"|$)', text, re.IGNORECASE | re.MULTILINE)
        assert slug_shown is None, f"{name} names the step by its slug"


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_a_renders_pages_take_its_theme(tmp_path, theme):
    """Presenter, explorer and SCORM player of a light render are light pages (a print render shown in a bright room)."""
    folder = tmp_path / "scaling" / "low"
    player = scaling_package(folder, theme)
    other = THEMES["dark" if theme == "light" else "light"]
    for name, page in [
        *((name, (folder / name).read_text(encoding="utf-8")) for name in ("present.html", "explore.html")),
        ("SCORM player", player),
    ]:
        assert f"--bg: {THEMES[theme].background};" in page, name
        assert f"--bg: {other.background};" not in page, name


def test_the_gallery_leaves_out_renders_it_cannot_read_and_says_so(tmp_path, caplog):
    for name, content in (("truncated", '{"scene": "scaling", "fil'), ("a-list", "[]")):
        folder = tmp_path / name / "low"
        folder.mkdir(parents=True)
        (folder / "manifest.json").write_text(content)
    page = write_gallery(tmp_path).read_text(encoding="utf-8")
    assert "<article" not in page and "No videos rendered yet" in page
    assert caplog.text.count("left out of the gallery") == 2


def test_the_gallery_links_a_renders_explorer_scorm_zip_and_deck_when_they_exist(tmp_path):
    def package(scene: str, files: list[str]):
        folder = tmp_path / scene / "low"
        folder.mkdir(parents=True)
        manifest = {"scene": scene, "title": scene.title(), "render_hash": "r", "package_hash": "p", "files": []}
        (folder / "manifest.json").write_text(json.dumps(manifest))
        steps = [
            {"name": "one", "title": "One", "caption": "A line.", "start": 0, "duration": 2.0, "file": "sections/01-one.mp4"}
        ]
        (folder / "sections.json").write_text(json.dumps(steps))
        for name in files:
            (folder / name).write_bytes(b"x")

    package("scaling", ["scaling.mp4", "explore.html", "scaling-scorm.zip", "scaling.pptx"])
    package("softmax", ["softmax.mp4"])
    page = write_gallery(tmp_path).read_text(encoding="utf-8")
    links = set(re.findall(r'href="([^"]+)"', page))
    assert {"scaling/low/explore.html", "scaling/low/scaling-scorm.zip", "scaling/low/scaling.pptx"} <= links
    assert not {link for link in links if link.startswith("softmax/low/") and link.endswith((".zip", ".pptx", "explore.html"))}
