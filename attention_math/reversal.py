"""Reversing a sequence of tokens: an encoder–decoder GRU with additive attention, and the same network without it.

The task: read ``C A F B`` and write ``B F A C``. A bidirectional GRU encoder reads the
source into one output per position; a GRU decoder writes the target one token at a
time, fed the token it wrote before. With attention (the additive score of Bahdanau,
Cho and Bengio, 2014, which came before the transformer's scaled dot product), each
decoder step scores every encoder output against its state,

    score_j = v · tanh(W_s s + W_h h_j + b),    weights = softmax(scores),    context = Σ_j weights_j h_j,

and predicts its token from its state and the context. Without attention the context is
the encoder's summary (both directions' final states) at every step instead: a whole
sequence through one vector. Both networks have the same layers, start from the same
weights (one seed) and see the same batches, so the only difference is where the context
comes from.

The score uses the decoder's state after it has read the token it wrote before (the
order of Luong, Pham and Manning, 2015). In this project's trials, a model scored from the
state before that, with a one-way encoder, learned to find the position of the token it
had just written and read its neighbour: right answers, with an alignment one step off
the mirror. The order used here learned the mirror itself.

Training is deterministic (see :mod:`.learning`) and cached by its settings.
:func:`train_reversal` returns a :class:`ReversalRun`: both trained models, and the
curves and attention matrices recorded while they learned.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .learning import cached_run, deterministic, import_torch, lists_to_state, state_to_lists

__all__ = [
    "LENGTH_RANGE",
    "MIN_LENGTH",
    "SYMBOLS",
    "ReversalSettings",
    "ReversalRun",
    "OptionOutOfRange",
    "build_model",
    "train_reversal",
    "heldout_sequences",
    "evaluate_run",
    "mirror_weight",
]

SYMBOLS = tuple("ABCDEFGHIJ")
"""The tokens sequences are made of; id 0 is the decoder's start token, so symbol i has id i + 1."""

MIN_LENGTH = 3
"""The shortest sequences trained and measured."""

LENGTH_RANGE = (4, 10)
"""The range of the longest length: at 10 (the default) the model with attention trains in 52 s of CPU
(measured by benchmarks/learning_bench.py), and the cost grows with the length, so 10 is also the cap."""


class OptionOutOfRange(ValueError):
    """A setting outside the range the training was sized for."""


@dataclass(frozen=True)
class ReversalSettings:
    """Everything one reversal run depends on.

    Attributes
    ----------
    seed
        Seeds the weights (torch) and the data (``numpy.random.default_rng``).
    length
        The longest sequence: training and the held-out sets cover every length from
        :data:`MIN_LENGTH` to this one; the curves and the attention matrices are at this one.
    steps
        Training batches, the same for both models.
    batch_size
        Sequences per batch (all of one length, drawn at random).
    learning_rate
        Adam's starting step size; it falls linearly to zero over the run, so the run ends settled.
    embed_size, hidden_size
        Width of the token embeddings and of the GRU states (and of the attention's ``tanh`` layer).
    eval_every
        Steps between checkpoints, where the held-out curves and the attention matrix are recorded.
    heldout_per_length
        Held-out sequences per length, never trained on.
    """

    seed: int = 0
    length: int = 10
    steps: int = 1500
    batch_size: int = 64
    learning_rate: float = 0.003
    embed_size: int = 16
    hidden_size: int = 48
    eval_every: int = 75
    heldout_per_length: int = 200

    def __post_init__(self):
        low, high = LENGTH_RANGE
        if not low <= self.length <= high:
            raise OptionOutOfRange(f"length must be between {low} and {high} (got {self.length})")
        if self.seed < 0:
            raise OptionOutOfRange(f"seed must be 0 or more (got {self.seed})")
        if self.steps < 1 or self.eval_every < 1 or self.steps % self.eval_every:
            raise OptionOutOfRange(f"steps ({self.steps}) must be a positive multiple of eval_every ({self.eval_every})")


