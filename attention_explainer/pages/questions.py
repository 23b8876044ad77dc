"""Questions on a render's own numbers, each placed at the end of the step it tests, for the player and a quiz bank.

Every question asks for one entry of a worksheet table (:mod:`.exercises`), so the quiz and the
worksheet's answer key give the same number with the same rounding. A numeric answer is the value
as shown; it accepts exactly what rounds to it. A multiple-choice question's wrong options are the
results of named mistakes (:mod:`attention_math.mistakes`), computed on the same inputs, each kept
only when it differs from the right answer as shown, each with feedback naming its mistake.

Questions are made per scene (:data:`QUESTIONS_BY_SCENE`): two scenes may share a trace kind but
not their steps. A render with another sentence, seed or size gets questions from its own trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from attention_math import mistakes
from attention_math.mistakes import MISTAKES
from attention_style import format_number

from ..package.questions import check_questions, shown_value, tolerance_for
from .exercises import Exercise, Table, exercises_for, scaled_caption

__all__ = ["Option", "Question", "QuestionPlan", "QUESTIONS_BY_SCENE", "questions_for", "questions_document"]


@dataclass(frozen=True)
class Option:
    """One answer of a multiple-choice question, as shown, with what choosing it tells the learner."""

    text: str
    correct: bool
    feedback: str
    mistake: str = ""
    """The named mistake (a key of :data:`attention_math.mistakes.MISTAKES`) a wrong option is the result of."""


@dataclass(frozen=True)
class Question:
    """One question: where it is asked, what it asks, its answer as shown and where that answer comes from.

    ``exercise``, ``part``, ``table`` and ``entry`` name the worksheet table and the entry in it that the answer is;
    ``field`` and ``index`` name the trace quantity it is (a trace field, or a size read off one),
    so a test can recompute the answer and every mistake independently.
    """

    id: str
    step: str
    kind: str
    """``numeric`` (typed) or ``choice`` (one of ``options``)."""
    stem: str
    answer: str
    """The right answer as shown (the worksheet's rounding)."""
    decimals: int
    feedback: str
    table: str
    exercise: int
    """The worksheet exercise (from 1) the table belongs to."""
    part: str
    """``answer`` (the answer key's table) or ``given`` (the exercise's own)."""
    entry: tuple[int, ...]
    field: str
    index: tuple[int, ...]
    options: tuple[Option, ...] = ()

    @property
    def value(self) -> float:
        """The right answer as shown, as a number."""
        return shown_value(self.answer)

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "id": self.id,
            "step": self.step,
            "kind": self.kind,
            "stem": self.stem,
            "answer": self.answer,
            "decimals": self.decimals,
            "feedback": self.feedback,
            "source": {
                "worksheet_item": self.exercise,
                "part": self.part,
                "table": self.table,
                "entry": list(self.entry),
                "field": self.field,
                "index": list(self.index),
            },
        }
        if self.kind == "numeric":
            record["value"] = self.value
            record["tolerance"] = tolerance_for(self.decimals, self.value)
        else:
            record["options"] = [
                {"text": o.text, "correct": o.correct, "feedback": o.feedback, **({"mistake": o.mistake} if o.mistake else {})}
                for o in self.options
            ]
        return record


