"""The outcomes the rules allow for one event, and the first place an engine leaves them.

An event's outcome is not always one situation: shuffles (CR 701.24) and a subgame's random
starting player (CR 728.2) are random choices, and every way they can fall is an outcome the
rules allow. A shuffled zone may end in any order (701.24a: "randomize"), and no event of
the model reads a zone's order after shuffling it, so a zone the event shuffles is compared
as a set, and its orders are not enumerated (a library of 60 cards has 60! of them).
`allowed_outcomes` runs the interpreter once per combination of the other choices
(`model.choices.enumerate_outcomes`, depth-first, so always in the same order) and keeps the
distinct results, each with the trace of the first run that reached it.

Outcomes are compared as **canonical scenario data** (`canonical`): the situation written as
a scenario's situation (`model.scenario.situation_data`), where

* the order of a library, a graveyard, the stack and a supplementary deck counts (CR 401.2,
  404.2, 405.2 and the face-down piles of 901.3, 904.3, 717.2: their order is part of the
  game), unless the event shuffled it;
* the order of a hand, the battlefield, exile, the command zone, a game's effects and a
  player's cards outside the game does not (no rule reads it): their objects are listed by id;
* `id-serial`, the model's counter for naming new objects, is left out (it is no part of a
  game), as are a scenario's title, description, seed and events.

Two situations are the same outcome exactly when their canonical data are equal.

`first_divergence(before, event, engine_after)` is what an engine's author asks: is the
engine's situation after the event one of these outcomes, and if not, what is the first
difference from the closest one (fewest differing games, objects and players' records),
with the step of the rules that put it where the rules put it: its clause and CR number. It
is deterministic: the outcomes come in enumeration order, the closest is the first of the
nearest, and the differences are read in the order the situation is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .choices import SHUFFLE_WHY, Chooser, ScriptedChooser, enumerate_outcomes
from .errors import IllegalEvent, ShahrazadError
from .events import GENERAL_RULES, Event
from .interpreter import Interpreter
from .objects import parse_zone
from .rulebook import Rulebook, official
from .scenario import situation_data
from .state import Situation
from .trace import TraceStep

__all__ = [
    "DEFAULT_LIMIT",
    "ORDERED_ZONES",
    "Allowed",
    "Divergence",
    "Outcomes",
    "StepCheck",
    "TooManyOutcomes",
    "allowed_outcomes",
    "canonical",
    "canonical_key",
    "check_step",
    "first_divergence",
    "match",
]

DEFAULT_LIMIT: Final = 20_000
"""Branches of random choices (other than the orders of a shuffle) run at most for one
event: beyond it, `TooManyOutcomes`, never a half-enumerated set."""

ORDERED_ZONES: Final = frozenset({"library", "graveyard", "stack", "deck"})
"""Zone kinds whose order is part of the game (CR 401.2, 404.2, 405.2; supplementary decks
are face-down piles like libraries). The others are compared as sets."""

# Lists in a game's table whose order no rule reads: compared as sets.
UNORDERED_GAME_LISTS: Final = ("will-lose", "left", "resolved", "variants",
                               "waiting-for-priority")

_LEFT_OUT: Final = ("schema", "id-serial", "title", "description", "seed", "event")


class TooManyOutcomes(ShahrazadError):
    """An event has more branches of random choices than the limit allows."""


# ---- canonical data -------------------------------------------------------------------------


def canonical(situation: Situation, shuffled: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The situation as canonical scenario data (see the module's docstring); the zones in
    `shuffled` (zone paths such as `sub1/library/Ann`) are compared as sets."""
    data = {k: v for k, v in situation_data(situation).items() if k not in _LEFT_OUT}
    for key in ("card", "object"):
        if key in data:
            data[key] = _zone_order(data[key], shuffled)
    for game in data.get("game", []):
        # Where each card came from into the game is the model's record for the selector
        # `came-from`; no official clause reads it, and an engine need not keep it.
        game.pop("came-from", None)
        for key in UNORDERED_GAME_LISTS:
            if isinstance(game.get(key), list):
                game[key] = sorted(game[key], key=str)
    for table in [*data.get("card", []), *data.get("object", [])]:
        for key in ("triggers", "affected-by"):
            if isinstance(table.get(key), list):
                table[key] = sorted(table[key], key=str)
    if "ended" in data:
        data["ended"] = sorted(data["ended"], key=lambda e: str(e.get("id")))
    if "player-effect" in data:  # by player; each player's effects in their order
        data["player-effect"] = sorted(data["player-effect"], key=lambda e: str(e["player"]))
    return data


