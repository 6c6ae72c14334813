"""``mirrorguard verify PATH::FUNCTION``: run the replica oracle on a build function in a file.

    mirrorguard verify my_training.py::build --data my_training.py::make_data --global-batch-size 32
    python -m mirrorguard.testkit.verify my_training.py::build      # the same, without the CLI

``FUNCTION`` is ``build(strategy)`` as :func:`mirrorguard.testkit.compare_replicas` takes it.
The data come from ``--data`` (a function of no arguments in the same file, or
``PATH::FUNCTION``, returning an unbatched ``tf.data.Dataset`` or an ``(x, y)`` pair);
by default the file's ``oracle_data`` function. Exit status: 0 the runs agree,
1 they differ (the table and the cause are printed), 2 a usage error or a failure
of the program itself (a message says which).

The CLI wires its ``verify`` subcommand to :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import traceback
from types import ModuleType

DEFAULT_DATA = "oracle_data"
PER_REPLICA_BATCH = 8  # the default global batch is this times the largest replica count


class VerifyUsageError(Exception):
    """Something on the command line or in the user's file that the user must fix."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="PATH::FUNCTION", help="a build(strategy) function in a Python file")
    parser.add_argument(
        "--data",
        metavar="[PATH::]FUNCTION",
        default=None,
        help=f"function returning the examples (unbatched tf.data.Dataset or (x, y) arrays); "
        f"default: {DEFAULT_DATA} in the same file",
    )
    parser.add_argument(
        "--global-batch-size",
        type=_positive,
        default=None,
        metavar="N",
        help=f"examples per step over all replicas (default: {PER_REPLICA_BATCH} x the largest replica count)",
    )
    parser.add_argument(
        "--replicas", type=_counts, default=(1, 2), metavar="1,2", help="replica counts to compare (default: 1,2)"
    )
    parser.add_argument("--steps", type=_positive, default=2, metavar="N", help="training steps (default: 2)")
    parser.add_argument("--rtol", type=float, default=None, help="relative tolerance (default: the oracle's 1e-2)")
    parser.add_argument("--atol", type=float, default=None, help="absolute tolerance (default: the oracle's 1e-6)")
    parser.add_argument(
        "--strict", action="store_true", help="fail on expected differences too (BatchNormalization statistics)"
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def run(args: argparse.Namespace) -> int:
    try:
        targets = [args.target, _data_target(args)]
        for target, what in zip(targets, ("PATH::FUNCTION", "--data")):
            _check_file(target, what)  # fast: before TensorFlow is imported
        _quiet_tensorflow()
        _split_cpu(max(args.replicas))  # before the user's module can start TensorFlow
        build = load_function(targets[0], what="PATH::FUNCTION")
        make_data = load_function(targets[1], what="--data")
    except VerifyUsageError as error:
        return _error(str(error))

    from mirrorguard.testkit import ReplicaMismatchError, compare_replicas
    from mirrorguard.testkit.oracle import OracleUsageError

    global_batch = args.global_batch_size or PER_REPLICA_BATCH * max(args.replicas)
    try:
        data = make_data()
        report = compare_replicas(
            build,
            data,
            global_batch_size=global_batch,
            replicas=args.replicas,
            steps=args.steps,
            rtol=args.rtol,
            atol=args.atol,
            strict=args.strict,
        )
        status = 0
    except ReplicaMismatchError as error:
        report, status = error.report, 1
    except OracleUsageError as error:
        return _error(str(error))
    except Exception as error:  # the user's program (or ours) failed: show where, exit 2
        traceback.print_exc(file=sys.stderr)
        return _error(f"the training program failed before it could be compared: {type(error).__name__}: {error}")
    if args.format == "json":
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.format())
    return status


def _data_target(args: argparse.Namespace) -> str:
    spec = args.data or DEFAULT_DATA
    return spec if "::" in spec else f"{split_target(args.target)[0]}::{spec}"


def _check_file(target: str, what: str) -> None:
    path, _ = split_target(target)
    if not os.path.isfile(path):
        raise VerifyUsageError(f"{what}: no such file: {path}")


def _split_cpu(count: int) -> None:
    from mirrorguard.testkit.devices import DevicesAlreadySetError, split_cpu

    try:
        split_cpu(count)
    except DevicesAlreadySetError as error:
        raise VerifyUsageError(f"cannot split the CPU into {count} logical devices: {error}") from None


def split_target(target: str) -> tuple[str, str]:
    path, sep, name = target.rpartition("::")
    if not sep or not path or not name.isidentifier():
        raise VerifyUsageError(f"expected PATH::FUNCTION, like train.py::build; got {target!r}")
    return path, name


def load_function(target: str, what: str):
    _check_file(target, what)
    path, name = split_target(target)
    module = _load_module(path)
    function = getattr(module, name, None)
    if function is None:
        raise VerifyUsageError(f"{what}: {path} defines no {name!r}")
    if not callable(function):
        raise VerifyUsageError(f"{what}: {path}::{name} is not a function (it is {type(function).__name__})")
    return function


_LOADED: dict[str, ModuleType] = {}


def _load_module(path: str) -> ModuleType:
    path = os.path.abspath(path)
    if path in _LOADED:
        return _LOADED[path]
    # The file's own folder first, so its sibling modules import as they do when it runs.
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = "_mirrorguard_verify_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise VerifyUsageError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        traceback.print_exc(file=sys.stderr)
        raise VerifyUsageError(f"importing {path} failed: {type(error).__name__}: {error}") from None
    _LOADED[path] = module
    return module


def _quiet_tensorflow() -> None:
    from mirrorguard.runtime.tensorflow_import import import_quietly

    import_quietly("tensorflow")


def _error(message: str) -> int:
    print(f"mirrorguard verify: error: {message}", file=sys.stderr)
    return 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected replica counts like 1,2, got {text!r}") from None
    if len(counts) < 2 or min(counts) < 1 or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"expected two or more distinct counts >= 1 like 1,2, got {text!r}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mirrorguard verify",
        description="Check that a training step computes the same update on 1 replica and on N.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
