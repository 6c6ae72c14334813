"""The static checker: a semantic model on Python's own `ast`, TensorFlow-free.

``check_source(text, path)`` and ``check_file(path)`` return :class:`Finding`
lists; the command line and the flake8 adapter are thin layers over them.
"""

from mirrorguard.checker.core import DEFAULT_SETTINGS, Settings, check_file, check_source
from mirrorguard.checker.findings import Finding

__all__ = ["DEFAULT_SETTINGS", "Finding", "Settings", "check_file", "check_source"]
