"""Text of every kind: labels (user text, always ``Text``), numbers as shown, and formulas (LaTeX, code only).

A number is drawn once, as ``Text`` (never rebuilt per frame): a value that changes is shown
by transforming to another pre-built label.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Sequence, TypeVar

from manim import DOWN, RIGHT, UP, MathTex, Mobject, Rectangle, Text, TexTemplate, VGroup, config
from manim.constants import START_X, START_Y
from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP, SVGMobject
from manim.mobject.text.text_mobject import TEXT2SVG_ADJUSTMENT_FACTOR
from manim.utils.iterables import hash_obj
from manimpango import MarkupUtils

from ..theme import Theme, format_number

__all__ = [
    "SANS_TEX",
    "SUBSCRIPTED",
    "SymbolText",
    "cheap_to_copy",
    "baseline",
    "boxed_on_baseline",
    "on_one_baseline",
    "on_one_line",
    "label",
    "fit_label",
    "elided_label",
    "word_rows",
    "label_lines",
    "number_label",
    "formula",
]

T = TypeVar("T", bound=Mobject)


def cheap_to_copy(mobject: T) -> T:
    """``mobject`` with its glyphs' parsed SVG paths dropped, so copying it costs a fraction.

    A glyph keeps the svgelements path it was built from, though manim reads it only while
    building the glyph; every FadeIn, FadeOut and Transform deep-copies each glyph twice,
    path included (1.1 ms a glyph). Copying a hundred numbers took 0.64 s with the paths
    and 0.09 s without (measured here): scenes full of numbers spent much of their time
    copying them.
    """
    for part in mobject.get_family():
        if getattr(part, "path_obj", None) is not None:
            part.path_obj = None
        if isinstance(part, SVGMobject):
            # manim builds every later formula (and, in test builds, text) with the same characters by copying
            # the one it cached when it built the first: keep that one light too (one formula drawn ten times
            # took 1.51 s with the cached paths, 0.29 s without; measured here).
            cached = SVG_HASH_TO_MOB_MAP.get(hash_obj(part.hash_seed))
            if cached is not None and cached is not part:
                for glyph in cached.get_family():
                    glyph.path_obj = None
    return mobject


LEFT_TO_RIGHT_MARK = "\u200e"


def _right_to_left(content: str) -> bool:
    return any(unicodedata.bidirectional(character) in ("R", "AL") for character in content)


SUBSCRIPTED = re.compile(r"(?<!\w)(W)_([QKVO])(?!\w)|(?<!\w)(d)_(k|v|model|head|ff)(?!\w)")
"""The maths symbols the scenes write with an underscore (W_Q, d_model, √d_k), drawn with a subscript.

A fixed vocabulary, not every underscore: a teacher's ``snake_case`` word or a file name stays as
written. The scenes' own strings hold no other such symbol (x_i, h_t and k_j appear only in LaTeX).
"""


def _subscript_markup(content: str) -> str:
    """``content`` as Pango markup: each symbol of :data:`SUBSCRIPTED` subscripted, every other character escaped."""
    pieces, done = [], 0
    for match in SUBSCRIPTED.finditer(content):
        base, below = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        pieces.append(html.escape(content[done : match.start()]))
        pieces.append(f"{base}<sub>{below}</sub>")
        done = match.end()
    pieces.append(html.escape(content[done:]))
    return "".join(pieces)


class SymbolText(Text):
    """A :class:`~manim.Text` whose glyphs Pango lays out from markup: a label holding a subscripted symbol.

    manim's ``MarkupText`` draws ``<sub>`` too, but it is not a ``Text`` (so whatever finds the
    texts on screen, the layout checks and the tests' drawn text, would pass it by) and it wraps
    its line at 500 px, where ``Text`` keeps a line as long as the frame. This class is a ``Text``
    in every way but the one call that turns the string into glyphs, which is the call
    ``MarkupText`` makes (``MarkupUtils.text2svg``), given the frame's width as ``Text`` gives it.
    ``original_text`` is the string as written ("W_Q"), not the markup.
    """

    def __init__(self, content: str, markup: str, **kwargs):
        self.markup = markup
        super().__init__(content, **kwargs)

    def _text2hash(self, color) -> str:
        # The markup decides the glyphs: two labels with one text but other markup must not share an SVG.
        return "markup-" + super()._text2hash(str(color) + self.markup)

    def _text2svg(self, color) -> str:
        directory = config.get_dir("text_dir")
        directory.mkdir(parents=True, exist_ok=True)
        file_name = directory / (self._text2hash(color) + ".svg")
        if file_name.exists():
            return str(file_name.resolve())
        return MarkupUtils.text2svg(
            f'<span foreground="{color}">{self.markup}</span>',
            self.font,
            self.slant,
            self.weight,
            self._font_size / TEXT2SVG_ADJUSTMENT_FACTOR,
            None,  # manimpango ignores this argument (line spacing): a label is one line
            self.disable_ligatures,
            str(file_name.resolve()),
            START_X,
            START_Y,
            config["pixel_width"],
            config["pixel_height"],
        )


def label(theme: Theme, content: str, size: int | None = None, color: str | None = None, mono: bool = False) -> Text:
    """Plain text in the theme's font. User text (tokens, sentences) is always drawn this way.

    Hebrew and Arabic are shaped and ordered by Pango. A text that starts right-to-left is drawn
    after an invisible left-to-right mark: manim (0.22) keeps only the glyphs of a left-to-right
    paragraph, and drew a purely right-to-left word as nothing.

    A maths symbol of :data:`SUBSCRIPTED` ("Mix the heads with W_O") is drawn with its subscript
    (a :class:`SymbolText`, every other character drawn literally); any other text is a plain ``Text``.
    """
    drawn = LEFT_TO_RIGHT_MARK + content if _right_to_left(content) else content
    style = dict(
        font=theme.mono_font if mono else theme.font,
        font_size=max(size or theme.body_size, theme.min_size),
        color=color or theme.text,
    )
    if SUBSCRIPTED.search(drawn):
        text = SymbolText(drawn, _subscript_markup(drawn), **style)
    else:
        text = Text(drawn, **style)
    text.original_text = content  # what was written, as tests and pages read it
    return cheap_to_copy(text)


def fit_label(theme: Theme, content: str, max_width: float, size: int | None = None, color: str | None = None) -> Text:
    """A :func:`label` shrunk, if needed, to ``max_width``: a teacher's long word still fits its slot, drawn whole."""
    text = label(theme, content, size=size, color=color)
    if text.width > max_width:
        text.scale_to_fit_width(max_width)
    return text


