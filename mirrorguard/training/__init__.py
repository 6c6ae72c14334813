"""Helpers behind the reference script :mod:`mirrorguard.train`.

They hold what a user would not copy verbatim (device discovery, data loaders),
so that ``train.py`` itself reads as the pattern to copy. Nothing here imports
TensorFlow at import time.
"""
