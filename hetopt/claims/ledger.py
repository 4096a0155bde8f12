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
from .experiment import FORBIDDEN_INPUT, Experiment, Parameter, is_collection

__all__ = ["Verdict", "Outcome", "enforce", "Flip", "Claim", "Sweep", "ClaimResult", "Conformance", "ConformanceResult",
           "close_to", "ID_PATTERN", "outside_premise"]

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
    ran : mapping of str to tuple, or None
        Values of the experiment's inputs that this run ran besides the one it was given (a
        diagnostic toggle run inside the check, the premise restored, every point of a set of
        readings), by input name.  A flip must change an input to a value the check did not run
        (``tests/claims`` holds it).
    premise : bool or None
        For ``fails-outside-premise``: whether the claim's premise holds on the instance the
        experiment ran, measured on it.  The ledger refuses the verdict unless it is False.
    inside : Verdict or None
        For ``fails-outside-premise``: the verdict of the same experiment run inside the premise.
        The ledger refuses the verdict unless it was run; when it is a failing verdict, the
        claim's verdict is that failure (the claim fails where its premise holds too).
    """

    ours: Any
    verdict: Verdict
    detail: str = ""
    proxy_agrees: bool | None = None
    readings: Mapping[str, Verdict] | None = None
    ran: Mapping[str, tuple] | None = None
    premise: bool | None = None
    inside: Verdict | None = None


def enforce(out: Outcome) -> Outcome:
    """The verdict rules of CONTRIBUTING.md applied to a computed outcome.

    - ``not-reproducible-data-missing`` only when the proxy agrees with the paper's direction
      (``proxy_agrees is True``); a proxy that points the other way, or none, is
      ``fails-unexplained``.
    - ``depends-on-reading`` / ``depends-on-workload`` only when every named reading was run and
      they give at least two different verdicts.
    - ``fails-outside-premise`` only when the premise was measured absent on the instance
      (``premise is False``) and the same experiment was run inside the premise (``inside``); when
      that one fails too, the verdict is its failure.

    Anything else passes unchanged.
    """
    if out.proxy_agrees is not None and not isinstance(out.proxy_agrees, bool):
        out = replace(out, proxy_agrees=bool(out.proxy_agrees))  # a numpy bool from a comparison of arrays
    if out.premise is not None and not isinstance(out.premise, bool):
        out = replace(out, premise=bool(out.premise))
    if out.verdict is Verdict.OUTSIDE_PREMISE:
        if out.premise is not False:
            return replace(out, verdict=Verdict.UNEXPLAINED,
                           detail=f"{out.detail}; fails-outside-premise refused: the premise was not measured absent "
                                  "on the instance")
        if out.inside is None:
            return replace(out, verdict=Verdict.UNEXPLAINED,
                           detail=f"{out.detail}; fails-outside-premise refused: the same experiment inside the "
                                  "premise was not run")
        if out.inside is not Verdict.REPRODUCED:
            inside = out.inside if out.inside is not Verdict.OUTSIDE_PREMISE else Verdict.UNEXPLAINED
            out = replace(out, verdict=inside, detail=f"{out.detail}; inside the premise it fails too "
                                                      f"({out.inside.value}): the verdict is that failure")
    v = out.verdict
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


def outside_premise(ours: Any, detail: str, inside: Outcome | Verdict, **kw: Any) -> Outcome:
    """A ``fails-outside-premise`` outcome: the premise measured absent, and the experiment's verdict inside it.

    ``inside`` is the outcome (or verdict) of the same experiment run with the premise restored;
    :func:`enforce` turns the verdict into that one when it fails too.
    """
    v = inside.verdict if isinstance(inside, Outcome) else inside
    extra = f"; inside the premise: {v.value}" + (f" ({inside.detail})" if isinstance(inside, Outcome) and inside.detail
                                                  else "")
    return Outcome(ours, Verdict.OUTSIDE_PREMISE, detail + extra, premise=False, inside=v, **kw)


@dataclass(frozen=True)
class Flip:
    """The experiment that moves a claim's verdict: which input it changes, to what, and the verdict it gives.

    A verdict that no experiment could move is not a verdict: every claim names its flip,
    ``hetopt claims --run --id ID --flip`` runs it, and the test suite checks that it gives
    ``verdict`` (which differs from the claim's own).  The flip is the claim's own experiment
    with one input changed (rule 3 of issue 30): a workload, a mechanism toggle, a parameter, a
    premise; never the set of readings, the aggregation, the bound or the verdict's threshold,
    and never to a value the check also ran.

    Attributes
    ----------
    change : str
        What the flipped experiment changes, in words ("(9) imposed on every subset of jobs").
    verdict : Verdict
        The verdict the flipped experiment computes.
    input : str
        The input of the claim's experiment that the flip changes.
    value : any
        Its value in the flip (one value, never a set of readings).
    """

    change: str
    verdict: Verdict
    input: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
        """``change``, ``verdict``, ``input`` and ``value`` as JSON-ready values."""
        return {"change": self.change, "verdict": self.verdict.value, "input": self.input,
                "value": _jsonable(self.value)}


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, bool | int | float | str):
        return v
    return repr(v)


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
    check : Experiment
        The experiment (``check() -> Outcome``); the flip is the same experiment with one input changed.
    evidence : tuple of str
        Bundled instance stems (``instances/<stem>.json``) the check uses, possibly empty.
    cost : str
        ``"fast"`` (seconds; run by the default test suite) or ``"slow"``.
    sweep : str or None
        Name of the sweep (``hetopt sweep NAME``) that shows the verdict's mechanism.
    flip : Flip or None
        The input that moves the verdict (:class:`Flip`).
    direction : str
        For ``not-reproducible-data-missing``: the paper's direction that the proxy must agree with
        ("Hadar's total time below Gavel's"); required for that verdict (``tests/claims`` holds it).
    beyond : bool
        A claim hetopt adds beyond the paper's own (an extrapolation of a printed statement past
        the sizes the paper measured): counted apart from the paper's claims in summaries.
    timed : bool
        The verdict compares measured running times (with a margin the noise cannot cross, stated
        in the diagnosis); ``tests/claims`` runs such claims under load.
    parameters : tuple of Parameter
        Where the values of the experiment's parameters come from: printed (used as printed) or a
        prior fixed before the comparison (rules 1-2 of issue 30).
    """

    id: str
    paper: str
    location: str
    statement: str
    paper_value: str
    verdict: Verdict
    diagnosis: str
    check: Experiment
    evidence: tuple[str, ...] = ()
    cost: str = "fast"
    sweep: str | None = None
    flip: Flip | None = None
    direction: str = ""
    beyond: bool = False
    timed: bool = False
    parameters: tuple[Parameter, ...] = ()

    def __post_init__(self) -> None:
        if not ID_PATTERN.match(self.id):
            raise ValueError(f"claim id {self.id!r} is not of the form paperkey.location.short_name ([a-z0-9_] words)")
        if self.cost not in ("fast", "slow"):
            raise ValueError(f"claim {self.id}: cost is {self.cost!r}; expected 'fast' or 'slow'")
        if not isinstance(self.verdict, Verdict):
            raise ValueError(f"claim {self.id}: verdict must be a Verdict, got {self.verdict!r}")
        if isinstance(self.evidence, str):
            raise ValueError(f"claim {self.id}: evidence must be a tuple of instance names, not a string")
        if not isinstance(self.check, Experiment):
            raise ValueError(f"claim {self.id}: check must be an Experiment (hetopt.claims.experiment(func, **inputs)), "
                             f"got {type(self.check).__name__}")
        values = self.check.parameters()
        for p in self.parameters:
            if p.input not in values or values[p.input] != p.value:
                raise ValueError(f"claim {self.id}: parameter {p.input} is declared {p.value!r} but the check runs "
                                 f"{values.get(p.input, 'no such input')!r}")
        if self.flip is not None:
            self._check_flip(values)

    def _check_flip(self, values: dict[str, Any]) -> None:
        """Rule 3: the flip changes one input of the check's experiment to one value the check does not run."""
        f = self.flip
        assert f is not None
        if f.verdict is self.verdict:
            raise ValueError(f"claim {self.id}: its flip gives the claim's own verdict {self.verdict.value}; a flip "
                             "must move the verdict")
        names = self.check.signature_names()
        if (names is not None and f.input not in names) or f.input not in values:
            raise ValueError(f"claim {self.id}: the flip changes {f.input!r}, which is not an input of "
                             f"{self.check.name} with a value in the check")
        bad = [w for w in FORBIDDEN_INPUT if w in f.input.lower()]
        if bad:
            raise ValueError(f"claim {self.id}: the flip changes {f.input!r}, a bound, threshold, aggregation or set of "
                             "readings; a flip changes an input of the experiment")
        if is_collection(values[f.input]) or is_collection(f.value):
            raise ValueError(f"claim {self.id}: the flip's input {f.input!r} holds a set of readings or workloads "
                             f"({values[f.input]!r} -> {f.value!r}); a flip sets one input to one value")
        if f.value == values[f.input]:
            raise ValueError(f"claim {self.id}: the flip sets {f.input} to {f.value!r}, the check's own value")

    @property
    def command(self) -> str:
        """The shell command that reruns this claim's check."""
        return f"hetopt claims --run --id {self.id}"

    @property
    def flip_check(self) -> Experiment:
        """The flip's experiment: the check's with the flip's input changed."""
        if self.flip is None:
            raise ValueError(f"claim {self.id} has no flip")
        return self.check.with_input(self.flip.input, self.flip.value)

    def flip_overlap(self, outcome: Outcome) -> str | None:
        """Why the flip reruns what the check ``outcome`` already ran (None when it does not).

        The flip's value of its input must not be among the values the check ran of that input
        (``outcome.ran``): otherwise the flip cannot disagree with the check.
        """
        if self.flip is None:
            return None
        ran = tuple((outcome.ran or {}).get(self.flip.input, ()))
        if any(self.flip.value == v for v in ran):
            return (f"the flip sets {self.flip.input} = {self.flip.value!r}, a value the check also ran "
                    f"({', '.join(map(repr, ran))})")
        return None

    @staticmethod
    def flip_subset(check: Outcome, flip: Outcome) -> str | None:
        """Why the flip's run looks like a part of the check's (None when it does not).

        When both name their readings (or workloads), a flip whose every reading is one of the
        check's, with the same verdict, reran a subset of what the check ran: it cannot disagree
        with it (issue 30, rule 3), whatever its input is called.
        """
        if not check.readings or not flip.readings:
            return None
        same = {k for k, v in flip.readings.items() if check.readings.get(k) is v}
        if same == set(flip.readings):
            return (f"every reading of the flip ({', '.join(sorted(same))}) is one of the check's with the same "
                    "verdict: the flip reran a subset of the check")
        return None

    def to_dict(self) -> dict[str, Any]:
        """The claim's recorded fields and the commands that rerun it, as JSON-ready values."""
        return {"id": self.id, "paper": self.paper, "location": self.location, "statement": self.statement,
                "paper_value": self.paper_value, "verdict": self.verdict.value, "diagnosis": self.diagnosis,
                "evidence": [f"instances/{e}.json" for e in self.evidence], "command": self.command,
                "sweep": self.sweep, "sweep_command": f"hetopt sweep {self.sweep}" if self.sweep else None,
                "cost": self.cost, "direction": self.direction or None, "beyond": self.beyond, "timed": self.timed,
                "experiment": self.check.describe(), "parameters": [p.to_dict() for p in self.parameters],
                "flip": self.flip.to_dict() if self.flip else None,
                "flip_command": f"{self.command} --flip" if self.flip else None}

    def run(self, *, flip: bool = False) -> ClaimResult:
        """Run the check (or, with ``flip``, the flip's experiment) and return its result.

        An exception raised by the check becomes an UNEXPLAINED outcome with the error as detail.
        """
        check = self.flip_check if flip else self.check
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
