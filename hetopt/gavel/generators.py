"""Gavel's instances: generated as Gavel's ``generate_job`` draws them, and read from / written to its trace format.

Job types are the models of Gavel's throughput table (:func:`hetopt.data.gavel_throughputs`),
drawn uniformly; a job with a scale factor above 1 draws only among the types measured at
that scale factor.  Scale factors follow the Philly distribution Gavel uses (1 with
probability 0.7, 2 with 0.1, 4 with 0.15, 8 with 0.05); durations too (with probability
0.8, ``60 * 10**U(1.5, 3)`` seconds, else ``60 * 10**U(3, 4)``); the job's steps are its
duration times its throughput on the reference type (V100) at its scale factor.  Arrivals
form a Poisson process of ``jobs_per_hour`` (0: every job at time 0).

:func:`to_trace` / :func:`parse_trace` / :func:`load_trace` (Gavel's text traces, both formats, and
the bundled ones) live in :mod:`hetopt.gavel.traces` and are re-exported here.

References
----------
stanford-futuredata/gavel, ``scheduler/utils.py`` (``generate_job``,
``_generate_scale_factor``, ``_generate_duration``) and ``scheduler/job.py`` (MIT licence).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..data import gavel_throughputs
from ..errors import ArgumentError
from ..inputs import MAX_GENERATED, check_flag, check_positive, check_size, rng_from
from .instance import GavelInstance
from .traces import GPU_TYPES, load_trace, parse_trace, to_trace

__all__ = ["job_table", "generate_instance", "to_trace", "parse_trace", "load_trace", "SCALE_FACTORS",
           "SCALE_FACTOR_PROBS", "GPU_TYPES"]

#: Gavel's Philly scale-factor distribution.
SCALE_FACTORS = (1, 2, 4, 8)
SCALE_FACTOR_PROBS = (0.7, 0.1, 0.15, 0.05)


def job_table() -> dict[tuple[str, int], np.ndarray]:
    """(job type, scale factor) -> steps/s on (v100, p100, k80), from Gavel's measurements."""
    data = gavel_throughputs()
    types = data["gpu_types"]
    return {(e["job_type"], int(e["scale_factor"])): np.array([e["iterations_per_second"][g] for g in types])
            for e in data["entries"]}


def generate_instance(*, n_jobs: int = 8, seed: int | np.random.Generator | None = None,
                      capacity: Sequence[int] = (4, 4, 4), jobs_per_hour: float = 0.0, multi_gpu: bool = True,
                      fixed_duration: float | None = None, description: str = "") -> GavelInstance:
    """A seeded workload of ``n_jobs`` jobs on V100/P100/K80 GPUs, as Gavel's generator draws it.

    Parameters
    ----------
    n_jobs : int
        Jobs to draw (at least 1; default 8, the size of :func:`~hetopt.gavel.ratio_sweep`).
    seed : int, numpy Generator or None
        :func:`hetopt.inputs.rng_from`.  Every parameter is keyword-only.
    capacity : sequence of 3 int
        GPUs of type v100, p100, k80.
    jobs_per_hour : float
        Rate of the Poisson arrivals; 0 puts every job at time 0.
    multi_gpu : bool
        Draw scale factors from the Philly distribution (else every job has 1).
    fixed_duration : float, optional
        Seconds on the reference V100 of every job instead of Philly durations.
    description : str
        Default: the size, rate and seed.

    Returns
    -------
    GavelInstance

    Raises
    ------
    ArgumentError
        An argument out of its range (naming it).

    Examples
    --------
    >>> inst = generate_instance(n_jobs=5, seed=0, capacity=(2, 2, 2))
    >>> inst.n_jobs, inst.gpu_types
    (5, ['v100', 'p100', 'k80'])
    """
    n = check_size(n_jobs, "n_jobs", maximum=MAX_GENERATED)
    rng = rng_from(seed)
    rate = check_positive(jobs_per_hour, "jobs_per_hour", allow_zero=True)
    multi = check_flag(multi_gpu, "multi_gpu")
    duration_fixed = None if fixed_duration is None else check_positive(fixed_duration, "fixed_duration")
    if not isinstance(description, str):
        raise ArgumentError(f"description is {description!r}; expected a str ('' for the generated one)")
    if isinstance(capacity, (str, bytes)) or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                     for v in np.asarray(capacity, dtype=object).reshape(-1)):
        raise ArgumentError(f"capacity is {capacity!r}; expected 3 GPU counts (v100, p100, k80), integers >= 0")
    cap = np.asarray(capacity, dtype=int)
    if cap.shape != (3,) or np.any(cap < 0) or cap.max() < 1:
        raise ArgumentError(f"capacity is {list(capacity)}; expected 3 GPU counts (v100, p100, k80) >= 0, one of "
                            "them >= 1")
    table = job_table()
    types_at = {s: sorted(t for t, k in table if k == s and table[t, k][0] > 0) for s in SCALE_FACTORS}
    jt, sf, steps, arrival, thr = [], [], [], [], []
    t = 0.0
    for _ in range(n):
        s = int(rng.choice(SCALE_FACTORS, p=SCALE_FACTOR_PROBS)) if multi else 1
        while s > cap.max():
            s //= 2
        name = types_at[s][int(rng.integers(len(types_at[s])))]
        if duration_fixed is not None:
            duration = duration_fixed
        elif rng.random() >= 0.8:
            duration = 60 * 10 ** rng.uniform(3, 4)
        else:
            duration = 60 * 10 ** rng.uniform(1.5, 3)
        row = table[name, s]
        jt.append(name)
        sf.append(s)
        steps.append(float(np.ceil(duration * row[0])))
        arrival.append(t)
        thr.append(row)
        if rate > 0:
            t += float(rng.exponential(3600.0 / rate))
    src = ("generated by hetopt.gavel.generate_instance (Gavel's generate_job: Philly scale factors and durations, "
           "job types of Gavel's measured throughput table)")
    return GavelInstance(list(GPU_TYPES), cap, jt, sf, steps, arrival, np.array(thr), None,
                         description or f"{n_jobs} jobs, {jobs_per_hour} jobs/hour, seed {seed}", src)
