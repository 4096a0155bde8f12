"""The Gavel formulation card names labelled constraints that exist."""

from pathlib import Path

import numpy as np

from hetopt.gavel import build_fifo_step, build_max_min_fairness, build_max_sum_throughput, build_min_total_duration
from hetopt.testing import check_card

CARD = Path(__file__).resolve().parents[2] / "models" / "gavel.md"


def test_card():
    T, s, c = np.array([[2.0, 1.0], [1.0, 3.0]]), [1, 1], [1, 1]
    models = {
        "build_max_min_fairness": build_max_min_fairness(T, s, c)[0],
        "build_max_sum_throughput": build_max_sum_throughput(T, s, c)[0],
        "build_min_total_duration": build_min_total_duration(T, s, c)[0],
        "build_fifo_step": build_fifo_step(T, s, c, 1, [1.0, 0.0])[0],
    }
    assert check_card(CARD, models) == 7
