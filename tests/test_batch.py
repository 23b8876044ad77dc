"""Batches: the batch file read in the render command's words, and renders on a local Dask cluster.

The fast tier checks the parser and the errors a user can cause. The render tier starts a real
cluster on 127.0.0.1 (a ``dask scheduler`` and two ``dask worker`` processes, each its own process
group), renders a batch of two while one worker is killed mid-render, checks every published
file against its manifest with hashlib, and runs the batch again, which must submit nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from attention_explainer.cli.batch import parse_batch
from attention_explainer.options import variant_folder
from attention_explainer.pipeline import cluster, workers

from . import fake_workers
from .helpers import as_from_a_terminal, drafts_path, wait_for

PROJECT = Path(__file__).resolve().parent.parent


def entries(text: str):
    return parse_batch(text, Path("media"), Path("cache"))


def run_batch(tmp_path: Path, text: str, *options: str):
    batch_file = tmp_path / "renders.txt"
    batch_file.write_text(text, encoding="utf-8")
    media, cache = tmp_path / "media", tmp_path / "cache"
    arguments = ["batch", str(batch_file), "--media-dir", str(media), "--cache-dir", str(cache), *options]
    return CliRunner().invoke(render.main, arguments), media


# --- The batch file --------------------------------------------------------------------------------


def test_comments_blank_lines_and_quotes_are_read_as_a_shell_would():
    parsed = entries(
        "# a course's renders\n"
        "\n"
        "   \n"
        "scaling --quality low   # the default seed\n"
        "self-attention -q low --sentence 'Dogs chase #small cats'\n"
        'render qkv --quality medium --sentence "It is   here" --seed 7\n'
    )
    assert [(e.job.scene, e.job.quality, e.lines) for e in parsed] == [
        ("scaling", "low", [4]),
        ("self-attention", "low", [5]),
        ("qkv", "medium", [6]),
    ]
    # A `#` inside quotes is part of the sentence, not a comment.
    assert parsed[1].job.inputs == {"sentence": "Dogs chase #small cats"}
    assert parsed[2].job.inputs["seed"] == 7
    assert parsed[0].job.theme == "dark" and parsed[0].force is False


def test_lines_that_render_into_one_folder_are_one_render():
    parsed = entries(
        "scaling -q low --seed 3\nscaling --seed 3 --quality low --force\nscaling -q low\nscaling -q high --seed 3\n"
    )
    assert [(e.job.scene, e.job.quality, e.job.inputs, e.lines, e.force) for e in parsed] == [
        ("scaling", "low", {"seed": 3}, [1, 2], True),
        ("scaling", "low", {}, [3], False),
        ("scaling", "high", {"seed": 3}, [4], False),
    ]


def test_a_line_with_several_scenes_is_several_renders():
    parsed = entries("softmax scaling --quality low\n")
    assert [(e.job.scene, e.lines) for e in parsed] == [("softmax", [1]), ("scaling", [1])]


@pytest.mark.parametrize(
    "line, reason",
    [
        ("scaling --quality ultra", "'ultra' is not one of"),
        ("scalling --quality low", "unknown scene 'scalling'"),
        ("softmax --seed 3", "softmax takes no --seed"),
        ("scaling --seed -1", "--seed must be a whole number"),
        ("scaling --bogus", "No such option '--bogus'"),
        ('self-attention --sentence "unclosed', "No closing quotation"),
        ("scaling --media-dir elsewhere", "--media-dir belongs to the whole batch"),
        ("scaling --jobs 4", "--jobs belongs to the whole batch"),
        ("scaling --help", "--help is not a render"),
        ("scaling --format both --quality low", "--format both instead of mp4"),
    ],
)
def test_a_bad_line_exits_2_naming_its_line_before_anything_starts(tmp_path, line, reason):
    result, media = run_batch(tmp_path, f"# first the default\nscaling --quality low\n\n{line}\nsoftmax --quality low\n")
    assert result.exit_code == 2, result.output
    assert "line 4: " in result.output and reason in result.output, result.output
    assert "Traceback" not in result.output
    assert not media.exists(), "nothing may start before every line is checked"


def test_a_file_that_is_not_text_is_a_usage_error(tmp_path):
    batch_file = tmp_path / "renders.txt"
    batch_file.write_bytes(b"scaling \xff\xfe\n")
    result = CliRunner().invoke(render.main, ["batch", str(batch_file)])
    assert result.exit_code == 2 and "not UTF-8 text" in result.output


def test_a_bad_scheduler_address_is_a_usage_error(tmp_path):
    result, media = run_batch(tmp_path, "scaling -q low\n", "--scheduler", "nowhere")
    assert result.exit_code == 2 and "--scheduler" in result.output and "tcp://host:8786" in result.output
    assert not media.exists()


def test_a_scheduler_that_cannot_be_reached_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result, media = run_batch(tmp_path, "scaling -q low\n", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 1, result.output
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in result.output
    assert "Traceback" not in result.output
    assert not (media / "scaling").exists()


def test_without_dask_the_scheduler_option_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed.comm", None)  # importing it now raises ImportError
    result, media = run_batch(tmp_path, "scaling -q low\n", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.exit_code == 1
    assert "pip install -e '.[distributed]'" in result.output and "make distributed" in result.output


def test_a_package_with_a_path_outside_it_is_refused(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("../escaped.txt")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"hi"))
    with pytest.raises(cluster.PackageRejected, match="not a file inside it"):
        cluster.unpack(buffer.getvalue(), tmp_path / "package")
    assert not (tmp_path / "escaped.txt").exists()


def test_a_cancelled_task_stops_its_render_process_and_leaves_no_folder(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    spec = {"scene": "scaling", "inputs": {}, "quality": "low", "theme": "dark", "video_format": "mp4", "voice": "none"}
    started = time.monotonic()
    with pytest.raises(cluster.RenderFailed, match="cancelled by the client"):
        cluster.render_task(spec, cancelled=lambda: True)
    assert time.monotonic() - started < 60
    assert list((tmp_path / cluster.WORKER_FOLDER / "tasks").iterdir()) == []


def test_a_render_process_whose_worker_is_gone_stops_before_rendering(tmp_path):
    """Started for a worker that is not its parent (as when the worker died while it started), it renders nothing."""
    spec = {"scene": "scaling", "inputs": {}, "quality": "low", "theme": "dark", "video_format": "mp4", "voice": "none"}
    spec |= {"media_dir": str(tmp_path / "media"), "cache_dir": str(tmp_path / "cache"), "worker_pid": os.getpid() + 1}
    started = subprocess.run(
        [sys.executable, "-m", "attention_explainer.pipeline.cluster", json.dumps(spec)],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=120,
    )
    assert started.returncode == 1 and "the worker that started this render is gone" in started.stderr
    assert not (tmp_path / "media").exists() and not (tmp_path / "cache").exists()


# --- A local cluster -------------------------------------------------------------------------------

BATCH = """# two low-quality renders of the shortest scene: one per worker, so the killed worker was drawing one of them
scaling --quality low
scaling --seed 1 --quality low
"""


def start(command: list[str], log: Path, **environment: str) -> subprocess.Popen:
    """A process in a process group of its own (so a kill takes its children too), its output in ``log``."""
    with log.open("wb") as output:
        return subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **environment}
        )


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process's group, SIGKILL after 20 s."""
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def local_cluster(tmp_path_factory):
    """A scheduler and two workers (w1, w2) on 127.0.0.1, each worker with its own temporary folder; torn down always."""
    from distributed import Client

    root = tmp_path_factory.mktemp("cluster")
    scheduler_file = root / "scheduler.json"
    processes = {}
    try:
        processes["scheduler"] = start(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
            + ["--no-dashboard", "--scheduler-file", str(scheduler_file)],
            root / "scheduler.log",
        )
        wait_for(lambda: scheduler_file.exists() and scheduler_file.stat().st_size > 0, 60, "the scheduler")
        for name in ("w1", "w2"):
            (root / name).mkdir()
            processes[name] = start(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file)]
                + ["--name", name, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
                root / f"{name}.log",
                TMPDIR=str(root / name),
                PYTHONPATH=drafts_path(),  # its renders are drafts, as the run's render is
            )
        with Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=120)
            addresses = {info["name"]: address for address, info in client.scheduler_info()["workers"].items()}
        address = json.loads(scheduler_file.read_text())["address"]
        yield {"address": address, "root": root, "processes": processes, "workers": addresses}
    finally:
        for process in processes.values():
            stop(process)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_complete(folder: Path) -> None:
    """Every file the manifest lists has its size and sha256 (by hashlib here), and nothing else is there."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    listed = {entry["path"]: entry for entry in manifest["files"]}
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != "manifest.json"}
    assert present == set(listed), f"{folder}: {sorted(present ^ set(listed))}"
    for path, entry in listed.items():
        assert (folder / path).stat().st_size == entry["bytes"] and sha256(folder / path) == entry["sha256"], f"{folder}/{path}"
    assert {"scaling.mp4", "captions.vtt", "poster.png", "trace.json", "present.html"} <= present


def published_folders(media: Path) -> list[Path]:
    return sorted(manifest.parent for manifest in media.rglob("manifest.json"))


@pytest.fixture(scope="module")
def batch_with_a_killed_worker(local_cluster, tmp_path_factory):
    """The batch's renders on the cluster; w1 (its whole process group) SIGKILLed once a render is drawing on it."""
    work = tmp_path_factory.mktemp("batch")
    (work / "renders.txt").write_text(BATCH, encoding="utf-8")
    command = [sys.executable, str(PROJECT / "render.py"), "batch", str(work / "renders.txt")]
    command += ["--scheduler", local_cluster["address"], "--media-dir", str(work / "media"), "--cache-dir", str(work / "cache")]
    w1_staging = local_cluster["root"] / "w1" / cluster.WORKER_FOLDER / "cache" / "staging"
    with (work / "first.log").open("wb") as log:
        client = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=work)
        try:
            # A render's staging folder on w1 exists from the start of its drawing to its end.
            wait_for(lambda: w1_staging.is_dir() and any(w1_staging.iterdir()), 300, "a render to start on w1")
            time.sleep(2)  # well inside the drawing (scaling takes 15 s or more here)
            drawing = [p.name for p in w1_staging.iterdir()]
            os.killpg(local_cluster["processes"]["w1"].pid, signal.SIGKILL)
            local_cluster["processes"]["w1"].wait(timeout=30)
            code = client.wait(timeout=900)
        finally:
            if client.poll() is None:
                client.kill()
    return {
        "work": work,
        "code": code,
        "output": (work / "first.log").read_text(),
        "drawing_when_killed": drawing,
        "command": command,
    }


