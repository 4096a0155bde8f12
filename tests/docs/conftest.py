"""The documentation site, built once per session (notebooks rendered, not executed) for every test of tests/docs."""

import pytest

from tests.docs.site import build


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """``sphinx-build -W`` of docs/ with ``nb_execution_mode=off``: the HTML folder."""
    return build(tmp_path_factory.mktemp("docs"), execute=False)
