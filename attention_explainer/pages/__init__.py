"""The pages and files written around a render's video, from its package on disk; never manim, never a scene.

- :mod:`.write`: a render's package around its video: captions, transcript, presenter, worksheet, explorer, manifest;
- :mod:`.presenter`, :mod:`.worksheet`, :mod:`.explorer`: the pages in a render's folder;
- :mod:`.gallery`: ``media/index.html``, every published render;
- :mod:`.exercises`: the exercises on a scene's own numbers, which the worksheet prints and the questions ask;
- :mod:`.questions`: the questions on a render's numbers, each at the end of the step it tests (``questions.json``);
- :mod:`.fields`: what each trace field means, as data (``fields.json``), for the explorer;
- :mod:`.templating`: the Jinja2 environment and ``templates/``.

Each page is a Jinja2 template with autoescaping on, coloured from the render's
:class:`attention_style.Palette`, with every path relative and every piece of data inline: the
pages work opened from disk, copied to any web server, and offline (no CDN, no web font, no
request leaves the machine). The package hash covers this folder and :mod:`..package` whole.
"""
