"""The scene catalog, in teaching order.

``SCENES`` maps each CLI name to its scene class; the CLI and the tests pick
scenes from here, never through manim's own name lookup. :func:`build_trace` builds a
scene's trace for a render, handing the scenes that train a model their cache folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .bottleneck import BottleneckScene
from .causal_mask import CausalMaskScene
from .complexity import ComplexityScene
from .cross_attention import CrossAttentionScene
from .kit import ExplainerScene
from .kv_cache import KVCacheScene
from .learning_to_attend import LearningToAttendScene
from .multi_head import MultiHeadScene
from .padding_mask import PaddingMaskScene
from .positional_encoding import PositionalEncodingScene
from .qkv import QKVScene
from .scaling import ScalingScene
from .self_attention import SelfAttentionScene
from .sentiment_attention import SentimentAttentionScene
from .softmax import SoftmaxScene
from .trained_heads import TrainedHeadsScene
from .training import TRAINING_FOLDER
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
        LearningToAttendScene,
        SentimentAttentionScene,
    )
}


def build_trace(name: str, inputs: dict[str, Any], cache_dir: Path | None = None):
    """The trace of scene ``name`` for ``inputs``; a scene that trains a model keeps its runs in ``cache_dir/training``."""
    scene = SCENES[name]
    if getattr(scene, "trains", False) and cache_dir is not None:
        return scene.build_trace(**inputs, cache_dir=Path(cache_dir) / TRAINING_FOLDER)
    return scene.build_trace(**inputs)


__all__ = ["SCENES", "ExplainerScene", "build_trace"]
