// Leases, ETAs and consumer timeouts (world_lease.cc): Celery's ETA retries held in the consumer,
// BullMQ's lock renewal and stalled-job check, RabbitMQ's consumer timeout closing the channel.
//
// The loader does not read these broker/retry fields yet: the scenarios are loaded without them
// and the fields are set on the loaded config::Scenario.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace lease_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

// ---- eta_in_consumer ----------------------------------------------------------------------

// One job that fails its first attempt (the errors window closes at 1 s); `other` messages
// published at 7300 s, while the retry is held, show that held copies leave the prefetch free.
config::Scenario EtaScenario(int delay_s) {
  config::Scenario s = LoadOrFail(std::string(R"({"format_version": 1, "name": "eta",
    "run": {"until_s": 36000},
    "kinds": {"job": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 0}}},
              "other": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "producers": [{"kind": "other", "fanout": {"at_s": 7300, "count": 3}}],
    "broker": {"visibility_timeout_s": 3600},
    "workers": {"count": 3, "prefetch": 1, "concurrency": 1},
    "retry": {"backoff": {"kind": "constant", "delay_s": )") +
                                  std::to_string(delay_s) + R"(, "jitter": {"kind": "none"}}},
    "faults": [{"type": "errors", "kind": "job", "probability": 1.0, "error": "transient",
                "until_s": 1}]})");
  s.retry.delivery = config::RetryDelivery::kEtaInConsumer;
  return s;
}

TEST_CASE("eta_in_consumer: a delay past the visibility timeout runs on every holder",
          "[model][sim][lease][eta]") {
  Recorder rec;
  const Results r = RunRecorded(EtaScenario(10800), rec);
  CheckConserved(r);
  const KindResults& job = r.kinds.at("job");
  // Held from 0, redelivered at +1 h and +2 h: three holders run it at the ETA (3 h).
  CHECK(rec.TimesTo(0, MessageState::kInFlight) == Times{0, 0, 3600, 7200});
  CHECK(rec.StartTimes(0) == Times{0, 10800, 10800, 10800});
  CHECK(job.attempts == 4);
  CHECK(job.acked == 1);
  CHECK(job.duplicate_executions == 2);
  CHECK(job.visible_duplicates == 2);
  CHECK(r.duplicate_executions == 2);
  CHECK(r.visible_duplicates == 2);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kVisibilityTimeout)] == 2);
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{10800});
  // The two stale holders' acks are ignored; the current delivery's ack counts.
  int ignored = 0, acked = 0;
  for (const Recorder::End& e : rec.ends) {
    if (e.id != 0 || e.outcome != AttemptOutcome::kSucceeded) continue;
    ignored += e.ack == AckFate::kIgnored;
    acked += e.ack == AckFate::kAcked;
  }
  CHECK(ignored == 2);
  CHECK(acked == 1);
  // Prefetch 1 on every worker, each holding a copy: the three others still start at once.
  CHECK(r.kinds.at("other").acked == 3);
  for (uint64_t id = 1; id <= 3; ++id) CHECK(rec.StartTimes(id) == Times{7300});
  CHECK(r.acked == 4);
}

TEST_CASE("eta_in_consumer: a delay inside the visibility timeout runs once",
          "[model][sim][lease][eta]") {
  Recorder rec;
  const Results r = RunRecorded(EtaScenario(1800), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 1800});
  CHECK(r.kinds.at("job").acked == 1);
  CHECK(r.duplicate_executions == 0);
  CHECK(r.acked == 4);
}

// ---- lock renewal and stalled jobs --------------------------------------------------------

