// The broker-preset examples (scenarios/preset-*.json): each tells one broker's trap in its
// description, and each test asserts that story at the scenario's seed and three others, with
// bounds derived from the broker rule at work (scenarios/presets/README.md) rather than from one
// run. Where the rule is best shown by what does NOT happen, the test also runs the same loaded
// scenario with one field changed in C++ (the counterfactual the description names).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <variant>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_examples_test {
namespace {

using config::DlqReason;

int64_t DlqByReason(const model::Sample& x, DlqReason reason) {
  return x.dlq_by_reason[static_cast<size_t>(reason)];
}

// Every sampled DLQ entry had `reason`: the DLQ by reason equals the DLQ depth at every sample.
void CheckDlqOnlyFor(const model::Results& r, DlqReason reason) {
  int64_t seen = 0;
  for (const model::Sample& x : r.series) {
    INFO("t " << x.t_s);
    CHECK(DlqByReason(x, reason) == x.dlq_depth);
    seen = std::max(seen, x.dlq_depth);
  }
  CHECK(seen > 0);
}

// Every key of the end-of-run inspector's "reason/error" map starts with `reason` + "/".
void CheckEndDlqOnlyFor(const model::Results& r, const std::string& reason) {
  int64_t total = 0;
  for (const auto& [key, count] : r.dlq_by_reason_error) {
    INFO(key);
    CHECK(key.rfind(reason + "/", 0) == 0);
    total += count;
  }
  CHECK(total == r.dlq_end);
}

int64_t Failures(const model::Results& r) {
  int64_t total = 0;
  for (const int64_t f : r.failures_by_class) total += f;
  return total;
}

int64_t ByCause(const model::Results& r, model::DuplicateCause cause) {
  return r.duplicates_by_cause[static_cast<size_t>(cause)];
}

config::BugFault& OnlyBug(config::Scenario& s) {
  REQUIRE(s.faults.size() == 1);
  auto* bug = std::get_if<config::BugFault>(&s.faults[0]);
  REQUIRE(bug != nullptr);
  return *bug;
}

// ---- sqs -----------------------------------------------------------------------------------

TEST_CASE(
    "preset sqs example: 10 receives 30 s apart dead-letter each failing order, the redrive moves "
    "at most 500/s",
    "[stories][preset][sqs]") {
  const config::Scenario s = LoadStory("preset-sqs");
  // The deploy breaks orders from 600 s to the fix at 1800 s, 50/s. An order is dead-lettered
  // 300 s after its first receive (receives at +0, +30, ..., +270 s, moved at +300 s) unless its
  // 10th receive comes after the fix: those published in [600, 1530) s go to the DLQ, about
  // 930 s x 50/s = 46,500 (Poisson: sd ~ 216).
  constexpr double kFix = 1800, kDrainStart = kFix + 600, kCap = 500;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(r.dlq_inflow > 44000);
    CHECK(r.dlq_inflow < 49000);
    CheckDlqOnlyFor(r, DlqReason::kReceiveCountMax);
    // The redrive: everything dead-lettered is moved, at SQS's cap, and every order succeeds.
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    REQUIRE(drain.started_at_s);
    REQUIRE(drain.ended_at_s);
    CHECK(*drain.started_at_s == Approx(kDrainStart).margin(1e-6));
    CHECK(drain.replayed == r.dlq_inflow);
    CHECK(r.dlq_outflow == r.dlq_inflow);
    CHECK(drain.achieved_rate_per_s <= kCap + 1e-6);
    // Message k moves at start + k / 500: the drain lasts at least replayed / 500.
    const double duration = *drain.ended_at_s - *drain.started_at_s;
    CHECK(duration >= static_cast<double>(drain.replayed) / kCap - 1e-6);
    CHECK(duration <= static_cast<double>(drain.replayed) / kCap + 5);
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s >= static_cast<double>(drain.replayed) / kCap - 1e-6);
    CHECK(r.refilled == 0);
    CHECK(r.dlq_end == 0);
    CHECK(r.human_needed == 0);
    CHECK(r.acked + r.not_terminal_end == r.published);
    CHECK(r.duplicate_executions == 0);
  }
  SECTION("without the redrive, the DLQ shows each order's 10 receives, 300 s from first to DLQ") {
    config::Scenario no_drain = s;
    no_drain.drains.clear();
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(no_drain, seed);
      CheckConserved(r);
      CHECK(r.dlq_end == r.dlq_inflow);
      CHECK(r.human_needed_by_reason.at("dlq:receive_count_max") == r.dlq_end);
      REQUIRE_FALSE(r.dlq_sample.empty());
      for (const model::DlqSample& m : r.dlq_sample) {
        INFO("message " << m.id);
        CHECK(m.reason == "receive_count_max");
        CHECK(m.attempts == 10);
        CHECK(m.failures == 10);
        CHECK(m.dead_lettered_at_s - m.first_failure_at_s == Approx(300).margin(1));
      }
    }
  }
}

