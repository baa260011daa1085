// `drainsim fit` of database statement latency: a scenario whose statements take a known
// lognormal time (a pool large enough that none waits) is run with --format otlp; its statements
// are client spans under the attempts' spans, with the database conventions; the fit must find
// the statement latency's mu and sigma within their reported 95% intervals, the statements per
// attempt, and the rest of the handler's time (cpu_ms) within its intervals too. Merged with
// --into, a kind with idempotency "claim" gets one statement fewer (the claim is one of them).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace fit_db_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The truth: the claim and two db ops per attempt, each lognormal(mu 1.2, sigma 0.5) ms of
// service; the handler's CPU lognormal(mu 1.5, sigma 0.3) ms; 40 connections for at most 8
// queries at a time (no wait, overload 0), so a statement's span is its service time.
constexpr double kDbMu = 1.2;
constexpr double kDbSigma = 0.5;
constexpr double kCpuMu = 1.5;
constexpr double kCpuSigma = 0.3;

std::string TruthScenario() {
  return R"({"format_version": 1, "name": "fit-db-truth", "seed": 23,
    "run": {"until_s": 700},
    "kinds": {"job": {"idempotency": "claim",
                      "handler": {"db_ops": 2,
                                  "db_op_ms": {"lognormal": {"mu": 1.2, "sigma": 0.5}},
                                  "cpu_ms": {"lognormal": {"mu": 1.5, "sigma": 0.3}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 15, "until_s": 600}}],
    "workers": {"count": 8, "prefetch": 1},
    "database": {"connections": 40, "overload_factor": 0}})";
}

void RequireWithin(const std::string& what, double truth, const json& interval) {
  INFO(what << ": truth " << truth << ", interval " << interval.dump());
  REQUIRE(interval.size() == 2);
  CHECK(interval[0].get<double>() <= truth);
  CHECK(truth <= interval[1].get<double>());
  CHECK(interval[1].get<double>() - interval[0].get<double>() < 0.25 * truth);  // informative
}

// The spans of otlp-traces.json.
json Spans(const std::string& traces) {
  return json::parse(ReadFile(traces))["resourceSpans"][0]["scopeSpans"][0]["spans"];
}

std::string Attribute(const json& span, const std::string& key) {
  for (const json& kv : span["attributes"]) {
    if (kv["key"] == key) return kv["value"].value("stringValue", "");
  }
  return "";
}

TEST_CASE("otlp: each database statement is a client span under its attempt's span",
          "[cli][fit][otlp]") {
  const fs::path dir = FreshDir("fit-db-export");
  const std::string truth = (dir / "truth.json").string();
  std::ofstream(truth) << TruthScenario();
  const ProcessResult run =
      RunDrainsim({"run", truth, "--format", "otlp", "--out", (dir / "out").string()});
  INFO(run.stderr_text);
  REQUIRE(run.exit_code == 0);
  const json spans = Spans((dir / "out" / "otlp-traces.json").string());
  std::map<std::string, json> attempts;  // by spanId
  int64_t statements = 0;
  int64_t claims = 0;
  for (const json& s : spans) {
    if (!s.contains("parentSpanId")) attempts[s["spanId"]] = s;
  }
  for (const json& s : spans) {
    if (!s.contains("parentSpanId")) continue;
    ++statements;
    CHECK(s["kind"] == 3);  // SPAN_KIND_CLIENT
    CHECK(Attribute(s, "db.system.name") == "postgresql");
    const std::string operation = Attribute(s, "db.operation.name");
    CHECK((operation == "INSERT" || operation == "EXECUTE"));
    if (operation == "INSERT") ++claims;
    const auto parent = attempts.find(s["parentSpanId"]);
    REQUIRE(parent != attempts.end());
    CHECK(parent->second["traceId"] == s["traceId"]);
    // Inside its attempt (decimal strings of equal length compare as numbers).
    CHECK(s["startTimeUnixNano"].get<std::string>() >=
          parent->second["startTimeUnixNano"].get<std::string>());
    CHECK(s["endTimeUnixNano"].get<std::string>() <=
          parent->second["endTimeUnixNano"].get<std::string>());
  }
  // Every attempt ran to its end: a claim and two db ops each.
  CHECK(statements == 3 * static_cast<int64_t>(attempts.size()));
  CHECK(claims == static_cast<int64_t>(attempts.size()));
  fs::remove_all(dir);
}

TEST_CASE("fit: statement latency within its 95% interval of the truth, and the rest as cpu_ms",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-db-round-trip");
  const std::string truth = (dir / "truth.json").string();
  std::ofstream(truth) << TruthScenario();
  REQUIRE(
      RunDrainsim({"run", truth, "--format", "otlp", "--out", (dir / "out").string()}).exit_code ==
      0);
  const std::string traces = (dir / "out" / "otlp-traces.json").string();
  const std::string fragment_path = (dir / "fitted.json").string();
  const ProcessResult fit = RunDrainsim({"fit", traces, "-o", fragment_path});
  INFO(fit.stdout_text << fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  CHECK(Contains(fit.stdout_text, "database statements: "));
  const json fragment = json::parse(ReadFile(fragment_path));
  const json& handler = fragment.at("kinds").at("job").at("handler");
  CHECK(handler["db_ops"] == 3);  // the claim and the two db ops, as the spans show them

  const json& db = handler.at("db_op_ms");
  REQUIRE(db.contains("lognormal"));
  CHECK(db["fitted"]["from"] == traces);
  CHECK(db["fitted"]["n"].get<int64_t>() > 25000);  // about 9000 attempts, three statements
  RequireWithin("db mu", kDbMu, db["fitted"]["interval"]["mu"]);
  RequireWithin("db sigma", kDbSigma, db["fitted"]["interval"]["sigma"]);

  const json& cpu = handler.at("cpu_ms");
  REQUIRE(cpu.contains("lognormal"));
  RequireWithin("cpu mu", kCpuMu, cpu["fitted"]["interval"]["mu"]);
  RequireWithin("cpu sigma", kCpuSigma, cpu["fitted"]["interval"]["sigma"]);

  // --into: the claim is one of the three statements; the merged kind makes it anyway.
  const std::string merged = (dir / "merged.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", truth, "-o", merged});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const ProcessResult dump = RunDrainsim({"dump", merged});
  REQUIRE(dump.exit_code == 0);
  const json dumped = json::parse(dump.stdout_text);
  const json& merged_handler = dumped["kinds"]["job"]["handler"];
  CHECK(merged_handler["db_ops"] == 2);
  CHECK(merged_handler["db_op_ms"]["fitted"]["n"] == db["fitted"]["n"]);
  CHECK(merged_handler["db_op_ms"]["fitted"]["interval"] == db["fitted"]["interval"]);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_db_cli_test
}  // namespace drainsim::testing
