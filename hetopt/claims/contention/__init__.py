"""Claims of Wang et al., "Communication Contention Aware Scheduling of Multiple DL Training Jobs".

Paper key ``wang2019``.  The closed forms of Section IV-B (eqs. (10)-(14), Theorems 1-2),
eq. (5), the workload of Section V-A, Tables IV-V and Fig. 5.  The headline (Ada-SRSF
20.1% / 36.7% below SRSF(1) / SRSF(2)) is decided by the transfer-accounting toggle of
:func:`hetopt.contention.simulate`: with the published simulator's accounting
(``"authors"``) the gain appears, with the correct one it vanishes
(:mod:`hetopt.contention.accounting`).  The experiments are in
:mod:`hetopt.claims.contention.runs`.
"""

from __future__ import annotations

import functools

import numpy as np

from ...contention import (
    PAPER_A,
    PAPER_GPU_MIX,
    SIM_BETA,
    SIM_ETA,
    TABLE_III,
    V100_MEMORY_MB,
    ContentionInstance,
    adadual_threshold,
    allreduce_time,
    authors_slotted_transfer,
    fluid_completion_times,
    generate_instance,
    simulate,
    two_task_cases,
    two_task_fluid,
    two_task_fluid_optimum,
)
from ...data import instance_path
from ..ledger import Claim, Outcome, Sweep, Verdict, close_to
from .paper import PAPER_TABLE_IV, PAPER_TABLE_V
from .runs import (
    FAST_SCALE,
    accounting_sweep,
    gains,
    run,
    waiters_sweep,
)

__all__ = ["CLAIMS", "SWEEPS"]

R, PE, OP, DW, DR, DM, UN = (Verdict.REPRODUCED, Verdict.PAPER_ERROR, Verdict.OUTSIDE_PREMISE,
                             Verdict.DEPENDS_ON_WORKLOAD, Verdict.DEPENDS_ON_READING, Verdict.DATA_MISSING,
                             Verdict.UNEXPLAINED)
B, ETA = SIM_BETA, SIM_ETA
M_RES, M_VGG = TABLE_III["ResNet-50"][0], TABLE_III["VGG-16"][0]
CLOSED_RTOL = 1e-6
#: Gains (percentage points) within this of the paper's count as reproduced.
GAIN_ATOL = 5.0

CLAIMS: list[Claim] = []


def _add(id: str, location: str, statement: str, paper_value: str, verdict: Verdict, diagnosis: str, check,
         evidence: tuple[str, ...] = (), cost: str = "fast", sweep: str | None = None) -> None:
    CLAIMS.append(Claim(id=id, paper="contention", location=location, statement=statement, paper_value=paper_value,
                        verdict=verdict, diagnosis=diagnosis, check=check, evidence=evidence, cost=cost, sweep=sweep))


def _match(ours: float, paper: float, what: str, rtol: float = CLOSED_RTOL) -> Outcome:
    ok = close_to(ours, paper, rtol=rtol, atol=1e-12)
    return Outcome(ours, R if ok else UN, f"{what}: ours {ours:.6g}, paper {paper:.6g}")


# ------------------------------------------------------------------ two tasks
def _case(name: str) -> Outcome:
    case = {c.name: c for c in two_task_cases(M_RES, M_VGG, B, ETA)}[name]
    t1, t2 = two_task_fluid(M_RES, M_VGG, B, ETA, case.first, case.offset)
    return _match((t1 + t2) / 2, case.average_completion, f"t_aver {name} fluid vs closed form (s)")


_FORMS = {"C1": "(14a) (2bM1 + bM2)/2", "C2a": "(14b) ((3b + 2eta)M1 + bM2)/2", "C2b": "(14c) (bM1 + 2bM2)/2"}
for _name, _form in _FORMS.items():
    _add(f"wang2019.eq14.t_aver_{_name.lower()}", "Section IV-B, eq. (14)",
         f"The candidate minimum {_form} of the average completion time of two all-reduces "
         "(ResNet-50 99.2 MB, VGG-16 526.4 MB) is what eq. (5) gives.",
         _form.split(" ", 1)[1], R,
         "The closed form is compared with the fluid simulation of eq. (5) (rates recomputed at every start and "
         "end, an independent event loop) for the same schedule; they agree to 1e-6. The check fails if either "
         "the closed form or the fluid reading of eq. (5) changes.",
         functools.partial(_case, _name))


