"""Players, zones and objects, named as the Comprehensive Rules name them.

An *object* (CR 109.1) is a card, a token, a copy of a card or spell, an emblem, an ability
on the stack or a continuous effect; each has exactly one place: a zone of one live game or,
for cards, outside the game. Cards keep their owner forever (CR 108.3); only the step
`set = { owner = "controller" }` changes it, which the official rules never use (an old
reading of 713.2 did). Non-card objects remember the game that made them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Final

# Kinds of object (CR 109.1, 111 tokens, 707 copies, 114 emblems, 113.1 abilities, 611 effects).
OBJECT_KINDS: Final = ("card", "token", "copy", "emblem", "ability", "effect")

# Traditional cards and the nontraditional kinds of CR 100.2 / 108.2 (planes, schemes, ...).
TRADITIONAL: Final = "traditional"
NONTRADITIONAL_KINDS: Final = (
    "plane",
    "phenomenon",
    "scheme",
    "vanguard",
    "conspiracy",
    "attraction",
    "contraption",
    "dungeon",
)
CARD_TYPES: Final = (TRADITIONAL, *NONTRADITIONAL_KINDS)

# Card types (CR 205.2a) and the permanent types among them (110.4b: a permanent card is an
# artifact, battle, creature, enchantment, land or planeswalker card). A card's types are
# its characteristics (109.3); the rules and rulings the model follows read two of them:
# whether it is a permanent card, and whether it is an Aura (303.4; Karn Liberated leaves
# in exile the non-Aura permanent cards it exiled).
CARD_TYPE_NAMES: Final = ("artifact", "battle", "creature", "enchantment", "instant", "kindred",
                          "land", "planeswalker", "sorcery")
PERMANENT_TYPES: Final = ("artifact", "battle", "creature", "enchantment", "land",
                          "planeswalker")
# A card whose types a scenario does not give: a traditional card is read as a creature
# card, an Attraction or Contraption as an artifact card (717.1, 905.1); the other
# nontraditional cards (plane, phenomenon, scheme, vanguard, conspiracy, dungeon: card types
# of their own, 205.2a) have none of the types listed here, and are no permanent cards.
DEFAULT_TYPES: Final = {TRADITIONAL: ("creature",), "attraction": ("artifact",),
                        "contraption": ("artifact",)}
AURA: Final = "aura"

# Supplementary decks (CR 100.2d-f; 901 planar, 904 scheme, 717 attraction, 905 contraption).
SUPPLEMENTARY_DECKS: Final = ("planar", "scheme", "attraction", "contraption")
DECK_OF: Final = {
    "plane": "planar",
    "phenomenon": "planar",
    "scheme": "scheme",
    "attraction": "attraction",
    "contraption": "contraption",
}

# Zones (CR 400.1). Library, hand and graveyard belong to a player; battlefield, stack,
# exile and command are shared. A supplementary deck ("deck") is a player's pile inside the
# command zone; "outside" is where a player's cards outside every game are (CR 400.11).
# "effects" is not a zone of the CR: it is where the model keeps a game's continuous
# effects (CR 611), so that every object, effects included, has exactly one place.
PLAYER_ZONES: Final = ("library", "hand", "graveyard")
SHARED_ZONES: Final = ("battlefield", "stack", "exile", "command", "effects")
ZONE_KINDS: Final = (*PLAYER_ZONES, *SHARED_ZONES, "deck")
OUTSIDE: Final = "outside"

# Where objects that are not cards can be: a token on the battlefield (704.5d), a copy of a
# spell on the stack or a copy of a permanent card on the battlefield (707.10, 704.5e), an
# emblem in the command zone (114.1), an ability on the stack, an effect with its game.
NONCARD_ZONES: Final = {
    "token": ("battlefield",),
    "copy": ("stack", "battlefield"),
    "emblem": ("command",),
    "ability": ("stack",),
    "effect": ("effects",),
}

# Where a nontraditional card can be in a game: a plane, phenomenon, scheme, vanguard,
# conspiracy or dungeon only in the command zone, in its supplementary deck or out of it
# (309.2c, 311.2, 312.2, 313.2, 314.2, 315.3, 400.4b); an Attraction also on the battlefield
# or in exile (717.6), and a Contraption as an Attraction (the Unstable rules: the CR leaves
# Contraptions out, 701.45a). Traditional cards can be in any zone of a game.
NONTRADITIONAL_ZONES: Final = {
    **{kind: ("command", "deck") for kind in ("plane", "phenomenon", "scheme", "vanguard",
                                              "conspiracy", "dungeon")},
    "attraction": ("command", "deck", "battlefield", "exile"),
    "contraption": ("command", "deck", "battlefield", "exile"),
}

# Where an object can be face down (708.2, 406.3, 110.5): on the battlefield, on the stack,
# in exile, in the command zone (a hidden conspiracy, 702.106a) and in a supplementary deck,
# which is always face down (701.31b, 728.5a). Elsewhere it is face up: a card that moves
# there is a new object (400.7, 708.9).
FACE_DOWN_ZONES: Final = ("battlefield", "stack", "exile", "command", "deck")

# Game variants that the subgame and restart rules name.
VARIANTS: Final = ("commander", "vanguard", "planechase", "archenemy", "limited-range")


@dataclass(frozen=True)
class ZoneRef:
    """One zone: its game, its kind, its player (for player zones and decks), its deck name.

    Outside the game is `ZoneRef(None, "outside", player)`.
    """

    game: str | None
    kind: str
    player: str | None = None
    deck: str | None = None

    @property
    def is_outside(self) -> bool:
        """Whether this is a player's place outside every game (not a zone: CR 400.11)."""
        return self.kind == OUTSIDE

    def in_command(self) -> bool:
        """A supplementary deck lies in the command zone (CR 901.3, 904.3, ...)."""
        return self.kind in ("command", "deck")

    def sort_key(self) -> tuple[int, str, int, str, str]:
        """Games first (by id), zones in CR order, then player and deck; outside last."""
        rank = ZONE_KINDS.index(self.kind) if self.kind in ZONE_KINDS else len(ZONE_KINDS)
        return (1 if self.is_outside else 0, self.game or "", rank, self.player or "",
                self.deck or "")

    def path(self) -> str:
        """The zone written as in scenario files: `main/library/Ann`, `outside/Ann`. One
        string per zone however many `ZoneRef`s name it (`_PATHS`)."""
        written = _PATHS.get(self)
        if written is None:
            written = _PATHS[self] = self._written()
        return written

    def _written(self) -> str:
        if self.is_outside:
            return f"{OUTSIDE}/{self.player}"
        parts = [str(self.game), self.kind]
        if self.player is not None:
            parts.append(self.player)
        if self.deck is not None:
            parts.append(self.deck)
        return "/".join(parts)

    def __str__(self) -> str:
        return self.path()