@dataclass
class QuestionPlan:
    """The questions of one render as they are made: each reads its answer from an exercise's table."""

    scene: str
    exercises: list[Exercise]
    questions: list[Question] = field(default_factory=list)

    def table(self, caption: str) -> tuple[Table, int, str]:
        """The first worksheet table with ``caption``: the table, its exercise's number (from 1) and ``answer`` or ``given``.

        An exercise's answer tables come before its given ones, as the answer is what a question asks.
        """
        for number, exercise in enumerate(self.exercises, start=1):
            for part, tables in (("answer", exercise.answer), ("given", exercise.given)):
                for table in tables:
                    if table.caption == caption:
                        return table, number, part
        raise LookupError(f"{self.scene}: no worksheet table {caption!r} to ask from")

    def _read(self, caption: str, entry: Sequence[int]) -> tuple[tuple[Table, int, str], str]:
        found = self.table(caption)
        value = float(np.asarray(found[0].values, dtype=float)[tuple(entry)])
        return found, format_number(value, found[0].decimals)

    def numeric(
        self, step: str, stem: str, caption: str, entry: Sequence[int], source: tuple[str, Sequence[int]], feedback: str
    ) -> None:
        """Ask for the entry ``entry`` of the table ``caption``, typed; ``source`` is its trace field and index."""
        found, shown = self._read(caption, entry)
        self._add(step, "numeric", stem, shown, found, entry, source, feedback)

    def choice(
        self,
        step: str,
        stem: str,
        caption: str,
        entry: Sequence[int],
        source: tuple[str, Sequence[int]],
        feedback: str,
        wrong: Sequence[tuple[str, float]],
    ) -> None:
        """Ask for the entry as a choice among it and the results of the ``wrong`` mistakes (name, value).

        A mistake whose result is shown as the right answer (or as another mistake's) is left out;
        with none left, the question is asked as a typed number instead.
        """
        found, shown = self._read(caption, entry)
        table = found[0]
        options = [Option(shown, True, f"Right. {feedback}")]
        for mistake, value in wrong:
            text = format_number(value, table.decimals)
            if np.isfinite(value) and text not in {option.text for option in options}:
                options.append(Option(text, False, f"This is {MISTAKES[mistake]}.", mistake))
        if len(options) < 2:
            self._add(step, "numeric", stem, shown, found, entry, source, feedback)
            return
        # In order of value: no position gives the answer away, and the same render always lists them the same way.
        options.sort(key=lambda option: shown_value(option.text))
        self._add(step, "choice", stem, shown, found, entry, source, feedback, tuple(options))

    def _add(self, step, kind, stem, shown, found, entry, source, feedback, options=()) -> None:
        table, exercise, part = found
        if kind == "numeric" and table.decimals:
            # The rounding the answer is checked at, said: a video may show fewer decimals than the worksheet.
            stem = f"{stem} Give it to {table.decimals} decimal place{'s' if table.decimals > 1 else ''}"
            if table.decimals >= 2:
                slack = format_number(tolerance_for(table.decimals, shown_value(shown)), table.decimals)
                stem = f"{stem} (within ±{slack}: the numbers on screen are rounded)"
            stem = f"{stem}."
        self.questions.append(
            Question(
                id=f"{self.scene}-{len(self.questions) + 1}",
                step=step,
                kind=kind,
                stem=stem,
                answer=shown,
                decimals=table.decimals,
                feedback=feedback,
                table=table.caption,
                exercise=exercise,
                part=part,
                entry=tuple(int(i) for i in entry),
                field=source[0],
                index=tuple(int(i) for i in source[1]),
                options=options,
            )
        )


def _top(row: np.ndarray, leave_out: int | None = None) -> int:
    """The index of the largest finite entry of ``row`` (``leave_out`` excluded when there is another)."""
    row = np.where(np.isfinite(row), np.asarray(row, dtype=float), -np.inf)
    if leave_out is not None and len(row) > 1:
        row = row.copy()
        row[leave_out] = -np.inf
    return int(np.argmax(row))


def _q(text: str) -> str:
    """A word of the render's own text, quoted as the worksheet quotes it."""
    return f"“{text}”"


# --- the attention pass: self-attention, Q/K/V, the masks, cross-attention ---------------------------------


def _weight_choice(plan: QuestionPlan, t, step: str, j: int, masked: bool) -> None:
    """How much weight the focus query gives key ``j``: the mistakes of scaling, axis and (when masked) the mask."""
    i = t.focus
    wrong = [
        ("no-scaling", mistakes.softmax_without_scaling(t.raw_scores, t.mask)[i, j]),
        ("divided-by-d-k", mistakes.softmax_divided_by_d_k(t.raw_scores, t.d_k, t.mask)[i, j]),
        ("wrong-axis", mistakes.softmax_over_queries(t.masked_scores)[i, j]),
    ]
    if masked:
        wrong.insert(0, ("no-mask", mistakes.softmax_without_mask(t.scaled_scores)[i, j]))
    plan.choice(
        step,
        f"After softmax, how much attention weight does the query {_q(t.query_tokens[i])} give to the key {_q(t.key_tokens[j])}?",
        "attention weights",
        (j,),
        ("weights", (i, j)),
        f"Divide each score q · k by √d_k = {format_number(t.scale, 3)}"
        + (", hide the masked keys with −∞" if masked else "")
        + ", then softmax along the query's row: e to each score, divided by their sum.",
        wrong,
    )


