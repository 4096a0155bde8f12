"""Generate notebooks/gavel.ipynb (stored without outputs): python notebooks/generate/gavel.py."""

from nbgen import write

CELLS = [
    ("md", r"""
    # Gavel: heterogeneity-aware allocation policies and the round mechanism

    D. Narayanan, K. Santhanam, F. Kazhamiaka, A. Phanishayee, M. Zaharia, *Heterogeneity-Aware Cluster
    Scheduling Policies for Deep Learning Workloads*, OSDI 2020. Implemented in `hetopt.gavel` (the baseline
    of the Hadar and placement papers); readings and findings in the card `models/gavel.md`.

    Gavel schedules in two steps:

    1. a **policy**, a linear program, gives each job $j$ a fraction of time $X_{jr}$ on each GPU type $r$;
    2. a **round mechanism** turns $X$ into rounds of 6 minutes in which each job runs on $s_j$ GPUs of one
       type, or waits, so that over many rounds the time each job received approaches $X$.

    This notebook teaches, in order: **the model** (the policies' LPs, each constraint mapped to its CVXPY
    constraint, printed from the built problem); **the algorithm** (a policy's allocation matrix, then the
    mechanism round by round); **the certificate** (the LP dual that proves the max-min optimum, and the
    certified makespan); **the claims** with the ledger's verdicts; **your own policy** through the
    simulator's plug-in protocol; **exercises** checked by the test suite.
    """),
    ("code", r"""
    import matplotlib.pyplot as plt
    import numpy as np
    from IPython.display import Markdown, display

    import hetopt
    from hetopt.gavel import (PERF_POLICIES, GavelMechanism, build_max_min_fairness, build_min_total_duration,
                              check_schedule, fairness_coefficients, isolated_allocation, max_min_fairness,
                              max_min_fairness_objective, priorities, simulate, solve_exact,
                              solve_min_total_duration)

    inst = hetopt.load_instance("gavel2020_static8")
    T, s, c = inst.throughput, inst.scale_factor, inst.capacity
    print(inst.description)
    print("GPU types:", inst.gpu_types, "capacity c:", c.tolist())
    for j in range(inst.n_jobs):
        print(f"J{j}: {inst.job_types[j]:34s} s_j = {s[j]}  T_j (steps/s) = {np.round(T[j], 1)}")
    """),
    ("md", r"""
    ## 1. The model: the policies' LPs

    $T_{jr}$ is the throughput of job $j$ on $s_j$ GPUs of type $r$, $c_r$ the GPUs of type $r$. Every policy
    shares Gavel's base constraints

    $$X_{jr} \ge 0 \ \ \text{(G1)}, \qquad \sum_r X_{jr} \le 1 \ \ \text{(G2)}, \qquad
    \sum_j s_j X_{jr} \le c_r \ \ \text{(G3)}.$$

    **Max-min fairness** (Gavel's LAS policy) maximizes the smallest *normalized* throughput

    $$
    \begin{gathered}
    \max_{X, z}\ z \quad \text{s.t. (G1)-(G3)},\quad z \le A_j \cdot X_j \ \ \forall j \ \ \text{(G4)}, \\
    A_{jr} = \frac{s_j\, T_{jr}}{w_j\, T_j \cdot X^{prop}_j},\ \ X^{prop}_{jr} = \frac{c_r}{\sum_{r'} c_{r'}},
    \end{gathered}
    $$

    i.e. each job's throughput relative to what an equal time share of the whole cluster would give it.
    **Min-total-duration** minimizes the makespan $M$: $\max z = D/M$ s.t. (G1)-(G3) and
    $(T_j/T^{\max}_j) \cdot X_j \ge (D_j/D)\, z$ (G5), with $D_j$ = steps$_j / T^{\max}_j$ and $D$ a lower bound
    on the makespan (every coefficient in $[0,1]$). **Max-sum-throughput** maximizes $\sum_j w_j T_j \cdot X_j$;
    **FIFO** is a greedy rule. The cell builds the CVXPY problems and prints each constraint's label.
    """),
    ("code", r"""
    mmf, x_mmf = build_max_min_fairness(T, s, c)
    mtd, x_mtd, D = build_min_total_duration(T, s, c, inst.total_steps)
    for name, prob in (("max-min fairness", mmf), ("min-total-duration", mtd)):
        print(f"{name}: {'maximize' if prob.objective.NAME == 'maximize' else 'minimize'} "
              f"{prob.objective.args[0]}, variables {[v.name() for v in prob.variables()]}")
        for con in prob.constraints:
            print(f"    {con.label:86s} shape {con.shape}")
    assert [con.label[:4] for con in mmf.constraints] == ["(G1)", "(G2)", "(G3)", "(G4)"]
    """),
    ("md", r"""
    ## 2. The algorithm

    ### 2.1 A policy's allocation matrix

    Each policy's $X$ on this static workload (all 8 jobs present, never recomputed). Rows are jobs, columns
    GPU types; a row's sum is the fraction of time the job runs at all.
    """),
    ("code", r"""
    alloc = {name: hetopt.solve(inst, name).allocation for name in PERF_POLICIES}
    from hetopt.gavel.experiments.plot import allocation_heatmap as gavel_allocation_heatmap

    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for ax, (name, X) in zip(axes, alloc.items()):
        gavel_allocation_heatmap(inst, X, ax=ax, title=name)
    plt.tight_layout()
    plt.show()
    for name, X in alloc.items():
        print(f"{name:20s} max-min objective {max_min_fairness_objective(X, T, s, c):.4f}   "
              f"GPUs used per type {np.round(s @ X, 2).tolist()} of {c.tolist()}")
    """),
    ("md", r"""
    ### 2.2 The round mechanism, step by step

    Gavel's `scheduler.py` keeps, per job and type, the time received since the last reset (every job is
    credited half a round on every type at a reset), its **share** $f_{jr}$ of the type's time, and the
    **priority** $P_{jr} = X_{jr} / f_{jr}$. Each round it visits the types fastest first; on each type the jobs
    by decreasing priority (then deficit, then $X$) take $s_j$ free GPUs each; a job runs on one type per round.
    Jobs with $X_{jr} = 0$ stay at the end of the queue, so GPUs left over still go to someone
    (**work-conserving**). Below: six rounds of max-min fairness's allocation, with the priorities that decided
    the first.
    """),
    ("code", r"""
    X = alloc["max_min_fairness"]
    mech = GavelMechanism(inst.n_types, round_length=360.0)
    for j in range(inst.n_jobs):
        mech.add_job(j)
    mech.reset(0.0, dict(enumerate(X)))
    tp, sf = dict(enumerate(T)), {j: int(s[j]) for j in range(inst.n_jobs)}
    print("priorities P = X / share before round 1 (rows: jobs, columns:", inst.gpu_types, ")")
    print(np.round(priorities(X, mech.shares(range(inst.n_jobs)), T), 2))
    received = np.zeros_like(X)
    for k in range(6):
        placed = mech.schedule(tp, sf, c)
        print(f"round {k + 1}: " + ", ".join(f"J{j}->{inst.gpu_types[r]}" for j, r in sorted(placed.items()))
              + f"   (GPUs busy {sum(s[j] for j in placed)} of {c.sum()})")
        for j, r in placed.items():
            mech.record(j, r, 360.0)
            received[j, r] += 1
    print("fraction of the 6 rounds each job spent on each type:\n", np.round(received / 6, 2))
    """),
    ("md", r"""
    ### 2.3 A simulated run with arrivals

    `gavel2020_workload12`: 12 jobs from Gavel's generator arriving at 2 jobs/hour on 2 V100, 2 P100 and 2 K80.
    The allocation is recomputed after arrivals and completions, at most every `recompute_interval` seconds
    (Gavel: 1,920 s). Every recorded schedule passes the independent checker (`check_schedule`). The Gantt chart
    shows the rounds of max-min fairness in the first day: each bar is a job running on one GPU type (J10, the
    longest, then runs alone until the end).
    """),
    ("code", r"""
    work = hetopt.load_instance("gavel2020_workload12")
    runs = {name: simulate(work, name) for name in PERF_POLICIES}
    for name, r in runs.items():
        rep = check_schedule(work, r)
        assert rep.ok, rep.violations[:3]
        print(f"{name:20s} average JCT {r.average_jct / 3600:6.2f} h   makespan {r.makespan / 3600:6.2f} h   "
              f"recomputations {r.recomputations}   checker ok {rep.ok}")
    from hetopt.gavel.experiments.plot import gantt as gavel_gantt

    ax = gavel_gantt(work, runs["max_min_fairness"],
                     title="max-min fairness on gavel2020_workload12, first 24 h: "
                           "the GPU type of every job in every round")
    ax.figure.set_size_inches(12, 4)
    ax.set_xlim(0, 24)
    plt.show()
    """),
    ("md", r"""
    ### 2.4 Gavel's own loop, run for run

    `simulate` runs Gavel's own simulator loop by default (`mechanism="gavel"`): whole steps per round,
    Gavel's resets (a forced one when the cluster idles with no arrival left), its queue tie-breaking, and the
    policy LPs posed as Gavel's code poses them and solved by ECOS. On Gavel's `small_test` trace on 4:4:4 under
    FIFO it gives Gavel's 324 s average JCT; hetopt's idealised loop (`mechanism="clean"`, HiGHS) waits for the
    recompute interval on the idle cluster and gives 3.4x that. `hetopt bench gavel --parity` reruns Gavel's
    40 runs.
    """),
    ("code", r"""
    from hetopt.gavel import load_trace, parity_rows

    small = load_trace("small_test", "4:4:4")
    own = simulate(small, "fifo")
    clean = simulate(small, "fifo", mechanism="clean", solver="highs")
    print(f"Gavel's loop: average JCT {own.average_jct:.3f} s, resets at {[round(t, 1) for t in own.recompute_times]} "
          f"({own.info['reset_reasons']})")
    print(f"clean loop:   average JCT {clean.average_jct:.3f} s")
    for r in parity_rows(["small_test"]):
        print(f"{r.cluster:8s} {r.policy:20s} hetopt {r.avg_jct:9.3f} s   Gavel {r.gavel_avg_jct:9.3f} s   "
              f"diff {100 * r.avg_diff:+.2e} %")
    """),
    ("md", r"""
    ## 3. The certificate

    **Max-min fairness is an LP, so its optimum is proven by a dual solution.** With multipliers $\lambda_j$ on
    (G4), $\mu_j$ on (G2) and $\nu_r$ on (G3), the dual is
    $\min \sum_j \mu_j + \sum_r c_r \nu_r$ s.t. $\sum_j \lambda_j = 1$ and
    $\lambda_j A_{jr} \le \mu_j + s_j \nu_r$, all multipliers $\ge 0$. Any dual-feasible point bounds every
    allocation's objective from above (weak duality); the solver's duals reach the primal value (strong
    duality), so no allocation is fairer. We check dual feasibility and the two values ourselves.
    """),
    ("code", r"""
    mmf.solve()
    g1, g2, g3, g4 = mmf.constraints
    lam, mu, nu = g4.dual_value, g2.dual_value, g3.dual_value
    A = fairness_coefficients(T, s, c)
    dual_value = mu.sum() + c @ nu
    slack = mu[:, None] + np.outer(s, nu) - lam[:, None] * A
    print(f"primal z = {mmf.value:.8f}   dual bound = {dual_value:.8f}   sum(lambda) = {lam.sum():.6f}")
    print(f"dual feasible: min slack {slack.min():.2e} (>= 0 up to round-off), multipliers >= 0: "
          f"{min(lam.min(), mu.min(), nu.min()) >= -1e-9}")
    print("strong duality:", np.isclose(mmf.value, dual_value, rtol=1e-6))
    X_iso = isolated_allocation(s, c)  # a feasible equal share
    for name, Xf in {"isolated equal share": X_iso, **alloc}.items():
        score = max_min_fairness_objective(Xf, T, s, c)
        ok = score <= dual_value + 1e-9
        print(f"weak duality: {name:22s} scores {score:.4f} <= dual bound {dual_value:.4f}: {ok}")
    """),
    ("md", r"""
    **Min-total-duration is certified by recomputation.** `solve_min_total_duration` solves the scaled LP, then
    recomputes the makespan of the returned allocation from the throughputs ($\max_j$ steps$_j / T_j\cdot X_j$)
    and requires it to match the LP's $D/z$ within $10^{-6}$ (the unscaled LP, with $z \approx 10^{-7}$, had
    been reported optimal at 1.83x the optimum on the Hadar trace). `solve_exact`, the kind's exact method,
    goes one step further and trusts no solver tolerance: its allocation is shrunk until it meets (G1)-(G3)
    exactly (an upper bound), and the LP's duals, made dual-feasible by hand, give a lower bound
    $M \ge \sum_j \lambda_j \mathrm{steps}_j / (\sum_j \mu_j + \sum_r c_r \nu_r)$. It is OPTIMAL only when
    the two meet.
    """),
    ("code", r"""
    res = solve_min_total_duration(T, s, c, inst.total_steps)
    print(f"LP makespan D/z = {res.lp_makespan / 3600:.6f} h, recomputed from the allocation "
          f"{res.makespan / 3600:.6f} h, relative gap {res.gap:.1e}, lower bound D = {res.reference / 3600:.4f} h")
    exact = solve_exact(inst)
    print(f"solve_exact: {exact.status.value}, feasible makespan {exact.objective / 3600:.6f} h >= dual bound "
          f"{exact.bound / 3600:.6f} h (gap {exact.gap:.1e})")
    """),
    ("md", r"""
    ## 4. The claims and their verdicts

    The claims ledger (`hetopt claims gavel`) checks the policies against Gavel's own objectives and the
    mechanism against the examples and the Hadar paper's figure. The **recorded** verdicts, then two checks
    rerun live (`hetopt claims --run --id ID`).
    """),
    ("code", r"""
    from collections import Counter
    from hetopt.claims import claims, run

    ledger = claims("gavel")
    print(dict(Counter(c_.verdict.value for c_ in ledger)))
    rows = ["| id | paper | verdict | diagnosis |", "|---|---|---|---|"]
    for c_ in ledger:
        diag = c_.diagnosis if len(c_.diagnosis) < 150 else c_.diagnosis[:147] + "..."
        rows.append(f"| `{c_.id}` | {c_.paper_value} | **{c_.verdict.value}** | {diag} |".replace("\n", " "))
    display(Markdown("\n".join(rows)))
    """),
    ("code", r"""
    for r in run(ids=["gavel2021.policy_mmf.hand_example", "gavel2021.scheduler.three_job_example"]):
        print(f"{r.claim.id}: paper {r.claim.paper_value}, ours {r.outcome.ours}, "
              f"verdict {r.outcome.verdict.value} (recorded {r.claim.verdict.value})\n    {r.outcome.detail}")
    """),
    ("md", r"""
    ## 5. Your own policy: the plug-in protocol

    `simulate(inst, policy)` takes a policy name or **any function with the policies' signature**
    (card, section *Plug-in protocol*):

    ```
    policy(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None) -> X  (J x R)
    ```

    called at every recomputation with the jobs present (rows in job order): `throughput` (J, R) steps/s
    on $s_j$ GPUs of each type, `scale_factor` (J,), `capacity` (R,), `priority_weight` (J,) as a keyword.
    $X$ must satisfy (G1)-(G3); the mechanism then realizes it round by round. Below: *fastest type only*,
    each job asks for its fastest type, and the jobs asking for a type share it equally. `hetopt.compare` runs it
    beside the paper's methods (`policies={name: f(instance) -> solution}`) and checks its schedule.
    """),
    ("code", r"""
    def fastest_type_only(throughput, scale_factor, capacity, priority_weight=None, *, remaining_steps=None):
        T_, s_, c_ = (np.asarray(a, dtype=float) for a in (throughput, scale_factor, capacity))
        best = np.argmax(np.where(c_ > 0, T_, -1.0), axis=1)
        X_ = np.zeros_like(T_)
        for r in range(T_.shape[1]):
            asking = best == r
            if asking.any():
                X_[asking, r] = min(1.0, c_[r] / s_[asking].sum())
        return X_

    table = hetopt.compare(work, methods=["simulate_max_min_fairness", "simulate_fifo"],
                           policies={"mine": lambda inst: simulate(inst, fastest_type_only)})
    print(table)  # every user result is checked by check_schedule; objective: average JCT (s)
    mine = simulate(work, fastest_type_only)
    assert check_schedule(work, mine).ok
    runs_all = {**runs, "mine: fastest_type_only": mine}
    from hetopt.plot import jct_cdf

    ax = jct_cdf({f"{name} (avg {r.average_jct / 3600:.1f} h)": r for name, r in runs_all.items()}, time_unit="h",
                 log=True, title="JCT distribution on gavel2020_workload12")
    plt.show()
    """),
    ("md", r"""
    How often to recompute matters too: the average JCT of max-min fairness against the minimum time between
    recomputations (the ledger's sweep `hetopt sweep gavel.recompute_interval`, drawn by `hetopt.plot.sweep`).
    """),
    ("code", r"""
    from hetopt.claims import get_sweep
    from hetopt.plot import sweep

    table = get_sweep("gavel.recompute_interval").run()
    print(table)
    ax = sweep(table, x="recompute_interval (s)", y="average JCT (h)", xlabel="minimum time between recomputations (s)",
               ylabel="average JCT of max-min fairness (h)", title="Recompute less often, wait longer")
    ax.axvline(1920, color="grey", ls=":", label="Gavel's default (1,920 s)")
    ax.legend()
    plt.show()
    """),
    ("md", r"""
    ## 6. Exercises

    Write each answer as a number in the cell below it; the test suite checks it against an independent
    computation.

    **Exercise 1.** Two jobs, two types: $T = [[2, 1], [2, 1]]$, $s = (1, 2)$, $c = (2, 2)$, equal weights. What is
    the optimal value of max-min fairness (Gavel's normalization)? (Hint: compute $A$ by hand; check with
    `max_min_fairness`.)
    """),
    ("code", r"""
    T1, s1, c1 = [[2, 1], [2, 1]], [1, 2], [2, 2]
    answer_1 = round(max_min_fairness_objective(max_min_fairness(T1, s1, c1), T1, s1, c1), 6)
    answer_1
    """),
    ("md", r"""
    **Exercise 2.** $X = [[0.5, 0.5], [1, 0]]$ and the shares received so far are $f = [[0.25, 0.5], [0.75, 0.5]]$.
    Which job (0 or 1) comes first in type 0's queue?
    """),
    ("code", r"""
    answer_2 = int(np.argmax(priorities([[0.5, 0.5], [1, 0]], [[0.25, 0.5], [0.75, 0.5]])[:, 0]))
    answer_2
    """),
    ("md", r"""
    **Exercise 3.** $T = [[10, 5], [4, 4]]$ steps/s, $X = [[1, 0], [0, 1]]$, remaining steps $(3600, 7200)$. If the
    allocation were kept until every job finished, what would the makespan be (s)?
    """),
    ("code", r"""
    answer_3 = max(3600 / 10, 7200 / 4)
    answer_3
    """),
]

if __name__ == "__main__":
    write("gavel", CELLS, papers=("gavel",), min_figures=3)
