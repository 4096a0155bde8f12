"""Diagnostic experiments behind the OASiS entries of the claims ledger (:mod:`hetopt.oasis.experiments.claims`).

* :func:`premise` -- whether a job satisfies the premises of the analysis: a data chunk takes
  much less than a slot (Section IV-C, before (32)) and a worker / PS takes a small share of a
  server (Appendix E, ``w_i^r << c_h^r``).
* :func:`theorem1_experiment` -- Alg. 2 against the exact optimum of (27) at zero prices, with
  the mechanism (per-slot rounding of workers, Alg. 2 line 26) shown two ways.
* :func:`theorem4_experiment` -- OPT / OASiS against 2 alpha, and the same with the exact
  oracle (27) in place of Alg. 2.
* :func:`scheme_utilities` / :func:`log_ratio_cap_sweep` -- total utility of every Fig. 3
  scheme, OASiS with the literal bounds (25)-(26), with long-double prices, and with ln(U/L)
  capped (:func:`~hetopt.oasis.prices.cap_bounds`);
* :func:`scaled_bounds` / :func:`estimate_experiment` -- Fig. 6 (estimated U/L), two readings;
* :func:`cost_t_experiment` -- COST_t (Alg. 2, lines 23-46) against brute force.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-C, Theorems 1 and 4, Section V-A.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import ArgumentError, SolverError
from ...inputs import check_choice, check_positive
from ...report import Table
from ...result import Certificate
from ..capacity import slot_capacity
from ..generator import fig5_instance, generate_instance
from ..instance import OasisInstance
from ..offline import solve_exact
from ..oracle import best_schedule, best_schedule_ilp, cost_t
from ..prices import PriceBounds, Prices, Usage, competitive_bound, price_bounds
from ..simulator import simulate
from ..validate import CLAIM_NODE_LIMIT, validate_ratio

__all__ = ["PREMISE_SHARE", "premise", "theorem1_experiment", "theorem4_experiment", "scheme_utilities",
           "log_ratio_cap_sweep", "scaled_bounds", "estimate_experiment", "cost_t_experiment", "BASELINES", "SWEEP_SETTINGS",
           "integer_chunks_variant", "ratio_at_size", "ratio_by_size_sweep"]

#: "Much less than": a chunk time and a demand share at most this fraction of a slot / a server.
PREMISE_SHARE = 0.1
#: The Fig. 3 baselines, in the paper's order.
BASELINES = ("fifo", "drf", "rrh", "dorm")
#: Instances of the ``oasis.log_ratio_cap`` sweep: (jobs, T, H = K, seeds) for quick and full runs.
SWEEP_SETTINGS = {True: (20, 30, 8, (1,)), False: (40, 60, 20, (0, 1, 2, 3))}


def _oasis(inst: OasisInstance, **options: Any) -> float:
    """Total utility of OASiS (Alg. 1) on ``inst`` with the options of :class:`~hetopt.oasis.online.OasisPolicy`."""
    return simulate(inst, "oasis", options=options).total_utility


def premise(inst: OasisInstance, job: int = 0) -> dict[str, Any]:
    """The premises of Theorem 1 (chunk time m_i << 1 slot) and Theorem 4 (w << c, s << c).

    Parameters
    ----------
    inst : OasisInstance
    job : int
        The job whose premises are measured.

    Returns
    -------
    dict
        ``chunk_time`` m_i, ``demand_share`` the largest w_i^r / c_h^r or s_i^r / c_k^r over
        servers and resources the job uses, and ``holds`` (both at most :data:`PREMISE_SHARE`).
    """
    m = float(inst.chunk_time[job])
    shares = []
    for dem, cap in ((inst.worker_demand[job], inst.worker_capacity), (inst.ps_demand[job], inst.ps_capacity)):
        pos = dem > 0
        with np.errstate(divide="ignore"):
            shares.append(float(np.max(np.where(cap[:, pos] > 0, dem[pos] / np.where(cap[:, pos] > 0, cap[:, pos], 1), np.inf)))
                          if pos.any() else 0.0)
    share = max(shares)
    return {"chunk_time": m, "demand_share": share, "holds": m <= PREMISE_SHARE and share <= PREMISE_SHARE}


def integer_chunks_variant(inst: OasisInstance, job: int) -> OasisInstance:
    """The instance with chunk time m' = 1 / ceil(1 / m) (a worker trains a whole number of chunks a slot)."""
    d = inst.to_dict()
    m = float(inst.chunk_time[job])
    target = 1.0 / math.ceil(1.0 / m - 1e-9)
    d["minibatch_time"][job] = target / int(inst.minibatches[job]) - 2.0 * float(inst.gradient_size[job]) / float(inst.worker_bandwidth[job])
    if d["minibatch_time"][job] <= 0:  # communication alone exceeds m': drop it
        d["gradient_size"][job] = 0.0
        d["minibatch_time"][job] = target / int(inst.minibatches[job])
    return OasisInstance.from_dict(d)


