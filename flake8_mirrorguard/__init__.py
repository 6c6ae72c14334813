"""flake8 adapter for mirrorguard: ``flake8 --select MG``.

Thin on purpose: flake8 hands over the file's lines, the shared checker does
the work, so flake8 and ``mirrorguard check`` report the same findings at the
same places. flake8 applies ``# noqa``, ``--select``/``--ignore`` and
``per-file-ignores`` itself.

Options (command line or flake8 configuration, comma-separated), the same
settings as ``strategy-names``/``model-factories`` in ``[tool.mirrorguard]``:

    --mirrorguard-strategy-names   your functions that return a tf.distribute strategy
    --mirrorguard-model-factories  your functions that return a Keras model
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import replace
from typing import Iterator

from mirrorguard import __version__
from mirrorguard.checker.core import Settings, check_source

_OPTIONS = (
    ("--mirrorguard-strategy-names", "extra_strategy_names",
     "comma-separated names of your functions that return a tf.distribute strategy"),
    ("--mirrorguard-model-factories", "extra_model_factories",
     "comma-separated names of your functions that return a Keras model"),
)


class Plugin:
    name = "mirrorguard"
    version = __version__

    settings = Settings(respect_noqa=False)

    # flake8 chooses the plugin type from these parameter names. The checker
    # analyses flake8's own ``tree``: nothing is parsed twice.
    def __init__(self, tree: ast.AST, lines: list[str], filename: str) -> None:
        self.tree = tree
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, option_manager) -> None:
        for flag, _, help_text in _OPTIONS:
            option_manager.add_option(
                flag, default="", parse_from_config=True, comma_separated_list=True,
                metavar="NAMES", help=help_text,
            )
        from mirrorguard.checker.rules import ALL_RULES

        # Opinionated rules are off unless selected, as bugbear's B9xx.
        off = [rule.code for rule in ALL_RULES if not rule.default_enabled]
        if off:
            option_manager.extend_default_ignore(off)

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        from mirrorguard.checker.config import ConfigError, parse_names

        values = {}
        for flag, field_name, _ in _OPTIONS:
            raw = getattr(options, flag[2:].replace("-", "_"), None) or []
            if isinstance(raw, str):  # the default, before flake8 splits it
                raw = [part for part in raw.split(",") if part.strip()]
            try:
                values[field_name] = parse_names([part.strip() for part in raw if part.strip()], flag)
            except ConfigError as exc:
                # As argparse reports a bad option: the message, then exit 2.
                sys.stderr.write(f"flake8: error: {exc}\n")
                raise SystemExit(2) from None
        cls.settings = replace(Settings(respect_noqa=False), **values)

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        tree = self.tree if isinstance(self.tree, ast.Module) else None
        for finding in check_source(text, self.filename, self.settings, compiled=True, tree=tree):
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)
