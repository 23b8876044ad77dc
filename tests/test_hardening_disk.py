"""Issue 34, poor item: a render on a full disk says "disk full" and where, not what first read a truncated file."""

from __future__ import annotations

import errno
import os
import queue
from collections import namedtuple
from xml.etree import ElementTree

import pytest

from attention_explainer.options import RenderJob
from attention_explainer.pipeline import render_job, workers

Space = namedtuple("Space", "f_bavail f_frsize")


def failing_render(tmp_path, monkeypatch, error, free_blocks):
    def render_scene(job):
        raise error

    real_statvfs = os.statvfs
    monkeypatch.setattr(render_job, "render_scene", render_scene)  # the worker imports it from there as it starts
    monkeypatch.setattr(
        workers.os,
        "statvfs",
        lambda path: Space(free_blocks, 4096) if str(path).startswith(str(tmp_path)) else real_statvfs(path),
    )
    job = RenderJob("softmax", {}, "low", media_dir=tmp_path / "media", cache_dir=tmp_path / "cache")
    return workers.render_in_worker(job, queue.Queue())


def test_a_truncated_svg_on_a_full_disk_is_reported_as_a_full_disk(tmp_path, monkeypatch):
    result, error, details = failing_render(tmp_path, monkeypatch, ElementTree.ParseError("unclosed token"), free_blocks=0)
    assert result is None
    assert error.startswith(f"disk full: {tmp_path / 'cache'} has no space left") and "unclosed token" in error
    assert "\n" not in error


def test_a_full_disk_error_with_its_file_names_it(tmp_path, monkeypatch):
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "cache" / "staging" / "x.mp4"))
    result, error, details = failing_render(tmp_path, monkeypatch, full, free_blocks=10**6)
    assert error == f"disk full: no space left to write {tmp_path / 'cache' / 'staging' / 'x.mp4'}"


def test_the_same_error_with_room_left_is_itself(tmp_path, monkeypatch):
    result, error, details = failing_render(tmp_path, monkeypatch, ElementTree.ParseError("unclosed token"), free_blocks=10**6)
    assert error == "ParseError: unclosed token"


def test_a_full_disk_under_the_encoders_own_error_names_the_file(tmp_path, monkeypatch):
    """Seen on a 20 MB disk filling mid-render: the encoder's RuntimeError, its cause the write that found no space."""
    partial = tmp_path / "cache" / "staging" / "uncached_00037.mp4"
    try:
        try:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(partial))
        except OSError as cause:
            raise RuntimeError(f"Failed to finish video segment {partial}: {cause}") from cause
    except RuntimeError as wrapped:
        error = wrapped
    result, message, details = failing_render(tmp_path, monkeypatch, error, free_blocks=10**6)
    assert message == f"disk full: no space left to write {partial}"


def test_a_file_written_on_a_full_disk_is_named(tmp_path, monkeypatch):
    """The page, the render times, a log: the write or close on a full disk raises ENOSPC with no file name."""
    from attention_explainer import files

    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle, mode):
            self.file = real_fdopen(handle, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def fileno(self):
            return self.file.fileno()

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "fdopen", Full)
    target = tmp_path / "media" / "index.html"
    with pytest.raises(OSError) as raised:
        files.write_atomic(target, "<html>")
    assert (raised.value.errno, raised.value.filename) == (errno.ENOSPC, str(target))
    assert list(target.parent.iterdir()) == []  # no temporary file left
