"""Helpers the test modules share: scene builds and what they record, PyTorch's weights, the CLI, waiting.

Test modules import from here and from the other helper modules (``layout``, ``glyphs``, ``fake_workers``,
``hardening``, ``shared_renders``, ``drafts``), never from each other, nor from conftest but for the test of its
grouping (``test_suite_groups.py``).
"""

from __future__ import annotations

import atexit
import copy
import functools
import http.server
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from click.testing import CliRunner
from manim import (
    DecimalNumber,
    FadeIn,
    FadeOut,
    Group,
    MarkupText,
    MathTex,
    Mobject,
    ReplacementTransform,
    Scene,
    SingleStringMathTex,
    SVGMobject,
    Tex,
    Text,
    config,
    tempconfig,
)
from manim.utils.color.core import ManimColor

import render
from attention_explainer.files import write_atomic
from attention_math import lookup
from scenes import SCENES
from scenes.theme import parse_number

from .glyphs import IMMUTABLE, glyphs_parsed_once
from .layout import glyph_clearance_problems, layout_problems

# --- processes and the CLI ------------------------------------------------------------


def as_from_a_terminal() -> None:
    """``preexec_fn`` of a process a test sends Ctrl-C: SIGINT at its default, as a terminal's programs start.

    A suite started as a background job of a non-interactive shell (as CI may start it) inherits
    SIGINT ignored; so would the process, and a Ctrl-C it never sees is not what a user's does.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(*args):
    """The CLI in this process, one scene at a time (``--jobs 1``), so recorded calls come in order."""
    return CliRunner().invoke(render.main, [*args, "--jobs", "1"])


DRAFTS = Path(__file__).resolve().parent / "drafts"
"""A folder whose ``sitecustomize`` makes a process's renders drafts (half the width and height: :mod:`tests.drafts`)."""


def drafts_path(environment: Mapping[str, str] = os.environ) -> str:
    """``PYTHONPATH`` for processes whose renders are drafts: :data:`DRAFTS`, this checkout, then ``environment``'s."""
    return os.pathsep.join(filter(None, [str(DRAFTS), str(DRAFTS.parent.parent), environment.get("PYTHONPATH")]))


