"""The slide deck (``export --to pptx``): one slide per step, each with its title, its clip as a movie and its notes.

The deck is read back twice: with python-pptx, and as the zip of XML parts it is (the movie
parts, each slide's relationships, the notes), compared with sections.json and the clips read
independently. Titles are compared with titles written out by hand.
"""

from __future__ import annotations

import dataclasses
import io
import json
import posixpath
import shutil
import time
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import av
import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image
from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE, PP_PLACEHOLDER

import render
from attention_explainer.exports.deck import last_frame, write_deck
from attention_explainer.package.reader import Package
from scenes.theme import contrast_ratio

NS = {
    "p": "http://schemas.openxmlformats.org/presentationml/2006/main",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "p14": "http://schemas.microsoft.com/office/powerpoint/2010/main",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
}
R = "{%s}" % NS["r"]
VIDEO = NS["r"] + "/video"
MEDIA = "http://schemas.microsoft.com/office/2007/relationships/media"
IMAGE = NS["r"] + "/image"
NOTES = NS["r"] + "/notesSlide"

SCALING_TITLES = {
    "the-question": "Why divide by √d_k?",
    "dot-products-grow": "Dot products grow with d_k",
    "divide-by-sqrt-dk": "Divide by √d_k",
    "one-row-of-scores": "One query, one row of scores",
    "softmax-without-scaling": "Softmax without scaling: nearly one-hot",
    "softmax-with-scaling": "Softmax with scaling: q·k / √d_k",
    "takeaway": "Why √d_k: variance stays near 1",
}
"""Each step of ``scaling`` and the title its slide should carry, written out by hand."""

SMALL_TITLES = ["A query meets a key: <q·k> & more", "Divide by √d_k"]
"""The small package's step titles: markup characters and symbols that must reach the slide as written."""

HOSTILE_TITLE = 'Attention <script>alert("x")</script> & friends 😀'
HOSTILE_LINES = ["q·k < 0 & q·k > 0 are both fine: </a:t>", 'A "quoted" word, an emoji 🧠 and ]]> too.']


# -- reading a deck as the zip it is ------------------------------------------------------------


class Parts:
    """A .pptx read as a zip of XML parts, without python-pptx."""

    def __init__(self, path: Path):
        self.zip = zipfile.ZipFile(path)

    def xml(self, name: str) -> ElementTree.Element:
        return ElementTree.fromstring(self.zip.read(name))

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """``rId`` -> (relationship type, target part name) of ``part``."""
        folder, name = posixpath.split(part)
        rels = self.xml(f"{folder}/_rels/{name}.rels")
        return {
            rel.get("Id"): (rel.get("Type"), posixpath.normpath(posixpath.join(folder, rel.get("Target"))))
            for rel in rels.findall("rel:Relationship", NS)
        }

    def slides(self) -> list[str]:
        """The slide part names in the presentation's order."""
        targets = self.relationships("ppt/presentation.xml")
        ids = self.xml("ppt/presentation.xml").findall("p:sldIdLst/p:sldId", NS)
        return [targets[slide_id.get(R + "id")][1] for slide_id in ids]

    def content_type(self, part: str) -> str:
        types = self.xml("[Content_Types].xml")
        for override in types.findall("ct:Override", NS):
            if override.get("PartName") == "/" + part:
                return override.get("ContentType")
        extension = part.rsplit(".", 1)[-1]
        return next(d.get("ContentType") for d in types.findall("ct:Default", NS) if d.get("Extension").lower() == extension)


def placeholder_text(tree: ElementTree.Element, *kinds: str) -> list[str]:
    """The paragraphs of the shape holding the placeholder of one of ``kinds`` (title, ctrTitle, body...)."""
    for shape in tree.iter("{%s}sp" % NS["p"]):
        placeholder = shape.find("p:nvSpPr/p:nvPr/p:ph", NS)
        if placeholder is not None and placeholder.get("type") in kinds:
            return ["".join(t.text or "" for t in p.iter("{%s}t" % NS["a"])) for p in shape.findall("p:txBody/a:p", NS)]
    raise AssertionError(f"no {kinds} placeholder")


