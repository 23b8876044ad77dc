"""A PowerPoint deck of a published render: a title slide, then one slide per step.

Each step's slide holds the step's title (written in the scene for people) in the layout's title
placeholder (so the outline and screen readers read it), the step's own clip embedded as a movie
that plays when clicked, with the clip's last frame as its still (the step complete, as the
render's poster is the last frame of its step) and alt text naming the step by its title, and the
step's words in the speaker notes, one line a paragraph (a narrated movie speaks these same lines).
Slides take the render's theme: its background behind the movie, its text colours for the titles.

The same render always gives the same deck, byte for byte: no date in its properties or its zip.
"""

from __future__ import annotations

import io
import zipfile
from collections import deque
from pathlib import Path

import av
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Emu, Inches, Pt

from attention_style import DARK, PALETTES, Palette

from ..files import zip_member
from ..package.reader import Package

__all__ = ["write_deck", "last_frame"]

SLIDE_WIDTH = Emu(12192000)
"""13.333 in by 7.5 in: PowerPoint's own 16:9 ("Widescreen") slide."""
SLIDE_HEIGHT = Emu(6858000)
MARGIN = Inches(0.4)
TITLE_HEIGHT = Inches(0.9)
TITLE_SIZE = Pt(32)
SUBTITLE_SIZE = Pt(20)
GAP = Inches(0.15)
"""Between the title and the movie."""


def last_frame(clip: Path) -> tuple[bytes, int, int]:
    """The last frame of ``clip`` as PNG bytes, with its width and height in pixels.

    Decodes from the last keyframe on, so a long clip costs a few frames, not all of them.
    Raises ``ValueError`` when the clip holds no decodable video.
    """
    try:
        with av.open(str(clip)) as container:
            if not container.streams.video:
                raise ValueError(f"{clip} holds no video")
            stream = container.streams.video[0]
            frame = None
            if stream.duration:
                container.seek(stream.duration, stream=stream, backward=True)
                frame = last(container.decode(stream))
            if frame is None:  # no duration, or a seek past everything: decode the clip from its start
                container.seek(0)
                frame = last(container.decode(stream))
            if frame is None:
                raise ValueError(f"{clip} holds no frame")
            image = frame.to_image()
    except av.FFmpegError as error:
        raise ValueError(f"{clip} cannot be decoded: {error}") from None
    png = io.BytesIO()
    image.save(png, format="PNG")
    return png.getvalue(), image.width, image.height


def last(items):
    """The last of ``items``, or ``None`` when there are none."""
    kept = deque(items, maxlen=1)
    return kept[0] if kept else None


def write_deck(package: Package, target: Path) -> None:
    """Write the deck of ``package`` to ``target``: a title slide, then each step's slide with its movie and notes."""
    deck = Presentation()
    widen_template(deck, SLIDE_WIDTH / deck.slide_width)
    deck.slide_width, deck.slide_height = SLIDE_WIDTH, SLIDE_HEIGHT
    theme = PALETTES.get(package.theme, DARK)
    describe(deck, package)
    layouts = {layout.name: layout for layout in deck.slide_layouts}

    opening = deck.slides.add_slide(layouts["Title Slide"])
    title, subtitle = opening.placeholders[0], opening.placeholders[1]
    place(title, MARGIN, Inches(2.0), SLIDE_WIDTH - 2 * MARGIN, Inches(1.5))
    place(subtitle, MARGIN, Inches(3.7), SLIDE_WIDTH - 2 * MARGIN, Inches(1.6))
    title.text_frame.text = package.title
    subtitle.text_frame.text = package.description
    paint(opening, theme)
    style(title, theme.text)
    style(subtitle, theme.muted, SUBTITLE_SIZE)
    notes = [f"{len(package.steps)} steps; click a step's movie to play it. Each slide's notes hold its words."]
    if within_property_limit(package.description) != package.description:  # the properties hold it shortened
        notes.append(package.description)
    write_notes(opening, notes)

    for step in package.steps:
        slide = deck.slides.add_slide(layouts["Title Only"])
        heading = slide.shapes.title
        place(heading, MARGIN, MARGIN, SLIDE_WIDTH - 2 * MARGIN, TITLE_HEIGHT)
        heading.text_frame.text = step["title"]
        paint(slide, theme)
        style(heading, theme.text, TITLE_SIZE)

        clip = package.clip(step)
        poster, width, height = last_frame(clip)
        left, top, movie_width, movie_height = fit(width, height)
        movie = slide.shapes.add_movie(
            str(clip), left, top, movie_width, movie_height, poster_frame_image=io.BytesIO(poster), mime_type="video/mp4"
        )
        # python-pptx has no alt-text property; descr on the shape's cNvPr is what PowerPoint's "Alt Text" edits.
        movie._element.nvPicPr.cNvPr.set(
            "descr", f"Animation of step {step['index']}, {step['title']} ({round(step['duration'])} s)"
        )
        write_notes(slide, [line["text"] for line in step["lines"]])
    save_dateless(deck, target)


