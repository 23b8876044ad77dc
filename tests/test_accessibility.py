"""Every page kind the project publishes, checked by axe-core (WCAG 2.1 A and AA rules) in Chromium.

The pages: the presenter and the SCORM player, each with a question open; the explorer (the
session's render of ``scaling``, and every other scene's built from its trace, the trained-heads
explorer among them, but the one whose model trains for minutes); the gallery; the worksheet; and the embed snippet as a teacher's page holds
it. axe-core is a test-only npm package (``tests/js``, installed by ``make js``), injected into each
page; a violation fails the test with its rule, what it means and the elements it found.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from attention_explainer.pages.explorer import write_explorer
from attention_explainer.pages.gallery import embed_snippet
from attention_math.trained import ModelNotInstalled
from scenes import SCENES

from .helpers import RangeHandler

pytestmark = [pytest.mark.render, pytest.mark.browser]

AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
WCAG21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
"""axe-core's tags for the success criteria of WCAG 2.0 and 2.1 at levels A and AA."""

SLOW_TRACES = ("learning-to-attend",)
"""Scenes whose trace takes minutes to train first (eight here): their explorer is the same page, checked through the others."""

SECTIONS = [
    {
        "index": 1,
        "name": "the-idea",
        "title": "The idea",
        "caption": "First line.",
        "lines": [{"text": "First line.", "spoken": "", "start": 0.0, "end": 2.0}],
        "start": 0.0,
        "duration": 2.0,
        "file": "sections/01-the-idea.mp4",
    }
]


def violations(page) -> list[dict]:
    """axe-core's WCAG 2.1 A and AA violations on ``page`` as it is now: rule, impact, help and the elements' selectors."""
    if not AXE.is_file():
        pytest.fail("axe-core is not installed: run `make js` (npm ci in tests/js)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']}))"
        ".violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}))",
        WCAG21_A_AA,
    )
    return found


def assert_no_violation(page, what: str) -> None:
    found = violations(page)
    assert found == [], f"{what}: " + json.dumps(found, indent=1, ensure_ascii=False)


@pytest.fixture(scope="module")
def site(rendered, tmp_path_factory):
    """The session's render with its gallery and its SCORM zip (unzipped in ``sco/``), in a copy."""
    media = tmp_path_factory.mktemp("a11y") / "media"
    shutil.copytree(rendered[0], media)
    for arguments in (
        ["gallery", "--media-dir", str(media)],
        ["export", "scaling", "--to", "scorm", "--quality", "low", "--media-dir", str(media), "--cache-dir", str(media.parent)],
    ):
        result = CliRunner().invoke(render.main, arguments)
        assert result.exit_code == 0, result.output
    with zipfile.ZipFile(media / "scaling" / "low" / "scaling-scorm.zip") as archive:
        archive.extractall(media / "sco")
    # The embed snippet as a teacher pastes it into a page of their own (the page's own markup is theirs).
    snippet = embed_snippet("scaling/low/scaling.mp4", "scaling/low/captions.vtt", "scaling/low/poster.png")
    (media / "embed.html").write_text(
        f'<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>A course page</title></head>\n'
        f"<body><main><h1>Scaled attention</h1>\n{snippet}\n</main></body>\n</html>\n",
        encoding="utf-8",
    )
    return media


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(RangeHandler, directory=str(site))  # byte ranges: the player seeks
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_the_presenter_with_and_without_a_question_open(page, site):
    page.goto((site / "scaling" / "low" / "present.html").as_uri())
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').readyState >= 2", timeout=20_000)
    assert_no_violation(page, "presenter")
    page.keyboard.press("q")
    page.keyboard.press("ArrowRight")  # step 2 asks the first question at its end
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').readyState >= 2", timeout=20_000)
    page.evaluate(
        "(() => { const v = document.querySelector('#stage video:not([hidden])'); v.currentTime = v.duration - 0.2; })()"
    )
    page.get_by_role("dialog", name="Question 1 of 3").wait_for(timeout=10_000)
    assert_no_violation(page, "presenter, a choice question open")
    page.get_by_role("button", name="Answer").click()  # nothing chosen: the error is shown
    assert page.text_content("#question-error")
    assert_no_violation(page, "presenter, a question's error shown")
    page.get_by_role("radio").first.check()
    page.get_by_role("button", name="Answer").click()
    page.get_by_role("button", name="Continue").wait_for()
    assert_no_violation(page, "presenter, a question's feedback shown")
    assert page.errors == []


