"""Stand-ins for the render worker, run in the CLI's spawned worker processes by the tests.

They live in a module of their own because a spawned process finds its function by
module and name. The pretend workers record their call in ``calls.txt`` in the media folder.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from attention_explainer.options import RenderJob
from attention_explainer.pipeline.results import published_result
from attention_explainer.pipeline.workers import render_in_worker


def _record(job: RenderJob) -> Path:
    media = Path(job.media_dir)
    media.mkdir(parents=True, exist_ok=True)
    with (media / "calls.txt").open("a") as calls:
        inputs = [f"{key}={value}" for key, value in sorted(job.inputs.items())]
        calls.write("\t".join([job.scene, job.quality, job.theme, *inputs]) + "\n")
    return media


def renders(job: RenderJob, events):
    """Writes a small file where the video would go, and one progress line."""
    _record(job)
    events.put(f"    {job.scene}: step 1: pretend")
    result = published_result(job, 0.1)
    result.video.parent.mkdir(parents=True, exist_ok=True)
    result.video.write_bytes(b"video")
    return result, None, None


def self_attention_fails(job: RenderJob, events):
    """Fails for self-attention the way the real worker reports a failure; renders the others."""
    if job.scene == "self-attention":
        _record(job)
        return None, "RuntimeError: boom", "Traceback (most recent call last):\nRuntimeError: boom\n"
    return renders(job, events)


def renders_and_records_frames(job: RenderJob, events):
    """Renders for real, and writes a digest of every frame manim hands its encoder.

    The digests (one line per video frame, repeats included) go to ``<media>/../<name>.frames``:
    they tell a difference in what was drawn from a difference in how it was encoded.
    """
    from manim.scene.scene_file_writer import SceneFileWriter

    digests = []
    write_frame = SceneFileWriter.write_frame

    def recording_write_frame(self, pixels, *, repeat=1):
        digests.extend([hashlib.blake2b(pixels.tobytes(), digest_size=16).hexdigest()] * repeat)
        return write_frame(self, pixels, repeat=repeat)

    SceneFileWriter.write_frame = recording_write_frame  # this worker process renders one scene, then exits
    result = render_in_worker(job, events)
    (Path(job.media_dir).parent / f"{Path(job.media_dir).name}-{job.scene}.frames").write_text("\n".join(digests) + "\n")
    return result


def renders_on_one_core_and_records_frames(job: RenderJob, events):
    """Like ``renders_and_records_frames``, with this worker (and its encoder threads) on one core."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    return renders_and_records_frames(job, events)


def renders_once_another_has_started(job: RenderJob, events):
    """Pretends to render once a second worker has started as well (or after ``ATTENTION_TEST_WAIT`` seconds, 60 by default).

    Each writes ``<media>/started/<folder>`` as it starts and ``<media>/together/<folder>`` with how many had started
    when it went on: renders made one at a time each find only themselves (after the wait).
    """
    started, together = Path(job.media_dir) / "started", Path(job.media_dir) / "together"
    started.mkdir(parents=True, exist_ok=True)
    together.mkdir(exist_ok=True)
    (started / job.folder).write_text(str(os.getpid()))
    deadline = time.monotonic() + float(os.environ.get("ATTENTION_TEST_WAIT", "60"))
    while len(list(started.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    (together / job.folder).write_text(str(len(list(started.iterdir()))))
    return renders(job, events)


def calls(media: Path) -> list[tuple[str, ...]]:
    """The calls recorded so far, in order."""
    path = Path(media) / "calls.txt"
    return [tuple(line.split("\t")) for line in path.read_text().splitlines()] if path.exists() else []


def renders_and_records_environment(job: RenderJob, events):
    """Pretends to render, and writes the worker's environment variables that :data:`WORKER_ENVIRONMENT` sets."""
    from attention_explainer.pipeline.freshness import WORKER_ENVIRONMENT

    result = renders(job, events)
    values = [f"{key}={os.environ.get(key, 'unset')}" for key in sorted(WORKER_ENVIRONMENT)]
    (Path(job.media_dir) / f"{job.scene}.env").write_text("\n".join(values))
    return result


def self_attention_is_killed(job: RenderJob, events):
    """self-attention's worker is killed mid-render (as by the kernel's OOM killer); the others render."""
    if job.scene == "self-attention":
        _record(job)
        os.kill(os.getpid(), 9)
    return renders(job, events)


def stages_and_waits(job: RenderJob, events):
    """Stages as a real render does, notes its process id, then waits (for a signal) before publishing.

    ``<media>/pids/<pid>`` marks a worker alive; the wait is ``ATTENTION_TEST_WAIT`` seconds (60 by default),
    or until a test creates ``<media>/release``.
    """
    from attention_explainer.pipeline.folders import Folders
    from attention_explainer.pipeline.staging import staging_folder

    media = _record(job)
    (media / "pids").mkdir(exist_ok=True)
    (media / "pids" / str(os.getpid())).write_text(job.scene)
    with staging_folder(Folders(Path(job.media_dir), Path(job.cache_dir)), f"{job.folder}-{job.quality}") as staging:
        (staging / "frames").write_text("half a render")
        events.put(f"    {job.scene}: staging")
        # Short sleeps, as a render runs Python all the time: a signal that another thread
        # receives runs its handler in the main thread only between bytecodes.
        deadline = time.monotonic() + float(os.environ.get("ATTENTION_TEST_WAIT", "60"))
        while time.monotonic() < deadline and not (media / "release").exists():
            time.sleep(0.05)
    return renders(job, events)


def run_cli(worker: str) -> None:
    """The CLI with ``worker`` (a name in this module) as every worker's function: ``python -m tests.fake_workers WORKER ARGS...``."""
    import sys

    import render
    from attention_explainer.pipeline import workers

    workers.WORKER = globals()[worker]
    sys.argv = ["render.py", *sys.argv[2:]]
    render.main()


if __name__ == "__main__":
    import sys

    run_cli(sys.argv[1])
