#include "reports/otlp_metrics.h"

#include <cmath>

#include "reports/metrics.h"
#include "reports/otlp_json.h"
#include "reports/trace_events.h"

namespace drainsim::reports {

namespace {

std::string_view UcumUnit(std::string_view column_name) {
  const std::string_view unit = UnitOf(column_name);
  if (unit == "s" || unit == "ms" || unit == "1/s") return unit;
  return "1";  // counts, ratios, flags
}

std::string PointTime(const model::Sample& s) {
  return OtlpTime(engine::Instant::Micros(static_cast<int64_t>(std::llround(s.t_s * 1e6))));
}

std::string PointValue(const SeriesColumn& column, const model::Sample& s) {
  const double value = column.value(s);
  if (column.type == SeriesColumn::Type::kReal) return "\"asDouble\":" + JsonNumber(value);
  return "\"asInt\":\"" + std::to_string(static_cast<int64_t>(value)) + "\"";
}

// The samples kept: every stride-th and the last.
std::vector<size_t> OtlpKeptSamples(size_t samples, size_t stride) {
  std::vector<size_t> kept;
  for (size_t i = 0; i < samples; i += stride) kept.push_back(i);
  if (samples > 0 && kept.back() != samples - 1) kept.push_back(samples - 1);
  return kept;
}

std::string MetricText(const SeriesColumn& column, const std::vector<model::Sample>& series,
                       const std::vector<size_t>& kept) {
  std::string points;
  for (const size_t i : kept) {
    if (column.over_interval && i == 0) continue;  // t = 0 closes no interval
    if (!points.empty()) points += ',';
    points +=
        "{\"timeUnixNano\":" + PointTime(series[i]) + "," + PointValue(column, series[i]) + "}";
  }
  return "{\"name\":" + JsonQuote("drainsim." + column.name) +
         ",\"description\":" + JsonQuote("report.json series column " + column.name) +
         ",\"unit\":" + JsonQuote(UcumUnit(column.name)) + ",\"gauge\":{\"dataPoints\":[" + points +
         "]}}";
}

}  // namespace

std::string OtlpMetrics(const ReportInput& input) {
  const std::vector<model::Sample>& series = input.results.series;
  const size_t stride = std::max<size_t>(1, (series.size() + kOtlpPointsMax - 1) / kOtlpPointsMax);
  const std::vector<size_t> kept = OtlpKeptSamples(series.size(), stride);
  std::string metrics;
  for (const SeriesColumn* column : SeriesColumnsOf(input.results)) {
    if (column->name == "t_s") continue;
    if (!metrics.empty()) metrics += ',';
    metrics += MetricText(*column, series, kept);
  }
  OtlpAttributes bound;
  bound.Int("drainsim.otlp.samples", static_cast<int64_t>(series.size()))
      .Int("drainsim.otlp.sample_stride", static_cast<int64_t>(stride))
      .Str("drainsim.otlp.note",
           stride == 1 ? "every sample of the series is a data point"
                       : "thinned: every k-th sample (k = drainsim.otlp.sample_stride) and the "
                         "last are data points, at most " +
                             std::to_string(kOtlpPointsMax + 1) + " a metric");
  const OtlpOrigin origin{input.results.scenario_name, input.context.scenario_path,
                          input.context.scenario_hash, input.context.drainsim_version,
                          input.results.seed,          input.results.fingerprint};
  return "{\"resourceMetrics\":[{\"resource\":" + OtlpResource(origin, bound) +
         ",\"scopeMetrics\":[{\"scope\":" + OtlpScope(origin) + ",\"metrics\":[" + metrics +
         "]}]}]}\n";
}

}  // namespace drainsim::reports