// ---- rabbitmq-quorum -----------------------------------------------------------------------

TEST_CASE(
    "preset rabbitmq-quorum example: under 4.3 nacked pills loop 1000 times, reject or 4.2 "
    "dead-letters them after 21",
    "[stories][preset][rabbitmq]") {
  const config::Scenario s = LoadStory("preset-rabbitmq-quorum");
  REQUIRE(s.retry.requeue_with == config::RequeueWith::kNack);
  REQUIRE(s.broker.delivery_limit == 20);
  constexpr int64_t kPills = 20;
  // Each attempt on a pill: 1 ms of validation, then it fails after 200 ms.
  constexpr double kPillAttemptS = 0.201;
  SECTION("4.3 with basic.nack: the delivery limit never trips, the application's 1000 does") {
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(s, seed);
      CheckConserved(r);
      CHECK(r.dlq_inflow == kPills);
      CHECK(r.dlq_end == kPills);
      CHECK(r.human_needed_by_reason.size() == 1);
      CHECK(Reason(r, "dlq:max_attempts") == kPills);
      CHECK(Reason(r, "dlq:delivery_limit") == 0);
      for (const model::Sample& x : r.series) {
        CHECK(DlqByReason(x, DlqReason::kDeliveryLimit) == 0);
      }
      CheckEndDlqOnlyFor(r, "max_attempts");
      REQUIRE(r.dlq_sample.size() == static_cast<size_t>(kPills));
      for (const model::DlqSample& m : r.dlq_sample) {
        INFO("message " << m.id);
        CHECK(m.attempts == 1000);
        CHECK(m.failures == 1000);
      }
      CHECK(r.failures_by_class[static_cast<size_t>(config::ErrorClass::kUnknown)] ==
            kPills * 1000);
      CHECK(r.wasted_worker_s == Approx(kPills * 1000 * kPillAttemptS).epsilon(1e-6));
      // The loop keeps a pill in the pipeline for minutes: the 60 s age alert fires.
      REQUIRE(r.age_alert_first_s);
      CHECK(r.oldest_age_max_s > 300);
    }
  }
  SECTION(
      "4.3 with basic.reject: every pill is dead-lettered (delivery_limit) after 21 executions") {
    config::Scenario reject = s;
    reject.retry.requeue_with = config::RequeueWith::kReject;
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(reject, seed);
      CheckConserved(r);
      CHECK(r.dlq_end == kPills);
      CHECK(r.human_needed_by_reason.size() == 1);
      CHECK(Reason(r, "dlq:delivery_limit") == kPills);
      CheckEndDlqOnlyFor(r, "delivery_limit");
      REQUIRE(r.dlq_sample.size() == static_cast<size_t>(kPills));
      for (const model::DlqSample& m : r.dlq_sample) {
        INFO("message " << m.id);
        CHECK(m.attempts == 21);
      }
      CHECK(r.wasted_worker_s == Approx(kPills * 21 * kPillAttemptS).epsilon(1e-6));
    }
  }
  SECTION("4.0-4.2 (every return counts): the nack loop is dead-lettered after 21 executions too") {
    config::Scenario v42 = s;
    v42.broker.delivery_counted.fill(true);
    const model::Results r = Run(v42, s.seed);
    CheckConserved(r);
    CHECK(Reason(r, "dlq:delivery_limit") == kPills);
    REQUIRE(r.dlq_sample.size() == static_cast<size_t>(kPills));
    for (const model::DlqSample& m : r.dlq_sample) CHECK(m.attempts == 21);
  }
}

