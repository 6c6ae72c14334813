"""``mirrorguard fix [PATH ...]``: apply safe fixes, report what changed and what could not be fixed.

``fix`` takes ``check``'s selection, file, configuration and analysis options
and first runs the same check, so it reports exactly the findings ``check``
reports (cross-file ones included), each as fixed or not fixed with the reason.

Exit codes, as ``ruff check --fix``: 0 when no finding is left (everything was
fixed, or there was nothing to fix), 1 when findings remain (not fixable
safely, unsafe fixes not asked for, or unreadable files), 2 for usage errors
and files that cannot be written (one line each; the other files are still
fixed). With ``--diff`` nothing is written: 0 when there is nothing to change
and nothing left, 1 otherwise. ``-`` fixes standard input and writes the
result to standard output (the report goes to standard error).
"""

from __future__ import annotations

import argparse
import difflib
import sys

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FIX_SUFFIXES = (".py", ".pyi", ".ipynb")
# A finding `check` reports that the per-file fix does not see (a helper of another module, a cell
# the notebook writes to a file): the fixer cannot move what it does not see.
CROSS_FILE = ("not found again when the file is fixed on its own (a helper from another module, or a "
              "`%%writefile` cell: a file the notebook writes, which the fixer leaves as it is); "
              "move the call into `with strategy.scope():` by hand")


def add_parser(subparsers) -> None:
    from mirrorguard.cli import add_shared_options

    parser = subparsers.add_parser(
        "fix",
        help="move model building, compile and optimizers into the strategy scope",
        description=(
            "Apply safe fixes for MG101-MG105 (statements moved into `with strategy.scope():`), "
            "and with --unsafe-fixes also MG201. Takes the same options as `mirrorguard check` and "
            "reports the findings it reports, each fixed or, with the reason, not. "
            "Exit 0: nothing left; 1: findings remain; 2: usage error or a file that cannot be written."
        ),
        allow_abbrev=False,
    )
    add_shared_options(parser)
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of the fixes and change nothing")
    parser.set_defaults(handler=run_fix)