def theorem1_experiment(inst: OasisInstance, job: int = 0) -> dict[str, Any]:
    """Theorem 1 at zero prices: Alg. 2's payoff against the optimum of (27), and why they differ.

    Parameters
    ----------
    inst : OasisInstance
    job : int
        The job whose oracle problem (27) is solved.

    Returns
    -------
    dict
        ``dp``, ``ilp`` payoffs and completion slots; ``fails`` (dp < ilp); ``rounding_loss``:
        the ILP's schedule trains ``sum_t floor(y(t) / m)`` < E N chunks when each slot is
        rounded as in Alg. 2 line 26, i.e. the ILP's deadline is out of Alg. 2's reach;
        ``integer_variant_equal``: with m' = 1 / ceil(1 / m) Alg. 2 reaches the optimum of (27);
        ``premise``: :func:`premise`.
    """
    z = Prices.zeros(inst)
    dp, ilp = best_schedule(inst, job, z), best_schedule_ilp(inst, job, z)
    if dp.schedule is None or ilp.schedule is None:
        raise ArgumentError(f"job {job} has no feasible schedule on the empty cluster; Theorem 1 compares two schedules")
    m, D = float(inst.chunk_time[job]), int(inst.epochs[job] * inst.chunks[job])
    per_slot = ilp.schedule.workers.sum(axis=0)
    floored = int(np.floor(per_slot / m * (1 + 1e-9)).sum())
    var = integer_chunks_variant(inst, job)
    zv = Prices.zeros(var)
    dpv, ilpv = best_schedule(var, job, zv).payoff, best_schedule_ilp(var, job, zv).payoff
    return {"dp": dp.payoff, "ilp": ilp.payoff, "dp_completion": dp.schedule.completion,
            "ilp_completion": ilp.schedule.completion, "fails": dp.payoff < ilp.payoff - 1e-9,
            "ilp_chunks_when_rounded": floored, "workload_chunks": D, "rounding_loss": floored < D,
            "integer_variant_equal": math.isclose(dpv, ilpv, rel_tol=1e-9, abs_tol=1e-9),
            "premise": premise(inst, job)}


def theorem4_experiment(inst: OasisInstance) -> dict[str, Any]:
    """Theorem 4: OPT / OASiS against 2 alpha, with Alg. 2 and with the exact oracle (27).

    The offline optimum must be certified (the instances used here are tiny).

    Parameters
    ----------
    inst : OasisInstance

    Returns
    -------
    dict
        ``opt``, ``oasis``, ``ratio``, ``limit`` (2 alpha), ``violated``, ``oasis_exact_oracle``,
        ``ratio_exact_oracle`` and ``premise`` (:func:`premise`).

    Raises
    ------
    SolverError
        When the offline optimum is not certified.
    """
    off = solve_exact(inst)
    if off.status.value != "optimal":
        raise SolverError(f"offline optimum not certified ({off.status.value})")
    limit = competitive_bound(inst)

    def ratio(v: float) -> float:
        return off.total_utility / v if v > 0 else (1.0 if off.total_utility <= 1e-9 else math.inf)

    on = _oasis(inst)
    exact = _oasis(inst, oracle=best_schedule_ilp)
    return {"opt": off.total_utility, "oasis": on, "ratio": ratio(on), "limit": limit,
            "violated": ratio(on) > limit, "oasis_exact_oracle": exact,
            "ratio_exact_oracle": ratio(exact), "premise": premise(inst)}


