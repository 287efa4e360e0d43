"""The structure of a situation is stated once (the catalog, read by
`invariants.structure`), and the scenario reader, which sits below the catalog, uses it
when it is handed the check."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shahrazad.invariants.catalog import CATALOG, STRUCTURE
from shahrazad.invariants.concrete import Evaluator
from shahrazad.invariants.lang import Term
from shahrazad.invariants.structure import catalog_problems, problems
from shahrazad.model.choices import SeededChooser
from shahrazad.model.errors import IllegalEvent, InputError
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import parse_scenario
from shahrazad.model.strategies import events, situations
from shahrazad.proofs.counterexample import binding_of

OUTSIDE_AMONG_OTHERS = """\
players = ["Ann", "Bob"]
[[game]]
id = "main"
[[card]]
id = "c1"
owner = "Ann"
at = "outside/Bob"
"""

TOKEN_OUTSIDE = """\
players = ["Ann"]
[[game]]
id = "main"
[[card]]
id = "c1"
owner = "Ann"
at = "main/library/Ann"
[[object]]
id = "tok"
kind = "token"
controller = "Ann"
at = "main/battlefield"
"""


def test_reader_without_a_check_reads_what_the_format_allows() -> None:
    parse_scenario(OUTSIDE_AMONG_OTHERS, file="r8.toml")


def test_reader_with_the_check_refuses_at_the_line_of_the_fault() -> None:
    with pytest.raises(InputError) as err:
        parse_scenario(OUTSIDE_AMONG_OTHERS, file="r8.toml", check=problems)
    assert err.value.file == "r8.toml" and err.value.line == 5
    assert "outside the game among Bob's cards" in str(err.value)


def test_catalog_faults_name_the_invariant_its_witness_and_its_rules() -> None:
    situation = parse_scenario(TOKEN_OUTSIDE, file="t.toml", check=problems).situation
    situation.move("tok", situation.outside("Ann"))
    found = catalog_problems(situation)
    assert found and found[0].startswith("structure.only-cards-outside [o = tok]: ")
    assert "CR 400.11" in found[0]
    assert problems(situation) == found


def test_every_structure_invariant_cites_a_rule() -> None:
    """A structural fault always says which rule makes the situation impossible; only the
    model's own sentinels (no game, no player, no object) have none."""
    missing = [inv.id for inv in STRUCTURE if not inv.rules]
    assert missing == ["structure.sentinels"]


class _Enumerating(Evaluator):
    """The plain reading of a quantifier: every combination of values, no guard read early."""

    def _quantify(self, forall: bool, variables: tuple[Term, ...], body: Term,
                  guards: Any, env: dict[str, str]) -> bool:
        results = (self.value(body, e) for e in self._envs(variables, env))
        return all(results) if forall else any(results)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_guarded_quantifiers_read_as_plain_enumeration(data: st.DataObject) -> None:
    """The concrete reader skips bindings whose guard is false; on generated situations and
    events it gives every invariant of the catalog the same truth value as enumerating every
    combination of values."""
    before = data.draw(situations(max_cards=6, max_depth=2))
    event = data.draw(events(before))
    try:
        outcome = Interpreter(official(), SeededChooser(1)).step(before, event)
    except IllegalEvent:
        return
    binding = binding_of(outcome)
    fast = Evaluator(before, outcome.situation, binding)
    plain = _Enumerating(before, outcome.situation, binding)
    for inv in CATALOG:
        if inv.kind != "possible":
            assert fast.holds(inv.term) == plain.holds(inv.term), inv.id