// BullMQ-like: lock 30 s, stalled check every 30 s, maxStalledCount 1, 2 workers, prefetch 1;
// one job published at `at_s`.
config::Scenario BullScenario(int cpu_s, int at_s, const std::string& extra = "") {
  config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "bull",
    "run": {"until_s": 3600},
    "kinds": {"job": {"idempotency": "none", "handler": {"cpu_ms": {"constant": )" +
                                  std::to_string(cpu_s * 1000) + R"(}}}},
    "producers": [{"kind": "job", "fanout": {"at_s": )" +
                                  std::to_string(at_s) + R"(, "count": 1}}],
    "broker": {"visibility_timeout_s": 30},
    "workers": {"count": 2, "prefetch": 1, "concurrency": 1, "restart_s": 5})" +
                                  extra + "}");
  s.broker.lock_renewal = true;
  s.broker.stalled_check = engine::Duration::Seconds(30);
  s.broker.stalled_count_max = 1;
  return s;
}

TEST_CASE("lock renewal: a CPU step longer than the lock stalls, twice is dead-lettered",
          "[model][sim][lease][stalled]") {
  Recorder rec;
  const Results r = RunRecorded(BullScenario(45, 10), rec);
  CheckConserved(r);
  // Lock lost at 40 (CPU from 10), acted on at the check at 60; the second copy's lock is lost
  // at 90, a check instant: dead-lettered at 90 (stalled twice > maxStalledCount 1).
  CHECK(rec.StartTimes(0) == Times{10, 60});
  CHECK(rec.TimesTo(0, MessageState::kReady) == Times{60});  // published at 10: no transition
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{90});
  CHECK(r.attempts == 2);
  CHECK(r.acked == 0);
  CHECK(r.dlq_end == 1);
  CHECK(r.human_needed_by_reason.at("dlq:stalled") == 1);
  REQUIRE(r.dlq_by_reason_error.size() == 1);
  CHECK(r.dlq_by_reason_error.begin()->first.rfind("stalled/", 0) == 0);
  // The first copy finished at 55 without its lock: its ack failed, the job stayed active.
  REQUIRE(!rec.ends.empty());
  CHECK(rec.ends[0].at_s == 55);
  CHECK(rec.ends[0].ack == AckFate::kIgnored);
  // The second copy's work committed again at 105.
  CHECK(r.duplicate_executions == 1);
}

TEST_CASE("lock renewal: an expiry on a check instant is acted on at once",
          "[model][sim][lease][stalled]") {
  // CPU from 0: the lock runs out at 30, a multiple of the period.
  Recorder rec;
  const Results r = RunRecorded(BullScenario(45, 0), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 30});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{60});
}

TEST_CASE("lock renewal: a CPU step within the lock never stalls", "[model][sim][lease][stalled]") {
  const Results r = testing::RunAudited(BullScenario(20, 10));
  CheckConserved(r);
  CHECK(r.attempts == 1);
  CHECK(r.acked == 1);
  CHECK(r.dlq_end == 0);
  CHECK(r.duplicate_executions == 0);
}

TEST_CASE("lock renewal: a crashed worker's lock runs out, noticed at the next check",
          "[model][sim][lease][stalled]") {
  const std::string crash = R"(, "faults": [{"type": "worker_crash", "at_s": 5, "count": 2}])";
  config::Scenario s = BullScenario(10, 0, crash);
  s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
  {
    // Lock lost at 35 (crash at 5 + 30), acted on at 60: one stall, redelivered, acked at 70.
    Recorder rec;
    const Results r = RunRecorded(s, rec);
    CheckConserved(r);
    CHECK(rec.TimesTo(0, MessageState::kReady) == Times{60});
    CHECK(rec.StartTimes(0) == Times{0, 60});
    CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{70});
    CHECK(r.acked == 1);
  }
  {
    // The one stall counts: with maxStalledCount 0 it is dead-lettered at the check.
    s.broker.stalled_count_max = 0;
    Recorder rec;
    const Results r = RunRecorded(s, rec);
    CheckConserved(r);
    CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{60});
    CHECK(r.human_needed_by_reason.at("dlq:stalled") == 1);
  }
  {
    // Without a check period the expiry is acted on at once.
    s.broker.stalled_count_max = 1;
    s.broker.stalled_check.reset();
    Recorder rec;
    const Results r = RunRecorded(s, rec);
    CheckConserved(r);
    CHECK(rec.TimesTo(0, MessageState::kReady) == Times{35});
    CHECK(r.acked == 1);
  }
}

