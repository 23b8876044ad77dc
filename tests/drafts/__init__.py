"""The tests' draft renders (:mod:`.draft_renders`); the folder goes on a render process's ``PYTHONPATH``."""
