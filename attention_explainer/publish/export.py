"""Exports of a published render for a course: a SCORM 1.2 zip for an LMS, a PowerPoint deck for class.

Both are built from the render's package alone, read back and checked against its manifest
first, and written beside it in one rename (``media/scaling/high/scaling-scorm.zip``,
``scaling.pptx``). A re-render replaces the whole folder, so an export never outlives its render.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..files import FILE_MODE, sha256_of, writing_atomic
from ..pipeline.freshness import read_manifest

__all__ = ["Package", "read_package", "export_package", "export_all", "export_name", "EXPORT_KINDS"]

EXPORT_KINDS = ("scorm", "pptx")

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
    for linked in (folder, folder.parent):
        if linked.is_symlink():  # an export is written into the render's own folder, never through a link
            raise ValueError(
                f"{linked} is a symbolic link: exports are never written through one (render into a folder of its own)"
            )
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
    target = folder / export_name(package.scene, kind)
    with writing_atomic(target) as temporary:
        _builder(kind)(package, temporary)
    return target


def _builder(kind: str):
    # Only the builder asked for is imported: python-pptx and lxml load for a deck alone.
    if kind == "pptx":
        from .deck import write_deck

        return write_deck
    from .scorm import write_scorm

    return write_scorm


def stale_temporaries(folder: Path, scene: str) -> list[Path]:
    """The temporary files an export killed outright (SIGKILL) left in ``folder``: ``.scaling.pptx.XXXX.tmp``."""
    return sorted(
        path
        for kind in EXPORT_KINDS
        for path in folder.glob(f".{export_name(scene, kind)}.*.tmp")
        if path.is_file() and not path.is_symlink()
    )


def export_all(requests: list[tuple[Path, tuple[str, ...]]]) -> list[Path]:
    """Write every export ``requests`` asks for (a render's folder and its kinds), all of them or none; return their paths.

    Each export is built in a temporary file beside its target; only when every one of them is
    built are they renamed into place, so a failure (a deck that cannot be written, a full disk,
    Ctrl-C) leaves every render's folder as it was, with no temporary file. The temporary files a
    killed export left are removed first: the caller holds the render's lock, so no other export
    is writing there. A write error names the file it was writing.
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for folder, kinds in requests:
            package = read_package(folder)
            for leftover in stale_temporaries(folder, package.scene):
                leftover.unlink(missing_ok=True)
            for kind in dict.fromkeys(kinds):
                target = folder / export_name(package.scene, kind)
                handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
                os.close(handle)
                staged.append((Path(name), target))
                try:
                    _builder(kind)(package, Path(name))
                    os.chmod(name, FILE_MODE)
                except OSError as error:
                    raise OSError(error.errno, error.strerror or str(error), str(target)) from None
        # Every export is built: the renames cannot be cut by Ctrl-C or SIGTERM halfway.
        held = {signal.SIGINT, signal.SIGTERM}
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            for temporary, target in staged:
                os.replace(temporary, target)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
    return [target for _, target in staged]
