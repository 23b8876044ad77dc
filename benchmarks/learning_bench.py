"""What training the learning scenes' models costs: CPU and wall seconds per model, against the 60 s CPU budget.

    python benchmarks/learning_bench.py                # the defaults
    python benchmarks/learning_bench.py --length 12    # the reversal at its longest allowed length

Each model is trained once, in this process, exactly as a render would train it on a cache
miss: the reversal model with attention, the same network without, and the sentiment
classifier. CPU seconds (``time.process_time``: user + system of this process, which
trains on one thread) are the figure the budget is about; on a shared machine the wall
time depends on the neighbours, and even CPU seconds grow a little when the cores are busy.
Then a cached read is timed (a render after the first). Results go to
``benchmarks/learning_results.json`` under the settings' name.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_math import reversal, sentiment  # noqa: E402
from attention_math.reversal import ReversalSettings  # noqa: E402
from attention_math.sentiment import SentimentSettings  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "learning_results.json"
BUDGET_CPU_S = 60.0


def timed(work) -> tuple[dict, object]:
    """Run ``work()``; its CPU and wall seconds, and what it returned."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return {"cpu_s": round(time.process_time() - cpu, 2), "wall_s": round(time.perf_counter() - wall, 2)}, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--length", type=int, default=ReversalSettings.length)
    options = parser.parse_args()

    settings = ReversalSettings(seed=options.seed, length=options.length)
    heldout = reversal.heldout_sequences(settings)
    batches = reversal._training_batches(settings, heldout)
    report: dict = {"models": {}}
    for name, attend in (("reversal with attention", True), ("reversal without attention", False)):
        times, part = timed(lambda attend=attend: reversal._train_one(settings, attend, batches, heldout[settings.length]))
        report["models"][name] = {**times, "heldout_accuracy": round(part["accuracy"][-1], 4)}
        print(f"{name}: {report['models'][name]}", flush=True)
    sentiment_settings = SentimentSettings(seed=options.seed)
    times, payload = timed(lambda: sentiment._train(sentiment_settings))
    report["models"]["sentiment"] = {**times, "heldout_accuracy": round(payload["heldout_accuracy"][-1], 4)}
    print(f"sentiment: {report['models']['sentiment']}", flush=True)

    with tempfile.TemporaryDirectory(prefix="learning-bench-") as cache:
        reversal.train_reversal(settings, Path(cache))  # trains both again, to fill the cache
        report["cached_read_s"] = timed(lambda: reversal.train_reversal(settings, Path(cache)))[0]

    report.update(
        {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end",
            "torch_threads_in_training": 1,
            "reversal_settings": {"seed": settings.seed, "length": settings.length, "steps": settings.steps},
            "budget_cpu_s": BUDGET_CPU_S,
            "within_budget": all(model["cpu_s"] <= BUDGET_CPU_S for model in report["models"].values()),
        }
    )
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[f"seed{settings.seed}-length{settings.length}"] = report
    handle, temporary = tempfile.mkstemp(dir=RESULTS.parent, prefix=RESULTS.name + ".", suffix=".tmp")
    with os.fdopen(handle, "w") as file:
        file.write(json.dumps(results, indent=1) + "\n")
    os.replace(temporary, RESULTS)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
