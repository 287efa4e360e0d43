"""A run of obligations: cut into batches, handed to worker processes, answered.

`verify` and `decide` cut a run's obligations into batches (`batches`), hand them to
worker processes costliest first (`weight`, `proofs.solving.pool`) and gather the answers,
which `proofs.verdicts.prove` decides there with z3.

All of this runs in the command's own process, which never imports z3 nor the prover:
those belong to the workers (a cold `verify` of the official rules: the command's own
import 0.06 s shorter, its workers given their batches that much sooner).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from shahrazad.model.rulebook import Rulebook
from shahrazad.proofs.solving.obligations import (
    DEFAULT_BOUND,
    DEFAULT_TIMEOUT,
    Case,
    Obligation,
    Result,
    Status,
    attributes,
    changed_behind,
    conjuncts,
    obligations,
)
from shahrazad.proofs.solving.pool import run_all

if TYPE_CHECKING:
    from shahrazad.proofs.solving.cache import ResultCache


def verify(rulebook: Rulebook, only: list[str] | None = None,
           timeout: float = DEFAULT_TIMEOUT, bound: int = DEFAULT_BOUND, jobs: int = 1,
           minimise_cex: bool = True,
           progress: Callable[[int, int, Result], None] | None = None,
           events: Iterable[str] | None = None, confirm: str | None = None,
           cache: ResultCache | None = None) -> list[Result]:
    """Every obligation (of the invariants in `only`, at the events in `events`), in `jobs`
    worker processes; results in catalog order. With `confirm` (a second solver's name),
    each proof is decided again by that solver (`proofs.solving.confirm`). With `cache`, proofs
    are answered from it where they can be, and kept in it (`decide`)."""
    wanted = None if events is None else set(events)
    todo = [ob for ob in obligations(only) if wanted is None or ob.event in wanted]
    return decide([(rulebook, todo)], timeout, bound, jobs, minimise_cex, progress,
                  confirm, cache)[0]


def decide(requests: list[tuple[Rulebook, list[Obligation]]],
           timeout: float = DEFAULT_TIMEOUT, bound: int = DEFAULT_BOUND, jobs: int = 1,
           minimise_cex: bool = True,
           progress: Callable[[int, int, Result], None] | None = None,
           confirm: str | None = None, cache: ResultCache | None = None) -> list[list[Result]]:
    """The obligations of each request under its rulebook, all in one pool of `jobs` worker
    processes; for each request, its results in its order.

    With `cache` (`proofs.solving.cache`), a batch (`batches`) whose every obligation has a proof
    in the cache is answered from it, results marked `cached`; every other batch is decided
    whole, as without a cache, since an obligation's answer may depend on those decided
    before it against the same encoding (`Encodings`): the answers of a warm run are those
    of a cold one with the same obligations (docs/cache.md says when they may not be).
    Each proof decided is then kept in the cache."""
    total = sum(len(todo) for _, todo in requests)
    done: list[Result] = []

    def report(_: int, results: list[Result] | None) -> None:
        for result in results or []:
            done.append(result)
            if progress is not None:
                progress(len(done), total, result)

    keys: list[list[str]] = []
    if cache is not None:
        from shahrazad.proofs.solving.cache import Options

        options = Options(timeout, bound, minimise_cex, confirm)
        keys = [cache.keys(rulebook, todo, options) for rulebook, todo in requests]
    results: dict[tuple[int, int], Result] = {}
    # Even one job runs in a worker process: a crash of z3 then costs one batch, not the
    # run; the obligations of a batch that killed its worker twice are tried again one by
    # one, and only one that kills its worker twice again is unknown.
    where: list[list[tuple[int, int]]] = []  # each case's obligations, as (request, index)
    cases = []
    few = sum(len({group_of(ob) for ob in todo}) for _, todo in requests) < MANY_GROUPS
    for number, (rulebook, todo) in enumerate(requests):
        # Cut finely (`batches`): every group of a run of few, and a group of likely
        # refutations in any run, so that the workers share them.
        fine = {group_of(ob) for ob in todo if few or changed_behind(rulebook, ob)}
        for group in batches(list(range(len(todo))), [group_of(ob) for ob in todo], fine):
            if cache is not None:
                kept = [cache.load(keys[number][i], todo[i]) for i in group]
                if all(r is not None for r in kept):
                    answered = [r for r in kept if r is not None]
                    results.update(zip([(number, i) for i in group], answered, strict=True))
                    report(0, answered)
                    continue
            where.append([(number, i) for i in group])
            cases.append((rulebook, [todo[i] for i in group], timeout, bound, minimise_cex,
                          confirm))
    # The costliest batches first, so that no worker is left with a long one at the end.
    order = sorted(range(len(cases)), key=lambda k: -weight(cases[k][0], cases[k][1]))
    where, cases = [where[k] for k in order], [cases[k] for k in order]
    found = run_all(_prove_batch, cases, max(1, jobs), lambda case, why: None,
                    report) if cases else []
    alone: list[tuple[int, int]] = []
    for places, answers in zip(where, found, strict=True):
        if answers is None:
            alone += places
        else:
            results.update(zip(places, answers, strict=True))
    if alone:
        again = run_all(_prove_batch, [(requests[n][0], [requests[n][1][i]], timeout, bound,
                                        minimise_cex, confirm) for n, i in alone],
                        max(1, jobs), _died, report)
        results.update((place, answers[0]) for place, answers in zip(alone, again, strict=True)
                       if answers is not None)
    if cache is not None:
        from shahrazad.proofs.solving.cache import prover_changed

        # Code edited during the run (the workers import it afresh): keep nothing it proved.
        if not prover_changed():
            for (n, i), result in results.items():
                if not result.cached:
                    cache.store(keys[n][i], result)
    return [[results[(n, i)] for i in range(len(todo))] for n, (_, todo) in enumerate(requests)]


# At most this many obligations of one group (`group_of`) in a batch, which one worker decides
# against one encoding of each of their events: each event of the official rules (43 to 66
# obligations) in one batch. Against batches of at most 32 (the small events' in two, a
# restart's in three, each encoding its event again), 48 took the official rules'
# verification and a restart amendment's 5-15% less time; against 48 (each big event in two
# batches, each encoding the event), 72 took the official rules' 0.96-0.97 of the time
# (1.806 -> 1.743 s, 16 pairs, 2026-12-03). But a run of few groups then has too few
# batches to share between its workers (`amend brought-in-cards-go-back-outside`, which
# decides one event under two rulebooks: 1.73 -> 1.96 s), and where an amendment changes an
# event's clauses, that event's likely refutations (a bounded search each, minimised and
# reached) in one batch took one worker to the end (`amend libraries-copied-into-subgame`
# 2.20 -> 2.64 s). In a run of fewer than MANY_GROUPS groups, and in a group that holds a
# likely refutation (`changed_behind`), batches hold at most FINE_BATCH (issue 9).
BATCH = 72
FINE_BATCH = 48
MANY_GROUPS = 8


def group_of(ob: Obligation) -> str:
    """The group whose batches hold `ob` (`batches`): its event's, or, for an invariant that
    counts cards, the group of every such invariant, decided in universes bounded past the
    rules' numbers (`rules_bound`), whose structure hypotheses a process builds once
    (`structure_hypotheses`: 0.09 s at the official rules' bound of 8 on 2026-12-02, 0.6 s
    when the group was made)."""
    return "bounded" if ob.invariant.bounded else ob.event


def batches(items: list[int], groups: list[str],
            fine: Iterable[str] = ()) -> list[list[int]]:
    """The obligations (by index) grouped by their `group_of`, in catalog order, each group
    cut into as few batches of at most BATCH (FINE_BATCH for the `fine` groups) as can hold
    them, of sizes that differ by one at most: each batch encodes each of its events once.
    The grouping depends only on the run's obligations and rulebooks (`decide`), never on
    `--jobs`, so each obligation is decided after the same ones every time."""
    spread = set(fine)
    by_group: dict[str, list[int]] = {}
    for item, group in zip(items, groups, strict=True):
        by_group.setdefault(group, []).append(item)
    cut: list[list[int]] = []
    for group, members in by_group.items():
        most = FINE_BATCH if group in spread else BATCH
        parts = -(-len(members) // most)
        cut += [members[len(members) * k // parts:len(members) * (k + 1) // parts]
                for k in range(parts)]
    return cut


# How many times a proof an obligation is expected to cost when its rulebook changed a clause
# its invariant names (`changed_behind`): there a refutation is likely, and a refutation
# (a bounded search, the model replayed, minimised and reached) takes 0.1-0.4 s where most
# proofs take a few milliseconds (`libraries-copied-into-subgame`: its batch of five such
# refutations took 1.85 s of the run's 2.9, and began last of the four start-subgame
# batches, with the other worker idle for its last 1.1 s).
LIKELY_REFUTED = 20


# The attributes of the state that the encoder's transition of each in-game action changes
# (`proofs.encoding.actions`; `tests/test_proofs.py` compares them with the transitions). No clause
# acts on an action, so they are the same under every rulebook. A conjunct of an invariant
# that reads none of them is, after the action, a structure hypothesis term for term, and
# proved without a search (`verify.solve`); what an action's batch costs is its other
# conjuncts: on the official rules (2026-12-03, in one process) `leave` with 47 of them took
# 0.134 s, `move` and `create` with 40 each 0.097 and 0.088 s, and `counter`, `phase`, `turn`
# and `control` with 6 to 9 each 0.021 to 0.036 s, where each of the seven weighed the same
# (one per obligation), and `leave`, handed out last but one, kept one worker busy for 0.09 s
# after the other had finished.
ACTION_CHANGES: dict[str, frozenset[str]] = {
    action: frozenset(("affects", "affects_player", "exiled_with", *changed))
    for action, changed in {
        "move": ("controller", "exists", "face_up", "game", "has_counters", "phased_out",
                 "zone", "zone_deck", "zone_player"),
        "create": ("aura", "commander", "controller", "ctype", "exists", "face_up", "game",
                   "has_counters", "kind", "origin", "own_deck", "owner", "permanent_card",
                   "phased_out", "same_card", "watcher", "zone", "zone_deck", "zone_player"),
        "counter": ("counters", "has_counters"),
        "phase": ("phased_out",),
        "turn": ("face_up",),
        "leave": ("controller", "counters", "exists", "face_up", "game", "has_counters",
                  "phased_out", "plays", "zone", "zone_deck", "zone_player"),
        "control": ("controller",),
    }.items()}


def weight(rulebook: Rulebook, batch: list[Obligation]) -> int:
    """What a batch is expected to cost, for handing out the costliest first (the answers
    never depend on the order): an event of many steps takes longer to encode and to decide,
    an in-game action as long as the conjuncts it can break (ACTION_CHANGES), an invariant
    that counts cards longer still, and a likely refutation (LIKELY_REFUTED) longest."""
    return sum(_cost(rulebook, ob) * (10 if ob.invariant.bounded else 1)
               * (LIKELY_REFUTED if changed_behind(rulebook, ob) else 1) for ob in batch)


def _cost(rulebook: Rulebook, ob: Obligation) -> int:
    """An obligation's share of `weight`, before the factors of counting and of a likely
    refutation: one, and one more for each step of the event's clauses or, at an in-game
    action, two for each conjunct of the invariant that reads what the action changes."""
    changes = ACTION_CHANGES.get(ob.event)
    if changes is not None:
        return 1 + 2 * sum(1 for part in conjuncts(ob.invariant.term)
                           if attributes(part) & changes)
    return 1 + sum(len(clause.steps) for clause in rulebook.on(ob.event))




def _prove_batch(case: Case) -> list[Result]:
    """In a worker: the batch decided by the prover (`verify.prove_batch`), which this
    process never imports (nor z3 with it)."""
    from .prove import prove_batch

    return prove_batch(case)


def _died(case: Case, why: str) -> list[Result]:
    """An obligation whose worker died, tried alone, twice: unknown, never proved."""
    return [Result(ob, Status.UNKNOWN, 0.0, reason=f"the solver could not decide: {why}")
            for ob in case[1]]
