"""How a global batch splits across replicas, and what to make of an uneven split.

Framework-neutral on purpose (no TensorFlow import): the graph side only records
the rows each replica received; everything here runs on the host afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def greedy_split(global_batch: int, replicas: int) -> list[int]:
    """Rows per replica as tf.distribute splits a batch: ceil(global / replicas) each, in order."""
    per_replica = -(-global_batch // replicas)
    rows = []
    left = global_batch
    for _ in range(replicas):
        take = max(0, min(per_replica, left))
        rows.append(take)
        left -= take
    return rows


def infer_split(replicas: int, first: int, index: int, rows: int) -> list[int] | None:
    """The whole greedy split from replica 0's rows and the first replica (`index`) that differs.

    Greedy splitting gives `first` rows to every replica before `index`, `rows` to
    it and none after it; None when the numbers cannot come from such a split.
    """
    if not 0 < index < replicas or rows >= first:
        return None
    split = [first] * index + [rows] + [0] * (replicas - index - 1)
    return split if greedy_split(sum(split), replicas) == split else None


def rows_phrase(split) -> str:
    """ "a global batch of 33 rows over 2 replicas: 17 and 16" """
    rows = [str(r) for r in split]
    listed = rows[0] if len(rows) == 1 else f"{', '.join(rows[:-1])} and {rows[-1]}"
    return f"a global batch of {sum(split)} rows over {len(rows)} replicas: {listed}"


def even_sizes(global_batch: int, replicas: int) -> str:
    """The nearest global batch sizes that split evenly: "16 x 2 = 32 or 17 x 2 = 34"."""
    below = global_batch // replicas
    above = -(-global_batch // replicas)
    sizes = f"{below} x {replicas} = {below * replicas} or " if below else ""
    return sizes + f"{above} x {replicas} = {above * replicas}"


def is_even(split: list[int]) -> bool:
    return bool(split) and split[0] > 0 and all(rows == split[0] for rows in split)


@dataclass(frozen=True)
class Record:
    """One step whose batch split unevenly, as the graph saw it."""

    step: int  # optimizer iterations when the step started
    split: tuple[int, ...]

    @property
    def global_batch(self) -> int:
        return sum(self.split)


def _describe(record: Record, epoch: int, batch: int) -> str:
    rows = ", ".join(str(r) for r in record.split)
    zero = " (a replica with 0 rows breaks some ops and wastes a device)" if 0 in record.split else ""
    return (
        f"The global batch of {record.global_batch} rows at step {batch} of epoch {epoch} "
        f"(0-based) does not split evenly across {len(record.split)} replicas: they got "
        f"{rows} rows{zero}, so the replicas' losses are averaged with the wrong weights."
    )


def uneven_message(record: Record, epoch: int, batch: int) -> str:
    replicas = len(record.split)
    below = record.global_batch // replicas
    above = -(-record.global_batch // replicas)
    sizes = f"{below} x {replicas} = {below * replicas} or " if below else ""
    sizes += f"{above} x {replicas} = {above * replicas}"
    return (
        f"{_describe(record, epoch, batch)} Fix: use a global batch size that is a "
        f"multiple of the replica count, e.g. `batch_size = per_replica_batch * "
        f"strategy.num_replicas_in_sync` ({sizes} here), the same for every step; "
        f"batch datasets with `drop_remainder=True` so that a last partial batch is dropped."
    )


def partial_message(record: Record, epoch: int, batch: int) -> str:
    return (
        f"{_describe(record, epoch, batch)} It is the last, partial batch of the epoch. "
        f"Fix: batch the dataset with `drop_remainder=True` (or pick a dataset size "
        f"that is a multiple of the global batch size); pass "
        f"`partial_batch=\"ignore\"` to accept it."
    )


@dataclass
class Verdict:
    record: Record
    epoch: int
    batch: int
    partial: bool


@dataclass
class Judge:
    """Decides, step by step, whether an uneven batch is a mistake or the last partial batch.

    With a known number of steps per epoch the last step is known at once. When
    it is unknown (a dataset of unknown cardinality), a record waits until the
    next call runs another step (then it was not the last) or the epoch ends.
    """

    epoch: int = 0
    first_step: int = 0  # optimizer iterations at the start of the epoch
    steps: int | None = None  # steps per epoch, when Keras knows it
    pending: list[Record] = field(default_factory=list)

    def start_epoch(self, epoch: int, first_step: int, steps: int | None) -> None:
        self.epoch, self.first_step, self.steps = epoch, first_step, steps
        self.pending = []

    def _verdict(self, record: Record, partial: bool) -> Verdict:
        return Verdict(record, self.epoch, record.step - self.first_step, partial)

    def after_call(self, records: list[Record]) -> list[Verdict]:
        """Verdicts due after a train-function call that ran normally."""
        # A call ran, so whatever was waiting was not the epoch's last step.
        verdicts = [self._verdict(r, False) for r in self.pending]
        self.pending = []
        return verdicts + self._take(records)

    def end_epoch(self, records: list[Record]) -> list[Verdict]:
        """Verdicts due when the epoch is over: the newest waiting record was its last step."""
        verdicts = self._take(records)
        verdicts += [self._verdict(r, True) for r in self.pending]
        self.pending = []
        return verdicts

    def _take(self, records: list[Record]) -> list[Verdict]:
        verdicts = []
        for record in sorted(records, key=lambda r: r.step):
            batch = record.step - self.first_step
            if self.steps is not None:
                last = batch == self.steps - 1 and batch > 0
                verdicts.append(self._verdict(record, last))
            elif batch > 0:
                self.pending.append(record)
            else:  # a first batch is never the partial last one
                verdicts.append(self._verdict(record, False))
        if len(self.pending) > 1:  # only the newest can still be the last
            verdicts += [self._verdict(r, False) for r in self.pending[:-1]]
            self.pending = self.pending[-1:]
        return verdicts
