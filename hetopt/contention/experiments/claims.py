"""Claims of Wang et al., "Communication Contention Aware Scheduling of Multiple DL Training Jobs".

Paper key ``wang2019``.  The closed forms of Section IV-B (eqs. (10)-(14), Theorems 1-2), eqs.
(7)-(8), the complexity statements of Section IV, Tables IV-V and Figs. 4-5.  The headline
(Ada-SRSF 20.1% / 36.7% below SRSF(1) / SRSF(2)) is decided by the transfer-accounting toggle of
:func:`hetopt.contention.simulate`: with the published simulator's accounting (``"authors"``) the
gain appears, with the correct one it vanishes (:mod:`hetopt.contention.accounting`).

Every claim names its flip (:class:`~hetopt.claims.ledger.Flip`): the same experiment with one
thing changed (a premise of the paper removed, the published accounting switched on in the model's
path, a reading of a printed formula, a workload variant of :data:`runs.VARIANTS`).  The checks
that cannot move (the workload generator's own constants, eq. (5) against its own fluid form) are
conformance checks (``CONFORMANCE``), counted apart.  The experiments are in
:mod:`hetopt.contention.experiments.runs` and :mod:`hetopt.contention.experiments.complexity`.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ...claims.experiment import Parameter, experiment
from ...claims.ledger import Claim, Conformance, Flip, Outcome, Sweep, Verdict, close_to, outside_premise
from ...data import instance_path
from .. import (
    PAPER_A,
    PAPER_GPU_MIX,
    SIM_BETA,
    SIM_ETA,
    TABLE_III,
    V100_MEMORY_MB,
    ContentionInstance,
    Policy,
    adadual_threshold,
    allreduce_time,
    authors_slotted_transfer,
    fluid_completion_times,
    generate_instance,
    simulate,
    two_task_cases,
)
from ..generators import SIM_GPU_MEMORY_MB
from . import complexity
from .paper import PAPER_TABLE_IV, PAPER_TABLE_V
from .runs import (
    FAST_SCALE,
    SEEDS,
    accounting_sweep,
    avg_by_seed,
    complexity_sweep,
    gains,
    job_sets_sweep,
    run,
    waiters_sweep,
    workload,
)

__all__ = ["CLAIMS", "CONFORMANCE", "SWEEPS"]

R, PE, OP, DW, DR, DM, UN = (Verdict.REPRODUCED, Verdict.PAPER_ERROR, Verdict.OUTSIDE_PREMISE,
                             Verdict.DEPENDS_ON_WORKLOAD, Verdict.DEPENDS_ON_READING, Verdict.DATA_MISSING,
                             Verdict.UNEXPLAINED)
B, ETA = SIM_BETA, SIM_ETA
M_RES, M_VGG = TABLE_III["ResNet-50"][0], TABLE_III["VGG-16"][0]
CLOSED_RTOL = 1e-6
#: Gains (percentage points) within this of the paper's count as reproduced.
GAIN_ATOL = 5.0
#: Ratios (utilisation) within this relative tolerance of the paper's count as reproduced.
RATIO_RTOL = 0.15
#: A fitted running-time exponent within this of the stated order's exponent counts as that order.
EXPONENT_ATOL = 0.5

CLAIMS: list[Claim] = []
CONFORMANCE: list[Conformance] = []


def _add(id: str, location: str, statement: str, paper_value: str, verdict: Verdict, diagnosis: str, check,
         flip: Flip, evidence: tuple[str, ...] = (), cost: str = "fast", sweep: str | None = None,
         direction: str = "", timed: bool = False, parameters: tuple[Parameter, ...] = ()) -> None:
    CLAIMS.append(Claim(id=id, paper="contention", location=location, statement=statement, paper_value=paper_value,
                        verdict=verdict, diagnosis=diagnosis, check=check, evidence=evidence, cost=cost, sweep=sweep,
                        flip=flip, direction=direction, timed=timed, parameters=parameters))


def _match(ours: float, paper: float, what: str, rtol: float = CLOSED_RTOL) -> Outcome:
    ok = close_to(ours, paper, rtol=rtol, atol=1e-12)
    return Outcome(ours, R if ok else UN, f"{what}: ours {ours:.6g}, paper {paper:.6g}")


def _premise(ok: bool, premise_holds: bool, ours, detail: str, inside=None) -> Outcome:
    """The verdict of a claim whose premise is checked on the experiment's own data.

    Reproduced when it holds; outside the premise when it fails on a setting that violates the
    claim's premise (``inside()`` runs the same experiment with the premise restored, issue 30);
    unexplained otherwise.
    """
    if ok:
        return Outcome(ours, R, detail)
    if premise_holds or inside is None:
        return Outcome(ours, UN, detail)
    return outside_premise(ours, detail + "; the premise does not hold", inside())


# ------------------------------------------------------------------ two tasks (P1)
def _pair(m1: float, m2: float, first: int, offset: float, a: float = 0.0) -> tuple[float, float]:
    """End times (T1, T2) of two all-reduces on one server under the fluid eq. (5) with latency ``a``."""
    starts = (0.0, offset) if first == 1 else (offset, 0.0)
    ends = fluid_completion_times([m1, m2], starts, [[0], [0]], a, B, ETA)
    return float(ends[0]), float(ends[1])


def _case(name: str, a: float = 0.0) -> Outcome:
    case = {c.name: c for c in two_task_cases(M_RES, M_VGG, B, ETA)}[name]
    avg = sum(_pair(M_RES, M_VGG, case.first, case.offset, a)) / 2
    ok = close_to(avg, case.average_completion, rtol=CLOSED_RTOL)
    return _premise(ok, a == 0.0, avg, f"t_aver {name}, latency a = {a * 1000:.3f} ms: fluid {avg:.6f} s, closed "
                                       f"form {case.average_completion:.6f} s", lambda: _case(name))


def _latency_flip(what: str) -> Flip:
    return Flip(f"{what} with the latency a = {PAPER_A * 1000:.3f} ms of Fig. 2(a) that P1 neglects (premise removed)",
                OP, "a", PAPER_A)


_FORMS = {"C1": "(14a) (2bM1 + bM2)/2", "C2a": "(14b) ((3b + 2eta)M1 + bM2)/2", "C2b": "(14c) (bM1 + 2bM2)/2"}
for _name, _form in _FORMS.items():
    _add(f"wang2019.eq14.t_aver_{_name.lower()}", "Section IV-B, eq. (14)",
         f"The candidate minimum {_form} of the average completion time of two all-reduces "
         "(ResNet-50 99.2 MB, VGG-16 526.4 MB) is what eq. (5) gives.",
         _form.split(" ", 1)[1], R,
         "The closed form is compared with the fluid simulation of eq. (5) (rates recomputed at every start and "
         "end, an independent event loop) for the same schedule; they agree to 1e-6. Flip: P1 neglects the latency "
         "a; with the a = 0.669 ms of Fig. 2(a) the same simulation is 0.2-0.4% away from the closed form "
         "(outside the premise).",
         experiment(_case, name=_name), _latency_flip(f"{_name} simulated"))


def _optimum(a: float = 0.0) -> Outcome:
    best = min(two_task_cases(M_RES, M_VGG, B, ETA), key=lambda c: c.average_completion)
    fluid = np.inf
    for first, m_first in ((1, M_RES), (2, M_VGG)):
        grid = set(np.linspace(0.0, a + B * m_first, 201).tolist())
        kink = B * abs(M_VGG - M_RES)  # the piecewise-linear breakpoints (a = 0): the grid minimum is exact
        grid |= {kink, kink + a, B * m_first} if kink <= B * m_first else set()
        fluid = min(fluid, min(sum(_pair(M_RES, M_VGG, first, t, a)) / 2 for t in grid))
    ok = close_to(fluid, best.average_completion, rtol=CLOSED_RTOL)
    return _premise(ok, a == 0.0, fluid, f"latency a = {a * 1000:.3f} ms: min over offsets and orders (fluid) "
                                         f"{fluid:.6f} s, best of (14a)-(14c) {best.average_completion:.6f} s "
                                         f"(case {best.name})", _optimum)


_add("wang2019.theorem1.optimum_over_offsets", "Section IV-B, Theorems 1-2 and eq. (14)",
     "The optimum of P1 (two all-reduces, any start offset) is the smallest of the three candidates (14a)-(14c).",
     "min of (14a)-(14c)", R,
     "A grid of start offsets (with the piecewise-linear breakpoints added, so the grid minimum is exact) is "
     "simulated under eq. (5) for both orders; its minimum equals the best closed-form candidate (C1: smaller "
     "task first, the other after it). Flip: with the latency of Fig. 2(a) the optimum moves off (14a).",
     experiment(_optimum), _latency_flip("the offsets simulated"))


def _c1_decreasing(larger_first: bool = False) -> Outcome:
    m_first, m_other = (M_VGG, M_RES) if larger_first else (M_RES, M_VGG)
    ts = np.linspace(0.0, B * m_first, 41)
    avg = [sum(_pair(m_first, m_other, 1, t)) / 2 for t in ts]
    dec = all(avg[i + 1] < avg[i] for i in range(len(avg) - 1))
    return _premise(dec, m_first <= m_other, float(avg[-1]),
                    f"task started first {m_first} MB, other {m_other} MB: t_aver strictly decreasing in t on "
                    f"[0, t1]: {dec}; at t = 0 {avg[0]:.4f} s, at t1 {avg[-1]:.4f} s, minimum {min(avg):.4f} s",
                    _c1_decreasing)


_add("wang2019.theorem1.c1_minimum_at_t1", "Section IV-B, Theorem 1, eq. (10c)",
     "Under C1 (smaller task first) t_aver decreases in the offset t, so t = t1 (no overlap) is optimal.",
     "t = t1", R,
     "t_aver of C1 is simulated under eq. (5) at 41 offsets in [0, t1] for ResNet-50 then VGG-16: strictly "
     "decreasing, so the minimum is at t1 = b M1, as the theorem states. Flip: the premise M1 <= M2 removed "
     "(VGG-16 first): t_aver first rises (the smaller task is then wholly under contention, case (11c)) and the "
     "minimum is at t = 0.",
     experiment(_c1_decreasing), Flip("the larger task (VGG-16) started first: premise M1 <= M2 of C1 removed", OP,
                                      "larger_first", True))


def _switch_ratio(a: float = 0.0, m2: float = 100.0) -> float:
    """M1/M2 at which starting the smaller task next to the running larger one stops beating waiting."""
    lo, hi = 1e-6, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        now = sum(_pair(mid * m2, m2, 2, 0.0, a)) / 2
        wait = sum(_pair(mid * m2, m2, 2, a + B * m2, a)) / 2
        lo, hi = (mid, hi) if now < wait else (lo, mid)
    return (lo + hi) / 2


def _threshold(a: float = 0.0) -> Outcome:
    thr, sw = adadual_threshold(B, ETA), _switch_ratio(a)
    return _premise(abs(thr - sw) < 1e-9, a == 0.0, sw,
                    f"latency a = {a * 1000:.3f} ms: fluid switch ratio {sw:.9f} vs b/(2(b+eta)) = {thr:.9f}", _threshold)


_add("wang2019.theorem2.threshold_eq13", "Section IV-B, Theorem 2, eq. (13)",
     "With the larger task running, starting the smaller at once beats waiting iff M1/M2 < b/(2(b+eta)).",
     "b/(2(b+eta)) = 0.392", R,
     "Bisection on M1/M2 of start-now against wait-until-the-larger-ends (the two candidates of C2) under the "
     "fluid eq. (5) finds the switch at the threshold of eq. (13) to 1e-9 (b = 0.856, eta = 0.235 ms/MB). Flip: "
     "with the latency of Fig. 2(a) the switch moves to 0.3954.",
     experiment(_threshold), _latency_flip("the switch simulated"))


def _printed(eq: str, a: float = 0.0) -> Outcome:
    """The printed second line of eq. (10c) / (12c) against eq. (5)'s fluid simulation (latency ``a``).

    Fails-paper-error when the printed line misses and the line with the first line's
    parentheses matches (the diagnostic, run inside the check); fails-unexplained when neither does.
    """
    b, eta = B, ETA
    if eq == "10c":  # C1: c1 (smaller) at 0, c2 at t in [0, t1]
        m_first, m_other, first = M_RES, M_VGG, 1
        t = 0.5 * b * M_RES
    else:  # 12c: c2 (larger) at 0, c1 at t in (b(M2 - M1), t2]
        m_first, m_other, first = M_VGG, M_RES, 2
        t = b * (M_VGG - M_RES) + 0.5 * b * M_RES
    fluid = sum(_pair(M_RES, M_VGG, first, t, a)) / 2
    printed = -(1 + 2 * eta / b) * t + (3 * b + 2 * eta) * m_first + b * m_other / 2
    fixed = (-(1 + 2 * eta / b) * t + (3 * b + 2 * eta) * m_first + b * m_other) / 2
    ok, f_ok = close_to(printed, fluid, rtol=1e-6), close_to(fixed, fluid, rtol=1e-6)
    v = R if ok else (PE if f_ok else UN)
    return Outcome(printed, v, f"at t = {t:.4f} s, latency a = {a * 1000:.3f} ms: fluid {fluid:.6f}, second line as "
                               f"printed {printed:.6f}, with the parentheses of the first line {fixed:.6f}")


for _eq in ("10c", "12c"):
    _add(f"wang2019.eq{_eq}.printed_form", f"Section IV-B, eq. ({_eq}), second line",
         "t_aver = -(1 + 2eta/b) t + (3b + 2eta) M + b M' / 2 (as printed).",
         "-(1 + 2eta/b)t + (3b + 2eta)M1 + bM2/2" if _eq == "10c" else "-(1 + 2eta/b)t + (3b + 2eta)M2 + bM1/2", PE,
         "A typographical error: the printed second line lacks the parentheses of the first line, which divides the "
         "whole sum by 2. Evaluated inside its interval it differs from eq. (5)'s fluid simulation, while "
         "(-(1 + 2eta/b) t + (3b + 2eta) M + b M') / 2 matches it (the check computes both); the theorems' "
         "conclusions (monotonicity, (14)) use the correct form and stand. The printed form differs from the "
         "corrected one by half of -(1 + 2eta/b) t + (3b + 2eta) M, which is positive everywhere in the interval, so "
         "no other point or model size makes the printed line right. Flip: the fluid simulation with the latency "
         "a = 0.669 ms of Fig. 2(a), which the closed forms neglect: neither line matches it, the diagnosis is not "
         "confirmed there (fails-unexplained).",
         experiment(_printed, eq=_eq),
         Flip(f"the fluid simulation with the latency a = {PAPER_A * 1000:.3f} ms of Fig. 2(a)", UN, "a", PAPER_A))


# ------------------------------------------------------------------- eq. (5): conformance
def _eq5(k: int) -> Outcome:
    ends = fluid_completion_times([100.0] * k, [0.0] * k, [[0, 1]] * k, PAPER_A, B, ETA)
    return _match(float(ends.max()), allreduce_time(100.0, PAPER_A, B, ETA, k), f"T_ar of {k} x 100 MB (s)")


for _k in (1, 2, 4, 8):
    CONFORMANCE.append(Conformance(
        f"wang2019.eq5.k{_k}_concurrent", "contention",
        f"{_k} concurrent all-reduces of M MB take T = a + k b M + (k - 1) eta M in the fluid reading of eq. (5) "
        "(the event loop of comm.fluid_completion_times against allreduce_time).",
        functools.partial(_eq5, _k),
        reference="eq. (5) itself: the fluid rate 1/(k b + (k - 1) eta) is eq. (5) read per MB, so for k equal "
                  "tasks started together the two forms agree by construction"))


def _eq5_simulated() -> Outcome:
    """Run k equal all-reduces released together on two servers through the simulator under SRSF(k)."""
    parts, ok = [], True
    for k in (1, 2, 4, 8):
        inst = ContentionInstance(n_servers=2, gpus_per_server=k, gpu_memory=V100_MEMORY_MB, a=PAPER_A, b=B, eta=ETA,
                                  arrival=np.zeros(k), n_gpus=np.full(k, 2), iterations=np.ones(k, dtype=int),
                                  t_f=np.full(k, 0.01), t_b=np.full(k, 0.02), model_size=np.full(k, 100.0),
                                  memory=np.full(k, 1000.0))
        sol = simulate(inst, Policy(f"srsf{k}"), placement=[[j, k + j] for j in range(k)],
                       record=True)
        d = [r.end - r.start for r in sol.trace if r.kind == "c"]
        want = allreduce_time(100.0, PAPER_A, B, ETA, k)
        ok &= len(d) == k and all(close_to(x, want, rtol=CLOSED_RTOL) for x in d)
        parts.append(f"k = {k}: {max(d) * 1000:.3f} ms (eq. (5) {want * 1000:.3f} ms)")
    return Outcome(ok, R if ok else UN, "all-reduces of 100 MB released together, simulate() under SRSF(k): "
                   + "; ".join(parts))


CONFORMANCE.append(Conformance(
    "wang2019.eq5.simulator_k_concurrent", "contention",
    "k = 1, 2, 4, 8 equal all-reduces (100 MB) released together on two servers and admitted together (SRSF(k)) "
    "each take a + k b M + (k - 1) eta M in hetopt's simulator.", _eq5_simulated,
    reference="eq. (5) (allreduce_time) against the event loop of hetopt.contention.simulate: the model the "
              "simulator implements, not a claim of the paper (only a defect of ours could move it)"))


# ------------------------------------------------------------------- eqs. (7)-(8)
def _single_job(second_job: bool = False) -> Outcome:
    n = 2 if second_job else 1
    inst = ContentionInstance(n_servers=2, gpus_per_server=4, gpu_memory=V100_MEMORY_MB, a=PAPER_A, b=B, eta=ETA,
                              arrival=np.zeros(n), n_gpus=np.full(n, 8), iterations=np.full(n, 1000),
                              t_f=np.full(n, 0.0358), t_b=np.full(n, 0.0537), model_size=np.full(n, 526.4),
                              memory=np.full(n, 4527.0))
    analytic = 1000 * (0.0358 + 0.0537 + PAPER_A + B * 526.4)
    jct = float(simulate(inst, "ada_srsf").jct[0])
    ok = close_to(jct, analytic, rtol=CLOSED_RTOL)
    return _premise(ok, inst.n_jobs == 1, jct, f"VGG-16 on 8 GPUs (two servers), 1000 iterations, {inst.n_jobs} "
                                               f"job(s) on the cluster: JCT of job 0 {jct:.4f} s, eqs. (7)-(8) "
                                               f"{analytic:.4f} s", _single_job)


_add("wang2019.eq7_8.single_job_jct", "Section III-B, eqs. (7)-(8)",
     "A job alone on the cluster takes C_J + E_J = I (t_f + t_b) + I (a + b sigma) when it spans servers.",
     "I (t_f + t_b + a + b sigma)", R,
     "Ada-SRSF on one 8-GPU VGG-16 job (two servers, 1000 iterations) reproduces eqs. (7)-(8) exactly: the "
     "simulator adds nothing (no queueing, no contention) to the DAG's critical path. Flip: a second identical job "
     "on the same GPUs (the premise 'alone' removed) delays job 0.",
     experiment(_single_job),
     Flip("a second identical VGG-16 job shares the 8 GPUs (premise 'alone on the cluster' removed)", OP,
          "second_job", True))


# ------------------------------------------------------------------ workload: conformance
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
    CONFORMANCE.append(Conformance(
        f"wang2019.sec5a.workload_{_key if not _key.isdigit() else 'gpu' + _key}", "contention",
        f"generate_instance(seed=0) has {_stmt} (Section V-A: {_pv}).", functools.partial(_workload_row, _key),
        reference="the generator's own constants (PAPER_GPU_MIX, the iteration range, the arrival window): the "
                  "authors' job set is not published, so only the distribution is matched"))


# ------------------------------------------------ the published accounting
def _lone(waiters: int = 1) -> Outcome:
    """A lone VGG-16 all-reduce queried by ``waiters`` refused all-reduces, under both accountings.

    One waiter is the bundled instance; other counts are built as ``hetopt sweep contention.waiters`` builds them.
    """
    from .runs import lone_allreduce

    if waiters == 1:
        inst = ContentionInstance.from_json(str(instance_path("wang2019_authors_accounting_one_waiter")))
        out = {}
        for acc in ("correct", "authors"):
            sol = simulate(inst, "ada_srsf", record=True, transfer_accounting=acc)
            (rec,) = [r for r in sol.trace if r.kind == "c" and r.job == 0]
            out[acc] = 1000 * (rec.end - rec.start)
    else:
        out = {acc: 1000 * lone_allreduce(waiters, acc) for acc in ("correct", "authors")}
    slotted = 1000 * authors_slotted_transfer(526.4, B, waiters)
    alone = 1000 * B * 526.4
    correct_ok = close_to(out["correct"], alone, rtol=1e-9)
    shortened = (close_to(out["authors"], alone / (1 + waiters), rtol=0.02)
                 and close_to(slotted, alone / (1 + waiters), rtol=0.02))
    v = R if close_to(out["authors"], alone, rtol=0.01) else (PE if correct_ok and shortened else UN)
    return Outcome(out["authors"], v, f"526.4 MB all-reduce alone {alone:.1f} ms; with {waiters} refused waiter(s): "
                                      f"correct accounting {out['correct']:.1f} ms, the published simulator's "
                                      f"{out['authors']:.1f} ms, its slot-by-slot restatement {slotted:.0f} ms")


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
     "correct one (the check runs both): the paper's simulator does not implement its own eq. (2). Flip: the same "
     "all-reduce with no refused waiter: nothing calls get_rest_size, and the published simulator takes 450.6 ms "
     "(reproduced).",
     experiment(_lone), Flip("no refused all-reduce waiting beside the running one", R, "waiters", 0),
     evidence=("wang2019_authors_accounting_one_waiter",), sweep="contention.waiters")


def _toggle(paper: float, correct: float, authors: float, unchanged: bool, what: str, unit: str = "%",
            atol: float = GAIN_ATOL) -> Outcome:
    """Reproduced if the model's number is near the paper's; paper error if it appears only with the error."""
    detail = (f"{what}: model's accounting {correct:.1f}{unit}, authors' accounting {authors:.1f}{unit}, paper "
              f"{paper:.1f}{unit}; SRSF(n) unchanged by the accounting: {unchanged}")
    if close_to(correct, paper, atol=atol):
        return Outcome(correct, R, detail)
    appears = unchanged and authors >= paper / 2 and correct < paper / 2
    return Outcome(correct, PE if appears else UN, detail)


def _unchanged(scale: float, policies=("srsf1", "srsf2", "srsf3"), variant: str = "") -> bool:
    return all(run(p, "correct", scale, variant=variant) == run(p, "authors", scale, variant=variant) for p in policies)


#: The runs of a check of the published accounting: both accountings (the flip may not switch to one of them).
_BOTH = {"model": ("correct", "authors")}


def _single_gpu_flip(verdict: Verdict, what: str = "the gain") -> Flip:
    return Flip(f"every job on a single GPU (workload variant single_gpu): no all-reduce for the accounting to act on, "
                f"{what} appears under neither accounting", verdict, "variant", "single_gpu")


def _headline(n: int, scale: float, model: str = "correct", variant: str = "") -> Outcome:
    paper = 100 * (1 - PAPER_TABLE_V["ada"][1] / PAPER_TABLE_V[f"srsf{n}"][1])
    out = _toggle(paper, gains(model, scale, variant=variant)[f"srsf{n}"],
                  gains("authors", scale, variant=variant)[f"srsf{n}"], _unchanged(scale, variant=variant),
                  f"Ada-SRSF avg JCT below SRSF({n}), workload scale {scale}, 32 GB"
                  + (f", variant {variant}" if variant else ""))
    return dataclasses.replace(out, ran=_BOTH)


_HEAD_DIAG = (
    _ACC_DIAG + ". With it, Ada-SRSF's gain appears (32.3% / 35.7% / 37.4% below SRSF(1) / (2) / (3) on the "
    "time-scaled workload); with the correct accounting it vanishes (-1.6% / 3.4% / 6.0%): AdaDUAL's admissions "
    "are within a few % of SRSF(1). On the job sets of seeds 0-5 (`hetopt sweep contention.job_sets`) the gain "
    "over SRSF(1) is -3.9% to 1.8% with the correct accounting and 23.4% to 35.6% with the published one. The check "
    "runs both accountings on the Section V-A workload (seed 0, 32 GB GPUs) with iterations and arrival window "
    "scaled by 0.05 (same offered load); `hetopt sweep contention.accounting` shows the full-size workload and "
    "16 GB too. Flip: every job on a single GPU (no all-reduce for the accounting to act on): the gain appears under "
    "neither accounting, so the diagnosis is not confirmed there (fails-unexplained). With the published "
    "accounting (run by the check)")
_HEAD_FLIP = {1: ("32.3% against 20.1%: the error overshoots", UN),
              2: ("35.7% against 36.7%", R), 3: ("37.4% against 37.3%", R)}
for _n, _pv in ((1, "20.1%"), (2, "36.7%"), (3, "37.3% (1 - 1098.57/1750.9)")):
    _add(f"wang2019.table5.ada_vs_srsf{_n}", "Abstract; Section V-B, Table V" if _n < 3 else "Section V-B, Table V",
         f"Ada-SRSF reduces the average JCT by {_pv.split(' ')[0]} compared with SRSF({_n}).", _pv, PE,
         f"{_HEAD_DIAG}: {_HEAD_FLIP[_n][0]}.", experiment(_headline, n=_n, scale=FAST_SCALE),
         _single_gpu_flip(UN), sweep="contention.accounting")
_FULL_FLIP = {1: ("29.4% against 20.1%: the error overshoots", UN), 2: ("33.4% against 36.7%", R)}
for _n, _pv in ((1, "20.1%"), (2, "36.7%")):
    _add(f"wang2019.table5.full_ada_vs_srsf{_n}", "Abstract; Section V-B, Table V (full-size workload)",
         f"Ada-SRSF reduces the average JCT by {_pv} compared with SRSF({_n}) (160 jobs, 1000-6000 iterations).",
         _pv, PE, _HEAD_DIAG + f": {_FULL_FLIP[_n][0]}. This entry runs the full-size workload (seed 0, 32 GB): "
         "with the published accounting 29.4% / 33.4% below SRSF(1) / SRSF(2), with the correct one -4.2% / 1.6% "
         "(16 GB: 43.8% / 45.0% and -1.0% / 1.3%).",
         experiment(_headline, n=_n, scale=1.0), _single_gpu_flip(UN), cost="slow", sweep="contention.accounting")


def _util(model: str = "correct", variant: str = "") -> Outcome:
    s = FAST_SCALE
    paper = 100 * (PAPER_TABLE_V["ada"][0] / PAPER_TABLE_V["srsf1"][0] - 1)
    val = {acc: 100 * (run("ada", acc, s, variant=variant)["util"] / run("srsf1", acc, s, variant=variant)["util"] - 1)
           for acc in {"authors", model}}
    out = _toggle(paper, val[model], val["authors"], _unchanged(s, variant=variant),
                  "Ada-SRSF's GPU utilisation above SRSF(1)'s" + (f", variant {variant}" if variant else ""))
    return dataclasses.replace(out, ran=_BOTH)


_add("wang2019.table5.utilization_ada_vs_srsf1", "Section V-B, Table V",
     "Ada-SRSF's average GPU utilisation is 39.6% higher than SRSF(1)'s (42.78% vs 30.65%).", "39.6%", PE,
     _ACC_DIAG + ". Faster transfers keep the GPUs busier: the utilisation gain appears with that accounting "
     "(+78%, twice the paper's) and vanishes with the correct one (-6.8%) (time-scaled Section V-A workload, "
     "32 GB; the check runs both). Flip: every job on a single GPU: the gain appears under neither accounting "
     "(fails-unexplained).",
     experiment(_util), _single_gpu_flip(UN), sweep="contention.accounting")


def _p95(model: str = "correct", variant: str = "") -> Outcome:
    s = FAST_SCALE
    paper = 100 * (1 - PAPER_TABLE_V["ada"][3] / PAPER_TABLE_V["srsf1"][3])
    val = {acc: 100 * (1 - run("ada", acc, s, variant=variant)["p95"] / run("srsf1", acc, s, variant=variant)["p95"])
           for acc in {"authors", model}}
    out = _toggle(paper, val[model], val["authors"], _unchanged(s, variant=variant),
                  "Ada-SRSF's 95th-percentile JCT below SRSF(1)'s" + (f", variant {variant}" if variant else ""))
    return dataclasses.replace(out, ran=_BOTH)


_add("wang2019.table5.p95_ada_vs_srsf1", "Section V-B, Table V",
     "Ada-SRSF's 95th-percentile JCT is 1.56x better than SRSF(1)'s (4024.0 s vs 6283.1 s).",
     "1.56x (36.0% lower)", PE,
     _ACC_DIAG + ". The long multi-server jobs gain most from the free bandwidth, so the tail shrinks with that "
     "accounting only (45.0% lower, against the paper's 36.0%; -6.9% with the correct one; time-scaled Section V-A "
     "workload, 32 GB; the check runs both). Flip: every job on a single GPU: the gain appears under neither "
     "accounting (fails-unexplained).",
     experiment(_p95), _single_gpu_flip(UN), sweep="contention.accounting")


def _over_job_sets(readings: dict[str, Verdict]) -> Verdict:
    """One verdict from the per-job-set verdicts: theirs when they agree, depends-on-workload otherwise."""
    vs = set(readings.values())
    return vs.pop() if len(vs) == 1 else DW


def _median(*, variant: str = "") -> Outcome:
    """Ada-SRSF's median JCT above SRSF(1)'s on each job set (seeds), both accountings reported."""
    s = FAST_SCALE
    readings, parts = {}, []
    for seed in SEEDS:
        med = {p: run(p, "correct", s, seed=seed, variant=variant)["median"] for p in ("ada", "srsf1")}
        pub = run("ada", "authors", s, seed=seed, variant=variant)["median"]
        up = 100 * (med["ada"] / med["srsf1"] - 1)
        # premise: some job has an all-reduce for the communication scheduler to decide
        premise = int(workload(s, seed=seed, variant=variant).n_gpus.max()) > 1
        readings[f"seed {seed}" + (" (default)" if seed == 0 else "")] = R if up > 1e-9 else (UN if premise else OP)
        parts.append(f"seed {seed}: {up:+.1f}% (published accounting {100 * (pub / med['srsf1'] - 1):+.1f}%)")
    n_r = sum(v is R for v in readings.values())
    v = _over_job_sets(readings)
    return Outcome(f"{n_r} of {len(readings)} job sets", v,
                   f"Ada-SRSF's median JCT against SRSF(1)'s (paper +6.1%), time-scaled workload "
                   f"{'variant ' + variant if variant else 'of Section V-A'}: " + "; ".join(parts),
                   readings=readings)


_add("wang2019.table5.median_ada_vs_srsf1", "Section V-B, Table V",
     "Ada-SRSF's median JCT (487.2 s) is above SRSF(1)'s (459.0 s): Ada-SRSF gains in the average and the tail, "
     "not in the median.", "487.2 s vs 459.0 s (+6.1%)", DW,
     "The paper's own table puts Ada-SRSF's median 6.1% above SRSF(1)'s. In ours the median job is, on most job "
     "sets, a job that communication scheduling does not touch: its JCT is the same to the microsecond under "
     "SRSF(1), SRSF(2), SRSF(3) and Ada-SRSF. Over the job sets of seeds 0-5 (time-scaled Section V-A workload, "
     "correct accounting) Ada-SRSF's median is equal to SRSF(1)'s on five and 4.8% above it on seed 4 (the paper's "
     "direction); with the published accounting it is below on five of six (seed 0: +2.1%). Which job is the median job is a "
     "property of the job set, and the authors' is not published: the verdict depends on the workload. Flip: "
     "every job on two GPUs (workload variant two_gpu): Ada-SRSF's median equals SRSF(1)'s on every job set "
     "(+0.0% under both accountings), fails-unexplained.",
     experiment(_median), Flip("every job on two GPUs (workload variant two_gpu)", UN, "variant", "two_gpu"),
     cost="slow", sweep="contention.job_sets")


def _p95_below(model: str = "correct", variant: str = "") -> Outcome:
    s = FAST_SCALE
    val = {acc: run("ada", acc, s, variant=variant)["p95"] / s for acc in {"authors", model}}
    ok, pub = val[model] < 5000.0, val["authors"] < 5000.0
    detail = (f"LWF-1 (Ada-SRSF) 95th-percentile JCT / time scale {s}{', variant ' + variant if variant else ''}: "
              f"model's accounting {val[model]:.0f} s, published accounting {val['authors']:.0f} s; paper: below "
              "5000 s (Table IV: 4024.0 s)")
    return Outcome(val[model], R if ok else (PE if pub and _unchanged(s, variant=variant) else UN), detail, ran=_BOTH)


_add("wang2019.fig4a.lwf1_p95_below_5000", "Section V-B, Fig. 4(a) and Table IV",
     "Over 95% of the JCTs of LWF-1 (with Ada-SRSF) are below 5000 seconds.", "95th percentile < 5000 s (4024.0 s)",
     PE,
     _ACC_DIAG + ". The time-scaled workload's 95th percentile divided by the scale stands for the full size "
     "(seed 0: 7436 s scaled, 7540 s at full size with the correct accounting; 3823 s and 3846 s with the "
     "published one). On seeds 0-5 the correct accounting gives 5820-7500 s, the published one 3420-3840 s: the "
     "tail falls below 5000 s only with the simulator's error (the check runs both). Flip: every job on a single "
     "GPU, no all-reduce to wait for: the tail falls below 5000 s with the correct accounting (reproduced).",
     experiment(_p95_below), _single_gpu_flip(R, "a tail from all-reduces"), sweep="contention.job_sets")


def _blind(n: int, *, variant: str = "", what: str = "avg") -> Outcome:
    s = FAST_SCALE
    r1, rn = run("srsf1", "correct", s, variant=variant)[what], run(f"srsf{n}", "correct", s, variant=variant)[what]
    eta = workload(s, variant=variant).eta
    ok = r1 < rn if what == "avg" else rn < r1
    label = "avg JCT" if what == "avg" else "GPU utilisation"
    return _premise(ok, eta > 0, 100 * (rn / r1 - 1),
                    f"{label} SRSF(1) {r1:.4g}, SRSF({n}) {rn:.4g} (time-scaled workload, 32 GB, eta = "
                    f"{eta * 1000:.3f} ms/MB)", lambda: _blind(n, what=what))


_ETA0 = "the contention penalty of eq. (5) removed (eta = 0, workload variant eta0): premise of blind contention's cost"
for _n in (2, 3):
    _add(f"wang2019.table5.srsf1_beats_srsf{_n}", "Section V-B, Fig. 6 and Table V",
         f"Avoiding all contention (SRSF(1)) gives a lower average JCT than accepting it blindly (SRSF({_n})).",
         f"SRSF(1) {PAPER_TABLE_V['srsf1'][1]} s < SRSF({_n}) {PAPER_TABLE_V[f'srsf{_n}'][1]} s", R,
         "The direction holds in our simulator (SRSF(n) does not depend on the accounting): blind k-way contention "
         "slows every transfer by (k b + (k - 1) eta)/b, more than the overlap it buys. The paper's margin (26% for "
         "SRSF(2)) is larger than ours (about 5%). On seeds 0-5 it holds on all six for SRSF(3) and five for "
         "SRSF(2) (seed 4: SRSF(2) 0.4% better; `hetopt sweep contention.job_sets`). Flip: with eta = 0 the overlap "
         "is free and SRSF(n) wins (79.5 / 79.2 s against 80.5 s).",
         experiment(_blind, n=_n), Flip(_ETA0, OP, "variant", "eta0"),
         sweep="contention.job_sets")
    _add(f"wang2019.table5.utilization_srsf{_n}_below_srsf1", "Section V-B, Fig. 6(b) and Table V",
         f"SRSF({_n})'s average GPU utilisation is below SRSF(1)'s.",
         f"{100 * PAPER_TABLE_V[f'srsf{_n}'][0]:.2f}% < {100 * PAPER_TABLE_V['srsf1'][0]:.2f}%", R,
         "Blind contention stretches every transfer, and the GPUs of a job wait for its all-reduce: SRSF(n)'s GPUs "
         "are idle longer. Reproduced on the time-scaled Section V-A workload (seed 0: 24.98% / 25.13% against "
         "25.31%; full size 23.83% / 23.55% against 24.19%), by a smaller margin than the paper's (15% / 18% lower). "
         "On seeds 0-5 it holds on five (seed 4: above). Flip: eta = 0 (the penalty removed) puts SRSF(n)'s "
         "utilisation above SRSF(1)'s.",
         experiment(_blind, n=_n, what="util"), Flip(_ETA0, OP, "variant", "eta0"), sweep="contention.job_sets")


# ----------------------------------------------------- placement (Table IV, Figs. 4-5)
_EXCLUSIVE = ("every job on a single GPU of its own (workload variant exclusive_single_gpu: 160 one-GPU jobs, "
              "4.6 GB GPUs): no placement choice can matter")


def _placement_matters(variant: str) -> bool:
    """Premise of every placement comparison, checked on the workload itself.

    A choice of GPUs can change a job's fate: some job spans several GPUs, or a GPU can hold more
    than one job.
    """
    w = workload(FAST_SCALE, variant=variant)
    return int(w.n_gpus.max()) > 1 or w.gpu_memory >= 2 * float(w.memory.min())


def _direction(ours, paper_close: bool, holds: bool, premise: bool, detail: str, inside=None) -> Outcome:
    """The verdict of a placement claim from its number, its direction and its premise.

    Reproduced when close to the paper's number; otherwise data-missing while the direction holds
    (the proxy agrees), outside the premise when it fails on a workload that violates the claim's
    premise (``inside()`` reruns the paper's workload, issue 30), fails-unexplained (data-missing
    refused) when it fails on one that does not.
    """
    if paper_close:
        return Outcome(ours, R, detail)
    if not holds and not premise and inside is not None:
        return outside_premise(ours, detail + "; the direction fails and the premise does not hold (no placement "
                                              "choice can matter)", inside())
    return Outcome(ours, DM, detail, proxy_agrees=holds)


def _placement_saving(other: str, *, variant: str = "", seed: int = 0, gpu_memory: float = SIM_GPU_MEMORY_MB) -> Outcome:
    """LWF-1's saving against ``other``; its direction needs a saving above GAIN_ATOL points (the tolerance of a match)."""
    s = FAST_SCALE
    paper = 100 * (1 - PAPER_TABLE_IV["lwf1"][1] / PAPER_TABLE_IV[other][1])
    mine, theirs = (run(p, "correct", s, gpu_memory, seed=seed, variant=variant)["avg"] for p in ("ada", other))
    ours = 100 * (1 - mine / theirs)
    detail = (f"LWF-1 avg JCT below {other.upper()} (Ada-SRSF, correct accounting, job set {seed}, "
              f"{gpu_memory / 1024:.0f} GB{', variant ' + variant if variant else ''}): ours {ours:.1f}%, paper "
              f"{paper:.1f}% (direction: above {GAIN_ATOL:g} points)")
    return _direction(ours, close_to(ours, paper, atol=GAIN_ATOL), ours > GAIN_ATOL, _placement_matters(variant),
                      detail, lambda: _placement_saving(other))


