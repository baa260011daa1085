#include "tools/drainsim/fit_input.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>
#include <utility>

#include "sim/telemetry/live_events_read.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

constexpr size_t kSniffBytes = 64 << 10;

constexpr std::array<std::pair<std::string_view, FitInputKind>, 5> kKindNames = {{
    {"otlp", FitInputKind::kOtlp},
    {"live", FitInputKind::kLive},
    {"csv", FitInputKind::kCsv},
    {"prometheus", FitInputKind::kPrometheus},
    {"cloudwatch", FitInputKind::kCloudWatch},
}};

bool IsLiveEventsName(const std::string& path) {
  return path.size() >= 6 && path.compare(path.size() - 6, 6, ".jsonl") == 0;
}

// Rule (2) of fit_input.h on the file's first bytes (an unreadable file is left to its reader).
FitInputKind Recognise(const std::string& path) {
  if (IsLiveEventsName(path)) return FitInputKind::kLive;
  std::ifstream in(path, std::ios::binary);
  std::string head(kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(std::max<std::streamsize>(0, in.gcount())));
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return FitInputKind::kOtlp;
  if (head[first] == '{') {
    if (head.find("\"resourceSpans\"") != std::string::npos) return FitInputKind::kOtlp;
    if (head.find("\"MetricDataResults\"") != std::string::npos) return FitInputKind::kCloudWatch;
    if (head.find("\"resultType\"") != std::string::npos) return FitInputKind::kPrometheus;
    return FitInputKind::kOtlp;
  }
  const std::string_view line =
      std::string_view(head).substr(first, head.find('\n', first) - first);
  const bool csv = head[first] != '[' && line.find(',') != std::string_view::npos;
  return csv ? FitInputKind::kCsv : FitInputKind::kOtlp;
}

base::Expected<std::string> ReadText(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) return base::Failure{path + ": cannot read: " + error.message()};
  if (size > telemetry::kSeriesTextBytesMax) {
    return base::Failure{path + ": larger than " +
                         std::to_string(telemetry::kSeriesTextBytesMax >> 20) + " MiB"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::Failure{path + ": cannot open"};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

base::Status ReadSeriesFile(const std::string& path, FitInputKind kind,
                            const telemetry::SeriesReadOptions& options, FitInputs* inputs) {
  const base::Expected<std::string> text = ReadText(path);
  if (!text) return base::Failure{text.error()};
  base::Expected<telemetry::ObservedSeries> series =
      kind == FitInputKind::kCsv          ? telemetry::ReadSeriesCsv(*text, path, options)
      : kind == FitInputKind::kPrometheus ? telemetry::ReadSeriesPrometheus(*text, path, options)
                                          : telemetry::ReadSeriesCloudWatch(*text, path, options);
  if (!series) return base::Failure{series.error()};
  inputs->series.push_back(std::move(*series));
  return {};
}

// No span read and no series: the reason, as fit gave it before it read series.
base::Status NothingToFit(const std::vector<std::string>& paths, const FitInputs& inputs,
                          bool live) {
  std::string files;
  for (const std::string& path : paths) files += (files.empty() ? "" : ", ") + path;
  if (live) {
    return base::Failure{files +
                         ": no attempt to fit: no \"attempt\" line in live-events.jsonl and no "
                         "messaging process span in OTLP traces"};
  }
  return base::Failure{files +
                       ": /resourceSpans: no spans of the messaging kind "
                       "(messaging.operation.type \"process\"; " +
                       std::to_string(inputs.set.spans_skipped) + " other spans)"};
}

}  // namespace

base::Expected<FitInputKind> ParseFitInputKind(const std::string& name) {
  std::string names;
  for (const auto& [text, kind] : kKindNames) {
    if (name == text) return kind;
    names += (names.empty() ? "" : ", ") + std::string(text);
  }
  return base::Failure{"--kind " + name + ": unknown kind (" + names + ")"};
}

base::Status ReadFitInputs(const std::vector<std::string>& paths, std::optional<FitInputKind> kind,
                           const telemetry::SeriesReadOptions& options, FitInputs* inputs) {
  bool live = false;
  bool traces = false;
  for (const std::string& path : paths) {
    const FitInputKind k = kind ? *kind : Recognise(path);
    live = live || k == FitInputKind::kLive;
    traces = traces || k == FitInputKind::kLive || k == FitInputKind::kOtlp;
    base::Status s = k == FitInputKind::kOtlp   ? telemetry::ReadOtlpTracesFile(path, &inputs->set)
                     : k == FitInputKind::kLive ? telemetry::ReadLiveEventsFile(path, &inputs->set)
                                                : ReadSeriesFile(path, k, options, inputs);
    if (!s) return s;
  }
  if (traces && inputs->set.spans.empty()) {
    std::vector<std::string> trace_paths;  // the reason names the files that had none
    for (const std::string& path : paths) {
      const FitInputKind k = kind ? *kind : Recognise(path);
      if (k == FitInputKind::kLive || k == FitInputKind::kOtlp) trace_paths.push_back(path);
    }
    return NothingToFit(trace_paths, *inputs, live);
  }
  return {};
}

}  // namespace drainsim::cli
