"""The rules' past wordings checked: each verified against the whole catalog (all in one
pool) and diffed against the wording before it (`check_history`). The wordings themselves
are read by `model.amendment` (`load_history`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shahrazad.model.amendment import Wording


@dataclass
class Checked:
    """A wording checked: the promises it breaks (each with its counterexample's reaching
    trace), the obligations left unknown, and how it differs from the wording before."""

    wording: Wording
    broken: dict[str, Any] = field(default_factory=dict)  # invariant id -> Result (refuted)
    unknown: list[str] = field(default_factory=list)      # obligation names
    faults: list[str] = field(default_factory=list)       # obligation: the tool's fault
    kept: int = 0                                         # invariants proved at every event
    diff: list[Any] | None = None  # `semantic.EventDifference`s from the wording before


def check_history(wordings: list[Wording], timeout: float = 5.0, jobs: int = 1,
                  progress: Any = None) -> list[Checked]:
    """Verify every wording (all in one pool) and diff each against the one before it."""
    from shahrazad.proofs.solving.obligations import Status, obligations
    from shahrazad.proofs.verdicts.run import decide

    from .semantic import semantic_diff

    todo = list(obligations())
    rulebooks = [w.rulebook() for w in wordings]
    decided = decide([(rb, todo) for rb in rulebooks], timeout=timeout, jobs=jobs,
                     progress=progress)
    out = []
    for index, (wording, results) in enumerate(zip(wordings, decided, strict=True)):
        checked = Checked(wording)
        for result in results:
            inv = result.obligation.invariant.id
            if result.status == Status.REFUTED and inv not in checked.broken:
                checked.broken[inv] = result
            elif result.status == Status.UNKNOWN:
                checked.unknown.append(result.obligation.name)
            elif result.status == Status.FAULT:
                checked.faults.append(f"{result.obligation.name}: {result.reason}")
        checked.kept = len({r.obligation.invariant.id for r in results}
                           - set(checked.broken)
                           - {r.obligation.invariant.id for r in results
                              if r.status != Status.PROVED})
        if index and wordings[index - 1].rule == wording.rule:
            checked.diff = semantic_diff(rulebooks[index - 1], rulebooks[index],
                                         timeout=timeout, jobs=jobs)
        out.append(checked)
    return out
