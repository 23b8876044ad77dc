"""Shared fixtures: scenes built without writing video, one real low-quality render per run, and Chromium."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import settings
from manim import config

import scenes.training
from scenes import SCENES

from . import helpers, shared_renders
from .helpers import built_scene

INVENTORY = os.environ.get("TEST_INVENTORY")
"""A folder: when set, each test process counts its scene builds, renders and browser launches there (see :func:`_count`)."""


def _count(counts: Counter) -> None:
    """Count, in this process, scene builds (by scene, skipped or played), render processes, CLI runs and browser launches."""
    import multiprocessing.process

    from manim import Scene
    from playwright.sync_api._generated import BrowserType

    def counting(owner, name, key):
        original = getattr(owner, name)

        def wrapper(self, *args, **kwargs):
            counts[key(self, args, kwargs)] += 1
            return original(self, *args, **kwargs)

        setattr(owner, name, wrapper)

    def build(scene, args, kwargs):
        played = "skipped" if scene.renderer.skip_animations else "played"
        return f"scene {type(scene).__name__} {played} {'dry run' if config.dry_run else 'video'}"

    counting(Scene, "render", build)
    counting(multiprocessing.process.BaseProcess, "start", lambda process, a, k: f"process {process.name.split(' ')[0]}")
    counting(BrowserType, "launch", lambda *_: "browser launch")
    counting(CliRunner, "invoke", lambda runner, args, k: f"cli {getattr(args[0], 'name', args[0])} {(args[1] or [''])[0]}")


_counts: Counter = Counter()
if INVENTORY:
    _count(_counts)


def pytest_sessionfinish(session, exitstatus):
    # The shared renders this process started: another process may still be reading them (or stop them with the run).
    stopped = exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop) or bool(session.shouldfail)
    shared_renders.finish(stop=stopped)
    if INVENTORY:  # (shared renders, made in processes of their own, are not counted)
        name = os.environ.get("PYTEST_XDIST_WORKER", "main")
        os.makedirs(INVENTORY, exist_ok=True)
        with open(os.path.join(INVENTORY, f"{name}.json"), "w") as file:
            json.dump(_counts, file, indent=1, sort_keys=True)


# No time limit per example: these machines are shared, and a slow first call into torch is not a failure.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


GROUPS = "ATTENTION_TEST_GROUPS"
"""Environment variable naming the file where test processes leave each test's group for the scheduler (xdist only)."""


def test_group(item) -> str:
    """The group of ``item``: its ``xdist_group`` mark, else "sentence render" if it reads that render, else the
    scene it takes (a ``scene`` or ``name`` parameter), else its file.

    A scene's builds are cached per test process (:func:`.helpers.built_scene`), and a file's module fixtures
    (renders, clusters) are made once per process: one group's tests on one worker make each of them once, while
    the catalog's scenes spread over every worker (``--dist loadfile`` kept each scene-wide file on one).
    """
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs["name"])
    if "sentence_rendered" in getattr(item, "fixturenames", ()):
        return "sentence render"  # one worker opens one browser on it, whichever file asks
    callspec = getattr(item, "callspec", None)
    name = callspec.params.get("scene", callspec.params.get("name")) if callspec else None
    return name if isinstance(name, str) and name in SCENES else item.path.name


SLOW_MARKS = ("render", "browser", "scenes")
"""Marks of the slow tier: a test with one builds scenes, renders or starts a browser (tens of seconds, not tenths)."""


def test_weight(item) -> int:
    """A rough cost of ``item`` for ordering groups: 50 for a test of the slow tier, 1 for any other."""
    return 50 if any(item.get_closest_marker(mark) for mark in SLOW_MARKS) else 1


def pytest_configure(config):
    # The controller of an xdist run: its workers (started after this) inherit where to leave the groups.
    if not hasattr(config, "workerinput") and config.getoption("dist", "no") == "loadgroup":
        folder = tempfile.mkdtemp(prefix="attention-test-groups-")
        os.environ[GROUPS] = os.path.join(folder, "groups.json")


