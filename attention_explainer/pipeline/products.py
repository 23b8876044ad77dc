"""The render products: what drawing the frames makes, collected from manim's output into a package.

The video (with its index at the front, every frame on the frame-rate grid), its WebM, the step
clips and ``sections.json``, the poster, the preview GIF, ``trace.json`` and ``narration.json``
(see :data:`..package.manifest.RENDER_PRODUCTS`). The rest of a package is written from these alone
(:mod:`..pages.write`), so it can be rewritten without drawing a frame (see :mod:`.freshness`).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import av
from PIL import Image

from scenes.kit import ExplainerScene

from . import narration
from .encoder import PackagingWriter

__all__ = ["write_render_products", "faststart_copy", "write_webm", "write_preview_gif", "PREVIEW_FRAMES"]

log = logging.getLogger("attention_explainer")

PREVIEW_FRAMES = 30
"""Frames in the looping preview GIF, spread over the whole video."""


def write_render_products(
    scene: ExplainerScene, writer: PackagingWriter, video_dir: Path, package: Path, webm: bool, audio=None
) -> None:
    """Collect manim's output into ``package``: web video, WebM, step clips, sections, poster, preview, trace.

    ``audio`` is a narrated render's ``(track, record)``: the mastered track goes into the MP4 (AAC),
    the WebM (Opus) and each step's clip; the record becomes ``narration.json``.
    """
    package.mkdir()
    name = scene.name
    video = package / f"{name}.mp4"
    track, record = audio if audio is not None else (None, None)
    faststart_copy(video_dir / f"{name}.mp4", video, audio=track)
    if webm:
        log.info("encoding WebM (VP9)")
        write_webm(video, package / f"{name}.webm", audio=track)

    sections_dir = package / "sections"
    sections_dir.mkdir()
    manim_sections = json.loads((video_dir / "sections" / f"{name}.json").read_text(encoding="utf-8"))
    if len(manim_sections) != len(scene.steps):
        raise RuntimeError(f"{name}: {len(manim_sections)} video sections for {len(scene.steps)} steps")
    sections = []
    for index, (step, section) in enumerate(zip(scene.steps, manim_sections), start=1):
        clip = f"{index:02d}-{step.name}.mp4"
        faststart_copy(video_dir / "sections" / section["video"], sections_dir / clip, audio=_part(track, step.start, section))
        sections.append(
            {
                "index": index,
                "name": step.name,
                "title": step.title,
                "caption": step.caption,
                "lines": [
                    {"text": line.text, "spoken": line.spoken, "start": round(line.start, 3), "end": round(line.end, 3)}
                    for line in step.lines
                ],
                "start": round(step.start, 3),
                "duration": round(float(section["duration"]), 3),
                "file": f"sections/{clip}",
            }
        )
    (package / "sections.json").write_text(json.dumps(sections, indent=1, ensure_ascii=False), encoding="utf-8")
    writer.poster.save(package / "poster.png", optimize=False, compress_level=6)
    write_preview_gif(writer.preview, package / "preview.gif")
    (package / "trace.json").write_text(scene.trace.to_json(), encoding="utf-8")
    if record is not None:
        lines = [{"spoken": line.spoken, "seconds": round(line.speech, 3)} for step in scene.steps for line in step.lines]
        (package / "narration.json").write_text(
            json.dumps({**record, "lines": lines}, indent=1, ensure_ascii=False), encoding="utf-8"
        )


def _part(track, start: float, section: dict):
    """The stretch of the narration track a step's clip covers (``None`` when silent)."""
    if track is None:
        return None
    first = round(start * narration.SAMPLE_RATE)
    return track[first : first + round(float(section["duration"]) * narration.SAMPLE_RATE)]


def faststart_copy(source: Path, target: Path, audio=None) -> None:
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
                if audio is None:
                    copy.mux(packet)
            if audio is not None:
                _, sound = narration.add_audio(copy, "mp4", audio)
                narration.mux_in_time_order(copy, packets, sound)


def write_preview_gif(
    frames: list[Image.Image], target: Path, count: int = PREVIEW_FRAMES, seconds_per_frame: float = 0.4
) -> None:
    """A small looping GIF for a course page: ``count`` of the render's preview frames, spread over the whole video."""
    if not frames:
        raise RuntimeError("the render kept no preview frames")
    picked = sorted({round(k * (len(frames) - 1) / max(count - 1, 1)) for k in range(count)})
    images = [frames[k].quantize(colors=64) for k in picked]
    images[0].save(target, save_all=True, append_images=images[1:], duration=int(seconds_per_frame * 1000), loop=0, optimize=True)


def write_webm(video: Path, target: Path, audio=None) -> None:
    """Transcode the MP4 to VP9 WebM (with the narration as Opus), fast settings: a second format for browsers that prefer it."""
    # bitexact: Matroska otherwise writes random track identifiers, and no two WebMs would match.
    with av.open(str(video)) as source, av.open(str(target), "w", options={"fflags": "+bitexact"}) as webm:
        original = source.streams.video[0]
        rate = original.guessed_rate or original.base_rate
        stream = webm.add_stream("libvpx-vp9", rate=rate)
        stream.width, stream.height, stream.pix_fmt = original.width, original.height, "yuv420p"
        stream.options = {"deadline": "realtime", "cpu-used": "8", "row-mt": "1", "crf": "33", "b": "0"}
        sound = narration.add_audio(webm, "webm", audio)[1] if audio is not None else None
        pictures = []
        for index, frame in enumerate(source.decode(original)):
            frame.pts, frame.time_base = index, 1 / rate  # frame numbers on the frame-rate grid
            for packet in stream.encode(frame):
                webm.mux(packet) if sound is None else pictures.append(packet)
        for packet in stream.encode():
            webm.mux(packet) if sound is None else pictures.append(packet)
        if sound is not None:
            narration.mux_in_time_order(webm, pictures, sound)
