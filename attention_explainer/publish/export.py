"""Exports of a published render for a course: a SCORM 1.2 zip for an LMS, a PowerPoint deck for class.

Both are built from the render's package alone, read back and checked against its manifest
first, and written beside it in one rename (``media/scaling/high/scaling-scorm.zip``,
``scaling.pptx``). A re-render replaces the whole folder, so an export never outlives its render.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..files import sha256_of, writing_atomic
from ..pipeline.freshness import read_manifest

__all__ = ["Package", "read_package", "export_package", "export_name"]

STEP_KEYS = {
    "index": int,
    "name": str,
    "caption": str,
    "lines": list,
    "start": (int, float),
    "duration": (int, float),
    "file": str,
}


@dataclass(frozen=True)
class Package:
    """A published render, read back and checked: what an export needs to know of it."""

    folder: Path
    scene: str
    title: str
    description: str
    steps: list[dict]
    """sections.json: each step's index, name, caption, lines (text, spoken, start, end), start, duration and clip file."""
    narrated: bool
    theme: str = "dark"
    """The render's colours (its ``--theme``), for a deck that matches its movies."""

    @property
    def video(self) -> Path:
        return self.folder / f"{self.scene}.mp4"

    @property
    def captions(self) -> Path:
        return self.folder / "captions.vtt"

    @property
    def poster(self) -> Path:
        return self.folder / "poster.png"

    def clip(self, step: dict) -> Path:
        """A step's own clip (``sections/NN-name.mp4``)."""
        return self.folder / step["file"]


def read_package(folder: Path) -> Package:
    """Read the render published in ``folder``, every file checked against its manifest's SHA-256.

    Raises ``ValueError`` saying what is wrong: no manifest, a file missing or changed, steps
    that are not what a render writes.
    """
    manifest = read_manifest(folder)
    if manifest is None:
        raise ValueError(f"{folder} holds no readable manifest.json (render it again)")
    for entry in manifest["files"]:
        path = folder / entry["path"]
        if path.is_symlink() or not path.is_file() or sha256_of(path) != entry["sha256"]:
            raise ValueError(f"{path} is missing or not what its render wrote (render it again with --force)")
    try:
        steps = json.loads((folder / "sections.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{folder / 'sections.json'} cannot be read: {error}") from None
    if (
        not isinstance(steps, list)
        or not steps
        or not all(isinstance(step, dict) and all(isinstance(step.get(k), t) for k, t in STEP_KEYS.items()) for step in steps)
    ):
        raise ValueError(f"{folder / 'sections.json'} is not a list of steps")
    scene = manifest["scene"]
    listed = {entry["path"] for entry in manifest["files"]}
    for needed in (f"{scene}.mp4", "captions.vtt", "poster.png", *(step["file"] for step in steps)):
        if needed not in listed:
            raise ValueError(f"{folder} has no {needed}")
    return Package(
        folder=folder,
        scene=scene,
        title=manifest["title"],
        description=str(manifest.get("description", "")),
        steps=steps,
        narrated=isinstance(manifest.get("voice"), dict),
        theme=str((manifest.get("settings") or {}).get("theme", "dark")),
    )


def export_name(scene: str, kind: str) -> str:
    """The export's file name in its render's folder: ``scaling-scorm.zip`` or ``scaling.pptx``."""
    return {"scorm": f"{scene}-scorm.zip", "pptx": f"{scene}.pptx"}[kind]


def export_package(folder: Path, kind: str) -> Path:
    """Write the ``kind`` export (``scorm`` or ``pptx``) of the render in ``folder`` beside it; return its path."""
    package = read_package(folder)
    # Only the builder asked for is imported: python-pptx and lxml load for a deck alone.
    if kind == "pptx":
        from .deck import write_deck as build
    else:
        from .scorm import write_scorm as build
    target = folder / export_name(package.scene, kind)
    with writing_atomic(target) as temporary:
        build(package, temporary)
    return target
