"""The ``xdist_group`` marks of ``conftest.py`` reach pytest-xdist's scheduler (``--dist loadgroup``).

xdist groups tests by a ``@group`` suffix it adds to each marked test's node id; with a pytest that
reads node ids from elsewhere the suffix is lost, every group is split over the workers, and the
docs site and each notebook are built once per worker instead of once per run.
"""

import pytest


def test_grouped_tests_carry_their_group_in_the_node_id(request):
    config = request.config
    if not hasattr(config, "workerinput") or not getattr(config.option, "loadgroup", False):
        pytest.skip("not running on a pytest-xdist worker with --dist loadgroup (pytest -n 0 runs serially)")
    grouped = [item for item in request.session.items if item.get_closest_marker("xdist_group")]
    if not grouped:
        pytest.skip("no test of this run shares a costly fixture (run with tests/docs or a notebook's tests)")
    for item in grouped:
        group = item.get_closest_marker("xdist_group").args[0]
        assert item.nodeid.endswith(f"@{group}"), (
            f"{item.nodeid} has the mark xdist_group({group!r}) but its node id lacks '@{group}': this pytest "
            "and pytest-xdist do not group tests (see the pin of pytest in pyproject.toml)")
