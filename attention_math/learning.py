"""What the two learning scenes share: torch as an optional import, deterministic training, a cache of runs.

The models of :mod:`.reversal` and :mod:`.sentiment` are trained for real with torch.
Training must give the same weights for the same settings on one machine, so it runs
inside :func:`deterministic` (a seeded global generator forked from the caller's,
``torch.use_deterministic_algorithms(True)``, one thread; all restored afterwards),
and its data comes from ``numpy.random.default_rng(seed)``.

A run (its weights and the curves recorded while training) is stored in a cache folder
the caller passes in, under a hash of the settings and of the training code's source,
so a re-render does not train again. An entry is written to a temporary name and renamed
into place, and checked when read back: an entry that fails the check is trained again,
with a warning.

torch is imported by :func:`import_torch`, so ``import attention_math`` works without
it; without it, that function raises :class:`TorchNotInstalled`.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

__all__ = [
    "TORCH_HINT",
    "TorchNotInstalled",
    "CacheWarning",
    "import_torch",
    "deterministic",
    "settings_key",
    "cached_run",
    "state_to_lists",
    "lists_to_state",
]

TORCH_HINT = (
    "The learning scenes train a small model with torch, an optional extra: "
    "install it with `make learning` or `pip install -e '.[learning]'` (the CPU wheel, torch==2.13.0)."
)

CACHE_FORMAT = 1
"""Bumped when the layout of a cache entry changes, so old entries are trained again."""


class TorchNotInstalled(ImportError):
    """torch, the optional extra the learning scenes train with, is missing."""


class CacheWarning(UserWarning):
    """A cache entry could not be used (damaged, or from other settings) and the model is trained again."""


def import_torch():
    """Import torch, or say how to install it."""
    try:
        return importlib.import_module("torch")
    except ImportError as error:
        raise TorchNotInstalled(f"torch is not installed. {TORCH_HINT}") from error


@contextlib.contextmanager
def deterministic(seed: int) -> Iterator[None]:
    """Run the body with torch seeded, deterministic and on one thread; restore the caller's state after.

    The global generator (which ``torch.nn`` layers initialise their weights from) is forked,
    so seeding it here leaves the caller's random stream as it was.
    """
    torch = import_torch()
    threads = torch.get_num_threads()
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        torch.use_deterministic_algorithms(True)
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_num_threads(threads)
            torch.use_deterministic_algorithms(was_deterministic)


def settings_key(kind: str, settings: dict[str, Any], sources: list[Path]) -> str:
    """The hash naming a run: its kind, its settings and the bytes of the code (and data) that train it."""
    digest = hashlib.sha256()
    digest.update(json.dumps({"kind": kind, "format": CACHE_FORMAT, "settings": settings}, sort_keys=True).encode())
    for source in sources:
        digest.update(source.read_bytes())
    return digest.hexdigest()[:24]


def _payload_digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, allow_nan=False).encode()).hexdigest()


def _read_entry(path: Path, key: str, validate: Callable[[dict[str, Any]], None]) -> dict[str, Any] | None:
    """The payload stored at ``path``, or None (with a warning) when it is missing a part, damaged or not ours."""
    if not path.exists():
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(entry, dict) or entry.get("key") != key or entry.get("format") != CACHE_FORMAT:
            raise ValueError("it belongs to other settings")
        payload = entry.get("payload")
        if not isinstance(payload, dict) or entry.get("sha256") != _payload_digest(payload):
            raise ValueError("its checksum does not match its contents")
        validate(payload)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        warnings.warn(f"cache entry {path.name} is unusable ({error}); training again", CacheWarning, stacklevel=3)
        return None
    return payload


def _write_entry(path: Path, key: str, payload: dict[str, Any]) -> None:
    """Write the entry to a temporary name in the same folder, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = {"format": CACHE_FORMAT, "key": key, "sha256": _payload_digest(payload), "payload": payload}
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(entry, file, sort_keys=True, allow_nan=False)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def cached_run(
    kind: str,
    settings: dict[str, Any],
    sources: list[Path],
    cache_dir: Path | None,
    train: Callable[[], dict[str, Any]],
    validate: Callable[[dict[str, Any]], None],
) -> dict[str, Any]:
    """The run for ``settings``: read from ``cache_dir`` when a sound entry is there, else trained and stored.

    Parameters
    ----------
    kind
        Names the model (``"reversal"``, ``"sentiment"``); the entry's file starts with it.
    settings
        Everything training depends on besides the code (JSON-able).
    sources
        Files whose bytes the training depends on (its code, its data); a change to one trains again.
    cache_dir
        Folder of entries, or None to train every time without storing.
    train
        Trains and returns the payload: JSON-able lists and numbers only.
    validate
        Raises ``ValueError`` (or ``KeyError``/``TypeError``/``IndexError``) when a payload read back
        is not a whole run for these settings.
    """
    if cache_dir is None:
        return json.loads(json.dumps(train(), allow_nan=False))  # the same lists a cache hit gives back
    key = settings_key(kind, settings, sources)
    path = Path(cache_dir) / f"{kind}-{key}.json"
    payload = _read_entry(path, key, validate)
    if payload is None:
        payload = json.loads(json.dumps(train(), allow_nan=False))  # the same lists a read gives back
        _write_entry(path, key, payload)
    return payload


def state_to_lists(module) -> dict[str, Any]:
    """A module's parameters as nested lists of floats, by name (float32 round-trips exactly through them)."""
    return {name: tensor.detach().cpu().tolist() for name, tensor in module.state_dict().items()}


def lists_to_state(module, lists: dict[str, Any]) -> None:
    """Load parameters saved by :func:`state_to_lists`; a missing name or a wrong shape raises ValueError."""
    torch = import_torch()
    state = module.state_dict()
    if set(lists) != set(state):
        raise ValueError("its weights do not name the model's parameters")
    loaded = {}
    for name, tensor in state.items():
        value = torch.tensor(np.asarray(lists[name], dtype=np.float32))
        if value.shape != tensor.shape or not torch.isfinite(value).all():
            raise ValueError(f"its weights for {name} have the wrong shape or are not finite")
        loaded[name] = value
    module.load_state_dict(loaded)
