"""The semantic model: what the rules ask of one file.

Built from one :class:`~.builder.Builder` walk, it answers in the rules' terms:

* which calls have an *effect* (a rule's predicate over a call: "builds a
  Keras model", "compiles a model"): :meth:`SemanticModel.effects_of`;
* what each of the file's functions does outside any scope of its own, for its
  callers to judge (its *summary*, transitively): :meth:`SemanticModel.exposed`;
* which calls run outside every strategy scope, directly or through helpers,
  reported at the outermost call that does: :meth:`SemanticModel.unscoped`;
* how a model, optimizer or metric bound to a name is used, and what value a
  batch size has (:mod:`.values`).

Roots are judged on their own: the module body when a strategy is in play, a
function that makes a strategy or enters a scope, a program entry (``main()``);
any other function is judged where it is called. A function never called in
the file is judged on its own only when it mentions a strategy.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple

from mirrorguard.checker import names as api
from mirrorguard.checker.semantic.syntax import last_identifier
from mirrorguard.checker.semantic.distribute import INFERENCE_METHODS, Builder
from mirrorguard.checker.semantic.units import (
    END_OF_UNIT,
    AttributeCall,
    CallSite,
    ImportedHelper,
    LocalFunction,
    SelfMethod,
    Unit,
    Window,
    argument_for,
    never_together,
    walk,
)


class Effect(NamedTuple):
    """Something a call does that must happen inside a strategy scope.

    ``code`` is the rule's code (summaries and cross-file analysis carry it);
    ``matches`` is the rule's predicate over one call; ``makes_model`` says
    the call creates a Keras model (a model's later use decides whether an
    unreplicated copy is deliberate).
    """

    code: str
    matches: Callable[[CallSite, "SemanticModel"], bool]
    makes_model: bool = False
    # Makes, loads or compiles a model: such work done, with the model, before the
    # strategy exists never meets it (optimizers and metrics may be read later).
    works_on_model: bool = False


class Exposure(NamedTuple):
    """A call outside every strategy scope that has ``code``'s effect.

    ``via`` names the file's own (or an imported) helper that has it, when the
    call reaches the effect through one; ``codes`` is everything that call exposes.
    """

    site: CallSite
    code: str
    via: str | None
    codes: frozenset[str]


class SemanticModel:
    def __init__(self, builder: Builder, effects: Iterable[Effect]) -> None:
        # The walk's tables: rules never see them, they ask the questions below.
        self._binder = builder
        self._facts = facts = builder.facts
        self.effects = tuple(effects)
        self.units = builder.units
        self.module = builder.module
        # An Estimator given the strategy (RunConfig(train_distribute=...))
        # distributes without any scope: nothing here is judged against one,
        # unless the file also enters a scope (a migration guide's Keras half).
        self.strategy_in_play = facts.strategy_in_play and not (
            facts.estimator_distribution and not facts.scope_entered
        )
        # The name the strategy is bound to ("" when it is never bound to one).
        self.strategy_variable = facts.strategy_name
        self.strategy_name = facts.strategy_name or "strategy"
        self.imported_calls = frozenset(builder.imported_calls)
        self.model_classes = self._model_classes()
        self.callback_classes = self.subclasses(api.CALLBACK_BASES)
        self._effects_by_code = {effect.code: effect for effect in self.effects}
        self._model_work = frozenset(effect.code for effect in self.effects if effect.works_on_model)
        self._matches: dict[tuple[int, str], bool] = {}
        self._direct: dict[int, frozenset[str]] = {}
        self._exposed: dict[int, frozenset[str]] = {}
        self._in_progress: set[int] = set()
        self._callees: dict[int, list[Unit | ImportedHelper]] = {}
        self._root_ids: set[int] = set()
        self._has_scoped_model: bool | None = None
        self._exposures: list[Exposure] | None = None
        self._unreplicated: list[tuple[int, str, Window]] | None = None
        self._bound_by: dict[frozenset[str], set[str]] = {}
        self._readers_index: dict[str, list[Unit]] | None = None
        self.cache: dict = {}  # answers worked out once per file (values.py)
        self.roots: list[Unit] = []
        if self.strategy_in_play:
            self.roots = self._find_roots()
            self._root_ids = {id(root) for root in self.roots}
            self._exposed.clear()
            self._mark_strategy_free_paths()

    # --- names ----------------------------------------------------------------------

    def qualify(self, node: ast.AST) -> tuple[str, ...]:
        """Canonical qualified names ``node`` may refer to (as seen from the module)."""
        return self._binder.qualify(node)

    @property
    def extra_model_factories(self) -> set[str]:
        return self._binder.extra_model_factories

    def is_strategy(self, node: ast.AST) -> bool:
        return self._binder.is_strategy(node)

    def class_names(self) -> Iterator[str]:
        """The classes the file defines."""
        return iter(self._binder.class_bases)

    def class_bases(self, class_name: str) -> list[ast.expr]:
        """The base expressions of one of the file's classes (none for another name)."""
        return self._binder.class_bases.get(class_name, [])

    def instance_class(self, name: str) -> str | None:
        """``trainer = Trainer(...)``: the file's class whose instance ``name`` holds."""
        return self._binder.instances.get(name)

    def is_estimator_input_fn(self, unit: Unit) -> bool:
        """Handed to an Estimator as its ``input_fn`` (the Estimator batches per replica itself)."""
        return unit.name in self._facts.estimator_input_fns

    def is_element_function(self, unit: Unit) -> bool:
        """Mapped by a dataset over its elements or windows (``flat_map(fn)``)."""
        return unit.name in self._facts.element_fn_names

    def held_key(self, site: CallSite) -> str | None:
        """``metrics.update({"test/auc": AUC()})``: the constant key under which
        the container named in ``site.targets`` holds the call's result."""
        return self._binder.held_keys.get(id(site.node))

    def names_bound_by(self, codes: frozenset[str]) -> set[str]:
        """Names ever bound to the result of a call with one of ``codes``' effects."""
        found = self._bound_by.get(codes)
        if found is None:
            found = {
                target
                for unit in self.units
                for site in unit.calls
                if site.targets and any(self.has_effect(site, code) for code in codes)
                for target in site.targets
            }
            self._bound_by[codes] = found
        return found

    # --- classes and callees ---------------------------------------------------------

    def _model_classes(self) -> set[str]:
        return self.subclasses(api.MODEL_BASES)

    def subclasses(self, roots: frozenset[str]) -> set[str]:
        """The file's classes deriving (transitively) from one of ``roots``."""
        bases = self._binder.class_bases
        models: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, base_nodes in bases.items():
                if name in models:
                    continue
                for base in base_nodes:
                    if (isinstance(base, ast.Name) and base.id in models) or any(
                        q in roots for q in self.qualify(base)
                    ):
                        models.add(name)
                        changed = True
                        break
        return models

    def class_chain(self, class_name: str) -> Iterator[str]:
        seen: set[str] = set()
        pending = [class_name]
        while pending:
            name = pending.pop(0)
            if name in seen:
                continue
            seen.add(name)
            yield name
            for base in self._binder.class_bases.get(name, ()):
                if isinstance(base, ast.Name):
                    pending.append(base.id)

    def method(self, class_name: str, name: str) -> Unit | None:
        for owner in self.class_chain(class_name):
            found = self._binder.methods.get((owner, name))
            if found is not None:
                return found
        return None

    def function(self, name: str, caller: Unit) -> Unit | None:
        candidates = self._binder.functions.get(name)
        if not candidates:
            return None
        # Prefer a function nested in the caller's own chain of definitions.
        chain = []
        unit: Unit | None = caller
        while unit is not None:
            chain.append(unit)
            unit = unit.parent
        for candidate in reversed(candidates):
            if candidate.parent in chain:
                return candidate
        return candidates[-1]

    def method_enters_scope(self, class_name: str | None, name: str) -> bool:
        """Does the class's method (its own or inherited from the file's classes)
        enter a strategy scope itself: ``def compile(self, **kw): with
        self.strategy.scope(): super().compile(**kw)``?"""
        if class_name is None:
            return False
        method = self.method(class_name, name)
        return method is not None and id(method) in self._facts.scoped_units

    def constructs_in_own_scope(self, class_name: str | None) -> bool:
        """Is an instance of the file's Keras model class made inside a strategy
        scope its ``__init__`` enters itself? The Keras model is constructed by
        ``super().__init__()``: that call must run in the scope too. Measured (Keras
        3.15, 2 CPU replicas): with only the layers in the scope, ``fit`` fails with
        'Need to be inside "with strategy.scope()"'; with ``super().__init__()``
        there as well, every weight and optimizer variable is mirrored."""
        if class_name is None or not self.method_enters_scope(class_name, "__init__"):
            return False
        init = self.method(class_name, "__init__")
        constructions = [site for site in init.calls if _calls_super_init(site.node)]
        return bool(constructions) and all(site.in_scope for site in constructions)

    def instantiated_class(self, site: CallSite) -> str | None:
        """``Net()`` / ``cls()``: the class of this file the call creates an instance of."""
        if not isinstance(site.callee, LocalFunction):
            return None
        name = site.callee.name
        if name == "cls" and site.unit.class_name:
            name = site.unit.class_name  # cls(...) in a classmethod
        return name if name in self._binder.class_bases else None

    def class_method_called(self, site: CallSite) -> tuple[str, str] | None:
        """``Net.from_config(...)``: (class of this file, method) called on the class itself."""
        callee = site.callee
        if isinstance(callee, AttributeCall) and callee.receiver in self._binder.class_bases:
            return callee.receiver, callee.method
        return None

    def callees(self, site: CallSite) -> list[Unit | ImportedHelper]:
        """The file's functions (or an imported helper) a call runs."""
        key = id(site)
        found = self._callees.get(key)
        if found is not None:
            return found
        found = []
        callee = site.callee
        if isinstance(callee, LocalFunction):
            class_name = self.instantiated_class(site)
            if class_name is not None:
                # Creating an instance runs __init__ (a model class's too).
                init = self.method(class_name, "__init__")
                if init is not None:
                    found.append(init)
            else:
                function = self.function(callee.name, site.unit)
                if function is not None:
                    found.append(function)
        elif isinstance(callee, ImportedHelper):
            found.append(callee)
        elif isinstance(callee, SelfMethod):
            method = self.method(callee.class_name, callee.method) if callee.class_name else None
            if method is not None:
                found.append(method)
        elif isinstance(callee, AttributeCall):
            class_name = self._binder.instances.get(callee.receiver)
            if class_name is None and callee.receiver in self._binder.class_bases:
                class_name = callee.receiver  # Trainer.build(...) on the class itself
            if class_name is not None:
                method = self.method(class_name, callee.method)
                if method is not None:
                    found.append(method)
        self._callees[key] = found
        return found

    # --- effects and summaries ----------------------------------------------------------

    def has_effect(self, site: CallSite, code: str) -> bool:
        """Does the call itself (not through a helper) have ``code``'s effect?"""
        key = (id(site), code)
        found = self._matches.get(key)
        if found is None:
            effect = self._effects_by_code.get(code)
            found = self._matches[key] = effect is not None and effect.matches(site, self)
        return found

    def effects_of(self, site: CallSite) -> frozenset[str]:
        """Codes of the effects the call has itself (not through a helper)."""
        key = id(site)
        found = self._direct.get(key)
        if found is None:
            found = frozenset(effect.code for effect in self.effects if self.has_effect(site, effect.code))
            self._direct[key] = found
        return found

    def exposed(self, unit: Unit) -> frozenset[str]:
        """What ``unit`` does outside any scope of its own, for its callers to judge."""
        key = id(unit)
        found = self._exposed.get(key)
        if found is not None:
            return found
        if unit.owns_strategy or key in self._in_progress or key in self._root_ids:
            return frozenset()
        self._in_progress.add(key)
        codes: set[str] = set()
        for site in unit.calls:
            if not site.in_scope:
                codes |= self.reaches(site)
        self._in_progress.discard(key)
        result = frozenset(codes)
        self._exposed[key] = result
        return result

    def reaches(self, site: CallSite) -> frozenset[str]:
        """Effects of the call itself, and of the helpers it runs (only a
        constructor's __init__ when the call has effects of its own)."""
        direct = self.effects_of(site)
        if direct and self.instantiated_class(site) is None:
            return direct
        codes: set[str] = set(direct)
        for target in self.callees(site):
            codes |= self._target_codes(target)
        return frozenset(codes)

    def _target_codes(self, target: Unit | ImportedHelper) -> frozenset[str]:
        if isinstance(target, ImportedHelper):
            return self._binder.external.get(target.qualified, frozenset())
        return self.exposed(target)

    def summary(self) -> dict[str, frozenset[str]]:
        """What each module-level function and model class does outside a scope
        of its own: the view other files get of this one (cross-file analysis)."""
        result: dict[str, frozenset[str]] = {}
        for name, units in self._binder.functions.items():
            top = [u for u in units if u.parent is self.module]
            if top:
                codes = self.exposed(top[-1])
                if codes:
                    result[name] = codes
        for name in self.model_classes:
            # What ``Name()`` would do: ask the effects about such a call.
            call = ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[], keywords=[])
            site = CallSite(call, self.module, False, 0, (), call, callee=LocalFunction(name))
            codes = self.reaches(site)
            if codes:
                result[name] = codes
        return result

    # --- roots ---------------------------------------------------------------------------

    def _find_roots(self) -> list[Unit]:
        for unit in self.units:
            for site in unit.calls:
                for target in self.callees(site):
                    if isinstance(target, Unit) and target is not unit:
                        target.callers.append(site)
        roots = []
        for unit in self.units:
            if unit.class_name in self.model_classes:
                # A Keras model's own methods: what they do is judged where
                # the model is instantiated.
                continue
            if unit.is_module:
                roots.append(unit)
            elif unit.class_name in self.callback_classes and unit.name.startswith("on_"):
                # Keras runs a callback's hooks from fit(), outside any strategy scope (Keras 3).
                roots.append(unit)
            elif unit.owns_strategy:
                roots.append(unit)
            elif not unit.callers and unit.mentions_strategy and not unit.is_lambda:
                roots.append(unit)
            elif not unit.is_lambda and (
                (unit.callers and all(site.entry for site in unit.callers))
                or (not unit.callers and unit.name in self._facts.entry_functions)
            ):
                # main(): the program itself, judged inside rather than at the
                # line that starts it.
                roots.append(unit)
        return roots

    # --- what runs outside the scope ----------------------------------------------------------

    def unscoped(self, code: str) -> Iterator[Exposure]:
        """Calls in the roots, outside any scope, that have ``code``'s effect
        themselves or through the helpers they run."""
        if self._exposures is None:
            self._exposures = self._find_exposures()
        return (e for e in self._exposures if e.code == code)

    def _strategy_created_at(self, unit: Unit) -> int | None:
        """The walk order of the first strategy the unit itself constructs, if any."""
        orders = [s.order for s in unit.calls if s.qualified and api.call_role(s.qualified) is api.CallRole.STRATEGY]
        return min(orders) if orders else None

    def _before_the_strategy(self, site: CallSite, created: int | None) -> bool:
        """Does the call run, with all it makes or works on, before the strategy exists?
        ``model = build(); model.fit(...)`` and only then ``strategy = MirroredStrategy()``:
        that model never meets the strategy (issue 17: judge what meets it)."""
        if created is None or site.order >= created or site.bound_in is not None:
            return False
        names = [*site.targets, *([site.receiver] if site.receiver else [])]
        for name in names:
            if "." in name:
                return False
            unit = site.unit
            # The binding this call makes or works on, until the name is bound again.
            start, end = unit.window(name, site.order) if name in site.targets else self._holding(unit, name, site.order)
            if any(read.order > created for read in unit.reads_between(name, start, end)):
                return False  # used once the strategy exists (compiled in its scope, say)
            if self.seen_by_functions(unit, name, end) and any(
                    other is not unit for other in self.units_seeing(unit, name)):
                return False  # a function reads it: it may run with the strategy
        return True

    def trained_before_the_strategy(self, site: CallSite) -> bool:
        """Does this call (``first.fit(ds.batch(64))``) run, with the model it works on, before
        its function makes the strategy, and is that model never used once the strategy exists?"""
        unit = site.unit
        if site.receiver is None or not unit.makes_strategy:
            return False
        if not self._before_the_strategy(site, self._strategy_created_at(unit)):
            return False
        # The model must be one made here, outside any scope, by code that makes or enters no
        # strategy of its own: `model = create_model()` may return a model built in its scope.
        made = [b for b in unit.bindings.get(site.receiver, ()) if b.order < site.order]
        origin = made[-1].value if made else None
        maker = next((s for s in unit.calls if s.node is origin), None)
        if maker is None or maker.in_scope:
            return False
        return all(isinstance(t, Unit) and not (t.owns_strategy or t.makes_strategy) for t in self.callees(maker))

    @staticmethod
    def _holding(unit: Unit, name: str, order: int) -> Window:
        """The window of the binding of ``name`` that holds at walk order ``order``."""
        made = [b.order for b in unit.bindings.get(name, ()) if b.order <= order]
        return unit.window(name, max(made) - 1) if made else Window(0, unit.window(name, order).end)

    def sees_strategy(self, unit: Unit) -> bool:
        """Can a strategy reach code of ``unit``? It makes or enters one (or a
        function it nests in does), is handed one (a parameter, ``self.strategy``),
        reads a strategy by name, the module makes one (functions run after it),
        or a caller sees one. TFX's ``tuner_fn`` beside a ``run_fn`` that makes
        its own strategy sees none: the Tuner component runs it alone."""
        key = ("sees", id(unit))
        found = self.cache.get(key)
        if found is None:
            self.cache[key] = False  # a cycle of callers counts as no
            found = self.cache[key] = self._sees_strategy(unit)
        return found

    def _sees_strategy(self, unit: Unit) -> bool:
        module = self.module
        current: Unit | None = unit
        while current is not None:
            if current.owns_strategy or current.makes_strategy or current.mentions_strategy:
                return True
            if any(name in current.refs for name in (*self._facts.strategy_vars, *self._binder.extra_strategy_names)):
                return True  # reads a strategy by name
            if current is module and self._module_binds_strategy():
                return True
            current = current.parent
        if unit.class_name is not None:
            return True  # a method: judged with its class's other code, as before
        return any(site.in_scope or self.sees_strategy(site.unit) for site in unit.callers)

    def _module_binds_strategy(self) -> bool:
        module = self.module
        return module.makes_strategy or module.owns_strategy or any(
            name in module.bindings for name in self._facts.strategy_vars)

    def _mark_strategy_free_paths(self) -> None:
        """``if FLAGS.use_tpu: strategy = TPUStrategy(resolver) ... else: model = build()``:
        a call on a branch that no strategy of its unit reaches runs with none, so it
        is not judged (``site.single_device``, as the ``else:`` of ``if strategy:``)."""
        module = self.module
        module_strategy = self._strategy_events(module)
        for unit in self.units:
            if not unit.makes_strategy or unit.mentions_strategy:
                continue  # makes none itself, or is handed one (a parameter, self.strategy)
            if unit is not module and (module_strategy or unit.class_name is not None):
                continue  # a module-level strategy (or self.strategy) may reach it
            if any(parent.makes_strategy or parent.mentions_strategy for parent in self._enclosing(unit)):
                continue
            events = self._strategy_events(unit) if unit is not module else module_strategy
            if not events or not all(events):
                continue  # a strategy made outside every branch reaches every call
            same = self._repeated_conditions(unit)
            events = [_canonical(event, same) for event in events]
            for site in unit.calls:
                path = self._binder.call_branches.get(id(site))
                if path and all(never_together(_canonical(path, same), event) for event in events):
                    site.single_device = True

    def _repeated_conditions(self, unit: Unit) -> dict[int, int]:
        """``if args.gpu_num >= 2: strategy = ...`` and later ``if args.gpu_num >= 2: ...
        else: ...`` again: ifs of one unit that test the same expression, none of whose
        names is bound between them, take the same branch. id(if) -> id of the first such if."""
        tests = self._binder.if_tests
        branches = self._binder.call_branches
        mine = {node for site in unit.calls for node, _ in branches.get(id(site), ())}
        # Only the ifs this unit's calls sit in are compared (dumped to compare them as text).
        ifs = sorted((order, node_id, test) for node_id, (test, order) in tests.items() if node_id in mine)
        first: dict[str, tuple[int, int]] = {}
        same: dict[int, int] = {}
        for order, node_id, test in ifs:
            dump = ast.dump(test)
            if dump in first:
                earlier_order, earlier_id = first[dump]
                names = {node.id for node in walk(test) if isinstance(node, ast.Name)}
                rebound = any(b.order > earlier_order and b.order < order
                              for name, bindings in unit.bindings.items()
                              if name.split(".")[0] in names for b in bindings)
                if not rebound:
                    same[node_id] = earlier_id
                    continue
            first[dump] = (order, node_id)
        return same

    def _strategy_events(self, unit: Unit) -> list[tuple[tuple[int, int], ...]]:
        """The branch paths of the points where ``unit`` makes or binds a strategy."""
        branches = self._binder.call_branches
        events = [branches.get(id(site), ()) for site in unit.calls
                  if site.qualified and api.call_role(site.qualified) in (api.CallRole.STRATEGY,
                                                                          api.CallRole.GET_STRATEGY)]
        for name in self._facts.strategy_vars:
            for binding in unit.bindings.get(name, ()):
                value = binding.value
                if not (isinstance(value, ast.Constant) and value.value is None):
                    events.append(binding.branches)
        return events

    @staticmethod
    def _enclosing(unit: Unit) -> Iterator[Unit]:
        parent = unit.parent
        while parent is not None and not parent.is_module:
            yield parent
            parent = parent.parent

    def _find_exposures(self) -> list[Exposure]:
        found: list[Exposure] = []
        seen: set[tuple[int, str]] = set()
        for root in self.roots:
            created = self._strategy_created_at(root) if root.makes_strategy else None
            for site in root.calls:
                if site.in_scope or site.single_device:
                    continue
                direct = self.effects_of(site)
                if created is not None and site.order < created:
                    # Made (itself or by the file's helper) and worked on to the end before the
                    # strategy exists: `baseline = build_and_compile(); baseline.fit(...)`.
                    made = direct or set().union(*(self._target_codes(t) for t in self.callees(site)))
                    if made and made <= self._model_work and self._before_the_strategy(site, created):
                        continue
                exposures = [(code, None, direct) for code in sorted(direct)]
                if not direct or self.instantiated_class(site) is not None:
                    for target in self.callees(site):
                        codes = self._target_codes(target)
                        if isinstance(target, ImportedHelper):
                            # bm2() after `import build_model as bm2`: the name the user wrote
                            via = last_identifier(site.node.func) or target.qualified.rsplit(".", 1)[-1]
                        elif target.name == "__init__" and target.class_name:
                            via = target.class_name  # Trainer(): the class, not its __init__
                        else:
                            via = target.name
                        exposures += [(code, via, codes) for code in sorted(codes - direct)]
                for code, via, codes in exposures:
                    if (id(site.node), code) not in seen:
                        seen.add((id(site.node), code))
                        found.append(Exposure(site, code, via, codes))
        return found

    # --- how a bound model is used -------------------------------------------------------------

    @property
    def has_scoped_model(self) -> bool:
        """Does any model get built or loaded inside a strategy scope?"""
        if self._has_scoped_model is None:
            model_codes = {e.code for e in self.effects if e.makes_model}
            self._has_scoped_model = any(
                site.in_scope and self.reaches(site) & model_codes
                for unit in self.units
                for site in unit.calls
            )
        return self._has_scoped_model

    def uses(self, unit: Unit, name: str, after: int) -> tuple[int, int, bool]:
        """(reads, inference-only uses, read inside a scope?) of the binding of
        ``name`` that ``unit`` makes after walk order ``after``: its own reads
        until the name is bound again, and every read by the units that see it."""
        start, end = unit.window(name, after)
        total = inference = 0
        in_scope = False
        for other in self.units_seeing(unit, name):
            if other is not unit and not self.seen_by_functions(unit, name, end):
                continue
            inside = (lambda order: start <= order < end) if other is unit else (lambda order: True)
            for read in other.reads_between(name, start, end) if other is unit else other.reads_of(name):
                if inside(read.order):
                    total += 1
                    in_scope = in_scope or read.in_scope
            inference += sum(1 for use in other.inference if use.name == name and inside(use.order))
            if not self.is_replica_function(other):
                # A forward pass outside any GradientTape: a prediction.
                inference += sum(1 for use in other.forward if use.name == name and inside(use.order))
            # ExportModel(copy): wrapped into another copy that is itself only exported or evaluated.
            inference += sum(1 for call in other.calls_on(name) if inside(call.order) and self._wraps_into_copy(call))
        return total, inference, in_scope

    def _wraps_into_copy(self, call: CallSite) -> bool:
        key = ("wraps", id(call))
        if key in self.cache:
            return self.cache[key]
        self.cache[key] = False  # a cycle counts as no
        model_codes = {e.code for e in self.effects if e.makes_model}
        found = bool(self.reaches(call) & model_codes) and self.kept_unreplicated(call)
        self.cache[key] = found
        return found

    def kept_unreplicated(self, site: CallSite) -> bool:
        """A model bound to plain names used only to evaluate, predict or save.

        Such a model was deliberately kept out of the strategy (the TensorFlow
        tutorials load an "unreplicated" copy to evaluate it), so it is no mistake.
        Several rules ask about one call: worked out once.
        """
        key = ("kept", id(site))
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._kept_unreplicated(site)
        return found

    def _kept_unreplicated(self, site: CallSite) -> bool:
        model_codes = {e.code for e in self.effects if e.makes_model}
        makes_it = bool(self.effects_of(site) & model_codes)
        if makes_it and id(site.node) in self._facts.serving_results:
            return True  # load_model(p).signatures["serving_default"]: served, never trained
        # The copy is deliberate only beside a replicated twin; a lone model
        # made outside the scope is the model the strategy was made for (also
        # one not used yet: the work in progress a pre-commit hook sees).
        if not self.has_replicated_twin:
            return False
        targets = site.targets
        if not targets:
            # keras.Sequential(...) as a statement: dead; tuner.hypermodel.build(hp).save(p): saved.
            # Only a call that makes the model itself: a helper's may train it before it returns.
            if not makes_it:
                return False
            if not site.chained:
                return site.inside_call is None and id(site.node) in self._binder.discarded
            outer = site.inside_call  # the chain's own call: build(hp).save(p) is inside save(...)
            receiver_of_outer = outer is not None and isinstance(outer.node.func, ast.Attribute) and (
                outer.node.func.value is site.node)
            return (outer is None or receiver_of_outer) and all(m in INFERENCE_METHODS for m in site.chained)
        if any("." in target for target in targets):
            return False
        uses = [self.uses(site.binding_unit, target, site.order) for target in targets]
        if all(total == 0 for total, _, _ in uses) and (makes_it or self.reaches(site) <= model_codes):
            # A copy never used never meets the strategy: built here, or by a helper that
            # only builds it (one that also compiles it outside a scope did more than that).
            return True
        for total, inference, in_scope in uses:
            # Used inside a scope (compiled there, say): meant for the strategy.
            if total <= 0 or inference < total or in_scope:
                return False
        return True

    @property
    def has_replicated_twin(self) -> bool:
        """Is some model of the file replicated: built or loaded in a scope, or
        built by a Keras Tuner tuner given ``distribution_strategy=``?"""
        found = self.cache.get("replicated twin")
        if found is None:
            found = self.cache["replicated twin"] = self.has_scoped_model or any(
                site.keyword("distribution_strategy") is not None and any(q in api.TUNERS for q in site.qualified)
                for unit in self.units for site in unit.calls)
        return found

    @property
    def unreplicated_names(self) -> set[tuple[int, str]]:
        """(id of unit, name) of models deliberately kept out of the strategy."""
        return {(unit, name) for unit, name, _ in self._unreplicated_bindings()}

    def holds_unreplicated(self, unit: Unit, name: str, order: int) -> bool:
        """Does ``name``, read by ``unit`` at walk order ``order``, hold a model
        deliberately kept out of the strategy? By binding: ``model`` trained in
        the scope and later rebound to an inspected reload is two bindings."""
        for bound_in, bound, window in self._unreplicated_bindings():
            if bound != name:
                continue
            if bound_in == id(unit) and window.holds_at(order):
                return True
            if bound_in != id(unit) and self.seen_by_functions(unit, name, window.end):
                return True
        return False

    def _unreplicated_bindings(self) -> list[tuple[int, str, Window]]:
        if self._unreplicated is None:
            model_codes = {e.code for e in self.effects if e.makes_model}
            found: list[tuple[int, str, Window]] = []
            for root in self.roots:
                for site in root.calls:
                    if not site.in_scope and self.reaches(site) & model_codes and self.kept_unreplicated(site):
                        unit = site.binding_unit
                        found.extend((id(unit), t, unit.window(t, site.order)) for t in site.targets)
            self._unreplicated = found
        return self._unreplicated

    def units_seeing(self, unit: Unit, name: str) -> Iterator[Unit]:
        """``unit`` and the units that read its binding of ``name``: closures
        nested in it, the class's other methods for ``self.x``, and every
        function for a module global they do not rebind."""
        yield unit
        # Only units that read the name at all can see a binding of it.
        readers = self._readers().get(name, ())
        if name.startswith("self."):
            for other in readers:
                if other is not unit and other.class_name and other.class_name == unit.class_name:
                    yield other
            return
        for other in readers:
            if other is unit:
                continue
            # ``other`` sees the binding if its chain of enclosing units
            # reaches ``unit`` without rebinding the name on the way.
            current: Unit | None = other
            while current is not None and current is not unit:
                if name in current.stores or name in current.params:
                    break
                current = current.parent
            if current is unit:
                yield other

    @staticmethod
    def seen_by_functions(unit: Unit, name: str, end: int) -> bool:
        """Do other units (functions, closures) read this binding? Functions run
        after the module (or outer function) has made all its bindings, so they
        see the last one: an earlier binding that is replaced (``end`` is the
        order of the binding that replaces it) is not theirs."""
        return end >= END_OF_UNIT or name.startswith("self.")

    def _readers(self) -> dict[str, list[Unit]]:
        if self._readers_index is None:
            index: dict[str, list[Unit]] = {}
            for unit in self.units:
                for name in unit.refs:
                    index.setdefault(name, []).append(unit)
            self._readers_index = index
        return self._readers_index

    def is_replica_function(self, unit: Unit) -> bool:
        """Given to ``strategy.run``: by name, or through a parameter of a
        helper that runs it (``run_step(strategy, train_step, x)``). A name
        given to ``strategy.run`` that resolves to the file's own functions
        means those: an evaluation ``step_fn`` nested in another function and
        called directly is not the training ``step_fn`` the strategy runs."""
        if unit.name not in self.replica_function_names:
            return False
        units, names = self._replica_units()
        return id(unit) in units or unit.name not in names

    def _replica_units(self) -> tuple[set[int], set[str]]:
        """(ids of the units ``strategy.run(name, ...)`` resolves ``name`` to, the
        names so resolved); a name it cannot resolve is judged by name."""
        found = self.cache.get("replica units")
        if found is None:
            units: set[int] = set()
            names: set[str] = set()
            for caller, name in self._facts.replica_fn_uses:
                function = self.function(name, caller)
                if function is None or name in caller.params:
                    continue
                units.add(id(function))
                names.add(name)
            found = self.cache["replica units"] = (units, names)
        return found

    @property
    def replica_function_names(self) -> set[str]:
        names = self.cache.get("replica functions")
        if names is None:
            names = set(self._facts.replica_fn_names)
            for handed in self._facts.replica_fn_params:
                for site in handed.helper.callers:
                    argument = argument_for(site, handed.helper, handed.param)
                    if isinstance(argument, ast.Name):
                        names.add(argument.id)
            self.cache["replica functions"] = names
        return names

    def runs_per_replica(self, site: CallSite) -> bool:
        """Inside a dataset function that ``distribute_datasets_from_function`` runs per
        pipeline, or in a helper that only such functions call."""
        return site.per_replica or self._unit_per_replica(site.unit, set())

    def _unit_per_replica(self, unit: Unit | None, seen: set[int]) -> bool:
        while unit is not None and not unit.is_module:
            if unit.per_replica or unit.name in self._facts.per_replica_fn_names:
                return True
            if id(unit) not in seen and unit.callers:
                seen.add(id(unit))
                if all(site.per_replica or self._unit_per_replica(site.unit, seen) for site in unit.callers):
                    return True
            unit = unit.parent
        return False

    def strategy_code(self) -> list[Unit]:
        """Units that run with a strategy around: the roots, what they call
        (transitively), and the lambdas inside those. A test method or utility
        that no strategy code calls is not judged for batch sizes. (MG201 and
        MG202 both ask: worked out once.)"""
        found = self.cache.get("strategy code")
        if found is None:
            found = self.cache["strategy code"] = self._strategy_code()
        return found

    def _strategy_code(self) -> list[Unit]:
        reached: dict[int, Unit] = {}
        pending = list(self.roots) + [u for u in self.units if u.mentions_strategy]
        while pending:
            unit = pending.pop()
            if id(unit) in reached:
                continue
            reached[id(unit)] = unit
            for site in unit.calls:
                pending.extend(t for t in self.callees(site) if isinstance(t, Unit))
        module_owns = self.module.owns_strategy
        for unit in self.units:
            if unit.is_lambda and unit.parent is not None and id(unit.parent) in reached:
                reached[id(unit)] = unit
            elif module_owns and not unit.is_lambda and unit.class_name not in self.model_classes:
                # A module that makes its strategy at the top: its dataset helpers
                # are used with it, even when another file calls them.
                reached[id(unit)] = unit
        return list(reached.values())


def _calls_super_init(node: ast.Call) -> bool:
    """``super().__init__(...)`` or ``keras.Model.__init__(self, ...)``."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
        return False
    value = func.value
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super") or (
        isinstance(value, (ast.Name, ast.Attribute)))


def _canonical(path: tuple[tuple[int, int], ...], same: dict[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple((same.get(node, node), branch) for node, branch in path)


def build_model(tree: ast.Module, effects: Iterable[Effect], *, extra_strategy_names: Iterable[str] = (),
                extra_model_factories: Iterable[str] = (),
                external: Mapping[str, frozenset[str]] | None = None) -> SemanticModel:
    """The semantic model of one module's ``ast``."""
    builder = Builder(extra_strategy_names, extra_model_factories, external)
    builder.build(tree)
    return SemanticModel(builder, effects)
