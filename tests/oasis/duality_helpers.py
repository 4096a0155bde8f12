"""The LP of OASiS's (14)-(18) built by hand as dense matrices, for cross-checks with scipy."""

import numpy as np

from hetopt.oasis import Prices, Usage, schedules_by_end


def zero_price_columns(inst):
    """One schedule per job and completion slot on the empty cluster (the columns L0)."""
    e, z = Usage.empty(inst), Prices.zeros(inst)
    cols = {i: [r.schedule for r in schedules_by_end(inst, i, z, e)] for i in range(inst.n_jobs)}
    return {i: c for i, c in cols.items() if c}


def hand_lp(inst, schedules):
    """(f, A, b): max f x s.t. A x <= b, x >= 0, with every (t, server, r) capacity row and one row per job."""
    cols = [(i, l, s) for i in sorted(schedules) for l, s in enumerate(schedules[i])]
    T, H, K, R = inst.horizon, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources
    f = np.array([inst.utility[i](s.completion - int(inst.arrival[i])) for i, _, s in cols], dtype=float)
    rows, b = [], []
    for t in range(T):
        for h in range(H):
            for r in range(R):
                rows.append([inst.worker_demand[i, r] * s.workers[h, t] for i, _, s in cols])
                b.append(inst.worker_capacity[h, r])
        for k in range(K):
            for r in range(R):
                rows.append([inst.ps_demand[i, r] * s.ps[k, t] for i, _, s in cols])
                b.append(inst.ps_capacity[k, r])
    for j in sorted(schedules):
        rows.append([1.0 if i == j else 0.0 for i, _, _ in cols])
        b.append(1.0)
    return f, np.array(rows, dtype=float), np.array(b, dtype=float)