def scheme_utilities(inst: OasisInstance, caps: Sequence[float | None] = (None,), *, long_double: bool = False,
                     baselines: Sequence[str] = BASELINES) -> dict[str, float]:
    """Total utility of the baselines and of OASiS at each cap (key ``oasis`` for None, ``oasis@<cap>``).

    Parameters
    ----------
    inst : OasisInstance
    caps : sequence of float or None
        Caps on ln(U/L) (None: the literal (25)-(26)).
    long_double : bool
        Add ``oasis_longdouble``: the literal bounds with prices in ``np.longdouble``.
    baselines : sequence of str
        Names of :data:`~hetopt.oasis.POLICIES` other than ``"oasis"``.

    Returns
    -------
    dict str -> float
    """
    out = {name: simulate(inst, name).total_utility for name in baselines}
    for cap in caps:
        out["oasis" if cap is None else f"oasis@{cap:g}"] = _oasis(inst, log_ratio_cap=cap)
    if long_double:
        out["oasis_longdouble"] = _oasis(inst, price_dtype=np.longdouble)
    return out


def log_ratio_cap_sweep(quick: bool = False) -> Table:
    """Total utility of OASiS (against the cap on ln(U/L)) and of FIFO, DRF, RRH, Dorm (Fig. 3 setting).

    Rows: per instance, one row per cap ("none" = the literal (25)-(26)); the baselines do not
    depend on the cap and are repeated on every row.  Quick: one 20-job instance (T = 30,
    H = K = 8); full: four 40-job instances (T = 60, H = K = 20).

    Parameters
    ----------
    quick : bool

    Returns
    -------
    Table
    """
    n, T, S, seeds = SWEEP_SETTINGS[bool(quick)]
    caps: list[float | None] = [None, 10.0, 15.0, 20.0] if quick else [None, 5.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0]
    t = Table(f"OASiS total utility against a cap on ln(U/L); {n} jobs, T = {T}, H = K = {S} (Section V-A generator)",
              ["seed", "cap", "ln(U/L) used", "oasis", *BASELINES, "best"])
    for seed in seeds:
        inst = generate_instance(n_jobs=n, horizon=T, n_worker_servers=S, n_ps_servers=S, seed=seed)
        base = {name: simulate(inst, name).total_utility for name in BASELINES}
        literal = price_bounds(inst)
        top = max(float(np.max(literal.log_U1 - literal.log_L1)), float(np.max(literal.log_U2 - literal.log_L2)))
        for cap in caps:
            u = _oasis(inst, log_ratio_cap=cap)
            every = {"oasis": u, **base}
            best = max(every, key=lambda k: every[k])
            t.add(seed, "none" if cap is None else cap, top if cap is None else min(top, cap), u,
                  *[base[b] for b in BASELINES], best)
    t.notes.append("cap none = the literal (25)-(26): prices stay ~0 until a server is ~99% full; the cap keeps the "
                   "largest U and raises L to U / e^cap (hetopt.oasis.prices.cap_bounds)")
    return t


def scaled_bounds(inst: OasisInstance, fraction: float, log_ratio_cap: float | None = None,
                  reading: str = "ratio") -> PriceBounds:
    """Estimated bounds for Fig. 6: U/L at ``fraction`` of the value of ``price_bounds(inst, log_ratio_cap)``.

    ``reading="ratio"``: U/L itself is scaled (U times ``fraction``, L kept), as
    :func:`~hetopt.oasis.prices.estimated_bounds` and the paper's "percentages of their actual
    values" of U/L; ``reading="log"``: ln(U/L) is scaled.  A U below L is kept at L; ln U is
    clipped at 700 (exp(700) ~ 1e304, a price no job pays) so that no price overflows.

    Parameters
    ----------
    inst : OasisInstance
    fraction : float
        The estimate as a fraction of the true value (> 0).
    log_ratio_cap : float, optional
        Cap on ln(U/L) of the true bounds.
    reading : {"ratio", "log"}

    Returns
    -------
    PriceBounds
    """
    fraction = check_positive(fraction, "fraction")
    check_choice(reading, "reading", ("ratio", "log"))
    b = price_bounds(inst, log_ratio_cap=log_ratio_cap)

    def scale(lu: np.ndarray, ll: float) -> np.ndarray:
        new = lu + math.log(fraction) if reading == "ratio" else ll + fraction * (lu - ll)
        return np.minimum(np.where(lu > ll, np.maximum(new, ll), lu), max(700.0, ll))

    return PriceBounds(scale(b.log_U1, b.log_L1), scale(b.log_U2, b.log_L2), b.log_L1, b.log_L2, b.eta1, b.eta2)