def _optimum() -> Outcome:
    best = min(two_task_cases(M_RES, M_VGG, B, ETA), key=lambda c: c.average_completion)
    fl = two_task_fluid_optimum(M_RES, M_VGG, B, ETA)
    return _match(fl[2], best.average_completion, f"min over all offsets (fluid) vs best of (14a)-(14c), case {best.name}")


_add("wang2019.theorem1.optimum_over_offsets", "Section IV-B, Theorems 1-2 and eq. (14)",
     "The optimum of P1 (two all-reduces, any start offset) is the smallest of the three candidates (14a)-(14c).",
     "min of (14a)-(14c)", R,
     "A grid of start offsets (with the piecewise-linear breakpoints added, so the grid minimum is exact) is "
     "simulated under eq. (5) for both orders; its minimum equals the best closed-form candidate (C1: smaller "
     "task first, the other after it).", _optimum)


def _c1_decreasing() -> Outcome:
    ts = np.linspace(0.0, B * M_RES, 41)
    avg = [sum(two_task_fluid(M_RES, M_VGG, B, ETA, 1, t)) / 2 for t in ts]
    dec = all(avg[i + 1] < avg[i] for i in range(len(avg) - 1))
    return Outcome(float(avg[-1]), R if dec else UN,
                   f"C1 t_aver strictly decreasing in t on [0, t1]: {dec}; minimum {avg[-1]:.4f} s at t = t1")


_add("wang2019.theorem1.c1_minimum_at_t1", "Section IV-B, Theorem 1, eq. (10c)",
     "Under C1 (smaller task first) t_aver decreases in the offset t, so t = t1 (no overlap) is optimal.",
     "t = t1", R,
     "t_aver of C1 is simulated under eq. (5) at 41 offsets in [0, t1] for ResNet-50 then VGG-16: strictly "
     "decreasing, so the minimum is at t1 = b M1, as the theorem states.", _c1_decreasing)


def _switch_ratio(m2: float = 100.0) -> float:
    lo, hi = 1e-6, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        _, off, _ = two_task_fluid_optimum(mid * m2, m2, B, ETA, first=2, n_grid=3)
        lo, hi = (mid, hi) if off == 0.0 else (lo, mid)
    return (lo + hi) / 2


def _threshold() -> Outcome:
    thr, sw = adadual_threshold(B, ETA), _switch_ratio()
    return Outcome(sw, R if abs(thr - sw) < 1e-9 else UN, f"fluid switch ratio {sw:.9f} vs b/(2(b+eta)) = {thr:.9f}")


_add("wang2019.theorem2.threshold_eq13", "Section IV-B, Theorem 2, eq. (13)",
     "With the larger task running, starting the smaller at once beats waiting iff M1/M2 < b/(2(b+eta)).",
     "b/(2(b+eta)) = 0.392", R,
     "Bisection on M1/M2 of the fluid-optimal offset (0 or t2) of C2 under eq. (5) finds the switch at the "
     "threshold of eq. (13) to 1e-9 (b = 0.856, eta = 0.235 ms/MB).", _threshold)


def _printed(eq: str) -> Outcome:
    b, eta = B, ETA
    if eq == "10c":  # C1: c1 (smaller) at 0, c2 at t in [0, t1]
        m_first, m_other, first = M_RES, M_VGG, 1
        t = 0.5 * b * M_RES
    else:  # 12c: c2 (larger) at 0, c1 at t in (b(M2 - M1), t2]
        m_first, m_other, first = M_VGG, M_RES, 2
        t = b * (M_VGG - M_RES) + 0.5 * b * M_RES
    fluid = sum(two_task_fluid(M_RES, M_VGG, b, eta, first, t)) / 2
    printed = -(1 + 2 * eta / b) * t + (3 * b + 2 * eta) * m_first + b * m_other / 2
    fixed = (-(1 + 2 * eta / b) * t + (3 * b + 2 * eta) * m_first + b * m_other) / 2
    p_ok, f_ok = close_to(printed, fluid, rtol=1e-6), close_to(fixed, fluid, rtol=1e-6)
    v = R if p_ok else (PE if f_ok else UN)
    return Outcome(printed, v, f"at t = {t:.4f} s: fluid {fluid:.6f}, printed {printed:.6f}, "
                               f"with the parentheses restored {fixed:.6f}")


