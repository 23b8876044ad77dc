"""Where things go: ``media/`` holds only what is published; everything else lives in the cache folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..options import variant_folder

__all__ = ["Folders"]


@dataclass(frozen=True)
class Folders:
    """The media folder (published renders and the gallery) and the cache folder (the rest).

    The cache holds the shared LaTeX and text cache (``tex/``), the staging folders
    (``staging/``), the logs of failed renders (``logs/``) and the render times.
    """

    media: Path
    cache: Path

    @property
    def tex_cache(self) -> Path:
        return self.cache / "tex"

    @property
    def logs(self) -> Path:
        return self.cache / "logs"

    @property
    def render_times(self) -> Path:
        return self.cache / "render-times.json"

    def published(self, scene: str, inputs: dict[str, Any] | None, quality: str) -> Path:
        """The folder a render of ``scene`` with ``inputs`` at ``quality`` is published to."""
        return self.media / variant_folder(scene, inputs or {}) / quality

    def staging_root(self) -> Path:
        """Where renders stage: in the cache, or, when the cache is on another filesystem, in media.

        Publishing is a rename, and a rename cannot cross filesystems. A staging folder in media
        is removed when the last render using it ends (see :func:`.staging.staging_folder`).
        """
        self.media.mkdir(parents=True, exist_ok=True)
        self.cache.mkdir(parents=True, exist_ok=True)
        if os.stat(self.media).st_dev == os.stat(self.cache).st_dev:
            return self.cache / "staging"
        return self.media / ".staging"
