"""A virtual environment with mirrorguard installed as pre-commit installs it.

pre-commit makes a fresh environment per hook and runs ``pip install .`` of the
hook's repository: a real install (not editable), its dependencies from the
index, bytecode written on first import. This module makes the same thing for
the benchmarks, so that what they time is what a user's hook pays:

* a wheel of this tree (``pip wheel --no-deps``), installed with its
  dependencies (flake8, libcst, pathspec) from the configured index;
* ``python -m compileall`` over site-packages, so no run pays for compiling;
* no TensorFlow (the static side never needs it; :func:`ensure` refuses an
  environment where it is importable).

The environment is kept in ``folder`` and reused; the wheel is rebuilt and
reinstalled every time, so it always holds the tree being measured.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def python_of(folder: Path) -> Path:
    return folder / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")


def _run(command: list[str], **kwargs) -> None:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def ensure(folder: Path, tree: Path = REPO) -> Path:
    """Install ``tree`` (not editable) into the environment at ``folder``; return its python."""
    python = python_of(folder)
    fresh = not python.exists()
    if fresh:
        _run([sys.executable, "-m", "venv", str(folder)])
    with tempfile.TemporaryDirectory(prefix="mirrorguard-wheel-") as wheels:
        _run([str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, str(tree)])
        (wheel,) = Path(wheels).glob("mirrorguard-*.whl")
        # A new environment takes the wheel's own dependencies (pyproject's, as pip install .
        # would); a kept one only swaps the wheel, so every run measures the same flake8.
        _run([str(python), "-m", "pip", "install", "--quiet", *(() if fresh else ("--no-deps", "--force-reinstall")),
              str(wheel)])
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    _run([str(python), "-m", "compileall", "-q", site])
    probe = ("import importlib.util, mirrorguard; "
             "print(importlib.util.find_spec('tensorflow') is None, mirrorguard.__file__)")
    no_tf, location = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True,
                                     cwd=tempfile.gettempdir(), env=clean_env()).stdout.split()
    if no_tf != "True":
        raise SystemExit(f"{folder}: TensorFlow is importable there; pre-commit's environment has none")
    if not Path(location).resolve().is_relative_to(Path(site).resolve()):
        raise SystemExit(f"{folder}: mirrorguard imports from {location}, not from its site-packages")
    return python


def clean_env() -> dict[str, str]:
    """The environment a hook runs in: bytecode cached (some sandboxes set PYTHONDONTWRITEBYTECODE,
    which makes every run recompile every module) and no PYTHONPATH pointing at a checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
