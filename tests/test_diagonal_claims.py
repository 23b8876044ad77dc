"""What positional-encoding and causal-mask say about the diagonal (Q = K = V = X) holds row by row in the trace.

With Q = K a word's score with itself is its squared length divided by √d_k: long vectors look most at
themselves, short ones may not. A scene that says a word "gives itself" its largest weight, or that a word gives
another more than itself, is read from its captions and checked against the weights' argmax per row; a scene
that makes such a claim also names a row where the diagonal does not win (there is one in both defaults).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_math.traces.positional_encoding import positional_trace
from scenes.theme import format_number

from .helpers import built_scene

GIVES_ITSELF = re.compile(r"“(?P<query>[^”]+)”,? gives itself (?P<weight>\d+\.\d+)")
GIVES_ANOTHER = re.compile(r"“(?P<query>[^”]+)” gives “(?P<key>[^”]+)” (?P<weight>\d+\.\d+), itself (?:only )?(?P<own>\d+\.\d+)")
SPLITS = re.compile(r"“(?P<query>[^”]+)” splits (?P<first>\d+\.\d+) and (?P<second>\d+\.\d+)")


def diagonal_claims(lines: list[str], tokens: tuple[str, ...], weights: np.ndarray) -> tuple[set[int], set[int]]:
    """The rows said to look most at themselves and the rows said not to, each claim's numbers checked as it is read."""
    own, other = set(), set()
    for k, line in enumerate(lines):
        for match in GIVES_ITSELF.finditer(line):
            r = tokens.index(match["query"])
            assert format_number(weights[r, r], 2) == match["weight"], line
            own.add(r)
        for match in GIVES_ANOTHER.finditer(line):
            r, c = tokens.index(match["query"]), tokens.index(match["key"])
            assert (format_number(weights[r, c], 2), format_number(weights[r, r], 2)) == (match["weight"], match["own"]), line
            assert int(np.argmax(weights[r])) == c != r, line
            other.add(r)
        if "keeps more for itself" in line:
            # The word is named in the line before: "“cat” splits 0.29 and 0.71."
            split = SPLITS.search(lines[k - 1])
            assert split, lines[k - 1]
            own.add(tokens.index(split["query"]))
    for r in own:
        assert int(np.argmax(weights[r])) == r, f"{tokens[r]!r} is said to look most at itself: {weights[r]}"
    return own, other


@pytest.mark.xdist_group("positional-encoding")
def test_positional_encoding_diagonal_claims_hold_per_row():
    scene = built_scene("positional-encoding")
    t = scene.trace
    lines = [line.text for step in scene.steps for line in step.lines]
    own, other = diagonal_claims(lines, t.sentence_a, t.weights_a)
    assert own and other, "the scene says which word looks most at itself and which does not"
    not_own = {r for r in range(len(t.sentence_a)) if int(np.argmax(t.weights_a[r])) != r}
    assert other <= not_own and other, not_own
    # "the longest vector, “bites”": the largest squared length, and the score with itself is it over √d_k.
    longest = re.search(r"the longest vector, “([^”]+)”", " ".join(lines))
    lengths = (t.x_a**2).sum(axis=1)
    assert longest and t.sentence_a.index(longest[1]) == int(np.argmax(lengths))
    np.testing.assert_allclose(t.self_scores_a, lengths / np.sqrt(t.x_a.shape[1]))
    np.testing.assert_allclose(np.diag(t.x_a @ t.x_a.T) / 2, t.self_scores_a)


@pytest.mark.xdist_group("positional-encoding")
def test_positional_encoding_says_what_its_fingerprints_show():
    scene = built_scene("positional-encoding")
    t = scene.trace
    said = " ".join(line.text for step in scene.steps for line in step.lines)
    # "no two rows are the same" (not "alike": nearby rows are alike, step 7).
    assert "no two rows are the same" in said and "no two rows are alike" not in said
    assert len({tuple(np.round(row, 12)) for row in t.pe}) == t.seq_len
    # The swap, as each word's row of X + PE shows it.
    swap = re.search(r"“dog” gets PE\((\d)\) in one and PE\((\d)\) in the other", said)
    assert swap
    dog = t.words.index("dog")
    a, b = t.sentence_a.index("dog"), t.sentence_b.index("dog")
    assert (a, b) == (int(swap[1]), int(swap[2]))
    np.testing.assert_allclose(t.x_a_pos[a], t.word_embeddings[dog] + t.pe_small[a])
    np.testing.assert_allclose(t.x_b_pos[b], t.word_embeddings[dog] + t.pe_small[b])
    bites = t.sentence_a.index("bites")
    np.testing.assert_array_equal(t.x_a_pos[bites], t.x_b_pos[t.sentence_b.index("bites")])
    # "On the right ... each sine stays near 0 and each cosine near 1": the last quarter of the dimensions.
    assert "each sine stays near 0 and each cosine near 1" in said
    slow = t.pe[:, 3 * t.d_model // 4 :]
    assert np.abs(slow[:, 0::2]).max() < 0.05 and slow[:, 1::2].min() > 0.99
    # Rounded as a person says them.
    assert f"about {t.similarity_near:.2f}" in said and f"about {t.similarity_far:.2f}" in said
    assert "seed" not in said.replace("a fixed random seed", "")


def test_positional_trace_positions_b_name_each_words_new_place():
    t = positional_trace()
    for i, word in enumerate(t.sentence_a):
        assert t.sentence_b[t.positions_b[i]] == word


@pytest.mark.xdist_group("causal-mask")
def test_causal_mask_diagonal_claims_hold_per_row():
    scene = built_scene("causal-mask")
    t = scene.trace
    lines = [line.text for step in scene.steps for line in step.lines]
    own, other = diagonal_claims(lines, t.query_tokens, t.weights)
    assert own and other
    # "its squared length divided by 2, 1.015, against 0.12 with “The”": the scaled diagonal, from |x|².
    said = " ".join(lines)
    cat = min(own)
    assert f"divided by {format_number(t.scale, 0)}, {format_number(t.scaled_scores[cat, cat], 3)}" in said
    np.testing.assert_allclose(t.scaled_scores[cat, cat], (t.x_query[cat] ** 2).sum() / t.scale)
    # No line calls the scaled score "its length squared".
    assert "length squared" not in said


@pytest.mark.xdist_group("causal-mask")
def test_causal_mask_says_what_the_mask_divides_by_not_an_unexplained_even_share():
    scene = built_scene("causal-mask")
    t = scene.trace
    said = " ".join(line.text for step in scene.steps for line in step.lines)
    n, i = len(t.query_tokens), t.focus
    seen = int(t.mask[i].sum())
    np.testing.assert_allclose(t.even_shares, 1.0 / np.arange(1, n + 1))
    # Review 8: "an even share of the keys a row may see" never said why it mattered; the line is gone and the
    # voice says the number the mask divides by, the unmasked weight on the visible keys.
    assert "even share" not in said
    share = t.bidirectional_weights[i, :seen].sum()
    assert f"the mask divides each by {format_number(share, 2)}:" in said
    # "mask" means the attention mask only: BERT's training is said as filling in blanked-out words.
    assert "hidden [MASK]" not in said and "blanked-out" in said