_SAVE_DIAG = (
    "LWF-1 against FF, LS and RAND (all with Ada-SRSF), time-scaled Section V-A workload, 32 GB, correct accounting. "
    "Seed 0: 42.5% / 66.0% / 76.1% (full size 35.1% / 62.4% / 73.8%); the published accounting gives 31.4% / 35.9% / "
    "41.7%. Over seeds 0-5 (`hetopt sweep contention.job_sets`) the correct accounting gives 37.4-56.1% / "
    "52.8-68.5% / 68.8-77.9%, the published 27.5-36.8% / 26.8-35.9% / 37.4-43.1%: the savings depend on how long "
    "placed jobs hold their GPUs, hence on the job set, which is not published (and for RAND on its draws). ")
for _o, _pv, _v, _why, _flip in (
        ("ff", "42.8%", R, "The paper's 42.8% is within 5 points of seed 0's and inside the seeds' range. Flip: "
                           + _EXCLUSIVE + ": every placement gives the same schedule, the saving is 0: the direction "
                           "fails with the premise (fails-outside-premise; inside it, the check, reproduced).",
         Flip(_EXCLUSIVE, OP, "variant", "exclusive_single_gpu")),
        ("ls", "51.9%", DM, "The paper's 51.9% is below seed 0's 66.0%; neither accounting gives it on every job set: "
                            "only the direction compares, and it agrees (a saving above 5 points). Flip: the job set of "
                            "seed 5, another draw of Section V-A's distribution: 52.8%, the paper's number (reproduced).",
         Flip("the job set of seed 5 instead of seed 0 (another draw of Section V-A's distribution)", R, "seed", 5)),
        ("rand", "61.9%", DM, "The paper's 61.9% lies between the two accountings' ranges: only the direction "
                              "compares, and it agrees (a saving above 5 points). Flip: GPUs of 16 GB (the V100-16GB "
                              "of Section V-A) instead of the authors' simulator's 32 GB: 58.5%, within 5 points of "
                              "the paper's (reproduced).",
         Flip("16 GB GPUs (the V100-16GB of Section V-A) instead of the simulator's 32 GB", R, "gpu_memory",
              float(V100_MEMORY_MB)))):
    _add(f"wang2019.table4.lwf1_vs_{_o}", "Section V-B, Table IV",
         f"With Ada-SRSF, LWF-1 saves {_pv} of the average JCT with respect to {_o.upper()}.", _pv, _v,
         _SAVE_DIAG + _why, experiment(_placement_saving, other=_o), _flip,
         direction=f"LWF-1 has a lower average JCT than {_o.upper()} (a positive saving)" if _v is DM else "",
         sweep="contention.job_sets")


