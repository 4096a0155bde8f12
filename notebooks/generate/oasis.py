"""Write notebooks/oasis.ipynb (stored without outputs): ``python notebooks/generate/oasis.py``.

The notebook is generated so that its text, maths and code are reviewed as one file; the test
``tests/test_notebook_contents.py`` executes the written notebook.
"""

from nbgen import Cells, write

CELLS = Cells()
md, code = CELLS.md, CELLS.code

md(r"""
# OASiS: online admission and scheduling of ML jobs with resource prices

Y. Bao, Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine Learning Clusters", *IEEE INFOCOM
2018*, pp. 495-503 (subpackage `hetopt.oasis`, formulation card `models/oasis2018.md`).

Jobs arrive over slots $t = 1..T$. A job trains $E_i$ epochs of $N_i$ data chunks with workers and parameter
servers (PS) placed on servers with several resources (GPU, CPU, bandwidth); its utility $f_i$ falls with its
completion time. On each arrival, OASiS prices every (slot, server, resource) by how full it is, computes the job's
best schedule at those prices, and **admits the job only if its utility exceeds the priced cost**. Theorem 4
claims the total utility is within a factor $2\alpha$ of the offline optimum.

This notebook teaches, in order:

1. **the model** (1)-(13) mapped to its Pyomo components, and the schedule-based LP (14)-(18) with its dual
   (19)-(20), whose variables are the prices;
2. **Algorithm 1** step by step: the price functions (22), each arriving job's payoff and decision, the schedules;
3. **the certificate**: the certified offline optimum and the ratio against $2\alpha$, and where Theorem 4 fails;
4. **the claims** of the paper with the verdicts recorded in the claims ledger;
5. **your own policy** through the simulator's plug-in protocol (`Policy`, `Cluster`);
6. **exercises** with answers checked by the test suite.
""")

code(r"""
import matplotlib.pyplot as plt
import numpy as np
import pyomo.environ as pyo

import hetopt
from hetopt.data import instance_path
from hetopt.oasis.experiments.plot import gantt as oasis_gantt, price_curve  # the paper's own figures
from hetopt.plot import ratio_vs_bound  # the shared figures of every paper
from hetopt.oasis import (POLICIES, Cluster, OasisInstance, Policy, Prices, best_schedule, best_schedule_ilp,
                          build_dual, build_offline, build_primal, check_schedule, competitive_bound, fig5_setting,
                          price, price_bounds, schedules_by_end, simulate, solve_exact, validate_ratio)
from hetopt.solvers import solve_model

inst = fig5_setting(seed=3)  # the Fig. 5 setting: 10 jobs, T = 10, sigmoid utilities, priorities in [1, 10]
print(f"{inst.n_jobs} jobs, T = {inst.horizon}, {inst.n_worker_servers} worker servers, {inst.n_ps_servers} PS servers, "
      f"resources {inst.resource_names}")
print("arrival slots a_i:", inst.arrival, "\nchunks N_i:", inst.chunks, "\nworker-slots needed (2):", np.round(inst.workload, 1))
""")

md(r"""
## 1. The model

Variables: admission $x_i\in\{0,1\}$, workers $y_{ih}(t)$ and parameter servers $z_{ik}(t)$ (integers), the completion
slot $\hat t_i$ (through indicators $u_i(t)$). Problem (1)-(13):

$$
\begin{aligned}
&\max \sum_i x_i\, f_i(\hat t_i - a_i) && (1)\\
&\text{s.t.}\quad \sum_t\sum_h y_{ih}(t) \ge x_i E_i N_i M_i(\tau_i + 2e_i/b_i)\ \ (2),\qquad
\sum_h y_{ih}(t) \le x_i N_i && (3)\\
&\sum_i w_i^r y_{ih}(t) \le c_h^r\ \ (4),\qquad \sum_i s_i^r z_{ik}(t) \le c_k^r && (5)\\
&b_i\sum_h y_{ih}(t) \le B_i \sum_k z_{ik}(t)\ \ (6),\qquad \sum_k z_{ik}(t)\le\sum_h y_{ih}(t) && (7)\\
&\hat t_i = \text{the last slot with a worker}\ \ (8),\qquad y_{ih}(t) = z_{ik}(t) = 0 \ \text{for } t < a_i
&& (9)\text{-}(10)
\end{aligned}
$$

`build_offline` writes (8) with one indicator $u_i(t)$ per possible completion slot. The components, printed from the
built model with their `doc`:
""")

