"""The CR's own examples and the official card rulings, run on concrete situations.

Sources: CR of 16 Jan 2026, rules 726 (restarting the game) and 728 (subgames), and the
Gatherer rulings of Shahrazad, Karn Liberated, Enter the Dungeon, The Countdown Is at One
and Living Wish (`rules/cards_oracle_and_rulings.txt`). Each test names its source.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from shahrazad.model.choices import enumerate_outcomes
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import official

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
    run,
)


def two_player_game(**main):
    """A and B, 8 library cards each, a few cards elsewhere, A's card outside the game."""
    return build(
        ["A", "B"],
        games=[game("main", **main)],
        cards=[*library("A", 8), *library("B", 8),
               card("ah", "A", "main/hand/A"),
               card("bg", "B", "main/graveyard/B"),
               card("w", "B", "main/battlefield", triggers=["leaves-zone"]),
               card("creature", "A", "outside/A", name="a creature for Living Wish")],
    )


def in_subgame(situation, *events, by="A"):
    out = run(situation, [ev("start-subgame", by=by), *events])
    return out, active(out.situation).id


# ================================================================== 728.2 / 728.3 start

def test_728_2_each_main_library_becomes_the_subgame_library_and_nothing_else_moves():
    before = build(["A", "B"],
                   cards=[*library("A", 8), *library("B", 7),
                          card("ah", "A", "main/hand/A"), card("bg", "B", "main/graveyard/B"),
                          card("ab", "A", "main/battlefield"), card("ax", "A", "main/exile")],
                   objects=[obj("tok", "token", "A", "main/battlefield"),
                            obj("emb", "emblem", "B", "main/command")],
                   counters=[counter("main", "A", "poison", 4)])
    out, sub = in_subgame(before)
    s = out.situation
    for player in ("A", "B"):
        assert set(ids(s, f"{sub}/library/{player}")) == set(ids(before, f"main/library/{player}"))
        assert ids(s, f"main/library/{player}") == []
    # Countdown Is at One ruling: no other cards, tokens, emblems or anything else come along
    for thing in ("ah", "bg", "ab", "ax", "tok", "emb"):
        assert at(s, thing) == at(before, thing)
    for zone in ("battlefield", "exile", "command", "stack", "hand/A", "graveyard/B"):
        assert ids(s, f"{sub}/{zone}") == []
    # 728.4b: main-game counters are not part of the subgame, and are kept
    assert s.counters_of(sub, "A") == {}
    assert s.player_counters[("main", "A")] == {"poison": 4}


@pytest.mark.parametrize("counts, doomed", [
    ((7, 7), []),
    ((6, 7), ["A"]),
    ((7, 0), ["B"]),
    ((3, 2), ["A", "B"]),  # Shahrazad ruling: if both have fewer than required, both lose
])
def test_728_3_a_library_under_seven_cards_loses_the_subgame(counts, doomed):
    before = build(["A", "B"], cards=[*library("A", counts[0]), *library("B", counts[1])])
    out, sub = in_subgame(before)
    assert out.situation.games[sub].doomed == doomed


def test_728_2_the_starting_player_of_a_subgame_can_be_any_subgame_player_and_no_one_else():
    before = build(["A", "B", "C"],
                   cards=[card("a1", "A", "main/library/A"), card("b1", "B", "main/library/B")])

    def starting_player(chooser):
        out = Interpreter(official(), chooser).run(before, [ev("start-subgame", by="B")])
        (sub,) = new_games(before, out.situation)
        return sub.starting_player

    assert set(enumerate_outcomes(starting_player)) == {"A", "B", "C"}


def test_728_2_the_subgame_library_is_shuffled_into_any_order():
    before = build(["A", "B"], cards=[*library("A", 3), *library("B", 1)])

    def order(chooser):
        out = Interpreter(official(), chooser).run(before, [ev("start-subgame", by="A")])
        (sub,) = new_games(before, out.situation)
        return tuple(ids(out.situation, f"{sub.id}/library/A"))

    assert set(enumerate_outcomes(order)) == set(permutations(("a1", "a2", "a3")))


