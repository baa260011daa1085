// `drainsim fit` round trips beyond tests/telemetry/fit_cli_test.cc: piecewise arrivals (two
// Poisson producers in consecutive windows) with an empirical handler time, fitted without
// --window-s, so the segments come from the data; then piecewise arrivals with two error classes
// (transient and permanent) and a lognormal handler. Each time the refitted scenario's time to
// empty against the original's, as replicated means.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"
#include "tests/telemetry/fit_cli_helpers.h"

namespace drainsim::testing {
namespace fit_round_trip_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The truth: a bimodal handler time (60% between 6 and 12 ms, 30% between 60 and 90 ms; mean
// about 31.5 ms) as an `empirical` table, which no lognormal fits; Poisson arrivals at 10/s for
// 300 s, then 40/s for 300 s. Four workers keep up (utilisation at most 0.32), so a message's
// first attempt starts close to its publish time and the arrivals are read nearly as published.
constexpr const char* kHandler = R"({"empirical": [[0.01, 6], [0.6, 12], [0.7, 60], [1.0, 90]]})";
constexpr const char* kProducers =
    R"([{"kind": "job", "poisson": {"rate_per_s": 10, "until_s": 300}},
        {"kind": "job", "poisson": {"rate_per_s": 40, "from_s": 300, "until_s": 600}}])";

