import numpy as np
import pytest

from hetopt.data import load_json
from hetopt.placement import PlacementInstance


@pytest.fixture
def table2():
    return PlacementInstance.from_dict(load_json("liu2024_table2"))


def random_instance(rng, S=None, K=None, comm=None, ties=None):
    """A small random instance; ``ties`` draws throughputs from a few values (identical workers)."""
    S = S or int(rng.integers(1, 4))
    K = K or int(rng.integers(S, S + 5))
    comm = bool(rng.integers(0, 2)) if comm is None else comm
    ties = bool(rng.integers(0, 2)) if ties is None else ties
    if ties:
        rho = rng.choice([100.0, 300.0, 800.0], size=(S, 1)) * rng.choice([1.0, 1.5, 3.0], size=(1, K))
    else:
        rho = rng.uniform(50, 1000, size=(S, K))
    kw = {}
    if comm:
        kw = dict(model_size=rng.uniform(1e8, 5e9, S), worker_node=np.sort(rng.integers(0, 3, K)),
                  intra_node_rate=37.5e9, inter_node_rate=1.25e9)
    return PlacementInstance(throughput=rho, dataset_size=rng.uniform(1e4, 1e5, S), epochs=rng.uniform(1, 200, S), **kw)
