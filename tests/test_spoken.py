"""How numbers, years and quoted words are said: as a person reads them aloud, never digit group by digit group."""

from __future__ import annotations

import pytest

from attention_explainer.pipeline.spoken import spoken_form


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
    ],
)
def test_numbers_years_and_quoted_words_are_said_as_a_person_says_them(written, said):
    assert spoken_form(written, strict=True) == said
