"""The whole Python standard library: no crash, and no finding but MG000 on
files CPython itself rejects (lib2to3's Python 2 fixtures, badsyntax tests...)."""

from __future__ import annotations

import sysconfig
import warnings
from pathlib import Path

from mirrorguard.checker import check_file


def _rejected_by_cpython(path: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return True
    return False


def test_standard_library_has_no_findings_but_mg000_on_rejected_files():
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(p for p in stdlib.rglob("*.py") if "site-packages" not in p.parts)
    assert len(files) > 1000
    unexpected = []
    unreadable = []
    for path in files:
        for finding in check_file(str(path)):
            if finding.code == "MG000":
                unreadable.append(path)
            else:
                unexpected.append(finding)
    assert unexpected == []
    assert sorted(set(unreadable)) == [p for p in files if _rejected_by_cpython(p)]
