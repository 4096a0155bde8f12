"""A seventh, toy kind in a package of its own: one machine, release dates, total completion time.

Everything a paper subpackage provides, in one small module: an instance class with
``from_dict``/``to_dict``, a seeded generator, an independent checker, an exact method (enumeration
of job orders), a heuristic (release order), a simulator with a policy registry, a plot adapter,
a claims package (``CLAIMS``, ``SWEEPS``, ``CONFORMANCE``) and a benchmark.  The distribution
declares ``KIND`` in the entry-point group ``hetopt.kinds`` (``tests/plugin/pyproject.toml``):
installing it is the only step that makes it appear everywhere (``tests/test_contract.py``).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from hetopt.certify import Status
from hetopt.claims.ledger import Claim, Conformance, Flip, Outcome, Verdict
from hetopt.contract import Kind, Method
from hetopt.errors import ArgumentError, InstanceError
from hetopt.inputs import check_example, check_threads, numeric_array, rng_from, takes_instance
from hetopt.report import Table
from hetopt.result import CheckReport, SimulationResult, Solution, job_times


@dataclass(frozen=True)
class ToyInstance:
    """Jobs with a release date and a processing time on one machine."""

    release: np.ndarray
    processing: np.ndarray
    KIND: ClassVar[str] = "toy"

    def __post_init__(self) -> None:
        r = numeric_array("release", self.release)
        p = numeric_array("processing", self.processing)
        if r.shape != p.shape or r.ndim != 1 or r.size == 0:
            raise InstanceError("release and processing must be non-empty vectors of equal length")
        if (p <= 0).any() or (r < 0).any():
            raise InstanceError("processing must be > 0 and release >= 0")
        object.__setattr__(self, "release", r)
        object.__setattr__(self, "processing", p)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "toy", "schema_version": 1, "release": self.release.tolist(),
                "processing": self.processing.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToyInstance:
        from hetopt.data import check_header

        check_header(data, "toy", 1, ("release", "processing"), ("release", "processing"))
        return cls(release=data["release"], processing=data["processing"])


@dataclass(frozen=True, kw_only=True)
class ToySolution(Solution):
    order: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ToySimulation(ToySolution, SimulationResult):
    """A run of :func:`simulate`: the order of a policy and the jobs' completion times."""


def generate_instance(*, n_jobs: int = 4, seed: Any = None) -> ToyInstance:
    rng = rng_from(seed)
    return ToyInstance(release=rng.integers(0, 5, n_jobs).astype(float),
                       processing=rng.integers(1, 5, n_jobs).astype(float))


def example(*, seed: int, size: int) -> ToyInstance:
    seed, size = check_example(seed, size)
    return generate_instance(n_jobs=2 + size % 3, seed=seed)


def _total(inst: ToyInstance, order: tuple[int, ...]) -> float:
    t, total = 0.0, 0.0
    for j in order:
        t = max(t, inst.release[j]) + inst.processing[j]
        total += t
    return total


def _solution(inst: ToyInstance, order: tuple[int, ...], status: Status, t0: float, solver: str) -> ToySolution:
    obj = _total(inst, order)
    return ToySolution(status=status, objective=obj, bound=obj if status is Status.OPTIMAL else None,
                       gap=0.0 if status is Status.OPTIMAL else None, wall_time=time.perf_counter() - t0,
                       solver=solver, order=order)


@takes_instance(ToyInstance)
def solve_exact(inst: ToyInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1) -> ToySolution:
    """Enumerate every job order: exact (no gap to set) on one thread."""
    if mip_gap is not None:
        raise ArgumentError(f"mip_gap is {mip_gap!r}; the enumeration is exact: pass None")
    check_threads(threads)
    t0 = time.perf_counter()
    best = min(itertools.permutations(range(inst.release.size)), key=lambda o: _total(inst, o))
    return _solution(inst, tuple(best), Status.OPTIMAL, t0, "enumeration")


