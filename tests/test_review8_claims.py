"""What the eighth fresh review found weak in softmax and complexity, held to the trace.

Softmax promised the division by √d_k and never applied it to its example, and told (never showed) why
dot products are divided by √d_k. Complexity gave the 4,608-token crossover without its reason, and said
"widen the whole model instead" without saying what was held fixed. Expected values are worked out here
with numpy from the traces' inputs, never read from the scenes' code.
"""

from __future__ import annotations

import numpy as np
import pytest

from attention_math.generation import layer_macs
from scenes.theme import format_number

from .helpers import built_scene, looks_at_the_shared_build, shown


def lines_of(scene, step: str) -> list:
    return next(s for s in scene.steps if s.name == step).lines


def said(scene, step: str) -> str:
    return " ".join(line.text for line in lines_of(scene, step))


@pytest.mark.xdist_group("softmax")
def test_softmax_applies_the_promised_square_root_to_its_own_example():
    scene = built_scene("softmax")
    t = scene.trace
    query, keys = np.asarray(t.query), np.asarray(t.keys)
    scores = keys @ query / np.sqrt(query.size)  # d_k = 2: divide by √2
    weights = np.exp(scores) / np.exp(scores).sum()
    line = said(scene, "scaled-weights")
    assert f"divides the scores by its square root, {format_number(np.sqrt(query.size), 2)}" in line
    assert ", ".join(format_number(s, 2) for s in scores) in line
    assert f"attention weights: {', '.join(format_number(w, 2) for w in weights)}" in line
    # "still gets the most, a little less than before scaling": true of these numbers.
    unscaled = np.exp(keys @ query) / np.exp(keys @ query).sum()
    assert np.argmax(weights) == 0 and weights[0] < unscaled[0]
    assert "still gets the most, a little less than before scaling" in line
    # The step's numbers are on screen as said.
    texts = shown(scene, "scaled-weights")
    assert {format_number(w, 2) for w in weights} <= texts
    assert format_number(np.sqrt(query.size), 2) in texts
    # The opening promise ("that comes at the end") is kept: the scaled step comes before the summary.
    names = [step.name for step in scene.steps]
    assert names.index("scaled-weights") == len(names) - 2


@pytest.mark.xdist_group("softmax")
def test_softmax_shows_random_dot_products_spread_like_the_root_of_d_k_and_about_1_once_divided():
    scene = built_scene("softmax")
    t = scene.trace
    widths = np.asarray(t.spread_d_k)
    # Recomputed from the trace's sampled products: the spreads said are their standard deviations.
    spread = np.asarray(t.spread_dots).std(axis=1)
    divided = (np.asarray(t.spread_dots) / np.sqrt(widths)[:, None]).std(axis=1)
    # The claim "grows like √d_k" holds of these samples within 10 %, "about 1" within 10 % once divided.
    assert np.all(np.abs(spread / np.sqrt(widths) - 1) < 0.1)
    assert np.all(np.abs(divided - 1) < 0.1)
    line = said(scene, "why-square-root")
    for s in (*spread, *divided):
        assert format_number(s, 2) in line
        assert format_number(s, 2) in shown(scene, "why-square-root")
    # Shown, not only told: a dot per sampled product on screen in that step.
    assert np.asarray(t.spread_dots).shape[1] >= 100
    assert "a fixed random seed" in " ".join(shown(scene, "why-square-root"))


@pytest.mark.xdist_group("complexity")
def test_complexity_says_where_the_n_by_n_part_is_half_a_layer_and_why():
    scene = built_scene("complexity")
    t = scene.trace
    d_model, d_ff = 768, 3072  # GPT-2 small
    # 2n²d = (4d² + 2d·d_ff)·n  ⇔  n = 2d + d_ff.
    n = 2 * d_model + d_ff
    parts = layer_macs(n, d_model, d_ff)
    assert parts[1] + parts[2] == parts[0] + parts[3] + parts[4]
    line = said(scene, "half-the-layer")
    assert f"2 × {format_number(d_model, 0)} + {format_number(d_ff, 0)} = {format_number(n, 0)} tokens" in line
    each = format_number((parts[1] + parts[2]) / 1e9, 1)
    # Both sides' counts at 4,608 shown (equal): the check is on screen, not said.
    assert [s.source for s in scene.shown if s.source.startswith("layer_half_billions")] == [
        "layer_half_billions[0]",
        "layer_half_billions[1]",
    ]
    assert {format_number(n, 0), format_number(d_model, 0), format_number(d_ff, 0), each} <= shown(scene, "half-the-layer")
    # The summary says it plainly now; the phrase a listener could not parse is gone.
    takeaway = said(scene, "takeaway")
    # Half of a layer's work, as the screen says (review 14), past GPT-2 small's 1,024-token limit, shown.
    assert (
        f"The n² part reaches half a layer's work at {format_number(t.layer_half_n, 0)} tokens, past GPT-2 small's limit"
        in takeaway
    )
    assert n > 1024 and {"past GPT-2 small's limit of", format_number(1024, 0)} <= shown(scene, "takeaway")
    assert "twice the width plus" not in takeaway


