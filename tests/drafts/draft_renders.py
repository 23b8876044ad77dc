"""Drafts: the tests' renders, drawn at half the width and height.

Every Python process started with this folder on its ``PYTHONPATH`` makes drafts: Python imports the folder's
``sitecustomize`` as it starts, which calls :func:`install`. A render's worker process (spawned by the CLI, or started
by a Dask worker) inherits the path from the process that started it (:func:`tests.helpers.with_drafts`).

A draft has its quality's frames (15 a second at low quality) at half its width and height (428x240 at low
quality), its texts laid out as at the quality's size (Pango wraps a line at the picture's width in pixels). What a
test proves with a render (packaging and publishing, the same bytes on any core and any machine, the narration and
its clips, the pages) needs frames drawn and encoded, not 410,000 pixels in each: ``scaling`` drawn and packaged in
one process took 25.4 CPU s as a draft, 37.0 at low quality (session nine, before the frames drawn below). The frame
rate stays: every duration is a whole number of 1/15 s (``scenes/kit/scene.py``). Within an animation a draft draws
every :data:`DRAWN_EVERY`-th frame and the last, and repeats the frame drawn before in between
(:func:`_drawing_every`): every frame is still computed and written, so the video's timing, its frame count and each
step's last frame (the clip's end, the poster, the deck's stills) are a render's. What is compared between two drafts
(``test_parallel.py``'s frame digests) is then mostly what they drew, and most of the preview GIF's frames (one a
second) repeat a frame drawn before. A draft logs the size and rate its quality gave manim, so a test still checks
what a teacher's render gets (``test_end_to_end.py``). Nothing in the project imports this module.
"""

import importlib.util
import logging
import sys
from contextlib import contextmanager
from importlib.abc import Loader, MetaPathFinder

DRAFT_SCALE = 2
"""A draft's width and height are its quality's divided by this (to an even number of pixels, as H.264 needs)."""
DRAWN_EVERY = 5
"""Within an animation, a draft draws its first frame, every one this many after it, and its last."""
RENDER_JOB = "attention_explainer.pipeline.render_job"


def draft_size(width: int, height: int) -> tuple[int, int]:
    """A draft's size for a quality's ``width`` and ``height``, in pixels."""
    return 2 * round(width / DRAFT_SCALE / 2), 2 * round(height / DRAFT_SCALE / 2)


class _DraftRenders(MetaPathFinder):
    """Finds the render job's module as Python would, with a loader that makes its renders drafts."""

    def find_spec(self, name, path=None, target=None):
        if name != RENDER_JOB:
            return None
        sys.meta_path.remove(self)  # found once; from here on, the real finders find it
        spec = importlib.util.find_spec(name)
        if spec is not None:
            spec.loader = _DraftingLoader(spec.loader)
        return spec


class _DraftingLoader(Loader):
    """The render job module's own loader, which then makes its renders drafts."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name):  # get_source, get_filename...: the module's own loader answers
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _make_drafts(module)


def _make_drafts(render_job) -> None:
    """Draw at the draft's size (manim's configuration for each render, once its quality has set it), some frames only."""
    from manim import Text, config
    from manim.renderer.cairo_renderer import CairoRenderer

    _drawing_every(CairoRenderer, config, DRAWN_EVERY)

    quality_config = render_job.tempconfig

    @contextmanager
    def draft_config(settings):
        with quality_config(settings):
            quality = config.pixel_width, config.pixel_height
            width, height = draft_size(*quality)
            logging.getLogger(RENDER_JOB).info(
                "a draft: %dx%d at %d frames a second (its quality: %dx%d)", width, height, config.frame_rate, *quality
            )
            config.pixel_width, config.pixel_height = width, height
            with _texts_laid_out_at(Text, config, quality):
                yield

    render_job.tempconfig = draft_config


def _drawing_every(renderer_class, config, every: int) -> None:
    """Make ``renderer_class`` draw an animation's first frame, each ``every``-th and the last, repeating the one before.

    Every frame of an animation is still computed (manim interpolates before it renders, and runs the updaters); only
    the drawing is skipped: the whole command ``render.py scaling --jobs 1`` as a draft (its process and its worker's),
    37.2 -> 29.7 CPU s with every fifth frame drawn. The last frame is found as manim times an animation's frames
    (``Scene.get_time_progression``): at ``k / frame_rate`` for each ``k`` below ``run_time``.
    """
    import numpy as np

    render = renderer_class.render

    def render_some(self, scene, time, moving_mobjects=None):
        index = round(time * config.frame_rate)
        if index == 0:  # an animation's first frame: its frame count, once for the animation
            self.draft_frames = len(np.arange(0, scene.duration, 1 / config.frame_rate))
        if index % every == 0 or index >= self.draft_frames - 1:
            render(self, scene, time, moving_mobjects)
        else:
            self.add_frame(self.get_frame())  # the camera still holds the frame drawn last

    renderer_class.render = render_some


@contextmanager
def _texts_laid_out_at(text_class, config, size: tuple[int, int]):
    """Inside the block, a ``Text`` is made with manim's picture size set to ``size``.

    Pango lays a text's line out in a box of that many pixels (``Text._text2svg``): a draft wraps no line a render at
    its quality would not.
    """
    made = text_class.__init__

    def make_at_size(self, *args, **kwargs):
        drawn = config.pixel_width, config.pixel_height
        config.pixel_width, config.pixel_height = size
        try:
            made(self, *args, **kwargs)
        finally:
            config.pixel_width, config.pixel_height = drawn

    text_class.__init__ = make_at_size
    try:
        yield
    finally:
        text_class.__init__ = made


def install() -> None:
    """Make this process's renders drafts (before it imports the render job's module)."""
    sys.meta_path.insert(0, _DraftRenders())
