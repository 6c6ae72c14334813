"""``python -m mirrorguard.cli``: the same as the ``mirrorguard`` command."""

import sys

from mirrorguard.cli import main

sys.exit(main())
