"""flake8 is the reference: on odd files (encodings, noqa spellings, errors only the compiler
finds) ``mirrorguard check`` reports what ``flake8 --select MG`` reports, and MG000 exactly
where flake8 reports E999 (the file does not parse, so no plugin runs)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BODY = (b"import tensorflow as tf\n"
        b"strategy = tf.distribute.MirroredStrategy()\n"
        b"model = tf.keras.Sequential([])\n")
MODEL = b"model = tf.keras.Sequential([])"


def odd_files() -> dict[str, bytes]:
    def noqa(comment: bytes) -> bytes:
        return BODY.replace(MODEL, MODEL + b"  " + comment)

    return {
        "cookie_utf8_e9.py": b"# -*- coding: utf-8 -*-\n# caf\xe9\n" + BODY,
        "no_cookie_e9.py": b"# caf\xe9\n" + BODY,
        "bom_and_latin1_cookie.py": b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + BODY,
        "unknown_cookie.py": b"# -*- coding: klingon -*-\n" + BODY,
        "latin1.py": b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + BODY,
        "crlf.py": BODY.replace(b"\n", b"\r\n"),
        "noqa_lower_case_code.py": noqa(b"# NOQA: mg101"),
        "noqa_no_space.py": noqa(b"#noqa:MG101"),
        "noqa_prefix.py": noqa(b"# noqa:MG1"),
        "noqa_other_tool_first.py": noqa(b"# noqa: E501,MG101"),
        "noqa_bare_upper.py": noqa(b"# NOQA"),
        "file_noqa_with_codes.py": b"# flake8: noqa: MG101\n" + BODY,
        "file_noqa.py": b"# flake8: NOQA\n" + BODY,
        "return_outside_function.py": BODY + b"return 1\n",
        "await_outside_function.py": BODY + b"await x\n",
        "nonlocal_after_assignment.py": BODY + b"def f():\n    x = 1\n    nonlocal x\n",
        "syntax_error.py": BODY + b"x = (\n",
        "nul_byte.py": BODY + b"x = '\0'\n",
        "unused_noqa.py": BODY + b"x = 1  # noqa: MG102\n",
    }


def test_check_reports_what_flake8_reports_on_odd_files(tmp_path):
    for name, data in odd_files().items():
        (tmp_path / name).write_bytes(data)
    names = sorted(odd_files())
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "MG,E999", *names],
                            cwd=tmp_path, capture_output=True, text=True)
    check = subprocess.run([sys.executable, "-m", "mirrorguard", "check", "-q", "--isolated", "--no-cross-file",
                            "--select", "ALL", *names], cwd=tmp_path, capture_output=True, text=True)
    assert "Traceback" not in flake8.stderr + check.stderr, flake8.stderr + check.stderr
    theirs = set()
    for line in flake8.stdout.splitlines():
        path, row, _col, rest = line.split(":", 3)
        code = rest.split()[0]
        # E999: flake8 runs no plugin on the file; check says MG000 there (the line may differ:
        # flake8 names where the tokenizer stopped).
        theirs.add((path, "MG000", "") if code == "E999" else (path, code, f"{row}:{rest}"))
    ours = set()
    for line in check.stdout.splitlines():
        path, row, _col, rest = line.split(":", 3)
        code = rest.split()[0]
        ours.add((path, "MG000", "") if code == "MG000" else (path, code, f"{row}:{rest}"))
    assert ours == theirs
    reported = {path for path, _, _ in ours}
    # The cases that once differed, by name.
    assert {"cookie_utf8_e9.py", "return_outside_function.py", "noqa_lower_case_code.py"} <= reported
    assert not {"file_noqa_with_codes.py", "file_noqa.py", "noqa_prefix.py", "noqa_bare_upper.py"} & reported
    assert ("unused_noqa.py", "MG001") in {(p, c) for p, c, _ in ours}
    assert re.search(r"warning: cookie_utf8_e9\.py:2:6: cannot decode as utf-8", check.stderr)