def test_the_scorm_player_with_a_question_open(page, server, site):
    page.goto(server + "/sco/index.html")
    page.wait_for_function("document.getElementById('video').readyState >= 1", timeout=20_000)
    assert_no_violation(page, "SCORM player")
    end = float(page.locator('#steps button[data-name="divide-by-sqrt-dk"]').get_attribute("data-end"))
    page.evaluate(f"(() => {{ const v = document.getElementById('video'); v.currentTime = {end} - 0.5; v.play(); }})()")
    page.get_by_role("dialog").wait_for(timeout=15_000)
    assert page.get_by_label("Your answer").count() == 1, "the numeric question: a labelled field"
    assert_no_violation(page, "SCORM player, a numeric question open")
    page.get_by_label("Your answer").fill("12,5")
    page.keyboard.press("Enter")
    assert_no_violation(page, "SCORM player, an unreadable answer explained")
    page.get_by_role("button", name="Skip").click()
    assert page.get_by_role("dialog").count() == 0
    assert page.errors == []


def test_the_explorer_of_the_render(page, site):
    page.goto((site / "scaling" / "low" / "explore.html").as_uri())
    page.wait_for_function("document.getElementById('video') === null || document.getElementById('video').readyState >= 1")
    assert_no_violation(page, "scaling's explorer")
    # A narrow window: more tables scroll sideways, and each of them takes the keyboard focus.
    page.set_viewport_size({"width": 600, "height": 900})
    page.wait_for_function(
        "Array.from(document.querySelectorAll('.scroll')).every(b => (b.scrollWidth > b.clientWidth + 1) === (b.tabIndex === 0))"
    )
    assert page.evaluate("document.querySelectorAll('.scroll[tabindex=\"0\"][role=region][aria-label]').length") >= 3
    assert_no_violation(page, "scaling's explorer, 600 pixels wide")
    assert page.errors == []


@pytest.mark.parametrize("scene", [name for name in SCENES if name not in SLOW_TRACES and name != "scaling"])
def test_the_explorer_of_every_other_scene(page, scene, tmp_path):
    # The explorer of a scene's default trace, written as a render writes it (its trace and steps beside it).
    try:
        trace = SCENES[scene].build_trace().to_json()
    except ModelNotInstalled as missing:
        pytest.fail(f"{scene}'s model is not installed ({missing}): `make test` installs it")
    (tmp_path / "trace.json").write_text(trace, encoding="utf-8")
    (tmp_path / "sections.json").write_text(json.dumps(SECTIONS), encoding="utf-8")
    page.goto(write_explorer(tmp_path, scene, SCENES[scene].title).as_uri())
    assert_no_violation(page, f"{scene}'s explorer")


def test_the_gallery(page, site):
    page.goto((site / "index.html").as_uri())
    page.wait_for_function("Array.from(document.querySelectorAll('video')).every(v => v.readyState >= 1)", timeout=20_000)
    assert_no_violation(page, "gallery")


def test_the_worksheet(page, site):
    page.goto((site / "scaling" / "low" / "worksheet.html").as_uri())
    assert_no_violation(page, "worksheet")


def test_the_embed_snippet_in_a_teachers_page(page, server):
    page.goto(server + "/embed.html")
    page.wait_for_function("document.querySelector('video').readyState >= 1", timeout=20_000)
    assert_no_violation(page, "embed snippet")
