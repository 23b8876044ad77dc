"""The scene catalog, in teaching order.

``SCENES`` maps each CLI name to its scene class; the CLI and the tests pick
scenes from here, never through manim's own name lookup.
"""

from __future__ import annotations

from .bottleneck import BottleneckScene
from .causal_mask import CausalMaskScene
from .complexity import ComplexityScene
from .cross_attention import CrossAttentionScene
from .kit import ExplainerScene
from .kv_cache import KVCacheScene
from .multi_head import MultiHeadScene
from .padding_mask import PaddingMaskScene
from .positional_encoding import PositionalEncodingScene
from .qkv import QKVScene
from .scaling import ScalingScene
from .self_attention import SelfAttentionScene
from .softmax import SoftmaxScene
from .trained_heads import TrainedHeadsScene
from .transformer_block import TransformerBlockScene

SCENES: dict[str, type[ExplainerScene]] = {
    scene.name: scene
    for scene in (
        BottleneckScene,
        QKVScene,
        SelfAttentionScene,
        SoftmaxScene,
        ScalingScene,
        MultiHeadScene,
        PositionalEncodingScene,
        CausalMaskScene,
        PaddingMaskScene,
        CrossAttentionScene,
        KVCacheScene,
        TransformerBlockScene,
        ComplexityScene,
        TrainedHeadsScene,
    )
}

__all__ = ["SCENES", "ExplainerScene"]
