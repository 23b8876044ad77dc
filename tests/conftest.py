"""Shared fixtures: scenes built without writing video, one real low-quality render, and Chromium."""

from __future__ import annotations

import functools
import signal
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from hypothesis import settings
from manim import DecimalNumber, MarkupText, MathTex, SingleStringMathTex, Tex, Text, tempconfig

import render
from scenes import SCENES

from .layout import layout_problems


def as_from_a_terminal() -> None:
    """``preexec_fn`` of a process a test sends Ctrl-C: SIGINT at its default, as a terminal's programs start.

    A suite started as a background job of a non-interactive shell (as CI may start it) inherits
    SIGINT ignored; so would the process, and a Ctrl-C it never sees is not what a user's does.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# No time limit per example: these machines are shared, and a slow first call into torch is not a failure.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


def build_without_video(scene_class, media_dir: str | None = None, **scene_arguments):
    """Run a scene's construct with animations skipped and no video written (``scene_arguments``: trace, voice, observe...).

    manim's files (the ``.tex`` it typesets...) go to a temporary folder, or to ``media_dir`` to be read afterwards.
    """
    with tempfile.TemporaryDirectory() as temporary:
        settings = {
            "dry_run": True,
            "media_dir": media_dir or temporary,
            "quality": "low_quality",
            "verbosity": "WARNING",
            "progress_bar": "none",
            "disable_caching": True,
        }
        with tempconfig(settings):
            scene = scene_class(skip_animations=True, **scene_arguments)
            scene.render()
    return scene


def build_watching_layout(scene_class, media_dir: str | None = None, **scene_arguments):
    """:func:`build_without_video`, looking at the layout rule after every animation.

    The scene's ``layout_problems`` are what :func:`.layout.layout_problems` found, once each, with their step.
    """
    problems: dict[str, None] = {}

    def look(scene) -> None:
        step = scene.steps[-1].name if scene.steps else "(before the first step)"
        for problem in layout_problems(scene.mobjects):
            problems.setdefault(f"{step}: {problem}", None)

    scene = build_without_video(scene_class, media_dir, observe=look, **scene_arguments)
    scene.layout_problems = list(problems)
    return scene


COUNTED = (Text, MarkupText, Tex, MathTex, SingleStringMathTex, DecimalNumber)
"""The text mobjects whose construction is counted (each rebuilt per frame was 87 % of a render)."""


@contextmanager
def counting_text_constructions() -> Iterator[Counter]:
    """Count the mobjects of each :data:`COUNTED` kind constructed inside the block, by kind (not their subclasses)."""
    counts: Counter = Counter()
    originals = {cls: cls.__init__ for cls in COUNTED}

    def counting(cls):
        def init(self, *args, **kwargs):
            if type(self) is cls:
                counts[cls.__name__] += 1
            originals[cls](self, *args, **kwargs)

        return init

    try:
        for cls in COUNTED:
            cls.__init__ = counting(cls)
        yield counts
    finally:
        for cls, init in originals.items():
            cls.__init__ = init


@functools.lru_cache(maxsize=None)
def built_scene(name: str):
    """The scene ``name`` built with its defaults, watching the layout (:func:`build_watching_layout`); cached per name.

    Its ``text_constructions`` count the text it built (:func:`counting_text_constructions`): with no frame drawn,
    a count no frame rate can change.
    """
    with counting_text_constructions() as counts:
        scene = build_watching_layout(SCENES[name])
    scene.text_constructions = counts
    return scene


@pytest.fixture(params=list(SCENES))
def scene(request):
    """Every scene of the catalog, built."""
    return built_scene(request.param)


@pytest.fixture(autouse=True)
def _work_in_a_temporary_folder(tmp_path, monkeypatch):
    """Each test runs in a folder of its own, so the default cache (``.cache/``) never lands in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def rendered(tmp_path_factory):
    """`python render.py scaling --quality low`, for real, into a fresh media folder (its cache beside it)."""
    media = tmp_path_factory.mktemp("media")
    cache = tmp_path_factory.mktemp("cache")
    result = CliRunner().invoke(
        render.main, ["scaling", "--quality", "low", "--media-dir", str(media), "--cache-dir", str(cache)]
    )
    assert result.exit_code == 0, result.output
    return media, result


CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium: the browser tests never use Playwright's own download."""
# As root in a sandbox, and with no network: no background connections at start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, one per test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page that records what it asks for (``requests``), what failed to load (``failures``) and its errors (``errors``)."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.requests, page.failures, page.errors = [], [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    # A media element that has its metadata stops downloading: Chromium reports that as
    # ERR_ABORTED. It is the browser's choice, not a missing file, so it is not a failure.
    page.on(
        "requestfailed",
        lambda request: (
            None
            if request.resource_type == "media" and "ERR_ABORTED" in (request.failure or "")
            else page.failures.append((request.url, request.failure))
        ),
    )
    yield page
    page.close()
