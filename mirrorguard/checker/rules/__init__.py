"""Every rule, in code order. One module per rule, its docs and cases beside it.

Adding a rule is one module and one line here (see docs/adding-a-rule.md).

The rule modules (and the semantic model they import) are loaded on first use
of ``ALL_RULES``, ``RULES_BY_CODE``, ``EFFECTS``, ``UNREADABLE`` or the rule
types: a run whose files put no strategy in play (most pre-commit runs, and
flake8 over a repository without tf.distribute) never pays for them. ``CODES``
is known without loading anything (a test keeps it equal to the rules' codes).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mirrorguard.checker.rules.base import Applicability, Case, Context, Fix, Report, Rule

# The rule modules, in code order; each one's RULE has the code its name starts with.
_MODULES = (
    "mg000_unreadable_file",
    "mg001_unused_noqa",
    "mg101_model_built_outside_strategy_scope",
    "mg102_compile_outside_strategy_scope",
    "mg103_optimizer_or_metric_outside_strategy_scope",
    "mg104_model_loaded_outside_strategy_scope",
    "mg105_variable_created_outside_strategy_scope",
    "mg106_tuner_without_distribution_strategy",
    "mg107_strategy_never_used",
    "mg201_unscaled_global_batch_size",
    "mg202_batch_size_per_replica_mismatch",
    "mg301_loss_averaged_per_replica",
    "mg401_tf_config_set_after_strategy",
    "mg402_multi_worker_save_without_chief_path",
    "mg403_multi_worker_strategy_after_tensorflow_ops",
    "mg404_keras3_fit_under_multi_worker_strategy",
    "mg405_in_memory_dataset_not_sharded",
)
CODES: tuple[str, ...] = tuple(module[:5].upper() for module in _MODULES)

_REGISTRY = ("ALL_RULES", "RULES_BY_CODE", "EFFECTS", "UNREADABLE")
_TYPES = ("Applicability", "Case", "Context", "Fix", "Report", "Rule")


def _load_registry() -> None:
    rules = tuple(importlib.import_module(f"{__name__}.{module}").RULE for module in _MODULES)
    namespace = globals()
    namespace["ALL_RULES"] = rules
    namespace["RULES_BY_CODE"] = {rule.code: rule for rule in rules}
    # The effects the semantic model follows through helpers, in code order.
    namespace["EFFECTS"] = tuple(rule.effect for rule in rules if rule.effect is not None)
    namespace["UNREADABLE"] = rules[0]


def __getattr__(name: str):
    # PEP 562: looked up only while the name is not yet a module global. Once loaded (or
    # set, as tests set ALL_RULES to break a rule), the global answers directly.
    if name in _REGISTRY:
        _load_registry()
    elif name in _TYPES:
        from mirrorguard.checker.rules import base

        globals().update({type_name: getattr(base, type_name) for type_name in _TYPES})
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return globals()[name]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_REGISTRY) | set(_TYPES))


__all__ = [
    "ALL_RULES", "CODES", "EFFECTS", "RULES_BY_CODE", "UNREADABLE",
    "Applicability", "Case", "Context", "Fix", "Report", "Rule",
]
