"""The examples in docs/usage.md and docs/fix.md, run as written.

The docs mark their examples for this runner with HTML comments (invisible on GitHub):

- ``<!-- file: NAME -->`` before a fenced block: the block is the content of NAME;
- ``<!-- copy: REPO/PATH as NAME -->``: a file of this repository, copied in;
- ``<!-- reset -->``: start again from an empty folder.

Every ``console`` block is run: each ``$ command`` line runs in the folder so
far (``mirrorguard`` and ``flake8`` from this interpreter's environment), and
its output (stdout then stderr) must be the lines under it, exactly; the
folder's absolute path shows as ``/repo``. Commands in YAML blocks (GitHub
workflow ``run:`` steps) run too and must not be usage errors; the hook ids
a pre-commit YAML block uses must exist.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("docs/usage.md", "docs/fix.md")
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)
MARK = re.compile(r"<!-- (?P<kind>file|copy|reset)(?::\s*(?P<arg>.*?))?\s*-->")


def steps(text: str):
    """("file", name, body), ("copy", source, name), ("reset",), ("console", body), ("yaml", body) in order."""
    position = 0
    pending_file = None
    events = []
    tokens = sorted([(m.start(), "mark", m) for m in MARK.finditer(text)]
                    + [(m.start(), "fence", m) for m in FENCE.finditer(text)], key=lambda t: t[0])
    for _, kind, match in tokens:
        if match.start() < position:
            continue  # a mark quoted inside a block
        position = match.end()
        if kind == "mark":
            if match["kind"] == "file":
                pending_file = match["arg"]
            elif match["kind"] == "copy":
                source, _, name = match["arg"].partition(" as ")
                events.append(("copy", source.strip(), name.strip()))
            else:
                events.append(("reset",))
            continue
        info = match["info"].strip()
        if pending_file is not None:
            events.append(("file", pending_file, match["body"]))
            pending_file = None
        elif info == "console":
            events.append(("console", match["body"]))
        elif info == "yaml":
            events.append(("yaml", match["body"]))
    return events


def environment(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "GITHUB_WORKSPACE")}
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env["COLUMNS"] = "100"
    return env


def run_command(command: str, folder: Path) -> tuple[int, str]:
    result = subprocess.run(["bash", "-c", command], cwd=folder, capture_output=True, text=True,
                            env=environment(folder), timeout=300)
    return result.returncode, (result.stdout + result.stderr).replace(str(folder), "/repo")


def console_blocks(body: str) -> list[tuple[str, list[str]]]:
    blocks: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            blocks.append((line[2:], []))
        elif blocks:
            blocks[-1][1].append(line)
    return blocks


@pytest.mark.parametrize("doc", DOCS)
def test_every_example_runs_as_written(doc, tmp_path):
    folder = tmp_path / "repo"
    folder.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    ran = 0
    for event in steps((ROOT / doc).read_text()):
        if event[0] == "reset":
            shutil.rmtree(folder)
            folder.mkdir()
            subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
        elif event[0] == "file":
            target = folder / event[1]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(event[2])
        elif event[0] == "copy":
            target = folder / event[2]
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / event[1], target)
        elif event[0] == "console":
            blocks = console_blocks(event[1])
            assert blocks, f"{doc}: a console block without a `$ command`:\n{event[1]}"
            for command, expected in blocks:
                _, output = run_command(command, folder)
                assert output.rstrip("\n").split("\n") == (expected or [""]), f"{doc}: $ {command}"
                ran += 1
        elif event[0] == "yaml":
            check_yaml(doc, event[1], folder)
    assert ran >= 3, f"{doc}: only {ran} commands found"


def test_readme_install_and_pre_commit_snippets_are_true(tmp_path):
    text = (ROOT / "README.md").read_text()
    yaml_blocks = [body for kind, *rest in steps(text) if kind == "yaml" for body in rest]
    assert yaml_blocks
    for body in yaml_blocks:
        check_yaml("README.md", body, tmp_path)
    assert "pip install mirrorguard`" not in text and "rev: v0" not in text


def check_yaml(doc: str, body: str, folder: Path) -> None:
    import yaml

    data = yaml.safe_load(body)
    hooks = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    for repo in (data or {}).get("repos", []) if isinstance(data, dict) else []:
        if "mirrorguard" in repo["repo"]:
            # A commit (no release is tagged): a full hash, or the COMMIT placeholder the text explains.
            assert re.fullmatch(r"[0-9a-f]{40}|COMMIT", str(repo["rev"])), f"{doc}: pre-commit rev must be a commit"
            assert {hook["id"] for hook in repo["hooks"]} <= hooks, f"{doc}: unknown hook id"
        for hook in repo.get("hooks", []):
            for dependency in hook.get("additional_dependencies", []):
                assert dependency.startswith("mirrorguard @ git+https://"), f"{doc}: {dependency}: not on PyPI"
    for line in body.splitlines():
        step = re.match(r"\s*- run: (?P<command>.*)", line)
        if step is None:
            continue
        command = step["command"]
        if command.startswith("pip install"):
            assert "mirrorguard @ git+https://" in command, f"{doc}: {command}: not on PyPI"
            continue
        code, output = run_command(command, folder)
        assert code in (0, 1) and "error" not in output.lower(), f"{doc}: {command}: {output}"


def test_the_development_section_runs_the_virtualenv_it_installs():
    """Issue 19, item 13: no command there works only inside an activated venv, and the suite's time is given."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Development", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"`((?:python|pytest|flake8|mirrorguard|\.venv/bin/)[^`]*)`", section)
    # A command has an argument (a path or an option); `mirrorguard check` alone names the tool in a table.
    runnable = [c for c in commands if re.search(r" (?:-|\S*/)", c)]
    assert runnable, "no command found in the Development section"
    bare = [c for c in runnable if not c.startswith(".venv/bin/")]
    assert not bare, f"commands that need an activated venv: {bare}"
    assert "source .venv/bin/activate" in section
    assert re.search(r"suite takes about \d+ minutes", section)
