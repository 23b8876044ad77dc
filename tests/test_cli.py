"""The command line: good input, unknown scenes, bad options, missing tools, failures, Ctrl-C."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import render
from scenes import SCENES
from scenes import rendering
from scenes.rendering import RenderResult


@pytest.fixture
def fake_render(monkeypatch, tmp_path):
    """Replace the renderer with a recorder that writes a small file per scene."""
    calls = []

    def fake(name, quality, media_root, theme, video_format):
        calls.append((name, quality, theme))
        video = Path(media_root) / name / quality / f"{name}.mp4"
        video.parent.mkdir(parents=True, exist_ok=True)
        video.write_bytes(b"video")
        return RenderResult(name, quality, video.parent, video, 0.1)

    monkeypatch.setattr(render, "render_scene", fake)
    return calls


def run(*args):
    """The CLI in this process (one job), so the replaced renderer is the one called."""
    return CliRunner().invoke(render.main, [*args, "--jobs", "1"])


def test_list_shows_every_scene_with_a_description():
    for args in (["--list"], ["list"]):
        result = run(*args)
        assert result.exit_code == 0
        for name, scene in SCENES.items():
            assert name in result.output and scene.description in result.output


def test_renders_the_named_scenes_and_prints_their_paths(fake_render, tmp_path):
    result = run("scaling", "self-attention", "--quality", "low", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert fake_render == [("scaling", "low", "dark"), ("self-attention", "low", "dark")]
    assert result.stdout.splitlines() == [
        str(tmp_path / "scaling" / "low" / "scaling.mp4"),
        str(tmp_path / "self-attention" / "low" / "self-attention.mp4"),
    ]


def test_all_renders_the_catalog_in_teaching_order(fake_render, tmp_path):
    result = run("all", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [name for name, _, _ in fake_render] == list(SCENES)
    assert {quality for _, quality, _ in fake_render} == {"high"}


def test_unknown_scene_lists_valid_names_and_never_starts_manim(fake_render):
    result = run("scalng")
    assert result.exit_code == 2
    assert "unknown scene 'scalng'" in result.output
    for name in SCENES:
        assert name in result.output
    assert fake_render == []


def test_bad_quality_is_a_usage_error(fake_render):
    result = run("scaling", "--quality", "ultra")
    assert result.exit_code == 2
    assert "ultra" in result.output and fake_render == []


def test_no_scene_is_a_usage_error(fake_render):
    result = run()
    assert result.exit_code == 2 and "render.py --list" in result.output


def test_missing_latex_says_what_and_how_to_install(monkeypatch, fake_render):
    monkeypatch.setattr(rendering.shutil, "which", lambda tool: None if tool == "dvisvgm" else "/usr/bin/" + tool)
    result = run("scaling")
    assert result.exit_code == 1
    assert "dvisvgm not found" in result.output and "make setup" in result.output
    assert "Traceback" not in result.output and fake_render == []


def test_one_failing_scene_keeps_the_others(monkeypatch, tmp_path):
    def flaky(name, quality, media_root, theme, video_format):
        if name == "self-attention":
            raise RuntimeError("boom")
        video = Path(media_root) / f"{name}.mp4"
        video.write_bytes(b"ok")
        return RenderResult(name, quality, Path(media_root), video, 0.1)

    monkeypatch.setattr(render, "render_scene", flaky)
    result = run("self-attention", "scaling", "--media-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "self-attention (high): FAILED: RuntimeError: boom" in result.output
    assert str(tmp_path / "scaling.mp4") in result.stdout
    assert "Traceback" in (tmp_path / ".logs" / "self-attention-high.log").read_text()


def test_ctrl_c_exits_non_zero(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "render_scene", interrupted)
    result = run("scaling")
    assert result.exit_code == 130
    assert "Interrupted" in result.output


def test_up_to_date_scenes_are_skipped_unless_forced(fake_render, monkeypatch, tmp_path):
    up_to_date = {"scaling"}
    monkeypatch.setattr(
        render, "up_to_date",
        lambda name, quality, media_dir, theme, video_format: RenderResult(name, quality, tmp_path, tmp_path / f"{name}.mp4", 0.0) if name in up_to_date else None,
    )
    result = run("scaling", "self-attention", "--media-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [name for name, _, _ in fake_render] == ["self-attention"]
    assert "scaling (high): up to date" in result.output
    assert str(tmp_path / "scaling.mp4") in result.stdout.splitlines()
    result = run("scaling", "--force", "--media-dir", str(tmp_path))
    assert [name for name, _, _ in fake_render] == ["self-attention", "scaling"]
