"""Sphinx configuration of the hetopt documentation site.

Build (warnings are errors)::

    pip install ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html

The notebooks of ``notebooks/`` (reached through the ``docs/notebooks`` link) are executed by
myst-nb during the build; ``-D nb_execution_mode=off`` renders them without executing them (the
fast path of the test suite).  The claims ledger page, the API reference pages and the CLI
reference are generated from the package at build time (``docs/_ext/hetopt_docs.py`` and
``docs/_ext/hetopt_cli.py``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

# Document (and execute the notebooks against) this source tree, not another installed copy.
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS / "_ext"))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
# The notebooks' kernels inherit this: figures are captured as image/png outputs even when the
# caller's environment selects a non-interactive backend (MPLBACKEND=Agg draws nothing inline).
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

import hetopt  # noqa: E402

project = "hetopt"
author = "hetopt contributors"
copyright = "hetopt contributors, MIT licence"
version = release = hetopt.__version__

extensions = [
    "sphinx.ext.autodoc",
    "numpydoc",
    "myst_nb",
    "hetopt_docs",
    "hetopt_cli",
    # MathJax 3 shipped in a wheel and copied into the site: math renders with no network (a CDN
    # would leave raw \( ... \) on an offline machine).  Chosen over build-time KaTeX, which needs
    # Node.js and a KaTeX install at build time; this keeps the docs build a pure pip install.
    "sphinx-mathjax-offline",
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]
suppress_warnings: list[str] = []

# -- MyST / myst-nb ---------------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
nb_execution_mode = "force"          # the full build executes every notebook
nb_execution_timeout = 900           # seconds per cell
nb_execution_raise_on_error = True   # a failing notebook fails the build
nb_execution_show_tb = True
nb_merge_streams = True

# -- API reference ----------------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "none"           # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# -- HTML -------------------------------------------------------------------------------------
smartquotes = False                   # verbatim text of the ledger (quotes, dashes) stays as written
html_theme = "furo"
html_title = f"hetopt {release}"
html_static_path = ["_static"]
html_css_files = ["hetopt.css"]
