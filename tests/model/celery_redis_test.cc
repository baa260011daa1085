// Celery on Redis (kombu 5.4-5.6, docs/PRESETS-AUDIT.md section 3): where a message restored
// after its visibility timeout waits (requeue_position restored_to_head). Through the loader;
// expectations are exact, derived in the comments.
//
// The ordering tests set restore_sweep_s null (exact timers) to see the order alone; the sweep's
// own tests come last.
//
// A message is restored only if nothing acked it: the worker holding it died (the host lost, not
// the pool's child process, which Celery fails with WorkerLostError), so these scenarios set
// requeue_on_crash after_visibility_timeout: Redis keeps the delivery in its unacked set until
// the visibility timeout runs out.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace celery_redis_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

// The celery preset with a visibility timeout of `timeout_s`, a restore sweep every `sweep_s`
// ("null": exact timers; "": the preset's 100 s), a dead worker's messages restored after the
// timeout, `broker` (JSON members, each after a comma) and the rest `body`.
config::Scenario Celery(double timeout_s, const std::string& sweep_s, const std::string& broker,
                        const std::string& body) {
  const std::string sweep = sweep_s.empty() ? "" : R"(, "restore_sweep_s": )" + sweep_s;
  return LoadOrFail(
      R"({"format_version": 1, "name": "celery-redis", "run": {"until_s": 10000},
          "broker": {"preset": "celery", "visibility_timeout_s": )" +
      std::to_string(timeout_s) + R"(, "requeue_on_crash": "after_visibility_timeout")" + sweep +
      broker + "}, " + body + "}");
}

// `count` one-second jobs on one worker running one at a time with `prefetch`; the worker dies
// at each of `crash_at_s` and is back at once.
std::string Backlog(int count, int prefetch, const std::string& crash_at_s) {
  std::string faults;
  size_t start = 0;
  while (start < crash_at_s.size()) {
    const size_t comma = crash_at_s.find(',', start);
    const size_t end = comma == std::string::npos ? crash_at_s.size() : comma;
    if (!faults.empty()) faults += ", ";
    faults += R"({"type": "worker_crash", "at_s": )" + crash_at_s.substr(start, end - start) + "}";
    start = end + 1;
  }
  return R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
         std::to_string(count) + R"(}],
    "workers": {"count": 1, "prefetch": )" +
         std::to_string(prefetch) + R"(, "concurrency": 1, "restart_s": 0},
    "faults": [)" + faults + "]";
}

TEST_CASE("celery: a message restored after its visibility timeout is the next delivered",
          "[model][preset][celery]") {
  // Message 0 is delivered at 0 and its worker dies at 0.5. Back at once, the worker runs
  // message k (k >= 1) from k - 0.5. At 10 the visibility timeout restores message 0 while
  // message 10 runs (9.5-10.5) and 11..20 wait.
  const std::string body = Backlog(21, 1, "0.5");
  SECTION("the preset (restored_to_head): message 0 runs next, at 10.5") {
    Recorder rec;
    const Results r = RunRecorded(Celery(10, "null", "", body), rec);
    CheckConserved(r);
    CHECK(r.acked == 21);
    CHECK(rec.StartTimes(0) == Times{0, 10.5});
    CHECK(rec.StartTimes(10) == Times{9.5});
    CHECK(rec.StartTimes(11) == Times{11.5});
    CHECK(rec.StartTimes(20) == Times{20.5});
  }
  SECTION("tail (drainsim's celery before the audit): behind the ten waiting, at 20.5") {
    Recorder rec;
    const Results r = RunRecorded(Celery(10, "null", R"(, "requeue_position": "tail")", body), rec);
    CheckConserved(r);
    CHECK(rec.StartTimes(0) == Times{0, 20.5});
    CHECK(rec.StartTimes(11) == Times{10.5});
  }
  SECTION("head (RabbitMQ's returns queue) does not apply: a timeout is not a return") {
    Recorder rec;
    RunRecorded(Celery(10, "null", R"(, "requeue_position": "head")", body), rec);
    CHECK(rec.StartTimes(0) == Times{0, 20.5});
  }
}

TEST_CASE("celery: of two restores, the later is delivered first (kombu RPUSH, BRPOP)",
          "[model][preset][celery]") {
  // Visibility timeout 10.25 s. The worker dies at 0.5 holding message 0 (delivered at 0) and
  // at 1 holding message 1 (delivered at 0.5); then message k (k >= 2) runs from k - 1.
  // Message 0 is restored at 10.25 and message 1 at 10.75, both while message 11 runs (10-11):
  // 1, pushed last, runs at 11, then 0 at 12, then message 12 at 13.
  Recorder rec;
  const Results r = RunRecorded(Celery(10.25, "null", "", Backlog(14, 1, "0.5, 1")), rec);
  CheckConserved(r);
  CHECK(r.acked == 14);
  CHECK(rec.StartTimes(1) == Times{0.5, 11});
  CHECK(rec.StartTimes(0) == Times{0, 12});
  CHECK(rec.StartTimes(12) == Times{13});
}

