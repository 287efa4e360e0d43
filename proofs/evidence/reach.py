"""Reaching traces: the way from a game's beginning to a counterexample's situation.

A counterexample is a situation and one event. A rules manager can use it only if a real
game gets there. `reach` builds, from the situation, a scenario that starts at a game's
beginning (`beginning`: every card in its owner's library, supplementary deck or command
zone, or outside the game; CR 103.1, 901.5, 902.4, 903.6, 904.4) and plays legal events up
to it:

1. in the outermost game, in-game actions put each object where the situation has it
   (`move`, `create`, `control`, `turn`, `counter`, `affect`, `phase`; a dungeon comes in
   from outside the game with `bring-in`);
2. the spell or ability on the stack starts the subgame (`start-subgame`), which takes the
   libraries, supplementary decks, vanguards and commanders (728.2); the subgame is set up
   the same way; and so on down to the active game;
3. the counterexample's event ends the trace.

Every step runs on the interpreter under the rulebook that was checked, amended where there
is an amendment, so the way there obeys the same rules as the event. The trace's random
choices (shuffles, the subgame's starting player) come from the scenario's seed: the
smallest seed whose run reaches the violation is kept, so that `shahrazad simulate` shows
the very run. `replay_reached` replays a reached scenario from its beginning; a
counterexample for which no trace replays is excluded and another asked for
(`proofs.verdicts.prove`), and when none is reached, it is reported as a fault of the tool.
"""

from __future__ import annotations

from dataclasses import dataclass

from shahrazad.invariants.catalog import Invariant
from shahrazad.invariants.concrete import Evaluator
from shahrazad.invariants.structure import still_legal, violations
from shahrazad.model.actions import IN_GAME_ACTIONS
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent
from shahrazad.model.events import Event
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.objects import DECK_OF, GameObject, ZoneRef
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.model.state import Game, Situation
from shahrazad.proofs.solving.cache import rulebook_digest

from . import search
from .counterexample import binding_of, replay, replay_refusal

SEEDS = 32  # seeds tried, smallest first, for the trace's random choices

# The variant a kind of card is played in (901 Planechase, 902 Vanguard, 904 Archenemy).
VARIANT_OF = {"plane": "planechase", "phenomenon": "planechase", "vanguard": "vanguard",
              "scheme": "archenemy"}


class Unreachable(Exception):
    """The builder knows no legal way to this situation (the reason says what is missing).

    `objects` names the objects of the situation that the refused step acted on, and
    `step` is that step's kind (`move`, `turn`, ...), when one was refused (the prover
    excludes counterexamples with such objects and asks again: `proofs.verdicts.prove`); both empty
    when the failure is not about particular objects."""

    def __init__(self, reason: str, objects: tuple[str, ...] = (), step: str = "") -> None:
        super().__init__(reason)
        self.objects = objects
        self.step = step


class _Retry(Exception):
    """This seed's random choices lead elsewhere; the next seed may not."""


@dataclass
class Reached:
    """A reaching trace: the scenario (a game's beginning, the trace, the violating event)
    and the situation the trace reaches, just before the event."""

    scenario: Scenario
    before: Situation


def live_chain(state: Situation) -> list[Game]:
    """The live games, outermost first (they form a chain, CR 728.1a, 728.6)."""
    chain = [state.root_game()]
    while True:
        children = state.children(chain[-1].id)
        if not children:
            return chain
        chain.append(state.games[children[0]])