code(r"""
m = build_offline(inst)
for c in m.component_objects((pyo.Var, pyo.Objective, pyo.Constraint)):
    n = len(c) if c.is_indexed() else 1
    print(f"{c.name:26s} {c.ctype.__name__:10s} {n:5d}  {c.doc}")
expected = {"(1)": "utility", "(2)": "work_done", "(3)": "max_workers", "(4)": "worker_capacity", "(5)": "ps_capacity",
            "(6)": "ps_bandwidth", "(7)": "ps_count", "(8a)": "completion_once", "(9)": "no_workers_before_arrival",
            "(10)": "no_ps_before_arrival"}
for eq, name in expected.items():
    assert m.component(name) is not None and m.component(name).doc.startswith(eq), (eq, name)
""")

md(r"""
**The schedule-based LP.** Let $\mathcal L_i$ be the feasible schedules of job $i$ and $x_{il}$ choose one. Problem
(14)-(18) and the dual of its LP relaxation, (19)-(20), are

$$
\begin{gathered}
\max \sum_{i,l} f_{il}\,x_{il}\quad\text{s.t.}\quad \sum_{i,l} w_i^r y^l_{ih}(t)\,x_{il}\le c_h^r\ (15),\quad
\sum_{i,l} s_i^r z^l_{ik}(t)\,x_{il}\le c_k^r\ (16), \\
\sum_l x_{il}\le 1\ (17),\quad x_{il}\in\{0,1\}\ (18)
\end{gathered}
$$

$$
\begin{gathered}
\min \sum_i \mu_i + \sum_{t,h,r} c_h^r\,p_h^r(t) + \sum_{t,k,r} c_k^r\,q_k^r(t)\quad\text{s.t.} \\
\mu_i \ge f_{il} - \sum_{t,h,r} w_i^r y^l_{ih}(t)\,p_h^r(t) - \sum_{t,k,r} s_i^r z^l_{ik}(t)\,q_k^r(t)\ \ (20),\quad p,q,\mu\ge 0.
\end{gathered}
$$

The dual variables are **prices** $p, q$ and **payoffs** $\mu_i$: (20) says a job's payoff is at least the utility of
any of its schedules minus the resources it uses, at those prices. OASiS builds exactly these prices online. Over a
finite set of schedules (here: the oracle's schedule for every end slot at zero prices, OASiS's and the optimum's
schedules), the LP and its dual have the same optimum (strong duality), which is at least the integer optimum:
""")

code(r"""
print("policies of the simulator:", list(POLICIES))
on = simulate(inst, "oasis", options={"record_prices": True})  # OASiS (Alg. 1)
opt = solve_exact(inst)
cols = {i: [r.schedule for r in schedules_by_end(inst, i, Prices.zeros(inst))] for i in range(inst.n_jobs)}
for sol in (on, opt):
    for i, s in sol.schedules.items():
        cols[i].append(s)
cols = {i: v for i, v in cols.items() if v}
primal = build_primal(inst, cols, relax=True)
dual = build_dual(inst, cols)
print("primal components:", [c.name for c in primal.component_objects((pyo.Objective, pyo.Constraint))])
print("dual components:  ", [c.name for c in dual.component_objects((pyo.Var, pyo.Objective, pyo.Constraint))])
lp, dl = solve_model(primal, "highs"), solve_model(dual, "highs")
ip = solve_model(build_primal(inst, cols), "highs")
print(f"{sum(map(len, cols.values()))} schedules: LP (14)-(17) {lp.objective:.4f} = dual (19)-(20) {dl.objective:.4f} "
      f">= integer (14)-(18) {ip.objective:.4f} = certified optimum of (1)-(13) {opt.total_utility:.4f}")
assert abs(lp.objective - dl.objective) <= 1e-6 * max(1.0, abs(lp.objective))
""")

