"""Sentiment with learned attention pooling: where the weights sit, what the classifier says, and where weights mislead.

The numbers come from a real training run (:mod:`attention_math.sentiment`, torch, an
optional extra) on short film reviews written for the project (:mod:`attention_math.reviews`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import sentiment
from ..learning import deterministic
from ..reviews import SENTIMENT_WORDS, load_reviews
from ..sentiment import NEGATIONS, SentimentSettings
from .base import Trace

__all__ = ["SentimentAttentionTrace", "sentiment_attention_trace"]


@dataclass(frozen=True, eq=False)
class SentimentAttentionTrace(Trace):
    """A classifier that pools word embeddings with learned weights, read on a few held-out reviews.

    Attributes
    ----------
    seed, epochs, learning_rate, embed_size, heldout_fraction
        The run's settings (see :class:`~attention_math.sentiment.SentimentSettings`).
    n_reviews, n_training, n_heldout
        Reviews shipped (training pool and showcase), trained on, and held out.
    n_heldout_random, n_showcase
        The held-out reviews drawn at random from the pool, and the hand-written showcase reviews
        the scene shows (held out too): together ``n_heldout``.
    vocabulary_size
        Words the classifier has an embedding for.
    curve_epochs
        ``(c,)``: epochs at which the curves were recorded; 0 is before training.
    train_loss, train_accuracy, heldout_accuracy
        ``(c,)``: the curves.
    final_heldout_accuracy
        Held-out accuracy of the trained classifier.
    n_heldout_negated, heldout_accuracy_negated, heldout_accuracy_plain
        Held-out reviews drawn at random (the ``n_heldout_random``, not the hand-written showcase
        the scene shows) with a negation word (not, never, hardly, nothing), and the accuracy on
        those and on the rest of the random draw. Every count below is over that random draw too.
    n_heldout_negated_right, n_heldout_plain, n_heldout_plain_right
        The counts behind those two accuracies: right among the negated, random held-out reviews
        without a negation, and right among those (``n_heldout_negated + n_heldout_plain`` is
        ``n_heldout_random``).
    final_train_percent, final_heldout_percent, heldout_percent_negated, heldout_percent_plain
        The same shares as percentages (100 times the curves' last points, over all ``n_heldout``,
        and the two accuracies above), as the scene shows and says them: "89%" on screen is
        "eighty-nine percent" aloud.
    negation_words, negation_alone, n_heldout_with_negation
        The negation words that occur in the random held-out reviews, most frequent first (ties
        alphabetical); each read alone as a one-word review, P(positive) (its own lean); and how
        many random held-out reviews hold each.
    n_negation_positive, n_negation_said_positive
        ``(len(negation_words),)``: of the random held-out reviews holding each negation word, those
        written as positive and those the classifier calls positive. Why accuracy with a negation
        falls below a coin flip's: the verdict follows the word's lean while most reviews with a
        word that leans positive are negative, and the other way round.
    n_negation_against_lean
        ``(len(negation_words),)``: of those reviews, the ones written on the other side from the
        word's own lean (positive where it reads P < 0.5 alone, negative where it reads P > 0.5).
    n_train_with_negation, n_train_negation_positive
        Per negation word, how many training reviews hold it and how many of those are positive: roughly what the
        word reads alone, so what these held-out reviews could be expected to do is near a coin flip.
    n_heldout_negated_against
        Random held-out reviews with a negation written on the other side from what every negation
        word they hold reads alone: why accuracy with a negation falls below 50 %.
    n_heldout_negated_positive, n_heldout_negated_said_positive
        Random held-out reviews with a negation that are written as positive, and that the
        classifier calls positive.
    n_heldout_negation_first
        Random held-out reviews with a negation whose most weighted word is a negation word: their
        verdict is mostly that word's own lean, whatever word it negates.
    n_heldout_negation_first_follows
        Of those, the reviews whose verdict is on the same side of 0.5 as the top negation word's
        own lean (its P read alone): how often that lean sets the verdict.
    n_heldout_plain_top_sentiment
        Of the random held-out reviews without a negation, those whose most weighted word is a
        sentiment word (:data:`attention_math.reviews.SENTIMENT_WORDS`, a list written by hand, not
        learned): how often the weight lands on the words that carry the review.
    n_heldout_with_top_word, n_heldout_top_word_first
        Random held-out reviews that contain the misleading review's top-weighted word, and those
        of them where that word gets the most weight (a word's score depends on the word alone);
        0 when there is no misleading review.
    sentences
        The reviews a scene shows: your own sentence first, when the render was made with one, then the showcase reviews
        (never trained on), then the misleading case when it is not already among them. In
        ``trace.json`` each is padded with empty words to the longest, as ``weights`` is with zeros,
        so every field is a rectangular array.
    labels
        Each shown review's true label, 1 positive and 0 negative; -1 for your own sentence (when the render was made with one: its label is not known).
    sentence_lengths
        ``(k,)``: words per shown review.
    weights, scores
        ``(k, max_words)``: the learned attention weights (each row sums to 1 over its words)
        and the scores they are the softmax of; zero past a review's length.
    initial_weights
        ``(k, max_words)``: the same reviews' weights before training (epoch 0: the classifier as
        the run's seed drew it): what training changed.
    word_alone
        ``(k, max_words)``: each word read alone as a one-word review, P(positive): what the
        run learned the word means by itself; zero past a review's length.
    probabilities
        ``(k,)``: P(positive) for each shown review.
    predictions
        ``(k,)``: 1 positive, 0 negative (``probabilities > 0.5``).
    focus
        Index in ``sentences`` of the review a scene starts with (your own sentence, when the render was made with one).
    misleading
        Index in ``sentences`` of a held-out review where attention alone misleads: the
        classifier gets it wrong by going with the word it weighted most, whose lone reading
        leans the wrong way (see :func:`attention_math.sentiment.misleading_cases`), one among
        the showcase reviews when the run has one there; -1 when the run has none.
    misleading_top
        Index of that review's top-weighted word; -1 when there is none.
    contrast
        Index in ``sentences`` of a held-out review with the same top-weighted word and the
        opposite label: weights alike, meanings opposite; -1 when there is none.
    contrast_top
        Index of the contrast's top-weighted word; -1 when there is none.
    n_train_negated_sentiment, train_loss_alone
        The training reviews where a negation word comes right before a sentiment word ("not
        great"), and their mean training loss (binary cross-entropy) read as the negation word
        alone, then as the sentiment word alone: why training puts the weight on the negation word.
    n_misleading
        Held-out reviews where attention misleads like that.
    n_heldout_wrong
        Held-out reviews the classifier gets wrong, for whatever reason.
    source
        Where the numbers come from, said on screen.
    """

    seed: int
    epochs: int
    learning_rate: float
    embed_size: int
    heldout_fraction: float
    n_reviews: int
    n_training: int
    n_heldout: int
    n_heldout_random: int
    n_showcase: int
    vocabulary_size: int
    curve_epochs: np.ndarray
    train_loss: np.ndarray
    train_accuracy: np.ndarray
    heldout_accuracy: np.ndarray
    final_heldout_accuracy: float
    n_heldout_negated: int
    heldout_accuracy_negated: float
    heldout_accuracy_plain: float
    n_heldout_negated_right: int
    n_heldout_plain: int
    n_heldout_plain_right: int
    final_train_percent: float
    final_heldout_percent: float
    heldout_percent_negated: float
    heldout_percent_plain: float
    negation_words: tuple[str, ...]
    negation_alone: np.ndarray
    n_heldout_with_negation: np.ndarray
    n_negation_positive: np.ndarray
    n_negation_said_positive: np.ndarray
    n_negation_against_lean: np.ndarray
    n_heldout_negated_against: int
    n_train_with_negation: np.ndarray
    n_train_negation_positive: np.ndarray
    n_heldout_negated_positive: int
    n_heldout_negated_said_positive: int
    n_heldout_negation_first: int
    n_heldout_negation_first_follows: int
    n_heldout_plain_top_sentiment: int
    n_heldout_with_top_word: int
    n_heldout_top_word_first: int
    sentences: tuple[tuple[str, ...], ...]
    labels: tuple[int, ...]
    sentence_lengths: np.ndarray
    weights: np.ndarray
    initial_weights: np.ndarray
    scores: np.ndarray
    word_alone: np.ndarray
    probabilities: np.ndarray
    predictions: np.ndarray
    focus: int
    misleading: int
    misleading_top: int
    contrast: int
    contrast_top: int
    n_train_negated_sentiment: int
    train_loss_alone: np.ndarray
    n_misleading: int
    n_heldout_wrong: int
    source: str

    def to_dict(self) -> dict:
        """All fields, JSON-ready, the reviews padded with empty words to one length (see ``sentences``)."""
        data = super().to_dict()
        width = self.weights.shape[1]
        data["sentences"] = [list(words) + [""] * (width - len(words)) for words in self.sentences]
        return data

    def words_with_weights(self, index: int) -> list[tuple[str, float]]:
        """Review ``index``'s words with their weights, in order."""
        return list(zip(self.sentences[index], self.weights[index, : self.sentence_lengths[index]].tolist()))


def _show(shown: list[tuple[tuple[str, ...], int]], review: tuple[tuple[str, ...], int]) -> int:
    """The index of ``review`` among the shown reviews, appending it when it is not there yet."""
    if review not in shown:
        shown.append(review)
    return shown.index(review)


def _padded(rows: list[np.ndarray], width: int) -> np.ndarray:
    table = np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table


def _losses_alone(training, alone: dict[str, float]) -> dict:
    """The training reviews with a negated sentiment word, and their mean loss read by each of the two words alone."""
    pairs = []
    for words, label in training:
        k = next((k for k in range(len(words) - 1) if words[k] in NEGATIONS and words[k + 1] in SENTIMENT_WORDS), None)
        if k is not None:
            pairs.append((label, alone[words[k]], alone[words[k + 1]]))
    if not pairs:
        return {"n_train_negated_sentiment": 0, "train_loss_alone": np.zeros(2)}
    labels = np.array([label for label, _, _ in pairs], dtype=float)[:, None]
    readings = np.array([[negation, word] for _, negation, word in pairs], dtype=float)
    right = np.clip(np.where(labels == 1, readings, 1 - readings), 1e-12, 1.0)  # finite where a reading rounds to 0
    return {"n_train_negated_sentiment": len(pairs), "train_loss_alone": -np.log(right).mean(axis=0)}


def sentiment_attention_trace(
    settings: SentimentSettings | None = None, sentence: str | None = None, cache_dir: Path | None = None
) -> SentimentAttentionTrace:
    """Train (or read from ``cache_dir``) the classifier and read it on the showcase reviews and ``sentence``.

    Raises
    ------
    attention_math.sentiment.UnknownWord
        When ``sentence`` has a word outside the vocabulary (checked before any training).
    attention_math.learning.TorchNotInstalled
        Without torch.
    """
    settings = settings or SentimentSettings()
    user_words = sentiment.check_sentence(sentence) if sentence is not None else None
    run = sentiment.train_sentiment(settings, cache_dir)
    reviews, showcase = load_reviews()
    training, heldout = sentiment.split(settings)

    heldout_read = sentiment.read_sentences(run, [words for words, _ in heldout])
    right_all = np.array([(r["probability"] > 0.5) == bool(label) for r, (_, label) in zip(heldout_read, heldout)])
    # The counts the scene gives are over the random draw only: the showcase reviews were written by hand to be
    # shown (half of them negated), and counting them would count a choice (review 17).
    n_random = len(heldout) - len(showcase)
    drawn, drawn_read = heldout[:n_random], heldout_read[:n_random]
    right = right_all[:n_random]
    negated = np.array([any(word in NEGATIONS for word in words) for words, _ in drawn])

    shown: list[tuple[tuple[str, ...], int]] = ([(user_words, -1)] if user_words else []) + list(showcase)
    cases = sentiment.misleading_cases(run, heldout)
    misleading = misleading_top = contrast = contrast_top = -1
    top_word = None
    if cases:
        # Of the run's cases, one among the showcase reviews (on screen already) when there is one.
        case = next((case for case in cases if heldout[case["index"]] in showcase), cases[0])
        misleading, misleading_top = _show(shown, heldout[case["index"]]), case["top"]
        top_word = heldout[case["index"]][0][case["top"]]
        if case["contrasts"]:
            other = next((other for other in case["contrasts"] if heldout[other] in showcase), case["contrasts"][0])
            contrast = _show(shown, heldout[other])
            contrast_top = int(np.argmax(heldout_read[other]["weights"]))

    said_positive = np.array([r["probability"] > 0.5 for r in drawn_read])
    positive = np.array([label == 1 for _, label in drawn])
    tops = [words[int(np.argmax(r["weights"]))] for (words, _), r in zip(drawn, drawn_read)]
    with_top = [k for k, (words, _) in enumerate(drawn) if top_word is not None and top_word in words]
    top_first = [k for k in with_top if tops[k] == top_word]

    read = sentiment.read_sentences(run, [words for words, _ in shown])
    with deterministic(settings.seed):  # the classifier as training started it: the seed's first draw
        untrained = sentiment.build_model(settings).eval()
    before = sentiment.read_sentences(sentiment.SentimentRun(settings, untrained, {}), [words for words, _ in shown])
    alone = sentiment.word_probabilities(run)
    # The negation words the held-out reviews use, most frequent first (ties alphabetical).
    negation_counts = {word: sum(word in words for words, _ in drawn) for word in sorted(NEGATIONS)}
    negation_words = sorted((word for word, n in negation_counts.items() if n), key=lambda word: -negation_counts[word])
    holding = [[k for k, (words, _) in enumerate(drawn) if word in words] for word in negation_words]
    width = max(len(words) for words, _ in shown)
    probabilities = np.array([r["probability"] for r in read])
    return SentimentAttentionTrace(
        seed=settings.seed,
        epochs=settings.epochs,
        learning_rate=settings.learning_rate,
        embed_size=settings.embed_size,
        heldout_fraction=settings.heldout_fraction,
        n_reviews=len(reviews) + len(showcase),
        n_training=len(training),
        n_heldout=len(heldout),
        n_heldout_random=n_random,
        n_showcase=len(showcase),
        vocabulary_size=len(sentiment.vocabulary()),
        curve_epochs=np.asarray(run.curves["epochs"], dtype=int),
        train_loss=np.asarray(run.curves["train_loss"], dtype=float),
        train_accuracy=np.asarray(run.curves["train_accuracy"], dtype=float),
        heldout_accuracy=np.asarray(run.curves["heldout_accuracy"], dtype=float),
        final_heldout_accuracy=float(right_all.mean()),
        n_heldout_negated=int(negated.sum()),
        heldout_accuracy_negated=float(right[negated].mean()) if negated.any() else 0.0,
        heldout_accuracy_plain=float(right[~negated].mean()) if (~negated).any() else 0.0,
        n_heldout_negated_right=int(right[negated].sum()),
        n_heldout_plain=int((~negated).sum()),
        n_heldout_plain_right=int(right[~negated].sum()),
        final_train_percent=100 * float(run.curves["train_accuracy"][-1]),
        final_heldout_percent=100 * float(run.curves["heldout_accuracy"][-1]),
        heldout_percent_negated=100 * float(right[negated].mean()) if negated.any() else 0.0,
        heldout_percent_plain=100 * float(right[~negated].mean()) if (~negated).any() else 0.0,
        negation_words=tuple(negation_words),
        negation_alone=np.array([alone[word] for word in negation_words], dtype=float),
        n_heldout_with_negation=np.array([negation_counts[word] for word in negation_words], dtype=int),
        n_negation_positive=np.array([int(positive[ks].sum()) for ks in holding], dtype=int),
        n_negation_said_positive=np.array([int(said_positive[ks].sum()) for ks in holding], dtype=int),
        n_negation_against_lean=np.array(
            [int((positive[ks] != (alone[word] > 0.5)).sum()) for word, ks in zip(negation_words, holding)], dtype=int
        ),
        n_heldout_negated_against=sum(
            1
            for k, (words, _) in enumerate(drawn)
            if negated[k] and all(positive[k] != (alone[word] > 0.5) for word in NEGATIONS.intersection(words))
        ),
        n_train_with_negation=np.array([sum(word in words for words, _ in training) for word in negation_words], dtype=int),
        n_train_negation_positive=np.array(
            [sum(word in words and label == 1 for words, label in training) for word in negation_words], dtype=int
        ),
        n_heldout_negated_positive=int(positive[negated].sum()),
        n_heldout_negated_said_positive=int(said_positive[negated].sum()),
        n_heldout_negation_first=sum(1 for k, top in enumerate(tops) if negated[k] and top in NEGATIONS),
        n_heldout_negation_first_follows=sum(
            1 for k, top in enumerate(tops) if negated[k] and top in NEGATIONS and said_positive[k] == (alone[top] > 0.5)
        ),
        n_heldout_plain_top_sentiment=sum(1 for k, top in enumerate(tops) if not negated[k] and top in SENTIMENT_WORDS),
        n_heldout_with_top_word=len(with_top),
        n_heldout_top_word_first=len(top_first),
        sentences=tuple(words for words, _ in shown),
        labels=tuple(label for _, label in shown),
        sentence_lengths=np.array([len(words) for words, _ in shown], dtype=int),
        weights=_padded([r["weights"] for r in read], width),
        initial_weights=_padded([r["weights"] for r in before], width),
        scores=_padded([r["scores"] for r in read], width),
        word_alone=_padded([np.array([alone[word] for word in words]) for words, _ in shown], width),
        probabilities=probabilities,
        predictions=(probabilities > 0.5).astype(int),
        focus=0,
        misleading=misleading,
        misleading_top=misleading_top,
        contrast=contrast,
        contrast_top=contrast_top,
        **_losses_alone(training, alone),
        n_misleading=len(cases),
        n_heldout_wrong=int((~right_all).sum()),
        source=(
            f"Trained here with PyTorch on {len(training)} film reviews written for this video "
            f"({len(heldout)} more held out), one training run"
        ),
    )
