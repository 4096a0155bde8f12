"""Claims of Gavel (Narayanan et al., OSDI 2020) about its allocation policies, checked against its code.

Paper key ``gavel2021``.  Water filling's Pareto improvement is a claim; hetopt's policy LPs
against an independent LP on Gavel's equations (scipy's linprog, :mod:`hetopt.gavel.experiments.checks`)
are solver-versus-solver checks, so they are conformance checks (issue 30), as are hetopt's former
defects of issue 10 measured against Gavel's code (:mod:`hetopt.gavel.experiments.conformance`).
The mechanism's claims (:mod:`hetopt.gavel.experiments.mechanism`) and the end-to-end claims of the
paper's evaluation on Gavel's bundled traces (:mod:`hetopt.gavel.experiments.evaluation`) are
appended here.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from ...claims.experiment import experiment
from ...claims.ledger import Claim, Conformance, Flip, Outcome, Sweep, Verdict, close_to, outside_premise
from ...report import Table
from .checks import (
    HAND_EXAMPLE,
    gavel_mmf_optimum,
    makespan_lp_hours,
    max_sum_optimum,
    random_policy_instance,
    trace_instance,
    unscaled_makespan,
)
from .conformance import reading_gaps

__all__ = ["CLAIMS", "SWEEPS"]

P = "gavel"
R, UNEXP, OUTSIDE = Verdict.REPRODUCED, Verdict.UNEXPLAINED, Verdict.OUTSIDE_PREMISE
#: Sizes (J, R) of the random instances of the max-min fairness claims.
SIZES = ((1, 1), (2, 2), (3, 4), (6, 3), (12, 2), (30, 4))
RTOL = 1e-6


def _mmf_grid(normalization: str):
    from .. import max_min_fairness, max_min_fairness_objective

    worst, n = 0.0, 0
    for J, Rr in SIZES:
        for contention in ("low", "high"):
            for seed in (0, 1):
                T, s, c = random_policy_instance(J, Rr, contention, seed=seed)
                w = np.random.default_rng(seed).uniform(0.5, 2.0, size=J) if seed else None
                X = max_min_fairness(T, s, c, w, normalization=normalization)
                ours = max_min_fairness_objective(X, T, s, c, w)
                ref = gavel_mmf_optimum(T, s, c, w)
                worst = max(worst, abs(ours - ref) / abs(ref))
                n += 1
    return worst, n


def check_mmf_reaches_gavel(normalization: str = "gavel") -> Outcome:
    """The max-min fairness allocation (``normalization``) on Gavel's objective against the independent LP."""
    worst, n = _mmf_grid(normalization)
    v = R if worst <= RTOL else UNEXP
    return Outcome(f"{worst:.1e}", v, f"normalization={normalization!r}: largest relative gap to Gavel's optimum over "
                                      f"{n} random instances (J up to 30, R up to 4, low and high contention, with and "
                                      "without weights)")


def check_hand_example(normalization: str = "gavel") -> Outcome:
    from .. import max_min_fairness, max_min_fairness_objective

    T, s, c = HAND_EXAMPLE
    ours = max_min_fairness_objective(max_min_fairness(T, s, c, normalization=normalization), T, s, c)
    ref = gavel_mmf_optimum(T, s, c)
    ok = close_to(ours, 4 / 3, rtol=RTOL) and close_to(ref, 4 / 3, rtol=RTOL)
    return Outcome(round(ours, 6), R if ok else UNEXP,
                   f"normalization={normalization!r} scores {ours:.6f} on Gavel's objective; independent LP of "
                   f"Gavel's equations: {ref:.6f}")


def check_max_sum(agnostic: bool = False) -> Outcome:
    """Sum of throughputs of hetopt's max-sum allocation against the independent LP.

    ``agnostic``: the allocation is solved with every throughput 1 (heterogeneity-agnostic) and
    evaluated on the real throughputs.
    """
    from .. import max_sum_throughput

    worst = 0.0
    for J, Rr in SIZES:
        for contention in ("low", "high"):
            T, s, c = random_policy_instance(J, Rr, contention, seed=0)
            for k in (1.0, 1e6):
                seen = np.where(T > 0, 1.0, 0.0) if agnostic else T
                ours = float(np.sum(T * max_sum_throughput(seen * k, s, c)))
                worst = max(worst, abs(ours - max_sum_optimum(T, s, c)) / max_sum_optimum(T, s, c))
    return Outcome(f"{worst:.1e}", R if worst <= RTOL else UNEXP,
                   f"{'agnostic (every throughput 1) ' if agnostic else ''}largest relative gap to "
                   "ThroughputSumWithPerf's optimum, throughputs x1 and x1e6")


