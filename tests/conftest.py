"""Shared fixtures: scenes built without writing video, and one real low-quality render."""

from __future__ import annotations

import functools
import tempfile

import pytest
from manim import tempconfig

from scenes import SCENES


@functools.lru_cache(maxsize=None)
def built_scene(name: str):
    """Run a scene's construct with animations skipped and no video written; cached per name."""
    with tempfile.TemporaryDirectory() as media_dir:
        settings = {"dry_run": True, "media_dir": media_dir, "quality": "low_quality", "verbosity": "WARNING", "progress_bar": "none"}
        with tempconfig(settings):
            scene = SCENES[name](skip_animations=True)
            scene.render()
    return scene


@pytest.fixture(params=list(SCENES))
def scene(request):
    """Every scene of the catalog, built."""
    return built_scene(request.param)
