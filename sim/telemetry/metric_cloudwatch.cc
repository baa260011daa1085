// The CloudWatch reader of metric_series.h: a GetMetricData response as the AWS CLI or an SDK
// writes it ({"MetricDataResults": [{"Id", "Label", "Timestamps", "Values", "StatusCode"}]}),
// each result mapped to a figure by its Id (or its Label). API reference: "MetricDataResult"
// (https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_MetricDataResult.html):
// Timestamps[x] is the time of Values[x]; the order is newest first unless ScanBy says
// otherwise; StatusCode PartialData means more points are on a later page (NextToken).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/telemetry/metric_series.h"
#include "sim/telemetry/metric_series_text.h"

namespace drainsim::telemetry {

namespace {

using Json = nlohmann::json;
using base::Failure;

// `count` decimal digits of `text` at `at`, or -1.
int Digits(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// The zone's offset east of UTC in seconds: "Z", "+HH:MM", "-HH:MM", "+HHMM"; false otherwise.
bool ZoneOffset(std::string_view zone, int64_t* east_s) {
  if (zone == "Z" || zone == "z") {
    *east_s = 0;
    return true;
  }
  if (zone.size() != 6 && zone.size() != 5) return false;
  if (zone[0] != '+' && zone[0] != '-') return false;
  if (zone.size() == 6 && zone[3] != ':') return false;
  const int hours = Digits(zone, 1, 2);
  const int minutes = Digits(zone, zone.size() - 2, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return false;
  *east_s = (zone[0] == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
  return true;
}

// An ISO 8601 date-time with a zone ("2026-03-01T02:05:00Z", "...00.000+00:00"), as unix seconds.
base::Expected<double> IsoSeconds(std::string_view text) {
  const Failure bad{"not a date-time with a zone (2026-03-01T02:05:00Z): \"" +
                    std::string(text.substr(0, 40)) + "\""};
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != ' ') || text[13] != ':' || text[16] != ':') {
    return bad;
  }
  const int year = Digits(text, 0, 4), month = Digits(text, 5, 2), day = Digits(text, 8, 2);
  const int hour = Digits(text, 11, 2), minute = Digits(text, 14, 2), second = Digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 60) {
    return bad;
  }
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return bad;
  size_t at = 19;
  double fraction = 0;
  if (text[at] == '.') {
    double scale = 0.1;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10) {
      fraction += (text[at] - '0') * scale;
    }
  }
  int64_t east_s = 0;
  if (!ZoneOffset(text.substr(at), &east_s)) return bad;
  const int64_t days = std::chrono::sys_days{date}.time_since_epoch().count();
  return static_cast<double>(days * 86400 + hour * 3600 + minute * 60 + second - east_s) + fraction;
}

class CloudWatchReader {
 public:
  CloudWatchReader(const std::string& file, const SeriesReadOptions& options)
      : file_(file), options_(options) {}
  base::Status Read(const Json& root);
  // Times in order, relative to the earliest of every figure. REQUIRES: Read succeeded (every
  // figure has a point).
  ObservedSeries Take();

 private:
  Failure Problem(const std::string& pointer, const std::string& reason) const {
    return Failure{file_ + ": " + pointer + ": " + reason};
  }
  base::Expected<std::string> FigureOf(const Json& result, const std::string& pointer) const;
  base::Status ReadResult(const Json& result, const std::string& pointer);
  base::Status ReadPoints(const Json& result, const std::string& pointer,
                          std::vector<SeriesPoint>* points) const;