for _eq in ("10c", "12c"):
    _add(f"wang2019.eq{_eq}.printed_form", f"Section IV-B, eq. ({_eq}), second line",
         "t_aver = -(1 + 2eta/b) t + (3b + 2eta) M + b M' / 2 (as printed).",
         "-(1 + 2eta/b)t + (3b + 2eta)M1 + bM2/2" if _eq == "10c" else "-(1 + 2eta/b)t + (3b + 2eta)M2 + bM1/2", PE,
         "A typographical error: the printed second line lacks the parentheses of the first line, which divides the "
         "whole sum by 2. Evaluated inside its interval it differs from eq. (5)'s fluid simulation, while "
         "(-(1 + 2eta/b) t + (3b + 2eta) M + b M') / 2 matches it; the theorems' conclusions (monotonicity, (14)) "
         "use the correct form and stand.", functools.partial(_printed, _eq))


# ------------------------------------------------------------------- eq. (5)
def _eq5(k: int) -> Outcome:
    ends = fluid_completion_times([100.0] * k, [0.0] * k, [[0, 1]] * k, PAPER_A, B, ETA)
    return _match(float(ends.max()), allreduce_time(100.0, PAPER_A, B, ETA, k), f"T_ar of {k} x 100 MB (s)")


for _k in (1, 2, 4, 8):
    _add(f"wang2019.eq5.k{_k}_concurrent", "Section III-A.2, eq. (5)",
         f"{_k} concurrent all-reduces of M MB take T = a + k b M + (k - 1) eta M.",
         f"a + {_k} b M + {_k - 1} eta M", R,
         "Eq. (5) is read as a fluid model (rate 1/(k b + (k - 1) eta) on the busiest server); for k equal tasks "
         "started together the independent event loop gives eq. (5) exactly (100 MB, a of Fig. 2(a)).",
         functools.partial(_eq5, _k))


def _single_job() -> Outcome:
    one = ContentionInstance(n_servers=2, gpus_per_server=4, gpu_memory=V100_MEMORY_MB, a=PAPER_A, b=B, eta=ETA,
                             arrival=np.array([0.0]), n_gpus=np.array([8]), iterations=np.array([1000]),
                             t_f=np.array([0.0358]), t_b=np.array([0.0537]), model_size=np.array([526.4]),
                             memory=np.array([4527.0]))
    analytic = 1000 * (0.0358 + 0.0537 + PAPER_A + B * 526.4)
    return _match(float(simulate(one, "ada_srsf").jct[0]), analytic, "VGG-16 on 8 GPUs, 1000 iterations, JCT (s)")


_add("wang2019.eq7_8.single_job_jct", "Section III-B, eqs. (7)-(8)",
     "A job alone on the cluster takes C_J + E_J = I (t_f + t_b) + I (a + b sigma) when it spans servers.",
     "I (t_f + t_b + a + b sigma)", R,
     "Ada-SRSF on one 8-GPU VGG-16 job (two servers, 1000 iterations) reproduces eqs. (7)-(8) exactly: the "
     "simulator adds nothing (no queueing, no contention) to the DAG's critical path.", _single_job)


# ------------------------------------------------------------------ workload
@functools.lru_cache(maxsize=1)
def _w():
    return generate_instance(seed=0)


def _workload_row(key: str) -> Outcome:
    w = _w()
    if key == "jobs":
        return _match(w.n_jobs, 160, "jobs")
    if key == "gpus":
        return _match(w.n_total_gpus, 64, "GPUs")
    if key == "iterations":
        lo, hi = int(w.iterations.min()), int(w.iterations.max())
        return Outcome(f"{lo}-{hi}", R if 1000 <= lo and hi <= 6000 else UN, f"iterations in [{lo}, {hi}]")
    if key == "arrivals":
        last = float(w.arrival.max())
        return Outcome(last, R if 0 <= float(w.arrival.min()) and last < 1200 else UN, f"last arrival {last} s")
    g = int(key)
    return _match(int(np.sum(w.n_gpus == g)), PAPER_GPU_MIX[g], f"{g}-GPU jobs")


