"""Renders in fresh worker processes, ``jobs`` at a time, with their progress on the terminal.

A fresh interpreter per render (spawned, one task per process) makes a render depend on nothing
but its scene and settings: ``--jobs 1`` and ``--jobs N`` give identical bytes, whatever the
calling process did before.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import click

from ..files import write_atomic
from ..options import RenderJob
from .folders import Folders
from .freshness import WORKER_ENVIRONMENT
from .render_job import RenderResult, render_scene
from .timings import longest_first, record_render_time

__all__ = ["render_in_worker", "render_all", "Outcome", "WORKER"]


class QueueProgress(logging.Handler):
    """In a worker: sends the render's progress lines to the parent process."""

    def __init__(self, scene: str, events):
        super().__init__()
        self.scene, self.events = scene, events

    def emit(self, record: logging.LogRecord) -> None:
        self.events.put(f"    {self.scene}: {record.getMessage()}")


def render_in_worker(job: RenderJob, events):
    """Run in a fresh worker process: the result, or the error and its traceback as text."""
    logger = logging.getLogger("attention_explainer")
    logger.setLevel(logging.INFO)
    logger.addHandler(QueueProgress(job.scene, events))
    events.put(f"{job.label}: started")
    try:
        return render_scene(job), None, None
    except Exception as error:  # reported by the parent; the other renders go on
        return None, f"{type(error).__name__}: {error}", traceback.format_exc()


WORKER: Callable = render_in_worker
"""The function each worker process runs; tests put a stand-in here."""


@contextmanager
def worker_environment():
    """:data:`WORKER_ENVIRONMENT` set while workers are spawned (each starts with this process's), then restored."""
    saved = {key: os.environ.get(key) for key in WORKER_ENVIRONMENT}
    os.environ.update(WORKER_ENVIRONMENT)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass
class Outcome:
    """What a batch of renders gave: the finished ones by scene, and the names that failed."""

    finished: dict[str, RenderResult] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)


def render_all(jobs: list[RenderJob], processes: int) -> Outcome:
    """Render each job in a fresh process, ``processes`` at a time.

    With more than one process, the renders start longest first (by their last render's time),
    so the workers finish together instead of one long scene rendering alone at the end.
    """
    outcome = Outcome()
    if not jobs:
        return outcome
    folders = Folders(jobs[0].media_dir, jobs[0].cache_dir)
    by_name = {job.scene: job for job in jobs}
    quality = jobs[0].quality
    if processes > 1:
        order = longest_first(list(by_name), folders, quality, {name: job.inputs for name, job in by_name.items()})
        jobs = [by_name[name] for name in order]
    context = multiprocessing.get_context("spawn")
    # Workers are spawned all through the pool's life (one task each), so the environment stays set until it ends.
    with worker_environment(), context.Manager() as manager:
        events = manager.Queue()
        printer = threading.Thread(target=_echo_events, args=(events,), daemon=True)
        printer.start()
        with concurrent.futures.ProcessPoolExecutor(max_workers=processes, mp_context=context, max_tasks_per_child=1) as pool:
            futures = {pool.submit(WORKER, job, events): job for job in jobs}
            click.echo(f"Rendering {len(jobs)} scene(s), {processes} at a time: {', '.join(j.scene for j in jobs)}", err=True)
            try:
                for future in concurrent.futures.as_completed(futures):
                    _report(futures[future], future, folders, outcome)
            except KeyboardInterrupt:
                pool.shutdown(wait=True, cancel_futures=True)  # workers clean their staging folders
                raise
        events.put(None)
        printer.join(timeout=5)
    return outcome


def _report(job: RenderJob, future, folders: Folders, outcome: Outcome) -> None:
    try:
        result, error, details = future.result()
    except concurrent.futures.process.BrokenProcessPool as broken:
        result, error, details = None, f"the worker process died ({broken})", traceback.format_exc()
    if result is not None:
        outcome.finished[job.scene] = result
        record_render_time(folders, job.scene, job.quality, job.inputs, result.seconds)
        click.echo(f"{job.label}: done in {result.seconds:.1f} s ({len(outcome.finished)} finished)", err=True)
    else:
        log_file = write_error_log(folders, f"{job.folder}-{job.quality}", details)
        click.echo(f"{job.label}: FAILED: {error} (details in {log_file})", err=True)
        outcome.failed.append(job.scene)


def _echo_events(events) -> None:
    """Print workers' progress lines as they come, until the ``None`` that ends them."""
    while (line := events.get()) is not None:
        click.echo(line, err=True)


def write_error_log(folders: Folders, name: str, details: str) -> Path:
    """Keep the full traceback of a failed render in the cache's logs instead of on the terminal."""
    return write_atomic(folders.logs / f"{name}.log", details)
