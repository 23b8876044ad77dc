"""Validated settings: the only place what the user typed is checked.

Which scenes (:func:`select`), a teacher's own inputs for each (:func:`check_inputs`, :func:`validate`),
the voice (:func:`check_voice`) and a cluster's address (:func:`check_scheduler`), and
:class:`RenderJob`, everything one render needs. Every check runs before anything is rendered
and raises :class:`InvalidInput` with a message that says what is allowed, so the CLI can
answer with a usage error (exit 2) instead of a traceback halfway through a render; an optional
extra that is not installed raises :class:`MissingExtra` (exit 1) saying how to install it.

The scene catalog is passed in, never imported: settings are read by the pages too, which must
not load manim.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import regex

from .voices import NarrationUnavailable, VoiceNotFound, resolve_voice

__all__ = [
    "OPTIONS",
    "InvalidInput",
    "validate",
    "describe_options",
    "variant_folder",
    "MAX_TOKEN_CHARACTERS",
    "MAX_SEED",
    "QUALITIES",
    "FORMATS",
    "RenderJob",
    "MissingExtra",
    "select",
    "check_inputs",
    "check_voice",
    "check_scheduler",
]

QUALITIES = {
    "low": "low_quality",  # 854x480, 15 fps
    "medium": "medium_quality",  # 1280x720, 30 fps
    "high": "high_quality",  # 1920x1080, 60 fps
    "4k": "fourk_quality",  # 3840x2160, 60 fps
}
"""The CLI's qualities and manim's names for them."""

DEFAULT_THEME = "dark"
"""The theme a render's folder is named without (any other theme adds itself to the folder's tag)."""

FORMATS = ("mp4", "webm", "both")
"""``webm`` and ``both`` add a VP9 WebM; the MP4 is always made (the step clips and the presenter use it)."""


@dataclass(frozen=True)
class RenderJob:
    """One render: a scene, its own inputs (already validated), and the settings it shares with the others."""

    scene: str
    inputs: dict[str, Any] = field(default_factory=dict)
    quality: str = "high"
    theme: str = "dark"
    video_format: str = "mp4"
    media_dir: Path = Path("media")
    cache_dir: Path = Path(".cache")
    voice: str = "none"
    """``none``, ``joe`` or the absolute path of a Piper voice (``.onnx``): who narrates, if anyone."""

    @property
    def variant(self) -> dict[str, Any]:
        """What names the render's folder: its inputs, its theme when not the default, and its voice when it is narrated.

        A light render (for print and white slides) and a dark one (for the screen) are two renders
        a teacher keeps side by side, never one replacing the other.
        """
        variant = dict(self.inputs)
        if self.theme != DEFAULT_THEME:
            variant["theme"] = self.theme
        if self.voice != "none":
            variant["voice"] = voice_name(self.voice)
        return variant

    @property
    def folder(self) -> str:
        """The render's folder under media: the scene's name, with a tag of its inputs (and voice) when it has any."""
        return variant_folder(self.scene, self.variant)

    @property
    def label(self) -> str:
        """How progress lines name the render: the scene, what its folder's tag names, and the quality.

        ``scaling (high)``, ``scaling --seed 7 --theme light (low)``: two renders of one run (a batch
        renders a scene in several variants) never read alike.
        """
        parts = [self.scene]
        for name, value in sorted(self.inputs.items()):
            parts.append(f"{OPTIONS[name].flag} {shlex.quote(str(value))}")
        if self.theme != DEFAULT_THEME:
            parts.append(f"--theme {self.theme}")
        if self.voice != "none":
            parts.append(f"--voice {shlex.quote(voice_name(self.voice))}")
        return f"{' '.join(parts)} ({self.quality})"

    @property
    def key(self) -> str:
        """What tells one render from another in a run: its folder and quality (a batch renders one scene in several variants)."""
        return f"{self.folder}/{self.quality}"

    @property
    def stem(self) -> str:
        """The key as one file name, for what a render leaves in the cache (staging folders, logs): ``scaling-high``."""
        return f"{self.folder}-{self.quality}"


def voice_name(voice: str) -> str:
    """How a voice is named in folder names: ``joe``, or a voice file's name without ``.onnx``."""
    return voice if voice in ("none", "joe") else Path(voice).stem


MAX_TOKEN_CHARACTERS = 24
"""Longest word a scene draws; longer ones would shrink their labels below the readable size."""

MAX_SEED = 2**32 - 1


class InvalidInput(ValueError):
    """An option value a scene cannot use; the message says what it can.

    ``param`` names the argument or option it is about (``SCENES``, ``--voice``) when the message does not.
    """

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class MissingExtra(RuntimeError):
    """An optional extra the input needs is not installed (the trained model, narration, Dask); the message says how to install it."""