md(r"""
`notebooks/duality.ipynb` goes further with this pair: weak and strong duality, complementary slackness, the online
prices against the optimal duals, and the dual-fitting argument behind $2\alpha$, step by step.
""")

md(r"""
## 2. Algorithm 1, step by step

**Prices (22).** The price of resource $r$ on worker server $h$ in slot $t$ grows exponentially with the allocated
amount $g_h^r(t)$:

$$p_h^r(g) = L_1\left(\frac{U_1^r}{L_1}\right)^{g / c_h^r},$$

$L_1$ on an idle server and $U_1^r$ on a full one, with (23) and (25)

$$U_1^r = \max_i \frac{f_i(\cdot)}{w_i^r}, \qquad
L_1 = \frac{1}{4\eta_1}\,\min_i \frac{f_i(T - a_i)}{\lceil E_i N_i m_i\rceil \sum_r w_i^r}.$$

So an idle cluster admits every job with positive utility, and a full one admits none.
""")

code(r"""
b = price_bounds(inst)
fig, ax = plt.subplots(figsize=(6.5, 3.8))
price_curve(inst, ax=ax, title="price functions (22) on worker servers")
ax.axhline(np.exp(b.log_L1), color="k", ls=":", lw=0.8, label=f"L1 = {np.exp(b.log_L1):.3g}")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
print("L1 =", np.exp(b.log_L1), " U1 =", dict(zip(inst.resource_names, np.round(np.exp(b.log_U1), 3))))
print(f"2 alpha = {competitive_bound(inst):.2f} (Theorem 4's ratio for these bounds)")
""")

md(r"""
**Alg. 1.** Jobs are taken in order of arrival. For job $i$ the oracle (Alg. 2) finds the schedule maximizing
utility minus priced resources, $\mu_i = \max_l\, f_{il} - \sum p\,w\,y - \sum q\,s\,z$. The job is admitted iff
$\mu_i > 0$; its allocation is added to $g$, and the prices of the touched (slot, server, resource) rise by (22).
A payoff of $-\infty$ means no schedule can finish by $T$. Each line below is one arrival:
""")

code(r"""
from hetopt.oasis.online import arrival_order

print(" job  a_i  max GPU price seen   payoff mu_i   decision   completion  utility")
seen_max = []
for i in arrival_order(inst):
    p = on.info["prices"][i].p[..., inst.resource_names.index("gpu")]
    seen_max.append(p.max())
    adm = i in on.schedules
    done = on.schedules[i].completion if adm else "-"
    util = f"{inst.utility_of(i, on.schedules[i].completion):.3f}" if adm else "-"
    print(f"{i:4d} {inst.arrival[i]:4d}  {p.max():18.3g}  {on.payoffs[i]:12.3f}   {'admit ' if adm else 'reject'}"
          f"     {str(done):>6s}   {util:>8s}")
print(f"OASiS total utility {on.total_utility:.3f}; checker: {check_schedule(inst, on).ok}")
""")

md(r"""
The prices the last arriving job sees on the GPUs of every worker server and slot (left), and every arriving job's
payoff (right):
""")

