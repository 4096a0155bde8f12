"""The README's generated blocks (the papers, the ledger summary, the methods table, the verbs).

``python -m tests.readme_blocks``, from the checkout, rewrites them in place (the verbs table in
CONTRIBUTING.md too); ``tests/test_readme.py``
fails when they are stale.  It refuses to run as a script (``python tests/readme_blocks.py`` puts
``tests/`` first on the path and reads whatever ``hetopt`` is installed) and whenever the ``hetopt``
it imports is not the working tree's: the tables would silently describe another copy.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The one line printed when the blocks would be generated from another copy of the package.
HOW = "run `python -m tests.readme_blocks` from the checkout"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
#: Blocks that CONTRIBUTING.md carries too, with the same text.
SHARED = ("verbs",)


def blocks() -> dict[str, str]:
    """Marker name -> the Markdown the package generates for it now."""
    from hetopt import api, claims

    return {"papers": papers_table(), "ledger-summary": claims.summary_table(claims.claims()).to_markdown(),
            "methods": api.methods_table().to_markdown(), "verbs": verbs_table()}


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


def verbs_table() -> str:
    """The verbs of ``hetopt.contract.VERBS``: the shared signature (each Protocol's docstring) and the return type."""
    from hetopt.contract import VERBS

    rows = ["| verb | Protocol | signature (the shared parameters; `...`: the kind's own) | returns |",
            "| --- | --- | --- | --- |"]
    for verb, proto in VERBS.items():
        signature = re.search(r"``(.+?)``", proto.__doc__ or "").group(1)
        returns = proto.__call__.__annotations__["return"]
        rows.append(f"| `{verb}` | `{proto.__name__}` | `{signature}` | `{returns}` |")
    return "\n".join(rows)


def refusal(package: str | None, hetopt_file: str | None) -> str | None:
    """Why this run must not rewrite the README (None when it may): run as a module of the checkout's
    ``tests`` package (``package``), with ``hetopt`` imported from the checkout (``hetopt_file``)."""
    if package != "tests":
        return f"tests/readme_blocks.py run as a script would read the installed hetopt: {HOW} ({ROOT})"
    if hetopt_file is None or Path(hetopt_file).resolve().parent != ROOT / "hetopt":
        return (f"hetopt is imported from {Path(hetopt_file or '?').parent}, not from the working tree "
                f"{ROOT / 'hetopt'}: {HOW} ({ROOT})")
    return None


def update() -> None:
    import hetopt

    why = refusal(__package__, hetopt.__file__)
    if why is not None:
        raise SystemExit(f"readme_blocks: {why}")
    made = blocks()
    for path, names in ((README, list(made)), (CONTRIBUTING, list(SHARED))):
        text = path.read_text()
        for name in names:
            text, n = pattern(name).subn(lambda m: m.group(1) + made[name] + "\n" + m.group(3), text)
            if n != 1:
                raise SystemExit(f"{path.name} has {n} blocks named {name!r}; expected 1")
        path.write_text(text)


if __name__ == "__main__":
    update()
