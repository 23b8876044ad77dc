"""The package around a render's video, written from its render products alone: captions, pages, questions, manifest.

The *render products* (the video, its WebM, the step clips and ``sections.json``, the poster, the
preview, ``trace.json`` and ``narration.json``) come from drawing frames (see
:mod:`..pipeline.products`). Everything here is written from them and the trace, so a render's
package can be rewritten without drawing a frame. The scene is passed in as its class: the pages
never import a scene or manim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attention_style import PALETTES

from ..options import RenderJob
from ..package import captions
from ..package.manifest import MANIFEST, file_entries
from ..package.questions import QUESTIONS
from ..package.sections import read_sections
from .explorer import write_explorer
from .presenter import write_presenter
from .questions import questions_document
from .templating import about_render
from .worksheet import exercises_for, worksheet_page

__all__ = ["write_package", "read_voice"]


def write_package(
    package: Path,
    job: RenderJob,
    trace: Any,
    render_hash: str,
    package_hash: str,
    *,
    scene_class: type,
    versions: dict[str, str],
) -> None:
    """Write the captions, transcript, presenter, worksheet, explorer, questions and manifest from the render products in ``package``.

    ``scene_class`` is the job's scene (its title, description and sources); ``versions`` are what
    drew and encoded the frames, recorded in the manifest.
    """
    sections = read_sections(package)
    cues = captions.cues_for(sections)
    (package / "captions.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
    (package / "captions.srt").write_text(captions.to_srt(cues), encoding="utf-8")
    about = about_render(scene_class, trace)
    voice = read_voice(package)
    # The voice is credited once, after the text it read: a viewer reads the lesson first, not how it was made.
    credit = f"The narration is a synthetic voice, Piper's “{voice['name']}”." if voice is not None else ""
    (package / "transcript.txt").write_text(captions.to_transcript(scene_class.title, sections, about, credit), encoding="utf-8")
    palette = PALETTES[job.theme]
    # The questions of this render's own trace, each at the end of one of its steps (checked against sections.json).
    questions = questions_document(job.scene, scene_class.title, trace, [step["name"] for step in sections])
    if questions["questions"]:
        (package / QUESTIONS).write_text(json.dumps(questions, indent=1, ensure_ascii=False), encoding="utf-8")
    write_presenter(
        package, scene_class.title, sections, about, narrated=voice is not None, theme=palette, questions=questions["questions"]
    )
    if exercises_for(trace):
        (package / "worksheet.html").write_text(worksheet_page(scene_class, trace), encoding="utf-8")
    write_explorer(package, job.scene, scene_class.title, about, palette)

    manifest = {
        "scene": job.scene,
        "title": scene_class.title,
        "description": about,
        "rendered_with": dict(scene_class.inputs_as_rendered(trace)),
        "sources": scene_class.sources,
        "inputs": job.inputs,
        "settings": {"quality": job.quality, "theme": job.theme, "format": job.video_format, **trace.settings},
        "versions": versions,
        **({"voice": {key: value for key, value in voice.items() if key != "lines"}} if voice is not None else {}),
        "render_hash": render_hash,
        "package_hash": package_hash,
        "files": file_entries(package, job.scene),
    }
    (package / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")


def read_voice(package: Path) -> dict | None:
    """A narrated render's ``narration.json`` (the voice, its licence, the engine, the loudness), or ``None``."""
    try:
        record = json.loads((package / "narration.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("name"), str) else None
