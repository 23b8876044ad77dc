"""Stand-in render workers for the hardening tests (issue 34, failure 4): ``python -m tests.hardening_workers WORKER ARGS...``.

Not a test module. A spawned worker finds its function by module and name, so they live here.
Each notes its process id in ``<media>/pids/``, waits ``ATTENTION_TEST_WAIT`` seconds, then
publishes a small package with the pipeline's own :func:`~attention_explainer.pipeline.staging.publish`.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from attention_explainer.options import RenderJob


def publishes(job: RenderJob, events):
    """Waits, then publishes; with ``ATTENTION_TEST_HOLD=signals`` SIGINT and SIGTERM are held all along (as a publish holds them)."""
    from attention_explainer.pipeline.folders import Folders
    from attention_explainer.pipeline.results import published_result
    from attention_explainer.pipeline.staging import publish, staging_folder

    if os.environ.get("ATTENTION_TEST_HOLD") == "signals":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    media = Path(job.media_dir)
    (media / "pids").mkdir(parents=True, exist_ok=True)
    (media / "pids" / str(os.getpid())).write_text(job.scene)
    deadline = time.monotonic() + float(os.environ.get("ATTENTION_TEST_WAIT", "3"))
    while time.monotonic() < deadline:
        time.sleep(0.05)
    folders = Folders(media, Path(job.cache_dir))
    with staging_folder(folders, f"{job.folder}-{job.quality}") as staging:
        package = staging / "package"
        package.mkdir()
        (package / "manifest.json").write_text(json.dumps({"scene": job.scene}), encoding="utf-8")
        (package / f"{job.scene}.mp4").write_bytes(b"video")
        publish(package, folders.published(job.scene, job.variant, job.quality), staging)
    return published_result(job, 0.1), None, None


def light_fails(job: RenderJob, events):
    """Fails the light-theme render of a scene; publishes the others at once."""
    if job.theme == "light":
        return None, "RuntimeError: no light today", "Traceback (most recent call last):\nRuntimeError: no light today\n"
    os.environ["ATTENTION_TEST_WAIT"] = "0"
    return publishes(job, events)


if __name__ == "__main__":
    import render
    from attention_explainer.pipeline import workers

    workers.WORKER = globals()[sys.argv[1]]
    sys.argv = ["render.py", *sys.argv[2:]]
    render.main()
