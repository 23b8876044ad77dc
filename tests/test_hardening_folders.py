"""Issue 34: a teacher's own files in a render folder, linked render folders, media and cache folders that overlap, and the lock folder."""

from __future__ import annotations

import json
import os
import stat
import tempfile

import pytest
from click.testing import CliRunner

import render
from attention_explainer.files import sha256_of
from attention_explainer.options import RenderJob
from attention_explainer.package.reader import read_package
from attention_explainer.pipeline import freshness, guard, staging

from .hardening import SCENE, fake_render


def render_softmax(media, cache, *more):
    return CliRunner().invoke(
        render.main, [SCENE, "-q", "low", "--media-dir", str(media), "--cache-dir", str(cache), "--jobs", "1", *more]
    )


@pytest.fixture
def published(tmp_path):
    media, cache = tmp_path / "media", tmp_path / "cache"
    return fake_render(media, cache), media, cache


# --- failure 6: a teacher's own files -------------------------------------------------------------


def test_a_rerender_refuses_to_delete_a_teachers_files_naming_them(published):
    folder, media, cache = published
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    (folder / "handouts").mkdir()
    (folder / "handouts" / "sheet.pdf").write_bytes(b"%PDF")
    video = (folder / f"{SCENE}.mp4").read_bytes()
    result = render_softmax(media, cache, "--force")
    assert result.exit_code == 1, result.output
    last = result.output.strip().splitlines()[-1]
    assert "my-notes.txt" in last and "handouts/" in last and "move them out" in last
    assert "Rendering" not in result.output  # refused before anything was drawn
    assert (folder / "my-notes.txt").read_text(encoding="utf-8") == "mine" and (folder / "handouts" / "sheet.pdf").is_file()
    assert (folder / f"{SCENE}.mp4").read_bytes() == video


def test_an_up_to_date_render_with_a_teachers_files_is_reused(published):
    folder, media, cache = published
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    result = render_softmax(media, cache)
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output and (folder / "my-notes.txt").is_file()


def test_what_the_project_wrote_is_not_foreign(published):
    folder, media, cache = published
    (folder / f"{SCENE}.pptx").write_bytes(b"deck")
    (folder / f"{SCENE}-scorm.zip").write_bytes(b"zip")
    (folder / f".{SCENE}.pptx.x1y2.tmp").write_bytes(b"left by a killed export")
    assert guard.foreign_entries(folder, SCENE) == []
    (folder / "sections" / "extra.mp4").write_bytes(b"")
    (folder / ".hidden").write_bytes(b"")
    assert guard.foreign_entries(folder, SCENE) == [".hidden", "sections/extra.mp4"]


def test_every_export_and_the_questions_are_the_projects_even_unlisted(published):
    """A GIFT export (added after the check) was taken for a teacher's file: the next re-render refused to run.

    ``questions.json`` is a render's own file too, known by name when the manifest cannot be read.
    """
    folder, media, cache = published
    (folder / f"{SCENE}-gift.txt").write_text("::q1:: ...", encoding="utf-8")
    (folder / f".{SCENE}-gift.txt.x1y2.tmp").write_text("left by a killed export", encoding="utf-8")
    (folder / "questions.json").write_text("[]", encoding="utf-8")
    (folder / "manifest.json").write_text("{damaged", encoding="utf-8")
    assert guard.foreign_entries(folder, SCENE) == []


def test_the_publish_itself_refuses_to_replace_a_teachers_files(published, tmp_path):
    """The check before drawing has a twin at the publish: any path to it (a batch, a cluster's package) is covered."""
    folder, media, cache = published
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    work = tmp_path / "staging"
    package = work / "package"
    package.mkdir(parents=True)
    (package / "manifest.json").write_text(f'{{"scene": "{SCENE}"}}', encoding="utf-8")
    with pytest.raises(guard.ForeignFiles, match="my-notes.txt"):
        staging.publish(package, folder, work)
    assert (folder / "my-notes.txt").is_file() and (folder / "manifest.json").is_file() and package.is_dir()


