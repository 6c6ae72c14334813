"""Real public Python trees to measure on, assembled from installed packages.

Nothing is downloaded or committed: the sources of packages already in the
environment (Keras 3, tf-keras, scikit-learn...) are copied to a temporary
folder, so every tool sees the same files.
"""

from __future__ import annotations

import importlib.util
import os
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
}


def package_root(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def assemble(name: str, limit: int | None = None) -> Path:
    """Copy corpus ``name`` to a new temporary folder and return it."""
    target = Path(tempfile.mkdtemp(prefix=f"mirrorguard-bench-{name}-"))
    if name == "training-scripts":
        sources = [Path(__file__).resolve().parents[1] / "tests" / "corpus"]
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
