"""One test per clause of the official rulebook, and proof that each test guards its clause.

For every clause there is a *probe*: a small situation, the events that exercise the
clause, and a yes/no reading of the outcome ("did the clause's behaviour happen?"). Each
probe runs twice:

* under the official rulebook, where the behaviour must happen, and
* under `official().remove(name)`, where it must not: either the probe reads "no", or,
  for clauses that grant something other clauses or events depend on (the permits
  `subgame.nesting` and `subgame.outside`, and the clauses that create the new game),
  the event is refused with `IllegalEvent`.

A probe asserts its own preconditions (which hold with or without the clause), so a probe
can never pass or fail for a reason other than the clause under test. The meta-test at the
end fails as soon as the rulebook gains a clause without a probe here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from shahrazad.model.choices import enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import Rulebook, official

from tests.situations import (
    active,
    at,
    build,
    card,
    counter,
    ev,
    exiled_with_karn,
    game,
    ids,
    library,
    new_games,
    obj,
    only_child,
    run,
)

Probe = Callable[[Rulebook], bool]


@dataclass(frozen=True)
class Case:
    probe: Probe
    # What removing the clause does: "no" (the probe reads False) or "illegal" (the events
    # are refused with IllegalEvent whose message matches `refused`).
    without: str = "no"
    refused: str = ""


CASES: dict[str, Case] = {}


def clause(name: str, *, without: str = "no", refused: str = "") -> Callable[[Probe], Probe]:
    def register(probe: Probe) -> Probe:
        assert name not in CASES, f"two probes for {name}"
        CASES[name] = Case(probe, without, refused)
        return probe
    return register


# ============================================================================ situations

def subgame_table():
    """A Commander + Vanguard + Planechase game between A and B, before Shahrazad.

    A has 7 cards in library, B only 3; A has a card in hand, B one in the graveyard;
    A controls a permanent `w` with a leaves-a-zone trigger; each player has a commander
    in the command zone; B has a vanguard; A has a planar deck of two face-down planes
    and a face-up plane `pUp` in the command zone; A has a card outside the game; A has
    two poison counters in the main game.
    """
    return build(
        ["A", "B"],
        games=[game("main", variants=["commander", "vanguard", "planechase"])],
        cards=[
            *library("A", 7), *library("B", 3),
            card("ah", "A", "main/hand/A"),
            card("bg", "B", "main/graveyard/B"),
            card("w", "A", "main/battlefield", triggers=["leaves-zone"]),
            card("cmdA", "A", "main/command", commander=True),
            card("cmdB", "B", "main/battlefield", commander=True),
            card("vB", "B", "main/command", type="vanguard"),
            card("pA1", "A", "main/deck/A/planar", type="plane", face="down"),
            card("pA2", "A", "main/deck/A/planar", type="plane", face="down"),
            card("pUp", "A", "main/command", type="plane"),
            card("xA", "A", "outside/A"),
        ],
        counters=[counter("main", "A", "poison", 2)],
    )


def started(rulebook: Rulebook, *more):
    """The subgame table after A casts Shahrazad (and `more` events in the subgame)."""
    before = subgame_table()
    out = run(before, [ev("start-subgame", by="A"), *more], rulebook)
    subs = new_games(before, out.situation)
    assert len(subs) == 1, "exactly one new game"
    return out, subs[0].id


def ended(rulebook: Rulebook, *during, winner=None):
    """The subgame table after Shahrazad, `during` in the subgame, and the subgame's end."""
    before = subgame_table()
    end = ev("end-subgame", winner=winner) if winner else ev("end-subgame")
    mid = run(before, [ev("start-subgame", by="A"), *during], official())
    sub = active(mid.situation).id
    out = run(mid.situation, [end], rulebook)
    return mid, out, sub


