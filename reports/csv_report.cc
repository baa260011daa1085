#include "reports/csv_report.h"

#include "reports/metrics.h"

namespace drainsim::reports {

std::string CsvField(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (const char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string CsvSeries(const ReportInput& input) {
  constexpr const char* kLineEnd = "\r\n";
  std::string out;
  bool first = true;
  const std::vector<const SeriesColumn*> columns = SeriesColumnsOf(input.results);
  for (const SeriesColumn* column : columns) {
    if (!first) out += ',';
    out += CsvField(column->name);
    first = false;
  }
  out += kLineEnd;
  for (const model::Sample& sample : input.results.series) {
    first = true;
    for (const SeriesColumn* column : columns) {
      if (!first) out += ',';
      first = false;
      const double value = column->value(sample);
      switch (column->type) {
        case SeriesColumn::Type::kCount:
          out += std::to_string(static_cast<int64_t>(value));
          break;
        case SeriesColumn::Type::kReal:
          out += JsonNumber(value);
          break;
        case SeriesColumn::Type::kFlag:
          out += value != 0 ? '1' : '0';
          break;
      }
    }
    out += kLineEnd;
  }
  return out;
}

}  // namespace drainsim::reports
