"""The explorer page: built for every scene's trace, user text kept as data, damaged files refused clearly.

The fast tier builds the page from each scene's default trace (as ``trace.json`` holds it) and checks what
it decided to show; the browser tier renders ``self-attention`` with a teacher's sentence, hovers and
focuses its words in Chromium and reads the bars' numbers against PyTorch's softmax of the trace's Q and K.
"""

from __future__ import annotations

import html
import json
import math
import re
import shutil
from html.parser import HTMLParser

import pytest

from attention_explainer.pages.explorer import ExplorerError, explorer_data, explorer_page, read_trace, write_explorer
from attention_math.trained import ModelNotInstalled
from scenes import SCENES

from .shared_renders import RENDERED_SENTENCE

HOSTILE_WORD = "</script><b>x"
HOSTILE_SENTENCE = f"Bees {HOSTILE_WORD} & <!--hum"

SECTIONS = [
    {
        "index": 1,
        "name": "the-idea",
        "title": "First idea: q·k / √d_k",
        "caption": "First line. Second line.",
        "lines": [
            {"text": "First line.", "spoken": "", "start": 0.0, "end": 2.0},
            {"text": "Second line.", "spoken": "", "start": 2.0, "end": 4.0},
        ],
        "start": 0.0,
        "duration": 4.0,
        "file": "sections/01-the-idea.mp4",
    },
    {
        "index": 2,
        "name": "the-end",
        "title": "Where it ends",
        "caption": "Last line.",
        "lines": [{"text": "Last line.", "spoken": "", "start": 4.0, "end": 6.5}],
        "start": 4.0,
        "duration": 2.5,
        "file": "sections/02-the-end.mp4",
    },
]


def trace_json(scene: str, **settings) -> dict:
    """A scene's trace as ``trace.json`` holds it (the text the package writes, read back).

    Only the trained-heads scene can be missing (its model is an optional extra, which ``make test`` installs).
    """
    try:
        return json.loads(SCENES[scene].build_trace(**settings).to_json())
    except ModelNotInstalled as missing:
        pytest.skip(str(missing))


def inline_json(page: str, element_id: str):
    """The data of ``<script type="application/json" id=...>`` as a browser reads it: up to the first ``</script``."""
    start = page.index(f'id="{element_id}">') + len(f'id="{element_id}">')
    end = page.lower().index("</script", start)
    return page[start:end]


