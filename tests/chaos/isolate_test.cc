// Crash isolation: each seed in its own child, every way a child can end told apart, reports in
// seed order whatever the number of jobs.
#include "chaos/isolate.h"

#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::chaos::testing {
namespace isolate_test {
namespace {

// Seed s does what s % 7 says: pass, liveness, fail a DRAINSIM_CHECK, abort, get killed,
// throw, exit without a report.
SeedReport Misbehave(uint64_t seed) {
  SeedReport report;
  report.seed = seed;
  report.Note("ran seed " + std::to_string(seed));
  switch (seed % 7) {
    case 0:
      break;
    case 1:
      report.Fail(Verdict::kLiveness, "liveness: made up");
      break;
    case 2:
      DRAINSIM_CHECK(seed == 0);
      break;
    case 3:
      std::abort();
    case 4:
      raise(SIGKILL);
      break;
    case 5:
      throw std::runtime_error("boom");
    case 6:
      _exit(3);
  }
  return report;
}

std::vector<SeedReport> RunAll(uint64_t first, uint64_t count, int jobs, double timeout_s,
                               SeedReport (*work)(uint64_t)) {
  std::vector<SeedReport> reports;
  const std::string error = RunIsolated(first, count, IsolationOptions{jobs, timeout_s}, work,
                                        [&](const SeedReport& r) { reports.push_back(r); });
  CHECK(error == "");
  return reports;
}

bool Mentions(const SeedReport& report, const std::string& text) {
  for (const std::string& p : report.problems) {
    if (p.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("isolate: every way a child ends gets its own verdict", "[chaos][isolate]") {
  const std::vector<SeedReport> reports = RunAll(14, 7, 1, 60, Misbehave);
  REQUIRE(reports.size() == 7);
  for (size_t i = 0; i < reports.size(); ++i) CHECK(reports[i].seed == 14 + i);
  CHECK(reports[0].verdict == Verdict::kPass);
  CHECK(reports[0].problems.empty());
  CHECK(reports[0].details == std::vector<std::string>{"ran seed 14"});
  CHECK(reports[1].verdict == Verdict::kLiveness);
  CHECK(Mentions(reports[1], "liveness: made up"));
  CHECK(reports[2].verdict == Verdict::kCorrectness);
  CHECK(Mentions(reports[2], "internal check failed at "));
  CHECK(Mentions(reports[2], "seed == 0"));
  CHECK(reports[3].verdict == Verdict::kCrash);
  CHECK(Mentions(reports[3], "killed by signal " + std::to_string(SIGABRT)));
  CHECK(reports[4].verdict == Verdict::kCrash);
  CHECK(Mentions(reports[4], "killed by signal " + std::to_string(SIGKILL)));
  CHECK(reports[5].verdict == Verdict::kCrash);
  CHECK(Mentions(reports[5], "uncaught exception: boom"));
  CHECK(reports[6].verdict == Verdict::kCrash);
  CHECK(Mentions(reports[6], "exited with status 3"));
  // Each crash says what happened, once.
  for (size_t i = 3; i < 7; ++i) CHECK(reports[i].problems.size() == 1);
}

TEST_CASE("isolate: reports come in seed order whatever the jobs", "[chaos][isolate]") {
  const std::vector<SeedReport> one = RunAll(100, 30, 1, 60, Misbehave);
  const std::vector<SeedReport> four = RunAll(100, 30, 4, 60, Misbehave);
  CHECK(one == four);
  REQUIRE(four.size() == 30);
  for (size_t i = 0; i < four.size(); ++i) CHECK(four[i].seed == 100 + i);
}

TEST_CASE("isolate: a seed that outlives its time is killed and reported", "[chaos][isolate]") {
  const auto sleepy = [](uint64_t seed) -> SeedReport {
    if (seed == 2) sleep(30);
    return SeedReport{seed, Verdict::kPass, {}, {}};
  };
  const std::vector<SeedReport> reports = RunAll(1, 3, 2, 1, sleepy);
  REQUIRE(reports.size() == 3);
  CHECK(reports[0].verdict == Verdict::kPass);
  CHECK(reports[1].verdict == Verdict::kTimeout);
  CHECK(Mentions(reports[1], "timeout: still running after 1 s"));
  CHECK(reports[1].problems.size() == 1);
  CHECK(reports[2].verdict == Verdict::kPass);
}

TEST_CASE("isolate: a report survives the pipe", "[chaos][isolate]") {
  SeedReport report;
  report.seed = 9;
  report.Fail(Verdict::kLiveness, "liveness: two\nlines");
  report.Fail(Verdict::kCorrectness, "determinism: differs");
  report.Note("fault: {\"type\": \"errors\"}");
  CHECK(report.verdict == Verdict::kCorrectness);
  CHECK(report.problems[0] == "liveness: two lines");
  CHECK(DecodeSeedReport(9, EncodeSeedReport(report)) == report);
  const SeedReport cut = DecodeSeedReport(3, "D half a report\nP no verdict");
  CHECK(cut.verdict == Verdict::kCrash);
  CHECK(cut.problems.empty());  // the caller says why: it knows how the child ended
  CHECK(cut.details == std::vector<std::string>{"half a report"});
}

}  // namespace
}  // namespace isolate_test
}  // namespace drainsim::chaos::testing
