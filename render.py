#!/usr/bin/env python
"""Render attention explainer videos: ``python render.py scaling --quality high`` (see ``--help``)."""

import os
import signal
import sys


def _stopped_while_starting(signum, frame):
    """Ctrl-C or SIGTERM while the libraries load (a second or more): nothing was done yet, so one line and the exit code."""
    os.write(2, b"\nInterrupted while starting: nothing was done.\n")
    os._exit(143 if signum == signal.SIGTERM else 130)


# First of all, before the slow imports (manim, numpy): a Ctrl-C then printed a KeyboardInterrupt
# traceback. A signal this process was started ignoring (a background job's SIGINT) stays ignored.
_STARTING = {}
if __name__ == "__main__":
    for _signal, _default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
        if signal.getsignal(_signal) is _default:
            _STARTING[_signal] = signal.signal(_signal, _stopped_while_starting)

from attention_explainer.cli import main  # noqa: E402

if __name__ == "__main__":
    for _signal, _previous in _STARTING.items():
        signal.signal(_signal, _previous)
    sys.exit(main())