def test_a_batch_refuses_too(published, tmp_path):
    folder, media, cache = published
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    batch_file = tmp_path / "renders.txt"
    batch_file.write_text(f"{SCENE} -q low --force\n", encoding="utf-8")
    result = CliRunner().invoke(render.main, ["batch", str(batch_file), "--media-dir", str(media), "--cache-dir", str(cache)])
    assert result.exit_code == 1 and "my-notes.txt" in result.output.strip().splitlines()[-1]
    assert (folder / "my-notes.txt").is_file()


# --- a render folder that is a link ---------------------------------------------------------------


@pytest.fixture
def linked(tmp_path):
    """``media/softmax/low`` a link to a render elsewhere."""
    elsewhere, cache = tmp_path / "elsewhere", tmp_path / "cache"
    target = fake_render(elsewhere, cache)
    media = tmp_path / "media"
    (media / SCENE).mkdir(parents=True)
    (media / SCENE / "low").symlink_to(target, target_is_directory=True)
    return target, media, cache


def test_an_export_is_not_written_through_a_linked_render_folder(linked):
    target, media, cache = linked
    result = CliRunner().invoke(
        render.main, ["export", SCENE, "--to", "scorm", "-q", "low", "--media-dir", str(media), "--cache-dir", str(cache)]
    )
    assert result.exit_code == 1 and "symbolic link" in result.output
    assert sorted(p.name for p in target.iterdir() if "scorm" in p.name) == []


def test_a_render_is_not_written_through_a_linked_render_folder(linked):
    target, media, cache = linked
    before = sorted(p.name for p in target.iterdir())
    result = render_softmax(media, cache, "--force")
    assert result.exit_code == 1 and "symbolic link" in result.output.strip().splitlines()[-1]
    assert sorted(p.name for p in target.iterdir()) == before and (media / SCENE / "low").is_symlink()


def test_a_worksheet_is_not_written_through_a_linked_scene_folder(tmp_path):
    elsewhere, media = tmp_path / "elsewhere", tmp_path / "media"
    elsewhere.mkdir()
    media.mkdir()
    (media / "self-attention").symlink_to(elsewhere, target_is_directory=True)
    result = CliRunner().invoke(render.main, ["worksheet", "self-attention", "--media-dir", str(media)])
    assert result.exit_code == 1 and "symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


# --- the media and cache folders ------------------------------------------------------------------


@pytest.mark.parametrize(
    "cache", ["media", "media/cache", "media/softmax/low/cache", "media/softmax/low/.cache", "media/x/.cache"]
)
def test_a_cache_folder_in_the_media_folder_is_a_usage_error(tmp_path, cache):
    media = tmp_path / "media"
    result = render_softmax(media, tmp_path / cache)
    assert result.exit_code == 2, result.output
    assert "--cache-dir" in result.output and "Rendering" not in result.output
    assert not (tmp_path / cache).exists() or cache == "media" and list(media.iterdir()) == []


def test_a_hidden_cache_folder_at_the_top_of_the_media_folder_is_allowed(published):
    """As `--media-dir .` with the default `.cache` has it: never a render folder, never published."""
    folder, media, cache = published
    result = render_softmax(media, media / ".cache")
    assert result.exit_code == 0, result.output


def test_a_cache_folder_in_the_media_folder_through_a_link_is_refused(tmp_path):
    media = tmp_path / "media"
    media.mkdir()
    (tmp_path / "shortcut").symlink_to(media, target_is_directory=True)
    result = render_softmax(media, tmp_path / "shortcut" / "cache")
    assert result.exit_code == 2 and "inside the media folder" in result.output