def _util_ratio(other: str, *, variant: str = "", model: str = "correct", seed: int = 0) -> Outcome:
    """LWF-1's average GPU utilisation over ``other``'s (Table IV).

    ``model`` is the accounting of the model's path; the published one is run beside it: a number
    that appears only with it is the simulator's error.  The direction needs a ratio above
    ``1 + RATIO_RTOL`` (the tolerance of a match).
    """
    s = FAST_SCALE
    paper = PAPER_TABLE_IV["lwf1"][0] / PAPER_TABLE_IV[other][0]
    val = {acc: run("ada", acc, s, seed=seed, variant=variant)["util"] / run(other, acc, s, seed=seed,
                                                                              variant=variant)["util"]
           for acc in {model, "authors"}}
    ours = val[model]
    detail = (f"GPU utilisation LWF-1 / {other.upper()} with Ada-SRSF ({model} accounting, job set {seed}"
              f"{', variant ' + variant if variant else ''}): ours {ours:.2f}x, published accounting "
              f"{val['authors']:.2f}x, paper {paper:.2f}x (reproduced within {100 * RATIO_RTOL:.0f}%)")
    close = close_to(ours, paper, rtol=RATIO_RTOL)
    if not close and close_to(val["authors"], paper, rtol=RATIO_RTOL):
        return Outcome(ours, PE, detail + "; the paper's number appears only with the published accounting", ran=_BOTH)
    out = _direction(ours, close, ours > 1 + RATIO_RTOL, _placement_matters(variant), detail,
                     lambda: _util_ratio(other, model=model))
    return dataclasses.replace(out, ran=_BOTH)


