"""A SCORM 1.2 package of a render: one SCO that plays the video and tells the LMS when it was watched to the end.

The zip holds ``imsmanifest.xml`` at its root (ADL SCORM 1.2: IMS Content Packaging 1.1.2 with
ADL's ``adlcp`` extension), a player page (``index.html``) and the files it plays: the video,
its WebVTT captions, the poster and the transcript. The player finds the LMS's ``API`` object by
ADL's algorithm (its parent frames, then its opener's), marks the lesson ``incomplete`` when it
starts and ``completed`` when the video ends, and reports the session time when it closes (with
the position to resume from, when the learner leaves before the end).
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
from ..package.captions import cues_for
from ..package.reader import Package
from ..pages import templating

__all__ = ["write_scorm", "scorm_files", "player_page", "manifest_xml", "PLAYER"]

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


def player_page(package: Package, files: dict[str, Path]) -> str:
    """The SCO's launch page: the video with captions on, the steps to seek to, and the SCORM 1.2 calls.

    The captions come twice: ``captions.vtt`` as the video's track, and as cues inside the page
    for a page opened from disk (browsers refuse a track file there).
    """
    steps = [{"number": step["index"], "title": step["title"], "start": float(step["start"])} for step in package.steps]
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
        theme=PALETTES.get(package.theme, DARK),  # a light render plays on a light page
    )


def _xml_text(text: str) -> str:
    """``text`` with the characters XML cannot carry replaced; ElementTree escapes the rest (``<``, ``&``...)."""
    return _NOT_XML.sub("\ufffd", text)


def manifest_xml(package: Package, hrefs: list[str]) -> bytes:
    """``imsmanifest.xml``: one organization with one item launching one SCO resource that lists every file in ``hrefs``."""
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


def write_scorm(package: Package, target: Path) -> None:
    """Write the SCORM 1.2 zip of ``package`` (an :class:`~.export.Package`, read back and checked) to ``target``."""
    files = scorm_files(package)
    page = player_page(package, files).encode("utf-8")
    with zipfile.ZipFile(target, "w") as archive:
        archive.writestr(zip_member("imsmanifest.xml"), manifest_xml(package, [PLAYER, *files]))
        archive.writestr(zip_member(PLAYER), page)
        for name, path in files.items():
            # Streamed: a 4K video need not fit in memory.
            with path.open("rb") as source, archive.open(zip_member(name), "w", force_zip64=True) as member:
                shutil.copyfileobj(source, member, 1 << 20)
