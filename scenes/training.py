"""Where the scenes that train a model keep their runs, and one training at a time per run.

A scene that trains (``learning-to-attend``, ``sentiment-attention``) is built from a run
that ``attention_math`` caches by its settings' hash in a folder. A render passes the
folder (its ``--cache-dir``'s ``training/``, see :func:`scenes.build_trace`); a scene built
without one (a worksheet, a test) uses :data:`TRAINING_CACHE`. Two processes that need the
same run wait for each other under a lock instead of both training it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from filelock import FileLock

__all__ = ["TRAINING_CACHE", "TRAINING_FOLDER", "training_folder", "trained"]

TRAINING_FOLDER = "training"
"""The runs' folder inside a cache folder."""

TRAINING_CACHE = Path(".cache") / TRAINING_FOLDER
"""The runs' folder when none is given: the default cache folder's (the test suite points it at one folder per run)."""

T = TypeVar("T")


def training_folder(cache_dir: Path | None) -> Path:
    """The folder a run is cached in: ``cache_dir`` when given, else :data:`TRAINING_CACHE` (read when called)."""
    return Path(cache_dir) if cache_dir is not None else TRAINING_CACHE


def trained(kind: str, cache_dir: Path | None, build: Callable[[Path], T]) -> T:
    """``build(folder)`` under a lock named for ``kind`` in the runs' folder: a run is trained once, then read.

    The cache entries are written atomically by ``attention_math``; the lock only saves a second
    process from training the same run at the same time (about a minute of CPU for reversal).
    """
    folder = training_folder(cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(folder / f"{kind}.lock"):
        return build(folder)