@dataclass(frozen=True)
class Option:
    """One CLI option a scene may take: ``--sentence`` is the setting ``sentence``."""

    name: str
    flag: str
    metavar: str
    help: str


OPTIONS = {
    option.name: option
    for option in (
        Option("sentence", "--sentence", "TEXT", "Your own sentence, one token per word (drawn literally)."),
        Option("token", "--token", "TEXT", "The query token to follow through the model (trained-heads)."),
        Option("seed", "--seed", "N", "Seed of the random weights and embeddings (0 to 2^32 - 1)."),
        Option("d_model", "--d-model", "N", "Model width: numbers per token."),
        Option("heads", "--heads", "N", "Number of attention heads (must divide --d-model)."),
        Option("length", "--length", "N", "Longest sequence a trained model learns and is measured on (learning-to-attend)."),
    )
}


def validate(scene: type, given: dict[str, Any]) -> dict[str, Any]:
    """Check ``given`` (option name to raw value, ``None`` when not given) for ``scene``.

    Returns the settings to build the scene's trace with: only the options given,
    converted to their types. Raises :class:`InvalidInput` for an option the scene does
    not take and for any value out of range.
    """
    settings = {name: value for name, value in given.items() if value is not None}
    for name in settings:
        if name not in scene.options:
            takes = ", ".join(OPTIONS[o].flag for o in scene.options) or "no options"
            raise InvalidInput(f"{scene.name} takes no {OPTIONS[name].flag} (it takes: {takes})")
    if "sentence" in settings:
        settings["sentence"] = _check_sentence(scene, settings["sentence"])
    if "token" in settings:
        settings["token"] = str(settings["token"]).strip()
        _check_characters("--token", settings["token"])
        if not settings["token"]:
            raise InvalidInput("--token is empty: give one word of the sentence")
    if "seed" in settings:
        settings["seed"] = _check_seed(settings["seed"])
    for name, (low, high) in (
        ("d_model", scene.d_model_range),
        ("heads", scene.heads_range),
        ("length", getattr(scene, "length_range", (0, 0))),
    ):
        if name in settings:
            settings[name] = _check_integer(OPTIONS[name].flag, settings[name], low, high)
    d_model = settings.get("d_model", scene.default_d_model)
    heads = settings.get("heads", scene.default_heads)
    if ("d_model" in settings or "heads" in settings) and d_model % heads:
        raise InvalidInput(f"--heads {heads} does not divide --d-model {d_model}: each head gets d_model / heads numbers")
    try:
        scene.check_settings(settings)
    except ValueError as error:
        raise InvalidInput(str(error)) from None
    # A value equal to the scene's default is no setting at all: `--heads 8` where 8 is the
    # default renders into the default's folder, not a second copy of the same video.
    settings = {name: value for name, value in settings.items() if value != scene_default(scene, name)}
    return drop_example_settings(scene, settings)


