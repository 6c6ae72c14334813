"""``[tool.mirrorguard]`` in ``pyproject.toml``, merged with command-line flags.

The file is found by walking up from the checked paths (from their common
folder) to the first ``pyproject.toml`` that has a ``[tool.mirrorguard]``
table, as ruff does. Paths in ``exclude`` and ``per-file-ignores`` are
relative to that file's folder. Command-line flags override the file.

    [tool.mirrorguard]
    select = ["MG"]                      # codes or prefixes to report
    ignore = ["MG201"]                   # codes or prefixes not to report
    extend-select = ["MG9"]              # added to select (opinionated rules)
    exclude = ["notebooks/scratch/*"]    # globs, matched against paths and folder names
    per-file-ignores = {"tests/*" = ["MG1"]}
    strategy-names = ["make_strategy"]   # helpers that return a tf.distribute strategy
    model-factories = ["create_backbone"]  # helpers that return a Keras model

Every problem (unknown key, wrong type, bad code) is a :class:`ConfigError`
whose message names the file, the key and the bad value.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Iterable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    try:
        import tomli as tomllib
    except ImportError:  # reading configuration needs it; checking without does not
        tomllib = None

_CODE = re.compile(r"^MG[0-9]{0,3}$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
CONFIG_FILE = "pyproject.toml"
KEYS = ("select", "ignore", "extend-select", "exclude", "per-file-ignores",
        "strategy-names", "model-factories")


class ConfigError(ValueError):
    """A bad setting, in the file or on the command line; the run stops with exit 2."""


def parse_codes(values: Iterable[Any], where: str) -> tuple[str, ...]:
    """``["MG101", "mg2", "ALL"]`` -> ("MG101", "MG2", "MG"); rejects what could never match a code."""
    codes = []
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"invalid value {value!r} in {where}: expected a code such as MG101, as a string")
        code = value.strip().upper()
        if code != "ALL" and not _CODE.match(code):
            raise ConfigError(
                f"invalid code {value!r} in {where}: expected a code or prefix such as MG101 or MG1"
            )
        codes.append("MG" if code == "ALL" else code)
    return tuple(codes)


def split_list(value: str) -> list[str]:
    """A comma-separated command-line list, blanks dropped."""
    return [part.strip() for part in value.split(",") if part.strip()]


def parse_names(values: Iterable[Any], where: str) -> tuple[str, ...]:
    """Python names or dotted names (``make_strategy``, ``utils.get_strategy``)."""
    names = []
    for value in values:
        if not isinstance(value, str) or not _NAME.match(value.strip()):
            raise ConfigError(
                f"invalid name {value!r} in {where}: expected a Python name such as "
                "`make_strategy` or a dotted name such as `utils.make_strategy`"
            )
        names.append(value.strip())
    return tuple(names)


@dataclass(frozen=True)
class Config:
    """Settings read from one ``[tool.mirrorguard]`` table (None: not set there)."""

    path: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    strategy_names: tuple[str, ...] | None = None
    model_factories: tuple[str, ...] | None = None

    @property
    def root(self) -> str | None:
        return os.path.dirname(os.path.abspath(self.path)) if self.path else None


def find_config(paths: Iterable[str]) -> str | None:
    """The nearest ``pyproject.toml`` with a ``[tool.mirrorguard]`` table above the paths' common folder."""
    absolute = [os.path.abspath(p) for p in paths] or [os.getcwd()]
    try:
        start = os.path.commonpath(absolute)
    except ValueError:  # different drives
        start = os.getcwd()
    if not os.path.isdir(start):
        start = os.path.dirname(start)
    folder = start
    while True:
        candidate = os.path.join(folder, CONFIG_FILE)
        if os.path.isfile(candidate) and _has_table(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_table(path: str) -> bool:
    """Whether ``path`` has a ``[tool.mirrorguard]`` table (a quick byte search first)."""
    try:
        with open(path, "rb") as handle:
            if b"mirrorguard" not in handle.read():
                return False
    except OSError:
        return False
    document = _read_toml(path)
    tool = document.get("tool")
    return isinstance(tool, dict) and "mirrorguard" in tool


def _read_toml(path: str) -> dict:
    if tomllib is None:  # pragma: no cover - Python 3.10 without tomli
        raise ConfigError(f"{path}: reading pyproject.toml on Python 3.10 needs `tomli` (pip install tomli)")
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def load_config(path: str) -> Config:
    """Read and validate ``[tool.mirrorguard]`` from ``path``."""
    document = _read_toml(path)
    tool = document.get("tool", {})
    table = tool.get("mirrorguard") if isinstance(tool, dict) else None
    if table is None:
        return Config(path=path)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.mirrorguard] must be a table, got {table!r}")
    return config_from_table(table, path)


def config_from_table(table: dict, path: str) -> Config:
    unknown = [key for key in table if key not in KEYS]
    if unknown:
        suggestions = {key.replace("_", "-") for key in unknown} & set(KEYS)
        hint = f" (did you mean {', '.join(sorted(suggestions))}?)" if suggestions else ""
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r} in [tool.mirrorguard]{hint}; known keys: {', '.join(KEYS)}"
        )

    def where(key: str) -> str:
        return f"`{key}` in [tool.mirrorguard] of {path}"

    def strings(key: str) -> list[Any] | None:
        if key not in table:
            return None
        value = table[key]
        if isinstance(value, str):
            raise ConfigError(f"invalid value {value!r} for {where(key)}: expected a list of strings, "
                              f"such as [{value!r}]")
        if not isinstance(value, list):
            raise ConfigError(f"invalid value {value!r} for {where(key)}: expected a list of strings")
        return value

    def optional(key: str, parse) -> tuple[str, ...] | None:
        value = strings(key)
        return None if value is None else parse(value, where(key))

    def globs(values: list[Any], place: str) -> tuple[str, ...]:
        for value in values:
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"invalid pattern {value!r} in {place}: expected a glob such as \"build/*\"")
        return tuple(values)

    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"invalid value {per_file!r} for {where('per-file-ignores')}: expected a table "
                          "of glob = [codes], such as {\"tests/*\" = [\"MG1\"]}")
    per_file_ignores = []
    for pattern, codes in per_file.items():
        if isinstance(codes, str):
            codes = split_list(codes)
        if not isinstance(codes, list):
            raise ConfigError(f"invalid value {codes!r} for {pattern!r} in {where('per-file-ignores')}: "
                              "expected a list of codes")
        per_file_ignores.append((pattern, parse_codes(codes, f"{pattern!r} of {where('per-file-ignores')}")))

    return Config(
        path=path,
        select=optional("select", parse_codes),
        ignore=optional("ignore", parse_codes),
        extend_select=optional("extend-select", parse_codes) or (),
        exclude=optional("exclude", globs),
        per_file_ignores=tuple(per_file_ignores),
        strategy_names=optional("strategy-names", parse_names),
        model_factories=optional("model-factories", parse_names),
    )


def relative_to(path: str, root: str | None) -> str:
    """``path`` as seen from ``root`` (forward slashes), for matching config globs."""
    if root is None:
        return path.replace(os.sep, "/")
    try:
        relative = os.path.relpath(os.path.abspath(path), root)
    except ValueError:
        return path.replace(os.sep, "/")
    return relative.replace(os.sep, "/")
