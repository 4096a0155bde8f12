"""``hetopt.arena.run``: policies x loads x seeds on one workload, serially, in processes or on dask.

Each run is one task (:func:`run_one`): the workload at the load (its jobs with Poisson arrivals
redrawn with the seed, :func:`~hetopt.arena.sources.at_load`; no load: the workload as it is), the
policy made fresh, :func:`~hetopt.arena.engine.execute` with the seed, the metrics.  The bounds of
each loaded workload come from :mod:`hetopt.arena.bounds` (``jct_lower_bound`` and
``makespan_lower_bound``, objects with ``.value`` and ``.certified``; the JCT bound is read as a
bound on the average JCT); while that module is absent the bound columns stay empty.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ArgumentError, SizeLimitError
from ..inputs import MAX_SEED, MAX_WORKERS, check_flag, check_positive, check_size
from ..report import Table
from .bounds import jct_lower_bound, makespan_lower_bound
from .engine import execute
from .metrics import METRIC_COLUMNS, metrics_of
from .policies import POLICIES, make_policy
from .protocol import Options
from .sources import SIMULATION_CLUSTER, at_load, gavel_trace
from .workload import Workload

__all__ = ["run", "run_one", "ArenaTable", "load_workload", "bounds_of", "COLUMNS"]

#: The columns of the table :func:`run` returns.
COLUMNS = ("policy", "load", "seed", "jobs", *METRIC_COLUMNS, "jct_bound", "jct_ratio", "makespan_bound",
           "makespan_ratio", "certified", "rounds", "seconds", "cpu_seconds", "refused")


@dataclass
class ArenaTable(Table):
    """The table of :func:`run`, with each run's per-job JCTs (``runs``: one dict per row)."""

    runs: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The table (title, columns, rows, notes) and each run's per-job JCTs and rho."""
        return super().to_dict() | {"runs": self.runs}

    def column(self, name: str) -> list[Any]:
        """The cells of one column."""
        i = list(self.columns).index(name)
        return [r[i] for r in self.rows]


def load_workload(spec: Any, counts: Any = SIMULATION_CLUSTER) -> Workload:
    """A workload from a :class:`Workload`, a JSON file, a Gavel trace name or a ``.trace`` file."""
    if isinstance(spec, Workload):
        from .sources import cluster

        cluster(counts)  # checked though unused: a Workload carries its own cluster
        return spec
    if not isinstance(spec, (str, Path)):
        raise ArgumentError(f"spec is {spec!r}; expected a Workload, a .json file, a .trace file or a Gavel "
                            "trace name such as 'msr/seed=0/ed69ec'")
    text = str(spec)
    if text.endswith(".json"):
        return Workload.from_json(Path(text))
    if text.endswith(".trace"):
        from ..gavel.traces import parse_trace
        from .sources import GAVEL_ORDER, cluster, from_gavel

        cl = cluster(counts)
        cap = [int(cl["server_gpus"][cl["server_type"] == cl["gpu_types"].index(g)].sum())
               if g in cl["gpu_types"] else 0 for g in GAVEL_ORDER]
        try:
            body = Path(text).read_text(encoding="utf-8")
        except OSError as exc:
            raise ArgumentError(f"cannot read trace {text}: {exc.strerror}") from None
        return from_gavel(parse_trace(body, cap, description=f"trace {text}", source=text))
    return gavel_trace(text, counts)


def bounds_of(w: Workload, *, packing: bool = False) -> tuple[Any, Any]:
    """``(jct_lower_bound(w), makespan_lower_bound(w))`` of :mod:`hetopt.arena.bounds`.

    The JCT bound is on the plain average JCT (weights of 1, whatever the workload's weights), the
    metric the table divides; ``packing=True``: the bounds that hold for policies running two jobs on
    one GPU (lower).
    """
    return (jct_lower_bound(w, weights=np.ones(w.n_jobs), packing=packing),
            makespan_lower_bound(w, packing=packing))


