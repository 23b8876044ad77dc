"""The base of every explainer scene: a trace, named steps with captions, and shown numbers.

A scene subclasses :class:`ExplainerScene`, builds its trace in ``build_trace``
and writes ``construct`` as a few ``with self.step(name, title):`` blocks. Inside a step,
``self.say(line)`` puts a line of explanation on screen (as a caption cue, and spoken
when the render has a voice) just before the animation it describes; the next line, and
the step's end, wait until the line has been read or spoken.
Numbers reach the screen only through :meth:`ExplainerScene.grid`,
:meth:`ExplainerScene.number` and :meth:`ExplainerScene.bars`, which read
them from the trace by path and remember what was drawn, so a test can check
every shown number against the trace. What is on screen when is not kept: a test that needs
it passes an ``observe`` callback (see :class:`ExplainerScene`) and records it itself.
"""

from __future__ import annotations

import logging
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar, Iterator, Protocol, Sequence

from manim import DOWN, RIGHT, Create, FadeOut, Mobject, Scene, SurroundingRectangle, Text, VGroup, VMobject

from attention_math import Trace, lookup

from ..theme import DARK, Theme
from .components import NumberGrid, WeightBars, label, number_label
from .layout import HEADING_WIDTH, NOTE_WIDTH, SAFE_BOTTOM, SAFE_LEFT, SAFE_TOP
from .text import on_one_baseline

__all__ = ["ExplainerScene", "Step", "Line", "Shown", "Voice", "READING_SPEED", "SPEECH_PAUSE"]

log = logging.getLogger("attention_explainer")
log.propagate = False  # progress lines are shown only where the CLI attaches a handler
log.addHandler(logging.NullHandler())

READING_SPEED = 15.0
"""Characters per second a class can comfortably read; a step lasts at least as long as its caption needs."""

SPEECH_PAUSE = 0.4
"""Seconds of silence after a spoken line before the next one starts."""

END_HOLD = 0.6
"""Seconds every step ends on a still picture."""

FRAMES_PER_SECOND_GRID = 15
"""Every duration is a whole number of 1/15 s: whole frames at 15, 30 and 60 fps, so every
quality shares one timeline and no section drifts off the frame grid."""


def whole_frames(seconds: float) -> float:
    """``seconds`` rounded to the nearest 1/15 s (at least one frame)."""
    return max(1, round(seconds * FRAMES_PER_SECOND_GRID)) / FRAMES_PER_SECOND_GRID


class Voice(Protocol):
    """What speaks a scene's lines: the application's narrator (see ``attention_explainer.pipeline.narration``)."""

    def speak(self, text: str) -> float:
        """Prepare ``text`` as speech (synthesised or from a cache) and return its length in seconds."""


@dataclass
class Line:
    """One line of explanation: on screen as a caption cue from ``start`` to ``end`` (seconds of the video), and spoken."""

    text: str
    start: float
    end: float = 0.0
    spoken: str = ""
    """What a voice says: the text in words (symbols and numbers spelled out); empty when the render is silent."""
    speech: float = 0.0
    """Seconds the voice takes to say it (0 when silent)."""

    @property
    def needed(self) -> float:
        """The least time the line stays: long enough to read it, and to say it with a pause after."""
        return max(len(self.text) / READING_SPEED, self.speech + SPEECH_PAUSE if self.speech else 0.0)


