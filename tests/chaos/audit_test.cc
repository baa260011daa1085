// The swarm's audit (sim/model/ledger_audit.cc) catches every kind of bookkeeping defect, each at
// the layer meant for it: a defect made on purpose (RunOptions::test_defect) in a run with
// RunOptions::audit_every_event, in a forked child as the swarm runs it (chaos/isolate.h), so
// that the failed DRAINSIM_CHECK arrives as a correctness failure naming its condition. Each
// test names the condition of the layer it is about: with that layer switched off another one
// (or none) catches the defect, and the test fails.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "chaos/isolate.h"
#include "sim/model/simulation.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos::testing {
namespace audit_test {
namespace {

using engine::Duration;
using engine::Instant;

// 500 messages at 0 on one worker at 100 ms each: a long main queue at 1 s.
const char* kQueue = R"({"format_version": 1, "name": "audit-queue", "run": {"until_s": 120},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
  "producers": [{"kind": "job", "burst": {"at_s": 0, "count": 500}}],
  "workers": {"count": 1}})";

// Every message of the first 10 s fails with a permanent error and rests in the DLQ (no drain,
// 14 days of retention); 50 messages/s acked after it, some 40,000 events to the end. Sampled
// at 0 and 350 s only, so that the recounts at samples (simulation.h (2)) miss [20, 300).
const char* kDeadLetters = R"({"format_version": 1, "name": "audit-dlq",
  "run": {"until_s": 400, "sample_every_s": 350},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 50}}],
  "workers": {"count": 2},
  "faults": [{"type": "errors", "probability": 1, "error": "permanent",
              "from_s": 0, "until_s": 10}]})";

Instant At(double seconds) { return Instant::Zero() + Duration::Seconds(seconds); }

// Runs `scenario` audited with `options` in a forked child; its report.
SeedReport RunAudited(const std::string& text, model::RunOptions options) {
  const config::Scenario scenario = LoadTextOrFail(text);
  options.audit_every_event = true;
  std::vector<SeedReport> reports;
  const std::string error = RunIsolated(
      1, 1, IsolationOptions{1, 60},
      [&](uint64_t seed) {
        const model::Results r = model::RunSimulation(scenario, seed, options);
        SeedReport report;
        report.seed = seed;
        report.Note("published " + std::to_string(r.published) + ", in DLQ " +
                    std::to_string(r.dlq_end));
        return report;
      },
      [&](const SeedReport& r) { reports.push_back(r); });
  REQUIRE(error == "");
  REQUIRE(reports.size() == 1);
  for (const std::string& p : reports[0].problems) UNSCOPED_INFO(p);
  for (const std::string& d : reports[0].details) UNSCOPED_INFO(d);
  return reports[0];
}

bool CaughtBy(const SeedReport& report, const std::string& condition) {
  if (report.verdict != Verdict::kCorrectness || report.problems.size() != 1) return false;
  return report.problems[0].find("internal check failed at ") == 0 &&
         report.problems[0].find(condition) != std::string::npos;
}

TEST_CASE("audit: the scenarios of these tests pass it without a defect", "[chaos][audit]") {
  CHECK(RunAudited(kQueue, {}).verdict == Verdict::kPass);
  const SeedReport dlq = RunAudited(kDeadLetters, {});
  CHECK(dlq.verdict == Verdict::kPass);
  // Enough dead letters to misstate one, and events for several recounts after 20 s.
  CHECK(dlq.details == std::vector<std::string>{"published 20074, in DLQ 510"});
}

TEST_CASE("audit: a message misstated behind the ledger is caught at its next transition",
          "[chaos][audit]") {
  model::RunOptions options;
  options.test_defect = model::TestDefect::kMisstate;
  options.test_defect_at = At(1);
  CHECK(CaughtBy(RunAudited(kQueue, options), "message.state == message.audited_state"));
}

TEST_CASE("audit: a message dropped from the main queue is caught after the event",
          "[chaos][audit]") {
  model::RunOptions options;
  options.test_defect = model::TestDefect::kLoseReady;
  options.test_defect_at = At(1);
  CHECK(CaughtBy(RunAudited(kQueue, options), "broker_.ready_count() == ledger_.count"));
}

TEST_CASE("audit: a resting message misstated for a while is caught by the periodic recount",
          "[chaos][audit]") {
  // It never moves, so no transition sees it, and it is healed before the end, so the final
  // recount does not either: only a recount while it lasts (280 s, some 28,000 events).
  model::RunOptions options;
  options.test_defect = model::TestDefect::kMisstateAtRest;
  options.test_defect_at = At(20);
  options.test_defect_heal_at = At(300);
  CHECK(CaughtBy(RunAudited(kDeadLetters, options), "recounted[static_cast<size_t>(s)] =="));
}

}  // namespace
}  // namespace audit_test
}  // namespace drainsim::chaos::testing