def check_trace_makespan(formulation: str = "scaled") -> Outcome:
    """The min-total-duration makespan on Hadar's 480-job trace against an independently scaled LP.

    ``formulation``: ``"scaled"`` (hetopt's LP, per-job units, certified) or ``"unscaled"`` (hetopt's
    former LP, ``max z = 1/M`` with raw step counts; the makespan of its allocation recomputed).
    """
    from .. import solve_min_total_duration

    T, s, c, steps = trace_instance()
    ref = makespan_lp_hours(T, s, c, steps)
    if formulation == "scaled":
        r = solve_min_total_duration(T, s, c, steps)
        made, gap = r.makespan, r.gap
        big = solve_min_total_duration(T, s, c, steps * 1e6).makespan
    else:
        lp, made = unscaled_makespan(T, s, c, steps)
        gap = abs(made - lp) / made
        big = unscaled_makespan(T, s, c, steps * 1e6)[1]
    ok = close_to(made, ref, rtol=RTOL) and gap <= RTOL and close_to(big, 1e6 * made, rtol=RTOL)
    return Outcome(round(made / 3600, 2), R if ok else UNEXP,
                   f"{formulation} LP: {made / 3600:.2f} h; independent LP in hours {ref / 3600:.4f} h; recomputed vs "
                   f"LP gap {gap:.1e}; steps x1e6 -> {big / made:.6e} x the makespan")


def _normalized(T, s, c, X) -> np.ndarray:
    """Each job's normalized throughput on Gavel's objective (``s_j T_j . X_j / T_j . X^prop_j``)."""
    from ..lp import gavel_proportional_throughput

    return np.asarray(s, float) * np.sum(T * X, axis=1) / np.ravel(gavel_proportional_throughput(T, c))


WF_SEEDS = range(4)


def _wf_instance(seed: int, jobs: str):
    """An uncontended 8-job, 3-type random cluster; ``jobs="identical"``: its first job copied eight times."""
    T, s, c = random_policy_instance(8, 3, "low", seed=seed)
    if jobs == "identical":
        T, s = np.repeat(T[:1], 8, axis=0), np.repeat(s[:1], 8)
    elif jobs != "random":
        raise ValueError(f"jobs is {jobs!r}; expected 'random' or 'identical'")
    return T, s, c


def _raisable(T, s, c, level) -> float:
    """The premise of water filling, measured: the largest sum of normalized throughputs with no job below ``level``.

    Returned over ``level.sum()`` (1: no job can be raised without lowering another; scipy's linprog
    on Gavel's normalized coefficients, independent of the policy's code).
    """
    from ..lp import gavel_proportional_throughput

    T, s, c = np.asarray(T, float), np.asarray(s, float), np.asarray(c, float)
    J, R = T.shape
    coef = (s[:, None] * T) / np.ravel(gavel_proportional_throughput(T, c))[:, None]
    A, b = [], []
    for j in range(J):  # sum_r X_jr <= 1, and the job keeps its level
        row = np.zeros(J * R)
        row[j * R:(j + 1) * R] = 1.0
        A.append(row)
        b.append(1.0)
        row = np.zeros(J * R)
        row[j * R:(j + 1) * R] = -coef[j]
        A.append(row)
        b.append(-level[j] * (1 - 1e-6))
    for r in range(R):
        row = np.zeros(J * R)
        row[r::R] = s
        A.append(row)
        b.append(c[r])
    res = linprog(-coef.ravel(), A_ub=np.array(A), b_ub=np.array(b), bounds=[(0, None)] * (J * R), method="highs")
    if res.status != 0:
        raise RuntimeError(f"premise LP failed: {res.message}")
    return float(-res.fun / level.sum())


