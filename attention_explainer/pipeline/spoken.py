"""The spoken form of a caption line: what a voice says, with symbols, formulas and numbers in words.

Captions keep the written form ("√d_k = 2", "0.41", "W_Q"); a voice gets words ("the square root
of d k equals two", "zero point four one", "W Q"). :func:`spoken_form` rewrites the formulas the
scenes write, reads every number aloud, and in ``strict`` mode (the tests) refuses any character it
has no words for, so a new symbol in a scene is caught before a voice spells it out or skips it.
Outside strict mode (a teacher's own sentence) such characters are dropped.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["spoken_form", "number_words", "large_number_words", "year_words", "UnspeakableText", "SPEAKABLE"]

SPEAKABLE = re.compile(r"[^\W\d_]+|[ ,.;:!?'-]")
"""What may reach a voice: letters (any script) and plain punctuation, no digits, symbols or underscores."""


class UnspeakableText(ValueError):
    """A line holds a character the spoken form has no words for (strict mode)."""


ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))


def _whole(number: int) -> str:
    if number < 20:
        return ONES[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return TENS[tens] + (f"-{ONES[ones]}" if ones else "")
    if number < 1000:
        hundreds, rest = divmod(number, 100)
        return f"{ONES[hundreds]} hundred" + (f" {_whole(rest)}" if rest else "")
    for scale, name in SCALES:
        if number >= scale:
            high, rest = divmod(number, scale)
            return f"{_whole(high)} {name}" + (f" {_whole(rest)}" if rest else "")
    raise AssertionError(number)


def number_words(written: str) -> str:
    """A number as written on screen, in words, as a person reads it aloud.

    ``"0.41"`` is ``"zero point four one"`` (digits after the point one by one), ``"1.00"`` is
    ``"one"`` and ``"0.50"`` is ``"zero point five"`` (trailing zeros are the screen's rounding, not
    words), ``"16,384"`` is ``"sixteen thousand three hundred eighty-four"``.
    """
    whole, _, fraction = written.replace(",", "").partition(".")
    fraction = fraction.rstrip("0")
    words = _whole(int(whole)) if whole else "zero"
    if fraction:
        words += " point " + " ".join(ONES[int(digit)] for digit in fraction)
    return words


EXACT_BELOW = 100_000
"""Whole numbers from here up are said rounded to three figures ("about 604 million"): nobody listens to nine digits."""


def large_number_words(number: int) -> str:
    """A large whole number as a person says it: ``603979776`` is ``"about six hundred four million"``.

    Rounded to three significant figures and named by its largest scale; "about" only when the
    rounding changed it (``1000000`` is ``"one million"``).
    """
    rounded = round(number, 3 - len(str(number)))
    scale, name = next((scale, name) for scale, name in SCALES if rounded >= scale)
    words = f"{number_words(f'{rounded / scale:.3g}')} {name}"
    return words if rounded == number else f"about {words}"


def year_words(year: int) -> str:
    """A year as it is said: 2017 is "twenty seventeen", 2005 "two thousand five", 1998 "nineteen ninety-eight"."""
    century, rest = divmod(year, 100)
    if 2000 <= year < 2010 or year % 1000 == 0:
        return _whole(year)
    if rest == 0:
        return f"{_whole(century)} hundred"
    return f"{_whole(century)} {'oh ' + ONES[rest] if rest < 10 else _whole(rest)}"


# Formulas, each as the scenes write it, with how it is said. Applied in order, before the symbols.
FORMULAS: tuple[tuple[str, str], ...] = (
    (r"Q\s*·\s*Kᵀ", " Q K transpose "),
    (r"\bq\s*·\s*k\b", " q dot k "),
    (r"√\s*\(([^)]*)\)", r" the square root of \1 "),
    (r"√\s*([\w.]+)", r" the square root of \1 "),
    (r"\be\s*\^\s*\(?(\w+)\)?", r" e to the \1 "),
    (r"\bnp\.(\w+)", r" numpy \1 "),
    (r"\[(CLS|SEP|PAD|UNK)\]", lambda m: " " + " ".join(m.group(1)) + " "),
    (r"\[MASK\]", " mask "),
    (r"<pad>", " pad "),
    (r"##", " hash hash "),
    # A shape, (6, 16) or (8, 6, 2), is said with "by"; a shape in brackets is a list of numbers.
    (r"\((\s*\d+(?:\s*,\s*\d+)+\s*)\)", lambda m: " " + " by ".join(p.strip() for p in m.group(1).split(",")) + " "),
    # Dimensions, 4×4 or "n × d", are said with "by"; products of decimals with "times".
    (r"(?<![\w.])(\d+|[a-zA-Z])\s*×\s*(\d+|[a-zA-Z])(?![\w.])", r" \1 by \2 "),
)

CALL = re.compile(r"(\w)\(([^()]*(?:\([^()]*\))?[^()]*)\)")
"""A function applied, norm1(x + attention(x)): said "norm one of x plus attention of x", without pauses."""

SYMBOLS = {
    "×": " times ",
    "·": " times ",
    "÷": " divided by ",
    "/": " divided by ",
    "+": " plus ",
    "=": " equals ",
    "≈": " is about ",
    "<": " less than ",
    ">": " greater than ",
    "→": " to ",
    "…": " to ",
    "%": " percent ",
    "&": " and ",
    "∞": " infinity ",
    "≤": " at most ",
    "≥": " at least ",
    "≠": " is not ",
    "Σ": " the sum of ",
    "²": " squared ",
    "³": " cubed ",
    "ᵀ": " transpose ",
    "_": " ",
    "—": ", ",
    "–": ", ",
    "(": ", ",
    ")": ", ",
    "[": ", ",
    "]": ", ",
    "“": "",
    "”": "",
    '"': "",
    "‘": "'",
    "’": "'",
    "\u00a0": " ",
    "\u202f": " ",
}

GREEK = dict(
    zip(
        "αβγδεζηθικλμνξπρστυφχψωΔΣΩ",
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon phi chi psi omega "
        "Delta Sigma Omega".split(),
    )
)
"""A Greek letter standing alone is a symbol (γ, β); inside a Greek word it is left as written."""

UNITS = {"MiB": "mebibytes", "KiB": "kibibytes", "GiB": "gibibytes", "GB": "gigabytes", "MB": "megabytes"}

NUMBER = re.compile(r"(?<![\w.])([−-]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


def _say_number(match: re.Match) -> str:
    sign, whole, fraction = match.group(1), match.group(2), match.group(3) or ""
    value = int(whole.replace(",", ""))
    if not sign and not fraction and len(whole) == 4 and 1900 <= value < 2100:
        # Four digits without a thousands separator are a year: the scenes group every other number (2,048).
        words = year_words(value)
    elif not fraction and value >= EXACT_BELOW:
        words = large_number_words(value)
    else:
        words = number_words(whole + fraction)
    return (" minus " if sign else " ") + words + " "


QUOTED_WORD = re.compile(r"(?<!\bword )(?<!\btoken )[“‘\"]([^\s“”‘’\"]+?)[”’\"](?!\w)")
"""One word in quotation marks ("the weights of “The”"): the marks are silent, so it is said as "the word The"."""

NAMED_BEFORE = re.compile(r"\b(?:the|a|an|its) [^\W\d_]+ $", re.IGNORECASE)
"""A noun phrase just before a quoted word ("the query “cat”", "the new “cat”"): it already names the word."""


def _say_quoted(match: re.Match) -> str:
    # "the new “cat”" as "the new the word cat" is garbled: after a noun phrase the word is said alone.
    if NAMED_BEFORE.search(match.string[: match.start()]):
        return f" {match.group(1)} "
    return f" the word {match.group(1)} "


def _plural(words: str) -> str:
    if words.endswith("x"):
        return words + "es"
    if words.endswith("y"):
        return words[:-1] + "ies"
    return words + "s"


FOREIGN_QUOTE = re.compile(r"[“\"]([^”\"]*[^\W\d_a-zA-Z][^”\"]*)[”\"]")
"""A quotation holding a letter outside English's alphabet ("El gato se sentó…"): the English voice does not read it."""

