"""Real public Python trees to measure on, copied to a temporary folder so every tool sees the same files.

Nothing is downloaded or committed:
  * ``keras``, ``tf_keras``, ``scikit-learn``: the sources of packages already installed;
  * ``keras-io``: a folder of keras-io's ``examples/`` you point at with ``$MIRRORGUARD_KERAS_IO``
    (a checkout, or ``git archive``/``git show`` of its ``examples/`` folder; most files have no strategy);
  * ``training-scripts``: training scripts that all put a strategy in play: the real public files of
    red-team round 4 (tests/redteam/labels_round4/files/) and every second hand-labelled corpus file
    with a strategy class or ``get_strategy()``, 150 files in all;
  * ``one-file``: one 37-line training script, as pre-commit hands flake8 one changed file;
  * ``one-plain-file``: one file without a strategy (benchmarks/installed.py), what most commits hand it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import tempfile
from pathlib import Path

PACKAGES = {
    # Keras's own source: big, few files with a strategy in play.
    "keras": ["keras"],
    # tf-keras: the TF2 Keras code base, with its distribution tests and utilities.
    "tf_keras": ["tf_keras"],
    # scikit-learn: a typical ML code base without TensorFlow (and many strategy="...").
    "scikit-learn": ["sklearn"],
    # The project's own hand-labelled training scripts: every file has a strategy.
    "training-scripts": [],
    "keras-io": [],
    "one-file": [],
    "one-plain-file": [],
}

REPO = Path(__file__).resolve().parents[1]
ONE_FILE = REPO / "tests" / "corpus" / "buggy" / "mg102_compile_after_scope.py"
ONE_PLAIN_FILE = REPO / "benchmarks" / "installed.py"
TRAINING_SCRIPTS = 150
_HAS_STRATEGY = re.compile(r"Strategy\(|get_strategy\(")


def training_scripts() -> list[tuple[Path, Path]]:
    """(file, the folder its copy is named relative to) for the training-scripts corpus."""
    real_root = REPO / "tests" / "redteam" / "labels_round4" / "files"
    real = [(p, real_root) for p in sorted(real_root.rglob("*.py"))
            if _HAS_STRATEGY.search(p.read_text(encoding="utf-8", errors="replace"))]
    corpus_root = REPO / "tests" / "corpus"
    labelled = [p for p in sorted(corpus_root.glob("*/*.py"))
                if p.parent.name in ("buggy", "clean")
                and _HAS_STRATEGY.search(p.read_text(encoding="utf-8", errors="replace"))]
    chosen = labelled[::2][:TRAINING_SCRIPTS - len(real)]
    return real + [(p, corpus_root) for p in chosen]


def package_root(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def assemble(name: str, limit: int | None = None) -> Path:
    """Copy corpus ``name`` to a new temporary folder and return it."""
    target = Path(tempfile.mkdtemp(prefix=f"mirrorguard-bench-{name}-"))
    if name in ("training-scripts", "one-file", "one-plain-file"):
        single = ONE_FILE if name == "one-file" else ONE_PLAIN_FILE
        chosen = training_scripts() if name == "training-scripts" else [(single, single.parent)]
        for path, root in chosen[:limit]:
            destination = target / "scripts" / path.relative_to(root)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
        return target
    if name == "keras-io":
        folder = os.environ.get("MIRRORGUARD_KERAS_IO")
        if not folder or not os.path.isdir(folder):
            raise SystemExit("corpus 'keras-io' needs $MIRRORGUARD_KERAS_IO: a folder of keras-io's examples/")
        sources = [Path(folder)]
    else:
        sources = [root for pkg in PACKAGES[name] if (root := package_root(pkg)) is not None]
        if not sources:
            raise SystemExit(f"corpus {name!r} needs the package {PACKAGES[name]} installed")
    count = 0
    for source in sources:
        for path in sorted(source.rglob("*.py")):
            if limit is not None and count >= limit:
                break
            relative = path.relative_to(source.parent)
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            count += 1
    return target


def python_files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.py"))


def remove(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    if os.path.exists(root):  # pragma: no cover
        raise RuntimeError(f"could not remove {root}")
