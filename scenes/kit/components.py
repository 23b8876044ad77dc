"""The kit's components, gathered from their modules by kind, for code that imports them from here.

New code imports from the module of its kind: :mod:`.text`, :mod:`.tables`, :mod:`.charts`,
:mod:`.heatmaps`, :mod:`.worked_sums`. (The base scene, ``scene.py``, still imports from here.)
"""

from __future__ import annotations

from .charts import Histogram, WeightBars
from .heatmaps import COLOR_GRID_LEVELS, ColorGrid, ColorScale, axis_names, heatmap_patches
from .tables import NumberGrid, TokenRow, shade_mask
from .text import SANS_TEX, elided_label, fit_label, formula, label, label_lines, number_label, word_rows
from .worked_sums import WeightedSum, WorkedSum

__all__ = [
    "SANS_TEX",
    "shade_mask",
    "axis_names",
    "heatmap_patches",
    "COLOR_GRID_LEVELS",
    "ColorGrid",
    "ColorScale",
    "label",
    "fit_label",
    "elided_label",
    "word_rows",
    "label_lines",
    "number_label",
    "formula",
    "NumberGrid",
    "TokenRow",
    "Histogram",
    "WeightBars",
    "WorkedSum",
    "WeightedSum",
]
