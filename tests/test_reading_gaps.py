"""Two places where the readings could part under an amendment (found by a review of the
docstrings), now the same relation: a bring-in clause that gives control to the event's
controller (the player who brings the card in, in both readings), and a clause that makes a
token a commander (only a card is one, CR 903.3, in both readings). Each is checked by
transition conformance on a concrete step, and by what the interpreter does."""

from __future__ import annotations

from shahrazad.model.amendment import parse_amendment
from shahrazad.model.interpreter import Interpreter
from shahrazad.model.rulebook import official
from shahrazad.model.scenario import parse_scenario
from shahrazad.proofs.evidence.conformance import conform

TAKE_CONTROL = '''
title = "what is brought in takes control of the subgame's battlefield"

[[add]]
after = "subgame.bring-in.leave-triggers"
name = "test.bring-in.take-control"
cr = { "2026-01-16" = "728.4" }
summary = "Test only: the bringer gains control of the subgame's battlefield."
on = "bring-in"

[[add.step]]
select = { game = "active", object = "card", zone = "battlefield" }
move-to = { game = "active", zone = "battlefield", control = "event-controller" }
'''

TOKENS_COMMAND = '''
title = "what is in the subgame becomes a commander when a card is brought in"

[[add]]
after = "subgame.bring-in.leave-triggers"
name = "test.bring-in.commanders"
cr = { "2026-01-16" = "728.4" }
summary = "Test only: every object of the subgame becomes a commander."
on = "bring-in"
step = [ { select = { game = "active" }, set = { commander = true } } ]
'''

BRING_IN = '''
players = ["Ann", "Bob"]
game = [{ id = "main" }, { id = "sub", parent = "main", created-by = "shahrazad" }]
event = [{ do = "bring-in", card = "gift", by = "Ann", to = "hand" }]
card = [
  { id = "shahrazad", owner = "Ann", at = "main/stack" },
  { id = "bear", owner = "Bob", at = "sub/battlefield" },
  { id = "gift", owner = "Ann", at = "outside/Ann" },
]
object = [{ id = "tok", kind = "token", owner = "Ann", controller = "Ann", at = "sub/battlefield" }]
'''


def _bring_in() -> tuple[object, object]:
    scenario = parse_scenario(BRING_IN, file="bring-in.toml")
    return scenario.situation, scenario.events[0]


def test_a_bring_in_clause_gives_control_to_the_bringer_in_both_readings() -> None:
    amended = parse_amendment(TAKE_CONTROL, file="take.toml").apply(official())
    before, event = _bring_in()
    after = Interpreter(amended).step(before, event).situation  # type: ignore[arg-type]
    assert after.objects["bear"].controller == "Ann"  # Bob's bear, now the bringer's
    assert conform(amended, before, event) == []  # type: ignore[arg-type]


def test_only_a_card_becomes_a_commander_in_both_readings() -> None:
    amended = parse_amendment(TOKENS_COMMAND, file="tokens.toml").apply(official())
    before, event = _bring_in()
    after = Interpreter(amended).step(before, event).situation  # type: ignore[arg-type]
    assert after.objects["bear"].commander and not after.objects["tok"].commander
    assert conform(amended, before, event) == []  # type: ignore[arg-type]