_UTIL_DIAG = (
    "Average GPU utilisation (compute time / makespan) of LWF-1 over {o} with Ada-SRSF, time-scaled Section V-A "
    "workload, 32 GB, correct accounting: seed 0 {s0}; over seeds 0-5 {rng} (published accounting {pub}). ")
_EXCL_FLIP = (" Flip: " + _EXCLUSIVE + ": the ratio is 1, the direction fails with the premise "
              "(fails-outside-premise; inside it, the check, reproduced).")
_SEED_FLIP = " Flip: the job set of seed 5 (another draw of Section V-A's distribution): 2.50x, within 15% (reproduced)."
_PUB_FLIP = (" The check runs both accountings. Flip: every job on a single GPU: LWF-1 and LS place alike, the ratio "
             "is 1 under both accountings, the proxy no longer agrees (fails-unexplained).")
for _o, _pv, _v, _loc, _stmt, _vals, _flip in (
        ("ff", "1.59x", R, "Abstract; Section V-B, Table IV",
         "LWF-kappa achieves up to 1.59x improvement (average GPU utilisation) over first-fit.",
         ("1.45x", "1.14-1.82x", "1.19-1.47x", "Within 15% of the paper's 1.59x (full size 1.36x)." + _EXCL_FLIP),
         Flip(_EXCLUSIVE, OP, "variant", "exclusive_single_gpu")),
        ("ls", "1.7x", PE, "Section V-B, Table IV",
         "LWF-1 improves the average GPU utilisation 1.7x with respect to LS.",
         ("2.81x", "2.01-3.13x", "1.32-1.82x",
          "The paper's 1.7x appears with the published accounting (seed 0: 1.62x, within 15%; on seeds 0, 3 and 5 "
          "within 15%, on 1, 2 and 4 just below) and with the correct one on no job set (LWF-1 is better than the "
          "paper says): the number is the published simulator's transfer-accounting error (see "
          "wang2019.sec3a.transfer_time_eq2), which speeds every Ada-SRSF transfer and lifts LS, whose jobs span "
          "most servers, more than LWF-1." + _PUB_FLIP),
         Flip("every job on a single GPU (workload variant single_gpu): LWF-1 and LS place alike", UN,
              "variant", "single_gpu")),
        ("rand", "2.19x", DM, "Section V-B, Table IV",
         "LWF-1 improves the average GPU utilisation 2.19x with respect to RAND.",
         ("3.72x", "2.50-4.10x", "1.56-2.04x", "The paper's 2.19x lies between the two accountings' ranges (seed 0's "
                                               "1.85x with the published accounting is 15.4% below it, just outside "
                                               "the tolerance): only the direction compares, and it agrees (a ratio "
                                               "above 1.15)." + _SEED_FLIP),
         Flip("the job set of seed 5 instead of seed 0 (another draw of Section V-A's distribution)", R, "seed", 5))):
    _add("wang2019.abstract.lwf_utilization_vs_ff" if _o == "ff" else f"wang2019.table4.utilization_lwf1_vs_{_o}",
         _loc, _stmt, _pv, _v,
         _UTIL_DIAG.format(o=_o.upper(), s0=_vals[0], rng=_vals[1], pub=_vals[2]) + _vals[3],
         experiment(_util_ratio, other=_o), _flip,
         direction=f"LWF-1 has a higher average GPU utilisation than {_o.upper()}" if _v is DM else "",
         sweep="contention.accounting" if _v is PE else "contention.job_sets")


