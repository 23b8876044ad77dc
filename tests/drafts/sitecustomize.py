"""Run by Python as a process starts with this folder on its path: the process's renders are drafts (``draft_renders``).

It hides any other ``sitecustomize`` further along the path (Debian's installs apport's crash hook when apport is
there), in the tests' render processes only.
"""

from draft_renders import install

install()
