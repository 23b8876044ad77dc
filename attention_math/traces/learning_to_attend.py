"""Learning to attend: two encoder–decoders trained to reverse sequences, one with additive attention, one without.

The numbers come from a real training run (:mod:`attention_math.reversal`, torch, an
optional extra): the curves of both models, the attention matrix of one held-out example
as training went on, accuracy against length (the bottleneck measured), and how much
weight the learned alignment puts on the mirrored source position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import reversal
from ..reversal import MIN_LENGTH, SYMBOLS, ReversalSettings
from .base import Trace

__all__ = ["KEEPS_UP", "LearningToAttendTrace", "learning_to_attend_trace"]

KEEPS_UP = 0.01
"""How close (in token accuracy) the model without attention must come to say it keeps up at a length."""


@dataclass(frozen=True, eq=False)
class LearningToAttendTrace(Trace):
    """Two reversal models trained from one seed on the same batches, with and without attention.

    Attributes
    ----------
    seed, length, steps, batch_size, learning_rate, embed_size, hidden_size, heldout_per_length
        The run's settings (see :class:`~attention_math.reversal.ReversalSettings`).
    min_length
        The shortest sequences trained and measured.
    symbols
        The tokens sequences are made of.
    checkpoints
        ``(c,)``: training steps at which the curves were recorded; 0 is before training.
    attention_loss, baseline_loss
        ``(c,)``: held-out cross-entropy (fed the right previous token) at ``length``, per checkpoint.
    attention_train_loss, baseline_train_loss
        ``(c - 1,)``: mean training loss over the batches since the previous checkpoint.
    attention_accuracy, baseline_accuracy
        ``(c,)``: held-out token accuracy at ``length``, decoding on its own (fed its own previous token).
    snapshots
        ``(c, length, length)``: the attention model's weights on the example at each checkpoint,
        output steps by source positions; each row sums to 1.
    example_mirror_weight
        ``(c,)``: the example's own mean weight on the mirrored position at each checkpoint (the mean
        of each snapshot's anti-diagonal): one sequence, where ``mirror_weight_curve`` averages the held-out set.
    mirror_weight_curve
        ``(c,)``: mean weight on the mirrored source position over the held-out set at ``length``.
    snapshot_indices
        Checkpoints a scene shows the example's attention at: the first; where the mirror weight
        is a quarter, half and three quarters of the way from its start to its end; the last.
    example_source, example_target
        The held-out example (never trained on) and its reversal.
    attention_prediction, baseline_prediction
        What each trained model wrote for it.
    lengths
        ``(k,)``: every length measured, ``min_length`` to ``length``.
    attention_accuracy_by_length, baseline_accuracy_by_length
        ``(k,)``: trained models' held-out token accuracy per length.
    attention_exact_by_length, baseline_exact_by_length
        ``(k,)``: share of held-out sequences reversed with every token right.
    baseline_keeps_up
        ``(k,)``: True at the lengths where the model without attention comes within
        :data:`KEEPS_UP` of the attention model's accuracy (no bottleneck to see there).
    mirror_weight
        The trained model's mean weight on the mirrored position at ``length``.
    mirror_argmax
        Share of output steps whose largest weight is on the mirrored position, at ``length``.
    mirror_weight_by_length
        ``(k,)``: ``mirror_weight`` at every length.
    uniform_weight
        ``1 / length``: the weight on any position when attention is flat.
    source
        Where the numbers come from, said on screen.
    """

    seed: int
    length: int
    steps: int
    batch_size: int
    learning_rate: float
    embed_size: int
    hidden_size: int
    heldout_per_length: int
    min_length: int
    symbols: tuple[str, ...]
    checkpoints: np.ndarray
    attention_loss: np.ndarray
    baseline_loss: np.ndarray
    attention_train_loss: np.ndarray
    baseline_train_loss: np.ndarray
    attention_accuracy: np.ndarray
    baseline_accuracy: np.ndarray
    snapshots: np.ndarray
    example_mirror_weight: np.ndarray
    mirror_weight_curve: np.ndarray
    snapshot_indices: tuple[int, ...]
    example_source: tuple[str, ...]
    example_target: tuple[str, ...]
    attention_prediction: tuple[str, ...]
    baseline_prediction: tuple[str, ...]
    lengths: np.ndarray
    attention_accuracy_by_length: np.ndarray
    baseline_accuracy_by_length: np.ndarray
    attention_exact_by_length: np.ndarray
    baseline_exact_by_length: np.ndarray
    baseline_keeps_up: np.ndarray
    mirror_weight: float
    mirror_argmax: float
    mirror_weight_by_length: np.ndarray
    uniform_weight: float
    source: str

    @property
    def final_attention_accuracy(self) -> float:
        """The trained attention model's held-out token accuracy at ``length``."""
        return float(self.attention_accuracy[-1])

    @property
    def final_baseline_accuracy(self) -> float:
        """The trained model without attention: held-out token accuracy at ``length``."""
        return float(self.baseline_accuracy[-1])

    @property
    def final_weights(self) -> np.ndarray:
        """The trained attention model's weights on the example (the last snapshot)."""
        return self.snapshots[-1]


