"""The situation as a networkx graph, and as a Graphviz picture.

Nodes are games, zones, objects and the players' "outside the game"; edges say what holds
what: a main game holds its subgame (CR 728.1a, 728.6), a game holds its zones (CR 400.1),
a zone holds its objects. The games alone form a tree (an arborescence) with exactly one
active game; `game_tree` gives that tree for structural checks.

`to_dot` draws the situation for people: each game a box inside its main game's box, headed
by its status, players and creator, a table per player and one for the shared zones, every
object a row of its zone, and a legend of the conventions the picture uses (see below).
"""

from __future__ import annotations

import html
import shutil
import subprocess
import textwrap

import networkx as nx
import pydot

from .objects import DEFAULT_TYPES, OUTSIDE, PLAYER_ZONES, TRADITIONAL, GameObject, ZoneRef
from .state import EndedGame, Game, Situation


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


# ---- pictures -----------------------------------------------------------------------------
#
# `to_dot` draws every live game as a box (a Graphviz cluster) inside its main game's box, so
# that main -> subgame -> sub-subgame reads as boxes within boxes, one level below the other.
# At the top of each box a header names the game, its status, what created it, its players
# and whatever else it remembers; under the header one table per player (the player's
# library, hand, graveyard and supplementary decks, and the player's counters in that game)
# and one table for the shared zones. Each object is one row of its zone, top first; a long
# zone shows its count and its top objects only. An arrow from the object that created a
# subgame leads to the subgame's box. A legend lists the conventions the picture uses.
#
# Node names are made from positions (g0, g0_p1, ...), never from the scenario's ids alone,
# and every piece of user text goes through `_text`, so hostile ids cannot break the DOT or
# the HTML-like labels. The same situation always gives the same bytes.

SHOWN_ROWS = 8  # a zone with more objects than this is summarised...
TOP_ROWS = 3  # ...as its count and its top objects
WRAP = 40  # characters per line of text in a row
LEGEND_ONE_COLUMN = 8  # a legend with more entries than this is set in two columns

FONT = "Helvetica"
TAG_COLOR = "#555555"  # the small words under an object's name
PHASED_COLOR = "#9e9e9e"
ZONE_FILL = "#eeeeee"
PLAYER_FILL = "#dde6f0"
TRIGGER_FILL = "#ffe0b2"
CREATED_COLOR = "#4682b4"
ENDED_COLOR = "#8a8a8a"
DEPTH_FILL = ("#ffffff", "#f3f6fa", "#e8eef6", "#dde6f1")  # boxes darken as they nest

# How a game looks: the header's fill, the box's border colour, style and width.
STATUS_LOOK: dict[str, tuple[str, str, str, str]] = {
    "active": ("#c8e6c9", "#2e7d32", "rounded,filled,bold", "2.5"),
    "suspended": ("#e0e0e0", "#757575", "rounded,filled,dashed", "1.5"),
    "ended": ("#ffffff", ENDED_COLOR, "rounded,filled,dashed", "1"),
}
KIND_FILL = {
    "card": "#ffffff",
    "token": "#fff4c2",
    "copy": "#d9ecff",
    "emblem": "#efe2ff",
    "ability": "#ffdede",
    "effect": "#e6e6e6",
}

_TABLE = '<TABLE BORDER="{border}" COLOR="{color}" CELLBORDER="{cellborder}" CELLSPACING="0" ' \
         'CELLPADDING="3" BGCOLOR="white">'


def _text(value: object) -> str:
    """User text made safe inside an HTML-like label: control characters become spaces,
    `<`, `>`, `&`, quotes and backslashes become entities."""
    clean = "".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c in "\ufffe\uffff" else c
                    for c in str(value))
    return html.escape(clean, quote=True).replace("\\", "&#92;")


