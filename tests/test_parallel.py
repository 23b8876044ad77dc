"""Parallel renders give the same bytes as one-by-one renders; unchanged scenes are not re-rendered."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from itertools import zip_longest
from pathlib import Path
from types import SimpleNamespace

import av
import numpy as np
import pytest
from click.testing import CliRunner

import render
from attention_explainer.files import sha256_of
from attention_explainer.options import RenderJob
from attention_explainer.pipeline import freshness, workers
from attention_explainer.pipeline.freshness import Freshness
from tests import fake_workers
from tests.helpers import drafting

pytestmark = pytest.mark.render

COMPARED = "scaling"
"""The scene rendered both ways: alone on one core, and beside another scene on every core (the shortest scene)."""
NAMES = ["softmax", COMPARED]
"""The ``--jobs 2`` render: two scenes drawn and encoded at once."""


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
def parallel_and_serial(rendered, tmp_path_factory):
    """``COMPARED`` rendered alone with ``--jobs 1`` on one core (the run's render, ``rendered``), and ``NAMES`` with
    ``--jobs 2`` on every core, over a copy of that render whose manifest names two files outside its folder.

    The real render, plus a digest of every frame handed to the encoder: the video may depend neither on the cores
    nor on another render beside it. (Rendering the second scene alone as well proved the same once more, at the cost
    of a render.) The ``--jobs 2`` render is also another process with another cache: its files must be the first
    render's (:func:`test_jobs_2_gives_the_same_bytes_as_jobs_1`). The planted entries match the file they name
    (sha256 and size), as an attacker would make them, and the package hash is changed so that a trusting reader
    would repackage and copy them: the render must be made again without reaching them
    (:func:`test_a_manifest_naming_files_outside_its_folder_never_reaches_them`).
    """
    work = tmp_path_factory.mktemp("jobs2")
    media = {1: rendered[0], 2: work / "media"}
    shutil.copytree(media[1], media[2])
    cache = work / "cache"
    outside = work / "X"
    outside.write_bytes(b"a teacher's file outside the media folder\n")
    planted_folder = media[2] / COMPARED / "low"
    # Without the planted entries the copy is up to date: only they can make it render again.
    assert freshness.freshness(RenderJob(COMPARED, quality="low"), planted_folder) is Freshness.UP_TO_DATE
    manifest = json.loads((planted_folder / "manifest.json").read_text(encoding="utf-8"))
    for planted in ("../../../X", str(outside)):
        entry = {"path": planted, "sha256": sha256_of(outside), "bytes": outside.stat().st_size, "part": "render"}
        manifest["files"].append(entry)
    manifest["package_hash"] = "0" * 64
    (planted_folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    outside_before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file() and not p.is_relative_to(media[2])}
    with pytest.MonkeyPatch.context() as patch, drafting():  # drafts, as the run's render is
        patch.setattr(workers, "WORKER", fake_workers.renders_and_records_frames)
        arguments = [*NAMES, "--quality", "low", "--jobs", "2", "--media-dir", str(media[2]), "--cache-dir", str(cache)]
        result = CliRunner().invoke(render.main, arguments)
    assert result.exit_code == 0, result.output
    planted = SimpleNamespace(work=work, copy=media[2], folder=planted_folder, outside=outside, outside_before=outside_before)
    return media, cache, result, planted


def drawn_frames(folder: Path, name: str) -> list[str]:
    """The digests of the frames a worker handed its encoder (see :mod:`tests.fake_workers`)."""
    return (folder.parent / f"{folder.name}-{name}.frames").read_text().split()


def test_jobs_2_gives_the_same_bytes_as_jobs_1(parallel_and_serial):
    """Two runs, alone on one core and two at a time on every core, publish identical files, every one of them.

    The second is also another process with another cache (another day), as a teacher rendering again makes it.
    """
    media, *_ = parallel_and_serial
    files = {
        jobs: sorted(p.relative_to(media[jobs]) for p in (media[jobs] / COMPARED).rglob("*") if p.is_file()) for jobs in (1, 2)
    }
    assert files[1] == files[2] and len(files[1]) > 10
    differ = [str(path) for path in files[1] if sha256_of(media[1] / path) != sha256_of(media[2] / path)]
    assert not differ, f"{COMPARED}: these files differ between --jobs 1 and --jobs 2: {differ}"


def test_jobs_2_gives_the_same_frames_as_jobs_1(parallel_and_serial):
    """The same frames drawn, and decoded; where the bytes differ, this says whether the drawing or the encoding differed, and where.

    Videos of the same bytes are decoded once, for their count: comparing their frames could find no difference.
    """
    media, _, result, _ = parallel_and_serial
    assert result.stdout.splitlines() == [str(media[2] / name / "low" / f"{name}.mp4") for name in NAMES]
    drawn = {jobs: drawn_frames(media[jobs], COMPARED) for jobs in (1, 2)}
    assert len(drawn[1]) == len(drawn[2]) > 0
    redrawn = [k for k, (a, b) in enumerate(zip(drawn[1], drawn[2])) if a != b]
    assert not redrawn, f"{COMPARED}: frames drawn differently at {spans(redrawn)}"
    videos = [media[jobs] / COMPARED / "low" / f"{COMPARED}.mp4" for jobs in (1, 2)]
    differ, largest, count = [], 0, 0
    if sha256_of(videos[0]) == sha256_of(videos[1]):
        # The same bytes decode to the same frames: one decoding says how many there are.
        with av.open(str(videos[0])) as container:
            count = sum(1 for _ in container.decode(video=0))
    else:
        for count, (serial, parallel) in enumerate(zip_longest(*map(frames, videos)), start=1):
            assert serial is not None and parallel is not None, f"{COMPARED}: the videos differ in length"
            if not np.array_equal(serial, parallel):
                differ.append(count - 1)
                largest = max(largest, int(np.abs(serial.astype(int) - parallel).max()))
    assert count == len(drawn[1]), f"{COMPARED}: {count} frames decoded, {len(drawn[1])} drawn"
    assert not differ, f"{COMPARED}: the same drawn frames decode differently at {spans(differ)} (largest difference {largest})"


def test_each_scene_reports_its_start_and_its_time(parallel_and_serial):
    _, _, result, _ = parallel_and_serial
    for name in NAMES:
        started = result.stderr.index(f"{name} (low): started")
        assert result.stderr.index(f"{name} (low): done in") > started


def test_workers_get_their_environment_and_the_caller_keeps_its_own(tmp_path, monkeypatch):
    """Numpy's BLAS on one thread in every worker (sums in one order whatever the cores); the caller's environment untouched."""
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders_and_records_environment)
    monkeypatch.setenv("OMP_NUM_THREADS", "7")
    result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--media-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    expected = "\n".join(f"{key}={value}" for key, value in sorted(freshness.WORKER_ENVIRONMENT.items()))
    assert [(tmp_path / f"{name}.env").read_text() for name in NAMES] == [expected, expected]
    assert os.environ["OMP_NUM_THREADS"] == "7"


def test_nothing_changed_means_nothing_rendered(parallel_and_serial):
    media, cache, *_ = parallel_and_serial
    folder = media[2]
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*.mp4")}
    result = CliRunner().invoke(render.main, [*NAMES, "--quality", "low", "--media-dir", str(folder), "--cache-dir", str(cache)])
    assert result.exit_code == 0, result.output
    for name in NAMES:
        assert f"{name} (low): up to date" in result.output
    assert {p: p.stat().st_mtime_ns for p in folder.rglob("*.mp4")} == before
    assert result.stdout.splitlines() == [str(folder / name / "low" / f"{name}.mp4") for name in NAMES]


def test_a_damaged_file_or_other_settings_mean_render_again(parallel_and_serial, tmp_path):
    media, *_ = parallel_and_serial
    job = RenderJob(COMPARED, quality="low", media_dir=media[1])
    folder = media[1] / COMPARED / "low"
    assert freshness.freshness(job, folder) is Freshness.UP_TO_DATE
    assert freshness.freshness(replace(job, theme="light"), folder) is Freshness.RENDER
    assert freshness.freshness(replace(job, video_format="both"), folder) is Freshness.RENDER
    assert freshness.freshness(replace(job, inputs={"seed": 3}), folder) is Freshness.RENDER
    copy = tmp_path / "copy"
    for damage, expected in (
        (lambda f: (f / "poster.png").unlink(), Freshness.RENDER),
        # The same size, other bytes: only the recorded sha256 can tell.
        (lambda f: (f / "scaling.mp4").write_bytes(bytes(b ^ 1 for b in (f / "scaling.mp4").read_bytes())), Freshness.RENDER),
        (lambda f: (f / "present.html").write_text("changed by hand"), Freshness.REPACKAGE),
        (lambda f: (f / "manifest.json").write_text("[]"), Freshness.RENDER),
    ):
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(folder, copy)
        damage(copy)
        assert freshness.freshness(job, copy) is expected


def test_a_manifest_naming_files_outside_its_folder_never_reaches_them(parallel_and_serial):
    """A media folder from someone else: manifest entries with ``../`` or absolute paths make the package invalid.

    The render is made again instead of repackaging what the manifest names (see :func:`parallel_and_serial`),
    and nothing outside the media and cache folders is read into the package or written.
    """
    _, cache, result, run = parallel_and_serial
    assert f"{COMPARED} (low): started" in result.stderr and "pages rewritten" not in result.stderr  # rendered again
    outside_after = {p: p.read_bytes() for p in run.work.rglob("*") if p.is_file() and not p.is_relative_to(run.copy)}
    # What the CLI may write outside the media folder is its cache; the frame digests are this test's stand-in's.
    kept = {p: b for p, b in outside_after.items() if not p.is_relative_to(cache) and p.suffix != ".frames"}
    assert kept == run.outside_before
    assert not [p for p in run.work.rglob("X") if p != run.outside]
    published = json.loads((run.folder / "manifest.json").read_text(encoding="utf-8"))
    assert all(not entry["path"].startswith(("/", "..")) for entry in published["files"])
