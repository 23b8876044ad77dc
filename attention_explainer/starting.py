"""The entry points' first step: Ctrl-C or SIGTERM while the libraries load ends in one line, not a traceback.

``render.py`` and the ``attention-explainer`` console script take :data:`main` (the click group of
:mod:`.cli`) from here. Started as one of those programs, this module handles SIGINT and SIGTERM
before the slow imports (manim, numpy: a second or more), then gives the signals back to what
handled them before; imported by anything else (a test importing ``render``) it changes nothing.
A signal the process was started ignoring (a background job's SIGINT) stays ignored.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

__all__ = ["main", "PROGRAMS"]

PROGRAMS = ("render.py", "attention-explainer")
"""The names the entry points run as (``sys.argv[0]``)."""


def _stopped_while_starting(signum, frame):
    """Nothing was done yet: one line and the exit code (130 for Ctrl-C, 143 for SIGTERM)."""
    os.write(2, b"\nInterrupted while starting: nothing was done.\n")
    os._exit(143 if signum == signal.SIGTERM else 130)


def _arm() -> dict:
    """Handle SIGINT and SIGTERM while the imports run, when started as a program; the handlers to give back."""
    if Path(sys.argv[0]).name not in PROGRAMS:
        return {}
    armed = {}
    for number, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
        if signal.getsignal(number) is default:
            armed[number] = signal.signal(number, _stopped_while_starting)
    return armed


_ARMED = _arm()

from .cli import main  # noqa: E402  (the slow imports, with the handlers above in place)

for _number, _previous in _ARMED.items():
    signal.signal(_number, _previous)
