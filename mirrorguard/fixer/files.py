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
from mirrorguard.checker.rules import UNREADABLE
from mirrorguard.fixer.fix import FixResult, fix_source

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
