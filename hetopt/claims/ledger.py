"""The claims ledger: every checkable claim of every paper, its verdict and its evidence.

A :class:`Claim` records where a paper makes a statement, the paper's number, the verdict
recorded after review, a diagnosis, the bundled instances it rests on, and a ``check``
function that recomputes our number *and decides the verdict by running the experiment*:
a claim that is not reproduced gets a failing verdict only when its diagnostic experiment
(a toggle, a sweep, a counterexample) confirms the mechanism, and ``fails-unexplained``
otherwise.  The test suite asserts that every computed verdict equals the recorded one, so
a change of behaviour anywhere in the package that moves a verdict fails a test.

A :class:`Sweep` is a diagnostic experiment that shows a claim appear and vanish as a
parameter moves; it returns a :class:`~hetopt.report.Table`.
"""

from __future__ import annotations

import enum
import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..report import Table

__all__ = ["Verdict", "Outcome", "enforce", "Flip", "Claim", "Sweep", "ClaimResult", "Conformance", "ConformanceResult",
           "close_to", "ID_PATTERN"]

#: ``paperkey.location.short_name``: lowercase words of [a-z0-9_] separated by dots.
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+){2,}$")


class Verdict(enum.Enum):
    """The fixed vocabulary of verdicts."""

    REPRODUCED = "reproduced"
    """Our number matches the paper's (within the claim's stated tolerance)."""
    PAPER_ERROR = "fails-paper-error"
    """The paper's statement or number is wrong: a proof gap, a simulator bug, an arithmetic slip."""
    OUTSIDE_PREMISE = "fails-outside-premise"
    """The claim fails on an instance that violates one of its premises; the claim itself stands."""
    DEPENDS_ON_WORKLOAD = "depends-on-workload"
    """The claim holds on some workloads and fails on others; the sweep shows where it switches."""
    DEPENDS_ON_READING = "depends-on-reading"
    """The text is ambiguous; the named readings move the verdict."""
    DATA_MISSING = "not-reproducible-data-missing"
    """The paper's number rests on unpublished data (traces, measured speeds); only directions compare."""
    UNEXPLAINED = "fails-unexplained"
    """Not reproduced and no experiment confirms a mechanism (a ledger entry should never rest here)."""

    @property
    def failing(self) -> bool:
        """True for every verdict but REPRODUCED."""
        return self is not Verdict.REPRODUCED


@dataclass(frozen=True)
class Outcome:
    """What a claim's check computed.

    Attributes
    ----------
    ours : Any
        Our number (or short text) in the same units as the paper's.
    verdict : Verdict
        The verdict decided by the check (by the diagnostic experiment when not reproduced).
    detail : str
        One line of evidence (the experiment's numbers), shown by ``hetopt claims --run``.
    proxy_agrees : bool or None
        For ``not-reproducible-data-missing``: whether the proxy experiment (run on the data we
        have) points the paper's way.  The ledger refuses the verdict unless it is True.
    readings : mapping of str to Verdict, or None
        For ``depends-on-reading`` / ``depends-on-workload``: the verdict under each named reading
        (or workload the paper's text allows), every one of them run.  The ledger refuses the
        verdict unless they give at least two different verdicts.
    """

    ours: Any
    verdict: Verdict
    detail: str = ""
    proxy_agrees: bool | None = None
    readings: Mapping[str, Verdict] | None = None


def enforce(out: Outcome) -> Outcome:
    """The verdict rules of CONTRIBUTING.md applied to a computed outcome.

    - ``not-reproducible-data-missing`` only when the proxy agrees with the paper's direction
      (``proxy_agrees is True``); a proxy that points the other way, or none, is
      ``fails-unexplained``.
    - ``depends-on-reading`` / ``depends-on-workload`` only when every named reading was run and
      they give at least two different verdicts.

    Anything else passes unchanged.
    """
    v = out.verdict
    if out.proxy_agrees is not None and not isinstance(out.proxy_agrees, bool):
        out = replace(out, proxy_agrees=bool(out.proxy_agrees))  # a numpy bool from a comparison of arrays
    if v is Verdict.DATA_MISSING and out.proxy_agrees is not True:
        why = "no proxy was run" if out.proxy_agrees is None else "the proxy points against the paper's direction"
        return replace(out, verdict=Verdict.UNEXPLAINED, detail=f"{out.detail}; data-missing refused: {why}")
    if v in (Verdict.DEPENDS_ON_READING, Verdict.DEPENDS_ON_WORKLOAD):
        readings = dict(out.readings or {})
        if len(readings) < 2 or len(set(readings.values())) < 2:
            return replace(out, verdict=Verdict.UNEXPLAINED,
                           detail=f"{out.detail}; {v.value} refused: the named readings "
                                  f"({', '.join(f'{k}: {r.value}' for k, r in readings.items()) or 'none run'}) "
                                  "do not give different verdicts")
    return out


