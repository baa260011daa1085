// `drainsim fit`'s pieces on hand-made data: the intervals against published values, the
// lognormal and empirical fits and their Kolmogorov-Smirnov distances, the OTLP reader's
// problems (file, JSON pointer, reason), and the scenario loader's `fitted` member.
#include "experiments/fit.h"

#include <boost/math/distributions/normal.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario/fitted_values.h"
#include "sim/scenario/load.h"
#include "sim/telemetry/otlp_read.h"
#include "tests/scenario/mini_schema.h"

namespace drainsim::experiments {
namespace fit_test {
namespace {

using Catch::Matchers::Contains;

TEST_CASE("fit: Wilson and Garwood intervals match published values", "[fit]") {
  const Interval95 w = Wilson95(10, 100);  // Newcombe (1998), Table I: 0.0552 to 0.1744
  CHECK(w.low == Approx(0.0552).margin(5e-5));
  CHECK(w.high == Approx(0.1744).margin(5e-5));
  CHECK(Wilson95(0, 10).low == 0);
  CHECK(Wilson95(0, 10).high == Approx(0.2775).margin(5e-5));
  const Interval95 g = Garwood95(10);  // exact Poisson limits for 10 events: 4.795 to 18.390
  CHECK(g.low == Approx(4.7954).margin(5e-4));
  CHECK(g.high == Approx(18.3904).margin(5e-4));
  CHECK(Garwood95(0).low == 0);
  CHECK(Garwood95(0).high == Approx(3.6889).margin(5e-4));
}

// n lognormal(mu, sigma) quantiles at (i - 0.5) / n: a sample with no randomness in it.
std::vector<double> LognormalQuantiles(double mu, double sigma, int n) {
  const boost::math::normal z;
  std::vector<double> x;
  for (int i = 1; i <= n; ++i) {
    x.push_back(std::exp(mu + sigma * boost::math::quantile(z, (i - 0.5) / n)));
  }
  return x;
}

TEST_CASE("fit: lognormal by maximum likelihood, its intervals and KS distance", "[fit]") {
  const std::vector<double> x = LognormalQuantiles(1.0, 0.5, 2000);
  const LognormalFit fit = FitLognormal(x);
  CHECK(fit.mu == Approx(1.0).margin(1e-9));
  CHECK(fit.sigma == Approx(0.5).margin(0.005));
  CHECK(fit.mu_interval.low < 1.0);
  CHECK(fit.mu_interval.high > 1.0);
  CHECK(fit.mu_interval.high - fit.mu_interval.low ==
        Approx(2 * 1.96 * 0.5 / std::sqrt(2000.0)).epsilon(0.01));
  CHECK(fit.sigma_interval.low < fit.sigma);
  CHECK(fit.sigma_interval.high > fit.sigma);
  CHECK(fit.ks < 0.002);  // the quantiles are as close to the CDF as a sample can be
  // Uniform data are no lognormal: a large distance.
  std::vector<double> uniform;
  for (int i = 1; i <= 2000; ++i) uniform.push_back(i * 0.01);
  CHECK(FitLognormal(uniform).ks > 0.05);
}

TEST_CASE("fit: the empirical table is the scenario's format and close to the data", "[fit]") {
  const std::vector<double> x = LognormalQuantiles(2.0, 1.0, 5000);
  const EmpiricalFit fit = FitEmpirical(x);
  REQUIRE(fit.points.size() == kEmpiricalRows + 1);
  CHECK(fit.points.front().second == x.front());
  CHECK(fit.points.back().first == 1.0);
  CHECK(fit.points.back().second == x.back());
  for (size_t i = 1; i < fit.points.size(); ++i) {
    CHECK(fit.points[i].first > fit.points[i - 1].first);
    CHECK(fit.points[i].second >= fit.points[i - 1].second);
  }
  CHECK(fit.ks <= 1.0 / kEmpiricalRows + 1e-9);
  CHECK(fit.ks > 0);
  const EmpiricalFit tiny = FitEmpirical({3.0});
  REQUIRE(tiny.points.size() == 1);
  CHECK(tiny.points[0] == std::pair{1.0, 3.0});
  CHECK(tiny.ks == 0);
}

std::string Span(const std::string& extra_attributes, const std::string& times) {
  return R"({"traceId": "01", "spanId": "02", "name": "process job", "kind": 5, )" + times +
         R"(, "attributes": [{"key": "messaging.operation.type", "value": {"stringValue": "process"}},
             {"key": "messaging.destination.name", "value": {"stringValue": "job"}})" +
         extra_attributes + "]}";
}

std::string Traces(const std::string& spans) {
  return R"({"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": [)" + spans +
         "]}]}]}";
}

const std::string kTimes = R"("startTimeUnixNano": "1000000000", "endTimeUnixNano": "1005000000")";

TEST_CASE("fit: the OTLP reader names the file, the JSON pointer and the reason", "[fit]") {
  telemetry::TelemetrySet set;
  const auto problem = [&](const std::string& text) {
    const base::Status s = telemetry::ReadOtlpTraces(text, "t.json", &set);
    REQUIRE_FALSE(s.ok());
    return s.error();
  };
  CHECK_THAT(problem("{\"resourceSpans\": [}"),
             Contains("t.json: line 1, column") && Contains("not JSON"));
  CHECK(problem("[]") == "t.json: /: must be an object");
  CHECK(problem("{}") == "t.json: /: has no \"resourceSpans\"");
  CHECK(problem(Traces(Span("", kTimes) + "," +
                       Span("", R"("startTimeUnixNano": "12x", "endTimeUnixNano": "1")"))) ==
        "t.json: /resourceSpans/0/scopeSpans/0/spans/1/startTimeUnixNano: must be unix "
        "nanoseconds: a string of decimal digits below 2^63");
  CHECK(problem(Traces(Span("", R"("startTimeUnixNano": "5", "endTimeUnixNano": "4")"))) ==
        "t.json: /resourceSpans/0/scopeSpans/0/spans/0/endTimeUnixNano: before "
        "startTimeUnixNano");
  CHECK_THAT(problem(std::string(100, '[') + std::string(100, ']')),
             Contains("nested deeper than 64 levels"));
  CHECK(set.spans.empty());  // a file with a problem adds nothing

  REQUIRE(
      telemetry::ReadOtlpTraces(
          Traces(
              Span("", kTimes) + "," +
              R"({"name": "send", "attributes": [], "startTimeUnixNano": "1", "endTimeUnixNano": "2"})" +
              "," +
              Span(R"(, {"key": "messaging.message.id", "value": {"stringValue": "m1"}})",
                   kTimes.substr(0, kTimes.size() - 1) +
                       R"(", "status": {"code": 2}, "events": [{"name": "exception",
                                 "attributes": [{"key": "exception.type", "value": {"stringValue": "transient"}}]}])")),
          "t.json", &set)
          .ok());
  REQUIRE(set.spans.size() == 2);
  CHECK(set.spans_skipped == 1);
  CHECK(set.kinds == std::vector<std::string>{"job"});
  CHECK(set.spans[0].end_ns - set.spans[0].start_ns == 5'000'000);
  CHECK_FALSE(set.spans[0].failed);
  CHECK(set.spans[1].failed);
  CHECK(set.classes[set.spans[1].error_class] == "transient");
  CHECK(set.messages[static_cast<size_t>(set.spans[1].message)] == "job/m1");
}

// Deterministic mutations of a valid file (byte changes, cuts, brackets, huge numbers): the
// reader never crashes and either reads the file or names it in its one problem. The fuzzing of
// the scenario loader (tools/fuzz/) in miniature, for the telemetry reader.
TEST_CASE("fit: database statements are charged to their process span, found by id", "[fit]") {
  // One process span of 10 ms with two statements: a 2.5 ms SELECT written before its parent
  // (db.system.name) and a failed UPDATE (the older db.system); a statement whose parent is not
  // in the file; a database span with no parent (skipped like any foreign span).
  std::ifstream in(std::string(DRAINSIM_SOURCE_DIR) +
                   "/tests/fuzz/otlp_corpus/database-statements.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  telemetry::TelemetrySet set;
  REQUIRE(telemetry::ReadOtlpTraces(text, "db.json", &set));
  CHECK(set.spans.size() == 1);
  CHECK(set.statements.size() == 3);
  CHECK(set.spans_skipped == 1);
  const FitResult fit = FitTelemetry(set, 0);
  CHECK(fit.statements == 3);
  CHECK(fit.statements_unmatched == 1);
  REQUIRE(fit.kinds.size() == 1);
  REQUIRE(fit.kinds[0].statements.has_value());
  const StatementFit& st = *fit.kinds[0].statements;
  CHECK(st.spans == 2);
  CHECK(st.failed == 1);
  CHECK(st.per_attempt == 1);  // the failed statement is not counted
  CHECK(st.per_attempt_share == 1.0);
  REQUIRE(st.latency.n == 1);
  CHECK(st.latency.empirical->points.back().second == Approx(2.5));
  // The handler's own time: 10 ms less the successful statement's 2.5 ms.
  REQUIRE(fit.kinds[0].handler.n == 1);
  CHECK(fit.kinds[0].handler.empirical->points.back().second == Approx(7.5));
}

TEST_CASE("fit: the OTLP reader survives mutated input", "[fit][fuzz]") {
  const std::string valid =
      Traces(Span("", kTimes) + "," +
             Span(R"(, {"key": "messaging.message.id", "value": {"intValue": "7"}})",
                  kTimes.substr(0, kTimes.size() - 1) +
                      R"(", "status": {"code": "STATUS_CODE_ERROR"}, "events": [{"name":
                      "exception", "attributes": [{"key": "exception.type", "value":
                      {"stringValue": "permanent"}}]}])"));
  telemetry::TelemetrySet base;
  REQUIRE(telemetry::ReadOtlpTraces(valid, "t.json", &base).ok());
  REQUIRE(base.spans.size() == 2);
  const std::string inserts[] = {
      "[", "]", "{", "}", "\"", ",", "-1", "1e400", "null", "\\u0000", "\"99999999999999999999\""};
  uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  int read = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = valid;
    for (int edits = 1 + static_cast<int>(next() % 3); edits > 0; --edits) {
      const size_t at = next() % text.size();
      switch (next() % 4) {
        case 0:
          text[at] = static_cast<char>(next() % 256);
          break;
        case 1:
          text.erase(at, 1 + next() % 20);
          break;
        case 2:
          text.insert(at, inserts[next() % std::size(inserts)]);
          break;
        default:
          text.resize(at);
          break;
      }
      if (text.empty()) text = "{";
    }
    telemetry::TelemetrySet set;
    const base::Status status = telemetry::ReadOtlpTraces(text, "t.json", &set);
    if (status.ok()) {
      ++read;
      for (const telemetry::ProcessSpan& span : set.spans) CHECK(span.end_ns >= span.start_ns);
    } else {
      CHECK(status.error().rfind("t.json: ", 0) == 0);
      CHECK(set.spans.empty());
    }
  }
  CHECK(read > 0);  // some mutations keep the file valid (a changed letter inside a string)
}

constexpr const char* kFittedScenario =
    R"({"format_version": 1, "name": "fitted", "run": {"until_s": 100},
  "kinds": {"job": {"handler": {"cpu_ms": {"lognormal": {"mu": 2.3, "sigma": 0.6},
    "fitted": {"from": "a.json", "n": 100, "method": "lognormal", "ks": 0.01,
               "interval": {"mu": [2.2, 2.4], "sigma": [0.5, 0.7]}}}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 5, "fitted": {"from": "a.json", "n": 500,
                                                                        "interval": [4.5, 5.5]}}}],
  "workers": {"count": 1},
  "faults": [{"type": "errors", "kind": "job", "probability": 0.1,
              "fitted": {"from": "a.json", "n": 600, "method": "Wilson", "interval": [0.08, 0.12]}}]})";

TEST_CASE("fit: the loader keeps `fitted` and the canonical dump writes it back",
          "[fit][scenario]") {
  const scenario::FittedLoad loaded = scenario::LoadScenarioTextWithFitted(kFittedScenario);
  for (const auto& p : loaded.load.problems) UNSCOPED_INFO(p.pointer << ": " << p.message);
  REQUIRE(loaded.load.ok());
  REQUIRE(loaded.fitted.size() == 3);
  const config::Fitted& cpu = loaded.fitted.at("/kinds/job/handler/cpu_ms");
  CHECK(cpu.n == 100);
  CHECK(cpu.ks == 0.01);
  CHECK(cpu.intervals.size() == 2);
  CHECK(loaded.fitted.at("/faults/0").method == "Wilson");
  CHECK(loaded.fitted.at("/producers/0/poisson").intervals[0].second == std::pair{4.5, 5.5});
  const config::Scenario& s = *loaded.load.scenario;
  const std::string dump = scenario::DumpCanonicalWithFitted(s, loaded.fitted);
  CHECK_THAT(dump, Contains("\"ks\": 0.01"));
  CHECK_THAT(dump, Contains("\"from\": \"a.json\""));
  const scenario::FittedLoad again = scenario::LoadScenarioTextWithFitted(dump);
  REQUIRE(again.load.ok());
  CHECK(*again.load.scenario == s);
  CHECK(again.fitted == loaded.fitted);
  CHECK(scenario::DumpCanonicalWithFitted(*again.load.scenario, again.fitted) == dump);
  // The provenance changes no run: the scenario (and its hash, over DumpCanonical) is the one
  // without it.
  CHECK(scenario::DumpCanonicalWithFitted(s, {}) == scenario::DumpCanonical(s));
  CHECK_THAT(scenario::DumpCanonical(s), !Contains("\"fitted\": {"));
}

TEST_CASE("fit: scenarios/schema.json describes `fitted` as the loader reads it", "[fit][schema]") {
  std::ifstream in(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/schema.json");
  const nlohmann::json schema_json = nlohmann::json::parse(in);
  const scenario::testing::MiniSchema schema(schema_json);
  nlohmann::json s = nlohmann::json::parse(kFittedScenario);
  CHECK(schema.Validate(s).empty());
  CHECK(schema.UndescribedKeys(s).empty());
  const scenario::FittedLoad loaded = scenario::LoadScenarioTextWithFitted(kFittedScenario);
  REQUIRE(loaded.load.ok());
  const nlohmann::json dump = nlohmann::json::parse(
      scenario::DumpCanonicalWithFitted(*loaded.load.scenario, loaded.fitted));
  CHECK(schema.Validate(dump).empty());
  CHECK(schema.UndescribedKeys(dump).empty());
  // What the loader refuses, the schema refuses too.
  s["kinds"]["job"]["handler"]["cpu_ms"]["fitted"]["n"] = -1;
  CHECK_FALSE(schema.Validate(s).empty());
  s = nlohmann::json::parse(kFittedScenario);
  s["kinds"]["job"]["handler"]["cpu_ms"].erase("lognormal");
  s["kinds"]["job"]["handler"]["cpu_ms"]["constant"] = 1;
  s["kinds"]["job"]["handler"]["cpu_ms"]["uniform"] = {{"low", 0}, {"high", 1}};
  CHECK_FALSE(schema.Validate(s).empty());
  s = nlohmann::json::parse(kFittedScenario);
  s["faults"][0]["fitted"]["extra"] = 1;
  CHECK_FALSE(schema.Validate(s).empty());
}

TEST_CASE("fit: a bad `fitted` is a problem at its pointer", "[fit][scenario]") {
  const auto problems = [](const std::string& from, const std::string& to) {
    std::string text = kFittedScenario;
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    const scenario::LoadResult loaded = scenario::LoadScenarioText(text);
    REQUIRE_FALSE(loaded.ok());
    std::string all;
    for (const auto& p : loaded.problems) all += p.pointer + ": " + p.message + "\n";
    return all;
  };
  CHECK_THAT(problems("\"n\": 100", "\"n\": -1"), Contains("/kinds/job/handler/cpu_ms/fitted/n: "));
  CHECK_THAT(problems("\"interval\": [4.5, 5.5]", "\"interval\": [5.5, 4.5]"),
             Contains("/producers/0/poisson/fitted/interval: must be [low, high]"));
  CHECK_THAT(problems("\"method\": \"Wilson\"", "\"methd\": \"Wilson\""),
             Contains("/faults/0/fitted/methd: unknown key 'methd' (did you mean 'method'?)"));
  CHECK_THAT(problems("\"ks\": 0.01", "\"ks\": 2"),
             Contains("/kinds/job/handler/cpu_ms/fitted/ks"));
  CHECK_THAT(problems("{\"mu\": 2.3, \"sigma\": 0.6},", "{\"mu\": 2.3, \"sigma\": 0.6}, \"x\": 1,"),
             Contains("/kinds/job/handler/cpu_ms: must have exactly one key"));
}

}  // namespace
}  // namespace fit_test
}  // namespace drainsim::experiments
