"""A real render: the CLI renders scaling at low quality; the files are checked with PyAV."""

from __future__ import annotations

import json
import re
import shutil

import av
import pytest
from click.testing import CliRunner
from manim import Create, Square
from PIL import Image

import render
from attention_explainer.files import sha256_of
from attention_explainer.options import RenderJob
from attention_explainer.package.reader import read_package
from attention_explainer.pages import templating as pages
from attention_explainer.pipeline import freshness, workers
from attention_explainer.pipeline.render_job import render_scene
from scenes import SCENES
from scenes.kit import ExplainerScene

from .drafts.draft_renders import draft_size
from .helpers import built_scene

pytestmark = [pytest.mark.render, pytest.mark.xdist_group("scaling")]  # beside scaling's build, which it reads


def test_prints_the_video_path(rendered):
    media, result = rendered
    assert result.stdout.splitlines() == [str(media / "scaling" / "low" / "scaling.mp4")]


def test_low_quality_asks_for_480p15_and_the_video_is_h264_at_the_drawn_size_rate_and_duration(rendered):
    """Low quality gives manim 854x480 at 15 frames a second; the video has the size manim draws (a draft's, in the
    tests: :mod:`tests.drafts.draft_renders`), the rate, and the scene's duration."""
    media, result = rendered
    width, height = draft_size(854, 480)
    assert f"a draft: {width}x{height} at 15 frames a second (its quality: 854x480)" in result.stderr
    expected_duration = built_scene("scaling").steps[-1].end
    with av.open(str(media / "scaling" / "low" / "scaling.mp4")) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        assert (stream.width, stream.height) == (width, height)
        assert stream.average_rate == 15
        assert stream.codec_context.pix_fmt == "yuv420p"
        frames = sum(1 for _ in container.decode(stream))
    assert frames / 15 == pytest.approx(expected_duration, abs=2 / 15)


def test_index_is_at_the_front_for_streaming(rendered):
    media, _ = rendered
    data = (media / "scaling" / "low" / "scaling.mp4").read_bytes()
    assert 0 <= data.find(b"moov") < data.find(b"mdat")


def test_captions_cover_every_step(rendered):
    media, _ = rendered
    folder = media / "scaling" / "low"
    vtt = (folder / "captions.vtt").read_text(encoding="utf-8")
    srt = (folder / "captions.srt").read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT\n\n")
    cue_times = re.findall(r"(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)", vtt)
    assert len(cue_times) >= len(built_scene("scaling").steps)
    assert len(re.findall(r"-->", srt)) == len(cue_times)
    seconds = [sum(float(x) * 60 ** (2 - k) for k, x in enumerate(t.split(":"))) for pair in cue_times for t in pair]
    for start, end in zip(seconds[::2], seconds[1::2]):
        assert end - start >= 0.999, "a caption cue too short to read"
    one_line = srt.replace("\n", " ")
    for step in built_scene("scaling").steps:
        first_sentence = step.caption.split(". ")[0]
        assert first_sentence[:40] in one_line


def test_sections_match_steps_and_video_length(rendered):
    media, _ = rendered
    folder = media / "scaling" / "low"
    sections = json.loads((folder / "sections.json").read_text())
    scene = built_scene("scaling")
    assert [s["name"] for s in sections] == [step.name for step in scene.steps]
    assert [s["title"] for s in sections] == [step.title for step in scene.steps], "each step's title, in order"
    total = 0.0
    for section in sections:
        with av.open(str(folder / section["file"])) as clip:
            total += float(clip.duration) / av.time_base
    with av.open(str(folder / "scaling.mp4")) as video:
        assert total == pytest.approx(float(video.duration) / av.time_base, abs=0.25)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["settings"]["seed"] == scene.trace.seed
    assert {f["path"] for f in manifest["files"]} >= {"scaling.mp4", "captions.vtt", "trace.json", "transcript.txt"}
    assert json.loads((folder / "trace.json").read_text()) == json.loads(scene.trace.to_json())


def test_media_holds_only_what_is_published(rendered):
    """No hidden file or folder (staging, caches, logs, timings) is left in media after a render."""
    media, _ = rendered
    hidden = [str(p.relative_to(media)) for p in media.rglob(".*")]
    assert hidden == []
    assert sorted(p.name for p in media.iterdir()) == ["scaling"]


class BrokenScene(ExplainerScene):
    name = "broken"

    @classmethod
    def build_trace(cls):
        return SCENES["self-attention"].build_trace()

    def construct(self):
        with self.step("one", "One step", "A step."):
            self.play(Create(Square()))
            raise RuntimeError("scene failed half way")


