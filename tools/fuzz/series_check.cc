#include "tools/fuzz/series_check.h"

#include <cmath>

#include "sim/telemetry/metric_series.h"

namespace drainsim::fuzz {

namespace {

using Reader = base::Expected<telemetry::ObservedSeries> (*)(std::string_view, const std::string&,
                                                             const telemetry::SeriesReadOptions&);

std::string CheckSeries(const telemetry::ObservedSeries& series) {
  for (const auto& [name, points] : series.figures) {
    if (!telemetry::IsFigureName(name)) return "a series read under no figure name: " + name;
    if (points.empty()) return "a series read without a point: " + name;
    for (size_t k = 0; k < points.size(); ++k) {
      if (!std::isfinite(points[k].t_s)) return "a time that is not finite in " + name;
      if (!std::isfinite(points[k].value) || points[k].value < 0) return "a bad value in " + name;
      if (k > 0 && !(points[k].t_s > points[k - 1].t_s)) return "times not increasing in " + name;
    }
  }
  return "";
}

std::string Check(std::string_view bytes, Reader read) {
  constexpr const char* kFile = "fuzz.series";
  telemetry::SeriesReadOptions options;
  options.ignored_columns = {"parked"};
  options.name_map = {{"queue_ready", "depth"}};
  const auto first = read(bytes, kFile, options);
  const auto second = read(bytes, kFile, options);
  if (first.ok() != second.ok()) return "two reads of the same bytes disagree";
  if (!first) {
    if (first.error().rfind(std::string(kFile) + ": ", 0) != 0) {
      return "a problem that does not name the file: " + first.error();
    }
    return first.error() == second.error() ? "" : "two reads give different problems";
  }
  if (first->figures.empty()) return "a read without a series";
  for (const auto& [name, points] : first->figures) {
    const auto& again = second->figures.at(name);
    for (size_t k = 0; k < points.size(); ++k) {
      if (points[k].t_s != again[k].t_s || points[k].value != again[k].value) {
        return "two reads give different points in " + name;
      }
    }
  }
  return CheckSeries(*first);
}

}  // namespace

std::string CheckSeriesCsvBytes(std::string_view bytes) {
  return Check(bytes, &telemetry::ReadSeriesCsv);
}

std::string CheckSeriesPrometheusBytes(std::string_view bytes) {
  return Check(bytes, &telemetry::ReadSeriesPrometheus);
}

std::string CheckSeriesCloudWatchBytes(std::string_view bytes) {
  return Check(bytes, &telemetry::ReadSeriesCloudWatch);
}

}  // namespace drainsim::fuzz
