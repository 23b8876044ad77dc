"""Rendering a scene into a published package: one job per module.

- :mod:`.folders`: where published files, caches, staging, logs and timings go;
- :mod:`.workers`: one fresh process per render, progress, failures;
- :mod:`.processes`: how a render process ends (SIGTERM, Ctrl-C, its parent's death), and its environment;
- :mod:`.results`: what a finished render is and where it is published (no manim: a worker starts without it);
- :mod:`.render_job`: one render, from settings to a published folder (and a repackage without drawing);
- :mod:`.encoder`: manim's movie writer, made deterministic and cheap for held frames;
- :mod:`.products`: what drawing makes, collected from manim's output (video, clips, sections, poster, preview, trace);
- :mod:`.freshness`: the render hash and the package hash, and what a published render needs;
- :mod:`.staging`: staging folders and the atomic publish;
- :mod:`.guard`: the folders a run writes to, checked before anything is drawn;
- :mod:`.narration` and :mod:`.spoken`: the voice track and the words it says;
- :mod:`.timings`: how long each render took, to start the longest first;
- :mod:`.cluster`: a render as a task on a Dask cluster, its package checked and published by the client.

The pages and the manifest around the video are :mod:`..pages`' (written from the products alone);
the package's format is :mod:`..package`'s. Which jobs to run, and in what order, is :mod:`..runner`'s.
"""