# Each zone's path, made once: a trace names the zones each moved card leaves and enters,
# and a restart of 200,000 cards made 400,000 copies of a few dozen strings (each card
# placed by a scenario has a `ZoneRef` of its own, so a cache per instance did not help).
_PATHS: dict[ZoneRef, str] = {}


def parse_zone(path: str) -> ZoneRef:
    """Read a zone path (`GAME/KIND[/PLAYER[/DECK]]` or `outside/PLAYER`); ValueError if bad."""
    parts = path.split("/")
    if parts[0] == OUTSIDE:
        if len(parts) != 2 or not parts[1]:
            raise ValueError(f"zone {path!r}: write outside/PLAYER")
        return ZoneRef(None, OUTSIDE, parts[1])
    if len(parts) < 2:
        raise ValueError(f"zone {path!r}: write GAME/ZONE[/PLAYER[/DECK]]")
    game, kind, rest = parts[0], parts[1], parts[2:]
    if kind not in ZONE_KINDS:
        raise ValueError(f"zone {path!r}: unknown zone {kind!r} (one of {', '.join(ZONE_KINDS)})")
    if kind in PLAYER_ZONES:
        if len(rest) != 1:
            raise ValueError(f"zone {path!r}: a {kind} belongs to a player: {game}/{kind}/PLAYER")
        return ZoneRef(game, kind, rest[0])
    if kind == "deck":
        if len(rest) != 2 or rest[1] not in SUPPLEMENTARY_DECKS:
            raise ValueError(
                f"zone {path!r}: write {game}/deck/PLAYER/DECK with DECK one of "
                f"{', '.join(SUPPLEMENTARY_DECKS)}"
            )
        return ZoneRef(game, kind, rest[0], rest[1])
    if rest:
        raise ValueError(f"zone {path!r}: the {kind} is shared; write {game}/{kind}")
    return ZoneRef(game, kind)


