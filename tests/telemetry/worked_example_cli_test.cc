// The README's worked example of `drainsim fit` and `drainsim backtest` (files shipped under
// scenarios/telemetry/, commands in scenarios/telemetry/README.md), run as documented from the
// source directory, so that it cannot rot:
//  - the shipped OTLP traces are still what `drainsim run --format otlp` makes of the shipped
//    scenario (else the test prints the command that regenerates them);
//  - each documented command exits as documented, every line of output the README shows (but
//    for "...", "report:" and "fitted:" lines, whose paths are the reader's) is printed, word for
//    word, and the fit of the example holds every number of its scenario inside its interval.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace worked_example_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSource = DRAINSIM_SOURCE_DIR;
const std::string kScenario = "scenarios/telemetry/fit-example.json";
const std::string kTraces = "scenarios/telemetry/fit-example.otlp-traces.json";

// The output lines the README shows after the line "$ COMMAND..." (its continuation lines, "...",
// and lines naming output paths left out). Empty when the README has no such block.
std::vector<std::string> DocumentedOutput(const std::string& command) {
  std::istringstream readme(ReadFile(kSource + "/README.md"));
  std::vector<std::string> lines;
  bool in_block = false;
  for (std::string line; std::getline(readme, line);) {
    if (!in_block) {
      in_block = line.rfind("$ " + command, 0) == 0;
      continue;
    }
    if (line.rfind("```", 0) == 0) break;
    const bool skipped = line.rfind("    ", 0) == 0 || line == "..." ||
                         line.rfind("  ...", 0) == 0 || line.rfind("report: ", 0) == 0 ||
                         line.rfind("fitted: ", 0) == 0;
    if (!skipped) lines.push_back(line);
  }
  return lines;
}

void RequireDocumentedOutput(const std::string& command, const std::string& output) {
  const std::vector<std::string> documented = DocumentedOutput(command);
  INFO("README block of `" << command << "`");
  REQUIRE(documented.size() >= 3);
  for (const std::string& line : documented) {
    INFO("documented: " << line << "\nprinted:\n" << output);
    CHECK(Contains(output, line + "\n"));
  }
}

void RequireWithin(const std::string& what, double truth, const json& interval) {
  INFO(what << ": truth " << truth << ", interval " << interval.dump());
  CHECK(interval[0].get<double>() <= truth);
  CHECK(truth <= interval[1].get<double>());
}

TEST_CASE("worked example: the shipped traces are the shipped scenario's run", "[cli][fit]") {
  const fs::path dir = FreshDir("worked-example-run");
  const ProcessResult run =
      RunDrainsim({"run", kScenario, "--format", "otlp", "--out", (dir / "out").string()}, kSource);
  INFO(run.stderr_text);
  REQUIRE(run.exit_code == 0);
  RequireDocumentedOutput("drainsim run scenarios/telemetry/fit-example.json", run.stdout_text);
  const auto spans = [](const std::string& path) {
    return json::parse(ReadFile(path))["resourceSpans"][0]["scopeSpans"][0]["spans"];
  };
  INFO("stale: regenerate with `drainsim run "
       << kScenario << " --format otlp --out out/fit-example"
       << " && cp out/fit-example/otlp-traces.json " << kTraces
       << "` (scenarios/telemetry/README.md)");
  CHECK(spans((dir / "out" / "otlp-traces.json").string()) == spans(kSource + "/" + kTraces));
  fs::remove_all(dir);
}

TEST_CASE("worked example: fit as the README shows it", "[cli][fit]") {
  const fs::path dir = FreshDir("worked-example-fit");
  const std::string fitted = (dir / "fitted.json").string();
  const ProcessResult fit =
      RunDrainsim({"fit", kTraces, "--into", kScenario, "-o", fitted}, kSource);
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  RequireDocumentedOutput("drainsim fit scenarios/telemetry/fit-example.otlp-traces.json",
                          fit.stdout_text);
  // Every number of fit-example.json inside its interval, as the README says.
  const json merged = json::parse(ReadFile(fitted));
  const json& handler = merged["kinds"]["order"]["handler"];
  CHECK(handler["db_ops"] == 1);  // two statements an attempt, one of them the claim
  RequireWithin("db mu", 1.2, handler["db_op_ms"]["fitted"]["interval"]["mu"]);
  RequireWithin("db sigma", 0.5, handler["db_op_ms"]["fitted"]["interval"]["sigma"]);
  RequireWithin("cpu mu", 2.3, handler["cpu_ms"]["fitted"]["interval"]["mu"]);
  RequireWithin("cpu sigma", 0.4, handler["cpu_ms"]["fitted"]["interval"]["sigma"]);
  REQUIRE(merged["faults"].size() == 2);
  RequireWithin("transient", 0.08, merged["faults"][0]["fitted"]["interval"]);
  RequireWithin("permanent", 0.03, merged["faults"][1]["fitted"]["interval"]);
  REQUIRE(merged["producers"].size() == 1);
  RequireWithin("rate", 2, merged["producers"][0]["poisson"]["fitted"]["interval"]);
  CHECK(RunDrainsim({"check", fitted}).exit_code == 0);

  const ProcessResult live =
      RunDrainsim({"fit", "scenarios/telemetry/live-retry-events.jsonl"}, kSource);
  REQUIRE(live.exit_code == 0);
  CHECK(json::parse(live.stdout_text)["kinds"].contains("order"));  // the fragment on stdout
  RequireDocumentedOutput("drainsim fit scenarios/telemetry/live-retry-events.jsonl",
                          live.stderr_text);
  fs::remove_all(dir);
}

TEST_CASE("worked example: backtest as the README shows it", "[cli][backtest]") {
  const fs::path dir = FreshDir("worked-example-backtest");
  const std::string scenario = "scenarios/telemetry/backtest-incident.json";
  const ProcessResult prom = RunDrainsim(
      {"backtest", scenario, "--observed", "scenarios/telemetry/backtest-incident.prom.json",
       "--map", "rabbitmq_queue_messages_ready=depth", "--map",
       "rabbitmq_dlq_messages_ready=dlq_depth", "--out", (dir / "prom").string()},
      kSource);
  INFO(prom.stderr_text);
  CHECK(prom.exit_code == 0);
  RequireDocumentedOutput("drainsim backtest scenarios/telemetry/backtest-incident.json",
                          prom.stdout_text);
  // The CSV of the same run: the same figures, the README says, and exit 0.
  const ProcessResult csv =
      RunDrainsim({"backtest", scenario, "--observed", "scenarios/telemetry/backtest-incident.csv",
                   "--out", (dir / "csv").string()},
                  kSource);
  CHECK(csv.exit_code == 0);
  const std::vector<std::string> documented =
      DocumentedOutput("drainsim backtest scenarios/telemetry/backtest-incident.json");
  for (size_t i = 1; i < documented.size(); ++i) {  // the first line names the file
    CHECK(Contains(csv.stdout_text, documented[i] + "\n"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace worked_example_cli_test
}  // namespace drainsim::testing