def check_movie_parts(parts: Parts, slide: str, clip: Path) -> tuple[str, str]:
    """Assert ``slide`` holds one movie whose video and media relationships both point at ``clip``'s bytes; return the movie's id and poster part."""
    rels = parts.relationships(slide)
    tree = parts.xml(slide)
    pictures = tree.findall("p:cSld/p:spTree/p:pic", NS)
    assert len(pictures) == 1, f"{slide}: {len(pictures)} pictures"
    picture = pictures[0]
    video_id = picture.find("p:nvPicPr/p:nvPr/a:videoFile", NS).get(R + "link")
    media_id = picture.find("p:nvPicPr/p:nvPr/p:extLst/p:ext/p14:media", NS).get(R + "embed")
    poster_id = picture.find("p:blipFill/a:blip", NS).get(R + "embed")
    assert rels[video_id][0] == VIDEO and rels[media_id][0] == MEDIA and rels[poster_id][0] == IMAGE
    movie_part = rels[video_id][1]
    assert rels[media_id][1] == movie_part and movie_part.startswith("ppt/media/") and movie_part.endswith(".mp4")
    assert parts.content_type(movie_part) == "video/mp4"
    assert parts.zip.read(movie_part) == clip.read_bytes(), f"{slide}: the movie is not {clip.name}"
    # Played on click: the slide's timing names the movie's shape.
    shape_id = picture.find("p:nvPicPr/p:cNvPr", NS).get("id")
    targets = [target.get("spid") for target in tree.iterfind("p:timing//p:video//p:spTgt", NS)]
    assert targets == [shape_id]
    return picture.find("p:nvPicPr/p:cNvPr", NS).get("descr"), rels[poster_id][1]


def notes_of(parts: Parts, slide: str) -> list[str]:
    notes = [target for kind, target in parts.relationships(slide).values() if kind == NOTES]
    assert len(notes) == 1
    return placeholder_text(parts.xml(notes[0]), "body")


def decoded_last_frame(clip: Path) -> np.ndarray:
    """Every frame of ``clip`` decoded from the start; the last one, as RGB pixels."""
    with av.open(str(clip)) as container:
        frames = [frame.to_ndarray(format="rgb24") for frame in container.decode(video=0)]
    return frames[-1]


# -- a small package written here: structure and escaping (fast) --------------------------------


def write_clip(path: Path, colours: list[tuple[int, int, int]], size=(64, 36)) -> None:
    """An H.264 clip, one frame of each colour, a keyframe every 4 frames."""
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=10, options={"g": "4", "keyint_min": "4"})
        stream.width, stream.height, stream.pix_fmt = size[0], size[1], "yuv420p"
        for colour in colours:
            pixels = np.full((size[1], size[0], 3), colour, dtype=np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())


@pytest.fixture
def small_package(tmp_path) -> Package:
    (tmp_path / "sections").mkdir()
    steps = []
    for index, (name, last) in enumerate([("query-meets-key", (200, 30, 30)), ("divide-by-sqrt-dk", (30, 30, 200))], start=1):
        file = f"sections/{index:02d}-{name}.mp4"
        write_clip(tmp_path / file, [(90, 90, 90)] * 21 + [last])
        lines = [{"text": text, "spoken": text, "start": 0.0, "end": 1.0} for text in HOSTILE_LINES[:index]]
        steps.append({"index": index, "name": name, "title": SMALL_TITLES[index - 1],
                      "caption": " ".join(line["text"] for line in lines), "lines": lines,
                      "start": 2.2 * (index - 1), "duration": 2.2, "file": file})  # fmt: skip
    return Package(tmp_path, "hostile", HOSTILE_TITLE, "A <b>description</b> & more", steps, narrated=False)


