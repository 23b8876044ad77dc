"""The benchmark's report: medians over runs, which runs --add may pool, and the README tables.

Only the bookkeeping is tested; the timings themselves are never asserted (see the benchmark's docstring).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location(
    "render_bench", Path(__file__).resolve().parent.parent / "benchmarks" / "render_bench.py"
)
render_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(render_bench)


def run(wall: float, floor: float, rerender: float, measured_on: str = "2026-11-23", **catalog) -> list[dict]:
    """One benchmark run of one scene at high quality, shaped as measure() reports it."""
    one_thread = floor * 1.25
    scene = {
        "frames": 100,
        "wall_s": wall,
        "encode_floor_s": floor,
        "R": round(wall / floor, 2),
        "encode_floor_one_thread_s": one_thread,
        "R_one_thread": round(wall / one_thread, 2),
    }
    return [
        {
            "quality": "high",
            "measured_on": measured_on,
            "scenes": {"scaling": scene},
            "catalog": {"rerender_unchanged_s": rerender, **catalog},
        }
    ]


def test_medians_take_each_figure_on_its_own_across_runs():
    runs = [run(60.0, 50.0, 1.0), run(90.0, 60.0, 3.0), run(66.0, 40.0, 2.0)]
    summary = render_bench.medians([r[0] for r in runs])
    scene = summary["scenes"]["scaling"]
    assert (scene["wall_s"], scene["encode_floor_s"]) == (66.0, 50.0)
    # Each run's own R (1.2, 1.5, 1.65), not the median wall over the median floor (1.32).
    assert scene["R"] == 1.5
    assert summary["catalog"]["rerender_unchanged_s"] == 2.0
    assert (summary["quality"], scene["frames"]) == ("high", 100)


def test_an_even_number_of_runs_keeps_the_frame_count_a_count():
    summary = render_bench.medians([r[0] for r in (run(60.0, 50.0, 1.0), run(90.0, 60.0, 3.0))])
    assert summary["scenes"]["scaling"]["frames"] == 100 and isinstance(summary["scenes"]["scaling"]["frames"], int)
    assert summary["scenes"]["scaling"]["wall_s"] == 75.0


def test_a_figure_only_some_runs_have_gets_the_median_of_those():
    runs = [run(60.0, 50.0, 1.0), run(60.0, 50.0, 1.0, jobs_1_cpu_s=80.0), run(60.0, 50.0, 1.0, jobs_1_cpu_s=70.0)]
    assert render_bench.medians([r[0] for r in runs])["catalog"]["jobs_1_cpu_s"] == 75.0


def report(every_run: list[list[dict]], cores: int = 2) -> dict:
    return {
        "mode": "full",
        "machine": {"cores": cores},
        "runs": [render_bench.medians([r[0] for r in every_run])],
        "every_run": every_run if len(every_run) > 1 else None,
        "peak_process_memory_mb": 1234.4,
    }


def test_add_pools_only_runs_of_the_same_scenes_quality_and_cores():
    one, two = run(60.0, 50.0, 1.0), run(66.0, 50.0, 1.0)
    same = [(["scaling"], "high")]
    assert render_bench.kept_runs(report([one]), same, cores=2) == [one]
    assert render_bench.kept_runs(report([one, two]), same, cores=2) == [one, two]
    assert render_bench.kept_runs(report([one]), same, cores=4) == []
    assert render_bench.kept_runs(report([one]), [(["scaling"], "low")], cores=2) == []
    assert render_bench.kept_runs(report([one]), [(["scaling", "softmax"], "high")], cores=2) == []
    assert render_bench.kept_runs(None, same, cores=2) == []


def test_markdown_shows_the_medians_and_every_run_behind_them():
    tables = render_bench.markdown(
        report([run(60.0, 50.0, 1.0, "2026-11-23"), run(90.0, 60.0, 3.0, "2026-11-24"), run(66.0, 40.0, 2.0, "2026-11-24")])
    )
    assert "medians of 3 runs (2026-11-23, 2026-11-24)" in tables
    assert "| `scaling` | 100 | 66.0 | 50.0 | 1.50 | 1.20 / 1.50 / 1.65 |" in tables
    assert "| catalog | run 1 | run 2 | run 3 | median |" in tables
    assert "| `rerender_unchanged_s` | 1.00 | 3.00 | 2.00 | 2.00 |" in tables
    assert "largest process, over every run: 1,234 MiB" in tables


def test_the_stored_report_pools_every_run_and_the_largest_process():
    stored = render_bench.report("full", 2, [run(60.0, 50.0, 1.0), run(90.0, 60.0, 3.0)], kept_peak=1e9, seconds=12.0)
    assert stored["repeats"] == 2 and len(stored["every_run"]) == 2
    assert stored["runs"][0]["scenes"]["scaling"]["wall_s"] == 75.0
    assert stored["peak_process_memory_mb"] == 1e9  # a kept run's larger peak is not forgotten
    assert render_bench.report("full", 2, [run(60.0, 50.0, 1.0)], kept_peak=0.0, seconds=1.0)["every_run"] is None


def test_the_targets_table_says_what_is_met_and_by_how_much_the_rest_is_missed():
    # R from each run's own wall and floor: 75.2 / 50 = 1.504 and 74.8 / 50 = 1.496, median 1.5 -> met;
    # a scene whose two-decimal R reads 1.50 but is 1.503 must be reported over.
    catalog = {"parallel_speedup": 1.36, "parallel_speedup_ceiling": 1.4, "R": 2.09, "R_one_thread": 1.45}
    runs = [run(75.2, 50.0, 0.9, **catalog), run(74.8, 50.0, 6.5, **catalog), run(75.15, 50.0, 7.0, **catalog)]
    table = "\n".join(render_bench.targets(report(runs) | {"peak_process_memory_mb": 1900.0}))
    assert "Targets, medians of 3 runs:" in table
    assert "| 1.503 to 1.503 (`scaling` highest) | met by 0 of 1; `scaling` over by 0.003 |" in table
    assert "| 2.09 | missed by 0.59 |" in table
    assert "| 1.45 | met |" in table
    assert "| 1.36× (ceiling 1.40×) | missed by 0.24× |" in table
    assert "| 6.5 s | missed by 1.50 s |" in table
    assert "| 1,900 MiB | met |" in table  # 2 GB is 1,907 MiB


def test_readme_with_replaces_only_the_text_between_the_markers():
    readme = f"intro\n{render_bench.README_BEGIN}\nold tables\n{render_bench.README_END}\nafter\n"
    assert (
        render_bench.readme_with(readme, "new tables")
        == f"intro\n{render_bench.README_BEGIN}\nnew tables\n{render_bench.README_END}\nafter\n"
    )
    with pytest.raises(ValueError, match="needs the lines"):
        render_bench.readme_with("no markers here", "new tables")


def test_the_readme_quotes_the_stored_full_report():
    """The README's full figures are the ones in results.json: run ``render_bench.py --readme`` after a run."""
    stored = json.loads(render_bench.RESULTS.read_text())["full"]
    readme = render_bench.README.read_text()
    assert render_bench.readme_with(readme, render_bench.markdown(stored)) == readme