def run_one(w: Workload, policy: str, load: float | None, *, seed: int, options: Options | None = None,
            policy_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One run: ``policy`` on ``w`` at ``load`` jobs/hour (None: as it is) with ``seed``; a dict of results.

    ``seconds`` is the run's wall time, ``cpu_seconds`` its process's CPU time.  A policy that refuses by a
    size guard (:class:`~hetopt.errors.SizeLimitError`, before its first round or partway) gives a result
    whose ``refused`` is the message and whose ``metrics`` are None; any other error propagates.
    """
    wl = w if load is None else at_load(w, load, seed=seed)
    out: dict[str, Any] = {"policy": policy, "load": load, "seed": seed, "jobs": wl.n_jobs, "metrics": None,
                           "rounds": None, "resets": None, "refused": None}
    policy_object = make_policy(policy, **dict(policy_options or {}))
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        result = execute(wl, policy_object, options, seed=seed)
    except SizeLimitError as exc:
        out["refused"] = str(exc)
    else:
        out |= {"metrics": metrics_of(wl, result).to_dict(), "rounds": result.n_rounds, "resets": result.n_resets}
    return out | {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0}


def _task(w: Workload, *, task: str, **kw: Any) -> dict[str, Any]:
    """One task of a table: a run (:func:`run_one`) or the bounds of one loaded workload (:func:`bounds_of`)."""
    if task == "run":
        return run_one(w, **kw)
    load, seed, packing = kw["load"], kw["seed"], kw["packing"]
    return {"key": (load, seed, packing),
            "bounds": bounds_of(w if load is None else at_load(w, load, seed=seed), packing=packing)}


def _tasks(policies: Sequence[str], loads: Sequence[float | None], seeds: Sequence[int]) -> list[tuple[Any, ...]]:
    return [(p, load, s) for load in loads for s in seeds for p in policies]


def _execute(tasks: list[dict[str, Any]], func: Callable[..., dict[str, Any]], w: Workload, workers: int,
             dask: str | None, bar: Any) -> list[dict[str, Any]]:
    results: list[dict[str, Any] | None] = [None] * len(tasks)
    if dask is not None:
        try:
            from dask.distributed import Client, as_completed
        except ImportError as exc:  # pragma: no cover - dask is in the test extra
            raise ArgumentError('--dask needs dask.distributed: pip install "hetopt[dask]"') from exc
        with Client(dask) as client:
            futures = {client.submit(func, w, pure=False, **t): i for i, t in enumerate(tasks)}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                bar.update(1)
    elif workers > 1:
        import concurrent.futures as cf

        with cf.ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            pending = {pool.submit(func, w, **t): i for i, t in enumerate(tasks)}
            for fut in cf.as_completed(pending):
                results[pending[fut]] = fut.result()
                bar.update(1)
    else:
        for i, t in enumerate(tasks):
            results[i] = func(w, **t)
            bar.update(1)
    return [r for r in results if r is not None]


def _ratio(value: float, bound: Any) -> float | None:
    return None if bound is None or not bound.value > 0 else value / float(bound.value)


def _sequence(value: Any, name: str) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ArgumentError(f"{name} is {value!r}; expected a list of values")
    return list(value)


def _checked_run_arguments(policies: Any, loads: Any, seeds: Any, policy_options: Any) -> tuple[list[str], list[
        float | None], list[int], dict[str, Any]]:
    """:func:`run`'s policy names, loads, seeds and policy options, checked by name."""
    names = list(POLICIES) if policies is None else _sequence(policies, "policies")
    for name in names:
        if not isinstance(name, str) or name not in POLICIES:
            raise ArgumentError(f"policies has {name!r}; expected names of {sorted(POLICIES)}")
    load_list: list[float | None] = [None] if loads is None else [check_positive(v, "loads")
                                                                   for v in _sequence(loads, "loads")]
    seed_list = [check_size(s, "seeds", minimum=0, maximum=MAX_SEED - 5) for s in _sequence(seeds, "seeds")]
    if not names or not seed_list or not load_list:
        raise ArgumentError("policies, loads and seeds must each hold at least one value")
    if policy_options is not None and (not isinstance(policy_options, Mapping)
                                       or not all(isinstance(v, Mapping) for v in policy_options.values())):
        raise ArgumentError(f"policy_options is {policy_options!r}; expected a mapping of policy name -> options")
    return names, load_list, seed_list, dict(policy_options or {})


def run(workload: Any, policies: Iterable[str] | None = None, *, loads: Iterable[float] | None = None,
        seeds: Iterable[int] = (0,), options: Options | None = None, workers: int = 1, dask: str | None = None,
        progress: bool = False, counts: Any = SIMULATION_CLUSTER, bounds: bool = True,
        policy_options: Mapping[str, Mapping[str, Any]] | None = None) -> ArenaTable:
    """Run ``policies`` x ``loads`` x ``seeds`` on ``workload`` and tabulate the metrics with the bound ratios.

    Parameters
    ----------
    workload : Workload or str
        A workload, a JSON file, a ``.trace`` file or a Gavel trace name (:func:`load_workload`).
    policies : iterable of str, optional
        Names of :data:`~hetopt.arena.POLICIES` (default: all).
    loads : iterable of float, optional
        Jobs/hour; the workload's jobs arrive as a Poisson process of each load, drawn with each seed.
        None: the workload's own arrivals.
    seeds : iterable of int
        Seeds of the arrivals and of the runs (type shuffling, random policies).
    options : Options, optional
        The execution model's options (default: Gavel's).
    workers : int
        Processes (1: serial); ``dask``: the address of a ``dask.distributed`` scheduler instead.
    progress : bool
        A tqdm bar on stderr.
    counts : str
        The cluster of a trace given by name (``"v100:p100:k80"`` GPUs).
    bounds : bool
        Compute the bounds of each loaded workload (:func:`bounds_of`).
    policy_options : mapping, optional
        Policy name -> options of its factory.

    Returns
    -------
    ArenaTable
        One row per (policy, load, seed), :data:`COLUMNS`; ``runs`` holds each run's per-job JCTs.  A policy
        refused by its size guard (:class:`~hetopt.errors.SizeLimitError`) is a row with empty metrics and its
        message in ``refused``; the other runs go on.
    """
    from tqdm import tqdm

    names, load_list, seed_list, opts = _checked_run_arguments(policies, loads, seeds, policy_options)
    workers = check_size(workers, "workers", maximum=MAX_WORKERS)
    if options is not None and not isinstance(options, Options):
        raise ArgumentError(f"options is {options!r}; expected an hetopt.arena.Options or None")
    if dask is not None and not isinstance(dask, str):
        raise ArgumentError(f"dask is {dask!r}; expected a scheduler address (str) or None")
    progress, bounds = check_flag(progress, "progress"), check_flag(bounds, "bounds")
    if not isinstance(counts, str) or not counts:
        raise ArgumentError(f"counts is {counts!r}; expected GPU counts as a str such as {SIMULATION_CLUSTER!r}")
    if counts != SIMULATION_CLUSTER and (isinstance(workload, Workload) or str(workload).endswith(".json")):
        raise ArgumentError(f"counts is {counts!r}, but the workload brings its own cluster: counts is for a Gavel "
                            "trace given by name or .trace file")
    if not isinstance(workload, Workload | str | Path):
        raise ArgumentError(f"workload is {workload!r:.60}; expected a Workload, a .json or .trace file or a trace name")
    w = load_workload(workload, counts)
    tasks = _tasks(names, load_list, seed_list)
    # the bounds of each loaded workload are tasks too, first (the longest), so the workers share them
    keys = sorted({(load, s if load is not None else 0, POLICIES[p].packs) for p, load, s in tasks
                   if not POLICIES[p].copies}, key=repr) if bounds else []
    jobs = [{"task": "bound", "load": load, "seed": s, "packing": packs} for load, s, packs in keys]
    jobs += [{"task": "run", "policy": p, "load": load, "seed": s, "options": options, "policy_options": opts.get(p)}
             for p, load, s in tasks]
    with tqdm(total=len(jobs), disable=not progress, desc="arena", unit="task") as bar:
        done = _execute(jobs, _task, w, workers, dask, bar)
    cache = {r["key"]: r["bounds"] for r in done if "key" in r}
    results = [r for r in done if "key" not in r]
    table = ArenaTable(f"arena: {w.description or 'workload'}", COLUMNS)
    for r in results:
        packs = POLICIES[r["policy"]].packs
        jb, mb = cache.get((r["load"], r["seed"] if r["load"] is not None else 0, packs), (None, None))
        if POLICIES[r["policy"]].copies:  # a job in several gangs at once is outside the bounds' model
            jb, mb = None, None
        m = r["metrics"]
        certified = None if jb is None else bool(jb.certified and mb.certified)
        if m is None:  # refused by a size guard: a row that says so
            table.add(r["policy"], r["load"], r["seed"], r["jobs"], *(None for _ in METRIC_COLUMNS),
                      None if jb is None else float(jb.value), None, None if mb is None else float(mb.value), None,
                      certified, None, r["seconds"], r["cpu_seconds"], r["refused"])
            table.runs.append({"policy": r["policy"], "load": r["load"], "seed": r["seed"], "jct": None, "rho": None})
            continue
        table.add(r["policy"], r["load"], r["seed"], r["jobs"], *(m[c] for c in METRIC_COLUMNS),
                  None if jb is None else float(jb.value), _ratio(m["avg_jct"], jb),
                  None if mb is None else float(mb.value), _ratio(m["makespan"], mb), certified, r["rounds"],
                  r["seconds"], r["cpu_seconds"], None)
        table.runs.append({"policy": r["policy"], "load": r["load"], "seed": r["seed"], "jct": m["jct"],
                           "rho": m["rho"]})
    table.notes.append("times in seconds; load in jobs/hour (empty: the workload's own arrivals); ratios are "
                       "avg_jct / jct_bound and makespan / makespan_bound (hetopt.arena.bounds; packing=True for the "
                       "policies that run two jobs on a GPU; none for the policies that run a job as several gangs at "
                       "once); seconds: wall, cpu_seconds: the run's process CPU; refused: a size guard's refusal "
                       "(no metrics)")
    return table
