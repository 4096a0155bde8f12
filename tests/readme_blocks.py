"""The README's generated blocks (the ledger summary, the methods table).

``python tests/readme_blocks.py`` rewrites them in place; ``tests/test_readme.py`` fails when
they are stale.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def blocks() -> dict[str, str]:
    """Marker name -> the Markdown the package generates for it now."""
    from hetopt import api, claims

    return {"papers": papers_table(), "ledger-summary": claims.summary_table(claims.claims()).to_markdown(),
            "methods": api.methods_table().to_markdown()}


def papers_table() -> str:
    """The registry's kinds: paper, subpackage, card."""
    from hetopt.registry import kinds

    rows = ["| paper | subpackage | card |", "| --- | --- | --- |"]
    for k in kinds().values():
        rows.append(f"| {k.title} | `hetopt.{k.name}` | [{k.card}]({k.card}) |")
    return "\n".join(rows)


def pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- {name}:[^\n]*-->\n)(.*?)(<!-- /{name} -->)", re.S)


def current(text: str, name: str) -> str | None:
    m = pattern(name).search(text)
    return None if m is None else m.group(2).strip()


def update() -> None:
    text = README.read_text()
    for name, body in blocks().items():
        text, n = pattern(name).subn(lambda m: m.group(1) + body + "\n" + m.group(3), text)
        if n != 1:
            raise SystemExit(f"README.md has {n} blocks named {name!r}; expected 1")
    README.write_text(text)


if __name__ == "__main__":
    update()
