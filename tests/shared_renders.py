"""The run's shared renders, each made once per run in a process of its own, started as the tests start.

Made inside a test (under a lock), a shared render kept the other worker idle whenever its next test needed the same
render (40 s of a run on CI). Started as the first test starts, in the background, a render goes on while both
workers test; a test that asks for it waits only for what is left. ``python -m tests.shared_renders NAME FOLDER``
makes one: the render command run as a test runs it (click's ``CliRunner``), its outcome left in
``FOLDER/NAME/result.json`` (exit code, standard output and error), written last, under a temporary name.
Its renders are drafts (:func:`tests.helpers.with_drafts`), as every render of the tests is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from filelock import FileLock

from attention_explainer.pipeline.processes import die_with_parent

RENDERED_SENTENCE = '</span>&"café" 猫🙂 </script><b>buzz'
"""The teacher's sentence of the one real render of a sentence per run (``sentence_rendered`` in conftest): markup
that would close a caption's span or the explorer's script, an ampersand, quotes, an accent, CJK and an emoji. Three words,
each holding several of them: the render's cost grows with the words (seven cost it half as much again)."""
WAIT = 1800
"""The longest a test waits for a shared render (seconds): a busy machine draws slowly, a hung one never ends."""

RENDERS = {
    "rendered": ("renders_on_one_core_and_records_frames", ["scaling", "--quality", "low", "--jobs", "1"]),
    "sentence_rendered": (None, ["self-attention", "--sentence", RENDERED_SENTENCE, "--quality", "low"]),
}
"""Each shared render, by the fixture that reads it: the worker function it runs (a name in
:mod:`tests.fake_workers`; None, the real one) and the render command's arguments (``--media-dir`` and
``--cache-dir`` added: ``<folder>/<name>/media`` and ``cache``)."""

_started: dict[str, subprocess.Popen] = {}
"""The renders this process started (it waits for them before it ends: another process may still need them)."""


def start(name: str, shared: Path) -> None:
    """Start the shared render ``name`` in the background, unless a process of this run already did.

    The render stops when this process dies (as a render worker does), and with the run (:func:`finish`).
    """
    from tests.helpers import with_drafts  # here: a render process imports this module, and needs none of the helpers

    folder = shared / name
    with FileLock(shared / f"{name}.lock"):
        if (folder / "pid").exists():
            return
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "log.txt").open("wb") as log:
            _started[name] = subprocess.Popen(
                [sys.executable, "-m", "tests.shared_renders", name, str(shared)],
                cwd=folder,
                env=with_drafts(os.environ),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
        (folder / "pid").write_text(str(_started[name].pid))


def outcome(name: str, shared: Path) -> dict:
    """The shared render ``name``'s outcome (started now if no process of this run started it), once it has ended."""
    from tests.helpers import alive

    start(name, shared)
    folder = shared / name
    pid = int((folder / "pid").read_text())
    deadline = time.monotonic() + WAIT
    while not (folder / "result.json").exists():
        if not alive(pid) and not (folder / "result.json").exists():
            raise AssertionError(f"the shared render {name} ended without an outcome:\n{_log(folder)}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the shared render {name} took over {WAIT} s:\n{_log(folder)}")
        time.sleep(0.2)
    return json.loads((folder / "result.json").read_text(encoding="utf-8"))


def finish(stop: bool) -> None:
    """Wait for the renders this process started (another process may still read them), at most :data:`WAIT`
    seconds; stop them at once if ``stop`` (the run was stopped or is failing fast: no test will read them)."""
    deadline = time.monotonic() + WAIT
    for process in _started.values():
        try:
            process.wait(timeout=0 if stop else max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.terminate()  # the render command stops its workers and cleans up, as on Ctrl-C
            process.wait()
    _started.clear()


def _log(folder: Path) -> str:
    """The end of a shared render's output, for a failure's message."""
    try:
        return (folder / "log.txt").read_text(errors="replace")[-4000:]
    except OSError:
        return "(no log)"


def _make(name: str, shared: Path) -> None:
    """Make the shared render ``name`` in this process, as a test runs the render command, and leave its outcome."""
    import traceback

    from click.testing import CliRunner

    import render
    from attention_explainer.pipeline import workers
    from tests import fake_workers

    worker, arguments = RENDERS[name]
    if worker is not None:
        workers.WORKER = getattr(fake_workers, worker)
    folder = shared / name
    arguments = [*arguments, "--media-dir", str(folder / "media"), "--cache-dir", str(folder / "cache")]
    result = CliRunner().invoke(render.main, arguments)
    facts = {"exit_code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}
    if result.exception is not None and not isinstance(result.exception, SystemExit):  # a crash: keep its traceback
        facts["stderr"] += "".join(traceback.format_exception(*result.exc_info))
    partial = folder / "result.json.partial"
    partial.write_text(json.dumps(facts), encoding="utf-8")
    os.replace(partial, folder / "result.json")


if __name__ == "__main__":
    _make(sys.argv[1], Path(sys.argv[2]))
