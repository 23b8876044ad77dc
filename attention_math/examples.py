"""The course material's own numbers, as named examples.

Each example cites the seed document it comes from (``../shared/seeds/``), so a
teacher can find the matching page of the course.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "Example",
    "THE_CAT_SAT",
    "CAT_DOG_MAT",
    "THREE_TOKENS",
    "SPANISH_TRANSLATION",
    "DEFAULT_SEED",
    "random_matrix",
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
    source="seed 000, 'Simple Attention Mechanism from Scratch' (Q = K = V = embeddings)",
)

CAT_DOG_MAT = Example(
    name="cat-dog-mat",
    tokens=("cat", "dog", "mat"),
    embeddings=[[0.5, 0.8], [0.4, 0.7], [0.3, 0.2]],
    source="seed 000, Exercise 2: query 'cat' = [0.5, 0.8] against keys cat, dog, mat",
)
"""The keys of the exercise; the query is the first row, 'cat' itself."""

SPANISH_TRANSLATION = ("El", "gato", "se", "sentó", "en", "la", "alfombra")
"""Seed 000's translation of "The cat sat on the mat" ("The Problem Without Attention")."""

THREE_TOKENS = Example(
    name="three-tokens",
    tokens=("Token 0", "Token 1", "Token 2"),
    embeddings=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]],
    source="seed 001, Part 2: 'Imagine 3 tokens with 4-dimensional representations'",
)


def random_matrix(rng: np.random.Generator, rows: int, cols: int, scale: float | None = None) -> np.ndarray:
    """A ``(rows, cols)`` matrix of normal entries from ``rng``.

    ``scale`` defaults to ``1 / sqrt(rows)`` so that ``x @ w`` keeps the size of ``x``
    (the usual initialisation for a projection from ``rows`` dimensions).
    """
    if scale is None:
        scale = 1.0 / np.sqrt(rows)
    return rng.standard_normal((rows, cols)) * scale