@pytest.mark.xdist_group("complexity")
def test_complexity_says_what_is_held_fixed_when_the_width_doubles():
    scene = built_scene("complexity")
    line = said(scene, "width-is-linear")
    # Doubling d_model (and d_ff with it) multiplies 4·n·d² + 2·n·d·d_ff by 4, worked out here by hand.
    n, d_model, d_ff = 1024, 768, 3072
    growth = (4 * n * (2 * d_model) ** 2 + 2 * n * (2 * d_model) * (2 * d_ff)) / (4 * n * d_model**2 + 2 * n * d_model * d_ff)
    assert growth == 4
    # What is held fixed (GPT-2 small's 12 heads, now of 128), and the condition the feed-forward's ×4 needs
    # (review 12): d_ff grows too. Review 17: short lines, the whole layer's ×3.64 a line of its own. Review 18:
    # said that the frame is now a whole layer (the table above it is one head), heads 64 → 128. Review 19: said
    # to be made twice as wide, with its model width, not heard as GPT-2 small's own layer.
    heads, head = 12, 2 * 64
    wide_model = 2 * d_model
    assert (
        f"Now a GPT-2 small layer made twice as wide: model width {format_number(wide_model, 0)}, {heads} heads {head} wide:"
        in line
    )
    assert "Now a whole GPT-2 small layer" not in line
    assert f"the n × n part costs 2 times, the rest {format_number(growth, 0)} times," in line
    assert "Widen the whole model instead" not in line
    layer = lines_of(scene, "width-is-linear")
    wide = (3 * 1024 * 1536**2 + 2 * 1024**2 * 1536 + 1024 * 1536**2 + 2 * 1024 * 1536 * 6144) / (
        3 * 1024 * 768**2 + 2 * 1024**2 * 768 + 1024 * 768**2 + 2 * 1024 * 768 * 3072
    )
    # Review 19: the step's point said, the n × n share falling, from the counts worked out here.
    narrow_share = 2 * 1024**2 * 768 / (3 * 1024 * 768**2 + 2 * 1024**2 * 768 + 1024 * 768**2 + 2 * 1024 * 768 * 3072)
    wide_share = 2 * 1024**2 * 1536 / (3 * 1024 * 1536**2 + 2 * 1024**2 * 1536 + 1024 * 1536**2 + 2 * 1024 * 1536 * 6144)
    assert (round(100 * narrow_share), round(100 * wide_share)) == (18, 10)
    assert layer[-1].text == (
        f"the whole layer {format_number(wide, 2)} times: the n × n share falls from "
        f"{round(100 * narrow_share)} to {round(100 * wide_share)} percent."
    )
    assert all(len(li.text) <= 100 for li in layer), [li.text for li in layer]
    heard = " ".join(li.spoken for li in layer)
    assert "the n by n share falls from eighteen to ten percent" in heard and "d f f" not in heard
    # On screen, both doublings and the 4 they make.
    width = shown(scene, "width-is-linear")
    assert {"wide, d_ff ×", "2", "projections, feed-forward", "×", "4"} <= width, sorted(width)


@pytest.mark.xdist_group("complexity")
def test_complexity_says_its_layer_counts_include_the_scores_the_causal_mask_hides():
    """Review 15: GPT-2 is causal, yet 4,608 counts the full n × n square; the screen says it counts all n² scores.

    Review 17: said where the shares (18 and 31 percent) are first shown, step 5, not only at 4,608 (step 7).
    """
    scene = built_scene("complexity")
    layer = shown(scene, "whole-layer")
    assert any("n² scores counted" in text and "causally masked" in text for text in layer), sorted(layer)
    # Review 18: said as it is shown, in one short line (three small grey lines were never read).
    assert "Counted as plain code: all n² scores, even masked ones; not biases, norms or softmax" in said(scene, "whole-layer")
    notes = [text for text in layer if text.startswith("* ") or "scores counted" in text]
    assert len(notes) == 2, notes
    half = shown(scene, "half-the-layer")
    assert any("all n² scores counted" in text for text in half), sorted(half)


