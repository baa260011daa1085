"""drainsim.replicate() and drainsim.compare(): the replications.json of `drainsim run
--replications` and the compare.json of `drainsim compare`, byte for byte (through the module's
core, which returns the text) and as dicts (the public functions); the same for every jobs."""

import json

import pytest

import drainsim
from drainsim import _core
from conftest import cli_file

NO_JITTER = "scenarios/retry-storm-no-jitter.json"
FULL_JITTER = "scenarios/retry-storm-full-jitter.json"


@pytest.mark.parametrize("path", ["scenarios/monthly-rehearsal.json", NO_JITTER])
def test_replications_are_the_clis_replications_json(path, tmp_path):
    expected = cli_file(tmp_path, "replications.json", "run", path, "--replications", 4,
                        "--seed", 3)
    scenario = drainsim.load(path)
    text = _core.replications_json(scenario._core, 4, 3, 1, None, 0.95)
    assert text.encode() == expected
    assert drainsim.replicate(scenario, n=4, seed=3) == json.loads(expected)


def test_replications_with_metrics_and_confidence_as_the_cli(tmp_path):
    expected = cli_file(tmp_path, "replications.json", "run", NO_JITTER, "--replications", 5,
                        "--metric", "duplicate_executions,attempts",
                        "--confidence", "0.9")
    text = _core.replications_json(drainsim.load(NO_JITTER)._core, 5, None, 1,
                                   ["duplicate_executions", "attempts"], 0.9)
    assert text.encode() == expected
    summary = drainsim.replicate(NO_JITTER, n=5, metrics="duplicate_executions,attempts",
                                 confidence=0.9)
    assert [m["name"] for m in summary["metrics"]] == ["duplicate_executions", "attempts"]


def test_replicate_shape_and_jobs_make_no_difference():
    scenario = drainsim.load("scenarios/monthly-rehearsal.json")
    one = drainsim.replicate(scenario, n=6, seed=9, jobs=1)
    two = drainsim.replicate(scenario, n=6, seed=9, jobs=2)
    assert one == two
    assert {"experiment", "metrics", "runs", "expectations"} <= set(one)
    assert one["experiment"]["replications"] == 6
    assert len(one["runs"]) == 6
    assert len({run["seed"] for run in one["runs"]}) == 6  # derived seeds, one per replication
    assert len(one["expectations"]) == len(scenario.to_dict()["expect"])
    names = [m["name"] for m in one["metrics"]]
    assert "duplicate_executions" in names
    for metric in one["metrics"]:
        assert metric["runs"] == 6
        assert {"mean", "sd", "ci_low", "ci_high", "p50", "p95", "undefined"} <= set(metric)


def test_compare_is_the_clis_compare_json(tmp_path):
    expected = cli_file(tmp_path, "compare.json", "compare", NO_JITTER, FULL_JITTER,
                        "--replications", 5)
    a, b = drainsim.load(NO_JITTER), drainsim.load(FULL_JITTER)
    text = _core.compare_json(a._core, b._core, 5, None, 1, None, None, False, 0.95)
    assert text.encode() == expected
    assert drainsim.compare(a, b, n=5) == json.loads(expected)


def test_compare_with_a_gate_metrics_seed_and_independent_as_the_cli(tmp_path):
    expected = cli_file(tmp_path, "compare.json", "compare", NO_JITTER, FULL_JITTER,
                        "--replications", 4, "--seed", 8, "--metric", "attempts",
                        "--fail-if-worse", "duplicate_executions", "--independent")
    a, b = drainsim.load(NO_JITTER), drainsim.load(FULL_JITTER)
    text = _core.compare_json(a._core, b._core, 4, 8, 2, ["attempts"],
                              ["duplicate_executions"], True, 0.95)
    assert text.encode() == expected
    comparison = drainsim.compare(a, b, n=4, seed=8, jobs=2, metrics=["attempts"],
                                  fail_if_worse="duplicate_executions", independent=True)
    assert comparison == json.loads(expected)
    assert comparison["common_random_numbers"] is False
    assert [m["name"] for m in comparison["metrics"]] == ["attempts", "duplicate_executions"]
    assert comparison["gate"] is not None


def test_a_scenario_compared_with_itself_shows_no_difference():
    scenario = drainsim.load(NO_JITTER)
    comparison = drainsim.compare(scenario, scenario, n=4)
    assert comparison["replications"] == 4
    assert comparison["a"] == comparison["b"]
    assert comparison["gate"] is None
    for metric in comparison["metrics"]:
        assert metric["verdict"] in ("no significant difference", "undefined"), metric["name"]
        if metric["difference"]["mean"] is not None:
            assert metric["difference"]["mean"] == 0
