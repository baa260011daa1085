// The run's metrics as a component (sim/model/run_metrics.h), against hand-worked sequences: a
// row's rates over the interval since the previous one, the inspector's DLQ columns, alerts, the
// database's utilisation per interval, live latency by drain phase, the time averages, the
// backlog's clearing and quiet, the human-needed keys and the per-kind figures.
#include "sim/model/run_metrics.h"

#include <catch2/catch.hpp>

namespace drainsim::model {
namespace run_metrics_test {
namespace {

using engine::Duration;
using engine::Instant;

Instant At(double s) { return Instant::Zero() + Duration::Micros(static_cast<int64_t>(s * 1e6)); }

Message DeadLetter(config::DlqReason reason, config::ErrorClass error) {
  Message m;
  m.dlq_reason = reason;
  m.last_error = error;
  return m;
}

TEST_CASE("run metrics: a row's rates cover the interval since the previous row",
          "[model][metrics]") {
  const config::Alerts alerts;
  RunMetrics metrics("s", 7, 1, alerts);
  metrics.AttemptStarted(0, true);  // before the row at 0: carried into the first interval
  metrics.AddRow(At(0), Sample{}, std::nullopt);
  metrics.AttemptStarted(0, true);
  metrics.AttemptStarted(0, false);
  metrics.DownstreamCalled();
  metrics.DownstreamRateLimited();
  metrics.Replayed();
  metrics.DeadLettered(-1);
  metrics.AddRow(At(10), Sample{}, std::nullopt);
  metrics.AddRow(At(15), Sample{}, std::nullopt);
  const std::vector<Sample>& series = metrics.results().series;
  REQUIRE(series.size() == 3);
  CHECK(series[0].first_attempts_per_s == 0);  // the first row closes no interval
  CHECK(series[1].t_s == 10);
  CHECK(series[1].first_attempts_per_s == Approx(0.2));  // 2 over 10 s
  CHECK(series[1].retry_attempts_per_s == Approx(0.1));
  CHECK(series[1].downstream_calls_per_s == Approx(0.1));
  CHECK(series[1].downstream_429s_per_s == Approx(0.1));
  CHECK(series[1].drain_rate_per_s == Approx(0.1));
  CHECK(series[1].dlq_outflow_per_s == Approx(0.1));
  CHECK(series[1].dlq_inflow_per_s == Approx(0.1));
  CHECK(series[2].first_attempts_per_s == 0);  // the counts restarted
  CHECK(series[2].dlq_inflow_per_s == 0);
  CHECK(metrics.results().attempts == 3);
  CHECK(metrics.results().first_attempts == 2);
  CHECK(metrics.results().replays == 1);
}

TEST_CASE("run metrics: the last row brought up to the end adds what came after it",
          "[model][metrics]") {
  const config::Alerts alerts;
  RunMetrics metrics("s", 7, 1, alerts);
  metrics.AddRow(At(0), Sample{}, std::nullopt);
  metrics.AttemptStarted(0, true);
  metrics.AddRow(At(10), Sample{}, std::nullopt);
  CHECK(metrics.HasRowAt(At(10)));
  CHECK_FALSE(metrics.HasRowAt(At(10.5)));
  metrics.AttemptStarted(0, true);  // at 10 s, after the row
  metrics.last_row().depth = 4;     // World's columns, refilled
  metrics.BringLastRowUpToDate();
  REQUIRE(metrics.rows() == 2);
  CHECK(metrics.last_row().first_attempts_per_s == Approx(0.2));
  CHECK(metrics.last_row().depth == 4);
}

TEST_CASE("run metrics: the inspector's DLQ columns follow entries and exits", "[model][metrics]") {
  const config::Alerts alerts;
  RunMetrics metrics("s", 7, 1, alerts);
  const Message a = DeadLetter(config::DlqReason::kStalled, config::ErrorClass::kTransient);
  const Message b = DeadLetter(config::DlqReason::kMaxAttempts, config::ErrorClass::kTransient);
  const Message c = DeadLetter(config::DlqReason::kStalled, config::ErrorClass::kPermanent);
  metrics.InspectDlq(a, +1);
  metrics.InspectDlq(b, +1);
  metrics.InspectDlq(c, +1);
  metrics.InspectDlq(b, -1);
  metrics.AddRow(At(0), Sample{}, std::nullopt);
  const Sample& row = metrics.last_row();
  CHECK(row.dlq_by_reason[static_cast<size_t>(config::DlqReason::kStalled)] == 2);
  CHECK(row.dlq_by_reason[static_cast<size_t>(config::DlqReason::kMaxAttempts)] == 0);
  CHECK(row.dlq_by_error[static_cast<size_t>(config::ErrorClass::kTransient)] == 1);
  CHECK(row.dlq_by_error[static_cast<size_t>(config::ErrorClass::kPermanent)] == 1);
}

TEST_CASE("run metrics: alerts fire at the first row past their threshold", "[model][metrics]") {
  config::Alerts alerts;
  alerts.depth = 5;
  alerts.oldest_age = Duration::Seconds(60);
  RunMetrics metrics("s", 7, 1, alerts);
  Sample row;
  row.depth = 5;  // at the threshold: not past it
  row.oldest_age_s = 30;
  metrics.AddRow(At(0), row, std::nullopt);
  CHECK_FALSE(metrics.results().depth_alert_first_s);
  row.depth = 6;
  row.oldest_age_s = 61;
  metrics.AddRow(At(10), row, std::nullopt);
  row.oldest_age_s = 90;
  metrics.AddRow(At(20), row, std::nullopt);
  CHECK(metrics.results().depth_alert_first_s == 10);
  CHECK(metrics.results().age_alert_first_s == 10);
  CHECK_FALSE(metrics.results().dlq_depth_alert_first_s);  // off
  CHECK(metrics.results().oldest_age_max_s == 90);
}

TEST_CASE("run metrics: the database's utilisation per interval and live latency by phase",
          "[model][metrics]") {
  const config::Alerts alerts;
  RunMetrics metrics("s", 7, 1, alerts);
  metrics.results().drains.resize(1);
  metrics.AddRow(At(0), Sample{}, DatabaseTotals{1, 10, 0});
  CHECK(metrics.last_row().db_utilisation == Approx(0.1));
  metrics.LiveAnswered(2'000, true, -1, false);  // before any drain
  metrics.LiveAnswered(8'000, false, 0, true);   // during drain 0, an error
  metrics.LiveAnswered(4'000, true, -1, true);   // between drains
  metrics.AddRow(At(10), Sample{}, DatabaseTotals{4, 20, 0});
  const Sample& row = metrics.last_row();
  CHECK(row.db_utilisation == Approx(0.3));  // (4 - 1) / (20 - 10)
  CHECK(row.live_errors_per_s == Approx(0.1));
  CHECK(row.live_p99_ms == Approx(8).epsilon(0.05));
  const Results& r = metrics.results();
  CHECK(r.live_queries == 3);
  CHECK(r.live_errors == 1);
  CHECK(r.live_latency_before_drains_us.count() == 1);
  CHECK(r.live_latency_during_drains_us.count() == 1);
  CHECK(r.drains[0].live_latency_us.count() == 1);
  metrics.AddRow(At(20), Sample{}, DatabaseTotals{4, 30, 0});
  CHECK(metrics.last_row().live_p99_ms == 0);  // none completed in the interval
  CHECK(metrics.last_row().db_utilisation == 0);
}

TEST_CASE("run metrics: time averages, backlog cleared, quiet, and the results taken",
          "[model][metrics]") {
  const config::Alerts alerts;
  RunMetrics metrics("night", 7, 2, alerts);
  metrics.Hold(4'000'000, 10, 2);  // 4 s with 10 ready, 2 in flight
  metrics.Hold(6'000'000, 0, 1);
  metrics.AfterEvent(At(1), 0, 0);  // empty before it ever held a message: nothing cleared
  metrics.AfterEvent(At(2), 3, 0);
  metrics.AfterEvent(At(5), 0, 2);  // cleared; not quiet while the DLQ holds messages
  metrics.AfterEvent(At(7), 0, 0);
  metrics.AfterEvent(At(8), 0, 0);  // still quiet since 7 s
  metrics.Published(1);
  metrics.Acked(1, 5'000);
  metrics.DuplicateExecuted(1, DuplicateCause::kLostAck, true);
  metrics.DuplicateSuppressed(0);
  metrics.ParkedByPolicy(config::ErrorClass::kTransient);
  metrics.ParkedByPolicy(config::ErrorClass::kTransient);
  metrics.FailedWithoutDlq(config::DlqReason::kMaxAttempts);
  metrics.results().drains.resize(1);
  metrics.ParkedByDrain(0);
  std::array<int64_t, config::kDlqReasonCount> dlq_by_reason{};
  dlq_by_reason[static_cast<size_t>(config::DlqReason::kStalled)] = 3;
  const Results r = metrics.TakeResults(At(10), {"a", "b"}, dlq_by_reason);
  CHECK(r.scenario_name == "night");
  CHECK(r.seed == 7);
  CHECK(r.ready_mean == Approx(4.0));      // 10 x 4 s / 10 s
  CHECK(r.in_system_mean == Approx(5.4));  // (12 x 4 + 1 x 6) / 10
  CHECK(r.backlog_cleared_s == Approx(5));
  CHECK(r.time_to_quiet_s == Approx(7));
  CHECK(r.human_needed_by_reason.at("parked:transient") == 2);
  CHECK(r.human_needed_by_reason.at("failed:max_attempts") == 1);
  CHECK(r.human_needed_by_reason.at("parked:drain") == 1);
  CHECK(r.human_needed_by_reason.at("dlq:stalled") == 3);
  CHECK(r.human_needed_by_reason.size() == 4);
  CHECK(r.human_needed == 7);
  CHECK(r.drains[0].parked == 1);
  REQUIRE(r.kinds.size() == 2);
  CHECK(r.kinds.at("b").published == 1);
  CHECK(r.kinds.at("b").acked == 1);
  CHECK(r.kinds.at("b").visible_duplicates == 1);
  CHECK(r.kinds.at("a").duplicates_suppressed == 1);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kLostAck)] == 1);
}

}  // namespace
}  // namespace run_metrics_test
}  // namespace drainsim::model
