"""Every name a card's "Plug-in protocol" section tells the user to call exists where it says.

The section is what a user reads to write their own policy; a renamed or unexported function
would leave it pointing at nothing.
"""

import importlib
import re
from pathlib import Path

import pytest

from hetopt.registry import kinds

ROOT = Path(__file__).resolve().parents[1]
#: card file -> the paper's package, read from the registry (the card a Kind names, the package of its instance class)
CARDS = {Path(k.card).name: k.instance.__module__.rpartition(".")[0] for k in kinds().values() if k.card}
#: Attributes of objects the protocol hands to the user (not module-level names).
MEMBERS = {"hetopt.oasis": {"Cluster": ["active", "remaining", "try_place", "release", "free"],
                            "Prices": ["p", "q"]},
           "hetopt.hare": {"HareInstance": ["task_job", "task_round", "task_compute"]},
           "hetopt.hadar": {"Policy": ["reset", "allocate"],
                            "RoundState": ["inst", "index", "now", "round_length", "restart_delay", "remaining",
                                           "active", "previous", "attained", "rounds_received"]}}


def section(card: str) -> str:
    text = (ROOT / "models" / card).read_text()
    m = re.search(r"^## Plug-in protocol.*?(?=^## )", text, flags=re.S | re.M)
    assert m, f"{card} has no '## Plug-in protocol' section"
    return m.group(0)


@pytest.mark.parametrize("card,module", sorted(CARDS.items()))
def test_plugin_section_names_exist(card, module):
    mod = importlib.import_module(module)
    text = section(card)
    called = set(re.findall(r"`(?:hetopt\.)?([A-Za-z_][A-Za-z_0-9]*)\(", text))  # `name(` in code spans
    called -= {"policy", "gpu_rule", "rule", "f", "lambda", "max", "MyPolicy", "isinstance", "__call__"}
    called -= {a for attrs in MEMBERS.get(module, {}).values() for a in attrs}  # checked on their class below
    assert called, f"{card}: the section names no function"
    import hetopt

    missing = [n for n in called if not hasattr(mod, n) and not hasattr(hetopt, n)]
    assert not missing, f"{card}: {missing} are not exported by {module} or hetopt"
    for cls, attrs in MEMBERS.get(module, {}).items():
        assert all(a in text for a in attrs), f"{card}: the section no longer names {cls}'s {attrs}"
        obj = getattr(mod, cls)
        fields = set(dir(obj)) | set(getattr(obj, "__dataclass_fields__", {}))
        if cls == "Cluster":  # instance attributes set in __init__
            fields |= set(obj.__init__.__code__.co_names)
        assert all(a in fields for a in attrs), (cls, [a for a in attrs if a not in fields])


def _plugin_example(card: str) -> dict:
    """Run the first ``python`` block of the card's plug-in section and return its namespace."""
    code = re.search(r"```python\n(.*?)```", section(card), re.S).group(1)
    scope: dict = {}
    exec(compile(code, card, "exec"), scope)  # noqa: S102 - the card's own example
    return scope


def test_contention_plugin_example_runs():
    """The example's schedule passes the checker (asserted in the example) and has every job."""
    assert len(_plugin_example("wang2019-contention.md")["sol"].jct) == 16


def test_gavel_plugin_example_runs():
    """The example's schedule passes the checker (asserted in the example) and every job completes."""
    import numpy as np

    assert np.all(np.isfinite(_plugin_example("gavel.md")["sim"].jct))


def test_hadar_plugin_example_runs():
    """The example is a working policy: every job completes, in a plausible number of rounds."""
    import numpy as np

    res = _plugin_example("hadar2024.md")["res"]
    assert np.all(np.isfinite(res.jct)) and res.total_duration > 0