def _zone_order(tables: list[dict[str, Any]], shuffled: frozenset[str]) -> list[dict[str, Any]]:
    """Objects as `situation_data` lists them (by zone, each zone top first), with those of
    a zone whose order no rule reads, or that the event shuffled, listed by id instead."""
    rank: dict[str, int] = {}
    for table in tables:
        rank.setdefault(str(table["at"]), len(rank))

    def key(table: dict[str, Any]) -> tuple[int, str]:
        at = str(table["at"])
        return rank[at], "" if _ordered(at, shuffled) else str(table["id"])

    return sorted(tables, key=key)  # stable: an ordered zone keeps its order


def _ordered(at: str, shuffled: frozenset[str] = frozenset()) -> bool:
    if at in shuffled:
        return False
    try:
        return parse_zone(at).kind in ORDERED_ZONES
    except ValueError:
        return False


def canonical_key(data: dict[str, Any]) -> str:
    """Canonical data as one string, for sets and comparisons."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


# ---- the allowed outcomes -------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """One outcome the rules allow: its canonical data, a situation that has it, the trace
    of the first run that reached it, and how many branches of choices reach it."""

    data: dict[str, Any]
    situation: Situation
    trace: tuple[TraceStep, ...]
    branches: int


@dataclass(frozen=True)
class Outcomes:
    """Every outcome the rules allow for one event on one situation, in enumeration order."""

    event: Event
    allowed: tuple[Allowed, ...]
    branches: int
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    shuffled: frozenset[str] = frozenset()  # the zones the event shuffles: sets, not piles

    def data(self) -> list[dict[str, Any]]:
        """The outcomes as canonical scenario data."""
        return [a.data for a in self.allowed]

    def find(self, situation: Situation) -> Allowed | None:
        """The allowed outcome equal to `situation` (as canonical data), if there is one."""
        index = self._index.get(canonical_key(canonical(situation, self.shuffled)))
        return None if index is None else self.allowed[index]


def allowed_outcomes(situation: Situation, event: Event, rulebook: Rulebook | None = None, *,
                     index: int = 1, edition: str | None = None,
                     limit: int = DEFAULT_LIMIT) -> Outcomes:
    """The outcomes the rules allow for `event` on `situation`, over every random choice.

    Runs `Interpreter.step` once per branch of the choices (at most `limit` branches, else
    `TooManyOutcomes`, before running them). `index` numbers the event's steps in the
    traces; `edition` picks the CR numbering of the citations. Raises `IllegalEvent` when
    the rules refuse the event. `situation` is never changed.
    """
    book = rulebook or official()

    def run(chooser: Chooser) -> tuple[Situation, list[TraceStep]]:
        outcome = Interpreter(book, _UnshuffledChooser(chooser, settled), edition).step(
            situation, event, index)
        return outcome.situation, outcome.trace

    # Which shuffled zones are left as shuffled: one run, every choice the first, tells.
    settled = _settled(Interpreter(book, ScriptedChooser(), edition).step(
        situation, event, index).trace)

    firsts: list[tuple[dict[str, Any], Situation, tuple[TraceStep, ...]]] = []
    counts: list[int] = []
    seen: dict[str, int] = {}
    branches = 0
    try:
        for state, trace in enumerate_outcomes(run, limit=limit):
            branches += 1
            data = canonical(state, settled)
            key = canonical_key(data)
            if key in seen:
                counts[seen[key]] += 1
                continue
            seen[key] = len(firsts)
            firsts.append((data, state, tuple(trace)))
            counts.append(1)
    except OverflowError:
        raise TooManyOutcomes(
            f"{event.kind}: more than {limit} branches of random choices (shuffles, CR 701.24; "
            "random starting players, CR 728.2); the outcomes are enumerated only below that"
        ) from None
    allowed = tuple(Allowed(d, s, t, n) for (d, s, t), n in zip(firsts, counts, strict=True))
    return Outcomes(event, allowed, branches, seen, settled)


class _UnshuffledChooser:
    """Passes every choice on, but the shuffles of the zones in `settled`: such a zone is
    compared as a set, so one order of it stands for all (and is not a branch)."""

    def __init__(self, chooser: Chooser, settled: frozenset[str]):
        self.chooser = chooser
        self.settled = settled

    def pick(self, n: int, why: str) -> int:
        if why.startswith(SHUFFLE_WHY) and why.removeprefix(SHUFFLE_WHY) in self.settled:
            return 0
        return self.chooser.pick(n, why)


def _settled(trace: Iterable[TraceStep]) -> frozenset[str]:
    """The zones the trace shuffles (`model.game_steps.g_shuffle` notes each as shuffled)
    and into which nothing moves afterwards in the same event: their order is any order.
    A zone something is put into after its shuffle (on top, at the bottom: an amended rule
    may do that) keeps its order, and its shuffles stay choices to enumerate."""
    shuffled: set[str] = set()
    touched: set[str] = set()
    for step in trace:
        for change in step.changes:
            if change.what == "shuffled":
                shuffled.add(change.object)
                touched.discard(change.object)
            elif change.what == "moved" and change.after in shuffled:
                touched.add(change.after)
    return frozenset(shuffled - touched)


# ---- divergence -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Divergence:
    """The first difference between an engine's situation after an event and the closest
    outcome the rules allow.

    `event` is the event's index (1 for the first); `subject` what differs ("card c3",
    "game sub1", "counters of Ann in game1", ...); `expected` and `engine` say in words what
    the rules give and what the engine has. `clause` and `rule` name the step of the rules
    that put it where the rules put it: its clause (None for an in-game action, which
    follows a general rule) and CR number. When no step touched it (`left_alone`), the rules
    leave it as it was: `clause` and `rule` then name all of the event's clauses.
    `step` is that step's text; `differences` counts what differs in all (in games, objects
    and players' records) from the closest outcome, of `outcomes` allowed (0 when the
    engine refuses an event the rules allow, or carries out one they refuse: `subject` is
    then "the event").
    """

    event: int
    kind: str
    subject: str
    expected: str
    engine: str
    clause: str | None
    rule: str
    step: str | None = None
    left_alone: bool = False
    differences: int = 1
    outcomes: int = 1

    def describe(self) -> str:
        """A few lines: where, what differs, the rule behind it, how far off it is."""
        head = f"event {self.event} ({self.kind}): first difference: {self.subject}"
        lines = [head, f"  the rules: {self.expected}", f"  the engine: {self.engine}"]
        if self.left_alone:
            by = f"the rules leave it alone: no step of {self.clause or self.kind} " \
                 f"({self.rule}) acts on it"
        else:
            by = f"by [{self.rule}] " + (f"{self.clause}: " if self.clause else "") + \
                 (self.step or "")
        lines.append(f"  {by}")
        if self.differences:
            outcomes = "the one outcome" if self.outcomes == 1 else \
                f"the closest of the {self.outcomes} outcomes"
            differences = "1 difference" if self.differences == 1 else \
                f"{self.differences} differences"
            lines.append(f"  ({differences} in all from {outcomes} the rules allow)")
        return "\n".join(lines)

    def summary(self) -> str:
        """One phrase: the event and the rule behind the difference."""
        at = f"event {self.event} ({self.kind})"
        if self.subject == "the event":
            if self.outcomes:
                return f"{at}: the engine refuses it, the rules allow it"
            return f"{at}: the engine carries it out, the rules refuse it (CR {self.rule})"
        if self.left_alone:
            return f"{at}: {self.subject}, which the rules leave alone"
        return f"event {self.event} ({self.kind}; CR {self.rule}" + \
            (f": {self.clause})" if self.clause else ")")

    def as_data(self) -> dict[str, Any]:
        """The divergence as JSON data (the `divergence` of `conform --format json`): its fields,
        hyphenated, with `kind` as `do`."""
        return {
            "event": self.event,
            "do": self.kind,
            "subject": self.subject,
            "expected": self.expected,
            "engine": self.engine,
            "clause": self.clause,
            "rule": self.rule,
            "step": self.step,
            "left-alone": self.left_alone,
            "differences": self.differences,
            "outcomes": self.outcomes,
        }


@dataclass(frozen=True)
class StepCheck:
    """What checking one event found: the allowed outcome the engine's situation is
    (`matched`), or the first `divergence`; `outcomes` is None when the rules refuse the
    event (`refusal` says why)."""

    outcomes: Outcomes | None
    matched: Allowed | None
    divergence: Divergence | None
    refusal: IllegalEvent | None = None


def check_step(before: Situation, event: Event, engine_after: Situation | None,
               rulebook: Rulebook | None = None, *, index: int = 1, edition: str | None = None,
               limit: int = DEFAULT_LIMIT, engine_refusal: str | None = None) -> StepCheck:
    """Check an engine's situation after `event` (None: the engine refused the event, for
    the reason `engine_refusal`) against the outcomes the rules allow. Raises
    `TooManyOutcomes` beyond `limit` branches of random choices."""
    book = rulebook or official()
    try:
        outcomes = allowed_outcomes(before, event, book, index=index, edition=edition,
                                    limit=limit)
    except IllegalEvent as err:
        if engine_after is None:
            return StepCheck(None, None, None, err)
        clause, rule = (None, err.rule) if err.rule else _event_rules(book, event, edition)
        return StepCheck(None, None, Divergence(
            index, event.kind, "the event", f"refuse it: {err.message}",
            "carries it out", clause, rule, step="the event is refused", differences=0,
            outcomes=0), err)
    if engine_after is None:
        clause, rule = _event_rules(book, event, edition)
        return StepCheck(outcomes, None, Divergence(
            index, event.kind, "the event",
            f"allow it ({len(outcomes.allowed)} outcome(s))",
            "refuses it" + (f": {engine_refusal}" if engine_refusal else ""),
            clause, rule, step="the event's clauses allow it", differences=0,
            outcomes=len(outcomes.allowed)))
    return match(before, engine_after, outcomes, book, index=index, edition=edition)


def match(before: Situation, engine_after: Situation, outcomes: Outcomes,
          rulebook: Rulebook | None = None, *, index: int = 1,
          edition: str | None = None) -> StepCheck:
    """Check an engine's situation after an event against outcomes already enumerated
    (`allowed_outcomes` of the same `before`, event, rulebook and edition)."""
    matched = outcomes.find(engine_after)
    if matched is not None:
        return StepCheck(outcomes, matched, None)
    return StepCheck(outcomes, None, _divergence(before, engine_after, outcomes,
                                                 rulebook or official(), index, edition))


def first_divergence(before: Situation, event: Event, engine_after: Situation | None,
                     rulebook: Rulebook | None = None, *, index: int = 1,
                     edition: str | None = None, limit: int = DEFAULT_LIMIT) -> Divergence | None:
    """None when `engine_after` is an outcome the rules allow for `event` on `before`;
    otherwise the first difference from the closest allowed outcome, with the clause and
    CR number of the step that decides it (see `Divergence`). `engine_after` None means
    the engine refused the event. `index` is the event's place in its run (1: the first).
    Raises `TooManyOutcomes` beyond `limit` branches of random choices."""
    return check_step(before, event, engine_after, rulebook, index=index, edition=edition,
                      limit=limit).divergence


# ---- the closest outcome and its first difference ------------------------------------------

Key = tuple[str, ...]


def _entries(data: dict[str, Any], shuffled: frozenset[str] = frozenset()) -> dict[Key, Any]:
    """Canonical data cut into the things that can differ, in the order the data lists them:
    the players, each game, each object (with its place in an ordered zone), each player's
    counters in a game, each ended game, each player's effects."""
    out: dict[Key, Any] = {("players",): data.get("players")}
    for game in data.get("game", []):
        out[("game", str(game["id"]))] = game
    positions: dict[str, int] = {}
    for table in [*data.get("card", []), *data.get("object", [])]:
        entry = dict(table)
        at = str(table["at"])
        if _ordered(at, shuffled):
            positions[at] = positions.get(at, 0) + 1
            entry["position"] = positions[at]
        out[("object", str(table["id"]))] = entry
    for record in data.get("player-counter", []):
        counters: Key = ("counters", str(record["game"]), str(record["player"]))
        out.setdefault(counters, {})[str(record["kind"])] = record["count"]
    for n, ended in enumerate(data.get("ended", [])):
        out[("ended", str(ended["id"]), str(n))] = ended
    for record in data.get("player-effect", []):
        out.setdefault(("effects", str(record["player"])), []).append(record["effect"])
    for name, value in data.items():
        if name not in ("players", "game", "card", "object", "player-counter", "ended",
                        "player-effect"):
            out[(name,)] = value
    return out


