"""`mirrorguard fix` on notebooks: fixed cell by cell, outputs, metadata and JSON layout kept."""

from __future__ import annotations

import difflib
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from mirrorguard.checker.notebooks import check_notebook, check_notebook_source, code_cells, join_cells
from mirrorguard.cli import main
from mirrorguard.fixer.notebooks import LAYOUT_UNKNOWN, UNREADABLE_NOTEBOOK, NotFixable, fix_notebook_source
from tests.fixer.test_fix_properties import _statement

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "notebooks"
IMPORTS = "import tensorflow as tf"
STRATEGY = "strategy = tf.distribute.MirroredStrategy()"
MODEL = "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])"
COMPILE = "model.compile(optimizer='adam', loss='mse')"


def notebook(*cells, lists: bool = True, **dump) -> str:
    """A notebook in nbformat's own layout (indent 1, keys sorted, UTF-8), with outputs to keep."""
    out = []
    for number, cell in enumerate(cells):
        kind, source = cell if isinstance(cell, tuple) else ("code", cell)
        entry = {"cell_type": kind, "id": f"cell-{number}", "metadata": {"tags": [f"t{number}"]},
                 "source": source.splitlines(True) if lists else source}
        if kind == "code":
            entry["execution_count"] = number + 1
            entry["outputs"] = [{"name": "stdout", "output_type": "stream", "text": [f"r\u00e9sultat {number}\n"]}]
        out.append(entry)
    document = {"cells": out, "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
                "nbformat": 4, "nbformat_minor": 5}
    options = {"indent": 1, "sort_keys": True, "ensure_ascii": False, **dump}
    return json.dumps(document, **options) + "\n"


def write(tmp_path, text: str, name: str = "train.ipynb") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def sources(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8-sig"))["cells"]
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c["cell_type"] == "code"]


