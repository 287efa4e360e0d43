"""The package's layers, read from its folders: model < invariants < proofs.encoding <
proofs.solving < proofs.evidence < proofs.verdicts < proofs.analyses < the command line,
the report writers and the other top-level modules. No module imports from a layer above
its own, no two modules import each other (directly or round a longer circle), whether the
import is at the top of the file, inside a function or for type checking only, and none
uses the bare top-level names that the package no longer installs."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent

# Each folder of the repository and the import name it is installed under.
FOLDERS = {"model": "shahrazad.model", "invariants": "shahrazad.invariants",
           "proofs": "shahrazad.proofs", "src/shahrazad": "shahrazad"}

# The layers, lowest first: a module's layer is the longest of these its name starts with.
LAYERS = ["shahrazad", "shahrazad.model", "shahrazad.invariants", "shahrazad.proofs",
          "shahrazad.proofs.encoding", "shahrazad.proofs.solving", "shahrazad.proofs.evidence",
          "shahrazad.proofs.verdicts", "shahrazad.proofs.analyses"]
RANK = {"shahrazad.model": 0, "shahrazad.invariants": 1, "shahrazad.proofs": 2,
        "shahrazad.proofs.encoding": 2, "shahrazad.proofs.solving": 3,
        "shahrazad.proofs.evidence": 4, "shahrazad.proofs.verdicts": 5,
        "shahrazad.proofs.analyses": 6, "shahrazad": 7}
ROOMS = ("encoding", "solving", "evidence", "verdicts", "analyses")


def modules() -> dict[str, Path]:
    """Every module of the package, by its installed name."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """The package's modules that `name` imports anywhere in its file (at the top, inside
    a function, under TYPE_CHECKING), with the line of each import."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        seen = set()
        for target in targets:
            # A name imported from a module is an edge to that module.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target not in seen:
                seen.add(target)
                out.append((target, node.lineno))
    return out


def layer(name: str) -> int:
    return RANK[max((p for p in LAYERS if name == p or name.startswith(p + ".")), key=len)]


def graph() -> nx.DiGraph:
    found = modules()
    g = nx.DiGraph()
    for name, path in found.items():
        g.add_node(name)
        for target, line in imports(name, path, set(found)):
            g.add_edge(name, target, line=line)
    return g


def test_no_lower_layer_imports_a_higher_one() -> None:
    """model < invariants < proofs.encoding < proofs.solving < proofs.evidence <
    proofs.verdicts < proofs.analyses < the rest: no import points up (package
    `__init__` modules aside, which import nothing)."""
    g = graph()
    bad = [f"{a} (line {d['line']}) imports {b}" for a, b, d in g.edges(data=True)
           if layer(b) > layer(a) and b not in FOLDERS.values()]
    assert bad == []


def test_no_import_circle() -> None:
    """No two modules of the package import each other, directly or round a circle, even
    from inside a function or for type checking only."""
    circles = [sorted(c) for c in nx.strongly_connected_components(graph()) if len(c) > 1]
    assert circles == []


def test_every_prover_module_is_in_a_room_that_says_what_it_owns() -> None:
    """`proofs/` holds its rooms and nothing loose; each room's docstring says what it owns
    and what it may import."""
    loose = [p.name for p in (ROOT / "proofs").glob("*.py") if p.name != "__init__.py"]
    assert loose == []
    rooms = sorted(p.name for p in (ROOT / "proofs").iterdir()
                   if p.is_dir() and p.name != "__pycache__")
    assert rooms == sorted(ROOMS)
    for room in ROOMS:
        doc = ast.get_docstring(ast.parse((ROOT / "proofs" / room / "__init__.py").read_text()))
        assert doc and "May import" in doc, room


def test_the_layers_test_sees_a_back_arrow_and_a_circle(tmp_path: Path) -> None:
    """The test's own reading: an import inside a function that points up, and one under
    TYPE_CHECKING that closes a circle, are both seen."""
    a = tmp_path / "a.py"
    a.write_text("def f():\n    from shahrazad.proofs.analyses.history import x\n")
    b = tmp_path / "b.py"
    b.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                 "    from .a import f\n")
    known = {"shahrazad.proofs.solving.a", "shahrazad.proofs.solving.b",
             "shahrazad.proofs.analyses.history"}
    up = imports("shahrazad.proofs.solving.a", a, known)
    assert up == [("shahrazad.proofs.analyses.history", 2)]
    assert layer(up[0][0]) > layer("shahrazad.proofs.solving.a")
    assert imports("shahrazad.proofs.solving.b", b, known) == [("shahrazad.proofs.solving.a", 3)]


def test_no_bare_top_level_names() -> None:
    """None uses the bare top-level names `model`, `invariants`, `proofs`."""
    bad = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom)
                     and node.level == 0 else [])
            bad += [f"{name} imports the bare {n}" for n in names
                    if n.split(".")[0] in ("model", "invariants", "proofs")]
    assert bad == []


def test_interpreter_and_encoder_list_the_same_steps() -> None:
    """The two readings of the rulebook are cut along the same seams, and each seam lists
    the same steps: the game steps the language defines, the events the rulebook's clauses
    act on, the in-game actions."""
    from shahrazad.invariants.catalog import EVENTS
    from shahrazad.model import actions, event_steps, game_steps
    from shahrazad.model.language import EVENT_ROLES, GAME_ACTIONS
    from shahrazad.proofs.encoding import actions as sym_actions
    from shahrazad.proofs.encoding import events as sym_events
    from shahrazad.proofs.encoding import game_steps as sym_game_steps

    assert list(game_steps.GAME_STEPS) == list(sym_game_steps.GAME_STEPS) == list(GAME_ACTIONS)
    assert set(event_steps.EVENT_STEPS) == set(sym_events.RULE_EVENTS) == set(EVENT_ROLES)
    assert set(actions.IN_GAME_ACTIONS) == set(sym_actions.IN_GAME_ACTIONS)
    assert set(EVENTS) == set(EVENT_ROLES) | set(actions.IN_GAME_ACTIONS)
