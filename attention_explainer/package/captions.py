"""Captions, built once as one list of cues and written as WebVTT, SRT and a transcript.

A step's caption is split into cues that follow subtitle practice: at most two lines of at most
42 characters (the line break written in the file), split at sentence or clause boundaries,
each shown for a share of the step in proportion to its length (at most 17 characters per
second, at least a second). The same cues go into every format, so they never disagree.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Iterable, Mapping

import srt

__all__ = [
    "Cue",
    "MAX_LINE",
    "MAX_CHARACTERS_PER_SECOND",
    "MIN_CUE_SECONDS",
    "MIN_CUE_CHARACTERS",
    "wrap",
    "split_caption",
    "cues_for",
    "to_vtt",
    "to_srt",
    "to_transcript",
]

MAX_LINE = 42
"""Characters per caption line, the usual subtitle limit (two lines at most per cue)."""

MAX_CHARACTERS_PER_SECOND = 17
"""The fastest a cue may ask viewers to read (steps are held at 15 characters per second)."""

MIN_CUE_SECONDS = 1.0
"""No cue flashes by faster than this; its step's other cues give it the time."""

MIN_CUE_CHARACTERS = 40
"""A shorter sentence joins a neighbour when the two still fit one cue."""


@dataclass(frozen=True)
class Cue:
    """One caption on screen: from ``start`` to ``end`` seconds of the video; ``text`` holds its line break."""

    start: float
    end: float
    text: str


def wrap(text: str) -> str | None:
    """``text`` on at most two lines of :data:`MAX_LINE` characters, broken at the space that balances them; ``None`` if it cannot fit."""
    if len(text) <= MAX_LINE:
        return text
    spaces = [k for k, character in enumerate(text) if character == " "]
    fitting = [k for k in spaces if k <= MAX_LINE and len(text) - k - 1 <= MAX_LINE]
    if not fitting:
        return None
    cut = min(fitting, key=lambda k: abs(k - (len(text) - k - 1)))
    return text[:cut] + "\n" + text[cut + 1 :]


def _fits(text: str) -> bool:
    return wrap(text) is not None


def _pieces(sentence: str) -> list[str]:
    """A sentence too long for one cue, cut at its clauses (after , ; : and dashes), then at words if need be."""
    clauses = re.split(r"(?<=[,;:])\s+|\s+(?=[—–] )", sentence)
    pieces: list[str] = []
    for clause in clauses:
        if _fits(clause):
            pieces.append(clause)
            continue
        words, line = clause.split(), ""
        for word in words:
            candidate = f"{line} {word}".strip()
            if line and not _fits(candidate):
                pieces.append(line)
                candidate = word
            line = candidate
        if line:
            pieces.append(line)
    return pieces


def split_caption(caption: str) -> list[str]:
    """Split a caption into cues that fit two lines: whole sentences where they fit, else their clauses.

    Neighbouring pieces join while they still fit one cue and one of them is shorter than
    :data:`MIN_CUE_CHARACTERS`, or while both belong to one sentence.
    """
    cues: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", caption.strip()):
        pieces = [sentence] if _fits(sentence) else _pieces(sentence)
        for index, piece in enumerate(pieces):
            joined = f"{cues[-1]} {piece}" if cues else piece
            same_sentence = index > 0
            short = cues and (len(cues[-1]) < MIN_CUE_CHARACTERS or len(piece) < MIN_CUE_CHARACTERS)
            if cues and (same_sentence or short) and _fits(joined):
                cues[-1] = joined
            else:
                cues.append(piece)
    return cues


def _durations(parts: list[str], total: float) -> list[float]:
    """Each cue's share of its step by length, with at least :data:`MIN_CUE_SECONDS` where the step allows it."""
    weights = [float(len(part)) for part in parts]
    durations = [total * weight / sum(weights) for weight in weights]
    short = [k for k, duration in enumerate(durations) if duration < MIN_CUE_SECONDS]
    if short and total >= MIN_CUE_SECONDS * len(parts):
        rest = total - MIN_CUE_SECONDS * len(short)
        long_weight = sum(weights[k] for k in range(len(parts)) if k not in short)
        durations = [MIN_CUE_SECONDS if k in short else rest * weights[k] / long_weight for k in range(len(parts))]
    return durations


def cues_for(steps: Iterable[Mapping]) -> list[Cue]:
    """The cues of a video's steps, each line of a step on screen while it is said.

    A step has ``lines`` (each with ``text``, ``start`` and ``end`` in seconds of the video); a
    line too long for one cue is split and its cues share the line's time by length. A step
    without lines (an older render) is one line: its ``caption`` from ``start`` for ``duration``.
    """
    cues = []
    for step in steps:
        lines = step.get("lines") or [
            {"text": step["caption"], "start": step["start"], "end": float(step["start"]) + float(step["duration"])}
        ]
        for line in lines:
            parts = split_caption(line["text"])
            start = float(line["start"])
            for part, duration in zip(parts, _durations(parts, float(line["end"]) - start)):
                cues.append(Cue(round(start, 3), round(start + duration, 3), wrap(part) or part))
                start += duration
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


def to_transcript(title: str, steps: Iterable[Mapping], about: str = "", credit: str = "") -> str:
    """The captions as plain text, step by step under each step's number and title: the text alternative to the video.

    ``about`` (what the render shows, with its inputs as rendered) follows the title; ``credit`` (who
    or what spoke the narration) closes the text.
    """
    lines = [title, *([about] if about else []), ""]
    for index, step in enumerate(steps, start=1):
        lines += [f"{index}. {step['title']}", step["caption"], ""]
    if credit:
        lines += [credit, ""]
    return "\n".join(lines)