@pytest.mark.render
def test_a_killed_worker_still_leaves_every_package_complete(batch_with_a_killed_worker, local_cluster):
    run = batch_with_a_killed_worker
    assert run["drawing_when_killed"], "w1 was killed while drawing"
    assert run["code"] == 0, run["output"]
    assert "2 submitted to" in run["output"]
    published = [line for line in run["output"].splitlines() if ": published (worker " in line]
    assert len(published) == 2, run["output"]
    # w1 died drawing its first render, so every package came from w2, the one it was given included.
    assert all(local_cluster["workers"]["w2"] in line for line in published), run["output"]
    media, cache = run["work"] / "media", run["work"] / "cache"
    folders = published_folders(media)
    assert len(folders) == 2
    for folder in folders:
        assert_complete(folder)
    # The two are two different renders (two seeds), not one published twice.
    assert len({sha256(folder / "trace.json") for folder in folders}) == 2
    # Nothing half-published anywhere: no staging folder, no temporary file, in media or the client's cache.
    leftovers = [p for p in media.rglob("*") if p.name.startswith(".")]
    assert not leftovers and not (cache / "staging").exists() and not (media / ".staging").exists()
    # The surviving worker cleaned up after each of its tasks.
    assert list((local_cluster["root"] / "w2" / cluster.WORKER_FOLDER / "tasks").iterdir()) == []