TEST_CASE("celery: one batch of restores is delivered in fetch order", "[model][preset][celery]") {
  // Prefetch 2: the worker takes messages 0 and 1 at 0 and dies at 0.5 holding both. Back at
  // once, it runs message k (k >= 2) from k - 1.5, each fetched a run ahead. At 10 both are
  // restored in one batch; kombu restores the newest fetch first, each in front, so message 0
  // ends up first. While 11 runs (9.5-10.5) the worker holds 12; it fetches 0 at 10.5 and 1 at
  // 11.5: 0 runs 11.5-12.5, 1 runs 12.5-13.5, then 13.
  Recorder rec;
  const Results r = RunRecorded(Celery(10, "null", "", Backlog(16, 2, "0.5")), rec);
  CheckConserved(r);
  CHECK(r.acked == 16);
  CHECK(rec.StartTimes(0) == Times{0, 11.5});
  CHECK(rec.StartTimes(1) == Times{12.5});
  CHECK(rec.StartTimes(12) == Times{10.5});
  CHECK(rec.StartTimes(13) == Times{13.5});
}

// ---- the restore sweep (broker.restore_sweep_s) -------------------------------------------

// One 30 s job whose first run (started at 0, while the errors fault is on) fails at 30; it is
// retried with a countdown of 3800 s (ETA
// 3830), on four workers; visibility timeout 1000 s.
std::string EtaBody() {
  return R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 30000}}, "idempotency": "none"}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 4},
    "faults": [{"type": "errors", "kind": "job", "probability": 1.0, "error": "transient",
                "fail_after_ms": 30000, "until_s": 1}],
    "retry": {"backoff": {"kind": "constant", "delay_s": 3800, "jitter": {"kind": "none"}}})";
}

// Times at which message `id` was restored after its visibility timeout.
Times RestoredAt(const Recorder& rec, uint64_t id) {
  Times out;
  for (const Recorder::Move& m : rec.moves) {
    if (m.id == id && m.to == MessageState::kReady &&
        m.cause == TransitionCause::kVisibilityTimeout)
      out.push_back(m.at_s);
  }
  return out;
}

TEST_CASE(
    "celery: an ETA longer than the visibility timeout loops every timeout plus the wait for "
    "a sweep",
    "[model][preset][celery]") {
  // The retry is fetched at 30 and held until the ETA. Its timeout runs out at 1030; the sweep
  // (every 100 s from 0) restores it at 1100 and a worker fetches it at once. That fetch, at a
  // sweep, runs out at 2100 exactly, after the sweep at 2100 read its clock: restored at 2200,
  // then 3300. The loop's period is 1100 s, the timeout plus one sweep period. At the ETA the
  // four holders (fetched at 30, 1100, 2200, 3300) all run it: three duplicates.
  SECTION("the preset: a sweep every 100 s") {
    Recorder rec;
    const Results r = RunRecorded(Celery(1000, "", "", EtaBody()), rec);
    CheckConserved(r);
    CHECK(RestoredAt(rec, 0) == Times{1100, 2200, 3300});
    CHECK(r.acked == 1);
    CHECK(r.duplicate_executions == 3);
  }
  SECTION("restore_sweep_s null: exactly every timeout") {
    Recorder rec;
    const Results r = RunRecorded(Celery(1000, "null", "", EtaBody()), rec);
    CheckConserved(r);
    CHECK(RestoredAt(rec, 0) == Times{1030, 2030, 3030});  // the period is the timeout
    CHECK(r.duplicate_executions == 3);
  }
}

TEST_CASE("celery: a sweep restores every delivery whose timeout ran out, and no other",
          "[model][preset][celery]") {
  // Timeout 10.25 s, a sweep every 4.5 s. The worker dies at 0.5 holding message 0 (fetched at
  // 0) and at 1 holding message 1 (fetched at 0.5 after the restart); their timeouts end at
  // 10.25 and 10.75. The sweep at 9 restores neither, the sweep at 13.5 both, as one batch.
  // Message k (k >= 2) runs from k - 1: 14 runs 13-14, then 0 (fetched first) at 14, 1 at 15,
  // and 15 at 16.
  Recorder rec;
  const Results r =
      RunRecorded(Celery(10.25, "4.5", "", Backlog(18, 1, "0.5, 1")), rec);
  CheckConserved(r);
  CHECK(r.acked == 18);
  CHECK(RestoredAt(rec, 0) == Times{13.5});
  CHECK(RestoredAt(rec, 1) == Times{13.5});
  CHECK(rec.StartTimes(0) == Times{0, 14});
  CHECK(rec.StartTimes(1) == Times{0.5, 15});
  CHECK(rec.StartTimes(15) == Times{16});
}

}  // namespace
}  // namespace celery_redis_test
}  // namespace drainsim::model
