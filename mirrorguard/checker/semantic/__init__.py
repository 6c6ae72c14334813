"""The checker's semantic model of one module, built on Python's own ``ast``.

file text -> ``ast`` (flake8's tree, or one parse) -> :class:`Builder` (one walk:
the generic :mod:`.binder` records units, bindings, references, branches and
call sites; the recognisers of :mod:`.distribute` answer its hooks with
strategies, scopes, replica functions) -> :class:`SemanticModel`
(summaries, roots, what runs outside the scope, value flow) -> rules.

The model knows no rule: rules give it :class:`Effect`s (predicates over calls)
and ask it questions.
"""

from mirrorguard.checker.semantic.distribute import Builder
from mirrorguard.checker.semantic.model import Effect, Exposure, SemanticModel, build_model
from mirrorguard.checker.semantic.syntax import dotted, last_identifier, ref_key
from mirrorguard.checker.semantic.units import CallSite, Unit, walk

__all__ = [
    "Builder", "CallSite", "Effect", "Exposure", "SemanticModel", "Unit",
    "build_model", "dotted", "last_identifier", "ref_key", "walk",
]
