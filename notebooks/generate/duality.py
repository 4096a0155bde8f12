"""Write notebooks/duality.ipynb (without outputs) from the cells below.

Run from the repository root: ``python notebooks/generate/duality.py``.  Edit the cells here,
not the notebook, and regenerate.
"""

from nbgen import Cells, write

CELLS = Cells()
md, code = CELLS.md, CELLS.code

md(r"""
# LP duality and the primal-dual online algorithm of OASiS

Bao et al. (INFOCOM 2018) schedule machine-learning jobs online: when job $i$ arrives, OASiS
prices every resource, computes the job's best schedule at those prices, and admits the job if
its utility exceeds the price of the resources it would use. The prices are the **dual
variables** of a linear program, and the competitive ratio $2\alpha$ of Theorem 4 is proven by
**dual fitting**: every admitted job raises the primal objective by at least $1/\alpha$ of
what it raises the dual objective.

This notebook makes that argument visible on small instances:

1. the primal (14)-(18) and its dual (19)-(20), side by side, and what their optima mean;
2. weak duality, strong duality and complementary slackness, checked numerically;
3. OASiS's online prices against the optimal duals of the offline LP;
4. the dual-fitting proof of Theorem 4 step by step, where it holds and where it breaks;
5. the same duality in a second market: P3 of Liu et al. (TPDS 2024) and its matching market;
6. exercises (their answers are checked by `tests/test_duality_notebook.py`).

Everything below runs on HiGHS; the offline optima are certified MILP optima.
""")

code(r"""
import numpy as np
import matplotlib.pyplot as plt
import pyomo.environ as pyo

from hetopt.data import instance_path
from hetopt.oasis import (OasisInstance, Prices, Usage, best_schedule_ilp, build_dual, build_primal, fig5_instance,
                          fig5_setting, lp_bound, schedules_by_end, simulate, solve_exact)
from hetopt.oasis.duality import (capacity_term, complementary_slackness, dual_fitting_trace, dual_objective,
                                  dual_payoffs, fit_mu, lp_duals)
from hetopt.solvers import solve_model
""")

md(r"""
## 1. The primal (14) and the dual (19)

A job $i$ arrives in slot $a_i$ and has a set $\mathcal{L}_i$ of feasible schedules. Schedule
$l$ fixes $y_{ih}^l(t)$ workers on server $h$ and $z_{ik}^l(t)$ parameter servers on server $k$
in every slot $t$, and completes in slot $t_{il}$, earning the utility $f_i(t_{il}-a_i)$. A worker
uses $w_i^r$ of resource $r$, a parameter server $s_i^r$; server $h$ has capacity $c_h^r$.
Choosing one schedule per job is the integer program (14)-(18); relaxing $x_{il}\in\{0,1\}$ to
$x_{il}\ge 0$ gives an LP, whose dual is (19)-(20):

| primal (14)-(18), relaxed | dual (19)-(20) |
|---|---|
| $\displaystyle\max_x \sum_{i}\sum_{l\in\mathcal{L}_i} f_i(t_{il}-a_i)\,x_{il}$ | $\displaystyle\min_{p,q,\mu}\ \sum_i \mu_i + \sum_{t,h,r} c_h^r\,p_h^r(t) + \sum_{t,k,r} c_k^r\,q_k^r(t)$ |
| (15) $\displaystyle\sum_{i}\sum_{l} w_i^r\,y_{ih}^l(t)\,x_{il} \le c_h^r \quad \forall t,h,r$ | dual variable $p_h^r(t)\ge 0$: the price of resource $r$ on worker server $h$ in slot $t$ |
| (16) $\displaystyle\sum_{i}\sum_{l} s_i^r\,z_{ik}^l(t)\,x_{il} \le c_k^r \quad \forall t,k,r$ | dual variable $q_k^r(t)\ge 0$: the same on parameter-server server $k$ |
| (17) $\displaystyle\sum_{l\in\mathcal{L}_i} x_{il} \le 1 \quad \forall i$ | dual variable $\mu_i \ge 0$: the payoff of job $i$ |
| (18) $x_{il} \ge 0$ (integer problem: $x_{il}\in\{0,1\}$) | (20) $\displaystyle \mu_i \ge f_i(t_{il}-a_i) - \sum_{t,h,r} p_h^r(t)\,w_i^r\,y_{ih}^l(t) - \sum_{t,k,r} q_k^r(t)\,s_i^r\,z_{ik}^l(t)\quad \forall i, l$ |

Read the dual constraint (20) as an economic statement: at prices $p,q$, the payoff $\mu_i$ of job
$i$ is at least the utility of any of its schedules minus the cost of the resources that
schedule uses. The dual objective charges every unit of capacity at its price and pays every job
its payoff. Minimizing it, $\mu_i = \max\{0, \max_l \text{RHS of (20)}\}$, attained by the best
schedule $l^*$ of (21): this is exactly what Alg. 1 computes for an arriving job.

In `hetopt.oasis`, `build_primal(inst, schedules, relax=True)` builds (14)-(18) relaxed and
`build_dual(inst, schedules)` builds (19)-(20) over an explicit dictionary `schedules[i]` $=\mathcal{L}_i$.
$\mathcal{L}_i$ is exponentially large, so we start with one schedule per job: its best
schedule on the empty cluster for each completion slot (`schedules_by_end` at zero prices),
on the Fig. 5 instance of seed 0 (10 jobs, $T = 10$, 20 servers).
""")