def _wrapped(value: object, width: int = WRAP) -> str:
    """`_text`, cut into lines of at most `width` characters (cut before escaping)."""
    lines = textwrap.wrap(str(value), width, break_long_words=True, break_on_hyphens=False)
    return "<BR/>".join(_text(line) for line in lines) or "&nbsp;"


def _safe(name: str) -> str:
    """A readable, DOT-safe suffix for a node name (the position before it keeps it unique)."""
    return "".join(c if c.isascii() and c.isalnum() else "_" for c in name)[:24]


def _row(content: str, fill: str = "", port: str = "") -> str:
    attrs = ' ALIGN="LEFT" BALIGN="LEFT"'
    if fill:
        attrs += f' BGCOLOR="{fill}"'
    if port:
        attrs += f' PORT="{port}"'
    return f"<TR><TD{attrs}>{content}</TD></TR>"


def _table(rows: list[str], border: str = "0", color: str = "black", cellborder: str = "1") -> str:
    return "<" + _TABLE.format(border=border, color=color, cellborder=cellborder) \
        + "".join(rows) + "</TABLE>>"


def _small(words: list[str]) -> str:
    return f'<FONT POINT-SIZE="8" COLOR="{TAG_COLOR}">{_wrapped(", ".join(words), WRAP + 8)}</FONT>'


def _counts(values: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(values.items()))


def _count_words(n: int, zone: ZoneRef) -> str:
    noun = "card" if zone.kind in (*PLAYER_ZONES, "deck", OUTSIDE) else "object"
    words = f"{n} {noun}{'' if n == 1 else 's'}"
    return words + (", top first" if n > 1 and zone.kind in ("library", "stack", "deck") else "")


def _zone_name(zone: ZoneRef) -> str:
    if zone.kind == "deck":
        return f"{zone.deck} deck"
    if zone.kind == "command":
        return "command zone"
    return zone.kind


# The legend: a key for each convention, in the order it is listed, with a sample (HTML
# cell content and fill, drawn as in the picture) and what it means. A picture's legend
# lists the conventions that picture uses, and only those.

def _tagged(name: str, tag: str) -> str:
    """A sample object row: a name, then its small grey words, as in the picture."""
    return f"{name}<BR/>{_small([tag])}"