# ============================================================ 728.4 during the subgame

def test_728_4a_bringing_a_main_game_card_in_queues_main_game_leave_triggers():
    out, sub = in_subgame(two_player_game(), ev("bring-in", card="ah"))
    s = out.situation
    (trigger,) = s.games["main"].pending_triggers
    assert (trigger.source, trigger.card, trigger.left) == ("w", "ah", "main/hand/A")
    assert ids(s, "main/stack") == [s.games[sub].created_by]  # only Shahrazad's effect
    assert trigger.id not in s.objects  # it waits: not on any stack yet


def test_728_4a_a_permanent_brought_in_from_the_main_battlefield_fires_its_own_leave_trigger():
    """728.4a with 603.6c/603.10a: leaves-the-battlefield abilities look back in time, so a
    main-game permanent's own "when this leaves the battlefield" triggers as it is taken
    into the subgame, like every other main-game watcher."""
    state = build(["A", "B"],
                  cards=[*library("A", 7), *library("B", 7),
                         card("w", "B", "main/battlefield", triggers=["leaves-zone"]),
                         card("sac", "A", "main/battlefield", triggers=["leaves-zone"])])
    out, sub = in_subgame(state, ev("bring-in", card="sac"))
    pending = {(t.source, t.card, t.left) for t in out.situation.games["main"].pending_triggers}
    assert ("w", "sac", "main/battlefield") in pending
    assert pending == {("w", "sac", "main/battlefield"), ("sac", "sac", "main/battlefield")}, (
        "the brought-in permanent's own leaves-the-battlefield ability did not trigger")


def test_728_4_a_card_from_outside_fires_no_main_game_trigger():
    out, sub = in_subgame(two_player_game(), ev("bring-in", card="creature"))
    assert out.situation.games["main"].pending_triggers == []
    assert at(out.situation, "creature") == f"{sub}/hand/A"


# ====================================================================== 728.5 the end

def test_728_5_example_a_card_brought_in_from_the_main_game_or_from_outside_goes_to_its_owners_main_library():
    out, sub = in_subgame(
        two_player_game(),
        ev("bring-in", card="ah"),                              # from the main game
        ev("bring-in", card="creature"),                        # from outside (Living Wish)
        ev("bring-in", card="bg", by="A", to="battlefield"),    # B's card, brought in by A
    )
    end = run(out.situation, [ev("end-subgame", winner=["A"])])
    s = end.situation
    assert at(s, "ah") == "main/library/A"
    assert at(s, "creature") == "main/library/A"
    assert at(s, "bg") == "main/library/B"
    assert s.objects["bg"].owner == "B" and s.objects["bg"].controller == "B"


def test_728_5_exiled_and_phased_out_cards_return_too():
    out, sub = in_subgame(two_player_game())
    mid = run(out.situation, [ev("move", object="a1", to=f"{sub}/exile"),
                              ev("move", object="b1", to=f"{sub}/battlefield"),
                              ev("phase", object="b1", out=True)])
    s = run(mid.situation, [ev("end-subgame")]).situation
    assert at(s, "a1") == "main/library/A"
    assert at(s, "b1") == "main/library/B" and not s.objects["b1"].phased_out
    assert len(ids(s, "main/library/A")) == 8 and len(ids(s, "main/library/B")) == 8