def test_failed_render_keeps_the_previous_files_and_leaves_no_stray_files(monkeypatch, tmp_path):
    monkeypatch.setitem(SCENES, "broken", BrokenScene)
    previous = tmp_path / "broken" / "low" / "broken.mp4"
    previous.parent.mkdir(parents=True)
    previous.write_bytes(b"the previous good render")
    cache = tmp_path / "cache"
    with pytest.raises(RuntimeError, match="half way"):
        render_scene(RenderJob("broken", quality="low", media_dir=tmp_path, cache_dir=cache))
    assert previous.read_bytes() == b"the previous good render"
    assert sorted(p.name for p in (tmp_path / "broken" / "low").iterdir()) == ["broken.mp4"]
    assert not (cache / "staging").exists()
    assert not list(tmp_path.rglob(".*"))


def test_package_has_poster_preview_presenter_and_worksheet(rendered):
    media, _ = rendered
    folder = media / "scaling" / "low"
    with Image.open(folder / "poster.png") as poster:
        assert poster.size == draft_size(854, 480)  # the video's
    with Image.open(folder / "preview.gif") as preview:
        assert preview.n_frames >= 10
        seconds = sum(preview.seek(k) or preview.info["duration"] for k in range(preview.n_frames)) / 1000
    assert seconds <= 15 and (folder / "preview.gif").stat().st_size < 2_000_000
    assert "01-the-question.mp4" in (folder / "present.html").read_text(encoding="utf-8")
    assert "Answer key" in (folder / "worksheet.html").read_text(encoding="utf-8")


def published_hashes(folder) -> dict[str, str]:
    """Every file a package's manifest lists, with its SHA-256 as computed here (not as the manifest says)."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return {entry["path"]: sha256_of(folder / entry["path"]) for entry in manifest["files"]}


def render_copy(rendered, folder):
    """A copy of ``rendered``'s media folder in ``folder / "media"``, to render into (its cache goes beside it, never inside)."""
    media, _ = rendered
    copy = folder / "media"
    shutil.copytree(media, copy)
    return copy


def test_an_edited_presenter_template_repackages_without_drawing(rendered, tmp_path, monkeypatch):
    """Only the pages change: no worker starts, the video keeps its bytes, the new page is published."""
    media, _ = rendered
    copy = tmp_path / "media"
    shutil.copytree(media, copy)
    templates = tmp_path / "templates"
    shutil.copytree(pages.TEMPLATES, templates)
    presenter = templates / "presenter.html"
    presenter.write_text(
        presenter.read_text(encoding="utf-8").replace("<body>", "<body>\n<!-- edited template -->"), encoding="utf-8"
    )
    monkeypatch.setattr(pages, "TEMPLATES", templates)

    def no_render(*args, **kwargs):
        raise AssertionError("a worker was started for a change of pages only")

    monkeypatch.setattr(workers, "render_all", no_render)
    folder = copy / "scaling" / "low"
    video_before = sha256_of(folder / "scaling.mp4")
    result = CliRunner().invoke(
        render.main, ["scaling", "--quality", "low", "--media-dir", str(copy), "--cache-dir", str(tmp_path / "cache")]
    )
    assert result.exit_code == 0, result.output
    assert "pages rewritten, frames unchanged" in result.stderr
    assert "edited template" in (folder / "present.html").read_text(encoding="utf-8")
    assert sha256_of(folder / "scaling.mp4") == video_before
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {f["path"]: f["sha256"] for f in manifest["files"]}["present.html"] == sha256_of(folder / "present.html")
    assert not list(copy.rglob(".*"))


def test_a_package_from_before_step_titles_is_rendered_again_and_never_read(rendered, tmp_path, caplog):
    """Its sections.json (listed in its manifest with its true size and SHA-256) has steps without titles."""
    media, _ = rendered
    copy = tmp_path / "media"
    shutil.copytree(media, copy)
    folder = copy / "scaling" / "low"
    job = RenderJob("scaling", quality="low", media_dir=copy)
    assert freshness.freshness(job, folder) is freshness.Freshness.UP_TO_DATE
    sections = folder / "sections.json"
    steps = json.loads(sections.read_text(encoding="utf-8"))
    sections.write_text(json.dumps([{k: v for k, v in step.items() if k != "title"} for step in steps]), encoding="utf-8")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        if entry["path"] == "sections.json":
            entry.update(sha256=sha256_of(sections), bytes=sections.stat().st_size)
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")

    assert freshness.freshness(job, folder) is freshness.Freshness.RENDER
    with pytest.raises(ValueError, match="step 1 has no title"):
        read_package(folder)
    result = CliRunner().invoke(render.main, ["gallery", "--media-dir", str(copy)])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "<article" not in (copy / "index.html").read_text(encoding="utf-8")
    assert "left out of the gallery" in caplog.text + result.output
