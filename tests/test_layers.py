"""The package's layers, read from its folders: model < invariants < proofs.encoding <
proofs.solving < proofs.evidence < proofs.verdicts < proofs.analyses < the command line,
the report writers and the other top-level modules. No module imports from a layer above
its own, no two modules import each other (directly or round a longer circle), whether the
import is at the top of the file, inside a function or for type checking only, and none
uses the bare top-level names that the package no longer installs."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from types import ModuleType

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent


def _architecture() -> ModuleType:
    """`tools/architecture.py`: the reader of the package's modules, rooms and imports."""
    spec = importlib.util.spec_from_file_location("architecture", ROOT / "tools" / "architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


architecture = _architecture()
graph, imports, layer, modules = (architecture.graph, architecture.imports, architecture.layer,
                                  architecture.modules)
FOLDERS = architecture.FOLDERS
ROOMS = architecture.PROVER_ROOMS


def test_no_lower_layer_imports_a_higher_one() -> None:
    """model < invariants < proofs.encoding < proofs.solving < proofs.evidence <
    proofs.verdicts < proofs.analyses < the rest: no import points up (package
    `__init__` modules aside, which import nothing)."""
    g = graph()
    bad = [f"{a} (line {d['line']}) imports {b}" for a, b, d in g.edges(data=True)
           if layer(b) > layer(a)]
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


def test_the_architecture_page_draws_the_rooms_as_the_code_has_them() -> None:
    """docs/architecture.md's diagram is `tools/architecture.py`'s reading of the imports
    today (run it to redraw)."""
    assert architecture.main(["--check"]) == 0


# What a reader holds at once: no class of the package longer than this, no function longer
# than that (lines, docstrings included). A table of data written as one literal is not a
# function and is not counted.
LONGEST_CLASS = 250
LONGEST_FUNCTION = 80


def test_no_class_or_function_longer_than_a_reader_holds() -> None:
    """Every class of the package within LONGEST_CLASS lines, every function within
    LONGEST_FUNCTION: a longer one is split by concept (the scenario reader per section,
    the picture per element kind, the structure invariants per CR topic, ...)."""
    long = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            most = (LONGEST_CLASS if isinstance(node, ast.ClassDef) else LONGEST_FUNCTION
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None)
            if most is not None and node.end_lineno is not None \
                    and node.end_lineno - node.lineno + 1 > most:
                long.append(f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert long == []
