"""The command line: ``render`` (the default command), ``list``, ``gallery``, ``worksheet`` and ``export``.

    python render.py scaling --quality high      # one scene, 1080p60 (render is the default command)
    python render.py self-attention scaling      # several
    python render.py all --quality low           # the whole catalog, one process per core
    python render.py list                        # what there is (also: --list)
    python render.py gallery                     # media/index.html: every rendered scene
    python render.py worksheet self-attention    # a printable handout with an answer key
    python render.py export scaling --to scorm   # a SCORM 1.2 zip for an LMS (--to pptx: a slide deck; gift: a quiz bank)
    python render.py batch renders.txt           # every render a file lists (--scheduler tcp://...: on a Dask cluster)
    python render.py self-attention --sentence "I love learning about attention"

Usage errors (a bad value, an unknown scene) exit with code 2 and say what is allowed; a failed
render exits with code 1 and keeps its traceback in the cache's ``logs/``; Ctrl-C exits 130 (SIGTERM 143).

The CLI parses and answers, nothing else: the checks are :mod:`..options`' (:class:`~..options.InvalidInput`
becomes exit 2), the work is :mod:`..runner`'s. Nothing in the package imports it but the entry
points (``render.py`` and the ``attention-explainer`` console script).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

import click

from scenes import SCENES, build_trace

from ..exports.export import EXPORT_FORMATS
from ..files import write_atomic
from ..options import (
    DEFAULT_MASTERY,
    InvalidInput,
    MissingExtra,
    RenderJob,
    check_inputs,
    check_mastery,
    check_voice,
    describe_options,
)
from ..pipeline.folders import Folders
from ..runner import Interrupted, RunFailed, RunOutcome, run
from .params import CONTEXT, Folder, folder_options, render_options, render_parameters, scene_options


class DefaultToRender(click.Group):
    """A group whose default command is ``render``: ``render.py scaling`` means ``render.py render scaling``.

    The checks' and the runner's errors become exit codes here: :class:`~..options.InvalidInput` 2,
    :class:`~..options.MissingExtra` and :class:`~..runner.RunFailed` 1, :class:`~..runner.Interrupted`
    130 or 143. An error nobody foresaw ends in one line naming a log file that holds its traceback (exit 1).
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = ["render", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            try:
                return super().invoke(ctx)
            except InvalidInput as error:
                raise usage_error(error) from None
            except (MissingExtra, RunFailed) as error:
                raise click.ClickException(str(error)) from None
            except Interrupted as interrupt:
                stopped(interrupt.code)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort, KeyboardInterrupt):
            raise
        except OSError as error:  # a full disk, a read-only folder, a permission: the path and the reason
            where = f" {error.filename}" if error.filename else ""
            raise click.ClickException(f"cannot write{where}: {error.strerror or error}") from None
        except Exception:
            log_file = write_crash_log(traceback.format_exc())
            raise click.ClickException(f"unexpected error: {sys.exc_info()[1]!r} (details in {log_file})") from None


