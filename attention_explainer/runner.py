"""Render these jobs: the orchestration both ``render`` and ``batch`` use, free of the command line.

:func:`run` takes checked :class:`~.options.RenderJob` s and, in this order: checks the system tools,
handles SIGTERM as Ctrl-C, checks and prepares the media and cache folders (putting back what a
killed run left), takes every job's variant lock in one global order (two runs never deadlock),
triages each job (up to date, pages to rewrite, or a render), refuses to replace a render folder
holding files no render wrote (see :mod:`.pipeline.guard`), renders the rest in local worker processes or as
tasks on a Dask cluster, and returns the :class:`RunOutcome` with the locks still held for
``then``. What happens is told through a :class:`Reporter`; what goes wrong is raised as
:class:`RunFailed` (one line, exit 1) or :class:`Interrupted` (Ctrl-C: 130, SIGTERM: 143), which
the CLI turns into its exit codes.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .options import InvalidInput, RenderJob
from .pipeline import freshness, workers
from .pipeline.folders import Folders
from .pipeline.guard import FolderProblem, ForeignFiles, check_folders, check_render_folders, lock_folder
from .pipeline.render_job import MissingTool, RenderResult, check_tools, published_result, repackage
from .pipeline.staging import recover_staging

__all__ = [
    "Reporter",
    "RunOutcome",
    "RunFailed",
    "Interrupted",
    "Terminated",
    "run",
    "prepare_folders",
    "variant_lock",
    "sigterm_as_interrupt",
]


class RunFailed(Exception):
    """The run cannot go on (a folder that cannot be used, a missing tool, an unreachable cluster): one line, exit 1."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is (exit 143 instead of 130)."""


class Interrupted(Exception):
    """Ctrl-C or SIGTERM stopped the run; the published renders are as they were. ``code`` is the exit code."""

    def __init__(self, interrupt: KeyboardInterrupt):
        super().__init__("interrupted")
        self.code = 143 if isinstance(interrupt, Terminated) else 130


class Reporter(Protocol):
    """Where a run says what it does (the CLI prints it)."""

    def note(self, text: str) -> None:
        """A line of progress or warning."""

    def triaged(self, job: RenderJob, what: str) -> None:
        """``job`` needed no render: ``up to date``, or ``pages rewritten, frames unchanged (1.2 s)``."""

    def rendering(self, total: int, todo: int, where: str) -> None:
        """Of ``total`` jobs, ``todo`` are rendered ``where`` (``to render on this machine``, ``submitted to tcp://...``)."""

    def finished(self, job: RenderJob, what: str) -> None:
        """A job that was rendered: ``published (12.3 s)`` or ``FAILED: why``."""


@dataclass
class RunOutcome:
    """What a run gave: the finished renders and the failed ones (with why), by :attr:`~.options.RenderJob.key`."""

    finished: dict[str, RenderResult] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)


