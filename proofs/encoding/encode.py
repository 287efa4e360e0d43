"""The rulebook's steps read as z3 transition relations: the driver of one event's encoding.

`encode_event(rulebook, event, universe)` gives the symbolic transition of one event: a
pre-state, the event's parameters and preconditions (the same checks the interpreter
makes), then each step of each clause acting on that event, in rulebook order, as a
functional update of the state arrays, and the resulting post-state. Every step reads as
in `model.interpreter`; `proofs.evidence.agreement` checks the two readings against each
other on every small situation (run by `tests/test_proofs.py`).

What every step shares is `encoder.Encoder`, the bookkeeping of one event's encoding (the
states in order, constraints, parameters, the game roles bound so far, what effects must
forget). The steps themselves are cut along the rules' own seams: `events` (the rule-defined
events' parameters and preconditions), `actions` (the in-game actions), `object_steps`
(steps that select objects) and `game_steps` (steps on games, players and permissions).
Each takes the encoder first and knows nothing of this driver, which reaches them through
their tables `RULE_EVENTS`, `IN_GAME_ACTIONS` and `GAME_STEPS`: the imports run one way.

Order within zones (shuffles, top and bottom) is not part of the symbolic state: no
invariant speaks of it. Library sizes are: they are counted only in bounded universes.
"""

from __future__ import annotations

import z3
from shahrazad.model.language import Clause, Step, games_acted_on
from shahrazad.model.rulebook import Rulebook

from .actions import IN_GAME_ACTIONS
from .encoder import Encoder, Transition, Unbound, pre_state
from .events import RULE_EVENTS
from .game_steps import GAME_STEPS
from .object_steps import firing, object_step
from .symbolic import SymBinding, SymState, Universe


def run(enc: Encoder) -> Transition:
    """Encode the event: declare the pre-state and its active, live game, the event's
    parameters and preconditions (`RULE_EVENTS`, `IN_GAME_ACTIONS`), then every step of every
    clause on the event in rulebook order, and settle the effects into the post-state."""
    u = enc.u
    enc.pre = pre = pre_state(u)
    active = u.const("active", "game")
    enc.constraints += [pre.get("active", active), pre.get("live", active)]
    enc.bind("active", active)
    if enc.event in IN_GAME_ACTIONS:
        state = IN_GAME_ACTIONS[enc.event](enc, pre, active)
    else:
        state = RULE_EVENTS[enc.event](enc, pre, active)
    for clause in enc.rb.on(enc.event):
        for index, step in enumerate(clause.steps, start=1):
            state = run_step(enc, state, clause, step, f"{clause.name}#{index}")
    post = enc.settle(state).updated("post")
    binding = SymBinding(roles=dict(enc.roles), has_roles=dict(enc.bound),
                         controller=enc.params.get("controller", u.nobody),
                         exempt=enc.params.get("exempt", z3.K(u.sorts["obj"], enc.false())),
                         creator=enc.params.get("creator", u.noobj),
                         card=enc.params.get("card", u.noobj),
                         then_battlefield=enc.params.get("then", enc.false()))
    return Transition(enc.event, pre, post, binding, enc.constraints, enc.params,
                      enc.states, enc.unsupported, enc.fires)


def run_step(enc: Encoder, s: SymState, clause: Clause, step: Step, label: str) -> SymState:
    """Encode one step of a clause, after noting when it fires (`fires`). A game step on a
    game whose zones an earlier step of the event destroyed does nothing once that game is
    gone; a step that names a game role no clause bound leaves no transition at all (the
    interpreter refuses the event), and says so in `unsupported`."""
    try:
        enc.fires.setdefault(clause.name, []).append(firing(enc, s, step))
        if step.select is not None:
            return object_step(enc, s, step, label)
        after = GAME_STEPS[step.action](enc, s, step.args, label)
        if step.action == "destroy-zones":
            enc.destroyed.add(step.args["_"])
        if step.action == "end-game":
            enc.ended_a_game = True
        gone = [role for role in games_acted_on(step) if role in enc.destroyed]
        if not gone:
            return after
        # A game whose zones ceased earlier in the event is gone: the step does nothing.
        present = z3.And(*(s.get("present", enc.game_of(role)) for role in gone))
        return after.updated(after.name, **{
            a: z3.If(present, after.arrays[a], s.arrays[a])
            for a in after.arrays if after.arrays[a] is not s.arrays.get(a)})
    except Unbound as err:
        # The interpreter refuses the event (IllegalEvent): no transition exists.
        enc.constraints.append(enc.false())
        enc.unsupported.append(f"{label}: refers to the {err.role} game, which no clause "
                               "created")
        return s


def encode_event(rulebook: Rulebook, event: str, universe: Universe) -> Transition:
    """The symbolic transition of `event` under `rulebook`."""
    return run(Encoder(rulebook, universe, event))

