"""The course material's own numbers, as named examples, and the toy inputs built from them.

Each example's ``source`` says what its numbers are (made up by hand, drawn at random, or a
paper's), in words a viewer can check: it is published (``trace.json``, worksheets, pages), and
a viewer never has the course material, so it never names the course's files.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Example",
    "THE_CAT_SAT",
    "CAT_DOG_MAT",
    "THREE_TOKENS",
    "SPANISH_TRANSLATION",
    "ENGLISH",
    "SPANISH",
    "ALIGNMENT",
    "PADDING_BATCH",
    "ModelSize",
    "DEMO_MODEL",
    "GPT3",
    "DEFAULT_SEED",
    "random_matrix",
    "sentence_example",
    "word_vector",
    "translation_embeddings",
]

DEFAULT_SEED = 42
"""The seed the course notebooks use (``np.random.seed(42)``); ours goes to ``default_rng``."""


@dataclass(frozen=True, eq=False)
class Example:
    """Tokens with one embedding row each, and where they come from."""

    name: str
    tokens: tuple[str, ...]
    embeddings: np.ndarray
    source: str

    def __post_init__(self):
        embeddings = np.array(self.embeddings, dtype=float)
        embeddings.setflags(write=False)
        object.__setattr__(self, "embeddings", embeddings)


THE_CAT_SAT = Example(
    name="the-cat-sat",
    tokens=("The", "cat", "sat", "on", "the", "mat"),
    embeddings=[
        [0.1, 0.2, 0.1, 0.0],  # The
        [0.8, 0.3, 0.9, 0.7],  # cat (noun: rich features)
        [0.3, 0.9, 0.4, 0.6],  # sat (verb: different features)
        [0.1, 0.1, 0.2, 0.1],  # on (preposition)
        [0.1, 0.2, 0.1, 0.0],  # the
        [0.7, 0.4, 0.8, 0.6],  # mat (noun: similar to cat)
    ],
    source="embeddings: 4 numbers per word, made up by hand (not from a trained model); 'The' and 'the' share one",
)

CAT_DOG_MAT = Example(
    name="cat-dog-mat",
    tokens=("cat", "dog", "mat"),
    embeddings=[[0.5, 0.8], [0.4, 0.7], [0.3, 0.2]],
    source="query 'cat' = [0.5, 0.8] against keys cat, dog, mat: 2-number vectors made up by hand",
)
"""The keys of the exercise; the query is the first row, 'cat' itself."""

SPANISH_TRANSLATION = ("El", "gato", "se", "sentó", "en", "la", "alfombra")
"""Seed 000's translation of "The cat sat on the mat" ("The Problem Without Attention")."""

THREE_TOKENS = Example(
    name="three-tokens",
    tokens=("Token 0", "Token 1", "Token 2"),
    embeddings=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
    source="three tokens with 4-number vectors made up by hand",
)

PADDING_BATCH = (("The", "cat", "sat"), ("cat", "sat", "on", "the", "mat"), ("The", "mat"))
"""Three sentences of different lengths, in the words of :data:`THE_CAT_SAT` (so each has an embedding)."""

ENGLISH = ("The", "cat", "sat", "on", "the", "mat")
"""The encoder's sentence (seed 000's translation example)."""

SPANISH = SPANISH_TRANSLATION
"""The decoder's sentence: seed 000's translation of :data:`ENGLISH`."""

ALIGNMENT = (0, 1, 2, 2, 3, 4, 5)
"""For each Spanish token, the index of its English counterpart: El->The, gato->cat,
se->sat, sentó->sat, en->on, la->the, alfombra->mat."""


@dataclass(frozen=True)
class ModelSize:
    """The attention shape of a model as the course material states it.

    Attributes
    ----------
    name
        How the model is called on screen.
    d_model
        Width of every token vector.
    n_heads
        Attention heads per layer.
    n_layers
        Transformer layers (blocks).
    total_params
        All parameters as the course states them (embeddings and feed-forward layers included).
    source
        Where the numbers come from.
    d_ff
        Width of the hidden layer of each block's feed-forward network (0: the model has none; None: not
        stated).
    """

    name: str
    d_model: int
    n_heads: int
    n_layers: int
    total_params: float
    source: str
    d_ff: int | None = None


