"""The situation as a networkx graph, and as a Graphviz picture.

Nodes are games, zones, objects and the players' "outside the game"; edges say what holds
what: a main game holds its subgame (CR 728.1a, 728.6), a game holds its zones (CR 400.1),
a zone holds its objects. The games alone form a tree (an arborescence) with exactly one
active game; `game_tree` gives that tree for structural checks. `to_dot` draws each game as
a box nested in its main game's box, each zone as a node listing where every card is.
"""

from __future__ import annotations

import html
import shutil
import subprocess

import networkx as nx
import pydot

from .objects import OUTSIDE, ZoneRef
from .state import Situation


def situation_graph(state: Situation) -> nx.DiGraph:
    """Games, zones, objects and outside-the-game as one directed graph."""
    g = nx.DiGraph()
    for game in state.games.values():
        g.add_node(("game", game.id), kind="game", status=game.status, label=game.id)
    for game in state.games.values():
        if game.parent is not None:
            g.add_edge(("game", game.parent), ("game", game.id), relation="subgame")
    g.add_node(("outside",), kind="outside", label="outside the game")
    for zone, contents in state.zones.items():
        node = ("zone", zone)
        g.add_node(node, kind="zone", label=zone.path())
        holder = ("outside",) if zone.is_outside else ("game", zone.game)
        g.add_edge(holder, node, relation="zone")
        for position, obj_id in enumerate(contents):
            g.add_node(("object", obj_id), kind="object", label=obj_id)
            g.add_edge(node, ("object", obj_id), relation="holds", position=position)
    return g


def game_tree(state: Situation) -> nx.DiGraph:
    """The nesting of live games: an edge from each main game to its subgame."""
    g = nx.DiGraph()
    for game in state.games.values():
        g.add_node(game.id, status=game.status)
        if game.parent is not None:
            g.add_edge(game.parent, game.id)
    return g


def tree_faults(state: Situation) -> list[str]:
    """What is wrong with the nesting of games (empty when it is a proper tree)."""
    tree = game_tree(state)
    faults: list[str] = []
    dangling = [g.id for g in state.games.values()
                if g.parent is not None and g.parent not in state.games]
    if dangling:
        faults.append(f"games whose main game does not exist: {', '.join(dangling)} (CR 728.1a)")
    if tree.number_of_nodes() and not nx.is_arborescence(tree):
        faults.append("the games do not form one tree (CR 728.1a, 728.6)")
    active = [n for n, d in tree.nodes(data=True) if d["status"] == "active"]
    if len(active) != 1:
        faults.append(f"{len(active)} active games instead of exactly one (CR 728.1a)")
    else:
        above = nx.ancestors(tree, active[0])
        if any(tree.nodes[a]["status"] != "suspended" for a in above):
            faults.append("a main game of the active game is not suspended (CR 728.1a)")
        if tree.out_degree(active[0]) != 0:
            faults.append("the active game has a subgame running (CR 728.1a)")
    return faults


def _zone_label(state: Situation, zone: ZoneRef) -> str:
    name = zone.kind if zone.player is None else f"{zone.kind} of {zone.player}"
    if zone.deck:
        name = f"{zone.deck} deck of {zone.player}"
    if zone.is_outside:
        name = f"{zone.player}"
    rows = [f"<B>{html.escape(name)}</B>"]
    for obj in state.in_zone(zone):
        bits = [obj.label(), *obj.marks()]
        if obj.is_card and obj.owner != zone.player:
            bits.append(f"owned by {obj.owner}")
        rows.append(html.escape(", ".join(bits)))
    return "<" + "<BR/>".join(rows) + ">"


def to_dot(state: Situation, title: str = "") -> pydot.Dot:
    """A Graphviz picture: nested boxes for games, a node per non-empty zone."""
    dot = pydot.Dot(graph_type="digraph", rankdir="TB", compound="true", fontname="Helvetica",
                    label=html.escape(title) if title else "", labelloc="t")
    dot.set_node_defaults(shape="box", style="rounded", fontname="Helvetica", fontsize="10")
    dot.set_edge_defaults(fontname="Helvetica", fontsize="10")

    def fill(cluster: pydot.Subgraph, game_id: str) -> None:
        game = state.games[game_id]
        anchor = pydot.Node(f"game_{game_id}", label=f"{game_id}\\n{game.status}",
                            shape="ellipse", style="filled",
                            fillcolor="palegreen" if game.status == "active" else "lightgrey")
        cluster.add_node(anchor)
        for zone in sorted(state.zones_of(game_id), key=ZoneRef.sort_key):
            if state.zones[zone]:
                cluster.add_node(pydot.Node(_node_id(zone), label=_zone_label(state, zone)))
                cluster.add_edge(pydot.Edge(f"game_{game_id}", _node_id(zone), style="dotted",
                                            arrowhead="none"))
        for child in state.children(game_id):
            child_game = state.games[child]
            sub = pydot.Subgraph(f"cluster_{child}", label=f"subgame {child} of {game_id}",
                                style="rounded", color="steelblue")
            fill(sub, child)
            cluster.add_subgraph(sub)
            dot.add_edge(pydot.Edge(f"game_{game_id}", f"game_{child}", label="subgame",
                                    color="steelblue"))
            del child_game

    for root in [g.id for g in state.games.values() if g.parent is None]:
        top = pydot.Subgraph(f"cluster_{root}", label=f"game {root}", style="rounded")
        fill(top, root)
        dot.add_subgraph(top)
    outside = [z for z in state.zones if z.kind == OUTSIDE and state.zones[z]]
    if outside:
        box = pydot.Subgraph("cluster_outside", label="outside the game", style="dashed")
        for zone in sorted(outside, key=ZoneRef.sort_key):
            box.add_node(pydot.Node(_node_id(zone), label=_zone_label(state, zone)))
        dot.add_subgraph(box)
    return dot


def _node_id(zone: ZoneRef) -> str:
    return "z_" + "".join(c if c.isalnum() else "_" for c in zone.path())


def render(dot: pydot.Dot, fmt: str) -> bytes:
    """DOT text, or SVG/PNG through Graphviz's `dot` program (RuntimeError if absent)."""
    text = dot.to_string()
    if fmt == "dot":
        return text.encode("utf-8")
    exe = shutil.which("dot")
    if exe is None:
        raise RuntimeError("drawing svg or png needs Graphviz's 'dot' program "
                           "(Debian: apt-get install graphviz); --format dot works without it")
    done = subprocess.run([exe, f"-T{fmt}"], input=text.encode("utf-8"), capture_output=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"Graphviz failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