def restart_table(**main):
    """A Commander game among A, B, C and D, in which A has just resolved Karn's -14.

    A: 7 cards in library, a card in hand, a card in the graveyard, a phased-out permanent,
    a commander on the battlefield, a card `k` exiled with Karn and a card brought in from
    outside. B: 3 cards in library, a commander `kc` exiled with Karn, a vanguard in the
    command zone and a face-up plane. C and D: one library card each. Also a token, an
    emblem, an effect, player counters, commander tax and commander damage.
    """
    return build(
        ["A", "B", "C", "D"],
        games=[game("main", variants=["commander", "vanguard"],
                    commander_tax={"A": 2}, commander_damage={"cmdA->B": 7}, **main)],
        cards=[
            *library("A", 7), *library("B", 3), *library("C", 1), *library("D", 1),
            card("ah", "A", "main/hand/A"),
            card("ag", "A", "main/graveyard/A"),
            card("aph", "A", "main/battlefield", phased="out"),
            card("cmdA", "A", "main/battlefield", commander=True),
            card("k", "A", "main/exile"),
            card("bx", "B", "main/battlefield", controller="A"),
            card("kc", "B", "main/exile", commander=True),
            card("vB", "B", "main/command", type="vanguard"),
            card("pB", "B", "main/command", type="plane"),
            card("xA", "A", "outside/A"),
        ],
        objects=[
            obj("tok", "token", "A", "main/battlefield"),
            obj("emb", "emblem", "B", "main/command"),
            obj("eff", "effect", "A", "main/effects"),
        ],
        counters=[counter("main", "A", "poison", 3), counter("main", "B", "energy", 1)],
    )


def restarted(rulebook: Rulebook, controller="A", exempt=(), then=None, table=None,
              before_events=()):
    before = table if table is not None else restart_table()
    args = {"controller": controller}
    if exempt:
        before, args["source"] = exiled_with_karn(before, exempt, controller)
    if then:
        args["then"] = then
    mid = run(before, list(before_events), official()) if before_events else None
    start = mid.situation if mid else before
    out = run(start, [ev("restart", **args)], rulebook)
    return start, out


def new_game(before, out):
    games = new_games(before, out.situation)
    assert len(games) == 1, f"expected one new game, got {[g.id for g in games]}"
    return games[0]


# ======================================================================= subgame start

@clause("subgame.nesting", without="illegal", refused=r"subgame inside a subgame")
def _(rb):
    before = build(["A", "B"], games=[game("main"), game("sub", parent="main")],
                   cards=[*library("A", 1, "sub"), *library("B", 1, "sub")])
    out = run(before, [ev("start-subgame", by="B", card="Enter the Dungeon")], rb)
    inner = only_child(out.situation, "sub")
    return (active(out.situation).id == inner.id and out.situation.games["sub"].status == "suspended"
            and out.situation.games["main"].status == "suspended")


@clause("subgame.start.new-game", without="illegal", refused=r"no clause created it")
def _(rb):
    out, sub = started(rb)
    g = out.situation.games[sub]
    return (g.parent == "main" and g.players == ["A", "B"]
            and all(at(out.situation, c) == f"{sub}/library/{c[0].upper()}"
                    for c in ("a1", "b1")))


@clause("subgame.start.suspend-main")
def _(rb):
    out, sub = started(rb)
    statuses = {gid: g.status for gid, g in out.situation.games.items()}
    return statuses == {"main": "suspended", sub: "active"}


@clause("subgame.start.libraries")
def _(rb):
    out, sub = started(rb)
    s = out.situation
    # 728.2: no other main-game card moves (holds with or without this clause)
    assert (at(s, "ah"), at(s, "bg"), at(s, "w"), at(s, "cmdB")) == (
        "main/hand/A", "main/graveyard/B", "main/battlefield", "main/battlefield")
    return (sorted(ids(s, f"{sub}/library/A")) == [f"a{i}" for i in range(1, 8)]
            and sorted(ids(s, f"{sub}/library/B")) == ["b1", "b2", "b3"]
            and ids(s, "main/library/A") == [] and ids(s, "main/library/B") == [])


@clause("subgame.start.supplementary-decks")
def _(rb):
    out, sub = started(rb)
    s = out.situation
    # 728.2a: the face-up plane stays in the main-game command zone either way
    assert at(s, "pUp") == "main/command"
    return (sorted(ids(s, f"{sub}/deck/A/planar")) == ["pA1", "pA2"]
            and s.games[sub].began_in_deck == {"pA1": "planar", "pA2": "planar"})


@clause("subgame.start.vanguard")
def _(rb):
    out, sub = started(rb)
    return at(out.situation, "vB") == f"{sub}/command"


@clause("subgame.start.commander")
def _(rb):
    out, sub = started(rb)
    s = out.situation
    assert at(s, "cmdB") == "main/battlefield"  # 728.2c: only a commander in the command zone
    return at(s, "cmdA") == f"{sub}/command" and s.objects["cmdA"].commander


