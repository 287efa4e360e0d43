"""The package's layers: model < invariants < proofs < report and cli. No module imports
from a layer above its own, and none uses the bare top-level names that the package no
longer installs."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_lower_layer_imports_a_higher_one() -> None:
    """model < invariants < proofs < report and cli: no module imports from a layer above."""
    layers = {"model": 0, "invariants": 1, "proofs": 2, "report": 3, "cli": 3}
    folders = {"model": ROOT / "model", "invariants": ROOT / "invariants",
               "proofs": ROOT / "proofs"}
    bad = []
    for layer, folder in folders.items():
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom)
                         and node.level == 0 else [])
                for name in names:
                    parts = name.split(".")
                    if parts[0] == "shahrazad" and len(parts) > 1 and parts[1] in layers \
                            and layers[parts[1]] > layers[layer]:
                        bad.append(f"{path.relative_to(ROOT)} imports {name}")
                    if parts[0] in ("model", "invariants", "proofs"):
                        bad.append(f"{path.relative_to(ROOT)} imports the bare {name}")
    assert bad == []


def test_interpreter_and_encoder_list_the_same_steps() -> None:
    """The two readings of the rulebook are cut along the same seams, and each seam lists
    the same steps: the game steps the language defines, the events the rulebook's clauses
    act on, the in-game actions."""
    from shahrazad.invariants.catalog import EVENTS
    from shahrazad.model import actions, event_steps, game_steps
    from shahrazad.model.language import EVENT_ROLES, GAME_ACTIONS
    from shahrazad.proofs import actions as sym_actions
    from shahrazad.proofs import events as sym_events
    from shahrazad.proofs import game_steps as sym_game_steps

    assert list(game_steps.GAME_STEPS) == list(sym_game_steps.GAME_STEPS) == list(GAME_ACTIONS)
    assert set(event_steps.EVENT_STEPS) == set(sym_events.RULE_EVENTS) == set(EVENT_ROLES)
    assert set(actions.IN_GAME_ACTIONS) == set(sym_actions.IN_GAME_ACTIONS)
    assert set(EVENTS) == set(EVENT_ROLES) | set(actions.IN_GAME_ACTIONS)