def test_deck_of_a_small_package_keeps_hostile_text_as_text(small_package, tmp_path):
    target = tmp_path / "deck.pptx"
    write_deck(small_package, target)

    deck = Presentation(str(target))
    assert len(deck.slides) == 1 + 2
    assert deck.slides[0].shapes.title.text == HOSTILE_TITLE
    assert deck.core_properties.title == HOSTILE_TITLE
    for slide, step, title in zip(list(deck.slides)[1:], small_package.steps, SMALL_TITLES):
        assert slide.shapes.title.text == title
        notes = [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
        assert notes == HOSTILE_LINES[: step["index"]]

    parts = Parts(target)
    slides = parts.slides()
    assert placeholder_text(parts.xml(slides[0]), "ctrTitle", "title") == [HOSTILE_TITLE]  # a title slide's title
    assert b"<script" not in parts.zip.read(slides[0])  # escaped in the XML, not markup
    for slide, step in zip(slides[1:], small_package.steps):
        descr, _ = check_movie_parts(parts, slide, small_package.clip(step))
        assert descr.startswith(f"Animation of step {step['index']}, {SMALL_TITLES[step['index'] - 1]} (")
        assert notes_of(parts, slide) == HOSTILE_LINES[: step["index"]]


def test_each_movie_still_is_its_clips_last_frame_inside_the_slide(small_package, tmp_path):
    target = tmp_path / "deck.pptx"
    write_deck(small_package, target)
    deck = Presentation(str(target))
    for slide, last in zip(list(deck.slides)[1:], [(200, 30, 30), (30, 30, 200)]):
        (movie,) = [shape for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.MEDIA]
        still = np.asarray(Image.open(io.BytesIO(movie.poster_frame.blob)).convert("RGB"), dtype=float)
        assert np.abs(still.mean(axis=(0, 1)) - last).max() < 12  # the last colour, not the 21 grey frames before it
        assert movie.width / movie.height == pytest.approx(64 / 36, rel=0.01)
        for shape in slide.shapes:
            assert 0 <= shape.left and shape.left + shape.width <= deck.slide_width
            assert 0 <= shape.top and shape.top + shape.height <= deck.slide_height
        assert slide.shapes.title.top + slide.shapes.title.height <= movie.top  # the title never covers the movie
    assert deck.slide_width * 9 == deck.slide_height * 16


def test_the_same_package_gives_the_same_deck_byte_for_byte(small_package, tmp_path):
    write_deck(small_package, tmp_path / "first.pptx")
    time.sleep(2.1)  # past a zip timestamp's two seconds and a document date's one
    write_deck(small_package, tmp_path / "second.pptx")
    assert (tmp_path / "first.pptx").read_bytes() == (tmp_path / "second.pptx").read_bytes()
    with zipfile.ZipFile(tmp_path / "first.pptx") as deck:
        assert deck.namelist()[0] == "[Content_Types].xml"
        assert deck.testzip() is None


def test_last_frame_is_the_last_frame_decoded(tmp_path):
    clip = tmp_path / "clip.mp4"
    rng = np.random.default_rng(3)
    write_clip(clip, [tuple(int(c) for c in rng.integers(0, 256, 3)) for _ in range(23)])
    png, width, height = last_frame(clip)
    assert (width, height) == (64, 36)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), decoded_last_frame(clip))


def test_a_clip_that_is_not_a_video_is_a_clear_error(small_package, tmp_path):
    small_package.clip(small_package.steps[1]).write_bytes(b"not a video at all")
    with pytest.raises(ValueError, match="02-divide-by-sqrt-dk.mp4"):
        write_deck(small_package, tmp_path / "deck.pptx")


# -- a real render of scaling, exported (slow) ------------------------------------------------------