def test_728_5_the_creating_spell_finishes_resolving_before_the_queued_triggers_go_on_the_stack():
    before = build(["A", "B"],
                   cards=[card("shz", "A", "main/stack", name="Shahrazad"),
                          *library("A", 2), *library("B", 2),
                          card("ah", "A", "main/hand/A"), card("bh", "B", "main/hand/B"),
                          card("w1", "A", "main/battlefield", triggers=["leaves-zone"]),
                          card("w2", "B", "main/battlefield", triggers=["leaves-zone"])])
    mid = run(before, [ev("start-subgame", by="A", via="shz"),
                       ev("bring-in", card="ah"), ev("bring-in", card="bh")])
    pending = [t.id for t in mid.situation.games["main"].pending_triggers]
    assert len(pending) == 4  # two cards left, two watchers saw each
    out = run(mid.situation, [ev("end-subgame")])
    order = [step.clause for step in out.trace]
    returned = order.index("subgame.end.return-cards")
    finished = order.index("subgame.end.finish-creator")
    released = order.index("subgame.end.release-triggers")
    assert returned < finished < released
    assert any(c.object == "shz" and c.what == "finishes resolving"
               for c in out.trace[finished].changes)
    s = out.situation
    main = s.games["main"]
    assert main.resolved == ["shz"]
    assert at(s, "shz") == "main/graveyard/A"  # it finished resolving, then left the stack
    # each queued trigger goes on the stack exactly once, and nothing else is there
    assert sorted(ids(s, "main/stack")) == sorted(pending)
    assert main.pending_triggers == []


def test_728_5_the_creating_spell_finishes_resolving_even_if_its_card_left_the_stack():
    before = build(["A", "B"],
                   games=[game("main"), game("sub", parent="main", created_by="shz")],
                   cards=[card("shz", "A", "main/graveyard/A", name="Shahrazad"),
                          *library("A", 1, "sub"), *library("B", 1, "sub")])
    out = run(before, [ev("end-subgame")])
    s = out.situation
    assert s.games["main"].resolved == ["shz"]
    assert at(s, "shz") == "main/graveyard/A"
    assert s.games["main"].subgame_results["shz"].kind == "none"


def test_728_5_a_subgame_effect_acting_on_a_player_does_not_survive_the_subgame():
    """728.1b / 728.5: the subgame's effects cease; nothing keeps acting on a player."""
    out, sub = in_subgame(two_player_game(),
                          ev("create", kind="effect", id="eff", controller="A"),
                          ev("affect", effect="eff", player="B"))
    assert out.situation.player_effects.get("B") == ["eff"]
    s = run(out.situation, [ev("end-subgame")]).situation
    assert "eff" not in s.objects
    assert "eff" not in s.player_effects.get("B", []), (
        "a ceased subgame effect still acts on player B in the main game")


def test_728_4b_counters_got_in_the_subgame_cease_main_game_counters_stay():
    before = build(["A", "B"], cards=[*library("A", 7), *library("B", 7)],
                   counters=[counter("main", "A", "poison", 2)])
    out, sub = in_subgame(before, ev("counter", player="A", kind="poison", add=3),
                          ev("counter", player="B", kind="energy", add=1))
    assert out.situation.counters_of(sub, "A") == {"poison": 3}
    s = run(out.situation, [ev("end-subgame")]).situation
    assert s.player_counters.get(("main", "A")) == {"poison": 2}
    assert not any(game_id == sub for game_id, _ in s.player_counters)


# =============================================================== 728.6 nested subgames

