"""The two models trained with torch: their attention against numpy, determinism, the cache, and what the runs show.

Small runs everywhere but one: the default reversal run, trained once per test run in the
folder the scenes' tests share (about 80 s of CPU) and read by the tests of what the scenes will claim.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch (the learning extra) is not installed")

from attention_math import learning, reversal, sentiment  # noqa: E402
from attention_math.learning import CacheWarning, TorchNotInstalled  # noqa: E402
from attention_math.reversal import OptionOutOfRange, ReversalSettings  # noqa: E402
from attention_math.sentiment import SentimentSettings, UnknownWord  # noqa: E402
from attention_math.traces.learning_to_attend import learning_to_attend_trace  # noqa: E402
from attention_math.traces.sentiment_attention import sentiment_attention_trace  # noqa: E402
from scenes.training import trained  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SMALL_REVERSAL = ReversalSettings(length=5, steps=40, eval_every=20, heldout_per_length=20)
SMALL_SENTIMENT = SentimentSettings(epochs=20, eval_every=10)


@pytest.fixture(scope="module")
def default_reversal(training_cache):
    """The reversal run at its default settings, trained once per test run (shared with the scene's tests)."""
    return trained("reversal", training_cache, lambda folder: learning_to_attend_trace(ReversalSettings(), folder))


@pytest.fixture(scope="module")
def default_sentiment(training_cache):
    """The sentiment run at its default settings (a few seconds), with the default showcase, shared likewise."""
    return trained("sentiment", training_cache, lambda folder: sentiment_attention_trace(SentimentSettings(), cache_dir=folder))


# --- the attention layers against a hand computation ---------------------------------------------


def test_additive_attention_matches_a_numpy_hand_computation():
    with learning.deterministic(3):
        model = reversal.build_model(SMALL_REVERSAL, attend=True)
        state = torch.randn(2, SMALL_REVERSAL.hidden_size)
        encoder_outputs = torch.randn(2, 6, SMALL_REVERSAL.hidden_size)
    with torch.no_grad():
        weights, context = model.attention(state, encoder_outputs)

    def array(parameter):
        return parameter.detach().numpy().astype(float)

    layer = model.attention
    w_s, w_h, b, v = array(layer.w_s.weight), array(layer.w_h.weight), array(layer.w_h.bias), array(layer.v.weight)[0]
    for row in range(2):
        s, h = state[row].numpy().astype(float), encoder_outputs[row].numpy().astype(float)
        scores = np.array([v @ np.tanh(w_s @ s + w_h @ h[j] + b) for j in range(len(h))])
        expected = np.exp(scores) / np.exp(scores).sum()
        np.testing.assert_allclose(weights[row].numpy(), expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(context[row].numpy(), sum(expected[j] * h[j] for j in range(len(h))), rtol=1e-5, atol=1e-6)


def test_attention_pooling_matches_a_numpy_hand_computation():
    run = sentiment.train_sentiment(SMALL_SENTIMENT, None)
    words = ("the", "film", "was", "not", "good")
    [result] = sentiment.read_sentences(run, [words])

    index = {word: i + 1 for i, word in enumerate(sentiment.vocabulary())}
    m = run.model
    e = m.embedding.weight.detach().numpy().astype(float)[[index[w] for w in words]]
    w, b = m.score_hidden.weight.detach().numpy().astype(float), m.score_hidden.bias.detach().numpy().astype(float)
    v = m.score.weight.detach().numpy()[0].astype(float)
    u, c = m.classify.weight.detach().numpy()[0].astype(float), float(m.classify.bias.detach()[0])
    scores = np.array([v @ np.tanh(w @ e[i] + b) for i in range(len(words))])
    weights = np.exp(scores) / np.exp(scores).sum()
    pooled = sum(weights[i] * e[i] for i in range(len(words)))
    np.testing.assert_allclose(result["weights"], weights, rtol=1e-5, atol=1e-6)
    assert result["probability"] == pytest.approx(1 / (1 + np.exp(-(u @ pooled + c))), abs=1e-6)


# --- determinism ------------------------------------------------------------------------------


_CHILD = textwrap.dedent(
    """
    import hashlib, sys
    from attention_math.reversal import ReversalSettings
    from attention_math.sentiment import SentimentSettings
    from attention_math.traces.learning_to_attend import learning_to_attend_trace
    from attention_math.traces.sentiment_attention import sentiment_attention_trace
    seed = int(sys.argv[1])
    a = learning_to_attend_trace(ReversalSettings(seed=seed, length=5, steps=40, eval_every=20, heldout_per_length=20))
    b = sentiment_attention_trace(SentimentSettings(seed=seed, epochs=20, eval_every=10), sentence="not bad at all")
    print(hashlib.sha256(a.to_json().encode()).hexdigest(), hashlib.sha256(b.to_json().encode()).hexdigest())
    """
)


def _child_digests(seeds: list[int]) -> list[list[str]]:
    """Each seed's trace digests, every one computed in a process of its own (run side by side)."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(seed)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for seed in seeds
    ]
    digests = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        digests.append(out.split())
    return digests


def test_the_same_seed_gives_byte_identical_traces_in_two_processes():
    first, second, other_seed = _child_digests([4, 4, 5])
    assert first == second
    assert first[0] != other_seed[0] and first[1] != other_seed[1]


def test_training_leaves_the_callers_torch_state_as_it_was():
    threads = torch.get_num_threads()
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    sentiment.train_sentiment(SMALL_SENTIMENT, None)
    assert torch.equal(torch.rand(3), expected)
    assert torch.get_num_threads() == threads
    assert torch.are_deterministic_algorithms_enabled() == was_deterministic


# --- the cache ---------------------------------------------------------------------------------


@pytest.fixture
def counted_training(monkeypatch):
    """Counts the reversal trainings that actually run."""
    calls = []
    train = reversal._train

    def counting(settings):
        calls.append(settings)
        return train(settings)

    monkeypatch.setattr(reversal, "_train", counting)
    return calls


def test_a_second_run_reads_the_cache_and_does_not_train(tmp_path, counted_training):
    first = learning_to_attend_trace(SMALL_REVERSAL, tmp_path)
    second = learning_to_attend_trace(SMALL_REVERSAL, tmp_path)
    assert len(counted_training) == 1
    assert second.to_json() == first.to_json()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # written to a temporary name, then renamed

    learning_to_attend_trace(
        ReversalSettings(
            seed=1, **{k: getattr(SMALL_REVERSAL, k) for k in ("length", "steps", "eval_every", "heldout_per_length")}
        ),
        tmp_path,
    )
    assert len(counted_training) == 2  # other settings: a miss
    assert len(list(tmp_path.glob("reversal-*.json"))) == 2


def test_the_cached_run_equals_the_uncached_one(tmp_path):
    assert (
        learning_to_attend_trace(SMALL_REVERSAL, tmp_path).to_json() == learning_to_attend_trace(SMALL_REVERSAL, None).to_json()
    )


@pytest.mark.parametrize("damage", ["truncated", "weight changed", "curve shortened"])
def test_a_damaged_entry_is_trained_again_with_a_warning(tmp_path, counted_training, damage):
    clean = learning_to_attend_trace(SMALL_REVERSAL, tmp_path).to_json()
    [entry] = tmp_path.glob("reversal-*.json")
    text = entry.read_text()
    if damage == "truncated":
        entry.write_text(text[: len(text) // 2])
    else:
        data = json.loads(text)
        if damage == "weight changed":  # the checksum no longer matches
            data["payload"]["attention"]["weights"]["output.bias"][0] += 1.0
        else:  # the checksum recomputed, so only the check of the contents can catch it
            data["payload"]["baseline"]["accuracy"].pop()
            data["sha256"] = learning._payload_digest(data["payload"])
        entry.write_text(json.dumps(data))

    with pytest.warns(CacheWarning, match="training again"):
        again = learning_to_attend_trace(SMALL_REVERSAL, tmp_path).to_json()
    assert len(counted_training) == 2
    assert again == clean
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        learning_to_attend_trace(SMALL_REVERSAL, tmp_path)  # the entry written again is sound
    assert len(counted_training) == 2


def test_changing_the_training_code_is_a_miss(tmp_path):
    code = tmp_path / "code.py"
    code.write_text("a = 1\n")
    key = learning.settings_key("reversal", {"seed": 0}, [code])
    code.write_text("a = 2\n")
    assert learning.settings_key("reversal", {"seed": 0}, [code]) != key


# --- options and errors --------------------------------------------------------------------------


def test_an_unknown_word_is_named_before_any_training(monkeypatch):
    monkeypatch.setattr(sentiment, "train_sentiment", lambda *a, **k: pytest.fail("trained for a sentence it cannot read"))
    with pytest.raises(UnknownWord) as caught:
        sentiment_attention_trace(sentence="The film was fantastic")
    assert caught.value.word == "fantastic"
    assert "'fantastic'" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_sentence_is_read_in_lower_case_without_punctuation():
    assert sentiment.check_sentence("Not bad, at ALL!") == ("not", "bad", "at", "all")
    with pytest.raises(ValueError):
        sentiment.check_sentence(" ... ")


@pytest.mark.parametrize("length", [reversal.LENGTH_RANGE[0] - 1, reversal.LENGTH_RANGE[1] + 1])
def test_a_length_outside_the_range_is_refused(length):
    with pytest.raises(OptionOutOfRange, match=f"between {reversal.LENGTH_RANGE[0]} and {reversal.LENGTH_RANGE[1]}"):
        ReversalSettings(length=length)


def test_without_torch_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(TorchNotInstalled, match="pip install"):
        learning.import_torch()


def test_the_reviews_are_sound():
    reviews, showcase = sentiment.load_reviews()
    assert 150 <= len(reviews) + len(showcase) <= 400
    labels = [label for _, label in reviews]
    assert 0.4 < np.mean(labels) < 0.6
    assert sum(any(w in sentiment.NEGATIONS for w in words) for words, _ in reviews) >= 30
    training, heldout = sentiment.split(SentimentSettings())
    assert not {words for words, _ in training} & {words for words, _ in heldout}
    assert set(showcase) <= set(heldout)


# --- what the default reversal run shows ----------------------------------------------------------


def test_attention_beats_the_bottleneck_at_the_default_length(default_reversal):
    trace = default_reversal
    assert trace.final_attention_accuracy > trace.final_baseline_accuracy + 0.1
    assert trace.attention_accuracy_by_length[-1] == trace.final_attention_accuracy
    assert not trace.baseline_keeps_up[-1]
    # The bottleneck, measured: without attention, accuracy falls as sequences grow.
    assert trace.baseline_accuracy_by_length[-1] < trace.baseline_accuracy_by_length[0]


def test_the_learned_alignment_is_the_mirror(default_reversal):
    trace = default_reversal
    n = trace.length
    final = trace.final_weights
    np.testing.assert_allclose(final.sum(axis=1), 1.0, rtol=1e-6)  # float32 softmax rows
    mirrored = final[np.arange(n), n - 1 - np.arange(n)].mean()
    assert trace.mirror_weight_curve[-1] == pytest.approx(trace.mirror_weight)
    assert trace.mirror_weight > 0.5  # flat attention would give uniform_weight, 0.1 at length 10
    assert mirrored > 0.5
    assert trace.mirror_argmax > 0.8


def test_the_alignment_starts_flat(default_reversal):
    first = default_reversal.snapshots[0]
    assert np.abs(first - default_reversal.uniform_weight).max() < 0.1
    assert default_reversal.mirror_weight_curve[0] < 2 * default_reversal.uniform_weight


def test_the_trace_records_both_curves_and_the_example(default_reversal):
    trace = default_reversal
    c = len(trace.checkpoints)
    assert trace.attention_accuracy.shape == trace.baseline_accuracy.shape == (c,)
    assert trace.attention_train_loss.shape == (c - 1,)
    assert trace.snapshots.shape == (c, trace.length, trace.length)
    assert trace.example_target == trace.example_source[::-1]
    assert list(trace.snapshot_indices) == sorted(set(trace.snapshot_indices))
    assert trace.snapshot_indices[0] == 0 and trace.snapshot_indices[-1] == c - 1
    assert json.loads(trace.to_json())["kind"] == "LearningToAttendTrace"


# --- what the default sentiment run shows ---------------------------------------------------------


def test_the_classifier_learns_and_the_weights_sum_to_one(default_sentiment):
    trace = default_sentiment
    assert trace.final_heldout_accuracy > 0.6
    for i, n in enumerate(trace.sentence_lengths):
        assert trace.weights[i, :n].sum() == pytest.approx(1.0)
        assert (trace.weights[i, n:] == 0).all()
    assert ((trace.probabilities > 0.5) == trace.predictions.astype(bool)).all()


def test_a_case_where_attention_alone_misleads_is_found_in_the_run(default_sentiment):
    trace = default_sentiment
    assert trace.misleading >= 0, "the run has no misleading case; the scene must say so"
    i, top = trace.misleading, trace.misleading_top
    n = trace.sentence_lengths[i]
    assert top == int(np.argmax(trace.weights[i, :n]))
    assert trace.predictions[i] != trace.labels[i]
    assert (trace.word_alone[i, top] > 0.5) == bool(trace.predictions[i])
    if trace.contrast >= 0:
        j = trace.contrast
        assert trace.sentences[j][trace.contrast_top] == trace.sentences[i][top]
        assert trace.labels[j] != trace.labels[i]


def test_the_users_sentence_comes_first(tmp_path):
    trace = sentiment_attention_trace(SMALL_SENTIMENT, sentence="Never boring", cache_dir=tmp_path)
    assert trace.sentences[0] == ("never", "boring") and trace.labels[0] == -1 and trace.focus == 0
