"""A SCORM 1.2 package of a render: one SCO that plays the video, asks its questions and reports the score to the LMS.

The zip holds ``imsmanifest.xml`` at its root (ADL SCORM 1.2: IMS Content Packaging 1.1.2 with
ADL's ``adlcp`` extension), a player page (``index.html``) and the files it plays: the video,
its WebVTT captions, the poster and the transcript. The player finds the LMS's ``API`` object by
ADL's algorithm (its parent frames, then its opener's), marks the lesson ``incomplete`` when it
starts, and reports the session time when it closes (with the position to resume from, when the
learner leaves before the end).

A render with questions (``questions.json``) plays in quiz mode by default: at the end of a step
with questions the video pauses and asks them (the presenter's dialog, :file:`quiz.js`). Each answer
is recorded at once as a ``cmi.interactions.n`` record and in ``cmi.suspend_data`` (to resume with
the same answers); at the video's end the SCO sends ``cmi.core.score.raw`` (the share answered right,
0 to 100) and ``lesson_status`` passed or failed against the mastery score, which the manifest
declares (``adlcp:masteryscore``, from ``export --mastery``). A render without questions reports
``completed`` at the video's end.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import asdict
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree

from attention_style import DARK, PALETTES

from ..files import sha256_of, zip_member
from ..options import DEFAULT_MASTERY
from ..package.captions import cues_for
from ..package.manifest import read_manifest
from ..package.questions import QUESTIONS, QuestionsError, read_questions
from ..package.reader import Package
from ..pages import templating

__all__ = ["write_scorm", "scorm_files", "scorm_questions", "player_page", "manifest_xml", "PLAYER", "DEFAULT_MASTERY"]

PLAYER_TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The player page's template (it takes the pages' ``style.css``); exports never make a package stale."""

PLAYER = "index.html"
"""The SCO's launch page, at the zip's root beside the manifest."""


IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
SCHEMA_LOCATION = f"{IMSCP} imscp_rootv1p1p2.xsd {ADLCP} adlcp_rootv1p2.xsd"

# Characters XML 1.0 cannot hold at all, escaped or not (C0 controls but tab and newlines, surrogates, U+FFFE/U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def scorm_files(package: Package) -> dict[str, Path]:
    """The files the SCO plays, by their name in the zip: the video, captions, poster and transcript."""
    files = {
        package.video.name: package.video,
        package.captions.name: package.captions,
        package.poster.name: package.poster,
    }
    transcript = package.folder / "transcript.txt"
    if transcript.is_file():
        files[transcript.name] = transcript
    return files


def scorm_questions(package: Package) -> list[dict]:
    """The questions the SCO asks: ``questions.json``'s, checked against the render's steps; none for a render without them.

    Raises ``ValueError`` for a ``questions.json`` that the manifest lists but that cannot be read back as questions.
    """
    manifest = read_manifest(package.folder) or {"files": []}
    if QUESTIONS not in {entry["path"] for entry in manifest["files"]}:
        return []
    try:
        return read_questions(package.folder, [step["name"] for step in package.steps])["questions"]
    except QuestionsError as error:
        raise ValueError(str(error)) from None


