// Expectations judged against hand-made Results: each bound kind, undefined and unmeasured
// figures, per-kind figures, windows (during drains and faults), always and sometimes.
#include "reports/expectations.h"

#include <catch2/catch.hpp>
#include <string>

#include "reports/measure.h"
#include "sim/config/enum_names.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::testing {
namespace expectations_test {
namespace {

using config::During;
using config::Quantifier;
using config::RunMetric;
using config::SeriesMetric;
using reports::Evaluate;
using reports::Verdict;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_CASE("expectations: text as a user would write it", "[reports][expectations]") {
  using reports::ExpectationText;
  CHECK(ExpectationText(Metric(RunMetric::kTimeToEmpty, Max(1800))) == "time_to_empty_s <= 1800");
  CHECK(ExpectationText(Metric(RunMetric::kLost, Equals(0))) == "lost == 0");
  CHECK(ExpectationText(Metric(RunMetric::kDuplicateExecutions, Max(0), During::kRun, "purge")) ==
        "duplicate_executions for kind purge <= 0");
  CHECK(ExpectationText(Metric(RunMetric::kWastedWorker, Between(1500, 1501))) ==
        "wasted_worker_s >= 1500 and <= 1501");
  CHECK(ExpectationText(Metric(RunMetric::kAttemptsPerSuccess, Max(1.5), During::kDrains)) ==
        "attempts_per_success <= 1.5 during drains");
  CHECK(ExpectationText(Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Max(250),
                                 During::kDrains)) == "always live_p99_ms <= 250 during drains");
  CHECK(ExpectationText(Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(1))) ==
        "sometimes dlq_depth >= 1");
}

TEST_CASE("expectations: max, min, equals and both bounds", "[reports][expectations]") {
  const model::Results r = FixtureResults();
  Verdict v = Evaluate(r, Metric(RunMetric::kTimeToEmpty, Max(1800)));
  CHECK(v.passed);
  REQUIRE(v.measured.has_value());
  CHECK(*v.measured == Approx(24.95));
  CHECK(v.measured_text == "24.95");
  CHECK(v.type == "metric");
  CHECK(v.metric == "time_to_empty_s");
  CHECK(v.during == "run");

  v = Evaluate(r, Metric(RunMetric::kDuplicateExecutions, Max(0)));
  CHECK_FALSE(v.passed);
  CHECK(v.measured_text == "3");
  CHECK(v.reason == "3 > 0");
  CHECK(reports::FailureMessage(v) == "measured 3, bound <= 0");
  CHECK(reports::VerdictLine(v) ==
        "FAIL  duplicate_executions <= 0: measured 3, bound <= 0 (3 > 0)");

  CHECK(Evaluate(r, Metric(RunMetric::kAcked, Min(190))).passed);
  v = Evaluate(r, Metric(RunMetric::kAcked, Min(191)));
  CHECK_FALSE(v.passed);
  CHECK(v.reason == "190 < 191");

  CHECK(Evaluate(r, Metric(RunMetric::kLost, Equals(0))).passed);
  v = Evaluate(r, Metric(RunMetric::kHumanNeeded, Equals(9)));
  CHECK_FALSE(v.passed);
  CHECK(v.reason == "10 != 9");

  CHECK(Evaluate(r, Metric(RunMetric::kWastedWorker, Between(12, 13))).passed);
  v = Evaluate(r, Metric(RunMetric::kWastedWorker, Between(13, 14)));
  CHECK_FALSE(v.passed);
  CHECK(v.reason == "12.5 < 13");
  CHECK(reports::VerdictLine(Evaluate(r, Metric(RunMetric::kLost, Equals(0)))) ==
        "PASS  lost == 0: measured 0 (within bounds)");
}

TEST_CASE("expectations: values are compared as the report rounds them",
          "[reports][expectations]") {
  const model::Results r = FixtureResults();
  // 250 / 190 = 1.3157894...: the report prints 1.315789, and that is what is compared.
  const Verdict v = Evaluate(r, Metric(RunMetric::kAttemptsPerSuccess, Equals(1.315789)));
  CHECK(v.passed);
  CHECK(v.measured_text == "1.315789");
}

