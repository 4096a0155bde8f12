import json
import math

import numpy as np
import pytest

from hetopt.errors import InstanceError
from hetopt.hare import HareInstance

GOOD = dict(arrival=[0, 1], weight=[1, 2], rounds=[2, 1], tasks_per_round=[1, 3],
            compute_time=[[1, 2], [3, 4]], sync_time=[[0.1, 0.2], [0, 0]])


def make(**kw):
    return HareInstance(**(GOOD | kw))


def test_task_indexing():
    inst = make()
    assert inst.n_jobs == 2 and inst.n_gpus == 2 and inst.n_tasks == 5
    assert inst.task_job.tolist() == [0, 0, 1, 1, 1]
    assert inst.task_round.tolist() == [0, 1, 0, 0, 0]
    assert inst.task_index.tolist() == [0, 0, 0, 1, 2]
    assert list(inst.round_tasks(1, 0)) == [2, 3, 4]
    assert inst.task_compute[3].tolist() == [3, 4]
    # a_n + |R_n| min_m (T^c + T^s): job 0: 0 + 2 * 1.1, job 1: 1 + 3
    assert np.allclose(inst.completion_lower_bound, [2.2, 4.0])


def test_json_round_trip(tmp_path):
    inst = make(gpu_names=["a", "b"], job_names=["x", "y"])
    back = HareInstance.from_json(inst.to_json())
    assert back.to_dict() == inst.to_dict()
    path = tmp_path / "i.json"
    inst.to_json(str(path))
    assert HareInstance.from_json(str(path)).to_dict() == inst.to_dict()
    assert json.loads(inst.to_json())["kind"] == "hare"


@pytest.mark.parametrize("kw, words", [
    (dict(compute_time=[[1, 0], [3, 4]]), "compute_time[0, 1] is 0.0"),
    (dict(compute_time=[[1, -2], [3, 4]]), "compute_time[0, 1]"),
    (dict(sync_time=[[0.1, -0.2], [0, 0]]), "sync_time[0, 1]"),
    (dict(compute_time=[[1, 2, 3], [3, 4, 5]], sync_time=[[0, 0], [0, 0]]), "sync_time has 2 columns; expected 3, one per GPU"),
    (dict(compute_time=[1, 2]), "compute_time has shape"),
    (dict(weight=[1]), "weight has 1 entries; expected 2"),
    (dict(arrival=[0, 0, 0]), "arrival has 3 entries; expected 2"),  # issue 25: reported as "weight has length 2"
    (dict(sync_time=[[0, 0]]), "sync_time has 1 rows; expected 2"),
    (dict(arrival=5), "arrival is a scalar"),
    (dict(rounds=[0, 1]), "rounds[0] is 0"),
    (dict(rounds=[1.5, 1]), "rounds[0] is 1.5"),
    (dict(tasks_per_round=[1, 0]), "tasks_per_round[1] is 0"),
    (dict(arrival=[-1, 0]), "arrival[0] is -1.0"),
    (dict(arrival=[0, math.nan]), "arrival[1] is nan"),
    (dict(compute_time=[[1, math.nan], [3, 4]]), "compute_time[0, 1] is nan"),
    (dict(weight=[0, 1]), "weight[0] is 0.0"),
    (dict(arrival=[]), "arrival has 0 entries; expected 2"),
    (dict(gpu_names=["a"]), "gpu_names has 1 entries"),
    (dict(job_names=["a", "a"]), "duplicates"),
])
def test_bad_input(kw, words):
    with pytest.raises(InstanceError, match=words.replace("[", r"\[").replace("]", r"\]")):
        make(**kw)


def test_no_job_at_all():
    with pytest.raises(InstanceError, match="arrival is empty"):
        HareInstance(arrival=[], weight=[], rounds=[], tasks_per_round=[], compute_time=np.zeros((0, 1)),
                     sync_time=np.zeros((0, 1)))


def test_bad_json():
    d = make().to_dict()
    with pytest.raises(InstanceError, match="unknown key"):
        HareInstance.from_dict(d | {"speed": 1})
    with pytest.raises(InstanceError, match="kind"):
        HareInstance.from_dict(d | {"kind": "placement"})
    with pytest.raises(InstanceError, match="schema_version"):
        HareInstance.from_dict(d | {"schema_version": 99})
    d2 = dict(d)
    del d2["weight"]
    with pytest.raises(InstanceError, match="missing"):
        HareInstance.from_dict(d2)


def test_arrays_are_read_only():
    inst = make()
    with pytest.raises(ValueError):
        inst.compute_time[0, 0] = 5.0


@pytest.mark.parametrize("stem", ["hare2022_fig1", "hare2022_theorem4_counterexample", "hare2022_theorem4_release_dates"])
def test_bundled_expected_values_agree_across_methods(stem):
    """The CP-SAT and MILP routes recorded the same optimum (each is recomputed with its proof by
    ``tests/test_catalogue.py``), and Fig. 1's is the paper's printed one."""
    from hetopt.data import load_json

    expected = load_json(stem)["expected"]
    assert {"exact", "exact_milp"} <= set(expected) and len(set(expected.values())) == 1
    if stem == "hare2022_fig1":
        assert expected["exact"] == 8.5  # the paper's printed optimum of Fig. 1(c)