def build_model(settings: ReversalSettings, attend: bool):
    """The encoder–decoder, with attention or without; its layers are created in the same order either way."""
    torch = import_torch()
    nn = torch.nn

    class AdditiveAttention(nn.Module):
        """``score_j = v · tanh(W_s s + W_h h_j + b)``, softmax over j, context = weighted sum of the h_j."""

        def __init__(self, hidden_size: int):
            super().__init__()
            self.w_s = nn.Linear(hidden_size, hidden_size, bias=False)
            self.w_h = nn.Linear(hidden_size, hidden_size)
            self.v = nn.Linear(hidden_size, 1, bias=False)

        def forward(self, state, encoder_outputs):
            """``state`` (batch, d_h), ``encoder_outputs`` (batch, n, d_h) → weights (batch, n), context (batch, d_h)."""
            hidden = torch.tanh(self.w_s(state).unsqueeze(1) + self.w_h(encoder_outputs))
            weights = torch.softmax(self.v(hidden).squeeze(-1), dim=-1)
            return weights, torch.bmm(weights.unsqueeze(1), encoder_outputs).squeeze(1)

    class Seq2Seq(nn.Module):
        """A bidirectional GRU encoder; a GRU decoder fed its previous token; an output read from its state and a context."""

        def __init__(self):
            super().__init__()
            self.attend = attend
            width = settings.hidden_size
            self.embedding = nn.Embedding(len(SYMBOLS) + 1, settings.embed_size)
            # Half the width each way, so an encoder output (both directions side by side) is as wide as the decoder's state.
            self.encoder = nn.GRU(settings.embed_size, width // 2, batch_first=True, bidirectional=True)
            # Made in both models so that both draw the same initial weights from the seed.
            self.attention = AdditiveAttention(width)
            self.decoder = nn.GRUCell(settings.embed_size, width)
            self.output = nn.Linear(2 * width, len(SYMBOLS))

        def encode(self, source):
            """Encoder outputs ``(batch, n, d_h)`` and the summary ``(batch, d_h)``: both directions' final states."""
            encoder_outputs, final = self.encoder(self.embedding(source))
            return encoder_outputs, torch.cat([final[0], final[1]], dim=-1)

        def step(self, previous, state, encoder_outputs, summary):
            """One decoder step: logits over the symbols, the new state, the attention weights (None without)."""
            state = self.decoder(self.embedding(previous), state)
            if self.attend:
                weights, context = self.attention(state, encoder_outputs)
            else:
                weights, context = None, summary
            return self.output(torch.cat([state, context], dim=-1)), state, weights

        def forward(self, source, previous):
            """Teacher-forced logits ``(batch, n, symbols)`` and weights ``(batch, n, n)`` (None without attention)."""
            encoder_outputs, summary = self.encode(source)
            state = summary
            logits, weights = [], []
            for t in range(previous.shape[1]):
                step_logits, state, step_weights = self.step(previous[:, t], state, encoder_outputs, summary)
                logits.append(step_logits)
                weights.append(step_weights)
            return torch.stack(logits, 1), (torch.stack(weights, 1) if self.attend else None)

        def greedy(self, source):
            """Decode feeding back its own choices: predicted ids ``(batch, n)`` and weights (None without attention)."""
            encoder_outputs, summary = self.encode(source)
            state = summary
            previous = torch.zeros_like(source[:, 0])
            predictions, weights = [], []
            for _ in range(source.shape[1]):
                step_logits, state, step_weights = self.step(previous, state, encoder_outputs, summary)
                previous = step_logits.argmax(-1) + 1
                predictions.append(previous)
                weights.append(step_weights)
            return torch.stack(predictions, 1), (torch.stack(weights, 1) if self.attend else None)

    return Seq2Seq()


def heldout_sequences(settings: ReversalSettings) -> dict[int, np.ndarray]:
    """The held-out sources by length, ``(heldout_per_length, length)`` ids in 1..10; drawn first from the seed's stream."""
    rng = np.random.default_rng([settings.seed, 1])
    return {
        n: rng.integers(1, len(SYMBOLS) + 1, size=(settings.heldout_per_length, n))
        for n in range(MIN_LENGTH, settings.length + 1)
    }


def _training_batches(settings: ReversalSettings, heldout: dict[int, np.ndarray]) -> list[np.ndarray]:
    """The batches both models train on: a length per batch, uniform; any held-out sequence drawn is drawn again."""
    rng = np.random.default_rng([settings.seed, 2])
    excluded = {tuple(row) for rows in heldout.values() for row in rows.tolist()}
    batches = []
    for _ in range(settings.steps):
        n = int(rng.integers(MIN_LENGTH, settings.length + 1))
        batch = rng.integers(1, len(SYMBOLS) + 1, size=(settings.batch_size, n))
        for row in range(settings.batch_size):
            while tuple(batch[row].tolist()) in excluded:
                batch[row] = rng.integers(1, len(SYMBOLS) + 1, size=n)
        batches.append(batch)
    return batches


def _previous_tokens(torch, target):
    """The decoder's inputs under teacher forcing: the start token, then the target shifted right."""
    return torch.cat([torch.zeros_like(target[:, :1]), target[:, :-1]], dim=1)


def _evaluate(torch, model, sources: np.ndarray) -> dict[str, Any]:
    """Held-out numbers at one length: teacher-forced loss, greedy token accuracy, greedy weights."""
    functional = torch.nn.functional
    with torch.no_grad():
        source = torch.tensor(sources)
        target = source.flip(1)
        logits, _ = model(source, _previous_tokens(torch, target))
        loss = functional.cross_entropy(logits.reshape(-1, len(SYMBOLS)), (target - 1).reshape(-1))
        predictions, weights = model.greedy(source)
    return {
        "loss": float(loss),
        "accuracy": float((predictions == target).double().mean()),
        "exact": float((predictions == target).all(dim=1).double().mean()),
        "predictions": predictions.numpy(),
        "weights": None if weights is None else weights.double().numpy(),
    }


def mirror_weight(weights: np.ndarray) -> float:
    """Mean attention weight on the mirrored source position: output t reading source n - 1 - t.

    ``weights`` is ``(..., n, n)``: output steps by source positions. Reversal needs exactly
    this anti-diagonal; uniform weights would give ``1 / n``.
    """
    n = weights.shape[-1]
    return float(weights[..., np.arange(n), n - 1 - np.arange(n)].mean())


def _checkpoint(torch, model, longest: np.ndarray, curves: dict[str, list], interval_losses: list[float]) -> None:
    """Record the held-out curves (and for attention the example's weights) at the current step."""
    result = _evaluate(torch, model, longest)
    curves["heldout_loss"].append(result["loss"])
    curves["accuracy"].append(result["accuracy"])
    if model.attend:
        curves["example_weights"].append(result["weights"][0].tolist())
        curves["mirror_weight"].append(mirror_weight(result["weights"]))
    if interval_losses:
        curves["train_loss"].append(float(np.mean(interval_losses)))
        interval_losses.clear()


def _train_one(settings: ReversalSettings, attend: bool, batches: list[np.ndarray], longest: np.ndarray) -> dict[str, Any]:
    """Train one model on ``batches``; its weights and the curves recorded at every checkpoint."""
    torch = import_torch()
    curves: dict[str, list] = {"heldout_loss": [], "accuracy": [], "train_loss": [], "example_weights": [], "mirror_weight": []}
    interval_losses: list[float] = []
    with deterministic(settings.seed):
        model = build_model(settings, attend)
        optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1 - step / settings.steps)
        _checkpoint(torch, model, longest, curves, interval_losses)
        for step, batch in enumerate(batches, start=1):
            source = torch.tensor(batch)
            target = source.flip(1)
            logits, _ = model(source, _previous_tokens(torch, target))
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, len(SYMBOLS)), (target - 1).reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            # Clipped so that a rare large gradient cannot throw a nearly trained model off (seen without it).
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            interval_losses.append(loss.item())
            if step % settings.eval_every == 0:
                _checkpoint(torch, model, longest, curves, interval_losses)
    return {"weights": state_to_lists(model), **curves}


