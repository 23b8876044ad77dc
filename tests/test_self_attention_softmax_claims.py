"""What the self-attention and softmax scenes claim holds in numbers computed apart from their traces.

Each claim is read off the scene (its lines and what it put on screen) and checked against PyTorch on
the example's embeddings, never against the trace the scene drew from: who looks most at itself, who
looks at a longer word, and every shown sum the screen says adds up.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from manim import ManimColor, Text

from attention_math import THE_CAT_SAT, sentence_example
from scenes import SCENES
from scenes.self_attention import ROUNDED
from scenes.theme import format_number, parse_number

from .helpers import build_without_video, built_scene

QUOTED = re.compile(r"“([^”]+)”")


def lines(scene, step: str) -> list[str]:
    return [line.text for line in next(s for s in scene.steps if s.name == step).lines]


def shown(scene, source: str) -> np.ndarray:
    """The numbers last drawn for ``source``, as the screen shows them."""
    drawn = [s for s in scene.shown if s.source == source]
    assert drawn, f"{source} is not on screen"
    return np.array([parse_number(text.original_text) for text in drawn[-1].texts])


def torch_weights(x: np.ndarray) -> np.ndarray:
    """Self-attention weights with Q = K = V = X, by PyTorch."""
    x = torch.tensor(x, dtype=torch.float64)
    return torch.softmax(x @ x.T / np.sqrt(x.shape[1]), dim=-1).numpy()


def self_attention_scene(sentence: str | None):
    if sentence is None:
        return built_scene("self-attention")
    scene_class = SCENES["self-attention"]
    return build_without_video(scene_class, trace=scene_class.build_trace(sentence=sentence), draw=False)


@pytest.mark.xdist_group("self-attention")
@pytest.mark.parametrize("sentence", [None, "cat cat mat on"])
def test_who_looks_most_at_itself_is_said_as_pytorch_finds_it(sentence):
    """The rows named as looking most at themselves, and the others as looking at a longer word, are PyTorch's argmax."""
    scene = self_attention_scene(sentence)
    tokens = scene.trace.query_tokens
    x = THE_CAT_SAT.embeddings if sentence is None else sentence_example(sentence).embeddings
    x = np.asarray(x, dtype=float)
    weights = torch_weights(x)
    n = len(tokens)
    # A repeated word ties with its twin: that counts as looking at itself, as the scene says.
    itself = [r for r in range(n) if weights[r, r] >= weights[r].max()]
    elsewhere = [r for r in range(n) if r not in itself]
    said = lines(scene, "heatmap")
    everything = " ".join(said) + " " + " ".join(set().union(*scene.recording.texts.values()))
    assert "own column" not in everything, "the rule 'favours its own column' is false in most rows"

    own_line = [line for line in said if line.endswith("most at itself.")]
    assert sorted(QUOTED.findall(own_line[0]) if own_line else []) == sorted(tokens[r] for r in itself)
    named = [line for line in said if " with itself but " in line]
    rest = [line for line in said if "most at a longer word" in line]
    if not elsewhere:
        assert not named and not rest
        return
    word, winner = QUOTED.findall(named[0])[:2]
    r = max((row for row in elsewhere if tokens[row] == word), key=lambda row: x[row] @ x[row])
    j = int(weights[r].argmax())
    assert tokens[j] == winner and j != r
    # What the line says: the word scores less with itself than with the winner, which is longer.
    own_score, best_score, winner_score = (parse_number(n) for n in re.findall(r"\d+\.\d+", named[0]))
    assert (own_score, best_score, winner_score) == tuple(
        parse_number(format_number(v, 2)) for v in (x[r] @ x[r], x[r] @ x[j], x[j] @ x[j])
    )
    assert x[j] @ x[j] > x[r] @ x[r] and x[r] @ x[j] > x[r] @ x[r]
    others = sorted(QUOTED.findall(rest[0])) if rest else []
    assert sorted([word, *others]) == sorted(tokens[row] for row in elsewhere)
    # Every one of them does look at a longer word (Cauchy–Schwarz), whatever the sentence.
    for row in elsewhere:
        k = int(weights[row].argmax())
        assert x[k] @ x[k] > x[row] @ x[row]
    # Length alone does not pick the winner: where a row looks at a key other than the longest, the line says so.
    longest = int(np.argmax(np.einsum("ij,ij->i", x, x)))
    if any(int(weights[row].argmax()) != longest for row in elsewhere):
        assert "length wins" not in " ".join(said).lower()
    if rest:
        assert "length and direction" in rest[0]


