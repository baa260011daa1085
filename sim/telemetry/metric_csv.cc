// The CSV reader of metric_series.h: a header row, then one row per instant. Fields may be
// double-quoted (RFC 4180) but may not hold a line break; lines end with LF or CRLF.
#include <algorithm>
#include <optional>

#include "sim/telemetry/metric_series.h"
#include "sim/telemetry/metric_series_text.h"

namespace drainsim::telemetry {

namespace {

using base::Failure;

// The fields of one line; nullopt when a quote is not closed.
std::optional<std::vector<std::string>> SplitFields(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return fields;
}

// What each column of the header is: the time, a figure, or ignored.
struct Header {
  size_t time_column = 0;
  std::vector<std::optional<std::string>> figure;  // per column: its figure, or nullopt
  size_t columns = 0;
};

base::Expected<Header> ReadHeader(const std::vector<std::string>& names,
                                  const SeriesReadOptions& options) {
  Header header;
  header.columns = names.size();
  std::optional<size_t> time;
  for (size_t c = 0; c < names.size(); ++c) {
    const std::string& name = names[c];
    header.figure.emplace_back();
    if (std::count(names.begin(), names.end(), name) > 1) {
      return Failure{"column " + name + " appears twice"};
    }
    if (name == "t_s") {
      time = c;
    } else if (name == "t" || name == "time" || name == "timestamp" || name == "t_ms") {
      return Failure{"units missing: the time column is t_s (seconds from the start), not " + name};
    } else if (IsFigureName(name)) {
      header.figure.back() = name;
    } else if (std::find(options.ignored_columns.begin(), options.ignored_columns.end(), name) ==
               options.ignored_columns.end()) {
      return Failure{"column " + name + ": " + CheckFigureName(name).error()};
    }
  }
  if (!time) return Failure{"no t_s column (no timestamps)"};
  header.time_column = *time;
  if (std::none_of(header.figure.begin(), header.figure.end(),
                   [](const auto& f) { return f.has_value(); })) {
    return Failure{"no figure column (depth, dlq_depth, inflow_per_s, oldest_age_s)"};
  }
  return header;
}

// Reads one data row into `out`; `last_t_s` is the previous row's time (nullopt for the first).
base::Status ReadRow(const std::vector<std::string>& fields, const Header& header,
                     std::optional<double>* last_t_s, ObservedSeries* out) {
  if (fields.size() != header.columns) {
    return Failure{std::to_string(fields.size()) + " fields, the header has " +
                   std::to_string(header.columns)};
  }
  const base::Expected<double> t_s = ParseNumber(fields[header.time_column]);
  if (!t_s) return Failure{"t_s: " + t_s.error()};
  if (*last_t_s && !(*t_s > **last_t_s)) {
    return Failure{"t_s " + fields[header.time_column] +
                   " is not after the previous row's (times must increase)"};
  }
  *last_t_s = *t_s;
  for (size_t c = 0; c < fields.size(); ++c) {
    if (!header.figure[c] || fields[c].empty()) continue;  // an empty field: no sample then
    const base::Expected<double> value = ParseNumber(fields[c]);
    if (!value) return Failure{*header.figure[c] + ": " + value.error()};
    if (*value < 0) return Failure{*header.figure[c] + ": negative (" + fields[c] + ")"};
    out->figures[*header.figure[c]].push_back({*t_s, *value});
  }
  return {};
}

}  // namespace

base::Expected<ObservedSeries> ReadSeriesCsv(std::string_view text, const std::string& file,
                                             const SeriesReadOptions& options) {
  const auto problem = [&](size_t line, const std::string& reason) {
    return Failure{file + ": line " + std::to_string(line) + ": " + reason};
  };
  if (text.size() > kSeriesTextBytesMax) return Failure{file + ": larger than 1024 MiB"};
  ObservedSeries out;
  out.file = file;
  std::optional<Header> header;
  std::optional<double> last_t_s;
  size_t line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line_number > kCsvRowsMax) return problem(line_number, "more rows than 2^24");
    const std::optional<std::vector<std::string>> fields = SplitFields(line);
    if (!fields) return problem(line_number, "a quote is not closed");
    if (!header) {
      base::Expected<Header> read = ReadHeader(*fields, options);
      if (!read) return problem(line_number, read.error());
      header = std::move(*read);
      continue;
    }
    if (base::Status s = ReadRow(*fields, *header, &last_t_s, &out); !s) {
      return problem(line_number, s.error());
    }
  }
  if (!header) return problem(1, "no header row (t_s and figure columns)");
  if (!last_t_s) return problem(line_number + 1, "no rows (no timestamps)");
  for (size_t c = 0; c < header->columns; ++c) {
    if (header->figure[c] && !out.figures.count(*header->figure[c])) {
      return problem(1, "column " + *header->figure[c] + " has no value in any row");
    }
  }
  return out;
}

}  // namespace drainsim::telemetry