_WROWS = {"jobs": ("160 jobs", "160"), "gpus": ("16 servers x 4 V100 = 64 GPUs", "64"),
          "iterations": ("training iterations from 1000 to 6000", "1000-6000"),
          "arrivals": ("arrivals in 20 minutes (one-second slots T in [1, 1200])", "< 1200 s")}
_WROWS.update({str(g): (f"{c} jobs of {g} GPU(s)", str(c)) for g, c in PAPER_GPU_MIX.items()})
for _key, (_stmt, _pv) in _WROWS.items():
    _add(f"wang2019.sec5a.workload_{_key if not _key.isdigit() else 'gpu' + _key}", "Section V-A",
         f"The simulated workload has {_stmt}.", _pv, R,
         "generate_instance(seed 0) follows Section V-A (job mix of the Microsoft trace as refined by the paper, "
         "Table III models, uniform iterations and arrival slots); the check counts it. The authors' job set "
         "itself is not published, so only its distribution can be matched.", functools.partial(_workload_row, _key))


# ------------------------------------------------ the published accounting
def _lone() -> Outcome:
    inst = ContentionInstance.from_json(str(instance_path("wang2019_authors_accounting_one_waiter")))
    out = {}
    for acc in ("correct", "authors"):
        sol = simulate(inst, "ada_srsf", record=True, transfer_accounting=acc)
        (rec,) = [r for r in sol.trace if r.kind == "c" and r.job == 0]
        out[acc] = 1000 * (rec.end - rec.start)
    slotted = 1000 * authors_slotted_transfer(526.4, B, 1)
    alone = 1000 * B * 526.4
    correct_ok = close_to(out["correct"], alone, rtol=1e-9)
    halved = close_to(out["authors"], alone / 2, rtol=0.02) and close_to(slotted, alone / 2, rtol=0.02)
    v = R if close_to(out["authors"], alone, rtol=0.01) else (PE if correct_ok and halved else UN)
    return Outcome(out["authors"], v, f"526.4 MB all-reduce alone {alone:.1f} ms; with one refused waiter: correct "
                                      f"{out['correct']:.1f} ms, authors' accounting {out['authors']:.1f} ms, "
                                      f"authors' slotted simulator {slotted:.0f} ms")


_ACC_DIAG = (
    "The published simulator (HKBU-HPML/dl-scheduling, online/job.py) adds the progress since the last rate change "
    "to transferred_size in get_rest_size without moving last_change_time, and update_comm_time adds the same "
    "progress again at the end of every 1 ms slot. AdaDUAL calls get_rest_size for every ready all-reduce it "
    "refuses, every slot; each refused waiter thus doubles the running transfer's speed; SRSF(n) never calls it. "
    "hetopt's transfer_accounting='authors' reproduces this (in fluid form)")

_add("wang2019.sec3a.transfer_time_eq2", "Section III-A.2, eqs. (2) and (5); authors' simulator online/job.py",
     "An all-reduce of M MB alone on its servers takes a + b M (the simulator moves transfers by eq. (5)).",
     "a + b M = 450.6 ms (VGG-16, a = 0)", PE,
     _ACC_DIAG + ". On the bundled instance a lone VGG-16 all-reduce with one refused waiter lasts 226.8 ms with "
     "that accounting (and about 226 ms in a slot-by-slot restatement of the published code), 450.6 ms with the "
     "correct one: the paper's simulator does not implement its own eq. (2).",
     _lone, evidence=("wang2019_authors_accounting_one_waiter",), sweep="contention.waiters")


def _toggle(paper: float, correct: float, authors: float, unchanged: bool, what: str, unit: str = "%") -> Outcome:
    """Reproduced if the correct number is near the paper's; paper error if it appears only with the error."""
    detail = (f"{what}: correct accounting {correct:.1f}{unit}, authors' accounting {authors:.1f}{unit}, paper "
              f"{paper:.1f}{unit}; SRSF(n) unchanged by the accounting: {unchanged}")
    if close_to(correct, paper, atol=GAIN_ATOL):
        return Outcome(correct, R, detail)
    appears = unchanged and authors >= paper / 2 and correct < paper / 2
    return Outcome(correct, PE if appears else UN, detail)


def _unchanged(scale: float, policies=("srsf1", "srsf2", "srsf3")) -> bool:
    return all(run(p, "correct", scale) == run(p, "authors", scale) for p in policies)


