"""Static checks run with the tests, so CI keeps them clean: mypy over the product code
(``bot/`` and ``cogs/``), the tests (``tests/``) and the bench (``bench/``), and ruff over
everything."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


#: mypy's incremental cache for this test, kept between runs (git ignores ``.mypy_cache``):
#: a run after the first checks only the modules that changed (about 9 CPU seconds less).
MYPY_CACHE = ROOT / ".mypy_cache" / "test_static"


def test_mypy_finds_no_errors(tmp_path):
    # Only the folders named here report errors (--follow-imports=silent), so ``bench/`` is
    # named too: its errors count like the product code's.
    done = _run("mypy", "--cache-dir", str(MYPY_CACHE), "--follow-imports=silent",
                "bot", "cogs", "tests", "bench", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout


def test_ruff_finds_no_errors(tmp_path):
    done = _run("ruff", "check", "--no-cache", ".", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


# -- imports point down ------------------------------------------------------------------

#: The layers of herdbot, lowest first (bot.app's docstring; the wiring in bot.app, then
#: the sandbox, the CLI and ``python -m bot`` on top): a module may import its
#: own layer's package and any lower layer, never a higher one, and never a sibling package
#: of its own layer (``bot.ai`` does not import ``bot.render``). ``bot.paths`` and
#: ``bot.config`` are leaves every layer may use.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.paths", "bot.config"),
    ("bot.games",),
    ("bot.i18n",),
    ("bot.ai", "bot.render", "bot.present", "bot.store", "bot.ratings"),
    ("bot.runtime",),
    ("bot.discord",),
    ("cogs",),
    ("bot.app",),
    ("bot.sandbox",),
    ("bot.cli",),
    ("bot.__main__",),
)
#: Leaf modules any layer may import.
LEAVES = ("bot.paths", "bot.config")


def _package(module: str) -> tuple[int, str]:
    """``(layer index, layer package)`` of a herdbot module. Raises ``KeyError`` for a
    module in no layer (a new top-level package must be given a layer here)."""
    for i, layer in enumerate(LAYERS):
        for pkg in layer:
            if module == pkg or module.startswith(pkg + "."):
                return i, pkg
    if module == "bot":
        return 0, "bot"
    raise KeyError(module)


def _modules(root: Path) -> dict[str, Path]:
    """Every module of ``bot/`` and ``cogs/`` under ``root``: dotted name -> file."""
    out: dict[str, Path] = {}
    for top in ("bot", "cogs"):
        for path in sorted((root / top).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> tuple[set[str], set[str]]:
    """``(module-level imports, all imports)`` of one module, as herdbot module names
    (``from a.b import c`` counts as ``a.b.c`` when that is a module, else ``a.b``).
    Module-level imports are the ones run when the module is imported (inside ``if``/``try``
    too), not those under ``if TYPE_CHECKING:`` nor inside functions or methods; "all" has
    every one, those too."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                     for a in node.names]
        found = []
        for n in names:
            while n and n not in known:
                n = n.rpartition(".")[0]
            if n and n != name:
                found.append(n)
        return found

    def walk(nodes: list[ast.stmt], top: bool) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                every.update(targets(node))
                if top:
                    eager.update(targets(node))
                continue
            type_only = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            block = isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While))
            nested_top = top and not type_only and block
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    walk([child], nested_top)
                elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    walk(child.body, nested_top)

    eager: set[str] = set()
    every: set[str] = set()
    walk(ast.parse(path.read_text(encoding="utf-8")).body, True)
    return eager, every


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """``"a -> b"`` for every import of a higher layer or of a sibling package of the same
    layer (leaves excepted), sorted."""
    bad = []
    for module, targets in graph.items():
        layer, pkg = _package(module)
        for target in targets:
            t_layer, t_pkg = _package(target)
            if t_pkg in LEAVES or t_pkg == pkg or t_pkg == "bot":
                continue
            if t_layer > layer or (t_layer == layer and module not in LEAVES):
                bad.append(f"{module} -> {target}")
    return sorted(bad)


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> modules it imports): each strongly
    connected group of two or more modules, or a module importing itself, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _graphs(root: Path = ROOT) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(module-level import graph, graph of all imports)`` of ``root``'s bot/ and cogs/."""
    mods = _modules(root)
    known = set(mods)
    eager: dict[str, set[str]] = {}
    every: dict[str, set[str]] = {}
    for name, path in mods.items():
        eager[name], every[name] = _imports(name, path, known)
    return eager, every


def cycles_in(root: Path) -> list[list[str]]:
    """The import cycles of ``root``'s bot/ and cogs/, counting every import: module level,
    inside functions and methods, and under ``if TYPE_CHECKING:``."""
    _eager, every = _graphs(root)
    return import_cycles(every)


def test_imports_point_down():
    """No module of bot/ or cogs/ imports a layer above its own, at module level, inside a
    function or for type checking only."""
    _eager, every = _graphs()
    assert upward_imports(every) == []


