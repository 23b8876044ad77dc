"""Write an export of a published render beside it, in one rename."""

from __future__ import annotations

from pathlib import Path

from ..files import writing_atomic
from ..package.reader import read_package

__all__ = ["export_package", "export_name", "EXPORT_FORMATS"]

EXPORT_FORMATS = ("scorm", "pptx")
"""What ``export --to`` makes: a SCORM 1.2 zip for an LMS, or a PowerPoint deck."""


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
