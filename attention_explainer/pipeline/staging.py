"""Staging folders and the publish: a render is built aside, then swapped in whole by renames."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .folders import Folders

__all__ = ["staging_folder", "publish", "link_or_copy"]


@contextmanager
def staging_folder(folders: Folders, prefix: str) -> Iterator[Path]:
    """A fresh folder to build a render in, removed afterwards whatever happens."""
    root = folders.staging_root()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{prefix}-", dir=root))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        try:
            root.rmdir()  # only when no other render is staging
        except OSError:
            pass


def publish(package: Path, final: Path, staging: Path) -> None:
    """Swap ``package`` in as ``final`` with renames, so readers see the old or the new folder, never half.

    The previous folder goes into ``staging`` (removed with it), not deleted first.
    """
    final.parent.mkdir(parents=True, exist_ok=True)
    if final.exists():
        os.replace(final, staging / "previous")
    os.replace(package, final)


def link_or_copy(source: Path, target: Path) -> None:
    """Give ``target`` the bytes of ``source``: a hard link (free), or a copy across filesystems.

    Published files are never changed in place (a new render replaces the whole folder), so a
    link between a published folder and the package that replaces it is safe.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
