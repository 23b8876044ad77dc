#!/usr/bin/env python
"""Render benchmark: how close the renders come to the H.264 encoder's own limit.

    python benchmarks/render_bench.py --quick     # every scene at low, scaling at high (12.5 min on 2 cores)
    python benchmarks/render_bench.py             # every scene at high
    python benchmarks/render_bench.py --repeat 3  # three runs; the table shows their medians
    python benchmarks/render_bench.py --add       # one more run, medians over it and the runs kept so far
    python benchmarks/render_bench.py --markdown  # no run: the full report in results.json as README tables
    python benchmarks/render_bench.py --readme    # no run: write those tables into benchmarks/README.md
    python benchmarks/render_bench.py --whole-command --repeat 3 --compare-with e91698a
                                                  # `render.py scaling --quality high --force` as a user
                                                  # times it, against its encode floor (and an older commit's)

Measures, in one run on this machine (ratios are what to compare across machines):

1. per scene: frames, wall time (from the ``--jobs 1`` render), and two encode floors: the
   seconds libx264 needs to encode that scene's own frames at manim's quality (crf 23), on every
   core (its default; the fastest one movie encodes here) and on one thread (how the render
   encodes each movie, ``attention_explainer/pipeline/encoder.py``). The output is decoded with PyAV, each frame
   converted to RGB as manim's frames are and handed to both encoders; only the encoding is
   timed. R = wall / floor, for each floor;
2. the catalog: ``render.py all --jobs <cores>`` against ``render.py all --jobs 1``, and against
   the floors: the sum of the all-core floors divided by the cores (the target's wording; each of
   those floors already uses every core) and the sum of the one-thread floors divided by the
   cores (the encoder's own work spread over the cores: no render of the catalog can beat it).
   The CPU seconds of each render say how many cores it kept busy; the ``--jobs 1`` render's
   CPU seconds spread over every core give the ceiling of the parallel speed-up. One scene
   alone, as ``scaling`` at high in ``--quick``, renders once: it takes one process whatever
   ``--jobs`` says;
3. a re-render with nothing changed;
4. the peak resident memory of the largest process.

Prints a table and writes its report into ``benchmarks/results.json``, under the mode's name
("full" or "quick"; the other mode's report is kept). With ``--repeat N`` the report holds every
run, and the median of each figure over the runs, each run's R from its own wall time and floor.
``--add`` keeps the runs already reported for the same mode, scenes and cores and adds this
one's, so that a full run (72 to 86 minutes on 2 cores) can be repeated on different days
until there are three. Never run as a test: wall-clock numbers on a shared machine are for
reading, not for asserting.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import av

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results.json"
README = ROOT / "benchmarks" / "README.md"
# The README's full figures are written between these lines by --readme, never by hand.
README_BEGIN, README_END = "<!-- render_bench --readme: begin -->", "<!-- render_bench --readme: end -->"
# The speed targets set for the renders, on the 2-core machine.
R_TARGET, SPEEDUP_TARGET, RERENDER_TARGET_S = 1.5, 1.6, 5.0
PEAK_TARGET_MB = 2e9 / 2**20  # 2 GB; peaks are read in KiB and shown in MiB


def children_cpu_s() -> float:
    """CPU seconds (user and system) of every finished child process and its own children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def render(names: list[str], quality: str, media: Path, jobs: int, force: bool = True) -> tuple[float, float, str]:
    """Run the CLI as a user would; return its wall time, its CPU seconds and what it printed on stderr."""
    command = [
        sys.executable,
        str(ROOT / "render.py"),
        *names,
        "--quality",
        quality,
        "--jobs",
        str(jobs),
        "--media-dir",
        str(media),
        "--cache-dir",
        str(media.parent / f"{media.name}-cache"),
    ]
    cpu_before, started = children_cpu_s(), time.perf_counter()
    done = subprocess.run(command + (["--force"] if force else []), cwd=ROOT, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - started, children_cpu_s() - cpu_before
    if done.returncode != 0:
        sys.exit(f"render failed ({' '.join(command)}):\n{done.stderr}")
    return wall, cpu, done.stderr


def scene_times(stderr: str) -> dict[str, float]:
    """Per-scene wall times from the CLI's "done in X s" lines."""
    return {name: float(seconds) for name, seconds in re.findall(r"(?:\] )?([\w-]+) \(\w+\): done in ([\d.]+) s", stderr)}


def encode_floors(video: Path) -> tuple[int, float, float]:
    """Frames of ``video``, and the seconds libx264 takes to encode them on every core and on one thread.

    Both encoders get each decoded frame in turn, at manim's quality (crf 23, yuv420p, RGB frames
    in as manim hands them over); only the encoder calls are timed. On every core (libx264's
    default) is the fastest one movie encodes here: a single scene's floor. On one thread is the
    render's own setting (``encoder_options()`` in ``attention_explainer/pipeline/encoder.py``): the encoder's work whichever core
    does it, which spread over the cores is the catalog's floor.
    """
    frames = 0
    seconds = {"all cores": 0.0, "one thread": 0.0}
    with (
        av.open(str(video)) as source,
        av.open(os.devnull, "w", format="mp4") as sink_all,
        av.open(os.devnull, "w", format="mp4") as sink_one,
    ):
        original = source.streams.video[0]
        encoders = {}
        for key, sink, options in (
            ("all cores", sink_all, {"crf": "23"}),
            ("one thread", sink_one, {"crf": "23", "threads": "1"}),
        ):
            stream = sink.add_stream("libx264", rate=original.guessed_rate, options=options)
            stream.width, stream.height, stream.pix_fmt = original.width, original.height, "yuv420p"
            encoders[key] = (stream, sink)

        def encode(frame):
            for key, (stream, sink) in encoders.items():
                started = time.perf_counter()
                for packet in stream.encode(frame):
                    sink.mux(packet)
                seconds[key] += time.perf_counter() - started

        for frame in source.decode(original):
            rgb = frame.to_ndarray(format="rgb24")
            encode(av.VideoFrame.from_ndarray(rgb, format="rgb24"))
            frames += 1
        encode(None)
    return frames, seconds["all cores"], seconds["one thread"]


def timed_command(command: list[str], cwd: Path) -> tuple[float, float, dict[str, float]]:
    """Run ``command`` as a user would; its wall time, CPU seconds, and when (seconds from the start) each stderr line came."""
    cpu_before, started = children_cpu_s(), time.perf_counter()
    lines = {}
    with subprocess.Popen(command, cwd=cwd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True) as process:
        for line in process.stderr:
            lines.setdefault(line.strip(), time.perf_counter() - started)
    wall, cpu = time.perf_counter() - started, children_cpu_s() - cpu_before
    if process.returncode != 0:
        sys.exit(f"render failed ({' '.join(command)}):\n" + "\n".join(lines))
    return wall, cpu, lines


def whole_command(checkout: Path, work: Path) -> dict:
    """``render.py scaling --quality high --force`` in ``checkout``, timed as a user times it, against its encode floor.

    The floor is libx264 re-encoding the published video's own frames at the render's quality on
    every core. ``after_frames_s`` is the time from the last frame drawn (the worker's "frames
    drawn" line; the last step's line for a checkout that does not print it) to the command's end.
    """
    media = work / "media"
    command = [sys.executable, "render.py", "scaling", "--quality", "high", "--force", "--media-dir", str(media)]
    if (
        "--cache-dir"
        in subprocess.run([sys.executable, "render.py", "render", "--help"], cwd=checkout, capture_output=True, text=True).stdout
    ):
        command += ["--cache-dir", str(work / "cache")]
    wall, cpu, lines = timed_command(command, checkout)
    drawn = next((t for line, t in lines.items() if line.endswith("frames drawn; packaging")), None)
    if drawn is None:
        # An older checkout: the last step starts about its own length before the last frame; the
        # time after its line is an upper bound of the packaging.
        drawn = max(t for line, t in lines.items() if re.search(r"step \d+:", line))
    video = media / "scaling" / "high" / "scaling.mp4"
    with av.open(str(video)) as container:
        frames = container.streams.video[0].frames
    floor = encode_floor_all_cores(video)
    return {
        "frames": frames,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "encode_floor_s": round(floor, 2),
        "ratio": round(wall / floor, 3),
        "after_frames_s": round(wall - drawn, 2),
        "after_frames_share": round((wall - drawn) / wall, 3),
    }


def measure_whole_command(repeat: int, compare_with: str | None) -> dict:
    """:func:`whole_command` ``repeat`` times, alternating with the same command of ``compare_with`` (a commit) if given."""
    checkouts = {"this": ROOT}
    with tempfile.TemporaryDirectory(prefix="whole-command-") as scratch:
        if compare_with:
            older = Path(scratch) / "older"
            subprocess.run(
                ["git", "worktree", "add", "--detach", str(older), compare_with], cwd=ROOT, check=True, capture_output=True
            )
            checkouts[compare_with] = older
        try:
            runs = {key: [] for key in checkouts}
            for k in range(repeat):
                for key, checkout in checkouts.items():
                    with tempfile.TemporaryDirectory(prefix="run-", dir=scratch) as work:
                        runs[key].append(whole_command(checkout, Path(work)))
                    print(f"run {k + 1} of {repeat}, {key}: {runs[key][-1]}")
        finally:
            if compare_with:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(checkouts[compare_with])], cwd=ROOT, capture_output=True
                )
    return {
        "measured_on": time.strftime("%Y-%m-%d"),
        "command": "render.py scaling --quality high --force",
        **{key: {"median": medians(key_runs), "every_run": key_runs} for key, key_runs in runs.items()},
    }


