"""Issue 34, failure 4: render workers never outlive their run, nor publish without it (killed outright, even at start-up)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import wait_for

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")


def start(tmp_path: Path, **environment: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "tests.hardening_workers", "publishes", "softmax", "scaling"]
    command += ["--quality", "low", "--media-dir", "media", "--jobs", "2"]
    return subprocess.Popen(
        command,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), **environment},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the test finds its workers by it
    )


def group_members(group: int) -> list[int]:
    """The live (not zombie) processes of process group ``group``."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members


def published(tmp_path: Path) -> list[str]:
    media = tmp_path / "media"
    return sorted(p.relative_to(media).as_posix() for p in media.glob("*/*/*.mp4")) if media.is_dir() else []


def test_a_worker_whose_run_is_gone_when_it_arms_its_signal_does_not_render(tmp_path):
    """A spawned worker imports its modules before it can arm its parent-death signal; a run that died meanwhile is noticed then.

    Here the worker is told its run is process 1, which is not its parent: as if its real parent
    had died during the imports and it had been handed to init.
    """
    from attention_explainer.options import RenderJob
    from attention_explainer.pipeline import workers

    from . import hardening_workers

    context = multiprocessing.get_context("spawn")
    outcomes = {}
    for name, parent in (("alive", os.getpid()), ("gone", 1)):
        job = RenderJob("softmax", {}, "low", "dark", "mp4", tmp_path / name / "media", tmp_path / name / "cache")
        events = context.Queue()
        process = context.Process(target=workers._run, args=(hardening_workers.publishes, job, events, parent))
        process.start()
        process.join(120)
        outcomes[name] = process.exitcode, (tmp_path / name / "media" / "softmax" / "low" / "softmax.mp4").exists()
    assert outcomes["alive"] == (0, True), "with its run alive the stand-in publishes"
    assert outcomes["gone"] == (1, False), "the worker rendered for a run that was gone"


def test_a_worker_whose_run_died_does_not_publish_even_holding_signals(tmp_path):
    """Its parent-death signal held (as during a publish), a worker still finds its run gone and does not publish."""
    run = start(tmp_path, ATTENTION_TEST_WAIT="3", ATTENTION_TEST_HOLD="signals")
    pids = tmp_path / "media" / "pids"
    wait_for(lambda: pids.is_dir() and len(list(pids.iterdir())) == 2, 120, "both workers to start")
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    wait_for(lambda: not group_members(run.pid), 120, "the workers to end")
    assert published(tmp_path) == []


def test_workers_of_a_living_run_publish(tmp_path):
    """The same stand-in, not killed: both renders are published (so the tests above can fail)."""
    run = start(tmp_path, ATTENTION_TEST_WAIT="0")
    _, errors = run.communicate(timeout=300)
    assert run.returncode == 0, errors
    assert published(tmp_path) == ["scaling/low/scaling.mp4", "softmax/low/softmax.mp4"]