@pytest.mark.render
def test_a_second_run_submits_nothing(batch_with_a_killed_worker):
    run = batch_with_a_killed_worker
    media = run["work"] / "media"
    # The drawn files (pages may be rewritten around them, by hard links, if the pages' code changed meanwhile).
    drawn = [p for folder in published_folders(media) for p in [folder / "scaling.mp4", *(folder / "sections").iterdir()]]
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in drawn}
    again = subprocess.run(run["command"], capture_output=True, text=True, cwd=run["work"], timeout=300)
    assert again.returncode == 0, again.stderr
    assert "2 up to date or repackaged, 0 submitted" in again.stderr, again.stderr
    reused = [line for line in again.stderr.splitlines() if line.endswith(": up to date") or ": pages rewritten" in line]
    assert len(reused) == 2 and "published (worker" not in again.stderr, again.stderr
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in drawn} == before, "a re-run may not draw anything again"


@pytest.mark.render
def test_a_package_that_does_not_match_its_manifest_is_not_published(batch_with_a_killed_worker, tmp_path):
    from attention_explainer.options import RenderJob
    from attention_explainer.pipeline.folders import Folders

    published = batch_with_a_killed_worker["work"] / "media" / "scaling" / "low"
    damaged = tmp_path / "damaged"
    shutil.copytree(published, damaged)
    poster = bytearray((damaged / "poster.png").read_bytes())
    poster[-20] ^= 0xFF  # same size, other bytes
    (damaged / "poster.png").write_bytes(bytes(poster))
    folders = Folders(tmp_path / "media", tmp_path / "cache")
    job = RenderJob("scaling", {}, "low", media_dir=folders.media, cache_dir=folders.cache)
    with pytest.raises(cluster.PackageRejected, match="poster.png does not match its manifest"):
        cluster.publish_package(cluster.pack(damaged), job, folders)
    assert not (folders.media / "scaling").exists() and not (folders.cache / "staging").exists()
    # The intact package publishes, byte for byte.
    cluster.publish_package(cluster.pack(published), job, folders)
    assert_complete(folders.media / "scaling" / "low")


