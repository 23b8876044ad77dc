"""Masks and cross-attention against PyTorch: causal, padding, padding & causal, rectangular Q/K."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attention_math as am
from attention_math.examples import ALIGNMENT, ENGLISH, PADDING_BATCH, SPANISH, translation_embeddings
from attention_math.masks import PAD, pad_batch
from attention_math.traces.causal_mask import causal_mask_trace
from attention_math.traces.cross_attention import cross_attention_trace
from attention_math.traces.padding_mask import padding_mask_trace

from .helpers import built_scene, to_json_in_a_fresh_process, torch_weights


def t(x):
    return torch.as_tensor(np.array(x, dtype=float))


def identity_mha(d):
    """A one-head ``torch.nn.MultiheadAttention`` whose projections are the identity (Q, K, V = inputs)."""
    module = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        module.in_proj_weight.copy_(torch.eye(d, dtype=torch.float64).repeat(3, 1))
        module.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))
    return module


# --- causal mask -----------------------------------------------------------------------------


def test_causal_trace_matches_torch_is_causal():
    trace = causal_mask_trace()
    x = am.THE_CAT_SAT.embeddings
    np.testing.assert_allclose(trace.weights, torch_weights(x, x, is_causal=True), rtol=1e-10, atol=1e-15)
    expected = F.scaled_dot_product_attention(t(x), t(x), t(x), is_causal=True).numpy()
    np.testing.assert_allclose(trace.output, expected, rtol=1e-10)
    n = len(x)
    np.testing.assert_array_equal(trace.mask, torch.tril(torch.ones(n, n, dtype=torch.bool)).numpy())


def test_bidirectional_weights_match_torch_without_mask():
    trace = causal_mask_trace()
    x = am.THE_CAT_SAT.embeddings
    np.testing.assert_allclose(trace.bidirectional_weights, torch_weights(x, x), rtol=1e-10)
    np.testing.assert_allclose(trace.bidirectional_output, F.scaled_dot_product_attention(t(x), t(x), t(x)).numpy(), rtol=1e-10)
    assert np.all(trace.bidirectional_weights > 0)


def test_causal_masked_scores_and_weights_above_the_diagonal():
    trace = causal_mask_trace()
    above = np.triu(np.ones(trace.weights.shape, dtype=bool), k=1)
    assert np.all(np.isneginf(trace.masked_scores[above]))
    np.testing.assert_array_equal(trace.masked_scores[~above], trace.scaled_scores[~above])
    assert np.all(trace.weights[above] == 0.0)  # exactly 0, not merely small
    assert trace.weights[0, 0] == 1.0  # the first token sees only itself
    np.testing.assert_allclose(trace.row_sums, 1.0, rtol=1e-12)


def test_causal_rows_renormalise_over_visible_keys():
    # Row i is softmax over its first i + 1 scores alone, as torch computes it on the slice.
    trace = causal_mask_trace()
    for i in range(len(trace.query_tokens)):
        visible = torch.softmax(t(trace.scaled_scores[i, : i + 1]), dim=-1).numpy()
        np.testing.assert_allclose(trace.weights[i, : i + 1], visible, rtol=1e-12)
    assert trace.query_tokens[trace.focus] == "sat"


def test_causal_trace_is_strict_json():
    data = json.loads(causal_mask_trace().to_json())
    assert data["masked_scores"][0][1] == "-inf"
    assert data["kind"] == "CausalMaskTrace"


# --- padding mask ----------------------------------------------------------------------------


def test_batch_is_padded_to_max_len_with_the_course_flags():
    trace = padding_mask_trace()
    assert PADDING_BATCH == (("The", "cat", "sat"), ("cat", "sat", "on", "the", "mat"), ("The", "mat"))
    # Each padded sentence is the batch's own sentence, then pads only, to 5 tokens.
    for tokens, sentence in zip(trace.batch_tokens, PADDING_BATCH, strict=True):
        assert len(tokens) == 5
        assert tokens[: len(sentence)] == sentence and set(tokens[len(sentence) :]) <= {PAD}
    assert trace.lengths == (3, 5, 2)
    np.testing.assert_array_equal(trace.batch_valid, [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 0, 0, 0]])
    np.testing.assert_array_equal(trace.valid, [1, 1, 1, 0, 0])  # seed 004 slide 9
    assert trace.query_tokens == ("The", "cat", "sat", PAD, PAD)
    with pytest.raises(ValueError):
        padding_mask_trace(max_len=2)


def test_left_padding_puts_the_pads_first():
    tokens, valid = pad_batch(PADDING_BATCH, 5, side="left")
    assert tokens[0] == (PAD, PAD, "The", "cat", "sat") and tokens[1] == PADDING_BATCH[1]
    np.testing.assert_array_equal(valid, [[0, 0, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 0, 1, 1]])
    with pytest.raises(ValueError):
        pad_batch(PADDING_BATCH, 5, side="middle")


def test_with_right_padding_the_causal_mask_alone_already_hides_the_pads_from_real_tokens():
    trace = padding_mask_trace()
    x = trace.x_query
    np.testing.assert_allclose(trace.causal_weights, torch_weights(x, x, is_causal=True), rtol=1e-10, atol=1e-15)
    real = trace.valid == 1
    assert np.all(trace.causal_weights[np.ix_(real, ~real)] == 0.0)
    # The padding mask changes nothing in the rows of real tokens, only in the pad rows.
    np.testing.assert_array_equal(trace.causal_weights[real], trace.combined_weights[real])
    assert not np.allclose(trace.causal_weights[~real], trace.combined_weights[~real])


def test_with_left_padding_a_decoder_needs_the_padding_mask_too():
    trace = padding_mask_trace()
    assert trace.left_tokens == (PAD, PAD, "The", "cat", "sat") and trace.left_queries == ("The", "cat", "sat")
    x = np.array(
        [
            np.zeros(4) if token == PAD else am.THE_CAT_SAT.embeddings[am.THE_CAT_SAT.tokens.index(token)]
            for token in trace.left_tokens
        ]
    )
    causal = torch.tril(torch.ones(5, 5, dtype=torch.bool))
    valid = torch.tensor([False, False, True, True, True])
    np.testing.assert_allclose(trace.left_causal_weights, torch_weights(x, x, mask=causal.numpy())[2:], rtol=1e-10)
    both = (causal & valid[None, :]).numpy()
    np.testing.assert_allclose(trace.left_combined_weights, torch_weights(x[2:], x, mask=both[2:]), rtol=1e-10)
    # The causal mask alone lets every real token see the pads before it.
    assert np.all(trace.left_causal_weights[:, :2] > 0.05)
    np.testing.assert_allclose(trace.left_pad_share, trace.left_causal_weights[:, :2].sum(-1))
    # With both masks the pads get exactly 0, and the real rows are the unpadded sentence's causal attention.
    assert np.all(trace.left_combined_weights[:, :2] == 0.0)
    unpadded = torch_weights(x[2:], x[2:], is_causal=True)
    np.testing.assert_allclose(trace.left_combined_weights[:, 2:], unpadded, rtol=1e-10, atol=1e-15)


def test_padding_weights_match_torch_attn_mask_and_key_padding_mask():
    trace = padding_mask_trace()
    x = trace.x_query
    valid = torch.as_tensor(trace.valid.astype(bool))
    expected = torch_weights(x, x, mask=valid.expand(5, 5).numpy())
    np.testing.assert_allclose(trace.weights, expected, rtol=1e-10, atol=1e-15)
    expected_output = F.scaled_dot_product_attention(t(x), t(x), t(x), attn_mask=valid).numpy()
    np.testing.assert_allclose(trace.output, expected_output, rtol=1e-10)
    # nn.MultiheadAttention's key_padding_mask marks what is *hidden*.
    _, mha_weights = identity_mha(x.shape[1])(t(x)[None], t(x)[None], t(x)[None], key_padding_mask=~valid[None])
    np.testing.assert_allclose(trace.weights, mha_weights[0].detach().numpy(), rtol=1e-10, atol=1e-15)


def test_padded_keys_get_exactly_zero_and_rows_sum_to_one():
    trace = padding_mask_trace()
    pads = trace.valid == 0
    assert np.all(trace.weights[:, pads] == 0.0)
    assert np.all(np.isneginf(trace.masked_scores[:, pads]))
    np.testing.assert_allclose(trace.weights[:, ~pads].sum(-1), 1.0, rtol=1e-12)
    # Without the mask the pads do take weight: that is what the mask is for.
    assert np.all(trace.unmasked_weights[:, pads] > 0.05)
    np.testing.assert_allclose(trace.pad_share, trace.unmasked_weights[:, pads].sum(-1))
    np.testing.assert_allclose(trace.unmasked_weights, torch_weights(trace.x_query, trace.x_query), rtol=1e-10)


def test_padding_and_causal_combined_match_torch():
    trace = padding_mask_trace()
    x = trace.x_query
    combined = torch.as_tensor(trace.valid.astype(bool))[None, :] & torch.tril(torch.ones(5, 5, dtype=torch.bool))
    np.testing.assert_array_equal(trace.combined_mask, combined.numpy())
    np.testing.assert_allclose(trace.combined_weights, torch_weights(x, x, mask=combined.numpy()), rtol=1e-10, atol=1e-15)
    assert np.all(trace.combined_weights[~trace.combined_mask] == 0.0)
    np.testing.assert_allclose(trace.combined_weights.sum(-1), 1.0, rtol=1e-12)
    # Pad query rows still exist and key 0 keeps every row defined (no all -inf row, no NaN).
    assert trace.combined_mask[:, 0].all()
    assert not np.isnan(trace.combined_weights).any()


def test_every_sentence_of_the_batch_matches_torch_batched():
    # The whole batch at once in torch, against one trace per sentence.
    traces = [padding_mask_trace(sentence=s) for s in range(3)]
    x = torch.stack([t(trace.x_query) for trace in traces])  # (3, 5, d)
    valid = torch.as_tensor(traces[0].batch_valid.astype(bool))[:, None, :]  # (3, 1, 5)
    mask = valid & torch.tril(torch.ones(5, 5, dtype=torch.bool))
    eye = torch.eye(5, dtype=torch.float64).expand(3, 5, 5)
    expected = F.scaled_dot_product_attention(x, x, eye, attn_mask=mask).numpy()
    for s, trace in enumerate(traces):
        np.testing.assert_allclose(trace.combined_weights, expected[s], rtol=1e-10, atol=1e-15)


# --- cross-attention -------------------------------------------------------------------------


def test_cross_attention_is_rectangular_and_matches_torch():
    trace = cross_attention_trace()
    english, spanish = translation_embeddings(d_model=5)
    assert trace.weights.shape == (len(SPANISH), len(ENGLISH)) == (7, 6)
    np.testing.assert_array_equal(trace.q, spanish)
    np.testing.assert_array_equal(trace.k, english)
    np.testing.assert_array_equal(trace.v, english)
    np.testing.assert_allclose(trace.weights, torch_weights(spanish, english), rtol=1e-10)
    expected = F.scaled_dot_product_attention(t(spanish), t(english), t(english)).numpy()
    np.testing.assert_allclose(trace.output, expected, rtol=1e-10)
    output, weights = identity_mha(english.shape[1])(t(spanish)[None], t(english)[None], t(english)[None])
    np.testing.assert_allclose(trace.weights, weights[0].detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(trace.output, output[0].detach().numpy(), rtol=1e-10)
    np.testing.assert_allclose(trace.weights.sum(-1), 1.0, rtol=1e-12)


def test_encoder_self_attention_is_square_and_matches_torch():
    trace = cross_attention_trace()
    english, _ = translation_embeddings(d_model=5)
    assert trace.self_weights.shape == (6, 6)
    np.testing.assert_allclose(trace.self_weights, torch_weights(english, english), rtol=1e-10)


def test_the_decoder_reads_the_translation_shifted_right():
    trace = cross_attention_trace()
    assert trace.target_tokens == SPANISH
    assert trace.query_tokens == ("<s>", "El", "gato", "se", "sentó", "en", "la")
    assert trace.query_tokens[1:] == trace.target_tokens[:-1]


def test_each_decoder_position_attends_the_partner_of_the_word_it_writes():
    trace = cross_attention_trace()
    np.testing.assert_array_equal(trace.weights.argmax(axis=1), ALIGNMENT)
    # The position that reads "El" writes "gato", and looks at "cat" (seed 000: translating "gato", focus on "cat").
    i = trace.focus
    assert (trace.query_tokens[i], trace.target_tokens[i]) == ("El", "gato")
    assert ENGLISH[int(trace.weights[i].argmax())] == "cat"
    english, spanish = translation_embeddings(d_model=5)
    np.testing.assert_allclose(np.linalg.norm(english, axis=1), trace.embedding_length)
    assert np.abs(spanish - english[list(ALIGNMENT)]).max() < 4 * trace.noise


def test_the_encoder_diagonal_wins_because_every_english_vector_has_the_same_length():
    # What the scene says in its last step: all vectors have length 3, so a self dot product, 9, beats any other.
    trace = cross_attention_trace()
    english, _ = translation_embeddings(d_model=5)
    dots = english @ english.T
    np.testing.assert_allclose(trace.encoder_self_dots, 3.0**2)
    np.testing.assert_allclose(trace.encoder_other_dot, dots[~np.eye(6, dtype=bool)].max())
    assert trace.encoder_other_dot < trace.encoder_self_dots.min()
    np.testing.assert_array_equal(trace.self_weights.argmax(axis=1), np.arange(6))


def test_toy_embeddings_are_reproducible_by_seed():
    a, b, c = translation_embeddings(seed=7), translation_embeddings(seed=7), translation_embeddings(seed=8)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.allclose(a[0], c[0])
    assert [cross_attention_trace().to_json()] == to_json_in_a_fresh_process("am.cross_attention_trace()")


def test_additive_mask_is_seed_003s_triu_minus_inf():
    # Seed 003: mask = np.triu(ones, k=1); mask[mask == 1] = -inf; scores = scores + mask.
    trace = causal_mask_trace()
    n = len(trace.query_tokens)
    expected = np.triu(np.ones((n, n)), k=1)
    expected[expected == 1] = -np.inf
    np.testing.assert_array_equal(trace.additive_mask, expected)
    np.testing.assert_array_equal(trace.scaled_scores + trace.additive_mask, trace.masked_scores)


# --- what the scenes say and show ------------------------------------------------------------


@pytest.mark.xdist_group("cross-attention")
def test_cross_attention_scene_shows_the_shifted_input_and_names_rows_by_it():
    """On screen the decoder reads "<s> El gato ... la"; the row that peaks at "cat" is named "El → gato", and the words say so."""
    scene = built_scene("cross-attention")
    trace = scene.trace
    first = scene.steps[0]
    assert {"<s>", *trace.query_tokens, *trace.target_tokens} <= scene.recording.texts[first.name]
    heatmap = next(shown for shown in scene.shown if shown.source == "weights")
    on_screen = np.array([float(text.original_text) for text in heatmap.texts]).reshape(7, 6)
    for row, (read, write) in enumerate(zip(trace.query_tokens, trace.target_tokens)):
        assert f"{read} → {write}" in scene.recording.drawn_text
        english = ENGLISH[ALIGNMENT[SPANISH.index(write)]]  # the word that what this row writes translates
        assert ENGLISH[int(on_screen[row].argmax())] == english
    words = " ".join(line.text for line in first.lines)
    assert "reads “El” must write “gato”" in words and "look at “cat”" in words


@pytest.mark.xdist_group("padding-mask")
def test_padding_scene_says_when_a_decoder_needs_the_padding_mask():
    scene = built_scene("padding-mask")
    said = {step.name: " ".join(line.text for line in step.lines) for step in scene.steps}
    assert "needs both" not in " ".join(said.values())
    assert "causal mask alone" in said["right-padding-needs-no-padding-mask"]
    assert "padded on the left" in said["left-padding-needs-both"] and "BERT" in said["pad-keys-get-zero"]