def _multi_gpu(variant: str) -> bool:
    """Premise of the placement orderings: some job spans several GPUs (checked on the workload)."""
    return int(workload(FAST_SCALE, variant=variant).n_gpus.max()) > 1


def _ff_beats_ls(*, variant: str = "") -> Outcome:
    s = FAST_SCALE
    ff, ls = run("ff", "correct", s, variant=variant)["avg"], run("ls", "correct", s, variant=variant)["avg"]
    return _premise(ff < ls, _multi_gpu(variant), ff,
                    f"avg JCT FF {ff:.1f} s, LS {ls:.1f} s (Ada-SRSF, time-scaled, 32 GB"
                    f"{', variant ' + variant if variant else ''})", _ff_beats_ls)


_SINGLE = "every job on a single GPU (workload variant single_gpu): no job spans GPUs or servers"
_add("wang2019.table4.ff_beats_ls", "Section V-B, Fig. 4 and Table IV",
     "FF surprisingly surpasses LS, because LS spreads jobs over too many servers.", "FF 1921.1 s < LS 2282.41 s", R,
     "LS picks the least-loaded GPUs wherever they are, so multi-GPU jobs span many servers and pay all-reduces "
     "(eq. (8)); FF's first-fit keeps them together. Reproduced on the time-scaled Section V-A workload, on seeds "
     "0-5 (with the published accounting LS beats FF on five of six). Flip: " + _SINGLE + ": the paper's reason is "
     "gone and LS's balance wins (FF 75.0 s, LS 14.6 s).",
     experiment(_ff_beats_ls), Flip(_SINGLE, OP, "variant", "single_gpu"),
     sweep="contention.job_sets")