code(r"""
inst = fig5_setting(seed=0)
empty, zero = Usage.empty(inst), Prices.zeros(inst)
L0 = {i: [r.schedule for r in schedules_by_end(inst, i, zero, empty)] for i in range(inst.n_jobs)}
L0 = {i: c for i, c in L0.items() if c}
print("schedules per job:", {i: len(c) for i, c in L0.items()})

primal_lp = build_primal(inst, L0, relax=True)
primal_ip = build_primal(inst, L0)
dual = build_dual(inst, L0)
lp_value = solve_model(primal_lp, "highs").objective
ip_value = solve_model(primal_ip, "highs").objective
dual_value = solve_model(dual, "highs").objective
print(f"LP relaxation of (14) over L0: {lp_value:.4f}")
print(f"dual (19) over L0:             {dual_value:.4f}")
print(f"integer (14) over L0:          {ip_value:.4f}")
print("x_il of the LP:", {c: round(pyo.value(primal_lp.x[c]), 4) + 0.0 for c in primal_lp.COLUMNS})
""")

md(r"""
The LP and its dual agree (strong duality), and the integer program over the same columns is
slightly lower: one job runs a *fraction* of its schedule in the LP. Two cautions:

* $\mathcal{L}^0$ is a **restricted** set of columns. Its integer optimum is a feasible
  solution of the real problem (1), but not its optimum. Column generation
  (`lp_bound`, which prices new schedules with the dual values and the exact oracle (27))
  finds the LP over *all* schedules that fit an empty cluster;
* the LP optimum over all schedules is an **upper bound** on the offline optimum $OPT$ of
  (1)-(13), which `solve_exact` certifies with a MILP.
""")

code(r"""
lb = lp_bound(inst)
opt0 = solve_exact(inst)
print(f"column generation: {sum(map(len, lb.columns.values()))} columns, converged = {lb.converged}, LP = {lb.lp_value:.4f}")
print(f"certified offline optimum OPT (MILP, status {opt0.status.value}): {opt0.total_utility:.4f}")
full = lp_duals(inst, lb.columns)
print("max price p, q at the LP optimum:", full.prices.p.max(), full.prices.q.max())
""")

md(r"""
On this instance the resources never bind: the LP over all schedules equals $OPT$, every price
is 0 and every $\mu_i$ is job $i$'s best utility. Duality is more instructive where jobs compete.
From here on we use a **contested** instance: the same generator with 10 servers
(5 worker servers, 5 parameter-server servers) and priorities in $[1, 10]$.

We take as column set $\mathcal{L}$ the converged column generation plus the schedules of
OASiS and of the certified offline optimum, so that both are feasible points of the primal.
`lp_duals` solves the relaxed primal and reads the optimal $p, q, \mu$ from Pyomo's
`model.dual` suffix.
""")

code(r"""
C = fig5_instance(seed=1, n_servers=10, priority_range=(1.0, 10.0))
lbC = lp_bound(C)
onC = simulate(C, "oasis")
optC = solve_exact(C)
L = {i: list(c) for i, c in lbC.columns.items()}
for sol in (onC, optC):
    for i, s in sol.schedules.items():
        if not any(np.array_equal(s.workers, o.workers) and np.array_equal(s.ps, o.ps) for o in L.setdefault(i, [])):
            L[i].append(s)
star = lp_duals(C, L)
print(f"{sum(map(len, L.values()))} columns; LP optimum {star.objective:.4f}; column generation converged: {lbC.converged}")
print(f"OPT = {optC.total_utility:.4f} ({optC.status.value}),  OASiS = {onC.total_utility:.4f}")
print("mu* =", {i: round(m, 4) for i, m in star.mu.items()})
print("prices p* > 1e-6 as (slot t, server h, resource): value")
print({(int(t) + 1, int(h), C.resource_names[r]): round(float(star.prices.p[t, h, r]), 4)
       for t, h, r in zip(*np.nonzero(star.prices.p > 1e-6))})
print("largest q*:", star.prices.q.max())
""")

md(r"""
## 2. Weak duality, strong duality, complementary slackness

**Weak duality.** For any $x$ feasible for the relaxed primal and any $(p, q, \mu)$ feasible for
the dual,

$$
\sum_{i,l} f_{il}\,x_{il} \;\le\; \sum_{i,l} x_{il}\Big(\mu_i + \sum p\,w\,y + \sum q\,s\,z\Big)
\;\le\; \sum_i \mu_i + \sum c\,p + \sum c\,q,
$$

using (20) and then (15)-(17). A dual feasible point is easy to make: take **any** prices
$p, q \ge 0$ and set $\mu_i = \max\{0, \max_l \text{RHS of (20)}\}$ (`fit_mu`). Below, five primal
points and five dual points; every dual value must lie above every primal value.
""")

