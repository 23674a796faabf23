#!/usr/bin/env python3
"""Checks the import graph of the Python packages (python/pyasc, python/asc)
with an AST pass, without importing them. It fails on:

- an import inside a function (a lazy import hides a dependency, and with
  it a cycle); the optional third-party frameworks in :data:`OPTIONAL` are
  the exception, since importing them eagerly would cost every ``import
  pyasc``;
- an import cycle between modules (``if TYPE_CHECKING:`` imports do not
  run and are not edges; a submodule's implicit import of its package is not
  an edge either);
- an upward import between the layers of the kernel front end
  (:data:`LAYERS`: a module may import its own layer and those below), or a
  front-end module that no layer lists.

Usage: tools/check_imports.py [PYTHON_DIR]  (default: the repository's
python/); prints each violation and exits 1 when there is one.
"""

from __future__ import annotations

import ast
import pathlib
import sys
from collections.abc import Iterator

#: packages whose modules are checked
PACKAGES = ("pyasc", "asc")

#: third-party modules a function may import on first use
OPTIONAL = ("torch", "jax")

#: the kernel front end's layers, lowest first: each module of
#: pyasc.language, by name relative to it ("names" stands for the package
#: and every module in it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("__init__", "core", "void", "options", "struct", "constructs", "layout", "system",
              "fwk_core", "builtins", "tensor_desc", "sortgather", "matmul_enums",
              "matmul_config", "matmul_static", "adv_tiling")),
    ("names", ("names", "adv_host")),
    ("ir", ("ir",)),
    # the public modules that still define their parameter structs beside
    # their lowerings sit with the lowerings
    ("lower", ("lower", "aipp", "cube", "deq", "img2col", "matmul", "slice_copy", "adv")),
    ("codegen", ("codegen",)),
    ("jit", ("jit", "launch_errors")),
    ("build", ("build",)),
)

FRONT_END = "pyasc.language"


def module_name(root: pathlib.Path, path: pathlib.Path) -> str:
    """The dotted name of the module at path under root."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or \
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(body: list[ast.stmt], in_function: bool) -> Iterator[tuple[ast.stmt, bool]]:
    """Each import statement that runs, with whether it is inside a function."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _imports(node.orelse, in_function)
            continue
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                yield from _imports(children, inner)


def _targets(node: ast.stmt, module: str, is_package: bool, known: set[str]) -> list[str]:
    """The modules an import statement imports (the first party's only)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{source}.{alias.name}"
        out.append(sub if sub in known else source)
    return out


def _layer(module: str) -> int | None:
    rel = module[len(FRONT_END) + 1:] if module != FRONT_END else "__init__"
    top = rel.split(".")[0]
    for rank, (_, members) in enumerate(LAYERS):
        if top in members:
            return rank
    return None


def check(root: pathlib.Path) -> list[str]:
    """Every violation of the rules above in the packages under root."""
    files = {module_name(root, p): p for pkg in PACKAGES for p in sorted((root / pkg).rglob("*.py"))}
    # extension modules (pyasc._C) are leaves, known by their stubs
    known = set(files) | {module_name(root, p) for pkg in PACKAGES
                          for p in (root / pkg).rglob("*.pyi")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    problems = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        rel = path.relative_to(root)
        is_package = path.name == "__init__.py"
        for node, in_function in _imports(tree.body, False):
            targets = _targets(node, module, is_package, known)
            if in_function and not all(t.split(".")[0] in OPTIONAL for t in targets):
                problems.append(f"{rel}:{node.lineno}: import inside a function: "
                                f"{', '.join(targets)}")
            for target in targets:
                if target in files and target != module:
                    graph[module].add(target)
                    if module.startswith(FRONT_END) and target.startswith(FRONT_END):
                        own, theirs = _layer(module), _layer(target)
                        if own is not None and theirs is not None and theirs > own:
                            problems.append(
                                f"{rel}:{node.lineno}: upward import: {module} "
                                f"({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})")
        if module.startswith(FRONT_END) and _layer(module) is None:
            problems.append(f"{rel}: {module} is in no layer of tools/check_imports.py")
    problems += [f"import cycle among {', '.join(c)} (e.g. {' -> '.join(_path(graph, set(c), c[0]))})"
                 for c in _cycles(graph)]
    return problems


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules of each strongly connected component of graph that has a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _path(graph: dict[str, set[str]], component: set[str], start: str) -> list[str]:
    """A shortest cycle from start back to start inside component."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, start]
                if w not in previous:
                    previous[w] = v
                    nxt.append(w)
        frontier = nxt
    return [start]


def main(argv: list[str]) -> int:
    """Checks the packages under argv[1] (default: python/ beside tools/)."""
    root = pathlib.Path(argv[1]) if len(argv) > 1 else \
        pathlib.Path(__file__).resolve().parents[1] / "python"
    problems = check(root)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