def close_to(ours: float, paper: float, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
    """``|ours - paper| <= atol + rtol * |paper|`` (False for NaN)."""
    ours, paper = float(ours), float(paper)
    if math.isnan(ours) or math.isnan(paper):
        return False
    return abs(ours - paper) <= atol + rtol * abs(paper)


@dataclass(frozen=True)
class Flip:
    """The experiment that moves a claim's verdict: what is changed, and the verdict it gives.

    A verdict that no experiment could move is not a verdict: every claim names its flip (the
    toggle, the reading, the perturbation or the sweep point), ``hetopt claims --run --id ID
    --flip`` runs it, and the test suite checks that it gives ``verdict`` (which differs from
    the claim's own).

    Attributes
    ----------
    change : str
        What the flipped experiment changes ("(9) imposed on every subset of jobs").
    verdict : Verdict
        The verdict the flipped experiment computes.
    check : callable
        ``check() -> Outcome``: the claim's experiment with the change applied.
    """

    change: str
    verdict: Verdict
    check: Callable[[], Outcome]

    def to_dict(self) -> dict[str, Any]:
        """``change`` and ``verdict`` as JSON-ready values."""
        return {"change": self.change, "verdict": self.verdict.value}


@dataclass(frozen=True)
class Claim:
    """One checkable claim of a paper.

    Attributes
    ----------
    id : str
        ``paperkey.location.short_name``, e.g. ``"wang2019.table5.ada_vs_srsf1"``.
    paper : str
        The hetopt subpackage: placement, hare, oasis, contention, hadar or gavel.
    location : str
        Where the claim is in the paper ("Section V-B, Table V").
    statement : str
        The claim as the paper states it.
    paper_value : str
        The paper's number, as printed.
    verdict : Verdict
        The recorded verdict (the test suite checks that ``check`` still computes it).
    diagnosis : str
        Why it holds or fails: the mechanism and the experiment that shows it.
    evidence : tuple of str
        Bundled instance stems (``instances/<stem>.json``) the check uses, possibly empty.
    check : callable
        ``check() -> Outcome``.
    cost : str
        ``"fast"`` (seconds; run by the default test suite) or ``"slow"``.
    sweep : str or None
        Name of the sweep (``hetopt sweep NAME``) that shows the verdict's mechanism.
    flip : Flip or None
        The experiment that moves the verdict (:class:`Flip`).
    direction : str
        For ``not-reproducible-data-missing``: the paper's direction that the proxy must agree with
        ("Hadar's total time below Gavel's"); required for that verdict (``tests/claims`` holds it).
    """

    id: str
    paper: str
    location: str
    statement: str
    paper_value: str
    verdict: Verdict
    diagnosis: str
    check: Callable[[], Outcome]
    evidence: tuple[str, ...] = ()
    cost: str = "fast"
    sweep: str | None = None
    flip: Flip | None = None
    direction: str = ""

    def __post_init__(self) -> None:
        if not ID_PATTERN.match(self.id):
            raise ValueError(f"claim id {self.id!r} is not of the form paperkey.location.short_name ([a-z0-9_] words)")
        if self.cost not in ("fast", "slow"):
            raise ValueError(f"claim {self.id}: cost is {self.cost!r}; expected 'fast' or 'slow'")
        if not isinstance(self.verdict, Verdict):
            raise ValueError(f"claim {self.id}: verdict must be a Verdict, got {self.verdict!r}")
        if isinstance(self.evidence, str):
            raise ValueError(f"claim {self.id}: evidence must be a tuple of instance names, not a string")
        if self.flip is not None and self.flip.verdict is self.verdict:
            raise ValueError(f"claim {self.id}: its flip gives the claim's own verdict {self.verdict.value}; a flip "
                             "must move the verdict")

    @property
    def command(self) -> str:
        """The shell command that reruns this claim's check."""
        return f"hetopt claims --run --id {self.id}"

    def to_dict(self) -> dict[str, Any]:
        """The claim's recorded fields and the commands that rerun it, as JSON-ready values."""
        return {"id": self.id, "paper": self.paper, "location": self.location, "statement": self.statement,
                "paper_value": self.paper_value, "verdict": self.verdict.value, "diagnosis": self.diagnosis,
                "evidence": [f"instances/{e}.json" for e in self.evidence], "command": self.command,
                "sweep": self.sweep, "sweep_command": f"hetopt sweep {self.sweep}" if self.sweep else None,
                "cost": self.cost, "direction": self.direction or None,
                "flip": self.flip.to_dict() if self.flip else None,
                "flip_command": f"{self.command} --flip" if self.flip else None}

    def run(self, *, flip: bool = False) -> ClaimResult:
        """Run the check (or, with ``flip``, the flip's experiment) and return its result.

        An exception raised by the check becomes an UNEXPLAINED outcome with the error as detail.
        """
        if flip and self.flip is None:
            raise ValueError(f"claim {self.id} has no flip")
        check = self.flip.check if flip and self.flip is not None else self.check
        t0 = time.perf_counter()
        try:
            out = check()
            if not isinstance(out, Outcome):
                raise TypeError(f"check of {self.id} returned {type(out).__name__}, expected Outcome")
            out = enforce(out)
        except Exception as exc:  # a broken check must show in the ledger, not abort the whole run
            out = Outcome(ours=None, verdict=Verdict.UNEXPLAINED, detail=f"check raised {type(exc).__name__}: {exc}")
        return ClaimResult(claim=self, outcome=out, wall_time=time.perf_counter() - t0, flipped=flip)


@dataclass(frozen=True)
class ClaimResult:
    """A claim with the outcome of its check."""

    claim: Claim
    outcome: Outcome
    wall_time: float
    flipped: bool = False

    @property
    def expected_verdict(self) -> Verdict:
        """The recorded verdict (the flip's, for a flipped run)."""
        if self.flipped and self.claim.flip is not None:
            return self.claim.flip.verdict
        return self.claim.verdict

    @property
    def verdict_changed(self) -> bool:
        """True when the computed verdict is not the recorded one."""
        return self.outcome.verdict is not self.expected_verdict

    def to_dict(self) -> dict[str, Any]:
        """The claim's fields with the computed verdict, our value, detail and wall time, as JSON-ready values."""
        d = self.claim.to_dict()
        ours = self.outcome.ours
        if isinstance(ours, float) and not math.isfinite(ours):
            ours = str(ours)
        d.update(ours=ours, computed_verdict=self.outcome.verdict.value, detail=self.outcome.detail,
                 wall_time=round(self.wall_time, 3), flipped=self.flipped)
        return d


@dataclass(frozen=True)
class Conformance:
    """A conformance check: hetopt against a fixed reference (a generator's constants, an identity, a peer's code).

    It passes or fails; it is not a claim of a paper, because nothing could move it but a defect
    of ours, so it is reported and counted apart (``hetopt claims --conformance``).

    Attributes
    ----------
    id : str
        ``paperkey.location.short_name``, like a claim's.
    paper : str
        The kind it belongs to.
    statement : str
        What must hold.
    check : callable
        ``check() -> Outcome`` whose verdict is REPRODUCED when it holds.
    reference : str
        What it is checked against ("the generator's constants", "Gavel's scheduler.py").
    """

    id: str
    paper: str
    statement: str
    check: Callable[[], Outcome]
    reference: str = ""
    cost: str = "fast"

    def __post_init__(self) -> None:
        if not ID_PATTERN.match(self.id):
            raise ValueError(f"conformance id {self.id!r} is not of the form paperkey.location.short_name")

    def run(self) -> ConformanceResult:
        """Run the check; an exception is a failure with the error as detail."""
        t0 = time.perf_counter()
        try:
            out = self.check()
        except Exception as exc:
            out = Outcome(ours=None, verdict=Verdict.UNEXPLAINED, detail=f"check raised {type(exc).__name__}: {exc}")
        return ConformanceResult(self, out, time.perf_counter() - t0)

    def to_dict(self) -> dict[str, Any]:
        """The recorded fields as JSON-ready values."""
        return {"id": self.id, "paper": self.paper, "statement": self.statement, "reference": self.reference,
                "cost": self.cost}


@dataclass(frozen=True)
class ConformanceResult:
    """A conformance check with its outcome (``ok`` when the check's verdict is REPRODUCED)."""

    check: Conformance
    outcome: Outcome
    wall_time: float

    @property
    def ok(self) -> bool:
        """True when the check held."""
        return self.outcome.verdict is Verdict.REPRODUCED

    def to_dict(self) -> dict[str, Any]:
        """The check, its outcome and its time as JSON-ready values."""
        return {**self.check.to_dict(), "ok": self.ok, "ours": self.outcome.ours, "detail": self.outcome.detail,
                "wall_time": round(self.wall_time, 3)}


@dataclass(frozen=True)
class Sweep:
    """A diagnostic experiment: a table of a claim's quantity against the parameter that moves it.

    Attributes
    ----------
    name : str
        ``paper.short_name``, the argument of ``hetopt sweep``.
    func : callable
        ``func(quick: bool = False) -> Table``; ``quick`` runs a smaller grid.
    description : str
        One line: what moves and what it shows.
    """

    name: str
    func: Callable[..., Table]
    description: str
    claims: tuple[str, ...] = field(default=())

    def run(self, quick: bool = False) -> Table:
        """Run the experiment (a smaller grid with ``quick``) and return its table."""
        return self.func(quick=quick)