def _output_choice(plan: QuestionPlan, t, step: str) -> None:
    """The first number of the focus query's output: the weights applied to the keys, evenly, or unscaled."""
    i = t.focus
    wrong = [
        ("summed-keys", mistakes.weighted_sum_of_keys(t.weights, t.k)[i, 0]),
        ("plain-average", mistakes.plain_average_of_values(t.v, t.mask)[i, 0]),
        ("no-scaling", (mistakes.softmax_without_scaling(t.raw_scores, t.mask) @ t.v)[i, 0]),
    ]
    plan.choice(
        step,
        f"What is the first number (d1) of the output for {_q(t.query_tokens[i])}?",
        "output",
        (0,),
        ("output", (i, 0)),
        "Multiply each value row by its attention weight and add the rows: the output is the weighted sum of the values.",
        wrong,
    )


def _score_numeric(plan: QuestionPlan, t, step: str, j: int) -> None:
    i = t.focus
    plan.numeric(
        step,
        f"What is the score q · k of the query {_q(t.query_tokens[i])} against the key {_q(t.key_tokens[j])}?",
        "q · k",
        (j,),
        ("raw_scores", (i, j)),
        "Multiply the query and the key entry by entry and add the products.",
    )


def self_attention_questions(plan: QuestionPlan, t) -> None:
    i = t.focus
    _score_numeric(plan, t, "dot-products", _top(t.raw_scores[i], leave_out=i))
    _weight_choice(plan, t, "softmax", _top(t.weights[i]), masked=False)
    _output_choice(plan, t, "weighted-sum")


def qkv_questions(plan: QuestionPlan, t) -> None:
    i, j = t.focus, len(t.key_tokens) - 1  # the pair the scene walks through
    plan.numeric(
        "q-projection",
        f"The query of {_q(t.query_tokens[i])} is its embedding times W_Q. What is its first number (d1)?",
        f"query q ({_q(t.query_tokens[i])})",
        (0,),
        ("q", (i, 0)),
        "Each number of q is the embedding's dot product with one column of W_Q.",
    )
    plan.choice(
        "query-meets-key",
        f"What is the score q · k of {_q(t.query_tokens[i])} against {_q(t.key_tokens[j])}, before dividing by √d_k?",
        "q · k",
        (j,),
        ("raw_scores", (i, j)),
        "The dot product of the query row q (from W_Q) and the key row k (from W_K).",
        [
            ("no-projection", mistakes.score_from_inputs(t.x_query, t.x_key)[i, j]),
            ("value-for-key", mistakes.score_with_values(t.q, t.v)[i, j]),
        ],
    )
    plan.numeric(
        "scores-heatmap",
        f"What is that score divided by √d_k (d_k = {t.d_k})?",
        scaled_caption(t.scale),
        (j,),
        ("scaled_scores", (i, j)),
        f"Divide q · k by √{t.d_k} = {format_number(t.scale, 0 if float(t.scale).is_integer() else 3)}.",
    )


def causal_mask_questions(plan: QuestionPlan, t) -> None:
    i = t.focus
    plan.numeric(
        "minus-infinity",
        f"What is the scaled score of the query {_q(t.query_tokens[i])} against the first key, "
        f"{_q(t.key_tokens[0])}, after the mask?",
        "masked scores",
        (0,),
        ("masked_scores", (i, 0)),
        "The first key is never in the future: the mask keeps its score, q · k ÷ √d_k.",
    )
    _weight_choice(plan, t, "softmax-over-the-past", _top(t.weights[i]), masked=True)


