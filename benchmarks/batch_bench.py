"""One batch rendered on this machine (no Dask) and on a two-worker local Dask cluster: the speed-up and the cost per task.

    python benchmarks/batch_bench.py --repeat 2

The batch is four low-quality renders of ``scaling`` (four seeds). Each repeat times two whole
commands in fresh media folders, every LaTeX cache pre-warmed (the client's and each worker's), so
that only the way the renders are run differs:

- ``embedded``: ``render.py batch FILE --jobs 2`` (a fresh process per render, two at a time);
- ``cluster``: ``render.py batch FILE --scheduler tcp://127.0.0.1:PORT`` against a ``dask
  scheduler`` and two ``dask worker --nthreads 1`` started here (and stopped after).

Both use the same cores, so the cluster cannot be faster here: what the figures show is its cost.
The *overhead per task* is (cluster wall - embedded wall) / tasks: on two cores two renders run at
once either way, so this is the extra time each task costs the batch (a Dask round trip, the
render process's start on the worker, packing the package, sending it, and the client's check and
publish, which the cluster's progress lines also report per task). Results go to
``benchmarks/batch_results.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "batch_results.json"
BATCH = "".join(f"scaling --quality low --seed {seed}\n" for seed in (11, 12, 13, 14))
WORKER_CACHE = Path("attention-explainer-worker") / "cache" / "tex"  # see attention_explainer.pipeline.cluster


def timed(arguments: list[str], cwd: Path) -> dict:
    """Run ``render.py`` with ``arguments``: its wall time, its CPU seconds (it and its children) and its progress lines."""
    before = os.times()
    started = time.perf_counter()
    completed = subprocess.run([sys.executable, str(ROOT / "render.py"), *arguments], cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = os.times()
    if completed.returncode != 0:
        raise SystemExit(f"render.py {' '.join(arguments)} failed:\n{completed.stderr[-3000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"wall_s": round(wall, 2), "client_cpu_s": round(cpu, 2), "log": completed.stderr}


def start(command: list[str], log: Path, **environment: str) -> subprocess.Popen:
    with log.open("wb") as output:
        return subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, **environment}
        )


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def start_cluster(work: Path, tex: Path) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and two one-thread workers on 127.0.0.1, each worker's LaTeX cache a copy of ``tex``."""
    from distributed import Client

    scheduler_file = work / "scheduler.json"
    scheduler_file.unlink(missing_ok=True)
    processes = [
        start(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
            + ["--scheduler-file", str(scheduler_file)],
            work / "scheduler.log",
        )
    ]
    deadline = time.monotonic() + 60
    while not (scheduler_file.exists() and scheduler_file.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.2)
    for name in ("w1", "w2"):
        temporary = work / name
        shutil.rmtree(temporary, ignore_errors=True)
        shutil.copytree(tex, temporary / WORKER_CACHE)
        processes.append(
            start(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file), "--name", name]
                + ["--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
                work / f"{name}.log",
                TMPDIR=str(temporary),
            )
        )
    with Client(scheduler_file=str(scheduler_file), timeout="30s") as client:
        client.wait_for_workers(2, timeout=120)
    return json.loads(scheduler_file.read_text())["address"], processes


def tree_cpu(processes: list[subprocess.Popen]) -> float:
    """CPU seconds so far of ``processes`` and everything under them (a worker's finished renders are its waited-for children)."""
    import psutil

    total = 0.0
    for process in processes:
        try:
            tree = [psutil.Process(process.pid), *psutil.Process(process.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        for member in tree:
            try:
                times = member.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system + times.children_user + times.children_system
    return total


def render_seconds(log: str) -> list[float]:
    """The embedded batch's progress lines: each render's own seconds (drawing to publishing, in its process)."""
    return [float(seconds) for seconds in re.findall(r": published \(([\d.]+) s\)", log)]


def per_task(log: str) -> list[dict]:
    """The cluster's progress lines: each task's seconds on its worker and the client's check-and-publish seconds."""
    pattern = re.compile(r"published \(worker (\S+), ([\d.]+) s on the worker, ([\d.]+) s to check and publish\)")
    return [{"worker": w, "worker_s": float(a), "publish_s": float(b)} for w, a, b in pattern.findall(log)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    options = parser.parse_args()

    work = Path(options.work or tempfile.mkdtemp(prefix="batch-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    (work / "renders.txt").write_text(BATCH, encoding="utf-8")
    tasks = BATCH.count("\n")
    # Warm a LaTeX cache once (scaling's formulas do not depend on the seed), so no run pays for typesetting.
    timed(
        ["scaling", "--quality", "low", "--force", "--media-dir", str(work / "warm-media"), "--cache-dir", str(work / "warm")],
        work,
    )
    tex = work / "warm" / "tex"
    runs = []
    for repeat in range(options.repeat):
        run = {}
        for mode in ("embedded", "cluster"):
            media, cache = work / f"media-{repeat}-{mode}", work / f"cache-{repeat}-{mode}"
            shutil.rmtree(media, ignore_errors=True)
            shutil.rmtree(cache, ignore_errors=True)
            shutil.copytree(tex, cache / "tex")
            arguments = ["batch", str(work / "renders.txt"), "--media-dir", str(media), "--cache-dir", str(cache)]
            if mode == "embedded":
                run[mode] = timed([*arguments, "--jobs", "2"], work)
                run[mode]["render_s"] = render_seconds(run[mode]["log"])
            else:
                address, processes = start_cluster(work, tex)
                try:
                    workers_before = tree_cpu(processes[1:])
                    run[mode] = timed([*arguments, "--scheduler", address], work)
                    run[mode]["workers_cpu_s"] = round(tree_cpu(processes[1:]) - workers_before, 2)
                finally:
                    for process in reversed(processes):
                        stop(process)
                run[mode]["tasks"] = per_task(run[mode]["log"])
            del run[mode]["log"]
            print(f"repeat {repeat + 1}: {mode}: {run[mode]}", flush=True)
        runs.append(run)

    def median(mode: str) -> float:
        return round(statistics.median(run[mode]["wall_s"] for run in runs), 2)

    every_task = [task for run in runs for task in run["cluster"]["tasks"]]
    report = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "batch": BATCH.splitlines(),
        "runs": runs,
        "embedded_wall_s": median("embedded"),
        "cluster_wall_s": median("cluster"),
        "speed_up": round(median("embedded") / median("cluster"), 3),
        "overhead_per_task_s": round((median("cluster") - median("embedded")) / tasks, 2),
        "task_on_worker_s_median": round(statistics.median(t["worker_s"] for t in every_task), 2) if every_task else None,
        "check_and_publish_s_median": round(statistics.median(t["publish_s"] for t in every_task), 2) if every_task else None,
        "embedded_render_s_median": round(statistics.median(s for run in runs for s in run["embedded"]["render_s"]), 2),
        "embedded_cpu_s_median": round(statistics.median(run["embedded"]["client_cpu_s"] for run in runs), 2),
        "cluster_cpu_s_median": round(
            statistics.median(run["cluster"]["client_cpu_s"] + run["cluster"]["workers_cpu_s"] for run in runs), 2
        ),
    }
    RESULTS.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({key: value for key, value in report.items() if key != "runs"}, indent=1))


if __name__ == "__main__":
    main()