def _headline(n: int, scale: float) -> Outcome:
    paper = 100 * (1 - PAPER_TABLE_V["ada"][1] / PAPER_TABLE_V[f"srsf{n}"][1])
    return _toggle(paper, gains("correct", scale)[f"srsf{n}"], gains("authors", scale)[f"srsf{n}"],
                   _unchanged(scale), f"Ada-SRSF avg JCT below SRSF({n}), workload scale {scale}, 32 GB")


_HEAD_DIAG = (
    _ACC_DIAG + ". With it, Ada-SRSF's gain appears (32.3% / 35.7% / 37.4% below SRSF(1) / (2) / (3) on the "
    "time-scaled workload); with the correct accounting it vanishes (-1.6% / 3.4% / 6.0%): AdaDUAL's admissions "
    "are within a few % of SRSF(1). The check runs both accountings on the Section V-A workload (seed 0, 32 GB "
    "GPUs) with iterations and arrival window scaled by 0.05 (same offered load); `hetopt sweep "
    "contention.accounting` shows the full-size workload and 16 GB too.")
for _n, _pv in ((1, "20.1%"), (2, "36.7%"), (3, "37.3% (1 - 1098.57/1750.9)")):
    _add(f"wang2019.table5.ada_vs_srsf{_n}", "Abstract; Section V-B, Table V" if _n < 3 else "Section V-B, Table V",
         f"Ada-SRSF reduces the average JCT by {_pv.split(' ')[0]} compared with SRSF({_n}).", _pv, PE, _HEAD_DIAG,
         functools.partial(_headline, _n, FAST_SCALE), sweep="contention.accounting")
for _n, _pv in ((1, "20.1%"), (2, "36.7%")):
    _add(f"wang2019.table5.full_ada_vs_srsf{_n}", "Abstract; Section V-B, Table V (full-size workload)",
         f"Ada-SRSF reduces the average JCT by {_pv} compared with SRSF({_n}) (160 jobs, 1000-6000 iterations).",
         _pv, PE, _HEAD_DIAG + " This entry runs the full-size workload (seed 0, 32 GB): with the published "
         "accounting 29.4% / 33.4% below SRSF(1) / SRSF(2), with the correct one -4.2% / 1.6% (16 GB: 43.8% / "
         "45.0% and -1.0% / 1.3%).",
         functools.partial(_headline, _n, 1.0), cost="slow", sweep="contention.accounting")


def _util() -> Outcome:
    s = FAST_SCALE
    paper = 100 * (PAPER_TABLE_V["ada"][0] / PAPER_TABLE_V["srsf1"][0] - 1)
    val = {acc: 100 * (run("ada", acc, s)["util"] / run("srsf1", acc, s)["util"] - 1) for acc in ("correct", "authors")}
    return _toggle(paper, val["correct"], val["authors"], _unchanged(s), "Ada-SRSF's GPU utilisation above SRSF(1)'s")


_add("wang2019.table5.utilization_ada_vs_srsf1", "Section V-B, Table V",
     "Ada-SRSF's average GPU utilisation is 39.6% higher than SRSF(1)'s (42.78% vs 30.65%).", "39.6%", PE,
     _ACC_DIAG + ". Faster transfers keep the GPUs busier: the utilisation gain appears with that accounting and "
     "vanishes with the correct one (time-scaled Section V-A workload, 32 GB).", _util, sweep="contention.accounting")


def _p95() -> Outcome:
    s = FAST_SCALE
    paper = 100 * (1 - PAPER_TABLE_V["ada"][3] / PAPER_TABLE_V["srsf1"][3])
    val = {acc: 100 * (1 - run("ada", acc, s)["p95"] / run("srsf1", acc, s)["p95"]) for acc in ("correct", "authors")}
    return _toggle(paper, val["correct"], val["authors"], _unchanged(s), "Ada-SRSF's 95th-percentile JCT below SRSF(1)'s")


_add("wang2019.table5.p95_ada_vs_srsf1", "Section V-B, Table V",
     "Ada-SRSF's 95th-percentile JCT is 1.56x better than SRSF(1)'s (4024.0 s vs 6283.1 s).",
     "1.56x (36.0% lower)", PE,
     _ACC_DIAG + ". The long multi-server jobs gain most from the free bandwidth, so the tail shrinks with that "
     "accounting only (time-scaled Section V-A workload, 32 GB).", _p95, sweep="contention.accounting")


