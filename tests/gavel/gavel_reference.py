"""Gavel's recorded policy calls (tests/gavel/data/gavel_policies_reference.json) replayed on hetopt's functions.

A call's inputs become arrays: jobs in id order (singles, then pairs sorted), GPU types in Gavel's
order (by name: k80, p100, v100); :func:`replay` returns hetopt's allocation and Gavel's, both as
``(rows, types)`` arrays over the same rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from hetopt.gavel import heuristics, packing, packing_greedy, variants
from hetopt.gavel.fairness import max_min_fairness
from hetopt.gavel.fifo import fifo
from hetopt.gavel.makespan import min_total_duration

DATA = Path(__file__).parent / "data" / "gavel_policies_reference.json"
TYPES = ["k80", "p100", "v100"]


def cases() -> list[dict[str, Any]]:
    return json.loads(DATA.read_text())["cases"]


def _key(k: str):
    k = k.strip()
    if k.startswith("("):
        a, b = k.strip("()").split(",")
        return (int(a), int(b))
    return int(k)


def _order(keys):
    singles = sorted(k for k in keys if isinstance(k, int))
    pairs = sorted(k for k in keys if isinstance(k, tuple))
    return singles, pairs


def arrays(inputs: dict[str, Any]) -> dict[str, Any]:
    """The recorded call's inputs as hetopt's arrays (columns in ``TYPES`` order, types absent dropped)."""
    thr = {_key(k): v for k, v in inputs["unflattened_throughputs" if "unflattened_throughputs" in inputs
                                          else "throughputs"].items()}
    singles, pairs = _order(thr)
    cluster = inputs["cluster_spec"]
    types = [t for t in TYPES if t in cluster]
    T = np.array([[thr[j][t] for t in types] for j in singles], dtype=float)
    sf = inputs.get("scale_factors") or {}
    s = np.array([sf.get(str(j), 1) for j in singles])
    c = np.array([cluster[t] for t in types], dtype=float)
    out: dict[str, Any] = {"T": T, "s": s, "c": c, "jobs": singles, "types": types, "pair_keys": pairs}
    pos = {j: i for i, j in enumerate(singles)}
    out["pairs"] = [(pos[a], pos[b]) for a, b in pairs]
    out["P"] = np.array([[thr[p][t] for t in types] for p in pairs], dtype=float).reshape(len(pairs), len(types), 2)
    for name in ("unflattened_priority_weights", "priority_weights"):
        if name in inputs:
            out["w"] = np.array([inputs[name][str(j)] for j in singles], dtype=float)
    for src, dst in (("num_steps_remaining", "steps"), ("times_since_start", "since")):
        if src in inputs and inputs[src]:
            out[dst] = np.array([inputs[src].get(str(j), np.nan) for j in singles], dtype=float)
    if inputs.get("instance_costs"):
        out["costs"] = np.array([inputs["instance_costs"][t] for t in types], dtype=float)
    if inputs.get("SLOs"):
        out["slo"] = np.array([inputs["SLOs"].get(str(j), np.nan) for j in singles], dtype=float)
    return out


def gavel_output(call: dict[str, Any], a: dict[str, Any]) -> np.ndarray:
    """Gavel's returned allocation as an array over hetopt's rows (strategy-proof returns a pair; its first)."""
    out = call["output"]
    if isinstance(out, list):
        out = out[0]
    out = {_key(k): v for k, v in out.items()}
    rows = a["jobs"] + a["pair_keys"]
    return np.array([[float(out[k][t]) if k in out else 0.0 for t in a["types"]] for k in rows])


def policy_for(cls: str, state: dict[str, Any]):
    """hetopt's function (or stateful object, kept in ``state`` across the calls of one test) for Gavel's class."""
    if cls == "AlloXPolicy":
        obj = state.setdefault(cls, heuristics.AlloX())
        return lambda a: obj(a["T"], a["s"], a["c"], remaining_steps=a["steps"], times_since_start=a["since"],
                             job_ids=a["jobs"])
    if cls == "FinishTimeFairnessPolicyWithPerf":
        obj = state.setdefault(cls, variants.FinishTimeFairness())
        return lambda a: obj(a["T"], a["s"], a["c"], a.get("w"), remaining_steps=a["steps"],
                             times_since_start=a["since"], job_ids=a["jobs"])
    if cls == "FinishTimeFairnessPolicy":
        obj = state.setdefault(cls, variants.FinishTimeFairness(agnostic=True))
        return lambda a: obj(a["T"], a["s"], a["c"], a.get("w"), remaining_steps=a["steps"],
                             times_since_start=a["since"], job_ids=a["jobs"], reference_type=a["types"].index("v100"))
    if cls == "FinishTimeFairnessPolicyWithPacking":
        obj = state.setdefault(cls, packing.FinishTimeFairnessPacked())
        return lambda a: obj(a["T"], a["s"], a["c"], a.get("w"), remaining_steps=a["steps"],
                             times_since_start=a["since"], pairs=a["pairs"], pair_throughput=a["P"], job_ids=a["jobs"])
    if cls == "GandivaPolicy":
        obj = state.setdefault(cls, packing_greedy.Gandiva())
        return lambda a: obj(a["T"], a["s"], a["c"], pairs=a["pairs"], pair_throughput=a["P"], job_ids=a["jobs"])
    if cls == "IsolatedPolicy":
        return lambda a: variants.isolated(a["T"], a["s"], a["c"])
    if cls == "ProportionalPolicy":
        return lambda a: variants.proportional(a["T"], np.ones(len(a["jobs"])), a["c"])
    if cls == "MaxMinFairnessPolicy":
        return lambda a: variants.max_min_fairness_agnostic(a["T"], a["s"], a["c"], a.get("w"))
    if cls == "MaxMinFairnessPolicyWithPerf":
        return lambda a: max_min_fairness(a["T"], a["s"], a["c"], a.get("w"))
    if cls == "MaxMinFairnessPolicyWithPacking":
        return lambda a: packing.max_min_fairness_packed(a["T"], a["s"], a["c"], a.get("w"), pairs=a["pairs"],
                                                         pair_throughput=a["P"])
    if cls == "MaxMinFairnessStrategyProofPolicyWithPerf":
        return lambda a: variants.max_min_fairness_strategy_proof(a["T"], a["s"], a["c"], a.get("w"))
    if cls == "MaxMinFairnessWaterFillingPolicyWithPerf":
        return lambda a: variants.max_min_fairness_water_filling(a["T"], a["s"], a["c"], a.get("w"))
    if cls == "MaxMinFairnessWaterFillingPolicy":
        return lambda a: variants.max_min_fairness_water_filling_agnostic(a["T"], a["s"], a["c"], a.get("w"))
    if cls == "MaxMinFairnessWaterFillingPolicyWithPacking":
        return lambda a: packing.max_min_fairness_water_filling_packed(a["T"], a["s"], a["c"], a.get("w"),
                                                                       pairs=a["pairs"], pair_throughput=a["P"])
    if cls in ("ThroughputNormalizedByCostSumWithPerf", "ThroughputSumWithPerf"):
        return lambda a: variants.max_sum_throughput_normalized_by_cost(a["T"], a["s"], a["c"],
                                                                        instance_costs=a.get("costs"))
    if cls == "ThroughputNormalizedByCostSumWithPerfSLOs":
        return lambda a: variants.max_sum_throughput_normalized_by_cost_slos(
            a["T"], a["s"], a["c"], instance_costs=a.get("costs"), remaining_steps=a.get("steps"),
            time_to_slo=a.get("slo"))
    if cls == "ThroughputNormalizedByCostSumWithPackingSLOs":
        return lambda a: packing.max_sum_throughput_normalized_by_cost_packed_slos(
            a["T"], a["s"], a["c"], pairs=a["pairs"], pair_throughput=a["P"], instance_costs=a.get("costs"),
            remaining_steps=a.get("steps"), time_to_slo=a.get("slo"))
    if cls == "MinTotalDurationPolicyWithPerf":
        return lambda a: min_total_duration(a["T"], a["s"], a["c"], remaining_steps=a["steps"])
    if cls == "MinTotalDurationPolicy":
        return lambda a: variants.min_total_duration_agnostic(a["T"], a["s"], a["c"], remaining_steps=a["steps"],
                                                              reference_type=a["types"].index("v100"))
    if cls == "MinTotalDurationPolicyWithPacking":
        return lambda a: packing.min_total_duration_packed(a["T"], a["s"], a["c"], remaining_steps=a["steps"],
                                                           pairs=a["pairs"], pair_throughput=a["P"])
    if cls == "FIFOPolicyWithPerf":
        return lambda a: fifo(a["T"], a["s"], a["c"])
    if cls == "FIFOPolicyWithPacking":
        return lambda a: packing_greedy.fifo_packed(a["T"], a["s"], a["c"], pairs=a["pairs"], pair_throughput=a["P"])
    if cls == "FIFOPolicy":
        obj = state.setdefault(cls, heuristics.RandomFIFO(0))
        return lambda a: obj(a["T"], a["s"], a["c"], job_ids=a["jobs"])
    raise KeyError(cls)


def replay(case: dict[str, Any]) -> list[tuple[str, np.ndarray, np.ndarray, dict[str, Any]]]:
    """Every recorded top-level call of ``case``: (class, hetopt's allocation, Gavel's, the arrays)."""
    state: dict[str, Any] = {}
    out = []
    for call in case["calls"]:
        if call["method"] != "get_allocation":
            continue
        a = arrays(call["inputs"])
        ours = np.asarray(policy_for(call["policy_class"], state)(a), dtype=float)
        out.append((call["policy_class"], ours, gavel_output(call, a), a))
    return out