def save_dateless(deck, target: Path) -> None:
    """Save ``deck`` to ``target`` with every zip member dated alike (python-pptx dates each with the time of saving)."""
    saved = io.BytesIO()
    deck.save(saved)
    with zipfile.ZipFile(saved) as source, zipfile.ZipFile(target, "w") as archive:
        for member in source.infolist():  # in python-pptx's order: [Content_Types].xml first, as OOXML readers expect
            archive.writestr(zip_member(member.filename), source.read(member))


PROPERTY_LIMIT = 255
"""The most characters python-pptx lets a core property (title, subject) hold; longer ones raise ``ValueError``."""


def within_property_limit(text: str) -> str:
    """``text``, or its first 254 characters and an ellipsis when it is longer than a core property holds.

    A description names the teacher's sentence, so it can be of any length; the title slide shows it
    whole, and a shortened one is kept whole in that slide's notes too.
    """
    return text if len(text) <= PROPERTY_LIMIT else text[: PROPERTY_LIMIT - 1] + "…"


def describe(deck, package: Package) -> None:
    """The deck's document properties: the scene's title and description (the template's own are someone else's)."""
    properties = deck.core_properties
    properties.title = within_property_limit(package.title)
    properties.subject = within_property_limit(package.description)
    properties.author = properties.last_modified_by = "attention-explainer"
    properties.comments = ""
    properties.revision = 1
    # No dates (OOXML's are optional): the template's are 2013's, and today's would differ at every export.
    properties._element._remove_created()
    properties._element._remove_modified()


def widen_template(deck, ratio: float) -> None:
    """Stretch the template's master and layouts, drawn for a 4:3 slide, across the wider one (for slides a teacher adds).

    Only shapes with a position of their own: a layout's placeholder without one takes the master's.
    """
    for master in deck.slide_masters:
        for shape in [*master.shapes, *(shape for layout in master.slide_layouts for shape in layout.shapes)]:
            if shape._element.xpath("./p:spPr/a:xfrm"):
                shape.left, shape.width = Emu(round(shape.left * ratio)), Emu(round(shape.width * ratio))


def paint(slide, theme: Palette) -> None:
    """Give ``slide`` the render's background colour, so a movie sits on its own colour (dark renders, dark slides)."""
    fill = slide.background.fill
    fill.solid()
    fill.fore_color.rgb = RGBColor.from_string(theme.background.removeprefix("#"))


def style(shape, colour: str, size: Pt | None = None) -> None:
    """Colour (one of the theme's text colours, 4.5:1 on its background) and size every run of ``shape``."""
    for paragraph in shape.text_frame.paragraphs:
        for run in paragraph.runs:
            run.font.color.rgb = RGBColor.from_string(colour.removeprefix("#"))
            if size is not None:
                run.font.size = size


def place(shape, left: int, top: int, width: int, height: int) -> None:
    """Put a placeholder where this deck wants it (a layout's own title leaves no room for a 16:9 movie below it)."""
    shape.left, shape.top, shape.width, shape.height = Emu(left), Emu(top), Emu(width), Emu(height)


def fit(width: int, height: int) -> tuple[Emu, Emu, Emu, Emu]:
    """Left, top, width and height of a ``width`` by ``height`` picture as large as fits under the title, centred."""
    top = MARGIN + TITLE_HEIGHT + GAP
    room_width, room_height = SLIDE_WIDTH - 2 * MARGIN, SLIDE_HEIGHT - top - MARGIN
    scale = min(room_width / width, room_height / height)
    movie_width, movie_height = int(width * scale), int(height * scale)
    return Emu((SLIDE_WIDTH - movie_width) // 2), Emu(top), Emu(movie_width), Emu(movie_height)


def write_notes(slide, lines: list[str]) -> None:
    """The speaker notes of ``slide``: one paragraph a line."""
    frame = slide.notes_slide.notes_text_frame
    frame.paragraphs[0].text = lines[0] if lines else ""
    for line in lines[1:]:
        frame.add_paragraph().text = line
