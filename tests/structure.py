"""Reads a package's imports with `ast` and finds what the layering rules forbid.

Used by tests/test_structure.py on ksched_cli (and on small synthetic packages, to show
each check fails when it should). Nothing is imported or run: the source is parsed.

Three kinds of import are told apart, because the rules count them differently:

* ``runtime``: executed when the module is imported (module level, class bodies,
  ``try``/``if`` blocks outside ``if TYPE_CHECKING:``). Only these make import cycles.
* ``typing``: under ``if TYPE_CHECKING:``; never executed, but still a dependency.
* ``lazy``: inside a function (also ``importlib.import_module`` calls whose module name
  starts with a constant, or with ``__package__``); executed on first call.

The layer rule counts all three: a module imports only modules of its own layer and of
lower ones, whichever way it imports them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

# Lowest first. A module's layer is its top-level package under ksched_cli; modules
# directly in ksched_cli (errors, readers, yamlio, bundled) and versions/ (the release
# switches every layer reads) sit with api at the bottom.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("", "versions", "api"),
    ("framework",),
    ("config",),
    ("extender",),
    ("plugins",),
    ("engine",),
    ("manifests",),
    ("controllers",),
    ("whatif",),
    ("diff",),
    ("render",),
    ("cli",),
)

RUNTIME, TYPING, LAZY = "runtime", "typing", "lazy"


@dataclass(frozen=True)
class Import:
    """One module importing another, where in the source, and how."""

    source: str
    target: str
    line: int
    kind: str  # RUNTIME, TYPING or LAZY


@dataclass(frozen=True)
class Patch:
    """An assignment to an attribute of a standard-library module (or ``setattr`` on one)."""

    module: str
    line: int
    text: str


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name (packages by their own)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, kind: str) -> Iterator[tuple[ast.AST, str]]:
    """Every node below ``node`` with the kind of import it would be."""
    for child in ast.iter_child_nodes(node):
        child_kind = kind
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            child_kind = LAZY if kind == RUNTIME else kind
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            yield child.test, kind
            for stmt in child.body:
                yield stmt, TYPING
                yield from _walk(stmt, TYPING)
            for stmt in child.orelse:
                yield stmt, kind
                yield from _walk(stmt, kind)
            continue
        yield child, child_kind
        yield from _walk(child, child_kind)


class _Resolver:
    def __init__(self, name: str, is_package: bool, known: Iterable[str]) -> None:
        self.name = name
        self.package = name if is_package else name.rpartition(".")[0]
        self.known = set(known)

    def relative(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        base = self.package.split(".")
        base = base[: len(base) - (level - 1)]
        return ".".join([*base, module] if module else base)

    def owner(self, dotted: str) -> str | None:
        """The longest known module ``dotted`` is, or is inside."""
        while dotted:
            if dotted in self.known:
                return dotted
            dotted = dotted.rpartition(".")[0]
        return None

    def targets(self, node: ast.AST) -> list[str]:
        if isinstance(node, ast.Import):
            return [t for a in node.names if (t := self.owner(a.name))]
        if isinstance(node, ast.ImportFrom):
            base = self.relative(node.module, node.level)
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in self.known]
            if len(subs) == len(node.names):
                return subs
            found = self.owner(base)
            return [*subs, found] if found else subs
        if isinstance(node, ast.Call):
            name = _dynamic_name(node, self.package)
            found = self.owner(self.relative(*name)) if name else None
            return [found] if found else []
        return []


def _dynamic_name(call: ast.Call, package: str) -> tuple[str, int] | None:
    """``importlib.import_module(NAME, ...)``: the constant part of NAME (module, level)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "import_module") or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        text = arg.value
    elif isinstance(arg, ast.JoinedStr) and arg.values:
        first = arg.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value.rpartition(".")[0] + "."
        elif (
            isinstance(first, ast.FormattedValue)
            and isinstance(first.value, ast.Name)
            and first.value.id == "__package__"
        ):
            text = package
        else:
            return None
    else:
        return None
    stripped = text.lstrip(".")
    return stripped.rstrip(".") or None, len(text) - len(stripped)


def imports(root: Path) -> list[Import]:
    """Every import of one of the package's modules by another (or itself)."""
    known = modules(root)
    found = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        resolver = _Resolver(name, path.name == "__init__.py", known)
        for node, kind in _walk(tree, RUNTIME):
            call_kind = LAZY if isinstance(node, ast.Call) else kind
            for target in resolver.targets(node):
                line = getattr(node, "lineno", 0)
                found.append(Import(name, target, line, call_kind if kind != TYPING else TYPING))
    return found


def cycles(found: Sequence[Import]) -> list[list[str]]:
    """Strongly connected groups of modules through runtime imports (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for imp in found:
        if imp.kind == RUNTIME:
            graph.setdefault(imp.source, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for node in sorted(graph):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(groups)


def layer_of(
    module: str, packages: Collection[str], layers: Sequence[Sequence[str]] = LAYERS
) -> int:
    """The index in ``layers`` of the module's top-level package below the root package.

    ``packages`` are the root's sub-packages; its plain modules are in the layer of "".
    """
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 and parts[1] in packages else ""
    for rank, names in enumerate(layers):
        if top in names:
            return rank
    raise ValueError(f"{module}: in no layer")


def against_layers(
    root: Path, found: Sequence[Import], layers: Sequence[Sequence[str]] = LAYERS
) -> list[Import]:
    """Imports of a module in a higher layer than the importer's."""
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    return [
        i for i in found
        if layer_of(i.target, packages, layers) > layer_of(i.source, packages, layers)
    ]


def stdlib_patches(root: Path) -> list[Patch]:
    """Assignments (``=``, ``+=``, ``del``, ``setattr``) to attributes of standard modules."""
    found = []
    for name, path in modules(root).items():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source, str(path))
        stdlib = _stdlib_names(tree)
        for node in ast.walk(tree):
            for target in _assigned(node):
                if _root_name(target) in stdlib:
                    text = ast.get_source_segment(source, node) or ""
                    found.append(Patch(name, node.lineno, text.splitlines()[0]))  # type: ignore[attr-defined]
    return found


def _stdlib_names(tree: ast.Module) -> set[str]:
    """Names the module binds to standard-library modules by importing them."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] in sys.stdlib_module_names:
                    names.add(alias.asname or alias.name.partition(".")[0])
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and node.module.partition(".")[0] in sys.stdlib_module_names
        ):
            for alias in node.names:
                if _is_stdlib_module(f"{node.module}.{alias.name}"):
                    names.add(alias.asname or alias.name)
    return names


def _is_stdlib_module(dotted: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


def _assigned(node: ast.AST) -> list[ast.expr]:
    """Attribute targets ``node`` assigns or deletes, and the object ``setattr`` changes."""
    if isinstance(node, ast.Assign):
        targets = [t for tgt in node.targets for t in _flatten(tgt)]
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("setattr", "delattr")
        and node.args
    ):
        return [node.args[0]]
    else:
        return []
    # `module.__dict__[name] = ...` too; other item assignments (os.environ[...]) are data.
    return [
        t for t in targets
        if isinstance(t, ast.Attribute)
        or (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)
            and t.value.attr == "__dict__")
    ]


def _flatten(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [t for elt in target.elts for t in _flatten(elt)]
    return [target]


def _root_name(expr: ast.expr) -> str | None:
    """``a`` for ``a``, ``a.b`` and ``a.b.c``: whose attribute is being changed."""
    if isinstance(expr, ast.Attribute | ast.Subscript):
        expr = expr.value
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None