code(r"""
def primal_value(x):
    return sum(C.utility_of(i, L[i][l].completion) * v for (i, l), v in x.items())

def column_x(sol):
    x = {}
    for i, s in sol.schedules.items():
        l = next(l for l, o in enumerate(L[i]) if np.array_equal(s.workers, o.workers) and np.array_equal(s.ps, o.ps))
        x[i, l] = 1.0
    return x

primal_points = {
    "x = 0": {},
    "OASiS (integer)": column_x(onC),
    "offline OPT (integer)": column_x(optC),
    "LP optimum x*": star.x,
    "x* / 2": {c: v / 2 for c, v in star.x.items()},
}
first = simulate(C, "oasis", options={"record_prices": True}).info["prices"][0]  # the initial prices L1, L2 of Alg. 1
oasis_trace = dual_fitting_trace(C)
price_points = {
    "p = q = 0": Prices.zeros(C),
    "initial OASiS prices (L1, L2)": first,
    "final OASiS prices": oasis_trace.final_prices,
    "LP optimum p*": star.prices,
    "2 p*": Prices(2 * star.prices.p, 2 * star.prices.q),
}
P = {k: primal_value(x) for k, x in primal_points.items()}
D = {}
for k, pr in price_points.items():
    mu = star.mu if k == "LP optimum p*" else fit_mu(C, L, pr)
    assert all(mu[i] >= rhs - 1e-9 for (i, l), rhs in dual_payoffs(C, L, pr).items())  # (20) holds
    D[k] = dual_objective(C, pr, mu)
for k, v in P.items():
    print(f"primal  {k:32s} {v:10.4f}")
for k, v in D.items():
    print(f"dual    {k:32s} {v:10.4f}")
print(f"max primal {max(P.values()):.6f} <= min dual {min(D.values()):.6f}: {max(P.values()) <= min(D.values()) + 1e-9}")
""")

code(r"""
fig, ax = plt.subplots(figsize=(7, 3.6))
ax.barh(range(len(P)), list(P.values()), color="tab:blue", label="primal (14) value of a feasible x")
ax.barh(range(len(P), len(P) + len(D)), list(D.values()), color="tab:orange", label="dual (19) value of a feasible (p, q, mu)")
ax.axvline(star.objective, color="k", linestyle="--", label=f"LP optimum = {star.objective:.3f}")
ax.axvline(optC.total_utility, color="tab:green", linestyle=":", lw=2, label=f"integer OPT = {optC.total_utility:.3f}")
ax.set_yticks(range(len(P) + len(D)), list(P) + list(D))
ax.set_xscale("symlog", linthresh=10)
ax.set_xlabel("objective value (total utility, symlog scale)")
ax.set_title("Weak duality: every dual value lies above every primal value")
ax.legend(loc="lower right", fontsize=7)
# The two optima are 2 % apart, one line at this scale: a linear zoom shows the integrality gap.
lo, hi = optC.total_utility, star.objective
pad = 0.6 * (hi - lo)
zoom = ax.inset_axes([0.04, 0.55, 0.3, 0.4])
zoom.axvline(hi, color="k", linestyle="--")
zoom.axvline(lo, color="tab:green", linestyle=":", lw=2)
zoom.axvspan(lo, hi, color="0.85")
zoom.set_xlim(lo - pad, hi + pad)
zoom.set_yticks([])
zoom.set_title(f"zoom: integrality gap {hi - lo:.3f}", fontsize=7)
zoom.tick_params(labelsize=6)
print(f"inset zoom on [{lo - pad:.3f}, {hi + pad:.3f}]: integer OPT {lo:.3f} and LP optimum {hi:.3f} are "
      f"{(hi - lo) / (2 * pad + hi - lo):.0%} of its width apart")
fig.tight_layout()
plt.show()
""")

md(r"""
**Strong duality.** The optimal values coincide: the LP optimum $x^*$ and the duals
$(p^*, q^*, \mu^*)$ read from the solver give the same objective. We also solve the dual
(19)-(20) as its own model (`build_dual`) and get the same number; the dual solution need not
be the same vector (LP duals are often not unique), only its value is.
""")

code(r"""
dual_model = build_dual(C, L)
dual_model_value = solve_model(dual_model, "highs").objective
print(f"primal LP {star.objective:.8f}   dual at the suffix duals {dual_objective(C, star.prices, star.mu):.8f}"
      f"   dual model {dual_model_value:.8f}")
""")

md(r"""
**Complementary slackness.** For feasible $x$ and $(p, q, \mu)$, expanding the weak-duality
chain gives the identity

$$
\begin{aligned}
\text{(19)} - \text{(14)} ={}& \sum_{t,h,r} p_h^r(t)\,\underbrace{\big(c_h^r - \textstyle\sum w\,y\,x\big)}_{\text{slack of (15)}}
  + \sum_{t,k,r} q_k^r(t)\,(\text{slack of (16)}) \\
&+ \sum_i \mu_i\,(\text{slack of (17)}) + \sum_{i,l} x_{il}\,(\text{slack of (20)}),
\end{aligned}
$$

a sum of nonnegative products. So both are optimal iff **every product is zero**: a priced
resource is fully used, a job with positive payoff is fully scheduled, and a schedule that runs
has zero reduced payoff. `complementary_slackness` lists every product.
""")