def _terminate(signum, frame):
    raise Terminated()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` (a KeyboardInterrupt) while the block runs; the previous handler comes back after."""
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def prepare_folders(folders: Folders, reporter: Reporter) -> None:
    """Make the media and cache folders, and clean what dead runs left; a path that cannot be a folder is :class:`RunFailed`.

    Media and cache given as one another's folder is :class:`~.options.InvalidInput` (exit 2).
    """
    try:
        check_folders(folders.media, folders.cache)
    except FolderProblem as problem:
        raise (InvalidInput if problem.usage else RunFailed)(str(problem)) from None
    for role, path in (("media", folders.media), ("cache", folders.cache)):
        try:
            path.mkdir(parents=True, exist_ok=True)
            probe = Path(tempfile.mkstemp(dir=path, prefix=".write-test-")[1])
            probe.unlink()
        except OSError as error:
            raise RunFailed(f"cannot use {path} as the {role} folder: {error.strerror or error}") from None
    for root in (folders.cache / "staging", folders.media / ".staging"):
        for restored in recover_staging(root):
            reporter.note(f"{restored}: put back (an earlier run was killed while publishing it)")
        try:
            root.rmdir()  # the media's staging only exists while a render uses it
        except OSError:
            pass


@contextmanager
def variant_lock(published: Path, label: str, reporter: Reporter) -> Iterator[None]:
    """Hold the lock of one render variant: a second run rendering it into the same media folder waits, then reuses it."""
    import hashlib

    import filelock

    key = hashlib.sha256(str(published.resolve()).encode("utf-8")).hexdigest()[:24]
    try:
        lock = filelock.FileLock(lock_folder() / f"{key}.lock")
    except FolderProblem as problem:
        raise RunFailed(str(problem)) from None
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        reporter.note(f"{label}: another run is rendering it into {published.parent}; waiting for it")
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def _published(folders: Folders, job: RenderJob) -> Path:
    return folders.published(job.scene, job.variant, job.quality)


def run(
    jobs: list[RenderJob],
    folders: Folders,
    reporter: Reporter,
    *,
    force: Callable[[RenderJob], bool] = lambda job: False,
    processes: int | None = None,
    scheduler: str | None = None,
    then: Callable[[RunOutcome], None] | None = None,
) -> RunOutcome:
    """Reuse, repackage or render each job (see the module's docstring); ``then(outcome)`` runs with the locks held.

    ``force(job)`` renders a job even when it is up to date,
    ``processes`` bounds the local workers (default: the cores), and ``scheduler`` sends the
    renders to a Dask cluster instead (the tools are then the workers' to have).
    """
    try:
        check_tools()  # repackaging and embedded renders typeset here; a cluster's workers need the same
    except MissingTool as error:
        if scheduler is None:
            raise RunFailed(str(error)) from None
    with sigterm_as_interrupt():
        prepare_folders(folders, reporter)
        with ExitStack() as locks:
            try:
                for job in sorted(jobs, key=lambda job: str(_published(folders, job))):  # one order: no deadlock
                    locks.enter_context(variant_lock(_published(folders, job), job.label, reporter))
            except KeyboardInterrupt as interrupt:
                raise Interrupted(interrupt) from None
            outcome = RunOutcome()
            todo = []
            # Looked up on the module at each call: a test replaces freshness.freshness.
            states = [
                freshness.Freshness.RENDER if force(job) else freshness.freshness(job, _published(folders, job)) for job in jobs
            ]
            # Before anything is drawn: a folder about to be replaced must hold only what a render wrote.
            try:
                check_render_folders(
                    [
                        (_published(folders, job), job.scene)
                        for job, state in zip(jobs, states)
                        if state is not freshness.Freshness.UP_TO_DATE
                    ]
                )
            except ForeignFiles as error:
                raise RunFailed(str(error)) from None
            for job, state in zip(jobs, states):
                if state is freshness.Freshness.UP_TO_DATE:
                    reporter.triaged(job, "up to date")
                    outcome.finished[job.key] = published_result(job)
                elif state is freshness.Freshness.REPACKAGE:
                    result = repackage(job)
                    reporter.triaged(job, f"pages rewritten, frames unchanged ({result.seconds:.1f} s)")
                    outcome.finished[job.key] = result
                else:
                    todo.append(job)
            try:
                if scheduler is not None:
                    _on_cluster(todo, scheduler, folders, reporter, outcome, total=len(jobs))
                else:
                    reporter.rendering(len(jobs), len(todo), "to render on this machine")
                    _here(todo, processes, reporter, outcome)
            except KeyboardInterrupt as interrupt:
                raise Interrupted(interrupt) from None
            if then is not None:
                then(outcome)
            return outcome


def _here(todo: list[RenderJob], processes: int | None, reporter: Reporter, outcome: RunOutcome) -> None:
    """Render on this machine, a fresh process per render, ``processes`` (default: the cores) at a time."""
    if not todo:
        return
    rendered = workers.render_all(todo, min(processes or os.cpu_count() or 1, len(todo)))
    for job in todo:
        if job.key in rendered.by_job:
            outcome.finished[job.key] = rendered.by_job[job.key]
            reporter.finished(job, f"published ({rendered.by_job[job.key].seconds:.1f} s)")
        else:
            outcome.failed[job.key] = "see above"
            reporter.finished(job, "FAILED (see above)")


def _on_cluster(
    todo: list[RenderJob],
    scheduler: str,
    folders: Folders,
    reporter: Reporter,
    outcome: RunOutcome,
    total: int,
) -> None:
    """Render each job as a task on the Dask cluster at ``scheduler``; this process checks and publishes each package."""
    from .pipeline.cluster import ClusterUnavailable, connect, render_on_cluster

    if not todo:
        reporter.rendering(total, 0, "submitted")
        return  # the scheduler is not even asked
    try:
        client = connect(scheduler)
    except ClusterUnavailable as error:
        raise RunFailed(str(error)) from None
    try:
        count = len(client.scheduler_info().get("workers", {}))
        reporter.rendering(total, len(todo), f"submitted to {scheduler} ({count} workers now)")
        done = render_on_cluster(client, todo, folders, reporter.finished)
    finally:
        client.close(timeout=10)
    for job in todo:
        if job.key in done.failed:
            outcome.failed[job.key] = done.failed[job.key]
        else:
            outcome.finished[job.key] = published_result(job)
