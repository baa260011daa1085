// workers.autoscale (docs/MODEL.md, "Autoscaled workers"): the HPA's decision (Autoscaler)
// checked against values derived by hand from its rules, and whole runs through the loader,
// audited at every event, whose worker counts, times and worker-seconds are derived in the
// comments. The rules, for the derivations:
//  - every interval_s, proposal = ceil(metric / target), or current if
//    |1 - metric / (target x current)| <= 0.1;
//  - a proposal above current is taken, up to max(2 x start, start + 4) (start: current less
//    the changes of the last 15 s) and max; one below goes only as low as the largest proposal
//    of the last cooldown_s (strictly after now - cooldown_s), and not below min;
//  - added workers receive lag_s after the decision; removed ones stop receiving at once, give
//    back their prefetched copies, and what they still run grace_s later is killed as a crash.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/model/autoscaler.h"
#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace autoscale_test {
namespace {

using engine::Instant;
using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;

Instant At(int64_t s) { return Instant::Zero() + engine::Duration::Seconds(s); }

config::Autoscale Spec(double target, int64_t min, int64_t max, int64_t cooldown_s) {
  config::Autoscale a;
  a.metric = config::AutoscaleMetric::kDepth;
  a.target = target;
  a.min = min;
  a.max = max;
  a.cooldown = engine::Duration::Seconds(cooldown_s);
  return a;
}

TEST_CASE("autoscale: the tolerance band keeps the count within 10% of target",
          "[model][autoscale]") {
  // 10 workers at target 100 handle 1000. 1050 and 950 are 5% off: no change. 1200 is 20% off:
  // ceil(1200 / 100) = 12 (within the scale-up limit max(20, 14)). 850 is 15% below: ceil(8.5)
  // = 9, but the scale-down window (300 s) still holds proposals of 10 and 12: stays 12.
  Autoscaler scaler(Spec(100, 1, 100, 300), 10);
  CHECK(scaler.Proposal(1050, 10) == 10);
  CHECK(scaler.Proposal(950, 10) == 10);
  CHECK(scaler.Proposal(1099, 10) == 10);
  CHECK(scaler.Proposal(1101, 10) == 12);  // 10.1% off: ceil(11.01)
  CHECK(scaler.Proposal(899, 10) == 9);    // 10.1% off: ceil(8.99)
  CHECK(scaler.Decide(At(0), 1050) == 10);
  CHECK(scaler.Decide(At(15), 950) == 10);
  CHECK(scaler.Decide(At(30), 1200) == 12);
  CHECK(scaler.Decide(At(45), 1250) == 12);  // 1250 / 1200 - 1 = 4%: within the band
  CHECK(scaler.Decide(At(60), 850) == 12);
}

TEST_CASE("autoscale: the scale-up limit, max(2 x start, start + 4) per 15 s",
          "[model][autoscale]") {
  // Decisions every 5 s, a proposal of 100 each time. t = 0: start 1, limit max(2, 5) = 5.
  // t = 5 and 10: the +4 of t = 0 is within 15 s, so start = 1 again: limit 5, no change.
  // t = 15: the change at 0 is exactly 15 s old, out of the period: start 5, limit 10.
  // t = 30: start 10, limit 20. t = 45: start 20, limit 40, then max 30.
  config::Autoscale spec = Spec(1, 1, 30, 300);
  spec.interval = engine::Duration::Seconds(5);
  Autoscaler scaler(spec, 1);
  CHECK(scaler.Decide(At(0), 100) == 5);
  CHECK(scaler.Decide(At(5), 100) == 5);
  CHECK(scaler.Decide(At(10), 100) == 5);
  CHECK(scaler.Decide(At(15), 100) == 10);
  CHECK(scaler.Decide(At(20), 100) == 10);
  CHECK(scaler.Decide(At(30), 100) == 20);
  CHECK(scaler.Decide(At(45), 100) == 30);
}

TEST_CASE("autoscale: a scale-down waits for the window's largest proposal to leave it",
          "[model][autoscale]") {
  // Cooldown 300 s. t = 0: depth 1000 at 10 workers, proposal 10. From t = 15 the depth is 100:
  // proposal 1 each time, but the window (t - 300, t] still holds the 10 of t = 0 up to
  // t = 285; at t = 300 that proposal is exactly 300 s old and out: 1 worker (min 1).
  Autoscaler scaler(Spec(100, 1, 10, 300), 10);
  CHECK(scaler.Decide(At(0), 1000) == 10);
  for (int64_t t = 15; t <= 285; t += 15) CHECK(scaler.Decide(At(t), 100) == 10);
  CHECK(scaler.Decide(At(300), 100) == 1);
  // A spike inside the window holds the count up to its own proposal: at t = 315 a depth of
  // 500 at 1 worker proposes 5 (a scale-up, taken at once: limit max(2, 5) = 5); from t = 330
  // the depth is 0 again (proposal 0, then min 1), held at 5 until t = 315 + 300 = 615.
  CHECK(scaler.Decide(At(315), 500) == 5);
  for (int64_t t = 330; t <= 600; t += 15) CHECK(scaler.Decide(At(t), 0) == 5);
  CHECK(scaler.Decide(At(615), 0) == 1);
  // Min bounds a scale-down; cooldown 0 follows the proposal at once.
  Autoscaler eager(Spec(100, 2, 10, 0), 10);
  CHECK(eager.Decide(At(0), 300) == 3);
  CHECK(eager.Decide(At(15), 0) == 2);
}

// 1,000 jobs of exactly 1 s published at t = 0; one attempt slot per worker; 1 worker at the
// start, autoscaled on depth (ready + in flight) with target 100, max 10, the defaults
// otherwise (decisions every 15 s, lag 30 s, cooldown 300 s).
config::Scenario Golden() {
  return LoadOrFail(
      R"({"format_version": 1, "name": "autoscale-golden", "run": {"until_s": 2000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1000}],
      "workers": {"count": 1, "autoscale": {"metric": "depth", "target": 100, "max": 10}}})");
}