def without_sources(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell.pop("source")
    return data


def changed_lines(before: str, after: str) -> list[str]:
    diff = difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")]


# --- corpus notebooks ---------------------------------------------------------------


def with_outputs(tmp_path, name: str) -> Path:
    """A corpus notebook, given outputs, execution counts and metadata worth keeping."""
    data = json.loads((CORPUS / name).read_text(encoding="utf-8"))
    for number, cell in enumerate(data["cells"]):
        cell["metadata"] = {"collapsed": False, "tags": ["keep"]}
        if cell["cell_type"] == "code":
            cell["execution_count"] = number
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["\u2713 done\n"]},
                               {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo="},
                                "metadata": {}}]
    data["metadata"]["colab"] = {"provenance": []}
    return write(tmp_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n", name)


def test_corpus_notebook_is_fixed_in_its_cells_with_outputs_and_metadata_kept(tmp_path, capsys):
    path = with_outputs(tmp_path, "mg101_save_and_load_outside.ipynb")
    before = path.read_text(encoding="utf-8")
    kept = without_sources(path)
    assert main(["fix", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}:cell 4:1:9: MG101 fixed" in out and f"{path}:cell 6:1:24: MG104 fixed" in out
    assert "Fixed 3 findings in 1 file (1 file checked); 0 left." in out
    after = path.read_text(encoding="utf-8")
    assert without_sources(path) == kept  # outputs, counts, ids, metadata, markdown cells
    assert after == json.dumps(json.loads(after), indent=1, ensure_ascii=False) + "\n"  # same layout
    assert changed_lines(before, after) == [
        '-    "model = get_model()\\n",',
        '+    "with mirrored_strategy.scope():\\n",',
        '+    "  model = get_model()\\n",',
        '-    "restored_keras_model = tf.keras.models.load_model(keras_model_path)\\n",',
        '+    "with mirrored_strategy.scope():\\n",',
        '+    "  restored_keras_model = tf.keras.models.load_model(keras_model_path)\\n",',
    ]
    assert check_notebook(str(path)) == []
    assert sources(path)[0] == "%pip install -q -U tensorflow-datasets\n!nvidia-smi -L"  # magics untouched


@pytest.mark.parametrize("name, fixed, left", [
    ("mg102_kaggle_tpu_finetune.ipynb", {"MG103", "MG102"}, set()),
    ("mg101_transfer_learning_backbone_outside.ipynb", {"MG101"}, {"MG201"}),
])
def test_corpus_notebooks_lose_their_fixed_findings(tmp_path, name, fixed, left):
    path = tmp_path / name
    shutil.copy(CORPUS / name, path)
    before = {f.code for f in check_notebook(str(path))}
    assert before == fixed | left
    assert main(["fix", str(path)]) == (1 if left else 0)
    assert {f.code for f in check_notebook(str(path))} == left
    once = path.read_bytes()
    assert main(["fix", str(path)]) == (1 if left else 0)
    assert path.read_bytes() == once  # fixing twice is fixing once


def test_clean_corpus_notebook_is_not_written(tmp_path):
    path = tmp_path / "clean.ipynb"
    shutil.copy(CORPUS / "mg101_distributed_keras_clean.ipynb", path)
    stamp = path.stat().st_mtime_ns
    assert main(["fix", str(path)]) == 0
    assert path.read_bytes() == (CORPUS / "mg101_distributed_keras_clean.ipynb").read_bytes()
    assert path.stat().st_mtime_ns == stamp


def test_unsafe_batch_fix_in_a_cell(tmp_path):
    path = tmp_path / "nb4.ipynb"
    shutil.copy(CORPUS / "mg101_transfer_learning_backbone_outside.ipynb", path)
    assert main(["fix", "--unsafe-fixes", str(path)]) == 0
    cell = sources(path)[2]
    assert "train_ds = train_ds.shuffle(1000).batch(32 * strategy.num_replicas_in_sync).prefetch(" in cell
    assert cell.endswith("val_ds = val_ds.batch(32 * strategy.num_replicas_in_sync)")
    assert check_notebook(str(path)) == []


# --- cells -------------------------------------------------------------------------


def test_fix_that_would_move_code_between_cells_is_refused(tmp_path, capsys):
    path = write(tmp_path, notebook(f"{IMPORTS}\n{MODEL}", f"{STRATEGY}\n{COMPILE}"))
    assert main(["fix", str(path)]) == 1
    out = capsys.readouterr().out
    assert (f"{path}:cell 1:2:9: MG101 not fixed: it runs before the strategy is created at cell 2, line 1 "
            f"(`{STRATEGY}`); the fix would move code between notebook cells; move it by hand") in out
    # compile() alone inside the scope would fail in Keras 3's fit(): it stays with its model.
    assert f"{path}:cell 2:2:1: MG102 not fixed: it moves into the scope together with a finding that cannot" in out
    assert sources(path) == [f"{IMPORTS}\n{MODEL}", f"{STRATEGY}\n{COMPILE}"]
    assert [f.code for f in check_notebook(str(path))] == ["MG101", "MG102"]


def test_scope_block_in_the_next_cell_is_not_moved_into(tmp_path):
    path = write(tmp_path, notebook(f"{IMPORTS}\n{STRATEGY}", f"# build\n{MODEL}",
                                    f"with strategy.scope():\n    {COMPILE}\n"))
    assert main(["fix", str(path)]) == 0
    assert sources(path) == [
        f"{IMPORTS}\n{STRATEGY}",
        f"# build\nwith strategy.scope():\n    {MODEL}",  # wrapped where it is
        f"with strategy.scope():\n    {COMPILE}\n",  # untouched, final newline kept
    ]


def test_moves_inside_one_cell_are_made(tmp_path):
    path = write(tmp_path, notebook(IMPORTS, f"{MODEL}\n{STRATEGY}\nprint(strategy.num_replicas_in_sync)\n\n"
                                    f"with strategy.scope():\n  {COMPILE}"))
    assert main(["fix", str(path)]) == 0
    assert sources(path)[1] == (f"{STRATEGY}\nprint(strategy.num_replicas_in_sync)\n\n"
                                f"with strategy.scope():\n  {MODEL}\n  {COMPILE}")
    assert check_notebook(str(path)) == []


def test_a_summary_moves_with_its_model_in_its_cell_only(tmp_path):
    # In one cell, summary() (it only reads the model) goes into the scope with the model.
    path = write(tmp_path, notebook(IMPORTS, f"{MODEL}\nmodel.summary()\n{STRATEGY}\n"
                                    f"with strategy.scope():\n    {COMPILE}"))
    assert main(["fix", str(path)]) == 0
    assert sources(path)[1] == f"{STRATEGY}\nwith strategy.scope():\n    {MODEL}\n    model.summary()\n    {COMPILE}"
    # summary() and the scope block in the cell after the model's: nothing moves into another
    # cell, so the model gets a block of its own where it is and the summary stays.
    later = f"model.summary()\nwith strategy.scope():\n    {COMPILE}"
    path = write(tmp_path, notebook(IMPORTS, f"{STRATEGY}\n{MODEL}", later), name="other.ipynb")
    assert main(["fix", str(path)]) == 0
    assert sources(path) == [IMPORTS, f"{STRATEGY}\nwith strategy.scope():\n    {MODEL}", later]


def test_magics_come_back_exactly_and_are_not_swallowed(tmp_path, capsys):
    path = write(tmp_path, notebook(
        "%pip install -q tensorflow\n!nvidia-smi\n" + IMPORTS,
        f"{STRATEGY}\n%time x = 1\n{MODEL}\n!ls -l \\\n   /tmp\n{COMPILE}",
        "%%bash\necho $HOME",
        "%%time\nmodel3 = tf.keras.Sequential()\nmodel3.fit(x)",
        "%time model2 = tf.keras.Sequential()\nmodel2.fit(x)",  # used: a copy never used is no finding
        "files = !ls\ntf.keras?\n",
    ))
    assert main(["fix", str(path)]) == 1
    assert sources(path) == [
        "%pip install -q tensorflow\n!nvidia-smi\n" + IMPORTS,
        f"{STRATEGY}\n%time x = 1\nwith strategy.scope():\n    {MODEL}\n!ls -l \\\n   /tmp\n"
        f"with strategy.scope():\n    {COMPILE}",  # a block on each side of the shell escape
        "%%bash\necho $HOME",
        "%%time\nwith strategy.scope():\n    model3 = tf.keras.Sequential()\nmodel3.fit(x)",
        "%time model2 = tf.keras.Sequential()\nmodel2.fit(x)",
        "files = !ls\ntf.keras?\n",
    ]
    out = capsys.readouterr().out
    assert (f"{path}:cell 5:1:16: MG101 not fixed: it is on a line with IPython syntax (a magic), which the "
            "fixer keeps as it is; move it by hand") in out
    once = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == once


# --- the file ------------------------------------------------------------------------


def test_fixing_twice_is_fixing_once(tmp_path, capsys):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, f"{MODEL}\n{COMPILE}\nmodel.fit(train_ds)"))
    assert main(["fix", str(path)]) == 0
    once = path.read_bytes()
    capsys.readouterr()
    assert main(["fix", str(path)]) == 0
    assert path.read_bytes() == once
    assert "Fixed 0 findings in 0 files (1 file checked); 0 left." in capsys.readouterr().out


