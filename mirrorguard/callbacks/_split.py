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
    replicas = "1 replica" if len(rows) == 1 else f"{len(rows)} replicas"
    rows_word = "row" if sum(split) == 1 else "rows"
    return f"a global batch of {sum(split)} {rows_word} over {replicas}: {listed}"


def even_sizes(global_batch: int, replicas: int) -> str:
    """The nearest global batch sizes that split evenly: "16 x 2 = 32 or 17 x 2 = 34"."""
    below = global_batch // replicas
    above = max(1, -(-global_batch // replicas))
    sizes = f"{below} x {replicas} = {below * replicas} or " if below else ""
    return sizes + f"{above} x {replicas} = {above * replicas}"


def is_even(split: list[int]) -> bool:
    return bool(split) and split[0] > 0 and all(rows == split[0] for rows in split)


@dataclass(frozen=True)
class Record:
    """One step whose batch split unevenly, as the graph saw it."""

    step: int  # optimizer iterations when the step started
    split: tuple[int, ...]
    largest: int | None = None  # the largest global batch of the fit() so far, when tracked

    @property
    def global_batch(self) -> int:
        return sum(self.split)


@dataclass(frozen=True)
class Source:
    """What fit() trains on, as far as it decides where the data's remainder falls.

    `remainder` is "last" (the last step of an epoch, when the epoch ends with
    the data), "one" (a single short batch anywhere in the epoch: a PyDataset or
    Sequence, whose batch order fit() shuffles) or "none" (the data repeats, or
    `steps_per_epoch` ends epochs independently of the data: no partial batch).
    """

    kind: str = "other"  # "dataset", "arrays", "pydataset", "generator", "other"
    remainder: str = "last"
    rows: int | None = None  # rows of array input that fit() trains on (after `validation_split`)
    reason: str = ""  # why there is no partial batch, for the message
    batch_size: int | None = None  # fit()'s `batch_size` for array input


def _describe(record: Record, epoch: int, batch: int) -> str:
    zero = " (a replica with 0 rows breaks some ops and wastes a device)" if 0 in record.split else ""
    return (
        f"Step {batch} of epoch {epoch} (0-based) trained {rows_phrase(record.split)}{zero}: "
        f"not an even split, so the replicas' losses are averaged with the wrong weights."
    )


def remainder_fix(source: Source, record: Record) -> str:
    """How to keep the short remainder batch from reaching the replicas, for this input type."""
    if source.kind == "pydataset":
        return (
            "make `__len__` return `rows // batch_size` so that the short remainder batch "
            "is never requested, or pad it to a multiple of `strategy.num_replicas_in_sync` rows"
        )
    if source.kind == "arrays":
        return _arrays_fix(source, record)
    if source.kind == "generator":
        return "yield only full global batches (a multiple of `strategy.num_replicas_in_sync` rows)"
    return "batch the dataset with `drop_remainder=True`"


def even_divisor(rows: int, replicas: int, near: int | None = None) -> int | None:
    """The batch size nearest `near` that is a multiple of `replicas` and divides `rows`, if any (not `rows` itself)."""
    sizes = [b for b in range(replicas, rows, replicas) if rows % b == 0]
    if not sizes:
        return None
    return min(sizes, key=lambda b: (abs(b - (near or b)), -b))


def _arrays_fix(source: Source, record: Record) -> str:
    """Advice for arrays that works on this replica count: every batch, the last too, must split evenly."""
    replicas = len(record.split)
    if not source.rows:
        return (
            f"pass a `batch_size` that is a multiple of {replicas} and divides the number of rows, "
            f"or drop the last {record.global_batch} rows"
        )
    rows = source.rows
    options = []
    size = even_divisor(rows, replicas, source.batch_size)
    if size is not None:
        options.append(f"pass `batch_size={size}` (a multiple of {replicas} that divides the {rows} training rows)")
    extra = rows % replicas
    if extra and extra != record.global_batch:
        options.append(
            f"drop the last {extra} row{'s' if extra != 1 else ''} so that the last batch "
            f"({record.global_batch - extra} rows) splits evenly"
        )
    rows_word = "row" if record.global_batch == 1 else "rows"
    options.append(f"drop the last {record.global_batch} {rows_word} (the partial batch)")
    return ", or ".join(options)


def uneven_message(record: Record, epoch: int, batch: int, source: Source = Source()) -> str:
    replicas = len(record.split)
    why = f" {source.reason}" if source.reason else ""
    remainder = ""
    if source.remainder != "none":
        remainder = f"; {remainder_fix(source, record)} if the data's last batch is short"
    return (
        f"{_describe(record, epoch, batch)}{why} Fix: use a global batch size that is a "
        f"multiple of the replica count, e.g. `batch_size = per_replica_batch * "
        f"strategy.num_replicas_in_sync` ({even_sizes(record.global_batch, replicas)} here), "
        f"the same for every step{remainder}."
    )


def partial_message(record: Record, epoch: int, batch: int, source: Source = Source()) -> str:
    return (
        f"{_describe(record, epoch, batch)} It is the partial batch left at the end of the "
        f"data. Fix: {remainder_fix(source, record)}; pass `partial_batch=\"ignore\"` to "
        f"accept it."
    )


@dataclass
class Verdict:
    record: Record
    epoch: int
    batch: int
    partial: bool


@dataclass
class Judge:
    """Decides whether an uneven batch is a mistake or the data's partial remainder.

    `remainder="last"`: with a known number of steps per epoch the last step is
    known at once; when it is unknown (a dataset of unknown cardinality), a
    record waits until the next call runs another step (then it was not the
    last) or the epoch ends. `remainder="one"`: the first uneven batch of an
    epoch waits; a second one in the same epoch makes both mistakes, the epoch's
    end makes it the remainder. `remainder="none"`: every uneven batch is a mistake.
    """

    epoch: int = 0
    first_step: int = 0  # optimizer iterations at the start of the epoch
    steps: int | None = None  # steps per epoch, when Keras knows it
    remainder: str = "last"
    pending: list[Record] = field(default_factory=list)

    def start_epoch(self, epoch: int, first_step: int, steps: int | None, remainder: str = "last") -> None:
        self.epoch, self.first_step, self.steps, self.remainder = epoch, first_step, steps, remainder
        self.pending = []

    def _verdict(self, record: Record, partial: bool) -> Verdict:
        return Verdict(record, self.epoch, record.step - self.first_step, partial)

    def after_call(self, records: list[Record]) -> list[Verdict]:
        """Verdicts due after a train-function call that ran normally."""
        verdicts = []
        if self.remainder == "last":
            # A call ran, so whatever was waiting was not the epoch's last step.
            verdicts = [self._verdict(r, False) for r in self.pending]
            self.pending = []
        return verdicts + self._take(records)

    def end_epoch(self, records: list[Record], largest: int | None = None) -> list[Verdict]:
        """Verdicts due when the epoch is over: a waiting record was the remainder.

        `largest` is the largest global batch trained, when tracked: a remainder is
        shorter than the other batches.
        """
        verdicts = self._take(records)
        verdicts += [self._verdict(r, largest is None or r.global_batch < largest) for r in self.pending]
        self.pending = []
        return verdicts

    def _take(self, records: list[Record]) -> list[Verdict]:
        verdicts = []
        for record in sorted(records, key=lambda r: r.step):
            batch = record.step - self.first_step
            if self.remainder == "none":
                verdicts.append(self._verdict(record, False))
            elif self.remainder == "one":
                if record.largest is not None and record.global_batch >= record.largest and record.step > 0:
                    verdicts.append(self._verdict(record, False))  # as large as any batch: no remainder
                elif not self.pending:
                    self.pending.append(record)
                else:  # a second short batch in one epoch: the batch size itself is wrong
                    verdicts += [self._verdict(r, False) for r in [*self.pending, record]]
                    self.pending = []
            elif self.steps is not None:
                last = batch == self.steps - 1 and batch > 0
                verdicts.append(self._verdict(record, last))
            elif batch > 0:
                self.pending.append(record)
            else:  # a first batch is never the partial last one
                verdicts.append(self._verdict(record, False))
        if self.remainder == "last" and len(self.pending) > 1:  # only the newest can still be the last
            verdicts += [self._verdict(r, False) for r in self.pending[:-1]]
            self.pending = self.pending[-1:]
        return verdicts
