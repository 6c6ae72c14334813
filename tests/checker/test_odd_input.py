"""Bad and odd input: a clear MG000 or a correct analysis, never a crash."""

from __future__ import annotations

from mirrorguard.checker import check_file, check_source

BUGGY = (
    "import tensorflow as tf\n"
    "strategy = tf.distribute.MirroredStrategy()\n"
    "model = tf.keras.Sequential()\n"
    "model.fit(ds)\n"
)


def write(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def codes(findings):
    return [(f.line, f.code) for f in findings]


def test_syntax_error_is_mg000_with_its_line(tmp_path):
    path = write(tmp_path, "broken.py", b"import tensorflow as tf\nwith strategy.scope()\n    pass\n")
    (finding,) = check_file(path)
    assert (finding.code, finding.line) == ("MG000", 2)
    assert "syntax error" in finding.message


def test_latin1_with_coding_cookie_is_analysed(tmp_path):
    source = "# -*- coding: latin-1 -*-\n# Modèle répliqué\n" + BUGGY
    path = write(tmp_path, "latin.py", source.encode("latin-1"))
    assert codes(check_file(path)) == [(5, "MG101")]


def test_latin1_without_cookie_says_which_byte_and_where(tmp_path):
    path = write(tmp_path, "latin.py", "x = 1\n# café\n".encode("latin-1"))
    (finding,) = check_file(path)
    assert finding.code == "MG000"
    assert finding.line == 2
    assert "0xe9" in finding.message and "utf-8" in finding.message


def test_unknown_coding_cookie(tmp_path):
    path = write(tmp_path, "odd.py", b"# -*- coding: klingon -*-\nx = 1\n")
    (finding,) = check_file(path)
    assert finding.code == "MG000" and "decode" in finding.message


def test_utf8_bom_keeps_positions(tmp_path):
    path = write(tmp_path, "bom.py", b"\xef\xbb\xbf" + BUGGY.encode())
    assert [(f.line, f.column, f.code) for f in check_file(path)] == [(3, 9, "MG101")]


def test_crlf_line_endings_keep_positions(tmp_path):
    path = write(tmp_path, "crlf.py", BUGGY.replace("\n", "\r\n").encode())
    assert [(f.line, f.column, f.code) for f in check_file(path)] == [(3, 9, "MG101")]


def test_form_feed_does_not_shift_noqa_lines():
    source = "import tensorflow as tf\n\x0c\nstrategy = tf.distribute.MirroredStrategy()\nm = tf.keras.Sequential()  # noqa\nm.fit(d)\n"
    assert check_source(source) == []


def test_nul_byte_is_mg000(tmp_path):
    path = write(tmp_path, "nul.py", b"x = 1\ny = '\x00'\n")
    (finding,) = check_file(path)
    assert (finding.code, finding.line) == ("MG000", 2)
    assert "NUL" in finding.message


def test_binary_junk_is_mg000(tmp_path):
    path = write(tmp_path, "junk.py", bytes(range(256)) * 8)
    (finding,) = check_file(path)
    assert finding.code == "MG000"


def test_empty_file_is_clean(tmp_path):
    assert check_file(write(tmp_path, "empty.py", b"")) == []


def test_missing_file_is_mg000(tmp_path):
    (finding,) = check_file(str(tmp_path / "gone.py"))
    assert finding.code == "MG000" and "cannot read" in finding.message


def test_too_deep_for_cpython_is_mg000():
    source = "strategy = 1\nx = " + "(" * 300 + "1" + ")" * 300 + "\n"
    (finding,) = check_source(source)
    assert finding.code == "MG000"


def test_deep_but_valid_nesting_is_analysed():
    body = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
    indent = ""
    for depth in range(60):
        body += f"{indent}if flag{depth}:\n"
        indent += " "
    body += f"{indent}model = tf.keras.Sequential()\n{indent}model.fit(ds)\n"
    assert codes(check_source(body)) == [(63, "MG101")]


def test_file_of_tens_of_thousands_of_lines():
    filler = "".join(f"value_{i} = {i} * 2\n" for i in range(40_000))
    source = BUGGY + filler + "late = tf.keras.Sequential()\nlate.fit(ds)\n"
    assert codes(check_source(source)) == [(3, "MG101"), (40_005, "MG101")]


def test_file_level_flake8_noqa_skips_the_file():
    assert check_source("# flake8: noqa\n" + BUGGY) == []


def test_a_folder_where_a_file_was_expected(tmp_path):
    (tmp_path / "pkg.py").mkdir()
    (finding,) = check_file(str(tmp_path / "pkg.py"))
    assert finding.code == "MG000" and "cannot read" in finding.message
