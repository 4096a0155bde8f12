"""Gap certificates of the policies (validate_ratio, ratio_sweep): the paper claims no ratio, limit None."""

from dataclasses import replace

import pytest

from hetopt.contention import (
    POLICIES,
    ContentionInstance,
    ratio_sweep,
    simulate,
    solve_contention_bound,
    solve_exact,
    tiny_instance,
    validate_ratio,
)
from hetopt.data import load_json
from hetopt.errors import ArgumentError
from hetopt.result import Certificate
from hetopt.validate import SweepResults


def test_contention_free_policy_against_the_exact_optimum_on_its_placement():
    inst = tiny_instance(seed=2, n_jobs=4)
    cert = validate_ratio(inst, method="srsf1", time_limit=30)
    sol = simulate(inst, "srsf1")
    opt = solve_exact(inst, placement=sol.placement, upper_bound=sol.objective)
    assert isinstance(cert, Certificate) and cert.limit is None and cert.holds is None
    assert cert.info["reference_kind"] == "contention-free optimum" and cert.proven
    assert cert.value == pytest.approx(sol.objective) and cert.reference == pytest.approx(opt.bound)
    assert cert.ratio >= 1 - 1e-9  # SRSF(1)'s schedule is feasible for the contention-free problem


def test_ada_srsf_against_the_contention_aware_bound():
    inst = ContentionInstance.from_dict(load_json("wang2019_contention_beats_milp"))
    cert = validate_ratio(inst, time_limit=30)  # default: Ada-SRSF
    ref = solve_contention_bound(inst, placement=simulate(inst, "ada_srsf").placement, time_limit=30)
    assert cert.info["reference_kind"] == "contention-aware bound" and cert.proven
    assert cert.value == pytest.approx(44.2) and cert.reference == pytest.approx(ref.bound)
    assert cert.ratio >= 1 - 1e-9  # the bound holds for every schedule of the placement
    assert cert.name == "ada_srsf / contention-aware bound"


def test_a_variant_of_a_registry_policy():
    inst = tiny_instance(seed=1)
    cert = validate_ratio(inst, method=replace(POLICIES["srsf1"], placement="ff"), time_limit=30)
    assert cert.info["solver"] == "srsf1+ff" and cert.info["reference_kind"] == "contention-free optimum"
    assert cert.ratio >= 1 - 1e-9


def test_bad_arguments():
    inst = tiny_instance(seed=0)
    with pytest.raises(ArgumentError, match="policy"):
        validate_ratio(inst, method="magic")
    with pytest.raises(ArgumentError, match="inst"):
        validate_ratio(inst.to_dict())
    with pytest.raises(ArgumentError, match="time_limit"):
        validate_ratio(inst, method="srsf1", time_limit=0)
    with pytest.raises(ArgumentError, match="n is 0"):
        ratio_sweep(0)
    with pytest.raises(ArgumentError, match="policy"):
        ratio_sweep(2, method="magic")


def test_ratio_sweep_is_a_sweep_of_certificates():
    res = ratio_sweep(3, seed=4, executor="serial", method="srsf2", time_limit=30)
    assert isinstance(res, SweepResults) and res.seeds == [4, 5, 6] and len(res) == 3
    assert all(isinstance(c, Certificate) and c.proven and c.ratio >= 1 - 1e-9 for c in res)
    assert res.violations == 0  # no limit: nothing can be violated
    for seed, cert in zip(res.seeds, res, strict=True):
        assert cert.value == pytest.approx(simulate(tiny_instance(seed=seed), "srsf2").objective)
    table = res.table()
    assert len(table.rows) == 3 and table.violations == 0


@pytest.mark.parametrize("scale", [1e-9, 1.0, 1e9])
def test_engine_cross_check_is_relative_at_every_magnitude(scale):
    # issue 31: an absolute 1e-6 called optima of 1e-9 and 1.5e-9 s equal, and a bound 1e-7 relative above an
    # incumbent of 1e9 s a disagreement; the decision at 1e-9 and 1e9 must be the one at 1.
    from types import SimpleNamespace

    from hetopt.certify import below
    from hetopt.contention.validate import _engines_agree

    def sol(objective, bound, optimal=True):
        return SimpleNamespace(objective=objective * scale, bound=None if bound is None else bound * scale,
                               is_optimal=optimal)

    assert not _engines_agree(sol(1.0, 1.0), sol(1.5, 1.5))  # two different optima
    assert not _engines_agree(sol(2.0, 2.0, False), sol(1.0, None, False))  # a bound above the other's schedule
    assert _engines_agree(sol(1.0, 1.0), sol(1.0 + 1e-7, 1.0 + 1e-7))  # equal within OPTIMAL_RTOL relative
    assert _engines_agree(sol(1.0, 1.0 + 1e-7, False), sol(1.0, 0.5, False))
    assert below(0.5 * scale, scale) and not below((1 - 1e-7) * scale, scale)