class Tags(HTMLParser):
    """Every start tag of a page, as a browser's tokenizer sees them (script contents are data)."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)


# What each scene's explorer must offer to hover, from what each scene teaches (not from the code under test):
# the weights a query gives its keys, and the axes picked with a selector.
ATTENTION = {
    "qkv": {"weights": []},
    "self-attention": {"weights": []},
    "multi-head": {"weights": ["head"]},
    "positional-encoding": {"weights_a": [], "weights_b": [], "weights_a_pos": [], "weights_b_pos": []},
    "causal-mask": {"weights": [], "bidirectional_weights": []},
    "padding-mask": {
        "weights": [],
        "unmasked_weights": [],
        "combined_weights": [],
        "causal_weights": [],
        "left_causal_weights": [],
        "left_combined_weights": [],
    },
    "cross-attention": {"weights": [], "self_weights": []},
    "kv-cache": {"weights": [], "recomputed_weights": []},
    "transformer-block": {"attention_weights": ["head"]},
    "trained-heads": {"all_weights": ["layer", "head"], "weights": []},
    "bottleneck": {},
    "softmax": {},
    "scaling": {},
    "complexity": {},
    "learning-to-attend": {},
    "sentiment-attention": {},
}


def test_every_scene_has_an_expectation():
    assert set(ATTENTION) == set(SCENES)


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_page_builds_for_every_scene_and_shows_every_array(scene):
    trace = trace_json(scene)
    page = explorer_page(trace, SECTIONS, SCENES[scene].title, f"{scene}.mp4")
    data = json.loads(inline_json(page, "explorer-data"))
    arrays = {name for name, value in trace.items() if isinstance(value, list) and value}
    word_lists = {name for name in arrays if all(isinstance(word, str) for word in trace[name])}
    assert {field["name"] for field in data["fields"]} == arrays - word_lists
    for field in data["fields"]:
        assert field["values"] == trace[field["name"]], "the numbers are the trace's, unrounded"
        assert sorted(index for panel in data["panels"] for index in panel) == list(range(len(data["fields"])))
    attention = {field["name"]: [axis["name"] for axis in field["leading"]] for field in data["fields"] if field["attention"]}
    assert attention == ATTENTION[scene]
    for field in data["fields"]:
        if field["attention"]:
            # Rows are queries, columns keys: labelled with the trace's own words.
            tokens = [trace[name] for name in word_lists]
            assert field["rows"] in tokens and field["columns"] in tokens
            assert len(field["rows"]) == field["shape"][-2] and len(field["columns"]) == field["shape"][-1]
    assert '<video id="video"' in page and f'<source src="{scene}.mp4" type="video/mp4">' in page
    assert re.findall(r'data-start="([\d.]+)"', page) == ["0.0", "4.0"]
    assert json.loads(inline_json(page, "cues"))[0] == {"start": 0.0, "end": 2.0, "text": "First line."}


def test_the_trained_heads_explorer_starts_at_the_head_the_video_shows():
    trace = trace_json("trained-heads")
    field = next(f for f in explorer_data(trace)["fields"] if f["name"] == "all_weights")
    layer, head = field["leading"]
    assert (layer["default"], head["default"]) == (trace["layer"], trace["head"])
    assert (len(layer["labels"]), len(head["labels"])) == (trace["n_layers"], trace["n_heads"])
    assert head["labels"][trace["head"]] == f"head {trace['head_number']}", "counted from 1, as the video says"


def test_numbers_keep_their_scale():
    data = explorer_data(trace_json("multi-head"))
    fields = {field["name"]: field for field in data["fields"]}
    assert fields["weights"]["decimals"] == 2
    assert fields["scale_heads"]["decimals"] == 0, "counts are whole numbers"
    assert (fields["weights"]["low"], fields["weights"]["high"]) == (
        min(map(min, (row for head in fields["weights"]["values"] for row in head))),
        max(map(max, (row for head in fields["weights"]["values"] for row in head))),
    )


def test_the_step_list_names_each_step_by_its_title():
    page = explorer_page(trace_json("scaling"), SECTIONS, SCENES["scaling"].title, "scaling.mp4")
    shown = [html.unescape(title) for title in re.findall(r'<span class="step-title">(.*?)</span>', page)]
    assert shown == ["First idea: q·k / √d_k", "Where it ends"]
    assert "the idea" not in page.lower()  # never the slug with its dashes taken out
    assert "text-transform: capitalize" not in page  # a title keeps its own capitals (d_k, not D_k)


def test_a_hostile_sentence_stays_text_in_the_page_and_in_its_json():
    trace = trace_json("self-attention", sentence=HOSTILE_SENTENCE)
    assert trace["query_tokens"] == HOSTILE_SENTENCE.split()
    title = f"Self-attention {HOSTILE_WORD}"
    # A step's caption and lines quote the teacher's words too (they become the page's steps and cues).
    said = f"Take “{HOSTILE_WORD}” as the query."
    sections = [
        {
            **SECTIONS[0],
            "name": f"step-{HOSTILE_WORD}",
            "title": f"Step {HOSTILE_WORD}",
            "caption": said,
            "lines": [{**SECTIONS[0]["lines"][0], "text": said}],
        }
    ]
    page = explorer_page(trace, sections, title, "self-attention.mp4", about=f"“{HOSTILE_SENTENCE}”")
    assert HOSTILE_WORD not in page and "<!--hum" not in page
    assert "&lt;/script&gt;&lt;b&gt;x" in page, "the words are shown, escaped, in the settings and the title"
    assert '<span class="step-title">Step &lt;/script&gt;&lt;b&gt;x</span>' in page, "a step's title is escaped as text"
    # The browser's tokenizer sees the page's own tags and no other: no <b>, three scripts opened and closed.
    tags = Tags()
    tags.feed(page)
    assert "b" not in tags.tags and tags.tags.count("script") == 3
    assert page.count("<script") == page.lower().count("</script") == 3
    for element_id in ("explorer-data", "cues"):
        text = inline_json(page, element_id)
        assert not set("<>&") & set(text)
    data = json.loads(inline_json(page, "explorer-data"))
    weights = next(field for field in data["fields"] if field["name"] == "weights")
    assert weights["rows"] == weights["columns"] == HOSTILE_SENTENCE.split()
    assert json.loads(inline_json(page, "cues"))[0]["text"] == said


def package_with(folder, trace: dict | str, sections=SECTIONS):
    """A folder holding just the two files the explorer reads."""
    folder.mkdir(exist_ok=True)
    (folder / "trace.json").write_text(trace if isinstance(trace, str) else json.dumps(trace), encoding="utf-8")
    (folder / "sections.json").write_text(json.dumps(sections), encoding="utf-8")
    return folder


def test_write_explorer_writes_the_page_beside_the_trace(tmp_path):
    package = package_with(tmp_path / "package", trace_json("self-attention"))
    (package / "present.html").write_text("presenter", encoding="utf-8")
    page = write_explorer(package, "self-attention", "Self-attention").read_text(encoding="utf-8")
    assert '<a href="present.html">' in page and 'href="worksheet.html"' not in page, "links only to files that are there"
    assert sorted(p.name for p in package.iterdir()) == ["explore.html", "present.html", "sections.json", "trace.json"]


DAMAGED_TRACES = [
    ('{"kind": "AttentionTrace", "weights": [[0.5, 0.5], [1.0]]}', "field 'weights' is ragged"),
    ('{"kind": "AttentionTrace", "weights": [[0.5, NaN]]}', "field 'weights' holds nan"),
    ('{"kind": "AttentionTrace", "weights": [[0.5, "half"]]}', "field 'weights' mixes numbers, flags and text"),
    ('{"kind": "AttentionTrace", "weights": [[0.5, null]]}', "field 'weights' holds None"),
    ('{"kind": "AttentionTrace", "weights": [[0.5], 0.5]}', "field 'weights' mixes lists and single values"),
    ('{"kind": "AttentionTrace", "focus": {"row": 1}}', "field 'focus' holds {'row': 1}"),
    ('{"weights": [[1.0]]}', "has no 'kind'"),
    ("[1, 2, 3]", "holds a list, not an object"),
    ('{"kind": "AttentionTrace", "weights": [[0.5, 0.5]', "is not valid JSON"),
]


@pytest.mark.parametrize(("text", "message"), DAMAGED_TRACES)
def test_a_damaged_trace_is_a_clear_error_and_no_page(tmp_path, text, message):
    package = package_with(tmp_path / "package", text)
    with pytest.raises(ExplorerError, match=re.escape(message)) as raised:
        write_explorer(package, "self-attention", "Self-attention")
    assert "trace.json" in str(raised.value)
    assert sorted(p.name for p in package.iterdir()) == ["sections.json", "trace.json"], "no page, no temporary file"


def test_a_trace_that_is_not_text_is_a_clear_error(tmp_path):
    package = package_with(tmp_path / "package", "{}")
    (package / "trace.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ExplorerError, match=r"trace.json \(.*\) is not UTF-8 text"):
        read_trace(package / "trace.json")
    (package / "trace.json").unlink()
    with pytest.raises(ExplorerError, match=r"trace.json \(.*\) cannot be read"):
        read_trace(package / "trace.json")


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ({"steps": []}, "sections.json holds no list of steps"),
        ([], "sections.json holds no list of steps"),
        ([{"name": "a", "title": "A", "caption": "b"}], "step 1 has no start time"),
        ([{"name": "a", "title": "A", "caption": "b", "start": -1}], "step 1 has no start time"),
        ([{key: value for key, value in SECTIONS[0].items() if key != "title"}], "step 1 has no title"),
        ([SECTIONS[0], {**SECTIONS[1], "title": " "}], "step 2 has no title"),
        ([{**SECTIONS[0], "title": None}], "step 1 has no title"),
        ([SECTIONS[0], {"caption": "b", "start": 1}], "step 2 has no name or caption"),
        ([{**SECTIONS[0], "lines": [{"text": "x"}]}], "a step's lines have no text, start or end"),
    ],
)
def test_damaged_sections_are_a_clear_error(tmp_path, sections, message):
    package = package_with(tmp_path / "package", trace_json("self-attention"), sections)
    with pytest.raises(ExplorerError, match=re.escape(message)):
        write_explorer(package, "self-attention", "Self-attention")


def test_infinities_and_flags_are_shown_as_such():
    # The causal mask's masked scores are -inf in trace.json ("-inf": JSON has no infinity), its mask booleans.
    trace = trace_json("causal-mask")
    fields = {field["name"]: field for field in explorer_data(trace)["fields"]}
    assert fields["masked_scores"]["values"][0][1] == "-inf"
    assert math.isfinite(fields["masked_scores"]["low"]) and fields["masked_scores"]["low"] == min(
        value for row in trace["masked_scores"] for value in row if value != "-inf"
    )
    assert fields["mask"]["kind"] == "flags"


# ---- in Chromium ------------------------------------------------------------------------------------------

SENTENCE = RENDERED_SENTENCE


@pytest.fixture
def sentence_render(sentence_rendered):
    """The run's real render of ``self-attention --quality low --sentence SENTENCE`` (shared with test_inputs.py)."""
    return sentence_rendered


