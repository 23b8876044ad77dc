"""Renders as tasks on a Dask cluster: each drawn in a fresh process on a worker, published by the client alone.

The client submits one task per render (:func:`render_task`). On its worker the task starts
``python -m attention_explainer.pipeline.cluster`` with a private media and cache folder, so a
render depends on nothing the worker process did before, and returns the finished package as a
tar in memory: a worker needs no storage shared with the client. The client checks the package
against its manifest (every file's size and sha256, and that the worker's code and libraries gave
the render hash the client computes), unpacks it into its own staging folder and publishes it
with renames (:func:`.staging.publish`). A worker that dies mid-render publishes nothing; the
scheduler runs its task again on another worker, at most ``distributed.scheduler.allowed-failures``
times (3 by default) before the render is reported failed.

Every worker needs this project importable, the same code and libraries as the client (the
render hash records them), and LaTeX and dvisvgm.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Callable

from ..options import RenderJob, variant_folder
from ..package.manifest import damaged_files, read_manifest, unlisted_files
from .processes import die_with_parent, stop_on_signals
from .staging import recover_staging

__all__ = [
    "ClusterUnavailable",
    "PackageRejected",
    "RenderFailed",
    "ClusterOutcome",
    "connect",
    "render_task",
    "render_on_cluster",
    "publish_package",
    "RETRIES",
]

RETRIES = 2
"""How often a task whose render raised is run again (a full disk on one worker, say). A worker's death is
counted by the scheduler instead: ``distributed.scheduler.allowed-failures``."""

CONNECT_TIMEOUT = "10s"
"""How long the client tries to reach the scheduler before saying it cannot."""

HANDSHAKE_SECONDS = 10.0
"""How long a scheduler has to greet the client: a Dask scheduler sends its handshake as soon as it accepts."""

WORKER_FOLDER = "attention-explainer-worker"
"""A worker machine's folder (in its temporary folder): the tasks' private folders, and a LaTeX cache they share."""

PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""The folder holding the ``attention_explainer`` package this process imported; the render process imports the same."""


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, or the scheduler cannot be reached."""


class PackageRejected(RuntimeError):
    """A package a worker returned does not match its manifest or this client's code."""


class RenderFailed(RuntimeError):
    """The render process on a worker failed; the message ends with the last lines of its log."""