def padding_mask_questions(plan: QuestionPlan, t) -> None:
    i = t.focus
    plan.numeric(
        "pads-leak-without-a-mask",
        f"Without a padding mask, how much weight in total does {_q(t.query_tokens[i])} give the pads?",
        "weight on the pads without a mask",
        (i,),
        ("pad_share", (i,)),
        "Softmax over every column, the pads' included: each pad scores 0, and e to the 0 is 1.",
    )
    _weight_choice(plan, t, "pad-keys-get-zero", _top(t.weights[i]), masked=True)


def cross_attention_questions(plan: QuestionPlan, t) -> None:
    i = t.focus
    _score_numeric(plan, t, "one-query", _top(t.raw_scores[i]))
    _weight_choice(plan, t, "one-query", _top(t.weights[i]), masked=False)
    _output_choice(plan, t, "context-vector")


# --- the other scenes ------------------------------------------------------------------------------------------


def bottleneck_questions(plan: QuestionPlan, t) -> None:
    words = list(t.tokens)
    plan.numeric(
        "bottleneck",
        f"The RNN reads {len(words)} words of {t.embeddings.shape[1]} numbers each. How many numbers reach the "
        "translator through its last hidden state?",
        "numbers in, numbers through",
        (1,),
        ("state_numbers", ()),
        "Only the last hidden state goes on: its size, whatever the sentence's length.",
    )
    plan.numeric(
        "rnn-paths",
        f"Through the RNN's chain, how many steps does {_q(words[0])} need to reach {_q(words[-1])}?",
        "steps from the first word: RNN",
        (len(words) - 1,),
        ("rnn_hops", (len(words) - 1,)),
        "One step per word in between: the chain passes the state from word to word.",
    )
    plan.numeric(
        "attention-paths",
        f"With attention, how many steps does {_q(words[0])} need to reach {_q(words[-1])}?",
        "steps from the first word: attention",
        (len(words) - 1,),
        ("attention_hops", (len(words) - 1,)),
        "Attention links every word to every other directly: one step.",
    )


def softmax_questions(plan: QuestionPlan, t) -> None:
    keys = list(t.tokens)
    j = _top(t.scores)
    plan.numeric(
        "scores",
        f"What is the score of the query {_q(keys[0])} against the key {_q(keys[j])}?",
        "scores",
        (j,),
        ("scores", (j,)),
        "The dot product of the query and the key.",
    )
    plan.choice(
        "sum-and-divide",
        f"After softmax, before any scaling by √d_k, what is the weight of {_q(keys[j])}?",
        "weights before scaling",
        (j,),
        ("weights", (j,)),
        "e to the power of each score, divided by the sum of all of them.",
        [
            ("no-exponential", mistakes.scores_divided_by_their_sum(t.scores)[j]),
            ("no-normalising", mistakes.exponentials_not_normalised(t.scores)[j]),
        ],
    )
    last = len(t.multipliers) - 1
    m = format_number(t.multipliers[last], 0)
    top = _top(t.sharpened_weights[last])
    plan.numeric(
        "bigger-gaps-sharper",
        f"Multiply the scores by {m} and apply softmax again: what weight does {_q(keys[top])} get?",
        f"weights, scores × {m}",
        (top,),
        ("sharpened_weights", (last, top)),
        "Wider gaps between the scores give a sharper softmax: the largest weight grows towards 1.",
    )
    plan.numeric(
        "scaled-weights",
        f"Attention divides the scores by √d_k first (d_k = {t.d_k}): what attention weight does {_q(keys[0])} get?",
        "attention weights",
        (0,),
        ("scaled_weights", (0,)),
        f"Divide each score by √{t.d_k}, then apply softmax.",
    )