def softmax_rows(q, k):
    """PyTorch's softmax(Q Kᵀ / √d_k), row by row."""
    import torch

    q = torch.tensor(q, dtype=torch.float64)
    k = torch.tensor(k, dtype=torch.float64)
    return torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1).tolist()


def shown(text: str) -> str:
    """A number as the page prints it, written the way Python does (a true minus sign is a hyphen)."""
    return text.replace("\u2212", "-")


def bars(page) -> tuple[str, list[str], list[str]]:
    return (
        page.text_content("#bars-title"),
        page.locator("#bars .bar-key").all_text_contents(),
        [shown(text) for text in page.locator("#bars .bar-value").all_text_contents()],
    )


@pytest.mark.render
@pytest.mark.browser
def test_hovering_a_word_shows_its_weights_from_the_trace(page, sentence_render):
    package = sentence_render
    manifest = json.loads((package / "manifest.json").read_text(encoding="utf-8"))
    assert {"path": "explore.html", "part": "package"}.items() <= next(
        entry for entry in manifest["files"] if entry["path"] == "explore.html"
    ).items()
    trace = json.loads((package / "trace.json").read_text(encoding="utf-8"))
    words = SENTENCE.split()
    expected = softmax_rows(trace["q"], trace["k"])
    page.goto((package / "explore.html").as_uri())
    page.wait_for_selector("#query-tokens .token")
    assert page.locator("#query-tokens .token").all_text_contents() == words
    for i, word in enumerate(words):
        page.hover(f"#query-tokens .token >> nth={i}")
        title, keys, values = bars(page)
        assert title.startswith(word) and keys == words
        assert values == [f"{weight:.2f}" for weight in expected[i]], word
    # The whole matrix, in the weights' own table, at the same rounding.
    rows = page.locator('details[data-field="weights"] tbody tr')
    for i in range(len(words)):
        cells = [shown(text) for text in rows.nth(i).locator("td").all_text_contents()]
        assert cells == [f"{weight:.2f}" for weight in expected[i]]
    # The teacher's words are text: no <b> element came from them.
    assert page.locator("main b").count() == 0
    assert page.errors == [] and page.requests and all(url.startswith("file://") for url in page.requests), page.requests


