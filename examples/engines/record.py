"""Record the toy engine's trace on a scenario, for `shahrazad conform`.

    python examples/engines/record.py [SCENARIO] [-o TRACE]

SCENARIO defaults to `examples/restart.nothing-else.toml` (Ann restarts the game with Karn
Liberated while she has poison and energy counters) and TRACE to
`examples/engines/toy-trace.toml`, the trace `docs/engines.md` checks. The engine runs
each event from its own situation after the event before; the trace is the scenario with
the engine's situation after each event (`[[after]]`). The same scenario gives the same
trace, byte for byte.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from shahrazad.model.scenario import load_scenario

from shahrazad.engine_kit import record_trace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def toy_engine() -> ModuleType:
    """The toy engine beside this file, loaded as a module (examples are not a package)."""
    spec = importlib.util.spec_from_file_location("toy_engine", HERE / "toy_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?",
                        default=str(ROOT / "examples" / "restart.nothing-else.toml"))
    parser.add_argument("-o", "--output", default=str(HERE / "toy-trace.toml"))
    args = parser.parse_args(argv)
    scenario = load_scenario(args.scenario)
    scenario.title = f"The toy engine's trace: {scenario.title or args.scenario}"
    fmt = "json" if args.output.endswith(".json") else "toml"
    text = record_trace(toy_engine().step, scenario, fmt)
    Path(args.output).write_text(text, encoding="utf-8")
    print(f"recorded {len(scenario.events)} event(s) of {args.scenario} in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
