"""A sentiment classifier that pools a sentence's word embeddings with learned attention weights.

Each word has an embedding ``e_i``. A score is learned for it, the same additive form as
the reversal model's attention but with nothing to compare against but the word itself,

    score_i = v · tanh(W e_i + b),    weights = softmax(scores),    pooled = Σ_i weights_i e_i,

and the probability that the review is positive is ``sigmoid(u · pooled + c)``. The
weights say which words the pooled vector is made of; they do not say what those words
mean together: "not" cannot turn "bad" around by weighting, only by adding its own
embedding to the mix. :func:`misleading_cases` looks in the run for where that shows.

Trained on :mod:`.reviews` (written for the project), deterministically (see
:mod:`.learning`) and cached by its settings.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .learning import cached_run, deterministic, import_torch, lists_to_state, state_to_lists
from .reviews import load_reviews, words_of

__all__ = [
    "NEGATIONS",
    "SentimentSettings",
    "SentimentRun",
    "UnknownWord",
    "vocabulary",
    "check_sentence",
    "train_sentiment",
    "read_sentences",
    "misleading_cases",
    "word_probabilities",
    "split",
    "build_model",
]


NEGATIONS = frozenset({"not", "never", "hardly", "nothing"})
"""The reviews' negation words: the held-out accuracy is reported with and without them."""


class UnknownWord(ValueError):
    """A word of the sentence is not in the classifier's vocabulary (it has no embedding)."""

    def __init__(self, word: str):
        super().__init__(
            f"the word {word!r} is not in the classifier's vocabulary of short film reviews; use words from its reviews"
        )
        self.word = word


@dataclass(frozen=True)
class SentimentSettings:
    """Everything one sentiment run depends on (the sentence a scene shows is not: it is read, not trained on).

    Attributes
    ----------
    seed
        Seeds the weights (torch) and the held-out split (``numpy.random.default_rng``).
    epochs
        Passes over the training reviews, each one full batch.
    learning_rate
        Adam's step size.
    embed_size
        Width of a word's embedding (and of the attention's ``tanh`` layer).
    heldout_fraction
        Share of the reviews held out at random (the showcase reviews are held out as well).
    eval_every
        Epochs between points of the recorded curves.
    """

    seed: int = 0
    epochs: int = 200
    learning_rate: float = 0.01
    embed_size: int = 16
    heldout_fraction: float = 0.2
    eval_every: int = 10

    def __post_init__(self):
        if self.seed < 0:
            raise ValueError(f"seed must be 0 or more (got {self.seed})")
        if self.epochs < 1 or self.eval_every < 1 or self.epochs % self.eval_every:
            raise ValueError(f"epochs ({self.epochs}) must be a positive multiple of eval_every ({self.eval_every})")


@functools.cache
def vocabulary() -> tuple[str, ...]:
    """Every word of the shipped reviews (training and showcase), sorted; index + 1 is its id (0 pads)."""
    reviews, showcase = load_reviews()
    return tuple(sorted({word for words, _ in reviews + showcase for word in words}))


def check_sentence(sentence: str) -> tuple[str, ...]:
    """The sentence's words, every one in the vocabulary.

    Raises
    ------
    UnknownWord
        Naming the first word the classifier has no embedding for.
    ValueError
        When the sentence has no words.
    """
    words = words_of(sentence)
    if not words:
        raise ValueError("the sentence has no words")
    known = set(vocabulary())
    for word in words:
        if word not in known:
            raise UnknownWord(word)
    return words


