"""The independent checker of a schedule (a simulated one or an exact engine's).

:func:`check_schedule` reads only the task trace and the instance (never the simulator's
state): every task runs exactly once, in DAG order (Fig. 3), with its duration, on the
job's GPUs; a GPU runs one task at a time; GPU memory is never over-committed; the
all-reduce end times are those of the fluid model of eq. (5) recomputed from their start
times by :func:`hetopt.contention.comm.fluid_completion_times`; completion times and the
objective (6) are recomputed from the tasks.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..errors import ArgumentError, a_type
from ..inputs import check_size, takes_instance
from ..result import CheckReport
from ..validate import FEAS_TOL
from .comm import fluid_completion_times
from .instance import ContentionInstance
from .solution import ContentionSolution

__all__ = ["check_schedule"]


def _tolerance(inst: ContentionInstance):
    """``t -> FEAS_TOL * max(|t|, floor)``: relative, with ``floor`` = min(1 s, the shortest task of the instance).

    A floor of 1 s (the former rule) made the checker blind below a microsecond: on an instance in
    units of 1e-7 s a backward pass starting 0.9 t_f before its forward pass ended passed.
    """
    comm = [inst.comm_time(k) for k in range(inst.n_jobs)]
    positive = [float(x) for x in (*inst.t_f, *inst.t_b, *comm) if x > 0]
    floor = min([1.0, *positive])

    def tol(t: float) -> float:
        return FEAS_TOL * max(abs(float(t)), floor)

    return tol


@takes_instance(ContentionInstance)
def check_schedule(
    inst: ContentionInstance, sol: ContentionSolution, *, max_concurrent: int | None = None
) -> CheckReport:
    """Check a recorded schedule against the model of Section III and recompute objective (6).

    Parameters
    ----------
    inst : ContentionInstance
    sol : ContentionSolution
        With its ``trace`` (``simulate(..., record=True)``, or any exact engine).
    max_concurrent : int, optional
        Also check that no server ever carries more all-reduces at once (1 for SRSF(1)).

    Returns
    -------
    CheckReport
        ``violations`` has one message per violation; ``objective`` is eq. (6), the sum of
        job completion times recomputed from the tasks (None without a trace);
        ``info["finish"]`` the recomputed completion instants.
    """
    if not isinstance(sol, ContentionSolution):
        raise ArgumentError(f"sol is {a_type(sol)}; expected a ContentionSolution (simulate(..., record=True) "
                            "or an exact engine)")
    if max_concurrent is not None:
        max_concurrent = check_size(max_concurrent, "max_concurrent")
    if not sol.trace:
        return CheckReport.from_violations(["the solution has no trace; simulate with record=True"])
    bad: list[str] = []
    _tol = _tolerance(inst)
    compute: dict[tuple, list] = defaultdict(list)
    comm: dict[tuple, list] = defaultdict(list)
    per_gpu: dict[int, list] = defaultdict(list)
    for r in sol.trace:
        if r.kind == "c":
            comm[(r.job, r.iteration)].append(r)
        else:
            compute[(r.kind, r.job, r.iteration, r.where)].append(r)
            per_gpu[r.where].append((r.start, r.end, r.job))
    last_end = np.array([_check_job(inst, sol, k, compute, comm, bad, _tol) for k in range(inst.n_jobs)], dtype=float)
    extra = {key for key in compute if key[3] not in sol.placement[key[1]] or key[2] >= inst.iterations[key[1]]}
    extra |= {key for key in comm if key[1] >= inst.iterations[key[0]]}
    if extra:
        bad.append(f"{len(extra)} tasks outside the jobs' DAGs or GPUs, e.g. {sorted(extra)[0]}")
    _check_gpus(sol, per_gpu, bad, _tol)
    _check_memory(inst, sol, bad)
    _check_allreduces(inst, [c for lst in comm.values() for c in lst], max_concurrent, bad, _tol)
    # completion times and objective (6)
    for k in range(inst.n_jobs):
        if abs(last_end[k] - sol.finish[k]) > _tol(sol.finish[k]):
            bad.append(f"job {k}: finish {sol.finish[k]} reported, last task ends at {last_end[k]}")
    total = float(np.sum(last_end - inst.arrival))
    if sol.objective is None or abs(total - sol.objective) > _tol(total) * inst.n_jobs:
        bad.append(f"objective {sol.objective} reported; eq. (6) from the tasks gives {total}")
    return CheckReport.from_violations(bad, total, finish=last_end)


def _check_job(inst: ContentionInstance, sol: ContentionSolution, k: int, compute: dict, comm: dict,
               bad: list[str], _tol) -> float:
    """Job k's tasks in DAG order (Fig. 3) with their durations; returns the end of its last task."""
    gps = inst.gpus_per_server
    gpus = sol.placement[k]
    servers = tuple(sorted({g // gps for g in gpus}))
    multi = len(servers) > 1
    if len(gpus) != inst.n_gpus[k]:
        bad.append(f"job {k} has {len(gpus)} GPUs; it needs {inst.n_gpus[k]}")
    prev_ready = max(float(inst.arrival[k]), float(sol.placed_at[k]))
    for i in range(int(inst.iterations[k])):
        b_end = -np.inf
        f_start = np.inf
        for g in gpus:
            fs, bs = compute.get(("f", k, i, g), []), compute.get(("b", k, i, g), [])
            if len(fs) != 1 or len(bs) != 1:
                bad.append(f"job {k} iteration {i} GPU {g}: {len(fs)} forward and {len(bs)} backward tasks; expected 1 each")
                continue
            f, b = fs[0], bs[0]
            if abs((f.end - f.start) - inst.t_f[k]) > _tol(f.end) or abs((b.end - b.start) - inst.t_b[k]) > _tol(b.end):
                bad.append(f"job {k} iteration {i} GPU {g}: durations {f.end - f.start}, {b.end - b.start}; expected t_f, t_b")
            if b.start < f.end - _tol(f.end):
                bad.append(f"job {k} iteration {i} GPU {g}: backward starts at {b.start} before forward ends at {f.end}")
            f_start = min(f_start, f.start)
            b_end = max(b_end, b.end)
        if f_start < prev_ready - _tol(prev_ready):
            bad.append(f"job {k} iteration {i}: a forward starts at {f_start} before the iteration is ready at {prev_ready}")
        cs = comm.get((k, i), [])
        if multi:
            if len(cs) != 1:
                bad.append(f"job {k} iteration {i}: {len(cs)} all-reduce tasks; expected 1")
                continue
            c = cs[0]
            if tuple(c.where) != servers:
                bad.append(f"job {k} iteration {i}: all-reduce on servers {c.where}; expected {servers}")
            if c.start < b_end - _tol(b_end):
                bad.append(f"job {k} iteration {i}: all-reduce starts at {c.start} before the backward passes end at {b_end}")
            prev_ready = c.end
        else:
            if cs:
                bad.append(f"job {k} iteration {i}: an all-reduce on a single-server job")
            prev_ready = b_end
    return prev_ready


def _check_gpus(sol: ContentionSolution, per_gpu: dict, bad: list[str], _tol) -> None:
    """One task at a time per GPU, and the busy time reported."""
    for g, ivs in per_gpu.items():
        ivs.sort()
        for (_s0, e0, k0), (s1, _e1, k1) in zip(ivs, ivs[1:], strict=False):
            if s1 < e0 - _tol(e0):
                bad.append(f"GPU {g} runs job {k0} until {e0} and job {k1} from {s1}")
                break
        busy = sum(e - s for s, e, _ in ivs)
        if abs(busy - sol.gpu_busy[g]) > _tol(busy) * 10:
            bad.append(f"GPU {g}: busy time {sol.gpu_busy[g]} reported, {busy} in the trace")


def _check_memory(inst: ContentionInstance, sol: ContentionSolution, bad: list[str]) -> None:
    """GPU memory: a job is resident on its GPUs from its placement to its completion."""
    for g in range(inst.n_total_gpus):
        events = []
        for k in range(inst.n_jobs):
            if g in sol.placement[k]:
                events.append((float(sol.placed_at[k]), 1, k))
                events.append((float(sol.finish[k]), 0, k))
        events.sort()
        used = 0.0
        for t, kind, k in events:
            used += inst.memory[k] if kind else -inst.memory[k]
            if used > inst.gpu_memory * (1 + FEAS_TOL):
                bad.append(f"GPU {g}: memory {used} MB > {inst.gpu_memory} MB at time {t}")
                break


def _check_allreduces(inst: ContentionInstance, cs: list, max_concurrent: int | None, bad: list[str], _tol) -> None:
    """All-reduce end times under the fluid model of eq. (5); at most ``max_concurrent`` per server."""
    if not cs:
        return
    ends = fluid_completion_times([inst.model_size[c.job] for c in cs], [c.start for c in cs],
                                  [c.where for c in cs], inst.a, inst.b, inst.eta)
    for c, e in zip(cs, ends, strict=True):
        if abs(c.end - e) > _tol(e):
            bad.append(f"job {c.job} iteration {c.iteration}: all-reduce ends at {c.end}; eq. (5) gives {e}")
            break
    if max_concurrent is not None:
        pts = sorted([(c.start, 1, s) for c in cs for s in c.where] + [(c.end, -1, s) for c in cs for s in c.where],
                     key=lambda x: (x[0], x[1]))
        load: dict[int, int] = defaultdict(int)
        for t, d, s in pts:
            load[s] += d
            if load[s] > max_concurrent:
                bad.append(f"server {s} carries {load[s]} all-reduces at time {t}; at most {max_concurrent} allowed")
                break
