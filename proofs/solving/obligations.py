"""The proof obligations and their results, and how a run hands them to its workers.

An obligation is an invariant of the catalog at one of its events; its `Result` says how it
was decided (`Status`), in what time, and what shows it. `verify` and `decide` cut a run's
obligations into batches (`batches`), hand them to worker processes costliest first
(`weight`, `proofs.solving.pool`) and gather the answers, which `proofs.verdicts.prove` decides there with
z3.

All of this runs in the command's own process, which never imports z3 nor the prover:
those belong to the workers (a cold `verify` of the official rules: the command's own
import 0.06 s shorter, its workers given their batches that much sooner).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from shahrazad.invariants.catalog import CATALOG, EVENTS, Invariant
from shahrazad.invariants.lang import Term
from shahrazad.model.interpreter import Outcome
from shahrazad.model.rulebook import Rulebook, official
from shahrazad.model.scenario import Scenario

if TYPE_CHECKING:
    pass

DEFAULT_TIMEOUT = 5.0
DEFAULT_BOUND = 3


class Status(enum.Enum):
    """The outcome of one proof obligation."""

    PROVED = "proved"    # unsat: holds for every situation (or every one up to `bound`)
    REFUTED = "refuted"  # sat, and the counterexample replays on the concrete interpreter
    UNKNOWN = "unknown"  # the solver gave up (timeout, incompleteness), or no legal way leads
    #                      to its counterexample under a rulebook whose own event leaves the
    #                      legal situations on the way: not a proof
    FAULT = "fault"      # sat, but the counterexample does not replay: a bug of this tool

    @property
    def exit_code(self) -> int:
        """The exit code of a run that this outcome decides (see `worst`)."""
        return _ORDER[self]


# Which outcome decides a run of several obligations: the first of this table that occurs
# (a run of none decides like one all proved). Each gives the run its exit code.
_ORDER: dict[Status, int] = {
    Status.REFUTED: 1,  # a counterexample that replays wins over everything
    Status.FAULT: 3,    # a bug of this tool, nothing refuted: it decides nothing, like unknown
    Status.UNKNOWN: 3,  # the solver gave up somewhere, nothing refuted: not a proof
    Status.PROVED: 0,   # every obligation proved: the only way to exit 0
}


def worst(statuses: Iterable[Status]) -> Status:
    """The outcome that decides a run: refuted, else fault, else unknown, else proved."""
    present = set(statuses)
    return next((s for s in _ORDER if s in present), Status.PROVED)


@dataclass(frozen=True)
class Obligation:
    """One proof obligation: `invariant` holds at `event`."""

    invariant: Invariant
    event: str

    @property
    def name(self) -> str:
        """`invariant @ event`, as reports name the obligation."""
        return f"{self.invariant.id} @ {self.event}"


@dataclass
class Replay:
    """What replaying a scenario showed: whether the invariant broke, and where."""

    violated: bool
    outcome: Outcome | None
    witness: dict[str, str] | None
    reason: str = ""


@dataclass
class Result:
    """How one obligation was decided, and what shows it.

    `seconds` is the time it took; `bound` the size of the finite universe searched, if one was
    (a proof with a bound holds up to it only); `reason` says why in words (the solver's reason
    for an unknown, what failed for a fault); `counterexample` is a refutation's situation (the
    one reached) with its event, or the scenario a fault could not replay; `replay` is the
    interpreter's replay of it; `notes` are remarks made on the way; `witness` is the
    situation that proves a possibility. `cached`: answered from the cache of proofs
    (`proofs.solving.cache`), with no time of this run (`seconds`, `solving`, `encoding` are 0) and
    no witness or replay.
    """

    obligation: Obligation
    status: Status
    seconds: float
    bound: int | None = None
    reason: str = ""
    counterexample: Scenario | None = None
    replay: Replay | None = None
    notes: list[str] = field(default_factory=list)
    witness: Scenario | None = None
    trace: Scenario | None = None  # a refutation's reaching trace (`proofs.evidence.reach`)
    solving: float = 0.0   # seconds inside z3's search (part of `seconds`)
    encoding: float = 0.0  # seconds building z3 terms (part of `seconds`; an event's
    #                        transition is built once per batch, counted where it is built)
    confirmation: Confirmation | None = None  # a second solver's answer (`--confirm`)
    cached: bool = False  # answered from the cache of proofs (`proofs.solving.cache`), not decided
    lemmas: list[str] = field(default_factory=list)  # a proof's lemmas, each an invariant
    #                                                 (`proofs.verdicts.lemmas`), in words


@dataclass
class Confirmation:
    """A second solver's decision of a proof that z3 found (`proofs.solving.confirm`)."""

    solver: str     # the second solver's name: "cvc5"
    answer: str     # "unsat" (or "sat" for a possibility): confirmed; "unknown"; or the
    #                 opposite of z3's answer: a disagreement, which makes the result a fault
    seconds: float  # the second solver's time, translation included
    queries: int    # how many queries (one per conjunct of the invariant) it decided
    reason: str = ""  # why it could not decide, or what it answered instead

    @property
    def confirmed(self) -> bool:
        """Whether the second solver decided as z3 did (a disagreement, or a failure to decide,
        carries a `reason`)."""
        return self.answer in ("unsat", "sat") and not self.reason


def obligations(only: list[str] | None = None) -> Iterator[Obligation]:
    """Each invariant of the catalog (of `only`, if given) at each of its events that the
    encoder knows, in catalog order."""
    for inv in CATALOG:
        if only and inv.id not in only:
            continue
        for event in inv.events:
            if event in EVENTS:
                yield Obligation(inv, event)


def conjuncts(term: Term) -> list[Term]:
    """The top-level conjuncts of a term (a conjunction holds iff each of them does)."""
    if term.op == "and":
        return [c for arg in term.args for c in conjuncts(arg)]
    return [term]


def attributes(term: Term) -> frozenset[str]:
    """The state attributes a term reads, to pick the hypotheses that speak of the same
    (`Encoded.relevant`) and to weigh an action's batch (`weight`). Read once per term
    and process (`_READS`): each conjunct is asked again at every event, and walking it
    each time was some 1% of a verification's work."""
    kept = _READS.get(id(term))
    if kept is None or kept[0] is not term:
        kept = _READS[id(term)] = term, frozenset(
            t.args[1] for t in term.walk() if t.op == "attr")
    return kept[1]


# The attributes each term read so far reads (`attributes`), by the term's identity, with the
# term itself, kept alive so that its identity is never another's (a term's hash would walk
# it as a whole). The catalog's conjuncts, and those of the few invariants a test makes.
_READS: dict[int, tuple[Term, frozenset[str]]] = {}


def changed_behind(rulebook: Rulebook, ob: Obligation) -> bool:
    """Whether `rulebook` differs from the official rules in a clause of the event that the
    invariant names (changed, added or removed). Never for the official rules themselves,
    asked of every obligation of a run twice (`decide`, `weight`) before its first batch."""
    official_rules = official()
    if rulebook is official_rules:
        return False
    mine = {c.name: c for c in rulebook.on(ob.event)}
    theirs = {c.name: c for c in official_rules.on(ob.event)}
    return any(mine.get(name) != theirs.get(name) for name in ob.invariant.clauses)


Case = tuple[Rulebook, list[Obligation], float, int, bool, str | None]
