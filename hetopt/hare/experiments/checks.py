"""The experiments behind the Hare claims (:mod:`hetopt.hare.experiments.claims`).

Every function runs the package and returns an :class:`Outcome` whose verdict the experiment
decides; nothing here hard-codes a verdict without the measurement that supports it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...claims.ledger import Outcome, Verdict, close_to, outside_premise

R, WL, RD, DM, PE, UX, OP = (Verdict.REPRODUCED, Verdict.DEPENDS_ON_WORKLOAD, Verdict.DEPENDS_ON_READING,
                             Verdict.DATA_MISSING, Verdict.PAPER_ERROR, Verdict.UNEXPLAINED, Verdict.OUTSIDE_PREMISE)

#: Seeds of the Section 7 workload used by the fast checks.
FAST_SEEDS = (0, 1, 2)


# ---------------------------------------------------------------- Fig. 1
def _fig1():
    from .. import check_schedule, solve_exact
    from .fig1 import fig1_instance, fig1_schedule_a, fig1_schedule_b

    inst = fig1_instance()
    a, b, c = fig1_schedule_a(inst), fig1_schedule_b(inst), solve_exact(inst)
    for s in (a, b, c):
        check_schedule(inst, s).raise_if_invalid()
    return inst, a, b, c


def fig1_value(which: str, quantity: str, variant: str = "text"):
    """Check of one printed Fig. 1 number: schedule ``which`` in (a, b, c), ``quantity`` "total" or "makespan".

    ``variant`` is the schedule as the text describes it (``"text"``), or the flip's change:
    ``"a_swapped"`` ((a) with J2 alone on GPU3 and J3 on GPU1 + GPU2, not the GPUs the text
    names), ``"b_oblivious"`` ((b) with J1, J2, J3 on GPU1, GPU2, GPU3, the
    heterogeneity-oblivious assignment), ``"c_dedicated"`` ((c) restricted to one dedicated GPU
    per job: the best such schedule, intra-job parallelism and GPU sharing removed).  A schedule
    changed beyond what the text states gives ``fails-outside-premise`` when its number moves.
    """
    from .paper import FIG1_MAKESPAN, FIG1_TOTAL

    paper = (FIG1_TOTAL if quantity == "total" else FIG1_MAKESPAN)[which]

    def check() -> Outcome:
        inst, a, b, c = _fig1()
        if variant == "a_swapped":
            a = _fig1_a(inst, j2_gpu=2, j3_gpus=(0, 1), j1_pair=(0, 2))
        elif variant == "b_oblivious":
            b = _fig1_b_assignment(inst, (0, 1, 2))
        elif variant == "c_dedicated":
            import itertools

            c = min((_fig1_b_assignment(inst, p) for p in itertools.permutations(range(3))), key=lambda x: x.objective)
        elif variant != "text":
            raise ValueError(f"variant is {variant!r}")
        sol = {"a": a, "b": b, "c": c}[which]
        ours = sol.objective if quantity == "total" else sol.makespan
        extra = f", status {c.status.value}" if which == "c" else ""
        ok = close_to(ours, paper, atol=1e-6) and (which != "c" or c.status.value == "optimal")
        detail = f"schedule ({which}) {quantity} {ours:.6g}{extra} ({variant})"
        if ok:
            return Outcome(round(float(ours), 6), R, detail)
        return Outcome(round(float(ours), 6), OP if variant != "text" else UX, detail)
    return check


def _fig1_a(inst, *, j2_gpu: int = 0, j3_gpus: tuple[int, int] = (1, 2), j1_pair: tuple[int, int] = (0, 2)):
    """Fig. 1(a) on chosen GPUs.

    J2 alone on ``j2_gpu``, J3 on ``j3_gpus`` (one task of each round on each), then J1 on ``j1_pair``
    when both jobs complete (the text names GPU1 for J2 and GPU2 + GPU3 for J3, not J1's pair).
    """
    from .. import check_schedule, make_solution

    tc = inst.compute_time
    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    t = 0.0
    for r in range(int(inst.rounds[1])):
        for i in inst.round_tasks(1, r):
            start[i], gpu[i] = t, j2_gpu
            t += tc[1, j2_gpu]
    t3 = 0.0
    for r in range(int(inst.rounds[2])):
        for k, i in enumerate(inst.round_tasks(2, r)):
            start[i], gpu[i] = t3, j3_gpus[k % 2]
        t3 += tc[2, list(j3_gpus)].max()
    ends = {g: max(t, t3) for g in j1_pair}
    for k, i in enumerate(inst.round_tasks(0, 0)):
        g = j1_pair[k % 2]
        start[i], gpu[i] = ends[g], g
        ends[g] += tc[0, g]
    sol = make_solution(inst, start, gpu, method=f"fig1(a) J2 on {j2_gpu}, J3 on {j3_gpus}, J1 on {j1_pair}")
    check_schedule(inst, sol).raise_if_invalid()
    return sol


def _fig1_b_assignment(inst, gpus):
    from .. import check_schedule, make_solution

    start, gpu = np.zeros(inst.n_tasks), np.zeros(inst.n_tasks, dtype=int)
    for n, g in enumerate(gpus):
        t = 0.0
        for r in range(int(inst.rounds[n])):
            for i in inst.round_tasks(n, r):
                start[i], gpu[i] = t, g
                t += inst.compute_time[n, g]
    sol = make_solution(inst, start, gpu, method=f"fig1(b) {gpus}")
    check_schedule(inst, sol).raise_if_invalid()
    return sol


def _fig1_five(stem: str) -> dict:
    """The five Fig. 1 numbers computed on a time table.

    (a) for every pair of GPUs for J1, (b) for every
    assignment of jobs to dedicated GPUs, (c) the certified optimum and the least makespan of its optimal schedules.
    """
    import itertools

    import pyomo.environ as pyo

    from ...data import load_json
    from ...solvers import solve_model
    from .. import HareInstance, build_hare_sched, check_schedule, solve_exact

    inst = HareInstance.from_dict(load_json(stem))
    # (a): J2 alone on GPU1, J3 on GPU2 + GPU3, then J1 on a pair of GPUs when both complete
    a_runs = []
    for pair in itertools.combinations(range(3), 2):
        sol = _fig1_a(inst, j1_pair=pair)
        a_runs.append((pair, sol.objective, sol.makespan))
    b_runs = [(p, _fig1_b_assignment(inst, p).objective) for p in itertools.permutations(range(3))]
    c = solve_exact(inst)
    check_schedule(inst, c).raise_if_invalid()
    m = build_hare_sched(inst)
    m.total_weighted_jct.deactivate()
    m.cmax = pyo.Var(bounds=(0, None))
    m.cmax_def = pyo.Constraint(m.JOBS, rule=lambda mm, n: mm.C[n] <= mm.cmax)
    m.at_optimum = pyo.Constraint(expr=sum(m.w[n] * m.C[n] for n in m.JOBS) <= c.objective + 1e-6)
    m.min_makespan = pyo.Objective(expr=m.cmax, sense=pyo.minimize)
    res = solve_model(m, "highs", threads=1)
    return {"inst": inst, "a": a_runs, "b": b_runs, "c": c, "c_makespan": res}


def fig1_makespan_c(stem: str = "hare2022_fig1_all_five"):
    """Makespan 3 of Fig. 1(c), on a time table that must give all five printed numbers.

    The table is ``instances/<stem>.json``; the search that found it is
    :func:`hetopt.hare.experiments.fig1_search.search` (``hetopt sweep hare.fig1_tables``).  The check
    recomputes the five numbers on it: (a) 10.5 / 4.5 for some pair of GPUs of J1, (b) 9 for some
    dedicated assignment, (c) the certified optimum 8.5 and the least makespan over the
    optimal schedules (exact MILP) 3.
    """
    def check() -> Outcome:
        from .paper import FIG1_MAKESPAN, FIG1_TOTAL

        f = _fig1_five(stem)
        a_ok = [p for p, tot, mk in f["a"] if close_to(tot, FIG1_TOTAL["a"], atol=1e-6)
                and close_to(mk, FIG1_MAKESPAN["a"], atol=1e-6)]
        b_ok = [p for p, tot in f["b"] if close_to(tot, FIG1_TOTAL["b"], atol=1e-6)]
        c, res = f["c"], f["c_makespan"]
        c_ok = c.status.value == "optimal" and close_to(c.objective, FIG1_TOTAL["c"], atol=1e-6)
        least = float(res.objective) if res.objective is not None else float("nan")
        proven = res.status.value == "optimal"
        detail = (f"{stem}: (a) 10.5/4.5 with J1 on GPU pairs {a_ok}; (b) 9 with assignments {b_ok}; (c) optimum "
                  f"{c.objective:.6g} ({c.status.value}), least makespan of its optimal schedules {least:.6g} "
                  f"({res.status.value})")
        if a_ok and b_ok and c_ok and proven and close_to(least, FIG1_MAKESPAN["c"], atol=1e-6):
            return Outcome(round(least, 6), R, detail)
        # one table that misses a number decides nothing about the figure's (unpublished) table
        return Outcome(round(least, 6), UX, detail + "; this table does not give all five printed numbers")
    return check


def fig1_theorem4(stem: str = "hare2022_fig1"):
    """Algorithm 1 within alpha(2+alpha) of the optimum, and the relaxation below it.

    On ``stem`` (Fig. 1's
    reconstruction; the flip runs the same check on the all-at-zero counterexample).
    """
    def check() -> Outcome:
        from ...data import load_json
        from .. import HareInstance, schedule, solve_exact, solve_relaxation, theorem4_bound

        inst = HareInstance.from_dict(load_json(stem))
        c = solve_exact(inst)
        rl = solve_relaxation(inst)
        alg = schedule(inst, rl)
        ratio = alg.objective / c.objective
        ok = ratio <= theorem4_bound(inst) + 1e-9 and rl.bound is not None and rl.bound <= c.objective + 1e-6
        detail = (f"{stem}: ALG {alg.objective:.6g} / OPT {c.objective:.6g} ({c.status.value}) = {ratio:.4f}, "
                  f"alpha(2+alpha) = {theorem4_bound(inst):.4g}; relaxation bound {rl.bound:.6g}")
        if ok:
            return Outcome(round(ratio, 4), R, detail)
        # the mechanism of hare2022.theorem4.*: (9) on every subset repairs the bound
        sub = schedule(inst, solve_relaxation(inst, subsets=True))
        repaired = sub.objective / c.objective <= theorem4_bound(inst) + 1e-9
        return Outcome(round(ratio, 4), PE if repaired and c.status.value == "optimal" else UX,
                       detail + f"; with (9) on every subset ALG/OPT = {sub.objective / c.objective:.4f}")
    return check


# ---------------------------------------------------------------- Theorem 4
def _load(stem: str):
    """A bundled instance, or ``"sweep seed N"``: the instance of seed N of the certification sweep."""
    from ...data import load_json
    from .. import HareInstance
    from ..validate import sweep_instance

    if stem.startswith("sweep seed "):
        return sweep_instance(seed=int(stem.rsplit(" ", 1)[1]))
    return HareInstance.from_dict(load_json(stem))


def _ratio(stem: str, subsets: bool = False):
    from .. import brute_force, check_schedule, ratio_report

    inst = _load(stem)
    rep = ratio_report(inst, subsets=subsets)
    bf = brute_force(inst)
    if not close_to(bf.objective, rep.optimum, rtol=1e-9, atol=1e-9):
        raise AssertionError(f"exact model {rep.optimum} and enumeration {bf.objective} disagree on {stem}")
    check_schedule(inst, bf).raise_if_invalid()
    return inst, rep


def theorem4_counterexample(stem: str, subsets: bool = False):
    """Theorem 4 on a bundled one-GPU instance: ratio with the exact optimum; the subset form as the toggle.

    ``subsets=True`` (the flip) runs Algorithm 1 on the relaxation with (9) on every subset of jobs.
    """
    def check() -> Outcome:
        inst, rep = _ratio(stem, subsets=subsets)
        _, sub = _ratio(stem, subsets=True)
        ratio = rep.algorithm1 / rep.optimum
        detail = (f"alpha = {rep.alpha:g}, claimed {rep.limit:g}; ALG {rep.algorithm1:.6g} / OPT {rep.optimum:.6g} "
                  f"(MILP = enumeration) = {ratio:.4f}; with (9) on every subset ALG/OPT = "
                  f"{sub.algorithm1 / sub.optimum:.4f}")
        ran = {"subsets": (True,)}  # the diagnostic toggle, run inside the check
        if not rep.theorem_violated:
            return Outcome(round(ratio, 4), R, detail, ran=ran)
        # the mechanism: the full-set (9) misses Queyranne's subset inequalities; imposing them repairs it
        repaired = rep.optimum_proven and sub.vs_optimum is not None and sub.vs_optimum.holds is True
        return Outcome(round(ratio, 4), PE if repaired else UX, detail, ran=ran)
    return check


def lemma2_chain(stem: str, subsets: bool = False):
    """The proof's chain ALG <= alpha(2+alpha) * relaxation bound, on a bundled instance (``subsets``: the flip)."""
    def check() -> Outcome:
        inst, rep = _ratio(stem, subsets=subsets)
        _, sub = _ratio(stem, subsets=True)
        ratio = rep.vs_relaxation.ratio
        detail = (f"ALG / relaxation bound = {ratio:.4f} (limit {rep.limit:g}); with (9) on every subset "
                  f"{sub.vs_relaxation.ratio:.4f}")
        ran = {"subsets": (True,)}  # the diagnostic toggle, run inside the check
        if not rep.chain_broken:
            return Outcome(round(ratio, 4), R, detail, ran=ran)
        return Outcome(round(ratio, 4), PE if sub.chain_broken is False else UX, detail, ran=ran)
    return check


# ---------------------------------------------------------------- Section 7
#: The readings of line 12: as printed (the paper's, the default), the proof's (21), the heterogeneity-aware one.
LINE12 = ("algorithm1", "algorithm1_esf", "algorithm1_ef")


#: The paper's direction holds when Hare's weighted JCT is below every baseline's by more than this
#: fraction (one point: the reductions are means of three seeds; issue 30 asks a margin the noise cannot cross).
DIRECTION_MARGIN = 0.01


def _range_verdict(red: np.ndarray, lo: float, hi: float) -> Verdict:
    """One reading's verdict on a printed range of reductions.

    Reproduced when every reduction is in it,
    data-missing when Hare beats every baseline by more than DIRECTION_MARGIN (the paper's direction) but the
    range needs the unpublished trace, fails-unexplained when not (the proxy does not point the paper's way).
    """
    if ((red >= lo) & (red <= hi)).all():
        return R
    return DM if (red > DIRECTION_MARGIN).all() else UX


def _decide(readings: dict[str, Verdict], ours, detail: str) -> Outcome:
    """The claim's verdict from its readings (the first is the paper's).

    Reproduced or data-missing when
    every reading agrees, depends-on-reading when they differ, fails-unexplained when all contradict.
    """
    kinds = set(readings.values())
    if len(kinds) > 1:
        return Outcome(ours, RD, detail, readings=readings)
    only = next(iter(kinds))
    if only is DM:
        return Outcome(ours, DM, detail, proxy_agrees=True, readings=readings)
    return Outcome(ours, only, detail, readings=readings)


def _paper_setting_reductions(seeds=FAST_SEEDS, algorithms=LINE12, h: float = 1.0, load: float = 1.0):
    from .sweeps import causes_reductions

    return causes_reductions(seeds, tuple(algorithms), one_batch=True, heterogeneity=h, load=load)


def section7_range(algorithms=LINE12, h: float = 1.0, load: float = 1.0):
    """47.6%-75.3% under every reading of line 12 in ``algorithms``, in the paper's setting.

    The paper's setting (JCT = C - a, job-level SRTF, online AlloX / Sched_Homo, 5% switching
    overhead) with tasks of 100 mini-batches or of one (the paper's task).  hetopt's former baseline
    choices (the other settings of ``hare.section7_causes``) are that sweep's diagnosis, not readings
    of the check (issue 30).  ``h``: the speeds' heterogeneity; ``load``: the arrival rate's factor.
    """
    def check() -> Outcome:
        from .paper import PAPER_RANGE
        from .sweeps import ONE_BATCH, settings

        data = _paper_setting_reductions(algorithms=algorithms, h=h, load=load)
        paper = list(settings())[-1]
        red = {k: v.mean(axis=0) for k, v in data.items()}
        readings = {}
        for a in algorithms:
            for lbl in (paper, ONE_BATCH):
                name = f"{a} / {lbl}" + (" (the paper's reading, default)" if (a, lbl) == ("algorithm1", paper) else "")
                readings[name] = _range_verdict(red[(lbl, a)], *PAPER_RANGE)
        ours = red[(paper, algorithms[0])]
        pct = " / ".join(f"{100 * v:.1f}" for v in ours) + " %"
        detail = (f"h = {h:g}, arrival rate x{load:g}: " + "; ".join(
            f"{a} / {lbl}: " + " / ".join(f"{100 * v:.1f}" for v in red[(lbl, a)])
            for a in algorithms for lbl in (paper, ONE_BATCH)) + " (% vs gavel_fifo / srtf / sched_homo / sched_allox)")
        return _decide(readings, pct, detail)
    return check


def section7_direction(algorithms=LINE12, h: float = 1.0):
    """Hare beats every baseline: each reading of line 12 in ``algorithms``, both task granularities."""
    def check() -> Outcome:
        from .sweeps import ONE_BATCH, settings

        data = _paper_setting_reductions(algorithms=algorithms, h=h)
        paper = list(settings())[-1]
        beats = {a: all(bool((data[(p, a)].mean(axis=0) > DIRECTION_MARGIN).all()) for p in (paper, ONE_BATCH))
                 for a in algorithms}
        worst = {a: min(float(data[(p, a)].mean(axis=0).min()) for p in (paper, ONE_BATCH)) for a in algorithms}
        detail = ("; ".join(f"{a}: worst reduction {100 * worst[a]:.1f}%" for a in algorithms)
                  + f" (both task granularities; beats: every reduction above {100 * DIRECTION_MARGIN:g}%)")
        readings = {a + (" (line 12 as printed, default)" if a == "algorithm1" else ""): R if beats[a] else UX
                    for a in algorithms}
        return _decide(readings, beats[algorithms[0]], detail)
    return check


def fig16_heterogeneity(algorithms=("algorithm1", "algorithm1_ef"), iterations_per_task: int = 100, load: float = 1.0):
    """Gap grows with heterogeneity: the reduction's slope in h for each reading of line 12."""
    def check() -> Outcome:
        from .sweeps import heterogeneity_reductions

        levels, seeds = (0.0, 1.0, 2.0), (0, 1)
        readings, parts = {}, []
        for a in algorithms:
            r = {h: v.mean(axis=0)
                 for h, v in heterogeneity_reductions(levels, seeds, a, iterations_per_task, load).items()}
            grows = int((r[2.0] > r[0.0]).sum())
            readings[a + (" (line 12 as printed, default)" if a == "algorithm1" else "")] = R if grows >= 3 else UX
            parts.append(f"{a}, reduction at h = 0 / 2: " + ", ".join(f"{100 * x:.0f}/{100 * y:.0f}"
                                                                    for x, y in zip(r[0.0], r[2.0], strict=True)))
        detail = "; ".join(parts) + " (vs gavel_fifo, srtf, sched_homo, sched_allox; a reading reproduces when the gap grows vs 3 of 4)"
        first = next(iter(readings.values()))
        return _decide(readings, first is R, detail)
    return check


#: Workloads of the switching check: name -> section7_workload options (the first is the default).
SWITCH_WORKLOADS: dict[str, dict[str, Any]] = {"Section 7 workload, 0.5 jobs/s (default)": {}, "one mini-batch per task": {"iterations_per_task": 1},
                    "light load, 0.05 jobs/s": {"rate": 0.05}, "heavy load, 5 jobs/s": {"rate": 5.0}}


def switching_negligible(workloads=tuple(SWITCH_WORKLOADS), switch_cost: float = 0.05):
    """Ignoring the switching cost (< 5% of a task): its effect on Algorithm 1 and on job-level SRTF, per workload.

    A workload reproduces the claim when 5% of the mean task time per job switch raises Algorithm
    1's weighted JCT by at most 5% on every seed; the flip keeps only the light-load workload.
    """
    def check() -> Outcome:
        from .. import replay, srtf
        from .section7 import ALGORITHM1_VARIANTS, section7_workload, weighted_jct

        readings, parts, alg_all, job_all = {}, [], [], []
        for name in workloads:
            alg: list[tuple[float, float]] = []
            job: list[tuple[float, float]] = []
            for seed in FAST_SEEDS:
                inst = section7_workload(seed=seed, **SWITCH_WORKLOADS[name])
                over = switch_cost * float(inst.task_compute.mean())
                for _label, f, acc in (("algorithm1", ALGORITHM1_VARIANTS["algorithm1"], alg), ("srtf", srtf, job)):
                    plan = f(inst)
                    base = replay(plan, keep_plan_times=True)
                    withsw = replay(plan, switch_overhead=over, keep_plan_times=True)
                    acc.append((weighted_jct(withsw.executed) / weighted_jct(base.executed) - 1.0,
                                withsw.switches / inst.n_tasks))
            worst = max(i for i, _ in alg)
            readings[name] = R if worst <= 0.05 else UX
            alg_all += alg
            job_all += job
            parts.append(f"{name}: Algorithm 1 +{100 * min(i for i, _ in alg):.1f}% to +{100 * worst:.1f}% "
                         f"(switches on {100 * np.mean([x for _, x in alg]):.0f}% of task starts), SRTF +"
                         f"{100 * max(i for i, _ in job):.1f}% at most")
        detail = f"{100 * switch_cost:g}% of the mean task time per switch; " + "; ".join(parts)
        ours = round(100 * max(i for i, _ in alg_all), 2)
        kinds = set(readings.values())
        if kinds == {R}:
            return Outcome(ours, R, detail, readings=readings)
        # mechanism: the cost follows the switch rate, which Algorithm 1's task-level interleaving multiplies
        more = np.mean([x for _, x in alg_all]) > 2 * np.mean([x for _, x in job_all])
        if len(kinds) > 1 and more:
            return Outcome(ours, WL, detail, readings=readings)
        return Outcome(ours, UX, detail, readings=readings)
    return check


def fig18_network(iterations_per_task: int = 1):
    """10 -> 25 Gbps: Algorithm 1's weighted JCT falls 31.2%.

    With tasks of one mini-batch (the paper's
    definition of a task, Section 1); the flip runs tasks of 100 mini-batches.
    """
    def check() -> Outcome:
        from .paper import FIG18_DECREASE
        from .sweeps import network_decrease

        dec = network_decrease(FAST_SEEDS, iterations_per_task=iterations_per_task)
        ours = float(dec.mean())
        detail = (f"{iterations_per_task} mini-batch(es) per task: {100 * ours:.1f}% (seeds "
                  + ", ".join(f"{100 * v:.1f}" for v in dec) + ")")
        if close_to(ours, FIG18_DECREASE, atol=0.04):
            return Outcome(round(100 * ours, 1), R, detail)
        if iterations_per_task != 1:  # tasks of several mini-batches: outside the paper's task definition
            return outside_premise(round(100 * ours, 1), detail, fig18_network(1)())
        return Outcome(round(100 * ours, 1), UX, detail)
    return check


def fig15_300_jobs(algorithms=LINE12, h: float = 1.0):
    """54.6%-80.5% at 300 jobs on 160 GPUs.

    For each reading of line 12 (and of the baselines: online vs
    up-front AlloX / Sched_Homo), at three arrival rates (the load of the unpublished trace): one
    reading per combination, each reproduced / data-missing / fails-unexplained as in
    :func:`_range_verdict`.
    """
    def check() -> Outcome:
        from .. import cluster
        from .paper import FIG15_RANGE
        from .section7 import PAPER_SETTING, compare, reductions, section7_workload

        offline = dataclasses.replace(PAPER_SETTING, online=False)
        gpus = cluster(v100=64, p100=48, k80=48)
        rates = (0.5, 5.0, 50.0)
        red = {}
        for rate in rates:
            inst = section7_workload(seed=0, n_jobs=300, gpus=gpus, rate=rate, heterogeneity=h)
            plans: dict = {}
            for sname, st in (("online baselines", PAPER_SETTING), ("up-front AlloX / Sched_Homo", offline)):
                v = compare(inst, st, plans=plans)
                for a in algorithms:
                    red[(rate, sname, a)] = np.array(list(reductions(v, a).values()))
        readings = {}
        for a in algorithms:
            for sname in ("online baselines", "up-front AlloX / Sched_Homo"):
                for r in rates:
                    default = (" (the paper's reading, default)"
                               if (a, sname, r) == ("algorithm1", "online baselines", 0.5) else "")
                    readings[f"{a} / {sname} / {r:g} jobs/s{default}"] = _range_verdict(red[(r, sname, a)], *FIG15_RANGE)
        ours = red[(0.5, "online baselines", algorithms[0])]
        detail = "; ".join(f"{a}, rate {r:g}/s: " + " / ".join(f"{100 * x:.0f}" for x in red[(r, "online baselines", a)])
                           for a in algorithms for r in rates) + " % (online baselines, vs gavel_fifo / srtf / sched_homo / sched_allox)"
        return _decide(readings, " / ".join(f"{100 * v:.0f}" for v in ours) + " %", detail)
    return check


# ---------------------------------------------------------------- Lemmas 2 and 3, step by step
def lemma_ratios(inst, rl, order: str = "h") -> tuple[float, float]:
    """Largest ratios of Lemma 2's (10) and Lemma 3's (14) for Algorithm 1 on ``x-hat`` of ``rl``.

    ``(10)``: for every task pi(j) on GPU m, ``sum_{k <= j, on m} T^c_{pi(k),m} / (2 H_{pi(j)})``;
    ``(14)``: idle time of GPU m before each of its tasks over ``alpha H`` of that task.  The
    lemma holds on the instance iff the ratio is at most 1.  ``order="reversed"`` (the flip of
    Lemma 3) list-schedules the jobs in decreasing order of their largest H (rounds kept in
    order) instead of Algorithm 1's increasing H.
    """
    from .. import alpha, schedule
    from ..listsched import list_schedule

    H, tc = rl.H, inst.task_compute
    if order == "h":
        alg = schedule(inst, rl)
        start_, gpu_ = alg.start, alg.gpu
    elif order == "reversed":
        hjob = np.array([H[inst.task_job == inst.task_job[k]].max() for k in range(inst.n_tasks)])
        start_, gpu_ = list_schedule(inst, -hjob + 1e-6 * inst.task_round)
    else:
        raise ValueError(f"order is {order!r}")
    pi = np.argsort(H, kind="stable")
    a = alpha(inst)
    l2 = l3 = 0.0
    for m in range(inst.n_gpus):
        cum = 0.0
        for i in pi:
            if gpu_[i] == m:
                cum += tc[i, m]
                l2 = max(l2, cum / (2.0 * H[i]))
        busy = 0.0
        for s, i in sorted((start_[i], i) for i in range(inst.n_tasks) if gpu_[i] == m):
            l3 = max(l3, (s - busy) / (a * H[i]))
            busy += tc[i, m]
    return float(l2), float(l3)


_BUNDLED = ("hare2022_theorem4_counterexample", "hare2022_theorem4_release_dates")


def lemma2_prefix(subsets: bool = False, instances: str = "bundled") -> Outcome:
    """(10) with (9) as printed (``subsets=True``: on every subset) on the bundled instances or another (``_load``)."""
    from .. import solve_relaxation

    printed, every = [], []
    for stem in (_BUNDLED if instances == "bundled" else (instances,)):
        inst = _load(stem)
        printed.append(lemma_ratios(inst, solve_relaxation(inst, subsets=subsets))[0])
        every.append(lemma_ratios(inst, solve_relaxation(inst, subsets=True))[0])
    detail = (f"{instances}: largest prefix work / 2H: " + ", ".join(f"{p:.3f}" for p in printed)
              + f" with (9) {'on every subset' if subsets else 'as printed'}; "
              + ", ".join(f"{q:.3f}" for q in every) + " with (9) on every subset")
    ran = {"subsets": (True,)}
    if max(printed) <= 1 + 1e-9:
        return Outcome(round(max(printed), 4), R, detail, ran=ran)
    return Outcome(round(max(printed), 4), PE if max(every) <= 1 + 1e-9 else UX, detail, ran=ran)


def lemma3_idle(order: str = "h") -> Outcome:
    """(14) on the bundled instances and on eight seeded instances of the certification sweep.

    ``order="reversed"`` (the flip) removes the lemma's premise, the list order by increasing H.
    """
    from ...data import load_json
    from .. import HareInstance, solve_relaxation
    from ..validate import sweep_instance

    insts = [HareInstance.from_dict(load_json(stem)) for stem in _BUNDLED] + [sweep_instance(seed=s) for s in range(8)]
    worst = float(np.nanmax([lemma_ratios(inst, solve_relaxation(inst), order)[1] for inst in insts]))
    detail = f"list order {order!r}: largest idle time / (alpha H) over {len(insts)} instances: {worst:.3f}"
    if worst <= 1 + 1e-9:
        return Outcome(round(worst, 4), R, detail)
    if order != "h":  # the lemma's premise, the list order by increasing H, is absent
        return outside_premise(round(worst, 4), detail, lemma3_idle("h"))
    return Outcome(round(worst, 4), UX, detail)


def fig13_cdf(algorithms=("algorithm1", "algorithm1_ef"), h: float = 1.0):
    """At the JCT within which Hare completes 90.5% of jobs: the share completed by Sched_Allox and Sched_Homo.

    Readings: line 12 (``algorithms``; the flip keeps only the printed one) x AlloX / Sched_Homo online
    (the paper's simulator replays arrivals) or planning up front x tasks of 100 or one mini-batch.  A
    reading reproduces when both shares are within 5 points of the printed ones; it is data-missing
    when Hare completes more jobs than both (the paper's direction, shares below 90.5%), and
    fails-unexplained when AlloX or Sched_Homo completes as many as Hare.
    """
    def check() -> Outcome:
        from .. import replay, simulate
        from .paper import FIG13_SHARES
        from .section7 import ALGORITHM1_VARIANTS, section7_workload

        q, allox, homo = FIG13_SHARES["quantile"], FIG13_SHARES["sched_allox"], FIG13_SHARES["sched_homo"]
        shares: dict[tuple, list[list[float]]] = {}
        for ipt in (100, 1):
            for seed in FAST_SEEDS:
                inst = section7_workload(seed=seed, iterations_per_task=ipt, heterogeneity=h)
                over = 0.05 * float(inst.task_compute.mean())

                def run(plan, over=over):
                    return replay(plan, switch_overhead=over, keep_plan_times=True).jct

                base = {mode: [run(simulate(inst, b + suffix)) for b in ("sched_allox", "sched_homo")]
                        for mode, suffix in (("online", ""), ("up-front", "_offline"))}
                for a in algorithms:
                    thr = np.quantile(run(ALGORITHM1_VARIANTS[a](inst)), q)
                    for mode, jct in base.items():
                        shares.setdefault((a, mode, ipt), []).append([float(np.mean(j <= thr)) for j in jct])
        mean = {k: np.mean(v, axis=0) for k, v in shares.items()}
        readings = {}
        for (a, mode, ipt), m in mean.items():
            if close_to(m[0], allox, atol=0.05) and close_to(m[1], homo, atol=0.05):
                v = R
            else:
                v = DM if (m < q).all() else UX
            default = " (the paper's reading, default)" if (a, mode, ipt) == ("algorithm1", "online", 100) else ""
            readings[f"{a} / {mode} AlloX, Sched_Homo / {ipt} batch per task{default}"] = v
        ours = mean[(algorithms[0], "online", 100)]
        detail = "; ".join(f"{a}, {mode}, {ipt} batch/task: AlloX {100 * m[0]:.1f}%, Sched_Homo {100 * m[1]:.1f}%"
                           for (a, mode, ipt), m in mean.items())
        return _decide(readings, f"{100 * ours[0]:.1f}% / {100 * ours[1]:.1f}%", detail)
    return check


def _equal_speed(inst, ref: float):
    """The instance with every job's per-GPU times rescaled to the geometric mean ``ref``.

    Compute and sync times (category-neutral speed: a job's category no longer changes its training time).
    """
    from .. import HareInstance

    d = inst.to_dict()
    tc = np.asarray(inst.compute_time, dtype=float)
    g = np.exp(np.log(tc).mean(axis=1, keepdims=True))
    d["compute_time"] = np.round(tc / g * ref, 9).tolist()
    d["sync_time"] = np.zeros_like(tc).tolist()
    return HareInstance.from_dict(d)


def fig17_job_mix(equal_speed: bool = False):
    """More NLP jobs raise every scheme's weighted JCT, more recommendation jobs lower it (mean of three seeds).

    ``equal_speed=True`` (the flip) gives every job the same mean training time (the default mix's
    geometric mean) and no synchronization, removing the premise the paper states ("NLP jobs involve
    heavier training workloads").
    """
    def check() -> Outcome:
        from .section7 import PAPER_SETTING, compare, section7_workload

        heavy = {"CV": 0.15, "NLP": 0.55, "Speech": 0.15, "Rec.": 0.15}
        light = {"CV": 0.15, "NLP": 0.15, "Speech": 0.15, "Rec.": 0.55}
        ratios: dict[tuple[str, str], list[float]] = {}
        for seed in FAST_SEEDS:
            inst0 = section7_workload(seed=seed)
            ref = float(np.exp(np.log(inst0.compute_time).mean()))

            def prep(x, ref=ref):
                return _equal_speed(x, ref) if equal_speed else x
            base = compare(prep(inst0), PAPER_SETTING)
            for label, mix in (("nlp", heavy), ("rec", light)):
                v = compare(prep(section7_workload(seed=seed, category_mix=mix)), PAPER_SETTING)
                for k in v:
                    ratios.setdefault((label, k), []).append(v[k] / base[k])
        mean = {k: float(np.mean(v)) for k, v in ratios.items()}
        up = min(v for (lab, _), v in mean.items() if lab == "nlp")
        down = max(v for (lab, _), v in mean.items() if lab == "rec")
        detail = (f"equal_speed={equal_speed}: weighted JCT over the default mix, every scheme: NLP 55% x{up:.2f} or "
                  f"more, recommendation 55% x{down:.2f} or less")
        ok = up > 1 and down < 1
        if ok:
            return Outcome(f"x{up:.2f} / x{down:.2f}", R, detail)
        if equal_speed:  # the paper's stated reason (NLP jobs train longer) removed: outside the premise
            return outside_premise(f"x{up:.2f} / x{down:.2f}", detail, fig17_job_mix(False)())
        return Outcome(f"x{up:.2f} / x{down:.2f}", UX, detail)
    return check


# ---------------------------------------------------------------- Section 7.3, absent claims of issue 21
def fig14_fifo_worst(gpu_scales=(1, 2, 4), h: float = 1.0, load: float = 1.0):
    """Fig. 14: Gavel_FIFO has the largest weighted JCT at every GPU count (60 jobs, 3 seeds).

    Clusters of ``4 s`` V100 + ``2 s`` P100 + ``2 s`` K80 for each ``s`` in ``gpu_scales`` (8, 16, 32
    GPUs; the paper's counts and its 200-job trace are not in the text).  Each GPU count is a
    workload (Outcome.readings): reproduced when Gavel_FIFO's weighted JCT (mean of three seeds)
    is the largest of the four baselines and Algorithm 1 as printed, fails-unexplained otherwise.
    """
    def check() -> Outcome:
        from .. import cluster
        from .section7 import PAPER_SETTING, compare, section7_workload

        readings, parts = {}, []
        for s in gpu_scales:
            g = cluster(v100=4 * s, p100=2 * s, k80=2 * s)
            vals = [compare(section7_workload(seed=seed, n_jobs=60, gpus=g, heterogeneity=h, rate=0.5 * load),
                            PAPER_SETTING) for seed in FAST_SEEDS]
            m = {k: float(np.mean([v[k] for v in vals])) for k in ("algorithm1", "gavel_fifo", "srtf", "sched_homo",
                                                                   "sched_allox")}
            worst = max(m, key=lambda k: m[k])
            readings[f"{len(g)} GPUs"] = R if worst == "gavel_fifo" else UX
            parts.append(f"{len(g)} GPUs: " + ", ".join(f"{k} {v / m['gavel_fifo']:.2f}" for k, v in m.items()))
        detail = "weighted JCT over Gavel_FIFO's (mean of 3 seeds, 60 jobs): " + "; ".join(parts)
        kinds = set(readings.values())
        ours = " / ".join(f"{k}: {'worst' if v is R else 'not worst'}" for k, v in readings.items())
        if kinds == {R}:
            return Outcome(ours, R, detail, readings=readings)
        return Outcome(ours, WL if len(kinds) > 1 else UX, detail, readings=readings)
    return check


#: The job mixes of Fig. 17: the default (25% each) and each category raised to 55% (the others 15%).
FIG17_MIXES = {"default": None, **{f"{c} 55%": {d: (0.55 if d == c else 0.15) for d in ("CV", "NLP", "Speech", "Rec.")}
                                   for c in ("CV", "NLP", "Speech", "Rec.")}}


def fig17_best_every_mix(algorithms=LINE12, h: float = 1.0):
    """Fig. 17: Hare has the smallest weighted JCT in every job mix (mean of three seeds), per reading of line 12."""
    def check() -> Outcome:
        from .section7 import PAPER_SETTING, compare, reductions, section7_workload

        worst = {a: np.inf for a in algorithms}
        where = {a: "" for a in algorithms}
        for name, mix in FIG17_MIXES.items():
            vals = [compare(section7_workload(seed=seed, category_mix=mix, heterogeneity=h), PAPER_SETTING)
                    for seed in FAST_SEEDS]
            m = {k: float(np.mean([v[k] for v in vals])) for k in vals[0]}
            for a in algorithms:
                r = min(reductions(m, a).values())
                if r < worst[a]:
                    worst[a], where[a] = r, name
        readings = {a + (" (line 12 as printed, default)" if a == "algorithm1" else ""): R if worst[a] > 0 else UX
                    for a in algorithms}
        detail = "; ".join(f"{a}: smallest reduction over the 5 mixes {100 * worst[a]:.1f}% ({where[a]})" for a in algorithms)
        return _decide(readings, f"{100 * worst[algorithms[0]]:.1f}%", detail)
    return check


def fig14_hare_best(algorithms=("algorithm1", "algorithm1_ef"), gpu_scales=(1, 2, 4), h: float = 1.0,
                    load: float = 1.0, n_jobs: int = 60):
    """Fig. 14: Hare has the smallest weighted JCT at every GPU count (60 jobs on 8, 16, 32 GPUs, 3 seeds).

    One reading per line-12 reading in ``algorithms`` and task granularity (100 mini-batches per
    task, or one, the paper's definition of a task): reproduced when that Algorithm 1 beats the four
    baselines at every count (mean of three seeds), fails-unexplained otherwise.  Sched_Allox's
    weighted JCT over Hare's is reported (the text: "about 2x").
    """
    def check() -> Outcome:
        from .. import cluster
        from .section7 import PAPER_SETTING, compare, section7_workload

        readings, parts = {}, []
        for ipt in (100, 1):
            means = []
            for s in gpu_scales:
                g = cluster(v100=4 * s, p100=2 * s, k80=2 * s)
                vals = [compare(section7_workload(seed=seed, n_jobs=n_jobs, gpus=g, iterations_per_task=ipt,
                                                  heterogeneity=h, rate=50.0 / ipt * load), PAPER_SETTING)
                        for seed in FAST_SEEDS]
                means.append((len(g), {k: float(np.mean([v[k] for v in vals])) for k in vals[0]}))
            for a in algorithms:
                best = all(m[a] < min(m[b] for b in ("gavel_fifo", "srtf", "sched_homo", "sched_allox")) for _, m in means)
                default = " (line 12 as printed, default)" if (a, ipt) == ("algorithm1", 100) else ""
                readings[f"{a} / {ipt} mini-batch(es) per task{default}"] = R if best else UX
                parts.append(f"{a}, {ipt}/task: AlloX / Hare " + ", ".join(f"{m['sched_allox'] / m[a]:.2f} ({n} GPUs)"
                                                                           for n, m in means))
        detail = "; ".join(parts)
        first = next(iter(readings.values()))
        return _decide(readings, first is R, detail)
    return check