@pytest.fixture(scope="module")
def exported(rendered, tmp_path_factory):
    """`render.py export scaling --to pptx --quality low` on a copy of the session's render: the deck and the render's folder.

    The copy keeps the deck out of the folder other test files read.
    """
    media = tmp_path_factory.mktemp("deck") / "media"
    shutil.copytree(rendered[0], media)
    folder = media / "scaling" / "low"
    video_written = (folder / "scaling.mp4").stat().st_mtime_ns
    result = CliRunner().invoke(
        render.main,
        ["export", "scaling", "--to", "pptx", "--quality", "low", "--media-dir", str(media)]
        + ["--cache-dir", str(tmp_path_factory.mktemp("cache"))],
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == str(folder / "scaling.pptx")
    assert (folder / "scaling.mp4").stat().st_mtime_ns == video_written  # up to date: exported, not rendered again
    steps = json.loads((folder / "sections.json").read_text(encoding="utf-8"))
    return folder / "scaling.pptx", folder, steps


@pytest.mark.render
def test_scaling_deck_has_one_slide_per_step_with_its_title_movie_and_notes(exported):
    path, folder, steps = exported
    assert [step["name"] for step in steps] == list(SCALING_TITLES)
    assert [step["title"] for step in steps] == list(SCALING_TITLES.values()), "sections.json holds each step's title, in order"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))

    deck = Presentation(str(path))
    slides = list(deck.slides)
    assert len(slides) == 1 + len(steps)
    assert slides[0].shapes.title.text == manifest["title"]
    for slide, step in zip(slides[1:], steps):
        title = slide.shapes.title
        assert title.is_placeholder and title.placeholder_format.type == PP_PLACEHOLDER.TITLE
        assert title.text == SCALING_TITLES[step["name"]]
        movies = [shape for shape in slide.shapes if shape.shape_type == MSO_SHAPE_TYPE.MEDIA]
        assert len(movies) == 1
        # The slide is the movie's own background colour (the still's corner), the title readable on it.
        corner = np.asarray(Image.open(io.BytesIO(movies[0].poster_frame.blob)).convert("RGB"))[0, 0]
        background = np.array(slide.background.fill.fore_color.rgb, dtype=int)
        assert np.abs(corner.astype(int) - background).max() <= 3
        for run in title.text_frame.paragraphs[0].runs:
            assert contrast_ratio(f"#{run.font.color.rgb}", f"#{slide.background.fill.fore_color.rgb}") >= 4.5
        notes = [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
        assert notes == [line["text"] for line in step["lines"]] and all(notes)


@pytest.mark.render
def test_scaling_deck_embeds_each_steps_clip_with_its_last_frame_as_still(exported):
    path, folder, steps = exported
    parts = Parts(path)
    slides = parts.slides()
    assert len(slides) == 1 + len(steps)
    movies = sorted(name for name in parts.zip.namelist() if name.startswith("ppt/media/") and name.endswith(".mp4"))
    assert len(movies) == len(steps)
    for slide, step in zip(slides[1:], steps):
        clip = folder / step["file"]
        descr, poster = check_movie_parts(parts, slide, clip)
        assert SCALING_TITLES[step["name"]] in descr
        assert placeholder_text(parts.xml(slide), "title") == [SCALING_TITLES[step["name"]]]
        assert notes_of(parts, slide) == [line["text"] for line in step["lines"]]
        still = np.asarray(Image.open(parts.zip.open(poster)).convert("RGB"))
        assert np.array_equal(still, decoded_last_frame(clip)), f"{slide}: the still is not {clip.name}'s last frame"


@pytest.mark.parametrize("theme, background, text", [("dark", "111318", "F2F2F2"), ("light", "FFFFFF", "141414")])
def test_slides_take_the_renders_theme(small_package, tmp_path, theme, background, text):
    target = tmp_path / "deck.pptx"
    write_deck(dataclasses.replace(small_package, theme=theme), target)
    for slide in Presentation(str(target)).slides:
        assert str(slide.background.fill.fore_color.rgb) == background
        assert {str(run.font.color.rgb) for run in slide.shapes.title.text_frame.paragraphs[0].runs} == {text}


def test_layouts_span_the_wide_slide_for_slides_a_teacher_adds(small_package, tmp_path):
    target = tmp_path / "deck.pptx"
    write_deck(small_package, target)
    deck = Presentation(str(target))
    for layout in deck.slide_layouts:
        for shape in layout.placeholders:
            assert 0 <= shape.left and shape.left + shape.width <= deck.slide_width, (layout.name, shape.name)
            if layout.name in ("Title Slide", "Title and Content", "Title Only") and shape.placeholder_format.type in (
                PP_PLACEHOLDER.TITLE,
                PP_PLACEHOLDER.CENTER_TITLE,
            ):
                # About centred, and across most of the slide (the 4:3 template's titles span 85-90 % of 10 inches).
                assert shape.left == pytest.approx(deck.slide_width - shape.left - shape.width, abs=0.02 * deck.slide_width)
                assert shape.width > 0.8 * deck.slide_width, (layout.name, shape.name)