def elided_label(theme: Theme, content: str, max_width: float, size: int | None = None, color: str | None = None) -> Text:
    """A :func:`label` no wider than ``max_width`` that never shrinks below the readable size.

    It first shrinks towards ``theme.min_size``, as :func:`fit_label` does; a word still too wide
    then loses letters from its end, an ellipsis standing for them ("wwwwwwwwww…").
    """
    text = fit_label(theme, content, max_width, size=size, color=color)
    if text.font_size >= theme.min_size - 1e-6 or len(content) < 2:
        return text  # (a one-letter word has nothing to elide: it stays shrunk)

    def cut(kept: int) -> Text:
        return label(theme, content[:kept] + "…", size=theme.min_size, color=color)

    # The most letters that fit, found from a guess in proportion to the width (each try draws a text, and a
    # letter-by-letter search drew up to 40 for one word): walk up while one more fits, down while this one does not.
    whole = text.width * theme.min_size / text.font_size  # the whole word's width at the smallest size
    kept = max(1, min(len(content) - 1, int(len(content) * max_width / whole)))
    text = cut(kept)
    if text.width <= max_width:
        while kept < len(content) - 1:
            longer = cut(kept + 1)
            if longer.width > max_width:
                break
            kept, text = kept + 1, longer
    else:
        while kept > 1:
            kept -= 1
            text = cut(kept)
            if text.width <= max_width:
                break
    return text


BASELINE_GLYPH = "H"
"""A letter that stands on the baseline with a flat foot (no overshoot, no descender) in every Latin face."""


def baseline(text: Text) -> float:
    """The height of ``text``'s baseline, wherever ``text`` is now and however it was scaled.

    manim's ``Text`` keeps no baseline: it is centred on its ink, so "my" (a descender) sits
    higher than "The". Pango sets :data:`BASELINE_GLYPH` and the text on one line, so the
    letter's foot there marks where the text's baseline lies within the text's ink: as a
    fraction of the ink's height, which moving and scaling keep.
    """
    written = "{} {}".format(BASELINE_GLYPH, getattr(text, "original_text", text.text))
    style = dict(font=text.font, font_size=text._font_size)
    if isinstance(text, SymbolText):
        reference = SymbolText(written, _subscript_markup(written), **style)
    else:
        reference = Text(written, **style)
    glyphs = [glyph for glyph in reference.submobjects if len(glyph.points)]
    # The letter comes first and is left-to-right, so the paragraph is too: it is the leftmost glyph.
    letter = min(glyphs, key=lambda glyph: glyph.get_left()[0])
    word = VGroup(*[glyph for glyph in glyphs if glyph is not letter])
    if not len(word) or word.height == 0:
        return float(text.get_y())
    above_bottom = (letter.get_bottom()[1] - word.get_bottom()[1]) / word.height
    return float(text.get_bottom()[1] + above_bottom * text.height)


def boxed_on_baseline(texts: Sequence[Text], padding: tuple[float, float], least: float, color: str) -> list[VGroup]:
    """Each text in a box ``padding`` wider and taller than its ink: every box as tall, every baseline as high in its box.

    The boxes' inner height is the tallest ascent plus the deepest descent of the words (at least
    ``least``), so a row of them, arranged by their centres, reads as one line of text: "The",
    "cat", "my" and "on" on one baseline, no box taller than another.
    """
    lines = [baseline(text) for text in texts]
    rise = max(text.get_top()[1] - line for text, line in zip(texts, lines))
    depth = max(line - text.get_bottom()[1] for text, line in zip(texts, lines))
    height = max(rise + depth, least) + padding[1]
    boxes = []
    for text, line in zip(texts, lines):
        box = Rectangle(width=text.width + padding[0], height=height, stroke_color=color, stroke_width=2)
        boxes.append(VGroup(box.move_to([text.get_x(), line + (rise - depth) / 2, 0]), text))
    return boxes


