"""The scene catalog, in teaching order.

``SCENES`` maps each CLI name to its scene class; the CLI and the tests pick
scenes from here, never through manim's own name lookup.
"""

from __future__ import annotations

from .base import ExplainerScene
from .scaling import ScalingScene
from .self_attention import SelfAttentionScene

SCENES: dict[str, type[ExplainerScene]] = {
    scene.name: scene
    for scene in (
        SelfAttentionScene,
        ScalingScene,
    )
}

__all__ = ["SCENES", "ExplainerScene"]