def start_zone(card: GameObject, target: Situation, main: str) -> tuple[ZoneRef, bool]:
    """Where a card is as the game begins, and whether it is face up there: outside the
    game if it is outside in `target` or a dungeon (309.4: a dungeon is brought in from
    outside); a commander, vanguard or conspiracy in the command zone (903.6, 902.4,
    905.4); a supplementary card face down in its deck (901.5, 904.4, 717.2); any other card
    in its owner's library. (A supplementary card in a subgame began it in its deck:
    `structure.subgame-decks-marked`.)"""
    if target.where[card.id].is_outside or card.card_type == "dungeon":
        return ZoneRef(None, "outside", card.owner), True
    if card.commander or card.card_type in ("vanguard", "conspiracy"):
        return ZoneRef(main, "command"), True
    deck = DECK_OF.get(card.card_type)
    if deck is not None:
        return ZoneRef(main, "deck", card.owner, deck), False
    return ZoneRef(main, "library", card.owner), True


def came_in(target: Situation, card: str) -> str | None:
    """How `card` came into the game it is in, in `target`, if an effect brought it in:
    "main-game" or "outside" (the game's `came_from` record); None otherwise."""
    where = target.where.get(card)
    game = target.games.get(where.game) if where is not None and where.game else None
    came = game.came_from.get(card) if game is not None else None
    return came if came in ("main-game", "outside") else None


def beginning(target: Situation) -> Situation:
    """A game's beginning with the players and cards of `target`: one game, named as
    `target`'s outermost game, with its players, starting player and range of influence,
    and the variants its cards need; every card where it starts (`start_zone`); nothing
    else."""
    outer = live_chain(target)[0]
    state = Situation(players=list(target.players))
    for player in target.players:
        state.outside(player)
    variants = {VARIANT_OF[o.card_type] for o in target.cards() if o.card_type in VARIANT_OF}
    if any(o.commander for o in target.cards()):
        variants.add("commander")
    if outer.range_of_influence is not None:
        variants.add("limited-range")
    game = Game(id=outer.id, players=list(outer.players), variants=sorted(variants),
                starting_player=outer.starting_player,
                range_of_influence=outer.range_of_influence)
    state.games[game.id] = game
    state.create_zones(game)
    for card in target.cards():
        zone, face_up = start_zone(card, target, game.id)
        if came_in(target, card.id) == "outside":  # an effect brings it in (400.11b)
            zone, face_up = ZoneRef(None, "outside", card.owner), True
        state.objects[card.id] = GameObject(
            id=card.id, kind="card", owner=card.owner, name=card.name, controller=card.owner,
            card_type=card.card_type, deck=card.deck, face_up=face_up,
            commander=card.commander, triggers=list(card.triggers), types=card.types,
            subtypes=card.subtypes)
        state.place(card.id, zone, "bottom")
    return state


def is_beginning(state: Situation) -> list[str]:
    """What keeps `state` from being a game's beginning (an empty list if nothing)."""
    faults: list[str] = []
    if len(state.games) != 1 or state.ended:
        faults.append("a game's beginning has exactly one game and no ended game")
    for obj in state.objects.values():
        if not obj.is_card:
            faults.append(f"{obj.id} is a {obj.kind}: at the beginning there are only cards")
            continue
        zone = state.where[obj.id]
        main = zone.game or next(iter(state.games), "")
        expected, face_up = start_zone(obj, state, main)
        if zone != expected and not zone.is_outside:
            faults.append(f"{obj.id} is in {zone}, not where it starts ({expected})")
        if obj.counters or obj.phased_out or obj.face_up != face_up \
                or obj.controller != obj.owner or obj.affected_by:
            faults.append(f"{obj.id} has a status (counters, phasing, face, control, effects)")
    for game in state.games.values():
        if game.pending_triggers or game.began_in_deck or game.came_from or game.resolved \
                or game.doomed \
                or game.left or game.subgame_results or game.parent is not None:
            faults.append(f"{game.id} remembers events: it is not a beginning")
    if any(state.player_counters.values()) or state.player_effects:
        faults.append("players have counters or effects at the beginning")
    return faults


