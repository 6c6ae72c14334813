"""The whole Python standard library: no crash, and no finding but MG000 on
files CPython cannot decode or parse (lib2to3's Python 2 fixtures, badsyntax tests...).
Errors the compiler finds only after parsing (badsyntax_future*) are no MG000: flake8 runs
its plugins on such files, and the checker judges them as flake8 does (issue 19, item 4)."""

from __future__ import annotations

import ast
import sysconfig
import warnings
from pathlib import Path

from mirrorguard.checker import check_file


def _rejected_by_cpython(path: Path) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(path.read_bytes(), str(path), "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
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
