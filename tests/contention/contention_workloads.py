"""Small workloads shared by the contention tests (imported by name; tests/ has no packages)."""

from hetopt.contention import generate_instance


def small_workload(seed: int):
    """A scaled-down Section V-A workload with frequent contention (8 servers x 4 GPUs)."""
    return generate_instance(seed=seed, n_jobs=24, n_servers=8, iterations=(5, 40), arrival_window=20.0)