def test_enter_the_dungeon_in_a_subgame_returns_cards_to_the_subgame_not_the_outermost_game():
    """Enter the Dungeon ruling (2020-02-29), 728.6."""
    before = build(["A", "B"],
                   cards=[*library("A", 8), *library("B", 8),
                          card("etd", "B", "main/hand/B", name="Enter the Dungeon")])
    out, sub1 = in_subgame(before)
    # in the subgame, B draws Enter the Dungeon's counterpart and casts it
    mid = run(out.situation, [ev("move", object="b1", to=f"{sub1}/stack"),
                              ev("start-subgame", by="B", via="b1", card="Enter the Dungeon")])
    s = mid.situation
    sub2 = active(s).id
    assert s.games[sub2].parent == sub1
    assert (s.games["main"].status, s.games[sub1].status) == ("suspended", "suspended")
    assert ids(s, f"{sub1}/library/A") == [] and len(ids(s, f"{sub2}/library/A")) == 8
    mid = run(s, [ev("move", object="a3", to=f"{sub2}/graveyard/A"),
                  ev("create", kind="token", id="goblin", controller="A")])
    end = run(mid.situation, [ev("end-subgame", winner=["B"])])
    s = end.situation
    assert active(s).id == sub1 and s.games["main"].status == "suspended"
    assert sub2 not in s.games and "goblin" not in s.objects
    # the sub-subgame's cards went to the subgame's libraries (its own main game)
    assert set(ids(s, f"{sub1}/library/A")) == {f"a{i}" for i in range(1, 9)}
    assert set(ids(s, f"{sub1}/library/B")) == {f"b{i}" for i in range(2, 9)}
    assert ids(s, "main/library/A") == [] and ids(s, "main/library/B") == []
    # the winner of the sub-subgame is known to the subgame, where Enter the Dungeon resolves
    assert s.games[sub1].subgame_results["b1"].winners == ["B"]
    assert s.games[sub1].resolved == ["b1"] and at(s, "b1") == f"{sub1}/graveyard/B"
    assert s.games["main"].resolved == []
    # and the subgame's own end sends everything to the outermost game
    s = run(s, [ev("end-subgame")]).situation
    assert active(s).id == "main"
    assert set(ids(s, "main/library/A")) == {f"a{i}" for i in range(1, 9)}
    assert set(ids(s, "main/library/B")) == {f"b{i}" for i in range(1, 9)}


# =========================================================================== 726 restart

def karn_game(**main):
    return build(
        ["A", "B", "C"],
        games=[game("main", variants=["commander"], **main)],
        cards=[*library("A", 7), *library("B", 7), *library("C", 7),
               card("cmdA", "A", "main/exile", commander=True, name="A's commander"),
               card("cmdB", "B", "main/command", commander=True),
               card("cmdC", "C", "main/battlefield", commander=True, counters={"p1p1": 2}),
               card("bk", "B", "main/exile", name="B's creature exiled with Karn"),
               card("karn", "A", "main/battlefield", name="Karn Liberated",
                    counters={"loyalty": 14}),
               card("creature", "A", "outside/A")],
        objects=[obj("emb", "emblem", "B", "main/command"),
                 obj("tok", "token", "C", "main/battlefield")],
        counters=[counter("main", "A", "poison", 3), counter("main", "C", "experience", 2)],
    )


def karn(state, controller="A", exempt=("cmdA", "bk"), then="battlefield"):
    args = {"controller": controller}
    if exempt:
        state, args["source"] = exiled_with_karn(state, exempt, controller)
    if then:
        args["then"] = then
    out = run(state, [ev("restart", **args)])
    (new,) = new_games(state, out.situation)
    return out, new


def test_726_1_the_restarted_game_ends_with_no_result_and_its_players_start_anew():
    state = karn_game()
    out, new = karn(state)
    s = out.situation
    assert [(e.id, e.result.kind, e.result.winners, e.players) for e in s.ended] == [
        ("main", "restarted", [], ["A", "B", "C"])]
    assert new.players == ["A", "B", "C"] and new.parent is None
    assert list(s.games) == [new.id] and new.status == "active"


def test_726_2_example_a_creature_fetched_with_living_wish_is_in_its_owners_library():
    state = run(karn_game(), [ev("bring-in", card="creature")]).situation
    assert at(state, "creature") == "main/hand/A"
    out, new = karn(state)
    assert at(out.situation, "creature") == f"{new.id}/library/A"
    assert out.situation.objects["creature"].owner == "A"


def test_726_2_every_card_is_in_the_new_game_and_ownership_does_not_change():
    state = run(karn_game(), [ev("phase", object="karn", out=True)]).situation
    out, new = karn(state, exempt=())
    s = out.situation
    before_cards = {c.id: c.owner for c in state.cards() if state.where[c.id].game == "main"}
    for card_id, owner in before_cards.items():
        assert s.where[card_id].game == new.id
        assert s.objects[card_id].owner == owner
    assert at(s, "karn") == f"{new.id}/library/A"  # phased out, still involved


