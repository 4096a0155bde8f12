import json

import pytest

from hetopt.hare import HareInstance, alpha, random_instance, ratio_sweep, ratio_table, theorem4_bound, validate_ratio
from hetopt.hare import ratio as ratio_mod


def test_alpha_by_hand():
    inst = HareInstance(arrival=[0, 0], weight=[1, 1], rounds=[1, 1], tasks_per_round=[1, 1],
                        compute_time=[[1.0, 3.0], [2.0, 2.5]], sync_time=[[0.1, 0.1], [0.2, 0.5]])
    # compute ratios 3 and 1.25, sync ratios 1 and 2.5
    assert alpha(inst) == pytest.approx(3.0)
    assert theorem4_bound(inst) == pytest.approx(15.0)


def test_alpha_with_zero_sync():
    zero = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[1],
                        compute_time=[[1.0, 2.0]], sync_time=[[0.0, 0.0]])
    assert alpha(zero) == 2.0
    mixed = HareInstance(arrival=[0], weight=[1], rounds=[1], tasks_per_round=[1],
                         compute_time=[[1.0, 2.0]], sync_time=[[0.0, 0.1]])
    assert alpha(mixed) == float("inf")


def test_homogeneous_alpha_is_one():
    inst = random_instance(1, homogeneous=True)
    assert alpha(inst) == 1.0 and theorem4_bound(inst) == 3.0


def test_validate_ratio_certifies():
    inst = random_instance(2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep = validate_ratio(inst)
    assert rep.optimum_proven
    assert rep.vs_optimum.proven and rep.vs_optimum.holds is True
    assert rep.relaxation_bound <= rep.optimum + 1e-6 <= rep.algorithm1 + 2e-6
    assert not rep.violated and rep.saved is None


def test_violation_is_saved(tmp_path, monkeypatch):
    # force a tiny claimed bound to exercise the reporting path (not a property of the paper)
    monkeypatch.setattr(ratio_mod, "theorem4_bound", lambda inst: 1.0)
    inst = random_instance(2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep = validate_ratio(inst, save_dir=tmp_path, name="v")
    assert rep.violated and rep.saved
    data = json.loads((tmp_path / "v.json").read_text())
    assert "violates" in data["description"]
    assert HareInstance.from_dict(data).to_dict() == inst.to_dict()


def test_sweep_table():
    reps = ratio_sweep(3, 10, executor="serial")
    t = ratio_table(reps, 10)
    assert len(t.rows) == 3 and [r[0] for r in t.rows] == [10, 11, 12]
    assert any("violations" in n for n in t.notes)


def test_theorem4_counterexample_hand_derived():
    """Hand-derived values (see theorem4_counterexample's docstring); a finding against Theorem 4."""
    import numpy as np

    from hetopt.data import load_json
    from hetopt.hare import schedule, solve_exact, solve_relaxation, theorem4_counterexample

    inst = theorem4_counterexample()
    assert HareInstance.from_dict(load_json("hare2022_theorem4_counterexample")).to_dict() == inst.to_dict()
    rl = solve_relaxation(inst)
    assert rl.bound == pytest.approx(100 * 2 + 0.01 * 6 + 0.001 * 36, rel=1e-6)
    np.testing.assert_allclose(rl.x_hat, [0, 0, 0, 0, 0, 0, 0, 35], atol=1e-6)
    alg = schedule(inst, rl)
    assert alg.objective == pytest.approx(0.01 * 21 + 100 * 8 + 0.001 * 9)
    smith = 100 * 2 + 0.01 * (3 + 4 + 5 + 6 + 7 + 8) + 0.001 * 9
    assert solve_exact(inst).objective == pytest.approx(smith, rel=1e-6)
    rep = validate_ratio(inst)
    assert rep.limit == 3.0 and rep.vs_optimum.holds is False and rep.vs_optimum.ratio > 3.99
    sub = schedule(inst, solve_relaxation(inst, subsets=True))
    assert sub.objective == pytest.approx(smith, rel=1e-6)
    # the ratio grows without bound in k: (k - 1 + long) / long
    k = 11
    big = theorem4_counterexample(k=k)
    smith_big = 100 * 2 + 0.01 * sum(range(3, k + 2)) + 0.001 * (k + 2)
    assert schedule(big).objective / smith_big > 5.9