code(r"""
rows = complementary_slackness(C, L, star.x, star.prices, star.mu)
print(f"{len(rows)} rows; largest |slack x multiplier| = {max(abs(r['product']) for r in rows):.2e}")
positive = [r for r in rows if r["multiplier"] > 1e-6]  # a positive multiplier forces a zero slack
print(f"{len(positive)} rows with a multiplier > 1e-6; the first of each kind:")
print(f"{'constraint':22s} {'index':>12s} {'slack':>10s} {'multiplier':>11s} {'product':>10s}")
for kind in ("worker capacity (15)", "PS capacity (16)", "one schedule (17)", "column (20)"):
    for r in [r for r in positive if r["kind"] == kind][:4]:
        print(f"{r['kind']:22s} {str(r['index']):>12s} {r['slack']:10.3g} {r['multiplier']:11.3g} {r['product']:10.2e}")

oasis_rows = complementary_slackness(C, L, primal_points["OASiS (integer)"], oasis_trace.final_prices,
                                     fit_mu(C, L, oasis_trace.final_prices))
gap = D["final OASiS prices"] - P["OASiS (integer)"]
print(f"\nOASiS's x with the final OASiS prices: sum of products {sum(r['product'] for r in oasis_rows):.4f}"
      f" = dual - primal {gap:.4f}")
""")

code(r"""
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
kinds = ["worker capacity (15)", "PS capacity (16)", "one schedule (17)", "column (20)"]
for ax, rs, title in ((axes[0], rows, "optimal pair (x*, p*, q*, mu*)"),
                      (axes[1], oasis_rows, "OASiS's x, final OASiS prices")):
    for kind, marker in zip(kinds, "osD^"):
        sel = [r for r in rs if r["kind"] == kind]
        ax.scatter([max(r["slack"], 0) for r in sel], [r["multiplier"] for r in sel], marker=marker, alpha=0.6, label=kind)
    ax.set_xscale("symlog", linthresh=1e-3)
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.set_xlabel("slack of the constraint (resource units / payoff)")
    ax.set_title(title, fontsize=9)
axes[0].set_ylabel("multiplier (dual price, or x_il for a column)")
axes[0].legend(fontsize=7)
fig.suptitle("Complementary slackness: at the optimum every point lies on an axis")
fig.tight_layout()
plt.show()
""")

md(r"""
## 3. Online prices against the optimal duals

OASiS never solves the LP. It sets the price of a resource from how much of it is already
allocated, with the exponential price function (22):

$$
p_h^r(t) = L_1\Big(\frac{U_1^r}{L_1}\Big)^{g_h^r(t)/c_h^r},
$$

$L_1$ on an idle server (small enough that any job can be admitted on an empty cluster) and
$U_1^r$ when the server is full (large enough that no job can afford the last unit). The optimal
dual $p^*$ is a *marginal value*: how much the LP optimum would rise with one more unit of
capacity. First the price functions of the contested instance (`hetopt.oasis.experiments.plot.price_curve`), then
the most expensive server per slot and resource: OASiS's prices after all jobs, against $p^*$.
""")

code(r"""
from hetopt.oasis.experiments.plot import price_curve

fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
price_curve(C, ax=axes[0], side="workers")
price_curve(C, ax=axes[1], side="ps")
fig.tight_layout()
plt.show()
""")

code(r"""
fig, axes = plt.subplots(1, C.n_resources, figsize=(11, 3.4), sharey=True)
slots = np.arange(1, C.horizon + 1)
for r, ax in enumerate(axes):
    ax.step(slots, oasis_trace.final_prices.p[:, :, r].max(axis=1), where="mid", label="OASiS (22), after the last job")
    ax.step(slots, star.prices.p[:, :, r].max(axis=1), where="mid", linestyle="--", label="optimal LP dual p*")
    ax.set_yscale("symlog", linthresh=1e-4)
    ax.set_xlabel("time slot t")
    ax.set_title(f"resource: {C.resource_names[r]}")
axes[0].set_ylabel("max over worker servers of p_h^r(t)\n(utility per resource unit)")
axes[0].legend(fontsize=7)
fig.suptitle("Worker-server prices: online (Alg. 1) vs offline (LP dual)")
fig.tight_layout()
plt.show()
""")

md(r"""
The online prices are orders of magnitude above the optimal duals where OASiS filled a server
(they reach $U_1^r$, the best utility per unit of the resource), and tiny, near $L_1$, elsewhere.
That is by design: OASiS does not know the future, so it must price a full server as if the most
valuable possible job were still to come. The price of that caution is what the factor
$\alpha = \max_r \ln(U^r/L)$ measures. The next figure shows how the prices of the server-slots
OASiS used grew as the jobs arrived.
""")

code(r"""
run = simulate(C, "oasis", options={"record_prices": True})
order = sorted(run.info["prices"], key=lambda i: (int(C.arrival[i]), i))
seen = [run.info["prices"][i] for i in order] + [oasis_trace.final_prices]
fig, ax = plt.subplots(figsize=(7, 3.4))
for r in range(C.n_resources):
    ax.plot(range(len(seen)), [capacity_term(C, Prices(s.p * (np.arange(C.n_resources) == r), 0 * s.q)) for s in seen],
            marker="o", label=f"worker servers, {C.resource_names[r]}")
ax.plot(range(len(seen)), [capacity_term(C, s) for s in seen], color="k", linewidth=2, label="all resources (p and q)")
ax.axhline(star.objective, color="tab:red", linestyle="--", label="LP optimum (for scale)")
ax.set_yscale("log")
ax.set_xticks(range(len(seen)), ["start"] + [f"after {i}" for i in order], rotation=45, fontsize=7)
ax.set_xlabel("jobs handled, in arrival order (job index)")
ax.set_ylabel("priced capacity sum c * p (utility)")
ax.set_title("Growth of the priced capacity term of (19) under Alg. 1")
ax.legend(fontsize=7)
fig.tight_layout()
plt.show()
""")

