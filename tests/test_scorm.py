"""The SCORM 1.2 export: the zip's structure, its errors, and the SCO in Chromium inside an LMS's frames.

The fast tests build the zip from a folder laid out as a render publishes it (files and a
manifest with their SHA-256), which is all an export reads. The browser tests export a real
low-quality render of ``scaling`` and play it under scorm-again, a SCORM 1.2 runtime from npm
(``tests/js``, installed by ``make js``), the way an LMS hosts a SCO.
"""

from __future__ import annotations

import functools
import hashlib
import html.parser
import http.server
import json
import re
import shutil
import threading
import time
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

from attention_explainer.exports.export import export_package
from attention_explainer.pipeline import workers

from . import fake_workers
from .hardening import SCENE, fake_render
from .helpers import RangeHandler, run

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "tests" / "js"

# The namespaces ADL's SCORM 1.2 content packaging names (IMS CP 1.1.2 and ADL's extension).
IMSCP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
# SCORM 1.2 RTE, CMITimespan: HHHH:MM:SS.SS (hours two to four digits, optional one or two decimals).
TIMESPAN = re.compile(r"^(\d{2,4}):(\d{2}):(\d{2})(\.\d{1,2})?$")

HOSTILE = '</title><script>alert("title")</script> & <b>bold</b> \x07bell'

STEPS = [
    {
        "index": 1,
        "name": "the-question",
        "title": "Why divide by √d_k?",
        "caption": "Why divide?",
        "lines": [{"text": "Why divide?", "spoken": "Why divide?", "start": 0.0, "end": 2.0}],
        "start": 0.0,
        "duration": 2.5,
        "file": "sections/01-the-question.mp4",
    },
    {
        "index": 2,
        "name": "takeaway",
        "title": "Why √d_k: <variance> & 1",
        "caption": "Divide by the square root.",
        "lines": [{"text": "Divide.", "spoken": "Divide.", "start": 2.5, "end": 4.0}],
        "start": 2.5,
        "duration": 1.5,
        "file": "sections/02-takeaway.mp4",
    },
]


def question(number: int, step: str, stem: str = "How big?") -> dict:
    """A checked question at ``step`` (a whole number when ``number`` is odd, else a choice of two), as ``questions.json`` holds it."""
    record = {
        "id": f"scaling-{number}",
        "step": step,
        "stem": stem,
        "answer": "0.25",
        "decimals": 2,
        "feedback": "A quarter.",
        "source": {"worksheet_item": 1, "part": "answer", "table": "t", "entry": [0], "field": "f", "index": [0]},
    }
    if number % 2:  # a whole number: its tolerance is half a unit, however decimals are given slack
        return record | {"kind": "numeric", "answer": "12", "decimals": 0, "value": 12.0, "tolerance": 0.5}
    options = [
        {"text": "0.50", "correct": False, "feedback": "Twice too big.", "mistake": "no_scaling"},
        {"text": "0.25", "correct": True, "feedback": "Right."},
    ]
    return record | {"kind": "choice", "options": options}


