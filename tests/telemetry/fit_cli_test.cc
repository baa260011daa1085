// `drainsim fit` end to end: a scenario with known parameters run with --format otlp, its spans
// fitted, every fitted parameter required within its reported 95% interval of the truth; the
// fragment merged into a scenario that loads and dumps with its provenance; bad input is exit 2
// with the file, pointer and reason, and nothing written.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"
#include "tests/telemetry/fit_cli_helpers.h"

namespace drainsim::testing {
namespace fit_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The truth: handler time lognormal(mu 2.3, sigma 0.6) ms; Poisson arrivals at 20/s for 1000 s;
// transient errors with probability 0.08, then (of the attempts that passed it) permanent ones
// with 0.03. About 20,000 messages and 21,800 attempts: each interval is a few percent wide.
constexpr double kMu = 2.3;
constexpr double kSigma = 0.6;
constexpr double kRatePerS = 20;
constexpr double kTransient = 0.08;
constexpr double kPermanent = 0.03;

std::string TruthScenario() {
  return R"({"format_version": 1, "name": "fit-truth", "seed": 17,
    "run": {"until_s": 1100},
    "kinds": {"job": {"handler": {"cpu_ms": {"lognormal": {"mu": 2.3, "sigma": 0.6}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 20, "until_s": 1000}}],
    "workers": {"count": 8, "prefetch": 1},
    "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
              "classes": {"transient": {"attempts_max": 4}}},
    "faults": [{"type": "errors", "kind": "job", "probability": 0.08, "error": "transient"},
               {"type": "errors", "kind": "job", "probability": 0.03, "error": "permanent"}]})";
}

void RequireWithin(const std::string& what, double truth, const json& interval) {
  INFO(what << ": truth " << truth << ", interval " << interval.dump());
  REQUIRE(interval.size() == 2);
  CHECK(interval[0].get<double>() <= truth);
  CHECK(truth <= interval[1].get<double>());
  CHECK(interval[1].get<double>() - interval[0].get<double>() < 0.25 * truth);  // informative
}