  const std::string& file_;
  const SeriesReadOptions& options_;
  std::map<std::string, std::vector<SeriesPoint>> figures_;  // unix seconds, as read
  std::map<std::string, bool> complete_;                     // a page said Complete
};

base::Status CloudWatchReader::Read(const Json& root) {
  if (!root.is_object()) return Problem("/", "must be an object (a GetMetricData response)");
  const auto results = root.find("MetricDataResults");
  if (results == root.end() || !results->is_array()) {
    return Problem("/MetricDataResults", "must be an array of metric data results");
  }
  if (results->empty()) return Problem("/MetricDataResults", "no results");
  for (size_t i = 0; i < results->size(); ++i) {
    const std::string pointer = "/MetricDataResults/" + std::to_string(i);
    if (base::Status s = ReadResult((*results)[i], pointer); !s) return s;
  }
  for (const auto& [figure, points] : figures_) {
    if (points.empty()) return Problem("/MetricDataResults", figure + ": no points");
  }
  for (const auto& [figure, complete] : complete_) {
    if (!complete) {
      return Problem("/MetricDataResults",
                     figure +
                         ": StatusCode PartialData and no page of it Complete: the rest of "
                         "its points are on later pages (NextToken); fetch every page (the "
                         "AWS CLI does unless --no-paginate) into one file");
    }
  }
  return {};
}

// The figure a result is read as: its Id (through --map, else as a figure name), then its Label
// likewise. The Id first: it is the query's own name, the Label often the metric's, which several
// queries share (two SQS queues' ApproximateNumberOfMessagesVisible).
base::Expected<std::string> CloudWatchReader::FigureOf(const Json& result,
                                                       const std::string& pointer) const {
  std::vector<std::string> names;
  for (const char* key : {"Id", "Label"}) {
    const auto name = result.find(key);
    if (name != result.end() && name->is_string()) names.push_back(name->get<std::string>());
  }
  if (names.empty()) return Problem(pointer, "no Id and no Label: nothing names the series");
  for (const std::string& name : names) {  // the Id first: the Label is often the metric's
    if (const auto mapped = options_.name_map.find(name); mapped != options_.name_map.end()) {
      return mapped->second;
    }
    if (IsFigureName(name)) return name;
  }
  const base::Status named = CheckFigureName(names.front());
  return Problem(pointer + (result.contains("Id") ? "/Id" : "/Label"),
                 named.error() + "; give the query that Id, or map it with --map ID=FIGURE");
}

base::Status CloudWatchReader::ReadResult(const Json& result, const std::string& pointer) {
  if (!result.is_object()) return Problem(pointer, "must be an object (a metric data result)");
  const base::Expected<std::string> figure = FigureOf(result, pointer);
  if (!figure) return Failure{figure.error()};
  const auto status = result.find("StatusCode");
  const std::string code =
      status != result.end() && status->is_string() ? status->get<std::string>() : "Complete";
  if (code != "Complete" && code != "PartialData") {
    return Problem(pointer + "/StatusCode", "is " + code + ": CloudWatch returned no usable data");
  }
  std::vector<SeriesPoint>& points = figures_[*figure];
  if (base::Status s = ReadPoints(result, pointer, &points); !s) return s;
  complete_[*figure] = complete_[*figure] || code == "Complete";
  return {};
}

base::Status CloudWatchReader::ReadPoints(const Json& result, const std::string& pointer,
                                          std::vector<SeriesPoint>* points) const {
  const auto times = result.find("Timestamps");
  const auto values = result.find("Values");
  if (times == result.end() || !times->is_array()) {
    return Problem(pointer + "/Timestamps", "must be an array (no timestamps)");
  }
  if (values == result.end() || !values->is_array()) {
    return Problem(pointer + "/Values", "must be an array of numbers");
  }
  if (times->size() != values->size()) {
    return Problem(pointer + "/Values", std::to_string(values->size()) + " values for " +
                                            std::to_string(times->size()) + " timestamps");
  }
  for (size_t k = 0; k < times->size(); ++k) {
    const std::string at = pointer + "/Timestamps/" + std::to_string(k);
    const Json& t = (*times)[k];
    base::Expected<double> t_s = Failure{"must be a date-time string or unix seconds"};
    if (t.is_string()) t_s = IsoSeconds(t.get_ref<const std::string&>());
    if (t.is_number()) t_s = t.get<double>();
    if (!t_s) return Problem(at, t_s.error());
    if (!std::isfinite(*t_s) || *t_s < 0) return Problem(at, "must be at or after 1970");
    const Json& v = (*values)[k];
    const std::string value_at = pointer + "/Values/" + std::to_string(k);
    if (!v.is_number()) return Problem(value_at, "must be a number");
    const double value = v.get<double>();
    if (!std::isfinite(value) || value < 0) return Problem(value_at, "must be finite and >= 0");
    points->push_back({*t_s, value});
  }
  return {};
}

ObservedSeries CloudWatchReader::Take() {
  ObservedSeries out;
  out.file = file_;
  double origin_s = 0;
  bool first = true;
  for (auto& [figure, points] : figures_) {
    std::stable_sort(points.begin(), points.end(),
                     [](const SeriesPoint& a, const SeriesPoint& b) { return a.t_s < b.t_s; });
    if (first || points.front().t_s < origin_s) origin_s = points.front().t_s;
    first = false;
  }
  for (auto& [figure, points] : figures_) {
    for (SeriesPoint& point : points) point.t_s -= origin_s;
    out.figures[figure] = std::move(points);
  }
  return out;
}

}  // namespace

base::Expected<ObservedSeries> ReadCloudWatchJson(const Json& root, const std::string& file,
                                                  const SeriesReadOptions& options) {
  CloudWatchReader reader(file, options);
  if (base::Status s = reader.Read(root); !s) return Failure{s.error()};
  ObservedSeries series = reader.Take();
  for (const auto& [figure, points] : series.figures) {
    for (size_t k = 1; k < points.size(); ++k) {
      if (!(points[k].t_s > points[k - 1].t_s)) {
        return Failure{file + ": /MetricDataResults: " + figure +
                       ": two points at the same time (a page read twice?)"};
      }
    }
  }
  return series;
}

base::Expected<ObservedSeries> ReadSeriesCloudWatch(std::string_view text, const std::string& file,
                                                    const SeriesReadOptions& options) {
  const base::Expected<Json> root = ParseSeriesJson(text, file);
  if (!root) return Failure{root.error()};
  return ReadCloudWatchJson(*root, file, options);
}

}  // namespace drainsim::telemetry