def encode_floor_all_cores(video: Path) -> float:
    """The seconds libx264 alone, on every core at the render's quality (crf 23), spends encoding ``video``'s frames.

    As :func:`encode_floors` but with no second encoder interleaved, so the whole machine is the
    all-core encoder's: the floor the whole command is compared with.
    """
    seconds = 0.0
    with av.open(str(video)) as source, av.open(os.devnull, "w", format="mp4") as sink:
        original = source.streams.video[0]
        stream = sink.add_stream("libx264", rate=original.guessed_rate, options={"crf": "23"})
        stream.width, stream.height, stream.pix_fmt = original.width, original.height, "yuv420p"
        for frame in itertools.chain(source.decode(original), [None]):  # one frame in memory at a time
            picture = None if frame is None else av.VideoFrame.from_ndarray(frame.to_ndarray(format="rgb24"), format="rgb24")
            started = time.perf_counter()
            for packet in stream.encode(picture):
                sink.mux(packet)
            seconds += time.perf_counter() - started
    return seconds


def peak_child_memory_mb() -> float:
    """Largest resident set of any finished child process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def measure(names: list[str], quality: str, media: Path, cores: int) -> dict:
    serial_wall, serial_cpu, serial_log = render(names, quality, media, jobs=1)
    per_scene_wall = scene_times(serial_log)
    # One scene renders in one process whatever --jobs says: a second render would only repeat the first.
    parallel_wall, parallel_cpu, _ = render(names, quality, media, jobs=cores) if len(names) > 1 else (None, None, None)
    rerender_wall, _, rerender_log = render(names, quality, media, jobs=cores, force=False)
    assert rerender_log.count("up to date") == len(names), rerender_log

    scenes = {}
    for name in names:
        frames, floor, floor_one_thread = encode_floors(media / name / quality / f"{name}.mp4")
        scenes[name] = {
            "frames": frames,
            "wall_s": round(per_scene_wall[name], 2),
            "encode_floor_s": round(floor, 2),
            "R": round(per_scene_wall[name] / floor, 2),
            "encode_floor_one_thread_s": round(floor_one_thread, 2),
            "R_one_thread": round(per_scene_wall[name] / floor_one_thread, 2),
        }
    floor_total = sum(s["encode_floor_s"] for s in scenes.values())
    one_thread_total = sum(s["encode_floor_one_thread_s"] for s in scenes.values())
    catalog = {
        "jobs_1_wall_s": round(serial_wall, 2),
        "jobs_1_cpu_s": round(serial_cpu, 2),
        # CPU seconds over wall seconds: how many cores the render kept busy on average.
        "jobs_1_cores_busy": round(serial_cpu / serial_wall, 2),
        "encode_floor_sum_s": round(floor_total, 2),
        "encode_floor_one_thread_sum_s": round(one_thread_total, 2),
    }
    if parallel_wall is not None:
        # The encoder's one-thread work spread over every core: no render of the catalog can be faster.
        limit = one_thread_total / cores
        catalog |= {
            f"jobs_{cores}_wall_s": round(parallel_wall, 2),
            f"jobs_{cores}_cpu_s": round(parallel_cpu, 2),
            f"jobs_{cores}_cores_busy": round(parallel_cpu / parallel_wall, 2),
            "parallel_speedup": round(serial_wall / parallel_wall, 2),
            # The --jobs 1 render's CPU seconds on every core at once: the most any --jobs can gain
            # unless the work itself shrinks.
            "parallel_speedup_ceiling": round(cores * serial_wall / serial_cpu, 2),
            # As the target words it: the all-core floors (each already on every core) over the cores.
            "floor_per_core_s": round(floor_total / cores, 2),
            "R": round(parallel_wall / (floor_total / cores), 2),
            "floor_one_thread_per_core_s": round(limit, 2),
            "R_one_thread": round(parallel_wall / limit, 2),
        }
    catalog["rerender_unchanged_s"] = round(rerender_wall, 2)
    return {"quality": quality, "measured_on": time.strftime("%Y-%m-%d"), "scenes": scenes, "catalog": catalog}


def medians(runs: list[dict]):
    """The median of every number across ``runs`` (dicts of the same shape).

    A key that only some runs have (a figure the benchmark measured from some day on) gets the
    median of the runs that have it.
    """
    first = runs[0]
    if isinstance(first, dict):
        keys = list(dict.fromkeys(key for run in runs for key in run))
        return {key: medians([run[key] for run in runs if key in run]) for key in keys}
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        median = statistics.median(runs)
        # A count (frames) stays a count: the median of an even number of runs is a mean.
        return int(median) if all(isinstance(run, int) for run in runs) and median == int(median) else round(median, 2)
    return first


def print_table(result: dict, cores: int) -> None:
    print(f"\n{result['quality']} quality (floor: libx264 on every core; 1-thread floor: on one thread, as the render encodes)")
    print(f"{'scene':<22}{'frames':>8}{'wall s':>9}{'floor s':>9}{'R':>7}{'1-thread floor s':>18}{'R':>7}")
    for name, s in result["scenes"].items():
        print(
            f"{name:<22}{s['frames']:>8.0f}{s['wall_s']:>9.1f}{s['encode_floor_s']:>9.1f}{s['R']:>7.2f}"
            f"{s['encode_floor_one_thread_s']:>18.1f}{s['R_one_thread']:>7.2f}"
        )
    c = result["catalog"]
    print(f"catalog: --jobs 1 {c['jobs_1_wall_s']:.1f} s ({c['jobs_1_cores_busy']:.2f} cores busy)", end="")
    if "R" in c:
        print(
            f", --jobs {cores} {c[f'jobs_{cores}_wall_s']:.1f} s ({c[f'jobs_{cores}_cores_busy']:.2f} cores busy): "
            f"speed-up {c['parallel_speedup']:.2f}x (ceiling {c['parallel_speedup_ceiling']:.2f}x)\n"
            f"  floors / cores {c['floor_per_core_s']:.1f} s, R {c['R']:.2f}; "
            f"1-thread floors / cores {c['floor_one_thread_per_core_s']:.1f} s, R {c['R_one_thread']:.2f}"
        )
    else:
        print()
    print(f"  re-render with nothing changed {c['rerender_unchanged_s']:.1f} s")


def markdown(report: dict) -> str:
    """The tables of a stored report, for the README: medians per scene, then the catalog run by run.

    Each scene's R is listed for every run beside its median, and the catalog's figures for every
    run beside theirs, so the spread behind each median stays visible.
    """
    every_run = report["every_run"] or [report["runs"]]
    lines = []
    for k, result in enumerate(report["runs"]):
        runs = [run[k] for run in every_run]
        days = ", ".join(sorted({run["measured_on"] for run in runs}))
        lines += [
            f"{result['quality']} quality, medians of {len(runs)} run{'s' * (len(runs) > 1)} ({days}):",
            "",
            "| scene | frames | wall s | floor s (every core) | R | R, each run | floor s (one thread) | R (one thread) |",
            "|---|---:|---:|---:|---:|---|---:|---:|",
        ]
        for name, s in result["scenes"].items():
            each = " / ".join(f"{run['scenes'][name]['R']:.2f}" for run in runs)
            lines.append(
                f"| `{name}` | {s['frames']:,.0f} | {s['wall_s']:,.1f} | {s['encode_floor_s']:,.1f} | {s['R']:.2f} | {each} "
                f"| {s['encode_floor_one_thread_s']:,.1f} | {s['R_one_thread']:.2f} |"
            )
        lines += ["", "| catalog | " + " | ".join(f"run {n + 1}" for n in range(len(runs))) + " | median |"]
        lines.append("|---|" + "---:|" * (len(runs) + 1))
        for key, value in result["catalog"].items():
            cells = [f"{run['catalog'][key]:,.2f}" if key in run["catalog"] else "" for run in runs]
            lines.append(f"| `{key}` | " + " | ".join(cells) + f" | {value:,.2f} |")
        lines.append("")
    lines.append(f"Peak memory of the largest process, over every run: {report['peak_process_memory_mb']:,.0f} MiB.")
    if report["mode"] == "full":
        lines += ["", *targets(report)]
    return "\n".join(lines)


def targets(report: dict) -> list[str]:
    """The speed targets against a full report's medians, as a README table: met, or missed by how much.

    A scene's R is recomputed from each run's wall time and floor to three decimals, so a scene
    just over 1.5 is not rounded into meeting it.
    """
    every_run = [run[0] for run in report["every_run"] or [report["runs"]]]
    result, cores = report["runs"][0], report["machine"]["cores"]
    scene_r = {
        name: round(
            statistics.median(run["scenes"][name]["wall_s"] / run["scenes"][name]["encode_floor_s"] for run in every_run), 3
        )
        for name in result["scenes"]
    }
    over = {name: r for name, r in scene_r.items() if r > R_TARGET}
    catalog = result["catalog"]

    def verdict(value: float, target: float, at_most: bool = True, unit: str = "") -> str:
        met = value <= target if at_most else value >= target
        return "met" if met else f"missed by {abs(value - target):,.2f}{unit}"

    per_scene = f"met by {len(scene_r) - len(over)} of {len(scene_r)}" + "".join(
        f"; `{name}` over by {r - R_TARGET:.3f}" for name, r in over.items()
    )
    highest = max(scene_r, key=scene_r.get)
    rows = [
        f"| R per scene at {result['quality']} quality ≤ {R_TARGET} | {min(scene_r.values()):.3f} to {scene_r[highest]:.3f} (`{highest}` highest) | {per_scene} |"
    ]
    if "R" in catalog:
        speedup = catalog["parallel_speedup"]
        rows += [
            f"| catalog R ≤ {R_TARGET}: `--jobs {cores}` wall over the every-core floors' sum / {cores} | {catalog['R']:.2f} | {verdict(catalog['R'], R_TARGET)} |",
            f"| the same against the one-thread floors' sum / {cores} | {catalog['R_one_thread']:.2f} | {verdict(catalog['R_one_thread'], R_TARGET)} |",
            f"| `--jobs {cores}` at least {SPEEDUP_TARGET}× faster than `--jobs 1` | {speedup:.2f}× (ceiling {catalog['parallel_speedup_ceiling']:.2f}×) "
            f"| {verdict(speedup, SPEEDUP_TARGET, at_most=False, unit='×')} |",
        ]
    rerender, peak = catalog["rerender_unchanged_s"], report["peak_process_memory_mb"]
    rows += [
        f"| re-render with nothing changed < {RERENDER_TARGET_S:.0f} s | {rerender:.1f} s | {verdict(rerender, RERENDER_TARGET_S, unit=' s')} |",
        f"| peak memory of the largest process < 2 GB ({PEAK_TARGET_MB:,.0f} MiB) | {peak:,.0f} MiB | {verdict(peak, PEAK_TARGET_MB, unit=' MiB')} |",
    ]
    return [
        f"Targets, medians of {len(every_run)} run{'s' * (len(every_run) > 1)}:",
        "",
        "| target | measured | |",
        "|---|---|---|",
        *rows,
    ]


def readme_with(readme: str, tables: str) -> str:
    """``readme`` with the text between the benchmark's two markers replaced by ``tables``."""
    begin, end = readme.find(README_BEGIN), readme.find(README_END)
    if begin < 0 or end < begin:
        raise ValueError(f"README.md needs the lines {README_BEGIN} and {README_END}, in that order")
    return readme[: begin + len(README_BEGIN)] + "\n" + tables + "\n" + readme[end:]