@dataclass(slots=True)
class GameObject:
    """A card or another object (CR 109.1). `game_of_origin` is set for non-card objects."""

    id: str
    kind: str
    owner: str
    name: str = ""
    controller: str | None = None
    card_type: str = TRADITIONAL
    deck: str | None = None
    face_up: bool = True
    phased_out: bool = False
    commander: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    game_of_origin: str | None = None
    triggers: list[str] = field(default_factory=list)
    affected_by: list[str] = field(default_factory=list)
    since_first_turn: bool = False
    types: tuple[str, ...] = ()  # card types (205.2a); a card without any has the default
    subtypes: tuple[str, ...] = ()  # lower case; "aura" is the one the model reads
    exiled_with: str | None = None  # the object that exiled it, while it stays in exile
    # The card this object is a second place of: only an amended rule's `copy-to` with
    # `as = "card"` makes one (no rule of the CR puts one card in two places); None for
    # every object of a real game.
    same_card: str | None = None

    def __post_init__(self) -> None:
        if self.is_card and not self.types:
            self.types = DEFAULT_TYPES.get(self.card_type, ())

    @property
    def permanent_card(self) -> bool:
        """Whether it is a permanent card (110.4b): a card with a permanent type."""
        return self.is_card and any(t in PERMANENT_TYPES for t in self.types)

    @property
    def aura(self) -> bool:
        """Whether it is an Aura card (303.4)."""
        return self.is_card and AURA in self.subtypes

    @property
    def is_card(self) -> bool:
        """Whether the object is a card (CR 108.2), not a token, copy, emblem, ability or effect."""
        return self.kind == "card"

    def clone(self) -> GameObject:
        """An independent copy (its counters, triggers and effects copied too), made
        without the generic `copy` machinery: copying a situation clones every object."""
        twin = object.__new__(GameObject)
        for name in _FIELDS:
            object.__setattr__(twin, name, getattr(self, name))
        twin.counters = dict(self.counters)
        twin.triggers = list(self.triggers)
        twin.affected_by = list(self.affected_by)
        return twin

    @property
    def traditional(self) -> bool:
        """Whether it is a traditional Magic card (CR 108.2a), not a plane, scheme, dungeon or
        other nontraditional card; False for what is not a card."""
        return self.is_card and self.card_type == TRADITIONAL

    def marks(self) -> list[str]:
        """What sets the object apart, in words: its kind or card type, its card types where
        they are not the default, and its status (what exiled it, too)."""
        out = [self.kind] if not self.is_card else (
            [self.card_type] if self.card_type != TRADITIONAL else [])
        if self.is_card and self.types != DEFAULT_TYPES.get(self.card_type, ()):
            out.append(" ".join(self.types))
        if self.aura:
            out.append("Aura")
        if self.commander:
            out.append("commander")
        if not self.face_up:
            out.append("face down")
        if self.phased_out:
            out.append("phased out")
        if self.exiled_with is not None:
            out.append(f"exiled with {self.exiled_with}")
        if self.same_card is not None:
            out.append(f"the card {self.same_card} again")
        return out

    def label(self) -> str:
        """Its name and id, `Karn Liberated (c1)`, or the id alone when it has no other name."""
        return f"{self.name} ({self.id})" if self.name and self.name != self.id else self.id


_FIELDS: Final = tuple(f.name for f in fields(GameObject))
