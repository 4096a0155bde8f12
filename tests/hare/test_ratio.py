import json

import pytest

from hetopt.data import META_KEYS
from hetopt.errors import ArgumentError
from hetopt.hare import (
    HareInstance,
    alpha,
    generate_instance,
    ratio_report,
    ratio_sweep,
    ratio_table,
    theorem4_bound,
    validate_ratio,
)
from hetopt.hare import ratio as ratio_mod
from hetopt.hare.validate import sweep_instance
from hetopt.result import Certificate
from hetopt.validate import SweepResults


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
    inst = generate_instance(seed=1, homogeneous=True)
    assert alpha(inst) == 1.0 and theorem4_bound(inst) == 3.0


def test_validate_ratio_certifies():
    inst = generate_instance(seed=2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep = ratio_report(inst)
    assert rep.optimum_proven
    assert rep.vs_optimum.proven and rep.vs_optimum.holds is True
    assert rep.relaxation_bound <= rep.optimum + 1e-6 <= rep.algorithm1 + 2e-6
    assert not rep.violated and not rep.theorem_violated and not rep.chain_broken and rep.saved is None


def test_violation_is_saved(tmp_path, monkeypatch):
    # force a tiny claimed bound to exercise the reporting path (not a property of the paper)
    monkeypatch.setattr(ratio_mod, "theorem4_bound", lambda inst: 1.0)
    inst = generate_instance(seed=2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep = ratio_report(inst, save_dir=tmp_path, name="v")
    assert rep.violated and rep.saved
    data = json.loads((tmp_path / "v.json").read_text())
    assert "violates" in data["description"]
    back = HareInstance.from_dict(data)
    assert back.description == data["description"]  # kept on the instance
    assert back.to_dict() == inst.to_dict() | {"description": data["description"]}


def test_sweep_table():
    certs = ratio_sweep(3, seed=10, executor="serial")
    assert isinstance(certs, SweepResults) and certs.seeds == [10, 11, 12] and len(certs.digests) == 3
    assert all(isinstance(c, Certificate) for c in certs)
    t = ratio_table(certs, seed=10)
    assert len(t.rows) == 3 and [r[0] for r in t.rows] == [10, 11, 12]
    assert any("violations" in n for n in t.notes) and any("distinct instances" in n for n in t.notes)
    for row, c, seed in zip(t.rows, certs, certs.seeds, strict=True):
        inst = sweep_instance(seed=seed)
        assert row[1] == alpha(inst) and row[2] == c.limit == theorem4_bound(inst)
        assert row[3] == c.value and row[4] == c.reference and row[6] == c.ratio and row[9] == c.holds
        assert c.proven and c.holds is True and c.ratio >= 1 - 1e-9
        assert row[5] == c.info["relaxation_bound"] <= c.reference + 1e-6
        assert row[7] == pytest.approx(c.value / c.info["relaxation_bound"])
    assert t.violations == certs.violations == 0


def test_validate_ratio_is_the_report_as_a_certificate():
    inst = generate_instance(seed=2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep, cert = ratio_report(inst), validate_ratio(inst)
    assert (cert.value, cert.reference, cert.limit, cert.proven, cert.holds) == (
        rep.algorithm1, rep.optimum, rep.limit, rep.optimum_proven, rep.vs_optimum.holds)
    assert cert.info["alpha"] == rep.alpha and cert.info["chain_broken"] is False and cert.info["saved"] is None
    assert cert.info["vs_relaxation"]["ratio"] == pytest.approx(rep.vs_relaxation.ratio)
    json.dumps(cert.to_dict())
    with pytest.raises(ArgumentError, match="time_limit"):
        validate_ratio(inst, time_limit=-1)
    with pytest.raises(ArgumentError, match="inst"):
        validate_ratio(inst.to_dict())


def test_theorem4_counterexample_hand_derived():
    """Hand-derived values (see theorem4_counterexample's docstring); a finding against Theorem 4."""
    import numpy as np

    from hetopt.data import load_json
    from hetopt.hare import schedule, solve_exact, solve_relaxation, theorem4_counterexample

    inst = theorem4_counterexample()
    bundled = HareInstance.from_dict(load_json("hare2022_theorem4_counterexample")).to_dict()
    assert {k: v for k, v in bundled.items() if k not in META_KEYS} == inst.to_dict()
    rl = solve_relaxation(inst)
    assert rl.bound == pytest.approx(100 * 2 + 0.01 * 6 + 0.001 * 36, rel=1e-6)
    np.testing.assert_allclose(rl.x_hat, [0, 0, 0, 0, 0, 0, 0, 35], atol=1e-6)
    alg = schedule(inst, rl)
    assert alg.objective == pytest.approx(0.01 * 21 + 100 * 8 + 0.001 * 9)
    smith = 100 * 2 + 0.01 * (3 + 4 + 5 + 6 + 7 + 8) + 0.001 * 9
    assert solve_exact(inst).objective == pytest.approx(smith, rel=1e-6)
    rep = ratio_report(inst)
    assert rep.limit == 3.0 and rep.vs_optimum.holds is False and rep.vs_optimum.ratio > 3.99
    sub = schedule(inst, solve_relaxation(inst, subsets=True))
    assert sub.objective == pytest.approx(smith, rel=1e-6)
    # the ratio grows without bound in k: (k - 1 + long) / long
    k = 11
    big = theorem4_counterexample(k=k)
    smith_big = 100 * 2 + 0.01 * sum(range(3, k + 2)) + 0.001 * (k + 2)
    assert schedule(big).objective / smith_big > 5.9


def test_theorem_violation_and_broken_chain_are_reported_apart():
    from hetopt.hare import theorem4_release_dates

    # a tiny claimed bound that the optimum ratio meets but the relaxation ratio does not: chain only
    inst = theorem4_release_dates()
    rep = ratio_report(inst)
    assert rep.theorem_violated and rep.chain_broken and rep.violated
    assert rep.vs_optimum.ratio == pytest.approx(1629.518 / 530.719, rel=1e-6)
    sub = ratio_report(inst, subsets=True)
    assert not sub.theorem_violated and not sub.chain_broken


def test_chain_broken_without_theorem_violation(monkeypatch):
    # limit between ALG/OPT and ALG/RL: the theorem holds on the instance but the proof's chain does not
    inst = generate_instance(seed=2, n_jobs=3, n_gpus=2, max_total_tasks=5)
    rep0 = ratio_report(inst)
    r_opt, r_rl = rep0.vs_optimum.ratio, rep0.vs_relaxation.ratio
    assert r_rl > r_opt
    monkeypatch.setattr(ratio_mod, "theorem4_bound", lambda inst: (r_opt + r_rl) / 2)
    rep = ratio_report(inst)
    assert rep.chain_broken and not rep.theorem_violated and rep.violated


def test_release_dates_counterexample_hand_derived():
    """Values derived by hand in theorem4_release_dates' docstring; optimum also by enumeration."""
    import numpy as np

    from hetopt.data import load_json
    from hetopt.hare import brute_force, schedule, solve_exact, solve_relaxation, theorem4_release_dates

    inst = theorem4_release_dates()
    bundled = HareInstance.from_dict(load_json("hare2022_theorem4_release_dates")).to_dict()
    assert {k: v for k, v in bundled.items() if k not in META_KEYS} == inst.to_dict()
    rl = solve_relaxation(inst)
    np.testing.assert_allclose(rl.x_hat, [1, 0, 0, 60, 0, 3], atol=1e-6)
    alg = schedule(inst, rl)
    np.testing.assert_allclose(alg.completion, [14, 5, 2, 18, 9, 16], atol=1e-9)
    opt = 3 * 2 + 100 * 5 + 1 * 9 + 1 * 14 + 0.1 * 17 + 0.001 * 19
    assert solve_exact(inst).objective == pytest.approx(opt, rel=1e-9)
    assert brute_force(inst).objective == pytest.approx(opt, rel=1e-12)
    assert alg.objective / opt > 3.07
