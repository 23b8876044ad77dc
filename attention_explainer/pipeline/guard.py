"""Checks on the folders a run writes to, made before anything is drawn (issue 34).

- The media and cache folders must not be one another's (the cache would be published, or a
  render would move its own staging folder).
- A render folder holds only what this project wrote: a render replaces the whole folder, so
  files a teacher put there (notes, a folder of their own) would go with it. A run that would
  replace such a folder refuses instead, naming the files.
- A render folder that is a symbolic link is never written through.
- Locks live in a folder of the user's own, never at a fixed name in the shared temporary folder.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from pathlib import Path

from ..exports.export import EXPORT_KINDS, export_name
from ..files import is_inside_path
from ..package.questions import QUESTIONS

__all__ = [
    "FolderProblem",
    "ForeignFiles",
    "check_folders",
    "foreign_entries",
    "check_render_folder",
    "check_render_folders",
    "lock_folder",
]

EXPORT_NAMES = tuple(export_name("{scene}", kind) for kind in EXPORT_KINDS)
"""The exports written into a render's folder (from :mod:`..exports.export`, so a new kind is known at once); a re-render
replaces them with the folder."""

PROJECT_NAMES = (
    *EXPORT_NAMES,
    "{scene}.mp4",
    "{scene}.webm",
    "sections.json",
    "poster.png",
    "preview.gif",
    "trace.json",
    "narration.json",
    QUESTIONS,
    "captions.vtt",
    "captions.srt",
    "transcript.txt",
    "present.html",
    "worksheet.html",
    "explore.html",
    "manifest.json",
)
"""Every file a render writes at the top of its folder, by name: known even when the manifest does not list it
(a render of an older version, or one whose manifest is damaged and is rendered again)."""

STEP_CLIP = re.compile(r"sections/\d{2}-[a-z0-9-]+\.mp4")
"""A step's clip, ``sections/NN-step-name.mp4``."""


