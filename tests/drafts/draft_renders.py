"""Drafts: the tests' renders, drawn at half the width and height.

Every Python process started with this folder on its ``PYTHONPATH`` makes drafts: Python imports the folder's
``sitecustomize`` as it starts, which calls :func:`install`. A render's worker process (spawned by the CLI, or started
by a Dask worker) inherits the path from the process that started it (:func:`tests.helpers.with_drafts`).

A draft draws its quality's frames (15 a second at low quality) at half its width and height (428x240 at low
quality). What a test proves with a render (packaging and publishing, the same bytes on any core and any machine,
the narration and its clips, the pages) needs frames drawn and encoded, not 410,000 pixels in each;
a draft of ``scaling`` takes about 25 CPU s where the render takes 37. The frame rate stays: every duration is a
whole number of 1/15 s (``scenes/kit/scene.py``). A draft logs the size and rate its quality gave manim, so a test
still checks what a teacher's render gets (``test_end_to_end.py``). Nothing in the project imports this module.
"""

import sys
from importlib.abc import MetaPathFinder
from importlib.util import find_spec

DRAFT_SCALE = 2
"""A draft's width and height are its quality's divided by this (to an even number of pixels, as H.264 needs)."""
RENDER_JOB = "attention_explainer.pipeline.render_job"


def draft_size(width: int, height: int) -> tuple[int, int]:
    """A draft's size for a quality's ``width`` and ``height``, in pixels."""
    return 2 * round(width / DRAFT_SCALE / 2), 2 * round(height / DRAFT_SCALE / 2)


class _DraftRenders(MetaPathFinder):
    """Finds the render job's module as Python would, and makes its renders drafts once it has loaded."""

    def find_spec(self, name, path=None, target=None):
        if name != RENDER_JOB:
            return None
        sys.meta_path.remove(self)  # found once; the real finders find it
        spec = find_spec(name)
        load = spec.loader.exec_module

        def load_then_draft(module):
            load(module)
            _make_drafts(module)

        spec.loader.exec_module = load_then_draft
        return spec


def _make_drafts(render_job) -> None:
    """Draw at the draft's size: manim's configuration for each render, once its quality has set it."""
    import logging
    from contextlib import contextmanager

    from manim import config

    quality_config = render_job.tempconfig

    @contextmanager
    def draft_config(settings):
        with quality_config(settings):
            width, height = draft_size(config.pixel_width, config.pixel_height)
            logging.getLogger(RENDER_JOB).info(
                "a draft: %dx%d at %d frames a second (its quality: %dx%d)",
                *(width, height, config.frame_rate, config.pixel_width, config.pixel_height),
            )
            config.pixel_width, config.pixel_height = width, height
            yield

    render_job.tempconfig = draft_config


def install() -> None:
    """Make this process's renders drafts (before it imports the render job's module)."""
    sys.meta_path.insert(0, _DraftRenders())
