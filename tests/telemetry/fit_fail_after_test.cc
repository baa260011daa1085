// fail_after_ms per error class (experiments/fit.h, FitMean): the mean of failed attempts'
// durations with a Student-t 95% interval, checked against a hand computation; the loader's
// `fail_after_fitted` beside an errors fault's fail_after_ms: kept, dumped back, described by
// scenarios/schema.json, and refused at its JSON pointer when wrong.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiments/fit.h"
#include "sim/scenario/fitted_values.h"
#include "sim/scenario/load.h"
#include "tests/scenario/mini_schema.h"

namespace drainsim::experiments {
namespace fit_fail_after_test {
namespace {

using Catch::Matchers::Contains;

TEST_CASE("fit: fail_after is the mean with a Student-t 95% interval", "[fit]") {
  // Mean 3, sample sd sqrt(2.5) = 1.5811; t(4) 97.5% = 2.776445; half 2.776445 * 1.5811 / sqrt 5.
  const MeanFit fit = FitMean({1, 2, 3, 4, 5});
  CHECK(fit.n == 5);
  CHECK(fit.mean == 3);
  REQUIRE(fit.interval);
  CHECK(fit.interval->low == Approx(3 - 1.963243).epsilon(1e-6));
  CHECK(fit.interval->high == Approx(3 + 1.963243).epsilon(1e-6));
  // Constant data: an interval of width 0; one value: no interval; never below 0 ms.
  CHECK(FitMean({200, 200, 200}).interval->low == 200);
  CHECK_FALSE(FitMean({7}).interval);
  CHECK(FitMean({0, 0, 0, 10}).interval->low == 0);
}

constexpr const char* kScenario =
    R"({"format_version": 1, "name": "fitted", "run": {"until_s": 100},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 5}}],
  "workers": {"count": 1},
  "faults": [{"type": "errors", "kind": "job", "probability": 0.1, "fail_after_ms": 205.1,
              "fitted": {"from": "a.json", "n": 600, "method": "Wilson", "interval": [0.08, 0.12]},
              "fail_after_fitted": {"from": "a.json", "n": 60, "method": "mean, Student t 95%",
                                    "interval": [201.5, 208.7]}}]})";

TEST_CASE("fit: the loader keeps `fail_after_fitted` and the dump writes it back",
          "[fit][scenario][dump]") {
  const scenario::FittedLoad loaded = scenario::LoadScenarioTextWithFitted(kScenario);
  for (const auto& p : loaded.load.problems) UNSCOPED_INFO(p.pointer << ": " << p.message);
  REQUIRE(loaded.load.ok());
  REQUIRE(loaded.fitted.size() == 2);
  CHECK(loaded.fitted.at("/faults/0").n == 600);
  const config::Fitted& after = loaded.fitted.at("/faults/0/fail_after_fitted");
  CHECK(after.n == 60);
  CHECK(after.intervals[0].second == std::pair{201.5, 208.7});
  const std::string dump = scenario::DumpCanonicalWithFitted(*loaded.load.scenario, loaded.fitted);
  CHECK_THAT(dump, Contains("\"fail_after_fitted\": {"));
  const scenario::FittedLoad again = scenario::LoadScenarioTextWithFitted(dump);
  REQUIRE(again.load.ok());
  CHECK(again.fitted == loaded.fitted);
  CHECK(scenario::DumpCanonicalWithFitted(*again.load.scenario, again.fitted) == dump);
  CHECK(scenario::DumpCanonicalWithFitted(*loaded.load.scenario, {}) ==
        scenario::DumpCanonical(*loaded.load.scenario));

  std::ifstream in(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/schema.json");
  const scenario::testing::MiniSchema schema(nlohmann::json::parse(in));
  const nlohmann::json dumped = nlohmann::json::parse(dump);
  CHECK(schema.Validate(dumped).empty());
  CHECK(schema.UndescribedKeys(dumped).empty());
}

TEST_CASE("fit: a bad `fail_after_fitted` is a problem at its pointer", "[fit][scenario]") {
  const auto problems = [](const std::string& from, const std::string& to) {
    std::string text = kScenario;
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    const scenario::LoadResult loaded = scenario::LoadScenarioText(text);
    REQUIRE_FALSE(loaded.ok());
    std::string all;
    for (const auto& p : loaded.problems) all += p.pointer + ": " + p.message + "\n";
    return all;
  };
  CHECK_THAT(problems("\"n\": 60,", "\"n\": -1,"), Contains("/faults/0/fail_after_fitted/n: "));
  CHECK_THAT(problems("[201.5, 208.7]", "[208.7, 201.5]"),
             Contains("/faults/0/fail_after_fitted/interval: must be [low, high]"));
  CHECK_THAT(problems("\"fail_after_ms\": 205.1,", ""),
             Contains("/faults/0/fail_after_fitted: needs fail_after_ms"));
  CHECK_THAT(problems("\"method\": \"mean, Student t 95%\"",
                      "\"method\": \"" + std::string(201, 'm') + "\""),
             Contains("/faults/0/fail_after_fitted/method"));
}

}  // namespace
}  // namespace fit_fail_after_test
}  // namespace drainsim::experiments
