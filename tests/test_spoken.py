"""How numbers, years and quoted words are said: as a person reads them aloud, never digit group by digit group."""

from __future__ import annotations

import itertools
import re

import pytest

from attention_explainer.pipeline.spoken import spoken_form
from scenes import SCENES

from .helpers import built_scene


@pytest.mark.parametrize(
    "written, said",
    [
        # Trailing zeros are the screen's rounding: a person says "one", not "one point zero zero".
        ("1.00", "one"),
        ("0.50 and 0.05", "zero point five and zero point zero five"),
        ("−2.10", "minus two point one"),
        # Up to 99,999 every digit is said; from 100,000 on, three figures and "about" when rounded.
        ("16,384 weights", "sixteen thousand three hundred eighty-four weights"),
        ("603,979,776 multiply-adds", "about six hundred four million multiply-adds"),
        ("1,048,576 weights", "about one point zero five million weights"),
        ("1,000,000 tokens", "one million tokens"),
        ("175,000,000,000 parameters", "one hundred seventy-five billion parameters"),
        ("about 603,979,776", "about six hundred four million"),
        ("≈ 123,456", "is about one hundred twenty-three thousand"),
        # Four digits without a separator are a year; the scenes group every other number.
        ("the 2017 Transformer", "the twenty seventeen Transformer"),
        ("Brown et al. 2020", "Brown et al. twenty twenty"),
        ("in 2005 and 1998", "in two thousand five and nineteen ninety-eight"),
        ("2,048 tokens", "two thousand forty-eight tokens"),
        # A quoted word is kept audible: quotation marks are silent.
        ("For “The”, the products", "For the word The, the products"),
        ("even “the” and “on”", "even the word the and the word on"),
        ("the word “cat”", "the word cat"),
        ("Translate “The cat sat” into Spanish", "Translate The cat sat into Spanish"),
        # After a noun phrase that already names it, the word is said alone: never "the new the word cat".
        ("The sum is the new “cat”: its own row", "The sum is the new cat: its own row"),
        ("the query “cat” is 0.5", "the query cat is zero point five"),
        ("the weights of “The”", "the weights of the word The"),
    ],
)
def test_numbers_years_and_quoted_words_are_said_as_a_person_says_them(written, said):
    assert spoken_form(written, strict=True) == said


@pytest.mark.parametrize(
    "written, said",
    [
        # A seed names a random draw; read as a quantity it sounds like one ("seed forty-two").
        (
            "These matrices are random here (seed 42); a trained model learns them.",
            "These matrices are random here with a fixed seed; a trained model learns them.",
        ),
        ("drawn with seed 1,348.", "drawn with a fixed seed."),
        # A sentence in another language is not given to the English voice.
        ("the translator wrote “El gato se sentó en la alfombra”.", "the translator wrote the sentence on screen."),
        ("writing “sentó”", "writing the word sentó"),
        # One or two quoted foreign words are words, not a sentence: read as written, never "the sentence on screen".
        ("“gato → se” and “se → sentó” both copy “sat”", "gato to se and se to sentó both copy the word sat"),
        ("the rows that write “se” and “sentó”", "the rows that write the word se and the word sentó"),
        # "d_k is 4, so divide by its square root, 2": never "the square root of d k equals four".
        ("d_k is 4, so divide by its square root, 2.", "d k is four, so divide by its square root, two."),
    ],
)
def test_seeds_foreign_sentences_and_square_roots_are_said_as_a_person_says_them(written, said):
    assert spoken_form(written, strict=True) == said


# --- every spoken line of every scene ---------------------------------------------------------

DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
NUMBER_WORDS = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
    "eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand"
)
BROKEN_RULES = {
    "a large number said digit group by digit group": re.compile(rf"\b(?:million|billion|trillion) (?:{NUMBER_WORDS})\b"),
    "a year said as a count": re.compile(
        r"\btwo thousand (?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b"
    ),
    "a seed read out as a number": re.compile(rf"\bseed,? (?:minus )?(?:{NUMBER_WORDS})"),
    "a square root said as an equation ('the square root of d k equals four')": re.compile(
        r"square root of [a-z]+(?: [a-z])? equals"
    ),
    "'the word' after a noun phrase ('the new the word cat')": re.compile(
        r"(?<!\bword )\b(?:the|a|an|its) (?!word\b)[a-z]+ the word\b"
    ),
}


def trailing_zero(spoken: str) -> bool:
    """Whether a decimal is said with a trailing zero ("one point zero zero", "zero point five zero")."""
    words = re.findall(r"[\w-]+|[,.;:!?]", spoken)  # punctuation ends a run of digits
    for start, word in enumerate(words):
        if word == "point":
            digits = list(itertools.takewhile(lambda w: w in DIGIT_WORDS, words[start + 1 :]))
            if digits and digits[-1] == "zero":
                return True
    return False


def spoken_lines(name: str) -> list[tuple[str, str]]:
    """Every line of scene ``name`` (its default build) as ``(written, spoken)``."""
    scene = built_scene(name)
    return [(line.text, line.spoken) for step in scene.steps for line in step.lines]


@pytest.mark.parametrize("name", list(SCENES))
def test_every_spoken_line_keeps_the_spoken_rules(name):
    broken = []
    for written, spoken in spoken_lines(name):
        broken += [f"{rule}: {spoken!r}" for rule, pattern in BROKEN_RULES.items() if pattern.search(spoken)]
        if trailing_zero(spoken):
            broken.append(f"a trailing zero said aloud: {spoken!r}")
        quoted = re.findall(r"“([^”\s]+)”", written)
        broken += [f"the quoted word {word!r} is not heard: {spoken!r}" for word in quoted if spoken_form(word) not in spoken]
        # A word beyond English's alphabet is heard only as a single quoted word ("gato"), never a foreign sentence.
        foreign = [word for word in re.findall(r"[^\W\d_]+", spoken) if not word.isascii() and word not in quoted]
        broken += [f"a foreign word in the English voice ({word}): {spoken!r}" for word in foreign]
    assert not broken, "\n".join(broken)


def test_the_scene_wide_rules_catch_what_they_name():
    assert BROKEN_RULES["a large number said digit group by digit group"].search("six hundred three million nine hundred seventy")
    assert BROKEN_RULES["a year said as a count"].search("the two thousand seventeen Transformer")
    assert BROKEN_RULES["a seed read out as a number"].search("random here, seed forty-two")
    assert BROKEN_RULES["a square root said as an equation ('the square root of d k equals four')"].search(
        "divided by the square root of d k equals four"
    )
    assert BROKEN_RULES["'the word' after a noun phrase ('the new the word cat')"].search("The sum is the new the word cat")
    assert not BROKEN_RULES["'the word' after a noun phrase ('the new the word cat')"].search("even the word the and the word on")
    assert trailing_zero("one point zero zero") and trailing_zero("zero point five zero, then")
    assert not trailing_zero("zero point zero five") and not trailing_zero("a point, zero")
