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

This module reads the file (the command line's part); the renders are :func:`..runner.run`'s.
"""

from __future__ import annotations

import shlex
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import click
from click.core import ParameterSource

from scenes import SCENES

from ..options import OPTIONS, InvalidInput, MissingExtra, RenderJob, check_inputs, check_scheduler, check_voice
from ..pipeline.folders import Folders
from ..runner import run
from .params import render_parameters

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
    except InvalidInput as error:
        raise click.UsageError(f"line {number}: {error}") from None
    except MissingExtra as error:
        raise click.ClickException(f"line {number}: {error}") from None
    except click.UsageError as error:
        raise click.UsageError(f"line {number}: {error.format_message()}") from None
    except click.ClickException as error:
        raise click.ClickException(f"line {number}: {error.format_message()}") from None


def parse_line(number: int, words: list[str], media_dir: Path, cache_dir: Path) -> tuple[list[RenderJob], bool]:
    """The renders one line asks for, checked as the render command checks them, and whether it says --force."""
    with at_line(number):
        if words and words[0] == "render":  # `render scaling` says the same as `scaling`
            words = words[1:]
        if any(word in ("-h", "--help") for word in words):
            raise click.UsageError("--help is not a render")
        context = render_line.make_context("render", list(words))
        for name, flag in BATCH_FOLDER_OPTIONS.items():
            if context.get_parameter_source(name) is ParameterSource.COMMANDLINE:
                raise click.UsageError(f"{flag} belongs to the whole batch: give it to `render.py batch`, not to a line")
        if context.params.get("show_list"):
            raise click.UsageError("--list is not a render")
        params = context.params
        given = {name: params[name] for name in OPTIONS}
        inputs, skipped = check_inputs(params["scenes"], given, SCENES)
        for name, advice in skipped.items():
            click.echo(f"{name}: skipped: {advice}", err=True)
        voice = check_voice(params["voice"])
    jobs = [
        RenderJob(name, settings, params["quality"], params["theme"], params["video_format"], media_dir, cache_dir, voice)
        for name, settings in inputs.items()
    ]
    return jobs, bool(params["force"])


def parse_batch(text: str, media_dir: Path, cache_dir: Path) -> list[BatchEntry]:
    """Every render ``text`` lists, in order, one entry per output folder; a bad line is a usage error naming it."""
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


class BatchReporter:
    """``[k/N] label: what`` lines over the whole batch."""

    def __init__(self, entries: list[BatchEntry]):
        self.total, self.done = len(entries), 0
        self.labels = {entry.job.key: entry.label for entry in entries}

    def progress(self, job: RenderJob, what: str) -> None:
        self.done += 1
        click.echo(f"[{self.done}/{self.total}] {self.labels[job.key]}: {what}", err=True)

    def note(self, text: str) -> None:
        click.echo(text, err=True)

    triaged = finished = progress

    def rendering(self, total: int, todo: int, where: str) -> None:
        click.echo(f"batch: {total} renders, {total - todo} up to date or repackaged, {todo} {where}", err=True)


def run_batch(path: Path, scheduler: str | None, media_dir: Path, cache_dir: Path, jobs: int | None) -> None:
    """Check every line of the batch file, then reuse, repackage or render each render it lists.

    Without ``scheduler`` the renders run on this machine, one process per core (as ``render all``
    does); with it, each is a task on the Dask cluster (see :mod:`..pipeline.cluster`).
    """
    entries = read_batch(path, media_dir, cache_dir)
    if not entries:
        click.echo(f"{path}: no renders listed", err=True)
        return
    if scheduler is not None:
        check_scheduler(scheduler)
    reporter = BatchReporter(entries)
    forced = {entry.job.key for entry in entries if entry.force}
    folders = Folders(media_dir, cache_dir)
    outcome = run(
        [entry.job for entry in entries],
        folders,
        reporter,
        force=lambda job: job.key in forced,
        processes=jobs,
        scheduler=scheduler,
    )
    for entry in entries:
        if entry.job.key not in outcome.failed:
            click.echo(str(folders.published(entry.job.scene, entry.job.variant, entry.job.quality) / f"{entry.job.scene}.mp4"))
    if outcome.failed:
        failed = [entry.label for entry in entries if entry.job.key in outcome.failed]
        raise click.ClickException(f"{len(failed)} of {len(entries)} renders failed: {'; '.join(failed)}")


@click.command("render")
@render_parameters
def render_line(**params) -> None:
    """A batch file's line, parsed as the render command parses its arguments (never run)."""
