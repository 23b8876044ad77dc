"""Two fingerprints: what changes a render's frames, and what changes only the files around them.

The *render hash* covers the scene's code and its drawing kit, the theme and :mod:`attention_style`,
the maths, the encoder and what collects the render products, the settings, the versions of what
draws and encodes (manim, numpy, PyAV, Cairo, Pango, Python) and the environment the workers get.
The *package hash* covers two folders whole: :mod:`..pages` (the code, templates and field
descriptions that write the pages, captions, transcript and manifest) and :mod:`..package` (the
format they write). The exports are another folder: an edit there never makes a package stale. Both are recorded in ``manifest.json``: a render whose
render hash still matches but whose package hash does not is repackaged in seconds, without
drawing a frame.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
import json
import sys
from pathlib import Path

import av
import cairo
import manim
import manimpango
import numpy as np

import attention_math
import attention_style
import scenes
from scenes import SCENES

from ..options import RenderJob
from ..package.manifest import damaged_files, read_manifest
from ..package.sections import SectionsError, read_sections
from . import encoder
from .processes import WORKER_ENVIRONMENT

__all__ = ["Freshness", "render_hash", "package_hash", "versions", "freshness", "WORKER_ENVIRONMENT"]

APPLICATION = Path(__file__).resolve().parent.parent


class Freshness(enum.Enum):
    """What a published render needs."""

    UP_TO_DATE = "up to date"
    REPACKAGE = "repackage"
    RENDER = "render"


def _source_files(name: str) -> list[Path]:
    """The code a render's frames depend on: its scene, the kit and theme, the colours, the maths, the encoder, render job and products."""
    scene_root = Path(scenes.__file__).resolve().parent
    own = Path(inspect.getsourcefile(SCENES[name])).resolve()
    return [
        own,
        *sorted((scene_root / "kit").rglob("*.py")),
        scene_root / "theme.py",
        *_python_files(Path(attention_style.__file__).resolve().parent),
        *_python_files(Path(attention_math.__file__).resolve().parent),
        APPLICATION / "pipeline" / "encoder.py",
        APPLICATION / "pipeline" / "render_job.py",
        APPLICATION / "pipeline" / "products.py",
    ]


def _python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def _folder_files(folder: Path, leave_out: Path | None = None) -> list[Path]:
    """Every file under ``folder`` (compiled caches and ``leave_out`` left out), in a fixed order."""
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and not path.name.startswith(".")
        and (leave_out is None or not path.is_relative_to(leave_out))
    )


GALLERY_FILES = ("gallery.py", "gallery.html")
"""The gallery's code and template: ``media/index.html`` is written beside the renders, never inside one."""


def _package_files() -> list[Path]:
    """The code, data and templates the files around the video depend on: the pages' and the package format's folders.

    The gallery's files are left out (:data:`GALLERY_FILES`): an edit to the gallery changes no package.
    The templates are read where :data:`..pages.templating.TEMPLATES` points (a test points it at an edited copy).
    """
    from ..pages import templating

    pages = Path(templating.__file__).resolve().parent
    files = [
        *_folder_files(pages, leave_out=pages / "templates"),
        *_folder_files(APPLICATION / "package"),
        *_folder_files(Path(templating.TEMPLATES)),
    ]
    return [path for path in files if path.name not in GALLERY_FILES]


def _digest(files: list[Path], settings: dict) -> str:
    digest = hashlib.sha256()
    root = APPLICATION.parent
    for path in files:
        # Named by their place in the project, so a copy of the project elsewhere hashes the same.
        label = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(json.dumps(settings, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


def versions() -> dict[str, str]:
    """The versions of what draws and encodes a render."""
    return {
        "attention_explainer": attention_math.__version__,
        "manim": manim.__version__,
        "numpy": np.__version__,
        "av": av.__version__,
        "ffmpeg": ".".join(str(part) for part in av.library_versions.get("libavcodec", ())),
        "cairo": cairo.cairo_version_string(),
        "pango": manimpango.pango_version(),
        "python": sys.version.split()[0],
    }


def render_hash(job: RenderJob) -> str:
    """What a render's frames depend on (see the module's docstring)."""
    settings = {
        "scene": job.scene,
        "quality": job.quality,
        "theme": job.theme,
        "format": job.video_format,
        "inputs": job.inputs,
        "versions": versions(),
        "environment": WORKER_ENVIRONMENT,
        "encoder": encoder.encoder_options(),
    }
    files = _source_files(job.scene)
    if job.voice != "none":
        # What is said and how it sounds: the voice file, the engine, its settings and the code around them.
        from .narration import resolve_voice

        settings["voice"] = resolve_voice(job.voice).describe()
        files += [APPLICATION / "pipeline" / name for name in ("narration.py", "spoken.py")] + [APPLICATION / "voices.py"]
    return _digest(files, settings)


def package_hash(job: RenderJob) -> str:
    """What the pages, captions, transcript and manifest around a render depend on."""
    return _digest(_package_files(), {"scene": job.scene, "inputs": job.inputs})


def freshness(job: RenderJob, folder: Path) -> Freshness:
    """What the render published in ``folder`` needs for ``job``: nothing, new pages, or a new render."""
    manifest = read_manifest(folder)
    if manifest is None or manifest["render_hash"] != render_hash(job):
        return Freshness.RENDER
    if damaged_files(folder, [entry for entry in manifest["files"] if entry["part"] == "render"]):
        return Freshness.RENDER
    try:
        # Steps in an older format (before titles) are render products every page is written from: draw them again.
        read_sections(folder, complete=True)
    except SectionsError:
        return Freshness.RENDER
    if manifest["package_hash"] != package_hash(job):
        return Freshness.REPACKAGE
    if damaged_files(folder, [entry for entry in manifest["files"] if entry["part"] == "package"]):
        return Freshness.REPACKAGE
    return Freshness.UP_TO_DATE
