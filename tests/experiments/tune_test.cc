// `drainsim tune` on a scenario whose answer is known: 1000 messages drip-fed from the DLQ at R
// per second, one every 1/R s from the drain's start, each handled in 1 ms, so the DLQ is empty
// after time_to_empty_s = 999 / R + 0.001 s, in every run (nothing in it is random).
#include "experiments/tune.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "reports/tune_report.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace tune_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kDrip = R"({"format_version": 1, "name": "drip-1000", "seed": 3,
  "run": {"until_s": 3000, "sample_every_s": 10},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
  "backlog": [{"where": "dlq", "kind": "job", "count": 1000, "reason": "max_attempts"}],
  "workers": {"count": 2},
  "drains": [{"start_at_s": 10, "select": {"reasons": ["max_attempts"]}, "strategy": "drip",
              "rate_per_s": 10}]})";

ProcessResult Tune(const fs::path& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"tune",    WriteFile(dir / "drip.json", kDrip),
                                   "--param", "/drains/0/rate_per_s",
                                   "--out",   (dir / "out").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult r = RunDrainsim(args);
  INFO(r.stderr_text);
  return r;
}

TEST_CASE("tune --minimize finds the slowest drip that empties the DLQ in 100 s",
          "[experiments][cli][tune]") {
  const fs::path dir = FreshDir("tune-min");
  // 999 / R + 0.001 <= 100 iff R >= 9.9901: on the 0.01 grid, 10 holds and 9.99 fails.
  const ProcessResult r =
      Tune(dir, {"--range", "1:100", "--resolution", "0.01", "--minimize", "--constraint",
                 "time_to_empty_s<=100", "--replications", "2"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stdout_text.find("recommended: /drains/0/rate_per_s = 10\n") != std::string::npos);
  CHECK(r.stdout_text.find("the next value, 9.99 (-0.01), fails: time_to_empty_s upper bound") !=
        std::string::npos);
  const json report = json::parse(ReadFile((dir / "out" / "tune.json").string()));
  CHECK(report["found"] == true);
  CHECK(report["recommended"] == 10.0);
  CHECK(report["first_failing"] == 9.99);
  CHECK(report["evaluations"].size() <= 20);
  CHECK(fs::exists(dir / "out" / "tune.md"));
  fs::remove_all(dir);
}

TEST_CASE("tune --maximize finds the fastest drip that still takes 50 s",
          "[experiments][cli][tune]") {
  const fs::path dir = FreshDir("tune-max");
  // 999 / R + 0.001 >= 50 iff R <= 19.9804: on the 0.01 grid, 19.98 holds and 19.99 fails.
  const ProcessResult r =
      Tune(dir, {"--range", "1:100", "--resolution", "0.01", "--maximize", "--constraint",
                 "time_to_empty_s >= 50", "--constraint", "refilled==0", "--jobs", "2"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stdout_text.find("recommended: /drains/0/rate_per_s = 19.98\n") != std::string::npos);
  const json report = json::parse(ReadFile((dir / "out" / "tune.json").string()));
  CHECK(report["first_failing"] == 19.99);
  CHECK(report["replications"] == 10);
  fs::remove_all(dir);
}

TEST_CASE("tune exits 1 when no value satisfies the constraints", "[experiments][cli][tune]") {
  const fs::path dir = FreshDir("tune-none");
  const ProcessResult r = Tune(dir, {"--range", "1:100", "--maximize", "--constraint",
                                     "time_to_empty_s<=1", "--replications", "2"});
  CHECK(r.exit_code == 1);
  CHECK(r.stdout_text.find("no value in [1, 100] satisfied every constraint") != std::string::npos);
  CHECK(fs::exists(dir / "out" / "tune.json"));
  fs::remove_all(dir);
}

TEST_CASE("tune: bad ranges, parameters and constraints exit 2 before anything runs",
          "[experiments][cli][tune]") {
  const fs::path dir = FreshDir("tune-bad");
  ProcessResult r = Tune(dir, {"--range", "0:100", "--maximize", "--constraint", "lost==0"});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--param /drains/0/rate_per_s=0: /drains/0/rate_per_s: ") !=
        std::string::npos);
  r = Tune(dir, {"--range", "5:1", "--maximize", "--constraint", "lost==0"});
  CHECK(r.exit_code == 2);
  r = Tune(dir, {"--range", "1:5", "--constraint", "lost==0"});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--maximize") != std::string::npos);
  r = Tune(dir, {"--range", "1:5", "--maximize", "--constraint", "lost<0"});
  CHECK(r.exit_code == 2);
  r = Tune(dir, {"--range", "1:5", "--maximize", "--constraint", "live_p99_ms<=250"});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("database.live_traffic") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("constraints parse as METRIC op NUMBER", "[experiments][tune]") {
  base::Expected<experiments::Constraint> c =
      experiments::ParseConstraint("live_p99_ms@drains<=250");
  REQUIRE(c.ok());
  CHECK(c->metric == "live_p99_ms@drains");
  CHECK(c->op == experiments::Constraint::Op::kAtMost);
  CHECK(c->bound == 250);
  CHECK(reports::ConstraintText(*c) == "live_p99_ms@drains <= 250");
  c = experiments::ParseConstraint(" acked >= 2900.5 ");
  REQUIRE(c.ok());
  CHECK(c->op == experiments::Constraint::Op::kAtLeast);
  CHECK(c->bound == 2900.5);
  CHECK(experiments::ParseConstraint("refilled==0")->op == experiments::Constraint::Op::kEquals);
  CHECK_FALSE(experiments::ParseConstraint("refilled=0").ok());
  CHECK_FALSE(experiments::ParseConstraint("<=3").ok());
  CHECK_FALSE(experiments::ParseConstraint("lost<=x").ok());
  CHECK(experiments::ParseConstraint("lost<=x").error() ==
        "'lost<=x': need a metric name and a number, as in live_p99_ms<=250");
  CHECK(experiments::DefaultResolution(1, 500) == 1);
  CHECK(experiments::DefaultResolution(1, 100) == Approx(0.1));
  CHECK(experiments::DefaultResolution(0, 5000) == 10);
}

}  // namespace
}  // namespace tune_test
}  // namespace drainsim::testing
