"""A highlight stays while its line talks about the thing: ``ExplainerScene.highlight`` outlines until the line ends.

Reviewers saw ``Indicate`` flash for under a second while the voice went on naming the thing,
and the line's last frame showed nothing marked.
"""

from __future__ import annotations

from types import SimpleNamespace

from manim import Square

from scenes.kit.scene import ExplainerScene

from .helpers import build_without_video


class Pointing(ExplainerScene):
    """Two steps: a line that highlights, one that does not, and a step's last line that highlights."""

    name = "pointing"
    marks = True

    @classmethod
    def build_trace(cls, **settings):
        return SimpleNamespace()

    def construct(self):
        self.square = Square()
        self.add(self.square)
        with self.step("one", "One"):
            self.say("Look at this square, the one with the outline around it.")
            self.first = self.highlight(self.square) if self.marks else None
            self.say("Now something else entirely, with nothing marked.")
            self.say("And the square once more, to the end of the step.")
            self.last = self.highlight(self.square) if self.marks else None
        with self.step("two", "Two"):
            self.say("A new step.")


def test_a_highlight_stays_for_its_whole_line_and_goes_with_the_next():
    seen = []  # (time, lines said in the current step, step ended, first outline on screen, last outline on screen)

    def look(scene, ended):
        first, last = (getattr(scene, name, None) for name in ("first", "last"))
        step = scene.steps[-1]
        seen.append((scene.time, len(step.lines), ended is not None, first in scene.mobjects, last in scene.mobjects))

    scene = build_without_video(Pointing, observe=look, draw=False)
    one = scene.steps[0]
    line = one.lines[0]
    # Drawn, then on screen until its line has had all its time: it leaves no sooner.
    shown = [k for k, (_, _, _, present, _) in enumerate(seen) if present]
    assert shown, seen
    gone = next(time for time, _, _, present, _ in seen[shown[0] :] if not present)
    assert gone > line.start + line.needed, (gone, line)
    # On screen to the line's very end (its last frame, where a reviewer looks, shows it), and faded as the
    # next line starts: nothing is left once that line's first half second is over.
    assert line.end == one.lines[1].start
    assert any(present for time, _, _, present, _ in seen if line.end - 0.15 <= time <= line.end + 1e-9)
    after = [present for time, _, _, present, _ in seen if time >= one.lines[1].start + 0.5]
    assert after and not any(after)
    # A step's last line keeps its outline through the step's final picture; the next step starts without it.
    step_ends = [last for _, _, ended, _, last in seen if ended]
    assert step_ends[0] is True
    assert scene.last not in scene.mobjects and scene.steps[1].start >= one.end


class NotPointing(Pointing):
    """The same lines, nothing highlighted."""

    marks = False


def test_highlights_add_their_outlines_and_fades_and_nothing_else():
    """Each highlight adds its drawing and one fade; a line or a step with nothing highlighted plays nothing more."""
    counts = []
    for scene_class in (Pointing, NotPointing):
        plays = []
        build_without_video(scene_class, observe=lambda scene, ended, plays=plays: plays.append(ended), draw=False)
        counts.append(sum(ended is None for ended in plays))
    assert counts[0] - counts[1] == 2 + 2
