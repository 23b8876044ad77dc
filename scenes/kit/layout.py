"""Where things go on the frame: its usable edges and named regions, in manim units.

The frame is 14.2 units wide (x from -7.1 to 7.1) and 8 tall (y from -4 to 4). Scenes place
and size things against these names instead of repeating coordinates.
"""

from __future__ import annotations

__all__ = ["LEFT_EDGE", "RIGHT_EDGE", "CONTENT_WIDTH", "HEADING_WIDTH", "NOTE_WIDTH", "CAPTION_WIDTH"]

RIGHT_EDGE = 6.9
"""The furthest right anything may reach (the frame ends at 7.1)."""

LEFT_EDGE = -6.95
"""The furthest left anything may reach: row labels may use a little more of the left margin."""

CONTENT_WIDTH = RIGHT_EDGE - LEFT_EDGE
"""The width between the edges."""

HEADING_WIDTH = 13.3
"""Widest a heading gets (the frame less its margins); a longer one shrinks to it."""

NOTE_WIDTH = 13.0
"""Widest a note line at the bottom of the frame gets."""

CAPTION_WIDTH = 12.5
"""Widest a line of explanation at the bottom of the frame gets."""
