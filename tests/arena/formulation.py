"""A second formulation of the bounds' LPs (M) and (W): Pyomo, in seconds and GPU-seconds, solved by SCIP.

Written from the equations of ``models/arena.md`` (*Certified bounds*), not from
``hetopt.arena.fluid``'s arrays: variables ``y[j, r, l]`` are GPU-seconds of type r given to job j
in interval l; the rates are recomputed here from the definitions.  On the same breakpoints the two
formulations have the same optimum.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo

from hetopt.solvers import solve_model


def fastest_rate(w, j: int, rule: str) -> float:
    """The fastest gang rate of job j (iterations/s) under ``rule``, by enumerating the gang's type multisets."""
    g = int(w.scale_factor[j])
    cap = [int(c) for c in w.capacity]
    best = 0.0
    R = len(cap)

    def rec(r, left, used):
        nonlocal best
        if left == 0:
            if used:
                best = max(best, min(float(w.throughput[j, t]) for t in used))
            return
        if r == R:
            return
        rec(r + 1, left, used)
        if w.throughput[j, r] > 0:
            top = min(left, cap[r])
            for n in range(1, top + 1):
                if rule == "single" and n != g:
                    continue
                rec(r + 1, left - n, used + [r])

    rec(0, g, [])
    return best


def _model(w, rule, points, makespan: bool, weights=None):
    J, R = w.throughput.shape
    rho = np.array([fastest_rate(w, j, rule) / float(w.steps[j]) for j in range(J)])  # fractions per second
    a = np.asarray(w.arrival, dtype=float)
    c = np.asarray(w.capacity, dtype=float)
    g = np.asarray(w.scale_factor, dtype=float)
    frac = {(j, r): float(w.throughput[j, r]) / (g[j] * float(w.steps[j]))  # fraction per GPU-second
            for j in range(J) for r in range(R)
            if w.throughput[j, r] > 0 and (rule == "bottleneck" or c[r] >= g[j])}
    B = [float(b) for b in points]
    L = len(B)
    m = pyo.ConcreteModel()
    m.I = pyo.Set(initialize=[(j, r, l) for (j, r) in frac for l in range(L)
                              if (l + 1 < L and B[l + 1] > a[j]) or l + 1 == L])
    m.y = pyo.Var(m.I, domain=pyo.NonNegativeReals)
    if makespan:
        m.T = pyo.Var(domain=pyo.Reals)
        end = [*B[1:], m.T]
    else:
        m.F = pyo.Var(range(J), domain=pyo.Reals)
        end = [*B[1:], None]
    m.rows = pyo.ConstraintList()
    for j in range(J):
        work = sum(frac[j, r] * m.y[j, r, l] for (jj, r, l) in m.I if jj == j)
        m.rows.add(work >= 1 if makespan else work == 1)
    for l in range(L):
        if end[l] is None:
            continue
        for r in range(R):
            terms = [m.y[j, rr, ll] for (j, rr, ll) in m.I if rr == r and ll == l]
            if terms:
                m.rows.add(sum(terms) <= c[r] * (end[l] - B[l]))
        for j in range(J):
            terms = [(rr, m.y[jj, rr, ll]) for (jj, rr, ll) in m.I if jj == j and ll == l]
            if terms:
                span = end[l] - max(B[l], a[j])
                m.rows.add(sum(v for _, v in terms) <= g[j] * span)
                m.rows.add(sum(frac[j, rr] * v for rr, v in terms) <= rho[j] * span)
    if makespan:
        for j in range(J):
            m.rows.add(m.T >= a[j] + 1.0 / rho[j])
        m.obj = pyo.Objective(expr=m.T)
    else:
        wt = np.asarray(w.weight if weights is None else weights, dtype=float)
        for j in range(J):
            late = sum(max(B[l] - a[j], 0.0) * frac[j, r] * m.y[j, r, l] for (jj, r, l) in m.I if jj == j)
            m.rows.add(m.F[j] >= late + 0.5 / rho[j])
            m.rows.add(m.F[j] >= 1.0 / rho[j])
        m.obj = pyo.Objective(expr=sum(float(wt[j]) * m.F[j] for j in range(J)) / float(wt.sum()))
    return m


def second_formulation(w, rule: str, points, *, makespan: bool, weights=None) -> float:
    """The optimum of (M) (``makespan=True``, seconds) or of (W) (weighted average flow time, seconds)."""
    m = _model(w, rule, points, makespan, weights)
    sol = solve_model(m, "scip")
    assert sol.is_optimal, sol
    return float(pyo.value(m.obj))