def test_karn_exiled_commander_goes_to_the_battlefield_and_is_still_a_commander():
    out, new = karn(karn_game())
    s = out.situation
    assert at(s, "cmdA") == f"{new.id}/battlefield"
    assert at(s, "cmdA") != f"{new.id}/command"
    cmd = s.objects["cmdA"]
    assert cmd.commander and cmd.controller == "A" and cmd.since_first_turn
    # the other commanders start in the command zone (rule 103.2c)
    assert at(s, "cmdB") == f"{new.id}/command" and at(s, "cmdC") == f"{new.id}/command"


def test_karn_puts_an_opponents_exiled_card_onto_the_battlefield_under_its_controller():
    out, new = karn(karn_game())
    bk = out.situation.objects["bk"]
    assert at(out.situation, "bk") == f"{new.id}/battlefield"
    assert (bk.owner, bk.controller, bk.since_first_turn) == ("B", "A", True)


def test_726_4_the_further_instructions_run_before_anyone_has_priority():
    out, new = karn(karn_game())
    assert ids(out.situation, f"{new.id}/stack") == []
    assert new.waiting_for_priority != []
    steps = [step.clause for step in out.trace]
    finish = steps.index("restart.finish-effect")
    for before in ("restart.cards-involved", "restart.starting-player", "restart.short-library"):
        assert steps.index(before) < finish  # after the pregame procedure


def test_726_5_exempt_cards_are_not_in_the_deck_and_do_not_count_for_the_library():
    exiled = run(karn_game(), [ev("move", object="a1", to="main/exile"),
                                ev("move", object="cmdA", to="main/exile")]).situation
    out, new = karn(exiled, exempt=("a1", "cmdA"), then=None)
    s = out.situation
    assert at(s, "a1") == f"{new.id}/exile" and at(s, "cmdA") == f"{new.id}/exile"
    assert len(ids(s, f"{new.id}/library/A")) == 7  # a2..a7 and Karn itself
    assert new.doomed == []
    # Karn itself exiled, by another Karn (Bob's): both exempt, A's library is six cards.
    state, other = exiled_with_karn(
        run(karn_game(), [ev("move", object="karn", to="main/exile"),
                          ev("move", object="a1", to="main/exile")]).situation,
        ("a1", "karn"), "B", karn="bobs-karn")
    out = run(state, [ev("restart", controller="A", source=other)])
    (new,) = new_games(state, out.situation)
    assert len(ids(out.situation, f"{new.id}/library/A")) == 6
    assert "A" in new.doomed  # 726.3


def test_the_restart_starting_player_is_always_the_controller():
    state = build(["A", "B", "C"],
                  cards=[*library("A", 2), *library("B", 2), *library("C", 2)])

    def starting_player(chooser):
        out = Interpreter(official(), chooser).run(state, [ev("restart", controller="B")])
        (new,) = new_games(state, out.situation)
        return new.starting_player

    assert set(enumerate_outcomes(starting_player)) == {"B"}


def test_karn_ruling_a_player_who_left_before_the_restart_is_not_in_the_new_game():
    state = run(karn_game(), [ev("leave", player="C")]).situation
    assert at(state, "c1") == "outside/C"
    out, new = karn(state)
    s = out.situation
    assert new.players == ["A", "B"]
    assert all(at(s, c) == "outside/C" for c in ("c1", "cmdC"))
    assert not any(z.player == "C" for z in s.zones_of(new.id))


def test_karn_ruling_no_counters_or_emblems_survive_the_restart():
    out, new = karn(karn_game())
    s = out.situation
    assert {k: v for k, v in s.player_counters.items() if v} == {}
    assert "emb" not in s.objects and "tok" not in s.objects
    assert not any(o.kind == "emblem" for o in s.objects.values())
    assert s.objects["cmdC"].counters == {} and s.objects["karn"].counters == {}


def test_karn_ruling_commander_tax_and_commander_damage_reset():
    state = karn_game(commander_tax={"A": 4, "B": 2}, commander_damage={"cmdC->A": 9})
    out, new = karn(state)
    assert new.commander_tax == {} and new.commander_damage == {}


