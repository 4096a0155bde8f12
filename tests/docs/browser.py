"""A headless Chromium driven over the DevTools protocol (CDP), offline, to check the built site's pages.

One browser, one tab, every page in the same session: :class:`Browser` starts Chromium with the
network cut (a dead proxy for every scheme, no background or component traffic, a new empty
profile), talks CDP over a websocket (the ``websockets`` library of the test extra), and
:meth:`Browser.check` loads a page at 1280 px and returns what a reader would see wrong on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Width of the window the pages are checked at (px).
WIDTH = 1280
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         # the network is cut: every http(s)/ws request goes to a closed port, no name resolves
         "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
         "--host-resolver-rules=MAP * ~NOTFOUND", f"--window-size={WIDTH},1000")

#: What raw TeX looks like in a page's visible text (outside code, outside rendered math).
RAW_TEX = r"\$\$|\\[()\[\]]|\\(?:sum|frac|text|mathrm|mathbb|mathcal|begin|end|left|right|cdot|le|ge|leq|geq|in|" \
          r"infty|alpha|beta|gamma|delta|eta|lambda|mu|sigma|theta|partial|quad|underbrace|big|max|min|log)\b"

#: The check run in the page: resolves to the page's report (after its images and MathJax are done).
CHECK_JS = r"""
(async () => {
  const images = [...document.images];
  images.forEach(img => { img.loading = 'eager'; });
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done); img.addEventListener('error', done); setTimeout(done, 10000);
  })));
  let mathjax = 'absent';
  if (window.MathJax) {
    if (!(MathJax.startup && MathJax.startup.promise)) mathjax = 'not started';
    else {
      try { await MathJax.startup.promise; mathjax = 'done'; }
      catch (e) { mathjax = 'failed: ' + e; }
    }
  }
  const skip = 'pre, code, script, style, noscript, template, mjx-container, .MathJax';
  // rendered: the element has a layout box (checkVisibility; the first getClientRects of each element of a long
  // API page cost about 0.25 ms, 4 s a page), asked once per element
  const rendered = new Map();
  const shown = el => {
    if (!rendered.has(el)) rendered.set(el, el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
    return rendered.get(el);
  };
  const text = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(skip) || !shown(el)) continue;
    text.push(n.textContent);
  }
  const describe = el => (el.closest('section[id]') ? '#' + el.closest('section[id]').id + ' ' : '')
    + el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
  const wide = [...document.querySelectorAll('mjx-container[display="true"]')]
    .filter(el => el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
    .map(el => describe(el) + ': ' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px');
  return {
    text: text.join(' '),
    mathjax: mathjax,
    math_errors: [...document.querySelectorAll('mjx-merror, [data-mjx-error]')]
      .map(e => e.getAttribute('data-mjx-error') || e.textContent).slice(0, 10),
    untypeset: [...document.querySelectorAll('div.math, span.math')]
      .filter(el => !el.querySelector('mjx-container')).map(el => el.textContent.slice(0, 80)).slice(0, 10),
    broken_images: images.filter(img => !(img.complete && img.naturalWidth > 0))
      .map(img => img.getAttribute('src')),
    images: images.length,
    page_width: document.documentElement.scrollWidth,
    view_width: document.documentElement.clientWidth,
    wide_math: wide,
  };
})()
"""


def find_browser() -> str | None:
    """The path of a Chromium (or Chrome) binary on PATH, or None."""
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


@dataclass
class PageReport:
    """What a check of one page found."""

    page: str
    raw_tex: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    images: int = 0

    def __str__(self) -> str:
        return f"{self.page}: " + "; ".join(self.problems)


class Browser:
    """A headless Chromium with its DevTools socket; use as a context manager (the process ends on exit)."""

    def __init__(self, binary: str, profile: Path, *, timeout: float = 60.0) -> None:
        self.binary, self.profile, self.timeout = binary, profile, timeout
        self._next_id = 0
        self._events: list[dict] = []
        self._stack = ExitStack()

    def __enter__(self) -> Browser:
        from websockets.sync.client import connect

        self.profile.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen([self.binary, *FLAGS, f"--user-data-dir={self.profile}",
                                      "--remote-debugging-port=0", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            port = self._port()
            tab = self._page_socket(port)
            self.ws = self._stack.enter_context(connect(tab, max_size=None, open_timeout=self.timeout, proxy=None))
            for domain in ("Page", "Runtime", "Network"):
                self.send(f"{domain}.enable")
            self.send("Emulation.setDeviceMetricsOverride", width=WIDTH, height=1000, deviceScaleFactor=1,
                      mobile=False)
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._stop()

    def _stop(self) -> None:
        self._stack.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a browser that ignores SIGTERM
            self.proc.kill()
            self.proc.wait(10)

    def _port(self) -> int:
        """The DevTools port Chromium chose (it writes it into the profile folder)."""
        marker = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.binary} exited with {self.proc.returncode}: "
                                   f"{self.proc.stderr.read()[-2000:] if self.proc.stderr else ''}")
            if marker.is_file() and (lines := marker.read_text().split()):
                return int(lines[0])
            time.sleep(0.05)
        raise RuntimeError(f"{self.binary} opened no DevTools port in {self.timeout:g} s")

    def _page_socket(self, port: int) -> str:
        import urllib.request

        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
        with opener.open(f"http://127.0.0.1:{port}/json/list", timeout=self.timeout) as r:
            targets = json.load(r)
        return next(t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page")

    def send(self, method: str, **params) -> dict:
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self._next_id += 1
        ident = self._next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=self.timeout))
            if msg.get("id") == ident:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self._events.append(msg)

    def _wait_for(self, event: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not any(e["method"] == event for e in self._events):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {event} within {self.timeout:g} s")
            msg = json.loads(self.ws.recv(timeout=left))
            if "method" in msg:
                self._events.append(msg)

    def check(self, page: Path, name: str) -> PageReport:
        """Load ``page`` and report raw TeX, unloaded images, MathJax errors, overflow and network use."""
        import re

        self._events.clear()
        self.send("Page.navigate", url=page.as_uri())
        self._wait_for("Page.loadEventFired")
        out = self.send("Runtime.evaluate", expression=CHECK_JS, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{name}: the check script failed: {out['exceptionDetails']}")
        r = out["result"]["value"]
        report = PageReport(name, images=r["images"])
        text = r["text"]
        for m in re.finditer(RAW_TEX, text):
            report.raw_tex.append(" ".join(text[max(0, m.start() - 40):m.end() + 40].split()))
        faults = {
            "raw TeX in the visible text": list(dict.fromkeys(report.raw_tex))[:5],
            "MathJax": [] if r["mathjax"] in ("absent", "done") else [r["mathjax"]],
            "MathJax errors": list(dict.fromkeys(r["math_errors"])),
            "math left untypeset": r["untypeset"],
            "images not loaded": r["broken_images"],
            "equations wider than the page (they scroll sideways)": r["wide_math"],
        }
        report.problems.extend(f"{what}: {' | '.join(map(str, found))}" for what, found in faults.items() if found)
        if r["page_width"] > r["view_width"]:
            report.problems.append(f"the page is {r['page_width']} px wide in a {r['view_width']} px window")
        for e in self._events:
            p = e.get("params", {})
            if e["method"] == "Network.requestWillBeSent" and not p["request"]["url"].startswith(("file:", "data:")):
                report.problems.append(f"a network request: {p['request']['url']}")
            elif e["method"] == "Network.loadingFailed" and not p.get("canceled"):
                report.problems.append(f"a resource failed to load: {p.get('errorText')} ({p.get('type')})")
            elif e["method"] == "Runtime.exceptionThrown":
                report.problems.append(f"a script error: {p['exceptionDetails'].get('text')}")
        return report