def player_page(
    package: Package, files: dict[str, Path], questions: list[dict] | None = None, mastery: int = DEFAULT_MASTERY
) -> str:
    """The SCO's launch page: the video with captions on, the steps to seek to, the questions, and the SCORM 1.2 calls.

    The captions come twice: ``captions.vtt`` as the video's track, and as cues inside the page
    for a page opened from disk (browsers refuse a track file there). Each step carries its start
    and end, so the page knows when a step with questions has been played to its end.
    """
    starts = [float(step["start"]) for step in package.steps]
    ends = starts[1:] + [float(package.steps[-1]["start"]) + float(package.steps[-1]["duration"])] if starts else []
    steps = [
        {"number": step["index"], "name": step["name"], "title": step["title"], "start": start, "end": end}
        for step, start, end in zip(package.steps, starts, ends)
    ]
    try:
        cues = [asdict(cue) for cue in cues_for(package.steps)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{package.folder / 'sections.json'} has caption lines without text, start and end") from None
    return templating.render_from(
        (PLAYER_TEMPLATES, templating.TEMPLATES),
        "scorm_player.html",
        title=package.title,
        description=package.description,
        video=package.video.name,
        captions=package.captions.name,
        cues=cues,
        poster=package.poster.name,
        transcript="transcript.txt" if "transcript.txt" in files else None,
        steps=steps,
        questions=questions or [],
        mastery=int(mastery),
        theme=PALETTES.get(package.theme, DARK),  # a light render plays on a light page
    )


def _xml_text(text: str) -> str:
    """``text`` with the characters XML cannot carry replaced; ElementTree escapes the rest (``<``, ``&``...)."""
    return _NOT_XML.sub("\ufffd", text)


def manifest_xml(package: Package, hrefs: list[str], mastery: int | None = None) -> bytes:
    """``imsmanifest.xml``: one organization with one item launching one SCO resource that lists every file in ``hrefs``.

    ``mastery`` (a render with questions) is the item's ``adlcp:masteryscore``: the score the LMS
    passes a learner with, given to the SCO as ``cmi.student_data.mastery_score``.
    """
    ElementTree.register_namespace("", IMSCP)
    ElementTree.register_namespace("adlcp", ADLCP)
    ElementTree.register_namespace("xsi", XSI)
    # Unique per render (an LMS may keep packages by identifier) and the same for the same render.
    identifier = f"attention-explainer-{package.scene}-{sha256_of(package.video)[:16]}"
    manifest = ElementTree.Element(
        f"{{{IMSCP}}}manifest", {"identifier": identifier, "version": "1.0", f"{{{XSI}}}schemaLocation": SCHEMA_LOCATION}
    )
    metadata = ElementTree.SubElement(manifest, f"{{{IMSCP}}}metadata")
    ElementTree.SubElement(metadata, f"{{{IMSCP}}}schema").text = "ADL SCORM"
    ElementTree.SubElement(metadata, f"{{{IMSCP}}}schemaversion").text = "1.2"
    organizations = ElementTree.SubElement(manifest, f"{{{IMSCP}}}organizations", {"default": "organization"})
    organization = ElementTree.SubElement(organizations, f"{{{IMSCP}}}organization", {"identifier": "organization"})
    ElementTree.SubElement(organization, f"{{{IMSCP}}}title").text = _xml_text(package.title)
    item = ElementTree.SubElement(
        organization, f"{{{IMSCP}}}item", {"identifier": "item", "identifierref": "video", "isvisible": "true"}
    )
    ElementTree.SubElement(item, f"{{{IMSCP}}}title").text = _xml_text(package.title)
    if mastery is not None:
        ElementTree.SubElement(item, f"{{{ADLCP}}}masteryscore").text = str(int(mastery))
    resources = ElementTree.SubElement(manifest, f"{{{IMSCP}}}resources")
    resource = ElementTree.SubElement(
        resources,
        f"{{{IMSCP}}}resource",
        {"identifier": "video", "type": "webcontent", f"{{{ADLCP}}}scormtype": "sco", "href": quote(PLAYER)},
    )
    for href in hrefs:
        ElementTree.SubElement(resource, f"{{{IMSCP}}}file", {"href": quote(href)})
    ElementTree.indent(manifest)
    # The declaration written out: ElementTree's own uses single quotes, which some LMS parsers have refused.
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{ElementTree.tostring(manifest, encoding="unicode")}\n'.encode()


def write_scorm(package: Package, target: Path, mastery: int = DEFAULT_MASTERY) -> None:
    """Write the SCORM 1.2 zip of ``package`` (an :class:`~.export.Package`, read back and checked) to ``target``.

    ``mastery`` (0 to 100, checked by :func:`~..options.check_mastery`) is the score that passes, when the render has questions.
    """
    files = scorm_files(package)
    questions = scorm_questions(package)
    page = player_page(package, files, questions, mastery).encode("utf-8")
    with zipfile.ZipFile(target, "w") as archive:
        manifest = manifest_xml(package, [PLAYER, *files], mastery if questions else None)
        archive.writestr(zip_member("imsmanifest.xml"), manifest)
        archive.writestr(zip_member(PLAYER), page)
        for name, path in files.items():
            # Streamed: a 4K video need not fit in memory.
            with path.open("rb") as source, archive.open(zip_member(name), "w", force_zip64=True) as member:
                shutil.copyfileobj(source, member, 1 << 20)