@pytest.mark.render
def test_the_cluster_publishes_the_same_bytes_as_this_machine(batch_with_a_killed_worker, rendered):
    """The cluster's package of ``scaling --quality low`` and the run's render of that line on this machine (``rendered``:
    the render command, its own worker processes and cache): the same files, byte for byte.

    The batch's local path is the render command's (:func:`attention_explainer.runner.run`); that it renders two at a
    time on this machine is :func:`test_the_embedded_batch_renders_its_lines_on_this_machine_two_at_a_time`'s.
    """
    local = rendered[0] / "scaling" / "low"
    twin = batch_with_a_killed_worker["work"] / "media" / "scaling" / "low"
    assert_complete(local)
    files = sorted(p.relative_to(local) for p in local.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(twin) for p in twin.rglob("*") if p.is_file())
    manifests = [json.loads((f / "manifest.json").read_text(encoding="utf-8")) for f in (local, twin)]
    assert manifests[0]["render_hash"] == manifests[1]["render_hash"] and Path("scaling.mp4") in files
    if manifests[0]["package_hash"] != manifests[1]["package_hash"]:
        # The page code changed between the two renders (a checkout being edited): compare the drawn files only.
        drawn = {entry["path"] for entry in manifests[0]["files"] if entry["part"] == "render"}
        files = [p for p in files if p.as_posix() in drawn]
    differ = [str(p) for p in files if sha256(local / p) != sha256(twin / p)]
    assert not differ, f"differ between this machine and the cluster: {differ}"


