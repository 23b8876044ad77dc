"""``manifest.json``: what a package holds, each file's size and sha256, and which part made it.

A file is part of the *render* (drawn frames: the videos, the step clips, the poster...) or of the
*package* (written from the render's files alone: captions, pages, the manifest's neighbours). The
freshness triage, the cluster's client and the exports all read a manifest with :func:`read_manifest`
and check files with :func:`damaged_files`.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..files import is_inside_path, sha256_of

__all__ = ["MANIFEST", "RENDER_PRODUCTS", "is_render_product", "read_manifest", "damaged_files", "unlisted_files", "file_entries"]

MANIFEST = "manifest.json"

RENDER_PRODUCTS = (
    "{scene}.mp4",
    "{scene}.webm",
    "sections.json",
    "sections/",
    "poster.png",
    "preview.gif",
    "trace.json",
    "narration.json",
)
"""The files a render draws; everything else in a package is written from them."""


def is_render_product(relative: str, scene: str) -> bool:
    """Whether a package's file (a path relative to it) comes from drawing frames."""
    return any(
        relative.startswith(pattern) if pattern.endswith("/") else relative == pattern.format(scene=scene)
        for pattern in RENDER_PRODUCTS
    )


def read_manifest(folder: Path) -> dict | None:
    """A published render's manifest, or ``None`` when it is missing, unreadable or the wrong shape."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), list):
        return None
    for entry in manifest["files"]:
        if not isinstance(entry, dict) or not all(isinstance(entry.get(key), str) for key in ("path", "sha256", "part")):
            return None
        if not is_inside_path(entry["path"]):
            # A "../" or absolute path: a manifest from someone else must not make a render touch files outside its folder.
            return None
    if not all(isinstance(manifest.get(key), str) for key in ("scene", "title", "render_hash", "package_hash")):
        return None
    return manifest


def _through_link(folder: Path, relative: str) -> bool:
    """Whether ``relative`` (inside ``folder``) is a symbolic link or lies in one (``sections/`` linked elsewhere).

    A reader following it would read outside the package; a media folder from someone else can hold such links.
    """
    parts = relative.split("/")
    return any((folder.joinpath(*parts[: depth + 1])).is_symlink() for depth in range(len(parts)))


def damaged_files(folder: Path, entries: list[dict]) -> list[str]:
    """The entries' paths whose file is not there with the bytes the manifest recorded (a same-size corruption included)."""
    damaged = []
    for entry in entries:
        path = folder / entry["path"]
        if (
            _through_link(folder, entry["path"])
            or not path.is_file()
            or path.stat().st_size != entry.get("bytes")
            or sha256_of(path) != entry["sha256"]
        ):
            damaged.append(entry["path"])
    return damaged


def unlisted_files(folder: Path, manifest: dict) -> list[str]:
    """The files missing from ``folder`` or from its manifest: listed but absent, or present but not listed."""
    listed = {entry["path"] for entry in manifest["files"]}
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST}
    return sorted(listed ^ present)


def file_entries(package: Path, scene: str) -> list[dict]:
    """The manifest's ``files``: every file of ``package`` but the manifest, with its size, sha256 and part."""
    files = sorted(p for p in package.rglob("*") if p.is_file() and p.name != MANIFEST)
    return [
        {
            "path": relative,
            "bytes": p.stat().st_size,
            "sha256": sha256_of(p),
            "part": "render" if is_render_product(relative, scene) else "package",
        }
        for p in files
        for relative in [p.relative_to(package).as_posix()]
    ]