_NAME = "Name (id)"
LEGEND: tuple[tuple[str, str, str, str], ...] = (
    ("status:active", "<B>game</B>  active", STATUS_LOOK["active"][0],
     "the active game, the only one being played: bold green box"),
    ("status:suspended", "<B>game</B>  suspended", STATUS_LOOK["suspended"][0],
     "a main game waiting for its subgame to end: dashed grey box"),
    ("status:ended", "<B>ended game</B>", STATUS_LOOK["ended"][0],
     "a game that has ended, kept for its result: dashed box, no zones"),
    ("player", "<B>Ann</B>", PLAYER_FILL,
     "a player of the game, with their library, hand, graveyard and decks"),
    ("player-counters", "<B>Ann</B>  poison 3", PLAYER_FILL,
     "counters on a player, kept per game"),
    ("player-left", "<S><B>Cy</B></S> left", PLAYER_FILL, "a player who left this game"),
    ("player-effect", _tagged("<B>Ann</B>", "affected by e1"), PLAYER_FILL,
     "effects acting on the player"),
    ("shared", "<B>shared zones</B>", PLAYER_FILL,
     "battlefield, stack, exile, command zone and the game's effects"),
    ("kind:card", _NAME, KIND_FILL["card"], "a card: one row per object, top of its zone first"),
    ("kind:token", _tagged(_NAME, "token"), KIND_FILL["token"], "a token"),
    ("kind:copy", _tagged(_NAME, "copy"), KIND_FILL["copy"], "a copy of a card or spell"),
    ("kind:emblem", _tagged(_NAME, "emblem"), KIND_FILL["emblem"], "an emblem"),
    ("kind:ability", _tagged(_NAME, "ability"), KIND_FILL["ability"], "an ability on the stack"),
    ("kind:effect", _tagged(_NAME, "effect"), KIND_FILL["effect"],
     "a continuous effect, kept with its game"),
    ("nontraditional", _tagged(_NAME, "plane"), "", "a nontraditional card, and its card type"),
    ("commander", _tagged(f"<B>{_NAME}</B>", "commander"), "", "a commander: bold"),
    ("face-down", _tagged(f"<I>{_NAME}</I>", "face down"), "", "face down: italic"),
    ("phased-out", _tagged(f'<FONT COLOR="{PHASED_COLOR}">{_NAME}</FONT>', "phased out"), "",
     "phased out: grey, treated as though it does not exist"),
    ("counters", _tagged(_NAME, "counters: +1/+1 2"), "", "counters on the object"),
    ("began-in-deck", _tagged(_NAME, "began in planar deck"), "",
     "began this game in a supplementary deck"),
    ("came-from", _tagged(_NAME, "came from main game"), "",
     "where it came into this game from, when not the zone it is in: the zone it began the "
     "game in, or brought in from a main game or from outside the game"),
    ("types", _tagged(_NAME, "instant"), "",
     "its card types (and Aura), when not its kind's default (a creature card)"),
    ("exiled-with", _tagged(_NAME, "exiled with karn"), "",
     "the object that exiled it, while it stays in exile"),
    ("same-card", _tagged(_NAME, "the card c1 again"), "",
     "a second place of a card: only an amended rule makes one"),
    ("owner", _tagged(_NAME, "owner Ann"), "", "its owner, in a zone that is not its owner's"),
    ("controller", _tagged(_NAME, "controller Bob"), "", "its controller, when not its owner"),
    ("made-in", _tagged(_NAME, "made in main"), "", "a non-card object made in another game"),
    ("triggers", _tagged(_NAME, "triggers: leaves-zone"), "",
     "it has an ability that triggers when a card leaves a zone"),
    ("affected-by", _tagged(_NAME, "affected by e1"), "", "effects acting on it"),
    ("since-first-turn", _tagged(_NAME, "since first turn"), "",
     "on the battlefield since the game's first turn"),
    ("summary", "<I>+ 57 more</I>", "", "a long zone: its count and its top objects only"),
    ("trigger", "waiting trigger", TRIGGER_FILL,
     "a main game's ability that triggered during its subgame and waits"),
    ("edge:created", f'<FONT COLOR="{CREATED_COLOR}"><B>object ── created ──&gt; subgame</B></FONT>',
     "", "the spell or ability that created the subgame"),
    ("edge:subgame", f'<FONT COLOR="{CREATED_COLOR}"><B>game ── subgame ──&gt; subgame</B></FONT>',
     "", "a subgame whose creating object is not shown"),
    ("edge:ended", f'<FONT COLOR="{ENDED_COLOR}">game - - ended - -&gt; ended game</FONT>', "",
     "a subgame of this game that has ended"),
)
LEGEND_KEYS = tuple(key for key, *_ in LEGEND)


class _Canvas:
    """One drawing under way: the DOT graph, the conventions used so far, where each shown
    object's row is (for the arrows to subgames)."""

    def __init__(self, state: Situation, title: str) -> None:
        self.state = state
        self.used: set[str] = set()
        self.rows: dict[str, str] = {}  # object id -> "node:port" of its row
        self.drawn: set[str] = set()  # games drawn so far
        self.dot = pydot.Dot(graph_type="digraph", rankdir="TB", compound="true",
                             newrank="true", nodesep="0.3", ranksep="0.35", fontname=FONT,
                             fontsize="10")
        self.title = title
        self.dot.set_node_defaults(shape="none", margin="0", fontname=FONT, fontsize="10")
        self.dot.set_edge_defaults(fontname=FONT, fontsize="9")
        self.index = {gid: i for i, gid in enumerate(state.games)}



