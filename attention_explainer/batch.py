"""``render.py batch FILE``: the renders a file lists, on this machine or on a Dask cluster.

A batch file holds one render per line in the render command's own words, parsed by the render
command's own parser, so every option and check is the same::

    # the scaling scene in two variants, and a sentence of our own
    scaling --quality low
    scaling --quality low --seed 7
    self-attention --quality low --sentence "Dogs chase small cats"

``#`` starts a comment; blank lines are skipped. Every line is checked before anything starts: a
bad one is a usage error naming its line (exit 2). Lines that render into the same folder are one
render. The media and cache folders are the batch's (``--media-dir``, ``--cache-dir``), not a line's.
"""

from __future__ import annotations

import os
import shlex
import signal
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import click
from click.core import ParameterSource

from .options import OPTIONS, RenderJob

__all__ = ["BatchEntry", "read_batch", "parse_batch", "run_batch"]

BATCH_FOLDER_OPTIONS = {"media_dir": "--media-dir", "cache_dir": "--cache-dir", "jobs": "--jobs"}
"""The render options a line may not give: they belong to the whole batch."""


@dataclass
class BatchEntry:
    """One render of a batch, with the lines that asked for it."""

    job: RenderJob
    lines: list[int] = field(default_factory=list)
    force: bool = False

    @property
    def label(self) -> str:
        """How progress names it: its render's label (the scene, its inputs, theme and voice, and quality), e.g. ``scaling --seed 7 (low)``."""
        return self.job.label


@contextmanager
def at_line(number: int):
    """Name the line in any error the render command's checks raise for it (usage errors stay usage errors)."""
    try:
        yield
    except click.UsageError as error:
        raise click.UsageError(f"line {number}: {error.format_message()}") from None
    except click.ClickException as error:
        raise click.ClickException(f"line {number}: {error.format_message()}") from None


def parse_line(number: int, words: list[str], media_dir: Path, cache_dir: Path) -> tuple[list[RenderJob], bool]:
    """The renders one line asks for, checked as the render command checks them, and whether it says --force."""
    from .cli import check_inputs, check_voice, main, select

    command = main.commands["render"]
    with at_line(number):
        if words and words[0] == "render":  # `render scaling` says the same as `scaling`
            words = words[1:]
        if any(word in ("-h", "--help") for word in words):
            raise click.UsageError("--help is not a render")
        context = command.make_context("render", list(words))
        for name, flag in BATCH_FOLDER_OPTIONS.items():
            if context.get_parameter_source(name) is ParameterSource.COMMANDLINE:
                raise click.UsageError(f"{flag} belongs to the whole batch: give it to `render.py batch`, not to a line")
        if context.params.get("show_list"):
            raise click.UsageError("--list is not a render")
        params = context.params
        selected = select(params["scenes"])
        named = {name for name in params["scenes"] if name != "all"}
        given = {name: params[name] for name in OPTIONS}
        inputs = check_inputs(selected, given, optional=frozenset(set(selected) - named))
        voice = check_voice(params["voice"])
    jobs = [
        RenderJob(name, inputs[name], params["quality"], params["theme"], params["video_format"], media_dir, cache_dir, voice)
        for name in selected
        if name in inputs
    ]
    return jobs, bool(params["force"])


def parse_batch(text: str, media_dir: Path, cache_dir: Path) -> list[BatchEntry]:
    """Every render ``text`` lists, in order, one entry per output folder; a bad line is a usage error naming it."""
    from .pipeline.folders import Folders

    folders = Folders(media_dir, cache_dir)
    entries: dict[Path, BatchEntry] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as error:  # an unclosed quote
            raise click.UsageError(f"line {number}: {error}") from None
        if not words:
            continue
        jobs, force = parse_line(number, words, media_dir, cache_dir)
        for job in jobs:
            published = folders.published(job.scene, job.variant, job.quality)
            entry = entries.get(published)
            if entry is None:
                entries[published] = BatchEntry(job, [number], force)
                continue
            if entry.job != job:
                differ = [
                    f"--{name.replace('video_', '')} {getattr(job, name)} instead of {getattr(entry.job, name)}"
                    for name in ("theme", "video_format", "voice")
                    if getattr(job, name) != getattr(entry.job, name)
                ]
                raise click.UsageError(
                    f"line {number}: {entry.label} goes to {published}, as on line {entry.lines[0]}, "
                    f"but with {', '.join(differ)}: a folder holds one render (use another --media-dir for it)"
                )
            entry.lines.append(number)
            entry.force = entry.force or force
    return list(entries.values())


def read_batch(path: Path, media_dir: Path, cache_dir: Path) -> list[BatchEntry]:
    """:func:`parse_batch` of the file at ``path``; a file that is not UTF-8 text is a usage error."""
    try:
        # utf-8-sig: a file saved with a byte-order mark (Notepad's "UTF-8 with BOM") reads as the same lines.
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise click.UsageError(f"{path} is not UTF-8 text") from None
    except OSError as error:
        raise click.UsageError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_batch(text, media_dir, cache_dir)


