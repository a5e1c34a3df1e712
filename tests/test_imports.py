"""The import graph of bot/ read with ast: no cycles between files, no module over 600 lines,
and bench/ imports nothing from tests/.

Every import counts, wherever it stands: at the top, inside a function, under
``if TYPE_CHECKING``. A cycle hidden by an import inside a function is still a cycle
for a reader, who must know both files to understand either.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "bot"
MAX_LINES = 600


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: Path = BOT) -> dict[str, Path]:
    return {
        _module_name(path, package): path
        for path in sorted(package.rglob("*.py"))
        if "assets" not in path.relative_to(package).parts
    }


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imported(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of bot/ that ``module`` imports, at any depth of its tree."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            # ``from bot.x import y``: y may be a submodule, else the name lives in bot.x.
            names = [
                f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target
                for alias in node.names
            ]
        for name in names:
            # ``import bot.a.b`` names the file bot/a/b, not its packages' __init__ files.
            if name in known and name != module:
                found.add(name)
    return found


def import_graph(package: Path = BOT) -> dict[str, set[str]]:
    known = _modules(package)
    return {module: _imported(module, path, known) for module, path in known.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one file (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _path_within(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One cycle through the component's first file, to name in the failure."""
    members = set(component)
    start = component[0]
    trail = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                return [*trail[node], start]
            if target not in trail:
                trail[target] = [*trail[node], target]
                frontier.append(target)
    return component


def test_the_graph_sees_imports_inside_functions_and_type_checking_blocks(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def f() -> None:\n    from ..c import x\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\nx = 1\n"
    )
    (package / "d.py").write_text("from . import a\nfrom .sub.b import f\n")
    graph = import_graph(package)
    assert graph == {
        "pkg": set(),
        "pkg.sub": set(),
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.a", "pkg.sub.b"},
    }
    assert _cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert _path_within(graph, ["pkg.a", "pkg.c", "pkg.sub.b"]) == [
        "pkg.a",
        "pkg.sub.b",
        "pkg.c",
        "pkg.a",
    ]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_files() -> None:
    graph = import_graph()
    found = _cycles(graph)
    cycles = [" -> ".join(_path_within(graph, c)) for c in found]
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_module_over_600_lines() -> None:
    long = {
        module: count
        for module, path in _modules().items()
        if (count := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_bench_imports_nothing_from_tests() -> None:
    found = [
        f"{path.name}: {name}"
        for path in sorted((ROOT / "bench").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
        )
        if name == "tests" or name.startswith("tests.")
    ]
    assert not found, f"bench imports from tests/: {found}"


def test_no_context_variables_in_bot() -> None:
    """Data flows one way and results come back as values: the language of a reply, or anything
    else, is handed on explicitly, never kept in a ContextVar."""
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted(BOT.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "contextvars" in line or "ContextVar" in line
    ]
    assert not found, f"context variables in bot/: {found}"


def test_the_rules_word_nothing_in_a_language() -> None:
    """bot/rules keeps its words as values (``say.X.said(...)``, worded by whoever answers):
    it never calls a catalog entry, which would choose a language."""
    called = re.compile(r"\bsay\.[A-Z_]+(?:\[[^\]]*\])?\(")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((BOT / "rules").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if called.search(line) or "Language" in line
    ]
    assert not found, "\n".join(found)
