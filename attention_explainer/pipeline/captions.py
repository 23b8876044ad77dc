"""Captions, built once as one list of cues and written as WebVTT, SRT and a transcript.

A step's caption is split into cues of whole sentences, each shown for a share of the step in
proportion to its length; the same cues go into every format, so they never disagree.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Iterable, Mapping

import srt

__all__ = ["Cue", "MIN_CUE_CHARACTERS", "split_caption", "cues_for", "to_vtt", "to_srt", "to_transcript"]

MIN_CUE_CHARACTERS = 40
"""Shorter sentences join a neighbour, so no caption cue flashes by (at 15 characters/s: 2.7 s or more)."""


@dataclass(frozen=True)
class Cue:
    """One caption on screen: from ``start`` to ``end`` seconds of the video."""

    start: float
    end: float
    text: str


def split_caption(caption: str) -> list[str]:
    """Split a caption into cues of whole sentences, each at least :data:`MIN_CUE_CHARACTERS` long."""
    cues: list[str] = []
    for sentence in re.split(r"(?<=[.!?:])\s+", caption.strip()):
        if cues and len(cues[-1]) < MIN_CUE_CHARACTERS:
            cues[-1] += " " + sentence
        else:
            cues.append(sentence)
    if len(cues) > 1 and len(cues[-1]) < MIN_CUE_CHARACTERS:
        cues[-2:] = [cues[-2] + " " + cues[-1]]
    return cues


def cues_for(steps: Iterable[Mapping]) -> list[Cue]:
    """The cues of a video's steps (each with ``caption``, ``start`` and ``duration`` in seconds)."""
    cues = []
    for step in steps:
        parts = split_caption(step["caption"])
        total = sum(len(part) for part in parts)
        start = float(step["start"])
        for part in parts:
            end = start + float(step["duration"]) * len(part) / total
            cues.append(Cue(round(start, 3), round(end, 3), part))
            start = end
    return cues


def _vtt_time(seconds: float) -> str:
    milliseconds = round(seconds * 1000)
    hours, rest = divmod(milliseconds, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def to_vtt(cues: list[Cue]) -> str:
    """WebVTT for a ``<track>``: cue text escaped (``&``, ``<``, ``>``), so any caption is shown as written."""
    blocks = [
        f"{index}\n{_vtt_time(cue.start)} --> {_vtt_time(cue.end)}\n{html.escape(cue.text, quote=False)}"
        for index, cue in enumerate(cues, start=1)
    ]
    return "WEBVTT\n\n" + "\n\n".join(blocks) + "\n"


def to_srt(cues: list[Cue]) -> str:
    """SRT for players (VLC, mpv, editors)."""
    return srt.compose(
        srt.Subtitle(index, timedelta(seconds=cue.start), timedelta(seconds=cue.end), cue.text)
        for index, cue in enumerate(cues, start=1)
    )


def to_transcript(title: str, steps: Iterable[Mapping]) -> str:
    """The captions as plain text, step by step: the text alternative to the video."""
    lines = [title, ""]
    for index, step in enumerate(steps, start=1):
        lines += [f"{index}. {step['name']}", step["caption"], ""]
    return "\n".join(lines)
