"""The gallery and the presenter in a real browser: Debian's Chromium, headless, driven by Playwright.

The pages must work opened from disk and from a web server, offline: every request
stays on the machine, every video has a duration, captions have cues, and the
presenter steps forward and back on key presses.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading

import pytest
from click.testing import CliRunner

import render
from attention_explainer.package.questions import UnreadableAnswer, read_typed_number

pytestmark = [pytest.mark.render, pytest.mark.browser]


@pytest.fixture(scope="module")
def site(rendered, tmp_path_factory):
    """The shared render with its gallery, in a copy (the shared folder holds the render alone)."""
    media = tmp_path_factory.mktemp("site") / "media"
    shutil.copytree(rendered[0], media)
    result = CliRunner().invoke(render.main, ["gallery", "--media-dir", str(media)])
    assert result.exit_code == 0, result.output
    return media


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


VIDEO_STATE = """Array.from(document.querySelectorAll('video')).map(v => ({
    duration: v.duration,
    tracks: Array.from(v.textTracks).map(t => ({mode: t.mode, cues: t.cues ? t.cues.length : 0})),
}))"""


def check_gallery(page, url, origin):
    page.goto(url)
    page.wait_for_function("Array.from(document.querySelectorAll('video')).every(v => v.readyState >= 1)", timeout=20_000)
    page.wait_for_function(
        "Array.from(document.querySelectorAll('video')).every(v => Array.from(v.textTracks).some(t => t.cues && t.cues.length))",
        timeout=20_000,
    )
    videos = page.evaluate(VIDEO_STATE)
    assert len(videos) == 1
    for video in videos:
        assert video["duration"] > 60
        assert any(track["mode"] == "showing" and track["cues"] >= 7 for track in video["tracks"])
    assert page.failures == []
    assert page.requests and all(url.startswith(origin) for url in page.requests), page.requests
    assert "Why divide by" in page.text_content("h2")
    assert '<track kind="captions"' in page.text_content("pre")


def test_gallery_from_disk(page, site):
    check_gallery(page, (site / "index.html").as_uri(), "file://")


def test_gallery_from_a_web_server(page, server):
    check_gallery(page, server + "/index.html", server)
    assert any(url.endswith("captions.vtt") for url in page.requests), "the <track> file itself is used over HTTP"


def shown_clip(page):
    return page.evaluate(
        """(() => { const v = document.querySelector('#stage video:not([hidden])');
                    return {file: v.src.split('/').pop(), time: v.currentTime, paused: v.paused, ended: v.ended}; })()"""
    )


def test_presenter_steps_through_on_key_presses(page, site):
    page.goto((site / "scaling" / "low" / "present.html").as_uri())
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').readyState >= 2", timeout=20_000)
    assert page.text_content("#counter") == "Step 1 of 7"
    assert shown_clip(page)["file"] == "01-the-question.mp4"
    # The next clip is already loading in the hidden player.
    assert page.evaluate("document.querySelector('#stage video[hidden]').src").endswith("02-dot-products-grow.mp4")

    # At the end of a step it stops and waits.
    page.evaluate(
        "(() => { const v = document.querySelector('#stage video:not([hidden])'); v.currentTime = v.duration - 0.2; })()"
    )
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').ended", timeout=10_000)
    assert page.text_content("#counter") == "Step 1 of 7"

    page.keyboard.press("ArrowRight")
    assert page.text_content("#counter") == "Step 2 of 7"
    assert page.text_content("#step-title") == "Dot products grow with d_k"  # the title scaling wrote, not its slug
    assert shown_clip(page)["file"] == "02-dot-products-grow.mp4"
    page.keyboard.press(" ")
    assert shown_clip(page)["file"] == "03-divide-by-sqrt-dk.mp4"

    page.wait_for_function("document.querySelector('#stage video:not([hidden])').currentTime > 0.3", timeout=10_000)
    page.keyboard.press("ArrowLeft")
    clip = shown_clip(page)
    assert clip["file"] == "02-dot-products-grow.mp4" and clip["time"] < 0.3, "previous step replays from its start"
    page.wait_for_function("!document.querySelector('#stage video:not([hidden])').paused", timeout=10_000)

    page.keyboard.press("Home")
    assert page.text_content("#counter") == "Step 1 of 7"
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#counter") == "Step 1 of 7", "no step before the first"

    page.keyboard.press("f")
    page.wait_for_function("document.fullscreenElement !== null", timeout=5_000)
    assert page.failures == [] and all(url.startswith("file://") for url in page.requests)


def end_the_step(page):
    """Let the shown clip play its last 0.2 s to its end (what a viewer who watched the whole step sees)."""
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').readyState >= 2", timeout=20_000)
    page.evaluate(
        "(() => { const v = document.querySelector('#stage video:not([hidden])'); v.currentTime = v.duration - 0.2; })()"
    )
    page.wait_for_function("document.querySelector('#stage video:not([hidden])').ended", timeout=10_000)


def test_presenter_asks_a_steps_questions_in_quiz_mode_and_goes_on_after_the_feedback(page, site):
    """Q turns questions on; at the end of a step with questions a labelled dialog asks them, by keyboard or pointer."""
    folder = site / "scaling" / "low"
    questions = json.loads((folder / "questions.json").read_text(encoding="utf-8"))["questions"]
    assert [q["step"] for q in questions] == ["dot-products-grow", "divide-by-sqrt-dk", "softmax-with-scaling"]
    page.goto((folder / "present.html").as_uri())
    dialog = page.get_by_role("dialog")

    # Off by default in the presenter: a step with a question ends as any other.
    page.keyboard.press("ArrowRight")
    end_the_step(page)
    assert dialog.count() == 0 and page.text_content("#quiz-state") == "off"

    page.keyboard.press("q")
    assert page.text_content("#quiz-state") == "on"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")  # step 2 again, from its start
    end_the_step(page)
    first = page.get_by_role("dialog", name="Question 1 of 3")
    first.wait_for(timeout=5_000)
    assert page.get_by_text(questions[0]["stem"]).is_visible()
    wrong = next(option for option in questions[0]["options"] if not option["correct"])
    page.get_by_role("radio", name=wrong["text"], exact=True).check()
    page.get_by_role("button", name="Answer").click()
    assert page.text_content("#question-feedback") == wrong["feedback"]
    assert page.evaluate("document.activeElement.textContent") == "Continue"
    page.keyboard.press("Enter")
    assert dialog.count() == 0 and page.text_content("#counter") == "Step 3 of 7"

    # A numeric question: an unreadable entry is explained and not marked; a right one gets the feedback.
    end_the_step(page)
    page.get_by_role("dialog", name="Question 2 of 3").wait_for(timeout=5_000)
    field = page.get_by_label("Your answer")
    assert page.evaluate("document.activeElement.id") == "question-number"
    field.fill("12,5")
    page.keyboard.press("Enter")
    assert "use a point for decimals (12.5)" in page.text_content("#question-error")
    assert page.evaluate("Object.keys(window.quizAnswers)") == [questions[0]["id"]]
    typed = str(questions[1]["value"] + 0.4 * questions[1]["tolerance"])  # rounds to the answer as shown
    field.fill(typed)
    page.keyboard.press("Enter")
    assert page.text_content("#question-feedback") == questions[1]["feedback"]
    page.get_by_role("button", name="Continue").click()
    assert page.text_content("#counter") == "Step 4 of 7"

    # A step without questions ends as usual; a skipped question is recorded as skipped and the video goes on.
    end_the_step(page)
    assert dialog.count() == 0 and page.text_content("#counter") == "Step 4 of 7"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    end_the_step(page)
    page.get_by_role("dialog", name="Question 3 of 3").wait_for(timeout=5_000)
    page.get_by_role("button", name="Skip").click()
    assert dialog.count() == 0 and page.text_content("#counter") == "Step 7 of 7"
    assert page.evaluate("window.quizAnswers") == {
        questions[0]["id"]: {"response": wrong["text"], "result": "wrong"},
        questions[1]["id"]: {"response": typed, "result": "correct"},
        questions[2]["id"]: {"response": "", "result": "skipped"},
    }
    # The page reads a typed number as the package's check does, with the same messages.
    for typed in ("12,5", "abc", "", " ", "1.2.3", "12,288", "−0.25", "+.5", "1,23,4", "0.2605"):
        in_page = page.evaluate(
            "(typed) => { try { return {number: readTypedNumber(typed)}; } catch (e) { return {message: e.message}; } }", typed
        )
        try:
            assert in_page == {"number": read_typed_number(typed)}, typed
        except UnreadableAnswer as error:
            assert in_page == {"message": str(error)}, typed
    assert page.errors == [] and page.failures == []