def with_drafts(environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` for a process whose renders are drafts (:func:`drafts_path`).

    The processes it starts (a render's workers, a Dask worker's renders) inherit it.
    """
    return {**environment, "PYTHONPATH": drafts_path(environment)}


@contextmanager
def drafting() -> Iterator[None]:
    """The renders this process starts meanwhile (the CLI's worker processes) are drafts (:func:`with_drafts`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", drafts_path())
        yield


def wait_for(condition, timeout: float = 60.0, what: str = "the condition"):
    """Poll ``condition`` until it returns something true, and return that; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def to_json_in_a_fresh_process(*calls: str) -> list[str]:
    """``call.to_json()`` for each Python expression ``call`` (``attention_math`` imported as ``am``), in a new interpreter.

    The reference for "the same settings give the same numbers": nothing is shared with this process
    (no cache, no generator state, another hash seed), so equal JSON means the numbers depend on the settings alone.
    """
    program = (
        "import json, sys\n"
        "import attention_math as am\n"
        "print(json.dumps([eval(call, {'am': am}).to_json() for call in json.loads(sys.argv[1])]))\n"
    )
    checkout = str(Path(__file__).resolve().parent.parent)  # this checkout's attention_math, installed or not
    path = os.pathsep.join(filter(None, [checkout, os.environ.get("PYTHONPATH")]))
    environment = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "12345"}
    result = subprocess.run(
        [sys.executable, "-c", program, json.dumps(calls)], capture_output=True, text=True, env=environment, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs: a zombie (ended, not yet reaped by its parent) counts as gone."""
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:  # no such process, or it went between the two looks
        return False


# --- PyTorch, the reference -------------------------------------------------------------


def torch_weights(q, k, mask=None, *, is_causal: bool = False, scale: float | None = None) -> np.ndarray:
    """PyTorch's attention weights: its SDPA applied to identity values returns exactly the weights.

    ``mask`` is SDPA's ``attn_mask``: True where a query may attend (or an additive float mask).
    """
    q, k = (torch.tensor(np.asarray(a, dtype=float)) for a in (q, k))  # copies: traces' arrays are read-only
    n_k = k.shape[-2]
    eye = torch.eye(n_k, dtype=torch.float64).expand(*k.shape[:-2], n_k, n_k)
    if mask is not None:
        mask = np.asarray(mask)
        mask = torch.tensor(mask if mask.dtype.kind in "bf" else mask.astype(bool))
    return F.scaled_dot_product_attention(q, k, eye, attn_mask=mask, is_causal=is_causal, scale=scale).numpy()


# --- scenes built without video, and what they showed ---------------------------------------


@dataclass
class Recording:
    """What a scene had on screen, recorded after every animation and as each step ended.

    The scene keeps none of this (a render does no bookkeeping for tests): :func:`build_without_video`
    attaches a recording through the scene's ``observe`` hook.
    """

    watch_layout: bool = False
    seen: set[int] = field(default_factory=set)
    """The ids of every mobject on screen after an animation or at the end of a step."""
    texts: dict[str, set[str]] = field(default_factory=dict)
    """Per step name: every ``Text`` on screen after any of its animations or at its end, as written."""
    drawn_text: set[str] = field(default_factory=set)
    """Every ``Text`` on screen at the end of a step, as written."""
    extent: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    """Per step name: left, right, bottom and top of everything on screen when it ended."""
    ended: dict[str, list] = field(default_factory=dict)
    """Per step name: every mobject on screen when it ended, the families of ``scene.mobjects`` in order.

    The mobjects themselves, read after the build: one a later step animates is as that step left it (what a step's
    end looked like, point for point, is kept by ``test_build_shortcuts.py``'s look, not here)."""
    layout_problems: dict[str, None] = field(default_factory=dict)
    """What :func:`.layout.layout_problems` found after any animation, once each, with its step (if watched)."""
    glyph_problems: dict[str, None] = field(default_factory=dict)
    """What :func:`.layout.glyph_clearance_problems` found after any animation, once each, with its step (if watched)."""
    stills: dict[str, float] = field(default_factory=dict)
    """Per step name: the share of the picture it ended on, drawn by Cairo, that is not the background (if drawn)."""

    def __call__(self, scene, ended) -> None:
        step = scene.steps[-1].name if scene.steps else "(before the first step)"
        texts = self.texts.setdefault(step, set())
        parts = []
        for mobject in scene.mobjects:
            family = mobject.get_family()
            parts.extend(family)
            self.seen.update(id(part) for part in family)
            texts.update(part.original_text for part in family if isinstance(part, Text))
        if ended is not None:
            self.ended[ended.name] = parts
        if ended is not None and scene.mobjects:
            on_screen = Group(*scene.mobjects)
            self.extent[step] = (
                on_screen.get_left()[0],
                on_screen.get_right()[0],
                on_screen.get_bottom()[1],
                on_screen.get_top()[1],
            )
            self.drawn_text.update(m.original_text for m in on_screen.get_family() if isinstance(m, Text))
        if self.watch_layout:
            for problem in layout_problems(scene.mobjects):
                self.layout_problems.setdefault(f"{step}: {problem}", None)
            for problem in glyph_clearance_problems(scene.mobjects):
                self.glyph_problems.setdefault(f"{step}: {problem}", None)


@functools.cache
def _text_folder() -> str:
    """This test process's folder of Pango's text drawings, kept for all its builds (removed when the process ends)."""
    folder = tempfile.mkdtemp(prefix="attention-test-texts-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@functools.cache
def _tex_folder() -> str:
    """This test process's folder of LaTeX's formulas (``.tex`` and ``.svg``), kept for all its builds (removed at its end).

    manim typesets a formula whose ``.svg`` is not in the folder yet (named by a hash of the whole ``.tex``) and reads
    the file otherwise: a scene's formulas repeat across its builds and across scenes, and typesetting them again in a
    fresh folder per build was half of a build's CPU (``latex`` and ``dvisvgm``). One process, one folder: manim's
    cleanup after a typesetting deletes the folder's other files, which a second process could be reading.
    """
    folder = tempfile.mkdtemp(prefix="attention-test-tex-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


FORMULAS: Path | None = None
"""The run's folder of typeset formulas, shared by its test processes (set by ``conftest.py``); None: none shared."""


@contextmanager
def formulas_typeset_once_per_run() -> Iterator[None]:
    """Inside the block, a formula another process of the run has typeset is read from :data:`FORMULAS`, not typeset again.

    Each process still typesets into its own folder (:func:`_tex_folder`): a formula already in the run's folder is
    copied in first, so manim finds its ``.svg`` and runs neither ``latex`` nor ``dvisvgm``, and a formula typeset here
    joins the run's folder by the project's atomic writer, so no process reads half a file. Formulas are
    about as much CPU as the rest of a default build (four scenes: 30 s of ``latex`` and ``dvisvgm``, 38 s of Python).
    """
    from manim.mobject.text import tex_mobject
    from manim.utils import tex_file_writing

    typeset = tex_mobject.tex_to_svg_file
    shared_folder = FORMULAS

    def typeset_once(expression, environment=None, tex_template=None):
        template = config["tex_template"] if tex_template is None else tex_template
        own = tex_file_writing.generate_tex_file(expression, environment, template).with_suffix(".svg")
        shared = shared_folder / own.name
        if not own.exists() and shared.exists():
            shutil.copyfile(shared, own)
        svg = typeset(expression, environment, tex_template)
        if not shared.exists():
            write_atomic(shared, Path(svg).read_bytes())
        return svg

    if shared_folder is not None:
        tex_mobject.tex_to_svg_file = typeset_once
    try:
        yield
    finally:
        tex_mobject.tex_to_svg_file = typeset


@contextmanager
def latex_sources() -> Iterator[list[str]]:
    """Inside the block, the whole ``.tex`` source of every formula manim is asked for (each once), typeset or read."""
    from manim.utils import tex_file_writing

    sources: list[str] = []
    original = tex_file_writing.generate_tex_file

    def recording(*args, **kwargs):
        path = original(*args, **kwargs)
        source = path.read_text(encoding="utf-8", errors="replace")
        if source not in sources:  # each formula once, however often manim names its file
            sources.append(source)
        return path

    tex_file_writing.generate_tex_file = recording
    try:
        yield sources
    finally:
        tex_file_writing.generate_tex_file = original


class _Copier:
    """Copies of one mobject as ``copy.deepcopy`` makes them, by a plan worked out once instead of on every copy.

    deepcopy asks, value by value, how to copy every attribute of every member (a ``Text``'s glyphs, its ``chars`` and
    the groups named in Pango's drawing), on every copy of a text made before. The plan keeps what cannot change
    (:data:`.glyphs.IMMUTABLE`) to share, and copies only the arrays, containers and colours, with the members
    referred to by position; each copied member gets the ``original_id`` deepcopy gives it. A value it does not know,
    an object array, a key that can change, or an array, list or dict held twice makes it give up:
    :meth:`copy_into` is then deepcopy's. One difference is left: colours that share one array (a ``Text``'s
    ``background_stroke_color`` of each glyph) get one array each, where deepcopy keeps them sharing; manim changes a
    colour's array in place only for its named constants.
    """

    def __init__(self, mobject: Mobject):
        self.source = mobject
        self.planned = False

    def _plan(self) -> None:
        """Work out the plan from the source: at the first copy, since most texts of a build are never copied."""
        self.planned = True
        self.kinds: list[type] = []
        self.shared: list[dict] = []
        self.made: list[list[tuple[str, Callable]]] = []
        self.index: dict[int, int] = {}
        self.containers: set[int] = set()  # the arrays, lists and dicts met: one held twice is left to deepcopy
        try:
            self._member(self.source)
        except _Unplanned:
            self.kinds, self.shared, self.made, self.index, self.containers = [], [], [], {}, set()

    def _member(self, mobject: Mobject) -> int:
        """The position of ``mobject`` among the copy's members, planning it (and the members it holds) when new."""
        found = self.index.get(id(mobject))
        if found is not None:
            return found
        position = self.index[id(mobject)] = len(self.kinds)
        self.kinds.append(type(mobject))
        self.shared.append({})
        self.made.append([])
        shared, made = self.shared[position], self.made[position]
        for name, value in mobject.__dict__.items():
            maker = self._maker(value)
            shared[name] = value if maker is None else None  # every name, in the source's order, for the copy's
            if maker is not None:
                made.append((name, maker))
        shared["original_id"] = str(id(mobject))
        return position

    def _maker(self, value) -> Callable | None:
        """None for a value to share; else a function of the new members that makes the copy's value."""
        kind = type(value)
        if isinstance(value, IMMUTABLE):
            return None
        if kind in (np.ndarray, list, dict):
            if id(value) in self.containers:
                raise _Unplanned(kind)
            self.containers.add(id(value))
        if kind is np.ndarray:
            if value.dtype.hasobject:
                raise _Unplanned(kind)
            return lambda members: value.copy(order="K")
        if isinstance(value, Mobject):
            position = self._member(value)
            return lambda members: members[position]
        if kind is ManimColor:
            return lambda members: _copy_colour(value)
        if kind in (list, tuple):
            makers = [self._maker(item) for item in value]
            if not any(makers):
                return (lambda members: list(value)) if kind is list else None
            parts = [(maker, item) for maker, item in zip(makers, value)]
            made = lambda members: [item if maker is None else maker(members) for maker, item in parts]  # noqa: E731
            return made if kind is list else (lambda members: tuple(made(members)))
        if kind is dict:
            if not all(isinstance(key, IMMUTABLE) for key in value):
                raise _Unplanned(kind)
            makers = {key: self._maker(item) for key, item in value.items()}
            return lambda members: {key: item if makers[key] is None else makers[key](members) for key, item in value.items()}
        raise _Unplanned(kind)

    def copy_into(self, text: Mobject) -> None:
        """Make ``text`` (a ``Text`` being constructed) a copy, without the ``original_id`` a copy's top has."""
        if not self.planned:
            self._plan()
        if not self.kinds:
            text.__dict__.update(copy.deepcopy(self.source).__dict__)
        else:
            members = [text] + [object.__new__(kind) for kind in self.kinds[1:]]
            for member, shared, made in zip(members, self.shared, self.made):
                member.__dict__.update(shared)
                for name, maker in made:
                    member.__dict__[name] = maker(members)
        del text.original_id


class _Unplanned(TypeError):
    """A value :class:`_Copier` has no plan for."""


def _copy_colour(colour: ManimColor) -> ManimColor:
    """A copy of ``colour`` with its own array (deepcopy's, but for colours sharing one array: see :class:`_Copier`)."""
    made = object.__new__(ManimColor)
    made.__dict__.update({name: value.copy() if type(value) is np.ndarray else value for name, value in colour.__dict__.items()})
    return made


_TEXTS: dict[bytes, _Copier] = {}
"""Every ``Text`` this process has made inside :func:`texts_made_once`, by its class and arguments."""


@contextmanager
def texts_made_once() -> Iterator[None]:
    """Inside the block, a ``Text`` made before with the same class and arguments is a copy of that one.

    Making a ``Text`` again (parsing its drawing, then placing, colouring and scaling it) was more than half of a
    scene build here: a grid's numbers repeat. A new one's drawing is read by :func:`.glyphs.glyphs_parsed_once`.
    manim's own SVG cache stays off for ``Text``, as in a render: keyed by the drawing, it would copy every new
    ``Text`` once more (8 % of a cold build) for the rare text drawn the same with other arguments. Every ``Text``
    is still constructed, and has the same points (``test_a_build_without_shortcuts_ends_every_step_the_same``).
    Only for builds without video, whose drawings are never compared with a render's bytes.
    """
    original, original_generate = Text.__init__, SVGMobject.generate_mobject

    def init(self, *args, **kwargs):
        key = pickle.dumps((type(self), args, kwargs))
        made = _TEXTS.get(key)
        if made is None:
            original(self, *args, **kwargs)
            _TEXTS[key] = _Copier(copy.deepcopy(self))
        else:
            made.copy_into(self)  # without a copy's mark (original_id), which a Text just made has not

    def generate(self):
        # The parsed path of each glyph is read only while the glyph is built: without it, the copy manim caches (of
        # a formula) and every copy of a text cost a fraction (the copies were 40 % of a scene build here).
        original_generate(self)
        for part in self.get_family():
            if getattr(part, "path_obj", None) is not None:
                part.path_obj = None
        return self

    Text.__init__, SVGMobject.generate_mobject = init, generate
    try:
        yield
    finally:
        Text.__init__, SVGMobject.generate_mobject = original, original_generate


class ReplacedReused(RuntimeError):
    """A scene animated again (or into) what a ``ReplacementTransform`` replaced: the shortcut would differ from manim."""


def _draw_nothing(*args, **kwargs) -> None:
    """A renderer's ``update_frame`` that draws nothing."""


@contextmanager
def animations_without_copies() -> Iterator[None]:
    """Inside the block, fades and ``ReplacementTransform`` copy and align nothing: only for animations skipped.

    A skipped animation jumps to its end. A fade's end is its mobject as it was (a ``FadeOut`` also takes it off the
    scene, which :meth:`Animation.clean_up_from_scene` still does). A ``ReplacementTransform`` ends with its target,
    untouched, in place of what it transformed (``clean_up_from_scene`` still puts it there). manim copies the mobject
    for the frames in between all the same (a fade three times; a transform copies its target and aligns what it
    transforms to it, point for point), which was 40 % and then a twentieth of a build's CPU here. What every step
    ends with is the same, every point and colour to a billionth: ``test_a_build_without_shortcuts_ends_every_step_the_same``
    checks it on one scene each run.

    What was transformed is left as it was, where manim leaves it aligned to the target, off the scene. A scene that
    animates it again, or into it (or a group holding it), would then differ from its render: that raises
    :class:`ReplacedReused`.
    (``TransformFromCopy`` is not shortcut: manim runs it backwards, and its target ends aligned to what it came from.)
    """
    replaced: dict[int, object] = {}  # kept referenced, so that no other mobject takes a replaced one's id

    def begin(self):
        if isinstance(self, ReplacementTransform):
            replaced[id(self.mobject)] = self.mobject
        self.starting_mobject = self.target_copy = self.mobject
        if isinstance(self, (FadeIn, FadeOut)):  # a fade's target is a faded copy; a transform's, what it ends as
            self.target_mobject = self.mobject
        if self.suspend_mobject_updating:
            self.mobject.suspend_updating()

    def stay(self, alpha):
        pass

    def begin_animations(scene):
        for animation in scene.animations if replaced else ():
            for mobject in (animation.mobject, getattr(animation, "target_mobject", None)):
                if mobject is not None and any(id(part) in replaced for part in mobject.get_family()):
                    raise ReplacedReused(f"{type(scene).__name__} animates again what a ReplacementTransform replaced")
        original_begin_animations(scene)

    kinds = (FadeIn, FadeOut, ReplacementTransform)
    saved = {cls: (cls.__dict__.get("begin"), cls.__dict__.get("interpolate_mobject")) for cls in kinds}
    original_begin_animations = Scene.begin_animations
    for cls in saved:
        cls.begin, cls.interpolate_mobject = begin, stay
    Scene.begin_animations = begin_animations
    try:
        yield
    finally:
        Scene.begin_animations = original_begin_animations
        for cls, methods in saved.items():
            for name, method in zip(("begin", "interpolate_mobject"), methods):
                if method is None:
                    delattr(cls, name)
                else:
                    setattr(cls, name, method)


def build_without_video(
    scene_class,
    media_dir: str | None = None,
    watch_layout: bool = False,
    observe=None,
    draw: bool = True,
    shortcuts: bool = True,
    count_texts: bool = False,
    **scene_arguments,
):
    """Run a scene's construct with animations skipped and no video written (``scene_arguments``: trace, voice...).

    The scene's ``recording`` is a :class:`Recording` of what it had on screen (with the layout rule looked at
    after every animation when ``watch_layout``); ``observe(scene, ended)``, if given, looks too. manim's files
    (the ``.tex`` it typesets...) go to a temporary folder, or to ``media_dir`` to be read afterwards; Pango's
    text drawings to a folder this process keeps, each drawn and parsed once, and a ``Text`` made again a copy
    (:func:`texts_made_once`); a new one's glyphs each parsed once per process (:func:`glyphs_parsed_once`).

    Manim draws what stands still after every animation even when it skips animations and writes no video (half of a
    warm build). A build draws instead the picture each step ends on (its clip's last frame, the poster's and the
    deck's stills): what is on screen then goes through Cairo (not what comes and goes within a step, which only a
    render draws); with ``draw`` False, for a build that only reads the scene's mobjects (its numbers, texts and
    layout), no frame is drawn at all.
    Formulas are typeset into a folder this process keeps (:func:`_tex_folder`), each once per run
    (:func:`formulas_typeset_once_per_run`): what a build asks LaTeX for is read with :func:`latex_sources`, not from the
    files in ``media_dir``. With ``shortcuts``, a ``Text`` made before is
    copied (:func:`texts_made_once`), a new ``Text``'s drawing is read from glyphs parsed before
    (:func:`glyphs_parsed_once`), and fades and ``ReplacementTransform`` skip the copies manim makes for the frames
    in between (:func:`animations_without_copies`). With ``count_texts``, the scene's ``text_constructions`` count
    the text mobjects made, by kind (:func:`counting_text_constructions`).
    """
    recording = Recording(watch_layout=watch_layout)

    def look(scene, ended) -> None:
        recording(scene, ended)
        if observe is not None:
            observe(scene, ended)
        if draw and ended is not None:
            scene.renderer.static_image = None
            draw_frame(scene)
            background = scene.renderer.camera.background
            recording.stills[ended.name] = float(np.any(scene.renderer.get_frame() != background, axis=-1).mean())

    with tempfile.TemporaryDirectory() as temporary:
        settings = {
            "dry_run": True,
            "media_dir": media_dir or temporary,
            "text_dir": _text_folder(),
            "tex_dir": _tex_folder(),
            "quality": "low_quality",
            "verbosity": "WARNING",
            "progress_bar": "none",
            "disable_caching": True,
        }
        with ExitStack() as stack:
            stack.enter_context(tempconfig(settings))
            stack.enter_context(formulas_typeset_once_per_run())
            if shortcuts:
                stack.enter_context(glyphs_parsed_once())
                stack.enter_context(texts_made_once())
                stack.enter_context(animations_without_copies())
            counts = stack.enter_context(counting_text_constructions()) if count_texts else None
            scene = scene_class(skip_animations=True, observe=look, **scene_arguments)
            draw_frame = scene.renderer.update_frame
            scene.renderer.update_frame = _draw_nothing
            scene.render()
    scene.recording = recording
    if count_texts:
        scene.text_constructions = counts
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


class RecordingVoice:
    """A voice that records what it is asked to say and takes no time, so the build is timed as a silent one.

    Lines whose text has no spoken form (strict) are kept in ``unspeakable`` instead of failing the build.
    """

    def __init__(self):
        self.said: list[str] = []
        self.unspeakable: list[tuple[str, str]] = []

    def speak(self, text: str) -> float:
        self.said.append(text)
        return 0.0

    def spoken_form(self, text: str) -> str:
        from attention_explainer.pipeline.spoken import UnspeakableText, spoken_form

        try:
            return spoken_form(text, strict=True)
        except UnspeakableText as error:
            self.unspeakable.append((text, str(error)))
            return spoken_form(text)


_LOOKERS: dict[str, list] = {}
"""Per scene: the functions that watch its shared build (:func:`looks_at_the_shared_build`)."""
_BUILT: set[str] = set()
"""The scenes whose shared build this process has started."""


def looks_at_the_shared_build(name: str):
    """Decorator: ``look(scene, ended)`` watches :func:`built_scene`'s build of ``name`` as ``observe`` of
    :func:`build_without_video` does (after every animation, and as each step ends with ``ended`` its step).

    For a test that needs what was on screen between a step's start and its end: it registers its look when its module
    is imported (before any test runs and so before any build) and reads what the look kept once it has called
    ``built_scene(name)``, instead of building the scene a second time. Registering after the build fails.
    """

    def register(look):
        if name in _BUILT:
            raise RuntimeError(f"{name}'s shared build was made before {look.__name__} was registered to watch it")
        _LOOKERS.setdefault(name, []).append(look)
        return look

    return register


@functools.cache
def built_scene(name: str):
    """The scene ``name`` built with its defaults, once per test process, for every test that reads a default build.

    Built without video (:func:`build_without_video`) watching the layout, with a :class:`RecordingVoice`
    (its ``voice``: every line's spoken form, timed as the silent build), and watched by the looks registered for it
    (:func:`looks_at_the_shared_build`). Its ``text_constructions`` count the text it built
    (:func:`counting_text_constructions`): with no frame played, a count no frame rate can change.
    """
    _BUILT.add(name)
    lookers = list(_LOOKERS.get(name, ()))

    def look(scene, ended) -> None:
        for looker in lookers:
            looker(scene, ended)

    voice = RecordingVoice()
    return build_without_video(
        SCENES[name], watch_layout=True, observe=look, count_texts=True, voice=voice, speak=voice.spoken_form
    )


def captions(scene) -> dict[str, str]:
    """Every step's caption by step name."""
    return {step.name: step.caption for step in scene.steps}


def shown(scene, step: str) -> set[str]:
    """Every text on screen during ``step``."""
    return scene.recording.texts[step]


def constructions(scene_class, frame_rate: int, skip_animations: bool = False) -> Counter:
    """How many text mobjects of each kind ``scene_class`` constructs, played at ``frame_rate`` (dry run) or with no frames.

    Every frame is computed (each animation interpolated, each updater run), none drawn: a per-frame rebuild happens
    where a frame is computed, and drawing reads mobjects without making any. A new text's glyphs are each parsed once
    (:func:`glyphs_parsed_once`, which makes the same ``Text``).
    """
    with tempfile.TemporaryDirectory() as media_dir:
        settings = {
            "dry_run": True,
            "media_dir": media_dir,
            "pixel_width": 320,
            "pixel_height": 180,
            "frame_rate": frame_rate,
            "tex_dir": _tex_folder(),
            "verbosity": "WARNING",
            "progress_bar": "none",
            "disable_caching": True,
        }
        with counting_text_constructions() as counts, tempconfig(settings), glyphs_parsed_once():
            scene = scene_class(skip_animations=skip_animations)
            scene.renderer.update_frame = _draw_nothing
            scene.render()
    return counts


# --- step titles ------------------------------------------------------------------------

LONGEST_STEP_TITLE = 40
"""Characters a step title may have: it heads a slide and a presenter's bar, and lists beside a clock."""


def step_title_problems(name: str, title: object) -> list[str]:
    """What is wrong with ``title`` as the title of the step ``name`` (its slug), for people to read; empty when nothing.

    A title is written by hand: more than the slug's words (compared as lower-case words, so neither
    ``Divide by sqrt dk`` nor ``The question`` for ``the-question`` passes), in sentence case from a
    capital, without a trailing period, at most :data:`LONGEST_STEP_TITLE` characters, on one line.
    """
    if not isinstance(title, str) or not title.strip():
        return [f"{name}: no title"]
    problems = []
    if re.findall(r"[a-z0-9]+", title.lower()) == re.findall(r"[a-z0-9]+", name.lower()):
        problems.append(f"{name}: {title!r} is its slug's words, not a title written for people")
    if not title[0].isupper():
        problems.append(f"{name}: {title!r} does not start with a capital")
    if title.endswith("."):
        problems.append(f"{name}: {title!r} ends with a period")
    if len(title) > LONGEST_STEP_TITLE:
        problems.append(f"{name}: {title!r} has {len(title)} characters, more than {LONGEST_STEP_TITLE}")
    if title != " ".join(title.split()):
        problems.append(f"{name}: {title!r} has spaces at its ends, doubled, or a line break")
    return problems


# --- numbers on screen ----------------------------------------------------------------


def check_shown_numbers(scene) -> None:
    """Assert that every number the scene drew was on screen and reads back as its trace value, rounded as shown."""
    assert scene.shown, "a scene must show numbers from its trace"
    for shown in scene.shown:
        never_shown = [text.original_text for text in shown.texts if id(text) not in scene.recording.seen]
        assert not never_shown, f"{shown.source}: recorded as shown but never on screen: {never_shown[:5]}"
        expected = np.asarray(lookup(scene.trace, shown.source), dtype=float).ravel()
        drawn = [parse_number(text.original_text) for text in shown.texts]
        assert len(drawn) == expected.size, f"{shown.source}: {len(drawn)} numbers drawn for {expected.size} values"
        tolerance = 0.5 * 10**-shown.decimals + 1e-9
        for index, (value, on_screen) in enumerate(zip(expected, drawn)):
            if np.isinf(value):
                assert on_screen == value, f"{shown.source}[{index}]"
            else:
                assert abs(on_screen - value) <= tolerance, f"{shown.source}[{index}]: screen {on_screen}, trace {value}"


# --- a web server as LMSs and course sites have ------------------------------------------------


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Serves byte ranges, as LMSs' web servers do: Chromium seeks in a video only when it can ask for a range."""

    def send_head(self):
        self.remaining = None
        path = self.translate_path(self.path)
        requested = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "").strip())
        if not requested or not os.path.isfile(path) or requested.groups() == ("", ""):
            return super().send_head()
        size = os.path.getsize(path)
        first, last = requested.groups()
        start, end = (size - int(last), size - 1) if first == "" else (int(first), min(size - 1, int(last or size - 1)))
        if not 0 <= start <= end:
            self.send_error(416)
            return None
        source = open(path, "rb")  # noqa: SIM115 (closed by the server once copied)
        source.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self.remaining = end - start + 1
        return source

    def copyfile(self, source, outputfile):
        if self.remaining is None:
            return super().copyfile(source, outputfile)
        while self.remaining > 0 and (chunk := source.read(min(1 << 16, self.remaining))):
            outputfile.write(chunk)
            self.remaining -= len(chunk)

    def log_message(self, *args):
        pass  # the test's output is the test's, not the server's