def _differing(expected: dict[Key, Any], engine: dict[Key, Any]) -> list[Key]:
    keys = [*expected, *(k for k in engine if k not in expected)]
    return [k for k in keys if expected.get(k) != engine.get(k)]


def _divergence(before: Situation, engine_after: Situation, outcomes: Outcomes, book: Rulebook,
                index: int, edition: str | None) -> Divergence:
    engine = _entries(canonical(engine_after, outcomes.shuffled), outcomes.shuffled)
    best: tuple[int, Allowed, list[Key]] | None = None
    for allowed in outcomes.allowed:
        differing = _differing(_entries(allowed.data, outcomes.shuffled), engine)
        if best is None or len(differing) < best[0]:
            best = (len(differing), allowed, differing)
    assert best is not None and best[2], "an event has at least one outcome, and this one differs"
    count, closest, differing = best
    key = differing[0]
    expected = _entries(closest.data, outcomes.shuffled)
    subject, said_expected, said_engine = _words(key, expected.get(key), engine.get(key),
                                                 _entries(canonical(before)).get(key))
    step = (_game_step(expected.get(key), engine.get(key), closest.trace, book)
            if key[0] == "game" else None) or _step_for(key, closest.trace)
    if step is not None:
        return Divergence(index, outcomes.event.kind, subject, said_expected, said_engine,
                          step.clause, step.rule, step.text, False, count,
                          len(outcomes.allowed))
    clause, rule = _event_rules(book, outcomes.event, edition)
    return Divergence(index, outcomes.event.kind, subject, said_expected, said_engine, clause,
                      rule, None, True, count, len(outcomes.allowed))


