"""The situation as a networkx graph: games nest as a tree, every zone hangs under one game
(or outside the game), every object in one zone."""

from __future__ import annotations

import networkx as nx
from shahrazad.model.graph import game_tree, situation_graph, tree_faults
from shahrazad.model.scenario import parse_scenario

NESTED = """
players = ["Ann", "Bob"]
[[game]]
id = "main"
[[game]]
id = "sub"
parent = "main"
[[game]]
id = "subsub"
parent = "sub"
[[card]]
id = "a"
owner = "Ann"
at = "subsub/hand/Ann"
[[card]]
id = "b"
owner = "Bob"
at = "outside/Bob"
[[object]]
id = "t"
kind = "token"
controller = "Ann"
at = "main/battlefield"
"""


def test_the_graph_of_a_nested_situation() -> None:
    s = parse_scenario(NESTED, file="nested.toml").situation
    g = situation_graph(s)
    games = [n for n, d in g.nodes(data=True) if d["kind"] == "game"]
    assert sorted(n[1] for n in games) == ["main", "sub", "subsub"]
    assert nx.is_arborescence(g.subgraph(games))
    for node, data in g.nodes(data=True):
        if data["kind"] == "zone":
            assert g.in_degree(node) == 1  # one game, or outside the game
        if data["kind"] == "object":
            assert g.in_degree(node) == 1  # one zone
    assert g.has_edge(("game", "subsub"), ("zone", s.where["a"]))
    assert list(g.predecessors(("zone", s.where["b"]))) == [("outside",)]
    assert tree_faults(s) == []
    assert list(nx.topological_sort(game_tree(s))) == ["main", "sub", "subsub"]


def test_tree_faults_are_named() -> None:
    s = parse_scenario(NESTED, file="nested.toml").situation
    s.games["main"].status = "active"  # two active games
    assert any("2 active games" in f for f in tree_faults(s))
    s = parse_scenario(NESTED, file="nested.toml").situation
    s.games["sub"].status, s.games["subsub"].status = "active", "suspended"
    assert any("the active game has a subgame running" in f for f in tree_faults(s))
