// The nats-jetstream preset's rules (docs/PRESETS.md, docs/PRESETS-AUDIT.md section 4), through
// the loader and the model: AckWait, MaxDeliver into the advisory-fed DLQ stream, Nak with and
// without a delay, redeliveries served first, and MaxAckPending's silent stall. Expectations are
// exact, derived in the comments.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace nats_jetstream_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunAudited;
using testing::RunRecorded;
using testing::Times;

// A scenario under nats-jetstream with `broker_extra` (JSON members after the preset) and the
// rest `body`, sampled every 0.5 s.
config::Scenario Nats(const std::string& broker_extra, double until_s, const std::string& body) {
  return LoadOrFail(R"({"format_version": 1, "name": "nats", "run": {"until_s": )" +
                    std::to_string(until_s) +
                    R"(, "sample_every_s": 0.5}, "broker": {"preset": "nats-jetstream")" +
                    broker_extra + "}, " + body + "}");
}

// `count` jobs of `cpu_ms` each on `workers` single-slot workers.
std::string Jobs(int count, int workers, int cpu_ms, const std::string& extra = "") {
  return R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": )" + std::to_string(cpu_ms) +
         R"(}}}}, "backlog": [{"where": "main", "kind": "job", "count": )" + std::to_string(count) +
         R"(}], "workers": {"count": )" + std::to_string(workers) + "}" + extra;
}

// Every job fails with a transient error after 1 s.
const char* kPoison = R"(, "faults": [{"type": "poison", "kind": "job", "fraction": 1,
    "error": "transient", "fail_after_ms": 1000}])";

TEST_CASE("nats-jetstream: MaxAckPending stalls new deliveries silently, and the series shows it",
          "[model][preset][nats]") {
  // 50 jobs of 1 s on 10 workers, but at most 5 delivered and unacked: 5 at a time, 10 s in
  // all (5 s without the limit). At every sample before the end 5 are pending and the rest
  // wait ready while 5 workers idle.
  const Results limited = RunAudited(Nats(R"(, "ack_pending_max": 5)", 100, Jobs(50, 10, 1000)));
  CheckConserved(limited);
  CHECK(limited.acked == 50);
  CHECK(limited.ended_at_s == Approx(10).margin(1e-9));
  CHECK(limited.ack_pending_limited);
  bool stall_seen = false;
  for (const Sample& s : limited.series) {
    CHECK(s.ack_pending <= 5);
    CHECK(s.in_flight <= 5);
    CHECK(s.workers_busy <= 5);
    if (s.ack_pending == 5 && s.depth > 0) stall_seen = true;
  }
  CHECK(stall_seen);
  CHECK(limited.series.front().depth == 45);

  // The preset's own limit, 1000, is far above 10 workers: no stall.
  const Results preset = RunAudited(Nats("", 100, Jobs(50, 10, 1000)));
  CHECK(preset.ended_at_s == Approx(5).margin(1e-9));
}

TEST_CASE("nats-jetstream: a Nak'd message still counts towards MaxAckPending",
          "[model][preset][nats]") {
  // Limit 1, one poison job and one good one behind it (published second): the poison job is
  // Nak'd at 1, 2, 3 and dropped by MaxDeliver 3 at 3 (the advisory moves it to the DLQ). Only
  // then does the good job get its slot: it runs 3-4.
  const std::string body = R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 1000}}},
              "good": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "bad", "count": 1},
                {"where": "main", "kind": "good", "count": 1}],
    "workers": {"count": 2},
    "faults": [{"type": "poison", "kind": "bad", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])";
  Recorder rec;
  const Results r =
      RunRecorded(Nats(R"(, "ack_pending_max": 1, "receive_count_max": 3)", 100, body), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 1, 2});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{3});
  CHECK(rec.StartTimes(1) == Times{3});
  CHECK(r.acked == 1);
}

