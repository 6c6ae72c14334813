"""Every rule, in code order. One module per rule, its docs and cases beside it.

Adding a rule is one module and one line here (see docs/adding-a-rule.md).
"""

from __future__ import annotations

from mirrorguard.checker.rules import (
    mg000_unreadable_file,
    mg001_unused_noqa,
    mg101_model_built_outside_strategy_scope,
    mg102_compile_outside_strategy_scope,
    mg103_optimizer_or_metric_outside_strategy_scope,
    mg104_model_loaded_outside_strategy_scope,
    mg105_variable_created_outside_strategy_scope,
    mg106_tuner_without_distribution_strategy,
    mg107_strategy_never_used,
    mg201_unscaled_global_batch_size,
    mg202_batch_size_per_replica_mismatch,
    mg301_loss_averaged_per_replica,
    mg401_tf_config_set_after_strategy,
    mg402_multi_worker_save_without_chief_path,
    mg403_multi_worker_strategy_after_tensorflow_ops,
    mg404_keras3_fit_under_multi_worker_strategy,
    mg405_in_memory_dataset_not_sharded,
)
from mirrorguard.checker.rules.base import Applicability, Case, Context, Fix, Report, Rule

ALL_RULES: tuple[Rule, ...] = (
    mg000_unreadable_file.RULE,
    mg001_unused_noqa.RULE,
    mg101_model_built_outside_strategy_scope.RULE,
    mg102_compile_outside_strategy_scope.RULE,
    mg103_optimizer_or_metric_outside_strategy_scope.RULE,
    mg104_model_loaded_outside_strategy_scope.RULE,
    mg105_variable_created_outside_strategy_scope.RULE,
    mg106_tuner_without_distribution_strategy.RULE,
    mg107_strategy_never_used.RULE,
    mg201_unscaled_global_batch_size.RULE,
    mg202_batch_size_per_replica_mismatch.RULE,
    mg301_loss_averaged_per_replica.RULE,
    mg401_tf_config_set_after_strategy.RULE,
    mg402_multi_worker_save_without_chief_path.RULE,
    mg403_multi_worker_strategy_after_tensorflow_ops.RULE,
    mg404_keras3_fit_under_multi_worker_strategy.RULE,
    mg405_in_memory_dataset_not_sharded.RULE,
)
RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}
# The effects the semantic model follows through helpers, in code order.
EFFECTS = tuple(rule.effect for rule in ALL_RULES if rule.effect is not None)
UNREADABLE = mg000_unreadable_file.RULE

__all__ = [
    "ALL_RULES", "EFFECTS", "RULES_BY_CODE", "UNREADABLE",
    "Applicability", "Case", "Context", "Fix", "Report", "Rule",
]
