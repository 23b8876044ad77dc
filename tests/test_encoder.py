"""The render's movie encoder writes the same bytes as manim's own, with still frames converted once."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from scenes.rendering import ENCODER_OPTIONS, StillFrameEncoder


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
