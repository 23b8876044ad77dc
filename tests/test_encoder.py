"""The render's movie encoder: manim's bytes, still frames converted once, nothing read from stale memory."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from attention_explainer.pipeline.encoder import StillFrameEncoder, _cpu_flags, encoder_options

from .drafts.draft_renders import draft_size

ENCODER_OPTIONS = encoder_options()


def picture(seed: int) -> np.ndarray:
    """A 320x180 RGBA frame of coloured blocks (smooth enough to compress like a scene)."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, size=(9, 16, 4), dtype=np.uint8)
    pixels = np.kron(blocks, np.ones((20, 20, 1), dtype=np.uint8))
    pixels[..., 3] = 255
    return np.ascontiguousarray(pixels)


def encode(encoder_class, target, still: int = 3) -> bytes:
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", 320, 180, Fraction(15), tuple(ENCODER_OPTIONS.items()))
    encoder = encoder_class(target=target, spec=spec)
    # Moving frames, a still held for 40 frames, more movement, and a short still: as a scene hands them over.
    for seed in range(3):
        encoder.write_frame(picture(seed))
    encoder.write_frame(picture(still), repeat=40)
    for seed in range(4, 7):
        encoder.write_frame(picture(seed))
    encoder.write_frame(picture(7), repeat=2)
    encoder.finish()
    return target.read_bytes()


def test_still_frames_encode_to_the_same_bytes_as_manims_encoder(tmp_path):
    ours = encode(StillFrameEncoder, tmp_path / "ours.mp4")
    manims = encode(VideoSegmentEncoder, tmp_path / "manim.mp4")
    assert len(ours) > 1000
    assert ours == manims


def test_a_different_still_gives_different_bytes(tmp_path):
    """The comparison above can fail: another still picture changes the file."""
    assert encode(StillFrameEncoder, tmp_path / "a.mp4") != encode(StillFrameEncoder, tmp_path / "b.mp4", still=8)


def test_a_still_frame_is_converted_once_however_long_it_is_held(tmp_path, monkeypatch):
    """Without the shortcut every repeat is a new RGBA frame to convert: 48 here instead of 8."""
    import av

    made = {"frames": 0}
    original = av.VideoFrame

    class CountingVideoFrame:
        @staticmethod
        def from_ndarray(*args, **kwargs):
            made["frames"] += 1
            return original.from_ndarray(*args, **kwargs)

    monkeypatch.setattr(av, "VideoFrame", CountingVideoFrame)
    encode(StillFrameEncoder, tmp_path / "ours.mp4")
    ours = made["frames"]
    made["frames"] = 0
    encode(VideoSegmentEncoder, tmp_path / "manim.mp4")
    assert (ours, made["frames"]) == (3 + 1 + 3 + 1, 3 + 40 + 3 + 2)


def test_manims_private_encoder_interface_is_still_what_the_encoder_relies_on(tmp_path):
    """StillFrameEncoder and PackagingWriter use these private parts of manim; a manim release that changes them must fail here."""
    for name in ("_validate_frame", "_operation_error", "write_frame", "finish"):
        assert callable(getattr(VideoSegmentEncoder, name)), name
    assert list(inspect.signature(VideoSegmentEncoder.__init__).parameters) == ["self", "target", "spec"]
    assert list(inspect.signature(SceneFileWriter._create_segment_encoder).parameters) == ["self", "target"]
    assert list(inspect.signature(SceneFileWriter.next_section).parameters) == ["self", "name", "type_", "skip_animations"]
    assert "repeat" in inspect.signature(SceneFileWriter.write_frame).parameters
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", 320, 180, Fraction(15), tuple(ENCODER_OPTIONS.items()))
    encoder = VideoSegmentEncoder(target=tmp_path / "probe.mp4", spec=spec)
    for attribute in ("_stream", "_container", "_next_pts", "spec"):
        assert attribute in vars(encoder), attribute
    encoder.abort()


