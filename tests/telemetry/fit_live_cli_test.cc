// `drainsim fit` on `drainsim live`'s event log: the shipped recording of a live run
// (scenarios/telemetry/live-retry-events.jsonl, RabbitMQ and PostgreSQL on loopback) fitted into
// the scenario it ran. The counts the fit reports are recounted here from the file's own lines,
// and the refitted scenario loads and runs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace fit_live_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kEvents =
    std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/telemetry/live-retry-events.jsonl";
const std::string kScenario = std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/live-retry.json";

struct Counts {
  int64_t attempts = 0;
  int64_t failed_transient = 0;  // settled with "failed:transient ..."
  int64_t messages = 0;          // publish lines
};

// The log's own lines, counted without the reader: attempts, transient failures, publishes.
Counts CountLines(const std::string& path) {
  Counts c;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const json e = json::parse(line);
    const std::string event = e["event"];
    if (event == "attempt") ++c.attempts;
    if (event == "publish") ++c.messages;
    if (e.contains("detail") && e["detail"].is_string() &&
        e["detail"].get<std::string>().rfind("failed:transient", 0) == 0) {
      ++c.failed_transient;
    }
  }
  return c;
}

TEST_CASE("fit live-events.jsonl: the live run's attempts fitted into its scenario", "[cli][fit]") {
  const Counts counts = CountLines(kEvents);
  REQUIRE(counts.attempts > 500);
  REQUIRE(counts.failed_transient > 10);
  const fs::path dir = FreshDir("fit-live");
  const std::string fitted = (dir / "fitted.json").string();
  const ProcessResult fit = RunDrainsim({"fit", kEvents, "--into", kScenario, "-o", fitted});
  INFO(fit.stdout_text << fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  CHECK(fit.stdout_text.find(std::to_string(counts.attempts) + " process spans") !=
        std::string::npos);
  const json s = json::parse(ReadFile(fitted));
  // The handler time from the attempts that did not fail, with its provenance.
  const json& cpu = s["kinds"]["order"]["handler"]["cpu_ms"];
  REQUIRE(cpu.contains("fitted"));
  CHECK(cpu["fitted"]["from"] == kEvents);
  CHECK(cpu["fitted"]["n"] == counts.attempts - counts.failed_transient);
  // The transient failures as an errors fault: its share of the attempts is the log's.
  bool found = false;
  for (const json& fault : s["faults"]) {
    if (fault["type"] != "errors" || !fault.contains("fitted")) continue;
    found = true;
    CHECK(fault["error"] == "transient");
    CHECK(fault["fitted"]["n"] == counts.attempts);
    CHECK(fault["probability"].get<double>() * static_cast<double>(counts.attempts) ==
          Approx(static_cast<double>(counts.failed_transient)).margin(0.01));
  }
  CHECK(found);
  // The live producer published at a fixed 100/s: the fit keeps it constant, not Poisson, so the
  // fitted scenario publishes what the live run did (experiments/fit_arrivals.h, rule (5)).
  REQUIRE(s["producers"].size() == 1);
  const json& producer = s["producers"][0];
  REQUIRE(producer.contains("constant"));
  CHECK(producer["constant"]["rate_per_s"].get<double>() * 6 ==
        Approx(static_cast<double>(counts.messages)));
  CHECK(producer["constant"]["fitted"]["n"] == counts.messages);
  const ProcessResult check = RunDrainsim({"check", fitted});
  INFO(check.stdout_text << check.stderr_text);
  CHECK(check.exit_code == 0);
  const ProcessResult run =
      RunDrainsim({"run", fitted, "--format", "json", "--out", (dir / "run").string()});
  CHECK((run.exit_code == 0 || run.exit_code == 1));  // 1: an expectation missed, not a failure
  REQUIRE(fs::exists(dir / "run" / "report.json"));
  const json report = json::parse(ReadFile((dir / "run" / "report.json").string()));
  CHECK(report["published"] == counts.messages);
  fs::remove_all(dir);
}

TEST_CASE("fit --report beside -o: one output set, and a name both would write is refused",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-report-set");
  const std::string fragment = (dir / "fragment.json").string();
  const ProcessResult both =
      RunDrainsim({"fit", kEvents, "-o", fragment, "--report", dir.string()});
  INFO(both.stdout_text << both.stderr_text);
  REQUIRE(both.exit_code == 0);
  for (const char* name : {"fragment.json", "fit.md", "fit.html"}) {
    CHECK(fs::exists(dir / name));
  }
  fs::remove_all(dir);
  const ProcessResult clash =
      RunDrainsim({"fit", kEvents, "-o", (dir / "fit.md").string(), "--report", dir.string()});
  CHECK(clash.exit_code == 2);
  CHECK(clash.stderr_text.find("the report writes that name") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "fit.html"));  // nothing written
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_live_cli_test
}  // namespace drainsim::testing
