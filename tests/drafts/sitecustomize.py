"""Run by Python as a process starts with this folder on its path: the process's renders are drafts (``draft_renders``)."""

from draft_renders import install

install()
