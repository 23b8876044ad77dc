"""The scenes' drawing kit: the base scene (steps, captions, shown numbers), the components and the layout."""

from .layout import HEADING_WIDTH
from .scene import END_HOLD, READING_SPEED, ExplainerScene, Shown, Step

__all__ = ["ExplainerScene", "Step", "Shown", "READING_SPEED", "END_HOLD", "HEADING_WIDTH"]