DEMO_MODEL = ModelSize("Our demo", 64, 4, 1, 16e3, "a one-layer demo model, d_model 64, 4 heads (about 16 thousand parameters)")
"""The course notebook's own demo model (seed 003), not the model a video of this project runs: the
multi-head scene compares GPT-3 with the model it runs (``traces.multi_head.this_video_model``)."""
GPT3 = ModelSize(
    "GPT-3",
    12_288,
    96,
    96,
    175e9,
    "Brown et al. 2020, 'Language Models are Few-Shot Learners', Table 2.1 (GPT-3 175B: 96 layers, "
    "d_model 12288, 96 heads, d_head 128) and section 2.1 (d_ff = 4 * d_model)",
    4 * 12_288,
)


def random_matrix(rng: np.random.Generator, rows: int, cols: int, scale: float | None = None) -> np.ndarray:
    """A ``(rows, cols)`` matrix of normal entries from ``rng``.

    ``scale`` defaults to ``1 / sqrt(rows)`` so that ``x @ w`` keeps the size of ``x``
    (the usual initialisation for a projection from ``rows`` dimensions).
    """
    if scale is None:
        scale = 1.0 / np.sqrt(rows)
    return rng.standard_normal((rows, cols)) * scale


def word_vector(word: str, dim: int) -> np.ndarray:
    """A made-up embedding for ``word``: ``dim`` numbers from 0.0 to 0.9, the same for the same word.

    The numbers come from ``numpy.random.default_rng`` seeded with the SHA-256 of the
    lower-cased word (Python's own ``hash`` changes between runs), so "The" and "the"
    share a vector as in the course notebook, and every run and machine agree.
    """
    seed = int.from_bytes(hashlib.sha256(word.lower().encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).integers(0, 10, dim) / 10


COURSE_VOCABULARY = {token.lower(): row for token, row in zip(THE_CAT_SAT.tokens, THE_CAT_SAT.embeddings)}
"""The notebook's own 4-number embeddings, by lower-cased word."""


def sentence_example(sentence: str, dim: int = 4) -> Example:
    """A teacher's sentence as an example: one token per whitespace-separated word.

    Words the course notebook embeds ("the", "cat", "sat", "on", "mat") keep its
    4-number vectors when ``dim`` is 4, so the default sentence gives the course's
    numbers; every other word gets :func:`word_vector`. Tokens are kept exactly as
    typed (no lower-casing, no escaping): they are user text, drawn literally.
    """
    tokens = tuple(sentence.split())
    if not tokens:
        raise ValueError("the sentence has no words")
    use_course = dim == len(THE_CAT_SAT.embeddings[0])
    rows = [
        COURSE_VOCABULARY[token.lower()] if use_course and token.lower() in COURSE_VOCABULARY else word_vector(token, dim)
        for token in tokens
    ]
    known = "the default example's hand-made vectors for the words it has, " if use_course else ""
    source = f"embeddings: {known}numbers drawn from default_rng(SHA-256 of the word) for any other word"
    return Example(name="sentence", tokens=tokens, embeddings=np.array(rows, dtype=float), source=source)


def translation_embeddings(
    seed: int = DEFAULT_SEED, d_model: int = 6, length: float = 3.0, noise: float = 0.2
) -> tuple[np.ndarray, np.ndarray]:
    """Toy embeddings for :data:`ENGLISH` and :data:`SPANISH` in which translation pairs are similar.

    Not a trained model: each English token gets a random direction of length
    ``length``; each Spanish token copies its :data:`ALIGNMENT` partner's vector and
    adds normal noise of size ``noise``. Partners then have a large dot product and
    other pairs a small one, so attention can find the alignment.

    Returns
    -------
    english, spanish
        ``(6, d_model)`` and ``(7, d_model)``.
    """
    rng = np.random.default_rng(seed)
    directions = rng.standard_normal((len(ENGLISH), d_model))
    english = length * directions / np.linalg.norm(directions, axis=1, keepdims=True)  # (6, d_model)
    spanish = english[list(ALIGNMENT)] + noise * rng.standard_normal((len(SPANISH), d_model))  # (7, d_model)
    return english, spanish
