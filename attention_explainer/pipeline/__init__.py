"""Rendering a scene into a published package: one job per module.

- :mod:`.folders`: where published files, caches, staging, logs and timings go;
- :mod:`.workers`: one fresh process per render, progress, failures;
- :mod:`.render_job`: one render, from settings to a published folder;
- :mod:`.encoder`: manim's movie writer, made deterministic and cheap for held frames;
- :mod:`.freshness`: the render hash and the package hash, and what a render needs;
- :mod:`.staging`: staging folders and the atomic publish;
- :mod:`.captions`: one cue list, written as WebVTT, SRT and a transcript;
- :mod:`.package`: the files around the video (sections, poster, preview, pages, manifest);
- :mod:`.timings`: how long each render took, to start the longest first.
- :mod:`.cluster`: a render as a task on a Dask cluster, its package checked and published by the client.
"""