@pytest.mark.xdist_group("complexity")
def test_complexity_says_its_bars_are_divided_by_the_cost_at_the_first_length():
    """Review 15: "each count over the one at 512" and "relative to the first" left "the first" what unsaid."""
    scene = built_scene("complexity")
    first = format_number(512, 0)
    heard = " ".join(line.spoken for line in lines_of(scene, "doubling-quadruples"))
    assert "divided by its value at five hundred twelve tokens" in heard and " over the one" not in heard
    legend = shown(scene, "doubling-quadruples")
    assert f"÷ its value at {first} tokens" in legend and "relative to the first" not in legend


@pytest.mark.xdist_group("complexity")
def test_complexity_states_the_feed_forward_condition_and_never_spells_d_ff():
    """Review 12: "the feed-forward grows like n × d_model²" holds only because GPT-2's d_ff is 4 d_model; say so.

    The feed-forward costs 2·n·d_model·d_ff, so the condition is the ratio of GPT-2 small's sizes (Radford et al.
    2019: 768 wide, a feed-forward 4 × 768 = 3,072 wide). The voice names d_ff as the feed-forward width, never
    as the letters "d f f".
    """
    scene = built_scene("complexity")
    ratio = 3072 // 768
    # Review 18: in words in the caption, not d_ff and d_model (the screen names each width beside its symbol).
    assert (
        f"With the feed-forward {ratio} times the model width, as in GPT-2, projections and feed-forward grow like "
        "n × width²" in said(scene, "whole-layer")
    )
    assert {"model width", "feed-forward width"} <= shown(scene, "whole-layer")
    heard = [line.spoken for step in scene.steps for line in step.lines]
    assert not [line for line in heard if "d f f" in line or "d ff" in line]
    assert "feed-forward width" in " ".join(li.spoken for li in lines_of(scene, "whole-layer"))
    assert "feed-forward width" in " ".join(li.spoken for li in lines_of(scene, "half-the-layer"))


@pytest.mark.xdist_group("complexity")
def test_complexity_counts_work_not_time_and_says_why_the_memory_matters():
    """Review 12: multiply-adds are work, not time; and one head's memory times GPT-2 small's 144 heads, as kept."""
    scene = built_scene("complexity")
    everything = " ".join(line.text for step in scene.steps for line in step.lines)
    assert "Time grows" not in everything and "The work grows the same way" in said(scene, "multiply-adds")
    assert "time:" not in shown(scene, "takeaway") and "work:" in shown(scene, "takeaway")
    heads, layers, n = 12, 12, 1024  # GPT-2 small: 12 heads in each of 12 layers, 1,024-token context
    kept_mib = 4 * n * n * heads * layers / 2**20  # float32 weights of every head of every layer
    assert kept_mib == 576
    line = said(scene, "memory")
    # Said, not only shown, that training keeps them (review 15): no listener takes 576 MiB for a forward pass's.
    # Review 18: said per text of 1,024 tokens, as the screen says, not as if for a whole training run.
    assert (
        f"Training GPT-2 small on a text of {format_number(n, 0)} tokens, its limit, keeps {heads * layers} heads' "
        f"weights: at least {format_number(kept_mib, 0)} MiB" in line
    )
    assert {format_number(kept_mib, 0), format_number(heads, 0), format_number(n, 0)} <= shown(scene, "memory")


