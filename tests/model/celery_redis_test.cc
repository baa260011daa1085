// Celery on Redis (kombu 5.4-5.6, docs/PRESETS-AUDIT.md section 3): where a message restored
// after its visibility timeout waits (requeue_position restored_to_head). Through the loader;
// expectations are exact, derived in the comments.
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
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

// The celery preset with a visibility timeout of `timeout_s`, a dead worker's messages restored
// after it, `broker` (JSON members, each after a comma) and the rest `body`.
config::Scenario Celery(double timeout_s, const std::string& broker, const std::string& body) {
  return LoadOrFail(
      R"({"format_version": 1, "name": "celery-redis", "run": {"until_s": 10000},
          "broker": {"preset": "celery", "visibility_timeout_s": )" +
      std::to_string(timeout_s) + R"(, "requeue_on_crash": "after_visibility_timeout")" + broker +
      "}, " + body + "}");
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
    const Results r = RunRecorded(Celery(10, "", body), rec);
    CheckConserved(r);
    CHECK(r.acked == 21);
    CHECK(rec.StartTimes(0) == Times{0, 10.5});
    CHECK(rec.StartTimes(10) == Times{9.5});
    CHECK(rec.StartTimes(11) == Times{11.5});
    CHECK(rec.StartTimes(20) == Times{20.5});
  }
  SECTION("tail (drainsim's celery before the audit): behind the ten waiting, at 20.5") {
    Recorder rec;
    const Results r = RunRecorded(Celery(10, R"(, "requeue_position": "tail")", body), rec);
    CheckConserved(r);
    CHECK(rec.StartTimes(0) == Times{0, 20.5});
    CHECK(rec.StartTimes(11) == Times{10.5});
  }
  SECTION("head (RabbitMQ's returns queue) does not apply: a timeout is not a return") {
    Recorder rec;
    RunRecorded(Celery(10, R"(, "requeue_position": "head")", body), rec);
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
  const Results r = RunRecorded(Celery(10.25, "", Backlog(14, 1, "0.5, 1")), rec);
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
  const Results r = RunRecorded(Celery(10, "", Backlog(16, 2, "0.5")), rec);
  CheckConserved(r);
  CHECK(r.acked == 16);
  CHECK(rec.StartTimes(0) == Times{0, 11.5});
  CHECK(rec.StartTimes(1) == Times{12.5});
  CHECK(rec.StartTimes(12) == Times{10.5});
  CHECK(rec.StartTimes(13) == Times{13.5});
}

}  // namespace
}  // namespace drainsim::model
