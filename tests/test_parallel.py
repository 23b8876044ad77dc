"""Parallel renders give the same pixels as one-by-one renders; unchanged scenes are not re-rendered."""

from __future__ import annotations

import inspect
from pathlib import Path

import av
import numpy as np
import pytest
from click.testing import CliRunner

import render
from scenes import SCENES, rendering

NAMES = ["self-attention", "scaling"]


def frames(video):
    with av.open(str(video)) as container:
        return [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]


@pytest.fixture(scope="module")
def parallel_and_serial(tmp_path_factory):
    media = {jobs: tmp_path_factory.mktemp(f"jobs{jobs}") for jobs in (1, 2)}
    for jobs, folder in media.items():
        result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--jobs", str(jobs), "--media-dir", str(folder)])
        assert result.exit_code == 0, result.output
    return media, result


def test_jobs_2_gives_the_same_frames_as_jobs_1(parallel_and_serial):
    media, result = parallel_and_serial
    assert result.stdout.splitlines() == [str(media[2] / name / "low" / f"{name}.mp4") for name in NAMES]
    for name in NAMES:
        serial, parallel = (frames(media[jobs] / name / "low" / f"{name}.mp4") for jobs in (1, 2))
        assert len(serial) == len(parallel)
        for k, (a, b) in enumerate(zip(serial, parallel)):
            assert np.array_equal(a, b), f"{name}: frame {k} differs"


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
