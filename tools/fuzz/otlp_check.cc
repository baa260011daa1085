#include "tools/fuzz/otlp_check.h"

#include <nlohmann/json.hpp>

#include "experiments/fit.h"
#include "reports/fit_report.h"
#include "sim/telemetry/otlp_read.h"

namespace drainsim::fuzz {

std::string CheckOtlpBytes(std::string_view bytes) {
  constexpr const char* kFile = "fuzz.json";
  telemetry::TelemetrySet set;
  const base::Status status = telemetry::ReadOtlpTraces(bytes, kFile, &set);
  if (!status) {
    if (status.error().rfind(std::string(kFile) + ": ", 0) != 0) {
      return "a problem that does not name the file: " + status.error();
    }
    if (!set.spans.empty() || !set.statements.empty() || !set.files.empty()) {
      return "a problem, and spans read all the same";
    }
    return "";
  }
  for (const telemetry::ProcessSpan& span : set.spans) {
    if (span.end_ns < span.start_ns) return "a span read that ends before it starts";
  }
  for (const telemetry::StatementSpan& statement : set.statements) {
    if (statement.end_ns < statement.start_ns) return "a statement that ends before it starts";
    if (statement.parent_key == 0) return "a statement without a parent";
  }
  if (set.spans.empty()) return "";
  for (const double window_s : {0.0, 1.0}) {
    const experiments::FitResult fit = experiments::FitTelemetry(set, window_s);
    const nlohmann::json fragment =
        nlohmann::json::parse(reports::FitFragment(fit), nullptr, /*allow_exceptions=*/false);
    if (fragment.is_discarded()) return "the fragment is not JSON";
    for (const experiments::KindFit& kind : fit.kinds) {
      if (kind.handler.empirical && !fragment["kinds"].contains(kind.kind)) {
        return "kind " + kind.kind + " fitted but not in the fragment";
      }
    }
    if (reports::FitSummary(fit).empty()) return "an empty summary";
  }
  return "";
}

}  // namespace drainsim::fuzz
