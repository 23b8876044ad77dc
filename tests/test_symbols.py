"""Maths symbols written with an underscore (W_Q, d_model) are drawn with a subscript; all else literally.

The glyphs are measured: a subscript is smaller and lower than the letter it belongs to, and the
characters around it are the very glyphs a plain label draws (markup escaped, never interpreted).
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import RIGHT, Text, VGroup

from attention_explainer.pages.templating import about_render
from attention_explainer.pipeline.spoken import spoken_form
from scenes import SCENES
from scenes.kit.scene import ExplainerScene
from scenes.kit.text import SymbolText, fit_label, label
from scenes.theme import DARK

from .layout import TEXT_CAP_PER_POINT, glyph_height, layout_problems, texts_on_screen


def shape(glyph) -> np.ndarray:
    """A glyph's outline, wherever it stands: its points relative to its own lower left corner."""
    return glyph.points - glyph.get_corner(np.array([-1, -1, 0]))


def same_glyphs(drawn, expected) -> bool:
    return len(drawn) == len(expected) and all(
        a.points.shape == b.points.shape and np.allclose(shape(a), shape(b), atol=1e-6) for a, b in zip(drawn, expected)
    )


def test_a_weight_matrix_name_draws_its_letter_as_a_subscript():
    text = label(DARK, "W_Q")
    w, q = text.submobjects  # two glyphs: the underscore is not drawn
    plain_q = label(DARK, "Q").submobjects[0]
    assert isinstance(text, SymbolText) and isinstance(text, Text)
    assert text.original_text == "W_Q"
    assert q.height < 0.85 * plain_q.height, "the subscript Q is set smaller than a Q on the line"
    assert q.get_top()[1] < w.get_top()[1] - 0.25 * w.height, "the subscript's top is well below the W's"
    assert q.get_bottom()[1] < w.get_bottom()[1], "and it sits below the line the W stands on"
    assert w.get_right()[0] <= q.get_left()[0] + 1e-6, "after the W, not over it"


def test_a_dimension_subscripts_its_whole_name_and_keeps_the_words_around_it():
    text = label(DARK, "each a vector of d_model = 16 numbers")
    plain = label(DARK, "each a vector of dmodel = 16 numbers")
    assert text.original_text == "each a vector of d_model = 16 numbers"
    assert len(text) == len(plain), "one glyph per character but the underscore"
    d_index = len("eachavectorof")
    lowered = text.submobjects[d_index + 1 : d_index + 6]  # m o d e l
    on_the_line = plain.submobjects[d_index + 1 : d_index + 6]
    for small, normal in zip(lowered, on_the_line):
        assert small.height < 0.85 * normal.height
        assert small.get_bottom()[1] - text.submobjects[d_index].get_bottom()[1] < -0.02
    words = [*range(d_index + 1), *range(d_index + 6, len(plain))]
    assert same_glyphs([text.submobjects[i] for i in words], [plain.submobjects[i] for i in words])


@pytest.mark.parametrize(
    "content", ["a < b & c", "x_i and h_t stay", "snake_case file_name", "W_Qx", "xW_Q", "d_models", "W_", "<b>W</b>"]
)
def test_a_text_without_a_known_symbol_is_the_plain_text_it_always_was(content):
    drawn = label(DARK, content, size=DARK.small_size, color=DARK.query)
    before = Text(content, font=DARK.font, font_size=DARK.small_size, color=DARK.query)
    assert type(drawn) is Text and drawn.original_text == content
    assert same_glyphs(drawn.submobjects, before.submobjects)
    assert np.allclose(drawn.points, before.points) and drawn.get_fill_color() == before.get_fill_color()


@pytest.mark.parametrize("around", [" & <b>", " & <b>x</b> &amp; \"q\" 'r' <", " < 2 > 1 &#x27;"])
def test_markup_characters_beside_a_symbol_are_drawn_literally(around):
    text = label(DARK, "W_Q" + around)
    literal = label(DARK, around)
    assert type(literal) is Text, "the comparison is a plain label"
    assert text.original_text == "W_Q" + around
    assert same_glyphs(text.submobjects[2:], literal.submobjects), "every character after the symbol as a plain label draws it"


