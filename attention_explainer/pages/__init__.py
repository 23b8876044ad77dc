"""The pages published around the videos: the gallery, the step-through presenter and the worksheets.

Each is a Jinja2 template in ``templates/`` with autoescaping on, coloured from the scene theme,
with every path relative and every piece of data inline: the pages work opened from disk, copied
to any web server, and offline (no CDN, no web font, no request leaves the machine).
"""
