// Failure windows end to end: a scenario whose permanent errors (probability 0.2) strike only in
// [200 s, 400 s) is run with --format otlp and fitted; the fit must reject a constant probability
// (the statistic and p-value in the summary and the method), write one errors fault with
// from_s/until_s within one bin of 200 and 400 and the truth inside its Wilson interval, and
// --into must give a scenario that loads.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"
#include "tests/telemetry/fit_cli_helpers.h"

namespace drainsim::testing {
namespace fit_windows_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kTruth = R"({"format_version": 1, "name": "window-truth", "seed": 29,
  "run": {"until_s": 620},
  "kinds": {"job": {"handler": {"cpu_ms": {"lognormal": {"mu": 2, "sigma": 0.4}}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 20, "until_s": 600}}],
  "workers": {"count": 8, "prefetch": 1},
  "faults": [{"type": "errors", "kind": "job", "probability": 0.2, "error": "permanent",
              "from_s": 200, "until_s": 400}]})";

TEST_CASE("fit round trip: an errors fault active only from 200 s to 400 s is found",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-windows");
  const std::string truth = WriteFile(dir / "truth.json", kTruth);
  const std::string traces = RunAsOtlp(truth, dir);
  const ProcessResult fit = FitTraces(traces);
  CHECK(Contains(fit.stderr_text, "a constant probability is rejected at 5%; 3 window(s)"));
  const json fragment = json::parse(fit.stdout_text);
  const json& faults = fragment.at("faults");
  REQUIRE(faults.size() == 1);  // the windows before and after have no failure: no fault
  const json& fault = faults[0];
  INFO(fault.dump());
  const std::string method = fault["fitted"]["method"];
  CHECK(method.size() <= 200);  // the loader's cap on provenance strings
  std::smatch bins;
  REQUIRE(std::regex_search(method, bins, std::regex("bins of ([0-9.]+) s, p ([0-9.e-]+)")));
  const double bin_s = std::stod(bins[1]);
  CHECK(std::stod(bins[2]) < 1e-6);
  CHECK(std::abs(fault["from_s"].get<double>() - 200) <= bin_s);
  CHECK(std::abs(fault["until_s"].get<double>() - 400) <= bin_s);
  CHECK(fault["fitted"]["interval"][0].get<double>() <= 0.2);
  CHECK(0.2 <= fault["fitted"]["interval"][1].get<double>());

  const std::string merged = (dir / "merged.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", truth, "-o", merged});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const ProcessResult check = RunDrainsim({"check", merged});
  INFO(check.stderr_text);
  CHECK(check.exit_code == 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_windows_cli_test
}  // namespace drainsim::testing
