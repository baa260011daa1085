#include "sim/telemetry/metric_series.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/base/decimal.h"
#include "sim/telemetry/metric_series_text.h"

namespace drainsim::telemetry {

namespace {

// Figures with their unit suffix split off: what a name without it, or with another, should be.
struct FigureBase {
  std::string_view base;
  std::string_view name;
  std::string_view unit_text;
};
constexpr std::array<FigureBase, 4> kBases = {{{"depth", "depth", "messages"},
                                               {"dlq_depth", "dlq_depth", "messages"},
                                               {"inflow", "inflow_per_s", "messages per second"},
                                               {"oldest_age", "oldest_age_s", "seconds"}}};

}  // namespace

bool IsFigureName(std::string_view name) {
  return std::find(kFigureNames.begin(), kFigureNames.end(), name) != kFigureNames.end();
}

base::Status CheckFigureName(std::string_view name) {
  if (IsFigureName(name)) return {};
  for (const FigureBase& figure : kBases) {
    const bool bare = name == figure.base;
    const bool other_unit =
        name.size() > figure.base.size() + 1 &&
        name.substr(0, figure.base.size() + 1) == std::string(figure.base) + "_";
    if (!bare && !other_unit) continue;
    const std::string what = std::string(figure.base) + " is in " + std::string(figure.unit_text) +
                             ": name it " + std::string(figure.name);
    return base::Failure{(bare ? "units missing: " : "unknown unit: ") + what};
  }
  std::string names;
  for (std::string_view figure : kFigureNames)
    names += (names.empty() ? "" : ", ") + std::string(figure);
  return base::Failure{"unknown figure " + std::string(name) + " (figures: " + names + ")"};
}

base::Expected<double> ParseNumber(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return base::Failure{"not a number: \"" + std::string(text.substr(0, 40)) + "\""};
  }
  if (!std::isfinite(value)) return base::Failure{"not a finite number: " + std::string(text)};
  return value;
}

base::Expected<ObservedSeries> ReadSeries(std::string_view text, const std::string& file,
                                          const SeriesReadOptions& options) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') {
    return ReadSeriesCsv(text, file, options);
  }
  const base::Expected<nlohmann::json> root = ParseSeriesJson(text, file);
  if (!root) return base::Failure{root.error()};
  if (root->is_object() && root->contains("MetricDataResults")) {
    return ReadCloudWatchJson(*root, file, options);
  }
  return ReadPrometheusJson(*root, file, options);
}

base::Expected<ObservedSeries> Shifted(ObservedSeries series, double offset_s) {
  for (auto& [figure, points] : series.figures) {
    std::vector<SeriesPoint> kept;
    for (const SeriesPoint& point : points) {
      if (point.t_s >= offset_s) kept.push_back({point.t_s - offset_s, point.value});
    }
    if (kept.empty()) {
      return base::Failure{series.file + ": " + figure + ": no point at or after the offset (" +
                           base::Decimal(offset_s) + " s from the observation's origin)"};
    }
    points = std::move(kept);
  }
  return series;
}

}  // namespace drainsim::telemetry
