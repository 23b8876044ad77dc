"""One render, from a :class:`RenderJob` to a published folder: drawn in staging, published whole or not at all.

:func:`render_scene` draws the scene with manim in a staging folder, writes the render products
and the package there, and only then swaps the finished folder into
``media/<scene>/<quality>/`` (``media/<scene>--<tag>/<quality>/`` with a teacher's own
settings). :func:`repackage` rewrites the package of a published render without drawing. An
interrupted or failed render leaves the previous files untouched and no stray files behind.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path
from xml.etree import ElementTree

from manim import tempconfig
from manim.renderer.cairo_renderer import CairoRenderer

from scenes import SCENES, build_trace
from scenes.theme import THEMES

from ..options import QUALITIES, RenderJob
from ..package.manifest import read_manifest
from ..pages.write import write_package
from . import encoder
from .folders import Folders
from .freshness import package_hash, render_hash, versions
from .products import write_render_products
from .results import RenderResult, published_result
from .spoken import spoken_form
from .staging import link_or_copy, publish, staging_folder

__all__ = ["RenderResult", "MissingTool", "check_tools", "render_scene", "repackage", "published_result"]

log = logging.getLogger("attention_explainer")

SETUP_HINT = "run `make setup` (it installs texlive-latex-base, texlive-latex-extra, texlive-fonts-recommended and dvisvgm)"


class MissingTool(RuntimeError):
    """A system tool the render needs is not installed."""


def check_tools() -> None:
    """Fail early, with the fix, when LaTeX or dvisvgm (needed for formulas) is missing."""
    missing = [tool for tool in ("latex", "dvisvgm") if shutil.which(tool) is None]
    if missing:
        raise MissingTool(f"{' and '.join(missing)} not found: formulas need LaTeX and dvisvgm; {SETUP_HINT}.")


def render_scene(job: RenderJob) -> RenderResult:
    """Draw ``job``'s scene, package it and publish it; return where it went."""
    scene_class = SCENES[job.scene]
    folders = Folders(Path(job.media_dir), Path(job.cache_dir))
    started = time.monotonic()
    with staging_folder(folders, job.stem) as staging:
        manim_dir, cache = staging / "manim", staging / "cache"
        # Each render typesets into a private copy of the shared LaTeX/Pango cache: a formula is
        # typeset once across renders, yet no two processes ever share manim's Tex/ folder
        # (manim's cleanup deletes files another process is still using). Files only ever join
        # the shared cache by rename, so a copy never sees half a file.
        if folders.tex_cache.is_dir():
            for damaged in drop_damaged_entries(folders.tex_cache):
                log.warning("%s was damaged; it is typeset again", damaged.name)
            shutil.copytree(folders.tex_cache, cache, ignore=shutil.ignore_patterns(".*"))
        settings = {
            "media_dir": str(manim_dir),
            "video_dir": str(manim_dir / "video"),
            "tex_dir": str(cache / "Tex"),
            "text_dir": str(cache / "texts"),
            "output_file": job.scene,
            "quality": QUALITIES[job.quality],
            "format": "mp4",
            "save_sections": True,
            # Manim's partial-movie cache hashes every play call (about 40% of render time) for
            # reuse within one media folder; each render stages in a fresh folder, so it never hits.
            "disable_caching": True,
            # Manim's default (1) finishes encoding each animation's movie before the next
            # animation is drawn; more lets the encoder run while the next frames are drawn.
            "max_inflight_encoders": encoder.MAX_INFLIGHT_ENCODERS,
            "video_encoder_options": encoder.encoder_options(),
            "progress_bar": "none",
            "verbosity": "WARNING",
        }
        with tempconfig(settings):
            renderer = CairoRenderer(file_writer_class=encoder.PackagingWriter)
            narrator = narrator_for(job)
            scene = scene_class(
                trace=build_trace(job.scene, job.inputs, job.cache_dir),
                theme=THEMES[job.theme],
                renderer=renderer,
                **({"voice": narrator, "speak": spoken_form} if narrator else {}),
            )
            renderer.file_writer.poster_section = scene.poster_step
            scene.render()
        log.info("frames drawn; packaging")
        audio = narrate(scene, narrator) if narrator else None
        merge_cache(cache, folders.tex_cache)
        package = staging / "package"
        write_render_products(
            scene, renderer.file_writer, manim_dir / "video", package, webm=job.video_format in ("webm", "both"), audio=audio
        )
        write_package(
            package, job, scene.trace, render_hash(job), package_hash(job), scene_class=scene_class, versions=versions()
        )
        publish(package, folders.published(job.scene, job.variant, job.quality), staging)
    return published_result(job, time.monotonic() - started)


