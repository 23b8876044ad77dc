"""attention_math: the attention mechanism in plain numpy, with traces for the scenes.

Pure numpy; never imports manim. Every number a scene shows comes from a trace
built here, and the functions are checked against PyTorch in ``tests/``.
"""

from .core import (
    MultiHeadResult,
    attention_scores,
    causal_mask,
    merge_heads,
    multi_head_attention,
    padding_mask,
    scaled_dot_product_attention,
    sinusoidal_encoding,
    softmax,
    split_heads,
)
from .examples import CAT_DOG_MAT, DEFAULT_SEED, THE_CAT_SAT, THREE_TOKENS, Example, random_matrix
from .traces import (
    AttentionTrace,
    ScalingTrace,
    Trace,
    attention_trace,
    lookup,
    scaling_trace,
    self_attention_trace,
)

__version__ = "0.1.0"

__all__ = [
    "softmax",
    "attention_scores",
    "scaled_dot_product_attention",
    "causal_mask",
    "padding_mask",
    "split_heads",
    "merge_heads",
    "MultiHeadResult",
    "multi_head_attention",
    "sinusoidal_encoding",
    "Example",
    "THE_CAT_SAT",
    "CAT_DOG_MAT",
    "THREE_TOKENS",
    "DEFAULT_SEED",
    "random_matrix",
    "Trace",
    "AttentionTrace",
    "ScalingTrace",
    "attention_trace",
    "self_attention_trace",
    "scaling_trace",
    "lookup",
]