POLICIES = {"fifo": lambda inst: tuple(int(j) for j in np.argsort(inst.release, kind="stable")),
            "spt": lambda inst: tuple(int(j) for j in np.argsort(inst.processing, kind="stable"))}


@takes_instance(ToyInstance)
def simulate(inst: ToyInstance, policy: str, *, options: Mapping[str, Any] | None = None) -> ToySimulation:
    if options:
        raise ArgumentError(f"options is {options!r}; the toy's policies take no options")
    t0 = time.perf_counter()
    order = POLICIES[policy](inst)
    sol = _solution(inst, order, Status.FEASIBLE, t0, policy)
    done = np.zeros(inst.release.size)
    t = 0.0
    for j in order:
        t = max(t, inst.release[j]) + inst.processing[j]
        done[j] = t
    return ToySimulation(**{k: getattr(sol, k) for k in ("status", "objective", "wall_time", "solver", "order")},
                         policy=policy, **job_times(done, inst.release))


def check_schedule(inst: ToyInstance, sol: Any) -> CheckReport:
    order = tuple(sol.order)
    bad = [] if sorted(order) == list(range(inst.release.size)) else ["the order is not a permutation of the jobs"]
    return CheckReport.from_violations(bad, None if bad else _total(inst, order))


def gantt(inst: ToyInstance, sol: ToySolution, ax: Any = None, **options: Any) -> Any:
    import matplotlib.pyplot as plt

    ax = ax or plt.figure().add_subplot()
    t = 0.0
    for j in sol.order:
        t = max(t, inst.release[j])
        ax.barh(0, inst.processing[j], left=t, label=f"job {j}")
        t += inst.processing[j]
    ax.set_xlabel("time")
    return ax


def bench(quick: bool = False) -> list[Table]:
    inst = generate_instance(n_jobs=5, seed=0)
    t = Table("toy: exact vs fifo", ["method", "objective"])
    t.add("exact", solve_exact(inst).objective)
    t.add("fifo", simulate(inst, "fifo").objective)
    return [t]


def _fifo_is_optimal(*, spt: bool = False) -> Outcome:
    inst = ToyInstance(release=[0.0, 0.0], processing=[3.0, 1.0])
    opt = solve_exact(inst).objective
    ours = simulate(inst, "spt" if spt else "fifo").objective
    return Outcome(ours, Verdict.REPRODUCED if ours == opt else Verdict.PAPER_ERROR, f"optimum {opt}")


CLAIMS = [Claim(id="toy2026.thm1.fifo_optimal", paper="toy", location="Theorem 1",
                statement="Release order is optimal.", paper_value="FIFO = OPT", verdict=Verdict.PAPER_ERROR,
                diagnosis="Two jobs released together: the long one first is worse.",
                check=_fifo_is_optimal,
                flip=Flip("shortest processing time first", Verdict.REPRODUCED,
                          functools.partial(_fifo_is_optimal, spt=True)))]
SWEEPS: dict[str, Any] = {}
CONFORMANCE = [Conformance(id="toy2026.gen.sizes", paper="toy", statement="example sizes are 2-4 jobs",
                           check=lambda: Outcome(example(seed=0, size=1).release.size,
                                                 Verdict.REPRODUCED if example(seed=0, size=1).release.size == 3
                                                 else Verdict.UNEXPLAINED))]

KIND = Kind(
    name="toy", title="A toy single-machine problem (tests only)", instance=ToyInstance,
    generate_instance=generate_instance, example=example, check_schedule=check_schedule, solve_exact=solve_exact,
    simulate=simulate, policies=POLICIES, card="tests/plugin/README.md", plot="hetopt_toy:gantt",
    claims="hetopt_toy", bench="hetopt_toy",
    methods=(Method("exact", solve_exact, "exact", "Enumerate every job order.", "total completion time",
                    default=True),
             *(Method(name, functools.partial(simulate, policy=name), "heuristic", f"The {name} order.",
                      "total completion time") for name in POLICIES)),
)
