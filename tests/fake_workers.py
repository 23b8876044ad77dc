"""Stand-ins for the render worker, run in the CLI's spawned worker processes by the tests.

They live in a module of their own because a spawned process finds its function by
module and name. The pretend workers record their call in ``calls.txt`` in the media folder.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from scenes.inputs import variant_folder
from scenes.rendering import RenderResult


def _record(name: str, settings: dict) -> Path:
    media = Path(settings["media_root"])
    media.mkdir(parents=True, exist_ok=True)
    with (media / "calls.txt").open("a") as calls:
        inputs = [f"{key}={value}" for key, value in sorted(settings.get("inputs", {}).items())]
        calls.write("\t".join([name, settings["quality"], settings["theme"], *inputs]) + "\n")
    return media


def renders(name: str, settings: dict, events):
    """Writes a small file where the video would go, and one progress line."""
    media = _record(name, settings)
    events.put(f"    {name}: step 1: pretend")
    video = media / variant_folder(name, settings.get("inputs", {})) / settings["quality"] / f"{name}.mp4"
    video.parent.mkdir(parents=True, exist_ok=True)
    video.write_bytes(b"video")
    return RenderResult(name, settings["quality"], video.parent, video, 0.1), None, None


def self_attention_fails(name: str, settings: dict, events):
    """Fails for self-attention the way the real worker reports a failure; renders the others."""
    if name == "self-attention":
        _record(name, settings)
        return None, "RuntimeError: boom", "Traceback (most recent call last):\nRuntimeError: boom\n"
    return renders(name, settings, events)


def renders_and_records_frames(name: str, settings: dict, events):
    """Renders for real, and writes a digest of every frame manim hands its encoder.

    The digests (one line per video frame, repeats included) go to ``<media>/<name>.frames``:
    they tell a difference in what was drawn from a difference in how it was encoded.
    """
    import render
    from manim.scene.scene_file_writer import SceneFileWriter

    digests = []
    write_frame = SceneFileWriter.write_frame

    def recording_write_frame(self, pixels, *, repeat=1):
        digests.extend([hashlib.blake2b(pixels.tobytes(), digest_size=16).hexdigest()] * repeat)
        return write_frame(self, pixels, repeat=repeat)

    SceneFileWriter.write_frame = recording_write_frame  # this worker process renders one scene, then exits
    result = render.render_in_worker(name, settings, events)
    (Path(settings["media_root"]) / f"{name}.frames").write_text("\n".join(digests) + "\n")
    return result


def renders_on_one_core_and_records_frames(name: str, settings: dict, events):
    """Like ``renders_and_records_frames``, with this worker (and its encoder threads) on one core."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    return renders_and_records_frames(name, settings, events)


def calls(media: Path) -> list[tuple[str, str, str]]:
    """The calls recorded so far, in order."""
    path = Path(media) / "calls.txt"
    return [tuple(line.split("\t")) for line in path.read_text().splitlines()] if path.exists() else []


def renders_and_records_environment(name: str, settings: dict, events):
    """Pretends to render, and writes the worker's ``MALLOC_PERTURB_`` to ``<media>/<name>.env``."""
    result = renders(name, settings, events)
    (Path(settings["media_root"]) / f"{name}.env").write_text(os.environ.get("MALLOC_PERTURB_", "unset"))
    return result