def _rand_worst(*, variant: str = "") -> Outcome:
    s = FAST_SCALE
    avg = {p.upper() if p != "ada" else "LWF-1": run(p, "correct", s, variant=variant)["avg"]
           for p in ("ada", "ff", "ls", "rand")}
    worst = max(avg, key=lambda k: avg[k])
    return _premise(worst == "RAND", _multi_gpu(variant), worst,
                    "avg JCT (Ada-SRSF, time-scaled, 32 GB" + (f", variant {variant}" if variant else "") + "): "
                    + ", ".join(f"{k} {v:.1f} s" for k, v in avg.items()), _rand_worst)


_add("wang2019.fig4.rand_worst", "Section V-B, Fig. 4 and Table IV",
     "RAND performs the worst of the four placements, because it selects GPUs with totally different workloads "
     "for a job.", "RAND 2881.6 s, the highest average JCT of Table IV", R,
     "RAND has the highest average JCT of LWF-1, FF, LS and RAND on the time-scaled Section V-A workload (seed 0: "
     "342.0 s against 81.8 / 142.3 / 240.4 s) and on every seed 0-5, with either accounting. Flip: " + _SINGLE +
     " (the paper's reason needs a job on several GPUs): FF, which piles the jobs onto the first GPUs, is worst.",
     experiment(_rand_worst), Flip(_SINGLE, OP, "variant", "single_gpu"),
     sweep="contention.job_sets")