def on_one_baseline(texts: Sequence[Text], centres: Sequence[float] | None = None) -> None:
    """Move ``texts`` up or down onto baselines: one baseline for all, or one as high above each of ``centres``.

    Without ``centres`` (a line of column names), each text keeps its bottom where its deepest
    neighbour's descender would be, so "dog" stands as high as "bites". With them (names beside
    rows), the words' common ink, tallest ascent to deepest descent, is centred on each row's
    ``centres[k]``, so "on" sits as "The" does.
    """
    lines = [baseline(text) for text in texts]
    rise = max((text.get_top()[1] - line for text, line in zip(texts, lines)), default=0.0)
    depth = max((line - text.get_bottom()[1] for text, line in zip(texts, lines)), default=0.0)
    for k, (text, line) in enumerate(zip(texts, lines)):
        target = text.get_bottom()[1] + depth if centres is None else centres[k] - (rise - depth) / 2
        text.shift(UP * (target - line))


def on_one_line(texts: Sequence[Text]) -> None:
    """Words and numbers of one line (placed side by side, centred) on one baseline.

    Their bottoms are lined up first, as :func:`on_one_baseline` expects: arranged by their centres, a number
    or "×" (no descender) stood higher than "in training:" (whose "g" hangs below the line).
    """
    for text in texts[1:]:
        text.align_to(texts[0], DOWN)
    on_one_baseline(texts)


def word_rows(theme: Theme, tokens: Sequence[str], width: float, size: int | None = None, color: str | None = None) -> VGroup:
    """A teacher's words, each whole in a box, wrapped onto as many centred lines as ``width`` needs.

    Where labels elsewhere elide a long word (:func:`elided_label`), this shows it whole.
    """
    texts = []
    for token in tokens:
        text = label(theme, token, size=size or theme.body_size, color=color or theme.text)
        if text.width > width - 0.3:
            text.scale_to_fit_width(width - 0.3)
        texts.append(text)
    boxes = boxed_on_baseline(texts, (0.24, 0.24), 0.3, theme.line)
    lines, current, used = [], [], 0.0
    for box in boxes:
        if current and used + 0.25 + box.width > width:
            lines.append(VGroup(*current).arrange(RIGHT, buff=0.25))
            current, used = [], 0.0
        used += (0.25 if current else 0.0) + box.width
        current.append(box)
    lines.append(VGroup(*current).arrange(RIGHT, buff=0.25))
    return VGroup(*lines).arrange(DOWN, buff=0.2)


def number_label(
    theme: Theme, value: float, decimals: int, size: int | None = None, color: str | None = None, mono: bool = True
) -> Text:
    """One number, formatted as everywhere on screen, in the monospace font (or the body font, 13 % narrower)."""
    return label(theme, format_number(value, decimals), size=size or theme.small_size, color=color, mono=mono)


SANS_TEX = TexTemplate()
"""LaTeX set in a sans face, words and maths alike, so a formula reads like the ``Text`` beside it.

Helvetica (psnfss, in texlive-fonts-recommended) is the body font; mathastext draws the
letters and digits of formulas in it too, leaving only symbols (√, Σ, brackets) to Computer Modern.
"""
SANS_TEX.add_to_preamble(
    r"\usepackage[T1]{fontenc}\usepackage{helvet}\renewcommand{\familydefault}{\sfdefault}\usepackage[italic]{mathastext}"
)


def formula(theme: Theme, *tex: str, size: int | None = None, colors: dict[str, str] | None = None) -> MathTex:
    """A formula written in the code (never user text), typeset by LaTeX in the sans face of :data:`SANS_TEX`."""
    tex_mobject = MathTex(
        *tex,
        font_size=max(size or theme.formula_size, theme.min_formula_size),
        color=theme.text,
        tex_to_color_map=colors or {},
        tex_template=SANS_TEX,
    )
    return cheap_to_copy(tex_mobject)


def label_lines(theme: Theme, tokens: Sequence[str], slot: float, size: int | None = None, most: int = 3) -> int:
    """How many staggered lines labels ``slot`` apart need: the fewest at which every label keeps its size,
    else the fewest at which it keeps the readable size.

    On ``k`` lines a label may be ``k`` slots wide; ``most`` lines at the most (the
    labels then shrink to fit, as :func:`fit_label` does).
    """
    widest = max((label(theme, token, size=size).width for token in tokens), default=0.0)
    for scale in (1.0, theme.min_size / max(size or theme.body_size, theme.min_size)):
        for k in range(1, most + 1):
            if widest * scale <= k * slot:
                return k
    return most