def estimate_experiment(inst: OasisInstance, fractions: Sequence[float] = (0.5, 2.0), log_ratio_cap: float | None = None,
                        readings: Sequence[str] = ("ratio", "log")) -> dict[str, dict[float, float]]:
    """Fig. 6: OASiS's total utility with U/L estimated at ``fractions`` of the true value, per reading.

    Parameters
    ----------
    inst : OasisInstance
    fractions : sequence of float
    log_ratio_cap : float, optional
    readings : sequence of str
        ``"ratio"`` and / or ``"log"`` (:func:`scaled_bounds`).

    Returns
    -------
    dict str -> dict float -> float
        Total utility per reading and fraction.
    """
    return {r: {f: _oasis(inst, estimates=scaled_bounds(inst, f, log_ratio_cap, r)) for f in fractions}
            for r in readings}


def _min_fill_cost(unit: np.ndarray, cap: np.ndarray, total: int) -> float:
    """Brute force: least sum_h unit_h n_h over integer 0 <= n_h <= cap_h with sum n_h = total (inf if none)."""
    best = math.inf
    for combo in itertools.product(*[range(int(c) + 1) for c in cap]):
        if sum(combo) == total:
            best = min(best, float(np.dot(unit, combo)))
    return best


def cost_t_experiment(seeds: Sequence[int] = (0, 1, 2), servers: int = 3, price_low: float = 0.0) -> dict[str, Any]:
    """Theorem 1's second half: the greedy COST_t (Alg. 2, lines 23-46) solves problem (32) optimally.

    For random prices and residual capacities, the greedy cost of every worker count n of one
    slot is compared with brute force over all placements of n workers and of every feasible
    PS count (b_i n <= B_i z <= B_i n, (6)-(7)).

    Parameters
    ----------
    seeds : sequence of int
    servers : int
        H = K.
    price_low : float
        Prices are drawn from [price_low, 1]; (22) gives non-negative prices (0), a negative
        value leaves the premise of the greedy (the fewest PSs are the cheapest).

    Returns
    -------
    dict
        ``cases`` compared, ``max_gap`` the largest |greedy - brute force| and ``mismatch`` the
        cases where exactly one of them is feasible.
    """
    cases, gap, mismatch = 0, 0.0, 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        inst = generate_instance(n_jobs=2, horizon=3, n_worker_servers=servers, n_ps_servers=servers, seed=seed,
                                 epochs_range=(2, 5), chunks_range=(2, 5))
        w, sd, N = inst.worker_demand[0], inst.ps_demand[0], int(inst.chunks[0])
        ratio = float(inst.worker_bandwidth[0] / inst.ps_bandwidth[0])
        used = Usage.empty(inst)
        used.g[:] = rng.uniform(0, 0.9, used.g.shape) * inst.worker_capacity[None]
        used.v[:] = rng.uniform(0, 0.9, used.v.shape) * inst.ps_capacity[None]
        prices = Prices(rng.uniform(price_low, 1, used.g.shape), rng.uniform(price_low, 1, used.v.shape))
        for t in range(1, inst.horizon + 1):
            greedy = cost_t(inst, 0, t, prices, used)
            capw = np.minimum(slot_capacity(inst.worker_capacity - used.g[t - 1], w), N)
            capz = np.minimum(slot_capacity(inst.ps_capacity - used.v[t - 1], sd), N)
            cw, cz = prices.p[t - 1] @ w, prices.q[t - 1] @ sd
            for n in range(N + 1):
                w_cost = _min_fill_cost(cw, capw, n)
                z_cost = min((_min_fill_cost(cz, capz, k) for k in range(n + 1) if ratio * n <= k * (1 + 1e-9)),
                             default=math.inf)
                brute = w_cost + z_cost
                cases += 1
                if (n in greedy) != math.isfinite(brute):
                    mismatch += 1
                elif n in greedy:
                    gap = max(gap, abs(greedy[n] - brute))
    return {"cases": cases, "max_gap": gap, "mismatch": mismatch}


