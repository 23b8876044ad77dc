"""The application around the scenes: the command line, the runner, the render pipeline and what it publishes.

Imports run one way, each layer using only the ones below it (``tests/test_architecture.py`` checks it):

- :mod:`.cli`: the click group and its commands; parses, answers, turns errors into exit codes;
- :mod:`.runner`: renders a list of jobs (tools, signals, folders, locks, freshness, local or cluster);
- :mod:`.pipeline`: one render, from settings to a published folder, one job per module;
- :mod:`.pages` and :mod:`.exports`: what is written from a published package (never manim or a scene);
- :mod:`.package`: the published folder's format (manifest, sections, captions), one reader and checker each;
- :mod:`.options`, :mod:`.voices`, :mod:`.files`: every input check, the voices, atomic writes;
- then :mod:`scenes` (the drawings), :mod:`attention_style` (colours, number formats) and
  :mod:`attention_math` (the numbers). The scenes never import this package.
"""
