"""The application around the scenes: the command line, the render pipeline and the pages it publishes.

Data flows one way: :mod:`.options` checks what the user typed, :mod:`attention_math` computes a
trace, a scene in :mod:`scenes` draws it, :mod:`.pipeline` renders, packages and publishes the
files, and :mod:`.publish` writes the pages around them. The scenes never import this package.
"""
