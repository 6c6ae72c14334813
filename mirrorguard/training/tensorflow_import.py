"""Import TensorFlow for the reference script: quietly, or with a clear error when it is missing."""

from __future__ import annotations

import sys

from mirrorguard.runtime.tensorflow_import import import_quietly
from mirrorguard.training.devices import SetupError

INSTALL_HINT = "install the runtime extra: pip install 'mirrorguard[tf]'"


def import_tensorflow():
    """Import and return ``tensorflow``; raise SetupError naming the extra when it is missing."""
    for module, what in (("tensorflow", "TensorFlow"), ("sklearn", "scikit-learn")):
        try:
            import_quietly(module)
        except ModuleNotFoundError as error:
            if (error.name or "").partition(".")[0] != module:
                raise  # a broken installation: TensorFlow's own message says more
            raise SetupError(f"`mirrorguard train` needs {what}, which is not installed; {INSTALL_HINT}") from None
    return sys.modules["tensorflow"]
