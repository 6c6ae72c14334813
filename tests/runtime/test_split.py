"""The host-side split logic: how TF splits, and when an uneven batch is the partial last one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mirrorguard.callbacks._split import (
    Judge,
    Record,
    Source,
    even_divisor,
    greedy_split,
    infer_split,
    is_even,
    partial_message,
    uneven_message,
)


def test_greedy_split_matches_measured_tensorflow():
    assert greedy_split(33, 2) == [17, 16]
    assert greedy_split(6, 4) == [2, 2, 2, 0]
    assert greedy_split(32, 4) == [8, 8, 8, 8]


@given(st.integers(1, 10_000), st.integers(1, 64))
def test_greedy_split_properties(global_batch, replicas):
    split = greedy_split(global_batch, replicas)
    assert len(split) == replicas and sum(split) == global_batch
    assert split == sorted(split, reverse=True)
    assert split[0] == -(-global_batch // replicas)
    assert is_even(split) == (global_batch % replicas == 0)


def test_message_names_global_batch_replicas_and_rows_then_the_fix():
    message = uneven_message(Record(5, (17, 16)), epoch=2, batch=1)
    expected = "Step 1 of epoch 2 (0-based) trained a global batch of 33 rows over 2 replicas: 17 and 16:"
    assert message.startswith(expected)
    assert "16 x 2 = 32 or 17 x 2 = 34" in message.split("Fix:")[1]
    assert "0 x" not in uneven_message(Record(0, (1, 0)), 0, 0)
    assert "over 3 replicas: 5, 5 and 3" in uneven_message(Record(0, (5, 5, 3)), 0, 0)


def test_partial_batch_advice_fits_the_input():
    record = Record(3, (1, 0))
    assert "drop_remainder=True" in partial_message(record, 0, 3, Source("dataset"))
    pydataset = partial_message(record, 0, 3, Source("pydataset", "one"))
    assert "`__len__`" in pydataset and "drop_remainder" not in pydataset
    arrays = partial_message(record, 0, 3, Source("arrays", rows=25, batch_size=8))
    assert "drop_remainder" not in arrays


def test_array_advice_only_offers_batch_sizes_that_split_on_the_replica_count():
    # Issue 21: 100 rows, validation_split=0.25, batch 16 on 2 replicas: 75 rows, the last batch 11.
    advice = partial_message(Record(4, (6, 5)), 0, 4, Source("arrays", rows=75, batch_size=16))
    assert "batch_size=" not in advice  # no multiple of 2 divides 75
    assert "drop the last 1 row so that the last batch (10 rows) splits evenly" in advice
    assert "drop the last 11 rows (the partial batch)" in advice
    # 100 rows in batches of 24 on 4 replicas: 20 and 100 work; the one nearest 24 is offered.
    advice = partial_message(Record(4, (1, 1, 1, 1)), 0, 4, Source("arrays", rows=100, batch_size=24))
    assert "pass `batch_size=20` (a multiple of 4 that divides the 100 training rows)" in advice


def test_even_divisor():
    assert even_divisor(75, 2) is None
    assert even_divisor(100, 4, near=24) == 20
    assert even_divisor(96, 8, near=30) == 32
    assert even_divisor(8, 8) is None  # the whole data as one batch is not advice


def test_infer_split_from_first_and_differing_replica():
    assert infer_split(2, 17, 1, 16) == [17, 16]
    assert infer_split(3, 5, 2, 3) == [5, 5, 3]
    assert infer_split(4, 2, 3, 0) == [2, 2, 2, 0]
    assert infer_split(2, 16, 1, 17) is None  # greedy splitting never gives a later replica more


def test_no_remainder_makes_every_uneven_batch_an_error():
    judge = Judge()
    judge.start_epoch(0, 0, steps=4, remainder="none")
    [last] = judge.after_call([Record(3, (5, 4))])
    assert last.partial is False


def test_pydataset_remainder_is_the_one_short_batch_anywhere():
    judge = Judge()
    judge.start_epoch(0, 0, steps=4, remainder="one")
    assert judge.after_call([Record(1, (1, 0), largest=8)]) == []  # shorter than the others: waits
    assert judge.after_call([]) == []
    [verdict] = judge.end_epoch([], largest=8)
    assert (verdict.partial, verdict.batch) == (True, 1)


def test_pydataset_uneven_batch_as_large_as_any_is_an_error_at_once():
    judge = Judge()
    judge.start_epoch(0, 0, steps=4, remainder="one")
    [verdict] = judge.after_call([Record(1, (5, 4), largest=9)])
    assert verdict.partial is False


def test_pydataset_two_short_batches_are_both_errors():
    judge = Judge()
    judge.start_epoch(0, 0, steps=4, remainder="one")
    assert judge.after_call([Record(1, (1, 0), largest=8)]) == []
    verdicts = judge.after_call([Record(3, (1, 0), largest=8)])
    assert [(v.batch, v.partial) for v in verdicts] == [(1, False), (3, False)]


def test_known_step_count_decides_at_once():
    judge = Judge()
    judge.start_epoch(epoch=1, first_step=10, steps=4)
    [mid] = judge.after_call([Record(11, (5, 4))])
    assert (mid.partial, mid.batch, mid.epoch) == (False, 1, 1)
    [last] = judge.after_call([Record(13, (1, 0))])
    assert (last.partial, last.batch) == (True, 3)
    assert judge.end_epoch([]) == []


def test_single_step_epoch_is_not_a_partial_batch():
    judge = Judge()
    judge.start_epoch(0, 0, steps=1)
    [verdict] = judge.after_call([Record(0, (5, 4))])
    assert verdict.partial is False


def test_unknown_step_count_waits_for_the_next_call_or_the_epoch_end():
    judge = Judge()
    judge.start_epoch(0, 0, steps=None)
    assert judge.after_call([Record(2, (5, 4))]) == []  # could be the last
    [verdict] = judge.after_call([])  # another step ran: it was not
    assert (verdict.partial, verdict.batch) == (False, 2)
    assert judge.after_call([Record(5, (1, 0))]) == []
    [last] = judge.end_epoch([])
    assert (last.partial, last.batch) == (True, 5)


def test_unknown_step_count_first_batch_is_decided_at_once():
    judge = Judge()
    judge.start_epoch(0, 0, steps=None)
    [verdict] = judge.after_call([Record(0, (5, 4))])
    assert verdict.partial is False


def test_several_records_in_one_call_only_the_newest_can_be_last():
    judge = Judge()
    judge.start_epoch(0, 0, steps=None)
    early = judge.after_call([Record(3, (1, 0)), Record(2, (5, 4))])
    assert [(v.batch, v.partial) for v in early] == [(2, False)]
    [last] = judge.end_epoch([])
    assert (last.batch, last.partial) == (3, True)
