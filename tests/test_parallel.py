"""Parallel renders give the same pixels as one-by-one renders; unchanged scenes are not re-rendered."""

from __future__ import annotations

import inspect
import os
from itertools import zip_longest
from pathlib import Path

import av
import numpy as np
import pytest
from click.testing import CliRunner

import render
from scenes import SCENES, rendering
from tests import fake_workers

NAMES = ["self-attention", "scaling"]


def frames(video):
    """The decoded frames of ``video``, one at a time (a whole video would not fit in memory twice)."""
    with av.open(str(video)) as container:
        for frame in container.decode(video=0):
            yield frame.to_ndarray(format="rgb24")


def spans(indices: list[int]) -> str:
    """``[3, 4, 5, 9]`` as ``"3-5, 9"``."""
    runs = []
    for k in indices:
        if runs and k == runs[-1][1] + 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in runs)


@pytest.fixture(scope="module")
def parallel_and_serial(tmp_path_factory):
    media = {jobs: tmp_path_factory.mktemp(f"jobs{jobs}") for jobs in (1, 2)}
    # The real render, plus a digest of every frame handed to the encoder; one after the other on
    # one core, against two at a time on every core: the videos may depend on neither.
    workers = {1: fake_workers.renders_on_one_core_and_records_frames, 2: fake_workers.renders_and_records_frames}
    with pytest.MonkeyPatch.context() as patch:
        for jobs, folder in media.items():
            patch.setattr(render, "WORKER", workers[jobs])
            result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--jobs", str(jobs), "--media-dir", str(folder)])
            assert result.exit_code == 0, result.output
    return media, result


def test_jobs_2_gives_the_same_frames_as_jobs_1(parallel_and_serial):
    media, result = parallel_and_serial
    assert result.stdout.splitlines() == [str(media[2] / name / "low" / f"{name}.mp4") for name in NAMES]
    for name in NAMES:
        drawn = {jobs: (media[jobs] / f"{name}.frames").read_text().split() for jobs in (1, 2)}
        assert len(drawn[1]) == len(drawn[2]) > 0
        redrawn = [k for k, (a, b) in enumerate(zip(drawn[1], drawn[2])) if a != b]
        assert not redrawn, f"{name}: frames drawn differently at {spans(redrawn)}"
        differ, largest, count = [], 0, 0
        pairs = zip_longest(*(frames(media[jobs] / name / "low" / f"{name}.mp4") for jobs in (1, 2)))
        for count, (serial, parallel) in enumerate(pairs, start=1):
            assert serial is not None and parallel is not None, f"{name}: the videos differ in length"
            if not np.array_equal(serial, parallel):
                differ.append(count - 1)
                largest = max(largest, int(np.abs(serial.astype(int) - parallel).max()))
        assert count == len(drawn[1]), f"{name}: {count} frames decoded, {len(drawn[1])} drawn"
        assert not differ, f"{name}: the same drawn frames decode differently at {spans(differ)} (largest difference {largest})"


def test_each_scene_reports_its_start_and_its_time(parallel_and_serial):
    _, result = parallel_and_serial
    for name in NAMES:
        started = result.stderr.index(f"{name} (low): started")
        assert result.stderr.index(f"{name} (low): done in") > started


def test_workers_start_with_a_fixed_heap_pattern(tmp_path, monkeypatch):
    """The encoder reads heap bytes it never wrote (at 480p): the workers' heap must not depend on history."""
    monkeypatch.setattr(render, "WORKER", fake_workers.renders_and_records_environment)
    monkeypatch.delenv("MALLOC_PERTURB_", raising=False)
    result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--media-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [(tmp_path / f"{name}.env").read_text() for name in NAMES] == ["85", "85"]
    assert "MALLOC_PERTURB_" not in os.environ  # the caller's own environment is left as it was


def test_nothing_changed_means_nothing_rendered(parallel_and_serial):
    media, _ = parallel_and_serial
    folder = media[2]
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*.mp4")}
    result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--media-dir", str(folder)])
    assert result.exit_code == 0, result.output
    for name in NAMES:
        assert f"{name} (low): up to date" in result.output
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*.mp4")} == before
    assert result.stdout.splitlines() == [str(folder / name / "low" / f"{name}.mp4") for name in NAMES]


def test_a_missing_file_or_other_settings_mean_render_again(parallel_and_serial):
    media, _ = parallel_and_serial
    folder = media[1]
    assert rendering.up_to_date("scaling", "low", folder) is not None
    assert rendering.up_to_date("scaling", "low", folder, theme="light") is None
    assert rendering.up_to_date("scaling", "low", folder, video_format="both") is None
    (folder / "scaling" / "low" / "poster.png").unlink()
    assert rendering.up_to_date("scaling", "low", folder) is None


def test_editing_one_scene_changes_only_its_fingerprint(monkeypatch):
    before = {name: rendering.fingerprint(name, "low", "dark", "mp4") for name in SCENES}
    scaling_file = Path(inspect.getsourcefile(SCENES["scaling"])).resolve()
    read_bytes = Path.read_bytes

    def edited(path):
        return read_bytes(path) + (b"\n# an edit\n" if path.resolve() == scaling_file else b"")

    monkeypatch.setattr(Path, "read_bytes", edited)
    after = {name: rendering.fingerprint(name, "low", "dark", "mp4") for name in SCENES}
    assert after["scaling"] != before["scaling"]
    assert all(after[name] == before[name] for name in SCENES if name != "scaling")