std::string NormalDay() {
  return std::string(R"({"format_version": 1, "name": "fit-normal-day", "seed": 23,
    "run": {"until_s": 700}, "kinds": {"job": {"handler": {"cpu_ms": )") +
         kHandler + "}}}, \"producers\": " + kProducers +
         R"(, "workers": {"count": 4, "prefetch": 1}})";
}

// The incident: the same traffic on one worker (capacity about 32/s, so the 40/s phase builds a
// backlog), 5000 messages in the DLQ replayed at once at 400 s. The queue is FIFO: the time to
// empty is the work ahead of the last replay — the backlog the arrivals built by 400 s, then the
// replays — so it depends on the fitted rates and the fitted handler time.
std::string Incident() {
  return std::string(R"({"format_version": 1, "name": "fit-incident", "seed": 29,
    "run": {"until_s": 1500}, "kinds": {"job": {"handler": {"cpu_ms": )") +
         kHandler + "}}}, \"producers\": " + kProducers +
         R"(, "backlog": [{"where": "dlq", "kind": "job", "count": 5000, "attempts": 1,
                         "error": "permanent", "reason": "not_retryable", "age_s": 3600}],
    "drains": [{"start_at_s": 400, "strategy": "bulk"}],
    "workers": {"count": 1, "prefetch": 1}})";
}

// The truth's CDF at value_ms: linear between the table's rows, as the engine samples it.
double TruthCdf(double value_ms) {
  const std::vector<std::pair<double, double>> rows = {{0.01, 6}, {0.6, 12}, {0.7, 60}, {1.0, 90}};
  if (value_ms >= rows.back().second) return 1;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (value_ms <= rows[i].second) {
      const double share = (value_ms - rows[i - 1].second) / (rows[i].second - rows[i - 1].second);
      return rows[i - 1].first + share * (rows[i].first - rows[i - 1].first);
    }
  }
  return 1;
}

double MeanTimeToEmpty(const fs::path& out) {
  const json replications = json::parse(ReadFile((out / "replications.json").string()));
  for (const json& metric : replications.at("metrics")) {
    if (metric.at("name") == "time_to_empty_s") {
      REQUIRE(metric.at("undefined") == 0);
      return metric.at("mean").get<double>();
    }
  }
  FAIL("no time_to_empty_s in " << out);
  return 0;
}

TEST_CASE("fit round trip: piecewise arrivals and an empirical handler", "[cli][fit]") {
  const fs::path dir = FreshDir("fit-piecewise");
  const std::string normal = (dir / "normal.json").string();
  std::ofstream(normal) << NormalDay();
  const std::string traces = RunAsOtlp(normal, dir);
  const ProcessResult fit = RunDrainsim({"fit", traces});  // no --window-s: segments from data
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  CHECK(Contains(fit.stderr_text, "a constant rate is rejected at 5%; 2 segment(s)"));
  const json fragment = json::parse(fit.stdout_text);

  // The handler: the lognormal is rejected (the summary says why) and the table is chosen.
  const json& cpu = fragment.at("kinds").at("job").at("handler").at("cpu_ms");
  REQUIRE(cpu.contains("empirical"));
  CHECK(Contains(fit.stderr_text, "the lognormal's KS distance exceeds the 5% critical value"));
  // The table has no interval of its own; its rows are order statistics of the data, so the
  // Dvoretzky-Kiefer-Wolfowitz 95% band of the ECDF, sqrt(ln(2 / 0.05) / (2 n)), must hold the
  // truth's CDF at every row (plus 1/n: a row's p is the ECDF at it, to one observation).
  const auto n = cpu["fitted"]["n"].get<double>();
  const double band = std::sqrt(std::log(2 / 0.05) / (2 * n)) + 1 / n;
  for (const json& row : cpu["empirical"]) {
    const double p = row[0].get<double>();
    const double value_ms = row[1].get<double>();
    if (value_ms <= 6) continue;  // below the truth's first row the engine's CDF is its floor
    INFO("row " << row.dump() << ": truth's CDF " << TruthCdf(value_ms) << ", band " << band);
    CHECK(std::abs(TruthCdf(value_ms) - p) <= band);
  }

  // Arrivals: two segments, split within 2 s of 300 s, each truth inside its interval.
  const json& producers = fragment.at("producers");
  REQUIRE(producers.size() == 2);
  const json& first = producers[0]["poisson"];
  const json& second = producers[1]["poisson"];
  CHECK(first["from_s"] == 0.0);
  CHECK(std::abs(first["until_s"].get<double>() - 300) <= 2);
  CHECK(second["from_s"] == first["until_s"]);
  CHECK(second["until_s"].get<double>() >= 600);
  CHECK(first["fitted"]["interval"][0].get<double>() <= 10);
  CHECK(10 <= first["fitted"]["interval"][1].get<double>());
  CHECK(second["fitted"]["interval"][0].get<double>() <= 40);
  CHECK(40 <= second["fitted"]["interval"][1].get<double>());
  CHECK(Contains(first["fitted"]["method"].get<std::string>(), "segment 1 of 2"));
  CHECK(Contains(first["fitted"]["method"].get<std::string>(), "chi-squared p "));

  // The report: the charts drawn from the result, one CDF chart and one arrivals chart per kind.
  const fs::path report = dir / "report";
  const ProcessResult reported = RunDrainsim({"fit", traces, "--report", report.string()});
  REQUIRE(reported.exit_code == 0);
  CHECK(reported.stdout_text == fit.stdout_text);  // the fragment is the same with a report
  const std::string html = ReadFile((report / "fit.html").string());
  CHECK(Contains(html, "data-chart=\"handler-cdf-job\""));
  CHECK(Contains(html, "data-chart=\"arrivals-job\""));
  CHECK(Contains(html, "data-series=\"empirical table\""));
  CHECK(Contains(html, "data-series=\"fitted rate\""));
  CHECK(Contains(ReadFile((report / "fit.md").string()), "| 0.000 | "));

  // The incident with the fitted numbers: mean time to empty within 5% of the original's.
  const std::string incident = (dir / "incident.json").string();
  std::ofstream(incident) << Incident();
  const std::string refitted = (dir / "refitted.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", incident, "-o", refitted});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const ProcessResult original_runs =
      RunDrainsim({"run", incident, "--replications", "20", "--out", (dir / "original").string()});
  const ProcessResult refitted_runs =
      RunDrainsim({"run", refitted, "--replications", "20", "--out", (dir / "refitted").string()});
  REQUIRE(original_runs.exit_code == 0);
  REQUIRE(refitted_runs.exit_code == 0);
  const double original_s = MeanTimeToEmpty(dir / "original");
  const double refitted_s = MeanTimeToEmpty(dir / "refitted");
  INFO("time to empty: original " << original_s << " s, refitted " << refitted_s << " s");
  CHECK(original_s > 150);  // the backlog and the replays: about 180 s of work
  CHECK(std::abs(refitted_s - original_s) <= 0.05 * original_s);
  fs::remove_all(dir);
}

// The second truth: a lognormal(mu 3.2, sigma 0.5) ms handler (mean about 28 ms); transient
// errors with probability 0.08, then (of the attempts that passed it) permanent ones with 0.03,
// transient ones retried up to 4 attempts a second apart; Poisson arrivals at 10/s for 300 s,
// then 40/s for 300 s.
constexpr double kTransient = 0.08;
constexpr double kPermanent = 0.03;
constexpr const char* kClassesCommon = R"("kinds": {"job": {"handler": {"cpu_ms":
      {"lognormal": {"mu": 3.2, "sigma": 0.5}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 10, "until_s": 300}},
                  {"kind": "job", "poisson": {"rate_per_s": 40, "from_s": 300, "until_s": 600}}],
    "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
              "classes": {"transient": {"attempts_max": 4}}},
    "faults": [{"type": "errors", "kind": "job", "probability": 0.08, "error": "transient"},
               {"type": "errors", "kind": "job", "probability": 0.03, "error": "permanent"}])";