def run_fix(args: argparse.Namespace) -> int:
    from mirrorguard.checker.runner import Runner, default_jobs
    from mirrorguard.cli import collect_files, error, make_resolver, noqa_problems, settings_map

    resolver = make_resolver(args)
    files, stdin, status = collect_files(args, resolver, suffixes=FIX_SUFFIXES)
    settings = settings_map(files, resolver)
    for problem in noqa_problems(files):
        error(problem)
        status = EXIT_USAGE
    if stdin:
        return max(status, _fix_stdin(args, resolver))
    # First what `check` reports: the fixer then accounts for every one of these.
    with Runner(args.jobs or default_jobs()) as runner:
        results = runner.check(files, settings.__getitem__, cross_file=args.cross_file,
                               root=resolver.tree_root(args.paths))
    report = sys.stderr if args.diff else sys.stdout
    fixed = left = changed = 0
    for result in results:
        if result.error is not None:
            error(f"{result.path}: {result.error}")
            status = EXIT_USAGE
        if not result.findings:
            continue  # nothing to fix: the file is not even read again
        # Cross-file findings need the summaries they were found with.
        file_settings = result.settings or settings[result.path]
        done, remaining, was_changed, problem = _fix_file(result.path, result.findings, file_settings, args)
        if problem is not None:
            error(problem)
            status = EXIT_USAGE
        changed += was_changed
        fixed += len(done)
        left += len(remaining)
        if not args.quiet:
            verb = "fixable" if args.diff else "fixed"
            for finding in done:
                print(_line(finding, verb), file=report)
        for finding, why in remaining:
            print(_line(finding, f"not fixed: {why}"), file=report)
    if not args.quiet or left:
        print(_summary(fixed, left, changed, len(files), args.diff), file=report)
    if status == EXIT_USAGE:
        return status
    if left or (args.diff and changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _key(finding) -> tuple:
    return finding.cell, finding.line, finding.column, finding.code


def _fix_file(path: str, reported: list, settings, args: argparse.Namespace):
    """(fixed findings, [(finding, why)] left, whether the file changed, an I/O problem or None),
    in terms of the findings ``check`` reported for ``path``."""
    from mirrorguard.fixer.files import fix_path

    try:
        outcome = fix_path(path, settings, unsafe=args.unsafe_fixes, write=not args.diff)
    except OSError as exc:
        why = f"cannot write: {exc.strerror or exc}"
        return [], [(finding, why) for finding in reported], False, f"{path}: {why}"
    if outcome.skipped is not None:
        fixed_keys: set = set()
        left = [(f, f.message if f.code == "MG000" else outcome.skipped) for f in outcome.findings]
    else:
        result = outcome.result
        if outcome.changed and args.diff:
            _write_diff(path, result.original, result.text)
        fixed_keys = {_key(f) for f in result.fixed}
        left = list(result.remaining)
    # What is left is placed in the fixed text: matched by code and message,
    # and reported where it now is (with --diff, where it is in the unchanged file).
    pending: dict[tuple, list] = {}
    for finding, why in left:
        pending.setdefault((finding.cell, finding.code, finding.message), []).append((finding, why))
    done, remaining = [], []
    for finding in reported:
        if _key(finding) in fixed_keys:
            done.append(finding)
            continue
        matches = pending.get((finding.cell, finding.code, finding.message))
        if not matches:
            remaining.append((finding, CROSS_FILE))
        elif args.diff:  # nothing written: where it is in the file as it stands
            remaining.append((finding, matches.pop(0)[1]))
        else:
            remaining.append(matches.pop(0))
    return done, remaining, outcome.changed, None


def _fix_stdin(args: argparse.Namespace, resolver) -> int:
    """Fix standard input; the result (the input itself when nothing changes) goes to standard output."""
    from mirrorguard.checker import source as sources
    from mirrorguard.cli import read_stdin, stdin_name
    from mirrorguard.fixer.files import encode
    from mirrorguard.fixer.fix import fix_source

    name = stdin_name(args)
    data = read_stdin()
    decoded = sources.decode(data)
    if name.endswith(".ipynb") or isinstance(decoded, sources.Unreadable):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        why = "notebooks are fixed in place only" if name.endswith(".ipynb") else decoded.reason
        print(f"{name}: not fixed: {why}", file=sys.stderr)
        return EXIT_FINDINGS
    result = fix_source(decoded.text, name, resolver.settings_for(args.stdin_filename or name),
                        unsafe=args.unsafe_fixes)
    if args.diff:
        _write_diff(name, result.original, result.text)
    else:
        sys.stdout.buffer.write(encode(result.text, decoded))
        sys.stdout.flush()
    if not args.quiet:
        for finding in result.fixed:
            print(_line(finding, "fixable" if args.diff else "fixed"), file=sys.stderr)
    for finding, why in result.remaining:
        print(_line(finding, f"not fixed: {why}"), file=sys.stderr)
    if result.remaining or (args.diff and result.changed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _line(finding, what: str) -> str:
    cell = f"cell {finding.cell}:" if getattr(finding, "cell", None) else ""
    return f"{finding.path}:{cell}{finding.line}:{finding.column}: {finding.code} {what}"


def _summary(fixed: int, left: int, changed: int, files: int, diff: bool) -> str:
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    if diff:
        head = f"Would fix {plural(fixed, 'finding')} in {plural(changed, 'file')}"
    else:
        head = f"Fixed {plural(fixed, 'finding')} in {plural(changed, 'file')}"
    return f"{head} ({plural(files, 'file')} checked); {left} left."


def _write_diff(path: str, before: str, after: str) -> None:
    from mirrorguard.fixer.lines import split_lines

    old, new = split_lines(before), split_lines(after)
    for line in difflib.unified_diff(old, new, fromfile=f"a/{path}", tofile=f"b/{path}"):
        sys.stdout.write(line if line.endswith(("\n", "\r")) else line + "\n")
