"""Issue 34, poor items: Ctrl-C while the program starts, and standard output that cannot be written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import as_from_a_terminal, wait_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_the_libraries_load_is_one_line(tmp_path, signum, code):
    """Poor item: Ctrl-C in the first second (the imports) printed a KeyboardInterrupt traceback."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "render.py"), "list"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    # In the imports: numpy (which manim loads) is mapped in, and `list` has printed nothing yet.
    maps = Path(f"/proc/{process.pid}/maps")
    wait_for(lambda: "numpy" in maps.read_text(errors="replace"), 60, "numpy to load")
    process.send_signal(signum)
    out, errors = process.communicate(timeout=120)
    assert out == "", "the signal came after the imports: the test proves nothing"
    assert process.returncode == code, errors
    assert errors.strip() == "Interrupted while starting: nothing was done."


def test_a_path_that_cannot_be_printed_says_the_page_was_written(tmp_path):
    """Poor item: `render.py gallery > /dev/full` said "cannot write: No space left on device", the page written all the same."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, str(ROOT / "render.py"), "gallery", "--media-dir", "media"],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    page = tmp_path / "media" / "index.html"
    assert page.is_file()
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: {Path('media') / 'index.html'} was written, but its path could not be printed: No space left on device"
    ]
