"""A published render read back whole and checked: what an export is built from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .manifest import damaged_files, read_manifest
from .sections import SectionsError, read_sections

__all__ = ["Package", "read_package"]


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
    """Read the render published in ``folder``, every file checked against its manifest's size and SHA-256.

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
    damaged = damaged_files(folder, manifest["files"])
    if damaged:
        raise ValueError(f"{folder / damaged[0]} is missing or not what its render wrote (render it again with --force)")
    try:
        steps = read_sections(folder, complete=True)
    except SectionsError as error:
        raise ValueError(f"{folder / 'sections.json'} is not a list of steps: {error}") from None
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