def _blind(n: int) -> Outcome:
    s = FAST_SCALE
    r1, rn = run("srsf1", "correct", s)["avg"], run(f"srsf{n}", "correct", s)["avg"]
    return Outcome(100 * (rn / r1 - 1), R if r1 < rn else UN,
                   f"avg JCT SRSF(1) {r1:.1f} s, SRSF({n}) {rn:.1f} s (time-scaled workload, 32 GB)")


for _n in (2, 3):
    _add(f"wang2019.table5.srsf1_beats_srsf{_n}", "Section V-B, Fig. 6 and Table V",
         f"Avoiding all contention (SRSF(1)) gives a lower average JCT than accepting it blindly (SRSF({_n})).",
         f"SRSF(1) {PAPER_TABLE_V['srsf1'][1]} s < SRSF({_n}) {PAPER_TABLE_V[f'srsf{_n}'][1]} s", R,
         "The direction holds in our simulator (SRSF(n) does not depend on the accounting): blind k-way contention "
         "slows every transfer by (k b + (k - 1) eta)/b, more than the overlap it buys. The paper's margin (26% for "
         "SRSF(2)) is larger than ours (about 5%).", functools.partial(_blind, _n), sweep="contention.accounting")


# ----------------------------------------------------- placement (Table IV)
def _placement_saving(other: str) -> Outcome:
    s = FAST_SCALE
    paper = 100 * (1 - PAPER_TABLE_IV["lwf1"][1] / PAPER_TABLE_IV[other][1])
    val = {acc: 100 * (1 - run("ada", acc, s)["avg"] / run(other, acc, s)["avg"]) for acc in ("correct", "authors")}
    detail = (f"LWF-1 avg JCT below {other.upper()} (Ada-SRSF): correct {val['correct']:.1f}%, authors' accounting "
              f"{val['authors']:.1f}%, paper {paper:.1f}%")
    if close_to(val["correct"], paper, atol=GAIN_ATOL):
        return Outcome(val["correct"], R, detail)
    # the direction holds under both accountings and the paper's value lies between them: neither the
    # published error alone nor the correct model gives it; the rest rests on the unpublished job set
    lo, hi = sorted(val.values())
    brackets = lo > 0 and lo - GAIN_ATOL <= paper <= hi + GAIN_ATOL
    return Outcome(val["correct"], DM if brackets else UN, detail)


for _o, _pv in (("ff", "42.8%"), ("ls", "51.9%"), ("rand", "61.9%")):
    _add(f"wang2019.table4.lwf1_vs_{_o}", "Section V-B, Table IV",
         f"With Ada-SRSF, LWF-1 saves {_pv} of the average JCT with respect to {_o.upper()}.", _pv,
         R if _o == "ff" else DM,
         "LWF-1 beats FF, LS and RAND under both accountings. The size of the saving depends on how long placed jobs "
         "hold their GPUs, hence on the job set and on the simulator: on the time-scaled Section V-A workload (32 GB) "
         "the correct accounting gives FF 42.5% (the paper's 42.8%), LS 66.0%, RAND 76.1%; the published "
         "accounting gives 31.4%, 35.9%, 41.7%. The paper's LS and RAND numbers lie between the two, so neither "
         "the published error alone nor the correct model gives them; the rest rests on the authors' unpublished "
         "job set (and, for RAND, its random draws): only the direction compares.",
         functools.partial(_placement_saving, _o))


def _ff_beats_ls() -> Outcome:
    s = FAST_SCALE
    ff, ls = run("ff", "correct", s)["avg"], run("ls", "correct", s)["avg"]
    return Outcome(ff, R if ff < ls else UN, f"avg JCT FF {ff:.1f} s, LS {ls:.1f} s (Ada-SRSF, time-scaled, 32 GB)")


_add("wang2019.table4.ff_beats_ls", "Section V-B, Fig. 4 and Table IV",
     "FF surprisingly surpasses LS, because LS spreads jobs over too many servers.", "FF 1921.1 s < LS 2282.41 s", R,
     "LS picks the least-loaded GPUs wherever they are, so multi-GPU jobs span many servers and pay all-reduces "
     "(eq. (8)); FF's first-fit keeps them together. Reproduced on the time-scaled Section V-A workload.", _ff_beats_ls)


