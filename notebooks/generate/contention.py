"""Generate notebooks/contention.ipynb (stored without outputs): python notebooks/generate/contention.py."""

from nbgen import write

CELLS = [
    ("md", r"""
    # Communication-contention-aware scheduling (Wang, Shi, Wang, Chu)

    Q. Wang, S. Shi, C. Wang, X. Chu, *Communication Contention Aware Scheduling of Multiple Deep Learning
    Training Jobs*, arXiv:2002.10105, 2020. Implemented in `hetopt.contention`; readings and findings in the
    card `models/wang2019-contention.md`.

    Distributed training jobs alternate compute (forward and backward passes on each GPU) and an all-reduce
    over the network. When two jobs' all-reduces share a server's link they **contend**: each slows down by
    more than the fair share. The paper's scheduler, Ada-SRSF, orders jobs by shortest remaining service
    first and lets a new all-reduce start next to a running one only when Theorem 2 says that overlapping
    pays (AdaDUAL); its baselines SRSF(n) allow at most n concurrent all-reduces per server, blindly.

    This notebook teaches, in order:

    1. **the model**: eq. (5) and the time-indexed MILP of the contention-free problem, each equation mapped to
       its Pyomo component (printed from the built model);
    2. **the algorithm** step by step: AdaDUAL's admission decisions on a small workload where contention
       happens, the contention-aware all-reduce times, and Gantt charts;
    3. **the certificate**: what the exact MILP proves, and where it stops being a bound;
    4. **the claims** of the paper with the ledger's verdicts;
    5. **your own policy** through the simulator's plug-in protocol;
    6. **exercises** (answers checked by the test suite).

    Everything runs in well under a minute.
    """),
    ("code", r"""
    import matplotlib.pyplot as plt
    import numpy as np
    import pyomo.environ as pyo
    from IPython.display import Markdown, display

    from hetopt.contention import (PAPER_A, POLICIES, SIM_BETA, SIM_ETA, ContentionInstance, Policy, adadual,
                                   adadual_threshold, allreduce_time, build_milp, check_schedule, empirical_cdf,
                                   fluid_completion_times, generate_instance, simulate, solve_exact, tiny_instance,
                                   two_task_cases, two_task_fluid, validate_ratio)
    from hetopt.data import load_json
    """),
    ("md", r"""
    ## 1. The model

    ### 1.1 The all-reduce time under contention, eq. (5)

    One all-reduce of a message of $M$ MB costs $T = a + bM$ (eq. (2)): latency $a$, transfer time $b$ per MB.
    When $k$ all-reduces share the busiest server of the task, the paper measures

    $$T = a + k\,b\,M + (k-1)\,\eta\,M, \tag{5}$$

    that is fair sharing ($k b M$) plus a penalty $\eta$ per MB for each competitor. We read (5) as a **fluid
    model**: a task whose busiest server carries $k$ tasks moves its message at rate

    $$r(k) = \frac{1}{k\,b + (k-1)\,\eta}\ \text{MB/s},$$

    recomputed whenever a task starts or ends (`transfer_rate`, `fluid_completion_times`). For $k$ equal
    tasks started together the fluid model gives (5) exactly; the plot checks it.
    """),
    ("code", r"""
    ks = np.arange(1, 9)
    M = 100.0  # MB
    formula = np.array([allreduce_time(M, PAPER_A, SIM_BETA, SIM_ETA, int(k)) for k in ks])
    fluid = np.array([fluid_completion_times([M] * k, [0.0] * k, [[0, 1]] * k, PAPER_A, SIM_BETA, SIM_ETA).max()
                      for k in ks])
    fair = PAPER_A + ks * SIM_BETA * M
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    ax.plot(ks, 1000 * formula, "o-", label="eq. (5)")
    ax.plot(ks, 1000 * fluid, "kx", ms=9, label="fluid simulation")
    ax.plot(ks, 1000 * fair, "--", label="fair sharing only: a + k b M")
    ax.set_xlabel("k, concurrent all-reduces of 100 MB on one server")
    ax.set_ylabel("time of each all-reduce (ms)")
    ax.set_title("Eq. (5): contention costs more than sharing")
    ax.legend()
    plt.show()
    print("fluid simulation equals eq. (5):", np.allclose(formula, fluid))
    """),
    ("md", r"""
    ### 1.2 The scheduling problem and its exact contention-free MILP

    Job $k$ arrives at $A_k$, holds $|G(J_k)|$ GPUs and runs $I_k$ iterations; an iteration is a forward
    ($t_f$) then backward ($t_b$) pass on every GPU, then an all-reduce of the model ($\sigma^k$ MB) when the job
    spans several servers (eqs. (7)-(8)). The objective is the total job completion time

    $$\min \sum_k (F_k - A_k). \tag{6}$$

    With contention the problem is a nonlinear fluid model; hetopt's **exact reference** is the
    contention-free problem (each server carries one all-reduce at a time, (5) with $k=1$) for a fixed
    placement, as a time-indexed MILP. With $x_{\tau t} = 1$ iff task $\tau$ starts in slot $t$,
    $S_\tau = \sum_t t\,x_{\tau t}$ and $p_\tau$ its duration in slots:

    $$
    \begin{aligned}
    \min\ & \textstyle\sum_k (F_k - A_k) && \text{(6)}\\
    \text{s.t. } & \textstyle\sum_t x_{\tau t} = 1 \ \ \forall \tau,\ t \ge A_k && \text{(S1)}\\
    & S_{b(k,i,g)} \ge S_{f(k,i,g)} + p_f && \text{(S2a) forward before backward}\\
    & S_{c(k,i)} \ge S_{b(k,i,g)} + p_b \ \ \forall g \in G(J_k) && \text{(S2b) barrier}\\
    & S_{f(k,i+1,g)} \ge S_{c(k,i)} + p_c && \text{(S2c) next iteration}\\
    & \textstyle\sum_{\tau \text{ on } g}\ \sum_{t' \in (t - p_\tau, t]} x_{\tau t'} \le 1 \ \ \forall g, t && \text{(S3) one task per GPU}\\
    & \textstyle\sum_{c \text{ on } s}\ \sum_{t' \in (t - p_c, t]} x_{c t'} \le 1 \ \ \forall s, t && \text{(S4) no contention}\\
    & F_k \ge S_{c(k,I_k-1)} + p_c && \text{(S5)}\\
    & x \in \{0, 1\}
    \end{aligned}
    $$

    The precedences (S2a)-(S2c) are written in the tighter disaggregated form
    $\sum_{s\le t} x_{v s} \le \sum_{s \le t-p_u} x_{u s}$. The cell builds the model on a tiny instance and
    prints each component with its docstring, so the mapping below is checked by execution.
    """),
    ("code", r"""
    tiny = tiny_instance(seed=1, n_jobs=3, max_iterations=2)
    tiny_place = simulate(tiny, "srsf1").placement  # the placement stage's output (LWF-1)
    m = build_milp(tiny, tiny_place)
    MAPPING = {"(6)": "total_jct", "(S1)": "start_once", "(S2a)": "forward_before_backward",
               "(S2b)": "backward_before_sync", "(S2c)": "sync_before_forward", "(S3)": "gpu_capacity",
               "(S4)": "network_capacity", "(S5)": "completion"}
    for eq, name in MAPPING.items():
        comp = m.component(name)
        rows = len(comp) if comp.is_indexed() else 1
        print(f"{eq:6s} -> {name:24s} {type(comp).__name__:18s} {rows:4d} rows  | {comp.doc}")
    print(f"binaries x[tau, t]: {len(m.x)};  tasks: {len(m.TASKS)};  placement: {tiny_place}")
    assert all(m.component(n) is not None for n in MAPPING.values())
    """),
    ("md", r"""
    ## 2. The algorithm, step by step

    ### 2.1 AdaDUAL's test (Theorem 2, eq. (13))

    Two all-reduces on one server, $M_1 < M_2$. Either the smaller goes first and the larger waits (C1), or
    the larger runs and the smaller either starts at once and contends, or waits (C2). Theorem 2: when a task
    of size $M_{new}$ becomes ready next to a running task with $M_{old}$ MB left, starting it at once is best iff

    $$\frac{M_{new}}{M_{old}} < \frac{b}{2(b+\eta)}. \tag{13}$$

    AdaDUAL (Algorithm 2) applies it: no task on the servers of the new one, start; more than one, wait;
    exactly one, start iff (13). The figure shows the average completion time against the start offset
    of the second task, with the closed-form minima (14a)-(14c).
    """),
    ("code", r"""
    b, eta = SIM_BETA, SIM_ETA
    print(f"threshold b / (2 (b + eta)) = {adadual_threshold(b, eta):.4f}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4))
    for ax, (m1, m2) in zip(axes, [(99.2, 526.4), (251.8, 526.4)]):
        for first, label in [(1, "C1: smaller first"), (2, "C2: larger first")]:
            span = b * (m1 if first == 1 else m2)
            offs = np.linspace(0, span, 121)
            avg = [sum(two_task_fluid(m1, m2, b, eta, first, o)) / 2 for o in offs]
            ax.plot(1000 * offs, 1000 * np.array(avg), label=label)
        for c in two_task_cases(m1, m2, b, eta):
            ax.plot(1000 * c.offset, 1000 * c.average_completion, "ko")
            ax.annotate(c.name, (1000 * c.offset, 1000 * c.average_completion), textcoords="offset points",
                        xytext=(4, 4))
        ax.set_title(f"M1 / M2 = {m1 / m2:.2f} ({'below' if m1 / m2 < adadual_threshold(b, eta) else 'above'} "
                     "the threshold)")
        ax.set_xlabel("start offset of the second task (ms)")
        ax.set_ylabel("average completion time (ms)")
        ax.legend()
    plt.tight_layout()
    plt.show()
    """),
    ("md", r"""
    ### 2.2 Ada-SRSF on a small workload where contention happens

    Six 4-GPU jobs on 4 servers of 2 GPUs (so every job spans two servers and all-reduces), arriving within
    2 s. The simulator is event-driven: at every event it places queued jobs (LWF-1, Algorithm 1), asks the
    **admission rule** about every ready all-reduce, then gives idle GPUs to the ready job with the least
    remaining service. A policy is such a pair, an admission rule and a placement: the registry `POLICIES`
    names the paper's (`simulate(inst, "ada_srsf")`), and `Policy(rule, placement)` makes one. We wrap
    `adadual` in a function that records what it was asked and what it answered (the same signature, so
    the simulator cannot tell the difference) and run it with LWF-1, Ada-SRSF's placement.
    """),
    ("code", r"""
    small = generate_instance(seed=22, n_jobs=6, gpu_mix={4: 6}, n_servers=4, gpus_per_server=2,
                              iterations=(3, 8), arrival_window=2.0)
    print({name: (p.admission, p.placement, p.kappa) for name, p in POLICIES.items()})
    print("model size (MB):", small.model_size.tolist(), " iterations:", small.iterations.tolist())

    decisions = []

    def logged_adadual(server_tasks, remaining, m_new, b, eta):
        ok = adadual(server_tasks, remaining, m_new, b, eta)
        running = sorted({c for tasks in server_tasks for c in tasks})
        decisions.append((m_new, [round(remaining[c], 1) for c in running], ok))
        return ok

    ada_small = simulate(small, Policy(logged_adadual, "lwf", label="ada-srsf (logged)"), record=True)
    assert np.allclose(ada_small.jct, simulate(small, "ada_srsf").jct)  # the wrapper changes nothing
    thr = adadual_threshold(small.b, small.eta)
    print(f"{len(decisions)} admission questions; the first where a task was already running:")
    print(" M_new (MB) | M_old left (MB) | M_new / M_old | start?")
    shown = 0
    for m_new, olds, ok in decisions:
        if olds and shown < 8:
            ratio = f"{m_new / olds[0]:13.3f}" if len(olds) == 1 else f"{'(2 running)':>13s}"
            print(f" {m_new:10.1f} | {str(olds):15s} | {ratio} | {'start (contend)' if ok else 'wait'}")
            shown += 1
    print(f"threshold {thr:.3f}: started next to a running task {sum(ok for _, o, ok in decisions if o)} times, "
          f"waited {sum(not ok for _, o, ok in decisions if o)} times")
    """),
    ("md", r"""
    **The contention-aware communication time.** Every all-reduce in the trace has a duration; alone it
    would take $a + b\sigma$. The ratio (the *stretch*) is 1 under SRSF(1), which never lets two
    all-reduces share a server, and above 1 whenever AdaDUAL or SRSF(2) accepted contention.
    """),
    ("code", r"""
    runs = {"Ada-SRSF": ada_small, "SRSF(1)": simulate(small, "srsf1", record=True),
            "SRSF(2)": simulate(small, "srsf2", record=True)}
    limits = {"Ada-SRSF": 2, "SRSF(1)": 1, "SRSF(2)": 2}
    for name, sol in runs.items():
        report = check_schedule(small, sol, max_concurrent=limits[name])  # independent checker
        assert report.ok, report.violations
        stretch = [(r.end - r.start) / small.comm_time(r.job) for r in sol.trace if r.kind == "c"]
        print(f"{name:9s} total JCT {sol.objective:7.3f} s  avg JCT {sol.average_jct:6.3f} s  "
              f"all-reduces {len(stretch):3d}  stretched {sum(s > 1 + 1e-9 for s in stretch):3d}  "
              f"max stretch {max(stretch):.2f}")
    """),
    ("code", r"""
    from hetopt.contention.experiments.plot import gantt as contention_gantt

    fig, axes = plt.subplots(3, 1, figsize=(11, 9), sharex=True)
    for ax, (name, sol) in zip(axes, runs.items()):
        contention_gantt(small, sol, ax=ax, title=f"{name}: average JCT {sol.average_jct:.3f} s "
                                                  "(hatched: all-reduces on each server's link)")
    plt.tight_layout()
    plt.show()
    """),
    ("md", r"""
    ### 2.3 The Section V-A workload, time-scaled so that contention happens

    The paper's workload has 160 jobs (1 to 32 GPUs, 1,000-6,000 iterations, arrivals over 20 minutes) on
    16 servers x 4 GPUs. We multiply **both** the iterations and the arrival window by 0.05: the same offered
    load, so the same queueing and contention, with 20 times fewer events. (Scaling the iterations alone would
    leave the cluster idle and every policy would give the same JCTs.) These are the runs behind the ledger's
    fast claims (`hetopt.contention.experiments.runs.workload(0.05)`).
    """),
    ("code", r"""
    from hetopt.contention.experiments.runs import FAST_SCALE, workload

    w = workload(FAST_SCALE)
    print(f"{w.n_jobs} jobs, iterations {w.iterations.min()}-{w.iterations.max()}, arrivals in "
          f"[0, {w.arrival.max():.0f}] s, {w.n_servers} x {w.gpus_per_server} GPUs")
    sched = {name: simulate(w, policy) for name, policy in
             (("Ada-SRSF", "ada_srsf"), ("SRSF(1)", "srsf1"), ("SRSF(2)", "srsf2"), ("SRSF(3)", "srsf3"))}
    place = {"LWF-1": sched["Ada-SRSF"], "FF": simulate(w, "ada_srsf_ff"), "LS": simulate(w, "ada_srsf_ls")}
    jct_ada, jct_srsf1 = sched["Ada-SRSF"].jct, sched["SRSF(1)"].jct
    print("jobs whose JCT differs between Ada-SRSF and SRSF(1):", int(np.sum(~np.isclose(jct_ada, jct_srsf1))))
    from hetopt.plot import jct_cdf

    fig, axes = plt.subplots(1, 3, figsize=(15, 3.6))
    for ax, group, title in ((axes[0], sched, "scheduling (placement LWF-1)"),
                             (axes[1], place, "placement (scheduling Ada-SRSF)")):
        jct_cdf({f"{name} (avg {sol.average_jct:.1f} s)": sol for name, sol in group.items()}, ax=ax, log=True,
                title=title)
    for name, sol in sched.items():
        axes[2].step(*empirical_cdf(sol.gpu_utilization), where="post", label=name)
    axes[2].set_xlabel("GPU utilisation (busy time / makespan)"); axes[2].set_ylabel("CDF of GPUs")
    axes[2].set_title("GPU utilisation"); axes[2].legend(fontsize=8)
    plt.tight_layout()
    plt.show()
    """),
    ("md", r"""
    The averages hide what happens job by job. Each point below is one job: its JCT under SRSF(1) against its
    JCT under Ada-SRSF. Points below the diagonal gained from accepting contention, points above lost.
    """),
    ("code", r"""
    differ = ~np.isclose(jct_ada, jct_srsf1)
    fig, ax = plt.subplots(figsize=(5, 4.2))
    ax.loglog(jct_srsf1[~differ], jct_ada[~differ], "o", color="lightgrey", ms=4, label="same JCT")
    ax.loglog(jct_srsf1[differ & (jct_ada < jct_srsf1)], jct_ada[differ & (jct_ada < jct_srsf1)], "o",
              color="tab:green", ms=5, label="faster under Ada-SRSF")
    ax.loglog(jct_srsf1[differ & (jct_ada > jct_srsf1)], jct_ada[differ & (jct_ada > jct_srsf1)], "o",
              color="tab:red", ms=5, label="slower under Ada-SRSF")
    lim = [min(jct_ada.min(), jct_srsf1.min()) * 0.8, max(jct_ada.max(), jct_srsf1.max()) * 1.2]
    ax.plot(lim, lim, "k--", lw=0.8)
    ax.set_xlabel("JCT under SRSF(1) (s)")
    ax.set_ylabel("JCT under Ada-SRSF (s)")
    ax.set_title("Job by job: Ada-SRSF against SRSF(1)")
    ax.legend(fontsize=8)
    plt.show()
    print(f"faster under Ada-SRSF: {int(np.sum(differ & (jct_ada < jct_srsf1)))} jobs, "
          f"slower: {int(np.sum(differ & (jct_ada > jct_srsf1)))} jobs")
    """),
    ("md", r"""
    With the correct transfer accounting Ada-SRSF and SRSF(1) differ job by job, but their averages are within a
    few per cent: accepting contention sometimes helps a small all-reduce and always slows a large one.
    The paper's 20.1% gain comes from an accounting error of its simulator (Section 4 below).

    ## 3. The certificate: what is proven, and where it stops

    The paper proves no approximation ratio for Ada-SRSF. What hetopt can **certify** is the optimum of the
    contention-free problem for a fixed placement: `solve_exact` (by default CP-SAT's interval model, or HiGHS on
    the MILP of Section 1.2) proves optimality (its bound meets the incumbent). By default it takes the placement
    LWF-1 gives under SRSF(1), with SRSF(1)'s total JCT as an upper bound. That optimum is a lower bound for
    every contention-free schedule with that placement, e.g. SRSF(1)'s, so SRSF(1)'s gap to it is proven.
    The exact schedule is checked by the same independent checker as the heuristics, and a second solver (SCIP
    on the MILP) and a second window rule (the full horizon instead of SRSF(1)'s bound) must find the same
    optimum.
    """),
    ("code", r"""
    s1 = simulate(tiny, "srsf1")
    opt = solve_exact(tiny)  # placement: LWF-1 under SRSF(1); upper bound: SRSF(1)'s total JCT
    assert opt.placement == s1.placement
    assert check_schedule(tiny, opt, max_concurrent=1).ok
    print(f"certified optimum {opt.objective:.1f} s ({opt.status.value}, bound {opt.bound:.1f}, solver {opt.solver})")
    print(f"SRSF(1) {s1.objective:.1f} s  ->  proven gap {(s1.objective - opt.bound) / opt.bound:.1%}")
    # a second method: SCIP on the same model, and HiGHS without the windows that SRSF(1)'s bound allows
    opt_scip = solve_exact(tiny, solver="scip")
    opt_wide = solve_exact(tiny, placement=s1.placement)
    print(f"cross-checks: SCIP {opt_scip.objective:.1f} ({opt_scip.status.value}), HiGHS without the bound's windows "
          f"{opt_wide.objective:.1f} ({opt_wide.status.value})")
    """),
    ("md", r"""
    The bound does **not** hold for policies that accept contention. On the bundled instance
    `wang2019_contention_beats_milp` AdaDUAL starts a 2 MB all-reduce next to a 20 MB one (ratio 0.1 < 0.39)
    and beats the contention-free optimum: contention is sometimes *useful*, which is exactly Theorem 2's point.
    """),
    ("code", r"""
    inst = ContentionInstance.from_dict(load_json("wang2019_contention_beats_milp"))
    ada, s1b = simulate(inst, "ada_srsf"), simulate(inst, "srsf1")
    opt_b = solve_exact(inst, placement=ada.placement, upper_bound=s1b.objective)
    print(f"Ada-SRSF {ada.objective:.1f}  <  contention-free optimum {opt_b.objective:.1f} ({opt_b.status.value})"
          f"  <  SRSF(1) {s1b.objective:.1f}")
    """),
    ("md", r"""
    So a policy that accepts contention is certified against the **contention-aware** problem instead:
    `solve_contention_bound` proves a lower bound valid for every fluid schedule of a placement.
    `validate_ratio(inst, method=...)` is the gap report of a policy on its own placement (`limit` None: the
    paper claims no ratio); its reference is the contention-free optimum for SRSF(1), the contention-aware bound
    for the others (`info["reference_kind"]`).
    """),
    ("code", r"""
    for method in ("srsf1", "ada_srsf"):
        cert = validate_ratio(inst, method=method, time_limit=30)
        print(f"{method:9s} total JCT {cert.value:5.1f}  reference {cert.reference:5.2f} ({cert.info['reference_kind']}, "
              f"proven {cert.proven})  ratio {cert.ratio:.3f}")
    """),
    ("md", r"""
    ## 4. The paper's claims and their verdicts

    The claims ledger (`hetopt claims contention`) records every checkable number of the paper with a verdict
    decided by an experiment. The table shows the **recorded** verdicts; below it two fast checks are rerun
    live (`hetopt claims --run --id ID` reruns any of them; the slow ones run on the full workload).
    """),
    ("code", r"""
    from collections import Counter
    from hetopt.claims import claims, run

    ledger = claims("contention")
    print(dict(Counter(c.verdict.value for c in ledger)))
    rows = ["| id | paper | verdict | diagnosis |", "|---|---|---|---|"]
    for c in ledger:
        diag = c.diagnosis if len(c.diagnosis) < 150 else c.diagnosis[:147] + "..."
        rows.append(f"| `{c.id}` | {c.paper_value} | **{c.verdict.value}** | {diag} |".replace("\n", " "))
    display(Markdown("\n".join(rows)))
    """),
    ("code", r"""
    for r in run(ids=["wang2019.theorem2.threshold_eq13", "wang2019.table5.ada_vs_srsf1"]):
        print(f"{r.claim.id}: paper {r.claim.paper_value}, ours {r.outcome.ours}, "
              f"verdict {r.outcome.verdict.value} (recorded {r.claim.verdict.value})\n    {r.outcome.detail}")
    """),
    ("md", r"""
    **The headline and the published simulator's accounting.** The authors' simulator credits a running
    all-reduce with an extra slot of progress each time a refused all-reduce asks how much of it remains.
    Only AdaDUAL asks, so only Ada-SRSF gains. `transfer_accounting="authors"` reproduces the error (for
    diagnosis). Left: a lone 526.4 MB all-reduce against the number of refused waiters (the ledger's sweep
    `hetopt sweep contention.waiters`, with the authors' slotted simulator restated). Right: Ada-SRSF's gain over
    SRSF(n) under both accountings, against the paper's numbers.
    """),
    ("code", r"""
    from hetopt.contention.experiments.runs import QUICK_SCALE, gains

    from hetopt.claims import get_sweep
    from hetopt.plot import sweep

    fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
    waiters = get_sweep("contention.waiters").run()  # the ledger's sweep, as a table
    sweep(waiters, x="refused waiters", y=["correct accounting", "authors' accounting", "authors' slotted simulator"],
          ax=axes[0], xlabel="refused all-reduces querying the running one",
          ylabel="duration of the running all-reduce (ms)", title="a lone 526.4 MB all-reduce")
    g = {acc: gains(acc, QUICK_SCALE) for acc in ("correct", "authors")}
    x = np.arange(3)
    for i, acc in enumerate(("correct", "authors")):
        axes[1].bar(x + 0.4 * i - 0.2, [g[acc][p] for p in ("srsf1", "srsf2", "srsf3")], 0.4, label=f"{acc} accounting")
    axes[1].scatter(x, [20.1, 36.7, 37.3], color="k", marker="*", s=80, zorder=3, label="paper (Table V)")
    axes[1].set_xticks(x, ["vs SRSF(1)", "vs SRSF(2)", "vs SRSF(3)"])
    axes[1].set_ylabel("Ada-SRSF's average JCT below (%)")
    axes[1].axhline(0, color="grey", lw=0.5)
    axes[1].legend(fontsize=8)
    plt.tight_layout()
    plt.show()
    print("gain appears only with the published accounting:", g["authors"]["srsf1"] > 10 > g["correct"]["srsf1"])
    """),
    ("md", r"""
    ## 5. Your own policy: the plug-in protocol

    `simulate(inst, Policy(admission, placement))` runs any pair (see the card, section *Plug-in protocol*):

    * **placement** `placement(free_memory, workload, gpus_per_server, n_gpus, memory) -> sorted GPU indices | None`:
      `free_memory[g]` (MB) and `workload[g]` (seconds of remaining work of the jobs placed on GPU `g`), global
      GPU index `server * gpus_per_server + j`; return `None` to keep the job queued.
    * **admission** `rule(server_tasks, remaining, m_new, b, eta) -> bool`: for each server of the ready
      all-reduce, the ids of the all-reduces running on it; `remaining[id]` their MB left; start now or wait.
      A rule must be *stable*: a refusal stands until a task starts or ends on one of its servers (the
      simulator does not ask again before).

    Below: a placement that packs a job on the fewest servers (most free GPUs first), and a stricter
    admission that lets a task contend only if it is ten times smaller than the running one. Both are
    checked by the independent checker and compared with Ada-SRSF.
    """),
    ("code", r"""
    def pack_servers(free_memory, workload, gpus_per_server, n_gpus, memory):
        fits = (free_memory >= memory).reshape(-1, gpus_per_server)
        order = np.argsort(-fits.sum(axis=1), kind="stable")  # servers with most room first
        chosen = [s * gpus_per_server + j for s in order for j in np.flatnonzero(fits[s])][:n_gpus]
        return np.sort(np.array(chosen, dtype=np.int64)) if len(chosen) == n_gpus else None

    def tenfold_smaller(server_tasks, remaining, m_new, b, eta):
        running = {c for tasks in server_tasks for c in tasks}
        if not running:
            return True
        return max(len(t) for t in server_tasks) == 1 and all(m_new < 0.1 * remaining[c] for c in running)

    mine = simulate(w, Policy(tenfold_smaller, pack_servers, label="mine"), record=True)
    report = check_schedule(w, mine, max_concurrent=2)  # the independent checker
    assert report.ok, report.violations[:3]
    for name, sol in {"Ada-SRSF (LWF-1 + AdaDUAL)": sched["Ada-SRSF"], "SRSF(1)": sched["SRSF(1)"],
                      "pack_servers + tenfold_smaller": mine}.items():
        print(f"{name:32s} avg JCT {sol.average_jct:7.2f} s   p95 {sol.p95_jct:7.2f} s   "
              f"GPU utilisation {sol.avg_gpu_utilization:.3f}")
    """),
    ("md", r"""
    The same comparison through the front door: `hetopt.compare` runs the paper's methods you name and your own
    (`policies={name: f(instance) -> solution}`), checks every user result with `check_schedule`, and
    tabulates them (objective: total JCT, eq. (6)).
    """),
    ("code", r"""
    import hetopt

    table = hetopt.compare(w, methods=["ada_srsf", "srsf1"], policies={
        "mine": lambda inst: simulate(inst, Policy(tenfold_smaller, pack_servers, label="mine"), record=True)})
    print(table)
    """),
    ("md", r"""
    ## 6. Exercises

    Write each answer as a number or a boolean in the cell below it; the test suite checks them against an
    independent computation.

    **Exercise 1.** With $a = 6.69\times10^{-4}$ s, $b = 8.56\times10^{-4}$ s/MB and $\eta = 2.35\times10^{-4}$
    s/MB (hetopt's `PAPER_A`, `SIM_BETA`, `SIM_ETA`), how long (s) does each of $k = 3$ all-reduces of 200 MB
    started together take by eq. (5)?
    """),
    ("code", r"""
    answer_1 = PAPER_A + 3 * SIM_BETA * 200 + 2 * SIM_ETA * 200
    answer_1
    """),
    ("md", r"""
    **Exercise 2.** A 150 MB all-reduce becomes ready on a server where one all-reduce with 400 MB left is running
    (same $b$, $\eta$). Does AdaDUAL start it at once (True) or make it wait (False)?
    """),
    ("code", r"""
    answer_2 = bool(150 / 400 < SIM_BETA / (2 * (SIM_BETA + SIM_ETA)))
    answer_2
    """),
    ("md", r"""
    **Exercise 3.** Two all-reduces of $M_1 = 100$ MB and $M_2 = 300$ MB on one server, both ready at time 0,
    $a = 0$, $b = 10^{-3}$ s/MB, $\eta = 5\times10^{-4}$ s/MB. By Theorem 1 the best schedule runs the smaller
    first and the larger right after it. What is the minimal average completion time $t_{aver}$ (s)? Check
    your formula against `two_task_schedule`.
    """),
    ("code", r"""
    from hetopt.contention import two_task_schedule

    b3 = 1e-3
    answer_3 = (b3 * 100 + (b3 * 100 + b3 * 300)) / 2
    print("two_task_schedule (first, offset, t_aver):", two_task_schedule(100.0, 300.0, b=b3, eta=5e-4))
    answer_3
    """),
]

if __name__ == "__main__":
    write("contention", CELLS, papers=("contention",), min_figures=3)
