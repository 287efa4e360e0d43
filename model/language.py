"""The step language: what a clause of the rules does, written as data.

A clause is a list of steps run in order when its event happens. Two shapes of step exist,
so that an SMT encoder can read every step as a guarded update without knowing the rule:

* **object steps**: a `select` (a conjunction of tests on one object) and one action,
  `move-to`, `copy-to`, `cease` or `set`. Each object is tested and updated on its own, so
  the step is a function from an object's attributes to its new attributes (`copy-to`
  also makes one new object for each card it selects).
* **game steps**: one key naming an action on games, zones, players or permissions:
  `create-game`, `suspend`, `resume`, `end-game`, `destroy-zones`, `shuffle`,
  `starting-player`, `short-library`, `procedure`, `cease-player-counters`, `finish-resolving`,
  `release-triggers`, `queue-leave-triggers`, `inherit`, `further-instructions`,
  `permit`, `forbid`.

Games are named by their *role* in the event (`main`, `subgame`, `restarted`, `new`,
`source`, `active`), never by id, so one clause fits every situation. `docs/rule-language.md`
documents each key; `validate_step` is the single place that knows the grammar.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from .objects import CARD_TYPES, OBJECT_KINDS, OUTSIDE, ZONE_KINDS

# The events whose behaviour the rulebook defines, and the game roles each one binds.
EVENT_ROLES: Final[dict[str, tuple[str, ...]]] = {
    "start-subgame": ("main", "subgame"),
    "end-subgame": ("subgame", "main"),
    "restart": ("restarted", "new", "main"),
    "bring-in": ("active", "source"),
    "affect": ("active",),
}
ROLE_NAMES: Final = ("main", "subgame", "restarted", "new", "source", "active")

# Rules exceptions a clause can grant or withhold; the interpreter consults them.
PERMISSIONS: Final[dict[str, str]] = {
    "nested-subgame": "a subgame may start while another subgame is the active game",
    "bring-in-from-main-game": "cards of a main game count as outside the subgame and can be brought in",
    "restart-ignores-range": "a restart involves every player, whatever the range of influence",
}
PROHIBITIONS: Final[dict[str, str]] = {
    "cross-game-effects": "an effect of one game acts on no object or player of another game",
}

# The stages of a game's start (rule 103, Starting the Game), in their order: a game is
# `new` as `create-game` makes it; its starting player is determined (103.1); each player
# draws an opening hand (103.5); the mulligans are taken (103.5); the starting player takes
# the first turn (103.8). A game that existed before an event is past its start, at
# `first-turn`. The `starting-player` step reaches the `starting-player` stage, the
# `procedure` step any later one; reaching a stage from any other than the one before it
# records that the game's start went out of order.
PROCEDURE_STAGES: Final = ("new", "starting-player", "opening-hands", "mulligans", "first-turn")
BEGUN: Final = PROCEDURE_STAGES[-1]  # the stage of a game that has begun: its first turn

# Where a card came from into a game (the selector `came-from`): the kind of zone it began
# the game in, that is was put in before the game's first turn (a supplementary deck lies
# in the command zone, so "command" matches "deck" too); or how an effect brought it in
# later: from a main game ("main-game", 728.4a) or from outside the game ("outside", 400.11b).
CAME_FROM: Final = (*(z for z in ZONE_KINDS if z != "effects"), "main-game", OUTSIDE)

OBJECT_ACTIONS: Final = ("move-to", "copy-to", "cease", "set")

# What `copy-to` makes of each card it selects: a copy of the card (707.10a: a copy of a card
# exists only on the stack or the battlefield), or "card": the card itself again, a second
# place of one card, which no rule of the CR makes (an engine's or an old wording's reading,
# for amendments; `structure.one-place` then fails).
COPY_AS: Final = ("copy", "card")
COPY_ZONES: Final = ("stack", "battlefield")
GAME_ACTIONS: Final = (
    "create-game",
    "suspend",
    "resume",
    "end-game",
    "destroy-zones",
    "shuffle",
    "starting-player",
    "short-library",
    "procedure",
    "cease-player-counters",
    "copy-player-counters",
    "finish-resolving",
    "release-triggers",
    "queue-leave-triggers",
    "inherit",
    "further-instructions",
    "permit",
    "forbid",
)

_BOOL = (True, False)


class LanguageError(ValueError):
    """A step that is not in the language; `key` is the dotted path of the bad key."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"{key}: {message}")


