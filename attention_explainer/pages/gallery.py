"""The gallery, ``media/index.html``: every published render with its player, files and embed snippet."""

from __future__ import annotations

import logging
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

from attention_style import DARK

from ..files import write_atomic
from ..options import OPTIONS, QUALITIES
from ..package.captions import cues_for
from ..package.manifest import read_manifest
from ..package.sections import SectionsError, read_sections
from .templating import render_page

__all__ = ["write_gallery", "embed_snippet"]

log = logging.getLogger("attention_explainer")

FILE_LINKS = (
    ("present.html", "Present step by step"),
    ("explore.html", "Explore the numbers"),
    ("{scene}.mp4", "MP4"),
    ("{scene}.webm", "WebM"),
    ("captions.vtt", "Captions (VTT)"),
    ("captions.srt", "Captions (SRT)"),
    ("transcript.txt", "Transcript"),
    ("worksheet.html", "Worksheet"),
    ("questions.json", "Questions (JSON)"),
    ("sections.json", "Steps"),
    ("trace.json", "Numbers (trace)"),
    ("manifest.json", "Manifest"),
    ("preview.gif", "Preview GIF"),
    # Written by `render.py export` (a re-render replaces the folder, so they are never stale).
    ("{scene}-scorm.zip", "SCORM 1.2 package (LMS)"),
    ("{scene}.pptx", "Slides (PowerPoint)"),
    ("{scene}-gift.txt", "Questions (Moodle GIFT)"),
)


def embed_snippet(video: str, captions: str, poster: str) -> str:
    """The ``<video>`` element a teacher pastes into a course page, captions on by default."""
    return render_page("embed.html", video=video, captions=captions, poster=poster).strip()


def _sections(package: Path) -> list[dict] | None:
    try:
        return read_sections(package)
    except SectionsError:
        return None


def _render_entry(media_root: Path, package: Path, manifest: dict, sections: list[dict]) -> dict:
    folder = package.relative_to(media_root).as_posix()
    scene = manifest["scene"]
    sources = [(f"{folder}/{scene}.mp4", "video/mp4")]
    if (package / f"{scene}.webm").is_file():
        sources.append((f"{folder}/{scene}.webm", "video/webm"))
    seconds = sum(s["duration"] for s in sections)
    inputs = manifest.get("inputs") if isinstance(manifest.get("inputs"), dict) else {}
    settings = manifest.get("settings") if isinstance(manifest.get("settings"), dict) else {}
    return {
        "anchor": folder.replace("/", "-"),
        "title": manifest["title"],
        "description": manifest.get("description", ""),
        "quality": settings.get("quality", package.name),
        "theme": settings.get("theme", ""),
        "duration": f"{int(seconds // 60)}:{int(seconds % 60):02d}",
        "inputs": [(OPTIONS[key].flag if key in OPTIONS else key, str(value)) for key, value in sorted(inputs.items())],
        "folder": folder,
        # A narrated render is marked with its voice (the manifest records it, with its licence).
        "voice": manifest["voice"].get("name", "") if isinstance(manifest.get("voice"), dict) else "",
        "sources": sources,
        "cues": [asdict(cue) for cue in cues_for(sections)],
        "links": [
            (f"{folder}/{file.format(scene=scene)}", text)
            for file, text in FILE_LINKS
            if (package / file.format(scene=scene)).is_file()
        ],
        "snippet": embed_snippet(f"{folder}/{scene}.mp4", f"{folder}/captions.vtt", f"{folder}/poster.png"),
    }


def write_gallery(media_root: Path | str, scenes: Sequence[str] = ()) -> Path:
    """Write ``media_root/index.html`` listing every published render found under it, in the order of ``scenes``.

    ``scenes`` names the scenes in teaching order (the CLI passes the catalog's); a scene not in it
    comes after them. A render whose manifest or steps cannot be read is left out, with a warning.
    """
    media_root = Path(media_root)
    order = {name: index for index, name in enumerate(scenes)}
    quality_order = {name: index for index, name in enumerate(QUALITIES)}
    entries = []
    for manifest_path in sorted(media_root.glob("*/*/manifest.json")):
        package = manifest_path.parent
        manifest, sections = read_manifest(package), _sections(package)
        if manifest is None or sections is None:
            log.warning("%s: manifest or steps unreadable, left out of the gallery", package)
            continue
        # A scene's own renders first, then its renders with a teacher's settings, each by quality.
        key = (
            order.get(manifest["scene"], len(order)),
            bool(manifest.get("inputs")),
            quality_order.get(package.name, 9),
            str(package),
        )
        entries.append((key, _render_entry(media_root, package, manifest, sections)))
    renders = [entry for _, entry in sorted(entries, key=lambda pair: pair[0])]
    return write_atomic(media_root / "index.html", render_page("gallery.html", renders=renders, theme=DARK))