def build_model(settings: SentimentSettings):
    """The classifier: embeddings, an additive score per word, softmax pooling, a logistic read-out."""
    torch = import_torch()
    nn = torch.nn

    class AttentionPooling(nn.Module):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(len(vocabulary()) + 1, settings.embed_size, padding_idx=0)
            self.score_hidden = nn.Linear(settings.embed_size, settings.embed_size)
            self.score = nn.Linear(settings.embed_size, 1, bias=False)
            self.classify = nn.Linear(settings.embed_size, 1)

        def forward(self, ids):
            """``ids`` (batch, n), 0 for padding → P(positive) logits (batch,), weights (batch, n)."""
            embedded = self.embedding(ids)
            scores = self.score(torch.tanh(self.score_hidden(embedded))).squeeze(-1)
            scores = scores.masked_fill(ids == 0, float("-inf"))
            weights = torch.softmax(scores, dim=-1)
            pooled = torch.bmm(weights.unsqueeze(1), embedded).squeeze(1)
            return self.classify(pooled).squeeze(-1), weights

    return AttentionPooling()


def _ids(sentences: Sequence[Sequence[str]]) -> np.ndarray:
    """Word ids, padded with 0 to the longest sentence."""
    index = {word: i + 1 for i, word in enumerate(vocabulary())}
    ids = np.zeros((len(sentences), max(len(words) for words in sentences)), dtype=np.int64)
    for row, words in enumerate(sentences):
        ids[row, : len(words)] = [index[word] for word in words]
    return ids


def split(settings: SentimentSettings) -> tuple[list[tuple[tuple[str, ...], int]], list[tuple[tuple[str, ...], int]]]:
    """Training and held-out reviews: a random share held out (from the seed), then the showcase held out too."""
    reviews, showcase = load_reviews()
    order = np.random.default_rng([settings.seed, 3]).permutation(len(reviews))
    n_heldout = round(len(reviews) * settings.heldout_fraction)
    heldout = [reviews[i] for i in sorted(order[:n_heldout])]
    training = [reviews[i] for i in sorted(order[n_heldout:])]
    return training, heldout + list(showcase)


def _accuracy(torch, model, ids: np.ndarray, labels: np.ndarray) -> float:
    with torch.no_grad():
        logits, _ = model(torch.tensor(ids))
    return float(((logits > 0).numpy() == labels.astype(bool)).mean())


def _train(settings: SentimentSettings) -> dict[str, Any]:
    """Full-batch training on the training reviews; the weights and the curves."""
    torch = import_torch()
    training, heldout = split(settings)
    train_ids, train_labels = _ids([w for w, _ in training]), np.array([y for _, y in training])
    held_ids, held_labels = _ids([w for w, _ in heldout]), np.array([y for _, y in heldout])
    curves: dict[str, list] = {"epochs": [], "train_loss": [], "train_accuracy": [], "heldout_accuracy": []}
    with deterministic(settings.seed):
        model = build_model(settings)
        optimizer = torch.optim.Adam(model.parameters(), lr=settings.learning_rate)
        ids, targets = torch.tensor(train_ids), torch.tensor(train_labels, dtype=torch.float32)
        for epoch in range(settings.epochs + 1):
            logits, _ = model(ids)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, targets)
            if epoch % settings.eval_every == 0:
                curves["epochs"].append(epoch)
                curves["train_loss"].append(loss.item())
                curves["train_accuracy"].append(_accuracy(torch, model, train_ids, train_labels))
                curves["heldout_accuracy"].append(_accuracy(torch, model, held_ids, held_labels))
            if epoch == settings.epochs:
                break
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return {"weights": state_to_lists(model), **curves}


def _validate(settings: SentimentSettings):
    def validate(payload: dict[str, Any]) -> None:
        expected = list(range(0, settings.epochs + 1, settings.eval_every))
        if payload["epochs"] != expected:
            raise ValueError("its curves are not this run's")
        for name in ("train_loss", "train_accuracy", "heldout_accuracy"):
            values = np.asarray(payload[name], dtype=float)
            if values.shape != (len(expected),) or not np.isfinite(values).all():
                raise ValueError(f"its {name} curve is damaged")
        with deterministic(settings.seed):
            lists_to_state(build_model(settings), payload["weights"])

    return validate