class Progress:
    """``[k/N] label: what`` lines over the whole batch."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def __call__(self, label: str, what: str) -> None:
        self.done += 1
        click.echo(f"[{self.done}/{self.total}] {label}: {what}", err=True)


def run_batch(ctx: click.Context, path: Path, scheduler: str | None, media_dir: Path, cache_dir: Path, jobs: int | None) -> None:
    """Check every line of the batch file, then reuse, repackage or render each render it lists.

    Without ``scheduler`` the renders run on this machine, one process per core (as ``render all``
    does); with it, each is a task on the Dask cluster (see :mod:`.pipeline.cluster`).
    """
    from .cli import _terminate, prepare_folders, refuse_foreign_files, stopped, variant_lock
    from .pipeline.folders import Folders
    from .pipeline.freshness import Freshness, freshness
    from .pipeline.render_job import MissingTool, check_tools, repackage

    entries = read_batch(path, media_dir, cache_dir)
    if not entries:
        click.echo(f"{path}: no renders listed", err=True)
        return
    client_needed = scheduler is not None
    if client_needed:
        check_scheduler_address(scheduler)
    try:
        check_tools()  # repackaging and embedded renders typeset here; a cluster's workers need the same
    except MissingTool as error:
        if not client_needed:
            raise click.ClickException(str(error)) from None

    previous_handler = signal.signal(signal.SIGTERM, _terminate)
    ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous_handler))
    folders = Folders(media_dir, cache_dir)
    prepare_folders(folders)
    progress = Progress(len(entries))
    with ExitStack() as locks:
        try:
            for entry in sorted(entries, key=lambda entry: str(published_folder(folders, entry.job))):  # one order: no deadlock
                locks.enter_context(variant_lock(published_folder(folders, entry.job), entry.label))
        except KeyboardInterrupt as interrupt:
            stopped(interrupt)
        todo = []
        states = [
            Freshness.RENDER if entry.force else freshness(entry.job, published_folder(folders, entry.job)) for entry in entries
        ]
        refuse_foreign_files(
            [
                (published_folder(folders, e.job), e.job.scene)
                for e, state in zip(entries, states)
                if state is not Freshness.UP_TO_DATE
            ]
        )
        for entry, state in zip(entries, states):
            if state is Freshness.UP_TO_DATE:
                progress(entry.label, "up to date")
            elif state is Freshness.REPACKAGE:
                seconds = repackage(entry.job).seconds
                progress(entry.label, f"pages rewritten, frames unchanged ({seconds:.1f} s)")
            else:
                todo.append(entry)
        summary = f"batch: {len(entries)} renders, {len(entries) - len(todo)} up to date or repackaged, {len(todo)}"
        try:
            if scheduler:
                failed = run_on_cluster(todo, scheduler, folders, progress, summary)
            else:
                click.echo(f"{summary} to render on this machine", err=True)
                failed = run_here(todo, jobs, progress)
        except KeyboardInterrupt as interrupt:
            stopped(interrupt)
    for entry in entries:
        if entry.label not in failed:
            click.echo(str(published_folder(folders, entry.job) / f"{entry.job.scene}.mp4"))
    if failed:
        raise click.ClickException(f"{len(failed)} of {len(entries)} renders failed: {'; '.join(failed)}")


def check_scheduler_address(address: str) -> None:
    """Dask installed and ``address`` shaped like a scheduler's (``tcp://host:port``), before anything starts."""
    try:
        from distributed.comm import get_address_host_port
    except ImportError:  # the embedded batch needs no Dask
        raise click.ClickException(
            "batch --scheduler needs Dask distributed: pip install -e '.[distributed]' (or `make distributed`)"
        ) from None
    try:
        get_address_host_port(address)
    except (ValueError, TypeError) as error:
        raise click.BadParameter(
            f"{address!r} is not a scheduler address like tcp://host:8786 ({error})", param_hint="--scheduler"
        ) from None


def published_folder(folders, job: RenderJob) -> Path:
    return folders.published(job.scene, job.variant, job.quality)


def run_here(todo: list[BatchEntry], jobs: int | None, progress: Progress) -> list[str]:
    """Render on this machine, a fresh process per render, ``jobs`` (default: the cores) at a time; the failed labels."""
    from .pipeline.workers import job_key, render_all

    if not todo:
        return []
    processes = min(jobs or os.cpu_count() or 1, len(todo))
    outcome = render_all([entry.job for entry in todo], processes)
    failed = []
    for entry in todo:
        key = job_key(entry.job)
        if key in outcome.by_job:
            progress(entry.label, f"published ({outcome.by_job[key].seconds:.1f} s)")
        else:
            progress(entry.label, "FAILED (see above)")
            failed.append(entry.label)
    return failed


def run_on_cluster(todo: list[BatchEntry], scheduler: str, folders, progress: Progress, summary: str) -> list[str]:
    """Render each entry as a task on the Dask cluster at ``scheduler``; the client publishes. The failed labels.

    ``summary`` begins the line that says how many renders are submitted.
    """
    from .pipeline.cluster import ClusterUnavailable, connect, render_on_cluster
    from .pipeline.workers import job_key

    if not todo:
        click.echo(f"{summary} submitted", err=True)
        return []  # the scheduler is not even asked
    try:
        client = connect(scheduler)
    except ClusterUnavailable as error:
        raise click.ClickException(str(error)) from None
    labels = {job_key(entry.job): entry.label for entry in todo}
    try:
        workers = len(client.scheduler_info().get("workers", {}))
        click.echo(f"{summary} submitted to {scheduler} ({workers} workers now)", err=True)
        outcome = render_on_cluster(
            client, [entry.job for entry in todo], folders, lambda job, what: progress(labels[job_key(job)], what)
        )
    finally:
        client.close(timeout=10)
    return [labels[key] for key in outcome.failed]