def connect(address: str):
    """A Dask client connected to the scheduler at ``address``; :class:`ClusterUnavailable` when it cannot be."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable(
            "batch --scheduler needs Dask distributed: pip install -e '.[distributed]' (or `make distributed`)"
        ) from None
    probe_scheduler(address)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {error}") from None


def probe_scheduler(address: str, seconds: float | None = None) -> None:
    """Check that a Dask scheduler answers at a ``tcp://`` ``address`` within ``seconds``; :class:`ClusterUnavailable` if not.

    Dask's own connect timeout covers reaching the port, not a peer that accepts and never answers
    (a stuck program, an HTTP server): its client then waited forever. A Dask scheduler writes its
    handshake first, as one message: 8 bytes of length, then the number of frames and their lengths.
    Other schemes (``tls://``, ``inproc://``) are left to Dask.
    """
    import socket
    import struct
    from urllib.parse import urlsplit

    seconds = HANDSHAKE_SECONDS if seconds is None else seconds
    scheme = address.split("://", 1)[0] if "://" in address else "tcp"
    if scheme != "tcp":
        return
    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port or 8786
    except ValueError as error:
        raise ClusterUnavailable(f"{address} is not a scheduler address (tcp://host:port): {error}") from None
    if not host:
        raise ClusterUnavailable(f"{address} is not a scheduler address (tcp://host:port)")
    silent = f"no Dask scheduler answered at {address} within {seconds:g} s"
    deadline = time.monotonic() + seconds
    try:
        with socket.create_connection((host, port), timeout=seconds) as probe:
            greeting = b""
            while len(greeting) < 16:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ClusterUnavailable(silent)
                probe.settimeout(left)
                chunk = probe.recv(16 - len(greeting))
                if not chunk:
                    raise ClusterUnavailable(f"{address} closed the connection without a Dask handshake: is it a Dask scheduler?")
                greeting += chunk
    except TimeoutError:
        raise ClusterUnavailable(silent) from None
    except OSError as error:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {error.strerror or error}") from None
    length, frames = struct.unpack("QQ", greeting)
    if not (1 <= frames <= 64 and length < 1 << 20):
        raise ClusterUnavailable(f"{address} answered, but not as a Dask scheduler does: is it one?")


def job_spec(job: RenderJob) -> dict:
    """What a worker needs to render ``job``: everything but the client's folders."""
    return {
        "scene": job.scene,
        "inputs": job.inputs,
        "quality": job.quality,
        "theme": job.theme,
        "video_format": job.video_format,
        "voice": job.voice,
    }


# --- On the worker -------------------------------------------------------------------------------


def _task_cancelled() -> bool:
    """Whether the client cancelled the task this thread runs (Dask never interrupts a running task itself)."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        task = get_worker().state.tasks.get(thread_state.key)
    except (ImportError, AttributeError, ValueError):  # not in a worker, or another Dask: never cancelled
        return False
    return task is None or task.state == "cancelled"


def render_task(spec: dict, cancelled: Callable[[], bool] = _task_cancelled) -> dict:
    """Run on a Dask worker: render ``spec`` in a fresh process and return its package as tar bytes.

    The render's media and cache are private to the task, inside the worker machine's
    temporary folder; folders left by a killed worker's tasks are removed by the next task.
    Returns ``{"package": bytes, "worker": address, "seconds": float}``.
    """
    root = Path(tempfile.gettempdir()) / WORKER_FOLDER
    tasks = root / "tasks"
    tasks.mkdir(parents=True, exist_ok=True)
    recover_staging(tasks)  # the folders of tasks whose worker died
    recover_staging(root / "cache" / "staging")  # and their render processes' staging folders
    from .freshness import WORKER_ENVIRONMENT

    job = RenderJob(spec["scene"], spec["inputs"], spec["quality"], spec["theme"], spec["video_format"], voice=spec["voice"])
    started = time.monotonic()
    # Named like a staging folder (``-pid<N>-``): recover_staging removes it once this process is gone.
    task = Path(tempfile.mkdtemp(prefix=f"{job.stem}-pid{os.getpid()}-", dir=tasks))
    try:
        media = task / "media"
        spec = {**spec, "media_dir": str(media), "cache_dir": str(root / "cache"), "worker_pid": os.getpid()}
        environment = {**os.environ, **WORKER_ENVIRONMENT}
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), environment.get("PYTHONPATH")]))
        log = task / "render.log"
        with log.open("wb") as output:
            process = subprocess.Popen(
                [sys.executable, "-m", "attention_explainer.pipeline.cluster", json.dumps(spec)],
                stdout=output,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=environment,
                cwd=task,
            )
            code = _wait(process, cancelled)
        if code != 0:
            raise RenderFailed(failure_line(log.read_text(encoding="utf-8", errors="replace"), code))
        package = media / variant_folder(job.scene, job.variant) / job.quality
        return {"package": pack(package), "worker": _worker_address(), "seconds": time.monotonic() - started}
    finally:
        shutil.rmtree(task, ignore_errors=True)


def _wait(process: subprocess.Popen, cancelled: Callable[[], bool]) -> int:
    """Wait for the render process; stop it (SIGTERM, then SIGKILL) when the client cancels the task."""
    while True:
        try:
            return process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            if cancelled():
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                raise RenderFailed("cancelled by the client") from None
        except BaseException:  # the worker is closing: no render outlives its task
            process.kill()
            process.wait()
            raise


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return "(no worker)"


def pack(folder: Path) -> bytes:
    """``folder``'s regular files as an uncompressed tar (videos do not compress), paths relative to it."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in sorted(folder.rglob("*")):
            if path.is_symlink() or not path.is_file():
                continue
            info = tarfile.TarInfo(path.relative_to(folder).as_posix())
            info.size, info.mode, info.mtime = path.stat().st_size, 0o644, int(path.stat().st_mtime)
            with path.open("rb") as handle:
                tar.addfile(info, handle)
    return buffer.getvalue()


def _tie_to_worker(worker_pid: int) -> None:
    """In the render process, first of all: SIGTERM when the worker process dies (Linux), and stop now if it already has.

    Set before the slow imports, so that a worker killed while its render process starts leaves no
    render running on its own.
    """
    die_with_parent()
    if os.getppid() != worker_pid:
        raise SystemExit("the worker that started this render is gone")


def _render_process(spec: dict) -> None:
    """The body of the fresh render process on a worker: render into the task's private media folder."""
    _tie_to_worker(spec["worker_pid"])
    from .render_job import render_scene

    stop_on_signals()  # SIGTERM, and the worker's death, end the render cleanly
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("attention_explainer").setLevel(logging.INFO)
    job = RenderJob(
        spec["scene"],
        spec["inputs"],
        spec["quality"],
        spec["theme"],
        spec["video_format"],
        Path(spec["media_dir"]),
        Path(spec["cache_dir"]),
        spec["voice"],
    )
    render_scene(job)


# --- On the client -------------------------------------------------------------------------------


def unpack(data: bytes, target: Path) -> None:
    """Extract a package's tar into ``target``: regular files and folders inside it only."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for member in tar.getmembers():
                name = PurePosixPath(member.name)
                if not (member.isfile() or member.isdir()) or name.is_absolute() or ".." in name.parts:
                    raise PackageRejected(f"the package holds {member.name!r}, which is not a file inside it")
            target.mkdir(parents=True)
            # The members are checked above; the "data" filter (Python 3.11.4 on) checks them again.
            tar.extractall(target, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    except tarfile.TarError as error:
        raise PackageRejected(f"the package is not a readable tar: {error}") from None


def check_package(package: Path, job: RenderJob) -> dict:
    """``package``'s manifest, once every file matches it and its frames come from this client's code; else :class:`PackageRejected`."""
    from .freshness import render_hash

    manifest = read_manifest(package)
    if manifest is None:
        raise PackageRejected("the package has no readable manifest")
    if manifest["render_hash"] != render_hash(job):
        raise PackageRejected(
            "the worker drew it with other code or library versions than this client (the render hash differs): "
            "install the same project and versions on every machine"
        )
    unlisted = unlisted_files(package, manifest)
    if unlisted:
        raise PackageRejected(f"files missing or not in the manifest: {', '.join(unlisted[:5])}")
    damaged = damaged_files(package, manifest["files"])
    if damaged:
        raise PackageRejected(f"{damaged[0]} does not match its manifest (size or sha256)")
    return manifest


def publish_package(data: bytes, job: RenderJob, folders) -> bool:
    """Check the package ``data`` a worker returned and publish it whole into ``job``'s folder.

    A package whose pages were written by other code than this client's (its package hash
    differs: only the pages' code differs, the frames are this client's) is published and then
    repackaged here, so what is published always matches this client. Returns whether it was.
    """
    from .freshness import package_hash
    from .render_job import repackage
    from .staging import publish, staging_folder

    final = folders.published(job.scene, job.variant, job.quality)
    with staging_folder(folders, job.stem) as staging:
        package = staging / "package"
        unpack(data, package)
        manifest = check_package(package, job)
        publish(package, final, staging)
    if manifest["package_hash"] == package_hash(job):
        return False
    repackage(replace(job, media_dir=folders.media, cache_dir=folders.cache))
    return True


@dataclass
class ClusterOutcome:
    """What the cluster gave: the published folders by job, the failures with their reasons, and what was submitted."""

    published: dict[str, Path] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    submitted: int = 0


def render_on_cluster(client, jobs: list[RenderJob], folders, report: Callable[[RenderJob, str], None]) -> ClusterOutcome:
    """Submit one task per job, publish each package as it comes back, and call ``report(job, what)`` for each.

    Ctrl-C (KeyboardInterrupt) cancels every task still pending or running, then goes on up.
    """
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from .timings import record_render_time

    outcome = ClusterOutcome()
    futures = {}
    for job in jobs:
        key = f"render-{job.stem}-{uuid.uuid4().hex[:8]}"
        futures[client.submit(render_task, job_spec(job), key=key, retries=RETRIES, pure=False)] = job
    outcome.submitted = len(futures)
    try:
        for future in as_completed(list(futures), loop=client.loop):
            job = futures[future]
            try:
                result = future.result()
                publishing = time.monotonic()
                repackaged = publish_package(result["package"], job, folders)
                publishing = time.monotonic() - publishing
            except KilledWorker as error:
                outcome.failed[job.key] = f"its worker died {error.allowed_failures + 1} times (the last: {error.last_worker})"
            except (RenderFailed, PackageRejected) as error:
                outcome.failed[job.key] = str(error)
            except OSError as error:
                outcome.failed[job.key] = f"cannot publish it: {error.strerror or error}"
            except Exception as error:  # raised on the worker (Dask re-raises it here): that render failed, the others go on
                outcome.failed[job.key] = f"{type(error).__name__}: {error}"
            else:
                outcome.published[job.key] = folders.published(job.scene, job.variant, job.quality)
                try:
                    record_render_time(folders, job, result["seconds"])
                except OSError:  # only the order of later embedded renders depends on it
                    pass
                pages = "; pages rewritten here" if repackaged else ""
                report(
                    job,
                    f"published (worker {result['worker']}, {result['seconds']:.1f} s on the worker, "
                    f"{publishing:.2f} s to check and publish{pages})",
                )
                continue
            finally:
                future.release()
            report(job, f"FAILED: {outcome.failed[job.key]}")
    except BaseException:
        client.cancel(list(futures), force=True)
        raise
    return outcome


FAILURE_MARK = "render failed: "
"""Begins the last line a failed render process writes to its log: the one line the client reports."""


def _render_process_reporting(spec: dict) -> None:
    """:func:`_render_process`, its failure ended by one line (the error) after the traceback, as a local render reports it."""
    try:
        _render_process(spec)
    except Exception as error:
        import traceback

        traceback.print_exc()
        print(f"{FAILURE_MARK}{type(error).__name__}: {error}".replace("\n", " "), flush=True)
        sys.exit(1)


def failure_line(log_text: str, code: int) -> str:
    """What a failed render process's log says went wrong, in one line: its error, or else the last line it wrote."""
    lines = [line for line in log_text.strip().splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith(FAILURE_MARK):
            return line[len(FAILURE_MARK) :]
    return f"the render process exited with code {code}" + (f": {lines[-1].strip()}" if lines else "")


if __name__ == "__main__":
    _render_process_reporting(json.loads(sys.argv[1]))