@dataclass(frozen=True)
class Selector:
    """Which objects a step acts on: every test given must hold (absent tests hold)."""

    game: str
    object: tuple[str, ...] = ()
    card_type: tuple[str, ...] = ()
    zone: tuple[str, ...] = ()
    zone_not: tuple[str, ...] = ()
    commander: bool | None = None
    exempt: bool | None = None
    began_in_deck: bool | None = None
    permanent_card: bool | None = None
    aura: bool | None = None
    came_from: tuple[str, ...] = ()
    phased: str = "any"
    face: str = "any"

    def as_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game}
        for key in ("object", "card_type", "zone", "zone_not", "came_from"):
            value = getattr(self, key)
            if value:
                out[key.replace("_", "-")] = list(value)
        for key in ("commander", "exempt", "began_in_deck", "permanent_card", "aura"):
            value = getattr(self, key)
            if value is not None:
                out[key.replace("_", "-")] = value
        if self.phased != "any":
            out["phased"] = self.phased
        if self.face != "any":
            out["face"] = self.face
        return out


@dataclass(frozen=True)
class Destination:
    """Where `move-to` puts each selected object, or `copy-to` each new one; `as_` is what
    `copy-to` makes (`COPY_AS`)."""

    game: str
    zone: str
    whose: str = "owner"
    deck: str = "same"
    position: str = "top"
    face: str = "keep"
    mark: str | None = None
    control: str | None = None
    as_: str | None = None

    def as_data(self) -> dict[str, Any]:
        if self.zone == OUTSIDE:
            return {"zone": OUTSIDE}
        out: dict[str, Any] = {"game": self.game, "zone": self.zone}
        defaults = Destination(self.game, self.zone)
        for key in ("whose", "deck", "position", "face", "mark", "control"):
            value = getattr(self, key)
            if value != getattr(defaults, key):
                out[key] = value
        if self.as_ is not None:
            out["as"] = self.as_
        return out


@dataclass(frozen=True)
class Step:
    """One step: an object step (`select` + action) or a game step (`action` + `args`)."""

    action: str
    select: Selector | None = None
    to: Destination | None = None
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def is_object_step(self) -> bool:
        return self.select is not None

    def as_data(self) -> dict[str, Any]:
        if self.select is not None:
            out: dict[str, Any] = {"select": self.select.as_data()}
            if self.to is not None:
                out[self.action] = self.to.as_data()
            elif self.action == "cease":
                out["cease"] = True
            else:
                out["set"] = dict(self.args)
            return out
        value = self.args.get("_", self.args)
        return {self.action: value}

    def describe(self) -> str:
        """A short reading of the step, for traces and listings."""
        if self.select is not None:
            s = self.select
            what = "/".join(s.object) or "object"
            if s.card_type:
                what = "/".join(s.card_type) + " " + what
            where = f"in {s.game}"
            if s.zone:
                where += " " + "/".join(s.zone)
            if s.zone_not:
                where += " not " + "/".join(s.zone_not)
            extra = [
                f"{k.replace('_', '-')}={'yes' if getattr(s, k) else 'no'}"
                for k in ("commander", "exempt", "began_in_deck", "permanent_card", "aura")
                if getattr(s, k) is not None
            ]
            if s.came_from:
                extra.append("came from " + "/".join(s.came_from))
            head = f"each {what} {where}" + (f" ({', '.join(extra)})" if extra else "")
            if self.to is not None:
                t = self.to
                dest = f"{t.game} {t.zone}" if t.zone != OUTSIDE else "outside the game"
                if t.zone in ("library", "hand", "graveyard", "deck"):
                    whose = {"owner": "owner's", "same": "same player's",
                             "controller": "controller's"}[t.whose]
                    dest = f"{whose} {dest}"
                bits = [b for b in (
                    f"at the {t.position}" if t.position != "top" else "",
                    f"face {t.face}" if t.face != "keep" else "",
                ) if b]
                if self.action == "copy-to":
                    head += ": the card again" if t.as_ == "card" else ": a copy"
                return f"{head} -> {dest}" + (f" ({', '.join(bits)})" if bits else "")
            if self.action == "cease":
                return f"{head} ceases to exist"
            return f"{head}: set " + ", ".join(f"{k}={v}" for k, v in self.args.items())
        if "_" in self.args:
            return f"{self.action} {self.args['_']}"
        return f"{self.action} " + " ".join(f"{k}={v}" for k, v in self.args.items())