TEST_CASE("expectations: an undefined figure fails every bound and says why",
          "[reports][expectations]") {
  model::Results r = FixtureResults();
  r.time_to_empty_s.reset();
  r.age_alert_first_s.reset();
  r.acked = 0;
  for (const config::Bounds& b : {Max(1800), Min(0), Equals(0)}) {
    const Verdict v = Evaluate(r, Metric(RunMetric::kTimeToEmpty, b));
    CHECK_FALSE(v.passed);
    CHECK_FALSE(v.measured.has_value());
    CHECK(v.measured_text == "undefined");
    CHECK(Contains(v.reason, "never reached"));
    CHECK(Contains(v.reason, "undefined fails every bound"));
  }
  Verdict v = Evaluate(r, Metric(RunMetric::kAgeAlertFirst, Min(0)));
  CHECK_FALSE(v.passed);
  CHECK(Contains(v.reason, "never fired"));
  v = Evaluate(r, Metric(RunMetric::kAttemptsPerSuccess, Max(10)));
  CHECK_FALSE(v.passed);
  CHECK(Contains(v.reason, "no message was acked"));
  CHECK(reports::FailureMessage(v) == "no value (undefined), bound <= 10");
}

TEST_CASE("expectations: every run metric is a figure of the results", "[reports][expectations]") {
  model::Results r = FixtureResults();
  // time_to_recover_s needs a fault window: the fixture's samples flag one at t = 20..30.
  model::FaultWindowAttempts window;
  window.type = "db_slowdown";
  window.from_s = 20;
  window.until_s = 30;
  r.fault_windows.push_back(window);
  // ... and a series back at its baseline after it, so that recovery has a time.
  for (model::Sample& sample : r.series) {
    if (sample.t_s <= 30) continue;
    sample.depth = r.series[1].depth;
    sample.delayed_depth = r.series[1].delayed_depth;
    sample.in_flight = r.series[1].in_flight;
    sample.oldest_age_s = r.series[1].oldest_age_s;
    sample.live_p99_ms = r.series[1].live_p99_ms;
  }
  for (const auto& entry : config::EnumNames<RunMetric>()) {
    INFO(entry.name);
    config::MetricExpectation e;
    e.metric = entry.value;
    e.bounds = Min(0);
    const reports::Measurement m = reports::Measure(r, e);
    INFO(m.note);
    CHECK(m.status == reports::Measurement::Status::kValue);
    CHECK(m.note.empty());
  }
}

TEST_CASE("expectations: per-kind figures", "[reports][expectations]") {
  const model::Results r = FixtureResults();
  CHECK(Evaluate(r, Metric(RunMetric::kDuplicateExecutions, Max(0), During::kRun, "purge")).passed);
  Verdict v = Evaluate(r, Metric(RunMetric::kVisibleDuplicates, Max(0), During::kRun, "email"));
  CHECK_FALSE(v.passed);
  CHECK(v.measured_text == "1");
  CHECK(v.kind == "email");
  v = Evaluate(r, Metric(RunMetric::kAttemptsPerSuccess, Max(2), During::kRun, "purge"));
  CHECK(v.measured_text == "1.37931");
  v = Evaluate(r, Metric(RunMetric::kMessageLatencyP99, Max(1), During::kRun, "email"));
  CHECK(v.measured_text == "0.3");
  for (RunMetric metric : {RunMetric::kPublished, RunMetric::kAcked, RunMetric::kAttempts,
                           RunMetric::kDuplicatesSuppressed, RunMetric::kMessageLatencyMean,
                           RunMetric::kMessageLatencyP50, RunMetric::kMessageLatencyMax}) {
    INFO(config::NameOf(metric));
    CHECK(Evaluate(r, Metric(metric, Min(0), During::kRun, "purge")).measured.has_value());
  }

  SECTION("figures kept for all kinds together are not measured per kind") {
    for (RunMetric metric : {RunMetric::kParked, RunMetric::kLost, RunMetric::kHumanNeeded,
                             RunMetric::kWastedWorker, RunMetric::kQueueWaitP99}) {
      INFO(config::NameOf(metric));
      v = Evaluate(r, Metric(metric, Min(0), During::kRun, "purge"));
      CHECK_FALSE(v.passed);
      CHECK(v.measured_text == "not measured");
      CHECK(Contains(v.reason, "for all kinds together only"));
      CHECK(Contains(v.reason, "not measured counts as a failure"));
    }
  }
  SECTION("a kind without results, and a kind within a window") {
    v = Evaluate(r, Metric(RunMetric::kAcked, Min(0), During::kRun, "sms"));
    CHECK_FALSE(v.passed);
    CHECK(Contains(v.reason, "no figures for kind sms"));
    v = Evaluate(r, Metric(RunMetric::kAcked, Min(0), During::kDrains, "purge"));
    CHECK_FALSE(v.passed);
    CHECK(v.measured_text == "not measured");
  }
}

