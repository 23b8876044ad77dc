"""attention_math: the attention mechanism in plain numpy, with traces for the scenes.

Pure numpy; never imports manim. Every number a scene shows comes from a trace
built here, and the functions are checked against PyTorch in ``tests/``.
"""

from .block import (
    BlockResult,
    BlockWeights,
    TransformerBlockTrace,
    feed_forward,
    layer_norm,
    random_block_weights,
    transformer_block,
    transformer_block_trace,
)
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
from .examples import (
    CAT_DOG_MAT,
    DEFAULT_SEED,
    SPANISH_TRANSLATION,
    THE_CAT_SAT,
    THREE_TOKENS,
    Example,
    random_matrix,
    sentence_example,
    word_vector,
)
from .generation import (
    ComplexityTrace,
    KVCacheTrace,
    attention_macs,
    cached_step_macs,
    complexity_trace,
    full_step_macs,
    generation_macs,
    kv_cache_trace,
)
from .heads import DEMO_MODEL, GPT3, ModelSize, MultiHeadTrace, multi_head_trace
from .intro import BottleneckTrace, SoftmaxTrace, bottleneck_trace, qkv_trace, rnn_hidden_states, softmax_trace
from .masking import (
    ALIGNMENT,
    ENGLISH,
    PAD,
    PADDING_BATCH,
    SPANISH,
    CausalMaskTrace,
    CrossAttentionTrace,
    PaddingMaskTrace,
    causal_mask_trace,
    cross_attention_trace,
    padding_mask_trace,
    translation_embeddings,
)
from .positions import PositionalTrace, cosine_similarity_matrix, encoding_curves, positional_trace, wavelengths
from .traces import (
    AttentionTrace,
    ScalingTrace,
    Trace,
    attention_trace,
    lookup,
    scaling_trace,
    self_attention_trace,
)
from .trained import (
    DEFAULT_SENTENCE,
    INSTALL_HINT,
    ModelNotInstalled,
    TrainedHeadsTrace,
    load_trained_model,
    trained_forward,
    trained_heads_trace,
    trained_token_count,
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
    "sentence_example",
    "word_vector",
    "Trace",
    "AttentionTrace",
    "ScalingTrace",
    "attention_trace",
    "self_attention_trace",
    "scaling_trace",
    "lookup",
    # before attention, Q/K/V, softmax
    "rnn_hidden_states",
    "BottleneckTrace",
    "bottleneck_trace",
    "qkv_trace",
    "SoftmaxTrace",
    "softmax_trace",
    "SPANISH_TRANSLATION",
    # transformer block
    "layer_norm",
    "feed_forward",
    "BlockWeights",
    "BlockResult",
    "random_block_weights",
    "transformer_block",
    "TransformerBlockTrace",
    "transformer_block_trace",
    # generation and cost
    "cached_step_macs",
    "full_step_macs",
    "generation_macs",
    "attention_macs",
    "KVCacheTrace",
    "kv_cache_trace",
    "ComplexityTrace",
    "complexity_trace",
    # heads
    "ModelSize",
    "DEMO_MODEL",
    "GPT3",
    "MultiHeadTrace",
    "multi_head_trace",
    # masks and cross-attention
    "CausalMaskTrace",
    "PaddingMaskTrace",
    "CrossAttentionTrace",
    "causal_mask_trace",
    "padding_mask_trace",
    "cross_attention_trace",
    "translation_embeddings",
    "PAD",
    "PADDING_BATCH",
    "ENGLISH",
    "SPANISH",
    "ALIGNMENT",
    # positions
    "encoding_curves",
    "wavelengths",
    "cosine_similarity_matrix",
    "PositionalTrace",
    "positional_trace",
    # a trained model (optional extra)
    "DEFAULT_SENTENCE",
    "INSTALL_HINT",
    "ModelNotInstalled",
    "TrainedHeadsTrace",
    "load_trained_model",
    "trained_forward",
    "trained_heads_trace",
    "trained_token_count",
]
