"""Issue 34, failure 5: every character that draws nothing is refused before anything renders, named, exit 2."""

from __future__ import annotations

import unicodedata

import pytest
from click.testing import CliRunner

import render
from attention_explainer.options import InvalidInput, validate
from scenes import SCENES


@pytest.mark.parametrize(
    "character",
    [
        "\u3164",  # HANGUL FILLER: a letter by category, ignorable by property (the crash)
        "\u2800",  # BRAILLE PATTERN BLANK: a symbol whose glyph has no dots (the other crash)
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u00a0",  # NO-BREAK SPACE
        "\u3000",  # IDEOGRAPHIC SPACE
        "\u2028",  # LINE SEPARATOR
        "\u00ad",  # SOFT HYPHEN
        "\u034f",  # COMBINING GRAPHEME JOINER
        "\U000e0041",  # TAG LATIN CAPITAL LETTER A
    ],
)
def test_a_character_that_draws_nothing_is_refused_naming_it(character):
    result = CliRunner().invoke(render.main, ["qkv", "--sentence", f"cat {character} dog", "--quality", "low"])
    assert result.exit_code == 2, result.output
    code = f"U+{ord(character):04X}"
    assert code in result.output and unicodedata.name(character) in result.output
    assert "Traceback" not in result.output
    assert [line for line in result.output.splitlines() if code in line] == [result.output.strip().splitlines()[-1]]


def test_a_blank_character_inside_a_word_is_refused_too():
    with pytest.raises(InvalidInput, match="U\\+3164"):
        validate(SCENES["qkv"], {"sentence": "cat\u3164 dog"})


def test_a_blank_token_is_refused():
    pytest.importorskip("tokenizers")
    result = CliRunner().invoke(render.main, ["trained-heads", "--token", "\u2800"])
    assert result.exit_code == 2 and "U+2800" in result.output


@pytest.mark.parametrize("sentence", ["I \u2764\ufe0f cats", "The café sat", "שלום עולם גדול", "猫 が 座った"])
def test_drawn_text_passes(sentence):
    """An emoji's variation selector picks its glyph (it stays); accents, Hebrew and CJK are drawn."""
    assert validate(SCENES["self-attention"], {"sentence": sentence})["sentence"] == sentence


def test_a_variation_selector_alone_is_refused():
    with pytest.raises(InvalidInput, match="U\\+FE0F"):
        validate(SCENES["self-attention"], {"sentence": "I \ufe0f cats"})


@pytest.mark.parametrize(
    "character, said",
    [
        ("\x1b", "U+001B (a control character)"),  # an escape: no name of its own in Unicode
        ("\ue000", "U+E000 (a private-use character)"),
        ("\u0378", "U+0378 (an unassigned character)"),
    ],
)
def test_a_character_without_a_unicode_name_is_said_for_what_it_is(character, said):
    with pytest.raises(InvalidInput) as refused:
        validate(SCENES["qkv"], {"sentence": f"cat {character} dog"})
    assert said in str(refused.value)
