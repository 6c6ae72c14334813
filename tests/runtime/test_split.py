"""The host-side split logic: how TF splits, and when an uneven batch is the partial last one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mirrorguard.callbacks._split import Judge, Record, greedy_split, is_even, uneven_message


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


def test_message_offers_the_two_nearest_even_sizes():
    message = uneven_message(Record(5, (17, 16)), epoch=2, batch=1)
    assert "global batch of 33 rows at step 1 of epoch 2" in message
    assert "16 x 2 = 32 or 17 x 2 = 34" in message
    assert "0 x" not in uneven_message(Record(0, (1, 0)), 0, 0)


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
