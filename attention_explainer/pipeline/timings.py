"""How long each render took, so that parallel renders start the longest first."""

from __future__ import annotations

import json
import math

from ..files import write_atomic
from ..options import RenderJob
from .folders import Folders

__all__ = ["render_times", "record_render_time", "longest_first"]


def render_times(folders: Folders) -> dict[str, float]:
    """The recorded seconds of earlier renders, by ``<folder>/<quality>``; empty when there are none or the file is unreadable."""
    try:
        times = json.loads(folders.render_times.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(times, dict):
        return {}
    return {key: float(value) for key, value in times.items() if isinstance(value, (int, float)) and math.isfinite(value)}


def record_render_time(folders: Folders, job: RenderJob, seconds: float) -> None:
    """Remember how long a render job took (by its :attr:`~attention_explainer.options.RenderJob.key`), for :func:`longest_first`."""
    times = render_times(folders)
    times[job.key] = round(seconds, 1)
    write_atomic(folders.render_times, json.dumps(times, indent=1, sort_keys=True))


def longest_first(jobs: list[RenderJob], folders: Folders) -> list[RenderJob]:
    """``jobs`` (render jobs) in the order a parallel render should start them: the longest last render first.

    Renders never timed at their quality come first, in the order given (they may be long). Started
    longest first, the workers finish close together; in teaching order the catalog's longest
    scene, `trained-heads`, came last and rendered alone on 1.4 of the 2 cores (the catalog at
    1080p60 with two jobs: 1,058 s in teaching order, 1,026 s longest first, same videos).
    """
    times = render_times(folders)
    return sorted(jobs, key=lambda job: times.get(job.key, math.inf), reverse=True)
