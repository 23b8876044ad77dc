"""What the seventeenth fresh review found weak in transformer-block, held to the trace and to the screen.

The attention step's line says what random weights do show (the followed row adds up to 1, its later
tokens get 0), recounted from the printed numbers; the GELU the block computes is said to be GPT-2's tanh
form, and "within 0.001 of zΦ(z)" is checked against ``math.erf``; the feed-forward weights are said random.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import attention_math as am
from attention_math.traces.transformer_block import transformer_block_trace
from scenes.theme import format_number, parse_number
from scenes.transformer_block import RANDOM_WEIGHTS, TransformerBlockScene

from .helpers import built_scene


def exact_gelu(z: float) -> float:
    """z Φ(z), Φ from math.erf: GELU as defined (Hendrycks and Gimpel), not the tanh form under test."""
    return z * 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def test_the_tanh_form_stays_within_the_shown_bound_of_z_phi_z():
    t = transformer_block_trace()
    assert format_number(t.gelu_tanh_bound, 3) == "0.001"
    shown_z = t.pre_activation[t.focus]
    wide = np.linspace(-12.0, 12.0, 48001)
    for z in (shown_z, wide):
        gap = max(abs(float(am.gelu(np.array([v]))[0]) - exact_gelu(float(v))) for v in z)
        assert gap < t.gelu_tanh_bound, gap
    # A bound that says something: the largest gap is within a factor of ten of it (about 0.00047).
    assert max(abs(float(am.gelu(np.array([v]))[0]) - exact_gelu(float(v))) for v in wide) > t.gelu_tanh_bound / 10


def fake_scene(weights: np.ndarray, focus: int, tokens: tuple[str, ...]):
    return SimpleNamespace(trace=SimpleNamespace(attention_weights=weights, focus=focus, tokens=tokens))


def test_the_row_line_says_before_rounding_when_the_printed_weights_miss_1():
    thirds = np.full((1, 3, 3), 1 / 3)
    line = TransformerBlockScene.row_sum_line(fake_scene(thirds, 2, ("a", "b", "c")), [0], 2, first=True)
    # 0.33 + 0.33 + 0.33 = 0.99 on screen; "c" is the last token, so no later tokens are named.
    assert line == "The row of “c” adds up to 1 (before rounding)."
    halves = np.array([[[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]] * 2)
    line = TransformerBlockScene.row_sum_line(fake_scene(halves, 1, ("a", "b", "c")), [0, 1], 2, first=True)
    assert line == "In each head, the row of “b” adds up to 1; the later tokens get 0."


@pytest.mark.xdist_group("transformer-block")
def test_the_attention_line_is_recounted_from_the_printed_maps_and_the_weights_are_said_random():
    scene = built_scene("transformer-block")
    t = scene.trace
    f, n = t.focus, len(t.tokens)
    said = {step.name: step.caption for step in scene.steps}
    assert "to itself" not in said["multi-head-attention"]
    assert f"In each head, the row of “{t.tokens[f]}” adds up to 1; the later tokens get 0." in said["multi-head-attention"]
    shown = {s.source: [parse_number(text.original_text) for text in s.texts] for s in scene.shown}
    for h in range(t.n_heads):
        printed = np.array(shown[f"attention_weights[{h}]"]).reshape(n, n)
        assert round(printed[f].sum(), 6) == 1.0, printed[f]  # the row's printed numbers add up to 1.00
        assert all(printed[f, j] == 0 for j in range(f + 1, n))  # and its later tokens read 0.00
    # Every weight of this block is random: said at the bottom of both steps that use them.
    for step in ("multi-head-attention", "feed-forward"):
        assert RANDOM_WEIGHTS in scene.recording.texts[step]
    assert "random" in said["feed-forward"]


@pytest.mark.xdist_group("transformer-block")
def test_the_gelu_step_says_the_tanh_form_it_computes():
    scene = built_scene("transformer-block")
    t = scene.trace
    texts = scene.recording.texts["feed-forward"]
    assert "here, as in GPT-2: the tanh form, within" in texts and "of zΦ(z)" in texts
    bound = next(s for s in scene.shown if s.source == "gelu_tanh_bound")
    assert bound.texts[0].original_text == format_number(t.gelu_tanh_bound, 3) == "0.001"
    caption = next(step.caption for step in scene.steps if step.name == "feed-forward")
    assert "here, as in GPT-2, a close tanh formula" in caption
