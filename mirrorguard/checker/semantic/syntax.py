"""Questions about Python syntax alone, asked before or without any binding:
dotted names, assignment targets, ``__main__`` guards, what an expression holds,
and which of the file's functions hand back a strategy scope."""

from __future__ import annotations

import ast
import re
from typing import Iterator

from mirrorguard.checker import names as api
from mirrorguard.checker.semantic.units import walk


# A condition that chooses between distributed and single-device code:
# ``if strategy:``, ``if num_gpus > 1:``, ``if args.distributed:``.
_DISTRIBUTION_WORDS = re.compile(r"(?i)strat|replica|gpu|tpu|distribut|device|worker|parallel|multi")


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def last_identifier(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def ref_key(node: ast.AST) -> str | None:
    """The key a value is tracked under: ``x`` or ``self.x``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
        return "self." + node.attr
    return None


def target_names(target: ast.AST) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Attribute):
        name = dotted(target)
        if name:
            yield name
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from target_names(element)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def is_main_guard(test: ast.AST) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = (test.left, test.comparators[0])
    names = {n.id for n in sides if isinstance(n, ast.Name)}
    strings = {n.value for n in sides if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return names == {"__name__"} and strings == {"__main__"}


def tests_distribution(test: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and _DISTRIBUTION_WORDS.search(n.id) for n in walk(test))


def held_calls(value: ast.expr) -> Iterator[ast.Call]:
    """The calls whose results ``value`` holds: itself, the elements of lists,
    tuples, sets and dicts (nested), ``dict(k=...)`` and comprehension elements."""
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Name) and value.func.id == "dict":
            for keyword in value.keywords:
                yield from held_calls(keyword.value)
        else:
            yield value
    elif isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        for element in value.elts:
            yield from held_calls(element)
    elif isinstance(value, ast.Dict):
        for element in value.values:
            yield from held_calls(element)
    elif isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        yield from held_calls(value.elt)
    elif isinstance(value, ast.DictComp):
        yield from held_calls(value.value)


def looks_like_scope(node: ast.AST | None) -> bool:
    """``strategy.scope()``, ``self.strategy.scope()``, ``a if c else b`` of one: read syntactically,
    before any binding is known (the helpers may be defined after their use)."""
    if isinstance(node, ast.IfExp):
        return looks_like_scope(node.body) or looks_like_scope(node.orelse)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "scope":
        receiver = func.value
        if isinstance(receiver, ast.Call):
            receiver = receiver.func
        name = last_identifier(receiver)
        return name is not None and (api.says_strategy(name) or name.endswith("Strategy"))
    name = last_identifier(func)
    return name is not None and api.says_strategy_scope(name)


def scope_returning_functions(body: list[ast.stmt]) -> set[str]:
    """Names of functions and methods that hand back a strategy scope: they
    return one, or are generators that yield inside one (``@contextmanager``)."""
    found: set[str] = set()

    def scan(statements: list[ast.stmt], function: str | None, in_scope: bool) -> None:
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scan(statement.body, statement.name, False)
            elif isinstance(statement, ast.ClassDef):
                scan(statement.body, None, False)
            elif isinstance(statement, ast.Return) and function and looks_like_scope(statement.value):
                found.add(function)
            elif isinstance(statement, (ast.With, ast.AsyncWith)):
                scoped = in_scope or any(looks_like_scope(item.context_expr) for item in statement.items)
                scan(statement.body, function, scoped)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, (ast.Yield, ast.YieldFrom)):
                if function and in_scope:
                    found.add(function)
            elif isinstance(statement, (ast.If, ast.For, ast.While, ast.Try)):
                for field_name in ("body", "orelse", "finalbody"):
                    scan(getattr(statement, field_name, []), function, in_scope)
                for handler in getattr(statement, "handlers", []):
                    scan(handler.body, function, in_scope)
    scan(body, None, False)
    return found


def scope_decorators(body: list[ast.stmt]) -> set[str]:
    """Decorators that run the function they wrap inside a strategy scope::

        def under_strategy(fn):
            def wrapper(strategy, *args):
                with strategy.scope():
                    return fn(*args)
            return wrapper
    """
    found: set[str] = set()
    for statement in body:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        wrapped = {a.arg for a in statement.args.args}
        for inner in statement.body:
            if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = {a.arg for a in (*inner.args.posonlyargs, *inner.args.args, *inner.args.kwonlyargs)}
            for node in walk(inner):
                if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                    looks_like_scope(item.context_expr) or _scope_of(item.context_expr, params)
                    for item in node.items
                ) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in wrapped
                          for stmt in node.body for n in walk(stmt)):
                    found.add(statement.name)
    return found


def _scope_of(node: ast.AST, params: set[str]) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "scope"
            and isinstance(node.func.value, ast.Name) and node.func.value.id in params)


def chain_root(func: ast.expr) -> str | None:
    """``ds`` for ``ds.shuffle(100).batch``: the name a chain of method calls starts from."""
    if not isinstance(func, ast.Attribute):
        return None
    node = func.value
    while True:
        key = ref_key(node)
        if key is not None:
            return key
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        else:
            return None


def is_inference_call(node: ast.Call) -> bool:
    """``model(x, training=False)``: a forward pass that cannot be training."""
    return any(
        k.arg == "training" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in node.keywords
    )