md(r"""
## 4. The $2\alpha$ dual-fitting argument, step by step

Appendix E runs Alg. 1 and tracks two numbers after job $i$: $P_i$, the primal value (14) of the
schedules admitted so far, and $D_i$, the dual value (19) of the current prices and payoffs. The
proof has three steps.

**Lemma 2 (per job).** When job $i$ is admitted with schedule $l$ at the prices $p^{i-1}$ it saw,
$(20)$ is tight, so

$$
P_i - P_{i-1} = f_i = \mu_i + \sum p^{i-1}\,\Delta g, \qquad D_i - D_{i-1} = \mu_i + \sum c\,(p^i - p^{i-1}).
$$

If the **allocation-cost relationship** $p^{i-1}\Delta g \ge \frac{c}{\alpha}(p^i - p^{i-1})$ holds in
every touched $(t, h, r)$, then $P_i - P_{i-1} \ge \frac{1}{\alpha}(D_i - D_{i-1})$.

**Lemma 1 (sum).** Summing, $P_I \ge \frac{1}{\alpha}(D_I - D_0)$. If the final $(p^I, q^I, \mu)$ is
dual feasible, weak duality gives $D_I \ge OPT$; with $D_0 \le OPT/2$ (by the choice of $L$),
$P_I \ge \frac{1}{\alpha}\cdot\frac{OPT}{2}$, i.e. $OPT/P_I \le 2\alpha$.

**Lemma 3 (prices).** With (22), $dp = p\,\frac{\ln(U/L)}{c}\,dg$, so the allocation-cost
relationship holds **in the differential limit** $\Delta g \to 0$ with $\alpha = \ln(U/L)$; the
proof then assumes $w_i^r \ll c_h^r$ to replace $dg$ by $\Delta g$.

`dual_fitting_trace` replays Alg. 1 and records every term.
""")

code(r"""
def show_trace(tr, opt):
    print(f"alpha = {tr.alpha:.3f}, 2 alpha = {2 * tr.alpha:.3f}, D_0 = {tr.D0:.3g} (OPT / 2 = {opt / 2:.4g})")
    print(f"{'job':>3s} {'adm':>4s} {'P_i-P_i-1':>10s} {'mu_i':>9s} {'paid':>9s} {'D_i-D_i-1':>11s} {'(D_i-D_i-1)/alpha':>18s} {'Lemma 2':>8s}")
    for s in tr.steps:
        print(f"{s.job:3d} {str(s.admitted):>4s} {s.delta_primal:10.4g} {s.mu:9.4g} {s.price_paid:9.3g} {s.delta_dual:11.4g}"
              f" {s.delta_dual / tr.alpha:18.4g} {'holds' if s.holds else 'FAILS':>8s}")
    print(f"P_I = {tr.primal:.4f}, D_I = {tr.dual:.4f}, (D_I - D_0) / alpha = {(tr.dual - tr.D0) / tr.alpha:.4f}")
    print(f"OPT = {opt:.4f}; OPT / P_I = {opt / tr.primal:.4g} vs 2 alpha = {2 * tr.alpha:.4g}")

show_trace(oasis_trace, optC.total_utility)
""")

code(r"""
def plot_trace(tr, opt, title):
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    jobs = [s.job for s in tr.steps]
    xs = np.arange(len(jobs))
    axes[0].bar(xs - 0.2, [s.delta_primal for s in tr.steps], width=0.4, label="P_i - P_(i-1) (utility gained)")
    axes[0].bar(xs + 0.2, [s.delta_dual / tr.alpha for s in tr.steps], width=0.4, label="(D_i - D_(i-1)) / alpha")
    for x, s in zip(xs, tr.steps):
        if not s.holds:
            axes[0].annotate("fails", (x, max(s.delta_primal, s.delta_dual / tr.alpha)), ha="center", fontsize=7, color="red")
    axes[0].set_xticks(xs, [str(j) for j in jobs])
    axes[0].set_xlabel("job, in arrival order")
    axes[0].set_ylabel("increment (utility)")
    axes[0].set_title("Lemma 2: per-job inequality", fontsize=9)
    axes[0].legend(fontsize=7)
    axes[1].plot(xs, tr.cumulative_primal, marker="o", label="P_i (OASiS's utility so far)")
    axes[1].plot(xs, (tr.cumulative_dual - tr.D0) / tr.alpha, marker="s", label="(D_i - D_0) / alpha")
    axes[1].axhline(opt, color="tab:green", linestyle=":", label="OPT (certified)")
    axes[1].axhline(opt / (2 * tr.alpha), color="tab:red", linestyle="--", label="OPT / (2 alpha): the guarantee")
    axes[1].set_yscale("log")
    axes[1].set_xticks(xs, [str(j) for j in jobs])
    axes[1].set_xlabel("job, in arrival order")
    axes[1].set_ylabel("cumulative objective (utility, log)")
    axes[1].set_title("Lemma 1: cumulative sums", fontsize=9)
    axes[1].legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    plt.show()

plot_trace(oasis_trace, optC.total_utility, "Dual fitting on the contested instance")
""")