ENCODE_IN_A_FRESH_PROCESS = """
import sys
from fractions import Fraction
from pathlib import Path
import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec
from attention_explainer.pipeline.encoder import StillFrameEncoder, encoder_options
options = encoder_options() if sys.argv[2] == "ours" else {"crf": "23", "threads": "1"}
width, height = int(sys.argv[3]), int(sys.argv[4])
yy, xx = np.mgrid[0:height, 0:width]
encoder = StillFrameEncoder(target=Path(sys.argv[1]), spec=VideoEncoderSpec("mp4", "libx264", "yuv420p", width, height, Fraction(15), tuple(options.items())))
for i in range(15):
    pixels = np.zeros((height, width, 4), np.uint8)
    pixels[..., 0] = ((xx + 7 * i) // 40 % 2) * 200
    pixels[..., 1] = yy * 255 // height
    pixels[..., 2] = (3 * xx + yy) % 256
    pixels[..., 3] = 255
    encoder.write_frame(pixels, repeat=1 if i < 12 else 5)
encoder.finish()
"""


def _encode_with_heap_filled(tmp_path, byte: int, options: str, size: tuple[int, int] = (854, 480)) -> bytes:
    """Encode fixed frames of ``size`` in a fresh process whose fresh memory is filled with ``byte``.

    glibc's ``MALLOC_PERTURB_`` fills memory the process allocates (and frees) with a pattern:
    a fault injector here, putting different bytes where an encoder might read memory nobody wrote.
    The project itself never sets it.
    """
    target = tmp_path / f"{options}-{byte}-{size[0]}.mp4"
    environment = {**os.environ, "MALLOC_PERTURB_": str(byte)}
    command = [sys.executable, "-c", ENCODE_IN_A_FRESH_PROCESS, str(target), options, *map(str, size)]
    subprocess.run(command, check=True, env=environment)
    return target.read_bytes()


@pytest.mark.parametrize(
    "size",
    [
        pytest.param((854, 480), id="low-quality"),  # not a multiple of the vector width
        pytest.param(draft_size(854, 480), id="the-tests-drafts"),  # the size the tests' renders compare their bytes at
    ],
)
def test_the_bytes_do_not_depend_on_what_memory_held(tmp_path, size):
    """At a width not a multiple of its vector width (854 px seen), libx264's AVX-512 code reads memory it never wrote;
    our settings keep the bytes fixed, at low quality's size and at the drafts' the other tests compare renders at."""
    ours = {byte: _encode_with_heap_filled(tmp_path, byte, "ours", size) for byte in (85, 170)}
    assert ours[85] == ours[170]


def test_without_our_settings_the_bytes_do_depend_on_memory(tmp_path):
    """The check above can fail: with libx264's own choice of code, the same frames give other bytes."""
    if "avx512f" not in _cpu_flags():
        pytest.skip("this CPU has no AVX-512: libx264 never takes the code path that reads stale memory")
    stock = {byte: _encode_with_heap_filled(tmp_path, byte, "stock") for byte in (85, 170)}
    assert stock[85] != stock[170]


# --- the WebM a teacher asks for (--format both) ------------------------------------------------------------------

PRODUCTS_IN_A_FRESH_PROCESS = """
import sys
from pathlib import Path
import numpy as np
from attention_explainer.pipeline.narration import SAMPLE_RATE, master
from attention_explainer.pipeline.products import faststart_copy, write_webm
source, folder, voice = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
track, first_step = None, None
if voice:
    samples = np.load(voice)
    seconds = len(samples) / SAMPLE_RATE
    track = master(samples, [(0.0, 1.5), (1.5, seconds - 1.5)])  # two steps: each step clip's peaks count
    np.save(folder / "track.npy", track)
    first_step = track[: round(1.5 * SAMPLE_RATE)]
faststart_copy(source, folder / "video.mp4", audio=track)
faststart_copy(source, folder / "clip.mp4", audio=first_step)
write_webm(folder / "video.mp4", folder / "video.webm", audio=track)
"""


