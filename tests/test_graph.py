"""The situation as a networkx graph: games nest as a tree, every zone hangs under one game
(or outside the game), every object in one zone. And as a picture (`to_dot`): a legend of
exactly the conventions it uses, each game's players, nested boxes in order, the same bytes
every time, hostile names kept as text, long zones summarised."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import networkx as nx
import pydot
import pytest
from shahrazad.invariants.structure import problems
from shahrazad.model.graph import (
    DEPTH_FILL,
    KIND_FILL,
    LEGEND_KEYS,
    WRAP,
    game_tree,
    legend_entries,
    render,
    situation_graph,
    to_dot,
    tree_faults,
)
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import GameObject, ZoneRef
from shahrazad.model.scenario import load_scenario, parse_scenario
from shahrazad.model.state import Game, Situation, Trigger

from tests.situations import build, card, game, library, obj

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


# ---- the picture: legend, players, nesting, determinism, escaping, long zones ---------------

ROOT = Path(__file__).resolve().parent.parent
THREE = ROOT / "examples" / "pictures" / "three-levels.toml"
HOSTILE = 'a<b&"c'
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed")
Graph = pydot.Dot | pydot.Subgraph
# pydot's DOT reader builds its pyparsing grammar with names pyparsing now deprecates.
PARSES = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _three_levels(after: int = 0) -> Situation:
    scenario = load_scenario(THREE, check=problems)
    return Interpreter().run(scenario.situation, scenario.events[:after]).situation


def _nodes(graph: Graph) -> dict[str, pydot.Node]:
    """Every node of the graph and its subgraphs, by name."""
    out = {n.get_name(): n for n in graph.get_nodes()}
    for sub in graph.get_subgraph_list():
        out.update(_nodes(sub))
    return out


def _label(graph: Graph, name: str) -> str:
    nodes = _nodes(graph)
    assert name in nodes, f"no node {name}"
    return str(nodes[name].get("label"))


def _rows(label: str) -> list[str]:
    """The object rows of a zone table, as the text of their cells."""
    return re.findall(r'<TD[^>]*PORT="o\d+">(.*?)</TD>', label)


def _game_boxes(graph: Graph) -> list[tuple[str, pydot.Subgraph]]:
    """The game boxes directly inside `graph`, each with the label of its header."""
    out = []
    for sub in graph.get_subgraph_list():
        heads = [n for n in sub.get_nodes() if re.fullmatch(r"g\d+", n.get_name())]
        if sub.get_name().startswith("cluster_") and heads:
            out.append((str(heads[0].get("label")), sub))
    return out


def test_the_legend_lists_what_the_picture_uses_and_nothing_else() -> None:
    dot = to_dot(_three_levels(), "three")
    assert legend_entries(dot) == [k for k in LEGEND_KEYS if k in {
        "status:active", "status:suspended", "status:ended", "player", "player-counters",
        "player-left", "shared", "kind:card", "kind:token", "kind:copy", "kind:emblem",
        "commander", "face-down", "phased-out", "counters", "owner", "triggers", "summary",
        "trigger", "edge:created", "edge:ended"}]
    label = str(dot.get("label"))
    assert label.index("three") < label.index("<B>legend</B>")  # the title, then the legend
    # A bare situation needs a short legend: no markers it does not show.
    bare = build(["Ann", "Bob"], cards=[card("c", "Ann", "main/hand/Ann")])
    assert legend_entries(to_dot(bare)) == ["status:active", "player", "kind:card"]


@pytest.mark.parametrize("key,change,word", [
    ("face-down", {"face_up": False}, "face down"),
    ("phased-out", {"phased_out": True}, "phased out"),
    ("commander", {"commander": True}, "commander"),
    ("counters", {"counters": {"+1/+1": 2}}, "counters: +1/+1 2"),
    ("affected-by", {"affected_by": ["e1"]}, "affected by e1"),
    ("nontraditional", {"card_type": "plane"}, "plane"),
    ("controller", {"controller": "Bob"}, "controller Bob"),
    ("types", {"types": ("instant",)}, "instant"),
    ("types", {"types": ("enchantment",), "subtypes": ("aura",)}, "enchantment Aura"),
    ("exiled-with", {"exiled_with": "karn"}, "exiled with karn"),
    ("same-card", {"same_card": "c0"}, "the card c0 again"),
])
def test_each_marker_shows_on_its_row_and_in_the_legend(key: str, change: dict[str, object],
                                                         word: str) -> None:
    s = build(["Ann", "Bob"], cards=[card("c", "Ann", "main/battlefield")])
    before = to_dot(s)
    assert key not in legend_entries(before) and word not in _label(before, "g0_shared")
    for attr, value in change.items():
        setattr(s.objects["c"], attr, value)
    after = to_dot(s)
    assert key in legend_entries(after)
    (row,) = _rows(_label(after, "g0_shared"))
    assert "c" in row and word in row


@pytest.mark.parametrize("kind,at", [("token", "main/battlefield"), ("copy", "main/stack"),
                                     ("emblem", "main/command"), ("ability", "main/stack"),
                                     ("effect", "main/effects")])
def test_each_kind_of_object_has_its_colour(kind: str, at: str) -> None:
    s = build(["Ann", "Bob"], objects=[obj("o", kind, "Ann", at)])
    dot = to_dot(s)
    assert legend_entries(dot) == ["status:active", "player", "shared", f"kind:{kind}"]
    (cell,) = re.findall(r'<TD[^>]*PORT="o\d+">', _label(dot, "g0_shared"))
    assert f'BGCOLOR="{KIND_FILL[kind]}"' in cell and KIND_FILL[kind] != KIND_FILL["card"]


@pytest.mark.parametrize(("came", "shown"), [("main-game", True), ("outside", True),
                                             ("battlefield", False)])
def test_where_a_card_came_from_is_shown_unless_it_is_there(came: str, shown: bool) -> None:
    s = build(["Ann", "Bob"], games=[game("main"), game("sub", parent="main")],
              cards=[card("c", "Ann", "sub/battlefield")])
    s.games["sub"].came_from["c"] = came
    dot = to_dot(s)
    assert ("came-from" in legend_entries(dot)) == shown
    assert (f"came from {came.replace('-', ' ')}" in _label(dot, "g1_shared")) == shown


def test_began_in_deck_and_waiting_triggers_are_shown() -> None:
    s = build(["Ann", "Bob"], games=[game("main"), game("sub", parent="main")],
              cards=[card("pl", "Ann", "sub/deck/Ann/planar", type="plane"),
                     card("fh", "Bob", "main/battlefield", triggers=["leaves-zone"])])
    s.games["sub"].began_in_deck["pl"] = "planar"
    s.games["main"].pending_triggers.append(Trigger("t9", "fh", "pl", "main/exile", "main"))
    dot = to_dot(s)
    assert {"began-in-deck", "trigger", "nontraditional", "triggers", "edge:subgame"} <= set(
        legend_entries(dot))
    assert "began in planar deck" in _rows(_label(dot, "g1_p0"))[0]
    assert "waiting trigger t9: fh saw pl leave main/exile" in _label(dot, "g0").replace(
        "<BR/>", " ")
    # No creating object: the subgame hangs from its main game's header.
    (edge,) = [e for e in dot.get_edges() if e.get("label") == "subgame"]
    assert (edge.get_source(), edge.get_destination()) == ("g0", "g1")


def test_each_game_shows_its_players_status_and_creator() -> None:
    dot = to_dot(_three_levels())
    main, sub, sub2 = (_label(dot, f"g{i}") for i in range(3))
    assert "<B>game main</B></FONT>  suspended" in main and "players: Ann, Bob, Cy" in main
    assert "<B>subgame sub</B></FONT>  suspended" in sub and "players: Ann, Bob<" in sub
    assert "created by Shahrazad (shahrazad)" in sub and "left: <S>Cy</S>" in sub
    assert "<B>subgame sub2</B></FONT>  active" in sub2 and "starting player: Bob" in sub2
    assert "created by Enter the Dungeon" in sub2
    # A table per player of each game, with the player's counters there; who left, struck.
    nodes = _nodes(dot)
    players = {name: re.search(r"<B>(\w+)</B>", str(n.get("label"))).group(1)
               for name, n in nodes.items() if re.fullmatch(r"g\d_p\d", name)}
    assert players == {"g0_p0": "Ann", "g0_p1": "Bob", "g0_p2": "Cy", "g1_p0": "Ann",
                       "g1_p1": "Bob", "g1_p2": "Cy", "g2_p0": "Ann", "g2_p1": "Bob"}
    assert _label(dot, "g1_p2").count("<S><B>Cy</B></S> left") == 1
    assert "<B>Bob</B>  poison 3" in _label(dot, "g0_p1")
    assert "<B>Ann</B>  poison 1" in _label(dot, "g1_p0") and "poison" not in _label(dot, "g0_p0")
    assert "Tormod" in _label(dot, "out_p0")  # outside the game, in its own box


@PARSES
def test_three_levels_nest_as_three_boxes_in_order() -> None:
    dot = pydot.graph_from_dot_data(to_dot(_three_levels()).to_string())[0]
    chain = []
    level: Graph = dot
    while boxes := _game_boxes(level):
        assert len(boxes) == 1, "one subgame at a time"
        header, level = boxes[0]
        chain.append(re.search(r"<B>(\w+ \w+)</B>", header).group(1))
    assert chain == ["game main", "subgame sub", "subgame sub2"]
    # The boxes darken as they nest, and the active one has the bold green border.
    fills = [str(sub.get("fillcolor")).strip('"') for sub in (
        dot.get_subgraph("cluster_g0_main")[0],
        dot.get_subgraph("cluster_g0_main")[0].get_subgraph("cluster_g1_sub")[0],
        dot.get_subgraph("cluster_g0_main")[0].get_subgraph("cluster_g1_sub")[0]
        .get_subgraph("cluster_g2_sub2")[0])]
    assert fills == list(DEPTH_FILL[:3])
    # An arrow from each creating object's row to its subgame's box.
    created = sorted((e.get_destination(), e.get_source(), e.get("lhead").strip('"'))
                     for e in dot.get_edges() if e.get("label") == "created")
    assert [(d, h) for d, _, h in created] == [("g1", "cluster_g1_sub"),
                                               ("g2", "cluster_g2_sub2")]
    for (_, source, _), creator in zip(created, ["(shahrazad)", "(enter-the-dungeon)"], strict=True):
        node, port = source.split(":")
        assert creator in re.search(f'PORT="{port}">(.*?)</TD>', _label(dot, node)).group(1)
    ended = [e.get_destination() for e in dot.get_edges() if e.get("label") == "ended"]
    assert ended == ["g0_e0"] and "ended game old-sub" in _label(dot, "g0_e0")
    # After the sub-subgame ends: two boxes, and the ended game inside the subgame's box.
    after = to_dot(_three_levels(after=1))
    ((_, main_box),) = _game_boxes(after)
    ((sub_header, sub_box),) = _game_boxes(main_box)
    assert "active" in sub_header and not _game_boxes(sub_box)
    assert "ended game sub2" in _label(sub_box, "g1_e1") and "won by Ann" in _label(
        sub_box, "g1_e1")


def test_the_picture_is_the_same_every_time() -> None:
    first = to_dot(_three_levels(1), "t").to_string()
    assert to_dot(_three_levels(1), "t").to_string() == first
    assert to_dot(_three_levels(1).copy(), "t").to_string() == first
    code = ("import sys; from pathlib import Path; from shahrazad.model.graph import to_dot; "
            "from shahrazad.model.scenario import load_scenario; "
            f"s = load_scenario(Path({str(THREE)!r})).situation; "
            "sys.stdout.write(to_dot(s, 't').to_string())")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")}
    assert outs == {to_dot(_three_levels(), "t").to_string()}


def _hostile() -> Situation:
    """Names no scenario file allows, as a program could make them: every one must stay text."""
    players = ["Ann<>", 'B"ob&']
    s = Situation(players=players)
    main = Game(id="m&<ain>", players=list(players), status="suspended")
    sub = Game(id="s\"ub'\\", players=list(players), parent=main.id, created_by=HOSTILE)
    for g in (main, sub):
        s.games[g.id] = g
        s.create_zones(g)
    s.objects[HOSTILE] = GameObject(id=HOSTILE, kind="card", owner=players[0],
                                    name="</TD></TR></TABLE>> ]; x [label=<evil>\n\x01")
    s.place(HOSTILE, ZoneRef(main.id, "stack"))
    s.objects["x\\y{}"] = GameObject(id="x\\y{}", kind="card", owner=players[1])
    s.place("x\\y{}", ZoneRef(sub.id, "library", players[1]))
    s.player_counters[(sub.id, players[0])] = {"<poison>": 2}
    return s


@PARSES
def test_hostile_names_are_text_in_valid_dot() -> None:
    text = to_dot(_hostile(), 'title <b>&"').to_string()
    assert HOSTILE not in text and "<evil>" not in text
    parsed = pydot.graph_from_dot_data(text)
    assert parsed is not None and len(parsed) == 1
    assert set(_nodes(parsed[0])) == {"g0", "g0_shared", "g0_p0", "g0_p1", "g1", "g1_p0",
                                      "g1_p1", "node", "edge"}  # no node smuggled in
    assert "a&lt;b&amp;&quot;c" in _rows(_label(parsed[0], "g0_shared"))[0]
    assert "x&#92;y{}" in _label(parsed[0], "g1_p1")
    assert "&lt;poison&gt; 2" in _label(parsed[0], "g1_p0")
    assert "created by &lt;/TD&gt;" in _label(parsed[0], "g1")


@needs_dot
def test_hostile_names_render_as_svg() -> None:
    svg = render(to_dot(_hostile(), 'title <b>&"'), "svg")
    root = ElementTree.fromstring(svg)
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert HOSTILE in texts and "x\\y{}" in texts and 'title <b>&"' in texts
    assert "</TD></TR></TABLE>> ]; x [label=<evil>" in texts


def test_a_long_library_is_summarised() -> None:
    dot = to_dot(build(["Ann", "Bob"], cards=library("Ann", 60)))
    ann = _label(dot, "g0_p0")
    assert "60 cards, top first" in ann and "<I>+ 57 more</I>" in ann
    assert _rows(ann) == ["ann1", "ann2", "ann3"]  # the top of the library
    assert "summary" in legend_entries(dot)
    short = to_dot(build(["Ann", "Bob"], cards=library("Ann", 8)))
    assert len(_rows(_label(short, "g0_p0"))) == 8
    assert "more" not in _label(short, "g0_p0") and "summary" not in legend_entries(short)


def test_long_names_are_wrapped() -> None:
    long_name = "Very " * 30 + "Long Name"
    s = build(["Ann", "Bob"], cards=[card("c", "Ann", "main/hand/Ann", name=long_name)])
    (row,) = _rows(_label(to_dot(s), "g0_p0"))
    lines = row.split("<BR/>")
    assert len(lines) > 3 and all(len(line) <= WRAP for line in lines)
    assert " ".join(lines).split() == f"{long_name} (c)".split()


@needs_dot
@pytest.mark.parametrize("after", [0, 1])
def test_the_three_level_example_renders(after: int) -> None:
    png = render(to_dot(_three_levels(after), "three levels"), "png")
    assert png[:4] == b"\x89PNG"