md(r"""
On this instance the **conclusion** of Theorem 4 holds easily ($OPT/P_I$ is close to 1, far below
$2\alpha$), yet the **per-job inequality of Lemma 2 fails** for the admitted jobs, and so does its
sum: $(D_I - D_0)/\alpha$ lies above $P_I$ in the right panel. The culprit is
the step $dg \to \Delta g$. In one $(t, h, r)$ with a fraction $x = \Delta g / c$ of the capacity
allocated at once, the price rises by the factor $(U/L)^x = e^{\alpha x}$, and the
allocation-cost relationship asks

$$
p\,\Delta g \ge \frac{c}{\alpha}\,p\,(e^{\alpha x} - 1) \iff \frac{e^{\alpha x} - 1}{\alpha x} \le 1,
$$

which is **false for every $x > 0$** (since $e^y > 1 + y$); it holds only up to a factor that tends
to 1 as $\alpha x \to 0$. With $\alpha \approx 15$, the factor is about 2 for a step of
10% of a server and about 200 for a step of 50%. The premise $w_i^r \ll c_h^r$ is therefore not a convenience:
it must mean $\alpha\,w_i^r / c_h^r \ll 1$.
""")

code(r"""
# the allocation fractions x = delta g / c of every (t, h, r) touched by an admitted job of the run
fractions = []
for i, s in run.schedules.items():
    for h, t in zip(*np.nonzero(s.workers)):
        for r in np.nonzero(C.worker_demand[i])[0]:
            fractions.append(C.worker_demand[i, r] * s.workers[h, t] / C.worker_capacity[h, r])
fractions = np.array(fractions)
a = oasis_trace.alpha
xg = np.logspace(-4, 0, 200)
fig, ax = plt.subplots(figsize=(6, 3.4))
ax.loglog(xg, np.expm1(a * xg) / (a * xg), label=f"(exp(alpha x) - 1) / (alpha x), alpha = {a:.1f}")
ax.scatter(fractions, np.expm1(a * fractions) / (a * fractions), color="tab:red", s=12, zorder=3,
           label="allocations of OASiS on the contested instance")
ax.axhline(1, color="k", linestyle="--", label="Lemma 2 needs <= 1")
ax.set_xlabel("allocated fraction of the capacity in one step, x = w y / c")
ax.set_ylabel("dual increase / (alpha x primal cost)")
ax.set_title("The discrete allocation-cost relationship")
ax.legend(fontsize=7)
fig.tight_layout()
plt.show()
print(f"allocation fractions: min {fractions.min():.3f}, median {np.median(fractions):.3f}, max {fractions.max():.3f}")
""")

md(r"""
**Where the premise holds and the theorem still fails.** The claims ledger
(`hetopt.claims`, claim `oasis2018.theorem4.ratio_in_premise`) keeps an instance inside every
premise: one job, demands 1% of a server ($w = 1$, $c = 100$), a chunk takes 0.03 slot, utility
$f = [10, 10, 10, 10^{-3}]$ by completion offset. Here Lemma 2 holds. What breaks is Lemma 1's
use of weak duality: Alg. 2 (the DP oracle) rounds the work per slot and misses the schedule that
finishes in slot 3, so the payoff $\mu_i$ it reports is **not** $\max_l$ RHS of (20). The fitted
dual $(p^I, q^I, \mu)$ is then infeasible, and $D_I$ falls far below $OPT$.
""")

code(r"""
ip = OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))
opt_ip = solve_exact(ip).total_utility
tr_ip = dual_fitting_trace(ip)
show_trace(tr_ip, opt_ip)
exact = best_schedule_ilp(ip, 0, tr_ip.final_prices, Usage.empty(ip))
print(f"\nAlg. 2's payoff mu_0 = {tr_ip.mu[0]:.4g}; the exact oracle (27) at the final prices finds payoff {exact.payoff:.4g}"
      f" (completion slot {exact.schedule.completion})")
print(f"so (20) is violated by {exact.payoff - tr_ip.mu[0]:.4g}: D_I = {tr_ip.dual:.4g} < OPT = {opt_ip:.4g}")
tr_exact = dual_fitting_trace(ip, oracle=best_schedule_ilp)
print(f"with the exact oracle in Alg. 1: P_I = {tr_exact.primal:.4g}, D_I = {tr_exact.dual:.4g}, OPT / P_I = {opt_ip / tr_exact.primal:.4g}")
""")

code(r"""
fig, ax = plt.subplots(figsize=(6, 3.4))
labels = ["P_I (OASiS, Alg. 2)", "D_I (Alg. 2's dual)", "OPT", "P_I (exact oracle)", "D_I (exact oracle)"]
vals = [tr_ip.primal, tr_ip.dual, opt_ip, tr_exact.primal, tr_exact.dual]
colors = ["tab:blue", "tab:orange", "tab:green", "tab:blue", "tab:orange"]
ax.bar(range(len(vals)), vals, color=colors)
ax.axhline(opt_ip / (2 * tr_ip.alpha), color="tab:red", linestyle="--", label=f"OPT / (2 alpha) = {opt_ip / (2 * tr_ip.alpha):.3f}")
ax.set_yscale("log")
ax.set_xticks(range(len(vals)), labels, rotation=20, fontsize=8)
ax.set_ylabel("objective value (utility, log)")
ax.set_title("In-premise counterexample: weak duality needs a feasible dual")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
""")