def _kappa(*, variant: str = "") -> Outcome:
    s = FAST_SCALE
    readings, parts = {}, []
    for seed in SEEDS:
        avg = {k: run(p, "correct", s, seed=seed, variant=variant)["avg"] for k, p in ((1, "ada"), (2, "lwf2"),
                                                                                       (4, "lwf4"))}
        best = [k for k, v in avg.items() if v == min(avg.values())]
        # premise: some job has more than kappa = 1 GPUs, so kappa changes its placement
        premise = int(workload(s, seed=seed, variant=variant).n_gpus.max()) > 1
        readings[f"seed {seed}" + (" (default)" if seed == 0 else "")] = R if best == [1] else (UN if premise else OP)
        parts.append(f"seed {seed}: " + " / ".join(f"{v:.1f}" for v in avg.values()) + f" s (best kappa {best})")
    n_r = sum(v is R for v in readings.values())
    v = _over_job_sets(readings)
    return Outcome(f"{n_r} of {len(readings)} job sets", v,
                   "avg JCT of LWF-1 / LWF-2 / LWF-4 with Ada-SRSF (time-scaled, 32 GB, correct accounting"
                   + (f", variant {variant}" if variant else "") + "): " + "; ".join(parts), readings=readings)


_add("wang2019.fig5.kappa1_best", "Section V-B, Fig. 5",
     "kappa = 1 generally gives the best results for LWF-kappa.", "kappa = 1", DW,
     "LWF-1, LWF-2 and LWF-4 under Ada-SRSF on the time-scaled Section V-A workload (32 GB, correct accounting), "
     "on the job sets of seeds 0-5 (seed 0 the default): kappa = 1 has the lowest average JCT on seeds 0-2, kappa = "
     "2 on seeds 3-5 (by 0.4%, 8% and 8%); kappa = 4 is worst on every one (a larger kappa lets 4-GPU jobs spread "
     "over servers and pay all-reduces they could avoid). Between kappa = 1 and 2 the job set decides (the "
     "published accounting splits them the same way): the authors' job set is not published. Flip: every job on two "
     "GPUs (workload variant two_gpu): kappa = 1 may split a job over two servers, kappa = 2 and 4 keep it on one and "
     "tie; kappa = 1 is best on no job set (fails-unexplained).",
     experiment(_kappa), Flip("every job on two GPUs (workload variant two_gpu)", UN, "variant", "two_gpu"), cost="slow",
     sweep="contention.job_sets")


# ------------------------------------------------- absolute JCT and memory
def _absolute(gpu_memory: float = SIM_GPU_MEMORY_MB) -> Outcome:
    paper = PAPER_TABLE_V["srsf1"][1]
    avg = avg_by_seed("srsf1", "correct", 1.0, gpu_memory, SEEDS)
    lo, hi = min(avg.values()), max(avg.values())
    detail = (f"SRSF(1) avg JCT, full-size Section V-A workload, {gpu_memory / 1024:.0f} GB GPUs, seeds "
              f"{SEEDS[0]}-{SEEDS[-1]}: " + ", ".join(f"{v:.0f}" for v in avg.values()) +
              f" s (range {lo:.0f}-{hi:.0f} s); paper {paper} s")
    if close_to(avg[0], paper, rtol=0.1):
        return Outcome(avg[0], R, detail)
    return Outcome(avg[0], DM, detail, proxy_agrees=lo <= paper <= hi)


_add("wang2019.table5.avg_jct_srsf1", "Section V-B, Table V",
     "SRSF(1) (no contention, LWF-1) has an average JCT of 1374.84 s on the Section V-A workload.", "1374.84 s", DM,
     "SRSF(1) never reads a running transfer, so the accounting error does not touch it: its absolute JCT isolates "
     "the workload. The authors' simulator gives every GPU 32 GB (Section V-A names a V100-16GB, where t_f, t_b "
     "were measured). With 32 GB the six job sets of seeds 0-5 give 1341-1842 s (seed 0: 1756 s; seed 5: 1341 s): "
     "the paper's 1374.84 s is inside the range of job sets its own distribution draws; the authors' job set is not "
     "published: the authors' repository history holds job_configs/microsoft-160 (HKBU-HPML/dl-scheduling, commits 025010f and b5cb7e0 of 2019-12-11, deleted before the last commit d5398bd): 160 jobs with the paper's GPU mix exactly (80 / 14 / 26 / 30 / 8 / 2 jobs of 1-32 GPUs) but an older model set (ResNet-50, GoogLeNet, AlexNet), 1-12 iterations per job and no arrival times, so it is not the Section V-A workload (Table III's models, 1,000-6,000 iterations, arrivals over 20 minutes) and cannot stand in for it. Flip: 16 GB GPUs (fewer jobs share a GPU, so they wait longer "
     "for placement): the range moves above the paper's value and the proxy no longer agrees.",
     experiment(_absolute), Flip("16 GB GPUs (the V100-16GB of Section V-A) instead of the simulator's 32 GB", UN,
                                 "gpu_memory", float(V100_MEMORY_MB)),
     cost="slow", sweep="contention.accounting",
     parameters=(Parameter("gpu_memory", SIM_GPU_MEMORY_MB,
                           prior="the paper prints no simulated GPU memory (its V100-16GB is where t_f and t_b were "
                                 "measured); the authors' simulator sets CLUSTER['gpu_mem'] = 32768 in "
                                 "online/job_master.py"),),
     direction="SRSF(1)'s average JCT on a 160-job Section V-A workload is about 1375 s: within the range the "
               "stated job distribution gives")


