"""The scenes' drawing kit: the base scene (steps, captions, shown numbers) and the components."""

from .scene import END_HOLD, HEADING_WIDTH, READING_SPEED, ExplainerScene, Shown, Step

__all__ = ["ExplainerScene", "Step", "Shown", "READING_SPEED", "END_HOLD", "HEADING_WIDTH"]