@dataclass
class Step:
    """One named idea of a scene: a video section with the lines that explain it."""

    name: str
    """The slug: the section's id, its clip's file name and its anchor (``divide-by-sqrt-dk``)."""
    title: str = ""
    """What people read where the step is named (presenter, explorer, deck, player): ``Divide by √d_k``."""
    start: float = 0.0
    end: float = 0.0
    lines: list[Line] = field(default_factory=list)

    @property
    def caption(self) -> str:
        """The step's words, as one paragraph (the transcript's)."""
        return " ".join(line.text for line in self.lines)

    @property
    def duration(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Shown:
    """Numbers drawn on screen and the trace path they claim to show, in row-major order."""

    source: str
    texts: tuple[Text, ...]
    decimals: int


def _input_in(trace: Trace, option: str):
    """The value of the input ``option`` that ``trace`` was built from, read off its fields."""
    if option == "sentence":
        for field_name in ("sentence", "tokens", "query_tokens"):
            value = getattr(trace, field_name, None)
            if value and isinstance(value, str):
                return value
            if value:
                return " ".join(value)
        return None
    if option == "d_model":
        x = getattr(trace, "x", None)
        return getattr(trace, "d_model", None) or (x.shape[-1] if x is not None else None)
    names = {"token": "query", "seed": "seed", "heads": "n_heads"}
    return getattr(trace, names.get(option, option), None)


class ExplainerScene(Scene):
    """A scene that explains one idea with numbers from an ``attention_math`` trace.

    Class attributes
    ----------------
    name
        The CLI name, e.g. ``"scaling"``.
    title
        Title shown in listings and the gallery.
    description
        One line: what the scene teaches.
    sources
        Which course material it follows.
    poster_step
        The step whose last frame is the poster image; the last step when empty.
    options
        The teacher's inputs the scene takes (``sentence``, ``token``, ``seed``, ``d_model``, ``heads``),
        passed to :meth:`build_trace` by name.
    min_tokens, max_tokens
        How many words a ``sentence`` may have: the most that fit the scene's layout.
    default_d_model, d_model_range, default_heads, heads_range
        The model size the scene draws, and the sizes its layout can show.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    sources: ClassVar[str] = ""
    poster_step: ClassVar[str] = ""
    options: ClassVar[tuple[str, ...]] = ()
    min_tokens: ClassVar[int] = 2
    max_tokens: ClassVar[int] = 0
    default_d_model: ClassVar[int] = 0
    d_model_range: ClassVar[tuple[int, int]] = (0, 0)
    default_heads: ClassVar[int] = 1
    heads_range: ClassVar[tuple[int, int]] = (1, 1)

    def __init__(
        self,
        trace: Trace | None = None,
        theme: Theme = DARK,
        voice: Voice | None = None,
        speak=None,
        observe=None,
        **kwargs,
    ):
        self.trace = trace if trace is not None else self.build_trace()
        self.theme = theme
        self.voice = voice
        self.spoken_form = speak or (lambda text: text)
        """Turns a line into the words a voice says (the application's speech normaliser)."""
        self.observe = observe
        """``observe(scene, ended)``, called after every animation (``ended`` None) and as each step ends (``ended``
        the step): how tests watch what is on screen. None in a render, which then does nothing extra."""
        self.steps: list[Step] = []
        self.shown: list[Shown] = []
        self.highlights: list[VGroup] = []
        """The outlines :meth:`highlight` drew for the line being said."""
        super().__init__(**kwargs)

    @classmethod
    def build_trace(cls, **settings) -> Trace:
        """Compute the scene's trace: its defaults, changed by the ``settings`` given (see :attr:`options`)."""
        raise NotImplementedError

    @classmethod
    def check_settings(cls, settings: dict) -> None:
        """Raise ``ValueError`` with a one-line reason when ``settings`` cannot be shown (beyond the common checks)."""

    @classmethod
    def describe(cls, trace: Trace) -> str:
        """The scene's one-line description for this trace: ``{sentence}``, ``{heads}``... in it are the inputs drawn.

        So a teacher's render is described as rendered, never with the default's sentence or sizes.
        """
        description = cls.description
        for option, value in cls.inputs_as_rendered(trace):
            description = description.replace("{" + option + "}", value)
        return description

    @classmethod
    def inputs_as_rendered(cls, trace: Trace) -> list[tuple[str, str]]:
        """The teacher's inputs this scene takes, with the values ``trace`` was built from (defaults included)."""
        facts = []
        for option in cls.options:
            value = _input_in(trace, option)
            if value not in (None, ""):
                facts.append((option, str(value)))
        return facts

    def setup(self):
        self.camera.background_color = self.theme.background

    # --- timing ----------------------------------------------------------------

    def play(self, *animations, run_time: float | None = None, **kwargs):
        """``Scene.play`` with the run time on the 1/15 s grid (see :data:`FRAMES_PER_SECOND_GRID`)."""
        if run_time is not None:
            kwargs["run_time"] = whole_frames(run_time)
        super().play(*animations, **kwargs)
        if self.observe is not None:
            self.observe(self, None)

    def wait(self, duration: float = 1.0, **kwargs):
        """``Scene.wait`` with the duration on the 1/15 s grid."""
        super().wait(whole_frames(duration), **kwargs)

    # --- steps and captions -------------------------------------------------

    @contextmanager
    def step(self, name: str, title: str, caption: str = "") -> Iterator[Step]:
        """One named idea: a new video section, explained by the lines said in it (see :meth:`say`).

        ``name`` is the slug (the section's id and its clip's file name); ``title`` is what a person
        reads wherever the step is named (``"Divide by √d_k"``: sentence case, short, its symbols
        as the screen writes them), written by hand, never made from the slug.
        A ``caption`` given here is said as the step starts. The step ends on a still picture
        once its last line has been read (and spoken), so the video works with or without sound.
        """
        if not isinstance(title, str) or not title.strip():
            raise ValueError(f"step {name!r} has no title")
        self.next_section(name)
        step = Step(name, title=" ".join(title.split()), start=self.time)
        self.steps.append(step)
        log.info("step %d: %s", len(self.steps), step.title)
        self._end_highlights()  # the last step's, kept through its final picture
        if caption:
            self.say(caption)
        yield step
        self._let_the_line_finish()
        # Hold the step's final picture at least END_HOLD, so a step's last frame (the poster,
        # the presenter's pause) is settled.
        self.wait(END_HOLD)
        step.end = self.time
        if step.lines:
            step.lines[-1].end = step.end
        if self.observe is not None:
            self.observe(self, step)

    def say(self, text: str, spoken: str | None = None) -> Line:
        """Show ``text`` as the caption from now on (and speak it), once the line before has had its time.

        Call it just before the animation the line describes. ``spoken`` overrides the words the
        voice says when the automatic spoken form of ``text`` would read badly.
        """
        if not self.steps:
            raise RuntimeError("say() belongs inside a step")
        step = self.steps[-1]
        self._let_the_line_finish()
        if step.lines:
            step.lines[-1].end = self.time
        line = Line(" ".join(text.split()), start=self.time)
        if self.voice is not None:
            # A spoken override goes through the spoken form too: it may still hold a digit or a symbol.
            line.spoken = self.spoken_form(spoken if spoken is not None else line.text)
            line.speech = self.voice.speak(line.spoken)
        step.lines.append(line)
        # The last line's outlines fade as this one starts: faded before its end, its last frame showed none.
        self._end_highlights()
        return line

    def highlight(self, *targets: Mobject, color: str | None = None, buff: float = 0.06, run_time: float = 0.6) -> VGroup:
        """Outline ``targets`` until the line being said ends: a highlight that stays while the line talks about it.

        An ``Indicate`` or ``Circumscribe`` is gone within a second, while the voice still names the
        thing and the line's last frame shows nothing marked. These outlines are drawn now, stay
        through the line (a step's last line: through its final picture) and fade as the next line
        or step starts; ``clear`` takes them too. Returns the outlines.
        """
        outlines = VGroup(
            *[SurroundingRectangle(target, color=color or self.theme.highlight, buff=buff, stroke_width=4) for target in targets]
        )
        self.play(Create(outlines), run_time=run_time)
        self.highlights.append(outlines)
        return outlines

    def _end_highlights(self) -> None:
        """Fade the outlines :meth:`highlight` drew (those still on screen), once their line is over."""
        showing = [outlines for outlines in self.highlights if outlines in self.mobjects]
        self.highlights = []
        if showing:
            self.play(*[FadeOut(outlines) for outlines in showing], run_time=0.4)

    def _let_the_line_finish(self) -> None:
        """Wait until the current line of the current step has been on screen for as long as it needs."""
        if self.steps and self.steps[-1].lines:
            line = self.steps[-1].lines[-1]
            missing = line.needed - (self.time - line.start)
            if missing > 1e-9:
                # Up to the next whole frame of the 1/15 s grid, never down: the line gets all its time.
                self.wait(math.ceil(missing * FRAMES_PER_SECOND_GRID - 1e-6) / FRAMES_PER_SECOND_GRID)

    # --- what goes on screen ------------------------------------------------

    def heading(self, text: str) -> Text:
        """The step's heading, top left (scene text from the code, drawn with ``Text``)."""
        heading = label(self.theme, text, size=self.theme.title_size)
        # Only a teacher's long word makes a heading wider than the frame.
        if heading.width > HEADING_WIDTH:
            heading.scale_to_fit_width(HEADING_WIDTH)
        return heading.move_to([SAFE_LEFT + heading.width / 2, SAFE_TOP - heading.height / 2, 0])

    def grid(self, source: str, decimals: int = 2, **kwargs) -> NumberGrid:
        """A :class:`NumberGrid` of the trace values at ``source`` (a path such as ``"weights[1]"``)."""
        grid = NumberGrid(self.theme, lookup(self.trace, source), decimals, **kwargs)
        self.shown.append(Shown(source, tuple(grid.numbers), decimals))
        return grid

    def print_only(self, grid: NumberGrid, keep, path=None) -> NumberGrid:
        """Leave numbers in ``grid`` only at the cells ``keep`` ((row, column) pairs): colour carries the rest.

        For a heatmap that would be a wall of numbers: the lines name a few cells, and those print
        their value. The others' numbers become empty (``grid.number`` still indexes every cell), and
        what is shown is recorded cell by cell (``"weights[3, 0]"``), so tests still find each printed
        number's trace value. ``grid`` must come from :meth:`grid` with a path of whole-number indices,
        or ``path(i, j)`` must give the trace path of cell (i, j) (a grid drawn from a slice).
        """
        entry = next(shown for shown in reversed(self.shown) if shown.texts == tuple(grid.numbers))
        self.shown.remove(entry)
        keep, (rows, columns) = set(keep), grid.shape
        for i in range(rows):
            for j in range(columns):
                if (i, j) in keep:
                    if path is not None:
                        at = path(i, j)
                    elif entry.source.endswith("]"):
                        at = f"{entry.source[:-1]}, {i}, {j}]"
                    else:
                        at = f"{entry.source}[{i}, {j}]"
                    self.shown.append(Shown(at, (grid.number(i, j),), entry.decimals))
                else:
                    grid.numbers.submobjects[i * columns + j] = VMobject()
        return grid

    def number(self, source: str, decimals: int = 2, **kwargs) -> Text:
        """One trace value as text, e.g. ``self.number("scale", 0)``."""
        text = number_label(self.theme, float(lookup(self.trace, source)), decimals, **kwargs)
        self.shown.append(Shown(source, (text,), decimals))
        return text

    def bars(self, source: str, labels: Sequence[str], decimals: int = 2, **kwargs) -> WeightBars:
        """:class:`WeightBars` of the distribution at ``source``, numbers on top."""
        bars = WeightBars(self.theme, lookup(self.trace, source), labels, decimals, **kwargs)
        self.shown.append(Shown(source, tuple(bars.numbers), decimals))
        return bars

    def clear(self, *keep: Mobject, run_time: float = 0.8) -> None:
        """Fade out everything on screen except ``keep``."""
        leaving = [m for m in self.mobjects if m not in keep]
        if leaving:
            self.play(*[FadeOut(m) for m in leaving], run_time=run_time)

    def source_note(self, source: str | None = None, more: tuple[str, ...] = ()) -> VGroup:
        """Where a teacher's sentence's embeddings come from, on two lines at the bottom.

        ``source`` defaults to the trace's ``source``; a trace whose ``source`` names something
        else (a slide) passes where its embeddings come from instead. ``more`` lines follow.
        """
        source = self.trace.source if source is None else source
        # Break at the comma nearest the middle, so both lines stay short enough to read.
        commas = [k for k, c in enumerate(source) if c == ","] or [len(source)]
        cut = min(commas, key=lambda k: abs(k - len(source) / 2)) + 1
        return self.note_lines((source[:cut], source[cut:], *more))

    def note_with_numbers(self, lines: Sequence[Sequence[str | tuple[str, int]]]) -> VGroup:
        """Muted lines at the bottom of the frame mixing words and trace numbers: a part is text, or ``(path, decimals)``.

        Each number is its own text read from the trace (so a line that says it finds it on screen as written).
        """
        theme = self.theme
        rows = VGroup()
        for parts in lines:
            row = VGroup()
            for part in parts:
                if isinstance(part, tuple):
                    row.add(self.number(part[0], part[1], size=theme.min_size, color=theme.muted, mono=False))
                else:
                    row.add(label(theme, part.strip(), size=theme.min_size, color=theme.muted))
            row.arrange(RIGHT, buff=0.12, aligned_edge=DOWN)
            # Words and numbers on one baseline: by their ink's bottom, "length" (a descender) sat below "2.03".
            on_one_baseline(row.submobjects)
            rows.add(row)
        rows.arrange(DOWN, buff=0.12)
        if rows.width > NOTE_WIDTH:
            rows.scale_to_fit_width(NOTE_WIDTH)
        return rows.move_to([0, SAFE_BOTTOM + rows.height / 2, 0])

    def note_lines(self, lines: tuple[str, ...]) -> VGroup:
        """Small muted lines at the bottom of the frame, no wider than it (empty lines dropped)."""
        theme = self.theme
        note = VGroup(*[label(theme, line.strip(), size=theme.min_size, color=theme.muted) for line in lines if line.strip()])
        note.arrange(DOWN, buff=0.12)
        if note.width > NOTE_WIDTH:
            note.scale_to_fit_width(NOTE_WIDTH)
        return note.move_to([0, SAFE_BOTTOM + note.height / 2, 0])
