"""Scope helpers shared by the entry points (the strategy is the caller's)."""
import contextlib


@contextlib.contextmanager
def in_scope(strategy):
    with strategy.scope():
        yield


def scope_for(strategy):
    return strategy.scope()