def test_karn_ruling_effects_on_players_do_not_carry_over():
    """Stigma Lasher example: an effect on a player in the restarted game is gone."""
    state = run(karn_game(), [ev("create", kind="effect", id="lasher", controller="B"),
                              ev("affect", effect="lasher", player="A")]).situation
    assert state.player_effects["A"] == ["lasher"]
    out, new = karn(state)
    s = out.situation
    assert "lasher" not in s.objects
    assert "lasher" not in s.player_effects.get("A", []), (
        "the restarted game's effect still acts on player A in the new game")


def test_726_7_limited_range_of_influence_involves_every_player():
    state = build(["A", "B", "C", "D", "E"],
                  games=[game("main", variants=["limited-range"], range_of_influence=1)],
                  cards=[card(f"{p.lower()}1", p, f"main/library/{p}") for p in "ABCDE"])
    out = run(state, [ev("restart", controller="A")])
    (new,) = new_games(state, out.situation)
    assert new.players == ["A", "B", "C", "D", "E"]
    assert all(out.situation.where[f"{p.lower()}1"].game == new.id for p in "ABCDE")


def test_726_6_restarting_a_subgame_leaves_the_main_game_unaffected():
    before = build(["A", "B"],
                   cards=[card("shz", "A", "main/stack", name="Shahrazad"),
                          *library("A", 8), *library("B", 8),
                          card("ah", "A", "main/hand/A"), card("am", "A", "main/battlefield"),
                          card("w", "B", "main/battlefield", triggers=["leaves-zone"])],
                   counters=[counter("main", "B", "poison", 1)])
    mid = run(before, [ev("start-subgame", by="A", via="shz"), ev("bring-in", card="ah")])
    sub = active(mid.situation).id
    main_before = {o: at(mid.situation, o) for o in mid.situation.objects
                   if mid.situation.where[o].game == "main"}
    pending = [t.id for t in mid.situation.games["main"].pending_triggers]
    out = run(mid.situation, [ev("restart", controller="B")])
    s = out.situation
    (new,) = new_games(mid.situation, s)
    assert new.parent == "main" and s.games["main"].status == "suspended"
    assert {o: at(s, o) for o in main_before} == main_before
    assert s.player_counters[("main", "B")] == {"poison": 1}
    assert [t.id for t in s.games["main"].pending_triggers] == pending
    # 726.2 in a subgame: the card brought in from the main game is in the new subgame
    assert at(s, "ah") == f"{new.id}/library/A"
    assert new.starting_player == "B"
    # the restarted subgame's end is the one Shahrazad's effect reads
    end = run(s, [ev("end-subgame", winner=["A"])]).situation
    assert end.games["main"].subgame_results["shz"].winners == ["A"]
    assert end.games["main"].resolved == ["shz"]
    assert sorted(ids(end, "main/stack")) == sorted(pending)
    assert at(end, "ah") == "main/library/A"
    assert sub not in end.games


def test_726_6_a_plane_of_a_restarted_subgame_goes_back_to_its_deck_at_the_end():
    """726.6 with 728.5a: the restarted subgame is a subgame like any other. Its planes
    begin it in the planar deck (726.2 puts them there), so one that was planeswalked to
    goes back face down to the bottom of that deck at its end, and no card is lost."""
    state = build(["A", "B"], games=[game("main", variants=["planechase"])],
                  cards=[*library("A", 7), *library("B", 7),
                         card("p1", "A", "main/deck/A/planar", type="plane", face="down"),
                         card("p2", "A", "main/deck/A/planar", type="plane", face="down")])
    out = run(state, [ev("start-subgame", by="A"), ev("restart", controller="B")])
    sub = active(out.situation).id
    assert at(out.situation, "p1") == f"{sub}/deck/A/planar"
    mid = run(out.situation, [ev("move", object="p1", to=f"{sub}/command"),
                              ev("turn", object="p1", face="up")])
    s = run(mid.situation, [ev("end-subgame")]).situation
    assert set(s.objects) >= {c.id for c in state.cards()}, (
        f"cards lost at the end of the restarted subgame: "
        f"{sorted({c.id for c in state.cards()} - set(s.objects))}")
    assert at(s, "p1") == "main/deck/A/planar" and not s.objects["p1"].face_up
    assert at(s, "p2") == "main/deck/A/planar"