SEED = re.compile(r"\(seed (?:\d[\d,]*)\)|\bseed (?:\d[\d,]*)\b")
"""A random generator's seed, "seed 42": a label, not a quantity, so it is not read out as a number."""


def _foreign_quote(match: re.Match) -> str:
    """A foreign sentence (three words or more) as "the sentence on screen"; a word or two is read as written."""
    words = re.findall(r"[^\W\d_]+", match.group(1))
    return " the sentence on screen " if len(words) >= 3 else match.group(0)


def _unread_seed(match: re.Match) -> str:
    return " with a fixed seed " if match.group(0).startswith("(") else " a fixed seed "


def spoken_form(text: str, strict: bool = False) -> str:
    """What a voice says for caption ``text``: formulas, symbols and numbers in words.

    With ``strict``, a character left without words raises :class:`UnspeakableText`;
    otherwise it is dropped, so no raw symbol, LaTeX or underscore ever reaches the voice.
    A quotation with letters beyond English's alphabet (a Spanish sentence, a teacher's sentence in
    another language) is said as "the sentence on screen", and a seed as "a fixed seed".
    """
    text = unicodedata.normalize("NFC", text)
    text = FOREIGN_QUOTE.sub(_foreign_quote, text)
    text = SEED.sub(_unread_seed, text)
    text = QUOTED_WORD.sub(_say_quoted, text)
    for pattern, spoken in FORMULAS:
        text = re.sub(pattern, spoken, text)
    while CALL.search(text):
        text = CALL.sub(r"\1 of \2", text)
    text = re.sub(r"(?<![^\W\d_])([α-ωΑ-Ω])(?![^\W\d_])", lambda m: f" {GREEK.get(m.group(1), m.group(1))} ", text)
    for unit, spoken in UNITS.items():
        text = re.sub(rf"\b{unit}\b", f" {spoken} ", text)
    # 1s and 0s are ones and zeros.
    text = re.sub(r"(?<![\w.])(\d+)s\b", lambda m: f" {_plural(number_words(m.group(1)))} ", text)
    # A word glued to a number (GPT-3, float32, norm1) is said as the word, then the number.
    text = re.sub(r"([^\W\d_])-?(\d)", r"\1 \2", text)
    text = re.sub(r"(\d)([^\W\d_])", r"\1 \2", text)
    text = NUMBER.sub(_say_number, text)
    text = re.sub(r"\s+-(?=[^\W\d_])", "-", text)  # a 4-number row: "four-number"
    # A minus sign left over sits between two terms ("n − 1" has its number read above).
    text = re.sub(r"\s[−-]\s", " minus ", text).replace("−", " minus ")
    for symbol, spoken in SYMBOLS.items():
        text = text.replace(symbol, spoken)
    # A variable of lowercase letters without a vowel (td, ff) is spelled out.
    # Not after an apostrophe: the "ll" of "We'll" is part of the word.
    text = re.sub(r"(?<![\w'’])[b-df-hj-np-tv-xz]{2,3}\b", lambda m: " ".join(m.group(0)), text)
    # An apostrophe standing alone (the pieces "didn ' t") is named; inside a word it is kept.
    text = re.sub(r"(?<!\w)'(?!\w)", " apostrophe ", text)
    left = "".join(SPEAKABLE.sub("", text).split())
    if left:
        if strict:
            raise UnspeakableText(f"no words for {left!r} in {text!r}")
        text = "".join(piece for piece in SPEAKABLE.findall(text) if piece)
    return _tidy(text)


def _tidy(text: str) -> str:
    """Single spaces, no space before punctuation, no doubled or leading commas."""
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    text = re.sub(r",([.!?])", r"\1", text)
    text = re.sub(r"^[,;:\s]+|[,;:\s]+$", "", text)
    text = re.sub(r"([,;:.!?])(?=\w)", r"\1 ", text)
    text = re.sub(r"\s+'s\b", "'s", text)
    text = re.sub(r"\bone (mebi|kibi|gibi|giga|mega)bytes\b", r"one \1byte", text)
    text = re.sub(r"\b(about|is about) about\b", r"\1", text)  # "about 603,979,776" is already approximate
    return text.strip()
