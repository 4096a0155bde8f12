"""The experiments of :mod:`hetopt.hare`, one floor above its core: claims, sweeps, benchmarks, plots.

The paper's core never imports this package (``tests/test_layers.py``).
"""
