"""The layout rule over every animation and step of every scene, at the sizes its options allow.

(With the default inputs it is checked in ``test_scenes.py``, on the build every check there shares.)

No text or number under 2.5 % of the frame's height, no two texts overlapping, everything inside
a 5 % safe margin (see ``tests/layout.py`` for how each is measured).
"""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UP, Arc, Dot, MathTex, Square, Tex, Text, VGroup

from attention_explainer.options import MAX_TOKEN_CHARACTERS, validate
from scenes import SCENES
from scenes.kit.text import formula, label
from scenes.theme import DARK

from . import layout
from .helpers import build_without_video
from .layout import MIN_GLYPH_HEIGHT, glyph_height, layout_problems


def build_and_watch(name: str, settings: dict) -> list[str]:
    """Build scene ``name`` with ``settings`` without video; the layout problems seen and the numbers near their cells'
    borders (:func:`.layout.glyph_clearance_problems`), once each, with their step."""
    scene_class = SCENES[name]
    trace = scene_class.build_trace(**validate(scene_class, settings))
    recording = build_without_video(scene_class, watch_layout=True, draw=False, trace=trace).recording
    return [*recording.layout_problems, *recording.glyph_problems]


HOSTILE_LONGEST = (
    r"wwwwwwwwwwwwwwwwwwwwwwww \input{/etc/hostname}int 50%a_bcharacteristically #{<eos>overwhelmingly "
    r'</span>&misunderstanding "quoted"café猫🙂counterpro'
)
"""Six words, each long, the five after the first led by the hostile pieces of test_inputs.py."""
BROKE_THE_LAYOUT = {
    "causal-mask": (" ".join(["w" * MAX_TOKEN_CHARACTERS, "m" * MAX_TOKEN_CHARACTERS]), HOSTILE_LONGEST),
    "self-attention": (r'\input{/etc/hosts}50%a_b #{<eos></span>&"q"café猫🙂',),
    "transformer-block": (HOSTILE_LONGEST,),
}
"""Sentences that once broke a scene's layout. The fewest words, each as long as a word may be: the widest letters
put causal-mask's long formula over the row sums and shrank its note below the readable size; every hostile piece (CJK
and an emoji among them) pushed self-attention's weighted sum past the safe area's right edge. The other sentence scenes
keep the rule with them too, but lasted over three minutes with them (qkv 181 s, transformer-block 180.4 s, measured
once), so test_inputs.py's fewest words stay short. And :data:`HOSTILE_LONGEST`: causal-mask listed its words in notes
off the bottom of the frame (test_inputs.py builds it with six short hostile words, which its notes list); on four lines
at the body size, transformer-block's words left its embeddings' rows 0.26 high, their names overlapping and their
numbers touching the cells' borders (test_inputs.py builds it with six short hostile words too: this sentence makes it
last 182 s)."""


def extremes(name: str) -> list[dict]:
    """The largest and smallest inputs the scene's options allow: the longest word, the sizes, a token's sentences,
    and the sentences that once broke the layout (:data:`BROKE_THE_LAYOUT`)."""
    scene = SCENES[name]
    variants = [{"sentence": sentence} for sentence in BROKE_THE_LAYOUT.get(name, ())]
    if getattr(scene, "vocabulary", None):  # only words it has embeddings for: its longest ones
        variants.append({"sentence": " ".join(sorted(scene.vocabulary(), key=len)[-scene.max_tokens :])})
    # A sentence scene's longest word, its most words (each long) and its fewest are built in test_inputs.py,
    # which checks this rule on them too (the longest word among the most words: one build for both).
    if "token" in scene.options:
        variants.append({"sentence": "The animal didn't cross the street because it was too tired today"})
        variants.append({"sentence": "Cats sleep", "token": "cats"})  # no "it": the token is given, as the CLI asks
    if "heads" in scene.options:
        d_low, d_high = scene.d_model_range
        h_low, h_high = scene.heads_range
        variants.append({"d_model": str(d_high), "heads": str(h_low)})
        variants.append({"d_model": str(d_high), "heads": str(max(h for h in range(h_low, h_high + 1) if d_high % h == 0))})
        variants.append({"d_model": str(d_low), "heads": str(max(h for h in range(h_low, h_high + 1) if d_low % h == 0))})
    unique = []
    for variant in variants:
        if variant not in unique and not is_the_default(scene, variant):
            unique.append(variant)
    return unique


def is_the_default(scene, variant: dict) -> bool:
    """Whether sizes ``variant`` give the scene's default trace (multi-head's 16 and 8): that build, and this rule on it,
    are test_scenes.py's (``test_layout_rule_with_the_default_inputs``), on the build its checks share."""
    if set(variant) - {"d_model", "heads"}:
        return False  # a sentence: never the default here, and a trained scene's trace is not built to collect
    return scene.build_trace(**validate(scene, variant)).to_json() == scene.build_trace().to_json()


def test_the_themes_smallest_sizes_are_the_smallest_the_rule_allows():
    """Capitals of the smallest text (20) and formula (27) are 2.5 % of the frame tall; a point less is not."""
    for text in (label(DARK, "H", size=24), formula(DARK, "H", size=36)):
        assert glyph_height(text) == pytest.approx(text.height, rel=0.02)  # the measure is a capital's real height
    assert glyph_height(label(DARK, "H", size=DARK.min_size)) >= MIN_GLYPH_HEIGHT
    assert glyph_height(formula(DARK, "H", size=DARK.min_formula_size)) >= MIN_GLYPH_HEIGHT
    assert Text("H", font=DARK.font, font_size=DARK.min_size - 1).height < MIN_GLYPH_HEIGHT
    assert formula(DARK, "H").scale((DARK.min_formula_size - 1) / DARK.formula_size).height < MIN_GLYPH_HEIGHT