TEST_CASE("expectations: metrics during drains and faults", "[reports][expectations]") {
  const model::Results r = FixtureResults();
  SECTION("live latency during drains is the exact histogram") {
    Verdict v = Evaluate(r, Metric(RunMetric::kLiveP99, Max(250), During::kDrains));
    CHECK(v.passed);
    CHECK(v.measured_text == "33");
    CHECK(v.reason == "within bounds");
    CHECK(Evaluate(r, Metric(RunMetric::kLiveP50, Max(250), During::kDrains)).measured == 4);
  }
  SECTION("counts are summed over the sampled intervals of the window") {
    Verdict v = Evaluate(r, Metric(RunMetric::kDlqInflow, Max(1), During::kDrains));
    CHECK_FALSE(v.passed);
    CHECK(v.measured_text == "2");
    CHECK(Contains(v.reason, "2 sampled intervals within drains"));
    CHECK(Evaluate(r, Metric(RunMetric::kDlqInflow, Equals(5), During::kFaults)).passed);
  }
  SECTION("oldest age and database utilisation") {
    CHECK(Evaluate(r, Metric(RunMetric::kOldestAge, Equals(19.5), During::kDrains)).passed);
    CHECK(Evaluate(r, Metric(RunMetric::kOldestAge, Equals(9.75), During::kFaults)).passed);
    CHECK(Evaluate(r, Metric(RunMetric::kDbUtilisation, Equals(0.5), During::kDrains)).passed);
    // Only the interval 20..30 s lies within the faults (flagged at t = 20 and 30).
    CHECK(Evaluate(r, Metric(RunMetric::kDbUtilisation, Equals(0.3), During::kFaults)).passed);
  }
  SECTION("what the results cannot restrict to a window is not measured, and fails") {
    for (const auto& [metric, during] :
         {std::pair{RunMetric::kAttemptsPerSuccess, During::kDrains},
          std::pair{RunMetric::kDbTimeouts, During::kFaults},
          std::pair{RunMetric::kDbQueueMax, During::kDrains},
          std::pair{RunMetric::kLiveP99, During::kFaults},
          std::pair{RunMetric::kDuplicateExecutions, During::kDrains}}) {
      INFO(config::NameOf(metric) << " during " << config::NameOf(during));
      const Verdict v = Evaluate(r, Metric(metric, Min(0), during));
      CHECK_FALSE(v.passed);
      CHECK(v.measured_text == "not measured");
      CHECK_FALSE(v.measured.has_value());
    }
  }
  SECTION("a window without samples leaves series figures undefined") {
    model::Results quiet = r;
    for (model::Sample& s : quiet.series) s.drain_active = false;
    const Verdict v = Evaluate(quiet, Metric(RunMetric::kDlqInflow, Max(10), During::kDrains));
    CHECK_FALSE(v.passed);
    CHECK(v.measured_text == "undefined");
    CHECK(Contains(v.reason, "no interval between two samples lies within drains"));
  }
}

