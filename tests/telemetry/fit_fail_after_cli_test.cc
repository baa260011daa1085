// fail_after_ms per error class end to end: a scenario whose transient errors fail after 200 ms
// and permanent ones after 50 ms, each after an exponential validation of mean 5 ms, is run with
// --format otlp and fitted; each errors fault's fail_after_ms must hold the truth (the time to
// fail plus the mean validation, 205 and 55 ms: the fragment's handler has no validation step)
// in its Student-t 95% interval, and --into gives a scenario whose dump keeps
// `fail_after_fitted`.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"
#include "tests/telemetry/fit_cli_helpers.h"

namespace drainsim::testing {
namespace fit_fail_after_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kTruth = R"({"format_version": 1, "name": "fail-after-truth", "seed": 23,
  "run": {"until_s": 330},
  "kinds": {"job": {"handler": {"validate_ms": {"exponential": {"mean": 5}},
                                "cpu_ms": {"lognormal": {"mu": 2, "sigma": 0.4}}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 20, "until_s": 300}}],
  "workers": {"count": 8, "prefetch": 1},
  "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
            "classes": {"transient": {"attempts_max": 3}}},
  "faults": [{"type": "errors", "kind": "job", "probability": 0.1, "error": "transient",
              "fail_after_ms": 200},
             {"type": "errors", "kind": "job", "probability": 0.05, "error": "permanent",
              "fail_after_ms": 50}]})";

void RequireFailAfter(const json& fault, const std::string& error, double truth_ms) {
  INFO(fault.dump());
  CHECK(fault["error"] == error);
  const json& fitted = fault.at("fail_after_fitted");
  const json& interval = fitted.at("interval");
  CHECK(interval[0].get<double>() <= truth_ms);
  CHECK(truth_ms <= interval[1].get<double>());
  CHECK(interval[1].get<double>() - interval[0].get<double>() < 2);  // informative: a few ms
  CHECK(interval[0].get<double>() <= fault["fail_after_ms"].get<double>());
  CHECK(fault["fail_after_ms"].get<double>() <= interval[1].get<double>());
  CHECK(fitted["method"] == "mean of failed attempts' durations, Student t 95%");
  CHECK(fitted["n"].get<int64_t>() > 200);
}

TEST_CASE("fit round trip: fail_after_ms per error class within its Student-t interval",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-fail-after");
  const std::string truth = WriteFile(dir / "truth.json", kTruth);
  const std::string traces = RunAsOtlp(truth, dir);
  const ProcessResult fit = FitTraces(traces);
  const json fragment = json::parse(fit.stdout_text);
  const json& faults = fragment.at("faults");
  REQUIRE(faults.size() == 2);
  RequireFailAfter(faults[0], "transient", 205);
  RequireFailAfter(faults[1], "permanent", 55);
  CHECK(Contains(fit.stderr_text, "    fails after (ms): mean "));

  const std::string merged = (dir / "merged.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", truth, "-o", merged});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const ProcessResult dump = RunDrainsim({"dump", merged});
  REQUIRE(dump.exit_code == 0);
  const json dumped = json::parse(dump.stdout_text);
  CHECK(dumped["faults"][0]["fail_after_fitted"] == faults[0]["fail_after_fitted"]);
  CHECK(dumped["faults"][1]["fail_after_ms"].get<double>() ==
        Approx(faults[1]["fail_after_ms"].get<double>()).margin(1e-3));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_fail_after_cli_test
}  // namespace drainsim::testing
