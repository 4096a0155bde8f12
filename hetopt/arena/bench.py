r"""``hetopt bench arena``: the arena's engine beside Gavel's own simulator, identical runs, the speed ratios.

Each row is one run of the parity table (a Gavel trace, a cluster, one of Gavel's four ``_perf``
policies, seed 0): the arena (:func:`hetopt.arena.execute`, the policy from
:data:`hetopt.arena.POLICIES`) and Gavel's ``Scheduler.simulate`` called as its trace driver calls it,
each timed around the simulation alone (CPU seconds, and wall seconds), with the two average JCTs to
show the runs are the same.  The goal (issue 29): at least 10x faster on every run of 10,000 rounds
or more, and no slower on the small ones.  CPU time is the ratio that matters on a shared machine;
wall time is shown too.

Gavel's column needs a copy of Gavel outside the repository, set up once::

    git clone https://github.com/stanford-futuredata/gavel /work/gavel-run/gavel   # commit c4fa400
    python3 -m venv /work/gavel-run/venv
    /work/gavel-run/venv/bin/pip install numpy scipy cvxpy ecos grpcio grpcio-tools protobuf \\
        matrix-completion scikit-learn psutil
    cd /work/gavel-run/gavel/scheduler && /work/gavel-run/venv/bin/python -m grpc_tools.protoc \\
        -Iruntime/protobuf --python_out=runtime/rpc_stubs --grpc_python_out=runtime/rpc_stubs \\
        runtime/protobuf/*.proto      # what Gavel's `make rpc_stubs` does

then ``HETOPT_GAVEL_DIR=/work/gavel-run/gavel/scheduler HETOPT_GAVEL_PYTHON=/work/gavel-run/venv/bin/python
hetopt bench arena``.  Without them (or when the folder is absent) Gavel's columns stay empty and a
note says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from ..gavel.traces import load_trace, to_trace
from ..report import Table
from .engine import execute
from .policies import make_policy
from .sources import from_gavel

__all__ = ["bench", "gavel_run", "RUNS", "QUICK_RUNS", "GAVEL_DIR_ENV", "GAVEL_PYTHON_ENV"]

GAVEL_DIR_ENV = "HETOPT_GAVEL_DIR"
GAVEL_PYTHON_ENV = "HETOPT_GAVEL_PYTHON"
_PERF = {"max_min_fairness": "max_min_fairness_perf", "fifo": "fifo_perf",
         "min_total_duration": "min_total_duration_perf", "max_sum_throughput": "max_sum_throughput_perf"}
#: (trace, cluster, policy): small runs, then the msr runs of 19,000 to 25,000 rounds.
QUICK_RUNS = tuple(("small_test", "4:4:4", p) for p in _PERF)
RUNS = (*QUICK_RUNS, *(("medium_test", "4:4:4", p) for p in _PERF),
        *(("ed69ec_first60", "4:4:4", p) for p in _PERF))

#: Run by Gavel's python in Gavel's scheduler folder: its Scheduler.simulate as the trace driver calls it,
#: timed alone, the results as JSON on the last line (stdout of the simulation itself goes to /dev/null).
_HARNESS = r"""
import json, os, sys, time, logging
sys.path.insert(0, os.getcwd())
import scheduler, utils
trace, policy_name, spec = sys.argv[1:4]
logging.disable(logging.CRITICAL)
jobs, arrival_times = utils.parse_trace(trace)
policy = utils.get_policy(policy_name, solver="ECOS", seed=0)
sched = scheduler.Scheduler(policy, throughputs_file="simulation_throughputs.json", simulate=True, seed=0,
                            time_per_iteration=360)
rounds = [0]
inner = sched._schedule_jobs_on_workers
def counted(*a, **k):
    rounds[0] += 1
    return inner(*a, **k)
sched._schedule_jobs_on_workers = counted
n = spec.split(":")
out, sys.stdout = sys.stdout, open(os.devnull, "w")
c0, w0 = time.process_time(), time.perf_counter()
sched.simulate({"v100": int(n[0]), "p100": int(n[1]), "k80": int(n[2])}, arrival_times, jobs,
               num_gpus_per_server={"v100": 1, "p100": 1, "k80": 1})
cpu, wall = time.process_time() - c0, time.perf_counter() - w0
avg = sched.get_average_jct()
sys.stdout = out
print(json.dumps({"avg_jct": avg, "rounds": rounds[0], "cpu": cpu, "wall": wall}))
"""


def _gavel() -> tuple[Path, str] | str:
    """(scheduler folder, python) of the Gavel copy, or why it is not there."""
    folder, python = os.environ.get(GAVEL_DIR_ENV), os.environ.get(GAVEL_PYTHON_ENV)
    if not folder or not python:
        return f"Gavel's columns are empty: set {GAVEL_DIR_ENV} and {GAVEL_PYTHON_ENV} (hetopt.arena.bench docstring)"
    if not (Path(folder) / "scheduler.py").is_file() or not Path(python).is_file():
        return f"Gavel's columns are empty: no scheduler.py in {folder} or no python at {python}"
    return Path(folder), python


def gavel_run(trace_text: str, policy: str, cluster: str, folder: Path, python: str) -> dict[str, Any]:
    """Gavel's own simulation of a trace (its driver's policy name), timed around ``simulate`` alone."""
    with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as fh:
        fh.write(trace_text)
    try:
        done = subprocess.run([python, "-c", _HARNESS, fh.name, policy, cluster], cwd=folder, capture_output=True,
                              text=True, check=False, timeout=3600)
    finally:
        os.unlink(fh.name)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def bench(quick: bool = False) -> list[Table]:
    """The speed table: CPU and wall seconds of the arena and of Gavel on identical runs, and the ratios."""
    import cvxpy  # noqa: F401 - imported before timing, as Gavel's scheduler.py imports it before its simulation

    gavel = _gavel()
    t = Table("arena engine vs Gavel's simulator (identical runs, seed 0, ECOS)",
              ["trace", "cluster", "policy", "rounds", "arena cpu s", "gavel cpu s", "cpu ratio", "arena wall s",
               "gavel wall s", "wall ratio", "same avg JCT"])
    for trace, cluster, policy in (QUICK_RUNS if quick else RUNS):
        inst = load_trace(trace, cluster)
        w = from_gavel(inst)
        c0, w0 = time.process_time(), time.perf_counter()
        run = execute(w, make_policy(policy))
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        avg = float((run.completion - w.arrival).mean())
        g: dict[str, Any] = {}
        if not isinstance(gavel, str):
            g = gavel_run(to_trace(inst), _PERF[policy], cluster, *gavel)
        ok = None if "avg_jct" not in g else abs(g["avg_jct"] - avg) <= 1e-9 * avg
        t.add(trace, cluster, policy, run.n_rounds, cpu, g.get("cpu"), None if "cpu" not in g else g["cpu"] / cpu,
              wall, g.get("wall"), None if "wall" not in g else g["wall"] / wall, ok)
        if "error" in g:
            t.notes.append(f"{trace} {policy}: Gavel failed: {g['error']}")
    if isinstance(gavel, str):
        t.notes.append(gavel)
    t.notes.append("ratio = Gavel's seconds / the arena's, each timed around the simulation alone; goal: >= 10 on "
                   "every run of 10,000 rounds or more, >= 1 on the small ones")
    return [t]