@functools.cache
def ratio_at_size(n_jobs: int, *, seed: int) -> Certificate:
    """OPT / OASiS (:func:`~hetopt.oasis.validate.validate_ratio`) on the Fig. 5 setting with ``n_jobs`` jobs.

    T = 10, 20 + 20 servers, gamma1 in [1, 100], E_i in [5, 20], every size passed explicitly.  The
    offline MILPs run with no time limit and at most ``CLAIM_NODE_LIMIT`` branch-and-bound nodes each
    (deterministic: the certificate does not depend on the machine's load).  Cached per process (the
    claim and its flip, and the sweep, share the optima).
    """
    inst = fig5_instance(seed=seed, n_servers=40, priority_range=(1.0, 100.0), n_jobs=n_jobs, horizon=10,
                         epochs_range=(5, 20))
    return validate_ratio(inst, time_limit=None, node_limit=CLAIM_NODE_LIMIT)


def ratio_by_size_sweep(quick: bool = False) -> Table:
    """Certified OPT / OASiS against the number of jobs (Fig. 5 setting; quick: 10 and 20 jobs, seeds 0-1).

    Parameters
    ----------
    quick : bool

    Returns
    -------
    Table
    """
    sizes, seeds = ((10, 20), (0, 1)) if quick else ((10, 20, 30), (0, 1, 2))
    t = Table("OPT / OASiS against the number of jobs (T = 10, 20 + 20 servers, gamma1 in [1, 100], E in [5, 20])",
              ["jobs", "seed", "OPT", "OASiS", "OPT / OASiS", "reference", "2 alpha"])
    for n in sizes:
        for s in seeds:
            c = ratio_at_size(n, seed=s)
            t.add(n, s, c.reference, c.value, c.ratio, c.info["reference_kind"], c.limit)
    t.notes.append("the paper's Fig. 5 stops at 10 jobs (its offline optimum took 2 days); the optima here are "
                   f"certified by solve_exact (OPTIMAL) within {CLAIM_NODE_LIMIT:,} branch-and-bound nodes per MILP")
    return t


#: Fig. 4's schemes: OASiS under the paper's literal bounds and with ln(U/L) capped at 15 (its two
#: readings), and the four baselines.
FIG4_SCHEMES = ("oasis", "oasis@15", "fifo", "drf", "rrh", "dorm")


@functools.cache
def fig4_timeliness(n_per_class: int = 100, *, seed: int = 0) -> dict[str, dict[str, tuple[float, int]]]:
    """Per scheme and class: (mean |completion - gamma3| of the completed jobs, their number).

    Fig. 4's setting (T = 100, H = K = 50) with ``n_per_class`` jobs of each class
    (``"sensitive"``, ``"critical"``).
    """
    from .figures import fig4_data

    data = fig4_data(n_per_class, seed=seed, schemes=list(FIG4_SCHEMES))
    return {s: {c: (float(np.mean(np.abs(a))) if len(a) else math.inf, int(len(a))) for c, a in v.items()}
            for s, v in data.items()}


def fig4_load_sweep(quick: bool = False) -> Table:
    """Fig. 4: mean |completion - gamma3| per scheme and class against the number of jobs per class."""
    loads = (50, 100) if quick else (25, 50, 100)
    t = Table("oasis: Fig. 4 timeliness, mean |completion - gamma3| of completed jobs (T = 100, H = K = 50, seed 0)",
              ["jobs per class", "scheme", "sensitive", "completed", "critical", "completed"])
    for n in loads:
        for s, v in fig4_timeliness(n).items():
            t.add(n, s, v["sensitive"][0], v["sensitive"][1], v["critical"][0], v["critical"][1])
    t.notes.append("oasis@15: OASiS with ln(U/L) capped at 15 (estimated U/L, Section IV-B). The paper prints "
                   "100 + 100 jobs; Section V-A varies the arrival rates.")
    return t
