"""The documentation site builds with warnings as errors and has every page it promises.

One build (notebooks rendered, not executed; the ``site`` fixture of ``conftest.py``) serves every test
of this module and the browser check of ``test_browser.py``; the full build, which executes the
notebooks, is the slow tier of ``test_browser.py``.
"""

from __future__ import annotations

import re
from collections import Counter

from tests.docs.site import DOCS, ROOT, ids, tables


def _read(site, page: str) -> str:
    path = site / page
    assert path.is_file(), f"{page} was not built"
    return path.read_text(encoding="utf-8")


def test_home_and_fixed_pages_exist(site):
    for page in ["index.html", "getting-started.html", "claims.html", "gallery.html", "cli.html",
                 "api/index.html", "papers/index.html"]:
        _read(site, page)
    home = _read(site, "index.html")
    for target in ["getting-started.html", "claims.html", "gallery.html", "api/index.html", "cli.html"]:
        assert f'href="{target}' in home, f"the home page does not link {target}"


def test_one_page_per_paper_with_its_card(site):
    from hetopt.registry import kinds

    for paper, kind in kinds().items():
        src = DOCS / "papers" / f"{paper}.md"
        assert src.is_file(), f"no page docs/papers/{paper}.md for the kind {paper!r}"
        assert kind.card in src.read_text(encoding="utf-8")


def test_paper_pages_render_the_cards(site):
    from hetopt.claims import claims, papers

    for paper in papers():
        src = (DOCS / "papers" / f"{paper}.md").read_text(encoding="utf-8")
        card = re.search(r"```\{include\} \.\./\.\./(models/[\w.-]+\.md)", src)
        assert card, f"docs/papers/{paper}.md does not include a card of models/"
        card_text = (ROOT / card.group(1)).read_text(encoding="utf-8")
        title = card_text.splitlines()[0].lstrip("# ").strip()
        html = _read(site, f"papers/{paper}.html")
        words = re.findall(r"[A-Za-z]{4,}", title)
        assert all(w in html for w in words), f"papers/{paper}.html lacks the title of {card.group(1)}"
        assert "shared/papers" not in html, f"papers/{paper}.html points to a paper text outside the repository"
        for c in claims(paper):
            assert c.id in html, f"papers/{paper}.html lacks claim {c.id}"


def test_paper_pages_typeset_the_cards_math(site):
    """Issue 24: a card's notation reaches its paper page as MathJax math (no raw ``$``, no ASCII ``>=``)."""
    from hetopt.claims import papers

    for paper in papers():
        html = _read(site, f"papers/{paper}.html")
        section = re.search(r'<section id="notation[^"]*">(.*?)(?=<section)', html, flags=re.S)
        assert section, f"papers/{paper}.html has no Notation section"
        text = section.group(1)
        assert text.count('class="math notranslate nohighlight"') >= 5, f"papers/{paper}.html: notation not typeset"
        assert "\\(" in text and "$" not in text, f"papers/{paper}.html: raw $ in the notation"
        assert not re.search(r"&gt;=|&lt;=|\bsum_", re.sub(r"\\\(.*?\\\)", "", text)), \
            f"papers/{paper}.html: ASCII math in the notation"


def test_claims_page_lists_every_claim_and_the_counts(site):
    from hetopt.claims import claims, papers

    html = _read(site, "claims.html")
    anchors = ids(html)
    rows = {}
    for table in tables(html):
        for row in table[1:]:
            rows[row[0]] = row
    every = claims()
    assert every, "hetopt.claims.claims() is empty"
    for c in every:
        assert c.id in rows, f"claims.html has no row for claim {c.id}"
        _, location, paper_value, verdict, diagnosis = rows[c.id]
        assert verdict == c.verdict.value, f"{c.id}: the page shows verdict {verdict!r}"
        assert c.location in location and " ".join(c.diagnosis.split()) in diagnosis
        assert " ".join(c.paper_value.split()) == paper_value
        assert re.sub(r"[^a-z0-9]+", "-", c.id.lower()) in anchors, f"claims.html has no anchor for {c.id}"
    # The summary: counted here from the claims, not by the code that renders the page.
    summary = next(t for t in tables(html) if t[0][:2] == ["paper", "claims"])
    head, body = summary[0], {r[0]: r for r in summary[1:]}
    by_paper = {p: Counter(c.verdict.value for c in every if c.paper == p) for p in papers()}
    total = Counter(c.verdict.value for c in every)
    for paper, counts in [*by_paper.items(), ("all", total)]:
        if paper != "all" and not counts:
            continue
        row = dict(zip(head, body[paper]))
        assert int(row["claims"]) == sum(counts.values()), f"summary row {paper}: {row}"
        for verdict, n in counts.items():
            assert int(row[verdict]) == n, f"summary row {paper}, {verdict}: {row[verdict]} != {n}"