md(r"""
## 5. A second market: P3 of Liu et al. and its dual

Liu et al. (TPDS 2024) place $S$ jobs on $K$ heterogeneous workers. For a fixed *category*
$(K_1,\dots,K_S)$ (job $i$ gets $K_i$ workers, $\sum_i K_i = K$), their problem P3 (18) maximizes the
total throughput; $\rho_{i,k}$ is job $i$'s samples/s on worker $k$. Its constraint matrix is
totally unimodular, so the LP below has integral optima, and its dual prices the workers:

| primal P3 (18), relaxed | dual |
|---|---|
| $\displaystyle\max_{\sigma} \sum_{i,k} \rho_{i,k}\,\sigma_{i,k}$ | $\displaystyle\min_{u, p}\ \sum_i K_i\,u_i + \sum_k p_k$ |
| (17) $\sum_k \sigma_{i,k} = K_i$ | $u_i$ free: the payoff of each of job $i$'s slots |
| (8d) $\sum_i \sigma_{i,k} \le 1$ | $p_k \ge 0$: the price of worker $k$ |
| $\sigma_{i,k} \ge 0$ | $u_i + p_k \ge \rho_{i,k}$ for all $i, k$ |

Algorithm 2 (the matching market) raises worker prices until every job's slots can be matched to
workers of maximal payoff $\rho_{i,k} - p_k$. At those clearing prices, $u_i = \max_k(\rho_{i,k}-p_k)$
is dual feasible, and every assigned pair is tight: complementary slackness holds, so the
market's assignment is optimal for P3. That is Theorem 2 of the paper, read as LP duality.
Below, on the paper's Table II example (2 jobs, 4 workers), the market's prices against the dual
LP written out and solved directly.
""")

code(r"""
import cvxpy as cp
from hetopt.placement import PlacementInstance, categories, matching_market

pl = PlacementInstance.from_json(instance_path("liu2024_table2"))
rho = pl.throughput
print("rho (samples/s), jobs x workers:\n", rho)


def p3_dual_value(cat, prices):
    u = (rho - prices).max(axis=1)  # the smallest feasible payoff of a slot of job i
    return float(np.dot(cat, u) + prices.sum())


market_rows = []
for cat in categories(pl.n_jobs, pl.n_workers):
    cat = tuple(int(c) for c in cat)
    mk = matching_market(pl, cat)
    # the dual LP written out and solved, then the smallest optimal price of every worker
    uu, pp = cp.Variable(pl.n_jobs), cp.Variable(pl.n_workers, nonneg=True)
    objective = np.asarray(cat, dtype=float) @ uu + cp.sum(pp)
    feasible = [uu[:, None] + pp[None, :] >= rho]
    V = cp.Problem(cp.Minimize(objective), feasible).solve(solver="HIGHS")
    lowest = np.array([cp.Problem(cp.Minimize(pp[k]), feasible + [objective <= V * (1 + 1e-9)]).solve(solver="HIGHS")
                       for k in range(pl.n_workers)])
    market_rows.append((cat, mk.throughput, V, p3_dual_value(cat, mk.prices), mk.prices, lowest))
    print(f"category {cat}: P3 optimum (market) {mk.throughput:.0f}, dual LP optimum {V:.0f}, dual at the market prices "
          f"{p3_dual_value(cat, mk.prices):.0f}, at the market prices + 500: {p3_dual_value(cat, mk.prices + 500):.0f}")
    print(f"    market prices {mk.prices}, smallest optimal prices {np.round(lowest, 3)}")
""")

md(r"""
The market's prices are optimal duals, and they are the **smallest** optimal prices (Demange, Gale
and Sotomayor's auction stops at the minimum competitive prices). They are not the only ones:
since every worker is assigned ($\sum_i K_i = K$) and the $u_i$ are free, raising every price by
the same amount and lowering every $u_i$ by it leaves the dual objective unchanged, so the optimal
duals form an unbounded line. The figure shows the market prices and the shifted optimal prices.
""")

code(r"""
fig, axes = plt.subplots(1, len(market_rows), figsize=(11, 3.4), sharey=True)
for ax, (cat, thr, V, mdual, mp, low) in zip(axes, market_rows):
    xs = np.arange(len(mp))
    ax.bar(xs - 0.2, mp, width=0.4, label="matching-market price p_k")
    ax.bar(xs + 0.2, mp + 500, width=0.4, hatch="//", alpha=0.6, label="p_k + 500 (with u_i - 500): also optimal")
    ax.scatter(xs - 0.2, low, color="k", marker="_", s=200, zorder=3, label="smallest optimal price (dual LP)")
    ax.set_xticks(xs, [f"worker {k}" for k in xs], fontsize=8)
    ax.set_title(f"category {cat}: optimum {thr:.0f} = dual {mdual:.0f}", fontsize=8)
    ax.set_xlabel("worker k")
axes[0].set_ylabel("price (samples/s)")
axes[0].legend(fontsize=7, loc="upper left")
for j in range(1, len(market_rows)):
    for i in range(j):
        if np.allclose(market_rows[i][4], market_rows[j][4]):
            # equal prices are not a plotting slip: the same job is the marginal bidder in both categories
            cat_i, cat_j, mp = market_rows[i][0], market_rows[j][0], market_rows[j][4]
            fast = int(np.argmax(mp))
            slow = int(np.argmin(mp))
            bidder = int(np.argmin([rho[b, fast] - rho[b, slow] for b in range(pl.n_jobs)]))
            why = (f"categories {cat_i} and {cat_j} have the same prices: in both, job {bidder} holds a slow worker "
                   f"and bids for a fast one, so p_fast - p_slow = rho[{bidder}, {fast}] - rho[{bidder}, {slow}] = "
                   f"{rho[bidder, fast] - rho[bidder, slow]:.0f}")
            print(why)
            axes[j].text(0.5, 0.97, f"same prices as category {cat_i}\n(job {bidder} is the marginal bidder)",
                         transform=axes[j].transAxes, ha="center", va="top", fontsize=7,
                         bbox=dict(facecolor="white", alpha=0.8))
            break
fig.suptitle("Optimal duals of P3: the market's clearing prices are the smallest")
fig.tight_layout()
plt.show()
""")

