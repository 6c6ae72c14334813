"""Run flake8 as if mirrorguard were not installed (the benchmark's baseline).

flake8 runs every installed plugin whatever ``--select`` says, so the only
fair baseline in one environment is flake8 with the plugin filtered out of
its plugin discovery.
"""

import sys

import flake8.plugins.finder as finder

_discover = finder._find_importlib_plugins


def _without_mirrorguard():
    for plugin in _discover():
        if plugin.package != "mirrorguard":
            yield plugin


finder._find_importlib_plugins = _without_mirrorguard

from flake8.main.cli import main  # noqa: E402

sys.exit(main())
