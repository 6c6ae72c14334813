"""Files on disk: read as Python reads them, fix, write back only what changed, atomically.

A file is rewritten only when its text changes, through a temporary file in
the same folder that is flushed, fsynced, given the old file's permissions and
then renamed over it (``os.replace``), so a crash at any point leaves the old
file or the new one, never a mix. The text is encoded back with the encoding
it was read with (PEP 263 cookie), its BOM kept; line breaks are never
translated, so CRLF files stay CRLF.
"""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass, field

from mirrorguard.checker import source as sources
from mirrorguard.checker.core import DEFAULT_SETTINGS, Settings
from mirrorguard.checker.findings import Finding
from mirrorguard.checker.rules import RULES_BY_CODE, UNREADABLE
from mirrorguard.fixer.fix import NO_FIX, FixResult, fix_source

BOM = b"\xef\xbb\xbf"
NOTEBOOK_SUFFIX = ".ipynb"


@dataclass
class FileOutcome:
    path: str
    before: bytes = b""
    after: bytes = b""
    result: FixResult | None = None
    skipped: str | None = None  # why the file was not looked at for fixes
    findings: list[Finding] = field(default_factory=list)  # for skipped files: what is left there
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.after != self.before


def encode(text: str, decoded: sources.DecodedSource) -> bytes:
    data = text.encode(decoded.encoding)
    return BOM + data if decoded.bom else data