def _event_rules(book: Rulebook, event: Event, edition: str | None) -> tuple[str | None, str]:
    """The event's clauses and their CR numbers (an in-game action: its general rule)."""
    clauses = book.on(event.kind)
    if not clauses:
        return None, GENERAL_RULES.get(event.kind, "?")
    cites = list(dict.fromkeys(c.cite(edition or book.default_edition) for c in clauses))
    return ", ".join(c.name for c in clauses), ", ".join(cites)


# The game step that writes each key of a game's table (`model.game_steps`): a difference
# there is cited to the last step of the trace whose clause does that.
GAME_FIELD_ACTIONS: Final[dict[str, tuple[str, ...]]] = {
    "starting-player": ("starting-player",),
    "will-lose": ("short-library",),
    "players": ("create-game",), "parent": ("create-game", "inherit"),
    "variants": ("create-game",), "created-by": ("create-game",),
    "range-of-influence": ("create-game",), "restarted-from": ("inherit",),
    "subgame-results": ("end-game", "inherit"), "resolved": ("finish-resolving",),
    "trigger": ("queue-leave-triggers", "release-triggers"),
    "status": ("suspend", "resume", "end-game"),
}


def _game_step(expected: Any, engine: Any, trace: Sequence[TraceStep],
               book: Rulebook) -> TraceStep | None:
    """The last step of the trace whose clause writes the first key in which two tables of
    one game differ (a wrong starting player is 726.1a's or 728.2's, not the last step
    that touched the game)."""
    if not isinstance(expected, dict) or not isinstance(engine, dict):
        return None
    fields = [k for k in [*expected, *(k for k in engine if k not in expected)]
              if expected.get(k) != engine.get(k)]
    actions = next((GAME_FIELD_ACTIONS[f] for f in fields if f in GAME_FIELD_ACTIONS), ())
    for step in reversed(trace):
        if step.clause is not None and step.clause in book.names() and any(
                s.action in actions for s in book.get(step.clause).steps):
            return step
    return None