@clause("subgame.start.starting-player")
def _(rb):
    before = build(["A", "B", "C"], cards=[card("a1", "A", "main/library/A")])

    def first(chooser):
        out = Interpreter(rb, chooser).run(before, [ev("start-subgame", by="A")])
        return new_games(before, out.situation)[0].starting_player

    return set(enumerate_outcomes(first)) == {"A", "B", "C"}


@clause("subgame.start.short-library")
def _(rb):
    out, sub = started(rb)
    return out.situation.games[sub].doomed == ["B"]  # B has 3 cards, A has 7


def stages(out, game_id):
    """The stages of rule 103 that the game reached during the run, in order."""
    return [c.after for step in out.trace for c in step.changes
            if c.object == game_id and c.what in ("stage", "stage out of order")]


@clause("subgame.start.opening-hands")
def _(rb):
    out, sub = started(rb)
    reached = stages(out, sub)
    return reached[:3] == ["starting-player", "opening-hands", "mulligans"]


@clause("subgame.start.first-turn")
def _(rb):
    out, sub = started(rb)
    game = out.situation.games[sub]
    return (game.stage, game.out_of_order) == ("first-turn", False)


# ==================================================================== during a subgame

@clause("subgame.separate-effects")
def _(rb):
    """Yes when an effect of the subgame is refused on a main-game card (728.1b)."""
    before = build(["A", "B"], games=[game("main"), game("sub", parent="main")],
                   cards=[card("x", "B", "main/battlefield"), card("y", "B", "sub/battlefield")],
                   objects=[obj("e", "effect", "A", "sub/effects")])
    # within one game, an effect acts whatever the rulebook
    same = run(before, [ev("affect", effect="e", object="y")], rb)
    assert same.situation.objects["y"].affected_by == ["e"]
    try:
        out = run(before, [ev("affect", effect="e", object="x")], rb)
    except IllegalEvent as err:
        assert err.rule == "728.1b"
        return True
    assert out.situation.objects["x"].affected_by == ["e"]
    return False


@clause("subgame.outside", without="illegal", refused=r"no clause makes it outside")
def _(rb):
    out, sub = started(rb, ev("bring-in", card="ah"))
    return at(out.situation, "ah") == f"{sub}/hand/A"


@clause("subgame.bring-in.leave-triggers")
def _(rb):
    out, sub = started(rb, ev("bring-in", card="ah"))
    pending = out.situation.games["main"].pending_triggers
    return [(t.source, t.card, t.left) for t in pending] == [("w", "ah", "main/hand/A")]


# ========================================================================= subgame end

@clause("subgame.end.result")
def _(rb):
    mid, out, sub = ended(rb, winner=["B"])
    s = out.situation
    creator = mid.situation.games[sub].created_by
    record = [(e.result.kind, e.result.winners) for e in s.ended if e.id == sub]
    result = s.games["main"].subgame_results.get(creator)
    return record == [("win", ["B"])] and result is not None and result.winners == ["B"]


def _planeswalked(sub):
    """In the subgame, A planeswalks to pA1: it leaves the planar deck, face up."""
    return [ev("move", object="pA1", to=f"{sub}/command"), ev("turn", object="pA1", face="up")]


def _ended_after_planeswalk(rb):
    before = subgame_table()
    mid = run(before, [ev("start-subgame", by="A")], official())
    sub = active(mid.situation).id
    mid = run(mid.situation, _planeswalked(sub), official())
    assert at(mid.situation, "pA1") == f"{sub}/command" and mid.situation.objects["pA1"].face_up
    return run(mid.situation, [ev("end-subgame")], rb), sub


@clause("subgame.end.supplementary-cards")
def _(rb):
    out, sub = _ended_after_planeswalk(rb)
    s = out.situation
    return at(s, "pA1") == "main/deck/A/planar" and not s.objects["pA1"].face_up


@clause("subgame.end.supplementary-decks")
def _(rb):
    out, sub = _ended_after_planeswalk(rb)
    s = out.situation
    assert at(s, "pUp") == "main/command"
    return at(s, "pA2") == "main/deck/A/planar" and at(s, "pA1") == "main/deck/A/planar"


@clause("subgame.end.vanguard")
def _(rb):
    _, out, _ = ended(rb)
    return at(out.situation, "vB") == "main/command"