def test_a_symbol_label_keeps_its_font_size_colour_and_width_fitting():
    text = label(DARK, "W_Q", size=DARK.title_size, color=DARK.key, mono=True)
    mono_w = Text("W", font=DARK.mono_font, font_size=DARK.title_size).submobjects[0]
    assert np.allclose(shape(text.submobjects[0]), shape(mono_w), atol=1e-6), "the W in the monospace font at title size"
    assert all(glyph.get_fill_color().to_hex().lower() == DARK.key.lower() for glyph in text.submobjects)
    assert text.font_size == pytest.approx(DARK.title_size)
    fitted = fit_label(DARK, "the projections W_Q, W_K, W_V and W_O", max_width=2.0)
    assert isinstance(fitted, SymbolText) and fitted.width == pytest.approx(2.0)


def test_right_to_left_text_with_a_symbol_still_draws_every_letter():
    content = "שלום W_Q"
    text = label(DARK, content)
    assert isinstance(text, SymbolText) and text.original_text == content
    assert len(text) == len("שלוםWQ")


def test_a_symbol_sits_in_a_row_of_labels_as_a_word_with_a_descender_does():
    """Rows centre labels on their ink: a subscript reaches no lower than a "y" does, so the row's line stays level."""
    symbol = label(DARK, "mixed by W_O")
    descender = label(DARK, "mixed by Wy")
    row = VGroup(label(DARK, "Mix the heads"), symbol).arrange(RIGHT)
    drop = symbol.submobjects[-2].get_bottom()[1] - symbol.submobjects[-1].get_bottom()[1]
    tail = descender.submobjects[-2].get_bottom()[1] - descender.submobjects[-1].get_bottom()[1]
    assert 0 < drop <= 1.15 * tail, (drop, tail)
    assert symbol.height <= 1.05 * descender.height
    baselines = [row[0].submobjects[0].get_bottom()[1], symbol.submobjects[0].get_bottom()[1]]  # "M" and "m" stand on the line
    assert abs(baselines[0] - baselines[1]) <= 0.5 * tail + 1e-6


def test_the_layout_checks_measure_a_symbol_label_as_a_text():
    heading = label(DARK, "Mix the heads with W_O", size=DARK.title_size)
    small = label(DARK, "W_Q", size=DARK.min_size).next_to(heading, np.array([0, -1, 0]))
    assert texts_on_screen([VGroup(heading, small)]) == [heading, small]
    assert glyph_height(small) == pytest.approx(DARK.min_size * TEXT_CAP_PER_POINT)
    assert layout_problems([heading, small]) == []
    assert any("overlap" in problem for problem in layout_problems([heading, label(DARK, "d_k").move_to(heading)]))


def test_a_heading_with_a_symbol_is_drawn_with_the_subscript():
    heading = ExplainerScene.heading.__get__(type("Bare", (), {"theme": DARK})())("Mix the heads with W_O")
    assert isinstance(heading, SymbolText) and heading.original_text == "Mix the heads with W_O"


@pytest.mark.parametrize(
    "written, said",
    [("Mix the heads with W_O", "Mix the heads with W O"), ("W_Q, W_K, W_V", "W Q, W K, W V"), ("d_model", "d model")],
)
def test_the_voice_reads_a_symbol_by_its_letters_not_its_underscore(written, said):
    assert spoken_form(written, strict=True) == said


class Described:
    options = ("sentence", "seed")
    description = "Scores for “{sentence}”."

    def __init__(self, sentence):
        self.sentence = sentence

    @classmethod
    def describe(cls, trace):
        return cls.description.replace("{sentence}", trace.sentence)

    @classmethod
    def inputs_as_rendered(cls, trace):
        return [("sentence", trace.sentence), ("seed", "42")]


def test_a_description_ending_in_a_quoted_input_ends_with_a_full_stop():
    about = about_render(Described, Described("A cat."))
    assert about == "Scores for “A cat.” — sentence “A cat.”, random seed 42."


@pytest.mark.parametrize("name", ["multi-head", "scaling", "qkv"])
def test_every_scene_description_is_one_sentence_with_its_full_stop(name):
    scene = SCENES[name]
    about = about_render(scene, scene.build_trace())
    assert about.endswith(".") and not about.endswith("..")
    inputs = scene.inputs_as_rendered(scene.build_trace())
    if inputs:  # the last input ends the sentence, a number plain and words in quotes
        name, value = inputs[-1]
        assert about.endswith(f"“{value}”." if name in ("sentence", "token") else f" {value}.")
    assert ". —" not in about, "no full stop before the inputs' dash"
