"""Every clause protected: removing a clause, or changing one of its parameters, must break
some invariant.

For each clause, the rulebook without it is verified at the clause's own event (the other
events do not run it), stopping at the first refuted obligation. Then each parameter of
each step is changed in turn, one change at a time, and verified the same way:

* a destination (`move-to`): its game, zone, whose, deck, position, face, mark and control;
* a selection (`select`): its game, each yes/no test flipped or dropped, each list of zones
  or card types dropped, its phasing;
* a game step: its game, a number one up and one down, a choice turned to the other.

When nothing breaks, `proofs.analyses.difference` decides why: either the change alters what
happens in some situation (a *gap* of the catalog, shown with that situation, replayed), or
it alters nothing the model can see (the parameter has *no effect*: redundant, proved), or
it only reorders a zone, which the model's state does not have (*unseen*). Gaps are named,
never hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from shahrazad.model.language import EVENT_ROLES, PROCEDURE_STAGES, LanguageError, Step, parse_step
from shahrazad.model.rulebook import Rulebook
from shahrazad.model.scenario import Scenario
from shahrazad.proofs.solving.obligations import Obligation, Status, obligations
from shahrazad.proofs.solving.pool import run_all
from shahrazad.proofs.solving.queries import Encodings
from shahrazad.proofs.verdicts.prove import prove

from .difference import difference

# The values each destination parameter can take (`model.language.parse_destination`).
DESTINATION_VALUES: dict[str, tuple[Any, ...]] = {
    "whose": ("owner", "same", "controller"),
    "deck": ("same", "own", "began-in"),
    "position": ("top", "bottom"),
    "face": ("keep", "up", "down"),
    "mark": (None, "began-in-deck"),
    "control": (None, "event-controller"),
}
# The zones a clause sends cards to; a changed destination tries each of the others.
DESTINATION_ZONES = ("library", "graveyard", "exile", "command", "deck")
# Zones with a player, where `whose` means something; `deck` and `mark` mean something only
# for a supplementary deck.
PLAYER_ZONES = ("library", "hand", "graveyard", "deck")
# What the symbolic state does not have: a change of these alone cannot be seen.
UNSEEN = {"position": "the order within a zone is not part of the model's state",
          "shuffle": "the order within a zone is not part of the model's state"}


@dataclass(frozen=True)
class Change:
    """One change of one clause: `parameter` is "removed" or the dotted path of the
    parameter changed (`step 2 move-to.zone`), with its value before and after."""

    clause: str
    parameter: str
    old: str = ""
    new: str = ""

    def describe(self) -> str:
        if self.parameter == "removed":
            return "removed"
        return f"{self.parameter}: {self.old} -> {self.new}"


@dataclass
class Protection:
    """What a change broke. `status` is one of

    * "protected": `caught_by` names the first invariant that breaks; `scenario` is its
      counterexample (legal, replayed) and `trace` the way to it from a game's beginning;
    * "gap": no invariant breaks, yet the change alters what happens: `scenario` is a
      situation where the event ends differently, replayed by the interpreter;
    * "no-effect": no invariant breaks because the change alters nothing the model can see
      (`detail` says for which sizes this is proved): the parameter is redundant;
    * "unseen": the change only reorders a zone, which the model's state does not have;
    * "unknown": the solver could not decide."""

    clause: str
    event: str
    caught_by: str | None
    status: str
    change: Change | None = None
    detail: str = ""
    scenario: Scenario | None = None
    trace: Scenario | None = None


def _order(ob: Obligation, clause: str) -> tuple[int, str]:
    """Try first the invariants that name the clause among those that should keep them."""
    return (0 if clause in ob.invariant.clauses else 1, ob.invariant.id)


def _shown(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _variants(step: Step, event: str) -> Iterator[tuple[str, Any, Any, dict[str, Any]]]:
    """Each one-parameter change of a step: (path, old, new, the step's data after it)."""
    data = step.as_data()
    roles = EVENT_ROLES[event]
    if step.is_object_step:
        select = data["select"]
        for role in roles:
            if role != select["game"]:
                yield "select.game", select["game"], role, {**data, "select": {**select,
                                                                                "game": role}}
        for key in ("commander", "exempt", "began-in-deck"):
            if key in select:
                rest = {k: v for k, v in select.items() if k != key}
                yield f"select.{key}", select[key], not select[key], \
                    {**data, "select": {**select, key: not select[key]}}
                yield f"select.{key}", select[key], None, {**data, "select": rest}
        for key in ("object", "card-type", "zone", "zone-not", "came-from"):
            if key in select:
                rest = {k: v for k, v in select.items() if k != key}
                yield f"select.{key}", select[key], None, {**data, "select": rest}
        for value in ("in", "out", "any"):
            if value != select.get("phased", "any"):
                changed = {**select, "phased": value} if value != "any" else {
                    k: v for k, v in select.items() if k != "phased"}
                yield "select.phased", select.get("phased", "any"), value, \
                    {**data, "select": changed}
        if step.action == "move-to" and data["move-to"]["zone"] != "outside":
            dest = data["move-to"]
            full = {"whose": "owner", "deck": "same", "position": "top", "face": "keep",
                    "mark": None, "control": None, **dest}
            for role in roles:
                if role != dest["game"]:
                    yield "move-to.game", dest["game"], role, {**data, "move-to": {
                        **dest, "game": role}}
            for zone in DESTINATION_ZONES:
                if zone != dest["zone"]:
                    yield "move-to.zone", dest["zone"], zone, {**data, "move-to": {
                        **dest, "zone": zone}}
            for key, values in DESTINATION_VALUES.items():
                if (key == "whose" and dest["zone"] not in PLAYER_ZONES
                        or key in ("deck", "mark") and dest["zone"] != "deck"):
                    continue
                for value in values:
                    if value != full[key]:
                        changed = {k: v for k, v in dest.items() if k != key}
                        if value is not None:
                            changed[key] = value
                        yield f"move-to.{key}", full[key], value, {**data, "move-to": changed}
        return
    action = step.action
    args = data[action]
    if not isinstance(args, dict):  # a bare role, permission or prohibition
        if args in roles:
            for role in roles:
                if role != args:
                    yield action, args, role, {action: role}
        return
    for key, value in args.items():
        if value in roles:
            for role in roles:
                if role != value:
                    yield f"{action}.{key}", value, role, {action: {**args, key: role}}
        elif isinstance(value, int) and not isinstance(value, bool):
            for number in (value - 1, value + 1):
                yield f"{action}.{key}", value, number, {action: {**args, key: number}}
        elif key == "choose":
            choice = "random" if value == "event-controller" else "event-controller"
            yield f"{action}.{key}", value, choice, {action: {**args, key: choice}}
        elif key == "stage":  # each other stage of a game's start (rule 103)
            for other in PROCEDURE_STAGES[1:]:
                if other != value:
                    yield f"{action}.{key}", value, other, {action: {**args, key: other}}


def changes(rulebook: Rulebook, name: str) -> list[tuple[Change, Rulebook]]:
    """The clause removed, then each one-parameter change of each of its steps that the
    step language accepts, each with the rulebook it makes."""
    clause = rulebook.get(name)
    out = [(Change(name, "removed"), rulebook.remove(name))]
    for index, step in enumerate(clause.steps, start=1):
        for path, old, new, data in _variants(step, clause.on):
            try:
                changed = parse_step(f"step {index}", data, clause.on)
            except LanguageError:
                continue  # not a rule the language can state
            if changed == step:
                continue
            steps = tuple(changed if i == index else s
                          for i, s in enumerate(clause.steps, start=1))
            out.append((Change(name, f"step {index} {path}", _shown(old), _shown(new)),
                        rulebook.replace(replace(clause, steps=steps))))
    return out


def _unseen(change: Change) -> str:
    """Why the model cannot see this change at all, if it cannot."""
    if change.parameter.endswith("move-to.position"):
        return UNSEEN["position"]
    if change.parameter != "removed" and " shuffle" in change.parameter:
        return UNSEEN["shuffle"]
    return ""


def protect(rulebook: Rulebook, name: str, timeout: float = 5.0, bound: int = 3,
            change: Change | None = None, changed: Rulebook | None = None) -> Protection:
    """Remove one clause (or make one change of it) and look for the first invariant that
    breaks at the clause's event."""
    clause = rulebook.get(name)
    change = change or Change(name, "removed")
    changed = changed or rulebook.remove(name)
    todo = sorted((ob for ob in obligations() if ob.event == clause.on),
                  key=lambda ob: _order(ob, name))
    unknown, fault = False, ""
    encodings = Encodings()  # one event, one rulebook: encoded once
    for ob in todo:
        result = prove(changed, ob, timeout=timeout, bound=bound, minimise_cex=False,
                       encodings=encodings)
        if result.status == Status.REFUTED:
            return Protection(name, clause.on, ob.invariant.id, "protected", change,
                              scenario=result.counterexample, trace=result.trace)
        unknown |= result.status == Status.UNKNOWN
        if result.status == Status.FAULT and not fault:
            fault = f"fault of the tool at {ob.invariant.id}: {result.reason}"
    if fault or unknown:
        return Protection(name, clause.on, None, "unknown", change,
                          fault or "the solver could not decide every obligation")
    found = difference(rulebook, changed, clause.on, timeout=2 * timeout)
    if found.status == "differs":
        return Protection(name, clause.on, None, "gap", change,
                          "the event ends differently, and no invariant notices",
                          found.scenario)
    if found.status == "same":
        unseen = _unseen(change)
        return Protection(name, clause.on, None, "unseen" if unseen else "no-effect", change,
                          unseen or f"nothing the model sees changes, {found.detail}")
    return Protection(name, clause.on, None, "unknown", change, found.detail)


def _protect_case(case: tuple[Rulebook, str, float, int, Change, Rulebook]) -> Protection:
    rulebook, name, timeout, bound, change, changed = case
    return protect(rulebook, name, timeout, bound, change, changed)


def protection(rulebook: Rulebook, timeout: float = 5.0, bound: int = 3, jobs: int = 1,
               with_changes: bool = True, only: list[str] | None = None,
               progress: Callable[[int, int, Protection], None] | None = None
               ) -> list[Protection]:
    """For every clause (or those named in `only`), its removal and, with `with_changes`,
    each change of one of its parameters: the invariant that catches it, or why nothing
    does. In the rulebook's order. `progress(done, total, found)` as each is decided."""
    cases = []
    for name in only or rulebook.names():
        for change, changed in changes(rulebook, name)[:None if with_changes else 1]:
            cases.append((rulebook, name, timeout, bound, change, changed))
    # Even one job runs in a worker process, as for `verify`: a crash of z3 costs one
    # change, not the run.
    return run_all(_protect_case, cases, max(1, jobs), _died,
                   None if progress is None else lambda done, found: progress(done, len(cases),
                                                                                found))


def _died(case: tuple[Rulebook, str, float, int, Change, Rulebook], why: str) -> Protection:
    """A worker that dies costs one change: unknown."""
    rulebook, name, _, _, change, _ = case
    return Protection(name, rulebook.get(name).on, None, "unknown", change,
                      f"the solver could not decide: {why}")


__all__ = ["Change", "Protection", "changes", "protect", "protection"]