std::string ClassesDay() {
  return std::string(R"({"format_version": 1, "name": "fit-two-classes", "seed": 31,
    "run": {"until_s": 700}, )") +
         kClassesCommon + R"(, "workers": {"count": 4, "prefetch": 1}})";
}

// The same traffic and errors on one worker (about 33 attempts/s: the 40/s phase builds a
// backlog), 5000 DLQ messages replayed at once at 400 s; a replay's transient failure waits its
// retry behind the queue, a permanent one goes back to the DLQ, so the time to empty depends on
// both probabilities as well as the rates and the handler time.
std::string ClassesIncident() {
  return std::string(R"({"format_version": 1, "name": "fit-two-classes-incident", "seed": 37,
    "run": {"until_s": 1500}, )") +
         kClassesCommon +
         R"(, "backlog": [{"where": "dlq", "kind": "job", "count": 5000, "attempts": 1,
                         "error": "permanent", "reason": "not_retryable", "age_s": 3600}],
    "drains": [{"start_at_s": 400, "strategy": "bulk"}],
    "workers": {"count": 1, "prefetch": 1}})";
}

TEST_CASE("fit round trip: two error classes with piecewise arrivals", "[cli][fit]") {
  const fs::path dir = FreshDir("fit-two-classes");
  const std::string day = (dir / "day.json").string();
  std::ofstream(day) << ClassesDay();
  const std::string traces = RunAsOtlp(day, dir);
  const ProcessResult fit = FitTraces(traces);
  const json fragment = json::parse(fit.stdout_text);

  // Both classes, in the scenario's order, each truth inside its Wilson interval.
  const json& faults = fragment.at("faults");
  REQUIRE(faults.size() == 2);
  CHECK(faults[0]["error"] == "transient");
  CHECK(faults[1]["error"] == "permanent");
  for (const json& fault : faults) {
    const double truth = fault["error"] == "transient" ? kTransient : kPermanent;
    const json& wilson = fault["fitted"]["interval"];
    INFO(fault.dump());
    CHECK(wilson[0].get<double>() <= truth);
    CHECK(truth <= wilson[1].get<double>());
    CHECK(wilson[1].get<double>() - wilson[0].get<double>() < 0.25 * truth);
    CHECK(Contains(fault["fitted"]["method"].get<std::string>(), "Wilson"));
  }
  // The handler (successes only) stays lognormal; the arrivals two segments split near 300 s.
  REQUIRE(fragment["kinds"]["job"]["handler"]["cpu_ms"].contains("lognormal"));
  const json& producers = fragment.at("producers");
  REQUIRE(producers.size() == 2);
  CHECK(std::abs(producers[0]["poisson"]["until_s"].get<double>() - 300) <= 2);

  // The incident as written and with the fit merged in: mean time to empty within 5%.
  const std::string incident = (dir / "incident.json").string();
  std::ofstream(incident) << ClassesIncident();
  const std::string refitted = (dir / "refitted.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", incident, "-o", refitted});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const json merged = json::parse(ReadFile(refitted));
  CHECK(merged["faults"].size() == 2);  // the fitted faults replaced the written ones
  CHECK(merged["faults"][0].contains("fitted"));
  const ProcessResult original_runs =
      RunDrainsim({"run", incident, "--replications", "20", "--out", (dir / "original").string()});
  const ProcessResult refitted_runs =
      RunDrainsim({"run", refitted, "--replications", "20", "--out", (dir / "refitted").string()});
  REQUIRE(original_runs.exit_code == 0);
  REQUIRE(refitted_runs.exit_code == 0);
  const double original_s = MeanTimeToEmpty(dir / "original");
  const double refitted_s = MeanTimeToEmpty(dir / "refitted");
  INFO("time to empty: original " << original_s << " s, refitted " << refitted_s << " s");
  CHECK(original_s > 150);
  CHECK(std::abs(refitted_s - original_s) <= 0.05 * original_s);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_round_trip_cli_test
}  // namespace drainsim::testing