def test_no_import_cycles():
    """No cycle among all the imports of bot/ and cogs/: an import inside a function or
    under ``if TYPE_CHECKING:`` counts like one at module level."""
    assert cycles_in(ROOT) == []


def _plant(root: Path, files: dict[str, str]) -> None:
    """Write ``files`` (path -> text) under ``root``, with an empty ``__init__.py`` in
    every folder."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        for folder in path.relative_to(root).parents[:-1]:
            init = root / folder / "__init__.py"
            if not init.exists():
                init.write_text("")


def test_a_circle_through_a_function_level_or_type_checking_import_fails_the_cycle_check(
        tmp_path):
    """The check of :func:`test_no_import_cycles` on a planted tree: circles closed only by
    an import inside a function, inside a method of a class (relative import), or under
    ``if TYPE_CHECKING:`` are each found, though no module-level import makes a circle;
    the same tree with the closing imports pointed out of the circles has none."""
    _plant(tmp_path, {
        "bot/games/a.py": "from bot.games import b\n",
        "bot/games/b.py": "def f():\n    from bot.games.a import x\n    return x\n",
        "bot/games/c.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                           "    from bot.games.d import D\n"),
        "bot/games/d.py": "import bot.games.c\n",
        "bot/games/e.py": ("class E:\n    async def m(self):\n        try:\n"
                           "            from . import f\n        except ImportError:\n"
                           "            pass\n"),
        "bot/games/f.py": "from bot.games.e import E\n",
        "bot/games/leaf.py": "",
    })
    eager, _every = _graphs(tmp_path)
    assert import_cycles(eager) == []  # what a module-level-only check sees
    assert cycles_in(tmp_path) == [["bot.games.a", "bot.games.b"],
                                   ["bot.games.c", "bot.games.d"],
                                   ["bot.games.e", "bot.games.f"]]
    for rel in ("bot/games/b.py", "bot/games/c.py", "bot/games/e.py"):
        (tmp_path / rel).write_text("def f():\n    import bot.games.leaf\n")
    assert cycles_in(tmp_path) == []


def test_the_import_checks_catch_what_they_look_for(tmp_path):
    """The checkers themselves: an upward import, a sibling import and a cycle are found;
    a TYPE_CHECKING import and a function-level import count as imports, and as links of
    a cycle in the graph of all imports."""
    _plant(tmp_path, {
        "bot/games/spec.py": "from bot.ai.policy import choose\n",
        "bot/ai/policy.py": ("from typing import TYPE_CHECKING\nfrom bot.games import spec\n"
                             "if TYPE_CHECKING:\n    from bot.render import draw\n"),
        "bot/render/draw.py": "def f():\n    import cogs.game\n",
        "cogs/game.py": "from bot.render import draw\n",
    })
    eager, every = _graphs(tmp_path)
    assert eager["bot.ai.policy"] == {"bot.games.spec"}
    assert every["bot.ai.policy"] == {"bot.games.spec", "bot.render.draw"}
    assert eager["bot.render.draw"] == set()
    assert every["bot.render.draw"] == {"cogs.game"}
    assert upward_imports(every) == [
        "bot.ai.policy -> bot.render.draw",
        "bot.games.spec -> bot.ai.policy",
        "bot.render.draw -> cogs.game",
    ]
    assert import_cycles(eager) == [["bot.ai.policy", "bot.games.spec"]]
    assert import_cycles(every) == [["bot.ai.policy", "bot.games.spec"],
                                    ["bot.render.draw", "cogs.game"]]
    assert cycles_in(tmp_path) == import_cycles(every)


# -- the bench's imports are installed by '.[dev]' ----------------------------------------

#: Distribution name (as pyproject.toml lists it) -> the module it installs, where the two
#: differ.
IMPORT_NAMES = {"discord.py": "discord", "pillow": "PIL", "pydantic-settings":
                "pydantic_settings", "pyyaml": "yaml", "pytest-asyncio": "pytest_asyncio"}


def _installed_by(requirements: list[str]) -> set[str]:
    """The top-level modules a list of requirements (``name>=x,<y``) installs."""
    import re

    names = {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].strip().lower() for r in requirements}
    return {IMPORT_NAMES.get(n, n.replace("-", "_")) for n in names}


def test_every_module_the_bench_imports_comes_with_the_dev_extras():
    """``pip install -e '.[dev]'`` is enough for every ``python -m bench`` option (before:
    ``--profile`` and ``--profile-rate`` failed with ModuleNotFoundError: pyinstrument)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    have = _installed_by(project["dependencies"] + project["optional-dependencies"]["dev"])
    ours = {"bot", "bench", "cogs", "tests"}
    wanted: set[str] = set()
    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            wanted |= {t for t in tops if t not in sys.stdlib_module_names and t not in ours}
    assert {"asyncpg", "pyinstrument"} <= wanted  # the walk finds imports inside functions
    assert sorted(wanted - have) == []
