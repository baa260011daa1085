// "sidekiq" jitter (sim/model/backoff.h): Sidekiq adds its random term to a custom
// sidekiq_retry_in delay too (job_retry.rb delay_for), so under the sidekiq preset a backoff the
// scenario writes itself gets the version's random term as its jitter. Through the loader, the
// dump and the model, exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "sim/model/backoff.h"
#include "sim/scenario/load.h"
#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace sidekiq_jitter_test {
namespace {

using config::JitterKind;
using config::SidekiqRandomTerm;
using engine::Duration;
using testing::LoadOrFail;
using testing::Recorder;

// 100 jobs that always fail, a Sidekiq system with `retry` (JSON members of /retry, after
// "delivery") and `broker` members after the preset.
std::string Failing(const std::string& broker, const std::string& retry) {
  return R"({"format_version": 1, "name": "sidekiq-jitter", "run": {"until_s": 400},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 100}],
    "broker": {"preset": "sidekiq")" +
         broker + R"(},
    "retry": {"delivery": "republish")" +
         retry + R"(},
    "workers": {"count": 10},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "transient"}]})";
}

constexpr const char* kCustom = R"(, "backoff": {"kind": "constant", "delay_s": 60})";

TEST_CASE("sidekiq jitter: the preset gives a custom backoff the version's random term",
          "[model][backoff][presets]") {
  const config::Scenario s8 = LoadOrFail(Failing("", kCustom));
  CHECK(s8.retry.backoff.kind() == config::BackoffKind::kConstant);
  CHECK(s8.retry.backoff.jitter.kind == JitterKind::kSidekiq);
  CHECK(s8.retry.backoff.jitter.random_term == SidekiqRandomTerm::kFullRange);
  const config::Scenario s7 = LoadOrFail(Failing(R"(, "version": "7.3")", kCustom));
  CHECK(s7.retry.backoff.jitter.random_term == SidekiqRandomTerm::kStepped);
  // A jitter the scenario gives wins; without the preset nothing is filled.
  const config::Scenario own =
      LoadOrFail(Failing("", R"(, "backoff": {"kind": "constant", "delay_s": 60,
                                             "jitter": {"kind": "none"}})"));
  CHECK(own.retry.backoff.jitter.kind == JitterKind::kNone);
  // The dump writes the filled jitter, and loading the dump gives the same scenario.
  const std::string dumped = scenario::DumpCanonical(s8);
  CHECK(dumped.find(R"("random_term": "full_range")") != std::string::npos);
  CHECK(LoadOrFail(dumped) == s8);
}

TEST_CASE("sidekiq jitter: never on the sidekiq curve, and random_term only for it",
          "[model][backoff]") {
  const scenario::LoadResult twice = scenario::LoadScenarioText(
      Failing("", R"(, "backoff": {"kind": "sidekiq", "jitter": {"kind": "sidekiq"}})"));
  REQUIRE_FALSE(twice.ok());
  CHECK(twice.problems.at(0).pointer == "/retry/backoff/jitter/kind");
  CHECK(twice.problems.at(0).message.find("carries its own random term") != std::string::npos);
  const scenario::LoadResult stray =
      scenario::LoadScenarioText(Failing("", R"(, "backoff": {"kind": "constant", "delay_s": 60,
                                  "jitter": {"kind": "full", "random_term": "stepped"}})"));
  REQUIRE_FALSE(stray.ok());
  CHECK(stray.problems.at(0).pointer == "/retry/backoff/jitter/random_term");
}

// Each retry's wait (retry due minus failure) of every message, by the attempt it follows.
std::vector<std::vector<double>> Waits(const config::Scenario& s) {
  Recorder recorder;
  RunOptions options;
  options.observer = &recorder;
  (void)RunSimulation(s, s.seed, options);
  std::vector<std::vector<double>> waits(4);
  for (uint64_t id = 0; id < 100; ++id) {
    const std::vector<double> delayed = recorder.TimesTo(id, MessageState::kDelayed);
    const std::vector<double> ready = recorder.TimesTo(id, MessageState::kReady);
    for (size_t k = 0; k < delayed.size() && k < waits.size(); ++k) {
      const auto due = std::upper_bound(ready.begin(), ready.end(), delayed[k]);
      if (due != ready.end()) waits[k].push_back(*due - delayed[k]);
    }
  }
  return waits;
}

TEST_CASE(
    "sidekiq jitter: 60 s plus rand(10 * (count + 1)) whole seconds, or rand(10) * "
    "(count + 1) before 8.0",
    "[model][backoff]") {
  for (const bool full_range : {true, false}) {
    INFO((full_range ? "8.1" : "7.3"));
    const auto waits =
        Waits(LoadOrFail(Failing(full_range ? "" : R"(, "version": "7.3")", kCustom)));
    for (size_t k = 0; k < 3; ++k) {  // after attempt n = k + 1: count = k
      INFO("retry after attempt " << k + 1);
      REQUIRE(waits[k].size() >= 50);
      const int64_t count = static_cast<int64_t>(k);
      std::set<int64_t> terms;
      for (const double wait_s : waits[k]) {
        const double term_s = wait_s - 60;
        REQUIRE(term_s == Approx(std::round(term_s)).margin(1e-6));  // whole seconds
        const auto term = static_cast<int64_t>(std::llround(term_s));
        REQUIRE(term >= 0);
        if (full_range) {
          REQUIRE(term <= 10 * (count + 1) - 1);
        } else {
          REQUIRE(term <= 9 * (count + 1));
          REQUIRE(term % (count + 1) == 0);
        }
        terms.insert(term);
      }
      CHECK(terms.size() >= 6);  // spread, not one value
    }
  }
}

TEST_CASE("sidekiq jitter: the policy's r count and largest term", "[model][backoff]") {
  config::Backoff policy;
  policy.curve = config::ConstantBackoff{Duration::Seconds(60)};
  policy.jitter.kind = JitterKind::kSidekiq;
  policy.jitter.random_term = SidekiqRandomTerm::kFullRange;
  CHECK(SidekiqRandCount(policy, 5) == 50);
  CHECK(SidekiqRandCount(policy.curve, 5) == 10);  // the curve alone: r unused
  CHECK(SidekiqJitterMaxS(policy.jitter, 5) == 49);
  policy.jitter.random_term = SidekiqRandomTerm::kStepped;
  CHECK(SidekiqRandCount(policy, 5) == 10);
  CHECK(SidekiqJitterMaxS(policy.jitter, 5) == 45);
  // Two draws per call, as for every jitter (backoff.h invariant (1)).
  auto a = engine::Rng::FromSeed(3);
  auto b = engine::Rng::FromSeed(3);
  BackoffState state;
  (void)BackoffDelay(policy, 5, state, a);
  (void)b.NextU64();
  (void)b.NextDouble();
  CHECK(a.NextU64() == b.NextU64());
}

}  // namespace
}  // namespace sidekiq_jitter_test
}  // namespace drainsim::model
