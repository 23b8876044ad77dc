"""Write an export of a published render beside it, in one rename."""

from __future__ import annotations

import functools
import os
import signal
import tempfile
from pathlib import Path

from ..files import FILE_MODE, writing_atomic
from ..options import DEFAULT_MASTERY
from ..package.reader import read_package

__all__ = ["export_package", "export_all", "export_name", "EXPORT_FORMATS", "EXPORT_KINDS", "DEFAULT_MASTERY"]

EXPORT_FORMATS = ("scorm", "pptx", "gift")
"""What ``export --to`` makes: a SCORM 1.2 zip for an LMS, a PowerPoint deck, or the questions in Moodle's GIFT format."""

EXPORT_KINDS = EXPORT_FORMATS


def export_name(scene: str, kind: str) -> str:
    """The export's file name in its render's folder: ``scaling-scorm.zip``, ``scaling.pptx`` or ``scaling-gift.txt``."""
    return {"scorm": f"{scene}-scorm.zip", "pptx": f"{scene}.pptx", "gift": f"{scene}-gift.txt"}[kind]


def export_package(folder: Path, kind: str, mastery: int = DEFAULT_MASTERY) -> Path:
    """Write the ``kind`` export (``scorm``, ``pptx`` or ``gift``) of the render in ``folder`` beside it; return its path.

    ``mastery`` is the SCORM package's passing score (percent of its questions answered right).
    """
    package = read_package(folder)
    target = folder / export_name(package.scene, kind)
    with writing_atomic(target) as temporary:
        _builder(kind, mastery)(package, temporary)
    return target


def _builder(kind: str, mastery: int = DEFAULT_MASTERY):
    # Only the builder asked for is imported: python-pptx and lxml load for a deck alone.
    if kind == "pptx":
        from .deck import write_deck

        return write_deck
    if kind == "gift":
        from .gift import write_gift

        return write_gift
    from .scorm import write_scorm

    return functools.partial(write_scorm, mastery=mastery)


def stale_temporaries(folder: Path, scene: str) -> list[Path]:
    """The temporary files an export killed outright (SIGKILL) left in ``folder``: ``.scaling.pptx.XXXX.tmp``."""
    return sorted(
        path
        for kind in EXPORT_KINDS
        for path in folder.glob(f".{export_name(scene, kind)}.*.tmp")
        if path.is_file() and not path.is_symlink()
    )


def export_all(requests: list[tuple[Path, tuple[str, ...]]], mastery: int = DEFAULT_MASTERY) -> list[Path]:
    """Write every export ``requests`` asks for (a render's folder and its kinds), all of them or none; return their paths.

    ``mastery`` is the passing score of the SCORM packages (see :func:`export_package`).
    Each export is built in a temporary file beside its target; only when every one of them is
    built are they renamed into place, so a failure (a deck that cannot be written, a full disk,
    Ctrl-C) leaves every render's folder as it was, with no temporary file. The temporary files a
    killed export left are removed first: the caller holds the render's lock, so no other export
    is writing there. A write error names the file it was writing.
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for folder, kinds in requests:
            package = read_package(folder)
            for leftover in stale_temporaries(folder, package.scene):
                leftover.unlink(missing_ok=True)
            for kind in dict.fromkeys(kinds):
                target = folder / export_name(package.scene, kind)
                handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
                os.close(handle)
                staged.append((Path(name), target))
                try:
                    _builder(kind, mastery)(package, Path(name))
                    os.chmod(name, FILE_MODE)
                except OSError as error:
                    raise OSError(error.errno, error.strerror or str(error), str(target)) from None
        # Every export is built: the renames cannot be cut by Ctrl-C or SIGTERM halfway.
        held = {signal.SIGINT, signal.SIGTERM}
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            for temporary, target in staged:
                os.replace(temporary, target)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
    return [target for _, target in staged]
