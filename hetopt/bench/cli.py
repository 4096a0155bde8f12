"""``hetopt bench cli``: how fast the command starts (``--help``) and solves a small instance.

Each command runs in a fresh interpreter (as a user types it), ``repeat`` times; the table gives
the median wall time, the median CPU time of the child (user + system, from ``resource``), and the
goals of issue 28 (``--help`` under 0.5 s, ``solve`` of a small instance under 2 s) as ratios.
CPU time is the fairer number on a loaded machine: wall time waits for the other processes.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ..report import Table

__all__ = ["bench_cli", "COMMANDS"]

#: name -> (arguments of ``hetopt``, goal in seconds).
COMMANDS: dict[str, tuple[tuple[str, ...], float]] = {
    "hetopt --help": (("--help",), 0.5),
    "hetopt solve hare2022_fig1": (("solve", "hare2022_fig1"), 2.0),
    "hetopt solve gavel2020_three_jobs": (("solve", "gavel2020_three_jobs"), 2.0),
}


def _command() -> list[str]:
    """The installed ``hetopt`` script beside this interpreter, else the same entry point through ``-c``."""
    script = Path(sys.executable).with_name("hetopt")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from hetopt.cli import main; sys.exit(main())"]


def _run_once(args: tuple[str, ...]) -> tuple[float, float]:
    """Wall and CPU seconds of ``hetopt ARGS`` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([*_command(), *args], capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"hetopt {' '.join(args)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def bench_cli(quick: bool = False, repeat: int | None = None) -> list[Table]:
    """The start-up table: one row per command of :data:`COMMANDS` (``quick``: 2 repetitions, else 5)."""
    n = repeat if repeat is not None else (2 if quick else 5)
    t = Table(f"hetopt bench cli: each command {n} times in a fresh interpreter (medians)",
              ["command", "wall_s", "cpu_s", "goal_s", "wall/goal", "cpu/goal"])
    for name, (args, goal) in COMMANDS.items():
        runs = [_run_once(args) for _ in range(n)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        wall, cpu = round(wall, 3), round(cpu, 3)  # the ratios of the printed times (one rounding, not two)
        t.add(name, wall, cpu, goal, round(wall / goal, 2), round(cpu / goal, 2))
    t.notes.append("a ratio below 1 meets the goal; wall time includes waiting for other processes on a loaded "
                   "machine, CPU time does not")
    return [t]