def _train(settings: ReversalSettings) -> dict[str, Any]:
    """Train both models on the same batches from the same initial weights; their weights and curves."""
    heldout = heldout_sequences(settings)
    batches = _training_batches(settings, heldout)
    longest = heldout[settings.length]
    return {
        "checkpoints": list(range(0, settings.steps + 1, settings.eval_every)),
        "attention": _train_one(settings, True, batches, longest),
        "baseline": _train_one(settings, False, batches, longest),
    }


@dataclass(frozen=True, eq=False)
class ReversalRun:
    """A finished run: both models (trained weights loaded) and what was recorded while they trained.

    Attributes
    ----------
    settings
        What the run was trained with.
    attention_model, baseline_model
        The trained networks, in eval mode.
    checkpoints
        Steps at which the curves were recorded, 0 (untrained) first.
    curves
        Per model name (``"attention"``, ``"baseline"``): ``heldout_loss`` and ``accuracy`` at the
        longest length per checkpoint, ``train_loss`` (the mean over the batches since the previous
        checkpoint, one fewer), and for attention ``example_weights``: the first held-out example's
        attention matrix at each checkpoint.
    """

    settings: ReversalSettings
    attention_model: Any
    baseline_model: Any
    checkpoints: tuple[int, ...]
    curves: dict[str, dict[str, Any]]


