"""Manim's movie writer, made byte-deterministic and cheap for held frames, and watched for the poster.

This module is the one place that relies on manim's private encoder interface
(``VideoSegmentEncoder._stream``, ``_container``, ``_next_pts``, ``_validate_frame``,
``_operation_error`` and ``SceneFileWriter._create_segment_encoder``); ``tests/test_encoder.py``
fails loudly when a manim release changes any of them.
"""

from __future__ import annotations

import platform
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import av
from av.video.reformatter import VideoReformatter
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder
from PIL import Image

__all__ = [
    "MAX_INFLIGHT_ENCODERS",
    "encoder_options",
    "StillFrameEncoder",
    "PackagingWriter",
    "PREVIEW_WIDTH",
]

MAX_INFLIGHT_ENCODERS = 2
"""Movies encoded while the next animation is drawn. At 1080p60, 2 took `scaling` from 93.1 s to
78.4 s (4: 77.4 s) and `multi-head` from 194.6 s to 166.5 s, for peaks of 1.2 and 1.9 GB instead
of 0.7 and 1.0 GB (4: 2.4 GB for `scaling`, over the 2 GB budget per worker)."""


@lru_cache(maxsize=None)
def _cpu_flags() -> frozenset[str]:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def encoder_options() -> dict[str, str]:
    """libx264's settings: manim's quality (crf 23), one thread per movie, and no AVX-512 code.

    - One thread: the cores are kept busy by the movies in flight instead, and with a thread per
      core (manim's default) the bytes depend on the core count.
    - No AVX-512: on a CPU that has it, libx264's AVX-512 code reads memory it never wrote when the
      width is not a multiple of its vector size (854 px, the low quality). The same 15 frames,
      encoded with glibc filling fresh memory with 0x55 and then with 0xAA, gave two different
      files, and in one process the file changed with what the heap held from earlier work; with
      ``asm=avx2`` every encode gave the same bytes (the bytes a clean heap gives), at the same
      speed (60 frames at 1080p: 6.67 and 6.2 CPU s with AVX-512, 6.57 and 6.14 without).
      1280 and 1920 px were never affected. CPUs without AVX-512 never take that path.
    """
    options = {"crf": "23", "threads": "1"}
    if platform.machine() in ("x86_64", "AMD64") and "avx512f" in _cpu_flags():
        options["x264-params"] = "asm=avx2"
    return options


class StillFrameEncoder(VideoSegmentEncoder):
    """A movie encoder that converts a still frame to YUV once, however many frames it lasts.

    Manim hands a still picture (a ``wait``, a step held for its caption) over as one frame with
    ``repeat`` = its length; its own encoder converts that RGBA frame to yuv420p again for every
    repeat. The conversion is the same call the encoder makes (:class:`VideoReformatter`, one
    thread), so the encoder receives the same pixels and writes the same bytes. About 60% of a
    scene's frames are such repeats; measured back to back at 1080p60, `scaling` took 57.9 s
    instead of 66.6 s (79.3 instead of 87.8 CPU seconds), with byte-identical videos.
    """

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        if repeat == 1:
            return super().write_frame(pixels)
        self._validate_frame(pixels, repeat)
        context = self._stream.codec_context
        try:
            still = VideoReformatter().reformat(
                av.VideoFrame.from_ndarray(pixels, format="rgba"), context.width, context.height, context.format, threads=1
            )
            still.time_base = Fraction(self.spec.frame_rate.denominator, self.spec.frame_rate.numerator)
            for _ in range(repeat):
                # libx264 copies each picture it is sent, so one frame can be sent again with the next time stamp.
                still.pts = self._next_pts
                self._next_pts += 1
                for packet in self._stream.encode(still):
                    self._container.mux(packet)
        except BaseException as error:
            raise self._operation_error("encode", error) from error


PREVIEW_WIDTH = 480
"""Width of the preview GIF's frames, in pixels."""


class PackagingWriter(SceneFileWriter):
    """Manim's file writer with :class:`StillFrameEncoder`, keeping the poster and preview frames as it goes.

    The poster is the last frame of the section named :attr:`poster_section` (the last section
    when it is empty); the preview keeps one small frame per second of video. Keeping them while
    the frames are drawn spares decoding the finished video again (at 1080p60 decoding it for the
    preview alone took several seconds after the last frame).
    """

    poster_section: str = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.frames_written = 0
        self.poster: Image.Image | None = None
        self.preview: list[Image.Image] = []
        self._last_pixels = None

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        return StillFrameEncoder(target=target, spec=self.video_encoder)

    def write_frame(self, pixels, *, repeat: int = 1) -> None:
        super().write_frame(pixels, repeat=repeat)
        rate = round(float(self.video_encoder.frame_rate)) if self.video_encoder else 1
        first, self.frames_written = self.frames_written, self.frames_written + repeat
        # One preview frame at each whole second of video that this frame covers.
        if (first + rate - 1) // rate < (self.frames_written + rate - 1) // rate:
            self.preview.append(_small(pixels))
        self._last_pixels = pixels  # manim hands each frame over and never reuses it

    def next_section(self, name: str, type_: str, skip_animations: bool) -> None:
        if self.sections and self.sections[-1].name == self.poster_section and self._last_pixels is not None:
            self.poster = Image.fromarray(self._last_pixels, "RGBA").convert("RGB")
        super().next_section(name, type_, skip_animations)

    def finish(self) -> None:
        if self.poster is None and self._last_pixels is not None:
            self.poster = Image.fromarray(self._last_pixels, "RGBA").convert("RGB")
        super().finish()


def _small(pixels) -> Image.Image:
    """A preview-sized RGB copy of a frame: reduced by a whole factor (a box filter), then resized."""
    image = Image.fromarray(pixels, "RGBA").convert("RGB")
    factor = max(1, image.width // PREVIEW_WIDTH)
    if factor > 1:
        image = image.reduce(factor)
    if image.width != PREVIEW_WIDTH:
        image = image.resize((PREVIEW_WIDTH, round(image.height * PREVIEW_WIDTH / image.width)), Image.Resampling.BILINEAR)
    return image
