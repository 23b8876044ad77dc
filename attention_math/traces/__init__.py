"""Traces: every number a scene shows, computed once and frozen, one module per scene.

:mod:`.base` holds the :class:`~.base.Trace` base class and :func:`~.base.lookup`;
every other module holds one scene's frozen trace dataclass and its builder, which
calls the concept modules of :mod:`attention_math` for the maths. The mask and
cross-attention traces extend :class:`~.self_attention.AttentionTrace`, which the
self-attention and Q/K/V scenes show as it is.

The public names are exported from :mod:`attention_math` itself.
"""
