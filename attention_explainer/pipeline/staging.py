"""Staging folders and the publish: a render is built aside, then swapped in whole by renames.

A staging folder's name carries its process's id, so a later run can tell a dead run's folder
from a live one's: :func:`recover_staging` removes what dead runs left and puts back a render
stranded between the publish's two renames (a kill, even SIGKILL, at that moment).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .folders import Folders
from .guard import check_render_folder

__all__ = ["staging_folder", "publish", "link_or_copy", "recover_staging", "TARGET_FILE"]

TARGET_FILE = "publishing-to"
"""Written in a staging folder before publishing: the published folder its ``previous`` came from."""

REQUIRED_PARENT: int | None = None
"""In a render worker: its run's process id. The worker publishes only while that process is its parent
(the run holds the render's lock); a worker whose run died refuses to publish (:class:`RunGone`)."""


class RunGone(RuntimeError):
    """The run that started this render worker is gone (and its lock with it): the render is not published."""


_OWNER = re.compile(r"-pid(\d+)-[^-]*$")


@contextmanager
def staging_folder(folders: Folders, prefix: str) -> Iterator[Path]:
    """A fresh folder to build a render in, removed afterwards whatever happens."""
    root = folders.staging_root()
    staging = _make_staging(root, f"{prefix}-pid{os.getpid()}-")
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        try:
            root.rmdir()  # only when no other render is staging
        except OSError:
            pass


def _make_staging(root: Path, prefix: str, attempts: int = 100) -> Path:
    """Make a fresh folder in ``root``, making ``root`` too.

    Another render that ends removes ``root`` once it is empty (see :func:`staging_folder`), and it
    may do so between this one's ``mkdir`` and ``mkdtemp`` (or within ``mkdir``, between its attempt and its
    check that the folder is there): then both are tried again.
    """
    for _ in range(attempts - 1):
        try:
            root.mkdir(parents=True, exist_ok=True)
            return Path(tempfile.mkdtemp(prefix=prefix, dir=root))
        except (FileNotFoundError, FileExistsError):
            continue
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=root))


def publish(package: Path, final: Path, staging: Path) -> None:
    """Swap ``package`` in as ``final`` with renames, so readers see the old or the new folder, never half.

    The previous folder goes into ``staging`` (removed with it), not deleted first.
    """
    final.parent.mkdir(parents=True, exist_ok=True)
    # The runs check this before drawing; here it is checked again, as the folder is replaced.
    check_render_folder(final, json.loads((package / "manifest.json").read_text(encoding="utf-8"))["scene"])
    (staging / TARGET_FILE).write_text(str(final.resolve()), encoding="utf-8")
    # Ctrl-C or SIGTERM between the two renames would leave no published folder: they wait
    # until both are done. (SIGKILL cannot wait; the next run puts ``previous`` back.)
    # A signal another thread receives still runs its handler here: then the previous render goes back.
    held = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    previous = staging / "previous"
    try:
        if REQUIRED_PARENT is not None and os.getppid() != REQUIRED_PARENT:
            raise RunGone("the run that started this render is gone: it is not published")
        if final.is_symlink() or final.exists():
            os.replace(final, previous)
        os.replace(package, final)
    except BaseException:
        if previous.exists() and not (final.exists() or final.is_symlink()):
            os.replace(previous, final)
        raise
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


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


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def recover_staging(root: Path) -> list[Path]:
    """Clean the staging folders in ``root`` whose process is gone; return the renders put back.

    A dead run's folder is removed; if it died between the publish's two renames (its
    ``previous`` is there and the published folder is not), the previous render goes back first.
    """
    restored = []
    if not root.is_dir():
        return restored
    for staging in root.iterdir():
        owner = _OWNER.search(staging.name)
        if not staging.is_dir() or staging.is_symlink() or owner is None or _alive(int(owner[1])):
            continue
        previous, target_file = staging / "previous", staging / TARGET_FILE
        try:
            target = Path(target_file.read_text(encoding="utf-8")) if target_file.is_file() else None
        except (OSError, UnicodeDecodeError):
            target = None
        if target is not None and previous.is_dir() and not (target.exists() or target.is_symlink()):
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(previous, target)
            restored.append(target)
        shutil.rmtree(staging, ignore_errors=True)
    return restored
