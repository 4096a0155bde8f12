"""An independent checker of constraints (2)-(13) of OASiS's problem (1).

:func:`check_schedule` re-derives everything from the schedule arrays and the instance alone:
it shares no code with the models, the oracle or the simulator.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section III-C, (1)-(13).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..certify import same_value
from ..errors import ArgumentError, a_type
from ..inputs import check_tol, takes_instance
from ..result import CheckReport
from ..validate import FEAS_TOL
from .instance import OasisInstance, check_size
from .schedule import JobSchedule, OasisSolution

__all__ = ["check_schedule"]


@takes_instance(OasisInstance)
def check_schedule(inst: OasisInstance, sol: OasisSolution | Mapping[int, JobSchedule], *,
                   tol: float = FEAS_TOL) -> CheckReport:
    """Check constraints (2)-(13) of every admitted job's schedule, from the arrays alone.

    Parameters
    ----------
    inst : OasisInstance
    sol : OasisSolution or mapping job -> JobSchedule
        The admitted jobs (x_i = 1) are the keys with a non-empty schedule.
    tol : float
        Relative tolerance on (4), (5), (6): a side may exceed the other by ``tol`` times the
        larger of the two, so that the check means the same at every magnitude (capacities of
        1e-9 next to 1); on (2), the worker-slot count, ``tol`` worker-slots; a finite number >= 0
        (NaN would switch every comparison off).

    Returns
    -------
    CheckReport
        ``violations`` names the constraint, job, server, resource and slot of each
        violation; ``objective`` is the total utility sum_i f_i(t_hat_i - a_i) recomputed.  When given a
        solution, its reported completions, admitted set and total utility are checked too.
    """
    tol = check_tol(tol)
    if not isinstance(sol, (OasisSolution, Mapping)):
        raise ArgumentError(f"sol is {a_type(sol)}; expected an OasisSolution or a mapping job -> JobSchedule")
    check_size(inst, what="check_schedule")
    schedules = sol.schedules if isinstance(sol, OasisSolution) else sol
    T, H, K = inst.horizon, inst.n_worker_servers, inst.n_ps_servers
    out: list[str] = []
    used_w = np.zeros((H, T, inst.n_resources))
    used_p = np.zeros((K, T, inst.n_resources))
    total = 0.0
    terms: list[float] = []
    for i, s in schedules.items():
        if not (0 <= i < inst.n_jobs):
            out.append(f"job {i} does not exist")
            continue
        y, z = np.asarray(s.workers), np.asarray(s.ps)
        if y.shape != (H, T) or z.shape != (K, T):
            out.append(f"job {i}: workers {y.shape} / ps {z.shape}; expected ({H}, {T}) / ({K}, {T})")
            continue
        if np.any(y < 0) or np.any(y != np.round(y)):
            out.append(f"(12) job {i}: y_ih(t) must be non-negative integers")
        if np.any(z < 0) or np.any(z != np.round(z)):
            out.append(f"(13) job {i}: z_ik(t) must be non-negative integers")
        a = int(inst.arrival[i])
        if np.any(y[:, : a - 1] != 0):
            out.append(f"(9) job {i}: workers before its arrival slot {a}")
        if np.any(z[:, : a - 1] != 0):
            out.append(f"(10) job {i}: parameter servers before its arrival slot {a}")
        nw, nz = y.sum(axis=0), z.sum(axis=0)
        if nw.sum() == 0:
            continue  # not admitted (x_i = 0); (3) and (7) force z = 0
        work = float(inst.workload[i])
        if nw.sum() < work - tol - 1e-9 * work:  # worker-slots are integers: absolute slack on the count
            out.append(f"(2) job {i}: {nw.sum()} worker-slots < E N M (tau + 2e/b) = {work:.6g}")
        over = np.nonzero(nw > inst.chunks[i])[0]
        if over.size:
            out.append(f"(3) job {i}: {nw[over[0]]} workers in slot {over[0] + 1} > N_i = {inst.chunks[i]}")
        b, B = inst.worker_bandwidth[i], inst.ps_bandwidth[i]
        need, have = nw * b, nz * B
        short = np.nonzero(need - have > tol * np.maximum(need, have))[0]
        if short.size:
            t = short[0]
            out.append(f"(6) job {i}: slot {t + 1}: worker bandwidth {nw[t] * b:.6g} > PS bandwidth {nz[t] * B:.6g}")
        many = np.nonzero(nz > nw)[0]
        if many.size:
            t = many[0]
            out.append(f"(7) job {i}: slot {t + 1}: {nz[t]} parameter servers > {nw[t]} workers")
        busy = np.nonzero(nw > 0)[0]
        t_hat = int(busy[-1]) + 1
        if hasattr(s, "completion") and s.completion != t_hat:
            out.append(f"(8) job {i}: reported completion {s.completion} != last slot with workers {t_hat}")
        used_w += np.einsum("ht,r->htr", y, inst.worker_demand[i])
        used_p += np.einsum("kt,r->ktr", z, inst.ps_demand[i])
        terms.append(float(inst.utility_of(i, t_hat)))
        total += terms[-1]
    for name, used, cap, eq in (("worker server", used_w, inst.worker_capacity, "(4)"),
                                ("PS server", used_p, inst.ps_capacity, "(5)")):
        excess = used - cap[:, None, :]
        bad = np.argwhere(excess > tol * np.maximum(used, cap[:, None, :]))
        if bad.size:
            h, t, r = bad[0]
            out.append(f"{eq} {name} {h}, slot {t + 1}, {inst.resource_names[r]}: used {used[h, t, r]:.6g} "
                       f"> capacity {cap[h, r]:.6g} ({len(bad)} violations)")
    if isinstance(sol, OasisSolution):
        admitted = tuple(sorted(i for i, s in schedules.items() if np.asarray(s.workers).sum() > 0))
        if tuple(sorted(sol.admitted)) != admitted:
            out.append(f"admitted {sol.admitted} != jobs with a non-empty schedule {admitted}")
        if not same_value(sol.total_utility, total, terms):
            out.append(f"(1) reported total utility {sol.total_utility:.9g} != recomputed {total:.9g}")
    return CheckReport.from_violations(out, total)