def scaling_questions(plan: QuestionPlan, t) -> None:
    last = len(t.d_k_values) - 1
    d_k = t.d_k_values[last]
    plan.choice(
        "dot-products-grow",
        f"q and k have d_k = {d_k} independent entries, each of mean 0 and variance 1. What is the variance of q · k?",
        "predicted: d_k",
        (last,),
        ("d_k_values", (last,)),
        "Each product q_i k_i has variance 1, and the variances of d_k independent terms add up: d_k.",
        [
            ("standard-deviation", float(mistakes.standard_deviation_for_variance(d_k))),
            ("entry-variance", float(mistakes.entry_variance_for_dot_product(d_k))),
        ],
    )
    plan.numeric(
        "divide-by-sqrt-dk",
        f"What variance did the video measure for q · k ÷ √d_k at d_k = {d_k}?",
        "measured after dividing by √d_k",
        (last,),
        ("scaled_variances", (last,)),
        "Dividing by √d_k divides the variance by d_k: about 1 at every width.",
    )
    j = _top(t.row_scaled_weights)
    plan.choice(
        "softmax-with-scaling",
        f"The row of raw scores (d_k = {t.row_d_k}) is divided by √d_k, then softmax. What weight does key k{j + 1} get?",
        "attention weights with scaling",
        (j,),
        ("row_scaled_weights", (j,)),
        f"Divide each raw score by {format_number(t.row_scale, 0)}, then softmax.",
        [
            ("no-scaling", mistakes.softmax_without_scaling(t.row_raw_scores)[j]),
            ("divided-by-d-k", mistakes.softmax_divided_by_d_k(t.row_raw_scores, t.row_d_k)[j]),
        ],
    )


def multi_head_questions(plan: QuestionPlan, t) -> None:
    d_model, heads = t.x.shape[1], t.n_heads
    plan.choice(
        "split-into-heads",
        f"Q is {t.q.shape[0]} × {d_model}, split into {heads} heads. How wide is each head?",
        "d_head = d_model ÷ heads",
        (0,),
        ("d_head", ()),
        f"Each head takes its own slice of the columns: {d_model} ÷ {heads}.",
        [
            ("multiplied-heads", float(mistakes.head_width_multiplied(d_model, heads))),
            ("unsplit-head", float(mistakes.head_width_unsplit(d_model))),
        ],
    )
    plan.numeric(
        "split-into-heads",
        "What is the first number of head 1 for the first token?",
        "head 1, first token",
        (0,),
        ("q_heads", (0, 0, 0)),
        "Head 1 takes the first d_head columns of Q, unchanged.",
    )
    gpt3 = list(t.scale_models).index(t.scale_models[-1])
    plan.numeric(
        "scale-comparison",
        f"{t.scale_models[gpt3]} has {format_number(t.scale_heads[gpt3], 0)} heads in each of its "
        f"{format_number(t.scale_layers[gpt3], 0)} layers. How many heads in all?",
        "heads in all",
        (gpt3,),
        ("scale_total_heads", (gpt3,)),
        "Heads per layer times layers.",
    )


def positional_questions(plan: QuestionPlan, t) -> None:
    plan.choice(
        "sin-cos-fingerprints",
        "With d_model = 4, what is PE(1, 1) = cos(1), the second number of position 1's fingerprint (angles in radians)?",
        "PE",
        (1, 1),
        ("pe_small", (1, 1)),
        "cos(1 radian).",
        [
            ("degrees", float(mistakes.cosine_of_degrees(1.0))),
            ("swapped-sin-cos", float(mistakes.swapped_sin_cos(1.0)[1])),
        ],
    )
    plan.numeric(
        "sin-cos-fingerprints",
        "What is PE(2, 0) = sin(2), the first number of position 2's fingerprint (radians)?",
        "PE",
        (2, 0),
        ("pe_small", (2, 0)),
        "sin(2 radians).",
    )
    plan.numeric(
        "nearby-positions-look-alike",
        f"What is the cosine similarity of positions {t.reference} and {t.near} (d_model = {t.d_model})?",
        "cosine similarity",
        (0,),
        ("similarity_near", ()),
        "Nearby positions have nearly the same fingerprint: a similarity close to 1.",
    )


