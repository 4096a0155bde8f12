"""Build the documentation site into a temporary folder and read its HTML (helpers of the tests)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def build(out: Path, *, execute: bool, timeout: float = 3600) -> Path:
    """``sphinx-build -W --keep-going -b html docs OUT/html``; AssertionError with the log on failure.

    ``execute=False`` renders the notebooks without running them (``nb_execution_mode=off``).
    """
    html = out / "html"
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
           "-d", str(out / "doctrees"), str(DOCS), str(html)]
    if not execute:
        cmd[3:3] = ["-D", "nb_execution_mode=off"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    log = (proc.stdout + proc.stderr)[-20000:]
    assert proc.returncode == 0, f"sphinx-build exited {proc.returncode}:\n{log}"
    return html


class _Tables(HTMLParser):
    """Every <table> of a page as a list of rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._depth = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._depth += 1
            self.tables.append([])
        elif tag == "tr" and self._depth:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self._depth:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self._depth -= 1
        elif tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(re.sub(r"\s+", " ", "".join(self._cell)).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def tables(html: str) -> list[list[list[str]]]:
    """The tables of an HTML page: rows of cell texts, header row first."""
    p = _Tables()
    p.feed(html)
    return p.tables


class _OutputImages(HTMLParser):
    """The ``src`` of every <img> inside a notebook cell's output (``div.cell_output``)."""

    def __init__(self) -> None:
        super().__init__()
        self.srcs: list[str] = []
        self._stack: list[bool] = []  # per open <div>: is it a cell output?

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div":
            self._stack.append("cell_output" in (attrs.get("class") or "").split())
        elif tag == "img" and any(self._stack):
            self.srcs.append(attrs.get("src", ""))

    def handle_endtag(self, tag):
        if tag == "div" and self._stack:
            self._stack.pop()


def output_images(html: str) -> list[str]:
    """``src`` of the images that notebook cells output on a page (figures, not page decoration)."""
    p = _OutputImages()
    p.feed(html)
    return p.srcs


def ids(html: str) -> set[str]:
    """Every ``id="..."`` of an HTML page."""
    return set(re.findall(r'\bid="([^"]+)"', html))
