#!/usr/bin/env python
"""Render attention explainer videos.

    python render.py scaling --quality high      # one scene, 1080p60
    python render.py self-attention scaling      # several
    python render.py all --quality low           # the whole catalog
    python render.py --list                      # what there is
    python render.py gallery                     # media/index.html: every rendered scene
    python render.py worksheet self-attention    # a printable handout with an answer key

Finished files go to media/<scene>/<quality>/; the path of every finished video
is printed on standard output, one per line, at the end.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

import click

from scenes import SCENES
from scenes.rendering import FORMATS, QUALITIES, MissingTool, check_tools, render_scene
from scenes.theme import THEMES
from scenes.web import write_gallery
from scenes.worksheet import write_worksheet

QUALITY_HELP = "low = 480p15, medium = 720p30, high = 1080p60, 4k = 2160p60."


def list_scenes() -> None:
    """Print every scene with its one-line description, in teaching order."""
    width = max(len(name) for name in SCENES)
    for name, scene in SCENES.items():
        click.echo(f"{name:<{width}}  {scene.description}")


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


class StepProgress(logging.Handler):
    """Shows each step of the scene being rendered, so a long render shows it is moving."""

    def __init__(self, scene: str):
        super().__init__()
        self.scene = scene

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"    {self.scene}: {record.getMessage()}", err=True)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("scenes", nargs=-1, metavar="SCENES...")
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="high", show_default=True, help=QUALITY_HELP)
@click.option("--theme", type=click.Choice(list(THEMES)), default="dark", show_default=True, help="Colours: dark, or light for white slides and print.")
@click.option("--media-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("media"), show_default=True, help="Where finished files go.")
@click.option("--format", "video_format", type=click.Choice(FORMATS), default="mp4", show_default=True, help="webm or both add a VP9 WebM beside the MP4.")
@click.option("--list", "show_list", is_flag=True, help="List the scenes and exit.")
def main(scenes: tuple[str, ...], quality: str, theme: str, media_dir: Path, video_format: str, show_list: bool) -> None:
    """Render SCENES (names from --list, or `all`) to media/<scene>/<quality>/.

    `python render.py gallery` writes media/index.html, a page of every rendered scene;
    `python render.py worksheet SCENES...` writes printable exercises with an answer key.
    """
    if show_list or scenes == ("list",):
        list_scenes()
        return
    if scenes == ("gallery",):
        click.echo(str(write_gallery(media_dir)))
        return
    if scenes and scenes[0] == "worksheet":
        for name in select(scenes[1:]):
            scene = SCENES[name]
            try:
                click.echo(str(write_worksheet(scene, scene.build_trace(), media_dir / name / "worksheet.html")))
            except LookupError as error:
                raise click.ClickException(str(error)) from None
        return
    selected = select(scenes)
    try:
        check_tools()
    except MissingTool as error:
        raise click.ClickException(str(error)) from None

    logger = logging.getLogger("attention_explainer")
    logger.setLevel(logging.INFO)
    finished, failed = [], []
    for number, name in enumerate(selected, start=1):
        prefix = f"[{number}/{len(selected)}] {name} ({quality})"
        click.echo(f"{prefix}: rendering", err=True)
        handler = StepProgress(name)
        logger.addHandler(handler)
        try:
            result = render_scene(name, quality, media_dir, theme, video_format)
        except KeyboardInterrupt:
            click.echo(f"\nInterrupted: {name} was not written; finished videos are kept.", err=True)
            sys.exit(130)
        except Exception as error:  # one failing scene must not lose the others
            log_file = write_error_log(media_dir, name, quality)
            click.echo(f"{prefix}: FAILED: {type(error).__name__}: {error} (details in {log_file})", err=True)
            failed.append(name)
        else:
            click.echo(f"{prefix}: done in {result.seconds:.1f} s", err=True)
            finished.append(result)
        finally:
            logger.removeHandler(handler)

    for result in finished:
        click.echo(str(result.video))
    if failed:
        raise click.ClickException(f"{len(failed)} of {len(selected)} scenes failed: {', '.join(failed)}")


def write_error_log(media_dir: Path, name: str, quality: str) -> Path:
    """Keep the full traceback of a failed render in a file instead of on the terminal."""
    log_dir = media_dir / ".logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_file = log_dir / f"{name}-{quality}.log"
    log_file.write_text(traceback.format_exc(), encoding="utf-8")
    return log_file


if __name__ == "__main__":
    main()
