"""Configuration files and their settings: ``[tool.mirrorguard]`` in
``pyproject.toml``, or the same keys at the top level of ``mirrorguard.toml``.

Which file applies to which checked file is the resolver's business
(:mod:`mirrorguard.checker.resolver`); this module reads and validates one
file, and the command-line values of the same settings.

    [tool.mirrorguard]
    select = ["MG"]                      # codes or prefixes to report
    ignore = ["MG201"]                   # codes or prefixes not to report
    extend-select = ["MG2"]              # added to select
    exclude = ["notebooks/scratch/*"]    # globs, matched against paths and folder names
    per-file-ignores = {"tests/*" = ["MG1"]}
    strategy-names = ["make_strategy"]   # variables or helpers that hold or return a tf.distribute strategy
    model-factories = ["create_backbone"]  # helpers that return a Keras model

Every problem (unknown key, wrong type, unknown code) is a :class:`ConfigError`
whose message names the file, the key and the bad value.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Iterable


def _tomllib():
    """The TOML reader, imported when a file first needs reading (most runs read none), or None."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:  # reading configuration needs it; checking without does not
            return None
    return tomllib


_CODE = re.compile(r"^MG[0-9]{0,3}$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
PYPROJECT = "pyproject.toml"
OWN_FILE = "mirrorguard.toml"
# Looked for in this order in each folder: the tool's own file wins, as ruff's does.
CONFIG_FILES = (OWN_FILE, PYPROJECT)
KEYS = ("select", "ignore", "extend-select", "exclude", "per-file-ignores",
        "strategy-names", "model-factories")


class ConfigError(ValueError):
    """A bad setting, in a file, on the command line or in a ``# noqa``; the run stops with exit 2."""


def known_codes() -> tuple[str, ...]:
    from mirrorguard.checker.rules import CODES  # without loading the rules themselves

    return CODES


def unknown_code_message(code: str, where: str) -> str | None:
    """Why ``code`` (upper case, ``MG`` form) selects no rule, with a did-you-mean; None if it selects one."""
    codes = known_codes()
    if any(known.startswith(code) for known in codes):
        return None
    close = _one_slip_away(code, codes)
    hint = f"did you mean {close}? " if close else ""
    return f"unknown code {code!r} in {where}: no rule has this code or prefix; {hint}`mirrorguard rules` lists them"


def _one_slip_away(code: str, codes: Iterable[str]) -> str | None:
    """The one known code that ``code`` is a single typo of (a character wrong, missing
    or extra, or two swapped); else None. ``MG9`` is no typo of any code: MG301 is no
    better a guess for it than MG101, so it gets no suggestion."""

    def one_slip(a: str, b: str) -> bool:
        if len(a) == len(b):
            diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
            return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                      and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
        if abs(len(a) - len(b)) != 1:
            return False
        short, long = (a, b) if len(a) < len(b) else (b, a)
        return any(long[:i] + long[i + 1:] == short for i in range(len(long)))

    candidates = [known for known in codes if one_slip(code, known)]
    return candidates[0] if len(candidates) == 1 else None


def parse_codes(values: Iterable[Any], where: str) -> tuple[str, ...]:
    """``["MG101", "mg2", "ALL"]`` -> ("MG101", "MG2", "MG").

    Rejects what could never be a code (``E501``) and codes or prefixes no
    rule has (``MG999``, ``MG9``): a typo must not turn the checker off.
    """
    codes = []
    for value in values:
        if not isinstance(value, str):
            raise ConfigError(f"invalid value {value!r} in {where}: expected a code such as MG101, as a string")
        code = value.strip().upper()
        if code != "ALL" and not _CODE.match(code):
            raise ConfigError(
                f"invalid code {value!r} in {where}: expected a code or prefix such as MG101 or MG1"
            )
        code = "MG" if code == "ALL" else code
        problem = unknown_code_message(code, where)
        if problem is not None:
            raise ConfigError(problem)
        codes.append(code)
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


def parse_per_file_ignores(values: Iterable[str], where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """flake8's spelling: ``tests/*:MG1,MG2 scratch/*.py:MG201`` (pairs split by blanks or commas)."""
    pairs: list[tuple[str, list[str]]] = []
    for value in values:
        for token in re.split(r"[\s,]+", value.strip()):
            if not token:
                continue
            pattern, colon, codes = token.rpartition(":")
            if colon and pattern:
                pairs.append((pattern, [codes] if codes else []))
            elif pairs and not colon:  # a further code after a comma: `tests/*:MG1,MG2`
                pairs[-1][1].append(token)
            else:
                raise ConfigError(f"invalid value {token!r} in {where}: expected GLOB:CODES, "
                                  "such as tests/*:MG1")
    return tuple((pattern, parse_codes(codes, f"{pattern!r} of {where}")) for pattern, codes in pairs)


@dataclass(frozen=True)
class Config:
    """Settings read from one configuration file, or given as flags (None: not set there)."""

    path: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    strategy_names: tuple[str, ...] | None = None
    model_factories: tuple[str, ...] | None = None

    @property
    def root(self) -> str | None:
        return os.path.dirname(os.path.abspath(self.path)) if self.path else None


def config_in(folder: str) -> str | None:
    """The configuration file of ``folder`` itself, if it has one for mirrorguard."""
    for name in CONFIG_FILES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and (name != PYPROJECT or _has_table(candidate)):
            return candidate
    return None


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
    tomllib = _tomllib()
    if tomllib is None:  # pragma: no cover - Python 3.10 without tomli
        raise ConfigError(f"{path}: reading TOML on Python 3.10 needs `tomli` (pip install tomli)")
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def load_config(path: str) -> Config:
    """Read and validate one configuration file.

    A ``pyproject.toml`` must have a ``[tool.mirrorguard]`` table; any other
    file (``mirrorguard.toml``, a ``--config`` file) holds the keys at its top
    level, or in a ``[tool.mirrorguard]`` table. A file with nothing for
    mirrorguard is an error: it would silently check with the defaults.
    """
    document = _read_toml(path)
    tool = document.get("tool", {})
    table = tool.get("mirrorguard") if isinstance(tool, dict) else None
    if table is not None:
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.mirrorguard] must be a table, got {table!r}")
        return config_from_table(table, path, "[tool.mirrorguard]")
    if os.path.basename(path) == PYPROJECT:
        raise ConfigError(f"{path}: no [tool.mirrorguard] table: nothing in this file configures mirrorguard")
    meant = [key for key in document
             if key in KEYS or key.replace("_", "-") in KEYS or _close_matches(key, KEYS)]
    if not meant and os.path.basename(path) != OWN_FILE:
        raise ConfigError(f"{path}: nothing in this file configures mirrorguard; expected keys such as "
                          "select = [\"MG1\"] at the top level or in [tool.mirrorguard]")
    return config_from_table(document, path, "the top level")


def config_from_table(table: dict, path: str, section: str = "[tool.mirrorguard]") -> Config:
    unknown = [key for key in table if key not in KEYS]
    if unknown:
        suggestions = {key.replace("_", "-") for key in unknown} & set(KEYS)
        suggestions |= set(_close_matches(unknown[0], KEYS))
        hint = f" (did you mean {', '.join(sorted(suggestions))}?)" if suggestions else ""
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r} in {section}{hint}; known keys: {', '.join(KEYS)}"
        )

    def where(key: str) -> str:
        return f"`{key}` in {section} of {path}"

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

    per_file_ignores = None
    if "per-file-ignores" in table:
        per_file = table["per-file-ignores"]
        if not isinstance(per_file, dict):
            raise ConfigError(f"invalid value {per_file!r} for {where('per-file-ignores')}: expected a table "
                              "of glob = [codes], such as {\"tests/*\" = [\"MG1\"]}")
        pairs = []
        for pattern, codes in per_file.items():
            if isinstance(codes, str):
                codes = split_list(codes)
            if not isinstance(codes, list):
                raise ConfigError(f"invalid value {codes!r} for {pattern!r} in {where('per-file-ignores')}: "
                                  "expected a list of codes")
            pairs.append((pattern, parse_codes(codes, f"{pattern!r} of {where('per-file-ignores')}")))
        per_file_ignores = tuple(pairs)

    return Config(
        path=path,
        select=optional("select", parse_codes),
        ignore=optional("ignore", parse_codes),
        extend_select=optional("extend-select", parse_codes) or (),
        exclude=optional("exclude", globs),
        per_file_ignores=per_file_ignores,
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


def _close_matches(word: str, choices) -> list[str]:
    import difflib  # only a misspelt setting needs it

    return difflib.get_close_matches(word, choices, n=1)
