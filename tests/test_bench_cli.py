"""``hetopt bench cli``: the start-up table (no timed assertion: the goals are printed as ratios)."""

from hetopt.bench import run
from hetopt.bench.cli import COMMANDS


def test_bench_cli_measures_every_command_in_one_run():
    (table,) = run("cli", repeat=1)
    rows = {r[0]: dict(zip(table.columns, r, strict=True)) for r in table.rows}
    assert set(rows) == set(COMMANDS)
    for name, row in rows.items():
        assert row["wall_s"] > 0 and row["cpu_s"] >= 0 and row["goal_s"] == COMMANDS[name][1]
        assert row["wall/goal"] == round(row["wall_s"] / row["goal_s"], 2)