// ---- sidekiq -------------------------------------------------------------------------------

TEST_CASE(
    "preset sidekiq example: 2000 jobs die after 26 runs (about 20.4 days), Retry All pushes the "
    "dead set back at once",
    "[stories][preset][sidekiq]") {
  const config::Scenario s = LoadStory("preset-sidekiq");
  constexpr int64_t kJobs = 2000;
  constexpr double kBurst = 60, kFix = 1900800, kDrainStart = kFix + 3600;
  // sum over count 0..24 of count^4 + 15 = 1,763,395 s; the preset's Sidekiq 8.1 random terms,
  // rand(10 * (count + 1)), add at most sum (10 (count + 1) - 1) = 3,250 - 25 = 3,225 s (7.x's
  // rand(10) * (count + 1) at most 9 x 325 = 2,925 s).
  constexpr double kScheduleMin = 1763395, kJitterMax = 3225;
  SECTION("the story at four seeds") {
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(s, seed);
      CheckConserved(r);
      CHECK(Kind(r, "sync").published == kJobs);
      // 26 runs each before the fix, then one more from the dead set.
      CHECK(r.failures_by_class[static_cast<size_t>(config::ErrorClass::kTransient)] == kJobs * 26);
      CHECK(Kind(r, "sync").attempts == kJobs * 27);
      // The dead set is empty before the schedule can have run out and full well after it.
      CHECK(MaxOf(r, 0, kBurst + kScheduleMin,
                  [](const model::Sample& x) { return static_cast<double>(x.dlq_depth); }) == 0);
      const double lo = kBurst + kScheduleMin + kJitterMax + 3600;
      CHECK(MinOf(r, lo, kDrainStart, [](const model::Sample& x) {
              return static_cast<double>(x.dlq_depth);
            }) == kJobs);
      CHECK(MinOf(r, lo, kDrainStart, [](const model::Sample& x) {
              return static_cast<double>(DlqByReason(x, DlqReason::kMaxAttempts));
            }) == kJobs);
      CHECK(r.dlq_inflow == kJobs);
      // "Retry All" an hour after the fix: all 2,000 replayed, all succeed (the count is kept, but
      // the bug is gone).
      REQUIRE(r.drains.size() == 1);
      const model::DrainResults& drain = r.drains[0];
      REQUIRE(drain.started_at_s);
      REQUIRE(drain.ended_at_s);
      CHECK(*drain.started_at_s == Approx(kDrainStart).margin(1e-6));
      CHECK(drain.replayed == kJobs);
      CHECK(r.refilled == 0);
      CHECK(r.dlq_end == 0);
      CHECK(r.human_needed == 0);
      CHECK(Kind(r, "sync").acked == kJobs);
      // The whole dead set at once into a 10-connection database: it is saturated while the jobs
      // run, and live queries wait for connections.
      CHECK(drain.db_utilisation > 0.9);
      CHECK(QuantileMs(drain.live_latency_us, 0.5) > 2 * QuantileMs(r.live_latency_us, 0.5));
    }
  }
  SECTION("no rate limit: one millisecond after Retry All the dead set is empty") {
    config::Scenario cut = s;
    cut.run.until = engine::Instant::Micros(static_cast<int64_t>(kDrainStart * 1e6) + 1000);
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(cut, seed);
      CHECK(r.lost == 0);
      CHECK(r.dlq_inflow == kJobs);
      CHECK(r.dlq_outflow == kJobs);
      CHECK(r.dlq_end == 0);
    }
  }
  SECTION("had the bug not been fixed: each replayed job fails once and dies again at once") {
    config::Scenario unfixed = s;
    OnlyBug(unfixed).fixed_at.reset();
    REQUIRE(unfixed.drains.size() == 1);
    unfixed.drains[0].start_after_fix.reset();
    unfixed.drains[0].start_at = engine::Instant::Micros(static_cast<int64_t>(kDrainStart * 1e6));
    const model::Results r = Run(unfixed, s.seed);
    CheckConserved(r);
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    CHECK(drain.replayed == kJobs);
    CHECK(r.refilled == kJobs);
    CHECK(r.dlq_end == kJobs);
    CHECK(Kind(r, "sync").attempts == kJobs * 27);
    REQUIRE(drain.started_at_s);
    REQUIRE(drain.ended_at_s);
    CHECK(*drain.ended_at_s == Approx(*drain.started_at_s).margin(1e-6));
  }
}