def test_api_pages_document_every_public_name(site):
    import importlib
    import inspect
    import pkgutil
    import sys

    import hetopt

    sys.path.insert(0, str(DOCS / "_ext"))
    from hetopt_docs import EXTRA_NAMESPACES

    namespaces = ["hetopt"] + [f"hetopt.{m.name}" for m in pkgutil.iter_modules(hetopt.__path__)
                               if m.ispkg] + list(EXTRA_NAMESPACES)
    index = _read(site, "api/index.html")
    for name in namespaces:
        exports = getattr(importlib.import_module(name), "__all__", None)
        if not exports:
            continue
        assert f'href="{name}.html"' in index, f"api/index.html does not link the page of {name}"
        anchors = ids(_read(site, f"api/{name}.html"))
        mod = importlib.import_module(name)
        # an exported submodule (hetopt.registry) is documented on its own page, linked from the index
        submodules = [e for e in exports if inspect.ismodule(getattr(mod, e))]
        for e in submodules:
            assert f'href="{name}.{e}.html"' in index, f"api/index.html does not link the page of {name}.{e}"
        missing = [e for e in exports if not e.startswith("__") and e not in submodules
                   and f"{name}.{e}" not in anchors]
        assert not missing, f"api/{name}.html does not document {missing}"


def test_cli_page_documents_every_command(site):
    import argparse

    from hetopt.cli import build_parser

    html = _read(site, "cli.html")
    anchors = ids(html)
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for command, parser in sub.choices.items():
        assert f"hetopt-{command}" in anchors, f"cli.html has no section for the command {command}"
        section = html.split(f'id="hetopt-{command}"', 1)[1].split("<section", 1)[0]  # up to the next command
        rows = [row for table in tables(section) for row in table[1:]]
        options = {name.split()[0] for row in rows for name in row[0].split(", ")}
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            for flag in action.option_strings or [action.metavar or action.dest]:
                assert flag in options, f"cli.html lacks argument {flag} of {command}"


def test_gallery_lists_every_notebook(site):
    gallery = _read(site, "gallery.html")
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks, "notebooks/ has no notebook"
    for nb in notebooks:
        _read(site, f"notebooks/{nb.stem}.html")
        assert f'href="notebooks/{nb.stem}.html"' in gallery, f"gallery.html does not link {nb.name}"


def test_getting_started_shows_the_readme_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```")[1]
    commands = [line.strip() for line in first_block.splitlines()[1:] if line.strip()]
    assert commands, "README.md's first code block is empty"
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    for cmd in commands:
        assert cmd in page, f"docs/getting-started.md lacks the README command {cmd!r}"
    build_cmd = re.search(r'pip install "\.\[docs\]" && sphinx-build [^\n`]+', readme)
    assert build_cmd and build_cmd.group(0) in page, "README's documentation build command differs from the site's"


def test_every_namespace_the_readme_names_has_an_api_page(site):
    """``hetopt.x`` (or ``hetopt.x.y``) named in the README is documented in the API reference."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme = re.sub(r"<!--.*?-->", "", readme, flags=re.S)  # generators' notes, not shown to readers
    named = set(re.findall(r"\bhetopt(?:\.[a-z_]+)+", readme))
    pages = {p.stem for p in (site / "api").glob("hetopt*.html")}
    missing = []
    for name in sorted(named):
        parts = name.split(".")
        # a namespace, or a name documented on the page of the longest namespace that holds it
        # (hetopt.validate.sweep on the page of hetopt.validate, hetopt.solve on that of hetopt)
        page = next((".".join(parts[:k]) for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in pages), None)
        if page is None or (page != name and name not in ids(_read(site, f"api/{page}.html"))):
            missing.append(name)
    assert missing == [], f"README names namespaces with no API page: {missing}"


def test_math_is_served_from_the_site_not_a_cdn(site):
    """Every page that loads MathJax loads the copy inside the site (works with no network)."""
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file(), "MathJax was not copied into the site"
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for src in re.findall(r'<script[^>]+src="([^"]*mathjax[^"]*)"', html, flags=re.I):
            assert not src.startswith(("http:", "https:", "//")), f"{page.name} loads MathJax from {src}"


def test_every_kind_has_an_instance_format_page(site):
    """Issue 24: for every kind, a page of its fields, a loadable example and the loader's real messages."""
    from hetopt.registry import kinds

    index = _read(site, "instances/index.html")
    for name, kind in kinds().items():
        html = _read(site, f"instances/{name}.html")
        assert f'href="{name}.html"' in index, f"instances/index.html does not link {name}"
        for field in kind.instance.FIELDS:
            assert field.name in html, f"instances/{name}.html does not document the field {field.name}"
        assert "InstanceError" in html, f"instances/{name}.html shows no loader message"
        assert kind.example_instance is None or kind.example_instance in html


def test_instance_pages_typeset_the_field_descriptions(site):
    """Issue 32: the fields' symbols ($T^c_{n,m}$) reach the instance pages as MathJax math, not raw TeX."""
    from hetopt.registry import kinds

    for name, kind in kinds().items():
        html = _read(site, f"instances/{name}.html")
        table = re.search(r"<table.*?</table>", html, flags=re.S)
        assert table, f"instances/{name}.html has no field table"
        text = table.group(0)
        n_math = sum(f.description.count("$") // 2 for f in kind.instance.FIELDS)
        assert n_math and text.count('class="math notranslate nohighlight"') >= n_math, \
            f"instances/{name}.html: the fields' math is not typeset"
        assert "$" not in re.sub(r"<code.*?</code>", "", text, flags=re.S), f"instances/{name}.html: raw $ in the table"