def drop_example_settings(scene: type, settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` without those that only repeat the scene's own example (an option whose default is ``None``).

    ``trained-heads --token it`` (the token the scene follows anyway), or self-attention's own
    sentence typed out, draw the numbers the defaults draw: they render into the defaults' folder,
    not a second copy. Told by the traces: equal but for where the example comes from
    (``source``), whose default wording is the truer one.
    """
    if getattr(scene, "trains", False):  # its traces train a model: comparing two would train twice before the render
        return settings
    for name in [name for name in settings if scene_default(scene, name) is None and name in ("sentence", "token")]:
        without = {key: value for key, value in settings.items() if key != name}
        try:
            if _numbers(scene.build_trace(**settings)) == _numbers(scene.build_trace(**without)):
                settings = without
        except Exception:  # the render reports what a trace cannot be built from; here only equality is asked
            continue
    return settings


def _numbers(trace: Any) -> dict:
    """A trace's JSON without its ``source`` (which says where the example came from, not what is drawn)."""
    content = json.loads(trace.to_json())
    if isinstance(content, dict):
        content.pop("source", None)
    return content


def scene_default(scene: type, name: str) -> Any:
    """The value ``scene`` draws when option ``name`` is not given (``None`` when that is the scene's own example)."""
    if name == "d_model":
        return scene.default_d_model
    if name == "heads":
        return scene.default_heads
    parameter = inspect.signature(scene.build_trace).parameters.get(name)
    return None if parameter is None or parameter.default is inspect.Parameter.empty else parameter.default


INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")
"""Unicode categories refused in a teacher's text (plain spaces, tabs and line breaks aside): controls,
format characters (zero-width spaces and joiners, direction marks and overrides), surrogates,
private-use and unassigned code points, and line, paragraph and space separators other than the
plain space. They draw as nothing or reorder what is drawn, so a word on screen would not be the word typed."""

SEPARATORS = " \t\n\r"
"""The only characters that draw nothing and are allowed: they separate the words."""

DRAWS_NOTHING = regex.compile(r"[\p{White_Space}\p{Default_Ignorable_Code_Point}]")
"""Unicode's own sets of characters that draw nothing: ``White_Space`` (no-break and ideographic
spaces...) and ``Default_Ignorable_Code_Point`` (fillers such as U+3164 HANGUL FILLER, variation
selectors, soft hyphens), which a font is meant to render invisibly."""

VARIATION_SELECTOR = regex.compile(r"\p{Variation_Selector}")

BLANK_GLYPHS = {
    "\u2800": "a blank Braille cell draws no dots",
}
"""Characters of a drawing category (``So``) whose glyph is empty by definition, so no Unicode property
marks them; a word of them alone would be drawn as nothing (and its box has no width)."""


def invisible_character(text: str) -> str | None:
    """The first character of ``text`` that draws nothing (other than a space, tab or line break), or ``None``.

    A variation selector right after a drawn character is kept: it picks that character's glyph
    (``❤️`` is U+2764 and U+FE0F) rather than standing for one of its own.
    """
    previous = " "
    for character in text:
        if character in SEPARATORS:
            previous = character
            continue
        if VARIATION_SELECTOR.match(character) and previous not in SEPARATORS:
            continue
        if unicodedata.category(character) in INVISIBLE or DRAWS_NOTHING.match(character) or character in BLANK_GLYPHS:
            return character
        previous = character
    return None


def _check_characters(flag: str, text: str) -> None:
    character = invisible_character(text)
    if character is not None:
        unnamed = {"Cc": "a control character", "Co": "a private-use character", "Cs": "a lone surrogate"}
        name = unicodedata.name(character, unnamed.get(unicodedata.category(character), "an unassigned character"))
        raise InvalidInput(
            f"{flag} contains U+{ord(character):04X} ({name}): characters that draw nothing and direction controls "
            "are refused; type the words plainly, separated by spaces (Hebrew and Arabic are drawn right to left by themselves)"
        )


def _check_sentence(scene: type, sentence: Any) -> str:
    sentence = str(sentence)
    _check_characters("--sentence", sentence)
    words = sentence.split()
    if not words:
        raise InvalidInput('--sentence is empty: give a few words, e.g. --sentence "The cat sat on the mat"')
    if scene.max_tokens and not scene.min_tokens <= len(words) <= scene.max_tokens:
        raise InvalidInput(
            f"--sentence has {len(words)} words; {scene.name} shows {scene.min_tokens} to {scene.max_tokens} "
            "(one token per word, and each must fit on the screen)"
        )
    too_long = [word for word in words if len(word) > MAX_TOKEN_CHARACTERS]
    if too_long:
        raise InvalidInput(f"--sentence has a word longer than {MAX_TOKEN_CHARACTERS} characters: {too_long[0]!r}")
    # Tabs and line breaks only separate words; the trace keeps the words, joined by single spaces.
    return " ".join(words)


def _check_seed(value: Any) -> int:
    text = str(value).strip()
    # The length first: Python refuses to convert strings of more than 4,300 digits.
    if not re.fullmatch(r"\d{1,10}", text) or int(text) > MAX_SEED:
        raise InvalidInput(f"--seed must be a whole number from 0 to {MAX_SEED}, got {value!r}")
    return int(text)


def _check_integer(flag: str, value: Any, low: int, high: int) -> int:
    text = str(value).strip()
    if not re.fullmatch(r"\d{1,10}", text) or not low <= int(text) <= high:
        raise InvalidInput(f"{flag} must be a whole number from {low} to {high}, got {value!r}")
    return int(text)


DEFAULT_MASTERY = 80
"""A SCORM package's passing score, percent of its questions answered right (``export --mastery``'s default)."""


def check_mastery(value: Any) -> int:
    """``export --mastery``: the percent of a SCORM package's questions a learner must answer right to pass, 0 to 100.

    Anything else is :class:`InvalidInput` saying what it takes (a usage error, exit 2).
    """
    text = str(value).strip().removesuffix("%")
    if not re.fullmatch(r"\d{1,3}", text) or int(text) > 100:
        raise InvalidInput(
            f"must be a whole number of percent from 0 to 100 (the score that passes), got {value!r}", param="--mastery"
        )
    return int(text)


def describe_options(scene: type) -> str:
    """One line saying which options ``scene`` takes and their limits, for ``--list``."""
    parts = []
    for name in scene.options:
        flag = OPTIONS[name].flag
        if name == "sentence" and "token" in scene.options:  # a trained model's tokenizer, not words
            parts.append(f"{flag} (at most {scene.max_tokens} WordPiece pieces with [CLS] and [SEP])")
        elif name == "sentence" and scene.max_tokens:
            parts.append(f"{flag} ({scene.min_tokens}-{scene.max_tokens} words)")
        elif name == "d_model":
            parts.append(f"{flag} ({scene.d_model_range[0]}-{scene.d_model_range[1]}, default {scene.default_d_model})")
        elif name == "heads":
            parts.append(f"{flag} ({scene.heads_range[0]}-{scene.heads_range[1]}, default {scene.default_heads})")
        elif name == "length":
            low, high = scene.length_range
            parts.append(f"{flag} ({low}-{high}, default {scene_default(scene, name)})")
        else:
            parts.append(flag)
    return ", ".join(parts) if parts else "none"


def variant_folder(name: str, settings: dict[str, Any]) -> str:
    """The folder a render goes to: the scene's name, plus a tag for non-default settings.

    Two renders with different settings never share a folder: the tag ends with a hash of
    all the settings, and begins with a readable slug of them (ASCII letters and digits
    only, so any sentence makes a safe folder name).
    """
    if not settings:
        return name
    canonical = json.dumps(settings, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:8]
    readable = " ".join(str(settings[key]) for key in sorted(settings))
    slug = "-".join(re.findall(r"[a-z0-9]+", readable.lower()))[:40].strip("-")
    return f"{name}--{slug}-{digest}" if slug else f"{name}--{digest}"


def select(names: tuple[str, ...] | list[str], catalog: Mapping[str, type]) -> list[str]:
    """Scene names in the order given, ``all`` expanded to the ``catalog``'s; an unknown name is :class:`InvalidInput`."""
    if not names:
        raise InvalidInput("name at least one scene to render, or `all` (see `python render.py list`)")
    selected: list[str] = []
    for name in names:
        if name == "all":
            selected += [n for n in catalog if n not in selected]
        elif name in catalog:
            if name not in selected:
                selected.append(name)
        else:
            raise InvalidInput(f"unknown scene {name!r}. Valid scenes: {', '.join(catalog)}, or all.", param="SCENES")
    return selected


def check_inputs(
    names: tuple[str, ...] | list[str], given: dict[str, Any], catalog: Mapping[str, type], skip_missing: bool = True
) -> tuple[dict[str, dict], dict[str, str]]:
    """The scenes ``names`` selects (see :func:`select`) with each one's checked settings, and the scenes skipped.

    A value or option a scene cannot take is :class:`InvalidInput`. A scene that needs an optional
    extra that is not installed raises :class:`MissingExtra` when it was named; when it came with
    ``all`` (and ``skip_missing``) it is skipped instead: the second dict maps it to the advice.
    """
    selected = select(names, catalog)
    named = {name for name in names if name != "all"}
    checked, skipped = {}, {}
    for name in selected:
        try:
            checked[name] = validate(catalog[name], given)
        except ImportError as error:  # an optional extra (the trained model) is missing
            if name in named or not skip_missing:
                raise MissingExtra(str(error)) from None
            skipped[name] = str(error)
    return checked, skipped


def check_voice(value: str) -> str:
    """``--voice`` checked before anything renders: ``none``, ``joe`` or a voice file's absolute path.

    A missing voice file (or its missing ``.onnx.json``) is :class:`InvalidInput` naming it; the
    narration extra not installed is :class:`MissingExtra` with the command that installs it.
    """
    try:
        resolved = resolve_voice(value)
    except VoiceNotFound as error:
        raise InvalidInput(str(error), param="--voice") from None
    except NarrationUnavailable as error:
        raise MissingExtra(str(error)) from None
    if resolved is None:
        return "none"
    return "joe" if resolved.name == "joe" and value.strip().lower() == "joe" else str(resolved.model)


def check_scheduler(address: str) -> None:
    """Dask installed and ``address`` shaped like a scheduler's (``tcp://host:port``), before anything starts."""
    try:
        from distributed.comm import get_address_host_port
    except ImportError:  # the embedded batch needs no Dask
        raise MissingExtra(
            "batch --scheduler needs Dask distributed: pip install -e '.[distributed]' (or `make distributed`)"
        ) from None
    try:
        get_address_host_port(address)
    except (ValueError, TypeError) as error:
        raise InvalidInput(
            f"{address!r} is not a scheduler address like tcp://host:8786 ({error})", param="--scheduler"
        ) from None
