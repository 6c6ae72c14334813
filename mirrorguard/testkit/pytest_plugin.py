"""pytest plugin: rehearse tf.distribute code on N logical CPU devices.

Fixtures ``mirrored_strategy`` and ``replica_count``; the device count comes from
``--mirrorguard-replicas``, else ``MIRRORGUARD_REPLICAS``, else the ini setting
``mirrorguard_replicas``, else 2. TensorFlow is imported only when a test asks for
one of the fixtures, so suites that never do pay nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from mirrorguard.testkit.devices import DevicesAlreadySetError, split_cpu

OPTION = "--mirrorguard-replicas"
ENV_VAR = "MIRRORGUARD_REPLICAS"
INI = "mirrorguard_replicas"
DEFAULT_REPLICAS = 2
FIXTURES = frozenset({"mirrored_strategy", "replica_count"})


@dataclass
class _Setup:
    replicas: int
    source: str  # where the count came from, for the report header
    devices: list[str] | None = None  # set once TensorFlow is configured


_SETUP = pytest.StashKey[_Setup]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mirrorguard", "mirrorguard: multi-replica tests on CPU")
    group.addoption(
        OPTION,
        dest="mirrorguard_replicas",
        metavar="N",
        default=None,
        help=f"split the CPU into N logical devices for the mirrored_strategy fixture "
        f"(default: ${ENV_VAR}, else the ini setting {INI}, else {DEFAULT_REPLICAS})",
    )
    parser.addini(INI, f"logical CPU devices for mirrored_strategy (default: {DEFAULT_REPLICAS})")


def pytest_configure(config: pytest.Config) -> None:
    # Validate now, so a bad value fails before collection rather than in some test.
    config.stash[_SETUP] = _read_setup(config)
    config.addinivalue_line("markers", ORACLE_MARKER_HELP)
    # TensorFlow's C++ start-up lines ("failed call to cuInit" on a machine without a GPU) are
    # noise in a test run, as `mirrorguard train` treats them; a value the user set is kept.
    # Setting the variable imports nothing, and the tests' own subprocesses inherit it.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def pytest_report_header(config: pytest.Config) -> str:
    setup = config.stash[_SETUP]
    return (
        f"mirrorguard: {setup.replicas} logical CPU devices ({setup.source}), "
        f"set up for tests that use mirrored_strategy or replica_count"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Split the CPU before the first test runs: a test that runs TensorFlow without
    # the fixtures would otherwise start the runtime with a single CPU device.
    if any(FIXTURES.intersection(getattr(item, "fixturenames", ())) for item in items):
        _ensure_devices(config)


@pytest.fixture(scope="session")
def replica_count(pytestconfig: pytest.Config) -> int:
    """Number of replicas in sync; the logical CPU devices exist once you have it."""
    return len(_ensure_devices(pytestconfig))


@pytest.fixture(scope="session")
def mirrored_strategy(pytestconfig: pytest.Config):
    """A tf.distribute.MirroredStrategy over the logical CPU devices."""
    import tensorflow as tf

    return tf.distribute.MirroredStrategy(_ensure_devices(pytestconfig))


def _ensure_devices(config: pytest.Config) -> list[str]:
    setup = config.stash[_SETUP]
    if setup.devices is None:
        from mirrorguard.runtime.tensorflow_import import import_quietly

        import_quietly("tensorflow")  # without the cuInit lines, as `mirrorguard train` does
        try:
            setup.devices = split_cpu(setup.replicas)
        except DevicesAlreadySetError as error:
            raise pytest.UsageError(
                f"mirrorguard could not split the CPU into {setup.replicas} logical devices "
                f"({setup.source}): {error}. Something ran TensorFlow ops before the tests "
                f"(a conftest.py or test module at import time?); move that into a fixture, "
                f"or ask for the count it uses with {OPTION}."
            ) from None
    return setup.devices


def _read_setup(config: pytest.Config) -> _Setup:
    for source, raw in (
        (OPTION, config.getoption("mirrorguard_replicas")),
        (ENV_VAR, os.environ.get(ENV_VAR)),
        (f"ini {INI}", config.getini(INI)),
    ):
        if raw not in (None, ""):
            return _Setup(_parse_replicas(raw, source), f"from {source}")
    return _Setup(DEFAULT_REPLICAS, "default")


def _parse_replicas(raw: str, source: str) -> int:
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = 0
    if value < 1:
        raise pytest.UsageError(f"{source} must be a whole number of at least 1, got {raw!r}")
    return value


# --- The replica oracle (mirrorguard.testkit.compare_replicas) as a fixture ---------------

ORACLE_MARKER_HELP = (
    "replica_oracle(replicas=(1, N), steps=2, rtol=None, atol=None, strict=False): "
    "settings for the replica_oracle fixture in this test"
)


@pytest.fixture
def replica_oracle(request: pytest.FixtureRequest, replica_count: int):
    """compare_replicas(build, data, global_batch_size=...) over 1 and N replicas; fails the test on a mismatch."""
    from mirrorguard.testkit import compare_replicas

    marker = request.node.get_closest_marker("replica_oracle")
    settings = dict(marker.kwargs) if marker else {}
    if marker and marker.args:
        pytest.fail("@pytest.mark.replica_oracle takes keyword arguments only, like replicas=(1, 2)", pytrace=False)
    settings.setdefault("replicas", (1, replica_count))
    if max(settings["replicas"]) > replica_count or replica_count < 2:
        pytest.fail(
            f"the replica oracle compares {settings['replicas']} replicas but the CPU is split into "
            f"{replica_count} logical device(s); run pytest with {OPTION} {max(2, *settings['replicas'])}",
            pytrace=False,
        )

    def check(build, data, *, global_batch_size: int, **overrides):
        return compare_replicas(build, data, global_batch_size=global_batch_size, **{**settings, **overrides})

    return check


# -- local_workers: multi-worker clusters of local processes (mirrorguard.testkit.workers) --


class LocalWorkers:
    """What the ``local_workers`` fixture gives: run or start clusters in the test's tmp_path."""

    def __init__(self, cwd: str):
        self.cwd = cwd
        self._started: list = []

    def run(self, fn, workers: int = 2, timeout: float | None = None, **options):
        """:func:`mirrorguard.testkit.run_workers`, with the workers in the test's tmp_path."""
        cluster = self.start(fn, workers, **options)
        return cluster.wait(timeout if timeout is not None else _workers_default_timeout())

    def start(self, fn, workers: int = 2, **options):
        """A started :class:`mirrorguard.testkit.Workers`; it is killed when the test ends."""
        from mirrorguard.testkit.workers import Workers

        options.setdefault("cwd", self.cwd)
        cluster = Workers(fn, workers, **options)
        self._started.append(cluster)
        cluster.start()
        return cluster

    def close(self) -> None:
        for cluster in self._started:
            cluster.kill()


@pytest.fixture
def local_workers(tmp_path):
    """Run functions in TF_CONFIG clusters of local worker processes; none outlives the test."""
    workers = LocalWorkers(str(tmp_path))
    try:
        yield workers
    finally:
        workers.close()


def _workers_default_timeout() -> float:
    from mirrorguard.testkit.workers import DEFAULT_TIMEOUT

    return DEFAULT_TIMEOUT