def kv_cache_questions(plan: QuestionPlan, t) -> None:
    steps, d = len(t.step_tokens), t.q.shape[1]
    plan.numeric(
        "count-multiply-adds",
        f"With d = {d} and the cache, how many multiply-adds does generation step {steps} take (3d² + 2td)?",
        "with the cache",
        (steps - 1,),
        ("macs_cached", (steps - 1,)),
        "The new token's projections (3d²) plus its scores and weighted sum over t cached rows (2td).",
    )
    plan.numeric(
        "totals",
        "Adding up every step of this one head, how many times as much work is recomputing everything as using the cache?",
        "ratio",
        (0,),
        ("saving_ratio", ()),
        "The recomputed total divided by the cached total.",
    )
    plan.choice(
        "takeaway",
        f"How many numbers do the K and V caches hold after all {steps} steps (one head, d = {d})?",
        "the cache in this video",
        (0,),
        ("cache_floats", ()),
        "A key and a value of d numbers for every token: 2 × n × d.",
        [
            ("keys-only", mistakes.cache_of_keys_only(steps, d)),
            ("one-token", mistakes.cache_of_one_token(d)),
        ],
    )


def block_questions(plan: QuestionPlan, t) -> None:
    f = t.focus
    plan.numeric(
        "layer-norm",
        f"What is the mean of x for {_q(t.tokens[f])}?",
        "mean and variance",
        (0,),
        ("x_mean", (f,)),
        "The sum of x's numbers divided by how many there are.",
    )
    plan.choice(
        "layer-norm",
        f"What is the variance of x for {_q(t.tokens[f])}, as layer norm computes it?",
        "mean and variance",
        (1,),
        ("x_var", (f,)),
        "The mean of (x − mean)², dividing by the number of entries n.",
        [
            ("sample-variance", float(mistakes.sample_variance(t.x[f]))),
            ("no-centring", float(mistakes.mean_of_squares(t.x[f]))),
        ],
    )
    plan.numeric(
        "feed-forward",
        "The feed-forward layer is four times as wide as the model. How wide is it in the video's block?",
        "d_ff",
        (0,),
        ("d_ff", ()),
        "d_ff = 4 × d_model.",
    )


def complexity_questions(plan: QuestionPlan, t) -> None:
    n = int(t.lengths[0])
    plan.numeric(
        "every-query-every-key",
        f"For a sequence of n = {n} tokens, how many attention weights does one head compute?",
        "weights",
        (0,),
        ("weight_counts", (0,)),
        "Every query with every key: n × n.",
    )
    last = len(t.lengths) - 1
    plan.numeric(
        "memory",
        f"Stored in float32 (4 bytes each), how many bytes do the weights take at n = {format_number(t.lengths[last], 0)}?",
        "bytes",
        (last,),
        ("weight_bytes", (last,)),
        "n × n weights times 4 bytes.",
    )
    plan.choice(
        "doubling-quadruples",
        "When n doubles, by how much do the n × n counts (weights, bytes, multiply-adds of QKᵀ) grow?",
        "growth when n doubles",
        (0,),
        ("growth", (0,)),
        "(2n)² = 4n²: four times.",
        [("linear-growth", float(mistakes.linear_growth(t.lengths)[0]))],
    )


def trained_heads_questions(plan: QuestionPlan, t) -> None:
    pieces, j = list(t.tokens), int(t.top_key)
    query = pieces[t.focus]
    plan.numeric(
        "scale",
        f"The raw score of {_q(query)} against {_q(pieces[j])} divided by √{t.d_head}: what is the scaled score?",
        "scaled scores",
        (j,),
        ("focus_scaled_scores", (j,)),
        f"Divide the raw score by √{t.d_head} ≈ {format_number(t.scale, 2)}.",
    )
    plan.choice(
        "softmax",
        f"After softmax, how much attention weight does {_q(query)} give to {_q(pieces[j])}?",
        "attention weights",
        (j,),
        ("focus_weights", (j,)),
        f"Softmax of the scores divided by √{t.d_head}.",
        [
            ("no-scaling", mistakes.softmax_without_scaling(t.focus_raw_scores)[j]),
            ("divided-by-d-k", mistakes.softmax_divided_by_d_k(t.focus_raw_scores, t.d_head)[j]),
        ],
    )


