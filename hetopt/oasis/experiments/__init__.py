"""The experiments of :mod:`hetopt.oasis`, one floor above its core: claims, sweeps, benchmarks, plots.

The paper's core never imports this package (``tests/test_layers.py``).
"""