TEST_CASE("expectations: always over the samples of a window", "[reports][expectations]") {
  const model::Results r = FixtureResults();
  Verdict v =
      Evaluate(r, Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Max(250), During::kDrains));
  CHECK(v.passed);
  CHECK(v.type == "always");
  CHECK(v.measured == 16);
  CHECK(v.reason == "all 2 samples during drains within bounds; maximum 16 at t=60 s");

  v = Evaluate(r,
               Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Max(14.5), During::kDrains));
  CHECK_FALSE(v.passed);
  CHECK(v.measured == 16);
  CHECK(v.reason ==
        "2 of 2 samples during drains out of bounds; worst 16 > 14.5 at t=60 s, first at t=50 s");
  CHECK(reports::FailureMessage(v) == "measured 16, bound <= 14.5");

  // The drain is flagged from t = 40, but the interval 30..40 s lies before it: live latency
  // over that interval is not counted as during drains.
  v = Evaluate(r,
               Property(Quantifier::kSometimes, SeriesMetric::kLiveP99, Max(14), During::kDrains));
  CHECK_FALSE(v.passed);
  CHECK(v.reason == "none of 2 samples during drains within bounds; closest 15 > 14 at t=50 s");

  // No interval ends at t = 0, and no live query completed in the interval ending at t = 70:
  // neither sample has a live latency, so neither breaks a lower bound.
  v = Evaluate(r, Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Min(11)));
  CHECK(v.passed);
  CHECK(v.measured == 11);
  CHECK(Contains(v.reason, "all 9 samples within bounds; minimum 11 at t=10 s"));
  // A state at the sample instant keeps the sample at t = 0.
  v = Evaluate(r, Property(Quantifier::kAlways, SeriesMetric::kDepth, Min(1)));
  CHECK_FALSE(v.passed);
  CHECK(Contains(v.reason, "1 of 11 samples out of bounds"));
}

TEST_CASE("expectations: sometimes over the samples of a window", "[reports][expectations]") {
  const model::Results r = FixtureResults();
  Verdict v = Evaluate(r, Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(1)));
  CHECK(v.passed);
  CHECK(v.measured == 5);
  CHECK(v.reason == "2 of 11 samples within bounds; first 5 at t=30 s");
  v = Evaluate(r,
               Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(1), During::kDrains));
  CHECK(v.passed);
  CHECK(Contains(v.reason, "first 5 at t=40 s"));
  v = Evaluate(r, Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(6)));
  CHECK_FALSE(v.passed);
  CHECK(v.measured == 5);
  CHECK(v.reason == "none of 11 samples within bounds; closest 5 < 6 at t=30 s");
  CHECK(Evaluate(r, Property(Quantifier::kSometimes, SeriesMetric::kWorkersBusy, Equals(2),
                             During::kFaults))
            .passed);
}

TEST_CASE("expectations: a window without samples", "[reports][expectations]") {
  model::Results r = FixtureResults();
  for (model::Sample& s : r.series) s.drain_active = false;
  Verdict v =
      Evaluate(r, Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Max(250), During::kDrains));
  CHECK(v.passed);
  CHECK_FALSE(v.measured.has_value());
  CHECK(v.measured_text == "no samples");
  CHECK(v.reason == "vacuously true: no samples during drains");
  v = Evaluate(r,
               Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(1), During::kDrains));
  CHECK_FALSE(v.passed);
  CHECK(v.reason == "no samples during drains: nothing can satisfy it");
}

TEST_CASE("expectations: one verdict per expectation, in order, and the failures counted",
          "[reports][expectations]") {
  const model::Results r = FixtureResults();
  const std::vector<config::Expectation> expect = {
      Metric(RunMetric::kLost, Equals(0)), Metric(RunMetric::kAcked, Max(1)),
      Property(Quantifier::kSometimes, SeriesMetric::kDlqDepth, Min(1))};
  const std::vector<Verdict> verdicts = reports::EvaluateExpectations(r, expect);
  REQUIRE(verdicts.size() == 3);
  CHECK(verdicts[0].text == "lost == 0");
  CHECK(verdicts[1].text == "acked <= 1");
  CHECK(verdicts[2].text == "sometimes dlq_depth >= 1");
  CHECK(reports::CountFailed(verdicts) == 1);
}

}  // namespace
}  // namespace expectations_test
}  // namespace drainsim::testing
