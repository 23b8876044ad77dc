"""A published render made without drawing, for the hardening tests (issue 34): exports and folder checks in seconds.

Not a test module: test modules import from here. The render is one the pipeline takes as up to
date (its hashes are the pipeline's own for the job), with a small H.264 video and one step.
"""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
from PIL import Image

from attention_explainer.files import sha256_of
from attention_explainer.options import RenderJob
from attention_explainer.pipeline.freshness import package_hash, render_hash

SCENE = "softmax"


def write_clip(path: Path, frames: int = 6) -> None:
    """A tiny H.264 clip."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=10)
        stream.width, stream.height, stream.pix_fmt = 64, 36, "yuv420p"
        for index in range(frames):
            pixels = np.full((36, 64, 3), (20 * index, 90, 90), dtype=np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())


def fake_render(media: Path, cache: Path, description: str = "A small render.", quality: str = "low") -> Path:
    """Publish a render of :data:`SCENE` at ``quality`` in ``media`` that the pipeline finds up to date; return its folder."""
    job = RenderJob(SCENE, {}, quality, "dark", "mp4", media, cache, "none")
    folder = media / SCENE / quality
    folder.mkdir(parents=True)
    write_clip(folder / f"{SCENE}.mp4")
    write_clip(folder / "sections" / "01-the-step.mp4")
    Image.new("RGB", (64, 36), (10, 20, 30)).save(folder / "poster.png")
    (folder / "captions.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:00.600\nA step.\n", encoding="utf-8")
    (folder / "transcript.txt").write_text("A step.\n", encoding="utf-8")
    step = {"index": 1, "name": "the-step", "title": "The step", "caption": "A step.", "start": 0.0, "duration": 0.6}
    step |= {"lines": [{"text": "A step.", "spoken": "A step.", "start": 0.0, "end": 0.6}], "file": "sections/01-the-step.mp4"}
    (folder / "sections.json").write_text(json.dumps([step]), encoding="utf-8")
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    manifest = {
        "scene": SCENE,
        "title": "Softmax",
        "description": description,
        "inputs": {},
        "settings": {"quality": quality, "theme": "dark", "format": "mp4"},
        "render_hash": render_hash(job),
        "package_hash": package_hash(job),
        "files": [
            {
                "path": p.relative_to(folder).as_posix(),
                "bytes": p.stat().st_size,
                "sha256": sha256_of(p),
                "part": "package" if p.suffix in (".vtt", ".txt") else "render",
            }
            for p in files
        ],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder
