"""The imports run one way: read from the source with ``ast``, every import the project's code makes, at any depth.

The layers, each importing only from its own line or the lines below (see DESIGN.md, "Architecture:
one direction of flow"):

    starting, cli         the entry points' first step; the click group and its commands, the batch file's parser
    runner                click-free orchestration: locks, freshness triage, local or cluster
    pipeline              workers, render job, encoder, staging, freshness, narration, cluster
    pages, exports        written from a published package; never manim, never a scene
    package               the published folder's format: manifest, sections, captions
    options, voices, files
    scenes                the drawings
    attention_style       colours and number formats (a leaf)
    attention_math        the numbers
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("attention_explainer", "attention_style", "scenes", "attention_math")

LAYERS = [
    ("attention_explainer.starting", "attention_explainer.cli"),
    ("attention_explainer.runner",),
    ("attention_explainer.pipeline",),
    ("attention_explainer.pages", "attention_explainer.exports"),
    ("attention_explainer.package",),
    ("attention_explainer.options", "attention_explainer.voices", "attention_explainer.files", "attention_explainer"),
    ("scenes",),
    ("attention_style",),
    ("attention_math",),
]
"""Highest first; a module belongs to the first line with a prefix of its name (``attention_explainer`` alone: its ``__init__``)."""


ENTRY_POINTS = {"attention_explainer.starting"}
"""The package's own entry point (render.py and the console script take the click group through it)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    """Every module of the project's packages by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _resolve(name: str) -> str | None:
    """The project module an imported name is: the longest known prefix (``a.b.c`` where ``c`` is a function -> ``a.b``)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules():
            return candidate
    return None


@lru_cache(maxsize=1)
def imports() -> dict[str, list[tuple[str, str, int]]]:
    """Each module's imports of project modules: (module imported, name taken from it or "", line), function-level ones included."""
    edges: dict[str, list[tuple[str, str, int]]] = {}
    for name, path in modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _resolve(alias.name)
                    if target:
                        found.append((target, "", node.lineno))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    # `from pkg import module` imports the module; `from module import name` takes a name from it.
                    target = _resolve(f"{source}.{alias.name}")
                    if target == f"{source}.{alias.name}":
                        found.append((target, "", node.lineno))
                    elif _resolve(source):
                        found.append((_resolve(source), alias.name, node.lineno))
        edges[name] = found
    return edges


def _layer(module: str) -> int:
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or (prefix != "attention_explainer" and module.startswith(prefix + ".")):
                return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_the_import_reader_sees_the_imports_it_should():
    """The guard reads imports at every depth and resolves relative ones (else it could pass on nothing)."""
    runner = {target for target, _, _ in imports()["attention_explainer.runner"]}
    assert {
        "attention_explainer.pipeline.workers",
        "attention_explainer.pipeline.freshness",
        "attention_explainer.options",
    } <= runner
    cluster = {target for target, _, _ in imports()["attention_explainer.pipeline.cluster"]}
    assert "attention_explainer.pipeline.render_job" in cluster, "a function-level import"
    assert ("attention_explainer.pipeline.freshness", "render_hash") in {
        (t, n) for t, n, _ in imports()["attention_explainer.pipeline.cluster"]
    }


def test_no_import_cycles():
    """Tarjan's strongly connected components over every project module: each must be a single module."""
    graph = {name: sorted({target for target, _, _ in edges if target != name}) for name, edges in imports().items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


def test_imports_run_down_the_layers():
    wrong = [
        f"{module}:{line} imports {target}"
        for module, edges in imports().items()
        for target, _, line in edges
        if _layer(target) < _layer(module)
    ]
    assert wrong == []


def test_no_module_takes_another_modules_private_name():
    taken = [
        f"{module}:{line} takes {target}.{name}"
        for module, edges in imports().items()
        for target, name, line in edges
        if name.startswith("_") and not name.startswith("__") and target != module
    ]
    assert taken == []


def test_pages_and_exports_reach_neither_manim_nor_a_scene():
    """Followed through every project module they import, at any depth: no scene, and no import of manim."""
    starts = [name for name in modules() if name.startswith(("attention_explainer.pages", "attention_explainer.exports"))]
    assert "attention_explainer.pages.explorer" in starts and "attention_explainer.exports.deck" in starts
    reached, todo = set(), list(starts)
    while todo:
        module = todo.pop()
        if module in reached:
            continue
        reached.add(module)
        todo += [target for target, _, _ in imports()[module]]
    assert not [module for module in reached if module == "scenes" or module.startswith("scenes.")]
    for module in reached:
        tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level]
        assert not [name for name in names if name == "manim" or name.startswith("manim.")], module


def test_importing_the_pages_and_exports_loads_no_manim():
    """In a fresh interpreter: every pages and exports module imported, and manim and the scenes are still not loaded."""
    names = sorted(name for name in modules() if name.startswith(("attention_explainer.pages", "attention_explainer.exports")))
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('manim', 'scenes'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []
    # The check can fail: importing a scene does load manim.
    control = subprocess.run(
        [sys.executable, "-c", "import sys, scenes.theme; print('manim' in sys.modules)"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert control.stdout.strip() == "True"


def test_only_the_entry_points_import_the_cli():
    importers = [
        f"{module}:{line}"
        for module, edges in imports().items()
        if not (module in ENTRY_POINTS or module == "attention_explainer.cli" or module.startswith("attention_explainer.cli."))
        for target, _, line in edges
        if target == "attention_explainer.cli" or target.startswith("attention_explainer.cli.")
    ]
    assert importers == []
    # The entry points: render.py, and the console script, both the same click group, taken through `starting`.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"] == {"attention-explainer": "attention_explainer.starting:main"}
    render = ast.parse((ROOT / "render.py").read_text(encoding="utf-8"))
    assert [(node.module, [a.name for a in node.names]) for node in render.body if isinstance(node, ast.ImportFrom)] == [
        ("attention_explainer.starting", ["main"])
    ]
    # `starting` handles the signals before anything slow is imported: it imports the standard library and the CLI alone.
    tree = ast.parse(modules()["attention_explainer.starting"].read_text(encoding="utf-8"))
    taken = {alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    taken |= {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module}
    assert taken <= {"__future__", "os", "signal", "sys", "pathlib", "cli"}, taken