@pytest.mark.xdist_group("self-attention")
def test_twin_words_are_said_to_share_one_embedding():
    """“The” and “the” have equal rows, and the scene says so; a sentence without twins says nothing of it."""
    scene = built_scene("self-attention")
    x = np.asarray(THE_CAT_SAT.embeddings, dtype=float)
    tokens = scene.trace.key_tokens
    twins = [(a, b) for a in range(len(tokens)) for b in range(a + 1, len(tokens)) if tokens[a].lower() == tokens[b].lower()]
    assert twins and all(torch.equal(torch.tensor(x[a]), torch.tensor(x[b])) for a, b in twins)
    assert any("share one embedding" in line for line in lines(scene, "embeddings"))
    other = self_attention_scene("cat sat on mat")
    assert not any("embedding:" in line and "share" in line for line in lines(other, "embeddings"))


@pytest.mark.xdist_group("self-attention")
def test_the_scores_beside_the_heatmap_are_each_rows_self_score_and_largest_score():
    scene = built_scene("self-attention")
    x = np.asarray(THE_CAT_SAT.embeddings, dtype=float)
    scores = torch.tensor(x) @ torch.tensor(x).T
    np.testing.assert_allclose(shown(scene, "self_scores"), torch.diagonal(scores).numpy(), atol=0.005 + 1e-9)
    np.testing.assert_allclose(shown(scene, "strongest_scores"), scores.max(dim=1).values.numpy(), atol=0.005 + 1e-9)


@pytest.mark.xdist_group("self-attention")
def test_what_the_self_attention_screen_says_adds_up_does():
    """'Add up to 1' without 'rounding' only where the shown weights do; a weighted sum that misses says it is rounded."""
    scene = built_scene("self-attention")
    i = scene.trace.focus
    heatmap = next(s for s in scene.shown if s.source == "weights")
    n = len(scene.trace.key_tokens)
    rows = np.array([parse_number(text.original_text) for text in heatmap.texts]).reshape(n, n)
    for step, shown_rows in (("softmax", [shown(scene, f"weights[{i}]")]), ("heatmap", list(rows))):
        for line in lines(scene, step):
            if re.search(r"adds? up to 1\b", line) and "rounding" not in line:
                sums = [round(float(row.sum()), 2) for row in shown_rows]
                assert sums == [1.0] * len(sums), f"{step}: {line!r} but the shown rows add up to {sums}"
    # The heatmap's shown rows do not all add up to 1.00, so the line must say "before rounding".
    assert any(round(float(row.sum()), 2) != 1.0 for row in rows)
    assert any("before rounding" in line for line in lines(scene, "heatmap"))

    products = np.array([shown(scene, f"weighted_values[{i}, {j}]") for j in range(n)])
    output = shown(scene, f"output[{i}]")
    missed = np.abs(products.sum(axis=0) - output)
    if missed.max() > 1e-9:
        assert ROUNDED in scene.recording.texts["weighted-sum"], "the shown rows miss the shown sum, and nothing says why"
    # What the note says: at most 0.01 off.
    assert missed.max() <= 0.01 + 1e-9


@pytest.mark.xdist_group("softmax")
def test_what_the_softmax_screen_says_adds_up_does():
    scene = built_scene("softmax")
    assert round(float(shown(scene, "exp_scores").sum()), 2) == shown(scene, "exp_sum")[0]
    assert round(float(shown(scene, "weights").sum()), 2) == shown(scene, "weight_sum")[0]
    line = next(line for line in lines(scene, "sum-to-one") if line.startswith("Here "))
    *parts, total = (parse_number(n) for n in re.findall(r"\d+\.\d+", line))
    assert round(sum(parts), 2) == total


@pytest.mark.xdist_group("softmax")
def test_softmax_says_how_its_example_was_made_and_shows_what_it_names():
    """Made up by hand, the query cat's own key; a negative score shown; one-hot explained; both sides of the factor 1."""
    scene = built_scene("softmax")
    t = scene.trace
    texts = scene.recording.texts
    first = t.tokens[0]
    np.testing.assert_array_equal(shown(scene, "query"), shown(scene, "keys")[:2])  # the query is the first key
    assert any("made up by hand" in text and f"{first}'s own key" in text for text in texts["scores"])
    assert "made up by hand" in lines(scene, "scores")[0]

    # "Even a negative score gives a positive number": a negative score is on screen, with e to its power.
    said = " ".join(lines(scene, "sum-and-divide"))
    assert "negative" not in said or f"even {format_number(t.negative_score, 0)} gives" in said
    assert f"even {format_number(-1.0, 0)} gives {format_number(float(np.exp(-1.0)), 2)}" in said
    negative = next(s for s in scene.shown if s.source == "negative_exp")
    assert parse_number(negative.texts[0].original_text) == round(float(np.exp(-1.0)), 2) and t.negative_score == -1.0

    said = lines(scene, "bigger-gaps-sharper")
    assert any(text.startswith("one-hot:") for text in texts["bigger-gaps-sharper"]), "one-hot is said but never explained"
    factors = [parse_number(s.texts[0].original_text) for s in scene.shown if s.source.startswith("multipliers[")]
    named = [
        float(n) for line in said if line.startswith("Multiply by ") for n in re.findall(r"\d+(?:\.\d+)?", line.split(":")[0])
    ]
    assert named and set(named) <= set(factors), "a factor is said but no panel shows it"
    assert min(factors) < 1 < max(factors), "the flattening side is not shown"
    # Below 1 the shown weights are flatter than as they are, above 1 sharper: what the lines say.
    scores = torch.tensor(t.scores)
    for m, factor in enumerate(factors):
        weights = torch.softmax(factor * scores, dim=0).numpy()
        np.testing.assert_allclose(shown(scene, f"sharpened_weights[{m}]"), weights, atol=0.005 + 1e-9)
    top = {factor: shown(scene, f"sharpened_weights[{m}]")[0] for m, factor in enumerate(factors)}
    assert top[min(factors)] < top[1.0] < top[max(factors)]
    assert len(factors) <= 4, "more than four panels: the digits get small"


