"""The suite's own scheduling: a test that reads a scene's shared build runs in that scene's group; a shared render
that fails says so.

A scene's default build (:func:`.helpers.built_scene`) is made once per test process, and ``--dist loadgroup``
keeps a scene's group on one worker (:func:`.conftest.test_group`). A test that names a scene's build but sits in
another group (its file's, by default) may run on the other worker, which then builds the scene a second time
(12 to 37 CPU s a scene).
"""

from __future__ import annotations

import inspect
import re

import pytest

from . import shared_renders
from .conftest import test_group as group_of

NAMED_BUILD = re.compile(r"""built_scene\(["']([a-z-]+)["']\)""")


def named_builds(item) -> set[str]:
    """The scenes whose default build ``item``'s test function names, as ``built_scene("name")``."""
    function = getattr(item, "function", None)
    return set(NAMED_BUILD.findall(inspect.getsource(function))) if function is not None else set()


def test_a_test_that_reads_a_scenes_build_runs_in_that_scenes_group(request):
    items = request.session.items
    assert any(named_builds(item) for item in items) or len(items) < 50, "the reader should find the named builds"
    astray = [
        f"{item.nodeid} reads {name}'s build in group {group_of(item)!r}"
        for item in items
        for name in sorted(named_builds(item))
        if group_of(item) != name
    ]
    assert not astray, "mark them @pytest.mark.xdist_group(<scene>):\n" + "\n".join(astray)


def reads_softmax():
    """Stands for a test that reads softmax's build (read by the test below, never run)."""
    return built_scene("softmax")  # noqa: F821


def test_the_reader_finds_a_named_build():
    """The check above could pass on nothing: it must see the name in a test's source."""

    class Item:
        function = reads_softmax

    assert named_builds(Item()) == {"softmax"}


def test_a_shared_render_that_ends_without_an_outcome_is_a_clear_failure_not_a_wait(tmp_path):
    """A shared render's process that dies before its outcome (here: a name it does not know) fails the test that
    waits for it, with the end of its output, instead of keeping it waiting (:mod:`.shared_renders`)."""
    shared_renders.start("no-such-render", tmp_path)
    pid = (tmp_path / "no-such-render" / "pid").read_text()
    with pytest.raises(AssertionError, match="ended without an outcome") as failure:
        shared_renders.outcome("no-such-render", tmp_path)  # (asking again starts nothing new)
    assert (tmp_path / "no-such-render" / "pid").read_text() == pid
    assert "KeyError: 'no-such-render'" in str(failure.value)  # (the run's end reaps it, with the renders it waits for)