def test_diff_shows_the_notebook_file_and_writes_nothing(tmp_path, capsys):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, MODEL))
    data = path.read_bytes()
    assert main(["fix", "--diff", str(path)]) == 1
    captured = capsys.readouterr()
    assert path.read_bytes() == data
    assert captured.out.startswith(f"--- a/{path}\n+++ b/{path}\n@@ ")
    assert f'-    "{MODEL}"\n' in captured.out
    assert '+    "with strategy.scope():\\n",\n' in captured.out
    assert f'+    "    {MODEL}"\n' in captured.out
    assert f"{path}:cell 3:1:9: MG101 fixable" in captured.err


def test_notebook_with_a_cell_python_rejects_is_never_written(tmp_path, capsys):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, MODEL, "def broken(:\n    pass"))
    data = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == data
    out = capsys.readouterr().out
    assert f"{path}:cell 4:1:12: MG000 not fixed: syntax error" in out
    assert f"{path}:cell 3:1:9: MG101 not fixed: {UNREADABLE_NOTEBOOK}" in out


def test_invalid_json_is_never_written(tmp_path, capsys):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, MODEL)[:-40])
    data = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == data
    assert "MG000 not fixed: not a notebook: invalid JSON" in capsys.readouterr().out


@pytest.mark.parametrize("dump, lists, bom", [
    ({"indent": 2, "sort_keys": False, "ensure_ascii": True}, True, False),  # another tool's layout
    ({"indent": 1}, False, False),  # sources as strings
    ({"indent": 4}, True, True),  # a BOM
    ({"indent": None, "ensure_ascii": False}, True, False),  # one line
])
def test_json_layout_and_source_form_are_kept(tmp_path, dump, lists, bom):
    cells = (("markdown", "# Caf\u00e9 \U0001f600"), IMPORTS, STRATEGY, f"{MODEL}\n{COMPILE}")
    text = notebook(*cells, lists=lists, **dump)
    path = write(tmp_path, ("\ufeff" if bom else "") + text)
    assert main(["fix", str(path)]) == 0
    fixed_cells = cells[:3] + (f"with strategy.scope():\n    {MODEL}\n    {COMPILE}",)
    expected = notebook(*fixed_cells, lists=lists, **dump)
    assert path.read_bytes() == (b"\xef\xbb\xbf" if bom else b"") + expected.encode("utf-8")


