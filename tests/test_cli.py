"""The command line: good input, unknown scenes, bad options, missing tools, failures, Ctrl-C."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from attention_explainer import cli
from attention_explainer.pipeline import freshness, render_job, workers
from scenes import SCENES

from . import fake_workers
from .helpers import run


@pytest.fixture
def fake_render(monkeypatch, tmp_path):
    """Worker processes run a stand-in that records its calls instead of rendering."""
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    return lambda: fake_workers.calls(tmp_path)


def test_list_shows_every_scene_with_a_description():
    for args in (["--list"], ["list"], ["render", "--list"]):
        result = CliRunner().invoke(render.main, args)
        assert result.exit_code == 0
        assert "{" not in result.output  # a description's inputs are named, never a placeholder
        for name, scene in SCENES.items():
            first_words = scene.description.split("{")[0].strip('"')
            assert name in result.output and first_words in result.output
        assert "d_model 16 split into 8 heads" in result.output
        assert "A sentence: scores, scaling, softmax" in result.output


def test_renders_the_named_scenes_and_prints_their_paths(fake_render, tmp_path):
    result = run("scaling", "self-attention", "--quality", "low", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert fake_render() == [("scaling", "low", "dark"), ("self-attention", "low", "dark")]
    assert "scaling: step 1: pretend" in result.stderr
    assert result.stdout.splitlines() == [
        str(tmp_path / "scaling" / "low" / "scaling.mp4"),
        str(tmp_path / "self-attention" / "low" / "self-attention.mp4"),
    ]


def test_all_renders_the_catalog_in_teaching_order(fake_render, tmp_path):
    result = run("all", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [name for name, _, _ in fake_render()] == list(SCENES)
    assert {quality for _, quality, _ in fake_render()} == {"high"}


def test_unknown_scene_lists_valid_names_and_never_starts_manim(fake_render, tmp_path):
    result = run("scalng", "--media-dir", str(tmp_path))
    assert result.exit_code == 2
    assert "unknown scene 'scalng'" in result.output
    for name in SCENES:
        assert name in result.output
    assert fake_render() == []


def test_bad_quality_is_a_usage_error(fake_render, tmp_path):
    result = run("scaling", "--quality", "ultra", "--media-dir", str(tmp_path))
    assert result.exit_code == 2
    assert "ultra" in result.output and fake_render() == []


def test_no_scene_is_a_usage_error(fake_render):
    result = run()
    assert result.exit_code == 2 and "render.py list" in result.output


@pytest.mark.parametrize("command", ["render", "list", "gallery", "worksheet"])
def test_every_command_has_its_own_help(command):
    result = CliRunner().invoke(render.main, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Usage: main {command} [OPTIONS]")


def test_the_group_help_names_the_commands_and_the_default():
    result = CliRunner().invoke(render.main, ["--help"])
    assert result.exit_code == 0
    assert all(command in result.output for command in ("render", "list", "gallery", "worksheet"))
    assert "default" in result.output


def test_options_before_the_scene_still_render(fake_render, tmp_path):
    result = CliRunner().invoke(render.main, ["--quality", "low", "scaling", "--media-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert fake_render() == [("scaling", "low", "dark")]


def test_render_py_is_a_thin_entry_point():
    """The command line lives in the application package; render.py only calls it."""
    source = (Path(render.__file__)).read_text(encoding="utf-8")
    code = [line for line in source.splitlines() if line.strip() and not line.lstrip().startswith(("#", '"""'))]
    assert len(code) <= 4, code
    assert render.main is cli.main


def test_missing_latex_says_what_and_how_to_install(monkeypatch, fake_render, tmp_path):
    monkeypatch.setattr(render_job.shutil, "which", lambda tool: None if tool == "dvisvgm" else "/usr/bin/" + tool)
    result = run("scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "dvisvgm not found" in result.output and "make setup" in result.output
    assert "Traceback" not in result.output and fake_render() == []


def test_one_failing_scene_keeps_the_others(monkeypatch, tmp_path):
    monkeypatch.setattr(workers, "WORKER", fake_workers.self_attention_fails)
    result = run("self-attention", "scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "self-attention (high): FAILED: RuntimeError: boom" in result.output
    assert result.stdout.splitlines() == [str(tmp_path / "scaling" / "high" / "scaling.mp4")]
    assert "Traceback" in (Path(".cache") / "logs" / "self-attention-high.log").read_text()
    assert "Traceback" not in result.output


def test_a_killed_worker_is_reported_and_the_others_render(monkeypatch, tmp_path):
    monkeypatch.setattr(workers, "WORKER", fake_workers.self_attention_is_killed)
    result = CliRunner().invoke(render.main, ["self-attention", "scaling", "--jobs", "2", "--media-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "self-attention (high): FAILED: the worker process died (exit code -9)" in result.output
    assert result.stdout.splitlines() == [str(tmp_path / "scaling" / "high" / "scaling.mp4")]


def test_ctrl_c_exits_non_zero(monkeypatch, tmp_path):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(workers, "render_all", interrupted)
    result = run("scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 130
    assert "Interrupted" in result.output


def test_up_to_date_scenes_are_skipped_unless_forced(fake_render, monkeypatch, tmp_path):
    up_to_date = {"scaling"}
    monkeypatch.setattr(
        freshness,
        "freshness",
        lambda job, folder: freshness.Freshness.UP_TO_DATE if job.scene in up_to_date else freshness.Freshness.RENDER,
    )
    result = run("scaling", "self-attention", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [name for name, _, _ in fake_render()] == ["self-attention"]
    assert "scaling (high): up to date" in result.output
    assert str(tmp_path / "scaling" / "high" / "scaling.mp4") in result.stdout.splitlines()
    result = run("scaling", "--force", "--media-dir", str(tmp_path))
    assert [name for name, _, _ in fake_render()] == ["self-attention", "scaling"]


def test_parallel_renders_start_the_longest_scene_first(fake_render, tmp_path):
    """Each render's time is kept; with more than one job the slowest last render starts first, never-timed scenes before all."""
    result = run("scaling", "self-attention", "--quality", "low", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    times_file = Path(".cache") / "render-times.json"
    assert set(json.loads(times_file.read_text())) == {"scaling/low", "self-attention/low"}

    times_file.write_text(json.dumps({"scaling/low": 50.0, "self-attention/low": 20.0, "bottleneck/low": 90.0, "qkv/high": 99.0}))
    names = ["self-attention", "scaling", "bottleneck", "qkv", "softmax"]
    result = CliRunner().invoke(render.main, [*names, "--quality", "low", "--jobs", "2", "--media-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "2 at a time: qkv, softmax, bottleneck, scaling, self-attention" in result.stderr
    assert result.stdout.splitlines() == [str(tmp_path / name / "low" / f"{name}.mp4") for name in names]

    # One at a time, the order cannot change the total: the scenes render in the order given.
    run(*names, "--quality", "low", "--media-dir", str(tmp_path))
    assert [name for name, _, _ in fake_render()[-len(names) :]] == names
