"""hetopt.bench.scale.largest_certified: proven sizes, '-' on failure, gap one size further, then skipped."""

from hetopt.bench.scale import largest_certified
from hetopt.certify import Status
from hetopt.result import Solution


def _engine(limit_size):
    calls = []

    def solve(inst, *, time_limit):
        calls.append(inst)
        if inst <= limit_size:
            return Solution(status=Status.OPTIMAL, objective=10.0, bound=10.0, gap=0.0, solver="t", sense="min")
        return Solution(status=Status.TIME_LIMIT, objective=10.0, bound=8.0, gap=0.2, solver="t", sense="min")

    return solve, calls


def test_largest_certified_table():
    a, calls_a = _engine(2)
    b, calls_b = _engine(10)
    made = []
    t = largest_certified(lambda n: made.append(n) or n, [1, 2, 3, 4], {"a": a, "b": b}, time_limit=5.0)
    row_a, row_b = t.rows
    assert row_a[0] == "a" and row_a[3] == "-" and row_a[4] == "" and row_a[5] == 2 and row_a[6] == "20% at 3"
    assert isinstance(row_a[1], float) and isinstance(row_a[2], float)
    assert row_b[5] == 4 and row_b[6] == "all certified"
    assert calls_a == [1, 2, 3]  # skipped after the first failure
    assert made == [1, 2, 3, 4]  # one instance per size, shared by the engines
    assert [x.certified for x in t.attempts] == [True, True, False, True, True, True, True]


def test_optimal_past_the_limit_is_not_counted(monkeypatch):
    import hetopt.bench.scale as bs

    clock = iter([0.0, 100.0])
    monkeypatch.setattr(bs.time, "perf_counter", lambda: next(clock))
    solve, _ = _engine(5)
    a = bs.run_attempt("x", 1, solve, 1, time_limit=10.0)
    assert a.status == "time_limit" and not a.certified
