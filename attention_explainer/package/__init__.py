"""The published folder's format: its manifest, its steps (``sections.json``), its captions and its questions.

One reader and one checker for each, used by every module that reads a package: the freshness
triage, the cluster's client, the pages and the exports. Nothing here renders or draws.

- :mod:`.manifest`: ``manifest.json`` read back and every file checked against it;
- :mod:`.sections`: ``sections.json``, the steps, read back and checked;
- :mod:`.captions`: one cue list, written as WebVTT, SRT and a transcript;
- :mod:`.questions`: ``questions.json``, the questions at the end of the steps, read back, checked and marked;
- :mod:`.reader`: a published render read back whole (what the exports start from).
"""
