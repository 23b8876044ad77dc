"""attention_math: the attention mechanism in plain numpy, with traces for the scenes.

Pure numpy; never imports manim. The maths is organised by concept:

- :mod:`.core`: softmax, scaled dot-product attention, multi-head attention;
- :mod:`.masks`: causal and padding masks, padding a batch;
- :mod:`.positions`: the sinusoidal positional encoding;
- :mod:`.rnn`: the recurrent network that came before attention;
- :mod:`.generation`: the KV cache, and counting multiply-adds;
- :mod:`.block`: the transformer block;
- :mod:`.trained`: all-MiniLM-L6-v2, loaded and run in numpy (optional extra);
- :mod:`.examples`: the course material's numbers and toy inputs;
- :mod:`.mistakes`: common mistakes, computed: the wrong options of the questions.

Every number a scene shows comes from a trace built by :mod:`.traces` (one module
per scene), and the functions are checked against PyTorch in ``tests/``.
"""

from .block import (
    BlockWeights,
    GPTBlockResult,
    gelu,
    gpt_block,
    layer_norm,
    random_block_weights,
)
from .core import (
    MultiHeadResult,
    attention_scores,
    merge_heads,
    multi_head_attention,
    scaled_dot_product_attention,
    softmax,
    split_heads,
)
from .examples import (
    ALIGNMENT,
    CAT_DOG_MAT,
    DEFAULT_SEED,
    DEMO_MODEL,
    ENGLISH,
    GPT3,
    PADDING_BATCH,
    SPANISH,
    SPANISH_TRANSLATION,
    THE_CAT_SAT,
    THREE_TOKENS,
    Example,
    ModelSize,
    random_matrix,
    sentence_example,
    translation_embeddings,
    word_vector,
)
from .generation import (
    CachedGeneration,
    attention_macs,
    cached_step_macs,
    full_step_macs,
    generate_with_cache,
    generate_without_cache,
    generation_macs,
)
from .masks import PAD, additive_mask, banded_causal_mask, causal_mask, pad_batch, padding_mask
from .positions import cosine_similarity_matrix, encoding_curves, sinusoidal_encoding, wavelengths
from .rnn import rnn_hidden_states
from .traces.base import Trace, lookup
from .traces.bottleneck import BottleneckTrace, bottleneck_trace
from .traces.causal_mask import CausalMaskTrace, causal_mask_trace
from .traces.complexity import ComplexityTrace, complexity_trace
from .traces.cross_attention import CrossAttentionTrace, cross_attention_trace
from .traces.kv_cache import KVCacheTrace, kv_cache_trace
from .traces.learning_to_attend import LearningToAttendTrace, learning_to_attend_trace
from .traces.multi_head import MultiHeadTrace, multi_head_trace
from .traces.padding_mask import PaddingMaskTrace, padding_mask_trace
from .traces.positional_encoding import PositionalTrace, positional_trace
from .traces.qkv import qkv_trace
from .traces.scaling import ScalingTrace, scaling_trace
from .traces.self_attention import AttentionTrace, SelfAttentionTrace, attention_trace, self_attention_trace
from .traces.sentiment_attention import SentimentAttentionTrace, sentiment_attention_trace
from .traces.softmax import SoftmaxTrace, softmax_trace
from .traces.trained_heads import TrainedHeadsTrace, trained_heads_trace
from .traces.transformer_block import TransformerBlockTrace, transformer_block_trace
from .trained import (
    DEFAULT_SENTENCE,
    INSTALL_HINT,
    ModelNotInstalled,
    load_trained_model,
    trained_forward,
    trained_token_count,
)

__version__ = "0.1.0"

__all__ = [
    "softmax",
    "attention_scores",
    "scaled_dot_product_attention",
    "split_heads",
    "merge_heads",
    "MultiHeadResult",
    "multi_head_attention",
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
    "SelfAttentionTrace",
    "ScalingTrace",
    "attention_trace",
    "self_attention_trace",
    "scaling_trace",
    "lookup",
    # masks
    "PAD",
    "causal_mask",
    "banded_causal_mask",
    "padding_mask",
    "additive_mask",
    "pad_batch",
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
    "BlockWeights",
    "random_block_weights",
    "gelu",
    "GPTBlockResult",
    "gpt_block",
    "TransformerBlockTrace",
    "transformer_block_trace",
    # generation and cost
    "cached_step_macs",
    "full_step_macs",
    "generation_macs",
    "attention_macs",
    "CachedGeneration",
    "generate_with_cache",
    "generate_without_cache",
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
    "PADDING_BATCH",
    "ENGLISH",
    "SPANISH",
    "ALIGNMENT",
    # positions
    "sinusoidal_encoding",
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
    # trained here with torch (optional extra)
    "LearningToAttendTrace",
    "learning_to_attend_trace",
    "SentimentAttentionTrace",
    "sentiment_attention_trace",
]
