"""Errors: a scenario that does not load raises drainsim.ScenarioError with every problem's JSON
pointer and the lines `drainsim check` prints; plausibility warnings are Python warnings; bad
keyword values raise ValueError or TypeError before anything runs."""

import math
import warnings

import pytest

import drainsim
from conftest import SOURCE_DIR, cli

BAD_INPUTS = "tests/bad_inputs"


def manifest_rows():
    """(path, text the problems must hold) of every row of the bad-input corpus's manifest."""
    rows = []
    for line in (SOURCE_DIR / BAD_INPUTS / "MANIFEST.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, text = line.split("\t")
            rows.append((f"{BAD_INPUTS}/{name}", text))
    return rows


@pytest.mark.parametrize("path,text", manifest_rows())
def test_every_bad_input_raises_what_drainsim_check_prints(path, text):
    with pytest.raises(drainsim.ScenarioError) as caught:
        drainsim.load(path)
    error = caught.value
    assert isinstance(error, ValueError)
    assert text in str(error)
    check = cli("check", path)
    assert check.returncode == 2
    assert str(error) + "\n" == check.stderr.decode()
    # Each problem's line is "FILE: /pointer: message", or "FILE: message" for the document.
    lines = str(error).split("\n")
    assert len(lines) == len(error.problems) >= 1
    for line, (pointer, message) in zip(lines, error.problems):
        assert line == (f"{path}: {pointer}: {message}" if pointer else f"{path}: {message}")


def test_three_mistakes_are_three_problems_at_their_pointers():
    with pytest.raises(drainsim.ScenarioError) as caught:
        drainsim.load(f"{BAD_INPUTS}/three_mistakes.json")
    pointers = [pointer for pointer, _ in caught.value.problems]
    assert pointers == ["/broker/requeue_on_crash", "/workers/concurrency",
                        "/producers/0/poisson/rate_per_sec"]


def test_a_bad_dict_names_the_pointer_and_dict():
    doc = drainsim.load("scenarios/monthly-rehearsal.json").to_dict()
    doc["drains"][0]["rate_per_s"] = -5
    doc["workers"]["count"] = 0
    with pytest.raises(drainsim.ScenarioError) as caught:
        drainsim.load(doc)
    problems = dict(caught.value.problems)
    assert set(problems) == {"/drains/0/rate_per_s", "/workers/count"}
    assert "-5" in problems["/drains/0/rate_per_s"]
    assert f"<dict>: /drains/0/rate_per_s: {problems['/drains/0/rate_per_s']}" in str(caught.value)


def test_a_dict_with_nan_is_a_scenario_error():
    doc = drainsim.load("scenarios/monthly-rehearsal.json").to_dict()
    doc["drains"][0]["rate_per_s"] = math.nan
    with pytest.raises(drainsim.ScenarioError) as caught:
        drainsim.load(doc)
    assert caught.value.problems[0][0] == ""


def test_a_missing_file_is_a_problem_of_the_whole_document():
    with pytest.raises(drainsim.ScenarioError) as caught:
        drainsim.load("scenarios/no-such-scenario.json")
    assert caught.value.problems == [("", "no such file")]
    assert str(caught.value) == "scenarios/no-such-scenario.json: no such file"


def test_plausibility_warnings_are_python_warnings_with_pointers():
    path = "scenarios/preset-bullmq.json"
    with pytest.warns(drainsim.ScenarioWarning) as caught:
        scenario = drainsim.load(path)
    assert [pointer for pointer, _ in scenario.warnings] == ["/broker/visibility_timeout_s"]
    assert [str(w.message) + "\n" for w in caught] == [cli("check", path).stderr.decode()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drainsim.load("scenarios/monthly-rehearsal.json")  # no warning at all


def test_bad_values_raise_before_anything_runs():
    scenario = drainsim.load("scenarios/cleanup-0200.json")
    other = drainsim.load("scenarios/healthy-deep-queue.json")
    with pytest.raises(ValueError, match="must be in 1..1000000"):
        drainsim.replicate(scenario, n=0)
    with pytest.raises(ValueError, match="jobs must be in 1..256"):
        drainsim.replicate(scenario, n=2, jobs=0)
    with pytest.raises(ValueError, match=r"confidence must be in \[0.5, 1\)"):
        drainsim.compare(scenario, scenario, n=2, confidence=1.0)
    with pytest.raises(ValueError, match="metric no_such_metric"):
        drainsim.replicate(scenario, n=2, metrics=["no_such_metric"])
    with pytest.raises(ValueError, match="metric no_such_metric"):
        drainsim.compare(scenario, other, n=2, metrics="time_to_empty_s,no_such_metric")
    with pytest.raises(ValueError, match="fail-if-worse"):
        drainsim.compare(scenario, other, n=2, fail_if_worse=["published"])
    with pytest.raises(ValueError, match="seed must be in"):
        drainsim.run(scenario, seed=-1)
    with pytest.raises(TypeError, match="seed must be an int"):
        drainsim.run(scenario, seed="7")
    with pytest.raises(TypeError):
        drainsim.load(42)