@pytest.mark.xdist_group("complexity")
def test_complexity_gives_the_144_heads_and_576_mib_to_gpt2_small_not_gpt2():
    """Review 14: "GPT-2 ... 144 heads" was wrong: the paper's "GPT-2" is the 1.5 B model, 48 layers of 25 heads.

    144 = 12 layers × 12 heads and 576 MiB = 144 × 4 · 1,024² bytes are GPT-2 small's (12 layers: Radford et al.
    2019, Table 2; 12 heads: its released config, ``n_head``): every caption, spoken line and screen line that gives them names GPT-2 small.
    """
    scene = built_scene("complexity")
    heads, mib = format_number(12 * 12, 0), format_number(4 * 1024**2 * 12 * 12 / 2**20, 0)
    assert heads == "144" and mib == "576"
    lines = [(line.text, line.spoken) for step in scene.steps for line in step.lines]
    giving = [(text, spoken) for text, spoken in lines if heads in text or mib in text]
    assert giving, "the memory step gives GPT-2 small's 144 heads and 576 MiB"
    for text, spoken in giving:
        assert "GPT-2 small" in text and "GPT two small" in spoken, text
    for text, _spoken in lines:  # a bare "GPT-2" nowhere gives a size: 1,024 tokens, 144 heads or 576 MiB
        bare = text.replace("GPT-2 small", "")
        if "GPT-2" in bare:
            assert not any(number in text for number in (heads, mib, "1,024")), text
    # On screen: the lines that show 144 and 576 name GPT-2 small, and a dropout copy makes 576 a lower bound.
    memory = shown(scene, "memory")
    assert "GPT-2 small:" in memory
    assert "at least" in memory and not any("layers kept" in text for text in memory)
    assert any("backward pass" in text for text in memory)
    # Review 17: "(12×12)" never said which twelve was which; and 576 MiB holds in float32 only (float16: half).
    assert {"layers ×", "heads ="} <= memory and "(" not in memory, sorted(memory)
    assert "MiB in float32 per text of" in memory


_whole_layer_moments: list[set[str]] = []
"""After each animation of complexity's whole-layer step (shared build): the sources shown whole on screen."""


@looks_at_the_shared_build("complexity")
def _look_at_the_whole_layer(scene, ended) -> None:
    if not scene.steps or scene.steps[-1].name != "whole-layer" or ended is not None:
        return
    on_screen = {id(part) for mobject in scene.mobjects for part in mobject.get_family()}
    _whole_layer_moments.append({s.source for s in scene.shown if all(id(text) in on_screen for text in s.texts)})


@pytest.mark.xdist_group("complexity")
def test_complexity_shows_the_whole_layer_only_after_all_its_parts():
    """Review 14: the whole layer's total stood on screen for 9 s while two of its five parts were blank.

    After every animation of the whole-layer step, a shown total has all its parts on screen, and the shown
    parts, as rounded, add up to the shown total (to their rounding); the parts are GPT-2 small's, counted
    here with :func:`layer_macs` from its sizes.
    """
    scene = built_scene("complexity")
    moments = _whole_layer_moments
    assert len(moments) >= 4
    part_count = len(scene.trace.layer_parts)
    totals_seen = 0
    for j, n in enumerate((1024, 2048)):
        parts = np.array(layer_macs(n, 768, 3072)) / 1e9
        for visible in moments:
            if f"layer_total_gmacs[{j}]" not in visible:
                continue
            totals_seen += 1
            assert {f"layer_gmacs[{j}, {p}]" for p in range(part_count)} <= visible, (n, sorted(visible))
            assert abs(sum(round(v, 2) for v in parts) - round(parts.sum(), 2)) <= 0.01 * part_count
    assert totals_seen, "the whole layer's total is shown"
    # The first moment already names the parts (no empty table while the layer is described), with no numbers yet.
    first = moments[0]
    assert not any(source.startswith("layer_") and "gmacs" in source for source in first)


@pytest.mark.xdist_group("complexity")
def test_complexity_shows_the_whole_layer_when_the_width_doubles():
    """Review 14: "projections cost 4 times as much" was only a rule; the whole layer's number at d doubled is shown.

    GPT-2 small's layer at 1,024 tokens, then with d_model and d_ff doubled (heads fixed, each twice as wide),
    counted here by hand: 3·n·d² + 2·n²·d + n·d² + 2·n·d·d_ff.
    """
    scene = built_scene("complexity")

    def layer(n: int, d: int, d_ff: int) -> float:
        return (3 * n * d * d + 2 * n * n * d + n * d * d + 2 * n * d * d_ff) / 1e9

    narrow, wide = layer(1024, 768, 3072), layer(1024, 1536, 6144)
    assert round(narrow, 2) == 8.86 and round(wide, 2) == 32.21
    assert {format_number(narrow, 2), format_number(wide, 2), format_number(wide / narrow, 2)} <= shown(scene, "width-is-linear")
    sources = {s.source for s in scene.shown}
    assert {"layer_wide_total_gmacs", "layer_wide_growth", "layer_wide_d_model"} <= sources
    # Review 15: 32.21 billion is not GPT-2 small's layer but one of its shape twice as wide: the screen says
    # so and gives the width, and no line calls the wide layer "GPT-2 small layer" bare.
    width = shown(scene, "width-is-linear")
    assert {format_number(768, 0), format_number(2 * 768, 0)} <= width, sorted(width)
    assert any("twice as wide" in text for text in width), sorted(width)
    assert not any(text.startswith("whole GPT-2 small layer") for text in width), sorted(width)