class _ZonePicture(_Canvas):
    """The zones of a drawing and the objects in them: one row per object (its name, kind,
    owner and controller, face, phasing, counters and marks), a zone's rows under its name and
    count, and a node of zones under a heading (a player's, a game's, outside the game)."""

    def object_row(self, obj: GameObject, zone: ZoneRef, game: Game | None, node: str,
                   port: str) -> str:
        name = _wrapped(obj.label())
        tags: list[str] = []
        self.used.add(f"kind:{obj.kind}" if obj.kind in KIND_FILL else "kind:card")
        if not obj.is_card:
            tags.append(obj.kind)
        elif obj.card_type != TRADITIONAL:
            tags.append(obj.card_type)
            self.used.add("nontraditional")
        if obj.commander:
            name = f"<B>{name}</B>"
            tags.append("commander")
            self.used.add("commander")
        if not obj.face_up:
            name = f"<I>{name}</I>"
            tags.append("face down")
            self.used.add("face-down")
        if obj.phased_out:
            name = f'<FONT COLOR="{PHASED_COLOR}">{name}</FONT>'
            tags.append("phased out")
            self.used.add("phased-out")
        if obj.counters:
            tags.append("counters: " + _counts(obj.counters))
            self.used.add("counters")
        deck = game.began_in_deck.get(obj.id) if game is not None else None
        if deck is not None:
            tags.append(f"began in {deck} deck")
            self.used.add("began-in-deck")
        came = game.came_from.get(obj.id) if game is not None else None
        if came is not None and came != zone.kind:
            tags.append("came from " + came.replace("-", " "))
            self.used.add("came-from")
        if obj.is_card and (obj.types != DEFAULT_TYPES.get(obj.card_type, ()) or obj.aura):
            tags.append(" ".join(obj.types) + (" Aura" if obj.aura else ""))
            self.used.add("types")
        if obj.exiled_with is not None:
            tags.append(f"exiled with {obj.exiled_with}")
            self.used.add("exiled-with")
        if obj.same_card is not None:
            tags.append(f"the card {obj.same_card} again")
            self.used.add("same-card")
        if obj.is_card and zone.player != obj.owner:
            tags.append(f"owner {obj.owner}")
            self.used.add("owner")
        if obj.controller is not None and obj.controller != obj.owner:
            tags.append(f"controller {obj.controller}")
            self.used.add("controller")
        if not obj.is_card and obj.game_of_origin not in (None, zone.game):
            tags.append(f"made in {obj.game_of_origin}")
            self.used.add("made-in")
        if obj.triggers:
            tags.append("triggers: " + ", ".join(obj.triggers))
            self.used.add("triggers")
        if obj.affected_by:
            tags.append("affected by " + ", ".join(obj.affected_by))
            self.used.add("affected-by")
        if obj.since_first_turn:
            tags.append("since first turn")
            self.used.add("since-first-turn")
        self.rows[obj.id] = f"{node}:{port}"
        content = name + ("<BR/>" + _small(tags) if tags else "")
        return _row(content, KIND_FILL.get(obj.kind, KIND_FILL["card"]), port)

    def zone_rows(self, zone: ZoneRef, game: Game | None, node: str, start: int) -> list[str]:
        """The rows of one zone: its name and count, then its objects, top first (or only
        the top few, for a long zone)."""
        objects = self.state.in_zone(zone)
        head = f"<B>{_text(_zone_name(zone))}</B>  " \
               f'<FONT POINT-SIZE="8">{_count_words(len(objects), zone)}</FONT>'
        rows = [_row(head, ZONE_FILL)]
        shown = objects if len(objects) <= SHOWN_ROWS else objects[:TOP_ROWS]
        for i, obj in enumerate(shown):
            rows.append(self.object_row(obj, zone, game, node, f"o{start + i}"))
        if len(shown) < len(objects):
            rows.append(_row(f"<I>+ {len(objects) - len(shown)} more</I>"))
            self.used.add("summary")
        return rows

    def zones_node(self, parent: pydot.Graph, node: str, heading: str, zones: list[ZoneRef],
                   game: Game | None, empty: str) -> None:
        rows = [_row(heading, PLAYER_FILL)]
        for zone in zones:
            if self.state.zones.get(zone):
                rows += self.zone_rows(zone, game, node, len(rows))
        if len(rows) == 1:
            rows.append(_row(f'<FONT COLOR="{TAG_COLOR}">{empty}</FONT>'))
        parent.add_node(pydot.Node(node, label=_table(rows)))



