"""run_workers and the local_workers fixture, with plain Python workers (no TensorFlow: fast)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from mirrorguard.testkit import Workers, WorkersFailed, WorkersTimedOut, run_workers, task_index

pytest_plugins = ["pytester"]


# -- what the workers run: module level, so that each worker can import it --------------


def report_cluster(delay_step: float = 0.0):
    # Later tasks end first: the results must still come back in task order.
    config = json.loads(os.environ["TF_CONFIG"])
    time.sleep(delay_step * (len(config["cluster"]["worker"]) - config["task"]["index"]))
    return {"config": config, "pid": os.getpid(), "cwd": os.getcwd(), "index": task_index()}


def add(a, b, *, scale=1):
    return (a + b) * scale * 10 + task_index()


def fail_on_worker_one():
    if task_index() == 1:
        raise ValueError("worker one cannot do it")
    return "fine"


def spawn_child_and_hang():
    # A grandchild of the test, as a TensorFlow worker or a data loader might start.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print(f"child pid {child.pid}", flush=True)
    time.sleep(600)


def print_then_hang():
    print("ready", flush=True)
    time.sleep(600)


def crash():
    print("about to crash", flush=True)
    os._exit(3)


def exit_with_two():
    sys.exit(2)


def unpicklable_value():
    return lambda: None


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def child_pids(outcomes) -> list[int]:
    return [int(line.split()[-1]) for o in outcomes for line in o.output if line.startswith("child pid")]


# -- the tests -----------------------------------------------------------------------


def test_values_come_back_in_task_order_with_one_cluster_on_loopback_ports(tmp_path):
    results = run_workers(report_cluster, workers=3, timeout=60, args=(0.3,), cwd=tmp_path)
    assert [result["index"] for result in results] == [0, 1, 2]
    assert [result["config"]["task"] for result in results] == [
        {"type": "worker", "index": index} for index in range(3)
    ]
    cluster = results[0]["config"]["cluster"]["worker"]
    assert all(result["config"]["cluster"]["worker"] == cluster for result in results)
    hosts, ports = zip(*(address.split(":") for address in cluster))
    assert set(hosts) == {"127.0.0.1"}
    assert len(set(ports)) == 3
    # Separate processes, all of them children of this one, in the directory asked for.
    assert len({result["pid"] for result in results}) == 3
    assert all(result["cwd"] == str(tmp_path) for result in results)
    assert all(not alive(result["pid"]) for result in results)


def test_a_module_function_string_with_arguments():
    assert run_workers(f"{__name__}:add", workers=2, timeout=60, args=(1, 2), kwargs={"scale": 2}) == [60, 61]


def test_one_error_carries_the_traceback_of_the_failing_worker_and_the_others_story():
    with pytest.raises(WorkersFailed) as caught:
        run_workers(fail_on_worker_one, workers=2, timeout=60)
    message = str(caught.value)
    assert message.startswith(f"{__name__}:fail_on_worker_one failed on worker(s) 1 of 2\n")
    assert "worker 0: returned 'fine'" in message
    assert "worker 1: Traceback (most recent call last)" in message
    assert 'raise ValueError("worker one cannot do it")' in message
    assert "ValueError: worker one cannot do it" in message
    assert "_worker_main" not in message  # the traceback starts at the user's function
    worker0, worker1 = caught.value.outcomes
    assert worker0.ok and worker0.value == "fine"
    assert not worker1.ok and worker1.returncode == 1


def test_a_timeout_kills_the_workers_and_their_children_and_nothing_else():
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        started = time.monotonic()
        with pytest.raises(WorkersTimedOut) as caught:
            run_workers(spawn_child_and_hang, workers=2, timeout=4)
        assert time.monotonic() - started < 15
        message = str(caught.value)
        assert "did not end within 4 s; killed worker(s) 0, 1" in message
        assert message.count("was still running, so it was killed") == 2
        outcomes = caught.value.outcomes
        children = child_pids(outcomes)
        assert len(children) == 2, message
        assert [o.returncode for o in outcomes] == [-9, -9]
        time.sleep(0.5)  # the grandchildren's reaper needs a moment
        assert not any(alive(pid) for pid in children)
        assert bystander.poll() is None  # a process we did not start is left alone
    finally:
        bystander.kill()
        bystander.wait()


def test_a_crash_shows_the_exit_status_and_the_last_output():
    with pytest.raises(WorkersFailed) as caught:
        run_workers(crash, workers=2, timeout=60)
    message = str(caught.value)
    assert "worker 0: exited with status 3 without reporting a value\n  last output:\n    about to crash" in message
    assert [o.returncode for o in caught.value.outcomes] == [3, 3]


def test_sys_exit_with_an_error_code_is_a_failure():
    with pytest.raises(WorkersFailed, match=r"worker 0: called sys.exit\(2\)"):
        run_workers(exit_with_two, workers=1, timeout=60)


def test_a_value_that_cannot_be_pickled_is_reported():
    with pytest.raises(WorkersFailed, match="its return value cannot be pickled"):
        run_workers(unpicklable_value, workers=1, timeout=60)


@pytest.mark.parametrize("fn", [lambda: 1, "no_colon_here", print_then_hang.__name__])
def test_functions_a_worker_cannot_import_are_refused_before_anything_starts(fn):
    with pytest.raises((TypeError, ValueError), match="Invalid value for argument `fn`"):
        Workers(fn)


def test_watching_a_running_cluster_and_killing_it():
    with Workers(print_then_hang, workers=2) as cluster:
        assert cluster.wait_for_output(1, r"^ready", timeout=60)
        assert cluster.output(1) == "ready\n"
        pids = cluster.pids
        assert all(alive(pid) for pid in pids)
        with pytest.raises(WorkersTimedOut, match="printed no line matching 'never'"):
            cluster.wait_for_output(0, "never", timeout=0.5)
        cluster.kill()
        assert not any(alive(pid) for pid in pids)


def test_the_fixture_runs_in_tmp_path(local_workers, tmp_path):
    results = local_workers.run(report_cluster, workers=2, timeout=60)
    assert [result["cwd"] for result in results] == [str(tmp_path)] * 2


def test_the_fixture_kills_what_a_test_left_running(pytester):
    pytester.makepyfile(
        test_inner="""
        import time

        def hang():
            time.sleep(600)

        def test_leaves_workers_behind(local_workers):
            cluster = local_workers.start(hang, workers=2)
            with open(PIDS, "w") as file:
                file.write(" ".join(map(str, cluster.pids)))
        """.replace("PIDS", repr(str(pytester.path / "pids")))
    )
    result = pytester.runpytest_subprocess(timeout=120)
    result.assert_outcomes(passed=1)
    pids = [int(pid) for pid in (pytester.path / "pids").read_text().split()]
    assert len(pids) == 2
    assert not any(alive(pid) for pid in pids)


ORPHANING_PARENT = """
import sys, time
sys.path[:0] = {path!r}
from mirrorguard.testkit import Workers
from test_workers import print_then_hang

cluster = Workers(print_then_hang, workers=2)
cluster.start()
cluster.wait_for_output(0, "ready", timeout=60)
cluster.wait_for_output(1, "ready", timeout=60)
print(" ".join(map(str, cluster.pids)), flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_die_with_a_parent_killed_before_it_could_clean_up(tmp_path):
    here = os.path.dirname(__file__)
    script = ORPHANING_PARENT.format(path=[here, *sys.path])
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) as parent:
        pids = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(pid) for pid in pids)
        parent.kill()  # SIGKILL: no finally blocks, no atexit
        parent.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids)
