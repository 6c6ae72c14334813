"""From events to verdicts: function summaries, roots, call sites, and the
batch-size data flow."""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from mirrorguard.checker import names as api
from mirrorguard.checker.analysis.records import (
    BATCH,
    BUILD,
    CALL,
    COMPILE,
    LOAD,
    OPTIMIZER,
    Analysis,
    Context,
    Event,
    OutsideScope,
    UnscaledBatch,
)
from mirrorguard.checker.analysis.walk import Walker

class Resolver:
    """Turns the walk's events into findings-to-be, using function summaries."""

    def __init__(self, walker: Walker) -> None:
        self.w = walker
        self.model_classes = self._model_classes()
        self._exposed: dict[int, frozenset[str]] = {}
        self._in_progress: set[int] = set()
        self._callees: dict[int, list] = {}
        self._has_scoped_model: bool | None = None
        self._root_ids: set[int] = set()  # roots are judged on their own, never at their callers

    # --- classes and callees -------------------------------------------------

    def _model_classes(self) -> set[str]:
        bases = self.w.class_bases
        models: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, base_nodes in bases.items():
                if name in models:
                    continue
                for base in base_nodes:
                    if (isinstance(base, cst.Name) and base.value in models) or any(
                        q in api.MODEL_BASES for q in self.w.qualify(base)
                    ):
                        models.add(name)
                        changed = True
                        break
        return models

    def _class_chain(self, class_name: str) -> Iterator[str]:
        seen = set()
        pending = [class_name]
        while pending:
            name = pending.pop(0)
            if name in seen:
                continue
            seen.add(name)
            yield name
            for base in self.w.class_bases.get(name, ()):
                if isinstance(base, cst.Name):
                    pending.append(base.value)

    def _method(self, class_name: str, attr: str) -> Context | None:
        for name in self._class_chain(class_name):
            found = self.w.methods.get((name, attr))
            if found is not None:
                return found
        return None

    def _function(self, name: str, caller: Context) -> Context | None:
        candidates = self.w.functions.get(name)
        if not candidates:
            return None
        # Prefer a function nested in the caller's own chain of definitions.
        chain = []
        context: Context | None = caller
        while context is not None:
            chain.append(context)
            context = context.parent
        for candidate in reversed(candidates):
            if candidate.parent in chain:
                return candidate
        return candidates[-1]

    def callees(self, event: Event) -> list:
        """What a CALL event runs: ("model", class) or ("function", context)."""
        key = id(event)
        if key in self._callees:
            return self._callees[key]
        found: list = []
        kind, *rest = event.callee or ("",)
        if kind == "func":
            (name,) = rest
            if name == "cls" and event.context.class_name:
                name = event.context.class_name  # cls(...) in a classmethod
            if name in self.model_classes:
                found.append(("model", name))
            elif name in self.w.class_bases:
                init = self._method(name, "__init__")
                if init is not None:
                    found.append(("function", init))
            else:
                function = self._function(name, event.context)
                if function is not None:
                    found.append(("function", function))
        elif kind == "external":
            (name,) = rest
            found.append(("external", name))
        elif kind == "method":
            class_name, attr = rest
            method = self._method(class_name, attr) if class_name else None
            if method is not None:
                found.append(("function", method))
        elif kind == "attr":
            receiver, attr = rest
            if receiver in self.model_classes and attr == "from_config":
                found.append(("load", receiver))
            elif receiver in self.model_classes and attr == "from_preset":
                found.append(("model", receiver))
            else:
                class_name = self.w.instances.get(receiver)
                if class_name is None and receiver in self.w.class_bases:
                    class_name = receiver  # Trainer.build(...) on the class itself
                if class_name is not None:
                    method = self._method(class_name, attr)
                    if method is not None:
                        found.append(("function", method))
        self._callees[key] = found
        return found

    # --- summaries -----------------------------------------------------------

    def exposed(self, context: Context) -> frozenset[str]:
        """What ``context`` does outside any scope of its own, for its callers to judge."""
        key = id(context)
        if key in self._exposed:
            return self._exposed[key]
        if context.owns_strategy or key in self._in_progress or key in self._root_ids:
            return frozenset()
        self._in_progress.add(key)
        kinds: set[str] = set()
        for event in context.events:
            if event.in_scope:
                continue
            if event.kind in (BUILD, LOAD, COMPILE):
                kinds.add(event.kind)
            elif event.kind == OPTIMIZER and not event.inline:
                kinds.add(OPTIMIZER)
            elif event.kind == CALL:
                for what, target in self.callees(event):
                    kinds |= self._callee_kinds(what, target)
        self._in_progress.discard(key)
        result = frozenset(kinds)
        self._exposed[key] = result
        return result

    def _callee_kinds(self, what: str, target) -> frozenset[str]:
        if what == "model":
            return frozenset({BUILD})
        if what == "load":
            return frozenset({LOAD})
        if what == "external":
            return self.w.external[target]
        return self.exposed(target)

    def _roots(self) -> list[Context]:
        for context in self.w.contexts:
            for event in context.events:
                if event.kind == CALL:
                    for what, target in self.callees(event):
                        if what == "function" and target is not context:
                            target.call_sites.append(event)
        roots = []
        for context in self.w.contexts:
            if context.class_name in self.model_classes:
                # A Keras model's own methods (Keras's Model class itself, or a
                # custom model building sub-models in __init__): what they do
                # is judged where the model is instantiated.
                continue
            if context.is_module:
                if self.w.strategy_in_play:
                    roots.append(context)
            elif context.owns_strategy:
                roots.append(context)
            elif not context.call_sites and context.mentions_strategy and not context.is_lambda:
                roots.append(context)
            elif self.w.strategy_in_play and not context.is_lambda and (
                (context.call_sites and all(site.entry for site in context.call_sites))
                or (not context.call_sites and context.name in self.w.entry_functions)
            ):
                # main(): the program itself, judged inside rather than at the
                # line that starts it.
                roots.append(context)
        return roots

    # --- usage of a bound model ----------------------------------------------

    @property
    def has_scoped_model(self) -> bool:
        """Does any model get built or loaded inside a strategy scope?"""
        if self._has_scoped_model is None:
            self._has_scoped_model = any(
                event.in_scope
                and (
                    event.kind in (BUILD, LOAD)
                    or (
                        event.kind == CALL
                        and any(self._callee_kinds(w, t) & {BUILD, LOAD} for w, t in self.callees(event))
                    )
                )
                for context in self.w.contexts
                for event in context.events
            )
        return self._has_scoped_model

    def _uses(self, context: Context, name: str) -> tuple[int, int]:
        """(all uses, inference-only uses) of ``name`` bound in ``context``."""
        total = context.loads[name] - context.stores[name]
        inference = context.inference_uses[name]
        if context.is_module:
            for other in self.w.contexts:
                if other is context or name in other.stores or name in other.params:
                    continue
                total += other.loads[name]
                inference += other.inference_uses[name]
        return total, inference

    def inference_only(self, event: Event) -> bool:
        """A model bound to plain names used only to evaluate, predict or save.

        Such a model was deliberately kept out of the strategy (the TensorFlow
        tutorials load an "unreplicated" copy to evaluate it), so it is no mistake.
        """
        targets = event.targets
        if not targets or any("." in target for target in targets):
            return False
        # The copy is deliberate only beside a replicated twin; a lone model
        # loaded outside the scope is the model the strategy was made for.
        if not self.has_scoped_model:
            return False
        for target in targets:
            total, inference = self._uses(event.context, target)
            if total <= 0 or inference < total:
                return False
            # Used inside a scope (compiled there, say): meant for the strategy.
            if any(target in c.in_scope_refs for c in self._contexts_seeing(event.context, target)):
                return False
        return True

    def _optimizer_used_in_strategy(self, event: Event, exempt_compiles: set[int]) -> bool:
        """Does an optimizer or metric made outside a scope end up with the
        strategy's model: compiled, used in a scope or a replica step,
        assigned to ``model.optimizer``, wrapped or aliased into something
        that is, or handed to the file's own function that compiles with it
        or enters a scope?"""
        return self._used(event.context, event.targets, exempt_compiles, set())

    def _used(self, context: Context, targets, exempt_compiles: set[int], seen: set) -> bool:
        if any(target.endswith(".optimizer") for target in targets):
            return True
        for target in targets:
            if (id(context), target) in seen:
                continue
            seen.add((id(context), target))
            for other_context in self._contexts_seeing(context, target):
                if target in other_context.in_scope_refs:
                    return True
                if other_context.name in self.w.replica_fn_names and target in other_context.refs:
                    return True
                if other_context.class_name in self.model_classes and target in other_context.refs:
                    return True  # a tracker a model's train_step or metrics use
                for other in other_context.events:
                    if target not in other.arg_refs:
                        continue
                    if other.kind == COMPILE and id(other) not in exempt_compiles:
                        return True
                    # LossScaleOptimizer(base): base is used if the wrapper is.
                    if other.kind == OPTIMIZER and self._used(
                        other.context, other.targets, exempt_compiles, seen
                    ):
                        return True
                    if other.kind == CALL and self._callee_trains(other):
                        return True
                # optimizer = base_optimizer
                for alias, values in other_context.assignments.items():
                    if any(isinstance(v, cst.Name) and v.value == target for _, v in values):
                        if self._used(other_context, (alias,), exempt_compiles, seen):
                            return True
        return False

    def _callee_trains(self, event: Event) -> bool:
        """Is the callee one of the file's functions (or classes) that compiles
        or enters a scope, so that what it is given ends up with the model?"""
        for what, target in self.callees(event):
            if what != "function":
                continue
            contexts = [target]
            if target.class_name and target.name == "__init__":
                contexts = [c for c in self.w.contexts if c.class_name == target.class_name]
            for context in contexts:
                if context.owns_strategy or any(e.kind == COMPILE for e in context.events):
                    return True
        return False

    def _contexts_seeing(self, context: Context, target: str) -> Iterator[Context]:
        """``context`` and the contexts that read its binding of ``target``:
        closures nested in it, the class's other methods for ``self.x``, and
        every function for a module global they do not rebind."""
        yield context
        if target.startswith("self."):
            for other in self.w.contexts:
                if other is not context and other.class_name and other.class_name == context.class_name:
                    yield other
            return
        for other in self.w.contexts:
            if other is context:
                continue
            # ``other`` sees the binding if its chain of enclosing functions
            # reaches ``context`` without rebinding the name on the way.
            current: Context | None = other
            while current is not None and current is not context:
                if target in current.stores or target in current.params:
                    break
                current = current.parent
            if current is context:
                yield other

    # --- the verdict -----------------------------------------------------------

    def resolve(self) -> Analysis:
        w = self.w
        outside: list[OutsideScope] = []
        batches: list[UnscaledBatch] = []
        if not w.strategy_in_play:
            return Analysis(False, outside, batches, "", frozenset(w.imported_calls))
        exempt_compiles: set[int] = set()
        inference_names: set[tuple[int, str]] = set()
        roots = self._roots()
        self._root_ids = {id(root) for root in roots}
        self._exposed.clear()
        root_events = [e for root in roots for e in root.events if not e.in_scope]
        for event in root_events:
            if event.kind in (BUILD, LOAD) and self.inference_only(event):
                inference_names.update((id(event.context), t) for t in event.targets)
        for event in root_events:
            if event.kind == COMPILE and (id(event.context), event.receiver) in inference_names:
                exempt_compiles.add(id(event))

        seen: set[tuple[int, str]] = set()

        def report(kind: str, event: Event, via: str | None = None) -> None:
            if (id(event.node), kind) not in seen:
                seen.add((id(event.node), kind))
                detail = "" if via else event.detail
                outside.append(OutsideScope(kind, event.node, via, event.top, detail))

        for event in root_events:
            if event.kind in (BUILD, LOAD):
                if (id(event.context), event.targets[0] if event.targets else "") not in inference_names:
                    report(event.kind, event)
            elif event.kind == COMPILE:
                if id(event) not in exempt_compiles:
                    report(COMPILE, event)
            elif event.kind == OPTIMIZER:
                if not event.inline and self._optimizer_used_in_strategy(event, exempt_compiles):
                    report(OPTIMIZER, event)
            elif event.kind == CALL:
                self._report_call(event, report, exempt_compiles)

        # Even under OneDeviceStrategy: the batch stays unscaled when the code
        # moves to more replicas (the contract judges every strategy in play).
        for context in self._strategy_code(roots):
            for event in context.events:
                if event.kind == BATCH and not self._per_replica(event):
                    verdict, value = self.batch_value(event.value, context, 0, event.seq)
                    if verdict == "const":
                        batches.append(UnscaledBatch(event.report_node or event.node, value, event.top))
        return Analysis(True, outside, batches, w.strategy_name or "strategy", frozenset(w.imported_calls))

    def _strategy_code(self, roots: list[Context]) -> list[Context]:
        """Contexts that run with a strategy around: the roots, what they
        call (transitively), and the lambdas inside those. A test method or
        utility that no strategy code calls is not judged for batch sizes."""
        reached: dict[int, Context] = {}
        pending = list(roots) + [c for c in self.w.contexts if c.mentions_strategy]
        while pending:
            context = pending.pop()
            if id(context) in reached:
                continue
            reached[id(context)] = context
            for event in context.events:
                if event.kind == CALL:
                    pending.extend(t for what, t in self.callees(event) if what == "function")
        module_owns = self.w.module_context.owns_strategy
        for context in self.w.contexts:
            if context.is_lambda and context.parent is not None and id(context.parent) in reached:
                reached[id(context)] = context
            elif module_owns and not context.is_lambda and context.class_name not in self.model_classes:
                # A module that makes its strategy at the top: its dataset helpers
                # are used with it, even when another file calls them.
                reached[id(context)] = context
        return list(reached.values())

    def _report_call(self, event: Event, report, exempt_compiles: set[int]) -> None:
        for what, target in self.callees(event):
            if what == "model":
                if not self.inference_only(event):
                    report(BUILD, event, None)
                continue
            if what == "load":
                report(LOAD, event, None)
                continue
            kinds = self._callee_kinds(what, target)
            via = target.rsplit(".", 1)[-1] if what == "external" else target.name
            if BUILD in kinds and not self.inference_only(event):
                report(BUILD, event, via)
            if LOAD in kinds and not self.inference_only(event):
                report(LOAD, event, via)
            if COMPILE in kinds:
                report(COMPILE, event, via)
            if OPTIMIZER in kinds and not kinds & {BUILD, LOAD, COMPILE}:
                if self._optimizer_used_in_strategy(event, exempt_compiles):
                    report(OPTIMIZER, event, via)

    def _per_replica(self, event: Event) -> bool:
        if event.per_replica:
            return True
        context: Context | None = event.context
        while context is not None and not context.is_module:
            if context.per_replica or context.name in self.w.per_replica_fn_names:
                return True
            context = context.parent
        return False

    # --- batch sizes -----------------------------------------------------------

    def batch_value(self, node, context: Context, depth: int, seq: int | None = None) -> tuple[str, int | None]:
        """("const", n), ("derived", None) when scaled by the replica count, or ("unknown", None).

        ``seq`` is where the value is used, for names bound more than once."""
        if depth > 12 or node is None:
            return "unknown", None
        if isinstance(node, cst.Integer):
            try:
                return "const", int(node.evaluated_value)
            except ValueError:
                return "unknown", None
        if isinstance(node, cst.Attribute):
            if node.attr.value == "num_replicas_in_sync":
                return "derived", None
            return "unknown", None
        if isinstance(node, cst.BinaryOperation):
            left = self.batch_value(node.left, context, depth + 1, seq)
            right = self.batch_value(node.right, context, depth + 1, seq)
            return _combine(left, right, node.operator)
        if isinstance(node, cst.Name):
            return self._name_value(node.value, context, depth, seq)
        if isinstance(node, cst.Call):
            if _mentions_replicas(node):
                return "derived", None
            # int(64): a constant in disguise
            if (isinstance(node.func, cst.Name) and node.func.value == "int" and len(node.args) == 1
                    and node.args[0].keyword is None):
                return self.batch_value(node.args[0].value, context, depth + 1, seq)
            return "unknown", None
        return "unknown", None

    def _name_value(self, name: str, context: Context, depth: int, seq: int | None = None) -> tuple[str, int | None]:
        scope: Context | None = context
        while scope is not None:
            if name in scope.params:
                return "unknown", None
            if name in scope.assignments:
                break
            scope = scope.parent
        if scope is None:
            scope = self.w.module_context
            if name not in scope.assignments:
                return "unknown", None
        values = scope.assignments[name]
        if scope is context and seq is not None:
            # In straight-line code the value is the last one bound before the
            # use: BATCH = 64; ds.batch(BATCH); BATCH = 16 * replicas.
            before = [pair for pair in values if pair[0] < seq]
            if before:
                values = before[-1:] if before[-1][1] is not None and not isinstance(before[-1][1], tuple) else before
        verdicts = []
        for _, value in values:
            if value is None:
                return "unknown", None
            if isinstance(value, tuple):  # augmented assignment
                verdicts.append(("aug", self.batch_value(value[1], scope, depth + 1)))
            else:
                verdicts.append(("set", self.batch_value(value, scope, depth + 1)))
        if any(v[1][0] == "derived" for v in verdicts):
            return "derived", None
        if all(v[1][0] == "const" for v in verdicts):
            numbers = {v[1][1] for v in verdicts if v[0] == "set"}
            has_aug = any(v[0] == "aug" for v in verdicts)
            return "const", (numbers.pop() if len(numbers) == 1 and not has_aug else None)
        return "unknown", None


def _combine(left, right, operator) -> tuple[str, int | None]:
    if "derived" in (left[0], right[0]):
        return "derived", None
    if left[0] == "const" and right[0] == "const":
        a, b = left[1], right[1]
        if a is None or b is None:
            return "const", None
        if isinstance(operator, cst.Multiply):
            return "const", a * b
        if isinstance(operator, cst.Add):
            return "const", a + b
        if isinstance(operator, cst.Subtract):
            return "const", a - b
        if isinstance(operator, cst.FloorDivide) and b:
            return "const", a // b
        if isinstance(operator, cst.Power) and 0 <= b < 64:
            return "const", a ** b
        if isinstance(operator, cst.LeftShift):
            return "const", a << b if b < 64 else None
        return "unknown", None
    return "unknown", None


def _mentions_replicas(node: cst.CSTNode) -> bool:
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Attribute) and current.attr.value in (
            "num_replicas_in_sync",
            "get_per_replica_batch_size",
        ):
            return True
        pending.extend(current.children)
    return False
