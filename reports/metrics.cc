#include "reports/metrics.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

double Fixed(double value) { return std::round(value * 1e6) / 1e6; }

std::string JsonNumber(double value) { return nlohmann::json(Fixed(value)).dump(); }

std::string Hex16(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::optional<double> HistogramStat(const model::Histogram& h_us, Stat stat, double scale) {
  if (h_us.empty()) return std::nullopt;
  switch (stat) {
    case Stat::kMean:
      return h_us.Mean() / scale;
    case Stat::kP50:
      return static_cast<double>(h_us.Quantile(0.5)) / scale;
    case Stat::kP99:
      return static_cast<double>(h_us.Quantile(0.99)) / scale;
    case Stat::kMax:
      return static_cast<double>(h_us.max()) / scale;
  }
  return std::nullopt;
}

std::optional<double> AttemptsPerSuccess(int64_t attempts, int64_t acked) {
  if (acked == 0) return std::nullopt;
  return static_cast<double>(attempts) / static_cast<double>(acked);
}

std::string_view UnitOf(std::string_view metric_name) {
  auto ends_with = [&](std::string_view suffix) {
    return metric_name.size() >= suffix.size() &&
           metric_name.substr(metric_name.size() - suffix.size()) == suffix;
  };
  if (ends_with("_per_s")) return "1/s";
  if (ends_with("_ms")) return "ms";
  if (ends_with("_s")) return "s";
  if (metric_name == "attempts_per_success" || metric_name == "retry_amplification" ||
      metric_name == "db_utilisation") {
    return "ratio";
  }
  return "count";
}

namespace {

using Type = SeriesColumn::Type;
using model::Sample;

std::vector<SeriesColumn> MakeColumns() {
  auto count = [](int64_t v) { return static_cast<double>(v); };
  std::vector<SeriesColumn> c = {
      {"t_s", Type::kReal, false, [](const Sample& s) { return s.t_s; }},
      {"depth", Type::kCount, false, [=](const Sample& s) { return count(s.depth); }},
      {"delayed_depth", Type::kCount, false,
       [=](const Sample& s) { return count(s.delayed_depth); }},
      {"dlq_depth", Type::kCount, false, [=](const Sample& s) { return count(s.dlq_depth); }},
      {"parked", Type::kCount, false, [=](const Sample& s) { return count(s.parked); }},
      {"in_flight", Type::kCount, false, [=](const Sample& s) { return count(s.in_flight); }},
      {"ack_pending", Type::kCount, false, [=](const Sample& s) { return count(s.ack_pending); },
       [](const model::Results& r) { return r.ack_pending_limited; }},
      {"oldest_age_s", Type::kReal, false, [](const Sample& s) { return s.oldest_age_s; }},
      {"dlq_inflow_per_s", Type::kReal, true, [](const Sample& s) { return s.dlq_inflow_per_s; }},
      {"dlq_outflow_per_s", Type::kReal, true, [](const Sample& s) { return s.dlq_outflow_per_s; }},
      {"workers_busy", Type::kCount, false, [=](const Sample& s) { return count(s.workers_busy); }},
      {"workers", Type::kCount, false, [=](const Sample& s) { return count(s.workers); },
       [](const model::Results& r) { return r.autoscale; }},
      {"db_utilisation", Type::kReal, true, [](const Sample& s) { return s.db_utilisation; }},
      {"db_queue", Type::kCount, false, [=](const Sample& s) { return count(s.db_queue); }},
      {"live_p50_ms", Type::kReal, true, [](const Sample& s) { return s.live_p50_ms; }},
      {"live_p99_ms", Type::kReal, true, [](const Sample& s) { return s.live_p99_ms; }},
      {"live_errors_per_s", Type::kReal, true, [](const Sample& s) { return s.live_errors_per_s; }},
      {"first_attempts_per_s", Type::kReal, true,
       [](const Sample& s) { return s.first_attempts_per_s; }},
      {"retry_attempts_per_s", Type::kReal, true,
       [](const Sample& s) { return s.retry_attempts_per_s; }},
      {"downstream_calls_per_s", Type::kReal, true,
       [](const Sample& s) { return s.downstream_calls_per_s; }},
      {"downstream_429s_per_s", Type::kReal, true,
       [](const Sample& s) { return s.downstream_429s_per_s; }},
      {"drain_rate_per_s", Type::kReal, true, [](const Sample& s) { return s.drain_rate_per_s; }},
  };
  // The inspector's columns, in config::DlqReason and config::ErrorClass order.
  for (const auto& reason : config::EnumNames<config::DlqReason>()) {
    const auto i = static_cast<size_t>(reason.value);
    DRAINSIM_CHECK(i < Sample{}.dlq_by_reason.size());
    c.push_back({"dlq_reason_" + std::string(reason.name), Type::kCount, false,
                 [=](const Sample& s) { return count(s.dlq_by_reason[i]); }});
  }
  for (const auto& error : config::EnumNames<config::ErrorClass>()) {
    const auto i = static_cast<size_t>(error.value);
    DRAINSIM_CHECK(i < Sample{}.dlq_by_error.size());
    c.push_back({"dlq_error_" + std::string(error.name), Type::kCount, false,
                 [=](const Sample& s) { return count(s.dlq_by_error[i]); }});
  }
  // broker.partitions: the largest lag, then the first partitions' own, as many as it has.
  c.push_back({"partition_lag_max", Type::kCount, false,
               [=](const Sample& s) { return count(s.partition_lag_max); },
               [](const model::Results& r) { return r.partitions > 0; }});
  for (size_t p = 0; p < model::kPartitionLagColumns; ++p) {
    c.push_back({"partition_lag_" + std::to_string(p), Type::kCount, false,
                 [=](const Sample& s) {
                   return p < s.partition_lag.size() ? count(s.partition_lag[p]) : 0.0;
                 },
                 [=](const model::Results& r) { return r.partitions > static_cast<int64_t>(p); }});
  }
  c.push_back({"drain_active", Type::kFlag, false,
               [](const Sample& s) { return s.drain_active ? 1.0 : 0.0; }});
  c.push_back({"fault_active", Type::kFlag, false,
               [](const Sample& s) { return s.fault_active ? 1.0 : 0.0; }});
  return c;
}

}  // namespace

std::span<const SeriesColumn> SeriesColumns() {
  static const std::vector<SeriesColumn> kColumns = MakeColumns();
  return kColumns;
}

std::vector<const SeriesColumn*> SeriesColumnsOf(const model::Results& results) {
  std::vector<const SeriesColumn*> out;
  for (const SeriesColumn& column : SeriesColumns()) {
    if (!column.shown || column.shown(results)) out.push_back(&column);
  }
  return out;
}

const SeriesColumn* FindSeriesColumn(std::string_view name) {
  for (const SeriesColumn& column : SeriesColumns()) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

}  // namespace drainsim::reports