@pytest.mark.xdist_group("complexity")
def test_complexity_review17_keys_colours_shows_shapes_and_levels_column_names():
    """Review 17: step 5's colours had no key; step 3 told the shapes but did not show them; column names stood
    at different heights; the takeaway mixed LaTeX with the words' font; step 7's note was three small lines."""
    from manim import MathTex, Text

    from scenes.kit.text import baseline
    from scenes.theme import DARK

    scene = built_scene("complexity")

    def texts(step: str) -> dict[str, Text]:
        return {part.original_text: part for part in scene.recording.ended[step] if isinstance(part, Text)}

    def colour(text: Text) -> str:
        return text.get_color().to_hex().upper()

    layer = texts("whole-layer")
    # The key's colours are the rows': n² parts in the query colour, the parts linear in n in the value colour.
    assert colour(layer["grows like n²"]) == colour(layer["Q Kᵀ"]) == DARK.query.upper()
    assert colour(layer["grows like n"]) == colour(layer["feed-forward"]) == DARK.value.upper()
    # The shapes multiplied, under the products' names, as the voice says them.
    adds = texts("multiply-adds")
    assert "n×d · d×n → n×n" in adds and "n×n · n×d → n×d" in adds
    assert adds["n×d · d×n → n×n"].get_top()[1] < adds["QKᵀ, weights·V: n·n·d each"].get_bottom()[1]
    # Each table's column names on one baseline.
    for step, names in (
        ("memory", ("tokens n", "weights n²", "memory, MiB (4n² bytes)")),
        ("multiply-adds", ("tokens n", "QKᵀ, weights·V: n·n·d each", "total 2n²d")),
    ):  # step 6's one-head table fades before the step ends (review 19): its names are levelled by the same table()
        shown_texts = texts(step)
        lines = [baseline(shown_texts[name]) for name in names]
        assert max(lines) - min(lines) < 0.01, (step, lines)
    # The takeaway in one font: no LaTeX.
    assert not [part for part in scene.recording.ended["takeaway"] if isinstance(part, MathTex)]
    # Step 7's note: one line, the causal mask said at step 5.
    half = texts("half-the-layer")
    notes = [text for text in half if text.startswith("* ")]
    assert len(notes) == 1 and not any("causal" in text for text in half), sorted(half)