md(r"""
## 6. Exercises

Each answer is stored in a variable; the test suite recomputes it independently (another
formulation or a hand computation from the instance's data).

**Exercise 1.** Over the column set $\mathcal{L}^0$ of Section 1 (instance `fig5_setting(seed=0)`), what is
the optimum of the dual (19)-(20)? Store it in `answer_1`. *(The test builds the dual's constraint
matrix by hand and solves it with `scipy.optimize.linprog`.)*
""")

code(r"""
answer_1 = dual_value
answer_1
""")

md(r"""
**Exercise 2.** On the contested instance, how many GPU-slots (resource 0, summed over all worker
servers and all slots) does OASiS's schedule leave unused,
$\sum_{t,h}\big(c_h^0 - \sum_i w_i^0 y_{ih}(t)\big)$? Store it in `answer_2`. *(The test sums
the schedules' arrays itself.)*
""")

code(r"""
gpu_rows = [r for r in complementary_slackness(C, L, primal_points["OASiS (integer)"], Prices.zeros(C), {})
            if r["kind"] == "worker capacity (15)" and r["index"][2] == 0]
used = sum(C.worker_capacity[r["index"][1], 0] - r["slack"] for r in gpu_rows)  # rows with some GPU in use
answer_2 = float(C.horizon * C.worker_capacity[:, 0].sum() - used)
answer_2
""")

md(r"""
**Exercise 3.** On the contested instance, for which jobs does the per-job inequality of Lemma 2,
$P_i - P_{i-1} \ge (D_i - D_{i-1})/\alpha$, fail? Store the sorted list of job indices in `answer_3`.
*(The test recomputes the prices from (22) itself.)*
""")

code(r"""
answer_3 = sorted(s.job for s in oasis_trace.steps if not s.holds)
answer_3
""")

md(r"""
**Exercise 4.** On the in-premise instance, by how much does the schedule that runs $N_0 = 10$
workers and 10 parameter servers on the single servers in slots 1, 2, 3 violate the dual
constraint (20) at OASiS's final prices and payoff $\mu_0$? (Its RHS minus $\mu_0$.) Store it in
`answer_4`.
""")

code(r"""
from hetopt.oasis import JobSchedule
s3 = JobSchedule(0, np.array([[10, 10, 10, 0]]), np.array([[10, 10, 10, 0]]))
answer_4 = dual_payoffs(ip, {0: [s3]}, tr_ip.final_prices)[0, 0] - tr_ip.mu[0]
answer_4
""")

md(r"""
**Exercise 5.** For the Table II instance and the category $(1, 3)$, evaluate the dual objective
$\sum_i K_i u_i + \sum_k p_k$ at the matching market's prices with $u_i = \max_k(\rho_{i,k}-p_k)$.
Store it in `answer_5`. *(The test solves P3 as an assignment problem with scipy's Hungarian
algorithm: by strong duality the two must agree.)*
""")

code(r"""
answer_5 = next(mdual for (cat, thr, V, mdual, mp, low) in market_rows if cat == (1, 3))
answer_5
""")

md(r"""
**Exercise 6 (open).** Run `dual_fitting_trace(C, log_ratio_cap=c)` for `c` in 4, 6, 8 and 12 (a cap
on $\ln(U/L)$, an option of hetopt that keeps $U$ and raises $L$). A smaller cap means a smaller
$2\alpha$, but also a larger price on an empty cluster: what happens to the admissions and to
$OPT/P_I$? Does Lemma 2 hold more often? Explain with $(e^{\alpha x}-1)/(\alpha x)$ and with the
property that any job can be admitted on an empty cluster (Section IV-B).

## Further reading

Buchbinder and Naor, *The Design of Competitive Online Algorithms via a Primal-Dual Approach*
(Foundations and Trends in TCS, 2009), the framework Appendix E follows; Bao et al.,
INFOCOM 2018, Section IV and Appendix E; `models/oasis2018.md` for the readings adopted and the
claims ledger (`hetopt claims`) for the verdicts.
Liu et al., *Sampling-Based Multi-Job Placement for Heterogeneous Deep Learning Clusters*, IEEE TPDS
35(6), 2024 (P3 and Algorithm 2); Demange, Gale and Sotomayor, *Multi-Item Auctions*, J. Political
Economy 94(4), 1986, the auction whose clearing prices are optimal duals.
""")


if __name__ == "__main__":
    write("duality", CELLS, papers=("oasis", "placement"), min_figures=3,
          title="LP duality and primal-dual online algorithms (OASiS (14)/(19), P3 of Liu et al.)")
