"""The render pipeline: one scene, rendered in a staging folder, published whole or not at all.

``render_scene`` renders into ``media/.staging/<scene>-<quality>-XXXX``, packages
the video with its captions, sections, trace and manifest there, and only then
swaps the finished folder into ``media/<scene>/<quality>/`` (``media/<scene>--<tag>/<quality>/``
with a teacher's own settings). An interrupted or
failed render leaves the previous files untouched and no stray files behind.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import manim
import numpy as np
from av.video.reformatter import VideoReformatter
from manim import tempconfig
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

import attention_math

from . import SCENES
from .base import ExplainerScene
from .inputs import variant_folder
from .theme import THEMES
from .web import write_presenter
from .worksheet import exercises_for, write_worksheet

__all__ = [
    "QUALITIES", "FORMATS", "RenderResult", "MissingTool", "check_tools", "render_scene", "up_to_date", "fingerprint",
    "srt_to_vtt", "record_render_time", "longest_first",
]

log = logging.getLogger("attention_explainer")

QUALITIES = {
    "low": "low_quality",  # 854x480, 15 fps
    "medium": "medium_quality",  # 1280x720, 30 fps
    "high": "high_quality",  # 1920x1080, 60 fps
    "4k": "fourk_quality",  # 3840x2160, 60 fps
}

SETUP_HINT = "run `make setup` (it installs texlive-latex-base, texlive-latex-extra, texlive-fonts-recommended and dvisvgm)"


class MissingTool(RuntimeError):
    """A system tool the render needs is not installed."""


@dataclass(frozen=True)
class RenderResult:
    """Where a finished render went."""

    scene: str
    quality: str
    folder: Path
    video: Path
    seconds: float


MAX_INFLIGHT_ENCODERS = 2
"""Movies encoded while the next animation is drawn. At 1080p60, 2 took `scaling` from 93.1 s to
78.4 s (4: 77.4 s) and `multi-head` from 194.6 s to 166.5 s, for peaks of 1.2 and 1.9 GB instead
of 0.7 and 1.0 GB (4: 2.4 GB for `scaling`, over the 2 GB budget per worker)."""

ENCODER_OPTIONS = {"crf": "23", "threads": "1"}
"""libx264 at manim's quality (crf 23), one thread per movie: the cores are kept busy by the movies
in flight instead. With manim's default (a thread per core, as slices) the bytes depend on the core
count (1 and 2 cores gave different videos of the same frames), and twice CI encoded whole
animations of the same frames differently (by up to 2 levels), which never happened here; a
single-threaded encoder and colour conversion cannot race. Measured at 1080p60: `scaling`
99.5 -> 97.7 s, `multi-head` 170.5 -> 183.6 and 197.2 s (two runs), peaks about the same; files
about 5% smaller (crf 23 with one slice instead of two)."""


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


class StillFrameWriter(SceneFileWriter):
    """Manim's file writer, with :class:`StillFrameEncoder` for every movie."""

    def _create_segment_encoder(self, target: Path) -> VideoSegmentEncoder:
        return StillFrameEncoder(target=target, spec=self.video_encoder)


def check_tools() -> None:
    """Fail early, with the fix, when LaTeX or dvisvgm (needed for formulas) is missing."""
    missing = [tool for tool in ("latex", "dvisvgm") if shutil.which(tool) is None]
    if missing:
        raise MissingTool(f"{' and '.join(missing)} not found: formulas need LaTeX and dvisvgm; {SETUP_HINT}.")


FORMATS = ("mp4", "webm", "both")


