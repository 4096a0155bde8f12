"""Benchmarks of :mod:`hetopt.gavel` (``hetopt bench gavel``): times and ratios measured in one run, and the parity table."""

from __future__ import annotations

from ...errors import HetoptError
from ...inputs import check_flag
from ...report import Table
from ..allocation import allocate
from ..generators import generate_instance
from ..parity import AVG_RTOL, FAST_TRACES, JOB_RTOL, ParityRow, extra_parity_rows, parity_reference, parity_rows
from ..policies import POLICIES
from ..simulator import simulate
from ..traces import TRACES

__all__ = ["bench", "parity_table", "extra_parity_table"]

def parity_table(quick: bool = False) -> Table:
    """Hetopt's simulator (defaults: Gavel's loop, ECOS) beside Gavel's own runs, row by row.

    Parameters
    ----------
    quick : bool
        Only the four physical-cluster traces (32 rows; else also the 8 msr rows).

    Returns
    -------
    Table
        Per run: hetopt's and Gavel's average JCT and makespan (s), their relative differences (%),
        rounds, jobs whose JCT is more than 1 % off and the largest per-job difference;
        ``violations`` counts rows outside the goal (0.5 % / 1 %).
    """
    ref = parity_reference()
    traces = FAST_TRACES if quick else TRACES
    t = _table(f"gavel parity: hetopt.gavel.simulate (mechanism='gavel', solver='ecos') vs Gavel's simulator "
               f"(commit {ref['commit'][:7]})", parity_rows(traces))
    t.notes.append(f"Gavel's numbers: hetopt/tables/gavel_parity_reference.json; command line: {ref['command_line']}")
    return t


def extra_parity_table() -> Table:
    """Gavel's other policies (agnostic, finish-time fairness, water filling, cost, AlloX, packing, Gandiva) vs its runs."""
    ref = parity_reference()
    t = _table("gavel parity, the other policies: medium_test and small_test with scale factors 1 on 4:4:4",
               extra_parity_rows())
    t.notes.append(ref["extra_runs"]["note"])
    return t


def _table(title: str, rows: list[ParityRow]) -> Table:
    t = Table(title, ["trace", "cluster", "policy", "avg JCT (s)", "Gavel avg JCT (s)", "diff %", "makespan (s)",
                      "Gavel makespan (s)", "diff %", "rounds", "Gavel rounds", "jobs > 1 %", "max job diff"])
    bad = 0
    for r in rows:
        t.add(r.trace, r.cluster, r.policy, r.avg_jct, r.gavel_avg_jct, 100 * r.avg_diff, r.makespan,
              r.gavel_makespan, 100 * r.makespan_diff, r.rounds, r.gavel_rounds, r.jobs_off, r.max_job_rel)
        bad += not r.ok
    t.violations = bad
    t.notes.append(f"goal (issue 23): average JCT and makespan within {100 * AVG_RTOL:g} % and every job's JCT "
                   f"within {100 * JOB_RTOL:g} % of Gavel's; rows outside it: {bad}")
    return t


def bench(quick: bool = False, parity: bool = False) -> list[Table]:
    """Seconds per policy LP and per simulation, by number of jobs; or the parity table.

    Parameters
    ----------
    quick : bool
        16 and 64 jobs (else also 256); with ``parity``, the physical traces only.
    parity : bool
        The parity tables against Gavel's own runs (:func:`parity_table`, 40 rows, 32 with ``quick``;
        and, without ``quick``, :func:`extra_parity_table`, 26 rows) instead of the timings.

    Returns
    -------
    list of Table
        One table: per size and policy, the allocation's and the simulation's seconds, the
        simulated average JCT and makespan (hours); or the parity table.
    """
    if check_flag(parity, "parity"):
        quick = check_flag(quick, "quick")
        return [parity_table(quick)] if quick else [parity_table(), extra_parity_table()]
    sizes = (16, 64) if quick else (16, 64, 256)
    t = Table("gavel: seconds per allocation (all jobs at once) and per simulation (8 GPUs per type, 12 jobs/hour; "
              "Gavel's loop, ECOS)",
              ["jobs", "policy", "allocation s", "simulation s", "avg JCT (h)", "makespan (h)"])
    for n in sizes:
        inst = generate_instance(n_jobs=n, capacity=(8, 8, 8), jobs_per_hour=12.0, seed=n)
        for name, spec in POLICIES.items():
            if name == "max_min_fairness_strategy_proof" and n > 16:
                t.notes.append(f"{name} skipped at {n} jobs: J + 1 conic programs per recomputation (Gavel's "
                               "leave-one-out discounts); 64 jobs took 418 s on two shared cores")
                continue
            try:
                a = allocate(inst, name).wall_time if spec.static else None  # packing: simulated only
                s = simulate(inst, name, record_rounds=False)
            except HetoptError as exc:  # a policy that fails is reported in the table, not hidden
                t.add(n, name, None, None, None, None)
                t.notes.append(f"{name}, {n} jobs: {exc}")
                continue
            t.add(n, name, a, s.wall_time, s.average_jct / 3600, s.makespan / 3600)
    return [t]
