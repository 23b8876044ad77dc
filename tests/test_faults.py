"""Faults a careless, hostile or unlucky user meets: one line and an exit code, nothing lost, nothing left behind.

Signals are sent to a real CLI process (its workers are stand-ins that stage like a render and
wait); faults that cannot be produced here (a full disk, a read-only folder for root) are injected.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from attention_explainer.pipeline import freshness, workers
from attention_explainer.pipeline.staging import TARGET_FILE, recover_staging
from attention_math.trained import ModelNotInstalled
from scenes import SCENES

from . import fake_workers
from .helpers import alive, as_from_a_terminal, build_without_video, run, wait_for

ROOT = Path(__file__).resolve().parent.parent


def one_line(output: str) -> bool:
    return "Traceback" not in output and len([line for line in output.splitlines() if line.strip()]) >= 1


# --- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--media-dir", "--cache-dir"])
def test_an_empty_folder_option_is_a_usage_error(flag, tmp_path):
    result = run("scaling", flag, "")
    assert result.exit_code == 2, result.output
    assert "is empty" in result.output
    assert not (tmp_path / "scaling").exists()


def test_a_media_path_under_a_file_ends_in_one_line(tmp_path):
    (tmp_path / "plain-file").write_text("not a folder")
    result = run("scaling", "--media-dir", str(tmp_path / "plain-file" / "media"))
    assert result.exit_code == 1, result.output
    assert "cannot use" in result.output and "media folder" in result.output and "Traceback" not in result.output


def test_a_read_only_media_folder_ends_in_one_line(monkeypatch, tmp_path):
    """Root writes anywhere, so the read-only folder is injected: creating a file there fails with EROFS."""
    media = tmp_path / "media"
    media.mkdir()
    real_mkstemp = tempfile.mkstemp

    def read_only(*args, dir=None, **kwargs):
        if dir is not None and Path(dir) == media:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(media))
        return real_mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    result = run("scaling", "--media-dir", str(media))
    assert result.exit_code == 1, result.output
    assert f"cannot use {media} as the media folder: Read-only file system" in result.output


def test_a_full_disk_ends_in_one_line_naming_the_path(monkeypatch, tmp_path):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "scaling" / "high" / "manifest.json"))

    monkeypatch.setattr(freshness, "freshness", full)
    result = run("scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "manifest.json: No space left on device" in result.output and "Traceback" not in result.output


def test_an_unexpected_error_goes_to_a_log_and_the_terminal_gets_one_line(monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(freshness, "freshness", broken)
    result = run("scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "unexpected error" in result.output
    log = Path(result.output.split("details in ")[1].split(")")[0])
    assert "Traceback" in log.read_text() and "ZeroDivisionError: a bug" in log.read_text()


# --- partial installs -------------------------------------------------------------------------


def test_all_without_the_trained_extra_renders_the_others_and_says_how_to_install(monkeypatch, tmp_path):
    def not_installed(settings):
        raise ModelNotInstalled("The trained model is an optional extra: install it with `make trained`")

    monkeypatch.setattr(SCENES["trained-heads"], "check_settings", classmethod(lambda cls, settings: not_installed(settings)))
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    result = run("all", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "trained-heads: skipped" in result.output and "make trained" in result.output
    rendered = [call[0] for call in fake_workers.calls(tmp_path)]
    assert sorted(rendered) == sorted(name for name in SCENES if name != "trained-heads")
    # Named on its own, the missing extra is an error.
    assert run("trained-heads", "--media-dir", str(tmp_path)).exit_code == 1


# --- a dead run's leftovers -------------------------------------------------------------------


def dead_pid() -> int:
    process = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(0,))
    process.start()
    process.join()
    return process.pid


def test_the_next_run_puts_back_a_render_stranded_between_the_two_publish_renames(tmp_path):
    """Killed (SIGKILL) after the published folder moved into staging, before the new one moved in."""
    final = tmp_path / "media" / "scaling" / "high"
    staging = tmp_path / "cache" / "staging" / f"scaling-high-pid{dead_pid()}-abc123"
    (staging / "previous").mkdir(parents=True)
    (staging / "previous" / "scaling.mp4").write_bytes(b"the teacher's video")
    (staging / TARGET_FILE).write_text(str(final))
    (staging / "package").mkdir()
    assert recover_staging(staging.parent) == [final]
    assert (final / "scaling.mp4").read_bytes() == b"the teacher's video"
    assert not staging.exists()


def test_a_render_stages_though_another_removes_the_empty_staging_root_meanwhile(monkeypatch, tmp_path):
    """Another render that ends removes the empty staging root; it can happen between this one's mkdir and mkdtemp.

    CI met it once (a stand-in render ending at once beside another starting): ``FileNotFoundError``.
    """
    from attention_explainer.pipeline import staging as staging_module
    from attention_explainer.pipeline.folders import Folders

    folders = Folders(tmp_path / "media", tmp_path / ".cache")
    make_folder = tempfile.mkdtemp
    removed = []

    def after_another_render_ended(*args, **kwargs):
        if not removed:
            folders.staging_root().rmdir()  # the other render's cleanup, at the worst moment
            removed.append(True)
        return make_folder(*args, **kwargs)

    monkeypatch.setattr(staging_module.tempfile, "mkdtemp", after_another_render_ended)
    with staging_module.staging_folder(folders, "scaling-low") as staging:
        assert removed and staging.is_dir() and staging.parent == folders.staging_root()
    assert not folders.staging_root().exists()


def test_a_live_runs_staging_is_left_alone(tmp_path):
    staging = tmp_path / f"scaling-high-pid{os.getpid()}-abc123"
    staging.mkdir()
    assert recover_staging(tmp_path) == [] and staging.is_dir()


def test_a_dead_runs_staging_is_removed_by_the_next_render(monkeypatch, tmp_path):
    leftover = tmp_path / ".cache" / "staging" / f"scaling-high-pid{dead_pid()}-xyz"
    (leftover / "package").mkdir(parents=True)
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    assert run("scaling", "--media-dir", str(tmp_path / "media")).exit_code == 0
    assert not leftover.exists()


# --- signals, on a real process ---------------------------------------------------------------


def start_cli(tmp_path: Path, *scenes: str, wait: str = "60", jobs: str = "2") -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "ATTENTION_TEST_WAIT": wait}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.fake_workers", "stages_and_waits", *scenes, "--media-dir", "media", "--jobs", jobs],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives it
        preexec_fn=as_from_a_terminal,
    )


def staging_of(tmp_path: Path) -> list[Path]:
    root = tmp_path / ".cache" / "staging"
    return sorted(root.iterdir()) if root.is_dir() else []


def worker_pids(tmp_path: Path) -> list[int]:
    folder = tmp_path / "media" / "pids"
    return [int(p.name) for p in folder.iterdir()] if folder.is_dir() else []


@pytest.mark.parametrize(
    "how, code",
    [("SIGINT to the group", 130), ("SIGINT to the parent alone", 130), ("SIGTERM to the parent", 143)],
)
def test_a_signal_stops_every_worker_cleans_staging_and_exits_with_its_code(how, code, tmp_path):
    published = tmp_path / "media" / "scaling" / "high"
    published.mkdir(parents=True)
    (published / "scaling.mp4").write_bytes(b"previous render")
    cli = start_cli(tmp_path, "scaling", "softmax")
    wait_for(lambda: len(worker_pids(tmp_path)) == 2 and len(staging_of(tmp_path)) == 2)
    if how == "SIGINT to the group":
        os.killpg(cli.pid, signal.SIGINT)
    elif how == "SIGINT to the parent alone":
        os.kill(cli.pid, signal.SIGINT)
    else:
        os.kill(cli.pid, signal.SIGTERM)
    try:
        _, stderr = cli.communicate(timeout=20)
    finally:
        if cli.poll() is None:
            os.killpg(cli.pid, signal.SIGKILL)
    assert cli.returncode == code, stderr
    assert "Traceback" not in stderr and stderr.count("Interrupted") == 1, stderr
    wait_for(lambda: not any(alive(pid) for pid in worker_pids(tmp_path)), 10)
    assert staging_of(tmp_path) == []
    assert (published / "scaling.mp4").read_bytes() == b"previous render"
    assert not (tmp_path / "media" / "softmax").exists()


def test_after_sigkill_of_the_parent_its_workers_stop_and_clean_up(tmp_path):
    cli = start_cli(tmp_path, "scaling", "softmax")
    wait_for(lambda: len(worker_pids(tmp_path)) == 2 and len(staging_of(tmp_path)) == 2)
    os.kill(cli.pid, signal.SIGKILL)
    cli.communicate(timeout=20)
    wait_for(lambda: not any(alive(pid) for pid in worker_pids(tmp_path)), 15)
    wait_for(lambda: staging_of(tmp_path) == [], 15)
    assert not (tmp_path / "media" / "scaling" / "high").exists()


def test_a_second_run_of_the_same_scene_waits_for_the_first_and_says_so(tmp_path):
    first = start_cli(tmp_path, "scaling", wait="60", jobs="1")
    wait_for(lambda: len(staging_of(tmp_path)) == 1)
    second = start_cli(tmp_path, "scaling", wait="0", jobs="1")
    # The first holds the scene until the second has said it waits (a fixed wait raced a slow start on a busy machine).
    said = []
    for line in second.stderr:
        said.append(line)
        if "waiting" in line:
            break
    (tmp_path / "media" / "release").touch()
    _, first_err = first.communicate(timeout=60)
    second_err = "".join(said) + second.stderr.read()  # to its end: communicate() would skip what was read ahead
    second.communicate(timeout=60)
    assert first.returncode == 0 and second.returncode == 0, (first_err, second_err)
    assert "another run is rendering it" in second_err and "waiting" in second_err
    # Both rendered, one after the other (each worker records a call as it stages and as it publishes).
    calls = fake_workers.calls(tmp_path / "media")
    assert len(calls) == 4
    assert (tmp_path / "media" / "scaling" / "high" / "scaling.mp4").read_bytes() == b"video"


# --- a teacher's text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence, code",
    [
        ("The cat\u200bsat down", "U+200B"),  # zero-width space
        ("abc \u202edef ghi", "U+202E"),  # right-to-left override
        ("left \u200fmark here", "U+200F"),  # right-to-left mark
        ("joined\u200dwords go", "U+200D"),  # zero-width joiner
        ("bell \x07 rings", "U+0007"),  # a control character
    ],
)
def test_invisible_characters_and_direction_controls_are_refused_naming_the_character(sentence, code):
    result = CliRunner().invoke(render.main, ["self-attention", "--sentence", sentence])
    assert result.exit_code == 2
    assert code in result.output and "Traceback" not in result.output


@pytest.mark.xdist_group("self-attention")  # beside self-attention's other builds, its texts made before
def test_right_to_left_words_are_drawn():
    """Each Hebrew or Arabic word is on screen with its glyphs (manim alone drew a right-to-left word as nothing).

    One sentence, one build: three Hebrew words, three Arabic ones and two English ones, each word its own Text (it was
    three builds, Hebrew, Arabic and Hebrew after English, of the same words).
    """
    sentence = "שלום עולם גדול مرحبا بالعالم الكبير The cat"
    from manim import Text

    from attention_explainer.options import validate

    scene_class = SCENES["self-attention"]
    trace = scene_class.build_trace(**validate(scene_class, {"sentence": sentence}))
    widths: dict[str, float] = {}

    def look(scene, ended) -> None:
        for mobject in scene.mobjects:
            for part in mobject.get_family():
                if isinstance(part, Text) and part.original_text in sentence.split():
                    widths[part.original_text] = max(widths.get(part.original_text, 0.0), part.width)

    build_without_video(scene_class, trace=trace, observe=look, draw=False)
    assert set(widths) == set(sentence.split())
    assert all(width > 0.2 for width in widths.values()), widths


# --- caches -----------------------------------------------------------------------------------


def test_damaged_cache_entries_are_dropped_and_made_again(tmp_path):
    """A truncated SVG or a garbled DVI in the LaTeX/text cache is removed (it failed every render after)."""
    from manim import MathTex, Text, tempconfig

    from attention_explainer.pipeline.render_job import drop_damaged_entries

    with tempconfig({"media_dir": str(tmp_path), "tex_dir": str(tmp_path / "Tex"), "text_dir": str(tmp_path / "texts")}):
        Text("cached words")
        MathTex(r"\sqrt{d_k}")
        good = sorted(p for p in tmp_path.rglob("*") if p.suffix in (".svg", ".dvi"))
        text_svg = next(p for p in good if p.parent.name == "texts")
        tex_svg = next(p for p in good if p.parent.name == "Tex" and p.suffix == ".svg")
        dvi = tmp_path / "Tex" / "left-by-a-killed-latex.dvi"  # manim removes its DVIs once converted
        text_svg.write_bytes(text_svg.read_bytes()[:100])  # truncated
        dvi.write_bytes(b"garbage")
        assert sorted(drop_damaged_entries(tmp_path)) == sorted([text_svg, dvi])
        assert tex_svg.is_file()
        assert Text("cached words").width > 1  # typeset again


def test_a_full_disk_when_logging_a_failure_still_reports_the_failure(monkeypatch, tmp_path):
    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(workers, "WORKER", fake_workers.self_attention_fails)
    monkeypatch.setattr(workers, "write_error_log", disk_full)
    result = run("self-attention", "--media-dir", str(tmp_path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "FAILED: RuntimeError: boom (its details could not be saved: No space left on device)" in result.output


# --- writes and reads -------------------------------------------------------------------------


def test_a_huge_seed_is_a_usage_error_not_a_traceback():
    result = CliRunner().invoke(render.main, ["scaling", "--seed", "9" * 5000])
    assert result.exit_code == 2 and "--seed must be a whole number" in result.output and "Traceback" not in result.output


class FullDisk:
    """Stands in for ``os.fdopen`` in ``files``: the file takes 100 bytes, then the disk is full."""

    def __init__(self, real):
        self.real = real

    def __call__(self, handle, mode="r", *args, **kwargs):
        file = self.real(handle, mode, *args, **kwargs)
        real_write = file.write

        def write(data):
            real_write(data[:100])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        file.write = write
        return file


@pytest.mark.parametrize("command", [["gallery"], ["worksheet", "self-attention"]])
def test_a_full_disk_leaves_the_previous_page_whole_and_no_temporary_file(command, monkeypatch, tmp_path):
    from attention_explainer import files

    page = tmp_path / ("index.html" if command == ["gallery"] else "self-attention/worksheet.html")
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text("the previous page")
    monkeypatch.setattr(files.os, "fdopen", FullDisk(os.fdopen))
    result = CliRunner().invoke(render.main, [*command, "--media-dir", str(tmp_path)])
    assert result.exit_code == 1 and "No space left on device" in result.output and "Traceback" not in result.output
    assert page.read_text() == "the previous page"
    assert [p.name for p in page.parent.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("content", ['{"scaling/high": "fast", "softmax/high": NaN}', "[1, 2", "folder"])
def test_a_damaged_render_times_file_is_ignored_and_never_stops_a_render(content, monkeypatch, tmp_path):
    times = tmp_path / ".cache" / "render-times.json"
    times.parent.mkdir()
    if content == "folder":
        times.mkdir()
    else:
        times.write_text(content)
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    result = CliRunner().invoke(render.main, ["scaling", "softmax", "--jobs", "2", "--media-dir", str(tmp_path / "media")])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert [p.name for p in times.parent.rglob("*.tmp")] == []


def test_pages_are_never_written_through_a_symlink_in_media(monkeypatch, tmp_path):
    outside = tmp_path / "outside.html"
    outside.write_text("not yours")
    media = tmp_path / "media"
    (media / "self-attention").mkdir(parents=True)
    (media / "index.html").symlink_to(outside)
    (media / "self-attention" / "worksheet.html").symlink_to(outside)
    assert CliRunner().invoke(render.main, ["gallery", "--media-dir", str(media)]).exit_code == 0
    assert CliRunner().invoke(render.main, ["worksheet", "self-attention", "--media-dir", str(media)]).exit_code == 0
    assert outside.read_text() == "not yours"
    assert not (media / "index.html").is_symlink() and not (media / "self-attention" / "worksheet.html").is_symlink()


@pytest.mark.parametrize("content", ['{"scene": "scaling", "fil', "[]", '{"files": 3}'])
def test_a_damaged_manifest_means_render_again_never_a_traceback(content, tmp_path):
    from attention_explainer.options import RenderJob
    from attention_explainer.pipeline.freshness import Freshness

    folder = tmp_path / "scaling" / "low"
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(content)
    job = RenderJob("scaling", {}, "low", "dark", "mp4", tmp_path, tmp_path / "cache")
    assert freshness.freshness(job, folder) is Freshness.RENDER