def write_crash_log(details: str) -> Path:
    """Keep an unexpected error's traceback in ``.cache/logs/``, or the system's temporary folder if that fails."""
    for folder in (Path(".cache") / "logs", Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return write_atomic(folder / f"error-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log", details)
        except OSError:
            continue
    return Path("(no log: nothing could be written)")


def usage_error(error: InvalidInput) -> click.UsageError:
    """The usage error (exit 2) an input check's error is: about an option or argument when it names one."""
    if error.param:
        return click.BadParameter(str(error), param_hint=error.param)
    return click.UsageError(str(error))


def stopped(code: int) -> None:
    """Ctrl-C or SIGTERM: one line, exit 130 (143 for SIGTERM); the published renders stay as they were."""
    click.echo("\nInterrupted: unfinished scenes were not written; published renders are as they were.", err=True)
    sys.exit(code)


@click.group(cls=DefaultToRender, context_settings=CONTEXT)
def main() -> None:
    """Animated explainer videos of the attention mechanism, every number computed and checked.

    `python render.py SCENES...` renders (the `render` command is the default); `python render.py
    list` names the scenes and the options each takes.
    """


def checked_inputs(scenes: tuple[str, ...], given: dict[str, str | None], skip_missing: bool = True) -> dict[str, dict]:
    """Each selected scene's checked settings (see :func:`..options.check_inputs`); a scene skipped for a missing extra is said."""
    inputs, skipped = check_inputs(scenes, given, SCENES, skip_missing)
    for name, advice in skipped.items():
        click.echo(f"{name}: skipped: {advice}", err=True)
    return inputs


@main.command("list", context_settings=CONTEXT)
def list_command() -> None:
    """List the scenes in teaching order, with what each teaches and the options it takes."""
    width = max(len(name) for name in SCENES)
    for name, scene in SCENES.items():
        # The description names the inputs a render draws; here, the defaults.
        defaults = {
            '"{sentence}"': "A sentence",
            "{sentence}": "a sentence",
            "{d_model}": str(scene.default_d_model),
            "{heads}": str(scene.default_heads),
        }
        description = scene.description
        for placeholder, value in defaults.items():
            description = description.replace(placeholder, value)
        click.echo(f"{name:<{width}}  {description}")
        click.echo(f"{'':<{width}}  options: {describe_options(scene)}")


@main.command(context_settings=CONTEXT)
@click.option(
    "--media-dir",
    type=Folder(),
    default=Path("media"),
    show_default=True,
    help="The media folder to list.",
)
def gallery(media_dir: Path) -> None:
    """Write MEDIA_DIR/index.html: every published render with its player, files and embed snippet."""
    from ..pages.gallery import write_gallery

    print_written(write_gallery(media_dir, list(SCENES)))


def print_written(path: Path) -> None:
    """Print the path of a file just written; standard output that cannot take it (``> /dev/full``) is one line saying so.

    The file is written all the same: the error says that, rather than "cannot write" as if it were not.
    """
    try:
        click.echo(str(path))
        sys.stdout.flush()
    except OSError as error:
        # What is still buffered would fail again as Python exits: standard output goes nowhere from here on.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise click.ClickException(f"{path} was written, but its path could not be printed: {error.strerror or error}") from None


@main.command(context_settings=CONTEXT)
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@click.option(
    "--media-dir",
    type=Folder(),
    default=Path("media"),
    show_default=True,
    help="Where the worksheets go.",
)
@scene_options
def worksheet(scenes: tuple[str, ...], media_dir: Path, **given: str | None) -> None:
    """Write printable exercises on a scene's own numbers, with an answer key, to MEDIA_DIR/<scene>/worksheet.html."""
    from ..options import variant_folder
    from ..pages.worksheet import write_worksheet

    for name, inputs in checked_inputs(scenes, given, skip_missing=False).items():
        scene = SCENES[name]
        try:
            target = media_dir / variant_folder(name, inputs) / "worksheet.html"
            if target.parent.is_symlink():  # never written through a link to somewhere else
                raise click.ClickException(f"{target.parent} is a symbolic link: the worksheet is never written through one")
            # A scene that trains finds its run where a render with the default --cache-dir left it.
            print_written(write_worksheet(scene, build_trace(name, inputs, Path(".cache")), target))
        except LookupError as error:
            raise click.ClickException(str(error)) from None


@main.command(context_settings=CONTEXT)
@render_parameters
@click.pass_context
def render(ctx: click.Context, scenes: tuple[str, ...], show_list: bool, **settings) -> None:
    """Render SCENES (names from `list`, or `all`) to MEDIA_DIR/<scene>/<quality>/.

    --sentence, --token, --seed, --d-model and --heads change a scene's example; `list` says
    which scene takes which. A render whose published files match its code and settings is
    reported up to date; one whose pages alone changed is repackaged without drawing a frame.
    """
    if show_list:
        ctx.invoke(list_command)
        return
    failed = render_scenes(scenes, **settings)
    if failed:
        raise click.ClickException(failed)


@main.command(context_settings=CONTEXT)
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@click.option(
    "--to",
    "formats",
    type=click.Choice(EXPORT_FORMATS),
    multiple=True,
    required=True,
    help="scorm: a SCORM 1.2 zip for a learning management system; pptx: a slide deck, one slide per step; "
    "gift: the video's questions in Moodle's GIFT format, for a question bank. Repeat for several.",
)
@click.option(
    "--mastery",
    default=str(DEFAULT_MASTERY),
    show_default=True,
    metavar="PERCENT",
    help="SCORM: the score that passes, the percent of the video's questions answered right (0 to 100); "
    "declared in imsmanifest.xml as the LMS's mastery score.",
)
@render_options
@click.pass_context
def export(ctx: click.Context, scenes: tuple[str, ...], formats: tuple[str, ...], mastery: str, **settings) -> None:
    """Export SCENES' renders for a course: a SCORM 1.2 zip (--to scorm), a slide deck (--to pptx) or a quiz bank (--to gift).

    Takes a render's options; a render that is missing or stale is rendered first. The zip or
    deck goes into the render's folder, e.g. media/scaling/high/scaling-scorm.zip (scaling-gift.txt for GIFT).
    The SCORM player asks the video's questions and reports the score: --mastery is the score that passes.
    """
    from ..exports.export import export_all

    passing = check_mastery(mastery)  # before anything renders: a bad value is a usage error (exit 2)

    def export_finished(finished: dict) -> None:
        # All or nothing: every scene's every format is built before any is put in place.
        try:
            written = export_all([(result.folder, formats) for result in finished.values()], mastery=passing)
        except ValueError as error:  # a package whose files cannot be read back as written
            raise click.ClickException(f"cannot export: {error}; nothing was exported") from None
        except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM while building: nothing half-written stays
            raise Interrupted(interrupt) from None
        for path in written:
            click.echo(str(path))

    failed = render_scenes(scenes, then=export_finished, **settings)
    if failed:
        raise click.ClickException(f"{failed}; not exported (the lines above say why)")


class RenderReporter:
    """How ``render`` and ``export`` tell progress: one line per render reused or repackaged (the workers tell the rest)."""

    def note(self, text: str) -> None:
        click.echo(text, err=True)

    def triaged(self, job: RenderJob, what: str) -> None:
        suffix = " (--force renders it anyway)" if what == "up to date" else ""
        click.echo(f"{job.label}: {what}{suffix}", err=True)

    def rendering(self, total: int, todo: int, where: str) -> None:
        pass  # the workers say what they start

    def finished(self, job: RenderJob, what: str) -> None:
        pass  # the workers said it as it happened


def render_scenes(
    scenes: tuple[str, ...],
    quality: str,
    theme: str,
    media_dir: Path,
    cache_dir: Path,
    video_format: str,
    jobs: int | None,
    force: bool,
    voice: str,
    then=None,
    **given: str | None,
) -> str | None:
    """Render the named scenes (reusing up-to-date renders) and print each finished video's path.

    ``then(finished)``, when given, runs on the finished renders (by scene name) while their locks
    are still held, so no other run swaps a folder out from under it. Returns what failed, as the
    line that says so (exit 1), or ``None``.
    """
    inputs_by_scene = checked_inputs(scenes, given)
    voice = check_voice(voice)
    render_jobs = [
        RenderJob(name, inputs, quality, theme, video_format, media_dir, cache_dir, voice)
        for name, inputs in inputs_by_scene.items()
    ]

    def finish(outcome: RunOutcome) -> None:
        for job in render_jobs:
            if job.key in outcome.finished:
                click.echo(str(outcome.finished[job.key].video))
        if then is not None:
            then({job.scene: outcome.finished[job.key] for job in render_jobs if job.key in outcome.finished})

    outcome = run(
        render_jobs, Folders(media_dir, cache_dir), RenderReporter(), force=lambda job: force, processes=jobs, then=finish
    )
    if outcome.failed:
        names = [job.scene for job in render_jobs if job.key in outcome.failed]
        return f"{len(names)} of {len(render_jobs)} scenes failed: {', '.join(names)}"
    return None


@main.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="A Dask scheduler (tcp://host:port): each render becomes a task on its workers. "
    "Without it the batch renders on this machine. Needs the distributed extra: pip install -e '.[distributed]'.",
)
@folder_options
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1, max=256),
    default=None,
    help="Without --scheduler: renders at once, each in its own process. [default: the number of cores]",
)
def batch(file: Path, scheduler: str | None, media_dir: Path, cache_dir: Path, jobs: int | None) -> None:
    """Render every render FILE lists, one per line in the render command's words (`scaling --quality low --seed 7`).

    `#` starts a comment. Every line is checked before anything renders; a bad line exits 2 naming
    it. Renders that are up to date are reused; with --scheduler the rest are tasks on a Dask
    cluster, each drawn in a fresh process on a worker and published here.
    """
    from .batch import run_batch

    run_batch(file, scheduler, media_dir, cache_dir, jobs)
