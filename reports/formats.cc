#include "reports/formats.h"

#include <algorithm>

#include "reports/csv_report.h"
#include "reports/html_report.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/otlp_metrics.h"
#include "reports/otlp_traces.h"
#include "reports/trace_report.h"

namespace drainsim::reports {

std::span<const Format> Formats() {
  static constexpr Format kFormats[] = {
      {"json", "report.json", "the versioned report (every figure, the series, the verdicts)",
       JsonReport},
      {"md", "report.md", "Markdown summary for $GITHUB_STEP_SUMMARY and merge-request comments",
       MarkdownReport},
      {"junit", "junit.xml", "JUnit XML: one test case per expectation", JunitReport},
      {"csv", "series.csv", "the sampled time series: a header row, one row per sample", CsvSeries},
      {"html", "report.html", "one self-contained page: headline figures and SVG charts",
       HtmlReport},
      {"trace", "trace.json",
       "Chrome trace for ui.perfetto.dev: attempts per worker, queues, faults", TraceReport,
       /*needs_trace_log=*/true},
      {"otlp", "otlp-traces.json",
       "OpenTelemetry OTLP/JSON: a span per attempt, and the series as gauges in "
       "otlp-metrics.json",
       OtlpTraces, /*needs_trace_log=*/true, "otlp-metrics.json", OtlpMetrics,
       /*needs_statements=*/true},
  };
  return kFormats;
}

const Format* FindFormat(std::string_view name) {
  for (const Format& format : Formats()) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

std::vector<OutputFile> RenderFormat(const Format& format, const ReportInput& input) {
  std::vector<OutputFile> files;
  files.push_back({std::string(format.file_name), format.write(input)});
  if (format.write_companion != nullptr) {
    files.push_back({std::string(format.companion_file_name), format.write_companion(input)});
  }
  return files;
}

std::string FormatNames() {
  std::string names;
  for (const Format& format : Formats()) {
    if (!names.empty()) names += ", ";
    names += format.name;
  }
  return names;
}

base::Expected<std::vector<const Format*>> ParseFormatList(std::string_view list) {
  std::vector<const Format*> formats;
  size_t start = 0;
  while (true) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view name = list.substr(start, comma - start);
    if (name.empty()) {
      return base::Failure{"empty format name in '" + std::string(list) +
                           "'; formats are: " + FormatNames()};
    }
    const Format* format = FindFormat(name);
    if (format == nullptr) {
      return base::Failure{"unknown format '" + std::string(name) +
                           "'; formats are: " + FormatNames()};
    }
    if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
      formats.push_back(format);
    }
    if (comma == list.size()) return formats;
    start = comma + 1;
  }
}

}  // namespace drainsim::reports