// ---- celery --------------------------------------------------------------------------------

TEST_CASE(
    "preset celery example: a 2 h countdown outlives a 1 h visibility timeout and the restore "
    "sweep's wait, two workers run each retry",
    "[stories][preset][celery]") {
  const config::Scenario s = LoadStory("preset-celery");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // Errors stop at 1800 s, retries are due 7200 s after their failure: every email fails at
    // most once, and every retry succeeds.
    const int64_t failed = r.failures_by_class[static_cast<size_t>(config::ErrorClass::kTransient)];
    CHECK(failed > 0);
    CHECK(Failures(r) == failed);
    CHECK(r.acked == r.published);
    // Held since the failure, restored by the first sweep after +1 h (every 100 s: at most
    // +3700 s) and fetched at once; that fetch times out one hour later, just after a sweep, so
    // the next restore would be 3700 s on, past the ETA (+2 h). Two holders run it, one of them
    // a duplicate, visible (no idempotency guard). With exact timers (restore_sweep_s null) the
    // second restore came at +2 h, with the ETA: three holders, two duplicates.
    CHECK(r.duplicate_executions > 0);
    CHECK(r.duplicate_executions == failed);
    CHECK(r.visible_duplicates == r.duplicate_executions);
    CHECK(ByCause(r, model::DuplicateCause::kVisibilityTimeout) == r.duplicate_executions);
    // No DLQ: nothing is dead-lettered; what would be is parked for a human (none here).
    CHECK(r.dlq_inflow == 0);
    CHECK(r.parked == Reason(r, "failed:max_attempts"));
    CHECK(r.human_needed == 0);
  }
  SECTION("exact timers (restore_sweep_s null, drainsim before the audit): three holders") {
    config::Scenario exact = s;
    exact.broker.restore_sweep.reset();
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(exact, seed);
      CheckConserved(r);
      CHECK(r.duplicate_executions ==
            2 * r.failures_by_class[static_cast<size_t>(config::ErrorClass::kTransient)]);
    }
  }
  SECTION("a countdown shorter than the visibility timeout runs once") {
    config::Scenario short_countdown = s;
    auto* constant = std::get_if<config::ConstantBackoff>(&short_countdown.retry.backoff.curve);
    REQUIRE(constant != nullptr);
    constant->delay = engine::Duration::Seconds(1800);
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(short_countdown, seed);
      CheckConserved(r);
      CHECK(Failures(r) > 0);
      CHECK(r.duplicate_executions == 0);
    }
  }
}

// ---- bullmq --------------------------------------------------------------------------------

TEST_CASE(
    "preset bullmq example: renders over 30 s of CPU lose their lock, run twice and fail as "
    "stalled without throwing",
    "[stories][preset][bullmq]") {
  const config::Scenario s = LoadStory("preset-bullmq");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(r.dlq_end > 0);
    CHECK(r.dlq_inflow == r.dlq_end);
    CHECK(r.human_needed_by_reason.size() == 1);
    CHECK(Reason(r, "dlq:stalled") == r.dlq_end);
    CheckEndDlqOnlyFor(r, "stalled");
    CHECK(r.dlq_by_kind.size() == 1);
    CHECK(r.dlq_by_kind.count("thumbnail") == 1);
    // No code ever threw.
    CHECK(Failures(r) == 0);
    for (const model::DlqSample& m : r.dlq_sample) {
      INFO("message " << m.id);
      CHECK(m.kind == "thumbnail");
      CHECK(m.failures == 0);
      CHECK(m.attempts == 2);  // maxStalledCount 1: the second stall fails it
    }
    // Every failed thumbnail ran twice; the thumbnails converge, so nobody sees the second run.
    CHECK(Kind(r, "thumbnail").duplicate_executions >= r.dlq_end);
    CHECK(r.visible_duplicates == 0);
    CHECK(Kind(r, "email").duplicate_executions == 0);
    CHECK(ByCause(r, model::DuplicateCause::kVisibilityTimeout) == r.duplicate_executions);
    // The emails wait behind four workers busy rendering.
    CHECK(QuantileS(Kind(r, "email").message_latency_us, 0.99) > 60);
  }
  SECTION("renders under 30 s never lose their lock: no stall, no duplicate") {
    config::Scenario light = s;
    light.kinds.at("thumbnail").handler.cpu_ms = {config::UniformDist{5000, 29000}};
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(light, seed);
      CheckConserved(r);
      CHECK(r.dlq_inflow == 0);
      CHECK(r.duplicate_executions == 0);
      CHECK(Kind(r, "thumbnail").acked == Kind(r, "thumbnail").published);
    }
  }
}

