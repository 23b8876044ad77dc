"""Renders in fresh worker processes, ``jobs`` at a time, with their progress on the terminal.

A fresh interpreter per render (spawned, one task per process) makes a render depend on nothing
but its scene and settings: ``--jobs 1`` and ``--jobs N`` give identical bytes, whatever the
calling process did before.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import click

from ..files import write_atomic
from ..options import RenderJob
from . import staging
from .folders import Folders
from .processes import WORKER_ENVIRONMENT, stop_on_signals
from .results import RenderResult
from .staging import recover_staging
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
        # Imported here, not with this module: a worker (or a stand-in for one) starts without manim and
        # the scenes, and imports them only to draw.
        from .render_job import render_scene

        return render_scene(job), None, None
    except Exception as error:  # reported by the parent; the other renders go on
        return None, disk_full(job, error) or f"{type(error).__name__}: {error}", traceback.format_exc()


FULL_BELOW = 1 << 20
"""Free bytes under which a folder's disk counts as full (a tool's last write may have left a few)."""


def disk_full(job: RenderJob, error: BaseException) -> str | None:
    """A render's error when its disk is full, named as such: ``disk full: PATH has no space left``; else ``None``.

    A full disk shows up as whatever first reads a truncated file: manim's parse of an SVG that
    dvisvgm could not finish ("ParseError: unclosed token"), an encoder's error. The space left
    where the render writes (the cache, where it stages, and the media folder) tells.
    """
    import errno

    # The encoder wraps its write error ("Failed to finish video segment ...") in one of its own: follow the causes.
    seen, cause = set(), error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC and cause.filename:
            return f"disk full: no space left to write {cause.filename}"
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    for folder in (Path(job.cache_dir), Path(job.media_dir)):
        try:
            status = os.statvfs(folder)
        except OSError:
            continue
        if status.f_bavail * status.f_frsize < FULL_BELOW:
            return f"disk full: {folder} has no space left (the render stopped at {type(error).__name__}: {error})"
    return None


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
    """What a batch of renders gave: the finished ones by scene, and the names that failed.

    ``by_job`` and ``failed_jobs`` hold the same by :attr:`~..options.RenderJob.key`, for runs with several variants of one scene.
    """

    finished: dict[str, RenderResult] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    by_job: dict[str, RenderResult] = field(default_factory=dict)
    failed_jobs: list[str] = field(default_factory=list)


def _run(worker: Callable, job: RenderJob, events, parent: int | None = None) -> None:
    """The body of a worker process: run ``worker`` and send its outcome to the parent (process ``parent``).

    A spawned worker imports this module before it gets here, a moment in which its parent may die
    unseen: the parent-death signal is armed only now. So once it is armed, a parent that is no
    longer this process's parent is gone, and the worker ends without rendering; and it publishes
    only while that parent lives (the parent holds the render's lock). Manim and the scenes are
    imported later, by :func:`render_in_worker`, with the signal armed.
    """
    stop_on_signals()
    if parent is not None:
        if os.getppid() != parent:
            os._exit(1)  # nobody to report to, nothing to clean: nothing was staged yet
        staging.REQUIRED_PARENT = parent
    try:
        outcome = worker(job, events)
    except BaseException as error:  # a stand-in that raises, or Ctrl-C: still tell the parent
        outcome = None, f"{type(error).__name__}: {error}", traceback.format_exc()
    events.put(("outcome", job.key, outcome))


def render_all(jobs: list[RenderJob], processes: int) -> Outcome:
    """Render each job in a fresh process, ``processes`` at a time.

    With more than one process, the renders start longest first (by their last render's time),
    so the workers finish together instead of one long scene rendering alone at the end.

    One plain process per render rather than a process pool: a pool limited to one task per
    worker starts a replacement worker whenever one ends, even with no work left, and waited
    for it at the end (about 1.3 s after the last render, measured).
    """
    outcome = Outcome()
    if not jobs:
        return outcome
    folders = Folders(jobs[0].media_dir, jobs[0].cache_dir)
    if processes > 1:
        jobs = longest_first(jobs, folders)
    context = multiprocessing.get_context("spawn")
    waiting, running = list(jobs), {}
    click.echo(f"Rendering {len(jobs)} scene(s), {processes} at a time: {named(jobs)}", err=True)
    # A plain queue, not a manager's: a manager is one more process, which Ctrl-C kills first,
    # leaving the parent an EOFError instead of its workers' last words.
    events = context.Queue()
    # Workers are spawned all through the batch, so the environment stays set until it ends.
    with worker_environment():
        try:
            while waiting or running:
                while waiting and len(running) < processes:
                    job = waiting.pop(0)
                    process = context.Process(target=_run, args=(WORKER, job, events, os.getpid()), name=f"render {job.label}")
                    process.start()
                    running[job.key] = (job, process)
                _next_event(events, running, folders, outcome)
        except BaseException:  # Ctrl-C, SIGTERM (see the CLI) or a failure here: no worker outlives the run
            stop_workers([process for _, process in running.values()])
            recover_staging(folders.staging_root())  # what a worker killed after its grace left
            raise
    return outcome


NAMED_AT_MOST = 12
"""The renders the opening line names; a batch of thousands is counted, not listed."""


def named(jobs: list[RenderJob]) -> str:
    """The scenes of ``jobs`` for the opening line: each scene once, with how many renders of it when several."""
    counts: dict[str, int] = {}
    for job in jobs:
        counts[job.scene] = counts.get(job.scene, 0) + 1
    names = [f"{scene} ×{count}" if count > 1 else scene for scene, count in counts.items()]
    shown = ", ".join(names[:NAMED_AT_MOST])
    return shown + (f" and {len(names) - NAMED_AT_MOST} more" if len(names) > NAMED_AT_MOST else "")


def stop_workers(processes: list, grace: float = 10.0) -> None:
    """Stop ``processes`` with SIGTERM (each cleans its staging folder), then SIGKILL any still alive after ``grace`` s."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()


def _next_event(events, running: dict, folders: Folders, outcome: Outcome) -> None:
    """Wait for the next progress line or outcome; notice a worker that died without one."""
    try:
        event = events.get(timeout=1.0)
    except queue.Empty:
        for key, (job, process) in list(running.items()):
            if not process.is_alive():
                # No outcome came before the process ended: it was killed or crashed.
                process.join()
                error = f"the worker process died (exit code {process.exitcode})"
                _report(job, (None, error, error + "\n"), folders, outcome)
                del running[key]
        return
    if isinstance(event, str):
        click.echo(event, err=True)
        return
    _, key, result = event
    job, process = running.pop(key)
    _report(job, result, folders, outcome)
    process.join()  # it ends once its outcome is sent


def _report(job: RenderJob, result, folders: Folders, outcome: Outcome) -> None:
    rendered, error, details = result
    if rendered is not None:
        outcome.finished[job.scene] = rendered
        outcome.by_job[job.key] = rendered
        try:
            record_render_time(folders, job, rendered.seconds)
        except OSError as error:  # only the order of later parallel renders depends on it
            click.echo(f"warning: render time not recorded in {folders.render_times}: {error.strerror or error}", err=True)
        click.echo(f"{job.label}: done in {rendered.seconds:.1f} s ({len(outcome.finished)} finished)", err=True)
    else:
        try:
            where = f"details in {write_error_log(folders, job.stem, details)}"
        except OSError as log_error:  # a full disk: the render's own error still comes first
            where = f"its details could not be saved: {log_error.strerror or log_error}"
        click.echo(f"{job.label}: FAILED: {error} ({where})", err=True)
        outcome.failed.append(job.scene)
        outcome.failed_jobs.append(job.key)


def write_error_log(folders: Folders, name: str, details: str) -> Path:
    """Keep the full traceback of a failed render in the cache's logs instead of on the terminal."""
    return write_atomic(folders.logs / f"{name}.log", details)