TEST_CASE("nats-jetstream: MaxDeliver k dead-letters after exactly k deliveries",
          "[model][preset][nats]") {
  for (int k : {1, 3, 7}) {
    INFO("MaxDeliver " << k);
    // Nak at once after each 1 s failure: deliveries at 0, 1, ..., k-1; the (k+1)th would
    // exceed MaxDeliver, at k s.
    const Results r = RunAudited(
        Nats(R"(, "receive_count_max": )" + std::to_string(k), 1000, Jobs(1, 2, 1, kPoison)));
    CheckConserved(r);
    CHECK(r.attempts == k);
    REQUIRE(r.dlq_sample.size() == 1);
    CHECK(r.dlq_sample[0].reason == "receive_count_max");
    CHECK(r.dlq_sample[0].dead_lettered_at_s == Approx(k).margin(1e-9));
  }
}

TEST_CASE("nats-jetstream: without the advisory consumer the message stays parked in the stream",
          "[model][preset][nats]") {
  const Results r = RunAudited(Nats(R"(, "receive_count_max": 4, "dead_letter_queue": false)", 1000,
                                    Jobs(1, 1, 1, kPoison)));
  CheckConserved(r);
  CHECK(r.attempts == 4);
  CHECK(r.parked == 1);
  CHECK(r.dlq_end == 0);
  CHECK(r.human_needed_by_reason.at("failed:receive_count_max") == 1);
}

TEST_CASE("nats-jetstream: without MaxDeliver a failing message is redelivered for ever",
          "[model][preset][nats]") {
  // Nak at once after each 1 s failure: deliveries at 0, 1, ..., 99, nothing dead-lettered.
  const Results r = RunAudited(Nats("", 99.5, Jobs(1, 1, 1, kPoison)));
  CHECK(r.attempts == 100);
  CHECK(r.dlq_end == 0);
  CHECK(r.not_terminal_end == 1);
}

TEST_CASE("nats-jetstream: a crashed consumer's message comes back after AckWait, 30 s",
          "[model][preset][nats]") {
  const Results r = RunAudited(Nats("", 1000, Jobs(1, 1, 10000, R"(,
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}])")));
  CheckConserved(r);
  CHECK(r.acked == 1);
  CHECK(r.attempts == 2);
  // Redelivered when AckWait runs out at 30 s, to the worker back at 35 (restart_s 30): done
  // at 45.
  CHECK(r.ended_at_s == Approx(45).margin(1e-9));
}

TEST_CASE("nats-jetstream: NakWithDelay waits, then the redelivery goes before new messages",
          "[model][preset][nats]") {
  // One worker; message 0 fails after 1 s and is Nak'd with a 0.5 s delay; messages 1..3 take
  // 1 s. Message 1 runs 1-2; message 0 is ready again at 1.5 and, a redelivery, goes before 2
  // and 3: it runs again at 2 and fails at 3 (message 2 then runs 3-4). Ready again at 3.5, first
  // in line, it is dropped by MaxDeliver 2 when the worker next asks for a message, at 4 (as
  // getNextMsg checks MaxDeliver when a message is about to be delivered).
  const std::string body = R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 1000}}},
              "good": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "bad", "count": 1},
                {"where": "main", "kind": "good", "count": 3}],
    "workers": {"count": 1},
    "faults": [{"type": "poison", "kind": "bad", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])";
  const std::string delay =
      R"(, "receive_count_max": 2, "redelivery_backoff": {"kind": "constant", "delay_s": 0.5,
         "jitter": {"kind": "none"}})";
  Recorder rec;
  const Results r = RunRecorded(Nats(delay, 100, body), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 2});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{4});
  CHECK(rec.StartTimes(1) == Times{1});
  CHECK(rec.StartTimes(2) == Times{3});
  CHECK(rec.StartTimes(3) == Times{4});
  // With RabbitMQ's "head" a delayed message is not a return: it waits behind 2 and 3.
  Recorder head;
  RunRecorded(Nats(delay + R"(, "requeue_position": "head", "ack_pending_max": null)", 100, body),
              head);
  CHECK(head.StartTimes(0) == Times{0, 4});
}

}  // namespace
}  // namespace nats_jetstream_test
}  // namespace drainsim::model
