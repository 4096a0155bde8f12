"""Hadar claims (Sultana et al.): the experiments of hetopt.hadar.experiments.claims, its sweeps and the paper's numbers."""

import json

import numpy as np
import pytest

from hetopt import claims as ledger
from hetopt.hadar import makespan_lower_bound, trace_workload
from hetopt.hadar.experiments import paper
from hetopt.hadar.experiments import runs as experiments
from hetopt.hadar.experiments.claims import CLAIMS, SWEEPS
from hetopt.hadar.experiments.runs import (
    forking_copies_table,
    gang_busy_fractions,
    physical_speeds_table,
    queue_order_table,
    trace_bound,
    trace_instance,
)


def test_gang_busy_fractions():
    assert gang_busy_fractions([3, 2, 2], 6) == pytest.approx([0, 2 / 6, 3 / 6, 4 / 6, 5 / 6])


def test_trace_instance_is_the_papers_setup():
    inst = trace_instance()
    assert inst.n_jobs == paper.TRACE_JOBS == 480 and inst.n_machines == 15 and inst.capacity.sum() == 60
    assert inst.to_dict() == trace_workload(480, seed=0).to_dict()
    quick = trace_instance(quick=True)
    assert quick.n_jobs == 48 and quick.n_machines == 6


def test_trace_bound_is_cached_and_matches_the_lp():
    experiments.clear_caches()
    b = trace_bound(quick=True)
    assert trace_bound(quick=True) is b  # cached for the life of the process
    assert b.seconds == pytest.approx(makespan_lower_bound(trace_instance(quick=True)).seconds, rel=1e-12)
    experiments.clear_caches()
    assert trace_bound(quick=True) is not b


def test_paper_numbers_are_the_printed_ones():
    assert paper.MOTIVATING_GAVEL_ROUNDS == 6 and paper.MOTIVATING_HADAR_ROUNDS == 5
    assert paper.TTD_SPEEDUP_HADAR == (1.17, 1.16) and paper.CRU_GAIN_HADARE == (1.56, 1.62)
    assert paper.TRACE_TTD_SPEEDUP == {"gavel": 1.21, "tiresias": 1.35, "yarn_cs": 1.67}
    assert paper.SCALABILITY_SECONDS == 420.0 and paper.M5_SPEEDUP_HADAR == (1.18, 1.15)


def test_every_claim_is_a_hadar2024_claim_and_sweeps_name_them():
    ids = {c.id for c in CLAIMS}
    assert all(i.startswith("hadar2024.") for i in ids) and len(ids) == len(CLAIMS)
    for sw in SWEEPS.values():
        assert sw.name.startswith("hadar.") and set(sw.claims) <= ids


def test_queue_order_sweep_quick():
    t = queue_order_table(quick=True)
    hadar = [r for r in t.rows if r[0] == "hadar"]
    assert len(hadar) == 3 and len(t.rows) == 4
    assert all(r[4] >= 1 - 1e-9 for r in t.rows)  # no policy beats the makespan lower bound
    assert len({round(r[3], 6) for r in hadar}) > 1  # the order moves Hadar's TTD


def test_physical_speeds_sweep_quick():
    t = physical_speeds_table(quick=True)
    assert [r[1] for r in t.rows] == ["eq10", "gavel"]
    assert t.rows[0][2] == 1 and t.rows[1][2] > 1
    assert all(r[-1] is True for r in t.rows)  # forking never lowers the CRU
    assert "TTD 1.17x / 1.16x (Hadar), 2.12x (HadarE); CRU 1.20x / 1.21x (Hadar), 1.56x / 1.62x (HadarE)" in t.notes[0]


def test_forking_copies_sweep_quick():
    t = forking_copies_table(quick=True)
    assert len(t.rows) == 4  # 2 mixes x 2 restart delays
    assert all(len(r[4].split()) == 5 for r in t.rows)  # CRU for 1..5 copies on 5 nodes
    no_delay = [r for r in t.rows if r[3] == 0.0]
    assert all(r[5] is True for r in no_delay)  # the theorem's premise: n copies maximal
    assert any(r[5] is False for r in t.rows if r[3] == 10.0)  # the restart delay breaks it on M-5


