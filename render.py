#!/usr/bin/env python
"""Render attention explainer videos: ``python render.py scaling --quality high`` (see ``--help``)."""

from attention_explainer.starting import main

if __name__ == "__main__":
    main()
