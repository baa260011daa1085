// The Prometheus reader of metric_series.h: a query_range response (the HTTP API's range query,
// resultType "matrix"), each series mapped to a figure by its __name__.
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/telemetry/metric_series.h"
#include "sim/telemetry/metric_series_text.h"

namespace drainsim::telemetry {

namespace {

using Json = nlohmann::json;
using base::Failure;

class PrometheusReader {
 public:
  PrometheusReader(const std::string& file, const SeriesReadOptions& options)
      : file_(file), options_(options) {}
  base::Status Read(const Json& root);
  // Times made relative to the earliest timestamp of every series.
  ObservedSeries Take();

 private:
  Failure Problem(const std::string& pointer, const std::string& reason) const {
    return Failure{file_ + ": " + pointer + ": " + reason};
  }
  base::Status ReadSeriesAt(const Json& series, const std::string& pointer);
  base::Status ReadValues(const Json& values, const std::string& pointer,
                          std::vector<SeriesPoint>* points) const;

  const std::string& file_;
  const SeriesReadOptions& options_;
  std::map<std::string, std::vector<SeriesPoint>> figures_;  // unix seconds
  std::map<std::string, std::string> pointer_of_;            // figure -> its series' pointer
};

base::Status PrometheusReader::Read(const Json& root) {
  if (!root.is_object()) return Problem("/", "must be an object (a query_range response)");
  const auto status = root.find("status");
  if (status == root.end() || *status != "success") {
    const auto error = root.find("error");
    return Problem("/status",
                   std::string("must be \"success\"") +
                       (error != root.end() && error->is_string()
                            ? " (the response's error: " + error->get<std::string>() + ")"
                            : ""));
  }
  const auto data = root.find("data");
  if (data == root.end() || !data->is_object()) return Problem("/data", "must be an object");
  const auto type = data->find("resultType");
  if (type == data->end() || *type != "matrix") {
    return Problem("/data/resultType", "must be \"matrix\" (the response of a range query)");
  }
  const auto result = data->find("result");
  if (result == data->end() || !result->is_array()) {
    return Problem("/data/result", "must be an array of series");
  }
  if (result->empty()) return Problem("/data/result", "no series");
  for (size_t i = 0; i < result->size(); ++i) {
    if (base::Status s = ReadSeriesAt((*result)[i], "/data/result/" + std::to_string(i)); !s) {
      return s;
    }
  }
  return {};
}

base::Status PrometheusReader::ReadSeriesAt(const Json& series, const std::string& pointer) {
  if (!series.is_object()) return Problem(pointer, "must be an object (a series)");
  const auto metric = series.find("metric");
  if (metric == series.end() || !metric->is_object()) {
    return Problem(pointer + "/metric", "must be an object (the series' labels)");
  }
  const auto name = metric->find("__name__");
  if (name == metric->end() || !name->is_string()) {
    return Problem(pointer + "/metric",
                   "no __name__: name the series in the query (label_replace(..., \"__name__\", "
                   "\"depth\", \"\", \"\")) or map its name with --map NAME=FIGURE");
  }
  std::string figure = name->get<std::string>();
  if (const auto mapped = options_.name_map.find(figure); mapped != options_.name_map.end()) {
    figure = mapped->second;
  }
  if (base::Status s = CheckFigureName(figure); !s) {
    return Problem(pointer + "/metric/__name__", s.error() + "; or map it with --map NAME=FIGURE");
  }
  if (const auto seen = pointer_of_.find(figure); seen != pointer_of_.end()) {
    return Problem(pointer, "a second series for " + figure + " (the first is " + seen->second +
                                "): aggregate them in the query, e.g. sum(...)");
  }
  const auto values = series.find("values");
  if (values == series.end()) {
    return Problem(pointer, series.contains("histograms")
                                ? "native histogram samples are not read: query a float series"
                                : "no \"values\" (no timestamps)");
  }
  std::vector<SeriesPoint> points;
  if (base::Status s = ReadValues(*values, pointer + "/values", &points); !s) return s;
  pointer_of_[figure] = pointer;
  figures_[figure] = std::move(points);
  return {};
}

base::Status PrometheusReader::ReadValues(const Json& values, const std::string& pointer,
                                          std::vector<SeriesPoint>* points) const {
  if (!values.is_array()) return Problem(pointer, "must be an array of [unix_s, \"value\"]");
  if (values.empty()) return Problem(pointer, "no samples (no timestamps)");
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string at = pointer + "/" + std::to_string(k);
    const Json& pair = values[k];
    if (!pair.is_array() || pair.size() != 2) return Problem(at, "must be [unix_s, \"value\"]");
    if (!pair[0].is_number()) return Problem(at + "/0", "no timestamp: must be unix seconds");
    const double t_s = pair[0].get<double>();
    if (!std::isfinite(t_s) || t_s < 0) return Problem(at + "/0", "must be unix seconds >= 0");
    if (!points->empty() && !(t_s > points->back().t_s)) {
      return Problem(at + "/0", "not after the previous sample's time (times must increase)");
    }
    if (!pair[1].is_string()) return Problem(at + "/1", "must be the value as a string");
    const base::Expected<double> value = ParseNumber(pair[1].get_ref<const std::string&>());
    if (!value) return Problem(at + "/1", value.error());
    if (*value < 0) return Problem(at + "/1", "negative");
    points->push_back({t_s, *value});
  }
  return {};
}

ObservedSeries PrometheusReader::Take() {
  double origin_s = 0;
  bool first = true;
  for (const auto& [figure, points] : figures_) {
    if (first || points.front().t_s < origin_s) origin_s = points.front().t_s;
    first = false;
  }
  ObservedSeries out;
  out.file = file_;
  for (auto& [figure, points] : figures_) {
    for (SeriesPoint& point : points) point.t_s -= origin_s;
    out.figures[figure] = std::move(points);
  }
  return out;
}

}  // namespace

base::Expected<ObservedSeries> ReadPrometheusJson(const nlohmann::json& root,
                                                  const std::string& file,
                                                  const SeriesReadOptions& options) {
  PrometheusReader reader(file, options);
  if (base::Status s = reader.Read(root); !s) return Failure{s.error()};
  return reader.Take();
}

base::Expected<ObservedSeries> ReadSeriesPrometheus(std::string_view text, const std::string& file,
                                                    const SeriesReadOptions& options) {
  const base::Expected<nlohmann::json> root = ParseSeriesJson(text, file);
  if (!root) return Failure{root.error()};
  return ReadPrometheusJson(*root, file, options);
}

}  // namespace drainsim::telemetry
