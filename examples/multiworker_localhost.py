"""Rehearse multi-worker training on one machine: two processes, one CPU replica each.

    python examples/multiworker_localhost.py -- --dataset synthetic --epochs 2

Everything after ``--`` goes to ``mirrorguard train`` in both workers. Each worker
gets the same cluster in TF_CONFIG and its own task index, which is all a real
cluster needs too: there you start the same command on each machine, with the
machines' addresses instead of localhost ports.

``fit`` needs tf-keras under MultiWorkerMirroredStrategy, so the workers get
``TF_USE_LEGACY_KERAS=1`` unless you set it; with ``--loop custom`` they use
whichever Keras your environment selects (Keras 3 by default).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

WORKERS = 2


def free_ports(count: int) -> list[int]:
    """Ask the OS for ports nobody listens on (released again before the workers bind)."""
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("localhost", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def tf_config(cluster: list[str], index: int) -> str:
    return json.dumps({"cluster": {"worker": cluster}, "task": {"type": "worker", "index": index}})


def relay(index: int, stream) -> None:
    # Prefix each line so the two workers' interleaved logs stay readable.
    for line in stream:
        sys.stdout.write(f"[worker {index}] {line}")
        sys.stdout.flush()


def custom_loop(train_args: list[str]) -> bool:
    return "--loop=custom" in train_args or ["--loop", "custom"] in [
        train_args[i : i + 2] for i in range(len(train_args) - 1)
    ]


def main(argv: list[str]) -> int:
    train_args = argv[argv.index("--") + 1 :] if "--" in argv else argv
    cluster = [f"localhost:{port}" for port in free_ports(WORKERS)]
    workers = []
    for index in range(WORKERS):
        env = dict(os.environ, TF_CONFIG=tf_config(cluster, index), PYTHONUNBUFFERED="1")
        if not custom_loop(train_args):
            # Keras 3 cannot fit() under MultiWorkerMirroredStrategy yet; tf-keras can.
            # Its custom loop (--loop custom) works with both flavours.
            env.setdefault("TF_USE_LEGACY_KERAS", "1")
        command = [sys.executable, "-m", "mirrorguard.train", "--strategy", "multiworker", *train_args]
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        thread = threading.Thread(target=relay, args=(index, process.stdout), daemon=True)
        thread.start()
        workers.append((process, thread))
    codes = []
    for process, thread in workers:
        codes.append(process.wait())
        thread.join()
    print(f"worker exit codes: {codes}")
    return max(codes, key=abs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