def make_package(
    folder: Path, title: str = "Why divide by √d_k", description: str = "Scores, scaled.", questions: list | None = None
) -> Path:
    """A folder laid out as a render publishes one: its files, and a manifest listing each with its SHA-256.

    ``questions`` (a list, even empty) adds a ``questions.json`` holding them.
    """
    files = {
        "scaling.mp4": b"\x00\x00\x00\x18ftypisom stands in for a video",
        "captions.vtt": b"WEBVTT\n\n00:00.000 --> 00:02.000\nWhy divide?\n",
        "captions.srt": b"1\n00:00:00,000 --> 00:00:02,000\nWhy divide?\n",
        "poster.png": b"\x89PNG\r\n\x1a\n stands in for a poster",
        "transcript.txt": b"Why divide?\n",
        "sections/01-the-question.mp4": b"clip one",
        "sections/02-takeaway.mp4": b"clip two",
        "sections.json": json.dumps(STEPS).encode(),
    }
    if questions is not None:
        files["questions.json"] = json.dumps({"scene": "scaling", "title": title, "questions": questions}).encode()
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    manifest = {
        "scene": "scaling",
        "title": title,
        "description": description,
        "render_hash": "0" * 64,
        "package_hash": "1" * 64,
        "files": [
            {"path": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "part": "render"}
            for name, data in files.items()
        ],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def read_zip(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


class Tags(html.parser.HTMLParser):
    """Every start tag of a page with its attributes, and the text of each element by tag."""

    def __init__(self, page: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: dict[str, list[str]] = {}
        self._open: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in ("source", "track", "meta", "br"):
            self._open.append(tag)

    def handle_endtag(self, tag):
        if tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data):
        if self._open:
            self.text.setdefault(self._open[-1], []).append(data)

    def all(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]


# --- the zip ----------------------------------------------------------------------------------


def test_the_manifest_is_at_the_root_and_lists_every_file_of_one_sco(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low")
    target = export_package(folder, "scorm")
    assert target == folder / "scaling-scorm.zip"
    members = read_zip(target)
    assert "imsmanifest.xml" in members, "at the zip's root, not in a folder"

    manifest = ElementTree.fromstring(members["imsmanifest.xml"])
    assert manifest.tag == f"{IMSCP}manifest"
    assert manifest.findtext(f"{IMSCP}metadata/{IMSCP}schema") == "ADL SCORM"
    assert manifest.findtext(f"{IMSCP}metadata/{IMSCP}schemaversion") == "1.2"
    organizations = manifest.find(f"{IMSCP}organizations")
    [organization] = organizations.findall(f"{IMSCP}organization")
    assert organizations.get("default") == organization.get("identifier")
    [item] = organization.findall(f"{IMSCP}item")
    [resource] = manifest.findall(f"{IMSCP}resources/{IMSCP}resource")
    assert item.get("identifierref") == resource.get("identifier")
    assert resource.get(f"{ADLCP}scormtype") == "sco" and resource.get("type") == "webcontent"
    assert resource.get("href") in members and members[resource.get("href")].lstrip().lower().startswith(b"<!doctype html>")

    listed = [file.get("href") for file in resource.findall(f"{IMSCP}file")]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(members) - {"imsmanifest.xml"}, "every file listed, every listed file present"
    assert {"scaling.mp4", "captions.vtt", "poster.png"} <= set(listed)


def test_the_zip_carries_the_renders_bytes_and_the_same_render_gives_the_same_zip(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low")
    first = export_package(folder, "scorm").read_bytes()
    members = read_zip(folder / "scaling-scorm.zip")
    for name in ("scaling.mp4", "captions.vtt", "poster.png", "transcript.txt"):
        assert members[name] == (folder / name).read_bytes()
    assert export_package(folder, "scorm").read_bytes() == first
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == [], "no temporary file left"


def test_the_player_plays_the_video_with_captions_on_and_lists_the_steps_at_their_starts(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low")
    page = Tags(read_zip(export_package(folder, "scorm"))["index.html"].decode())
    [video] = page.all("video")
    assert "controls" in video and video["poster"] == "poster.png"
    assert [source["src"] for source in page.all("source")] == ["scaling.mp4"]
    assert video["data-captions"] == "captions.vtt", "the track the page adds over HTTP"
    # Opened from disk, where browsers refuse track files, the page holds the cues itself.
    [cues] = [attrs for attrs in page.all("script") if attrs.get("id") == "cues"]
    assert cues["type"] == "application/json"
    assert [json.loads(text) for text in page.text["script"][:1]] == [
        [{"start": 0.0, "end": 2.0, "text": "Why divide?"}, {"start": 2.5, "end": 4.0, "text": "Divide."}]
    ]
    starts = [float(button["data-start"]) for button in page.all("button")]
    assert starts == [step["start"] for step in STEPS]
    # Each step by its title, as the scene wrote it (escaped in the markup, read back as text), never its slug.
    assert [text.strip() for text in page.text["button"]] == ["1. Why divide by √d_k?", "2. Why √d_k: <variance> & 1"]
    assert [script.get("src") for script in page.all("script")] == [None, None], "inline scripts, nothing loaded"


def test_a_hostile_title_and_description_stay_text_in_the_manifest_and_the_player(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low", title=HOSTILE, description=HOSTILE)
    members = read_zip(export_package(folder, "scorm"))
    manifest = ElementTree.fromstring(members["imsmanifest.xml"])
    # XML 1.0 cannot hold a bell character even escaped: it is replaced, the rest kept as written.
    expected = HOSTILE.replace("\x07", "\ufffd")
    assert [title.text for title in manifest.iter(f"{IMSCP}title")] == [expected, expected]
    assert b"<script>" not in members["imsmanifest.xml"]

    page = Tags(members["index.html"].decode())
    assert len(page.all("script")) == 2 and page.all("b") == []
    assert "".join(page.text["title"]) == HOSTILE
    assert "".join(page.text["h1"]) == HOSTILE


def test_a_file_changed_after_the_render_is_one_clear_line_and_no_zip(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low")
    (folder / "captions.vtt").write_text("WEBVTT\n\nchanged by hand\n", encoding="utf-8")
    with pytest.raises(ValueError) as error:
        export_package(folder, "scorm")
    message = str(error.value)
    assert "\n" not in message and "captions.vtt" in message and "render it again" in message
    assert not (folder / "scaling-scorm.zip").exists()
    assert [p.name for p in folder.iterdir() if p.name.startswith(".")] == []


def test_a_render_with_questions_declares_its_mastery_score_and_the_player_asks_them(tmp_path):
    hostile = '</script><script>alert("stem")</script> & <b>'
    folder = make_package(tmp_path / "scaling" / "low", questions=[question(1, "the-question", hostile), question(2, "takeaway")])
    for mastery, expected in ((None, "80"), (35, "35"), (0, "0"), (100, "100")):
        target = export_package(folder, "scorm") if mastery is None else export_package(folder, "scorm", mastery=mastery)
        members = read_zip(target)
        manifest = ElementTree.fromstring(members["imsmanifest.xml"])
        [item] = manifest.iter(f"{IMSCP}item")
        # SCORM 1.2 CAM: adlcp:masteryscore belongs to the item, after its title.
        assert [child.tag for child in item] == [f"{IMSCP}title", f"{ADLCP}masteryscore"]
        assert item.findtext(f"{ADLCP}masteryscore") == expected
        page = members["index.html"].decode()
        assert f"const MASTERY = {expected};" in page, "the page passes with the manifest's score when the LMS gives none"
    tags = Tags(page)
    [dialog] = [attrs for tag, attrs in tags.tags if attrs.get("role") == "dialog"]
    assert dialog["aria-labelledby"] == "question-title" and "hidden" in dialog
    assert [attrs["id"] for tag, attrs in tags.tags if tag == "form"] == ["question-form"]
    assert {"question-submit", "question-skip", "question-continue", "quiz-toggle"} <= {
        attrs.get("id") for attrs in tags.all("button")
    }
    # The questions travel as data: the hostile stem stays inside its JSON, never markup.
    [data] = [attrs for attrs in tags.all("script") if attrs.get("id") == "questions"]
    assert data["type"] == "application/json"
    assert page.count("</script>") == len(tags.all("script")) and tags.all("b") == []
    scripts = dict(zip([attrs.get("id") for attrs in tags.all("script")], tags.text["script"]))
    assert [q["stem"] for q in json.loads(scripts["questions"])] == [hostile, "How big?"]
    # The steps carry their names and ends, so the page knows when a step with questions has been played.
    buttons = [attrs for attrs in tags.all("button") if "data-start" in attrs]
    assert [(b["data-name"], float(b["data-start"]), float(b["data-end"])) for b in buttons] == [
        ("the-question", 0.0, 2.5),
        ("takeaway", 2.5, 4.0),
    ]


def test_a_render_without_questions_declares_no_mastery_score_and_asks_nothing(tmp_path):
    members = read_zip(export_package(make_package(tmp_path / "scaling" / "low"), "scorm"))
    assert b"masteryscore" not in members["imsmanifest.xml"]
    tags = Tags(members["index.html"].decode())
    assert [attrs for tag, attrs in tags.tags if attrs.get("role") == "dialog"] == []
    assert "questions" not in [attrs.get("id") for attrs in tags.all("script")]


def test_questions_that_cannot_be_read_back_are_one_clear_line_and_no_zip(tmp_path):
    folder = make_package(tmp_path / "scaling" / "low", questions=[question(1, "a-step-the-render-does-not-have")])
    with pytest.raises(ValueError) as error:
        export_package(folder, "scorm")
    assert "questions.json" in str(error.value) and "\n" not in str(error.value)
    assert not (folder / "scaling-scorm.zip").exists()


# --- the command ------------------------------------------------------------------------------


@pytest.mark.parametrize("given", ["101", "-5", "abc", "80.5", "", "1e2", "0x50"])
def test_a_mastery_score_out_of_range_is_a_usage_error_before_anything_renders(given, tmp_path):
    media = tmp_path / "media"
    result = run("export", "scaling", "--to", "scorm", "--mastery", given, "--media-dir", str(media))
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert "--mastery" in last and "from 0 to 100" in last and repr(given) in last
    assert "Traceback" not in result.output and not media.exists()


def test_the_clis_mastery_score_reaches_the_manifest_and_the_player(tmp_path):
    media, cache = tmp_path / "media", tmp_path / "cache"
    folder = fake_render(media, cache)  # a published render the pipeline finds up to date; it gets questions here
    questions = json.dumps({"scene": SCENE, "title": "Softmax", "questions": [question(1, "the-step")]}).encode()
    (folder / "questions.json").write_bytes(questions)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"].append(
        {"path": "questions.json", "bytes": len(questions), "sha256": hashlib.sha256(questions).hexdigest(), "part": "package"}
    )
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    arguments = ["--quality", "low", "--media-dir", str(media), "--cache-dir", str(cache)]
    result = run("export", SCENE, "--to", "scorm", "--mastery", "35", *arguments)
    assert result.exit_code == 0, result.output
    members = read_zip(folder / f"{SCENE}-scorm.zip")
    [item] = ElementTree.fromstring(members["imsmanifest.xml"]).iter(f"{IMSCP}item")
    assert item.findtext(f"{ADLCP}masteryscore") == "35"
    assert "const MASTERY = 35;" in members["index.html"].decode()


@pytest.mark.parametrize("given, expected", [("0", 0), ("80", 80), ("100", 100), (" 65 ", 65), ("90%", 90)])
def test_a_mastery_score_is_a_whole_percent(given, expected):
    from attention_explainer.options import check_mastery

    assert check_mastery(given) == expected


def test_an_unknown_format_is_a_usage_error(tmp_path):
    result = run("export", "scaling", "--to", "mov", "--media-dir", str(tmp_path))
    assert result.exit_code == 2 and "'mov' is not one of 'scorm', 'pptx'" in result.output
    assert not any(tmp_path.iterdir())


def test_an_export_of_a_scene_that_fails_to_render_says_why(monkeypatch, tmp_path):
    monkeypatch.setattr(workers, "WORKER", fake_workers.self_attention_fails)
    result = run("export", "self-attention", "--to", "scorm", "--quality", "low", "--media-dir", str(tmp_path / "media"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "RuntimeError: boom" in result.output and "not exported" in result.output.splitlines()[-1]
    assert list((tmp_path / "media").rglob("*.zip")) == []


def test_a_render_that_leaves_no_readable_package_is_one_line(monkeypatch, tmp_path):
    # A worker that publishes a video and nothing else: what an export reads is not there.
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    result = run("export", "scaling", "--to", "scorm", "--quality", "low", "--media-dir", str(tmp_path / "media"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    last = result.output.splitlines()[-1]
    # One line naming the render's folder and what is missing there; exports are all or nothing.
    assert last.startswith("Error: cannot export: ") and str(tmp_path / "media" / "scaling" / "low") in last
    assert "manifest.json" in last and "nothing was exported" in last
    assert list((tmp_path / "media").rglob("*.zip")) == []


@pytest.mark.render
def test_an_export_puts_back_a_file_changed_by_hand_before_zipping(rendered, tmp_path):
    media = tmp_path / "media"
    shutil.copytree(rendered[0], media)
    folder = media / "scaling" / "low"
    written = (folder / "transcript.txt").read_bytes()
    (folder / "transcript.txt").write_text("changed by hand\n", encoding="utf-8")
    result = run(
        "export", "scaling", "--to", "scorm", "--quality", "low", "--media-dir", str(media), "--cache-dir", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    assert read_zip(folder / "scaling-scorm.zip")["transcript.txt"] == written


# --- in a browser, under a real SCORM 1.2 runtime ----------------------------------------------


@pytest.fixture(scope="module")
def exported(rendered, tmp_path_factory):
    """`render.py export scaling --to scorm --quality low`, on a copy of the session's render."""
    media = tmp_path_factory.mktemp("scorm") / "media"
    shutil.copytree(rendered[0], media)
    cache = tmp_path_factory.mktemp("scorm-cache")
    result = run("export", "scaling", "--to", "scorm", "--quality", "low", "--media-dir", str(media), "--cache-dir", str(cache))
    assert result.exit_code == 0, result.output
    target = media / "scaling" / "low" / "scaling-scorm.zip"
    assert str(target) in result.output.splitlines()
    return media, target


@pytest.fixture(scope="module")
def site(exported, tmp_path_factory):
    """The LMS host page and scorm-again's runtime, with the unzipped SCO in ``sco/``."""
    runtime = JS / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
    if not runtime.is_file():
        pytest.fail("scorm-again is not installed: run `make js` (npm ci in tests/js)")
    site = tmp_path_factory.mktemp("lms")
    with zipfile.ZipFile(exported[1]) as archive:
        archive.extractall(site / "sco")
    shutil.copy(JS / "lms.html", site / "lms.html")
    shutil.copy(runtime, site / "scorm12.js")
    return site


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(RangeHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def sco_frame(page):
    """The one frame of ``page`` that holds the SCO, once it has navigated there (within ten seconds)."""
    for _ in range(100):
        frames = [frame for frame in page.frames if frame.url.split("?")[0].endswith("/sco/index.html")]
        if frames:
            break
        page.wait_for_timeout(100)
    assert len(frames) == 1, [frame.url for frame in page.frames]
    return frames[0]


def wait_until_playable(frame, site):
    """The video has its duration, and its one caption track shows every cue of the zip's captions.vtt."""
    cues = (site / "sco" / "captions.vtt").read_text(encoding="utf-8").count(" --> ")
    assert cues >= 7
    # The frame can be found before its page is parsed (a loaded machine): no video yet is "not yet", not an error.
    frame.wait_for_function(
        "(() => { const v = document.getElementById('video'); return v !== null && v.readyState >= 1; })()", timeout=20_000
    )
    frame.wait_for_function(
        "(() => { const tracks = document.getElementById('video').textTracks;"
        f" return tracks.length === 1 && tracks[0].mode === 'showing' && tracks[0].cues && tracks[0].cues.length === {cues}; }})()",
        timeout=20_000,
    )


def calls(page) -> list[dict]:
    return page.evaluate("window.calls")


def render_questions(exported) -> list[dict]:
    """The exported render's questions, as its ``questions.json`` holds them."""
    folder = exported[1].parent
    return json.loads((folder / "questions.json").read_text(encoding="utf-8"))["questions"]


def manifest_mastery(site) -> str:
    """The item's ``adlcp:masteryscore`` in the unzipped SCO's manifest: what an LMS gives the SCO as its mastery score."""
    manifest = ElementTree.parse(site / "sco" / "imsmanifest.xml").getroot()
    [item] = manifest.iter(f"{IMSCP}item")
    return item.findtext(f"{ADLCP}masteryscore")


def letter_of(question: dict, text: str) -> str:
    """SCORM 1.2's response to a choice interaction: one character per option, ``a`` for the first (RTE 3.4.2.7.5)."""
    return "abcdefghijklmnopqrstuvwxyz"[[option["text"] for option in question["options"]].index(text)]


def right_pattern(question: dict) -> str:
    if question["kind"] == "numeric":  # the value as a plain decimal: 1.00 is 1, 12,288 is 12288
        text = question["answer"].replace("\u2212", "-").replace(",", "")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return letter_of(question, question["answer"])


def interaction_calls(n: int, question: dict, response: str, result: str) -> list[tuple[str, list[str]]]:
    """The LMSSetValue calls of one ``cmi.interactions.n`` record, in the order the SCO makes them."""
    kind = "numeric" if question["kind"] == "numeric" else "choice"
    return [
        ("LMSSetValue", [f"cmi.interactions.{n}.{name}", value])
        for name, value in (
            ("id", question["id"]),
            ("type", kind),
            ("student_response", response),
            ("result", result),
            ("correct_responses.0.pattern", right_pattern(question)),
        )
    ]


def play_to_the_end_of(frame, step: str) -> None:
    """Play the SCO's video from just before the end of ``step`` (a step's name), as a learner who watched it."""
    end = float(frame.locator(f'#steps button[data-name="{step}"]').get_attribute("data-end"))
    frame.evaluate(f"(() => {{ const v = document.getElementById('video'); v.currentTime = {end} - 0.6; v.play(); }})()")


def seconds(timespan: str) -> float:
    hours, minutes, whole, fraction = TIMESPAN.match(timespan).groups()
    return int(hours) * 3600 + int(minutes) * 60 + int(whole) + float(fraction or 0)


@pytest.mark.render
@pytest.mark.browser
def test_the_scorm_zip_plays_in_an_lms_frame_and_reports_its_end_with_the_questions_seeked_past_as_unanswered(
    page, server, site, exported
):
    started = time.monotonic()
    page.goto(server + "/lms.html")
    frame = sco_frame(page)
    wait_until_playable(frame, site)
    assert [(call["name"], call["args"], call["result"]) for call in calls(page)] == [
        ("LMSInitialize", [""], "true"),
        ("LMSSetValue", ["cmi.core.lesson_status", "incomplete"], "true"),
        ("LMSCommit", [""], "true"),
    ]
    assert "Watch the video to its end" in frame.text_content("#progress")

    # Seeking to the end is not watching it: nothing is reported until the video ends by playing.
    frame.evaluate("(() => { const v = document.getElementById('video'); v.currentTime = v.duration - 0.3; })()")
    frame.wait_for_function("document.getElementById('video').currentTime > 1", timeout=10_000)
    assert page.evaluate("core().lesson_status") == "incomplete"

    # The last step, chosen with the keyboard, plays from its start; sped up, it plays to the end.
    last = frame.locator("#steps button").last
    last.focus()
    page.keyboard.press("Enter")
    start = float(last.get_attribute("data-start"))
    frame.wait_for_function(f"Math.abs(document.getElementById('video').currentTime - {start}) < 1.5", timeout=10_000)
    assert last.get_attribute("aria-current") == "step"
    frame.evaluate("document.getElementById('video').playbackRate = 8")
    frame.wait_for_function("document.getElementById('video').ended", timeout=30_000)
    # Its end reports the lesson: the three questions were seeked past, so each is unanswered and the score is 0.
    page.wait_for_function("core().lesson_status === 'failed'", timeout=10_000)
    assert "Not passed: your score is 0% (80% to pass)" in frame.text_content("#progress")
    questions = render_questions(exported)
    made = [(call["name"], call["args"]) for call in calls(page)]
    assert made[3:] == [
        *(call for n, question in enumerate(questions) for call in interaction_calls(n, question, "", "neutral")),
        ("LMSSetValue", ["cmi.core.score.min", "0"]),
        ("LMSSetValue", ["cmi.core.score.max", "100"]),
        ("LMSSetValue", ["cmi.core.score.raw", "0"]),
        ("LMSSetValue", ["cmi.core.lesson_status", "failed"]),
        ("LMSSetValue", ["cmi.suspend_data", made[-2][1][1]]),
        ("LMSCommit", [""]),
    ]
    assert json.loads(made[-2][1][1])["a"] == {}, "nothing answered"

    page.evaluate("unloadSco()")
    page.wait_for_function("window.calls.some(call => call.name === 'LMSFinish')", timeout=10_000)
    elapsed = time.monotonic() - started
    made = calls(page)
    assert [call["name"] for call in made[-3:]] == ["LMSSetValue", "LMSCommit", "LMSFinish"]
    assert made[-3]["args"][0] == "cmi.core.session_time"
    assert not any(call["args"][:1] in (["cmi.core.exit"], ["cmi.core.lesson_location"]) for call in made), "ended: no resume"
    session_time = made[-3]["args"][1]
    assert re.fullmatch(r"\d{4}:\d{2}:\d{2}\.\d{2}", session_time), session_time
    assert 0 < seconds(session_time) <= elapsed
    assert [call["name"] for call in made].count("LMSFinish") == 1
    assert all(call["result"] == "true" and call["error"] == "0" for call in made), made
    core = page.evaluate("core()")
    assert core["lesson_status"] == "failed" and core["score"] == {"raw": "0", "min": "0", "max": "100"}
    assert abs(seconds(core["session_time"]) - seconds(session_time)) < 1
    assert page.errors == [] and page.failures == []
    assert all(url.startswith(server) or url in ("about:blank", "about:srcdoc") for url in page.requests), page.requests
    assert server + "/sco/captions.vtt" in page.requests, "over HTTP the captions are the zip's captions.vtt"


def answer_the_open_question(frame, number: int, question: dict, how: str) -> str:
    """Answer question ``number`` (from 1) once its dialog is open: ``right``, ``wrong`` or ``skip``; return what was given."""
    # The dialog opens when playback reaches the question: on a busy machine the video plays slowly (a wait, not a
    # limit on speed).
    frame.get_by_role("dialog", name=f"Question {number} of 3").wait_for(timeout=60_000)
    assert frame.evaluate("document.getElementById('video').paused"), "the video waits for the answer"
    if how == "skip":
        frame.get_by_role("button", name="Skip").click()
        return ""
    if question["kind"] == "numeric":
        given = question["answer"] if how == "right" else str(question["value"] + 20 * question["tolerance"])
        frame.get_by_label("Your answer").fill(given)
    else:
        given = next(o["text"] for o in question["options"] if o["correct"] == (how == "right"))
        frame.get_by_role("radio", name=given, exact=True).check()
    frame.get_by_role("button", name="Answer").click()
    frame.get_by_role("button", name="Continue").wait_for(timeout=5_000)
    frame.page.keyboard.press("Enter")  # Enter goes on, as Continue does
    assert frame.get_by_role("dialog").count() == 0
    return given


def the_interaction_recorded(page, n: int) -> dict:
    """What the LMS keeps of ``cmi.interactions.n``."""
    record = page.evaluate(f"cmi().interactions['{n}']")
    return {
        "id": record["id"],
        "type": record["type"],
        "student_response": record["student_response"],
        "result": record["result"],
        "correct_responses": [pattern["pattern"] for pattern in record["correct_responses"].values()],
    }


@pytest.mark.render
@pytest.mark.browser
def test_one_answer_right_one_wrong_and_one_skipped_record_the_score_the_interactions_and_failed(page, server, site, exported):
    questions = render_questions(exported)
    assert [q["step"] for q in questions] == ["dot-products-grow", "divide-by-sqrt-dk", "softmax-with-scaling"]
    assert manifest_mastery(site) == "80", "export's default --mastery, declared for the LMS"
    page.goto(f"{server}/lms.html?mastery={manifest_mastery(site)}")
    frame = sco_frame(page)
    wait_until_playable(frame, site)
    assert frame.evaluate("document.body.dataset.quiz") == "on", "quiz mode is on by default in the SCO"
    assert frame.get_by_role("button", name="Questions", exact=True).get_attribute("aria-pressed") == "true"

    given = []
    for number, (question, how) in enumerate(zip(questions, ["wrong", "right", "skip"]), start=1):
        play_to_the_end_of(frame, question["step"])
        given.append(answer_the_open_question(frame, number, question, how))
        # Recorded at once, before the end: a learner who leaves keeps it.
        assert len(page.evaluate("cmi().interactions")) == number
    assert page.evaluate("core().lesson_status") == "incomplete" and page.evaluate("core().score.raw") == ""

    frame.evaluate("(() => { const v = document.getElementById('video'); v.currentTime = v.duration - 0.5; v.play(); })()")
    page.wait_for_function("core().lesson_status !== 'incomplete'", timeout=15_000)
    wrong, right, _ = given
    expected = [
        (questions[0], letter_of(questions[0], wrong) if questions[0]["kind"] == "choice" else wrong, "wrong"),
        (questions[1], right if questions[1]["kind"] == "numeric" else letter_of(questions[1], right), "correct"),
        (questions[2], "", "neutral"),  # skipped: neither right nor wrong, with no response
    ]
    for n, (question, response, result) in enumerate(expected):
        assert the_interaction_recorded(page, n) == {
            "id": question["id"],
            "type": "numeric" if question["kind"] == "numeric" else "choice",
            "student_response": response,
            "result": result,
            "correct_responses": [right_pattern(question)],
        }
    assert "3" not in page.evaluate("Object.keys(cmi().interactions)"), "one record per question"
    core = page.evaluate("core()")
    assert core["score"] == {"raw": "33", "min": "0", "max": "100"}, "one of three right"
    assert core["lesson_status"] == "failed", "33 is below the mastery score of 80"
    assert "Not passed: your score is 33% (80% to pass)" in frame.text_content("#progress")
    assert len(page.evaluate("cmi().suspend_data")) <= 4096

    page.evaluate("unloadSco()")
    page.wait_for_function("window.calls.some(call => call.name === 'LMSFinish')", timeout=10_000)
    assert page.evaluate("core().lesson_status") == "failed" and page.evaluate("core().exit") == ""
    assert all(call["result"] == "true" and call["error"] == "0" for call in calls(page)), calls(page)
    assert page.errors == [] and page.failures == []


@pytest.mark.render
@pytest.mark.browser
def test_a_learner_who_leaves_mid_quiz_comes_back_at_the_same_step_with_the_same_answers_and_passes(page, server, site, exported):
    questions = render_questions(exported)
    # The LMS's mastery score is the one that counts (a teacher may change it there): 60 here.
    page.goto(f"{server}/lms.html?mastery=60")
    frame = sco_frame(page)
    wait_until_playable(frame, site)
    play_to_the_end_of(frame, questions[0]["step"])
    first = answer_the_open_question(frame, 1, questions[0], "right")
    # Leaves during the next step (paused there, so the place is exact).
    frame.evaluate("(() => { const v = document.getElementById('video'); v.pause(); v.currentTime = 40; })()")
    frame.wait_for_function("document.getElementById('video').currentTime === 40 && !document.getElementById('video').seeking")
    page.evaluate("unloadSco()")
    page.wait_for_function("window.calls.some(call => call.name === 'LMSFinish')", timeout=10_000)
    left = page.evaluate("cmi()")
    assert left["core"]["exit"] == "suspend" and left["core"]["lesson_location"] == "40.0"
    assert left["core"]["lesson_status"] == "incomplete" and left["core"]["score"]["raw"] == ""
    assert list(left["interactions"]) == ["0"] and left["interactions"]["0"]["result"] == "correct"
    saved = left["suspend_data"]
    assert 0 < len(saved) <= 4096

    # The next session: the LMS relaunches the SCO with what it kept (entry "resume").
    page.goto(f"{server}/lms.html?mastery=60&reopen")
    frame = sco_frame(page)
    wait_until_playable(frame, site)
    assert page.evaluate("cmi().core.entry") == "resume" and page.evaluate("cmi().suspend_data") == saved
    frame.wait_for_function("Math.abs(document.getElementById('video').currentTime - 40) < 0.1", timeout=10_000)
    assert frame.locator("#steps button[aria-current=step]").get_attribute("data-name") == questions[1]["step"]
    assert "Welcome back: the video goes on from 0:40" in frame.text_content("#progress")
    assert frame.evaluate("window.quizAnswers") == {questions[0]["id"]: {"response": first, "result": "correct"}}

    # The first question is not asked again; the second is, as question 2 of 3.
    play_to_the_end_of(frame, questions[1]["step"])
    answer_the_open_question(frame, 2, questions[1], "right")
    play_to_the_end_of(frame, questions[2]["step"])
    answer_the_open_question(frame, 3, questions[2], "wrong")
    frame.evaluate("(() => { const v = document.getElementById('video'); v.currentTime = v.duration - 0.5; v.play(); })()")
    page.wait_for_function("core().lesson_status !== 'incomplete'", timeout=15_000)
    held = page.evaluate("cmi()")
    assert [held["interactions"][n]["id"] for n in ("0", "1", "2")] == [q["id"] for q in questions], "each once, in order"
    assert [held["interactions"][n]["result"] for n in ("0", "1", "2")] == ["correct", "correct", "wrong"]
    assert "3" not in held["interactions"]
    assert held["core"]["score"] == {"raw": "67", "min": "0", "max": "100"}, "two of three right, across both sessions"
    assert held["core"]["lesson_status"] == "passed", "67 reaches the LMS's mastery score of 60"
    assert all(call["error"] == "0" for call in calls(page)) and page.errors == [] and page.failures == []


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize("how", ["popup", "popup=framed"])
def test_a_sco_in_a_pop_up_finds_the_api_of_the_window_that_opened_it_and_leaves_a_place_to_resume(page, server, site, how):
    with page.expect_popup() as opened:
        page.goto(f"{server}/lms.html?{how}")
    popup = opened.value
    popup.on("pageerror", lambda error: page.errors.append(str(error)))
    if how == "popup=framed":
        popup = sco_frame(popup)
    wait_until_playable(popup, site)
    assert [call["name"] for call in calls(page)] == ["LMSInitialize", "LMSSetValue", "LMSCommit"]
    popup.evaluate("document.getElementById('video').currentTime = 30")
    popup.wait_for_function("document.getElementById('video').currentTime === 30 && !document.getElementById('video').seeking")
    page.evaluate("unloadSco()")
    page.wait_for_function("window.calls.some(call => call.name === 'LMSFinish')", timeout=10_000)
    made = calls(page)[3:]
    assert [(call["name"], call["args"][:1]) for call in made] == [
        ("LMSSetValue", ["cmi.core.lesson_location"]),
        ("LMSSetValue", ["cmi.core.exit"]),
        ("LMSSetValue", ["cmi.core.session_time"]),
        ("LMSCommit", [""]),
        ("LMSFinish", [""]),
    ]
    core = page.evaluate("core()")
    assert core["lesson_status"] == "incomplete", "closed before the end: not completed"
    assert core["lesson_location"] == "30.0" and core["exit"] == "suspend"
    assert all(call["error"] == "0" for call in calls(page)) and page.errors == []


@pytest.mark.render
@pytest.mark.browser
def test_a_learner_who_comes_back_goes_on_from_where_they_left(page, server, site):
    page.goto(server + "/lms.html?resume=42.5")
    frame = sco_frame(page)
    wait_until_playable(frame, site)
    frame.wait_for_function("Math.abs(document.getElementById('video').currentTime - 42.5) < 0.1", timeout=10_000)
    assert "goes on from 0:42" in frame.text_content("#progress")
    assert [call["name"] for call in calls(page)] == ["LMSInitialize"], "already incomplete: nothing to set"
    assert page.errors == [] and page.failures == []


@pytest.mark.render
@pytest.mark.browser
def test_a_sco_from_another_origin_cannot_reach_the_api_and_plays_without_an_error(page, server, site):
    # localhost and 127.0.0.1 are two origins: the SCO may not read its parents' windows.
    elsewhere = server.replace("127.0.0.1", "localhost") + "/sco/index.html"
    page.goto(f"{server}/lms.html?sco={elsewhere}")
    frame = sco_frame(page)
    assert frame.url == elsewhere
    wait_until_playable(frame, site)
    assert "No learning management system found" in frame.text_content("#progress")
    assert calls(page) == []
    frame.evaluate("document.getElementById('video').currentTime = 30")
    page.evaluate("document.getElementById('sco-outer').remove()")
    assert calls(page) == [] and page.errors == [] and page.failures == []


@pytest.mark.render
@pytest.mark.browser
def test_without_an_lms_the_player_plays_from_disk_and_throws_nothing(page, site):
    page.goto((site / "sco" / "index.html").as_uri())
    wait_until_playable(page, site)
    assert "No learning management system found" in page.text_content("#progress")
    page.evaluate("(() => { const v = document.getElementById('video'); v.currentTime = v.duration - 0.5; v.play(); })()")
    page.wait_for_function("document.getElementById('video').ended", timeout=20_000)
    page.goto("about:blank")  # unloading calls nothing either
    assert page.errors == [] and page.failures == []
    assert all(url.startswith("file://") or url == "about:blank" for url in page.requests), page.requests


@pytest.mark.render
@pytest.mark.browser
@pytest.mark.parametrize(
    "milliseconds, expected",
    [
        (0, "0000:00:00.00"),
        (3_723_450, "0001:02:03.45"),  # 1 h 2 min 3.45 s
        (59_999, "0000:01:00.00"),  # rounded to hundredths, carried into the minute
        (10_000 * 3_600_000, "9999:59:59.99"),  # CMITimespan holds at most 9999 hours
    ],
)
def test_the_session_time_is_written_as_scorm_1_2_timespans(page, site, milliseconds, expected):
    page.goto((site / "sco" / "index.html").as_uri())
    assert page.evaluate(f"sessionTime({milliseconds})") == expected


@pytest.mark.render
@pytest.mark.browser
def test_suspend_data_keeps_within_scorm_1_2s_4096_characters_and_ignores_what_it_did_not_write(page, site, exported):
    page.goto((site / "sco" / "index.html").as_uri())
    ids = [question["id"] for question in render_questions(exported)]
    # A typed answer of ten thousand digits is kept cut short: the LMS has it whole in its interaction.
    answers = {question_id: {"response": "9" * 10_000, "result": "wrong"} for question_id in ids}
    data = page.evaluate("(answers) => lesson.suspendData(answers)", answers)
    assert len(data) <= 4096
    assert {key: value[0] for key, value in json.loads(data)["a"].items()} == dict.fromkeys(ids, "w")
    assert all(0 < len(value[1]) < 100 for value in json.loads(data)["a"].values())
    for foreign in ("", "not json", "[1, 2]", '{"v": 2, "a": {}}', '{"v": 1, "a": {"nobody": ["c", "1"]}}', "null"):
        assert page.evaluate("(data) => { lesson.restored = {}; lesson.restore(data); return lesson.restored; }", foreign) == {}
    assert page.errors == []


@pytest.mark.render
@pytest.mark.browser
def test_questions_turned_off_let_the_video_play_through(page, site, exported):
    questions = render_questions(exported)
    page.goto((site / "sco" / "index.html").as_uri())
    wait_until_playable(page, site)
    toggle = page.get_by_role("button", name="Questions", exact=True)
    page.keyboard.press("q")
    assert toggle.get_attribute("aria-pressed") == "false" and page.evaluate("document.body.dataset.quiz") == "off"
    play_to_the_end_of(page, questions[0]["step"])
    page.wait_for_function(
        "document.getElementById('video').currentTime > Number(document.querySelector("
        f"'#steps button[data-name=\"{questions[0]['step']}\"]').dataset.end) + 0.3",
        timeout=10_000,
    )
    assert page.get_by_role("dialog").count() == 0 and not page.evaluate("document.getElementById('video').paused")
    toggle.click()  # on again, with the pointer
    assert toggle.get_attribute("aria-pressed") == "true"
    play_to_the_end_of(page, questions[0]["step"])
    page.get_by_role("dialog", name="Question 1 of 3").wait_for(timeout=60_000)  # playback is slow on a busy machine
    assert page.errors == []