def pytest_unconfigure(config):
    # The controller made the groups' folder; it goes with the run (each run left one in /tmp before).
    path = os.environ.get(GROUPS)
    if path and not hasattr(config, "workerinput"):
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        del os.environ[GROUPS]


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which may add a group suffix to node ids
def pytest_collection_modifyitems(items):
    """In an xdist worker, leave each test's group (:func:`test_group`) for :class:`ByGroup`."""
    path = os.environ.get(GROUPS)
    if path and os.environ.get("PYTEST_XDIST_WORKER"):
        groups = {item.nodeid: [test_group(item), test_weight(item)] for item in items}
        partial = f"{path}.{os.environ['PYTEST_XDIST_WORKER']}"
        with open(partial, "w", encoding="utf-8") as file:
            json.dump(groups, file)
        os.replace(partial, path)  # every worker collects the same tests: any one's file will do


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` by :func:`test_group`: xdist's own reads a node id suffix that pytest 9 no longer keeps."""
    if config.getoption("dist") == "loadgroup":
        return ByGroup(config, log)
    return None


try:
    from xdist.scheduler import LoadScopeScheduling
except ImportError:  # no pytest-xdist: one process runs everything, nothing to group
    LoadScopeScheduling = object


class ByGroup(LoadScopeScheduling):
    """xdist's scope scheduling with :func:`test_group` as the scope: a group's tests run on one worker.

    The heaviest groups (by :func:`test_weight`) are handed out first and the light ones last, so the workers end
    together: xdist's own order (the most tests first) left a render's group for the end, one worker on it alone.
    """

    _groups: dict[str, list] | None = None
    _ordered = False

    def _group(self, nodeid: str) -> list:
        if self._groups is None:
            with open(os.environ[GROUPS], encoding="utf-8") as file:
                self._groups = json.load(file)
        return self._groups.get(nodeid) or self._groups.get(nodeid.rsplit("@", 1)[0]) or [nodeid, 1]

    def _split_scope(self, nodeid: str) -> str:
        return self._group(nodeid)[0]

    def _assign_work_unit(self, node) -> None:
        if not self._ordered:  # the queue is complete before the first group is handed out
            weights = {scope: sum(self._group(nodeid)[1] for nodeid in unit) for scope, unit in self.workqueue.items()}
            for scope in sorted(self.workqueue, key=lambda scope: -weights[scope]):
                self.workqueue.move_to_end(scope)
            self._ordered = True
        super()._assign_work_unit(node)


@pytest.fixture(params=list(SCENES))
def scene(request):
    """Every scene of the catalog, built once per test process (:func:`.helpers.built_scene`)."""
    return built_scene(request.param)


@pytest.fixture(autouse=True)
def _work_in_a_temporary_folder(tmp_path, monkeypatch):
    """Each test runs in a folder of its own, so the default cache (``.cache/``) never lands in the checkout."""
    monkeypatch.chdir(tmp_path)


def shared_folder(tmp_path_factory):
    """The run's folder every test process shares (the workers' common parent under xdist)."""
    basetemp = tmp_path_factory.getbasetemp()
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


@pytest.fixture(scope="session", autouse=True)
def training_cache(tmp_path_factory):
    """The one folder of training runs for the whole run, so each model is trained once per run, not once per test.

    The scenes that train a model (``learning-to-attend``, ``sentiment-attention``) read their runs from
    :data:`scenes.training.TRAINING_CACHE` when built without a cache folder; the first process to need a
    run trains it under a lock there (see :func:`scenes.training.trained`), every other one reads it.
    """
    folder = shared_folder(tmp_path_factory) / "training"
    scenes.training.TRAINING_CACHE = folder
    return folder


@pytest.fixture(scope="session", autouse=True)
def formulas_of_the_run(tmp_path_factory):
    """The one folder of typeset formulas for the whole run, so each formula is typeset once per run.

    The first test process whose build needs a formula typesets it there (:func:`.helpers.formulas_typeset_once_per_run`).
    """
    folder = shared_folder(tmp_path_factory) / "formulas"
    folder.mkdir(exist_ok=True)
    helpers.FORMULAS = folder
    return folder


@pytest.fixture(scope="session", autouse=True)
def _shared_renders_started(request, tmp_path_factory):
    """Start, in the background, each shared render a test of this run will read, as the process's first test starts
    (the first process of the run to get there starts it; :func:`.shared_renders.start`)."""
    fixtures = {name for item in request.session.items for name in getattr(item, "fixturenames", ())}
    shared = shared_folder(tmp_path_factory)
    for name in sorted(fixtures & shared_renders.RENDERS.keys()):
        shared_renders.start(name, shared)


@pytest.fixture(scope="session")
def rendered(tmp_path_factory):
    """`python render.py scaling --quality low`, for real, into a fresh media folder (its cache beside it): ``(media, result)``.

    Made once per run in a process of its own, started as the run starts (:mod:`.shared_renders`), and shared by
    every test process: treat it as read-only, and copy it to change it. ``result`` has the CLI's ``exit_code``,
    ``stdout`` and ``stderr``. Its worker runs on one core and leaves a digest of every frame beside the media folder
    (:func:`tests.fake_workers.renders_on_one_core_and_records_frames`): ``test_parallel.py`` compares it with a
    render two at a time on every core.
    """
    shared = shared_folder(tmp_path_factory)  # one folder for all workers of a run
    facts = shared_renders.outcome("rendered", shared)
    assert facts["exit_code"] == 0, facts["stdout"] + facts["stderr"]
    return shared / "rendered" / "media", SimpleNamespace(**facts)


@pytest.fixture(scope="session")
def sentence_rendered(tmp_path_factory):
    """`python render.py self-attention --sentence <RENDERED_SENTENCE> --quality low`, for real: its package folder.

    The one real render of a teacher's sentence per run, made and shared as :func:`rendered` is (the inputs'
    captions and gallery, the explorer's pages): treat it as read-only, and copy it to change it.
    """
    facts = shared_renders.outcome("sentence_rendered", shared_folder(tmp_path_factory))
    assert facts["exit_code"] == 0, facts["stdout"] + facts["stderr"]
    return Path(facts["stdout"].strip()).parent


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


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium, one per test process."""
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