TEST_CASE("autoscale: the golden drain, worker counts, time to empty and worker-seconds",
          "[model][autoscale]") {
  // t = 0: depth 1000 at 1 worker: ratio 10, proposal ceil(1000 / 100) = 10; the scale-up
  // limit is max(2 x 1, 1 + 4) = 5: 5 workers, workers 1-4 receive from t = 30.
  // t = 15: worker 0 has finished 15 jobs (one a second), depth 985 or 986 (a job ends at the
  // same instant): proposal 10; the change at t = 0 is 15 s old, out of the 15 s period, so
  // start = 5 and the limit is max(10, 9) = 10: 10 workers, workers 5-9 receive from t = 45.
  // t = 30 on: depth <= 970 at 10 workers, proposal 10 or fewer; a scale-down would need the
  // 10s to leave the 300 s window, and the run ends first. So 2 scale-ups, no scale-down.
  // Jobs done: worker 0 alone up to t = 30 (30), 5 workers to t = 45 (+75: 105), then 10 a
  // second: 105 + 10 x 89 = 995 at t = 134, the last 5 at t = 135. Empty at 135 s.
  // Worker-seconds, each pod from its decision to the end at 135 s: worker 0, 135; workers
  // 1-4, 4 x 135 = 540; workers 5-9, 5 x (135 - 15) = 600. Total 1275.
  Recorder rec;
  const Results r = RunRecorded(Golden(), rec);
  CheckConserved(r);
  CHECK(r.acked == 1000);
  CHECK(r.attempts == 1000);
  CHECK(r.ended_at_s == 135.0);
  REQUIRE(r.backlog_cleared_s);
  CHECK(*r.backlog_cleared_s == 135.0);
  CHECK(r.autoscale);
  CHECK(r.autoscale_scale_ups == 2);
  CHECK(r.autoscale_scale_downs == 0);
  CHECK(r.autoscale_workers_max == 10);
  CHECK(r.autoscale_workers_end == 10);
  CHECK(r.autoscale_worker_s == 1275.0);
  CHECK(r.autoscale_returned == 0);
  CHECK(r.autoscale_kills == 0);
  // Who started when: worker w's first attempt.
  std::vector<double> first(10, -1);
  for (const auto& s : rec.starts) {
    REQUIRE(s.worker < 10);
    if (first[s.worker] < 0) first[s.worker] = s.at_s;
  }
  CHECK(first[0] == 0.0);
  for (int w = 1; w <= 4; ++w) CHECK(first[static_cast<size_t>(w)] == 30.0);
  for (int w = 5; w <= 9; ++w) CHECK(first[static_cast<size_t>(w)] == 45.0);
  // The series' workers column: receiving workers at each 10 s sample.
  for (const Sample& s : r.series) {
    const int64_t expected = s.t_s < 30 ? 1 : s.t_s < 45 ? 5 : 10;
    CHECK(s.workers == expected);
  }
}

