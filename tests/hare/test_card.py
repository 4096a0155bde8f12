from pathlib import Path

from hetopt.hare import build_hare_sched, build_relaxation, generate_instance
from hetopt.testing import check_card

CARD = Path(__file__).resolve().parents[2] / "models" / "hare2022.md"


def test_card_components_exist_with_equation_numbers():
    inst = generate_instance(seed=0, n_jobs=2, n_gpus=2, max_tasks=2, max_total_tasks=4)
    n = check_card(CARD, {
        "build_hare_sched": build_hare_sched(inst),
        "build_relaxation_linear": build_relaxation(inst, "linear"),
        "build_relaxation_direct": build_relaxation(inst, "direct"),
    })
    assert n >= 20


def test_exported_model_writes_lp(tmp_path):
    inst = generate_instance(seed=0, n_jobs=2, n_gpus=2, max_total_tasks=4)
    m = build_hare_sched(inst)
    out = tmp_path / "hare.lp"
    m.write(str(out), format="lp", io_options={"symbolic_solver_labels": True})
    text = out.read_text()
    assert "round_barrier" in text and "binary" in text.lower()


def test_card_findings_match_the_ledger():
    import re

    from hetopt.claims import claims

    text = CARD.read_text(encoding="utf-8")
    findings = text[text.index("## Findings"):text.index("## Components")]
    rows = dict(re.findall(r"^\| `([a-z0-9_.]+)` \|[^|]*\| ([a-z-]+)", findings, flags=re.M))
    ledger = {c.id: c.verdict.value for c in claims("hare")}
    assert rows == ledger