def _snapshot_indices(curve: list[float]) -> tuple[int, ...]:
    """Checkpoints to show the example at: the first, where the alignment is a quarter, half and three
    quarters of the way from its start to its end (the mirror weight curve), and the last."""
    last = len(curve) - 1
    chosen = {0, last}
    rise = curve[-1] - curve[0]
    for fraction in (0.25, 0.5, 0.75):
        if rise > 0:
            chosen.add(next(i for i, value in enumerate(curve) if value >= curve[0] + fraction * rise))
        else:
            chosen.add(round(fraction * last))
    return tuple(sorted(chosen))


def _tokens(ids) -> tuple[str, ...]:
    return tuple(SYMBOLS[int(i) - 1] for i in ids)


def learning_to_attend_trace(settings: ReversalSettings | None = None, cache_dir: Path | None = None) -> LearningToAttendTrace:
    """Train (or read from ``cache_dir``) both reversal models and measure them.

    Raises
    ------
    attention_math.learning.TorchNotInstalled
        Without torch.
    attention_math.reversal.OptionOutOfRange
        Raised by :class:`ReversalSettings` for a length or seed outside its range.
    """
    settings = settings or ReversalSettings()
    run = reversal.train_reversal(settings, cache_dir)
    measures = reversal.evaluate_run(run)
    attention, baseline = run.curves["attention"], run.curves["baseline"]
    source_ids = measures["example_source"]
    snapshots = np.asarray(attention["example_weights"], dtype=float)
    steps = np.arange(settings.length)
    return LearningToAttendTrace(
        seed=settings.seed,
        length=settings.length,
        steps=settings.steps,
        batch_size=settings.batch_size,
        learning_rate=settings.learning_rate,
        embed_size=settings.embed_size,
        hidden_size=settings.hidden_size,
        heldout_per_length=settings.heldout_per_length,
        min_length=MIN_LENGTH,
        symbols=SYMBOLS,
        checkpoints=np.asarray(run.checkpoints, dtype=int),
        attention_loss=np.asarray(attention["heldout_loss"], dtype=float),
        baseline_loss=np.asarray(baseline["heldout_loss"], dtype=float),
        attention_train_loss=np.asarray(attention["train_loss"], dtype=float),
        baseline_train_loss=np.asarray(baseline["train_loss"], dtype=float),
        attention_accuracy=np.asarray(attention["accuracy"], dtype=float),
        baseline_accuracy=np.asarray(baseline["accuracy"], dtype=float),
        snapshots=snapshots,
        # Row i of a snapshot is output step i, which mirrors source position length - 1 - i.
        example_mirror_weight=snapshots[:, steps, settings.length - 1 - steps].mean(axis=1),
        mirror_weight_curve=np.asarray(attention["mirror_weight"], dtype=float),
        snapshot_indices=_snapshot_indices(attention["mirror_weight"]),
        example_source=_tokens(source_ids),
        example_target=_tokens(source_ids[::-1]),
        attention_prediction=_tokens(measures["attention"]["example_prediction"]),
        baseline_prediction=_tokens(measures["baseline"]["example_prediction"]),
        lengths=np.asarray(measures["lengths"], dtype=int),
        attention_accuracy_by_length=np.asarray(measures["attention"]["accuracy_by_length"], dtype=float),
        baseline_accuracy_by_length=np.asarray(measures["baseline"]["accuracy_by_length"], dtype=float),
        attention_exact_by_length=np.asarray(measures["attention"]["exact_by_length"], dtype=float),
        baseline_exact_by_length=np.asarray(measures["baseline"]["exact_by_length"], dtype=float),
        baseline_keeps_up=np.asarray(measures["baseline"]["accuracy_by_length"])
        >= np.asarray(measures["attention"]["accuracy_by_length"]) - KEEPS_UP,
        mirror_weight=measures["attention"]["mirror_weight"],
        mirror_argmax=measures["attention"]["mirror_argmax"],
        mirror_weight_by_length=np.asarray(measures["attention"]["mirror_weight_by_length"], dtype=float),
        uniform_weight=1.0 / settings.length,
        source=(
            f"Trained here with torch: {settings.steps:,} batches of {settings.batch_size} random sequences "
            f"of letters {SYMBOLS[0]}–{SYMBOLS[-1]}, lengths {MIN_LENGTH} to {settings.length}, "
            f"fixed random seed {settings.seed}; "
            f"measured on {settings.heldout_per_length} held-out sequences per length"
        ),
    )