@pytest.mark.xdist_group("softmax")
def test_why_the_first_key_wins_is_said_as_pytorch_finds_it():
    """'The query is its own key, and no other key is longer': the first key wins, and the shown lengths are torch's."""
    scene = built_scene("softmax")
    t = scene.trace
    keys = torch.tensor(np.asarray(t.keys, dtype=float))
    query = keys[0]
    lengths = torch.linalg.vector_norm(keys, dim=1)
    said = " ".join(lines(scene, "sum-and-divide"))
    assert "no other key is longer" in said and "since the query is its own key" not in said
    assert bool(lengths[0] >= lengths.max()) and int(torch.argmax(keys @ query)) == 0
    drawn = np.array([parse_number(s.texts[0].original_text) for s in scene.shown if s.source.startswith("key_lengths[")])
    np.testing.assert_allclose(drawn, lengths.numpy(), atol=0.005 + 1e-9)
    # The square root of d_k said plainly: scores grow with the number of components, not with "long vectors".
    sharper = " ".join(lines(scene, "bigger-gaps-sharper"))
    assert "Long vectors" not in sharper and "its variance is d_k" in " ".join(lines(scene, "why-square-root"))


@pytest.mark.xdist_group("softmax")
def test_the_square_root_is_explained_by_the_spread_of_a_dot_product():
    """The review: 'scores grow with d_k, so divide by √d_k' called for dividing by d_k. What holds, and is now said:
    for entries of mean 0 and variance 1, q · k has variance d_k, so its spread grows like √d_k."""
    scene = built_scene("softmax")
    # Since review 8 a step of its own shows it, on random dot products drawn at two widths.
    said = " ".join(lines(scene, "why-square-root"))
    assert "whose entries have mean 0 and variance 1" in said
    assert "so its variance is d_k and its spread grows like the square root of d_k" in said
    shown_text = " ".join(scene.recording.texts["why-square-root"])
    assert "spread like √d_k" in shown_text and "entries of mean 0 and variance 1" in shown_text
    generator = torch.Generator().manual_seed(0)
    for d_k in (2, 16, 256):
        q, k = torch.randn(20000, d_k, generator=generator), torch.randn(20000, d_k, generator=generator)
        scores = (q * k).sum(dim=1)
        assert abs(float(scores.var()) / d_k - 1) < 0.05  # variance d_k
        assert abs(float((scores / d_k**0.5).std()) - 1) < 0.03  # divided by √d_k: spread 1 whatever d_k


@pytest.mark.xdist_group("softmax")
def test_softmax_calls_its_unscaled_weights_so_and_ends_on_no_dim_line():
    """The weights of unscaled scores are not called 'the attention weights' where they are shown; the takeaway's
    key line is drawn as brightly as the others (it was dim grey on the video's last frame)."""
    scene = built_scene("softmax")
    said = " ".join(lines(scene, "sum-and-divide"))
    assert "The weights, before any scaling, are" in said
    assert "weights (unscaled)" in scene.recording.texts["sum-and-divide"]
    assert "divides it by the square root of d_k" in lines(scene, "scores")[2]
    texts = [part for m in scene.mobjects for part in m.get_family() if isinstance(part, Text) and part.original_text.strip()]
    assert any("sharper weights" in text.original_text for text in texts)  # the takeaway is the last frame
    colours = {ManimColor(text.get_fill_color()).to_hex().upper() for text in texts}
    assert ManimColor(scene.theme.muted).to_hex().upper() not in colours


@pytest.mark.xdist_group("softmax")
def test_no_softmax_step_title_numbers_its_steps():
    """Chapters are numbered by the player: a title "Step 1: ..." would read "2. Step 1: ..."."""
    scene = built_scene("softmax")
    assert not any(re.match(r"Steps? \d", step.title) for step in scene.steps)