def a_low_quality_movie(target: Path) -> int:
    """A 854x480 movie at 15 frames a second, as a low-quality render's: blocks sliding right, then held; its frame count."""
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", 854, 480, Fraction(15), tuple(ENCODER_OPTIONS.items()))
    encoder = StillFrameEncoder(target=target, spec=spec)
    rng = np.random.default_rng(3)
    scene = np.kron(rng.integers(0, 256, size=(12, 24, 4), dtype=np.uint8), np.ones((40, 40, 1), dtype=np.uint8))
    scene[..., 3] = 255
    for shift in range(0, 120, 4):  # motion on every frame, then a still held for a second
        encoder.write_frame(np.ascontiguousarray(np.roll(scene, shift, axis=1)[:, :854]))
    encoder.write_frame(np.ascontiguousarray(scene[:, :854]), repeat=15)
    encoder.finish()
    return 30 + 15


def a_voice(seconds: float) -> np.ndarray:
    """A stand-in narration track: a tone that comes and goes, as floats at the narration's sample rate."""
    from attention_explainer.pipeline.narration import SAMPLE_RATE

    t = np.arange(round(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return (0.3 * np.sin(2 * np.pi * 220 * t) * (np.sin(2 * np.pi * 0.7 * t) > 0)).astype(np.float32)


def products_in_a_fresh_process(source: Path, folder: Path, voice: Path | None) -> dict[str, bytes]:
    """What a render makes of its movie and voice, made in a fresh process: the track mastered for two steps (with a
    voice), the MP4 with its index at the front (and the voice in AAC), a step's clip (with its part of the voice) and
    the WebM (the voice in Opus), as the render does."""
    folder.mkdir()
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    arguments = [str(source), str(folder), str(voice) if voice else ""]
    subprocess.run([sys.executable, "-c", PRODUCTS_IN_A_FRESH_PROCESS, *arguments], check=True, env=environment)
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("narrated", [False, True], ids=["silent", "narrated"])
def test_a_webm_is_vp9_as_long_as_its_mp4_and_the_same_bytes_in_another_process(narrated, tmp_path):
    """The WebM is transcoded from the MP4 after the render: VP9 as long as the MP4, Opus for the voice. With and
    without a voice, two fresh processes master the track for its steps and write the MP4, a step's clip and the WebM
    with the same bytes (Matroska's track identifiers are random unless told otherwise).

    A narrated render made again gives the same bytes by these parts (with the frames drawn the same,
    ``test_parallel.py``'s, and the speech synthesised again sample for sample, ``test_narration.py``'s); a real
    render's WebM and voice are ``test_narration_render.py``'s.
    """
    import av

    source = tmp_path / "source.mp4"
    made = a_low_quality_movie(source)  # the render's size: VP9 splits it into tiles, a 320 px movie it does not
    with av.open(str(source)) as mp4:
        seconds, pictures = mp4.duration / av.time_base, sum(1 for _ in mp4.decode(video=0))
    voice = tmp_path / "voice.npy" if narrated else None
    if voice:
        np.save(voice, a_voice(seconds))
    here = products_in_a_fresh_process(source, tmp_path / "here", voice)
    there = products_in_a_fresh_process(source, tmp_path / "there", voice)
    assert set(here) == {"video.mp4", "clip.mp4", "video.webm"} | ({"track.npy"} if narrated else set())
    assert here == there and len(here["video.webm"]) > 10_000
    with av.open(str(tmp_path / "here" / "video.webm")) as webm:
        assert webm.streams.video[0].codec_context.name == "vp9"
        assert sum(1 for _ in webm.decode(video=0)) == pictures == made
        assert webm.duration / av.time_base == pytest.approx(seconds, abs=0.1)
        assert [s.codec_context.name for s in webm.streams.audio] == (["opus"] if narrated else [])
    with av.open(str(tmp_path / "here" / "video.mp4")) as mp4:
        assert [s.codec_context.name for s in mp4.streams.audio] == (["aac"] if narrated else [])
