import numpy as np
import pytest

from hetopt.hare import HareInstance, ScheduleViolation, check_schedule


def valid(tiny):
    # job 0: r0 on GPU0 [0,1) sync to 1.25, r1 on GPU0 [1.25, 2.25) -> C0 = 2.5
    # job 1: both tasks on GPU1 in sequence [0.5, 2), [2, 3.5) -> C1 = 3.5
    start = np.array([0.0, 1.25, 0.5, 2.0])
    gpu = np.array([0, 0, 1, 1])
    return start, gpu


def test_valid_schedule_objective(tiny):
    assert check_schedule(tiny, valid(tiny)).raise_if_invalid().objective == pytest.approx(1 * 2.5 + 2 * 3.5)


def test_arrival_violation(tiny):
    start, gpu = valid(tiny)
    start[2] = 0.4
    with pytest.raises(ScheduleViolation, match=r"\(4\)"):
        check_schedule(tiny, (start, gpu)).raise_if_invalid()


def test_round_barrier_violation(tiny):
    start, gpu = valid(tiny)
    start[1] = 1.2  # before round 0 synchronizes at 1.25
    with pytest.raises(ScheduleViolation, match=r"\(7\)"):
        check_schedule(tiny, (start, gpu)).raise_if_invalid()


def test_overlap_violation(tiny):
    start, gpu = valid(tiny)
    start[3] = 1.9  # second task of job 1 before the first ends computing at 2.0
    with pytest.raises(ScheduleViolation, match=r"\(8\)"):
        check_schedule(tiny, (start, gpu)).raise_if_invalid()


def test_sync_may_overlap_next_task(tiny):
    # job 0's sync (0.25 on GPU0) overlaps the next task on GPU0: allowed by (8)
    start = np.array([0.0, 1.25, 1.0, 2.0])
    gpu = np.array([0, 0, 0, 1])
    with pytest.raises(ScheduleViolation, match=r"\(8\)"):  # but job1/t0 on GPU0 [1, 4) overlaps job0/r1
        check_schedule(tiny, (start, gpu)).raise_if_invalid()
    start = np.array([0.0, 4.0, 1.0, 0.5])
    gpu = np.array([0, 0, 0, 1])
    assert check_schedule(tiny, (start, gpu)).raise_if_invalid().objective == pytest.approx(1 * 5.25 + 2 * 4.0)


def test_bad_gpu_and_shape(tiny):
    start, gpu = valid(tiny)
    gpu[0] = 2
    with pytest.raises(ScheduleViolation, match=r"\(5\)"):
        check_schedule(tiny, (start, gpu)).raise_if_invalid()
    with pytest.raises(ScheduleViolation, match="shape"):
        check_schedule(tiny, (start[:2], gpu[:2])).raise_if_invalid()


def test_objective_mismatch(tiny):
    from dataclasses import replace

    from hetopt.hare.solution import make_solution

    start, gpu = valid(tiny)
    sol = make_solution(tiny, start, gpu, method="test")
    assert check_schedule(tiny, sol).raise_if_invalid().objective == pytest.approx(sol.objective)
    with pytest.raises(ScheduleViolation, match="objective"):
        check_schedule(tiny, replace(sol, objective=sol.objective - 1)).raise_if_invalid()


@pytest.mark.parametrize("tol", [float("nan"), -1e-9, float("inf"), "0.1"])
def test_bad_tol_is_rejected(tiny, tol):
    start, gpu = valid(tiny)
    assert check_schedule(tiny, (start, gpu)).raise_if_invalid().objective > 0
    with pytest.raises(ValueError, match="tol"):
        check_schedule(tiny, (start, gpu), tol=tol).raise_if_invalid()


def test_report_collects_every_violation(tiny):
    from hetopt.result import CheckReport

    start, gpu = valid(tiny)
    start = np.asarray(start, dtype=float).copy()
    start[:] = -1.0  # every task before its arrival: one (4) violation per task
    rep = check_schedule(tiny, (start, gpu))
    assert isinstance(rep, CheckReport) and not rep.ok
    assert sum(v.startswith("(4)") for v in rep.violations) == tiny.n_tasks
    assert rep.objective is not None
    with pytest.raises(TypeError):
        bool(rep)
    good = check_schedule(tiny, valid(tiny))
    assert good.ok and good.violations == () and good.raise_if_invalid() is good


def test_tolerance_follows_small_magnitudes():
    """Tasks of 1e-9: an overlap of 1e-7 is a violation (the absolute 1e-6 let it pass), exact schedules pass."""
    from hetopt.hare.checker import default_tol
    from hetopt.validate import FEAS_TOL

    inst = HareInstance(arrival=[0, 0], weight=[1, 1], rounds=[1, 1], tasks_per_round=[1, 1],
                        compute_time=[[1e-9], [2e-9]], sync_time=[[0], [0]])
    assert default_tol(inst) == pytest.approx(3e-15) and FEAS_TOL == 1e-6
    assert check_schedule(inst, (np.array([0.0, 1e-9]), np.array([0, 0]))).ok
    rep = check_schedule(inst, (np.array([0.0, 0.9e-9]), np.array([0, 0])))
    assert not rep.ok and rep.violations[0].startswith("(8)")
    assert check_schedule(inst, (np.array([0.0, 0.9e-9]), np.array([0, 0])), tol=1e-6).ok