@clause("subgame.end.commander")
def _(rb):
    _, out, _ = ended(rb)
    s = out.situation
    return at(s, "cmdA") == "main/command" and s.objects["cmdA"].commander


@clause("subgame.end.return-cards")
def _(rb):
    before = subgame_table()
    mid = run(before, [ev("start-subgame", by="A")], official())
    sub = active(mid.situation).id
    mid = run(mid.situation, [
        ev("bring-in", card="ah"),                                # from the main game
        ev("bring-in", card="xA"),                                # from outside the game
        ev("bring-in", card="bg", by="A", to="battlefield"),      # B's card, under A's control
        ev("move", object="a1", to=f"{sub}/exile"),               # exile included
        ev("move", object="a2", to=f"{sub}/battlefield"),
        ev("phase", object="a2", out=True),                       # phased out included
        ev("move", object="b1", to=f"{sub}/graveyard/B"),
    ], official())
    out = run(mid.situation, [ev("end-subgame")], rb)
    s = out.situation
    a_cards = {"ah", "xA", *(f"a{i}" for i in range(1, 8))}
    return (set(ids(s, "main/library/A")) == a_cards
            and set(ids(s, "main/library/B")) == {"b1", "b2", "b3", "bg"}
            and not s.objects["a2"].phased_out)


@clause("subgame.end.player-counters")
def _(rb):
    _, out, sub = ended(rb, ev("counter", player="A", kind="poison", add=5))
    counters = out.situation.player_counters
    return (all(g != sub for g, _ in counters)
            and counters.get(("main", "A")) == {"poison": 2})


@clause("subgame.end.cease")
def _(rb):
    mid, out, sub = ended(rb, ev("create", kind="token", id="tok", controller="A"),
                          ev("create", kind="emblem", id="emb", controller="B"))
    assert at(mid.situation, "tok") == f"{sub}/battlefield"
    s = out.situation
    return ("tok" not in s.objects and "emb" not in s.objects and sub not in s.games
            and not s.zones_of(sub))


@clause("subgame.end.resume-main")
def _(rb):
    _, out, _ = ended(rb)
    return out.situation.games["main"].status == "active"


@clause("subgame.end.finish-creator")
def _(rb):
    before = build(["A", "B"], cards=[card("shz", "A", "main/stack", name="Shahrazad"),
                                      card("a1", "A", "main/library/A")])
    mid = run(before, [ev("start-subgame", by="A", via="shz")], official())
    out = run(mid.situation, [ev("end-subgame")], rb)
    s = out.situation
    return s.games["main"].resolved == ["shz"] and at(s, "shz") == "main/graveyard/A"


@clause("subgame.end.release-triggers")
def _(rb):
    mid, out, _ = ended(rb, ev("bring-in", card="ah"))
    (trigger,) = mid.situation.games["main"].pending_triggers
    s = out.situation
    return (at(s, trigger.id) == "main/stack" and s.objects[trigger.id].kind == "ability"
            and s.games["main"].pending_triggers == [])


# ============================================================================= restart

@clause("restart.range-of-influence")
def _(rb):
    before, out = restarted(rb, table=restart_table(range_of_influence=1))
    g = new_game(before, out)
    return g.players == ["A", "B", "C", "D"] and at(out.situation, "c1") == f"{g.id}/library/C"


@clause("restart.end-game")
def _(rb):
    before, out = restarted(rb)
    return [(e.id, e.result.kind, e.result.winners) for e in out.situation.ended] == [
        ("main", "restarted", [])]


@clause("restart.new-game", without="illegal", refused=r"no clause created it")
def _(rb):
    before, out = restarted(rb)
    g = new_game(before, out)
    return (g.players == ["A", "B", "C", "D"] and g.parent is None
            and active(out.situation).id == g.id)


@clause("restart.subgame")
def _(rb):
    table = build(["A", "B"],
                  games=[game("main"), game("sub", parent="main", created_by="shz")],
                  cards=[card("shz", "A", "main/stack", name="Shahrazad"),
                         card("m1", "A", "main/graveyard/A"),
                         *library("A", 7, "sub"), *library("B", 7, "sub")])
    before, out = restarted(rb, controller="B", table=table)
    g = new_game(before, out)
    assert g.parent == "main" and at(out.situation, "m1") == "main/graveyard/A"
    end = run(out.situation, [ev("end-subgame", winner=["B"])], official())
    main = end.situation.games["main"]
    result = main.subgame_results.get("shz")
    return (g.restarted_from == "sub" and result is not None and result.winners == ["B"]
            and main.resolved == ["shz"])