# ------------------------------------------------- complexity (Section IV)
def _complexity(algorithm: str, *, premise_removed: bool = False) -> Outcome:
    if algorithm == "lwf":
        if premise_removed:  # sweep N_g at N_s = 16: the order neglects N_g ("N_g << N_s")
            sizes, work = complexity.LWF_GPU_SIZES, complexity.lwf_work_gpus()
            stated, swept = 0.0, f"N_g (GPUs per server) at N_s = {complexity.FIXED_SERVERS}"
            premise = max(sizes) < complexity.FIXED_SERVERS
        else:
            sizes, work = complexity.LWF_SIZES, complexity.lwf_work()
            stated, swept, premise = complexity.stated_exponent("nlogn", sizes), "N_s (servers of 4 GPUs)", True
        order = "theta(N_s log N_s)"
    else:
        sizes = complexity.ADADUAL_SIZES
        work = complexity.adadual_work(given=not premise_removed)
        stated, order, premise = complexity.stated_exponent("n", sizes), "theta(N_S)", not premise_removed
        swept = "servers of the new all-reduce" + (", task sets derived by scanning all running tasks"
                                                   if premise_removed else "")
    p = complexity.fit_exponent(sizes, work)
    detail = (f"{algorithm}: operations per call over {swept} = {sizes[0]}..{sizes[-1]}: "
              + ", ".join(map(str, work)) + f"; fitted exponent {p:.2f}, the stated {order} "
              f"gives {stated:.2f} over these sizes (reproduced within {EXPONENT_ATOL})")
    # the operations are counted, not timed: the same on every run and machine, so ``ours`` is the fit itself
    return _premise(abs(p - stated) <= EXPONENT_ATOL, premise, round(p, 2), detail,
                    lambda: _complexity(algorithm))


_add("wang2019.sec4a.lwf_complexity", "Section IV-A, time complexity of LWF-kappa",
     "LWF-kappa commonly has a time complexity of theta(N_s log2 N_s) (a job of more than kappa GPUs: sort the "
     "servers by L_{S_i}, then take GPUs server by server).", "theta(N_s log N_s)", R,
     "hetopt's lwf_kappa places an 8-GPU job (kappa = 1, the common path) on 512-8192 servers of 4 GPUs, its "
     "comparisons and additions counted (object arrays of counting numbers; no clock): the fitted exponent of "
     "work ~ N_s^p is 1.10 against 1.13 for N_s log N_s over the same sizes (the server loads are one pass over "
     "the GPUs, then numpy's sort). Flip: the paper neglects the sorting of intra-server GPUs 'since N_g << N_s'; sweeping N_g (512-8192 at N_s = 16, "
     "the premise reversed) the work grows about linearly in N_g (p 1.04), which the stated order says it should not.",
     experiment(_complexity, algorithm="lwf"),
     Flip("the sweep over N_g (GPUs per server, 512-8192 at N_s = 16) instead of N_s: premise N_g << N_s removed", OP,
          "premise_removed", True), sweep="contention.complexity")
_add("wang2019.sec4b.adadual_complexity", "Section IV-B, time complexity of AdaDUAL",
     "AdaDUAL has a time complexity of theta(N_S), dominated by scanning the servers (lines 4-5 and 8-21 are "
     "theta(1)).", "theta(N_S)", R,
     "hetopt's adadual decides a new all-reduce that spans 32-1024 servers, each running one old task, its "
     "lengths, membership tests, iteration steps and lookups counted (no clock): 3 operations per server, the "
     "fitted exponent 1.00, as theta(N_S) says. The theta(1) of lines 4-5 rests on the running task set of each "
     "server being an input of Algorithm 2. Flip: those sets derived by a scan of every running task for each "
     "server (the premise removed): quadratic, exponent 1.98.",
     experiment(_complexity, algorithm="adadual"),
     Flip("the per-server task sets derived by scanning every running task (premise: C_{S_i} given) ", OP,
          "premise_removed", True), sweep="contention.complexity")


# ------------------------------------------------- the bundled workloads the experiments run
_FAST_W, _FULL_W = "wang2019_workload_seed0_time005", "wang2019_workload_seed0"
_ON_FAST = ("table5.ada_vs_srsf1", "table5.ada_vs_srsf2", "table5.ada_vs_srsf3", "table5.utilization_ada_vs_srsf1",
            "table5.p95_ada_vs_srsf1", "table5.median_ada_vs_srsf1", "fig4a.lwf1_p95_below_5000",
            "table5.srsf1_beats_srsf2", "table5.srsf1_beats_srsf3", "table5.utilization_srsf2_below_srsf1",
            "table5.utilization_srsf3_below_srsf1", "table4.lwf1_vs_ff", "table4.lwf1_vs_ls", "table4.lwf1_vs_rand",
            "abstract.lwf_utilization_vs_ff", "table4.utilization_lwf1_vs_ls", "table4.utilization_lwf1_vs_rand",
            "table4.ff_beats_ls", "fig4.rand_worst", "fig5.kappa1_best")
_ON_FULL = ("table5.full_ada_vs_srsf1", "table5.full_ada_vs_srsf2", "table5.avg_jct_srsf1")
_EVIDENCE = {**{f"wang2019.{i}": (_FAST_W,) for i in _ON_FAST}, **{f"wang2019.{i}": (_FULL_W,) for i in _ON_FULL}}
CLAIMS[:] = [dataclasses.replace(c, evidence=c.evidence + _EVIDENCE.get(c.id, ())) for c in CLAIMS]


def _bundled_workloads() -> Outcome:
    """The bundled seed-0 workloads are what the experiments generate (so the evidence is their input)."""
    fields = ("arrival", "n_gpus", "iterations", "t_f", "t_b", "model_size", "memory")
    same = {}
    for stem, scale in ((_FAST_W, FAST_SCALE), (_FULL_W, 1.0)):
        bundled = ContentionInstance.from_json(str(instance_path(stem)))
        gen = workload(scale)
        same[stem] = all(np.array_equal(getattr(bundled, f), getattr(gen, f)) for f in fields) and all(
            getattr(bundled, f) == getattr(gen, f) for f in ("n_servers", "gpus_per_server", "gpu_memory", "a", "b",
                                                              "eta"))
    ok = all(same.values())
    return Outcome(ok, R if ok else UN, "; ".join(f"instances/{k}.json equals the generated workload: {v}"
                                                  for k, v in same.items()))


CONFORMANCE.append(Conformance(
    "wang2019.sec5a.bundled_workloads", "contention",
    "The bundled instances wang2019_workload_seed0 (full size) and wang2019_workload_seed0_time005 (time x 0.05) "
    "are the workloads the Table IV / V experiments generate (seed 0).", _bundled_workloads,
    reference="hetopt.contention.experiments.runs.workload (generate_instance, seed 0) against the bundled files"))


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
    "contention.job_sets": Sweep(
        name="contention.job_sets", func=job_sets_sweep,
        description="every Table IV / V quantity of the claims on the job sets of seeds 0-5 (time-scaled Section V-A "
                    "workload), both accountings: which claims depend on the unpublished job set",
        claims=tuple(c.id for c in CLAIMS if c.sweep == "contention.job_sets")),
    "contention.complexity": Sweep(
        name="contention.complexity", func=complexity_sweep,
        description="operations counted per call of LWF-kappa and AdaDUAL against the cluster size, with the fitted "
                    "exponents and the stated orders; the premises removed (N_g swept, task sets scanned)",
        claims=("wang2019.sec4a.lwf_complexity", "wang2019.sec4b.adadual_complexity")),
}