class _Builder:
    """Plays events from `beginning(target)` towards `target`, one game at a time."""

    def __init__(self, target: Situation, rulebook: Rulebook, seed: int):
        self.target = target
        self.interp = Interpreter(rulebook, SeededChooser(seed))
        self.start = beginning(target)
        self.state = self.start
        self.events: list[Event] = []
        self.games: dict[str, str] = {g.id: g.id for g in live_chain(target)[:1]}
        self.brought = self.plan_waiting_triggers()

    def plan_waiting_triggers(self) -> dict[str, list[str]]:
        """For each suspended game with waiting triggers, the cards to bring from it into
        its subgame so that its leaves-a-zone abilities trigger as many times (728.4a): a
        card brought in triggers each watcher left in the game, and itself if it watches.
        The cards are added to the beginning, in a library: they go down with it to their
        game, where they wait in exile."""
        plan: dict[str, list[str]] = {}
        used = self.target.names_in_use()
        serial = 0
        for game in live_chain(self.target)[:-1]:
            waiting = len(game.pending_triggers)
            if not waiting:
                continue
            watchers = sum(1 for o in self.target.objects.values()
                           if "leaves-zone" in o.triggers and not o.phased_out
                           and self.target.where[o.id].game == game.id)
            # With no watcher, one card that watches goes last and sees the others leave.
            plain, watching = (waiting - 1, 1) if watchers == 0 else (-(-waiting // watchers), 0)
            names: list[str] = []
            for index in range(plain + watching):
                serial += 1
                while f"brought{serial}" in used:
                    serial += 1
                name = f"brought{serial}"
                used.add(name)
                names.append(name)
                owner = game.players[0]
                self.start.objects[name] = GameObject(
                    id=name, kind="card", owner=owner, name="a card brought in", controller=owner,
                    triggers=["leaves-zone"] if index >= plain else [])
                self.start.place(name, ZoneRef(self.start.root_game().id, "library", owner),
                                 "bottom")
            plan[game.id] = names
        return plan

    def do(self, what: str, /, **args: object) -> None:
        event = Event(what, {k.replace("_", "-"): v for k, v in args.items()})
        try:
            self.state = self.interp.step(self.state, event, len(self.events) + 1).situation
        except IllegalEvent as err:
            named = tuple(str(value) for key, value in sorted(event.args.items())
                          if key in ("object", "card", "id") and value in self.target.objects)
            raise Unreachable(f"{event.describe()} is refused: {err}", named,
                              what if named else "") from None
        self.events.append(event)

    def zone(self, zone: ZoneRef) -> ZoneRef:
        if zone.game is None:
            return zone
        return ZoneRef(self.games[zone.game], zone.kind, zone.player, zone.deck)

    def build(self) -> None:
        chain = live_chain(self.target)
        for depth, game in enumerate(chain):
            self.set_up(game)
            if depth + 1 < len(chain):
                self.start_subgame(game, chain[depth + 1])

    def set_up(self, game: Game) -> None:
        """Put every object of `game` in `target` where it is there, with its status."""
        t = self.target
        if game.parent is not None:
            for card in self.brought.get(game.parent, []):
                self.do("bring-in", card=card, to="exile", by=self.state.objects[card].owner)
        for card in self.brought.get(game.id, []):
            self.do("move", object=card, to=f"{self.games[game.id]}/exile", position="bottom")
        # A card that its subgame records as brought in from a main game leaves this game's
        # library before the subgame starts (or 728.2 would take it there with the library),
        # and waits in its owner's graveyard to be brought in.
        for child in t.children(game.id):
            for card in t.games[child].came_from:
                here = self.state.where.get(card)
                if came_in(t, card) == "main-game" and t.where[card].game == child \
                        and here is not None and here.game == self.games[game.id] \
                        and here.kind == "library":
                    self.do("move", object=card, to=f"{here.game}/graveyard/{here.player}")
        zones = t.zones_in_order(game.id)
        objects = [t.objects[i] for z in zones for i in t.zones[z]]
        for obj in objects:
            dest = self.zone(t.where[obj.id])
            if not obj.is_card:
                self.create(obj, dest)
            elif self.state.where[obj.id] != dest:
                if self.state.where[obj.id].is_outside or came_in(t, obj.id) == "main-game":
                    self.do("bring-in", card=obj.id, to=dest.kind, by=obj.controller)
                else:
                    self.do("move", object=obj.id, to=dest.path(), position="bottom")
            if obj.controller != self.state.objects[obj.id].controller:
                self.do("control", object=obj.id, player=obj.controller)
        for obj in objects:
            if obj.exiled_with is not None:
                self.exile_with(obj, game)
        for obj in objects:
            now = self.state.objects[obj.id]
            if now.face_up != obj.face_up:
                self.do("turn", object=obj.id, face="up" if obj.face_up else "down")
            for kind, count in sorted(obj.counters.items()):
                if count != now.counters.get(kind, 0):
                    self.do("counter", object=obj.id, kind=kind,
                            add=count - now.counters.get(kind, 0))
        for obj in objects:
            for effect in obj.affected_by:
                self.do("affect", effect=effect, object=obj.id)
        for player, effects in sorted(t.player_effects.items()):
            for effect in effects:
                if t.where.get(effect) is not None and t.where[effect].game == game.id:
                    self.do("affect", effect=effect, player=player)
        for (game_id, player), counters in sorted(t.player_counters.items()):
            if game_id != game.id:
                continue
            for kind, count in sorted(counters.items()):
                have = self.state.player_counters.get((self.games[game_id], player), {}).get(
                    kind, 0)
                if count != have:
                    self.do("counter", player=player, kind=kind, add=count - have)
        for obj in objects:
            if obj.phased_out:
                self.do("phase", object=obj.id, out=True)

    def exile_with(self, card: GameObject, game: Game) -> None:
        """Exile `card` again, now with the object that exiled it in `target` (607.2a), once
        everything else of its game is in place: that object, a permanent or on the stack,
        does it; one that is no longer there does it as a token that then leaves the
        battlefield and ceases to exist (704.5d): the card stays exiled with it."""
        source = str(card.exiled_with)
        exile = self.zone(ZoneRef(game.id, "exile")).path()
        if source in self.target.objects:
            self.do("move", object=card.id, to=exile, position="bottom", exiled_with=source)
            return
        built = self.games[game.id]
        self.do("create", kind="token", id=source, controller=card.owner,
                to=f"{built}/battlefield")
        self.do("move", object=card.id, to=exile, position="bottom", exiled_with=source)
        self.do("move", object=source, to=f"{built}/graveyard/{card.owner}")

    def create(self, obj: GameObject, dest: ZoneRef) -> None:
        """Create a non-card object under its owner's control (111.1: its owner is the
        player who created it); `control` then gives it to its controller."""
        args: dict[str, object] = {"kind": obj.kind, "id": obj.id, "controller": obj.owner,
                                   "to": dest.path()}
        if obj.name and obj.name != obj.id:
            args["name"] = obj.name
        if obj.triggers:
            args["triggers"] = list(obj.triggers)
        self.do("create", **args)

    def restarting_ability(self, restart: Event) -> Event:
        """Put Karn Liberated's ability on the active game's stack, controlled by the
        restart's controller, and name it as the restart's source."""
        used = self.state.names_in_use()
        name = next(f"karn{n}" for n in range(1, len(used) + 2) if f"karn{n}" not in used)
        try:
            active = self.state.active_game()
        except ValueError as err:  # a rulebook whose subgames leave their main game active
            raise Unreachable(f"the trace leads to no single active game whose stack could "
                              f"hold Karn Liberated's ability (CR 728.1a: {err})") from None
        self.do("create", kind="ability", id=name, name="Karn Liberated (restart ability)",
                controller=restart.get("controller"), to=f"{active.id}/stack")
        return Event(restart.kind, {**restart.args, "via": name}, restart.line)

    def start_subgame(self, main: Game, sub: Game) -> None:
        creator = sub.created_by
        built_main = self.games[main.id]
        placed = self.state.where.get(creator) if creator is not None else None
        if creator is not None and placed == ZoneRef(built_main, "stack"):
            by = self.state.objects[creator].controller
            self.do("start-subgame", by=by, via=creator)
        else:
            self.do("start-subgame", by=sub.players[0])
        made = [g.id for g in self.state.games.values()
                if g.parent == built_main and g.status == "active"]
        if len(made) != 1:
            raise Unreachable(f"starting a subgame of {main.id} made no active subgame")
        self.games[sub.id] = made[0]
        built = self.state.games[made[0]]
        if sub.starting_player is not None and built.starting_player != sub.starting_player:
            raise _Retry()


def _rename(event: Event, games: dict[str, str]) -> Event:
    """The event with its zone paths naming the games the trace made."""
    args = dict(event.args)
    for key in ("to",):
        value = args.get(key)
        if isinstance(value, str) and "/" in value:
            head, _, rest = value.partition("/")
            args[key] = f"{games.get(head, head)}/{rest}"
    return Event(event.kind, args, event.line)


Goal = search.Goal  # what a trace must lead to (the counterexample's event doing its part)


def reach(counterexample: Scenario, rulebook: Rulebook, goal: Goal,
          searching: bool = True) -> Reached:
    """A reaching trace for a one-event counterexample: the smallest seed whose trace runs
    from a game's beginning to a situation where the event meets `goal`; where the recipe
    knows no way to the very situation, the shortest run found by `search` to one where an
    event of its kind does (when `searching`). Raises `Unreachable` with the reason when
    neither finds one."""
    if len(counterexample.events) != 1:
        raise Unreachable("a counterexample has exactly one event")
    try:
        return _recipe(counterexample, rulebook, goal)
    except Unreachable as err:
        if not searching:
            raise
        found = search_way(counterexample, rulebook, goal)
        if found is not None:
            return found
        raise Unreachable(f"{err}; and no run of up to {search.DEPTH} events from the "
                          f"game's beginning ({search.STATES} situations at most) reaches "
                          "a situation where it does", err.objects, err.step) from None


def _recipe(counterexample: Scenario, rulebook: Rulebook, goal: Goal) -> Reached:
    """The recipe's trace to the counterexample's very situation (the module's steps 1-3),
    with the smallest seed that gives the random choices it needs."""
    reason = "no seed gives the random choices the situation needs"
    event = counterexample.events[0]
    # A restart is the resolving ability of Karn Liberated: the trace puts it on the stack.
    sources = (True, False) if event.kind == "restart" and event.get("via") is None else (False,)
    for seed in range(SEEDS):
        for source in sources:
            builder = _Builder(counterexample.situation, rulebook, seed)
            try:
                builder.build()
                last = _rename(event, builder.games)
                if source:
                    last = builder.restarting_ability(last)
            except _Retry:
                break
            if goal(builder.interp, builder.state, last):
                scenario = Scenario(builder.start, [*builder.events, last],
                                    title=counterexample.title,
                                    description=counterexample.description, seed=seed)
                return Reached(scenario, builder.state)
            reason = "the trace reaches a situation where the event does not break it"
    raise Unreachable(reason)


def search_way(counterexample: Scenario, rulebook: Rulebook, goal: Goal) -> Reached | None:
    """Where the recipe finds no way to the counterexample's very situation, the shortest
    run from its game's beginning to any situation where an event of its kind meets `goal`
    (`search.search`), trying the narrower vocabulary first: the counterexample's cards
    moved only to the kinds of zone it has cards in (and hands), then to any zone, then to
    those kinds with the other in-game actions (control, phasing, counters...), then to
    any zone with them. A search that found nothing is not made again for the same
    rulebook, goal and counterexample title (an obligation's): the prover's next
    counterexamples are most often the same promise broken the same way."""
    target = counterexample.situation
    event = counterexample.events[0]
    start = beginning(target)
    kinds = frozenset(z.kind for z, pile in target.zones.items() if len(pile)) | {"hand"}
    memo = (rulebook_digest(rulebook), counterexample.title, goal.__qualname__, event.kind)
    if memo in _FOUND_NOTHING:
        return None

    def finals(state: Situation) -> list[Event]:
        mine = [e for e in search.events(state) if e.kind == event.kind]
        tried = [event, *mine] if event.kind != "restart" else mine
        once = {e.describe(): e for e in reversed(tried)}  # the first of each stays
        return [e for e in tried if once[e.describe()] is e]
    for vocabulary in (search.Vocabulary(kinds), search.Vocabulary(),
                       search.Vocabulary(kinds, actions=True), search.Vocabulary(actions=True)):
        run = search.search(start, rulebook, finals, goal, vocabulary)
        if run is not None:
            scenario = Scenario(start, run.events, title=counterexample.title,
                                description=counterexample.description, seed=0)
            return Reached(scenario, run.before)
    _FOUND_NOTHING.add(memo)
    return None


# The searches that found nothing (`search_way`), by rulebook, goal and obligation.
_FOUND_NOTHING: set[tuple[object, ...]] = set()


def breaks_invariant(invariant: Invariant, expect: bool = False) -> Goal:
    """The event happens and breaks `invariant` (with `expect`: makes it true), in the run
    the interpreter's chooser gives."""
    def goal(interp: Interpreter, before: Situation, event: Event) -> bool:
        try:
            outcome = interp.step(before, event)
        except IllegalEvent:
            return False
        evaluator = Evaluator(before, outcome.situation, binding_of(outcome))
        return evaluator.holds(invariant.term) == expect
    return goal


def impossible(invariant: Invariant) -> Goal:
    """The event is refused, or no outcome of it makes `invariant`'s condition true."""
    def goal(interp: Interpreter, before: Situation, event: Event) -> bool:
        scenario = Scenario(before, [event])
        return replay_refusal(scenario, interp.rulebook) is not None or not replay(
            scenario, interp.rulebook, invariant, expect=True).violated
    return goal


def refuted(invariant: Invariant) -> Goal:
    """What a refutation of `invariant` shows at its event: the event made impossible, for a
    possibility; the invariant broken, for any other."""
    return impossible(invariant) if invariant.kind == "possible" else breaks_invariant(invariant)


def replay_reached(scenario: Scenario, rulebook: Rulebook, goal: Goal) -> str | None:
    """Replay a reached scenario from its beginning with its seed; None if it starts at a
    game's beginning, every situation on the way is legal under the rulebook (reached by
    its events, `structure.still_legal`: a rulebook whose own events break a structure
    invariant makes such games, but an in-game action of the trace never makes a new
    breach) and the last event meets `goal`; else what went wrong."""
    faults = is_beginning(scenario.situation)
    if faults:
        return "the trace does not start at a game's beginning: " + faults[0]
    if not scenario.events:
        return "the trace has no event"
    interp = Interpreter(rulebook, SeededChooser(scenario.seed))
    state, allowed = scenario.situation, frozenset[str]()
    for index, event in enumerate(scenario.events[:-1], start=1):
        try:
            state = interp.step(state, event, index).situation
        except IllegalEvent as err:
            return f"event {index} ({event.describe()}) is refused: {err}"
        kept = still_legal(allowed, state, event.kind not in IN_GAME_ACTIONS)
        if kept is None:
            new = sorted({v.split("#")[0] for v in violations(state) - allowed})
            return f"event {index} ({event.describe()}) is an in-game action that breaks " \
                f"{', '.join(new)} (no card can do that in a game)"
        allowed = kept
    return (None if goal(interp, state, scenario.events[-1]) else
            "the last event does not do what the counterexample shows")