def render_scene(
    name: str,
    quality: str = "high",
    media_root: Path | str = "media",
    theme: str = "dark",
    video_format: str = "mp4",
    inputs: dict[str, Any] | None = None,
) -> RenderResult:
    """Render one scene and publish it to ``media_root/<folder>/<quality>/``.

    The folder is the scene's name, or with ``inputs`` the name and a tag of them
    (:func:`scenes.inputs.variant_folder`), so renders of different sentences coexist.

    Parameters
    ----------
    name
        A key of :data:`scenes.SCENES`.
    quality
        A key of :data:`QUALITIES`.
    media_root
        The output folder; staging happens inside it so the final move is a rename.
    theme
        A key of :data:`scenes.theme.THEMES`.
    video_format
        ``"mp4"``; ``"webm"`` or ``"both"`` add a VP9 WebM copy (the MP4 is always made:
        the section clips and the presenter use it).
    inputs
        The teacher's settings, already checked by :func:`scenes.inputs.validate`.
    """
    scene_class = SCENES[name]
    inputs = dict(inputs or {})
    media_root = Path(media_root)
    staging_root = media_root / ".staging"
    staging_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{name}-{quality}-", dir=staging_root))
    started = time.monotonic()
    try:
        manim_dir = staging / "manim"
        shared_cache, cache = media_root / ".cache", staging / "cache"
        # Each render typesets into a private copy of the shared LaTeX/Pango cache: a formula is
        # typeset once across renders, yet no two processes ever share manim's Tex/ folder
        # (manim's cleanup deletes files another process is still using). Files only ever join
        # the shared cache by rename from a dot-named temporary, which the copy skips.
        if shared_cache.exists():
            shutil.copytree(shared_cache, cache, ignore=shutil.ignore_patterns(".*"))
        settings = {
            "media_dir": str(manim_dir),
            "video_dir": str(manim_dir / "video"),
            "tex_dir": str(cache / "Tex"),
            "text_dir": str(cache / "texts"),
            "output_file": name,
            "quality": QUALITIES[quality],
            "format": "mp4",
            "save_sections": True,
            # Manim's partial-movie cache hashes every play call (about 40% of render time) for
            # reuse within one media folder; each render stages in a fresh folder, so it never hits.
            "disable_caching": True,
            # Manim's default (1) finishes encoding each animation's movie before the next
            # animation is drawn; more lets the encoder run while the next frames are drawn.
            "max_inflight_encoders": MAX_INFLIGHT_ENCODERS,
            "video_encoder_options": ENCODER_OPTIONS,
            "progress_bar": "none",
            "verbosity": "WARNING",
        }
        with tempconfig(settings):
            renderer = CairoRenderer(file_writer_class=StillFrameWriter)
            scene = scene_class(trace=scene_class.build_trace(**inputs), theme=THEMES[theme], renderer=renderer)
            scene.render()
        merge_cache(cache, shared_cache)
        package = staging / "package"
        write_package(
            scene, manim_dir / "video", package, quality=quality, theme=theme,
            webm=video_format in ("webm", "both"), inputs=inputs,
            fingerprint=fingerprint(name, quality, theme, video_format, inputs),
        )
        final = media_root / variant_folder(name, inputs) / quality
        publish(package, final, staging)
        return RenderResult(name, quality, final, final / f"{name}.mp4", time.monotonic() - started)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        try:
            staging_root.rmdir()  # only when no other render is staging
        except OSError:
            pass


def merge_cache(private: Path, shared: Path) -> None:
    """Add the files a render typeset to the shared cache, each by an atomic rename."""
    for path in private.rglob("*"):
        target = shared / path.relative_to(private)
        if path.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}")
            shutil.copy2(path, temporary)
            os.replace(temporary, target)


def fingerprint(name: str, quality: str, theme: str, video_format: str, inputs: dict[str, Any] | None = None) -> str:
    """What a render depends on: the scene's source, the shared code, the settings, the versions.

    The shared code is every module of ``attention_math`` and every non-scene module of
    ``scenes`` (the registry excepted), so editing one scene re-renders that scene only.
    """
    package_dir = Path(__file__).parent
    scene_files = {Path(inspect.getsourcefile(cls)).resolve() for cls in SCENES.values()}
    own = Path(inspect.getsourcefile(SCENES[name])).resolve()
    shared = [
        p for p in sorted(package_dir.glob("*.py")) if p.resolve() not in scene_files and p.name != "__init__.py"
    ] + sorted((package_dir.parent / "attention_math").glob("*.py"))
    digest = hashlib.sha256()
    for path in [own, *shared]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    settings = {
        "scene": name, "quality": quality, "theme": theme, "format": video_format, "inputs": inputs or {}, "versions": versions()
    }
    digest.update(json.dumps(settings, sort_keys=True).encode())
    return digest.hexdigest()


def versions() -> dict[str, str]:
    """The versions a render depends on."""
    return {
        "attention_explainer": attention_math.__version__,
        "manim": manim.__version__,
        "numpy": np.__version__,
        "av": av.__version__,
        "python": sys.version.split()[0],
    }


def up_to_date(
    name: str, quality: str, media_root: Path | str, theme: str = "dark", video_format: str = "mp4", inputs: dict[str, Any] | None = None
) -> RenderResult | None:
    """The existing render when its manifest matches the current code and settings and its files are all there."""
    folder = Path(media_root) / variant_folder(name, inputs or {}) / quality
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("fingerprint") != fingerprint(name, quality, theme, video_format, inputs):
        return None
    for entry in manifest["files"]:
        path = folder / entry["path"]
        if not path.is_file() or path.stat().st_size != entry["bytes"]:
            return None
    return RenderResult(name, quality, folder, folder / f"{name}.mp4", 0.0)