code(r"""
last = arrival_order(inst)[-1]
gpu_r = inst.resource_names.index("gpu")
P = on.info["prices"][last].p[..., gpu_r]  # shape (T, H)
fig, ax = plt.subplots(1, 2, figsize=(11, 3.6))
im = ax[0].imshow(np.log10(P.T), aspect="auto", origin="lower", cmap="viridis",
                  extent=(0.5, inst.horizon + 0.5, -0.5, inst.n_worker_servers - 0.5))
fig.colorbar(im, ax=ax[0], label="log10 GPU price p_h(t)")
ax[0].set_xticks(range(1, inst.horizon + 1))
ax[0].set_yticks(range(inst.n_worker_servers))
ax[0].set_xlabel("slot t")
ax[0].set_ylabel("worker server h")
ax[0].set_title(f"GPU prices seen by job {last} (arrives at t = {inst.arrival[last]})")
order = arrival_order(inst)
pay = np.array([on.payoffs[i] for i in order])
finite = np.isfinite(pay)
colors = ["C2" if i in on.schedules else "C3" for i in order]
ax[1].bar(np.arange(len(order))[finite], pay[finite], color=np.array(colors)[finite])
ax[1].scatter(np.arange(len(order))[~finite], np.zeros((~finite).sum()), marker="x", color="C3", s=60,
              label="no schedule ends by T (payoff -inf)")
from matplotlib.patches import Patch
handles = [Patch(color="C2", label="admitted (mu > 0)"), Patch(color="C3", label="rejected (mu <= 0)"),
           ax[1].collections[0]]
ax[1].set_xticks(range(len(order)), [f"{i}\n(a={inst.arrival[i]})" for i in order])
ax[1].set_xlabel("job (arrival slot), in arrival order")
ax[1].set_ylabel("payoff mu_i (utility)")
ax[1].legend(handles=handles, fontsize=8)
fig.tight_layout()
plt.show()
""")

md(r"""
A Gantt chart of a slotted schedule (`hetopt.oasis.experiments.plot.gantt`): one row per job, a bar in every slot where the job
has workers, labelled workers/parameter servers ($\sum_h y_{ih}(t)$ / $\sum_k z_{ik}(t)$); triangles mark arrivals.
OASiS (left) against the certified offline optimum (right):
""")

code(r"""
fig, ax = plt.subplots(1, 2, figsize=(13, 4), layout="constrained")  # own y labels: admitted jobs differ
oasis_gantt(inst, on, ax[0], title=f"OASiS (online): utility {on.total_utility:.2f}")
oasis_gantt(inst, opt, ax[1], title=f"certified offline optimum: utility {opt.total_utility:.2f}")
plt.show()
""")

md(r"""
## 3. The certificate

`solve_exact` solves (1)-(13) with HiGHS and returns a **proven** optimum (status OPTIMAL, bound = objective), and
`check_schedule` checks (2)-(13) independently of the model. `validate_ratio` returns a `Certificate` (given
`offline=opt`, it certifies against the optimum in hand instead of solving again): `ratio` is
OPT / OASiS (a maximization), `limit` is $2\alpha$ with
$\alpha = \max_r\{1, \ln(U_1^r/L_1), \ln(U_2^r/L_2)\}$ (Theorem 4), and `holds` is judged
only when the reference is a proven optimum (else None: an upper bound cannot refute the theorem).
""")

code(r"""
print(f"offline: {opt.status.value}, utility {opt.total_utility:.4f}, bound {opt.bound:.4f}; checker ok: "
      f"{check_schedule(inst, opt).ok}")
cert = validate_ratio(inst, offline=opt)
print(cert)
""")

md(r"""
Across Fig. 5 settings the ratio stays close to 1, far below $2\alpha$. But Alg. 2 assumes a worker trains a whole
number of chunks per slot, which (27) does not; on `oasis2018_theorem4_in_premise` (one job, capacities 100, demands 1,
chunk time 0.03 slot, utility [10, 10, 10, 0.001]) OASiS finishes one slot late and the ratio is $10^4$:
""")

code(r"""
certs = {"Fig. 5, seed 1": validate_ratio(fig5_setting(seed=1)), "Fig. 5, seed 3": cert}
v = OasisInstance.from_json(instance_path("oasis2018_theorem4_in_premise"))
certs["theorem4_in_premise"] = validate_ratio(v)
fig, ax = plt.subplots(figsize=(7, 3.8))
names = list(certs)
ratio_vs_bound(list(certs.values()), ax=ax, ylabel="OPT / OASiS (certified) [-]", bound_label="2 alpha (Theorem 4)",
               xlabel="instance: " + ", ".join(f"{k} = {n}" for k, n in enumerate(names)))
ax.xaxis.label.set_fontsize(7)
fig.tight_layout()
plt.show()
for n, c in certs.items():
    print(f"{n:22s} ratio {c.ratio:10.4g}  2 alpha {c.limit:7.3g}  proven {c.proven}  holds {c.holds}")
print("with the exact oracle (27):", simulate(v, "oasis", options={"oracle": best_schedule_ilp}).total_utility,
      " Alg. 2:", simulate(v, "oasis").total_utility)
""")