def narrator_for(job: RenderJob):
    """The :class:`~.narration.Narrator` of a narrated job (``None`` when silent), its cache in the cache folder."""
    if job.voice == "none":
        return None
    from .narration import Narrator, resolve_voice

    return Narrator(resolve_voice(job.voice), Path(job.cache_dir))


def narrate(scene, narrator):
    """The scene's mastered narration track and what it records (the voice, the loudness, the lines synthesised)."""
    from .narration import measure, narration_track

    seconds = scene.renderer.file_writer.frames_written / scene.camera.frame_rate
    lines = [(line.start, line.spoken) for step in scene.steps for line in step.lines]
    log.info("narration: %d lines, %d synthesised; mastering the track", len(lines), narrator.synthesised)
    # The step clips are encoded one by one: their peaks are checked too.
    track = narration_track(lines, narrator, seconds, [(step.start, step.duration) for step in scene.steps])
    level = measure(track)
    record = {
        **narrator.voice.describe(),
        "integrated_lufs": round(level.integrated, 2),
        "true_peak_dbtp": round(level.true_peak, 2),
    }
    return track, record


def repackage(job: RenderJob) -> RenderResult:
    """Rewrite the pages, captions and manifest of ``job``'s published render from its render products, without drawing.

    The render products are hard-linked into the new package (published files are never changed
    in place), the package is written around them, and the folder is swapped in whole.
    """
    folders = Folders(Path(job.media_dir), Path(job.cache_dir))
    final = folders.published(job.scene, job.variant, job.quality)
    manifest = read_manifest(final)
    if manifest is None:
        raise RuntimeError(f"{final}: no readable manifest to repackage from")
    started = time.monotonic()
    scene_class = SCENES[job.scene]
    with staging_folder(folders, job.stem) as staging:
        package = staging / "package"
        package.mkdir()
        for entry in manifest["files"]:
            if entry["part"] == "render":
                link_or_copy(final / entry["path"], package / entry["path"])
        trace = build_trace(job.scene, job.inputs, job.cache_dir)
        write_package(
            package, job, trace, manifest["render_hash"], package_hash(job), scene_class=scene_class, versions=versions()
        )
        publish(package, final, staging)
    return published_result(job, time.monotonic() - started)


def drop_damaged_entries(cache: Path) -> list[Path]:
    """Remove the entries of the LaTeX and text cache that cannot be read back, so they are made again.

    manim reuses a cached SVG (or DVI) whenever its file exists: a truncated or garbled one
    failed every later render with a ParseError. An SVG must parse as XML with an ``svg`` root;
    a DVI must start with its preamble (opcode 247, format 2).
    """
    damaged = []
    for path in sorted(cache.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        try:
            if path.suffix == ".svg":
                ok = ElementTree.parse(path).getroot().tag.rsplit("}", 1)[-1] == "svg"
            elif path.suffix == ".dvi":
                ok = path.read_bytes()[:2] == b"\xf7\x02"
            else:
                continue
        except (ElementTree.ParseError, OSError):
            ok = False
        if not ok:
            path.unlink(missing_ok=True)
            damaged.append(path)
    return damaged


def merge_cache(private: Path, shared: Path) -> None:
    """Add the files a render typeset to the shared cache, each by an atomic rename."""
    for path in private.rglob("*"):
        target = shared / path.relative_to(private)
        if path.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}")
            shutil.copy2(path, temporary)
            os.replace(temporary, target)