class FolderProblem(ValueError):
    """The media or cache folder cannot be used as given; ``usage`` is true when the options contradict each other (exit 2)."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


class ForeignFiles(RuntimeError):
    """A render folder holds files this project did not write; replacing it would delete them."""


def _resolved(path: Path, role: str) -> Path:
    """``path`` with its symbolic links followed; a loop of them is a :class:`FolderProblem`."""
    try:
        os.stat(path)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise FolderProblem(f"cannot use {path} as the {role} folder: it is a loop of symbolic links") from None
    try:
        return Path(path).resolve(strict=False)
    except (OSError, RuntimeError) as error:  # a loop further down (Python < 3.13 raises RuntimeError)
        raise FolderProblem(f"cannot use {path} as the {role} folder: {error}") from None


def check_folders(media: Path, cache: Path) -> None:
    """Refuse a media or cache folder that is a symbolic-link loop, and a cache folder that is, or is inside, the media folder.

    The media folder holds only what is published: a cache inside a render's folder would be
    published with it (or be replaced by its next render), and one among the scenes' folders would
    be taken for one. A hidden folder right in the media folder (``media/.cache``) is allowed.
    """
    media_path, cache_path = _resolved(media, "media"), _resolved(cache, "cache")
    if cache_path == media_path:
        raise FolderProblem(f"--cache-dir {cache} is the media folder: give the cache a folder of its own", usage=True)
    inside = cache_path.relative_to(media_path).parts if media_path in cache_path.parents else ()
    # A hidden folder at the top of media (`--media-dir . ` with the default `.cache`) is never a render
    # folder, never listed and never published, as the project's own `media/.staging` is not.
    if inside and not (len(inside) == 1 and inside[0].startswith(".")):
        raise FolderProblem(
            f"--cache-dir {cache} is inside the media folder {media}, which holds only what is published: "
            "give the cache a folder outside it",
            usage=True,
        )


def _known(folder: Path, scene: str) -> set[str]:
    """The paths (relative to ``folder``) this project writes in a render's folder: its manifest's files, the manifest, the exports."""
    known = {name.format(scene=scene) for name in PROJECT_NAMES}
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        entries = manifest.get("files", []) if isinstance(manifest, dict) else []
    except (OSError, ValueError):
        entries = []
    for entry in entries:
        if isinstance(entry, dict) and is_inside_path(entry.get("path")):
            known.add(entry["path"])
    return known


def _is_export_leftover(name: str, scene: str) -> bool:
    """A temporary file an export killed outright left (``.scaling.pptx.k2j4.tmp``): the next export removes it."""
    return name.endswith(".tmp") and any(name.startswith(f".{export.format(scene=scene)}.") for export in EXPORT_NAMES)


def foreign_entries(folder: Path, scene: str) -> list[str]:
    """What ``folder`` (a render's folder) holds that this project did not write, as paths relative to it (folders end in ``/``).

    A folder of files no render wrote is named once, not file by file.
    """
    if not folder.is_dir() or folder.is_symlink():
        return []
    known = _known(folder, scene)
    known_folders = {"sections", *(part for path in known for part in _parents(path))}
    foreign = []
    for root, folders, files in os.walk(folder):
        base = Path(root).relative_to(folder)
        for name in sorted(folders):
            relative = (base / name).as_posix()
            if relative not in known_folders or os.path.islink(os.path.join(root, name)):
                foreign.append(relative + "/")
        folders[:] = [name for name in folders if f"{(base / name).as_posix()}/" not in foreign]
        for name in sorted(files):
            relative = (base / name).as_posix()
            if relative in known or STEP_CLIP.fullmatch(relative) or (base == Path(".") and _is_export_leftover(name, scene)):
                continue
            foreign.append(relative)
    return sorted(foreign)


def _parents(relative: str) -> list[str]:
    parts = relative.split("/")[:-1]
    return ["/".join(parts[: index + 1]) for index in range(len(parts))]


def check_render_folder(folder: Path, scene: str) -> None:
    """Refuse to replace ``folder`` when it is a symbolic link or holds files this project did not write (:class:`ForeignFiles`)."""
    if folder.is_symlink():
        raise ForeignFiles(
            f"{folder} is a symbolic link (to {os.readlink(folder)}): renders and exports are never written through a link; "
            "remove the link (or render into the folder it points to with --media-dir) and run again"
        )
    foreign = foreign_entries(folder, scene)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise ForeignFiles(
            f"{folder} holds files no render wrote ({shown}); a render replaces the whole folder, so it would delete them: "
            "move them out of it, then run again"
        )


def check_render_folders(folders: list[tuple[Path, str]]) -> None:
    """:func:`check_render_folder` on each ``(folder, scene)`` a run is about to replace; one :class:`ForeignFiles` naming the first problem."""
    problems = []
    for folder, scene in folders:
        try:
            check_render_folder(folder, scene)
        except ForeignFiles as error:
            problems.append(str(error))
    if problems:
        more = f" (and {len(problems) - 1} more folders like it)" if len(problems) > 1 else ""
        raise ForeignFiles(problems[0] + more)


def lock_folder() -> Path:
    """This user's folder of render locks: ``$XDG_CACHE_HOME/attention-explainer/locks`` (``~/.cache/...``), made private.

    Never a fixed name in the shared temporary folder, where another user's file of that name
    blocked every render on the machine. Without a usable home, a folder named with the user's id
    in the temporary folder, made private and checked to be this user's own.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    candidates = [Path(base) / "attention-explainer" / "locks"] if os.path.isabs(base) else []
    candidates.append(Path(tempfile.gettempdir()) / f"attention-explainer-locks-{os.getuid()}")
    problems = []
    for folder in candidates:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            status = os.lstat(folder)
        except OSError as error:
            problems.append(f"{folder}: {error.strerror or error}")
            continue
        if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid():
            problems.append(f"{folder}: not a folder of this user's own")
            continue
        if status.st_mode & 0o077:
            try:
                os.chmod(folder, 0o700)
            except OSError as error:
                problems.append(f"{folder}: {error.strerror or error}")
                continue
        return folder
    raise FolderProblem(f"no folder for the render locks can be used ({'; '.join(problems)})")
