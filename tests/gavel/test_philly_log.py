"""hetopt.gavel.traces.read_philly_job_log: the Philly cluster_job_log schema, on a hand-written file."""

import json
from pathlib import Path

import pytest

from hetopt.errors import InstanceError
from hetopt.gavel.traces import read_philly_job_log

LOG = Path(__file__).parent / "data" / "philly_job_log_small.json"


def test_reads_the_hand_written_log():
    jobs = read_philly_job_log(LOG)
    assert [j.jobid[-5:] for j in jobs] == ["10237", "10238", "10239", "10240"]  # sorted by submission
    killed, big, failed, empty = jobs
    assert killed.submitted == 0.0 and big.submitted == 3600.0 and empty.submitted == 9000.0
    assert killed.attempts == 2 and killed.gpus == 2 and killed.run_seconds == 3600.0
    assert killed.gpu_seconds == pytest.approx(1800 * 1 + 1800 * 2)
    assert big.gpus == 8 and big.gpu_hours == pytest.approx(16.0) and big.vc == "6214e9" and big.status == "Pass"
    assert failed.run_seconds == 0.0 and failed.gpus == 1  # an attempt with no end is not counted
    assert empty.attempts == 0 and empty.gpus == 0


def test_path_text_and_object_agree():
    text = LOG.read_text()
    assert read_philly_job_log(str(LOG)) == read_philly_job_log(text) == read_philly_job_log(json.loads(text))


@pytest.mark.parametrize("bad, match", [
    ({"jobid": "x"}, "expected a JSON list"),
    ([{"submitted_time": "2017-10-03 10:00:00"}], "no jobid"),
    ([{"jobid": "x", "submitted_time": "yesterday"}], "YYYY-MM-DD"),
    ([{"jobid": "x", "submitted_time": "2017-10-03 10:00:00",
       "attempts": [{"start_time": "2017-10-03 10:00:00", "end_time": "2017-10-03 09:00:00",
                     "detail": [{"ip": "m", "gpus": ["gpu0"]}]}]}], "ends before it starts"),
])
def test_bad_logs_are_named_errors(bad, match):
    with pytest.raises(InstanceError, match=match):
        read_philly_job_log(bad)