def test_the_rule_finds_small_overlapping_and_outlying_things_and_nothing_else():
    """The checker itself, on pictures whose problems are known."""
    readable = label(DARK, "Keys", size=DARK.body_size)
    assert layout_problems([readable]) == []
    tiny = Text("tiny", font=DARK.font, font_size=DARK.min_size - 4)
    assert [p.split(":")[0] for p in layout_problems([tiny])] == ["too small"]
    first, second = label(DARK, "Query"), label(DARK, "Key")
    second.move_to(first.get_right())  # half over the first
    assert [p.split(":")[0] for p in layout_problems([first, second])] == ["overlap"]
    second.next_to(first, DOWN)
    assert layout_problems([first, second]) == []
    square = Square(side_length=1).move_to(6.9 * RIGHT)  # the frame ends at 7.11, the safe area at 6.4
    assert [p.split(":")[0] for p in layout_problems([square])] == ["outside the safe area"]
    hidden = Square(side_length=1, fill_opacity=0, stroke_opacity=0).move_to(6.9 * LEFT)
    assert layout_problems([VGroup(readable, hidden)]) == [], "an invisible part outside is no problem"
    assert [p.split(":")[0] for p in layout_problems([VGroup(readable, hidden, square.copy())])] == ["outside the safe area"]
    assert layout_problems([VGroup()]) == []


def test_the_rule_finds_the_overlapping_pairs_box_by_box_finds():
    """The overlapping pairs found all at once (numpy) are those ``Box.overlaps`` finds pair by pair, in its order.

    Boxes that touch, cross, nest, or overlap by a hair either side of the tolerance, and random ones.
    """
    rng = np.random.default_rng(7)
    edge = layout.TOLERANCE
    boxes = [layout.Box(0.0, 1.0, 0.0, 1.0), layout.Box(1.0 - edge / 2, 2.0, 0.0, 1.0), layout.Box(1.0 - 2 * edge, 2.0, 0.5, 3.0)]
    boxes += [layout.Box(0.2, 0.8, 0.2, 0.8), layout.Box(0.0, 1.0, 1.0 - edge * 1.5, 2.0)]
    for left, bottom, width, height in rng.uniform([-3, -2, 0, 0], [3, 2, 1.5, 0.6], size=(60, 4)):
        boxes.append(layout.Box(left, left + width, bottom, bottom + height))
    expected = [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if boxes[i].overlaps(boxes[j])]
    assert layout._overlapping(boxes) == expected
    assert 10 < len(expected) < len(boxes) * (len(boxes) - 1) // 2
    assert (0, 1) not in expected and (0, 2) in expected and (0, 3) in expected and (0, 4) in expected
    assert layout._overlapping(boxes[:1]) == [] and layout._overlapping([]) == []


def test_the_rule_measures_the_box_manim_measures():
    """The checker's own reading of a box (array slices of the anchors) against manim's ``get_left`` and the rest."""
    things = [
        label(DARK, "Keys & values", size=DARK.body_size).shift(2 * LEFT),
        formula(DARK, r"\frac{QK^T}{\sqrt{d_k}}").shift(UP),
        VGroup(Square(side_length=1).rotate(0.3).shift(3 * RIGHT), label(DARK, "x").shift(DOWN)),
        Dot(UP * 3.2 + RIGHT * 5),
        Arc(radius=1.5, start_angle=0.2, angle=2),
    ]
    for thing in things:
        box = layout._box(thing)
        assert (box.left, box.right, box.bottom, box.top) == pytest.approx(
            (thing.get_left()[0], thing.get_right()[0], thing.get_bottom()[1], thing.get_top()[1]), abs=1e-12
        )
        # The same points as manim's, not just the same box.
        assert sorted(map(tuple, layout._boundary(thing))) == sorted(map(tuple, thing.get_points_defining_boundary()))


def test_the_rule_reads_the_font_size_manim_reads():
    """The checker's own reading of a text's size (its height in one pass) against manim's ``font_size``."""
    texts = [
        label(DARK, "Keys & values", size=DARK.body_size),
        label(DARK, "0.42", size=DARK.min_size).scale(0.8).shift(LEFT),
        formula(DARK, r"\frac{QK^T}{\sqrt{d_k}}").scale(1.3),
        MathTex("x", "+", "y").scale(0.7),
        Tex("soft", "max"),
    ]
    texts[0][3].set_opacity(0)  # a glyph out of sight still counts in manim's height
    for text in texts:
        assert layout._font_size(text) == text.font_size


@pytest.mark.scenes
@pytest.mark.parametrize(
    "name, settings",
    # Each build on a worker of its own (one test each): one scene's extremes spread over every worker.
    [
        pytest.param(name, settings, marks=pytest.mark.xdist_group(f"{name} with {settings}"))
        for name in SCENES
        for settings in extremes(name)
    ],
    ids=lambda value: str(value)[:40],
)
def test_layout_rule_at_the_extremes_the_options_allow(name, settings):
    problems = build_and_watch(name, settings)
    assert not problems, f"{name} {settings}: {len(problems)} problems:\n" + "\n".join(problems[:40])
