"""A note mixing words and trace numbers sets them on one baseline (``ExplainerScene.note_with_numbers``).

A reviewer saw "its squared length 2.03 / 2 = 1.015" with the numbers lower than the words: the
parts were aligned by their ink's bottom, and "length" has a descender where "2.03" has none.
"""

from __future__ import annotations

from types import SimpleNamespace

from scenes.kit.scene import ExplainerScene
from scenes.kit.text import baseline

from .helpers import build_without_video


class Noting(ExplainerScene):
    """One step that puts a note with words (descenders among them) and numbers on screen."""

    name = "noting"

    @classmethod
    def build_trace(cls, **settings):
        return SimpleNamespace(square=2.03, scale=2.0, score=1.015)

    def construct(self):
        with self.step("one", "One"):
            self.say("A note with numbers.")
            self.note = self.note_with_numbers(
                (("“cat” with itself: its squared length", ("square", 2), "/", ("scale", 0), "=", ("score", 3)),)
            )
            self.add(self.note)


def test_words_and_numbers_of_a_note_share_one_baseline():
    scene = build_without_video(Noting, draw=False)
    parts = scene.note[0].submobjects
    lines = [baseline(part) for part in parts]
    # The words' ink reaches below their baseline ("q", "g"); the numbers' does not.
    assert parts[0].get_bottom()[1] < lines[0] - 0.02
    assert max(lines) - min(lines) < 0.005, lines