def _lwf_util() -> Outcome:
    s = FAST_SCALE
    paper = PAPER_TABLE_IV["lwf1"][0] / PAPER_TABLE_IV["ff"][0]
    ours = run("ada", "correct", s)["util"] / run("ff", "correct", s)["util"]
    return Outcome(ours, R if close_to(ours, paper, rtol=0.15) else UN,
                   f"GPU utilisation LWF-1 / FF with Ada-SRSF: ours {ours:.2f}x, paper {paper:.2f}x (within 15%)")


_add("wang2019.abstract.lwf_utilization_vs_ff", "Abstract; Section V-B, Table IV",
     "LWF-kappa achieves up to 1.59x improvement (average GPU utilisation) over first-fit.", "1.59x", R,
     "Average GPU utilisation (compute time / makespan) of LWF-1 over FF with Ada-SRSF on the time-scaled "
     "Section V-A workload (32 GB GPUs), correct accounting: within 15% of the paper's ratio.", _lwf_util)


def _kappa() -> Outcome:
    s = FAST_SCALE
    avg = {k: run(p, "correct", s)["avg"] for k, p in ((1, "ada"), (2, "lwf2"), (4, "lwf4"))}
    best = min(avg, key=lambda k: avg[k])
    return Outcome(best, R if best == 1 else UN, "avg JCT by kappa: " + ", ".join(f"{k}: {v:.1f} s" for k, v in avg.items()))


_add("wang2019.fig5.kappa1_best", "Section V-B, Fig. 5",
     "kappa = 1 generally gives the best results for LWF-kappa.", "kappa = 1", R,
     "LWF-1, LWF-2 and LWF-4 under Ada-SRSF on the time-scaled Section V-A workload (32 GB, correct accounting): "
     "kappa = 1 has the lowest average JCT. A larger kappa lets 2- and 4-GPU jobs spread over servers and pay "
     "all-reduces they could avoid.", _kappa)


# ------------------------------------------------- absolute JCT and memory
def _absolute() -> Outcome:
    paper = PAPER_TABLE_V["srsf1"][1]
    j16 = run("srsf1", "correct", 1.0, V100_MEMORY_MB)["avg"]
    j32 = run("srsf1", "correct", 1.0)["avg"]
    share = (j16 - j32) / (j16 - paper) if j16 != paper else float("nan")
    detail = (f"SRSF(1) avg JCT: 16 GB GPUs {j16:.0f} s, 32 GB {j32:.0f} s, paper {paper} s; 32 GB explains "
              f"{100 * share:.0f}% of the 16 GB gap")
    if close_to(j32, paper, rtol=0.1):
        return Outcome(j32, R, detail)
    return Outcome(j32, DM if 0 < share < 1 else UN, detail)


_add("wang2019.table5.avg_jct_srsf1", "Section V-B, Table V",
     "SRSF(1) (no contention, LWF-1) has an average JCT of 1374.84 s on the Section V-A workload.", "1374.84 s", DM,
     "SRSF(1) never reads a running transfer, so the accounting error does not touch it: its absolute JCT isolates "
     "the workload. Section V-A names a V100-16GB (where t_f, t_b were measured) but the authors' simulator gives "
     "every GPU 32 GB; with 32 GB more jobs share a GPU and wait less for placement. The check runs the full-size "
     "workload with 16 GB and 32 GB and reports the share of the gap the memory explains; the rest rests on the "
     "authors' job set (job_configs/microsoft-160), which is not published.", _absolute, cost="slow",
     sweep="contention.accounting")


SWEEPS = {
    "contention.accounting": Sweep(
        name="contention.accounting", func=accounting_sweep,
        description="Ada-SRSF vs SRSF(1)/(2)/(3) average JCT with the correct and the published transfer accounting, "
                    "16 and 32 GB GPUs: the headline gain appears only with the published accounting",
        claims=tuple(c.id for c in CLAIMS if c.sweep == "contention.accounting")),
    "contention.waiters": Sweep(
        name="contention.waiters", func=waiters_sweep,
        description="duration of a running all-reduce against the number of refused all-reduces querying it, "
                    "under both accountings",
        claims=("wang2019.sec3a.transfer_time_eq2",)),
}