def kept_runs(previous: dict | None, runs: list[tuple[list[str], str]], cores: int) -> list:
    """The runs of an earlier report that ``--add`` can pool with new ones: same scenes, qualities and cores."""
    if not previous:
        return []
    kept = previous.get("every_run") or [previous["runs"]]
    same = all([(list(result["scenes"]), result["quality"]) for result in run] == [(list(n), q) for n, q in runs] for run in kept)
    if previous["machine"]["cores"] != cores or not same:
        print(f"results.json holds a {previous['mode']} run of other scenes or on other cores: not kept")
        return []
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every scene at low quality, scaling at high")
    parser.add_argument("--scenes", nargs="+", metavar="NAME", help="only these scenes (default: the whole catalog)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="measure N times and report medians (default 1)")
    parser.add_argument("--add", action="store_true", help="keep the runs in results.json (same mode and cores) and add these")
    parser.add_argument(
        "--markdown", action="store_true", help="measure nothing: print the mode's report in results.json as tables"
    )
    parser.add_argument(
        "--readme", action="store_true", help="measure nothing: write the full report in results.json into benchmarks/README.md"
    )
    parser.add_argument(
        "--whole-command", action="store_true", help="time `render.py scaling --quality high --force` against its encode floor"
    )
    parser.add_argument(
        "--compare-with", metavar="COMMIT", help="with --whole-command: time that commit's command too, alternating"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from scenes import SCENES

    cores = os.cpu_count() or 1
    names = args.scenes or list(SCENES)
    mode = ("quick" if args.quick else "full") + (" (subset)" if args.scenes else "")
    runs = [(names, "low"), (["scaling"], "high")] if args.quick else [(names, "high")]
    reports = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if args.whole_command:
        reports["whole_command"] = measure_whole_command(args.repeat, args.compare_with)
        RESULTS.write_text(json.dumps(reports, indent=1) + "\n")
        print(
            json.dumps(
                {key: value["median"] for key, value in reports["whole_command"].items() if isinstance(value, dict)}, indent=1
            )
        )
        return
    if args.markdown:
        if mode not in reports:
            sys.exit(f"{RESULTS} has no {mode} report: run the benchmark first")
        print(markdown(reports[mode]))
        return
    if args.readme:
        if "full" not in reports:
            sys.exit(f"{RESULTS} has no full report: run the benchmark first")
        try:
            README.write_text(readme_with(README.read_text(), markdown(reports["full"])))
        except ValueError as error:
            sys.exit(str(error))
        print(f"written the full report's tables into {README}")
        return
    kept = kept_runs(reports.get(mode), runs, cores) if args.add else []
    kept_peak = reports[mode]["peak_process_memory_mb"] if kept else 0.0
    started = time.perf_counter()
    repeats = list(kept)
    for repeat in range(args.repeat):
        results = []
        with tempfile.TemporaryDirectory(prefix="render-bench-") as media:
            for run_names, quality in runs:
                result = measure(run_names, quality, Path(media), cores)
                print(f"\nrun {repeat + 1} of {args.repeat}", end="")
                print_table(result, cores)
                results.append(result)
        repeats.append(results)
        # Written after every run: an hour-long run is kept even if a later one is interrupted.
        reports[mode] = report(mode, cores, repeats, kept_peak, time.perf_counter() - started)
        RESULTS.write_text(json.dumps(reports, indent=1) + "\n")
    if len(repeats) > 1:
        print(f"\nmedians of {len(repeats)} runs", end="")
        for result in reports[mode]["runs"]:
            print_table(result, cores)
    print(f"\npeak memory of the largest process: {reports[mode]['peak_process_memory_mb']:.0f} MiB")
    print(f"written {RESULTS} ({mode})")


def report(mode: str, cores: int, repeats: list[list[dict]], kept_peak: float, seconds: float) -> dict:
    """The stored report of ``repeats`` (each a list of one result per quality): medians, every run, the machine."""
    return {
        "mode": mode,
        "machine": {"cores": cores, "platform": platform.platform(), "python": platform.python_version()},
        "repeats": len(repeats),
        "runs": [medians([results[k] for results in repeats]) for k in range(len(repeats[0]))],
        "every_run": repeats if len(repeats) > 1 else None,
        # The largest process of any pooled run, this one's or those kept by --add.
        "peak_process_memory_mb": round(max(peak_child_memory_mb(), kept_peak), 1),
        "benchmark_wall_s": round(seconds, 1),
    }


if __name__ == "__main__":
    main()