def test_the_embedded_batch_renders_its_lines_on_this_machine_two_at_a_time(tmp_path, monkeypatch):
    """Without ``--scheduler``, the batch's lines are rendered here, by two worker processes at once, each published."""
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders_once_another_has_started)
    result, media = run_batch(tmp_path, BATCH, "--jobs", "2")
    assert result.exit_code == 0, result.output
    assert "2 to render on this machine" in result.output and result.output.count(": published (") == 2
    assert sorted(call[3:] for call in fake_workers.calls(media)) == [(), ("seed=1",)]
    folders = [variant_folder("scaling", {}), variant_folder("scaling", {"seed": 1})]
    assert result.stdout.splitlines() == [str(media / folder / "low" / "scaling.mp4") for folder in folders]
    together = {path.name: path.read_text() for path in (media / "together").iterdir()}
    assert together == {folder: "2" for folder in folders}, f"the renders did not run at the same time: {together}"


def cached_files(worker_temporary: Path) -> set[str]:
    """The files in a worker machine's shared LaTeX and text cache."""
    cache = worker_temporary / cluster.WORKER_FOLDER / "cache" / "tex"
    return {p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file()}


@pytest.mark.render
def test_ctrl_c_cancels_the_batch_and_stops_the_render_on_its_worker(batch_with_a_killed_worker, local_cluster, tmp_path):
    """Ctrl-C in the client: exit 130, and the render on the worker (w2, the one left) is stopped, not left running."""
    (tmp_path / "renders.txt").write_text("softmax --quality low\n", encoding="utf-8")
    command = [sys.executable, str(PROJECT / "render.py"), "batch", str(tmp_path / "renders.txt")]
    command += [
        "--scheduler",
        local_cluster["address"],
        "--media-dir",
        str(tmp_path / "media"),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    tasks = local_cluster["root"] / "w2" / cluster.WORKER_FOLDER / "tasks"
    shared_cache = cached_files(local_cluster["root"] / "w2")
    client = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path, preexec_fn=as_from_a_terminal
    )
    try:
        wait_for(lambda: tasks.is_dir() and any(tasks.iterdir()), 120, "the task to start on w2")
        client.send_signal(signal.SIGINT)
        output, _ = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
    assert client.returncode == 130, output
    assert "Interrupted" in output and "Traceback" not in output
    # The worker stopped the render process and removed the task's folder.
    wait_for(lambda: not any(tasks.iterdir()), 120, "the task on w2 to end")
    # A finished render adds what it typeset (this scene's formulas and text, new to w2) to the worker's
    # shared cache; a render stopped before its end adds nothing.
    assert cached_files(local_cluster["root"] / "w2") == shared_cache, "the render ran to its end"
    assert published_folders(tmp_path / "media") == []


@pytest.mark.render
def test_a_client_killed_outright_leaves_no_render_running_on_its_worker(batch_with_a_killed_worker, local_cluster, tmp_path):
    """SIGKILL to the client: the scheduler drops its tasks, and the worker stops the render and removes its folder."""
    (tmp_path / "renders.txt").write_text("padding-mask --quality low\n", encoding="utf-8")
    command = [sys.executable, str(PROJECT / "render.py"), "batch", str(tmp_path / "renders.txt")]
    command += [
        "--scheduler",
        local_cluster["address"],
        "--media-dir",
        str(tmp_path / "media"),
        "--cache-dir",
        str(tmp_path / "c"),
    ]
    tasks = local_cluster["root"] / "w2" / cluster.WORKER_FOLDER / "tasks"
    shared_cache = cached_files(local_cluster["root"] / "w2")
    client = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        wait_for(lambda: tasks.is_dir() and any(tasks.iterdir()), 120, "the task to start on w2")
        client.kill()
        client.wait(timeout=30)
    finally:
        if client.poll() is None:
            client.kill()
    wait_for(lambda: not any(tasks.iterdir()), 120, "the task on w2 to end")
    # A finished render adds what it typeset (this scene's formulas and text, new to w2) to the worker's
    # shared cache; a render stopped before its end adds nothing.
    assert cached_files(local_cluster["root"] / "w2") == shared_cache, "the render ran to its end"
    assert published_folders(tmp_path / "media") == []