@dataclass(frozen=True)
class Clause:
    """A named clause of the rules: its CR number per edition, a summary and its steps."""

    name: str
    cr: dict[str, str]
    summary: str
    on: str
    steps: tuple[Step, ...]
    line: int | None = None
    # The file the clause was read from (a rulebook or an amendment), for reports that
    # point at it; not part of what the clause says, so two rulebooks compare as before.
    file: str | None = field(default=None, compare=False)

    def cite(self, edition: str | None = None) -> str:
        """The CR number in `edition`, or in the newest edition known."""
        if edition and edition in self.cr:
            return self.cr[edition]
        return self.cr[max(self.cr)] if self.cr else "?"

    def as_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cr": dict(self.cr),
            "summary": self.summary,
            "on": self.on,
            "step": [s.as_data() for s in self.steps],
        }


def games_acted_on(step: Step) -> tuple[str, ...]:
    """The roles of the games a game step acts on or reads, which must still exist when it
    runs (a game whose zones ceased earlier in the event is gone; the step then does
    nothing, in both readings). The game that `create-game` makes is not among them."""
    if step.select is not None:
        return ()
    return tuple(value for key, value in step.args.items()
                 if isinstance(value, str) and value in ROLE_NAMES
                 and not (step.action == "create-game" and key == "game"))


# ---- validation ---------------------------------------------------------------------------


def _enum(key: str, value: Any, allowed: tuple[Any, ...]) -> Any:
    if value not in allowed:
        shown = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
        raise LanguageError(key, f"{value!r} is not one of {shown}")
    return value


def _names(key: str, value: Any, allowed: tuple[str, ...]) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
        raise LanguageError(key, "expected a name or a list of names")
    for item in items:
        _enum(key, item, allowed)
    return tuple(items)


