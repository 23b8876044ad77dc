#!/usr/bin/env python
"""Render attention explainer videos.

    python render.py scaling --quality high      # one scene, 1080p60
    python render.py self-attention scaling      # several
    python render.py all --quality low           # the whole catalog, one process per core
    python render.py --list                      # what there is
    python render.py gallery                     # media/index.html: every rendered scene
    python render.py worksheet self-attention    # a printable handout with an answer key
    python render.py self-attention --sentence "I love learning about attention"

Finished files go to media/<scene>/<quality>/ (media/<scene>--<tag>/<quality>/ with your own
--sentence, --seed, ...); the path of every finished video is printed on standard output,
one per line, at the end.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import sys
import threading
import traceback
from contextlib import contextmanager
from pathlib import Path

import click

from scenes import SCENES
from scenes.inputs import OPTIONS, InvalidInput, describe_options, validate, variant_folder
from scenes.rendering import (
    FORMATS, QUALITIES, MissingTool, RenderResult, check_tools, longest_first, record_render_time, render_scene, up_to_date,
)
from scenes.theme import THEMES
from scenes.web import write_gallery
from scenes.worksheet import write_worksheet

QUALITY_HELP = "low = 480p15, medium = 720p30, high = 1080p60, 4k = 2160p60."


def list_scenes() -> None:
    """Print every scene with its one-line description and the options it takes, in teaching order."""
    width = max(len(name) for name in SCENES)
    for name, scene in SCENES.items():
        click.echo(f"{name:<{width}}  {scene.description}")
        click.echo(f"{'':<{width}}  options: {describe_options(scene)}")


def select(names: tuple[str, ...]) -> list[str]:
    """Scene names in the order given, `all` expanded; unknown names are a usage error."""
    if not names:
        raise click.UsageError("name at least one scene to render, or `all` (see `python render.py --list`)")
    selected: list[str] = []
    for name in names:
        if name == "all":
            selected += [n for n in SCENES if n not in selected]
        elif name in SCENES:
            if name not in selected:
                selected.append(name)
        else:
            raise click.BadParameter(
                f"unknown scene {name!r}. Valid scenes: {', '.join(SCENES)}, or all.", param_hint="SCENES"
            )
    return selected


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="high", show_default=True, help=QUALITY_HELP)
@click.option("--theme", type=click.Choice(list(THEMES)), default="dark", show_default=True, help="Colours: dark, or light for white slides and print.")
@click.option("--media-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("media"), show_default=True, help="Where finished files go.")
@click.option("--format", "video_format", type=click.Choice(FORMATS), default="mp4", show_default=True, help="webm or both add a VP9 WebM beside the MP4.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Scenes rendered at once, each in its own process. [default: the number of cores]")
@click.option("--force", is_flag=True, help="Render even scenes whose existing render is up to date.")
@click.option("--list", "show_list", is_flag=True, help="List the scenes, the options each takes, and exit.")
@click.option("--sentence", metavar="TEXT", help=OPTIONS["sentence"].help)
@click.option("--token", metavar="TEXT", help=OPTIONS["token"].help)
@click.option("--seed", metavar="N", help=OPTIONS["seed"].help)
@click.option("--d-model", "d_model", metavar="N", help=OPTIONS["d_model"].help)
@click.option("--heads", metavar="N", help=OPTIONS["heads"].help)
def main(
    scenes: tuple[str, ...],
    quality: str,
    theme: str,
    media_dir: Path,
    video_format: str,
    jobs: int | None,
    force: bool,
    show_list: bool,
    **given: str | None,
) -> None:
    """Render SCENES (names from --list, or `all`) to media/<scene>/<quality>/.

    --sentence, --token, --seed, --d-model and --heads change a scene's example;
    `--list` says which scene takes which. `python render.py gallery` writes
    media/index.html, a page of every rendered scene; `python render.py worksheet
    SCENES...` writes printable exercises with an answer key.
    """
    if show_list or scenes == ("list",):
        list_scenes()
        return
    if scenes == ("gallery",):
        click.echo(str(write_gallery(media_dir)))
        return
    if scenes and scenes[0] == "worksheet":
        for name, inputs in check_inputs(select(scenes[1:]), given).items():
            scene = SCENES[name]
            try:
                target = media_dir / variant_folder(name, inputs) / "worksheet.html"
                click.echo(str(write_worksheet(scene, scene.build_trace(**inputs), target)))
            except LookupError as error:
                raise click.ClickException(str(error)) from None
        return
    selected = select(scenes)
    inputs_by_scene = check_inputs(selected, given)
    try:
        check_tools()
    except MissingTool as error:
        raise click.ClickException(str(error)) from None

    finished: dict[str, RenderResult] = {}
    todo = []
    for name in selected:
        inputs = inputs_by_scene[name]
        existing = None if force else up_to_date(name, quality, media_dir, theme, video_format, inputs)
        if existing:
            click.echo(f"{name} ({quality}): up to date (--force renders it anyway)", err=True)
            finished[name] = existing
        else:
            todo.append(name)
    jobs = min(jobs or os.cpu_count() or 1, max(len(todo), 1))
    settings = {"quality": quality, "theme": theme, "media_root": media_dir, "video_format": video_format}
    try:
        failed = render_scenes(todo, finished, jobs, settings, inputs_by_scene) if todo else []
    except KeyboardInterrupt:
        click.echo("\nInterrupted: unfinished scenes were not written; finished videos are kept.", err=True)
        sys.exit(130)

    for name in selected:
        if name in finished:
            click.echo(str(finished[name].video))
    if failed:
        raise click.ClickException(f"{len(failed)} of {len(selected)} scenes failed: {', '.join(failed)}")


def check_inputs(selected: list[str], given: dict[str, str | None]) -> dict[str, dict]:
    """Each scene's checked settings; a value or option a scene cannot take is a usage error (exit 2).

    Runs before anything renders, so a typo never costs a render; a scene that needs an
    optional extra that is not installed says how to install it (exit 1).
    """
    checked = {}
    for name in selected:
        try:
            checked[name] = validate(SCENES[name], given)
        except InvalidInput as error:
            raise click.UsageError(str(error)) from None
        except ImportError as error:  # an optional extra (the trained model) is missing
            raise click.ClickException(str(error)) from None
    return checked


class QueueProgress(logging.Handler):
    """In a worker: sends the scene's progress lines to the parent process."""

    def __init__(self, scene: str, events):
        super().__init__()
        self.scene, self.events = scene, events

    def emit(self, record: logging.LogRecord) -> None:
        self.events.put(f"    {self.scene}: {record.getMessage()}")