md(r"""
## 4. The paper's claims and their verdicts

The recorded ledger (`hetopt claims oasis`, nothing is run here), then each claim's diagnosis:
""")

code(r"""
import textwrap
from hetopt.claims import claims, get_claim, get_sweep, ledger_table

ledger = claims("oasis")
print(ledger_table(ledger))
print()
for c in ledger:
    print(f"{c.id}  [{c.verdict.value}, {c.cost}]")
    print(textwrap.indent(textwrap.fill(c.diagnosis, 110), "    "))
""")

md(r"""
Two fast checks run live: Lemma 1's premise $D_0 \le \mathrm{OPT}/2$ on instances with a certified optimum, and
Theorem 4 inside its premises. Each claim also names its *flip*, the experiment that moves its verdict
(`hetopt claims --run --id ID --flip`); the price at zero use (22) is a conformance check (`hetopt claims
--conformance`), counted apart: it compares the code with the formula, not the paper with the world.
""")

code(r"""
for cid in ["oasis2018.lemma1.initial_dual_half_opt", "oasis2018.theorem4.ratio_in_premise"]:
    c = get_claim(cid)
    r = c.run()
    print(f"{cid}: paper {r.claim.paper_value!r}, ours {r.outcome.ours!r} -> {r.outcome.verdict.value} "
          f"(recorded {r.claim.verdict.value})\n    {r.outcome.detail}\n    flip: {c.flip.change} -> {c.flip.verdict.value}")
""")

md(r"""
Fig. 3's claim that OASiS beats every baseline *depends on the reading* of (25)-(26): with the sigmoid utilities the
literal $\ln(U/L)$ is in the hundreds, so prices stay negligible until a server is about 99 % full. The sweep
`oasis.log_ratio_cap` caps $\ln(U/L)$ (an option of hetopt, `simulate(inst, "oasis", options={"log_ratio_cap": c})`); quick grid:
""")

code(r"""
tab = get_sweep("oasis.log_ratio_cap").run(quick=True)
print(tab)
caps = [str(r[1]) for r in tab.rows]
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(caps, [r[3] for r in tab.rows], marker="o", lw=2, label="oasis")
for j, name in enumerate(["fifo", "drf", "rrh", "dorm"]):
    ax.plot(caps, [r[4 + j] for r in tab.rows], ls="--", marker=".", label=name)
ax.set_xlabel("cap on ln(U/L) ('none': the literal (25)-(26))")
ax.set_ylabel("total utility")
ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
""")

md(r"""
## 5. Your own policy (the plug-in protocol)

OASiS and the baselines FIFO, DRF, RRH and Dorm are policies of one slotted simulator (`POLICIES`), and so can
yours be:

* a **policy** is any object with a `name` and a method `__call__(cluster, t, arrived, completed)` (the `Policy`
  protocol), called at the start of a slot with an arrival or after a slot with a completion;
* the **cluster** (`Cluster`) holds the allocations: `cluster.active()` (arrived, unfinished jobs),
  `cluster.remaining[i]` (worker-slots left of (2)), `cluster.try_place(i, n, partial=False)` (place n workers and their
  parameter servers round-robin; returns how many were placed), `cluster.release(i)`, `cluster.free()`, or
  `cluster.reserve(i, workers, ps)` (a whole schedule decided at once, as OASiS does);
* `simulate(inst, policy)` runs slots 1..T and returns an `OasisSolution` (jobs unfinished at T earn nothing);
  `check_schedule` checks it against (2)-(13); `hetopt.compare(inst, methods=[...], policies={"mine": f})` ranks it against
  the certified optimum.

(A second plug-in point: `simulate(inst, "oasis", options={"oracle": f})` runs Alg. 1 with your own oracle in place
of Alg. 2. The registered policies are `POLICIES`: `simulate(inst, "drf")` runs one by name.)

The worked example re-plans on every event: jobs that can still finish by $T$ are ranked by the utility they would
earn finishing as fast as possible, per remaining worker-slot, and each takes as many workers as fit (up to $N_i$).
""")