def _keys(key: str, table: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise LanguageError(key, "expected a table")
    for k in table:
        if k not in allowed:
            raise LanguageError(f"{key}.{k}", f"unknown key (allowed: {', '.join(allowed)})")
    return table


def _role(key: str, value: Any, roles: tuple[str, ...]) -> str:
    if value not in roles:
        raise LanguageError(key, f"{value!r} is not a game of this event ({', '.join(roles)})")
    return str(value)


def parse_selector(key: str, table: Any, roles: tuple[str, ...]) -> Selector:
    t = _keys(key, table, (
        "game", "object", "card-type", "zone", "zone-not", "commander", "exempt",
        "began-in-deck", "permanent-card", "aura", "came-from", "phased", "face",
    ))
    if "game" not in t:
        raise LanguageError(f"{key}.game", "missing: which game's objects to select")
    card_types = (*CARD_TYPES, "nontraditional")
    flags: dict[str, bool | None] = {}
    for flag in ("commander", "exempt", "began-in-deck", "permanent-card", "aura"):
        flags[flag] = _enum(f"{key}.{flag}", t[flag], _BOOL) if flag in t else None
    return Selector(
        game=_role(f"{key}.game", t["game"], roles),
        object=_names(f"{key}.object", t.get("object", []), OBJECT_KINDS),
        card_type=_names(f"{key}.card-type", t.get("card-type", []), card_types),
        zone=_names(f"{key}.zone", t.get("zone", []), ZONE_KINDS),
        zone_not=_names(f"{key}.zone-not", t.get("zone-not", []), ZONE_KINDS),
        commander=flags["commander"],
        exempt=flags["exempt"],
        began_in_deck=flags["began-in-deck"],
        permanent_card=flags["permanent-card"],
        aura=flags["aura"],
        came_from=_names(f"{key}.came-from", t.get("came-from", []), CAME_FROM),
        phased=_enum(f"{key}.phased", t.get("phased", "any"), ("in", "out", "any")),
        face=_enum(f"{key}.face", t.get("face", "any"), ("up", "down", "any")),
    )


def parse_destination(key: str, table: Any, roles: tuple[str, ...],
                      copying: bool = False) -> Destination:
    """A destination of `move-to`, or with `copying` of `copy-to` (which also takes `as`,
    and puts no copy outside the game nor, for a copy of a card, anywhere but the stack or
    the battlefield: 707.10a)."""
    keys = ("game", "zone", "whose", "deck", "position", "face", "mark", "control")
    t = _keys(key, table, (*keys, "as") if copying else keys)
    if "zone" not in t:
        raise LanguageError(f"{key}.zone", "missing")
    if copying:
        made = _enum(f"{key}.as", t.get("as", "copy"), COPY_AS)
        if t["zone"] == OUTSIDE:
            raise LanguageError(f"{key}.zone", "copy-to makes a new object in a game; "
                                "nothing is copied to outside the game")
        if made == "copy" and t["zone"] not in COPY_ZONES:
            raise LanguageError(f"{key}.zone", f"a copy of a card exists only on the stack or "
                                f"the battlefield: one put into the {t['zone']!r} would cease "
                                "to exist at once (707.10a); write as = \"card\" for the card "
                                "itself in a second place")
        plain = parse_destination(key, {k: v for k, v in t.items() if k != "as"}, roles)
        return replace(plain, as_=made)
    if t["zone"] == OUTSIDE:  # a card's owner's place outside every game (400.11)
        for other in t:
            if other != "zone":
                raise LanguageError(f"{key}.{other}", "a card goes outside the game to its "
                                    "owner, as a new object: write move-to = { zone = "
                                    "\"outside\" } alone")
        return Destination(game="", zone=OUTSIDE)
    if "game" not in t:
        raise LanguageError(f"{key}.game", "missing")
    return Destination(
        game=_role(f"{key}.game", t["game"], roles),
        zone=_enum(f"{key}.zone", t["zone"], (*ZONE_KINDS, OUTSIDE)),
        whose=_enum(f"{key}.whose", t.get("whose", "owner"), ("owner", "same", "controller")),
        deck=_enum(f"{key}.deck", t.get("deck", "same"), ("same", "own", "began-in")),
        position=_enum(f"{key}.position", t.get("position", "top"), ("top", "bottom")),
        face=_enum(f"{key}.face", t.get("face", "keep"), ("keep", "up", "down")),
        mark=_enum(f"{key}.mark", t.get("mark"), (None, "began-in-deck")),
        control=_enum(f"{key}.control", t.get("control"), (None, "event-controller")),
    )


def _game_arg(key: str, action: str, value: Any, roles: tuple[str, ...]) -> dict[str, Any]:
    """Check the argument of a game step; return it as a table (`_` holds a bare value)."""
    if action in ("suspend", "resume", "destroy-zones", "cease-player-counters",
                  "further-instructions", "release-triggers", "finish-resolving"):
        return {"_": _role(key, value, roles)}
    if action == "queue-leave-triggers":
        return {"_": _role(key, value, roles)}
    if action == "permit":
        return {"_": _enum(key, value, tuple(PERMISSIONS))}
    if action == "forbid":  # a prohibition, or a permission withheld (CR 101.2)
        return {"_": _enum(key, value, (*PROHIBITIONS, *PERMISSIONS))}
    if action == "create-game":
        t = _keys(key, value, ("game", "parent", "players"))
        _role(f"{key}.game", t.get("game"), roles)
        _enum(f"{key}.parent", t.get("parent"), (*roles, "parent-of-restarted", "none"))
        _role(f"{key}.players", t.get("players"), roles)
        return dict(t)
    if action == "end-game":
        t = _keys(key, value, ("game", "result"))
        _role(f"{key}.game", t.get("game"), roles)
        _enum(f"{key}.result", t.get("result"), ("from-event", "restarted"))
        return dict(t)
    if action == "shuffle":
        t = _keys(key, value, ("game", "zone"))
        _role(f"{key}.game", t.get("game"), roles)
        _enum(f"{key}.zone", t.get("zone"), ("library", "deck"))
        return dict(t)
    if action == "starting-player":
        t = _keys(key, value, ("game", "choose"))
        _role(f"{key}.game", t.get("game"), roles)
        _enum(f"{key}.choose", t.get("choose"), ("random", "event-controller"))
        return dict(t)
    if action == "short-library":
        t = _keys(key, value, ("game", "minimum"))
        _role(f"{key}.game", t.get("game"), roles)
        if not isinstance(t.get("minimum"), int) or isinstance(t.get("minimum"), bool):
            raise LanguageError(f"{key}.minimum", "expected a whole number")
        return dict(t)
    if action == "procedure":
        t = _keys(key, value, ("game", "stage"))
        _role(f"{key}.game", t.get("game"), roles)
        _enum(f"{key}.stage", t.get("stage"), PROCEDURE_STAGES[1:])
        return dict(t)
    if action == "copy-player-counters":
        t = _keys(key, value, ("from", "to"))
        _role(f"{key}.from", t.get("from"), roles)
        _role(f"{key}.to", t.get("to"), roles)
        return dict(t)
    if action == "inherit":
        t = _keys(key, value, ("from", "to"))
        _role(f"{key}.from", t.get("from"), roles)
        _role(f"{key}.to", t.get("to"), roles)
        return dict(t)
    raise LanguageError(key, f"unknown action {action!r}")  # pragma: no cover


def parse_step(key: str, table: Any, event: str) -> Step:
    """Read one step of a clause that runs on `event`; LanguageError names the bad key."""
    roles = EVENT_ROLES[event]
    if not isinstance(table, dict):
        raise LanguageError(key, "a step is a table")
    if "select" in table:
        actions = [a for a in OBJECT_ACTIONS if a in table]
        extra = [k for k in table if k not in ("select", *OBJECT_ACTIONS)]
        if extra:
            raise LanguageError(f"{key}.{extra[0]}", "unknown key in an object step "
                                f"(a step has select and one of {', '.join(OBJECT_ACTIONS)})")
        if len(actions) != 1:
            raise LanguageError(key, f"an object step has exactly one of {', '.join(OBJECT_ACTIONS)}")
        select = parse_selector(f"{key}.select", table["select"], roles)
        action = actions[0]
        if action in ("move-to", "copy-to"):
            return Step(action, select, parse_destination(f"{key}.{action}", table[action], roles,
                                                          copying=action == "copy-to"))
        if action == "cease":
            _enum(f"{key}.cease", table["cease"], (True,))
            return Step("cease", select)
        t = _keys(f"{key}.set", table["set"], ("face", "phased", "commander", "owner"))
        if "face" in t:
            _enum(f"{key}.set.face", t["face"], ("up", "down"))
        if "phased" in t:
            _enum(f"{key}.set.phased", t["phased"], ("in", "out"))
        if "commander" in t:
            _enum(f"{key}.set.commander", t["commander"], _BOOL)
        if "owner" in t:  # ownership changes hands (an old reading of 726.2: see 108.3)
            _enum(f"{key}.set.owner", t["owner"], ("controller",))
        return Step("set", select, args=dict(t))
    if len(table) != 1:
        raise LanguageError(key, "a game step has exactly one key, its action "
                            "(or write an object step with select)")
    action, value = next(iter(table.items()))
    if action not in GAME_ACTIONS:
        raise LanguageError(f"{key}.{action}", f"unknown action (one of {', '.join(GAME_ACTIONS)}, "
                            "or an object step with select)")
    return Step(action, args=_game_arg(f"{key}.{action}", action, value, roles))
