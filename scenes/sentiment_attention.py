"""Sentiment with learned attention: where a trained classifier looks, what it says, and where the weights mislead.

A classifier that pools a review's words with learned attention weights is trained here
(torch, an optional extra) on short film reviews written for this video. The scene shows
the run's own numbers: its curves, the weights on a few held-out reviews with the prediction
and its probability, and a review where going by the most weighted word is wrong.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Create, FadeIn, FadeOut, Indicate, SurroundingRectangle, VGroup

from attention_math.learning import import_torch
from attention_math.sentiment import NEGATIONS, SentimentSettings, check_sentence, vocabulary
from attention_math.traces.sentiment_attention import sentiment_attention_trace

from .kit import ExplainerScene
from .kit.charts import LineChart
from .kit.heatmaps import AxisLabels, Cells, weights_heatmap
from .kit.layout import BODY, BODY_TOP, LEFT_EDGE, RIGHT_EDGE, Region, center_in, hang_from
from .kit.text import formula, label, on_one_baseline, on_one_line
from .theme import format_number
from .training import trained

LOSS_CHART = Region(LEFT_EDGE + 1.3, -1.0, -0.75, 1.55)
"""The training loss: the left half under the heading, room below for the weights before and after."""
ACCURACY_CHART = Region(1.6, RIGHT_EDGE - 1.5, -0.75, 1.55)
"""Training and held-out accuracy: the right half, room right of it for the final values."""
WEIGHTS_WIDTH = 7.8
"""Widest a review's row of weights gets; its probability goes right of it."""
MAX_WORDS = 10
"""Most words a teacher's sentence may have: each gets a cell wide enough for its weight."""
FILLERS = ("the", "a")
"""The filler words step 3 names; their cells are outlined as it says so (review 22: only the words said)."""

POOLING = (
    r"\mathrm{score}_i = v^\top \tanh(W e_i + b)",
    r"\alpha = \mathrm{softmax}(\mathrm{score})",
    r"P(\mathrm{positive}) = \sigma\big(u^\top \textstyle\sum_i \alpha_i\, e_i + c\big)",
)


def verdict(probability: float) -> str:
    """The classifier's answer in words."""
    return "positive" if probability > 0.5 else "negative"


def quoted(words) -> str:
    return "“" + " ".join(words) + "”"