TEST_CASE("stalled_count_max counts ordinary visibility-timeout expiries too",
          "[model][sim][lease][stalled]") {
  // Work longer than two timeouts (a stale copy's ack would still count, SQS-style).
  config::Scenario s = BullScenario(100, 0);
  s.broker.lock_renewal = false;
  s.broker.stalled_check.reset();
  Recorder rec;
  const Results r = RunRecorded(s, rec);
  CheckConserved(r);
  // Delivered at 0 and 30 (timer 30 s); the second expiry at 60 is the second stall.
  CHECK(rec.StartTimes(0) == Times{0, 30});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{60});
  CHECK(r.human_needed_by_reason.at("dlq:stalled") == 1);
}

// ---- close_channel -------------------------------------------------------------------------

// One consumer (prefetch 3, concurrency 1), three jobs of one database op each: 1 s, except
// the first, which meets a 100x slowdown and takes 100 s. Consumer timeout 60 s.
config::Scenario ChannelScenario() {
  config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "consumer-timeout",
    "run": {"until_s": 3600},
    "kinds": {"job": {"idempotency": "none",
                      "handler": {"db_ops": 1, "db_op_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 3}],
    "database": {"connections": 1, "overload_factor": 0, "timeout_ms": 200000},
    "broker": {"visibility_timeout_s": 60},
    "workers": {"count": 1, "prefetch": 3, "concurrency": 1},
    "faults": [{"type": "db_slowdown", "from_s": 0, "until_s": 30, "factor": 100}]})");
  s.broker.on_visibility_timeout = config::OnVisibilityTimeout::kCloseChannel;
  return s;
}

TEST_CASE("close_channel: a consumer timeout returns every delivery of the channel",
          "[model][sim][lease][channel]") {
  Recorder rec;
  const Results r = RunRecorded(ChannelScenario(), rec);
  CheckConserved(r);
  // All three come back at 60 (the two buffered never ran) and are delivered again at once.
  for (uint64_t id = 0; id < 3; ++id) {
    CHECK(rec.TimesTo(id, MessageState::kReady) == Times{60});
    CHECK(rec.TimesTo(id, MessageState::kInFlight) == Times{0, 60});
  }
  // The stale first attempt still finishes at 100 (its ack ignored), then the new copies run.
  REQUIRE(!rec.ends.empty());
  CHECK(rec.ends[0].id == 0);
  CHECK(rec.ends[0].at_s == 100);
  CHECK(rec.ends[0].ack == AckFate::kIgnored);
  CHECK(rec.StartTimes(0) == Times{0, 100});
  CHECK(rec.StartTimes(1) == Times{101});
  CHECK(rec.StartTimes(2) == Times{102});
  CHECK(r.attempts == 4);
  CHECK(r.acked == 3);
  CHECK(r.duplicate_executions == 1);
  CHECK(r.visible_duplicates == 1);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kVisibilityTimeout)] == 1);
}

TEST_CASE("close_channel: consumer-timeout returns count towards delivery_limit",
          "[model][sim][lease][channel]") {
  config::Scenario s = ChannelScenario();
  s.broker.delivery_limit = 0;
  {
    Recorder rec;
    const Results r = RunRecorded(s, rec);
    CheckConserved(r);
    for (uint64_t id = 0; id < 3; ++id) {
      CHECK(rec.TimesTo(id, MessageState::kDeadLettered) == Times{60});
    }
    CHECK(r.dlq_end == 3);
    CHECK(r.human_needed_by_reason.at("dlq:delivery_limit") == 3);
    CHECK(r.attempts == 1);
    CHECK(r.acked == 0);
  }
  {
    // Not counted: returned as before.
    s.broker.delivery_counted[static_cast<size_t>(config::ReturnKind::kConsumerTimeout)] = false;
    const Results r = testing::RunAudited(s);
    CheckConserved(r);
    CHECK(r.acked == 3);
    CHECK(r.dlq_end == 0);
  }
}