@pytest.mark.render
@pytest.mark.browser
def test_the_keyboard_reaches_the_words_and_moves_along_them(page, sentence_render):
    trace = json.loads((sentence_render / "trace.json").read_text(encoding="utf-8"))
    words = SENTENCE.split()
    expected = softmax_rows(trace["q"], trace["k"])
    page.goto((sentence_render / "explore.html").as_uri())
    page.wait_for_selector("#query-tokens .token")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('token')"):
            break
    else:
        pytest.fail("Tab never reached the words")
    # The first stop is the query the video walks through.
    focused = page.evaluate("Number(document.activeElement.dataset.row)")
    assert focused == trace["focus"]
    assert bars(page)[2] == [f"{weight:.2f}" for weight in expected[focused]]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.textContent") == words[focused + 1]
    assert bars(page)[2] == [f"{weight:.2f}" for weight in expected[focused + 1]]
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.textContent") == words[-1]
    assert bars(page)[0].startswith(words[-1]) and bars(page)[2] == [f"{weight:.2f}" for weight in expected[-1]]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.textContent") == words[0], "past the last word, the first"
    # One tab stop for the row of words: Tab leaves it.
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.classList.contains('token')")


@pytest.mark.render
@pytest.mark.browser
def test_a_step_seeks_the_video_and_captions_show(page, sentence_render):
    sections = json.loads((sentence_render / "sections.json").read_text(encoding="utf-8"))
    page.goto((sentence_render / "explore.html").as_uri())
    page.wait_for_function("document.getElementById('video').readyState >= 1", timeout=20_000)
    assert page.evaluate("document.getElementById('video').textTracks[0].cues.length") >= len(sections)
    assert page.locator("#steps button").count() == len(sections)
    page.click("#steps button >> nth=3")
    # The click seeks, then plays on: the video is inside the fourth step, not before it and not past it.
    page.wait_for_function(
        f"(t => t > {sections[3]['start']} - 0.1 && t < {sections[4]['start']})(document.getElementById('video').currentTime)",
        timeout=10_000,
    )
    page.wait_for_function("document.querySelector('#steps button[aria-current=step]') !== null")
    current = page.evaluate(
        "Array.from(document.querySelectorAll('#steps button')).findIndex(b => b.getAttribute('aria-current'))"
    )
    assert current == 3
    assert page.errors == [] and all(url.startswith("file://") for url in page.requests), page.requests


