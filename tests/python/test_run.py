"""drainsim.run(): the report is the report.json `drainsim run` writes, byte for byte; the same
seed gives the same bytes; the series is the report's, as a DataFrame or a dict of lists."""

import pathlib
import sys

import pytest

import drainsim
from conftest import cli_file, shipped_scenarios

# One seed per shipped scenario: the byte-for-byte property is the same for every seed, and
# test_the_same_seed_twice_... below checks that another seed is another run (one seed halves
# the test's 47 s of CI time).
SEEDS = (2,)


@pytest.mark.parametrize("path", shipped_scenarios())
def test_report_is_the_clis_report_json_byte_for_byte(path, tmp_path):
    scenario = drainsim.load(path)
    for seed in SEEDS:
        expected = cli_file(tmp_path / str(seed), "report.json", "run", path, "--seed", seed,
                            "--format", "json")
        result = drainsim.run(scenario, seed=seed)
        assert result.report_json.encode() == expected, f"{path} --seed {seed}"
        assert result.report["seed"] == seed
        assert result.report["scenario"]["path"] == path


def test_no_seed_is_the_scenarios_own_seed_as_in_the_cli(tmp_path):
    path = "scenarios/monthly-rehearsal.json"
    expected = cli_file(tmp_path, "report.json", "run", path)
    result = drainsim.run(path)  # a path is loaded on the way
    assert result.report_json.encode() == expected
    assert result.report["seed"] == drainsim.load(path).seed == 20261129


def test_a_pathlib_path_is_named_as_the_cli_names_it(tmp_path):
    path = pathlib.Path("scenarios/retry-storm-no-jitter.json")
    expected = cli_file(tmp_path, "report.json", "run", path, "--seed", 5)
    assert drainsim.run(drainsim.load(path), seed=5).report_json.encode() == expected


def test_the_same_seed_twice_gives_the_same_bytes_and_another_seed_another_run():
    scenario = drainsim.load("scenarios/monthly-rehearsal.json")
    first = drainsim.run(scenario, seed=11)
    again = drainsim.run(scenario, seed=11)
    other = drainsim.run(scenario, seed=12)
    assert first.report_json == again.report_json
    assert first.report == again.report
    assert first.report["fingerprint"] != other.report["fingerprint"]


def test_a_dict_runs_as_its_file_does_but_is_named_dict():
    path = "scenarios/retry-storm-full-jitter.json"
    from_file = drainsim.load(path)
    from_dict = drainsim.load(from_file.to_dict())
    assert from_dict.path == drainsim.DICT_PATH == "<dict>"
    assert from_dict.hash == from_file.hash
    assert drainsim.load(from_file.canonical()).hash == from_file.hash
    a = drainsim.run(from_file, seed=3).report
    b = drainsim.run(from_dict, seed=3).report
    assert b["scenario"]["path"] == "<dict>"
    assert b["fingerprint"] == a["fingerprint"]
    for report in (a, b):
        report["scenario"].pop("path")
    assert a == b


def test_an_edited_dict_changes_the_run():
    doc = drainsim.load("scenarios/monthly-rehearsal.json").to_dict()
    doc["drains"][0]["rate_per_s"] = 5
    slower = drainsim.run(doc, seed=1).report
    faster = drainsim.run("scenarios/monthly-rehearsal.json", seed=1).report
    # 500 messages replayed at 5/s rather than 20/s.
    assert slower["time_to_empty_s"] > 3 * faster["time_to_empty_s"]


def test_series_is_the_reports_series_as_a_dataframe_with_pandas():
    pandas = pytest.importorskip("pandas")
    result = drainsim.run("scenarios/cleanup-0200.json", seed=1)
    columns = result.report["series"]
    assert isinstance(result.series, pandas.DataFrame)
    assert list(result.series.columns) == list(columns)
    assert len(result.series) == len(columns["t_s"]) > 10
    assert result.series["depth"].tolist() == columns["depth"]


def test_series_is_a_dict_of_lists_without_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    result = drainsim.run("scenarios/cleanup-0200.json", seed=1)
    assert result.series == result.report["series"]
    assert result.series is not result.report["series"]
    assert all(isinstance(v, list) for v in result.series.values())


def test_passed_is_the_clis_exit_code(tmp_path):
    assert drainsim.run("scenarios/monthly-rehearsal.json").passed
    # full-vocabulary.json fails an expectation at its own seed: drainsim run exits 1.
    failing = drainsim.run("scenarios/full-vocabulary.json")
    assert not failing.passed
    assert any(not e["passed"] for e in failing.report["expectations"])


def test_the_version_is_the_clis():
    from conftest import cli
    version = cli("--version").stdout.decode().split()[1]
    assert drainsim.__version__ == version
