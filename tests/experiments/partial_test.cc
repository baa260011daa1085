// Partial files of a sharded experiment and their merge (experiments/partial.h), and the
// experiment description they carry (experiments/experiment.h), without running a simulation:
// every refusal of a hand-edited, truncated or mismatched part names what is wrong.
#include "experiments/partial.h"

#include <catch2/catch.hpp>

namespace drainsim::experiments {
namespace partial_test {
namespace {

using nlohmann::json;

Experiment SweepExperiment() {
  Experiment e;
  e.command = "sweep";
  e.scenario_name = "small";
  e.scenario_path = "scenarios/small.json";
  e.scenario_hash = "0123456789abcdef";
  e.drainsim_version = "0.1.0 (commit dev)";
  e.base_seed = 18446744073709551615ULL;  // the largest seed survives JSON
  e.replications = 2;
  e.confidence = 0.9;
  e.metrics = {{"lost", Better::kLower}, {"drained_at_s", Better::kHigher}, {"p99", Better::kNone}};
  e.axes = {{"/workers/count", {json(1), json(2), json(3)}}};
  return e;
}

RunRecord Record(int64_t index) {
  RunRecord r;
  r.seed = 1000 + static_cast<uint64_t>(index);
  r.fingerprint = 0xfedcba9876543210ULL + static_cast<uint64_t>(index);
  r.values = {0.5 * static_cast<double>(index), std::nullopt, 1.0 / 3.0};
  return r;
}

// The part of shard `number`/`count` (from 1) of `e` with every run it holds.
Partial PartOf(const Experiment& e, int64_t number, int64_t count) {
  Partial p;
  p.experiment = e;
  p.shard = {number, count};
  for (int64_t run = 0; run < e.RunCount(); ++run) {
    if (!p.shard.Holds(run)) continue;
    p.indices.push_back(run);
    p.records.push_back(Record(run));
  }
  return p;
}

// ReadPartial's error for `document`, "" if it was read.
std::string ReadError(const json& document) {
  const base::Expected<Partial> part = ReadPartial(document.dump());
  if (part) return "";
  REQUIRE_FALSE(part.error().empty());
  return part.error();
}

// Merge's error, "" if it merged.
std::string MergeError(const std::vector<Partial>& parts, const std::vector<std::string>& names) {
  const base::Expected<Merged> merged = Merge(parts, names);
  return merged ? "" : merged.error();
}

json PartJson(const Partial& p) { return json::parse(PartialText(p)); }

TEST_CASE("a partial file reads back to the same experiment, shard and records",
          "[experiments][partial]") {
  Experiment e = SweepExperiment();
  e.stop = CiStop{0.05, 40, true};
  e.command = "run";
  e.axes.clear();
  e.expectations = {"lost == 0", "attempts <= 14000"};
  e.expectation_columns = {{"== 0", "count"}, {"<= 14000", "count"}};
  Partial p = PartOf(e, 2, 2);  // the second of two shards: run 1
  for (RunRecord& r : p.records) {
    r.passed = {true, false};
    r.measured = {0.0, std::nullopt};
  }
  REQUIRE(p.indices == std::vector<int64_t>{1});
  const base::Expected<Partial> back = ReadPartial(PartialText(p));
  REQUIRE(back);
  CHECK(back->experiment == e);
  CHECK(back->shard == p.shard);
  CHECK(back->indices == p.indices);
  CHECK(back->records == p.records);
  CHECK(PartialFileName({2, 8}) == "part-2-of-8.json");
}

TEST_CASE("a sweep's grid point values are row-major, the last axis fastest",
          "[experiments][partial]") {
  Experiment e = SweepExperiment();
  e.axes.push_back({"/run/until_s", {json(60), json(120)}});
  CHECK(e.PointCount() == 6);
  CHECK(e.RunCount() == 12);
  CHECK(e.PointValues(0) == std::vector<json>{1, 60});
  CHECK(e.PointValues(1) == std::vector<json>{1, 120});
  CHECK(e.PointValues(2) == std::vector<json>{2, 60});
  CHECK(e.PointValues(5) == std::vector<json>{3, 120});
  const base::Expected<Partial> back = ReadPartial(PartialText(PartOf(e, 1, 1)));
  REQUIRE(back);
  CHECK(back->experiment.axes == e.axes);
}

TEST_CASE("ReadPartial refuses what is not a partial file of this format",
          "[experiments][partial]") {
  const base::Expected<Partial> truncated = ReadPartial("{\"drainsim_partial\": 1,");
  REQUIRE_FALSE(truncated);
  CHECK(truncated.error().rfind("not JSON: ", 0) == 0);
  CHECK(ReadError(json::array()) == "not a partial result (written by --shard)");
  CHECK(ReadError(json{{"runs", json::array()}}) == "not a partial result (written by --shard)");

  json document = PartJson(PartOf(SweepExperiment(), 1, 2));
  CHECK(document["shard"] == json{{"number", 1}, {"count", 2}});
  // Version 1 numbered shards from 0: refused rather than read one shard off.
  document["drainsim_partial"] = 1;
  CHECK(ReadError(document) == "partial format version 1, this drainsim reads version 2");
  document["drainsim_partial"] = "2";
  CHECK(ReadError(document).rfind("not a partial result: ", 0) == 0);

  document = PartJson(PartOf(SweepExperiment(), 1, 2));
  document.erase("shard");
  CHECK(ReadError(document).rfind("not a partial result: ", 0) == 0);
}

TEST_CASE("ReadPartial refuses a bad shard and runs that do not belong to it",
          "[experiments][partial]") {
  const json good = PartJson(PartOf(SweepExperiment(), 2, 2));
  REQUIRE(ReadError(good).empty());
  for (const json& shard : {json{{"number", 3}, {"count", 2}}, json{{"number", 0}, {"count", 2}},
                            json{{"number", -1}, {"count", 2}}, json{{"number", 1}, {"count", 0}},
                            json{{"number", 1}, {"count", 1'000'001}}}) {
    json document = good;
    document["shard"] = shard;
    CHECK(ReadError(document) == "bad shard " + shard.dump());
  }

  json document = good;
  document["runs"][0]["index"] = 0;  // shard 2/2 holds the odd runs
  CHECK(ReadError(document) == "run index 0 does not belong in shard 2/2 (or is out of order)");
  document = good;
  document["runs"][0]["index"] = 7;  // 6 runs: 3 points, 2 replications
  CHECK(ReadError(document) == "run index 7 does not belong in shard 2/2 (or is out of order)");
  document = good;
  document["runs"][1]["index"] = 1;  // twice the same run
  CHECK(ReadError(document) == "run index 1 does not belong in shard 2/2 (or is out of order)");
}

TEST_CASE("ReadPartial refuses a run record that does not fit the experiment",
          "[experiments][partial]") {
  const json good = PartJson(PartOf(SweepExperiment(), 1, 1));
  for (const char* field : {"seed", "fingerprint"}) {
    for (const char* bad : {"", "12x", "-1", "99999999999999999999999"}) {
      json document = good;
      document["runs"][3][field] = bad;
      CHECK(ReadError(document) == "run 3: bad seed or fingerprint");
    }
  }
  json document = good;
  document["runs"][2]["values"].push_back(1.5);
  CHECK(ReadError(document) ==
        "run 2 has 4 values and 0 verdicts, the experiment 3 metrics and 0 expectations");
  document = good;
  document["runs"][2]["passed"] = {true};
  CHECK(ReadError(document) ==
        "run 2 has 3 values and 1 verdicts, the experiment 3 metrics and 0 expectations");
  document = good;
  document["runs"][0]["values"][0] = "0.5";
  CHECK(ReadError(document).rfind("not a partial result: ", 0) == 0);
}

TEST_CASE("ReadPartial refuses an experiment description this binary did not write",
          "[experiments][partial]") {
  const json good = PartJson(PartOf(SweepExperiment(), 1, 1));
  auto with = [&](const json::json_pointer& pointer, const json& value) {
    json document = good;
    document[pointer] = value;
    return ReadError(document);
  };
  CHECK(with("/experiment/command"_json_pointer, "tune") == "unknown experiment command 'tune'");
  CHECK(with("/experiment/metrics/0/better"_json_pointer, "smaller") ==
        "unknown direction of better 'smaller'");
  CHECK(with("/experiment/vary/0/values"_json_pointer, json::array()) ==
        "axis /workers/count has no values");
  const std::string limits = "replications must be in 1..1000000 and the confidence in [0.5, 1)";
  CHECK(with("/experiment/replications"_json_pointer, 0) == limits);
  CHECK(with("/experiment/replications"_json_pointer, 1'000'001) == limits);
  CHECK(with("/experiment/confidence"_json_pointer, 1.0) == limits);
  CHECK(with("/experiment/confidence"_json_pointer, 0.4) == limits);
  CHECK(with("/experiment/command"_json_pointer, "run") ==
        "a replicated run has no grid, and this one varies /workers/count");
  json big_axis = json::array();
  for (int v = 0; v < 5'000'001; v += 1000) big_axis.push_back(v);  // 5001 values
  json document = good;
  document["experiment"]["replications"] = 1000;
  document["experiment"]["vary"] = {{{"pointer", "/a"}, {"values", big_axis}},
                                    {{"pointer", "/b"}, {"values", {1, 2, 3}}}};
  CHECK(ReadError(document) == "more than 10000000 runs");
  document["experiment"]["vary"][1]["values"] = {1};  // 5,001,000 runs: allowed
  CHECK(ReadError(document).empty());                 // its six runs are 0..5, all of shard 1/1
  CHECK(with("/experiment/until_ci_width"_json_pointer, json{{"width", 0.1}})
            .rfind("not an experiment description: ", 0) == 0);
  CHECK(with("/experiment/scenario"_json_pointer, "small")
            .rfind("not an experiment description: ", 0) == 0);
}

TEST_CASE("Merge puts every run back in index order whatever the order of the parts",
          "[experiments][partial]") {
  const Experiment e = SweepExperiment();
  const std::vector<Partial> parts = {PartOf(e, 3, 4), PartOf(e, 1, 4), PartOf(e, 4, 4),
                                      PartOf(e, 2, 4)};
  const base::Expected<Merged> merged = Merge(parts, {"c", "a", "d", "b"});
  REQUIRE(merged);
  CHECK(merged->experiment == e);
  REQUIRE(merged->records.size() == 6);
  for (int64_t i = 0; i < 6; ++i) CHECK(merged->records[static_cast<size_t>(i)] == Record(i));
}

TEST_CASE("Merge refuses parts that do not make one whole experiment, naming the file",
          "[experiments][partial]") {
  const Experiment e = SweepExperiment();
  CHECK(MergeError({}, {}) == "no parts to merge");

  Experiment other = e;
  other.drainsim_version = "0.1.0 (commit abc)";
  CHECK(MergeError({PartOf(e, 1, 2), PartOf(other, 2, 2)}, {"a.json", "b.json"})
            .rfind("b.json is a part of another experiment than a.json (", 0) == 0);

  CHECK(MergeError({PartOf(e, 1, 2), PartOf(e, 2, 3)}, {"a.json", "b.json"}) ==
        "b.json is shard 2/3, a.json one of 2");

  CHECK(MergeError({PartOf(e, 1, 2), PartOf(e, 1, 2)}, {"a.json", "b.json"}) ==
        "b.json and a.json are both shard 1/2");

  CHECK(MergeError({PartOf(e, 2, 4), PartOf(e, 4, 4)}, {"a.json", "b.json"}) ==
        "missing shard(s) 1, 3 of 4");

  Partial truncated = PartOf(e, 2, 2);  // runs 1, 3, 5
  truncated.indices.pop_back();
  truncated.records.pop_back();
  CHECK(MergeError({PartOf(e, 1, 2), truncated}, {"a.json", "b.json"}) ==
        "b.json lacks run 5 of its shard (an incomplete part)");
}

TEST_CASE("ParseShard reads i/N and refuses anything else", "[experiments][partial]") {
  const base::Expected<Shard> shard = ParseShard("3/8");
  REQUIRE(shard);
  CHECK(*shard == Shard{3, 8});
  CHECK(shard->Holds(2));  // the third shard holds runs 2, 10, 18, ...
  CHECK(shard->Holds(10));
  CHECK_FALSE(shard->Holds(3));
  CHECK(ParseShard("1/1"));
  CHECK(ParseShard("8/8"));
  for (const char* text : {"3", "/8", "3/", "a/8", "3/8x", "3 /8", "+3/8", "3/8/1"}) {
    INFO(text);
    const base::Expected<Shard> refused = ParseShard(text);
    REQUIRE_FALSE(refused);
    CHECK(refused.error() ==
          std::string("'") + text + "' is not i/N (for example 1/4: the first of four shards)");
  }
  // A 0-based index, as Kubernetes and Slurm's --array=0-7 hand them out, gets its own message.
  const base::Expected<Shard> zero = ParseShard("0/8");
  REQUIRE_FALSE(zero);
  CHECK(zero.error() ==
        "'0/8': shards are numbered from 1, so i is in 1..N (the first of 8 is 1/8)");
  for (const char* text : {"9/8", "-1/8", "0/0", "1/0", "0/1000001", "1/1000001"}) {
    INFO(text);
    const base::Expected<Shard> refused = ParseShard(text);
    REQUIRE_FALSE(refused);
    CHECK(refused.error() ==
          std::string("'") + text +
              "': need 1 <= N <= 1000000 and 1 <= i <= N (shards are numbered from 1)");
  }
}

}  // namespace
}  // namespace partial_test
}  // namespace drainsim::experiments
