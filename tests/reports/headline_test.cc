// The headline phrases state what happened (reports/headline.h). Regressions from issue 13:
// "time to empty 1689 s" beside 20,346 messages left in the DLQ, "achieved 29.6/s" for a drain
// that replayed at 5000/s, "time to empty: never" with no drain at all, "never" for alerts that
// were never configured, and drains that never started printed as "0/s".
#include <catch2/catch.hpp>

#include "reports/headline.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::reports {
namespace headline_test {
namespace {

model::DrainResults Drain(std::optional<double> start_s, int64_t replayed,
                          std::optional<double> last_s) {
  model::DrainResults d;
  d.started_at_s = start_s;
  d.replayed = replayed;
  d.last_replay_at_s = last_s;
  return d;
}

TEST_CASE("time to empty says what happened", "[reports][headline]") {
  model::Results r;
  CHECK(TimeToEmptyValue(r) == "no drain planned");
  CHECK(TimeToEmptyDetail(r) == "");
  r.drains.push_back(Drain(std::nullopt, 0, std::nullopt));
  CHECK(TimeToEmptyValue(r) == "never: no drain started");
  r.drains[0] = Drain(100, 25000, 105);
  r.drains[0].left = 120;
  CHECK(TimeToEmptyValue(r) == "never: 120 replayable messages left in the DLQ");
  r.drains[0].left = 1;
  CHECK(TimeToEmptyValue(r) == "never: 1 replayable message left in the DLQ");
  r.drains[0].left = 0;
  CHECK(TimeToEmptyValue(r) == "never: replays still in the queue at the end");
  r.time_to_empty_s = 1689.5;
  CHECK(TimeToEmptyValue(r) == "1689.5 s");
  CHECK(TimeToEmptyDetail(r) == "");
  r.dlq_end = 20346;
  r.refilled = 20000;
  CHECK(TimeToEmptyDetail(r) ==
        "the DLQ emptied 1689.5 s after the first drain started; 20346 in it again by the end "
        "(20000 replays died again)");
}

TEST_CASE("a drain's pace is the pace of its replays", "[reports][headline]") {
  CHECK(DrainReplayPhrase(Drain(std::nullopt, 0, std::nullopt)) == "never started");
  CHECK(DrainReplayPace(Drain(std::nullopt, 0, std::nullopt)) == "-");
  CHECK(DrainReplayPhrase(Drain(10, 0, std::nullopt)) == "replayed nothing");
  CHECK(DrainReplayPhrase(Drain(10, 1, 10.5)) == "replayed 1 at 10.5 s");
  CHECK(DrainReplayPhrase(Drain(10, 25000, 10)) == "replayed 25000 at once");
  // 25,000 replays at 5000/s: k-th at 10 + k/5000, the last 4.9998 s after the start.
  model::DrainResults bulk = Drain(10, 25000, 14.9998);
  bulk.achieved_rate_per_s = 29.6;  // its whole active time, settling included
  CHECK(DrainReplayPhrase(bulk) == "replayed 25000 in 5 s (5000.2/s)");
  REQUIRE(ReplayRatePerS(bulk).has_value());
  CHECK(*ReplayRatePerS(bulk) == Approx(5000.2).epsilon(1e-6));
  CHECK_FALSE(ReplayRatePerS(Drain(10, 1, 10.5)).has_value());
}

TEST_CASE("only configured alerts have a phrase, fired or not", "[reports][headline]") {
  model::Results r;
  CHECK(AlertPhrases(r).empty());
  r.age_alert_on = true;
  r.dlq_depth_alert_on = true;
  r.dlq_depth_alert_first_s = 546.1;
  const std::vector<AlertPhrase> phrases = AlertPhrases(r);
  REQUIRE(phrases.size() == 2);
  CHECK(phrases[0].name == "oldest age");
  CHECK(phrases[0].value == "never fired");
  CHECK_FALSE(phrases[0].fired);
  CHECK(phrases[1].name == "DLQ depth");
  CHECK(phrases[1].value == "first at 546.1 s");
  CHECK(phrases[1].fired);
}

TEST_CASE("a window shared by faults of one type gives its amplification once",
          "[reports][headline]") {
  model::Results r;
  r.retry_amplification = 1.5;
  r.attempts = 300;
  r.first_attempts = 200;
  r.fault_windows = {{0, "errors", 0, 600, 90, 30},
                     {1, "errors", 0, 600, 90, 30},
                     {2, "db_slowdown", 0, 600, 90, 30},
                     {3, "errors", 600, 900, 10, 10}};
  CHECK(RetryAmplificationText(r) ==
        "1.5 (300 attempts over 200 first attempts); errors 0-600 s (2 faults): 3; "
        "db_slowdown 0-600 s: 3; errors 600-900 s: 1");
  // Faults whose counts differ (one opened after an attempt started in the same instant) are
  // not merged, and each names its fault.
  r.fault_windows[1].attempts = 91;
  CHECK(RetryAmplificationText(r) ==
        "1.5 (300 attempts over 200 first attempts); errors 0-600 s (fault 0): 3; "
        "errors 0-600 s (fault 1): 3.033; db_slowdown 0-600 s: 3; errors 600-900 s: 1");
}

}  // namespace
}  // namespace headline_test
}  // namespace drainsim::reports
