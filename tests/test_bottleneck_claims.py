"""The claims a second reviewer found wrong or loose in bottleneck, held to the trace.

Each expected value is worked out here from the trace's own arrays (numpy), not read from the scene's code.
"""

from __future__ import annotations

import pytest

from .helpers import built_scene, captions, shown

pytestmark = pytest.mark.xdist_group("bottleneck")  # beside bottleneck's shared build (one build per run, not two)


def test_bottleneck_dates_the_transformer_not_self_attention_and_labels_the_trained_translator():
    scene = built_scene("bottleneck")
    said = captions(scene)
    texts = [text for step in said for text in shown(scene, step)]
    # Self-attention is older than 2017 (Cheng et al. 2016, Parikh et al. 2016): whatever says 2017 names the Transformer.
    for line in [*said.values(), *texts]:
        if "2017" in line:
            assert "Transformer" in line, line
    assert "Self-attention, in 2017" not in " ".join(said.values())
    # Bahdanau et al. 2015 began attention for translation, not attention itself (Graves 2013 used soft attention).
    assert "Attention began in translation" not in said["direct-access"]
    assert "Attention for translation began with Bahdanau" in said["direct-access"]
    # The arrow into the Spanish sentence says a trained translator, not this random RNN, would write it.
    assert "translator writes" not in shown(scene, "one-vector")
    assert "a trained translator must write" in shown(scene, "one-vector")