def test_crlf_notebook_file_keeps_crlf(tmp_path):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, MODEL).replace("\n", "\r\n"))
    assert main(["fix", str(path)]) == 0
    expected = notebook(IMPORTS, STRATEGY, f"with strategy.scope():\n    {MODEL}").replace("\n", "\r\n")
    assert path.read_bytes() == expected.encode()


def test_layout_that_cannot_be_reproduced_is_not_rewritten(tmp_path, capsys):
    text = notebook(IMPORTS, STRATEGY, MODEL).replace('"nbformat": 4', '"nbformat":   4')
    path = write(tmp_path, text)
    assert main(["fix", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == text
    assert f"{path}:cell 3:1:9: MG101 not fixed: {LAYOUT_UNKNOWN}" in capsys.readouterr().out


def test_crlf_inside_a_cell_source_is_kept(tmp_path):
    path = write(tmp_path, notebook(IMPORTS, STRATEGY, f"x = 1\r\n{MODEL}\r\n", lists=False))
    assert main(["fix", str(path)]) == 0
    assert sources(path)[2] == f"x = 1\r\nwith strategy.scope():\r\n    {MODEL}\r\n"


def test_nbformat_3_notebook(tmp_path):
    cells = [{"cell_type": "code", "input": [line], "language": "python", "outputs": [], "prompt_number": i}
             for i, line in enumerate([IMPORTS, STRATEGY, MODEL])]
    text = json.dumps({"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0,
                       "worksheets": [{"cells": cells, "metadata": {}}]}, indent=1, sort_keys=True) + "\n"
    path = write(tmp_path, text)
    assert main(["fix", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["worksheets"][0]["cells"][2]["input"] == ["with strategy.scope():\n", f"    {MODEL}"]
    assert data["worksheets"][0]["cells"][2]["prompt_number"] == 2


# --- generated notebooks ------------------------------------------------------------

MAGICS = ["%time x = 1", "!nvidia-smi", "%pip install -q tensorflow", "%load_ext tensorboard"]


@hs.composite
def generated_notebooks(draw):
    units = [["import tensorflow as tf", "from tensorflow import keras"]]
    if draw(hs.booleans()):
        units.append([STRATEGY])
    for _ in range(draw(hs.integers(1, 10))):
        units.append(draw(hs.sampled_from(MAGICS)) if draw(hs.integers(0, 5)) == 0 else None)
        units[-1] = [units[-1]] if units[-1] else _statement(draw, 0)
    cells: list[list[str]] = [[]]
    for unit in units:
        if cells[-1] and draw(hs.integers(0, 2)) == 0:
            cells.append([])
        cells[-1] += unit
    return ["\n".join(cell) for cell in cells]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_notebooks(), hs.booleans())
def test_fix_is_sound_on_generated_notebooks(cells, unsafe):
    data = notebook(*cells).encode()
    try:
        fixed = fix_notebook_source(data, "gen.ipynb", unsafe=unsafe)
    except NotFixable as exc:
        assert str(exc) == UNREADABLE_NOTEBOOK  # a generated cell Python rejects
        return
    after = fixed.after.encode()
    new = code_cells(after)
    assert len(new) == len(cells)
    for old_cell, new_cell in zip(cells, new):
        magics = [line for line in old_cell.splitlines() if line.startswith(("%", "!"))]
        assert [line for line in new_cell.splitlines() if line.lstrip().startswith(("%", "!"))] == magics
        assert not join_cells([new_cell])[2], f"cell does not compile: {new_cell!r}"
    old_findings = Counter((f.code, f.message) for f in check_notebook_source(data, "gen.ipynb"))
    new_findings = Counter((f.code, f.message) for f in check_notebook_source(after, "gen.ipynb"))
    assert not new_findings - old_findings
    assert sum((old_findings - new_findings).values()) == len(fixed.result.fixed)
    assert fix_notebook_source(after, "gen.ipynb", unsafe=unsafe).after == fixed.after  # idempotent