def check_water_filling(bottleneck_solver: str | None = "highs", jobs: str = "random") -> Outcome:
    """Water filling against one max-min LP on four uncontended 8-job clusters (Pareto improvement).

    Passes when on every instance no job's normalized throughput falls below its level after the
    first LP (1e-4) and some job is raised above it (0.1 %).  The first LP is water filling with
    the bottleneck MILP skipped (``bottleneck_solver=None``: Gavel's released configuration, whose
    MILP needs GLPK_MI).  ``jobs="identical"`` (the flip): eight copies of one job, where the
    premise (some job can be raised without lowering another) is absent, measured by an LP.
    """
    from .. import max_min_fairness_water_filling

    raised, lowered, gains, room = [], 0, [], []
    for seed in WF_SEEDS:
        T, s, c = _wf_instance(seed, jobs)
        first = _normalized(T, s, c, max_min_fairness_water_filling(T, s, c, bottleneck_solver=None))
        wf = first if bottleneck_solver is None else _normalized(
            T, s, c, max_min_fairness_water_filling(T, s, c, bottleneck_solver=bottleneck_solver))
        lowered += int(np.sum(wf < first * (1 - 1e-4)))
        raised.append(int(np.sum(wf > first * (1 + 1e-3))))
        gains.append(wf.sum() / first.sum())
        room.append(_raisable(T, s, c, first))
    ours = f"{sum(raised)}/{8 * len(raised)} raised"
    detail = (f"bottleneck_solver={bottleneck_solver!r}, {jobs} jobs: jobs raised above the first LP's level per "
              f"instance {raised} of 8, lowered {lowered}; sum of normalized throughputs x{min(gains):.2f}-"
              f"{max(gains):.2f}; largest sum with no job lowered x{min(room):.3f}-{max(room):.3f} (LP)")
    ran = {"bottleneck_solver": (None,)}  # the first LP is water filling without the MILP
    if lowered == 0 and min(raised) > 0:
        return Outcome(ours, R, detail, ran=ran)
    if max(room) <= 1 + 1e-3:  # the premise, measured: no job can be raised without lowering another
        return outside_premise(ours, detail + "; no job can be raised on these clusters",
                               check_water_filling(bottleneck_solver, "random"), ran=ran)
    return Outcome(ours, UNEXP, detail, ran=ran)


def sweep_normalization(quick: bool = False) -> Table:
    """Contention from every job contended to 4-12x the demand: the isolated reading's loss on Gavel's objective."""
    t = Table("gavel: isolated reading of max-min fairness on Gavel's objective (1 = Gavel's optimum)",
              ["contention", "instances", "mean ratio", "min ratio", "instances below 0.999"])
    seeds = range(4) if quick else range(16)
    for contention in ("contended", "high", "low"):
        g = reading_gaps(contention, seeds)
        t.add(contention, len(g), float(g.mean()), float(g.min()), int(np.sum(g < 0.999)))
    return t


def sweep_makespan_scaling(quick: bool = False) -> Table:
    """Step counts x 10^k: the former unscaled LP drifts from the optimum, the scaled one stays exact."""
    from .. import solve_min_total_duration

    T, s, c, steps = trace_instance()
    t = Table("gavel: min-total-duration on the 480-job trace with step counts x 10^k",
              ["k", "max steps", "optimum / 10^k (h)", "scaled LP / optimum", "unscaled LP / optimum"])
    opt = makespan_lp_hours(T, s, c, steps)
    for k in ((-6, 0) if quick else (-6, -4, -2, 0, 2, 4)):
        st = steps * 10.0 ** k
        ours = solve_min_total_duration(T, s, c, st).makespan
        old = unscaled_makespan(T, s, c, st)[1]
        ref = opt * 10.0 ** k
        t.add(k, float(st.max()), ref / 10.0 ** k / 3600, ours / ref, old / ref)
    return t


def _c(short, location, statement, paper_value, verdict, diagnosis, check, **kw):
    return Claim(id=f"gavel2021.{short}", paper=P, location=location, statement=statement, paper_value=paper_value,
                 verdict=verdict, diagnosis=diagnosis, check=check, **kw)