def learning_to_attend_questions(plan: QuestionPlan, t) -> None:
    n = t.length
    plan.numeric(
        "attention-is-learned",
        f"Before training, each row of weights shares 1 evenly among the {n} input positions. What weight does each get?",
        "flat attention: 1 / n",
        (0,),
        ("uniform_weight", ()),
        "1 ÷ n.",
    )
    plan.choice(
        "attention-is-learned",
        f"To reverse a sequence of {n} letters, which input position (counting from 1) should output step 1 read?",
        "input position each output step should read",
        (0,),
        ("mirror_position", (0,)),
        f"Output step t reads input position {n} − t + 1: the last letter comes first.",
        [
            ("copying", float(mistakes.copying_position(1))),
            ("counted-from-zero", float(mistakes.position_counted_from_zero(n, 1))),
        ],
    )
    last = len(t.lengths) - 1
    plan.numeric(
        "accuracy-by-length",
        f"At length {t.lengths[last]}, what token accuracy did the model without attention reach?",
        "token accuracy without attention",
        (last,),
        ("baseline_accuracy_by_length", (last,)),
        "Read off the measured accuracies: without attention, one vector must carry the whole sequence.",
    )


def sentiment_attention_questions(plan: QuestionPlan, t) -> None:
    first = t.focus
    n = int(t.sentence_lengths[first])
    words = list(t.sentences[first])[:n]
    j = _top(t.weights[first, :n])
    plan.choice(
        "where-it-looks",
        f"In the review {_q(' '.join(words))}, softmax of the words' scores: what weight does {_q(words[j])} get?",
        "attention weights",
        (j,),
        ("weights", (first, j)),
        "e to the power of each word's score, divided by the sum of them all.",
        [
            ("no-normalising", mistakes.exponentials_not_normalised(t.scores[first, :n])[j]),
            ("no-exponential", mistakes.scores_divided_by_their_sum(t.scores[first, :n])[j]),
        ],
    )
    plan.numeric(
        "where-weights-mislead",
        f"What accuracy did the classifier reach on the {t.n_heldout_negated} random held-out reviews with a negation?",
        "held-out accuracy",
        (0,),
        ("heldout_accuracy_negated", ()),
        "Read off the measured accuracies: a weighted average of the words cannot turn “great” or “bad” around.",
    )


QUESTIONS_BY_SCENE: dict[str, Callable[[QuestionPlan, Any], None]] = {
    "bottleneck": bottleneck_questions,
    "qkv": qkv_questions,
    "self-attention": self_attention_questions,
    "softmax": softmax_questions,
    "scaling": scaling_questions,
    "multi-head": multi_head_questions,
    "positional-encoding": positional_questions,
    "causal-mask": causal_mask_questions,
    "padding-mask": padding_mask_questions,
    "cross-attention": cross_attention_questions,
    "kv-cache": kv_cache_questions,
    "transformer-block": block_questions,
    "complexity": complexity_questions,
    "trained-heads": trained_heads_questions,
    "learning-to-attend": learning_to_attend_questions,
    "sentiment-attention": sentiment_attention_questions,
}


def questions_for(scene: str, trace) -> list[Question]:
    """The questions of a render of ``scene`` with ``trace``; empty for a scene that has none."""
    builder = QUESTIONS_BY_SCENE.get(scene)
    if builder is None:
        return []
    plan = QuestionPlan(scene, exercises_for(trace))
    builder(plan, trace)
    return plan.questions


def questions_document(scene: str, title: str, trace, steps: Sequence[str]) -> dict[str, Any]:
    """``questions.json``'s content for a render whose steps are named ``steps``: its questions, checked.

    A question is placed at the end of the step it tests; one whose step the render does not have
    is left out (every scene's own steps have all of its questions: ``tests/test_questions.py``).
    """
    asked = [question.to_json() for question in questions_for(scene, trace) if question.step in steps]
    return check_questions({"scene": scene, "title": title, "questions": asked}, steps)
