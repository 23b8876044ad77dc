"""What a finished render is (:class:`RenderResult`) and where a job's render is published.

Kept apart from :mod:`.render_job` (which imports manim and the scenes) so that a worker process, and the
parent reading its outcome, know a result without importing what draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..options import RenderJob
from .folders import Folders

__all__ = ["RenderResult", "published_result"]


@dataclass(frozen=True)
class RenderResult:
    """Where a finished render went, and how long it took."""

    scene: str
    quality: str
    folder: Path
    video: Path
    seconds: float


def published_result(job: RenderJob, seconds: float = 0.0) -> RenderResult:
    """The :class:`RenderResult` of ``job``'s published folder."""
    folder = Folders(job.media_dir, job.cache_dir).published(job.scene, job.variant, job.quality)
    return RenderResult(job.scene, job.quality, folder, folder / f"{job.scene}.mp4", seconds)