CLAIMS: list[Claim] = [
    _c("sec4.water_filling_pareto", "Section 4 (hierarchical policies: water filling); "
       "scheduler/policies/max_min_fairness_water_filling.py",
       "Water filling makes max-min fairness Pareto-efficient: after the bottlenecked jobs are fixed (found by a "
       "MILP), the others are raised in further LPs without lowering anyone.",
       "direction: no job lowered, non-bottleneck jobs raised", R,
       "The check runs MaxMinFairnessWaterFillingPolicyWithPerf as Gavel poses it (LPs by ECOS) with the bottleneck "
       "MILP solved by HiGHS on four uncontended 8-job, 3-type random clusters and compares every job's normalized "
       "throughput with its level after the first LP (the plain max-min allocation, which is what Gavel's released "
       "code returns: its MILP needs GLPK_MI, not among Gavel's requirements, so it stops after the first LP; this "
       "is why Gavel's water-filling runs in the parity table equal its max-min runs): 7 of 8 jobs are raised on each "
       "cluster, none is lowered, and the sum grows 1.5-2.2x. Flip: eight identical jobs per cluster, where an LP "
       "(scipy, on Gavel's normalized coefficients) finds that no job can be raised without lowering another (the "
       "premise absent, measured): water filling raises none, fails-outside-premise (inside the premise, the random "
       "clusters, it holds).",
       experiment(check_water_filling),
       flip=Flip("eight identical jobs per cluster (no job can be raised without lowering another)", OUTSIDE,
                 "jobs", "identical")),
]

_PARITY = "scipy's linprog on Gavel's equations (hetopt.gavel.experiments.checks), an independent LP"
#: hetopt's policy LPs against an independent LP: solver-versus-solver checks, counted apart (issue 30).
CONFORMANCE: list[Conformance] = [
    Conformance(
        id="gavel2021.policy_mmf.reaches_gavel_objective", paper=P,
        statement="hetopt.gavel.max_min_fairness (normalization='gavel') reaches the optimum of Gavel's "
                  "MaxMinFairnessPolicyWithPerf, min_j s_j T_j.X_j / (w_j T_j.X^prop_j), within 1e-6 on 24 random "
                  "instances (1-30 jobs, 1-4 types, low and high contention, with and without weights).",
        check=check_mmf_reaches_gavel, reference=_PARITY + "; scheduler/policies/max_min_fairness.py"),
    Conformance(
        id="gavel2021.policy_mmf.hand_example", paper=P,
        statement="On issue 10's hand example (T=[[2,1],[2,1]], s=(1,2), c=(2,2)) hetopt's max-min fairness scores "
                  "4/3 on Gavel's objective, the optimum derived by hand and by the independent LP.",
        check=check_hand_example, reference=_PARITY + "; the hand derivation in hetopt issue 10"),
    Conformance(
        id="gavel2021.policy_msum.reaches_gavel_objective", paper=P,
        statement="hetopt's max-sum-throughput allocation reaches the optimum of Gavel's ThroughputSumWithPerf within "
                  "1e-6 on 12 random instances, with the throughputs in their units and x1e6.",
        check=check_max_sum, reference=_PARITY + "; scheduler/policies/max_sum_throughput.py"),
    Conformance(
        id="gavel2021.policy_mtd.trace_makespan", paper=P,
        statement="hetopt's min-total-duration LP (per-job units, certified) gives the makespan of an independently "
                  "scaled LP on Hadar's 480-job trace (341.6 h) within 1e-6, and scales exactly with the step counts.",
        check=check_trace_makespan, reference=_PARITY + "; scheduler/policies/min_total_duration.py"),
]

SWEEPS: dict[str, Sweep] = {
    "gavel.normalization": Sweep(
        name="gavel.normalization", func=sweep_normalization,
        description="contention level: the isolated reading ties Gavel's optimum when contended, falls below when not",
        claims=("gavel2021.policy_mmf.normalization_reading",)),
    "gavel.makespan_scaling": Sweep(
        name="gavel.makespan_scaling", func=sweep_makespan_scaling,
        description="step counts x 10^k: the former unscaled makespan LP drifts from the optimum, the scaled one stays at 1",
        claims=("gavel2021.policy_mtd.unscaled_defect",)),
}

from .mechanism import CLAIMS as _MECHANISM_CLAIMS  # noqa: E402
from .mechanism import SWEEPS as _MECHANISM_SWEEPS

CLAIMS += _MECHANISM_CLAIMS
SWEEPS.update(_MECHANISM_SWEEPS)

from .evaluation import CLAIMS as _EVALUATION_CLAIMS  # noqa: E402

CLAIMS += _EVALUATION_CLAIMS

from .conformance import CONFORMANCE as _CODE_CONFORMANCE  # noqa: E402

CONFORMANCE += _CODE_CONFORMANCE
__all__ += ["CONFORMANCE"]
