"""The full site build (notebooks executed) shows the figures, checked in a real headless browser.

Slow: the build executes every notebook (minutes).  The browser test needs a Chromium binary
(Debian: ``apt-get install chromium``) and skips, saying so, when there is none.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.docs.site import ROOT, build, output_images

pytestmark = pytest.mark.slow

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Headless screenshots show the top of a page: the copy of a notebook page that is shot drops
# what comes before the cell of its first figure (and that cell's code), so the figure is in view.
TO_FIRST_FIGURE = """<script>document.addEventListener('DOMContentLoaded', () => {
  const cell = document.querySelector('.cell_output img').closest('.cell');
  cell.querySelectorAll('.cell_input').forEach(e => e.remove());
  for (let n = cell; n && !n.matches('article'); n = n.parentElement) {
    while (n.previousElementSibling) n.previousElementSibling.remove();
  }
});</script>"""


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


def _browser() -> str | None:
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def _screenshot(browser: str, page: Path, png: Path, profile: Path) -> None:
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--no-first-run", "--hide-scrollbars", f"--user-data-dir={profile}", "--window-size=1280,1000",
           "--virtual-time-budget=5000", f"--screenshot={png}", page.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0 and png.is_file(), f"{browser} made no screenshot of {page}:\n{proc.stderr[-3000:]}"


def test_home_and_notebook_pages_in_headless_browser(full_site, tmp_path):
    browser = _browser()
    if browser is None:
        pytest.skip(f"no Chromium binary on PATH (looked for {', '.join(BROWSERS)}); Debian: apt-get install chromium")
    figures = _figures(full_site)
    stem = next((s for s, srcs in figures.items() if srcs), None)
    assert stem is not None, "no notebook page shows a figure"
    # A copy of the notebook page, next to it (relative links intact), starting at its first figure.
    page = full_site / "notebooks" / f"{stem}.html"
    shot_page = page.with_name(f"_screenshot_{stem}.html")
    shot_page.write_text(page.read_text(encoding="utf-8").replace("</head>", TO_FIRST_FIGURE + "</head>"), encoding="utf-8")
    shots = {"home": full_site / "index.html", stem: shot_page}
    for name, target in shots.items():
        png = tmp_path / f"{name}.png"
        _screenshot(browser, target, png, tmp_path / "profile")
        assert _variance(png) > 0.02, f"the screenshot of {target.name} is blank"
