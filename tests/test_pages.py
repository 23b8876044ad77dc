"""The pages: autoescaped templates, JSON that cannot break out of its <script>, colours from the theme."""

from __future__ import annotations

import json
import re

from attention_explainer.publish.gallery import write_gallery
from attention_explainer.publish.pages import script_json
from attention_explainer.publish.presenter import write_presenter
from scenes.theme import DARK

HOSTILE = "<!--<script></script>& \u2028\u2029 \"quoted\" 'single' </SCRIPT >"


def inline_json(page: str, element_id: str):
    """The data of ``<script type="application/json" id=...>`` as a browser reads it: up to the first ``</script``."""
    start = page.index(f'id="{element_id}">') + len(f'id="{element_id}">')
    end = page.lower().index("</script", start)
    return json.loads(page[start:end])


def test_script_json_keeps_any_string_inside_its_script():
    text = str(script_json({"word": HOSTILE}))
    assert json.loads(text) == {"word": HOSTILE}
    for dangerous in ("<", ">", "&", "\u2028", "\u2029"):
        assert dangerous not in text


def test_a_hostile_step_name_or_caption_stays_data_in_the_presenter(tmp_path):
    sections = [{"name": HOSTILE, "caption": f"About {HOSTILE}.", "file": "sections/01-x.mp4"}]
    page = write_presenter(tmp_path, f"Title {HOSTILE}", sections).read_text(encoding="utf-8")
    assert inline_json(page, "steps") == [{"name": HOSTILE, "caption": f"About {HOSTILE}.", "file": "sections/01-x.mp4"}]
    title = re.search(r"<title>(.*)</title>", page).group(1)
    assert "<" not in title and "&lt;!--&lt;script&gt;" in title
    # Every <script> the page opens is closed once: the hostile text opened none.
    assert page.count("<script") == page.count("</script>") == 2


def test_page_colours_come_from_the_theme(tmp_path):
    page = write_presenter(tmp_path, "t", [{"name": "a", "caption": "b", "file": "c"}]).read_text(encoding="utf-8")
    for colour in (DARK.background, DARK.text, DARK.muted, DARK.highlight, DARK.surface):
        assert f": {colour};" in page


def test_the_gallery_leaves_out_renders_it_cannot_read_and_says_so(tmp_path, caplog):
    for name, content in (("truncated", '{"scene": "scaling", "fil'), ("a-list", "[]")):
        folder = tmp_path / name / "low"
        folder.mkdir(parents=True)
        (folder / "manifest.json").write_text(content)
    page = write_gallery(tmp_path).read_text(encoding="utf-8")
    assert "<article" not in page and "No videos rendered yet" in page
    assert caplog.text.count("left out of the gallery") == 2
