"""A cache of proofs: an obligation proved once is not proved again while nothing it
depends on has changed (`shahrazad verify --cache DIR`, docs/cache.md).

Deciding the catalog takes seconds to minutes, and most runs decide it again under the
same rules with the same prover. The cache keeps one small JSON file per proved obligation
in a folder, named by the obligation's **key**: the sha256 of a canonical JSON of all that
can change its answer,

* the rulebook's content (`Rulebook.as_data`, not the file it came from),
* the invariant's id and definition (`repr` of the catalog's `Invariant`, its formula
  included) and the event,
* the prover's code: every `.py` and `.toml` file of the installed `shahrazad.model`,
  `shahrazad.invariants` and `shahrazad.proofs` packages (the official rulebook among
  them), by relative path,
* z3's version, and with `--confirm` the second solver's,
* the options that can change an answer: timeout, bound, minimising, the second solver,
* the format of the files (`FORMAT`).

Only proofs are kept (`Status.PROVED`, possibilities included, and with `--confirm` only
confirmed ones, since an unconfirmed proof is unknown): a refutation is shown with a
counterexample replayed and reached afresh, and an unknown or a fault is decided again,
never remembered. A file that cannot be read, or that is not what this module writes, is
a miss, never an error; the proof decided in its place overwrites it. Files are written
whole or not at all (a temporary file renamed into place), so that two runs sharing a
folder never read half a file. A run during which the prover's code changed on disk keeps
nothing (`prover_changed`: its workers may have imported other code than the keys name).

A result answered from the cache is marked (`Result.cached`) and carries no time of this
run (its `seconds`, `solving` and `encoding` are 0; those of the run that proved it stay
in the file): a warm run is not a cold run, and the reports say how many results came
from the cache. A proof from the cache carries no witness or replay (no report shows
them for a proof). `verify.decide` answers a batch of obligations from the cache only
when every one of them is there, and decides any other batch whole, as a cold run does.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import z3
from shahrazad.model.rulebook import Rulebook

from .obligations import Confirmation, Obligation, Result, Status

FORMAT = 1  # the version of the files' format, and of the key: a new one misses every old file

# The packages whose code decides an obligation, and the kinds of file of theirs that do.
PROVER_PACKAGES = ("shahrazad.model", "shahrazad.invariants", "shahrazad.proofs")
PROVER_SUFFIXES = (".py", ".toml")

TAG = "CACHEDIR.TAG"  # marks the folder as a cache for backup tools (bford.ch/cachedir)
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This folder is a cache of shahrazad's proofs (docs/cache.md); delete it at will.\n")


class CacheError(Exception):
    """A folder that cannot hold the cache: not a folder, or not one that can be made or
    written."""


@dataclass(frozen=True)
class Options:
    """The options of a proof run that can change an answer (`--jobs` cannot: a batch of
    obligations is decided the same way in any worker)."""

    timeout: float
    bound: int
    minimise: bool
    confirm: str | None

    def as_data(self) -> dict[str, Any]:
        return {"timeout": float(self.timeout), "bound": self.bound,
                "minimise": self.minimise, "confirm": self.confirm}


def canonical(data: Any) -> str:
    """`data` as one canonical JSON text: keys sorted, no spaces."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rulebook_digest(rulebook: Rulebook) -> str:
    """The rulebook's content (its data form: title, editions, clauses; not its file)."""
    return sha256(canonical(rulebook.as_data()))