class SentimentAttentionScene(ExplainerScene):
    name = "sentiment-attention"
    title = "Sentiment: where a classifier learns to look"
    description = (
        "A classifier trained here (one run from a fixed random seed) pools a review's words with learned attention: where it looks, what it says, "
        "and where the weights alone mislead."
    )
    sources = "short film reviews written for this video; classifier trained here with torch"
    poster_step = "where-it-looks"

    options = ("sentence", "seed")
    min_tokens = 1
    max_tokens = MAX_WORDS
    trains = True
    """Built from a training run cached in the render's cache folder (see :func:`scenes.build_trace`)."""
    vocabulary = staticmethod(vocabulary)
    """The words a ``--sentence`` may use: the classifier has an embedding for these only."""

    @classmethod
    def build_trace(cls, sentence: str | None = None, seed: int = 0, cache_dir=None):
        settings = SentimentSettings(seed=seed)
        return trained("sentiment", cache_dir, lambda folder: sentiment_attention_trace(settings, sentence, cache_dir=folder))

    @classmethod
    def check_settings(cls, settings: dict) -> None:
        """A sentence's words must be in the classifier's vocabulary; training needs torch (the optional extra)."""
        if "sentence" in settings:
            check_sentence(settings["sentence"])  # UnknownWord, a ValueError naming the word
        import_torch()

    @classmethod
    def inputs_as_rendered(cls, trace) -> list[tuple[str, str]]:
        facts = []
        if trace.labels and trace.labels[0] == -1:  # the teacher's sentence comes first, with no known label
            facts.append(("sentence", " ".join(trace.sentences[0])))
        if (
            trace.seed != SentimentSettings().seed
        ):  # a teacher's seed is named; the default's "random seed 0" told a viewer nothing
            facts.append(("seed", str(trace.seed)))
        return facts

    def construct(self):
        self.introduce_the_classifier()
        self.train_it()
        self.show_where_it_looks()
        self.show_where_it_misleads()
        self.sum_up()

    # --- 1. the classifier and its reviews --------------------------------------------------

    def introduce_the_classifier(self):
        """Step 1: the model (additive scores, softmax, pooled words, a logistic read-out) and the reviews it learns from."""
        t, theme = self.trace, self.theme
        with self.step("the-classifier", "A classifier that learns where to look"):
            heading = self.heading("A classifier that learns where to look")
            steps = VGroup(*[formula(theme, tex, size=theme.formula_size) for tex in POOLING]).arrange(DOWN, buff=0.35)
            # Every symbol named where its formula stands: σ, and the numbers training learns (v, W, b, u, c).
            words = VGroup(
                label(
                    theme,
                    "a word's score, from its embedding; v, W, b: learned (v: one learned query)",
                    size=theme.small_size,
                    color=theme.muted,
                ),
                label(theme, "softmax turns the scores into attention weights α", size=theme.small_size, color=theme.muted),
                label(
                    theme,
                    "the weighted sum, read out as P(positive); σ: the sigmoid; u, c: learned",
                    size=theme.small_size,
                    color=theme.muted,
                ),
            )
            for word, step in zip(words, steps):
                word.next_to(step, DOWN, buff=0.1)
            model = VGroup(*[VGroup(step, word) for step, word in zip(steps, words)]).arrange(DOWN, buff=0.3)
            hang_from(model, BODY_TOP)
            data = VGroup(
                VGroup(
                    self.number("n_reviews", 0, size=theme.body_size, color=theme.highlight),
                    label(theme, "short film reviews, written for this video (not a public data set)", size=theme.body_size),
                ).arrange(RIGHT, buff=0.2),
                VGroup(
                    label(theme, "trained on", size=theme.small_size, color=theme.muted),
                    self.number("n_training", 0, size=theme.small_size),
                    label(theme, "· held out, never trained on:", size=theme.small_size, color=theme.muted),
                    self.number("n_heldout", 0, size=theme.small_size),
                    # The held-out set is a random draw plus the reviews shown in steps 3-4 (review 15).
                    # "(" against its number (review 18: "( 72" had a stray space).
                    VGroup(
                        label(theme, "(", size=theme.small_size, color=theme.muted),
                        self.number("n_heldout_random", 0, size=theme.small_size),
                    ).arrange(RIGHT, buff=0.03),
                    label(theme, "drawn at random +", size=theme.small_size, color=theme.muted),
                    self.number("n_showcase", 0, size=theme.small_size),
                    # Review 25: only some of the 8 appear later; what they are is that they were written by hand.
                    label(theme, "written by hand)", size=theme.small_size, color=theme.muted),
                ).arrange(RIGHT, buff=0.15),
            ).arrange(DOWN, buff=0.2)
            BODY.shrink_to_fit(data)
            example = self.shown_reviews()[0]
            # The opening review worked through the formulas as they come: its scores, weights and P (review 17:
            # three formulas with no review going through them, the lower 40 % of the screen empty).
            worked = self.worked_example(example)
            VGroup(model, worked, data).arrange(DOWN, buff=0.35)
            for part in (model, worked, data):
                part.set_x(0)
            hang_from(VGroup(model, worked, data), BODY_TOP)
            # A teacher's long words stack their labels: when all three do not fit, the data takes the example's place.
            crowded = data.get_bottom()[1] < BODY.bottom
            if crowded:
                data.move_to(worked).align_to(worked, UP)
            opening = VGroup(
                self.wrapped_review(t.sentences[example], BODY.width),
                label(theme, "positive or negative?", size=theme.body_size, color=theme.highlight),
            ).arrange(DOWN, buff=0.35)
            center_in(opening, BODY)
            self.say("A classifier reads a film review and says whether it is positive.")
            self.play(FadeIn(heading), FadeIn(opening[0]))
            self.play(FadeIn(opening[1], shift=UP * 0.2))
            # v acts as one fixed, learned query shared by every review ("no query" was not exact; review 14). Bahdanau
            # scored encoder states against the decoder's; one learned query is Yang et al. 2016's word attention (review 15).
            # Yang et al. score recurrent states; here the score reads the bare embedding, which is what makes a
            # word's score the same in every review (review 16: the citation sounded like the cause).
            self.say(
                # Review 18: "here, each word's embedding alone" had no verb when heard.
                "Additive attention with one learned query. Yang et al. 2016 score each word in context; "
                "here, each word is scored on its own embedding.",
                spoken="Additive attention with one learned query. Yang and colleagues score each word in context; "
                "here, each word is scored on its own embedding.",
            )
            # Review 19: the paper named on screen where the voice names it, in the gap under the first formula
            # (gone before the softmax formula takes that place).
            cite = label(
                theme,
                "Yang et al. 2016, Hierarchical Attention Networks: words scored in context",
                size=theme.small_size,
                color=theme.muted,
            ).next_to(model[0], DOWN, buff=0.25)
            self.play(FadeOut(opening), run_time=0.4)
            self.play(FadeIn(model[0], shift=UP * 0.2), FadeIn(cite), FadeIn(worked.words), FadeIn(worked.scores))
            self.say("So a word's score is the same in every review.")
            # A word twice in the example ("the", "was") scores the same both times: the sentence said, shown.
            self.highlight(words[0], *worked.repeated, color=theme.highlight)
            # σ and the learned letters are named on screen, under their formulas (said, the line ran past 24 words).
            # Review 21: P was only ever on screen; it is said once here, where it first appears.
            self.say("Softmax turns the scores into weights; the weighted sum of the words gives P, the probability of positive.")
            self.play(FadeOut(cite), run_time=0.3)
            self.play(FadeIn(model[1:], shift=UP * 0.2, lag_ratio=0.3), FadeIn(worked.weights), run_time=1.5)
            self.play(FadeIn(worked.answer), run_time=0.6)
            # One line for the data (two ran 12 s; review 17's fixes needed the time).
            self.say(
                f"The data: {count(t.n_reviews)} short reviews written for this video, {count(t.n_heldout)} of them held out."
            )
            self.play(*([FadeOut(worked)] if crowded else []), FadeIn(data[0]))
            self.play(FadeIn(data[1]))

    def worked_example(self, index: int) -> VGroup:
        """Review ``index`` through the model: its words, each word's score, the weights α and its P(positive).

        Attributes ``words``, ``scores``, ``weights`` and ``answer`` name the parts shown one by one, and
        ``repeated`` the score cells of words the review holds twice (their scores are equal).
        """
        t, theme = self.trace, self.theme
        words = list(t.sentences[index][: int(t.sentence_lengths[index])])
        # "−11.1" with room either side: the theme's smaller cell digits (review 18: at the small size its glyphs
        # touched the borders; wider cells stacked the words). words_on_one_line widens a column to its word.
        width = min(0.9, (BODY.width - 3.0) / len(words))
        scores = self.grid(
            f"scores[{index}, :{len(words)}]",
            1,
            cell_width=width,
            cell_height=0.5,
            font_size=theme.dense_number_size,
            row_labels=["score"],
            col_labels=words,
            row_label_color=theme.muted,
            col_label_color=theme.text,
            label_size=theme.small_size,
            col_label_lines=0,  # a teacher's long words take turns on lines, as in step 3, never shrunk
            mono_numbers=False,
        )
        weights = weights_heatmap(
            self,
            f"weights[{index}, :{len(words)}]",
            ["α"],
            None,
            2,
            cells=Cells(width, 0.5, number_size=theme.dense_number_size, mono=False),
            labels=AxisLabels(size=theme.small_size, query_color=theme.muted),
        )
        probability = t.probabilities[index]
        answer = VGroup(
            label(theme, f"→ P {equals(probability)}", size=theme.small_size),
            self.number(f"probabilities[{index}]", 2, size=theme.body_size, color=theme.highlight),
        ).arrange(RIGHT, buff=0.12)
        # Review 20: the weights and P are the trained model's, shown before step 2 introduces training.
        trained = label(theme, "after training", size=theme.small_size, color=theme.muted)
        # Words on one line over their columns, as in step 3; the weights' cells under the scores' cells.
        self.words_on_one_line(scores, words, BODY.width - scores.row_labels.width - max(answer.width, trained.width) - 0.8)
        under(scores, weights)
        answer.next_to(weights.cells, RIGHT, buff=0.3)
        trained.next_to(answer, UP, buff=0.1).align_to(answer, LEFT)
        group = VGroup(scores, weights, answer, trained)
        seen: dict[str, int] = {}
        repeated = []
        for j, word in enumerate(words):
            if word in seen:
                repeated += [scores.cell(0, seen[word]), scores.cell(0, j)]
            seen.setdefault(word, j)
        group.words, group.scores, group.weights, group.answer = (
            scores.col_labels,
            VGroup(scores.cells, scores.row_labels, scores.numbers, trained),  # review 24: labelled from the start
            weights,
            answer,
        )
        group.repeated = repeated[:4]
        return group

    def training_example(self) -> int:
        """The review step 2 shows before and after training: step 1's, unless it is a teacher's long sentence.

        A long sentence stacks its words on two lines, and the rows would run off the frame under the charts.
        """
        t = self.trace
        shown = self.shown_reviews()
        return next((k for k in shown if not (t.labels[k] == -1 and t.sentence_lengths[k] > 7)), shown[0])

    def weights_before_and_after(self, index: int) -> VGroup:
        """Review ``index``'s words over its weights at epoch 0 and after training, columns aligned.

        Attributes ``before`` (the words and the first row) and ``after`` (the second row) are shown one by one.
        """
        t, theme = self.trace, self.theme
        n = int(t.sentence_lengths[index])
        words = list(t.sentences[index][:n])
        cells = Cells(min(0.9, (BODY.width - 3.0) / n), 0.42, number_size=theme.dense_number_size, mono=False)
        axis = AxisLabels(size=theme.small_size, query_color=theme.muted)
        before = weights_heatmap(self, f"initial_weights[{index}, :{n}]", ["epoch 0"], words, 2, cells=cells, labels=axis)
        after = weights_heatmap(self, f"weights[{index}, :{n}]", [f"epoch {count(t.epochs)}"], None, 2, cells=cells, labels=axis)
        before.col_labels.set_color(theme.text)
        self.words_on_one_line(before, words, BODY.width - before.row_labels.width - 0.8)
        under(before, after)
        group = VGroup(before, after)
        group.before, group.after = before, after
        return group

    def wrapped_review(self, words, width: float) -> VGroup:
        """A quoted review at the body size, broken between words onto centred lines no wider than ``width``.

        A teacher's long sentence on one line ran far off the frame; a single word wider than ``width`` is
        shrunk to it on a line of its own.
        """
        theme, lines, current = self.theme, [], []
        for k, word in enumerate(words):
            piece = ("“" if k == 0 else "") + word + ("”" if k == len(words) - 1 else "")
            trial = current + [piece]
            if current and label(theme, " ".join(trial), size=theme.body_size).width > width:
                lines.append(current)
                trial = [piece]
            current = trial
        lines.append(current)
        texts = [label(theme, " ".join(line), size=theme.body_size) for line in lines]
        for text in texts:
            if text.width > width:
                text.scale_to_fit_width(width)
        return VGroup(*texts).arrange(DOWN, buff=0.15)

    # --- 2. training ----------------------------------------------------------------------------

    def train_it(self):
        """Step 2: the training loss, and accuracy on the training and held-out reviews, over the epochs."""
        t, theme = self.trace, self.theme
        last = len(t.curve_epochs) - 1
        high_loss = float(max(1.0, t.train_loss.max()))
        loss = LineChart(theme, t.train_loss, LOSS_CHART, 0.0, high_loss, color=theme.text)  # not the accuracy legend's colours
        train = LineChart(theme, t.train_accuracy, ACCURACY_CHART, 0.0, 1.0, color=theme.key)
        heldout = LineChart(theme, t.heldout_accuracy, ACCURACY_CHART, 0.0, 1.0, color=theme.value)
        frames = VGroup()
        # Accuracy in percent on its axis as at its end and in the voice ("89%", "eighty-nine percent").
        for chart, name, high, top, bottom in (
            (loss, "training loss", high_loss, format_number(high_loss, 0), "0"),
            (train, "accuracy", 1.0, "100%", "0%"),
        ):
            frames.add(
                VGroup(
                    chart.axes,
                    label(theme, name, size=theme.body_size).next_to(chart.to_point(last / 2, high), UP, buff=0.25),
                    label(theme, top, size=theme.small_size, mono=True).next_to(chart.to_point(0, high), LEFT, buff=0.15),
                    label(theme, bottom, size=theme.small_size, mono=True).next_to(chart.to_point(0, 0), LEFT, buff=0.15),
                    self.number("curve_epochs[0]", 0).next_to(chart.to_point(0, 0), DOWN, buff=0.15),
                    self.number(f"curve_epochs[{last}]", 0).next_to(chart.to_point(last, 0), DOWN, buff=0.15),
                )
            )
        epochs = label(theme, "epochs (passes over the training reviews)", size=theme.small_size, color=theme.muted)
        epochs.next_to(frames[0][4], DOWN, buff=0.1).set_x(0)
        ends = VGroup(
            self.percentage("final_train_percent", size=theme.body_size, color=theme.key),
            self.percentage("final_heldout_percent", size=theme.body_size, color=theme.value),
        )
        ends[0].next_to(train.to_point(last, t.train_accuracy[-1]), RIGHT, buff=0.15)
        ends[1].next_to(heldout.to_point(last, t.heldout_accuracy[-1]), RIGHT, buff=0.15)
        if abs(ends[0].get_y() - ends[1].get_y()) < ends[0].height + 0.1:
            upper, lower = (ends[0], ends[1]) if ends[0].get_y() >= ends[1].get_y() else (ends[1], ends[0])
            lower.next_to(upper, DOWN, buff=0.1).align_to(upper, LEFT)
        legend = VGroup(
            label(theme, "training reviews", size=theme.min_size, color=theme.key),
            # The 8 hand-written held-out reviews are in this curve and its 78 % (review 18: said in step 1, not on the
            # chart; review 25: "shown later" was false, 6 of them appear).
            # Two lines, from the y-axis's right (review 19: on one line it crossed the axis).
            label(theme, f"held out ({count(t.n_heldout)},", size=theme.min_size, color=theme.value),
            # Four short lines: narrow enough to stay under the curves at the chart's lower right.
            label(theme, f"incl. {count(t.n_showcase)} written", size=theme.min_size, color=theme.value),
            label(theme, "by hand)", size=theme.min_size, color=theme.value),
        ).arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        # Inside the accuracy chart, low on the right of its empty lower half (the curves run high there; on the
        # left they start near 50 %, which a shorter chart brings down to the legend).
        corner = train.to_point(last, 0)
        legend.move_to(corner + LEFT * (legend.width / 2 + 0.25) + UP * (legend.height / 2 + 0.2))
        # Review 23: "the weights are learned" was told, not shown; the opening review's weights at epoch 0 and after.
        learned_weights = self.weights_before_and_after(self.training_example())
        learned_weights.next_to(epochs, DOWN, buff=0.3).set_x(0)
        with self.step("training", "Training: attention weights are learned"):
            self.clear()
            heading = self.heading("Training: the attention weights are learned with the classifier")
            # Review 21: what training adjusts was only said; named with step 1's letters, under the heading.
            learned = label(
                theme, "learned together: the word embeddings e, and v, W, b, u, c", size=theme.small_size, color=theme.muted
            ).next_to(heading, DOWN, buff=0.25)
            learned.set_x(0)
            # Review 20: the scores are outputs; what training adjusts is named by its letters from step 1.
            self.say(
                "Training adjusts the embeddings, the scoring layer (v, W, b) and the read-out (u, c) together, "
                f"for {count(t.epochs)} epochs.",
                spoken=f"Training adjusts the embeddings, the scoring layer and the read-out together, for {count(t.epochs)} epochs.",
            )
            self.play(FadeIn(heading), FadeIn(learned), FadeIn(frames), FadeIn(epochs))
            self.play(Create(loss.curve), run_time=1.5)
            # Review 19: the curves do not show the weights; the line no longer implies they do.
            self.say("Nobody tells it which words matter: the weights start near even, and training moves them.")
            self.play(FadeIn(learned_weights.before), run_time=0.8)
            self.play(FadeIn(learned_weights.after), run_time=0.8)
            self.play(FadeIn(legend), Create(train.curve), Create(heldout.curve), run_time=2)
            # "89%" as on screen; the voice reads it "eighty-nine percent".
            self.say(
                f"It ends with {percent(t.final_train_percent)} of the training reviews right "
                f"and {percent(t.final_heldout_percent)} of the held-out ones."
            )
            self.play(FadeIn(ends))
            self.play(Indicate(ends[1], color=theme.highlight), run_time=1)

    # --- 3. where it looks ------------------------------------------------------------------------

    def percentage(self, source: str, size: int | None = None, color: str | None = None) -> VGroup:
        """The percentage at ``source`` as a whole number from the trace, then "%": "89%" as the voice says it."""
        return VGroup(self.number(source, 0, size=size, color=color), label(self.theme, "%", size=size, color=color)).arrange(
            RIGHT, buff=0.05
        )

    def line(self, *parts, decimals: int | tuple[int, ...] = 0) -> VGroup:
        """One line of words and trace numbers at the small size, the numbers in the words' font.

        A part is words (a ``str``) or ``(source, colour)``: a trace number with ``decimals`` (one for all, or one
        per number), or a whole percentage with "%" when the source ends in "%"; ``colour`` None is the text's.
        """
        theme = self.theme
        places = iter(decimals if isinstance(decimals, tuple) else [decimals] * len(parts))
        drawn = []
        for part in parts:
            if isinstance(part, str):
                drawn.append(label(theme, part, size=theme.small_size))
                continue
            source, color = part
            if source.endswith("%"):
                drawn.append(
                    VGroup(
                        self.number(source[:-1], 0, size=theme.small_size, color=color, mono=False),
                        label(theme, "%", size=theme.small_size, color=color),
                    ).arrange(RIGHT, buff=0.04)
                )
            else:
                drawn.append(self.number(source, next(places), size=theme.small_size, color=color, mono=False))
        line = VGroup(*drawn).arrange(RIGHT, buff=0.15)
        on_one_line([text for part in drawn for text in (part if isinstance(part, VGroup) else [part])])
        return line

    def review_row(self, index: int, lucky: bool = False) -> VGroup:
        """Review ``index``: its words over their learned weights, then the prediction and P(positive).

        ``lucky`` marks a right answer that is a coin flip (the review reads like its opposite), not a ✓.
        """
        t, theme = self.trace, self.theme
        n = int(t.sentence_lengths[index])
        width = min(1.05, WEIGHTS_WIDTH / max(int(t.sentence_lengths.max()), 1))
        grid = weights_heatmap(
            self,
            f"weights[{index}, :{n}]",
            None,
            list(t.sentences[index]),
            2,
            cells=Cells(width, 0.5, number_size=theme.small_size, mono=False),
            labels=AxisLabels(size=theme.small_size),
        )
        grid.col_labels.set_color(theme.text)
        probability = t.probabilities[index]
        answer = VGroup(
            VGroup(
                label(theme, f"says {verdict(probability)}, P {equals(probability)}", size=theme.small_size),
                self.number(f"probabilities[{index}]", 2, size=theme.small_size),
            ).arrange(RIGHT, buff=0.12)
        )
        truth = t.labels[index]
        luck = None
        if truth >= 0:
            right = t.predictions[index] == truth
            lucky = lucky and right
            mark = "" if lucky else " ✓" if right else " ✗"
            answer.add(
                label(
                    theme,
                    # Review 19: no colon left dangling until "right by luck" appears; the comma comes with it.
                    f"written as {verdict(truth)}{'' if lucky else mark}",
                    size=theme.small_size,
                    color=theme.muted if lucky else theme.value if right else theme.masked,
                )
            )
        answer.arrange(DOWN, buff=0.1, aligned_edge=LEFT)
        if lucky:  # "right by luck" apart, so the line that says it can show it (review 17: it stood there already)
            luck = label(theme, ", right by luck", size=theme.small_size, color=theme.muted)
            luck.next_to(answer[1], RIGHT, buff=0.05)
            on_one_baseline([answer[1], luck])
        block = VGroup(answer, *([luck] if luck else []))
        self.words_on_one_line(grid, list(t.sentences[index]), BODY.width - block.width - 0.4)
        block.next_to(grid.cells, RIGHT, buff=0.4)
        row = VGroup(grid, answer, *([luck] if luck else []))
        row.luck = luck  # moves with the row, shown on its own line (see show_where_it_misleads)
        return row

    def words_on_one_line(self, grid, words, room: float) -> None:
        """Widen each column of a one-row map to its word, so the words stand on one line over their cells.

        The kit staggers words wider than their cells onto two lines, which read as stacked phrases. Kept
        staggered only when the widened row would pass ``room`` (a teacher's long words).
        """
        theme = self.theme
        texts = [label(theme, word, size=theme.min_size, color=theme.text) for word in words]
        widths = [max(grid.cell(0, j).width, text.width + 0.2) for j, text in enumerate(texts)]
        if sum(widths) > room:
            return
        x = grid.cell(0, 0).get_left()[0]
        for j, (text, width) in enumerate(zip(texts, widths)):
            cell = grid.cell(0, j)
            middle = x + width / 2
            cell.stretch_to_fit_width(width).set_x(middle)
            grid.number(0, j).move_to(cell)
            text.next_to(cell, UP, buff=0.12)
            x += width
        on_one_baseline(texts)
        grid.remove(grid.col_labels)
        grid.col_labels = VGroup(*texts)
        grid.add(grid.col_labels)

    def lucky(self, index: int) -> bool:
        """Whether review ``index`` is the contrast, right with the same verdict as the misleading review it reads like."""
        t = self.trace
        return (
            index == t.contrast >= 0
            and t.predictions[index] == t.labels[index]
            and t.predictions[index] == t.predictions[t.misleading]
        )

    def shown_reviews(self) -> list[int]:
        """The reviews of the third step: the teacher's sentence first (if any), then held-out reviews with no negation."""
        t = self.trace
        special = {t.misleading, t.contrast}
        plain = [
            k
            for k in range(len(t.sentences))
            if k not in special and (t.labels[k] == -1 or not NEGATIONS.intersection(t.sentences[k]))
        ]
        long_sentence = any(t.labels[k] == -1 and t.sentence_lengths[k] > 7 for k in plain)
        return plain[: 3 if long_sentence else 4]  # a teacher's long sentence stacks its labels: fewer rows, never smaller text

    def show_where_it_looks(self):
        """Step 3: the learned weights on a few held-out reviews, with the prediction and its probability."""
        t, theme = self.trace, self.theme
        shown = self.shown_reviews()
        rows = VGroup(*[self.review_row(k) for k in shown]).arrange(DOWN, buff=0.45, aligned_edge=LEFT)
        # Review 20: "the weight lands on the sentiment words" rested on reviews written to be shown; the count over
        # the random draw says how far it holds (sentiment words: a list written by hand, not learned).
        tally = VGroup(
            VGroup(
                label(theme, "top weight on a sentiment word in", size=theme.small_size, color=theme.muted),
                self.number("n_heldout_plain_top_sentiment", 0, size=theme.body_size, color=theme.highlight),
                label(theme, "of", size=theme.small_size, color=theme.muted),
                self.number("n_heldout_plain", 0, size=theme.body_size),
            ).arrange(RIGHT, buff=0.2),
            label(theme, "random held-out reviews without a negation", size=theme.small_size, color=theme.muted),
            # Review 21: the category was never defined; it is a list written by hand, not learned.
            label(
                theme,
                "sentiment words: a hand-written list, only for this count (great, dull, …)",
                size=theme.small_size,
                color=theme.muted,
            ),
        ).arrange(DOWN, buff=0.12)
        page = VGroup(rows, tally).arrange(DOWN, buff=0.4)
        for gap in (0.35, 0.25, 0.2):  # tighter rows before any shrinking: their cells are at the least readable size
            if page.height <= BODY.height:
                break
            rows.arrange(DOWN, buff=gap, aligned_edge=LEFT)
            page.arrange(DOWN, buff=0.3)
        BODY.shrink_to_fit(page)
        center_in(page, BODY)
        first = shown[0]
        top = int(t.weights[first].argmax())
        with self.step("where-it-looks", "Where it looks on held-out reviews"):
            self.clear()
            # Review 26: the rows are the reviews written by hand to be shown (the count under them is over the
            # random draw); said in the heading and aloud, not only in step 1 and the legend.
            if t.labels[first] == -1:
                heading = self.heading("Learned weights: your sentence, then reviews written by hand")
            else:
                heading = self.heading("Learned weights on held-out reviews written by hand")
            self.play(FadeIn(heading))
            if t.labels[first] == -1:
                self.say("First your sentence, which the classifier never saw; then reviews written by hand for this video.")
            else:
                self.say("Held-out reviews written by hand for this video, with the weight each word gets.")
            self.play(FadeIn(rows[0]), run_time=1.2)
            self.say(
                f"Most weight goes to “{t.sentences[first][top]}”: {format_number(t.weights[first, top], 2)}. "
                # The caption's sign is the screen's: "≈" where two decimals round an almost-1 to 1.00.
                f"It says {verdict(t.probabilities[first])}, "
                f"P {equals(t.probabilities[first])} {format_number(t.probabilities[first], 2)}.",
                spoken=f"Most weight goes to “{t.sentences[first][top]}”: {format_number(t.weights[first, top], 2)}. "
                f"It says {verdict(t.probabilities[first])}, with P {spoken_probability(t.probabilities[first])}.",
            )
            # An outline, as in step 4: Indicate filled the cell solid and hid its 0.89 as it was said (review 15).
            self.highlight(rows[0][0].column(top))
            # Review 18: said of the shown reviews only, it read as a finding; review 20: they were written to be
            # shown, so the count over the random draw comes with them.
            tallied = (
                f"in {count(t.n_heldout_plain_top_sentiment)} of the {count(t.n_heldout_plain)} "
                "random held-out reviews without a negation."
            )
            if len(rows) > 1:
                self.say(f"The top weight lands on a sentiment word here too, and {tallied}")
                self.play(FadeIn(rows[1:], lag_ratio=0.3), run_time=2)
            else:
                self.say(f"The top weight lands on a sentiment word {tallied}")
            self.play(FadeIn(tally), run_time=0.8)
            self.say(
                "Filler words such as “the” and “a” get almost nothing.",
                # Review 20: "the words, the, was, and a" sounded garbled; the list comes last, after a colon and
                # with no "and", so each word is heard as one.
                # Review 21: the bare list after a colon sounded like a broken sentence.
                spoken="Filler words, such as the word the, or the word a, get almost nothing.",
            )
            # The cells under those words outlined, as every other line marks what it names (review 17).
            fillers = [
                row[0].cell(0, j)
                for row, k in zip(rows, shown)
                for j, word in enumerate(t.sentences[k][: int(t.sentence_lengths[k])])
                if word in FILLERS
            ]
            self.highlight(*fillers, buff=0.0)

    # --- 4. where the weights mislead ----------------------------------------------------------------

    def show_where_it_misleads(self):
        """Step 4: a negated review the classifier gets wrong by its most weighted word, and one weighted alike."""
        t, theme = self.trace, self.theme
        # Review 26: every line of this step at one size, its numbers in the words' font (mixed sizes read as noise).
        negated = VGroup(
            # Only the negation words the held-out reviews hold (hardly and nothing are in none of them).
            self.line(
                f"random held-out reviews with a negation ({', '.join(t.negation_words)}):",
                ("n_heldout_negated_right", theme.masked),
                "of",
                ("n_heldout_negated", None),
                "right,",
                ("heldout_percent_negated%", theme.masked),
            ),
            self.line(
                "random held-out reviews without them:",
                ("n_heldout_plain_right", theme.value),
                "of",
                ("n_heldout_plain", None),
                "right,",
                ("heldout_percent_plain%", theme.value),
            ),
        ).arrange(DOWN, buff=0.2, aligned_edge=LEFT)
        with self.step("where-weights-mislead", "Where the weights alone mislead"):
            self.clear()
            heading = self.heading("Where the weights alone mislead")
            self.play(FadeIn(heading))
            if t.misleading < 0:
                self.say("In this run, no held-out review went wrong by following its most weighted word.")
                center_in(negated, BODY)
                self.play(FadeIn(negated))
                self.say(
                    f"Negations still cost accuracy: {percent(t.heldout_percent_negated)} right with them, "
                    f"{percent(t.heldout_percent_plain)} without."
                )
                self.wait(0.5)
                return
            cases = [t.misleading] + ([t.contrast] if t.contrast >= 0 else [])
            rows = VGroup(*[self.review_row(k, lucky=self.lucky(k)) for k in cases]).arrange(DOWN, buff=0.5, aligned_edge=LEFT)
            top = t.misleading_top
            word = t.sentences[t.misleading][top]
            alone = self.line(
                f"“{word}” read alone as a review: P =", (f"word_alone[{t.misleading}, {top}]", theme.highlight), decimals=2
            )
            # The other negation words' own leans (the held-out reviews' most frequent first), shown beside the top
            # word's when the verdict is said to be the negation word's lean: all of them, not "not"'s alone.
            others = [(k, other) for k, other in enumerate(t.negation_words) if other != word][:2]
            leans = VGroup(
                *[
                    self.line(f"“{other}” read alone: P =", (f"negation_alone[{k}]", theme.highlight), decimals=2)
                    for k, other in others
                ]
            ).arrange(RIGHT, buff=0.5)
            readings = VGroup(alone, leans).arrange(RIGHT, buff=0.5) if others else VGroup(alone)
            if readings.width > BODY.width:
                readings.arrange(DOWN, buff=0.2)
            # Review 20: why each reads near 0.5: its training reviews were about half positive. Under each reading,
            # shown with the line that says so.
            trained = VGroup()
            if others and word in t.negation_words:
                for k, reading in [(list(t.negation_words).index(word), alone)] + [
                    (k, lean) for (k, _), lean in zip(others, leans)
                ]:
                    trained.add(
                        self.line(
                            "in training:",
                            (f"n_train_negation_positive[{k}]", None),
                            "of",
                            (f"n_train_with_negation[{k}]", None),
                            "positive",
                        )
                        .next_to(reading, DOWN, buff=0.12)
                        .align_to(reading, LEFT)
                    )
                readings.add(trained)
            # The scores behind the weights, and how often the top word wins: what 04-03 says, shown.
            m = t.misleading
            # Each shown review's scores, the second under the first with "not" in one column: its 10.2 is the
            # same in both (review 17: "the same in every review" was only a label).
            scored_reviews = [(m, top)] + ([(t.contrast, t.contrast_top)] if t.contrast >= 0 else [])
            scored = VGroup(
                # Named as the first review's: under the second review it read as that one's (review 15).
                label(theme, "each word's score (the same in every review)", size=theme.small_size, color=theme.muted),
                VGroup(*[self.score_line(k, j) for k, j in scored_reviews]).arrange(DOWN, buff=0.2),
            ).arrange(DOWN, buff=0.25)
            # Said only where it holds: the negation word alone costs the training reviews less than the word it negates.
            why_negation = (
                t.n_train_negated_sentiment > 0
                and t.train_loss_alone[0] < t.train_loss_alone[1]
                and word in NEGATIONS
                and self.near_half(word, others)
            )
            card = VGroup()
            if why_negation:
                # Review 23: the loss shown, not only said; review 24: over the training reviews (this one is held out).
                # Review 26: the conclusion on screen too. A word read alone is the review with all the weight on it.
                # Review 27: the losses are the trained model's, so the conclusion is what they show of it: the weighted
                # sum's logit is the weighted average of the words' own (step 5), so moving weight from the negated word
                # to the negation word moves the logit toward the smaller loss.
                card = VGroup(
                    self.line(
                        "why: mean loss on the",
                        ("n_train_negated_sentiment", None),
                        "training reviews with a negated sentiment word",
                    ),
                    self.line(
                        "trained model, all weight on that word:",
                        ("train_loss_alone[1]", theme.masked),
                        "· on the negation word:",
                        ("train_loss_alone[0]", theme.value),
                        decimals=(1, 2),
                    ),
                    label(theme, "so the loss falls as the weight moves to the negation word", size=theme.small_size),
                ).arrange(DOWN, buff=0.12)
            if len(scored[1]) > 1:  # the top word's score in one column, where that stays in the body
                first, second = scored[1]
                dx = first.top_pair.get_x() - second.top_pair.get_x()
                if BODY.left <= second.get_left()[0] + dx and second.get_right()[0] + dx <= BODY.right:
                    second.shift(RIGHT * dx)

            # Review 18: six lines of statistics were a wall; the 16 of 17 and 14 of 16 counts went to the
            # worksheet, and one "why" line stays under the 29 % / 95 % lines, every line from the left edge.
            # Why below 50 %: the verdict follows what the negation word reads alone, and most of these reviews go
            # the other way (review 19: "written against the word's lean" read as adversarial, "lean" undefined).
            # Review 20: the link from the reading to 5 right: the verdict is the negation word's reading in most of
            # them, and in this small sample most are labelled the opposite of it.
            # Review 21: the argument on screen, one line per step of it: the verdict is the word's reading, what
            # the training reviews lead one to expect, and how this small sample fell.
            near_half = self.near_half(word, others)
            follows = self.line(
                ("n_heldout_negation_first_follows", theme.highlight),
                "of",
                ("n_heldout_negated", None),
                "verdicts side with the negation word read alone" + (" (close to 0.5)" if near_half else ""),
            )
            # Review 22: in the text colour, not grey (seven grey lines read as a wall); no "→ 29 %" after the
            # 11 of 17, which did not add up on screen (6 of 17 is not 29 %).
            # Review 23: the point on screen: about half expected, 29 % got, from how a small sample fell.
            # Review 26: no line wraps, and what they are labelled against is named ("that reading" pointed back).
            expected = self.line(
                ("so expect about half right; " if near_half else "") + "this small sample got",
                ("heldout_percent_negated%", theme.masked),
            )
            against = self.line(
                "in it,",
                ("n_heldout_negated_against", theme.masked),
                "of",
                ("n_heldout_negated", None),
                "are labelled against their negation word's reading",
            )
            # What 04-11 brings in beside its line: the training counts under the readings, and what they lead one
            # to expect (the expectation only where every word's training reviews were about half positive).
            reasons = ([trained] if len(trained) else []) + [expected]
            if others:
                negated.add(follows, expected, against)
            negated.arrange(DOWN, buff=0.25, aligned_edge=LEFT)
            for why in negated[2:]:  # the reasons apart from the two rates they explain
                why.shift(DOWN * 0.45)
            group = VGroup(rows, readings, scored).arrange(DOWN, buff=0.35)
            # Tighter gaps before any shrinking: the weights are drawn at the least readable size already
            # (a teacher's ten words give narrow cells), and a shrink of 2 % put them under it.
            for gap, row_gap in ((0.25, 0.35), (0.15, 0.2), (0.1, 0.15)):
                if group.height <= BODY.height:
                    break
                rows.arrange(DOWN, buff=row_gap, aligned_edge=LEFT)
                group.arrange(DOWN, buff=gap)
            BODY.shrink_to_fit(group)
            hang_from(group, BODY_TOP)
            # Review 27: the card leaves before the second review comes, so it takes that review's place under the first
            # review's scores, not room from every gap (04-07 was the most crowded frame).
            card.next_to(scored[1][0], DOWN, buff=0.35).set_x(0)
            BODY.keep_inside(card)
            # From 04-07 the reviews and scores leave, the readings rise to the top and the counts come under them
            # (review 21: eleven lines at once). Lifted here, not animated, for the parts not shown yet.
            lift = BODY_TOP - readings.get_top()[1]
            negated.next_to(readings, DOWN, buff=0.6).shift(UP * lift).set_x(0)
            BODY.shrink_to_fit(negated)
            boxes = [SurroundingRectangle(rows[0][0].column(top), color=theme.highlight, buff=0.04)]
            review, weight = t.sentences[t.misleading], t.weights[t.misleading, top]
            self.say(
                f"The review: {quoted(review)}. Written as {verdict(t.labels[t.misleading])}, "
                f"it is called {verdict(t.probabilities[t.misleading])}: P = {format_number(t.probabilities[t.misleading], 2)}.",
                spoken=f"The review: {' '.join(review)}. Written as {verdict(t.labels[t.misleading])}, "
                f"it is called {verdict(t.probabilities[t.misleading])}: P = {format_number(t.probabilities[t.misleading], 2)}.",
            )
            self.play(FadeIn(rows[0]), run_time=1.2)
            most = "Almost all its weight is" if weight > 0.995 else f"Most of its weight, {format_number(weight, 2)}, is"
            self.say(f"{most} on “{word}”, and “{word}” alone reads P = {format_number(t.word_alone[t.misleading, top], 2)}.")
            self.play(Create(boxes[0]), FadeIn(alone))
            # Only what holds: the word's score is the same wherever it stands (it depends on the word alone), and it
            # is this review's highest; "outscores the words around it in every review" was false (10 of 11, said next).
            self.say(f"“{word}” scores {format_number(t.scores[m, top], 1)} in every review, the highest in this review.")
            self.play(FadeIn(scored[0]), FadeIn(scored[1][0]), run_time=1)
            if len(card):
                # Review 22: why training put the weight there. Read alone, the negated word says the opposite of
                # these reviews' labels with P near 0 or 1 (a large loss); the negation word alone reads near one half.
                # One line of the card with each sentence; review 25: a loss has no scale for a viewer, 0.69 is what
                # a fifty-fifty guess costs (ln 2); review 26: the conclusion said, not left to the viewer.
                self.say("Why? Take the training reviews with a negated sentiment word.")
                self.play(FadeIn(card[0]), run_time=0.6)
                self.say(
                    f"For the trained model, all weight on that word costs a mean loss of {format_number(t.train_loss_alone[1], 1)}; "
                    f"on the negation word, {format_number(t.train_loss_alone[0], 2)}, about a fifty-fifty guess."
                )
                self.play(FadeIn(card[1]), run_time=0.6)
                self.say("So the loss falls as the weight moves to the negation word.")
                self.play(FadeIn(card[2]), run_time=0.6)
            self.verdicts = [row[1][0] for row in rows]
            if t.contrast >= 0:
                other = t.sentences[t.contrast]
                luck = self.lucky(t.contrast)
                self.say(
                    f"The review: {quoted(other)}. The opposite meaning, the same weights, "
                    f"and P = {format_number(t.probabilities[t.contrast], 2)}.",
                    spoken=f"The review: {' '.join(other)}. The opposite meaning, the same weights, "
                    f"and P = {format_number(t.probabilities[t.contrast], 2)}.",
                )
                # The second review's weight on the word boxed like the first's, its scores under the first's.
                boxes.append(SurroundingRectangle(rows[1][0].column(t.contrast_top), color=theme.highlight, buff=0.04))
                # Review 23: the "why" line said "here" of the first review; it leaves as the second comes.
                if len(card):
                    self.play(FadeOut(card), run_time=0.3)
                self.play(FadeIn(rows[1][0]), FadeIn(rows[1][1]), FadeIn(scored[1][1]), run_time=1.2)
                self.play(Create(boxes[1]), run_time=0.6)
                if luck:
                    # "right by luck" shown as it is said (review 17: it stood there a line early), the two equal
                    # verdicts outlined. "It did not: the weights say which words were pooled..." went: step 5 says it.
                    self.say("It is right only by luck.")
                    self.play(FadeIn(rows[1].luck), run_time=0.6)
                    self.highlight(*self.verdicts)
            negated_right = f"{count(t.n_heldout_negated_right)} of {count(t.n_heldout_negated)}"
            plain_right = f"{count(t.n_heldout_plain_right)} of {count(t.n_heldout_plain)}"
            self.say(
                # Two sentences, so the caption splits into two cues of even pace (not a lone "95%." cue).
                f"With a negation, {negated_right} random held-out reviews are right: {percent(t.heldout_percent_negated)}. "
                f"Without one, {plain_right}: {percent(t.heldout_percent_plain)}."
            )
            leaving = [*boxes, *([card] if len(card) else [])]
            self.play(FadeOut(scored), FadeOut(rows), *[FadeOut(part) for part in leaving if part in self.mobjects], run_time=0.4)
            leans.shift(UP * lift)
            trained.shift(UP * lift)
            self.play(alone.animate.shift(UP * lift), run_time=0.6)
            self.play(FadeIn(negated[:2]))
            if others:
                # Review 19: what the negation words read alone, then why below 50 %: most of these reviews go the
                # other way from it (the outlines clear of the digits, they touched them). Review 20: the lines
                # themselves carry no outline (around their first number it reached past their left edge).
                self.say(self.leans_line(word, t.word_alone[t.misleading, top], others))
                self.play(FadeIn(leans), FadeIn(follows), run_time=0.6)
                self.highlight(alone[1], *[lean[1] for lean in leans], buff=0.12)
                expectation, sample = self.against_line(near_half)
                if expectation:
                    self.say(expectation)
                    self.play(*[FadeIn(part) for part in reasons], run_time=0.6)
                    self.say(sample)
                else:
                    self.say(sample)
                    self.play(*[FadeIn(part) for part in reasons], run_time=0.6)
                self.play(FadeIn(against), run_time=0.6)

    def score_line(self, index: int, top: int) -> VGroup:
        """Review ``index``'s words, each with its score, the top word's highlighted; ``top_pair`` is that word and score."""
        t, theme = self.trace, self.theme
        n = int(t.sentence_lengths[index])
        line = VGroup(
            *[
                VGroup(
                    label(theme, t.sentences[index][j], size=theme.small_size),
                    self.number(
                        f"scores[{index}, {j}]", 1, size=theme.small_size, color=theme.highlight if j == top else theme.text
                    ),
                ).arrange(RIGHT, buff=0.12)
                for j in range(n)
            ]
        ).arrange(RIGHT, buff=0.45)
        # Words and scores on one baseline (centred on their ink, "the" sat lower than "acting"; review 14).
        on_one_baseline([part for pair in line for part in pair], [line.get_y()] * (2 * n))
        line.top_pair = line[top]
        return line

    def near_half(self, word: str, others: list[tuple[int, str]]) -> bool:
        """Whether every negation word shown reads within 0.1 of 0.5 alone and its training reviews were as near half positive."""
        t = self.trace
        if word not in t.negation_words:
            return False
        shown = [list(t.negation_words).index(word)] + [k for k, _ in others]
        return all(
            abs(float(t.negation_alone[k]) - 0.5) < 0.1
            and t.n_train_with_negation[k] > 0
            and abs(int(t.n_train_negation_positive[k]) / int(t.n_train_with_negation[k]) - 0.5) < 0.1
            for k in shown
        )

    def against_line(self, near_half: bool) -> tuple[str, str]:
        """Why below 50 %: what to expect from the training reviews ("" where it is not near half), and how this small sample fell.

        Review 19: "written against their negation word's lean" suggested adversarial writing, and "lean" was
        never defined. Review 20: the 29 % read as systematic; the expectation (about half right, as the words'
        training reviews were about half positive) is said before how this small sample fell, and only where
        it holds (:meth:`near_half`).
        """
        t = self.trace
        # Review 26: "opposite to that reading" pointed back a sentence; what they are labelled against is named.
        sample = (
            f"in this small sample, {count(t.n_heldout_negated_against)} of the {count(t.n_heldout_negated)} "
            "are labelled against their negation word's reading."
        )
        if near_half:
            # Review 27: "was in about half positive training reviews" could be heard as "in half the positive ones".
            expectation = "About half the training reviews with each negation word are positive, so expect about half right."
            return expectation, f"But {sample}"
        return "", sample[0].upper() + sample[1:]

    def leans_line(self, word: str, alone: float, others: list[tuple[int, str]]) -> str:
        """How often the verdict is the negation word's own reading, and what each negation word reads alone.

        Review 19: "close to guessing" stood beside 29 %. Review 20: the count that links a word's reading
        to the verdicts comes first. Review 21: "near a coin flip" could mean a P or an accuracy; the
        reading is said as a number, only where every negation word alone is within 0.1 of 0.5. Review 25: the
        count is of verdicts on the same side as that reading ("sides with"), not equal to it.
        """
        t = self.trace
        leans = [alone] + [float(t.negation_alone[k]) for k, _ in others]
        names = [word] + [other for _, other in others]
        if all(abs(p - 0.5) < 0.1 for p in leans):
            reading = ", which reads close to one half"
        else:
            reading = ": " + ", ".join(f"“{name}” {verdict(p)}" for name, p in zip(names, leans))
        return (
            f"In {count(t.n_heldout_negation_first_follows)} of the {count(t.n_heldout_negated)}, the verdict sides "
            f"with the negation word alone{reading}."
        )

    # --- 5. takeaway ----------------------------------------------------------------------------------

    def shown_pair(self) -> tuple[str, str] | None:
        """The two negated phrases step 4 showed with one verdict ("not great", "not bad"), or None when it showed no such pair."""
        t = self.trace
        if t.misleading < 0 or t.contrast < 0 or not self.lucky(t.contrast):
            return None
        phrases = []
        for index, top in ((t.misleading, t.misleading_top), (t.contrast, t.contrast_top)):
            words = t.sentences[index][top : top + 2]
            if len(words) < 2:
                return None
            phrases.append(" ".join(words))
        return phrases[0], phrases[1]

    def sum_up(self):
        """Step 5: what the run showed, and why one verdict for the shown pair was bound to be wrong, from the run's numbers."""
        t, theme = self.trace, self.theme
        pair = self.shown_pair()
        points = VGroup(
            # Short lines: the card holds the argument below them too, and a wide line would shrink it all.
            # One line, not two (review 14: the card's last row stood 10 px over the source note).
            # What the count counts, said in full (review 18: "find the sentiment words, or a negation word: 16 of
            # 17" read as if the count covered both); two paragraphs apart, each line from one left edge.
            VGroup(
                # Review 22: the count is of the reviews where it took the most weight, not all of it.
                label(theme, "With a negation word, the most weight went to it", size=theme.body_size),
                VGroup(
                    label(theme, "in", size=theme.body_size),
                    self.number("n_heldout_negation_first", 0, size=theme.body_size, color=theme.highlight),
                    label(theme, "of", size=theme.body_size),
                    self.number("n_heldout_negated", 0, size=theme.body_size),
                    label(theme, "random held-out reviews with one.", size=theme.body_size),
                ).arrange(RIGHT, buff=0.2),
            ).arrange(DOWN, buff=0.18, aligned_edge=LEFT),
            VGroup(
                label(theme, "A weight says where the classifier looked,", size=theme.body_size),
                label(theme, "not what the words mean together.", size=theme.body_size),
            ).arrange(DOWN, buff=0.18, aligned_edge=LEFT),
        ).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
        if pair:
            why = self.why_one_verdict(pair)
        else:
            why = VGroup(
                label(theme, "A weighted average of words read one at a time", size=theme.body_size),
                label(theme, "cannot get both “not good” and “not bad” right.", size=theme.body_size),
            ).arrange(DOWN, buff=0.3, aligned_edge=LEFT)
        note = self.source_note()
        room = Region(BODY.left, BODY.right, note.get_top()[1] + 0.35, BODY.top)
        # Review 20: nine lines in five styles on one screen; with the argument, the two points leave before it
        # comes and each gets the room.
        for card in (points, why) if pair else (VGroup(points, why).arrange(DOWN, buff=0.3),):
            room.shrink_to_fit(card)
            center_in(card, room)
        with self.step("takeaway", "What the run showed"):
            self.clear()
            heading = self.heading("What the run showed")
            # Qualified: step 4 showed the weight going to the negation word in most reviews with one.
            self.say(
                "With a negation, the most weight went to the negation word "
                f"in {count(t.n_heldout_negation_first)} of {count(t.n_heldout_negated)} random held-out reviews."
            )
            self.play(FadeIn(heading), FadeIn(points[0]), run_time=1.5)
            self.say("But a weight says where the classifier looked, not what the words mean together.")
            self.play(FadeIn(points[1]), run_time=1)
            if not pair:
                self.say(
                    "Its verdict is a weighted average of what each word means alone, "
                    "so it cannot get both “not good” and “not bad” right.",
                    spoken="Its verdict is a weighted average of what each word means alone, "
                    "so it cannot get both of these right: not good, and not bad.",
                )
                self.play(FadeIn(why, lag_ratio=0.3), FadeIn(note), run_time=1.5)
                return
            # The argument shown, not told: the read-out averages the words' own read-outs (a formula true of the
            # model), the words' lone readings, then the two reviews' weights and verdicts.
            # "Read-out" meant P in step 1 but the value before σ here; said as the sigmoid's input (review 14).
            # "The words' own inputs" was opaque heard (review 15): what σ would get from each word read alone.
            self.say(
                "The weights add up to one: the sigmoid's input is a weighted average of what it would get from each word alone."
            )
            self.play(FadeOut(points), run_time=0.4)
            self.play(FadeIn(why[0], shift=UP * 0.2), FadeIn(note), run_time=1.2)
            m, c = t.misleading, t.contrast
            negation, first, second = (
                t.sentences[m][t.misleading_top],
                t.sentences[m][t.misleading_top + 1],
                t.sentences[c][t.contrast_top + 1],
            )
            self.say(
                f"Alone, “{first}” reads {verdict(t.word_alone[m, t.misleading_top + 1])} and “{second}” "
                f"{verdict(t.word_alone[c, t.contrast_top + 1])}."
            )
            self.play(FadeIn(why[1], lag_ratio=0.3), run_time=1.2)
            weights = min(t.weights[m, t.misleading_top], t.weights[c, t.contrast_top])
            most = "nearly all the weight" if weights > 0.995 else "most of the weight"
            shown = [format_number(t.probabilities[k], 2) for k in (m, c)]
            verdicts = f"P = {shown[0]}" if shown[0] == shown[1] else f"P = {shown[0]} and {shown[1]}"
            self.say(f"But {most} is on “{negation}”, so both get its reading, {verdicts}: one had to be wrong.")
            self.play(FadeIn(why[2], lag_ratio=0.3), run_time=1.2)
            self.highlight(*[line[-1] for line in why[2]])
            # The cause, so the failure is not taken for one of attention itself (review 17): here no word's vector
            # holds its neighbours; Yang et al.'s bidirectional GRU gives each its context before the scoring.
            self.say(
                # Review 19: "a bidirectional GRU" on screen; the voice calls it a recurrent layer (24 words at most).
                f"Here no word sees its neighbours, so nothing carries the meaning of “{pair[0]}”. "
                # Review 26: "for that" promised a fix; what the layer does is give each word its context.
                "Yang et al. first run a bidirectional GRU for context.",
                spoken=f"Here no word sees its neighbours, so nothing carries the meaning of the phrase {pair[0]}. "
                "Yang and colleagues first run a recurrent layer for context.",
            )
            self.play(FadeIn(why[3], shift=UP * 0.2), run_time=1)

    def why_one_verdict(self, pair: tuple[str, str]) -> VGroup:
        """Why the pair step 4 showed got one verdict: the read-out as an average, the words alone, the two reviews.

        Three parts, shown one by one: the formula with its words; each word of the pair read alone
        ("great", "bad", "not"); each review's weight on the negation word and its P(positive).
        """
        t, theme = self.trace, self.theme
        m, c, mt, ct = t.misleading, t.contrast, t.misleading_top, t.contrast_top
        average = VGroup(
            formula(
                theme,
                # σ written around both sides (review 14): without it a viewer took P for the average of the words' P.
                r"P = \sigma\big(u^\top \textstyle\sum_i \alpha_i e_i + c\big) "
                r"= \sigma\big(\textstyle\sum_i \alpha_i\,(u^\top e_i + c)\big)",
                size=theme.formula_size,
            ),
            # Review 20: at the small size and muted it was hard to read at 720p; the screen has room now.
            label(theme, "the weights add up to 1, so inside σ:", size=theme.body_size),
            label(theme, "a weighted average of each word's own input to σ", size=theme.body_size),
        ).arrange(DOWN, buff=0.15)
        alone = VGroup(
            label(theme, "read alone:", size=theme.small_size, color=theme.muted),
            *[
                VGroup(
                    label(theme, f"“{t.sentences[k][j]}” P {equals(t.word_alone[k, j])}", size=theme.small_size),
                    self.number(f"word_alone[{k}, {j}]", 2, size=theme.body_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.15)
                for k, j in ((m, mt + 1), (c, ct + 1), (m, mt))
            ],
        ).arrange(RIGHT, buff=0.4)
        negation = t.sentences[m][mt]
        reviews = VGroup(
            *[
                VGroup(
                    label(theme, f"“{phrase}”: weight on “{negation}”", size=theme.small_size, color=theme.muted),
                    self.number(f"weights[{k}, {top}]", 2, size=theme.body_size),
                    label(theme, f"→ P {equals(t.probabilities[k])}", size=theme.small_size),
                    self.number(f"probabilities[{k}]", 2, size=theme.body_size, color=theme.highlight),
                ).arrange(RIGHT, buff=0.2)
                for phrase, k, top in ((pair[0], m, mt), (pair[1], c, ct))
            ]
        ).arrange(DOWN, buff=0.2, aligned_edge=RIGHT)  # right-aligned: the two reviews' equal numbers stand in columns
        if alone.width > BODY.width:
            alone.arrange(DOWN, buff=0.15)
        cause = label(
            theme,
            "each word read without its neighbours (Yang et al. first run a bidirectional GRU)",
            size=theme.small_size,
            color=theme.highlight,
        )
        return VGroup(average, alone, reviews, cause).arrange(DOWN, buff=0.35)  # the screen is the argument's alone


def under(upper, lower) -> None:
    """Put the one-row grid ``lower`` right under ``upper``, each cell as wide as the one above, row labels flush right."""
    lower.next_to(upper.cells, DOWN, buff=0.0)
    for j in range(upper.shape[1]):
        above = upper.cell(0, j)
        lower.cell(0, j).stretch_to_fit_width(above.width).set_x(above.get_x())
        lower.number(0, j).move_to(lower.cell(0, j))
    lower.row_labels.next_to(lower.cells, LEFT, buff=0.15)
    upper.row_labels.next_to(upper.cells, LEFT, buff=0.15).align_to(lower.row_labels, RIGHT)


def equals(value: float) -> str:
    """ "≈" where two decimals round a probability to 1.00 or 0.00 (the voice says "almost 1"), else "="."""
    shown = format_number(value, 2)
    return "≈" if (shown == "1.00" and value < 1) or (shown == "0.00" and value > 0) else "="


def percent(value: float) -> str:
    """A percentage as the screen writes it, "78%" (the voice says "78 percent"): the trace's value to a whole number."""
    return f"{format_number(value, 0)}%"


def spoken_probability(value: float) -> str:
    """A probability as a person says it: 0.999 is "almost 1", not "one" (the screen's two decimals round it)."""
    shown = format_number(value, 2)
    if shown == "1.00" and value < 1:
        return "almost 1"
    if shown == "0.00" and value > 0:
        return "almost 0"
    return f"= {shown}"


def count(value: float) -> str:
    """A whole number as the screen writes it."""
    return format_number(value, 0)
