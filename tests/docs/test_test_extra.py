"""The README's test command (``pip install ".[test]" && pytest -n auto``) installs what the tests import.

A module the tests import unconditionally (not under ``pytest.importorskip`` or ``except ImportError``)
must come from a distribution that the core dependencies or the ``test`` extra bring in, directly or
through their own requirements: otherwise a plain ``[test]`` install fails those tests instead of running
them (the ``mcp`` imports of tests/cli/test_entry.py, tests/cli/test_light_imports.py and the MCP
benchmark did, before the ``test`` extra included ``mcp``).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
# The peer tests run in a venv of their own (.ci/run builds it), never in the README's command.
OWN_VENV = {TESTS / "peers"}
# The held-out data's own generators run once, by hand, in a venv with DuckDB 1.5.5 and its tpch wheel
# (their README says so); no test imports them.
OWN_VENV |= {TESTS / "data"}


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """True when an import sits in a ``try`` whose handlers catch ImportError (an optional import)."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                names = ast.unparse(handler.type) if handler.type is not None else "BaseException"
                if "ImportError" in names or "ModuleNotFoundError" in names:
                    return True
    return False


def _top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and not _guarded(node, parents):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and not _guarded(node, parents)
        ):
            found.add(node.module.split(".")[0])
    return found


def _third_party_imports() -> dict[str, Path]:
    # The tests' own helpers import by name (pythonpath = ["tests"]) or relative to their folder.
    local = (
        {"analytics_agent", "tests"}
        | {p.stem for p in TESTS.rglob("*.py")}
        | {p.name for p in TESTS.rglob("*") if p.is_dir()}
    )
    seen: dict[str, Path] = {}
    for path in sorted(TESTS.rglob("*.py")):
        if any(path.is_relative_to(own) for own in OWN_VENV):
            continue
        for name in _top_level_imports(path) - local - set(sys.stdlib_module_names):
            seen.setdefault(name, path)
    return seen


def _closure(requirements: list[str], extras: set[str]) -> set[str]:
    """Every distribution the requirements bring in, following each installed one's own requirements."""
    todo = [(Requirement(text), extras) for text in requirements]
    done: set[str] = set()
    while todo:
        req, wanted = todo.pop()
        marker_ok = req.marker is None or any(
            req.marker.evaluate({"extra": extra}) for extra in (wanted or {""})
        )
        name = canonicalize_name(req.name)
        if not marker_ok or name in done:
            continue
        done.add(name)
        try:
            for text in metadata.requires(req.name) or []:
                todo.append((Requirement(text), set(req.extras)))
        except metadata.PackageNotFoundError:
            pass  # not installed here: the check below reports the module it was needed for
    return done


def test_the_test_extra_installs_every_module_the_tests_import() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    own = canonicalize_name(project["name"])
    wanted = list(project["dependencies"]) + list(project["optional-dependencies"]["test"])
    # A self-reference (analytics-agent[mcp]) stands for that extra's own list.
    expanded: list[str] = []
    for text in wanted:
        req = Requirement(text)
        if canonicalize_name(req.name) == own:
            for extra in req.extras:
                expanded += project["optional-dependencies"][extra]
        else:
            expanded.append(text)
    installed = _closure(expanded, set())
    by_module = metadata.packages_distributions()
    missing = {
        f"{module} ({path.relative_to(ROOT)})"
        for module, path in _third_party_imports().items()
        if not {canonicalize_name(d) for d in by_module.get(module, [module])} & installed
    }
    assert not missing, f"imported by the tests but not brought in by the test extra: {sorted(missing)}"