def _files(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    for entry in folder.iterdir():
        name = f"{prefix}/{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                yield from _files(entry, name)
        elif entry.name.endswith(PROVER_SUFFIXES):
            yield name, entry


def read_prover() -> str:
    """The digest of the installed prover's code as it is on disk now: each `.py` and
    `.toml` file of `PROVER_PACKAGES` (found where the package is installed, an sdist's or
    wheel's install as well as an editable one), by its path relative to the package, in
    the order of the paths."""
    found = sorted((pair for package in PROVER_PACKAGES
                    for pair in _files(resources.files(package), package)),
                   key=lambda pair: pair[0])
    lines = [f"{name}\0{hashlib.sha256(entry.read_bytes()).hexdigest()}\n"
             for name, entry in found]
    return sha256("".join(lines))


@cache
def prover_digest() -> str:
    """The digest of the prover's code (`read_prover`), read once per process."""
    return read_prover()


def prover_changed() -> bool:
    """Whether the prover's code on disk is no longer what `prover_digest` read: the
    workers, which import it afresh, may have proved with other code than the keys name."""
    return read_prover() != prover_digest()


def solver_versions(confirm: str | None) -> dict[str, str]:
    """z3's full version, and the second solver's when one confirms the proofs."""
    versions = {"z3": z3.get_full_version()}
    if confirm is not None:
        try:
            versions[confirm] = metadata.version(confirm)
        except metadata.PackageNotFoundError:
            versions[confirm] = "not installed"
    return versions


def key_data(rulebook: str, obligation: Obligation, options: Options) -> dict[str, Any]:
    """What the key of `obligation` under the rulebook whose digest is `rulebook` is made
    of (kept in the cache file too, to say what a file was made from)."""
    invariant = obligation.invariant
    return {"format": FORMAT, "rulebook": rulebook, "invariant": invariant.id,
            "definition": sha256(repr(invariant)), "event": obligation.event,
            "prover": prover_digest(), "solvers": solver_versions(options.confirm),
            "options": options.as_data()}


def key(rulebook: Rulebook, obligation: Obligation, options: Options) -> str:
    """The cache key of `obligation` under `rulebook` and `options`: a sha256, in hex."""
    return sha256(canonical(key_data(rulebook_digest(rulebook), obligation, options)))


class ResultCache:
    """A folder of proved results, one JSON file per key (`key`)."""

    def __init__(self, folder: str | Path) -> None:
        """The cache in `folder`, made (with its parents) if need be; CacheError if that
        cannot be, or if the folder cannot be written."""
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise CacheError(f"{folder}: not a folder")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CacheError(f"{folder}: cannot make the folder: {err.strerror or err}") from None
        if not os.access(self.folder, os.W_OK | os.X_OK):
            raise CacheError(f"{folder}: the folder cannot be written")
        tag = self.folder / TAG
        if not tag.exists():
            self._write(tag, TAG_TEXT)
        self._inputs: dict[str, dict[str, Any]] = {}

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def keys(self, rulebook: Rulebook, obligations: Sequence[Obligation],
             options: Options) -> list[str]:
        """The key of each obligation under `rulebook` (the rulebook read once)."""
        digest = rulebook_digest(rulebook)
        out = []
        for ob in obligations:
            data = key_data(digest, ob, options)
            name = sha256(canonical(data))
            self._inputs[name] = data
            out.append(name)
        return out

    def load(self, key: str, obligation: Obligation) -> Result | None:
        """The proof kept under `key`, as a result of `obligation` marked `cached`; None if
        there is none, or if the file is not a proof of that obligation as this module
        writes it (unreadable, truncated, another format: a miss, never an error)."""
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
            return _result(data, key, obligation)
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
            return None

    def store(self, key: str, result: Result) -> bool:
        """Keep `result` under `key` if it is a proof; whether it was written (a write
        that fails, for a full disk say, only costs the next run the proof)."""
        if result.status != Status.PROVED or result.cached:
            return False
        data = {"format": FORMAT, "key": key, "inputs": self._inputs.get(key),
                "result": _result_data(result)}
        return self._write(self.path(key), json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    def _write(self, path: Path, text: str) -> bool:
        """`text` into `path` whole or not at all: written beside it, then renamed."""
        temporary = None
        try:
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=self.folder,
                                             prefix=f".{path.name}.", suffix=".tmp",
                                             delete=False) as handle:
                temporary = handle.name
                handle.write(text)
            os.replace(temporary, path)
            return True
        except OSError:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)
            return False


def _result_data(result: Result) -> dict[str, Any]:
    c = result.confirmation
    return {"invariant": result.obligation.invariant.id, "event": result.obligation.event,
            "status": result.status.value, "bound": result.bound, "reason": result.reason,
            "notes": list(result.notes), "lemmas": list(result.lemmas),
            "seconds": result.seconds, "solving": result.solving,
            "encoding": result.encoding,
            "confirmation": None if c is None else {
                "solver": c.solver, "answer": c.answer, "seconds": c.seconds,
                "queries": c.queries, "reason": c.reason}}


def _result(data: Any, key: str, obligation: Obligation) -> Result | None:
    """The result a cache file holds, if it is a proof of `obligation` kept under `key`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != key:
        return None
    kept = data["result"]
    if (kept["invariant"], kept["event"], kept["status"]) != (
            obligation.invariant.id, obligation.event, Status.PROVED.value):
        return None
    bound, reason, notes = kept["bound"], kept["reason"], kept["notes"]
    lemmas = kept.get("lemmas", [])
    if not (bound is None or type(bound) is int) or not isinstance(reason, str) \
            or not all(isinstance(n, list) and all(isinstance(x, str) for x in n)
                       for n in (notes, lemmas)):
        return None
    confirmation = None
    if kept["confirmation"] is not None:
        c = kept["confirmation"]
        confirmation = Confirmation(str(c["solver"]), str(c["answer"]), 0.0, int(c["queries"]),
                                    str(c["reason"]))
        if not confirmation.confirmed:
            return None
    return Result(obligation, Status.PROVED, 0.0, bound=bound, reason=reason, notes=notes,
                  confirmation=confirmation, cached=True, lemmas=lemmas)
