"""flake8 adapter for mirrorguard: ``flake8 --select MG``.

Thin on purpose: flake8 hands over the file's lines, the shared checker does
the work, so flake8 and ``mirrorguard check`` report the same findings at the
same places. flake8 applies ``# noqa``, ``--select``/``--ignore`` and
``per-file-ignores`` itself.

The analysis settings ``strategy-names`` and ``model-factories`` come from the
same place as for ``mirrorguard check``: each file's nearest ``mirrorguard.toml``
or ``pyproject.toml`` ``[tool.mirrorguard]``
(:class:`~mirrorguard.checker.resolver.SettingsResolver`), overridden by these
options (command line or flake8 configuration, comma-separated):

    --mirrorguard-strategy-names   variables holding your tf.distribute strategy, or functions returning one
    --mirrorguard-model-factories  your functions that return a Keras model

A rule that raises is a bug of mirrorguard's and never passes as "no findings":
the other rules' findings are kept, a line on stderr names the rule and the file,
and flake8 itself reports the failure as a finding under the failed rule's code
(``MG000`` when the analysis itself failed), so flake8 exits 1 and the failure
shows wherever that rule's verdict was asked for. A finding, not an exception:
flake8 7.x turns an exception from a plugin's ``__init__`` into
``PluginExecutionFailed`` and one from ``run()`` into a traceback, and in both
cases (``-j 1`` or parallel) drops every file's findings and, in ``-j 1``, stops
at that file.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import replace
from typing import Iterator

from mirrorguard import __version__
from mirrorguard.checker import source as sources
from mirrorguard.checker.core import DEFAULT_OFF as CORE_DEFAULT_OFF
from mirrorguard.checker.core import RuleFailed, Settings, check_source

_OPTIONS = (
    ("--mirrorguard-strategy-names", "strategy_names",
     "comma-separated names of variables holding your tf.distribute strategy, or of your functions returning one"),
    ("--mirrorguard-model-factories", "model_factories",
     "comma-separated names of your functions that return a Keras model"),
)


# Codes of rules with ``default_enabled=False`` (one list, kept in the checker's core).
DEFAULT_OFF: tuple[str, ...] = CORE_DEFAULT_OFF


class Plugin:
    name = "mirrorguard"
    version = __version__

    resolver = None  # set by parse_options: flake8's options over each file's configuration

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
        # Opinionated rules are off unless selected, as bugbear's B9xx. The
        # list is spelled out (a test keeps it equal to the rules' own flags)
        # so that flake8's start-up does not import every rule.
        if DEFAULT_OFF:
            option_manager.extend_default_ignore(list(DEFAULT_OFF))

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        from mirrorguard.checker.config import Config, ConfigError, parse_names
        from mirrorguard.checker.resolver import SettingsResolver

        values = {}
        try:
            for flag, field_name, _ in _OPTIONS:
                raw = getattr(options, flag[2:].replace("-", "_"), None) or []
                if isinstance(raw, str):  # the default, before flake8 splits it
                    raw = [part for part in raw.split(",") if part.strip()]
                names = [part.strip() for part in raw if part.strip()]
                # Not given: the configuration file's setting applies.
                values[field_name] = parse_names(names, flag) if names else None
            cls.resolver = SettingsResolver(Config(**values), respect_noqa=False)
            # Read the configuration of the paths given now, so that a bad file
            # stops flake8 with its message rather than inside a worker.
            for path in getattr(options, "filenames", None) or ["."]:
                if path != "-":
                    cls.resolver.settings_for(path)
        except ConfigError as exc:
            # As argparse reports a bad option: the message, then exit 2.
            sys.stderr.write(f"flake8: error: {exc}\n")
            raise SystemExit(2) from None

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        text = "".join(self.lines)
        resolver = type(self).resolver
        settings = resolver.settings_for(self.filename) if resolver is not None else Settings(respect_noqa=False)
        # flake8 selects and ignores codes itself.
        settings = replace(settings, select=("MG",), ignore=())
        tree = self.tree if isinstance(self.tree, ast.Module) else None
        failed: list[tuple[str, str]] = []  # (code, what went wrong): our bugs, reported as findings
        judged = True  # did the rules look at the file at all (MG001 needs their findings)?
        try:
            findings = check_source(text, self.filename, settings, compiled=True, tree=tree)
        except RuleFailed as exc:  # one rule's bug: say which, and keep the other rules' findings
            sys.stderr.write(f"mirrorguard: {self.filename}: {exc}\n")
            findings = exc.findings
            failed = [(failure.code, failure.describe()) for failure in exc.failures]
            # A `# noqa` naming the failed rule is not unused: that rule could not say.
            settings = replace(settings, ignore=tuple(code for code, _ in failed))
        except Exception as exc:  # a checker bug must not end the user's whole flake8 run
            sys.stderr.write(f"mirrorguard: internal error on {self.filename}: {type(exc).__name__}: {exc} "
                             "(please report it; mirrorguard checked nothing in this file, flake8's other checks ran)\n")
            findings = []
            judged = False
            # No rule could judge the file: MG000's "nothing in the file can be checked".
            failed = [("MG000", f"internal error, nothing checked: {type(exc).__name__}: {exc}")]
        if judged and sources.names_mg_noqa(text):
            # MG001: flake8 applies `# noqa` itself, so the plugin sees every finding and can
            # tell which of the file's `# noqa: MGxxx` codes silence one.
            from mirrorguard.checker.rules.mg001_unused_noqa import unused_noqa

            findings = sorted(findings + unused_noqa(text, self.filename, settings, findings))
        for finding in findings:
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)
        if failed:
            # flake8 reports only what a plugin yields: a bug of ours printed on stderr alone
            # would leave flake8 saying "no findings" and exiting 0. Each failure is a finding
            # under the failed rule's own code, so it shows (and fails the run) wherever that
            # rule's verdict was asked for, and the run goes on to the other files (an
            # exception would make flake8 drop every file's findings). It stands on the
            # first line no `# noqa` comment could silence.
            line = _first_line_without_noqa(self.lines)
            rest = "the other rules still reported" if judged else "no rule checked this file"
            for code, what in failed:
                yield line, 0, (f"{code} {what} (a bug of mirrorguard, not of this file: please report it; "
                                f"{rest})"), type(self)


def _first_line_without_noqa(lines: list[str]) -> int:
    for number, line in enumerate(lines, start=1):
        if "noqa" not in line.lower():
            return number
    return 1