code(r"""
class UtilityDensity:
    name = "utility_density"

    def __call__(self, cl, t, arrived, completed):
        inst = cl.inst
        for i in cl.active():
            cl.release(i)  # re-plan every running job
        ranked = []
        for i in cl.active():
            finish = t + int(np.ceil(cl.remaining[i] / inst.chunks[i])) - 1  # at N_i workers per slot
            if finish <= inst.horizon:  # a job that cannot finish by T earns nothing: leave it out
                ranked.append((-inst.utility_of(i, finish) / cl.remaining[i], i))
        for _, i in sorted(ranked):
            cl.try_place(i, int(inst.chunks[i]), partial=True)

assert isinstance(UtilityDensity(), Policy)  # the protocol is runtime-checkable by its shape
print(check_schedule(inst, simulate(inst, UtilityDensity())))
tables = {s: hetopt.compare(fig5_setting(seed=s), methods=["exact", "oasis", "fifo", "drf", "rrh"],
                            policies={"utility_density": lambda i: simulate(i, UtilityDensity())}) for s in (3, 4)}
print(tables[3])
""")

md(r"""
The same comparison on two Fig. 5 settings, each against its certified optimum (a ratio of 1 is optimal):
""")

code(r"""
col = list(tables[3].columns)
methods = [r[0] for r in tables[3].rows if r[0] != "exact"]
fig, ax = plt.subplots(figsize=(8, 3.6))
width = 0.8 / len(methods)
for k, name in enumerate(methods):
    vals = [next(r for r in t.rows if r[0] == name)[col.index("vs_optimum")] for t in tables.values()]
    ax.bar(np.arange(len(tables)) + k * width, vals, width, label=name + (" (yours)" if name == "utility_density" else ""),
           edgecolor="k" if name == "utility_density" else None)
ax.axhline(1.0, color="k", lw=0.8, ls="--", label="certified optimum")
ax.set_yscale("log")
ax.set_xticks(np.arange(len(tables)) + width * (len(methods) - 1) / 2, [f"seed {s}" for s in tables])
ax.set_xlabel("Fig. 5 setting")
ax.set_ylabel("OPT / total utility (log)")
ax.legend(fontsize=7, ncol=2)
fig.tight_layout()
plt.show()
for t in tables.values():  # nothing beats the certified optimum
    assert all(r[col.index("vs_optimum")] is None or r[col.index("vs_optimum")] >= 1 - 1e-6 for r in t.rows)
""")

md(r"""
## 6. Exercises

Each answer is stored in a variable; the test suite recomputes it independently of `hetopt` and compares.

**Exercise 1.** With $L_1 = 0.5$ and $U_1 = 200$, what is the price (22) of a resource whose server is a quarter full?
""")

code(r"""
answer_1 = float(price(np.log(0.5), np.log(200.0), 0.25, 1.0))
print("answer_1 =", answer_1)
""")

md(r"""
**Exercise 2.** In `oasis2018_theorem4_in_premise`, how many slots does the job need at its maximum of $N_i$ workers in
every slot (the `min_slots` of the instance)?
""")

code(r"""
answer_2 = int(v.min_slots[0])
print("answer_2 =", answer_2, " (workload", v.workload[0], "worker-slots, N_i =", v.chunks[0], ")")
""")

md(r"""
**Exercise 3.** What is the certified offline optimum of that instance (its total utility)?
""")

code(r"""
answer_3 = solve_exact(v).total_utility
print("answer_3 =", answer_3)
""")

code(r"""
import json
print("ANSWERS", json.dumps({"answer_1": float(answer_1), "answer_2": int(answer_2), "answer_3": float(answer_3)}))
""")


if __name__ == "__main__":
    write("oasis", CELLS, papers=("oasis",), min_figures=5)
