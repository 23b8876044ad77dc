"""Issue 34: exports are all or nothing across formats, fit what each format allows, and follow the renders' signal, disk and temporary-file rules."""

from __future__ import annotations

import errno
import os
import signal
import zipfile
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

import render
from attention_explainer.exports import deck, scorm

from .hardening import SCENE, fake_render

LONG = "Students sometimes misunderstand transformers because attention looks complicated " * 5


@pytest.fixture
def published(tmp_path):
    media, cache = tmp_path / "media", tmp_path / "cache"
    return fake_render(media, cache, description=LONG.strip()), media, cache


def export(media, cache, *formats):
    to = [argument for kind in formats for argument in ("--to", kind)]
    return CliRunner().invoke(
        render.main, ["export", SCENE, *to, "--quality", "low", "--media-dir", str(media), "--cache-dir", str(cache)]
    )


def leftovers(folder):
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


def test_a_deck_of_a_long_description_is_written_with_it_whole_in_the_notes(published):
    """Failure 2: python-pptx refused a core property over 255 characters, after the render."""
    folder, media, cache = published
    result = export(media, cache, "scorm", "pptx")
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(folder / f"{SCENE}.pptx") as archive:
        core = ElementTree.fromstring(archive.read("docProps/core.xml"))
        notes = b"".join(archive.read(name) for name in archive.namelist() if name.startswith("ppt/notesSlides/"))
    texts = {element.tag.rsplit("}", 1)[-1]: element.text or "" for element in core}
    assert 0 < len(texts["subject"]) <= 255 and LONG.startswith(texts["subject"].rstrip("…"))
    assert LONG.strip().encode() in notes
    assert (folder / f"{SCENE}-scorm.zip").is_file()


def test_exports_are_all_or_nothing_across_formats(published, monkeypatch):
    """The zip is built first; the deck then fails: neither is put in place, and no temporary file stays."""
    folder, media, cache = published

    def broken(package, target):
        target.write_bytes(b"half a deck")
        raise ValueError("this deck cannot be written")

    monkeypatch.setattr(deck, "write_deck", broken)
    result = export(media, cache, "scorm", "pptx")
    assert result.exit_code == 1, result.output
    assert "this deck cannot be written" in result.output and "nothing was exported" in result.output
    assert not (folder / f"{SCENE}-scorm.zip").exists() and not (folder / f"{SCENE}.pptx").exists()
    assert leftovers(folder) == []


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_an_export_exits_like_a_render(published, monkeypatch, signum, code):
    """Poor item: Ctrl-C or SIGTERM during an export said "Aborted!" with exit 1."""
    folder, media, cache = published

    def interrupted(package, target, **options):
        target.write_bytes(b"part of a zip")
        os.kill(os.getpid(), signum)  # the render command's handler turns it into an interrupt here
        raise AssertionError("the signal did not stop the export")

    monkeypatch.setattr(scorm, "write_scorm", interrupted)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = export(media, cache, "scorm")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.exit_code == code, result.output
    assert "Aborted" not in result.output and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == (
        "Interrupted: unfinished scenes were not written; published renders are as they were."
    )
    assert sum("Interrupted" in line or "Error" in line for line in result.output.splitlines()) == 1
    assert leftovers(folder) == [] and not (folder / f"{SCENE}-scorm.zip").exists()


def test_a_full_disk_during_an_export_names_the_file(published, monkeypatch):
    """Poor item: "No space left on device" without the path."""
    folder, media, cache = published

    def full(package, target, **options):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # as zipfile raises it: no file name

    monkeypatch.setattr(scorm, "write_scorm", full)
    result = export(media, cache, "scorm")
    assert result.exit_code == 1
    last = result.output.strip().splitlines()[-1]
    assert last == f"Error: cannot write {folder / (SCENE + '-scorm.zip')}: No space left on device"
    assert "Traceback" not in result.output and leftovers(folder) == []


def test_an_export_removes_what_a_killed_export_left(published):
    """Poor item: SIGKILL during a deck export left `.softmax.pptx.XXXX.tmp` in the published folder forever."""
    folder, media, cache = published
    stale = [folder / f".{SCENE}.pptx.k1ll3d.tmp", folder / f".{SCENE}-scorm.zip.abc.tmp"]
    for path in stale:
        path.write_bytes(b"half")
    result = export(media, cache, "scorm")
    assert result.exit_code == 0, result.output
    assert leftovers(folder) == []
