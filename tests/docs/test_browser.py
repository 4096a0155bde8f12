"""Every page of the built site, loaded offline in a real headless Chromium at 1280 px.

On each page: no raw TeX in the visible text (``$$``, ``\\(``, ``\\sum``, ``\\frac``, ``\\text`` ...
outside code and rendered math), every image loaded (``naturalWidth > 0``), MathJax finished with no
error and no math left untypeset, no horizontal overflow of the page and no equation wider than
the page (it would scroll sideways), no network request, no resource that fails to load, no script
error. One browser, one tab, every page in the same session (``tests/docs/browser.py``).

The default tier checks the site the docs test builds (notebooks rendered, not executed: the
``site`` fixture of ``conftest.py``); the slow tier builds the full site, which executes every
notebook, and checks it again with the figures in place. Chromium comes from Debian
(``apt-get install chromium``; ``.ci/run`` installs it); without it the test skips and says so,
unless ``HETOPT_REQUIRE_BROWSER`` is set (``.ci/run`` sets it once Chromium is there), where it fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.docs.browser import BROWSERS, Browser, find_browser
from tests.docs.site import ROOT, build, output_images

#: A page with one instance of every fault the check must report (the site's own MathJax typesets it).
PROBE = r"""<!DOCTYPE html><html><head><meta charset="utf-8">
<script>window.MathJax = {"options": {"processHtmlClass": "math"}}</script>
<script defer src="_static/mathjax/tex-chtml.js"></script></head><body>
<p>chain gives the identity $$\text{(19)} - \text{(14)} = p,</p><ul><li>\sum_{t,k,r} q$$</li></ul>
<p><span class="math">\(x^2^3\)</span> and <img src="no-such-figure.png" alt="a figure"></p>
<div class="math">\[\sum_{i=1}^{n} x_i """ + r"+ \sum_{i=1}^{n} x_i " * 40 + r"""\]</div>
<pre>code may show \frac and $$ as they are typed</pre></body></html>"""


def _browser() -> str:
    browser = find_browser()
    if browser is None:
        why = (f"no Chromium binary on PATH (looked for {', '.join(BROWSERS)}); Debian: apt-get install chromium "
               "(.ci/run installs it)")
        if os.environ.get("HETOPT_REQUIRE_BROWSER"):
            pytest.fail(f"HETOPT_REQUIRE_BROWSER is set but there is {why}")
        pytest.skip(why)
    return browser


def _pages(site: Path) -> list[Path]:
    """Every HTML page a reader can open (not the sources, the static files or the probe)."""
    return sorted(p for p in site.rglob("*.html") if not any(part.startswith("_") for part in p.relative_to(site).parts))


def _check_site(site: Path, profile: Path) -> tuple[list[str], int]:
    """The problems of every page (and the check of the probe page, first), and the images seen."""
    probe = site / "_probe.html"
    probe.write_text(PROBE, encoding="utf-8")
    try:
        with Browser(_browser(), profile) as browser:
            report = browser.check(probe, "_probe.html")
            found = "\n".join(report.problems)
            for fault in ("raw TeX in the visible text", "$$\\text{(19)}", "\\sum_{t,k,r}",
                          "MathJax errors: Double exponent", "images not loaded: no-such-figure.png",
                          "equations wider than the page", "the page is", "a resource failed to load"):
                assert fault in found, f"the browser check misses {fault!r} on its probe page:\n{found}"
            assert "code may show" not in found, f"the check reads code as text:\n{found}"
            reports = [browser.check(page, str(page.relative_to(site))) for page in _pages(site)]
    finally:
        probe.unlink()
    return [str(r) for r in reports if r.problems], sum(r.images for r in reports)


def test_every_page_renders_in_a_real_browser(site, tmp_path):
    problems, _ = _check_site(site, tmp_path / "profile")
    assert not problems, f"{len(problems)} pages show problems in Chromium at 1280 px:\n" + "\n".join(problems)


# ------------------------------------------------------------------ slow: the full site, notebooks executed
@pytest.fixture(scope="module")
def full_site(tmp_path_factory):
    return build(tmp_path_factory.mktemp("docs-full"), execute=True)


def _figures(site: Path) -> dict[str, list[str]]:
    out = {}
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        page = site / "notebooks" / f"{nb.stem}.html"
        assert page.is_file(), f"notebooks/{nb.stem}.html was not built"
        out[nb.stem] = output_images(page.read_text(encoding="utf-8"))
    return out


def _variance(png: Path) -> float:
    import matplotlib.image

    pixels = matplotlib.image.imread(str(png))[..., :3]
    return float(pixels.std())


@pytest.mark.slow
def test_every_notebook_page_shows_its_figures(full_site):
    figures = _figures(full_site)
    assert figures, "notebooks/ has no notebook"
    for stem, srcs in figures.items():
        assert srcs, f"notebooks/{stem}.html shows no figure output (executed notebook drew nothing inline)"
        for src in srcs:
            image = (full_site / "notebooks" / src).resolve()
            assert image.is_file(), f"notebooks/{stem}.html shows {src}, which is not in the site"
            if image.suffix == ".png":
                assert _variance(image) > 0.01, f"figure {src} of notebooks/{stem}.html is blank"


@pytest.mark.slow
def test_every_page_of_the_executed_site_in_a_real_browser(full_site, tmp_path):
    """The same checks with the notebooks' outputs in place: every figure loads, no output overflows."""
    problems, images = _check_site(full_site, tmp_path / "profile")
    assert not problems, f"{len(problems)} pages show problems in Chromium at 1280 px:\n" + "\n".join(problems)
    assert images >= sum(map(len, _figures(full_site).values())), "the browser saw fewer images than the figures"