@clause("restart.exempt")
def _(rb):
    before, out = restarted(rb, exempt=["k"])
    g = new_game(before, out)
    return at(out.situation, "k") == f"{g.id}/exile"


@clause("restart.exempt-commander")
def _(rb):
    before, out = restarted(rb, exempt=["kc"])
    g = new_game(before, out)
    s = out.situation
    return at(s, "kc") == f"{g.id}/exile" and s.objects["kc"].commander


@clause("restart.commanders")
def _(rb):
    before, out = restarted(rb)
    g = new_game(before, out)
    return (at(out.situation, "cmdA") == f"{g.id}/command"
            and at(out.situation, "kc") == f"{g.id}/command")


@clause("restart.cards-involved")
def _(rb):
    before, out = restarted(rb, before_events=[ev("bring-in", card="xA")])
    g = new_game(before, out)
    s = out.situation
    a_cards = {"ah", "ag", "aph", "k", "xA", *(f"a{i}" for i in range(1, 8))}
    return (set(ids(s, f"{g.id}/library/A")) == a_cards
            and set(ids(s, f"{g.id}/library/B")) == {"b1", "b2", "b3", "bx"}
            and at(s, "vB") == f"{g.id}/command"
            and at(s, "pB") == f"{g.id}/deck/B/planar" and not s.objects["pB"].face_up
            and all(s.objects[c].owner == o for c, o in (("bx", "B"), ("xA", "A"))))


@clause("restart.nothing-else")
def _(rb):
    before, out = restarted(rb)
    s = out.situation
    return ("tok" not in s.objects and "emb" not in s.objects and "eff" not in s.objects
            and all(g != "main" for g, _ in s.player_counters)
            and "main" not in s.games and not s.zones_of("main"))


@clause("restart.starting-player")
def _(rb):
    before, out = restarted(rb, controller="C")
    return new_game(before, out).starting_player == "C"


@clause("restart.short-library")
def _(rb):
    before, out = restarted(rb)
    # A: 7 library cards and more; B: 3 + bx (kc, a commander, goes to the command
    # zone); C and D: one card each
    return new_game(before, out).doomed == ["B", "C", "D"]


@clause("restart.opening-hands")
def _(rb):
    before, out = restarted(rb)
    reached = stages(out, new_game(before, out).id)
    return reached[:3] == ["starting-player", "opening-hands", "mulligans"]


@clause("restart.first-turn")
def _(rb):
    before, out = restarted(rb, controller="A", exempt=["k"], then="battlefield")
    g = new_game(before, out)
    # The first turn, in order, after the restarting effect finished (726.4).
    return (g.stage, g.out_of_order, g.instructions_at) == ("first-turn", False, "mulligans")


@clause("restart.finish-effect")
def _(rb):
    before, out = restarted(rb, controller="A", exempt=["k", "kc"], then="battlefield")
    g = new_game(before, out)
    s = out.situation
    return (all(at(s, c) == f"{g.id}/battlefield" for c in ("k", "kc"))
            and all(s.objects[c].controller == "A" and s.objects[c].since_first_turn
                    for c in ("k", "kc"))
            and g.waiting_for_priority != [])


# =============================================================================== tests

NAMES = sorted(CASES)


@pytest.mark.parametrize("name", NAMES)
def test_clause_behaviour_under_official_rules(name):
    assert CASES[name].probe(official()) is True


@pytest.mark.parametrize("name", NAMES)
def test_removing_the_clause_loses_the_behaviour(name):
    case = CASES[name]
    amended = official().remove(name)
    assert name not in amended.names()
    if case.without == "illegal":
        with pytest.raises(IllegalEvent, match=re.compile(case.refused)):
            case.probe(amended)
    else:
        assert case.probe(amended) is False


def test_every_clause_has_exactly_one_probe():
    names = official().names()
    assert len(names) == len(set(names))
    assert set(CASES) == set(names), (
        f"clauses without a probe: {sorted(set(names) - set(CASES))}; "
        f"probes without a clause: {sorted(set(CASES) - set(names))}")