class _Picture(_ZonePicture):
    """The games of a drawing: each game's header (its status, players, range, starting
    player and marks), its players' zones and its shared zones, the games it made nested
    inside it with an arrow from what made them, the games that ended, and the whole picture
    with its title and legend."""

    def players_of(self, game: Game) -> list[str]:
        """The game's players, then those who left it, then anyone else with a zone or
        counters in it: in seat order, each once."""
        seen = [*game.players, *game.left]
        for zone in self.state.zones_in_order(game.id):
            if zone.player is not None:
                seen.append(zone.player)
        seen += [p for g, p in self.state.player_counters if g == game.id]
        return list(dict.fromkeys(seen))

    def header(self, game: Game) -> str:
        fill, border, _, _ = STATUS_LOOK.get(game.status, STATUS_LOOK["suspended"])
        self.used.add(f"status:{game.status}" if game.status in STATUS_LOOK else "status:suspended")
        what = "game" if game.parent is None else "subgame"
        rows = [_row(f'<FONT POINT-SIZE="12"><B>{what} {_wrapped(game.id)}</B></FONT>  '
                     f"{_text(game.status)}", fill)]
        facts: list[str] = []
        if game.parent is not None:
            facts.append(f"subgame of {game.parent}")
        if game.created_by is not None:
            creator = self.state.objects.get(game.created_by)
            facts.append(f"created by {creator.label() if creator else game.created_by}")
        if game.restarted_from is not None:
            facts.append(f"restarted from {game.restarted_from}")
        rows += [_row(_wrapped(f), fill) for f in facts]
        rows.append(_row(f"players: {_wrapped(', '.join(game.players) or 'none')}", fill))
        if game.left:
            rows.append(_row("left: " + ", ".join(f"<S>{_text(p)}</S>" for p in game.left), fill))
            self.used.add("player-left")
        more = [
            ("variants", ", ".join(game.variants)),
            ("starting player", game.starting_player or ""),
            ("range of influence", "" if game.range_of_influence is None
             else str(game.range_of_influence)),
            ("will lose", ", ".join(game.doomed)),
            ("commander tax", _counts(game.commander_tax)),
            ("commander damage", _counts(game.commander_damage)),
            ("designations", ", ".join(f"{k}: {v}" for k, v in sorted(game.designations.items()))),
            ("finished resolving", ", ".join(game.resolved)),
            ("subgame results", ", ".join(f"{k}: {r.describe()}"
                                          for k, r in sorted(game.subgame_results.items()))),
            ("waiting for priority", ", ".join(game.waiting_for_priority)),
        ]
        rows += [_row(_wrapped(f"{k}: {v}"), fill) for k, v in more if v]
        missing = sorted(c for c in game.began_in_deck if self.state.where.get(c) is None
                         or self.state.where[c].game != game.id)
        if missing:
            rows.append(_row(_wrapped("began in a supplementary deck: " + ", ".join(
                f"{c} ({game.began_in_deck[c]})" for c in missing)), fill))
            self.used.add("began-in-deck")
        for t in game.pending_triggers:
            source = self.state.objects.get(t.source)
            rows.append(_row(_wrapped(
                f"waiting trigger {t.id}: {source.label() if source else t.source} saw "
                f"{t.card} leave {t.left}" + (f", controller {t.controller}" if t.controller
                                              else "")), TRIGGER_FILL))
            self.used.add("trigger")
        return _table(rows, border="1", color=border, cellborder="0")

    def game(self, parent: pydot.Graph, game_id: str, depth: int) -> None:
        """The box of one game, with the boxes of its subgames inside it."""
        state, game = self.state, self.state.games[game_id]
        self.drawn.add(game_id)
        i = self.index[game_id]
        _, border, style, width = STATUS_LOOK.get(game.status, STATUS_LOOK["suspended"])
        box = pydot.Subgraph(f"cluster_g{i}_{_safe(game_id)}", label="", color=border,
                             style=style, penwidth=width,
                             fillcolor=DEPTH_FILL[min(depth, len(DEPTH_FILL) - 1)])
        head = f"g{i}"
        box.add_node(pydot.Node(head, label=self.header(game)))
        zones = state.zones_in_order(game_id)
        below: list[str] = []
        shared = [z for z in zones if z.player is None]
        if any(state.zones.get(z) for z in shared):
            node = f"g{i}_shared"
            self.zones_node(box, node, "<B>shared zones</B>", shared, game, "")
            self.used.add("shared")
            below.append(node)
        for j, player in enumerate(self.players_of(game)):
            node = f"g{i}_p{j}"
            counters = state.player_counters.get((game_id, player), {})
            heading = f"<B>{_text(player)}</B>"
            self.used.add("player")
            if player not in game.players:
                heading = f"<S>{heading}</S> left"
                self.used.add("player-left")
            if counters:
                heading += "  " + _text(_counts(counters))
                self.used.add("player-counters")
            effects = [e for e in state.player_effects.get(player, ())
                       if e in state.where and state.where[e].game == game_id]
            if effects:
                heading += "<BR/>" + _small(["affected by " + ", ".join(effects)])
                self.used.add("player-effect")
            mine = [z for z in zones if z.player == player]
            self.zones_node(box, node, heading, mine, game, "no cards")
            below.append(node)
        for node in below:
            box.add_edge(pydot.Edge(head, node, style="invis"))
        for k, ended in enumerate(self.state.ended):
            if ended.parent == game_id:
                self.ended(box, f"g{i}_e{k}", ended)
                self.dot.add_edge(pydot.Edge(head, f"g{i}_e{k}", style="dashed",
                                             color=ENDED_COLOR, label="ended",
                                             fontcolor=ENDED_COLOR))
                self.used.add("edge:ended")
        for child in state.children(game_id):
            if child in self.drawn:
                continue  # games that do not form a tree are still drawn, each once
            self.game(box, child, depth + 1)
            j = self.index[child]
            target = f"cluster_g{j}_{_safe(child)}"
            creator = state.games[child].created_by
            if creator is not None and creator in self.rows:
                self.dot.add_edge(pydot.Edge(self.rows[creator], f"g{j}", lhead=target,
                                             color=CREATED_COLOR, fontcolor=CREATED_COLOR,
                                             label="created", penwidth="1.5"))
                self.used.add("edge:created")
            else:
                self.dot.add_edge(pydot.Edge(head, f"g{j}", lhead=target, color=CREATED_COLOR,
                                             fontcolor=CREATED_COLOR, label="subgame",
                                             penwidth="1.5"))
                self.used.add("edge:subgame")
        parent.add_subgraph(box)

    def ended(self, parent: pydot.Graph, node: str, ended: EndedGame) -> None:
        """A game that has ended: no zones, only its result and players, in a dashed box."""
        fill, border, style, width = STATUS_LOOK["ended"]
        rows = [_row(f"<B>ended game {_wrapped(ended.id)}</B>", fill),
                _row(_wrapped(ended.result.describe()), fill),
                _row("players: " + _wrapped(", ".join(ended.players) or "none"), fill)]
        parent.add_node(pydot.Node(node, label=_table(rows, cellborder="0"), shape="box",
                                   style=style, color=border, fillcolor=fill, penwidth=width,
                                   margin="0.05"))
        self.used.add("status:ended")

    # -- the whole picture ----------------------------------------------------------------

    def draw(self) -> pydot.Dot:
        state = self.state
        tops = [g.id for g in state.games.values()
                if g.parent is None or g.parent not in state.games]
        for game_id in tops:
            self.game(self.dot, game_id, 0)
        for game_id in state.games:  # in a cycle of main games, none is outermost
            if game_id not in self.drawn:
                tops.append(game_id)
                self.game(self.dot, game_id, 0)
        roots = [f"g{self.index[g]}" for g in tops]
        beside: list[str] = []  # ranked with the outermost game's zones, not its header
        for k, ended in enumerate(state.ended):
            if ended.parent not in state.games:
                self.ended(self.dot, f"e{k}", ended)
                beside.append(f"e{k}")
        outside = sorted((z for z in state.zones if z.is_outside and state.zones[z]),
                         key=lambda z: (z.player not in state.players,
                                        state.players.index(z.player)
                                        if z.player in state.players else 0, z.player or ""))
        if outside:
            box = pydot.Subgraph("cluster_outside", label="outside the game", style="dashed",
                                 color="#757575", fontname=FONT, fontsize="11")
            for j, zone in enumerate(outside):
                self.zones_node(box, f"out_p{j}", f"<B>{_text(zone.player)}</B>", [zone],
                                None, "no cards")
                beside.append(f"out_p{j}")
            self.dot.add_subgraph(box)
        for node in beside if roots else []:
            self.dot.add_edge(pydot.Edge(roots[0], node, style="invis"))
        self.dot.set("label", self.label())
        self.dot.set("labelloc", "t")
        self.dot.set("labeljust", "l")
        return self.dot

    def label(self) -> str:
        """The picture's label, above it: the title, then the legend of what it uses (in
        two columns when it is long, read down the left column first)."""
        cells = [_legend_cells(key) for key in LEGEND_KEYS if key in self.used]
        half = (len(cells) + 1) // 2 if len(cells) > LEGEND_ONE_COLUMN else len(cells)
        left, right = cells[:half], cells[half:]
        rows = [f"<TR>{a}{right[i] if i < len(right) else ''}</TR>" for i, a in enumerate(left)]
        span = 4 if right else 2
        legend = '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3" ' \
            f'BGCOLOR="white"><TR><TD COLSPAN="{span}" ALIGN="LEFT"><B>legend</B></TD></TR>' \
            + "".join(rows) + "</TABLE>"
        title = f'<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="16">{_wrapped(self.title, 100)}' \
            "</FONT></TD></TR>" if self.title else ""
        return f'<<TABLE BORDER="0" CELLSPACING="6">{title}<TR><TD ALIGN="LEFT">{legend}' \
            "</TD></TR></TABLE>>"


def _legend_cells(key: str) -> str:
    """One entry of the legend: its sample cell and its meaning cell."""
    _, sample, fill, meaning = LEGEND[LEGEND_KEYS.index(key)]
    attrs = f' BGCOLOR="{fill}"' if fill else ""
    return f'<TD ALIGN="LEFT" BALIGN="LEFT"{attrs}>{sample}</TD>' \
        f'<TD ALIGN="LEFT">{_text(meaning)}</TD>'


def legend_entries(dot: pydot.Dot) -> list[str]:
    """The conventions a picture's legend lists, as keys of `LEGEND`, in order."""
    label = str(dot.get("label") or "")
    return [key for key in LEGEND_KEYS if _legend_cells(key) in label]


def to_dot(state: Situation, title: str = "") -> pydot.Dot:
    """A Graphviz picture of the situation: a box per live game inside its main game's box,
    its header (status, players, what created it), a table per player and one for the
    shared zones, an arrow from each subgame's creating object, and a legend."""
    return _Picture(state, title).draw()


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
