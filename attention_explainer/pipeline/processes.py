"""How a render process ends: on SIGTERM, on Ctrl-C, and when the process that started it dies.

Used by the local workers (:mod:`.workers`) and by the render process a cluster task starts
(:mod:`.cluster`), so both end the same way: the render raises ``KeyboardInterrupt``, its staging
folder is cleaned, and nothing is published for a run that is over.
"""

from __future__ import annotations

import ctypes
import signal
import sys

__all__ = ["WORKER_ENVIRONMENT", "die_with_parent", "stop_on_signals"]

WORKER_ENVIRONMENT = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Set in every render worker: numpy's BLAS on one thread, so every sum is taken in one order,
whatever the number of cores (the cores are kept busy by the encoders and the other workers)."""


def die_with_parent() -> None:
    """On Linux, get SIGTERM when the parent process dies (even by SIGKILL); elsewhere nothing.

    Without ``prctl`` the next run cleans what this process leaves (see :func:`.staging.recover_staging`).
    """
    if sys.platform.startswith("linux"):
        try:
            PR_SET_PDEATHSIG = 1
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass


def _ignore(signum, frame) -> None:
    pass


def stop_on_signals() -> None:
    """SIGTERM, Ctrl-C and the parent's death end the process as Ctrl-C does, cleaning its staging.

    Ctrl-C in the terminal reaches every process of the group as SIGINT (KeyboardInterrupt); the
    parent stops its workers with SIGTERM, and on Linux a worker whose parent dies gets SIGTERM too,
    so no render goes on publishing for a run that is over.
    """

    def interrupt(signum, frame):
        # The first signal stops the render; later ones (Ctrl-C and the parent's SIGTERM both
        # come) must not cut short the cleanup it starts. (A no-op handler, not SIG_IGN: Python
        # raises OSError for a signal already pending when its handler becomes SIG_IGN.)
        signal.signal(signal.SIGINT, _ignore)
        signal.signal(signal.SIGTERM, _ignore)
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    die_with_parent()
