"""The scenes' drawing kit: the base scene (steps, captions, shown numbers), its pieces and the layout.

The pieces, by kind: :mod:`.text` (labels, numbers, formulas), :mod:`.tables` (number grids,
token rows), :mod:`.heatmaps` (``attention_heatmap``, ``axis_names``, ``HeadGrid``, colour
grids), :mod:`.charts` (histograms, bars, ``LineChart``), :mod:`.worked_sums`; where they go:
:mod:`.layout` (regions of the frame, ``pin``, ``keep_inside``, ``shrink_to_fit``, ``align_to_cells``).
"""

from .layout import HEADING_WIDTH
from .scene import END_HOLD, READING_SPEED, SPEECH_PAUSE, ExplainerScene, Line, Shown, Step, Voice

__all__ = ["ExplainerScene", "Step", "Line", "Shown", "Voice", "READING_SPEED", "SPEECH_PAUSE", "END_HOLD", "HEADING_WIDTH"]