TEST_CASE("fit round trip: every fitted parameter within its 95% interval of the truth",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-round-trip");
  const std::string truth = (dir / "truth.json").string();
  std::ofstream(truth) << TruthScenario();
  const std::string traces = RunAsOtlp(truth, dir);
  const std::string fragment_path = (dir / "fitted.json").string();
  const ProcessResult fit = RunDrainsim({"fit", traces, "-o", fragment_path});
  INFO(fit.stdout_text << fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  CHECK(Contains(fit.stdout_text, "kind job: "));
  const json fragment = json::parse(ReadFile(fragment_path));

  const json& cpu = fragment.at("kinds").at("job").at("handler").at("cpu_ms");
  REQUIRE(cpu.contains("lognormal"));  // the data are lognormal: the KS rule keeps it
  CHECK(cpu["fitted"]["from"] == traces);
  CHECK(cpu["fitted"]["n"].get<int64_t>() > 19000);
  CHECK(cpu["fitted"]["ks"].get<double>() < 0.0096);
  RequireWithin("mu", kMu, cpu["fitted"]["interval"]["mu"]);
  RequireWithin("sigma", kSigma, cpu["fitted"]["interval"]["sigma"]);

  const json& faults = fragment.at("faults");
  REQUIRE(faults.size() == 2);
  CHECK(faults[0]["error"] == "transient");
  CHECK(faults[1]["error"] == "permanent");
  RequireWithin("transient", kTransient, faults[0]["fitted"]["interval"]);
  RequireWithin("permanent", kPermanent, faults[1]["fitted"]["interval"]);

  const json& producers = fragment.at("producers");
  REQUIRE(producers.size() == 1);
  const json& poisson = producers[0].at("poisson");
  // From the first arrival's second to the last arrival's, which a queue wait may push past
  // the producer's end at 1000 s.
  CHECK(poisson["from_s"] == 0.0);
  CHECK(poisson["until_s"].get<double>() >= 1000.0);
  CHECK(poisson["until_s"].get<double>() <= 1002.0);
  RequireWithin("rate", kRatePerS, poisson["fitted"]["interval"]);

  // --into: the fit replaces the truth's numbers; the result loads and dump keeps `fitted`.
  const std::string merged = (dir / "merged.json").string();
  const ProcessResult into = RunDrainsim({"fit", traces, "--into", truth, "-o", merged});
  INFO(into.stderr_text);
  REQUIRE(into.exit_code == 0);
  const ProcessResult check = RunDrainsim({"check", merged});
  INFO(check.stderr_text);
  CHECK(check.exit_code == 0);
  const ProcessResult dump = RunDrainsim({"dump", merged});
  REQUIRE(dump.exit_code == 0);
  const json dumped = json::parse(dump.stdout_text);
  CHECK(dumped["kinds"]["job"]["handler"]["cpu_ms"]["fitted"]["n"] == cpu["fitted"]["n"]);
  CHECK(dumped["faults"].size() == 2);
  CHECK(dumped["faults"][1]["fitted"]["interval"] == faults[1]["fitted"]["interval"]);
  CHECK(dumped["producers"].size() == 1);
  CHECK(dumped["workers"]["count"] == 8);  // the rest of the scenario as it was
  fs::remove_all(dir);
}

TEST_CASE("fit: kinds apart, the empirical table when the lognormal is rejected, windows",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-kinds");
  const std::string scenario = (dir / "two.json").string();
  // mail's handler takes exactly 3 ms: no lognormal has that, the table does.
  std::ofstream(scenario) << R"({"format_version": 1, "name": "two-kinds", "seed": 4,
    "run": {"until_s": 320},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 10}}}},
              "mail": {"handler": {"cpu_ms": {"constant": 3}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 10, "until_s": 300}},
                  {"kind": "mail", "poisson": {"rate_per_s": 2, "until_s": 300}}],
    "workers": {"count": 4}})";
  REQUIRE(RunDrainsim({"run", scenario, "--format", "otlp", "--out", (dir / "out").string()})
              .exit_code == 0);
  const std::string traces = (dir / "out" / "otlp-traces.json").string();
  const ProcessResult fit = RunDrainsim({"fit", traces, "--window-s", "100"});
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  const json fragment = json::parse(fit.stdout_text);  // without -o: the fragment on stdout
  CHECK(Contains(fit.stderr_text, "kind mail: "));     // and the summary on stderr
  const json& mail = fragment["kinds"]["mail"]["handler"]["cpu_ms"];
  REQUIRE(mail.contains("empirical"));
  CHECK(mail["fitted"]["ks"] == 0.0);
  CHECK(mail["empirical"].back() == json::array({1.0, 3.0}));
  // Exponential durations are no lognormal either, at this n: the KS rule says so.
  CHECK(fragment["kinds"]["job"]["handler"]["cpu_ms"].contains("empirical"));
  CHECK(fragment["faults"].empty());
  const json& producers = fragment["producers"];
  REQUIRE(producers.size() >= 6);  // three 100 s windows per kind (a fourth if one ran late)
  for (const json& p : producers) {
    const json& poisson = p["poisson"];
    CHECK(poisson["until_s"].get<double>() - poisson["from_s"].get<double>() <= 100.0);
    const double truth = p["kind"] == "job" ? 10.0 : 2.0;
    if (poisson["until_s"].get<double>() - poisson["from_s"].get<double>() == 100.0) {
      CHECK(poisson["rate_per_s"].get<double>() > truth * 0.6);
      CHECK(poisson["rate_per_s"].get<double>() < truth * 1.4);
    }
  }
  const std::string merged = (dir / "merged.json").string();
  REQUIRE(RunDrainsim({"fit", traces, "--window-s", "100", "--into", scenario, "-o", merged})
              .exit_code == 0);
  CHECK(RunDrainsim({"check", merged}).exit_code == 0);
  fs::remove_all(dir);
}

TEST_CASE("fit: bad input is exit 2 with the file, pointer and reason, and nothing written",
          "[cli][fit]") {
  const fs::path dir = FreshDir("fit-bad");
  const std::string out = (dir / "fitted.json").string();
  const auto fit = [&](const std::string& text) {
    const std::string path = (dir / "t.json").string();
    std::ofstream(path) << text;
    const ProcessResult r = RunDrainsim({"fit", path, "-o", out});
    CHECK(r.exit_code == 2);
    CHECK_FALSE(fs::exists(out));
    return r.stderr_text;
  };
  CHECK(Contains(fit("{\"resourceSpans\": 3}"), "t.json: /resourceSpans: must be an array"));
  CHECK(Contains(fit("not json"), "t.json: line 1, column 2: not JSON"));
  CHECK(Contains(fit(R"({"resourceSpans": [{"scopeSpans": [{"spans": [{"name": "GET /"}]}]}]})"),
                 "t.json: /resourceSpans: no spans of the messaging kind"));
  const ProcessResult missing = RunDrainsim({"fit", (dir / "none.json").string()});
  CHECK(missing.exit_code == 2);
  CHECK(Contains(missing.stderr_text, "none.json: cannot read"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_cli_test
}  // namespace drainsim::testing
