"""Two fingerprints: what changes a render's frames, and what changes only the files around them.

The *render hash* covers the scene's code and its drawing kit, the maths, the encoder, the
settings, the versions of what draws and encodes (manim, numpy, PyAV, Cairo, Pango, Python) and
the environment the workers get. The *package hash* covers the code and templates that write the
pages, captions, transcript and manifest. Both are recorded in ``manifest.json``: a render whose
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
import scenes
from scenes import SCENES

from ..files import is_inside_path, sha256_of
from ..options import RenderJob
from . import encoder

__all__ = ["Freshness", "render_hash", "package_hash", "versions", "freshness", "read_manifest", "WORKER_ENVIRONMENT"]

APPLICATION = Path(__file__).resolve().parent.parent

WORKER_ENVIRONMENT = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Set in every render worker: numpy's BLAS on one thread, so every sum is taken in one order,
whatever the number of cores (the cores are kept busy by the encoders and the other workers)."""


class Freshness(enum.Enum):
    """What a published render needs."""

    UP_TO_DATE = "up to date"
    REPACKAGE = "repackage"
    RENDER = "render"


def _source_files(name: str) -> list[Path]:
    """The code a render's frames depend on: its scene, the kit and theme, the maths, the encoder and render job."""
    scene_root = Path(scenes.__file__).resolve().parent
    own = Path(inspect.getsourcefile(SCENES[name])).resolve()
    return [
        own,
        *sorted((scene_root / "kit").rglob("*.py")),
        scene_root / "theme.py",
        *sorted(Path(attention_math.__file__).resolve().parent.rglob("*.py")),
        APPLICATION / "pipeline" / "encoder.py",
        APPLICATION / "pipeline" / "render_job.py",
    ]


EXPORTS = {"export.py", "scorm.py", "deck.py", "scorm_player.html"}
"""What ``render.py export`` writes beside a package from it: an edit to these never makes a package stale."""


def _package_files() -> list[Path]:
    """The code and templates the files around the video depend on (the exporters' excepted)."""
    from ..publish.pages import TEMPLATES

    return [
        APPLICATION / "pipeline" / "package.py",
        APPLICATION / "pipeline" / "captions.py",
        *sorted(p for p in (APPLICATION / "publish").glob("*.py") if p.name not in EXPORTS),
        *sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and p.name not in EXPORTS),
    ]


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
        files += [APPLICATION / "pipeline" / name for name in ("narration.py", "spoken.py", "package.py")]
    return _digest(files, settings)


def package_hash(job: RenderJob) -> str:
    """What the pages, captions, transcript and manifest around a render depend on."""
    return _digest(_package_files(), {"scene": job.scene, "inputs": job.inputs})


def read_manifest(folder: Path) -> dict | None:
    """A published render's manifest, or ``None`` when it is missing, unreadable or the wrong shape."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
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


def _intact(folder: Path, entries: list[dict]) -> bool:
    """Every file is there with the bytes the manifest recorded (a same-size corruption included)."""
    for entry in entries:
        path = folder / entry["path"]
        if (
            path.is_symlink()
            or not path.is_file()
            or path.stat().st_size != entry.get("bytes")
            or sha256_of(path) != entry["sha256"]
        ):
            return False
    return True


def freshness(job: RenderJob, folder: Path) -> Freshness:
    """What the render published in ``folder`` needs for ``job``: nothing, new pages, or a new render."""
    manifest = read_manifest(folder)
    if manifest is None or manifest["render_hash"] != render_hash(job):
        return Freshness.RENDER
    if not _intact(folder, [entry for entry in manifest["files"] if entry["part"] == "render"]):
        return Freshness.RENDER
    if manifest["package_hash"] != package_hash(job):
        return Freshness.REPACKAGE
    if not _intact(folder, [entry for entry in manifest["files"] if entry["part"] == "package"]):
        return Freshness.REPACKAGE
    return Freshness.UP_TO_DATE