# ====================================================================== illegal events

def test_ending_a_subgame_when_none_runs_is_illegal():
    with pytest.raises(IllegalEvent, match="no subgame is running"):
        run(two_player_game(), [ev("end-subgame")])


def test_bringing_in_a_card_already_in_the_game_is_illegal():
    out, sub = in_subgame(two_player_game(), ev("bring-in", card="ah"))
    with pytest.raises(IllegalEvent, match="already in the game"):
        run(out.situation, [ev("bring-in", card="ah")])
    with pytest.raises(IllegalEvent, match="already in the game"):
        run(out.situation, [ev("bring-in", card="a1")])  # in the subgame library


def test_living_wish_ruling_an_exiled_card_cannot_be_acquired():
    """Living Wish ruling (2009-10-01): exiled cards are still in one of the game's zones."""
    state = run(two_player_game(), [ev("move", object="ah", to="main/exile")]).situation
    with pytest.raises(IllegalEvent, match="already in the game"):
        run(state, [ev("bring-in", card="ah")])


def test_living_wish_ruling_a_phased_out_card_cannot_be_acquired():
    """Living Wish ruling (2007-09-16); also for a main-game permanent and a subgame."""
    state = run(two_player_game(), [ev("phase", object="w", out=True),
                                    ev("start-subgame", by="A")]).situation
    with pytest.raises(IllegalEvent, match="phased out"):
        run(state, [ev("bring-in", card="w")])


def test_moving_to_a_zone_of_a_suspended_game_is_illegal():
    out, sub = in_subgame(two_player_game())
    with pytest.raises(IllegalEvent, match="not a zone of the active game"):
        run(out.situation, [ev("move", object="a1", to="main/graveyard/A")])


def test_acting_on_an_object_of_a_suspended_game_is_illegal():
    out, sub = in_subgame(two_player_game())
    with pytest.raises(IllegalEvent, match="not in the active game"):
        run(out.situation, [ev("move", object="ah", to="main/graveyard/A")])


def test_a_suspended_game_cannot_restart_or_start_a_subgame_through_its_objects():
    out, sub = in_subgame(two_player_game())
    with pytest.raises(IllegalEvent, match="not in the active game"):
        run(out.situation, [ev("start-subgame", by="A", via="ah")])
    with pytest.raises(IllegalEvent, match="not in the active game"):
        run(out.situation, [ev("restart", controller="A", source="ah")])


def test_bringing_in_a_card_of_an_unrelated_place_is_illegal():
    with pytest.raises(IllegalEvent, match="not a card"):
        run(two_player_game(), [ev("bring-in", card="nothing-by-this-name")])


# ---- findings about the rules (docs/findings.md): they must keep reproducing --------------


def test_findings_reproduce() -> None:
    import pathlib

    from shahrazad.model.scenario import load_scenario

    root = pathlib.Path(__file__).resolve().parent.parent / "examples" / "findings"
    lost = {}
    for name in ("dungeon-in-a-subgame", "signature-spell-in-a-subgame"):
        scenario = load_scenario(root / f"{name}.toml")
        after = Interpreter().run(scenario.situation, scenario.events).situation
        lost[name] = {c.id for c in scenario.situation.cards()} - set(after.objects)
    assert lost == {"dungeon-in-a-subgame": {"tomb"}, "signature-spell-in-a-subgame": {"bolt"}}
    scenario = load_scenario(root / "player-leaves-a-subgame.toml")
    after = Interpreter().run(scenario.situation, scenario.events).situation
    assert str(after.where["mountain"]) == "outside/Bob"
    assert str(after.where["forest"]) == "main/library/Ann"
