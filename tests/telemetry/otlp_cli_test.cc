// `drainsim run --format otlp` as a user runs it: both files written and listed, parsed as
// OTLP/JSON, naming the run report.json names, byte-identical on a second run; --help lists it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace otlp_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string ResourceString(const json& resource, const std::string& key) {
  for (const json& kv : resource.at("attributes")) {
    if (kv.at("key") == key) return kv.at("value").at("stringValue");
  }
  FAIL("no resource attribute " << key);
  return "";
}

TEST_CASE("drainsim run --format otlp: two OTLP/JSON files, deterministic", "[cli][otlp]") {
  const fs::path dir = FreshDir("otlp-run");
  const std::string scenario = (dir / "s.json").string();
  std::ofstream(scenario) << R"({"format_version": 1, "name": "otlp-cli", "seed": 3,
    "run": {"until_s": 120},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 20}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 10}}],
    "workers": {"count": 2},
    "faults": [{"type": "errors", "probability": 0.2}]})";
  const ProcessResult a =
      RunDrainsim({"run", scenario, "--format", "otlp,json", "--out", (dir / "a").string()});
  INFO(a.stderr_text);
  REQUIRE(a.exit_code == 0);
  CHECK(Contains(a.stdout_text, "report: " + (dir / "a" / "otlp-traces.json").string()));
  CHECK(Contains(a.stdout_text, "report: " + (dir / "a" / "otlp-metrics.json").string()));
  const std::string traces_text = ReadFile((dir / "a" / "otlp-traces.json").string());
  const json traces = json::parse(traces_text);
  const json metrics = json::parse(ReadFile((dir / "a" / "otlp-metrics.json").string()));
  const json report = json::parse(ReadFile((dir / "a" / "report.json").string()));
  const json& spans = traces["resourceSpans"][0]["scopeSpans"][0]["spans"];
  CHECK(static_cast<int64_t>(spans.size()) == report.at("attempts").get<int64_t>());
  CHECK(ResourceString(traces["resourceSpans"][0]["resource"], "drainsim.fingerprint") ==
        report.at("fingerprint"));
  CHECK(ResourceString(metrics["resourceMetrics"][0]["resource"], "drainsim.scenario.hash") ==
        report.at("scenario").at("hash"));

  const ProcessResult b =
      RunDrainsim({"run", scenario, "--format", "otlp", "--out", (dir / "b").string()});
  REQUIRE(b.exit_code == 0);
  CHECK(traces_text == ReadFile((dir / "b" / "otlp-traces.json").string()));
  CHECK(ReadFile((dir / "a" / "otlp-metrics.json").string()) ==
        ReadFile((dir / "b" / "otlp-metrics.json").string()));
  CHECK_FALSE(fs::exists(dir / "b" / "report.json"));
  fs::remove_all(dir);
}

TEST_CASE("drainsim run --help lists the otlp format and its files", "[cli][otlp]") {
  const ProcessResult help = RunDrainsim({"run", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(Contains(help.stdout_text, "otlp-traces.json"));
  CHECK(Contains(help.stdout_text, "otlp-metrics.json"));
  const ProcessResult bad = RunDrainsim({"run", "x.json", "--format", "otel"});
  CHECK(bad.exit_code == 2);
  CHECK(Contains(bad.stderr_text, "otlp"));
}

}  // namespace
}  // namespace otlp_cli_test
}  // namespace drainsim::testing