def render_in_worker(name: str, settings: dict, events):
    """Run in a fresh worker process: the result, or the error and its traceback as text."""
    logger = logging.getLogger("attention_explainer")
    logger.setLevel(logging.INFO)
    logger.addHandler(QueueProgress(name, events))
    events.put(f"{name} ({settings['quality']}): started")
    try:
        return render_scene(name, **settings), None, None
    except Exception as error:  # reported by the parent; the other scenes go on
        return None, f"{type(error).__name__}: {error}", traceback.format_exc()


WORKER = render_in_worker
"""The function each worker process runs; tests put a stand-in here."""

WORKER_ENVIRONMENT = {"MALLOC_PERTURB_": "85"}
"""Set for the worker processes: glibc fills every allocation with one byte pattern.

The encoding path (libx264, libswscale or libavcodec) reads heap bytes it never wrote, at some
sizes: encoding the same 15 frames at 854x480 five times in one process gave three different
files (decoded pixels off by up to 88 levels), because each encode found other leftovers on the
heap, and which depends on what ran before and, with two movies in flight, on thread timing (CI
saw whole movies of the same frames decode up to 2 levels apart). With the pattern, every encode
is the same; 1920x1080 was the same every time either way. Measured cost: see the README's speed
section.
"""


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


def render_scenes(names: list[str], finished: dict, jobs: int, settings: dict, inputs: dict[str, dict] | None = None) -> list[str]:
    """Render each scene in a fresh process, ``jobs`` at a time; return the names that failed.

    ``settings`` are shared by every scene; ``inputs`` holds each scene's own (its ``--sentence`` ...).

    A fresh interpreter per scene (spawned, one task per process) makes a render depend on
    nothing but its scene and settings: ``--jobs 1`` and ``--jobs N`` give identical frames,
    whatever the calling process did before. With more than one job, the scenes start longest
    first (by their last render's time), so the workers finish together instead of one long scene
    rendering alone at the end.
    """
    if jobs > 1:
        names = longest_first(names, settings["media_root"], settings["quality"], inputs)
    failed = []
    context = multiprocessing.get_context("spawn")
    # Workers are spawned all through the pool's life (one task each), so the environment stays set until it ends.
    with worker_environment(), context.Manager() as manager:
        events = manager.Queue()
        printer = threading.Thread(target=echo_events, args=(events,), daemon=True)
        printer.start()
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context, max_tasks_per_child=1) as pool:
            futures = {
                pool.submit(WORKER, name, {**settings, "inputs": (inputs or {}).get(name, {})}, events): name for name in names
            }
            click.echo(f"Rendering {len(names)} scene(s), {jobs} at a time: {', '.join(names)}", err=True)
            try:
                for future in concurrent.futures.as_completed(futures):
                    name = futures[future]
                    prefix = f"{name} ({settings['quality']})"
                    try:
                        result, error, details = future.result()
                    except concurrent.futures.process.BrokenProcessPool as broken:
                        result, error, details = None, f"the worker process died ({broken})", traceback.format_exc()
                    if result is not None:
                        finished[name] = result
                        record_render_time(settings["media_root"], name, settings["quality"], (inputs or {}).get(name), result.seconds)
                        click.echo(f"{prefix}: done in {result.seconds:.1f} s ({len(finished)} finished)", err=True)
                    else:
                        folder = variant_folder(name, (inputs or {}).get(name, {}))
                        log_file = write_error_log(settings["media_root"], folder, settings["quality"], details)
                        click.echo(f"{prefix}: FAILED: {error} (details in {log_file})", err=True)
                        failed.append(name)
            except KeyboardInterrupt:
                pool.shutdown(wait=True, cancel_futures=True)  # workers clean their staging folders
                raise
        events.put(None)
        printer.join(timeout=5)
    return failed


def echo_events(events) -> None:
    """Print workers' progress lines as they come, until the ``None`` that ends them."""
    while (line := events.get()) is not None:
        click.echo(line, err=True)


def write_error_log(media_dir: Path, name: str, quality: str, details: str) -> Path:
    """Keep the full traceback of a failed render in a file instead of on the terminal."""
    log_dir = media_dir / ".logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"{name}-{quality}.log"
    log_file.write_text(details, encoding="utf-8")
    return log_file


if __name__ == "__main__":
    main()
