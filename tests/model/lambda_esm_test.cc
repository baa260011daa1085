// workers.lambda_esm (docs/PRESETS.md, "lambda_esm"): an AWS Lambda event-source mapping reads
// an SQS queue. Its pollers start at 5 and grow by 300 a minute (5 a second) while messages
// wait; a poller whose invocation finds all of the function's reserved concurrency busy is
// throttled: the message was received (receive count + 1, hidden for the visibility timeout)
// and not processed. Without MaximumConcurrency the pollers outgrow the function and throttled
// receives pile up on maxReceiveCount; with MaximumConcurrency at the function's concurrency
// no receive is throttled. Through the loader; every run audited at every event; every count
// below derived in a comment from these rules.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace lambda_esm_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;

// `count` orders published at once (the backlog at t = 0), each taking 20 s of work; the sqs
// preset's 30 s visibility timeout; maxReceiveCount `receive_count_max`; a function of reserved
// concurrency 64 (64 execution environments) fed by the ESM, `esm_extra` added to lambda_esm.
config::Scenario Burst(int count, int receive_count_max, const std::string& esm_extra) {
  return LoadOrFail(
      R"({"format_version": 1, "name": "lambda-esm", "run": {"until_s": 2000},
      "kinds": {"order": {"handler": {"cpu_ms": {"constant": 20000}}}},
      "backlog": [{"where": "main", "kind": "order", "count": )" +
      std::to_string(count) + R"(}],
      "broker": {"preset": "sqs", "receive_count_max": )" +
      std::to_string(receive_count_max) + R"(},
      "workers": {"count": 64, "lambda_esm": {"function_concurrency": 64)" +
      esm_extra + "}}}");
}

// The most attempts running at once, from the recorded starts and ends; at one instant ends
// count first (a finished invocation frees its environment before the next begins).
int64_t MostRunning(const Recorder& rec) {
  std::vector<std::pair<double, int>> steps;
  for (const auto& s : rec.starts) steps.push_back({s.at_s, +1});
  for (const auto& e : rec.ends) steps.push_back({e.at_s, -1});
  std::sort(steps.begin(), steps.end());
  int64_t running = 0;
  int64_t most = 0;
  for (const auto& [at, step] : steps) {
    running += step;
    most = std::max(most, running);
  }
  return most;
}

// Every burst below starts alike. t = 0: 5 pollers, 5 orders invoked. Each second while orders
// wait, floor(300 x s / 60) = 5 s pollers more: at t = 11 there are 60, all invoked. At t = 12
// there are 65 pollers: 4 more invocations fill the 64 environments, and the 65th poller is
// free: receives take no time, so it receives every order still visible, each throttled (receive
// count 1, hidden until t = 42). No order is visible after that, so the pollers stay at 65.
// Then rounds, every 30 s (t = 12 + 30 r): the throttled orders become visible together; the 64
// environments are all free again (the last invocation of the previous round ended 20 s after
// it began, before the 30 s timeout), so 64 are invoked and the free poller throttles the rest
// at once. An order received in round r has been received r times before; at receive count 9 it
// goes to the DLQ instead (the sqs preset's receive_count_max: SQS moves a message received
// more than maxReceiveCount times).

TEST_CASE(
    "lambda_esm: the issue's burst (500, concurrency 64, maxReceiveCount 9) loses nothing "
    "to throttles",
    "[model][lambda-esm]") {
  // 500 - 64 = 436 throttled at t = 12; rounds 1..6 invoke 64 each and throttle 372, 308, 244,
  // 180, 116, 52; round 7 (t = 222) invokes the last 52 with receive count 7 + 1 = 8 <= 9.
  // Throttles: 436 + 372 + 308 + 244 + 180 + 116 + 52 = 1708, and no spurious DLQ entry.
  // Why none: an order throttled 9 times found all 64 environments busy at 9 receives 30 s
  // apart, and an invocation lasts 20 s, so 9 x 64 = 576 distinct invocations ran: more than
  // the 500 orders. A burst of 500 at concurrency 64 cannot reach 9 throttles while the work is
  // shorter than the visibility timeout (as Lambda requires of the function's timeout).
  Recorder rec;
  const Results r = RunRecorded(Burst(500, 9, ""), rec);
  CheckConserved(r);
  CHECK(r.acked == 500);
  CHECK(r.attempts == 500);
  CHECK(r.throttles == 1708);
  CHECK(r.dlq_end == 0);
  CHECK(r.dead_lettered_unprocessed == 0);
  CHECK(r.esm_pollers_end == 65);
  CHECK(MostRunning(rec) == 64);
}

TEST_CASE("lambda_esm: without MaximumConcurrency a bigger burst leaves spurious DLQ entries",
          "[model][lambda-esm]") {
  // 1000 orders: 936 throttled at t = 12. Rounds 1..8 (t = 42..252) invoke 64 each; after round
  // 8 the 936 - 8 x 64 = 424 left have been received 9 times (t = 12 and rounds 1..8), every
  // receive throttled. Round 9 (t = 282) finds each at receive count 9: dead-lettered, reason
  // receive_count_max, never processed. Acked: 64 + 8 x 64 = 576. Throttles: 936 at t = 12 and
  // 936 - 64 r in round r = 1..8: 936 + 8 x 936 - 64 x 36 = 6120.
  Recorder rec;
  const Results r = RunRecorded(Burst(1000, 9, ""), rec);
  CheckConserved(r);
  CHECK(r.acked == 576);
  CHECK(r.attempts == 576);  // no order ran twice, none failed
  CHECK(r.dlq_end == 424);
  CHECK(r.dead_lettered_unprocessed == 424);
  CHECK(r.throttles == 6120);
  CHECK(MostRunning(rec) == 64);
  int64_t dead_lettered = 0;
  for (const auto& m : rec.moves) {
    if (m.to != MessageState::kDeadLettered) continue;
    ++dead_lettered;
    CHECK(m.at_s == 282.0);
    CHECK(m.dlq_reason == config::DlqReason::kReceiveCountMax);
  }
  CHECK(dead_lettered == 424);
}

TEST_CASE(
    "lambda_esm: the issue's burst at AWS's recommended minimum maxReceiveCount 5 leaves "
    "spurious DLQ entries",
    "[model][lambda-esm]") {
  // 500 orders, maxReceiveCount 5: after round 4 (t = 132) 436 - 4 x 64 = 180 orders have been
  // received 5 times, all throttled; round 5 (t = 162) dead-letters them. Acked 64 + 4 x 64 = 320.
  const Results r = testing::RunAudited(Burst(500, 5, ""));
  CheckConserved(r);
  CHECK(r.acked == 320);
  CHECK(r.attempts == 320);
  CHECK(r.dlq_end == 180);
  CHECK(r.dead_lettered_unprocessed == 180);
}

TEST_CASE("lambda_esm: MaximumConcurrency 64 throttles nothing and dead-letters nothing",
          "[model][lambda-esm]") {
  // The pollers grow as before but stop at 64 (t = 12: min(64, 65)); a poller waits for its
  // invocation, so at most 64 run and none is throttled. Every order is received once and acked.
  for (const int count : {500, 1000}) {
    for (const int receive_count_max : {9, 5}) {
      Recorder rec;
      const Results r =
          RunRecorded(Burst(count, receive_count_max, R"(, "maximum_concurrency": 64)"), rec);
      CheckConserved(r);
      CHECK(r.acked == count);
      CHECK(r.attempts == count);
      CHECK(r.throttles == 0);
      CHECK(r.dlq_end == 0);
      CHECK(r.dead_lettered_unprocessed == 0);
      CHECK(r.esm_pollers_end == 64);
      CHECK(MostRunning(rec) == 64);
    }
  }
}

TEST_CASE("lambda_esm: MaximumConcurrency below the function's caps the invocations",
          "[model][lambda-esm]") {
  // 10 pollers at most: the first 5 at t = 0, 10 from t = 1; 100 orders of 20 s in 10 waves.
  Recorder rec;
  const Results r = RunRecorded(Burst(100, 9, R"(, "maximum_concurrency": 10)"), rec);
  CheckConserved(r);
  CHECK(r.acked == 100);
  CHECK(r.throttles == 0);
  CHECK(MostRunning(rec) == 10);
  CHECK(r.esm_pollers_end == 10);
}

}  // namespace
}  // namespace lambda_esm_test
}  // namespace drainsim::model
