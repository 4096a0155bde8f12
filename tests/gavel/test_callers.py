"""The mechanism inside Hadar's GavelPolicy and the placement Gavel baseline."""

import numpy as np
import pytest

from hetopt.data import load_json
from hetopt.errors import HetoptError
from hetopt.hadar import HadarInstance, simulate
from hetopt.hadar.policies import GavelPolicy
from hetopt.hadar.workloads import motivating_example


def test_hadar_p2_relaxes_p1_finishes_without_restart_delay():
    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    res = simulate(inst, "gavel", restart_delay=0.0, max_rounds=100)
    # 2 iterations each: J0 at 2 it/s (type 0) or 1 it/s (type 1), J1 at 1 it/s on type 0 only
    assert np.all(np.isfinite(res.jct)) and np.all(res.jct >= [1.0, 2.0])


def test_hadar_p2_relaxes_p1_restart_delay_longer_than_a_round_blocks_migrating_jobs():
    # 1 s rounds and a 10 s restart delay: Gavel moves J0 between types as the shares change
    # (type 0 -> type 1 -> type 0 ...), every move restarts the job, no round makes progress.
    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    with pytest.raises(HetoptError, match="unfinished"):
        simulate(inst, "gavel", restart_delay=10.0, max_rounds=50)


def test_hadar_motivating_example_every_round_is_work_conserving():
    inst = motivating_example()
    res = simulate(inst, GavelPolicy(), restart_delay=0.0)
    per_type = inst.capacity.sum(axis=0)
    for r in res.rounds:
        used = r["allocation"].sum(axis=1)  # (J, R)
        running = used.sum(axis=1) > 0
        left = per_type - used.sum(axis=0)
        done_before = np.array([sum(x["iterations"][j] for x in res.rounds if x["start"] < r["start"])
                                for j in range(inst.n_jobs)]) >= inst.total_iterations * (1 - 1e-9)
        for j in np.flatnonzero(~running & ~done_before):
            assert not np.any((inst.throughput[j] > 0) & (inst.gpus[j] <= left)), (r["start"], j)


def test_recompute_interval_is_a_parameter_of_gavel_policy():
    inst = motivating_example()
    a = simulate(inst, GavelPolicy(recompute_interval=0.0), restart_delay=0.0)
    b = simulate(inst, GavelPolicy(recompute_interval=1e9), restart_delay=0.0)
    assert np.all(np.isfinite(a.jct)) and np.all(np.isfinite(b.jct))
    with pytest.raises(Exception, match="recompute_interval"):
        GavelPolicy(recompute_interval=-1.0)