// ---- pubsub --------------------------------------------------------------------------------

TEST_CASE(
    "preset pubsub example: 5 delivery attempts then the dead-letter topic, best-effort duplicates "
    "charge twice on replay",
    "[stories][preset][pubsub]") {
  const config::Scenario s = LoadStory("preset-pubsub");
  // Every charge fails until the fix at 1200 s; attempts at +0, +10, +30, +70, +150 s, so those
  // published before 1050 s use up their 5 attempts: about 1050 s x 5/s = 5,250 (sd ~ 72).
  constexpr double kDrainStart = 1200 + 900, kRate = 50;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    const int64_t dead_lettered = r.dlq_inflow - r.dlq_duplicates;
    CHECK(dead_lettered > 5000);
    CHECK(dead_lettered < 5500);
    CheckDlqOnlyFor(r, DlqReason::kReceiveCountMax);
    // Best effort: some dead letters arrive twice (1% assumed).
    CHECK(r.dlq_duplicates >= 1);
    CHECK(r.dlq_duplicates < dead_lettered / 20);
    // The replay at 50/s moves the originals and the second copies alike.
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    REQUIRE(drain.started_at_s);
    REQUIRE(drain.ended_at_s);
    CHECK(*drain.started_at_s == Approx(kDrainStart).margin(1e-6));
    CHECK(drain.replayed == r.dlq_inflow);
    CHECK(drain.achieved_rate_per_s <= kRate * 1.01);
    CHECK(*drain.ended_at_s - *drain.started_at_s >=
          static_cast<double>(drain.replayed - 1) / kRate - 1e-6);
    CHECK(r.refilled == 0);
    CHECK(r.dlq_end == 0);
    CHECK(r.acked + r.not_terminal_end == r.published);  // a charge may be in flight at the end
    // Each second copy charges again: no idempotency check, so the customer sees it.
    CHECK(r.visible_duplicates >= r.dlq_duplicates);
    CHECK(ByCause(r, model::DuplicateCause::kRedrive) == r.dlq_duplicates);
  }
}

// ---- azure-service-bus ---------------------------------------------------------------------

TEST_CASE(
    "preset azure-service-bus example: lock expiries count as deliveries, invoices that never fail "
    "are sent 10 times and dead-lettered",
    "[stories][preset][azure-service-bus]") {
  const config::Scenario s = LoadStory("preset-azure-service-bus");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(Failures(r) == 0);
    CHECK(r.dlq_end >= 1);
    CHECK(r.dlq_inflow == r.dlq_end);
    CHECK(r.human_needed_by_reason.size() == 1);
    CHECK(Reason(r, "dlq:receive_count_max") == r.dlq_end);
    CheckEndDlqOnlyFor(r, "receive_count_max");
    // The dead-letter queue keeps them: no expiry at all.
    CHECK(r.expired == 0);
    for (const model::DlqSample& m : r.dlq_sample) {
      INFO("message " << m.id);
      CHECK(m.attempts == 10);
      CHECK(m.failures == 0);
    }
    // Each dead-lettered invoice ran 10 times, every run sent it (no idempotency).
    CHECK(r.visible_duplicates >= 9 * r.dlq_end);
    CHECK(r.visible_duplicates == r.duplicate_executions);
    CHECK(ByCause(r, model::DuplicateCause::kVisibilityTimeout) == r.duplicate_executions);
  }
  SECTION("a receiver that renews its locks sends each invoice once") {
    config::Scenario renewing = s;
    renewing.broker.lock_renewal = true;
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(renewing, seed);
      CheckConserved(r);
      CHECK(r.dlq_inflow == 0);
      CHECK(r.duplicate_executions == 0);
    }
  }
}

}  // namespace
}  // namespace preset_examples_test
}  // namespace drainsim::stories