def test_a_media_folder_that_is_a_link_loop_is_one_line(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    result = render_softmax(tmp_path / "a", tmp_path / "cache")
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [
        f"Error: cannot use {tmp_path / 'a'} as the media folder: it is a loop of symbolic links"
    ]


# --- the locks ------------------------------------------------------------------------------------


def test_a_file_at_the_old_shared_lock_name_blocks_nothing(published, monkeypatch, tmp_path):
    """Poor item: a file named `attention-explainer-locks` in the shared temporary folder blocked every user's renders."""
    folder, media, cache = published
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    (shared / "attention-explainer-locks").write_text("planted", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    result = render_softmax(media, cache)
    assert result.exit_code == 0, result.output
    locks = tmp_path / "home-cache" / "attention-explainer" / "locks"
    assert any(locks.glob("*.lock"))


def test_the_lock_folder_is_private_and_the_users_own(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    folder = guard.lock_folder()
    status = os.lstat(folder)
    assert folder == tmp_path / "home-cache" / "attention-explainer" / "locks"
    assert stat.S_IMODE(status.st_mode) == 0o700 and status.st_uid == os.getuid()


def test_without_a_usable_home_the_lock_folder_is_per_user_in_the_temporary_folder(monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file: no folder can be made under it
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "attention-explainer-locks").write_text("planted", encoding="utf-8")
    folder = guard.lock_folder()
    assert folder == tmp_path / f"attention-explainer-locks-{os.getuid()}"
    assert stat.S_IMODE(os.lstat(folder).st_mode) == 0o700


def test_a_lock_folder_that_is_a_link_planted_by_someone_is_not_used(monkeypatch, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / "theirs").mkdir()
    (tmp_path / f"attention-explainer-locks-{os.getuid()}").symlink_to(tmp_path / "theirs")
    with pytest.raises(guard.FolderProblem, match="not a folder of this user's own"):
        guard.lock_folder()


# --- failure 1: paths from a package received from someone else ------------------------------------


def _job(media, cache):
    return RenderJob(SCENE, {}, "low", "dark", "mp4", media, cache, "none")


def _rehash(folder, name):
    """The manifest made to match the edited ``name``, as someone planting it would."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        if entry["path"] == name:
            entry.update(sha256=sha256_of(folder / name), bytes=(folder / name).stat().st_size)
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("planted", ["../../../X", "sections/../../../X", "ABSOLUTE"])
def test_a_step_clip_outside_the_package_makes_it_invalid(published, tmp_path, planted):
    """``sections.json`` naming a clip by ``../`` or an absolute path: rendered again, never read for an export."""
    folder, media, cache = published
    outside = tmp_path / "X"
    outside.write_bytes((folder / "sections" / "01-the-step.mp4").read_bytes())
    steps = json.loads((folder / "sections.json").read_text(encoding="utf-8"))
    steps[0]["file"] = str(outside) if planted == "ABSOLUTE" else planted
    (folder / "sections.json").write_text(json.dumps(steps), encoding="utf-8")
    _rehash(folder, "sections.json")
    assert freshness.freshness(_job(media, cache), folder) is freshness.Freshness.RENDER  # export and render draw it again
    with pytest.raises(ValueError, match="no clip file inside the package"):
        read_package(folder)  # what every export and page reads a package with


def test_a_package_folder_linked_elsewhere_is_not_read_through(published, tmp_path):
    """``sections/`` a link to a folder outside holding the same clips: the package does not match its manifest."""
    folder, media, cache = published
    elsewhere = tmp_path / "elsewhere-sections"
    (folder / "sections").rename(elsewhere)
    (folder / "sections").symlink_to(elsewhere, target_is_directory=True)
    assert freshness.freshness(_job(media, cache), folder) is freshness.Freshness.RENDER
    with pytest.raises(ValueError, match="sections/01-the-step.mp4 is missing or not what its render wrote"):
        read_package(folder)
    assert guard.foreign_entries(folder, SCENE) == ["sections/"]  # and a render refuses to replace it, naming the link