def _validate(settings: ReversalSettings):
    """A check that a payload read back is a whole run for ``settings``."""
    n_checkpoints = settings.steps // settings.eval_every + 1

    def validate(payload: dict[str, Any]) -> None:
        if payload["checkpoints"] != list(range(0, settings.steps + 1, settings.eval_every)):
            raise ValueError("its checkpoints are not this run's")
        for name, attend in (("attention", True), ("baseline", False)):
            part = payload[name]
            lengths = [len(part["heldout_loss"]), len(part["accuracy"]), len(part["train_loss"]) + 1]
            if lengths != [n_checkpoints] * 3:
                raise ValueError(f"its {name} curves have the wrong length")
            values = np.asarray(part["heldout_loss"] + part["accuracy"] + part["train_loss"], dtype=float)
            if not np.isfinite(values).all():
                raise ValueError(f"its {name} curves are not finite")
            expected = (n_checkpoints, settings.length, settings.length) if attend else (0,)
            if np.asarray(part["example_weights"], dtype=float).shape != expected:
                raise ValueError(f"its {name} attention matrices have the wrong shape")
            if len(part["mirror_weight"]) != (n_checkpoints if attend else 0):
                raise ValueError(f"its {name} alignment curve has the wrong length")
            with deterministic(settings.seed):
                lists_to_state(build_model(settings, attend), part["weights"])

    return validate


def train_reversal(settings: ReversalSettings | None = None, cache_dir: Path | None = None) -> ReversalRun:
    """Train (or read from ``cache_dir``) both reversal models for ``settings``.

    Raises
    ------
    TorchNotInstalled
        Without torch.
    """
    settings = settings or ReversalSettings()
    sources = [Path(__file__), Path(__file__).with_name("learning.py")]
    payload = cached_run("reversal", asdict(settings), sources, cache_dir, lambda: _train(settings), _validate(settings))
    models = {}
    for name, attend in (("attention", True), ("baseline", False)):
        with deterministic(settings.seed):  # building draws initial weights; keep the caller's generator untouched
            model = build_model(settings, attend)
        lists_to_state(model, payload[name]["weights"])
        models[name] = model.eval()
    curves = {name: {key: value for key, value in payload[name].items() if key != "weights"} for name in models}
    return ReversalRun(settings, models["attention"], models["baseline"], tuple(payload["checkpoints"]), curves)


def evaluate_run(run: ReversalRun) -> dict[str, Any]:
    """The trained models on every held-out length: accuracies, and the attention model's alignment."""
    torch = import_torch()
    heldout = heldout_sequences(run.settings)
    measures: dict[str, Any] = {"lengths": sorted(heldout)}
    with deterministic(run.settings.seed):
        for name, model in (("attention", run.attention_model), ("baseline", run.baseline_model)):
            results = [_evaluate(torch, model, heldout[n]) for n in measures["lengths"]]
            measures[name] = {
                "accuracy_by_length": [r["accuracy"] for r in results],
                "exact_by_length": [r["exact"] for r in results],
                "example_prediction": results[-1]["predictions"][0],
            }
            if name == "attention":
                weights = results[-1]["weights"]  # (examples, n, n) at the longest length
                n = weights.shape[-1]
                mirrored = n - 1 - np.arange(n)
                measures[name]["mirror_weight"] = mirror_weight(weights)
                measures[name]["mirror_argmax"] = float((weights.argmax(-1) == mirrored).mean())
                measures[name]["mirror_weight_by_length"] = [mirror_weight(r["weights"]) for r in results]
                measures[name]["example_weights"] = weights[0]
    measures["example_source"] = heldout[run.settings.length][0]
    return measures