RENDER_TIMES = ".render-times.json"
"""In the media folder: the seconds each scene's last render took, by ``<folder>/<quality>``.

Kept apart from ``manifest.json``, which a re-render with the same settings reproduces exactly."""


def render_times(media_root: Path | str) -> dict[str, float]:
    """The recorded seconds of earlier renders (see :data:`RENDER_TIMES`); empty when there are none."""
    try:
        times = json.loads((Path(media_root) / RENDER_TIMES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return times if isinstance(times, dict) else {}


def _time_key(name: str, quality: str, inputs: dict[str, Any] | None) -> str:
    """A render's entry in :data:`RENDER_TIMES`: its folder and quality, as under ``media/``."""
    return f"{variant_folder(name, inputs or {})}/{quality}"


def record_render_time(media_root: Path | str, name: str, quality: str, inputs: dict[str, Any] | None, seconds: float) -> None:
    """Remember how long a render took, for :func:`longest_first`; written by rename, never half."""
    media_root = Path(media_root)
    times = render_times(media_root)
    times[_time_key(name, quality, inputs)] = round(seconds, 1)
    temporary = media_root / f"{RENDER_TIMES}.{os.getpid()}"
    temporary.write_text(json.dumps(times, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(temporary, media_root / RENDER_TIMES)


def longest_first(names: list[str], media_root: Path | str, quality: str, inputs: dict[str, dict] | None = None) -> list[str]:
    """``names`` in the order a parallel render should start them: the longest last render first.

    Scenes never timed at this quality come first, in the order given (they may be long). Started
    longest first, the workers finish close together; in teaching order the catalog's longest
    scene, `trained-heads`, came last and rendered alone on 1.4 of the 2 cores (the catalog at
    1080p60 with two jobs: 1,058 s in teaching order, 1,026 s longest first, same videos).
    """
    times = render_times(media_root)
    return sorted(names, key=lambda name: times.get(_time_key(name, quality, (inputs or {}).get(name)), float("inf")), reverse=True)


def publish(package: Path, final: Path, staging: Path) -> None:
    """Swap ``package`` in as ``final`` with renames, so readers see the old or the new folder, never half."""
    final.parent.mkdir(parents=True, exist_ok=True)
    previous = staging / "previous"
    if final.exists():
        os.replace(final, previous)
    os.replace(package, final)


def write_package(
    scene: ExplainerScene,
    video_dir: Path,
    package: Path,
    quality: str,
    theme: str,
    webm: bool = False,
    fingerprint: str = "",
    inputs: dict[str, Any] | None = None,
) -> None:
    """Collect manim's output and write the web video, poster, preview, captions, transcript, sections, trace and manifest."""
    package.mkdir()
    name = scene.name
    video = package / f"{name}.mp4"
    faststart_copy(video_dir / f"{name}.mp4", video)
    if webm:
        log.info("encoding WebM (VP9)")
        write_webm(video, package / f"{name}.webm")
    write_preview_gif(video, package / "preview.gif")

    srt_text = (video_dir / f"{name}.srt").read_text(encoding="utf-8")
    (package / "captions.srt").write_text(srt_text, encoding="utf-8")
    (package / "captions.vtt").write_text(srt_to_vtt(srt_text), encoding="utf-8")

    sections_dir = package / "sections"
    sections_dir.mkdir()
    manim_sections = json.loads((video_dir / "sections" / f"{name}.json").read_text())
    if len(manim_sections) != len(scene.steps):
        raise RuntimeError(f"{name}: {len(manim_sections)} video sections for {len(scene.steps)} steps")
    sections = []
    for index, (step, section) in enumerate(zip(scene.steps, manim_sections), start=1):
        clip = f"{index:02d}-{step.name}.mp4"
        faststart_copy(video_dir / "sections" / section["video"], sections_dir / clip)
        sections.append(
            {
                "index": index,
                "name": step.name,
                "caption": step.caption,
                "start": round(step.start, 3),
                "duration": round(float(section["duration"]), 3),
                "file": f"sections/{clip}",
            }
        )
    (package / "sections.json").write_text(json.dumps(sections, indent=1, ensure_ascii=False), encoding="utf-8")
    poster_section = next((s for s in sections if s["name"] == scene.poster_step), sections[-1])
    last_frame(package / poster_section["file"]).save(package / "poster.png")

    write_presenter(package, scene.title, sections)
    if exercises_for(scene.trace):
        write_worksheet(type(scene), scene.trace, package / "worksheet.html")

    transcript = [scene.title, ""]
    for section in sections:
        transcript += [f"{section['index']}. {section['name']}", section["caption"], ""]
    (package / "transcript.txt").write_text("\n".join(transcript), encoding="utf-8")
    (package / "trace.json").write_text(scene.trace.to_json(), encoding="utf-8")

    files = sorted(p for p in package.rglob("*") if p.is_file())
    manifest = {
        "scene": name,
        "title": scene.title,
        "description": scene.description,
        "sources": scene.sources,
        "inputs": inputs or {},
        "settings": {"quality": quality, "theme": theme, **scene.trace.settings},
        "versions": versions(),
        "fingerprint": fingerprint,
        "files": [
            {"path": p.relative_to(package).as_posix(), "bytes": p.stat().st_size, "sha256": _sha256(p)}
            for p in files
        ],
    }
    (package / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")


def faststart_copy(source: Path, target: Path) -> None:
    """Copy an MP4 with its index (moov atom) at the front and every frame on the frame-rate grid.

    Manim joins one small movie per animation; the joins leave timestamps a tick or
    two off the frame grid, so the file's average frame rate is not exactly the
    frame rate. The copy renumbers presentation and decoding timestamps by frame
    order (no re-encoding), and moves the index to the front so browsers can stream.
    """
    with av.open(str(source)) as original:
        video = original.streams.video[0]
        packets = [packet for packet in original.demux(video) if packet.dts is not None]
        rate = video.guessed_rate or video.base_rate
        ticks_per_frame = int(round(1 / (rate * video.time_base)))
        presentation_rank = {pts: rank for rank, pts in enumerate(sorted(packet.pts for packet in packets))}
        reorder_delay = round(-packets[0].dts / ticks_per_frame) if packets and packets[0].dts < 0 else 0
        with av.open(str(target), "w", options={"movflags": "faststart"}) as copy:
            stream = copy.add_stream_from_template(video)
            stream.time_base = video.time_base
            for index, packet in enumerate(packets):
                packet.pts = presentation_rank[packet.pts] * ticks_per_frame
                packet.dts = (index - reorder_delay) * ticks_per_frame
                packet.duration = ticks_per_frame
                packet.stream = stream
                copy.mux(packet)


def last_frame(video: Path):
    """The last frame of a video as a PIL image."""
    frame = None
    with av.open(str(video)) as container:
        for frame in container.decode(video=0):
            pass
    return frame.to_image()


def write_preview_gif(video: Path, target: Path, frames: int = 30, width: int = 480, seconds_per_frame: float = 0.4) -> None:
    """A small looping GIF for a course page: ``frames`` frames spread over the whole video."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        total = stream.frames or sum(1 for _ in container.decode(stream))
    wanted = {round(k * (total - 1) / (frames - 1)) for k in range(frames)}
    images = []
    with av.open(str(video)) as container:
        for index, frame in enumerate(container.decode(video=0)):
            if index in wanted:
                image = frame.to_image()
                images.append(image.resize((width, round(image.height * width / image.width))).quantize(colors=64))
    images[0].save(target, save_all=True, append_images=images[1:], duration=int(seconds_per_frame * 1000), loop=0, optimize=True)


def write_webm(video: Path, target: Path) -> None:
    """Transcode the MP4 to VP9 WebM (no sound), fast settings: a second format for browsers that prefer it."""
    with av.open(str(video)) as source, av.open(str(target), "w") as webm:
        original = source.streams.video[0]
        rate = original.guessed_rate or original.base_rate
        stream = webm.add_stream("libvpx-vp9", rate=rate)
        stream.width, stream.height, stream.pix_fmt = original.width, original.height, "yuv420p"
        stream.options = {"deadline": "realtime", "cpu-used": "8", "row-mt": "1", "crf": "33", "b": "0"}
        for index, frame in enumerate(source.decode(original)):
            frame.pts, frame.time_base = index, 1 / rate  # frame numbers on the frame-rate grid
            for packet in stream.encode(frame):
                webm.mux(packet)
        for packet in stream.encode():
            webm.mux(packet)


def srt_to_vtt(srt_text: str) -> str:
    """Convert SRT captions to WebVTT: a header, '.' before milliseconds, and &, <, > escaped."""
    cues = []
    for block in srt_text.strip().split("\n\n"):
        lines = block.strip().splitlines()
        if len(lines) < 3:
            continue
        timing = lines[1].replace(",", ".")
        text = "\n".join(lines[2:]).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        cues.append(f"{lines[0]}\n{timing}\n{text}")
    return "WEBVTT\n\n" + "\n\n".join(cues) + "\n"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