def _step_for(key: Key, trace: Sequence[TraceStep]) -> TraceStep | None:
    """The last step of the trace that acted on what `key` names."""
    kind = key[0]
    if kind in ("object", "game", "ended"):
        names = {key[1]}
    elif kind in ("counters", "effects"):
        names = {key[-1]}
    else:
        return None
    for step in reversed(trace):
        for change in step.changes:
            if change.object in names and (kind != "counters" or "counter" in change.what):
                return step
    if kind == "counters":  # a step that acted on the player otherwise
        return _step_for(("effects", key[-1]), trace)
    return None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _place(entry: dict[str, Any]) -> str:
    at = f"at {entry['at']}"
    if "position" in entry:
        at += f" ({_ordinal(int(entry['position']))} from the top)"
    return at


def _attributes(entry: dict[str, Any], keys: Iterable[str]) -> str:
    shown = [f"{k} {_value(entry[k])}" if k in entry else f"no {k}" for k in keys]
    return ", ".join(shown)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _words(key: Key, expected: Any, engine: Any, before: Any) -> tuple[str, str, str]:
    """What differs, what the rules give and what the engine has, in words."""
    kind = key[0]
    if kind == "object":
        what = "card" if (expected or engine or {}).get("kind") is None else \
            str((expected or engine)["kind"])
        subject = f"{what} {key[1]}"
        if expected is None:
            gone = "ceases to exist" if before is not None else "does not exist"
            return subject, f"it {gone}", f"it is {_place(engine)}"
        if engine is None:
            return subject, f"it is {_place(expected)}", "it does not exist"
        if (expected["at"], expected.get("position")) != (engine["at"], engine.get("position")):
            return subject, f"it is {_place(expected)}", f"it is {_place(engine)}"
        keys = sorted({*expected, *engine} - {"at", "position"},
                      key=lambda k: (k not in expected, k))
        changed = [k for k in keys if expected.get(k) != engine.get(k)]
        return subject, _attributes(expected, changed), _attributes(engine, changed)
    if kind == "game":
        subject = f"game {key[1]}"
        if expected is None:
            return subject, "it does not exist (or no longer does)", "it is a live game"
        if engine is None:
            return subject, "it is a live game", "it does not exist"
        changed = sorted(k for k in {*expected, *engine} if expected.get(k) != engine.get(k))
        return subject, _attributes(expected, changed), _attributes(engine, changed)
    if kind == "counters":
        subject = f"the counters of {key[2]} in {key[1]}"
        return subject, _value(expected) if expected else "none", \
            _value(engine) if engine else "none"
    if kind == "effects":
        subject = f"the effects acting on {key[1]}"
        return subject, _value(expected) if expected else "none", \
            _value(engine) if engine else "none"
    if kind == "ended":
        subject = f"ended game {key[1]}"
        return subject, _value(expected) if expected else "not recorded", \
            _value(engine) if engine else "not recorded"
    subject = " ".join(key)
    return subject, _value(expected), _value(engine)