@dataclass(frozen=True, eq=False)
class SentimentRun:
    """A finished run: the trained classifier (eval mode), its settings and its curves."""

    settings: SentimentSettings
    model: Any
    curves: dict[str, list]


def train_sentiment(settings: SentimentSettings | None = None, cache_dir: Path | None = None) -> SentimentRun:
    """Train (or read from ``cache_dir``) the classifier for ``settings``.

    Raises
    ------
    TorchNotInstalled
        Without torch.
    """
    settings = settings or SentimentSettings()
    sources = [Path(__file__), Path(__file__).with_name("reviews.py"), Path(__file__).with_name("learning.py")]
    payload = cached_run("sentiment", asdict(settings), sources, cache_dir, lambda: _train(settings), _validate(settings))
    with deterministic(settings.seed):  # building draws initial weights; keep the caller's generator untouched
        model = build_model(settings)
    lists_to_state(model, payload["weights"])
    curves = {key: value for key, value in payload.items() if key != "weights"}
    return SentimentRun(settings, model.eval(), curves)


def read_sentences(run: SentimentRun, sentences: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """The trained classifier on each sentence (words in the vocabulary): weights, scores, P(positive)."""
    torch = import_torch()
    ids = _ids(sentences)
    with torch.no_grad():
        logits, weights = run.model(torch.tensor(ids))
        embedded = run.model.embedding(torch.tensor(ids))
        scores = run.model.score(torch.tanh(run.model.score_hidden(embedded))).squeeze(-1)
    results = []
    for row, words in enumerate(sentences):
        n = len(words)
        logit = float(logits[row])
        results.append(
            {
                "words": tuple(words),
                "scores": scores[row, :n].double().numpy(),
                "weights": weights[row, :n].double().numpy(),
                "logit": logit,
                "probability": float(torch.sigmoid(logits[row].double())),
            }
        )
    return results


def word_probabilities(run: SentimentRun) -> dict[str, float]:
    """Each word alone, read as a one-word review: P(positive). What the run learned a word means by itself."""
    words = vocabulary()
    return {words[i]: result["probability"] for i, result in enumerate(read_sentences(run, [(w,) for w in words]))}


def misleading_cases(run: SentimentRun, reviews: Sequence[tuple[tuple[str, ...], int]]) -> list[dict[str, Any]]:
    """Reviews the classifier gets wrong by going with the word it weighted most.

    Found in the run, not assumed: a review qualifies when it is misclassified and its
    top-weighted word, read alone (see :func:`word_probabilities`), leans the way of the
    wrong prediction, as when all the weight sits on "not" and "not" alone reads positive.
    Each case carries ``contrasts``: the indices in ``reviews`` of reviews with the same
    top-weighted word and the opposite label (the weights look alike, the meanings do not),
    the most weighted first. Sorted by the top word's weight, then by how confidently wrong, largest first.
    """
    alone = word_probabilities(run)
    read = read_sentences(run, [words for words, _ in reviews])
    tops = [int(np.argmax(result["weights"])) for result in read]
    cases = []
    for index, ((words, label), result, top) in enumerate(zip(reviews, read, tops)):
        predicted = int(result["probability"] > 0.5)
        if predicted != label and (alone[words[top]] > 0.5) == bool(predicted):
            contrasts = [
                other
                for other, ((other_words, other_label), other_top) in enumerate(zip(reviews, tops))
                if other_label != label and other_words[other_top] == words[top]
            ]
            contrasts.sort(key=lambda other: -float(read[other]["weights"][tops[other]]))
            cases.append(
                {
                    **result,
                    "index": index,
                    "label": label,
                    "top": top,
                    "top_word_alone": alone[words[top]],
                    "contrasts": contrasts,
                }
            )
    cases.sort(key=lambda case: (-float(case["weights"][case["top"]]), -abs(case["probability"] - case["label"])))
    return cases
