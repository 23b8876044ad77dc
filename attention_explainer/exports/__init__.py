"""Exports of a published render for a course: a SCORM 1.2 zip for an LMS, a PowerPoint deck for class, a GIFT quiz bank.

All three are built from the render's package alone, read back and checked against its manifest first
(:func:`..package.reader.read_package`), and written beside it in one rename
(``media/scaling/high/scaling-scorm.zip``, ``scaling.pptx``). A re-render replaces the whole
folder, so an export never outlives its render. Exports never load manim or a scene.

- :mod:`.export`: which export, and the atomic write beside the package;
- :mod:`.scorm`: the SCORM 1.2 zip (a player page, the video, captions, a manifest);
- :mod:`.deck`: the slide deck, one slide per step with its clip and its words in the notes;
- :mod:`.gift`: the render's questions in Moodle's GIFT format, for a question bank.
"""
