"""Writing files so that a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["write_atomic", "writing_atomic", "sha256_of", "zip_member", "is_inside_path"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()
"""What ``open()`` would have given a new file (``mkstemp`` makes it private): pages must be readable by a web server."""


def write_atomic(path: Path | str, content: str | bytes) -> Path:
    """Write ``content`` to a temporary file beside ``path``, then rename it into place.

    A failure (a full disk, a kill) leaves the previous file as it was and no temporary file
    behind; a symlink at ``path`` is replaced, never written through.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else content
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            os.fchmod(file.fileno(), FILE_MODE)
            file.write(data)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError) and not error.filename:
            # A full disk shows at the write or the close, as an error with no file name: say which file.
            raise OSError(error.errno, error.strerror or str(error), str(path)) from None
        raise
    return path


@contextmanager
def writing_atomic(path: Path | str) -> Iterator[Path]:
    """A temporary path beside ``path`` to write a large file to (a zip, a deck); renamed into place when the block ends.

    An exception in the block (a full disk, Ctrl-C) removes the temporary file and leaves the
    previous file as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    try:
        yield Path(temporary)
        os.chmod(temporary, FILE_MODE)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def is_inside_path(relative: object) -> bool:
    """Whether ``relative`` names a file inside a folder: relative, in plain forward-slash parts, no ``..``.

    Every path read from a published file (a manifest, ``sections.json``) goes through this: a
    media folder received from someone else must never make a render read or write outside it.
    """
    if not isinstance(relative, str) or not relative or "\\" in relative or "\0" in relative:
        return False
    parts = relative.split("/")
    return not relative.startswith("/") and all(part not in ("", ".", "..") for part in parts) and ":" not in parts[0]


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every zip member's timestamp (the earliest a zip can hold): the same render always gives the same bytes."""

ALREADY_COMPRESSED = {".mp4", ".webm", ".png", ".gif"}
"""Stored as they are: deflating them again costs time and saves nothing."""


def zip_member(name: str) -> zipfile.ZipInfo:
    """A zip member named ``name`` that says nothing of when or where it was written (a readable file, a fixed date)."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_STORED if Path(name).suffix in ALREADY_COMPRESSED else zipfile.ZIP_DEFLATED
    return info