TEST_CASE("close_channel without a channel to close returns the one message",
          "[model][sim][lease][channel]") {
  // The holder crashed and the broker waits out the timeout: only that message comes back.
  config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "crashed-holder",
    "run": {"until_s": 3600},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "broker": {"visibility_timeout_s": 60},
    "workers": {"count": 1, "restart_s": 1},
    "faults": [{"type": "worker_crash", "at_s": 5}]})");
  s.broker.on_visibility_timeout = config::OnVisibilityTimeout::kCloseChannel;
  s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
  Recorder rec;
  const Results r = RunRecorded(s, rec);
  CheckConserved(r);
  CHECK(rec.TimesTo(0, MessageState::kReady) == Times{60});
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{70});
}

// ---- conservation under chaos ----------------------------------------------------------------

// Every fault kind at once on a small system with every component (as simulation_chaos_test.cc),
// under each of this file's behaviours: the per-event audit and conservation must hold.
config::Scenario Chaos() {
  return LoadOrFail(
      testing::ChaosSystem(testing::kAllFaults, R"({"exponential": {"mean": 400}})", 60));
}

TEST_CASE("every message is accounted for with ETAs, leases and closed channels under chaos",
          "[model][sim][lease][conservation]") {
  using engine::Duration;
  for (int variant = 0; variant < 7; ++variant) {
    INFO("variant " << variant);
    config::Scenario s = Chaos();
    switch (variant) {
      case 0:  // ETAs, some longer than the visibility timeout
        s.retry.delivery = config::RetryDelivery::kEtaInConsumer;
        break;
      case 1:  // ETAs with consumers that wait out the timeout after a crash
        s.retry.delivery = config::RetryDelivery::kEtaInConsumer;
        s.broker.visibility_timeout = Duration::Seconds(5);
        s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
        break;
      case 2:  // locks shorter than many CPU steps, stalled checks, no stall allowed
        s.broker.lock_renewal = true;
        s.broker.visibility_timeout = Duration::Millis(300);
        s.broker.stalled_check = Duration::Seconds(1);
        s.broker.stalled_count_max = 0;
        s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
        break;
      case 3:  // the same, noticed at once, no limit
        s.broker.lock_renewal = true;
        s.broker.visibility_timeout = Duration::Millis(300);
        s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
        break;
      case 4:  // consumer timeouts close channels
        s.broker.on_visibility_timeout = config::OnVisibilityTimeout::kCloseChannel;
        s.broker.visibility_timeout = Duration::Seconds(1);
        break;
      case 5:  // ... with a delivery limit, ETAs and crashed holders
        s.broker.on_visibility_timeout = config::OnVisibilityTimeout::kCloseChannel;
        s.broker.visibility_timeout = Duration::Seconds(1);
        s.broker.delivery_limit = 3;
        s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
        s.retry.delivery = config::RetryDelivery::kEtaInConsumer;
        break;
      case 6:  // ordinary timeouts counted as stalls
        s.broker.visibility_timeout = Duration::Seconds(1);
        s.broker.stalled_count_max = 1;
        break;
    }
    for (uint64_t seed : {1, 2}) {
      INFO("seed " << seed);
      const Results r = testing::RunAudited(s, seed);
      CheckConserved(r);
      CHECK(r.published > 2500);
      CHECK(r.acked > 2000);
      if (variant == 4 || variant == 5) CHECK(r.duplicate_executions > 0);
      if (variant == 2 || variant == 6) CHECK(r.human_needed_by_reason.count("dlq:stalled") == 1);
    }
  }
}

}  // namespace
}  // namespace lease_test
}  // namespace drainsim::model
