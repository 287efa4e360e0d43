"""The package's rooms and the imports between them, read from the source: the reader that
`tests/test_layers.py` holds every import to, and the diagram of `docs/architecture.md`.

    python tools/architecture.py          # rewrite the diagram in docs/architecture.md
    python tools/architecture.py --check  # exit 1 if the diagram is not the code's

A module's room is the longest of `ROOMS` its installed name starts with; an import is any
`import` or `from ... import` in its file, at the top, inside a function or under
TYPE_CHECKING, of another module of the package.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

# Each folder of the repository and the import name it is installed under.
FOLDERS = {"model": "shahrazad.model", "invariants": "shahrazad.invariants",
           "proofs": "shahrazad.proofs", "src/shahrazad": "shahrazad"}

# The rooms, lowest first, and what the diagram calls them: each imports only from the rooms
# before it. `shahrazad.proofs` itself (its `__init__`, which imports nothing) sits with the
# lowest of its rooms; the top-level modules (the command line, the reports, ...) come last.
ROOMS = {"shahrazad.model": "model", "shahrazad.invariants": "invariants",
         "shahrazad.proofs": "proofs.encoding", "shahrazad.proofs.encoding": "proofs.encoding",
         "shahrazad.proofs.solving": "proofs.solving",
         "shahrazad.proofs.evidence": "proofs.evidence",
         "shahrazad.proofs.verdicts": "proofs.verdicts",
         "shahrazad.proofs.analyses": "proofs.analyses", "shahrazad": "cli and reports"}
ORDER = list(dict.fromkeys(ROOMS.values()))
PROVER_ROOMS = ("encoding", "solving", "evidence", "verdicts", "analyses")


def modules() -> dict[str, Path]:
    """Every module of the package, by its installed name."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """The package's modules that `name` imports anywhere in its file, each once per
    statement, with the statement's line."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        seen = set()
        for target in targets:
            # A name imported from a module is an edge to that module.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target not in seen:
                seen.add(target)
                out.append((target, node.lineno))
    return out


def room(name: str) -> str:
    """The room of a module (see ROOMS)."""
    return ROOMS[max((p for p in ROOMS if name == p or name.startswith(p + ".")), key=len)]


def layer(name: str) -> int:
    """The place of a module's room in ORDER: imports go from a higher to a lower one."""
    return ORDER.index(room(name))


def graph() -> nx.DiGraph:
    """Every module and every import between two of them (`line`: where it is written)."""
    found = modules()
    g = nx.DiGraph()
    for name, path in found.items():
        g.add_node(name)
        for target, line in imports(name, path, set(found)):
            g.add_edge(name, target, line=line)
    return g


def diagram(g: nx.DiGraph) -> str:
    """The rooms with their modules, and an arrow wherever a module of one imports a module of
    another: a Mermaid flowchart (GitHub draws it as a picture), highest room on top."""
    arrows = {(room(a), room(b)) for a, b in g.edges if room(a) != room(b)}
    paths = modules()
    members = {r: sorted(n.removeprefix("shahrazad.").removeprefix(r + ".")
                         for n in g if room(n) == r and paths[n].name != "__init__.py")
               for r in ORDER}
    lines = ["```mermaid", "flowchart TB"]
    for r in reversed(ORDER):
        label = f"{r}<br/><small>{', '.join(members[r])}</small>"
        lines.append(f'  {_id(r)}["{label}"]')
    for a, b in sorted(arrows, key=lambda ab: (-ORDER.index(ab[0]), ORDER.index(ab[1]))):
        lines.append(f"  {_id(a)} --> {_id(b)}")
    lines.append("```")
    return "\n".join(lines) + "\n"


def _id(r: str) -> str:
    return r.replace(".", "_").replace(" ", "_")


BEGIN = "<!-- the rooms: written by tools/architecture.py -->\n"
END = "<!-- end of the rooms -->\n"


def written(text: str, g: nx.DiGraph) -> str:
    """`text` (the page) with the diagram between BEGIN and END made anew."""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return head + BEGIN + diagram(g) + END + tail


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    new = written(text, graph())
    if "--check" in argv:
        if new != text:
            print(f"{DOC}: the diagram is not the code's; run python tools/architecture.py")
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