// 4 workers at the start, prefetch 3, one slot each; 12 jobs: m0, m1 take 10 s, m2, m3 100 s,
// m4-m11 10 s. Target 1000 makes every proposal 1; cooldown 0 follows it at once; grace 30 s.
config::Scenario Drain(const std::string& requeue_on_crash) {
  return LoadOrFail(
      R"({"format_version": 1, "name": "autoscale-drain", "run": {"until_s": 2000},
      "kinds": {"short": {"handler": {"cpu_ms": {"constant": 10000}}},
                "long": {"handler": {"cpu_ms": {"constant": 100000}}}},
      "backlog": [{"where": "main", "kind": "short", "count": 2},
                  {"where": "main", "kind": "long", "count": 2},
                  {"where": "main", "kind": "short", "count": 8}],
      "broker": {"visibility_timeout_s": 1000, "requeue_on_crash": ")" +
      requeue_on_crash + R"("},
      "workers": {"count": 4, "prefetch": 3, "autoscale": {"metric": "depth", "target": 1000,
                  "max": 4, "cooldown_s": 0, "grace_s": 30}}})");
}

TEST_CASE(
    "autoscale: a removed worker returns its prefetch, finishes within grace, is killed past it",
    "[model][autoscale]") {
  // t = 0, before the first decision: the ring hands m0-m3 to workers 0-3 (each starts one),
  // then m4-m11 round the ring: each worker holds 3, one running and 2 buffered.
  // The decision at t = 0: depth 12, ratio 12 / 4000, proposal ceil(0.012) = 1: workers 3, 2, 1
  // are removed. Their 6 buffered copies return to the queue (worker 0 is full: they wait).
  // Worker 1 finishes m1 (10 s) at t = 10, within its grace. Workers 2 and 3 still run m2, m3
  // (100 s) at t = 30: both killed, a crash each (requeue_on_crash immediate: back to the
  // queue). Worker 0 then runs everything else: its own m0, m4, m8 (to t = 30), then the 6
  // returned and m2, m3 again. Attempts: 12 + 2. Wasted: 2 x 30 s.
  Recorder rec;
  const Results r = RunRecorded(Drain("immediate"), rec);
  CheckConserved(r);
  CHECK(r.acked == 12);
  CHECK(r.attempts == 14);
  CHECK(r.autoscale_scale_downs == 1);
  CHECK(r.autoscale_scale_ups == 0);
  CHECK(r.autoscale_returned == 6);
  CHECK(r.autoscale_kills == 2);
  CHECK(r.autoscale_workers_max == 4);
  CHECK(r.autoscale_workers_end == 1);
  CHECK(r.wasted_worker_s == 60.0);
  // Worker 0 alone after t = 30 (its m0, m4, m8 took it to t = 30): the 6 returned short jobs
  // (60 s) and the two long ones again (200 s): the run ends at 290 s.
  CHECK(r.ended_at_s == 290.0);
  // Worker-seconds: worker 0 for the whole run; workers 1-3 until their grace ended at t = 30.
  CHECK(r.autoscale_worker_s == r.ended_at_s + 3 * 30.0);
}

TEST_CASE("autoscale: a kill past the grace period follows the broker's crash rules",
          "[model][autoscale]") {
  // The same drain where a crash loses what was running (requeue_on_crash lost, Sidekiq's
  // BRPOP): the two 100 s jobs die with workers 2 and 3; the 6 returned copies were not
  // running and went back to the queue at t = 0, so 10 are acked and 2 lost by the broker.
  const Results r = testing::RunAudited(Drain("lost"));
  CheckConserved(r);
  CHECK(r.acked == 10);
  CHECK(r.attempts == 12);
  CHECK(r.autoscale_returned == 6);
  CHECK(r.autoscale_kills == 2);
  CHECK(r.broker_lost == 2);
}

}  // namespace
}  // namespace autoscale_test
}  // namespace drainsim::model
