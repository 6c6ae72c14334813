"""Which settings apply to each file: flags over the file's nearest configuration file.

As ruff does it: every checked file takes the configuration file nearest above
it (``mirrorguard.toml``, else a ``pyproject.toml`` with ``[tool.mirrorguard]``),
so checking ``A/x.py`` and ``B/y.py`` together uses ``A``'s settings for the one
and ``B``'s for the other. ``--config FILE`` makes one file apply everywhere;
``--isolated`` reads none. Flags override what a file says, key by key.
``mirrorguard check``, ``mirrorguard fix`` and the flake8 plugin all ask this
one class, so they agree on what is reported.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import replace
from typing import Iterable, Sequence

from mirrorguard.checker.config import Config, ConfigError, config_in, load_config, relative_to
from mirrorguard.checker.core import DEFAULT_OFF, Settings


class SettingsResolver:
    """Settings and exclusions for each path of a run.

    Args:
        flags: the settings given on the command line, as a :class:`Config`
            without a path (None fields: not given). Defaults to none.
        config: a configuration file to use for every path instead of looking
            for one. Defaults to `None`.
        isolated: read no configuration file. Defaults to `False`.
        extend_exclude: globs excluded on top of the configuration's `exclude`.
            Defaults to `()`.
        respect_noqa: whether ``# noqa`` comments silence findings (the flake8
            plugin leaves them to flake8). Defaults to `True`.
        extend_ignore: codes or prefixes ignored on top of the configuration's
            `ignore` (``--extend-ignore``). Defaults to `()`.

    Raises ConfigError (lazily, when a path first needs it) for a bad file.
    """

    def __init__(self, flags: Config = Config(), *, config: str | None = None, isolated: bool = False,
                 extend_exclude: Iterable[str] = (), respect_noqa: bool = True,
                 extend_ignore: Iterable[str] = ()) -> None:
        self.flags = flags
        self.extend_ignore = tuple(extend_ignore)
        self.isolated = isolated
        self.extend_exclude = tuple(extend_exclude)
        self.respect_noqa = respect_noqa
        self._cwd = os.getcwd()
        self._fixed: Config | None = None
        if config is not None:
            if not os.path.isfile(config):
                raise ConfigError(f"--config {config}: no such file")
            self._fixed = load_config(config)
        self._folders: dict[str, Config] = {}
        self._loaded: dict[str, Config] = {}
        self._settings: dict[str | None, Settings] = {}
        self._with_ignores: dict[tuple, Settings] = {}

    # -- which file ----------------------------------------------------------

    def config_for(self, path: str) -> Config:
        """The configuration that applies to ``path`` (a file or a folder)."""
        if self.isolated:
            return Config()
        if self._fixed is not None:
            return self._fixed
        absolute = os.path.abspath(path)
        folder = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        return self._folder_config(folder)

    def _folder_config(self, folder: str) -> Config:
        found = self._folders.get(folder)
        if found is not None:
            return found
        candidate = config_in(folder)
        if candidate is not None:
            if candidate not in self._loaded:
                self._loaded[candidate] = load_config(candidate)
            found = self._loaded[candidate]
        else:
            parent = os.path.dirname(folder)
            found = Config() if parent == folder else self._folder_config(parent)
        self._folders[folder] = found
        return found

    # -- what it says --------------------------------------------------------

    def settings_for(self, path: str) -> Settings:
        """What to report in ``path``: flags over its configuration, its per-file ignores applied."""
        config = self.config_for(path)
        settings = self._settings.get(config.path)
        if settings is None:
            settings = self._settings[config.path] = self._merge(config)
        codes = self._per_file_codes(path, config)
        if not codes:
            return settings
        key = (config.path, codes)
        if key not in self._with_ignores:
            self._with_ignores[key] = replace(settings, ignore=settings.ignore + codes)
        return self._with_ignores[key]

    def _merge(self, config: Config) -> Settings:
        flags = self.flags
        extend = config.extend_select + flags.extend_select
        ignore = (flags.ignore if flags.ignore is not None else (config.ignore or ())) + self.extend_ignore
        if flags.select:
            select = flags.select
        elif config.select:
            select = config.select
        else:
            # Every rule but the opinionated ones, which only extend-select (or
            # an explicit select) turns on.
            select = ("MG",)
            # (Their codes as core lists them: importing the rules here would load the semantic
            # model at start-up for every run, files without a strategy included.)
            ignore += tuple(code for code in DEFAULT_OFF if not any(code.startswith(p) for p in extend))
        strategies = flags.strategy_names if flags.strategy_names is not None else config.strategy_names
        factories = flags.model_factories if flags.model_factories is not None else config.model_factories
        return Settings(select=select + extend, ignore=ignore, extra_strategy_names=strategies or (),
                        extra_model_factories=factories or (), respect_noqa=self.respect_noqa)

    def _per_file_codes(self, path: str, config: Config) -> tuple[str, ...]:
        # Globs from the command line are relative to the current folder (as
        # flake8's), those of a file to that file's folder.
        if self.flags.per_file_ignores is not None:
            pairs, root = self.flags.per_file_ignores, self._cwd
        else:
            pairs, root = config.per_file_ignores or (), config.root
        if not pairs:
            return ()
        relative = relative_to(path, root)
        name = relative.rsplit("/", 1)[-1]
        return tuple(
            code
            for pattern, codes in pairs
            if fnmatch.fnmatch(relative, pattern) or ("/" not in pattern and fnmatch.fnmatch(name, pattern))
            for code in codes
        )

    # -- which files ---------------------------------------------------------

    def excluded(self, path: str) -> bool:
        """Whether ``exclude`` (the flags', else the configuration's) or ``extend-exclude`` matches ``path``."""
        from mirrorguard.checker.files import matches

        config = self.config_for(os.path.dirname(os.path.abspath(path)) or ".")
        patterns = self.exclude_patterns(path)
        return bool(patterns) and matches(path, patterns, config.root)

    def exclude_patterns(self, path: str) -> tuple[str, ...]:
        """The ``exclude`` globs that apply to ``path`` (flags', else its configuration's, and ``extend-exclude``)."""
        config = self.config_for(os.path.dirname(os.path.abspath(path)) or ".")
        patterns = self.flags.exclude if self.flags.exclude is not None else (config.exclude or ())
        return tuple(patterns) + self.extend_exclude

    def tree_root(self, paths: Sequence[str]) -> str:
        """Where imported modules may come from: the configuration's folder of
        the paths' common folder, else that folder, widened to the current
        folder when inside it."""
        cwd = self._cwd
        try:
            common = os.path.commonpath([os.path.abspath(p) for p in paths] or [cwd])
        except ValueError:
            return cwd
        if not os.path.isdir(common):
            common = os.path.dirname(common)
        root = self.config_for(common).root
        if root is not None:
            return root
        return cwd if common == cwd or common.startswith(cwd.rstrip(os.sep) + os.sep) else common