def _luminance(rgb: str) -> float:
    channels = [int(value) / 255 for value in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.mark.render
@pytest.mark.browser
def test_every_number_in_a_coloured_cell_is_readable(page, sentence_render):
    page.goto((sentence_render / "explore.html").as_uri())
    page.wait_for_selector("#query-tokens .token")
    page.evaluate("document.querySelectorAll('details.field').forEach(d => { d.open = true; })")
    colours = page.evaluate(
        """Array.from(document.querySelectorAll('table.heatmap td')).filter(td => td.style.background)
           .map(td => [getComputedStyle(td).color, getComputedStyle(td).backgroundColor])"""
    )
    assert len(colours) > 100
    for text, background in colours:
        lighter, darker = sorted((_luminance(text), _luminance(background)), reverse=True)
        assert (lighter + 0.05) / (darker + 0.05) >= 4.5, (text, background)


@pytest.mark.render
@pytest.mark.browser
def test_a_head_selector_picks_each_heads_weights(page, sentence_render, tmp_path):
    """multi-head's explorer, built from its real trace into a copy of the rendered package (its video is self-attention's)."""
    package = tmp_path / "multi-head"
    shutil.copytree(sentence_render, package)
    trace = SCENES["multi-head"].build_trace()
    (package / "trace.json").write_text(trace.to_json(), encoding="utf-8")
    shutil.copy(package / "self-attention.mp4", package / "multi-head.mp4")
    write_explorer(package, "multi-head", SCENES["multi-head"].title)
    data = json.loads((package / "trace.json").read_text(encoding="utf-8"))
    page.goto((package / "explore.html").as_uri())
    page.wait_for_selector("#attention-pickers select")
    head_options = page.locator("#attention-pickers select option").all_text_contents()
    assert head_options == [f"head {h + 1}" for h in range(data["n_heads"])]
    # Each head's queries and keys are its own columns of x W_Q and x W_K.
    import torch

    x = torch.tensor(data["x"], dtype=torch.float64)
    q = x @ torch.tensor(data["w_q"], dtype=torch.float64)
    k = x @ torch.tensor(data["w_k"], dtype=torch.float64)
    width = q.shape[1] // data["n_heads"]
    for head in (0, 3, data["n_heads"] - 1):
        page.select_option("#attention-pickers select", str(head))
        columns = slice(head * width, (head + 1) * width)
        expected = softmax_rows(q[:, columns].tolist(), k[:, columns].tolist())
        for row in (0, 2):
            page.hover(f"#query-tokens .token >> nth={row}")
            title, keys, values = bars(page)
            assert f"head {head + 1}" in title and keys == data["tokens"]
            assert values == [f"{weight:.2f}" for weight in expected[row]], (head, row)
    assert page.errors == [] and all(url.startswith("file://") for url in page.requests), page.requests


@pytest.mark.render
def test_a_render_from_before_the_explorer_gets_it_without_drawing(sentence_render, tmp_path):
    """An older package (no explore.html, an older package hash) is repackaged: the page appears, the video stays."""
    from click.testing import CliRunner

    import render

    media = tmp_path / "media"
    variant = sentence_render.relative_to(sentence_render.parents[1])
    package = media / variant
    shutil.copytree(sentence_render, package)
    manifest = json.loads((package / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = [entry for entry in manifest["files"] if entry["path"] != "explore.html"]
    manifest["package_hash"] = "0" * 64
    (package / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (package / "explore.html").unlink()
    video = (package / "self-attention.mp4").read_bytes()
    arguments = [
        "self-attention",
        "--quality",
        "low",
        "--sentence",
        SENTENCE,
        "--media-dir",
        str(media),
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    result = CliRunner().invoke(render.main, arguments)
    assert result.exit_code == 0, result.output
    assert "frames unchanged" in result.output
    assert (package / "explore.html").is_file() and (package / "self-attention.mp4").read_bytes() == video
    entries = json.loads((package / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert any(entry["path"] == "explore.html" and entry["part"] == "package" for entry in entries)


def test_field_descriptions_are_data_that_matches_the_trace_docstrings():
    """``fields.json`` (what the explorer shows) says what the trace classes' docstrings say; after a docstring
    edit, ``python -m attention_explainer.pages.fields`` writes it again."""
    from attention_explainer.pages.fields import FIELDS, describe_traces

    stored = json.loads(FIELDS.read_text(encoding="utf-8"))
    assert stored == describe_traces(), "fields.json is stale: run python -m attention_explainer.pages.fields"
    assert {name for name in stored} >= {"AttentionTrace", "ScalingTrace", "TrainedHeadsTrace"}


def test_the_explorer_shows_each_fields_description_from_the_data():
    data = explorer_data(json.loads(SCENES["self-attention"].build_trace().to_json()))
    output = next(field for field in data["fields"] if field["name"] == "output")
    # As AttentionTrace's docstring says it, its reStructuredText read as plain text.
    assert output["description"] == "weights @ v, (n_q, d_v)."
    assert all(field["description"] for field in data["fields"]), "every field of the trace is described"
