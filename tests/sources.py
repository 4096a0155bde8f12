"""The package's source files, read and parsed once per process for the tests that read the code.

The tests of the layers, the tree's sizes, the vocabulary and ``certify`` each walked every file of
``hetopt/`` (about 1 s a pass); they ask for the ``sources`` fixture (``tests/conftest.py``), which
puts them on one worker, where each file is parsed once. The trees are shared: read them, never
change them.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def text(path: Path) -> str:
    """The file's text."""
    return path.read_text(encoding="utf-8")


@functools.cache
def tree(path: Path) -> ast.Module:
    """The file's syntax tree."""
    return ast.parse(text(path))


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file's tree, in ``ast.walk`` order."""
    return tuple(ast.walk(tree(path)))
