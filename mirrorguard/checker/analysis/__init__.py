"""One pass over a libcst module: which strategy is in play, where its scopes
are, and what builds, loads or compiles a model, or creates an optimizer, where.

The walk records *events* (a model built here, a helper called there), each
tagged with whether it sits lexically inside a ``strategy.scope()`` block of its
own function. Afterwards, summaries of the file's functions and classes decide
whether an event outside a scope really runs outside one:

* a function that creates a strategy or enters a scope is judged on its own
  (it is a *root*), as is the module body when a strategy is in play;
* any other function is judged where it is called: what it does outside its
  own scopes is *exposed* to its callers, transitively, and reported at the
  call site that runs outside a scope;
* a function never called in the file is judged on its own only when it
  mentions a strategy (a ``strategy`` parameter, ``self.strategy``...).

No libcst metadata provider is used: imports, bindings and scopes are tracked
here, which is several times cheaper (see ``benchmarks/``).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

import libcst as cst

from mirrorguard.checker.analysis.records import (
    BATCH,
    BUILD,
    CALL,
    COMPILE,
    LOAD,
    OPTIMIZER,
    Analysis,
    OutsideScope,
    UnscaledBatch,
    dotted,
)
from mirrorguard.checker.analysis.resolve import Resolver
from mirrorguard.checker.analysis.walk import Walker

__all__ = [
    "BATCH", "BUILD", "CALL", "COMPILE", "LOAD", "OPTIMIZER",
    "Analysis", "OutsideScope", "UnscaledBatch",
    "analyse", "dotted", "imported_modules", "summarise",
]


def analyse(module: cst.Module, *, extra_strategy_names: Iterable[str] = (),
            extra_model_factories: Iterable[str] = (),
            external: Mapping[str, frozenset[str]] | None = None) -> Analysis:
    """Analyse one module.

    ``external`` maps qualified names of functions defined in *other* files of
    the checked tree (``models.build_model``, ``.nets.make_net``: spelled as
    this file's imports reach them) to what they do outside a scope (see
    :func:`summarise`), so they are judged at their call sites here.
    """
    walker = Walker(set(extra_strategy_names), set(extra_model_factories), external or {})
    walker.walk(module)
    return Resolver(walker).resolve()


def summarise(module: cst.Module) -> dict[str, frozenset[str]]:
    """What each module-level function and model class does outside a scope of its own.

    Keys are the names as the module defines them; values are sets of BUILD,
    LOAD, COMPILE and OPTIMIZER. Used for cross-file analysis.
    """
    walker = Walker(set(), set(), {})
    walker.walk(module)
    resolver = Resolver(walker)
    summary: dict[str, frozenset[str]] = {}
    for name, contexts in walker.functions.items():
        top = [c for c in contexts if c.parent is walker.module_context]
        if top:
            kinds = resolver.exposed(top[-1])
            if kinds:
                summary[name] = kinds
    for name in resolver.model_classes:
        summary[name] = frozenset({BUILD})
    return summary


def imported_modules(module: cst.Module) -> set[str]:
    """The modules a file imports from, as written (``.nets``, ``trainer.models``)."""
    found: set[str] = set()
    for statement in _walk_statements(module.body):
        if isinstance(statement, cst.Import):
            for alias in statement.names:
                name = dotted(alias.name)
                if name:
                    found.add(name)
        elif isinstance(statement, cst.ImportFrom) and not isinstance(statement.names, cst.ImportStar):
            base = ("." * len(statement.relative)) + (dotted(statement.module) if statement.module else "")
            found.add(base)
            for alias in statement.names:
                name = dotted(alias.name)
                if name:
                    found.add(f"{base}.{name}" if base and not base.endswith(".") else base + name)
    return found


def _walk_statements(body) -> Iterator[cst.CSTNode]:
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            yield from statement.body
        elif isinstance(statement, (cst.If, cst.Try, cst.With)):
            yield from _walk_statements(statement.body.body)
            if isinstance(statement, cst.If) and statement.orelse is not None:
                orelse = statement.orelse
                if isinstance(orelse, cst.If):
                    yield from _walk_statements([orelse])
                else:
                    yield from _walk_statements(orelse.body.body)
            if isinstance(statement, cst.Try):
                for handler in statement.handlers:
                    yield from _walk_statements(handler.body.body)