def fix_path(path: str, settings: Settings = DEFAULT_SETTINGS, *, unsafe: bool = False,
             write: bool = True) -> FileOutcome:
    """Fix one file; with ``write`` False, work out the new content only (``--diff``)."""
    outcome = FileOutcome(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        why = f"cannot read: {exc.strerror or exc}"
        outcome.findings = [Finding(path, 1, 1, UNREADABLE.code, UNREADABLE.name, why)]
        outcome.skipped = why
        return outcome
    outcome.before = outcome.after = data
    if path.endswith(NOTEBOOK_SUFFIX):
        return _fix_notebook(outcome, data, settings, unsafe=unsafe, write=write)
    decoded = sources.decode(data)
    if isinstance(decoded, sources.Unreadable):
        outcome.findings = [Finding(path, decoded.line, decoded.column, UNREADABLE.code, UNREADABLE.name,
                                    decoded.reason)]
        outcome.skipped = "the file cannot be decoded, so it is not changed"
        return outcome
    result = fix_source(decoded.text, path, settings, unsafe=unsafe)
    outcome.result = result
    if not result.changed:
        return outcome
    try:
        outcome.after = encode(result.text, decoded)
    except UnicodeEncodeError:  # pragma: no cover - the fixer writes ASCII and names from the file
        why = f"the fixed text cannot be encoded as {decoded.encoding}"
        outcome.result = FixResult(result.original, result.original,
                                   remaining=[(f, why) for f in result.fixed] + result.remaining)
        return outcome
    if write:
        atomic_write(path, outcome.after)
        outcome.written = True
    return outcome


def _fix_notebook(outcome: FileOutcome, data: bytes, settings: Settings, *, unsafe: bool,
                  write: bool) -> FileOutcome:
    """Fix a notebook's code cells (see :mod:`.notebooks`); outputs and metadata stay as they are."""
    from mirrorguard.checker.notebooks import check_notebook_source
    from mirrorguard.fixer.notebooks import NotFixable, fix_notebook_source

    try:
        fixed = fix_notebook_source(data, outcome.path, settings, unsafe=unsafe)
    except NotFixable as exc:
        outcome.findings = check_notebook_source(data, outcome.path, settings)
        outcome.skipped = str(exc)
        return outcome
    outcome.result = fixed.result
    if not fixed.result.changed:
        return outcome
    outcome.after = fixed.after.encode("utf-8")
    if write:
        atomic_write(outcome.path, outcome.after)
        outcome.written = True
    return outcome


def _write_all(handle, data: bytes) -> None:
    """Write the new content (a seam for tests that simulate a crash mid-write)."""
    handle.write(data)


def atomic_write(path: str, data: bytes) -> None:
    """Replace ``path``'s content with ``data`` (or create it): old or new, whatever happens."""
    target = os.path.realpath(path)  # write through a symlink, keep the link
    folder = os.path.dirname(target) or "."
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:  # a new file (--output-file): the permissions open() would give it
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".mirrorguard-fix",
                                     dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            _write_all(handle, data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable, where the platform allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- what `check` reported, fixed or not --------------------------------------------------------

# What `mirrorguard fix` looks at inside folders.
FIX_SUFFIXES = (".py", ".pyi", ".ipynb")
# A finding `check` reports that the per-file fix does not see (a helper of another module, a cell
# the notebook writes to a file): the fixer cannot move what it does not see.
CROSS_FILE = ("not found again when the file is fixed on its own (a helper from another module, or a "
              "`%%writefile` cell: a file the notebook writes, which the fixer leaves as it is); "
              "move the call into `with strategy.scope():` by hand")


@dataclass
class ReportedFix:
    """The findings ``check`` reported for one file, each fixed or left with the reason."""

    fixed: list[Finding] = field(default_factory=list)
    left: list[tuple[Finding, str]] = field(default_factory=list)
    changed: bool = False
    problem: str | None = None  # a file that cannot be written: "path: why"
    before: str = ""  # the text before and after, for a diff (only when the text changed)
    after: str = ""


def _key(finding: Finding) -> tuple:
    return finding.cell, finding.line, finding.column, finding.code


def fix_reported(path: str, reported: list[Finding], settings: Settings = DEFAULT_SETTINGS, *,
                 unsafe: bool = False, write: bool = True) -> ReportedFix:
    """Fix ``path`` and account for each of the findings ``check`` reported there.

    What is left is matched to the fixed text by code and message and reported
    where it now is (without ``write``, where it is in the unchanged file).
    """
    try:
        outcome = fix_path(path, settings, unsafe=unsafe, write=write)
    except OSError as exc:
        why = f"cannot write: {exc.strerror or exc}"
        return ReportedFix(left=[(finding, why) for finding in reported], problem=f"{path}: {why}")
    done = ReportedFix(changed=outcome.changed)
    if outcome.skipped is not None:
        # Not looked at (a file the check read as flake8 does, latin-1, but that does not decode
        # as declared; a notebook that cannot be rewritten): every finding stays, for that reason.
        done.left = [(f, f.message if f.code == UNREADABLE.code else outcome.skipped) for f in reported]
        return done
    result = outcome.result
    if outcome.changed:
        done.before, done.after = result.original, result.text
    fixed_keys = {_key(f) for f in result.fixed}
    left = list(result.remaining)
    pending: dict[tuple, list] = {}
    for finding, why in left:
        pending.setdefault((finding.cell, finding.code, finding.message), []).append((finding, why))
    for finding in reported:
        if _key(finding) in fixed_keys:
            done.fixed.append(finding)
            continue
        matches = pending.get((finding.cell, finding.code, finding.message))
        if not matches:
            # What the per-file fix does not see: a rule without a fix (MG001 is found by the
            # run, not the fixer) says so; the rest is cross-file.
            rule = RULES_BY_CODE.get(finding.code)
            done.left.append((finding, NO_FIX if rule is not None and rule.fix_safety == "none" else CROSS_FILE))
        elif not write:  # nothing written: where it is in the file as it stands
            done.left.append((finding, matches.pop(0)[1]))
        else:
            done.left.append(matches.pop(0))
    return done


@dataclass
class BytesFix:
    """Standard input fixed: the bytes to write out, and what was fixed or left."""

    data: bytes
    fixed: list[Finding] = field(default_factory=list)
    left: list[tuple[Finding, str]] = field(default_factory=list)
    changed: bool = False
    before: str = ""
    after: str = ""
    skipped: str | None = None  # why nothing was looked at (a notebook, undecodable bytes)


def fix_bytes(data: bytes, name: str, settings: Settings = DEFAULT_SETTINGS, *, unsafe: bool = False) -> BytesFix:
    """Fix one file's content given as bytes (standard input); the input itself when nothing changes."""
    decoded = sources.decode(data)
    if name.endswith(NOTEBOOK_SUFFIX):
        return BytesFix(data, skipped="notebooks are fixed in place only")
    if isinstance(decoded, sources.Unreadable):
        return BytesFix(data, skipped=decoded.reason)
    result = fix_source(decoded.text, name, settings, unsafe=unsafe)
    out = encode(result.text, decoded) if result.changed else data
    return BytesFix(out, list(result.fixed), list(result.remaining), result.changed, result.original, result.text)


# -- what `check` counts as fixable ----------------------------------------------------------

def fixable_indexes(path: str, reported: list[Finding], settings: Settings = DEFAULT_SETTINGS, *,
                    safe_too: bool = True, unsafe_too: bool = False,
                    data: bytes | None = None) -> tuple[list[int], list[int]]:
    """Which of the findings ``check`` reported in ``path`` `mirrorguard fix` fixes, and which
    only `mirrorguard fix --unsafe-fixes` does (indexes into ``reported``), worked out as
    `fix --diff` works them out: nothing is written. ``data``: the content of standard input
    named ``path``, fixed as `fix -` fixes it (on its own, without cross-file summaries).
    """

    def fixed(unsafe: bool) -> set[int]:
        if data is not None:
            keys = {(f.line, f.column, f.code) for f in fix_bytes(data, path, settings, unsafe=unsafe).fixed}
            return {i for i, f in enumerate(reported) if (f.line, f.column, f.code) in keys}
        done = {id(f) for f in fix_reported(path, reported, settings, unsafe=unsafe, write=False).fixed}
        return {i for i, f in enumerate(reported) if id(f) in done}

    safe = fixed(False) if safe_too else set()
    unsafe = fixed(True) - safe if unsafe_too else set()
    return sorted(safe), sorted(unsafe)


def fixable_chunk(items: list[tuple]) -> list[tuple[list[int], list[int]]]:
    """:func:`fixable_indexes` over ``(path, reported, settings, safe_too, unsafe_too)`` items
    (a chunk of a run's files, for a worker process)."""
    return [fixable_indexes(path, reported, settings, safe_too=safe_too, unsafe_too=unsafe_too)
            for path, reported, settings, safe_too, unsafe_too in items]