def test_sweep_runs_from_the_cli(capsys):
    from hetopt.cli import main

    assert main(["sweep", "hadar.physical_speeds", "--quick", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out[out.index("{"):])
    assert "physical mixes" in json.dumps(data)


def test_motivating_runs_agree_with_the_gang_bound():
    m = experiments.motivating_runs()
    assert m["min_rounds"] == 6  # the exact search: no gang-feasible schedule finishes in 5 rounds
    assert max(m["fractions"]) == pytest.approx(5 / 6)
    for p, busy in m["busy"].items():
        assert max(busy) <= 5 / 6 + 1e-12, p  # no round of any policy beats the subset-sum bound


@pytest.mark.parametrize("claim_id", ["hadar2024.sec4.ttd_40h", "hadar2024.sec2a.gavel_rounds"])
def test_fast_claims_compute_their_verdicts(claim_id):
    res = ledger.get_claim(claim_id).run()
    assert res.outcome.verdict is res.claim.verdict, res.outcome.detail


def test_greedy_violation_is_half_of_a_paper_claim():
    """Issue 30: the polynomial pass breaking 2 alpha is the joint claim of Theorems 1-2, not a conformance check."""
    from hetopt.hadar.experiments.claims import CONFORMANCE

    assert "hadar2024.thm2.greedy_violation" not in {c.id for c in CONFORMANCE}
    joint = ledger.get_claim("hadar2024.thm2.polynomial_competitive")
    assert joint.verdict is ledger.Verdict.PAPER_ERROR and joint.flip.input == "instances"
    # the exact DP meets the bound; the greedy pass is its flip, outside the exact DP's premise
    c = ledger.get_claim("hadar2024.thm2.ratio_exact_dp")
    assert c.flip.input == "beam_width" and c.flip.verdict is ledger.Verdict.OUTSIDE_PREMISE


def test_ttd_40h_detail_names_the_bound():
    res = ledger.get_claim("hadar2024.sec4.ttd_40h").run()
    assert res.outcome.ours == pytest.approx(round(trace_bound().hours, 1))
    assert res.outcome.ours > paper.TRACE_TTD_HOURS * 8  # the sampled workload is far heavier than the paper's
    assert np.isfinite(trace_bound().closed_form)


# --------------------------------------------------------------------- issue 21: readings, mechanisms, flips
def test_gang_constraint_dropped_fills_every_gpu():
    assert max(gang_busy_fractions([3, 2, 2], 6)) == pytest.approx(5 / 6)
    assert gang_busy_fractions([3, 2, 2], 6, gang=False) == pytest.approx([k / 6 for k in range(7)])


def test_gavel_round1_tiebreaks_are_both_run():
    assert experiments.gavel_round1_busy("gavel") == pytest.approx(4 / 6)
    assert experiments.gavel_round1_busy("index") == pytest.approx(5 / 6)  # J1 on 3 P100, J2 on 2 V100
    with pytest.raises(ValueError):
        experiments.gavel_round1_busy("nope")


def test_gavel_solver_reading_moves_the_process_cru():
    ecos = experiments.motivating_runs(0.0, 1.0, "ecos")["runs"]["gavel"].utilization
    highs = experiments.motivating_runs(0.0, 1.0, "highs")["runs"]["gavel"].utilization
    assert ecos < paper.MOTIVATING_GAVEL_PROCESS_CRU - 0.03 <= highs


def test_prices_never_bind_on_one_gpu_nodes():
    phys = experiments.prices_bind("physical")
    assert len(phys) == 14 and all(c == 0 for c, _ in phys.values())
    assert sum(c for c, _ in experiments.prices_bind("validation").values()) > 0
    # several GPUs per machine (the five nodes merged): the prices do change rounds there
    assert sum(c for c, _ in experiments.prices_bind("physical", "one_machine").values()) > 0


def test_restart_delay_sweep_makes_hadars_advantage_appear():
    t = experiments.restart_delay_table(quick=True)
    by_delay = {r[1]: r for r in t.rows}
    assert by_delay[10.0][2] < 1.0 < by_delay[120.0][2]  # TTD Gavel/Hadar crosses 1
    assert by_delay[10.0][6] is False and by_delay[120.0][6] is True
    moves = experiments.physical_moves("aws")
    assert moves["gavel"][0] / moves["gavel"][1] > 2 * moves["hadar"][0] / moves["hadar"][1]  # Gavel migrates more


def test_physical_mechanism_table_measures_the_candidates():
    t = experiments.physical_mechanism_table(quick=True)
    assert len(t.rows) == 4 and {r[0] for r in t.rows} >= {"restart delay 0 s", "restart delay 120 s"}


def test_philly_workload_reads_the_bundled_trace():
    hours, gpus, arrival = experiments.philly_job_hours()
    assert len(hours) == 60 and np.all(hours > 0) and np.all(gpus >= 1) and np.all(np.diff(arrival) >= 0)
    inst = experiments.philly_workload(48, n_machines=6)
    assert inst.n_jobs == 48 and inst.capacity.sum() == 24
    assert all(n.split("/")[1] in ("S", "M", "L", "XL") for n in inst.job_names)


def test_types_reversed_and_shortest_first():
    inst = trace_instance(quick=True)
    rev = experiments.types_reversed(inst)
    assert rev.gpu_types == inst.gpu_types[::-1] and np.array_equal(rev.throughput[:, 0], inst.throughput[:, -1])
    pol = experiments.ShortestFirst()
    pol.reset(inst)
    t = inst.total_iterations / inst.best_gang_rate()
    assert t[np.argmin(pol.rank)] == pytest.approx(t.min())


def test_every_claim_of_the_paper_has_a_flip_and_readings_where_it_depends():
    for c in CLAIMS:
        assert c.flip is not None and c.flip.verdict is not c.verdict, c.id


def test_jct_ranges_refuses_an_unknown_gavel_policy():
    from hetopt.errors import ArgumentError

    with pytest.raises(ArgumentError, match="gavel_policy is 'lsa'; expected one of"):
        experiments.jct_ranges("aws", "lsa")


def test_prefetched_trace_runs_are_the_runs_this_process_computes():
    """Trace runs computed on free cores (``trace.prefetch``) are taken, once, by ``trace_case_run`` and equal the
    runs computed here; a case passed with its defaults or written out is one case."""
    from hetopt.claims.parallel import free_processes
    from hetopt.hadar.experiments import trace

    cases = [("uniform", "hadar", "index", 10, "fastest", 1, 8), ("uniform", "gavel", "index", 10.0, "fastest", 1.0, 8)]
    experiments.clear_caches()
    with free_processes(2):
        trace.prefetch(cases)
    assert set(experiments.PREFETCHED) == {experiments.trace_case_key(*c) for c in cases}
    got = [experiments.trace_case_run(*c) for c in cases]
    assert not experiments.PREFETCHED
    experiments.clear_caches()
    for c, run in zip(cases, got, strict=True):
        fresh = experiments.trace_case_run(*c)
        assert run.completion.tolist() == fresh.completion.tolist() and run.total_duration == fresh.total_duration
    assert experiments.trace_case_key("uniform", "hadar") == experiments.trace_case_key(*cases[0][:6], 480)
    experiments.clear_caches()