@pytest.mark.xdist_group("complexity")
def test_complexity_review18_shows_the_wide_layer_part_by_part_and_the_algebra_and_says_what_it_counts():
    """Review 18: the widened layer's ×4 was told, not shown; step 7's division was only spoken; step 5's footnote
    was never said; the voice dropped "per text"; a line ended on "12 heads of 64"; the frame changed from one head
    to a whole layer unsaid.

    The wide layer's rows are worked out here in plain Python from the cost formulas (n² part 2n²d, the rest
    4nd² + 2nd·d_ff) for GPT-2 small's layer (d 768, d_ff 3,072) and one twice as wide, at 1,024 tokens.
    """
    from manim import MathTex

    scene = built_scene("complexity")
    t = scene.trace
    n = 1024

    def quadratic(d: int) -> int:
        return 2 * n * n * d

    def rest(d: int, d_ff: int) -> int:
        return 4 * n * d * d + 2 * n * d * d_ff

    narrow, wide = (768, 3072), (1536, 6144)
    rows = {
        "n × n part": (quadratic(narrow[0]), quadratic(wide[0])),
        "projections, feed-forward": (rest(*narrow), rest(*wide)),
        "whole layer": (quadratic(narrow[0]) + rest(*narrow), quadratic(wide[0]) + rest(*wide)),
    }
    width = shown(scene, "width-is-linear")
    assert set(rows) <= width, sorted(width)
    for name, (before, after) in rows.items():
        assert {
            format_number(before / 1e9, 2),
            format_number(after / 1e9, 2),
            format_number(after / before, 0 if after % before == 0 else 2),
        } <= width, name
    assert [format_number(v, 2) for v in (1.61, 3.22, 7.25, 28.99, 8.86, 32.21)] == [
        format_number(v / 1e9, 2) for pair in rows.values() for v in pair
    ]
    assert (
        rows["n × n part"][1] == 2 * rows["n × n part"][0]
        and rows["projections, feed-forward"][1] == 4 * rows["projections, feed-forward"][0]
    )
    # The trace's fields are these counts, and the shown parts add up to the shown whole, as rounded.
    np.testing.assert_allclose(t.layer_wide_quadratic_gmacs, np.array(rows["n × n part"]) / 1e9)
    np.testing.assert_allclose(t.layer_wide_linear_gmacs, np.array(rows["projections, feed-forward"]) / 1e9)
    for j in range(2):
        parts = round(t.layer_wide_quadratic_gmacs[j], 2) + round(t.layer_wide_linear_gmacs[j], 2)
        assert round(parts, 2) == round(rows["whole layer"][j] / 1e9, 2)
    shares = [100 * rows["n × n part"][j] / rows["whole layer"][j] for j in range(2)]
    assert [format_number(s, 0) for s in shares] == ["18", "10"] and {"18", "10", "%"} <= width
    sources = {s.source for s in scene.shown}
    assert {
        "layer_wide_quadratic_gmacs[0]",
        "layer_wide_quadratic_gmacs[1]",
        "layer_wide_linear_gmacs[0]",
        "layer_wide_linear_gmacs[1]",
        "layer_wide_quadratic_growth",
        "layer_wide_quadratic_percent[1]",
    } <= sources
    # The two rows it replaces are gone, not kept on top.
    assert not any("billion, ×" in text or text.startswith("whole layer, twice as wide") for text in width), sorted(width)
    # Step 7: the equation and the division shown, in the formulas' own symbols.
    formulas = [part.tex_string for part in scene.recording.ended["half-the-layer"] if isinstance(part, MathTex)]
    joined = " ".join(formulas)
    assert r"2\,n^2\,d_\text{model} = (4\,d_\text{model}^2 + 2\,d_\text{model}\,d_\text{ff})\;n" in joined, formulas
    assert r"n = 2\,d_\text{model} + d_\text{ff}" in joined and "divide by" in shown(scene, "half-the-layer")
    # Heard: per text of 1,024 tokens; the n × n part's cost per head, then the heads; what step 5 counts.
    heard = {step.name: " ".join(line.spoken for line in step.lines) for step in scene.steps}
    assert "Training GPT two small on a text of one thousand twenty-four tokens" in heard["memory"]
    assert "each costs twelve heads times n squared times sixty-four" in heard["whole-layer"]
    assert "all n squared scores, even masked ones" in heard["whole-layer"]
    assert (
        "Now a GPT two small layer made twice as wide: model width one thousand five hundred thirty-six, twelve heads one hundred twenty-eight wide"
        in heard["width-is-linear"]
    )


@pytest.mark.xdist_group("complexity")
def test_complexity_review19_one_column_for_equal_counts_one_table_at_a_time_and_where_4_and_2_come_from():
    """Review 19: step 3's QKᵀ and weights·V columns were equal (one column now, true because the counts are equal);
    step 6 stacked two tables; step 7 did not say what its 4 and 2 count; 04-01's caption named one cost "each"."""
    from manim import Text

    scene = built_scene("complexity")
    t = scene.trace
    lengths = [512, 1024, 2048, 4096, 8192]
    # Q Kᵀ (n×d · d×n) and weights · V (n×n · n×d) each take n·n·d multiply-adds: one column can show both.
    assert [int(n) for n in t.lengths] == lengths
    assert [n * n * 64 for n in lengths] == [int(v) for v in t.qk_macs] == [int(v) for v in t.av_macs]
    adds = shown(scene, "multiply-adds")
    assert "QKᵀ, weights·V: n·n·d each" in adds and "weights·V: n·n·d" not in adds
    # Step 6: the one-head table is gone before the step ends; the wide layer's table is alone.
    ended = {part.original_text for part in scene.recording.ended["width-is-linear"] if isinstance(part, Text)}
    assert "one head's width d" not in ended and "work 2n²d" not in ended and "whole layer" in ended, sorted(ended)
    # Step 7: 4 d_model² is four projections (Q, K, V, output), 2 d_model d_ff the feed-forward's two matrices.
    half = shown(scene, "half-the-layer")
    assert {"4: Q, K, V, output projections", "2: the feed-forward's two matrices"} <= half, sorted(half)
    assert "4 projections and the feed-forward's 2 matrices" in said(scene, "half-the-layer")
    # 04-01: one real cost, and a reference that grows like n, named as such.
    assert "for comparison, a cost that grows like n" in said(scene, "doubling-quadruples")
    assert "Each cost ÷" not in said(scene, "doubling-quadruples")
    assert any("a layer of the same sizes" in text for text in shown(scene, "whole-layer"))
