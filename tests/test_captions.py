"""Captions: one cue list, written as WebVTT, SRT and a transcript, all saying the same at the same times."""

from __future__ import annotations

import re

import pytest
import srt

from attention_explainer.package.captions import MAX_LINE, Cue, cues_for, split_caption, to_srt, to_transcript, to_vtt, wrap

STEPS = [
    {
        "name": "scores",
        "title": "Scores: q·k for each key",
        "caption": "Each query meets each key. The dot product q · k < 5 & <eos> is a score.",
        "start": 0.0,
        "duration": 6.0,
    },
    {
        "name": "softmax",
        "title": "Softmax: weights that add up to 1",
        "caption": "Softmax turns the scores into weights that add up to 1.",
        "start": 6.0,
        "duration": 4.0,
    },
]


def test_vtt_escapes_special_characters():
    cues = [Cue(1.0, 3.5, "q·k < 5 & <eos> > 2"), Cue(3.5, 5.0, "next")]
    assert to_vtt(cues) == (
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.500\nq·k &lt; 5 &amp; &lt;eos&gt; &gt; 2\n\n2\n00:00:03.500 --> 00:00:05.000\nnext\n"
    )


def test_a_cue_is_a_share_of_its_step_by_length_and_the_cues_tile_the_step():
    cues = cues_for(STEPS)
    # The first caption's two sentences: 26 and 46 characters, joined since the first is short.
    assert [cue.text.replace("\n", " ") for cue in cues] == [STEPS[0]["caption"], STEPS[1]["caption"]]
    assert (cues[0].start, cues[0].end, cues[1].start, cues[1].end) == (0.0, 6.0, 6.0, 10.0)
    long = [{"name": "a", "caption": "A" * 50 + ". " + "B" * 150 + ".", "start": 2.0, "duration": 8.0}]
    first, second = cues_for(long)
    assert (first.start, second.end) == (2.0, 10.0) and first.end == second.start
    assert first.end - first.start == pytest.approx(8.0 * 51 / (51 + 151), abs=0.001)  # times kept to the millisecond


def test_srt_and_vtt_carry_the_same_cues_at_the_same_times():
    cues = cues_for(STEPS)
    parsed = list(srt.parse(to_srt(cues)))
    assert [s.content for s in parsed] == [cue.text for cue in cues]
    assert [(s.start.total_seconds(), s.end.total_seconds()) for s in parsed] == [(c.start, c.end) for c in cues]
    vtt_times = re.findall(r"(\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d)", to_vtt(cues))
    seconds = [
        (int(h1) * 3600 + int(m1) * 60 + int(s1) + int(ms1) / 1000, int(h2) * 3600 + int(m2) * 60 + int(s2) + int(ms2) / 1000)
        for h1, m1, s1, ms1, h2, m2, s2, ms2 in vtt_times
    ]
    assert seconds == [(c.start, c.end) for c in cues]


def test_short_sentences_join_a_neighbour_that_still_fits():
    cues = split_caption("Short one. Another short. " + "A sentence long enough to stand on its own as a cue.")
    assert cues == ["Short one. Another short. A sentence long enough to stand on its own as a cue."]
    assert wrap(cues[0]) == "Short one. Another short. A sentence\nlong enough to stand on its own as a cue."


def test_a_long_sentence_is_cut_at_its_clauses_and_wrapped_on_two_lines():
    sentence = (
        "Attention divides every score by the square root of d_k, because dot products of long random vectors "
        "grow with their length; without it, softmax saturates."
    )
    cues = split_caption(sentence)
    assert cues == [
        "Attention divides every score by the square root of d_k,",
        "because dot products of long random vectors grow with their length;",
        "without it, softmax saturates.",
    ]
    assert wrap(cues[1]) == "because dot products of long random\nvectors grow with their length;"
    assert all(len(line) <= MAX_LINE for cue in cues for line in wrap(cue).split("\n"))


def test_a_clause_too_long_for_two_lines_is_cut_between_words():
    words = " ".join(f"word{k:02d}" for k in range(30))  # 209 characters and no clause boundary
    cues = split_caption(words + ".")
    assert " ".join(cues) == words + "."
    assert all(wrap(cue) is not None for cue in cues) and len(cues) == 3


def test_a_short_cue_gets_at_least_a_second_from_its_step():
    answer = "Explanations-fill-this-first-line-exactly " + "and-this-second-line-up-to-its-full-length"[:41]  # two full lines
    assert wrap(answer) is not None and wrap("Why? " + answer) is None
    steps = [{"name": "a", "caption": "Why? " + answer, "start": 0.0, "duration": 6.0}]
    first, second = cues_for(steps)
    assert first.text == "Why?" and first.end - first.start == 1.0 and second.end == 6.0


def test_the_transcript_lists_every_step_by_its_title_with_its_caption():
    text = to_transcript("Scaling", STEPS)
    assert text.splitlines()[:4] == ["Scaling", "", "1. Scores: q·k for each key", STEPS[0]["caption"]]
    assert "2. Softmax: weights that add up to 1\n" + STEPS[1]["caption"] in text
