#include "python/arguments.h"

#include <stdexcept>

#include "experiments/experiment.h"
#include "experiments/parallel.h"
#include "sim/base/check.h"

namespace drainsim::python {

namespace {

// One line per bad name, as the CLI prints them after "drainsim COMMAND: --metric ".
std::string MetricErrors(const std::vector<std::string>& errors) {
  std::string text;
  for (const std::string& error : errors) text += (text.empty() ? "" : "\n") + ("metric " + error);
  return text;
}

}  // namespace

void CheckReplications(int64_t replications) {
  if (replications < 1 || replications > experiments::kReplicationsMax) {
    throw std::invalid_argument("n (replications) must be in 1..1000000");
  }
}

void CheckConfidence(double confidence) {
  if (!experiments::ConfidenceInRange(confidence)) {
    throw std::invalid_argument("confidence must be in [0.5, 1) (got " +
                                std::to_string(confidence) + ")");
  }
}

experiments::RunnerOptions RunnerOptionsFor(int jobs) {
  if (jobs < 1 || jobs > experiments::kJobsMax) {
    throw std::invalid_argument("jobs must be in 1.." + std::to_string(experiments::kJobsMax));
  }
  experiments::RunnerOptions options;
  options.jobs = jobs;
  return options;
}

std::vector<experiments::MetricSpec> MetricsFor(
    const nlohmann::json& document, const std::optional<std::vector<std::string>>& names) {
  const std::vector<std::string> wanted =
      names ? *names : experiments::DefaultMetricNames(document);
  if (wanted.empty()) throw std::invalid_argument("no metric to report");
  std::vector<std::string> errors;
  std::optional<std::vector<experiments::MetricSpec>> specs =
      experiments::ResolveMetrics(document, wanted, &errors);
  if (!specs) throw std::invalid_argument(MetricErrors(errors));
  return std::move(*specs);
}

std::vector<std::string> MetricNamesInBoth(const nlohmann::json& a, const nlohmann::json& b,
                                           const std::vector<std::string>& names) {
  if (names.empty()) throw std::invalid_argument("no metric to report");
  std::vector<std::string> errors;  // A's, then B's
  const std::optional<std::vector<experiments::MetricSpec>> in_a =
      experiments::ResolveMetrics(a, names, &errors);
  const std::optional<std::vector<experiments::MetricSpec>> in_b =
      experiments::ResolveMetrics(b, names, &errors);
  if (!in_a || !in_b) throw std::invalid_argument(MetricErrors(errors));
  std::vector<std::string> canonical;
  for (const experiments::MetricSpec& spec : *in_a) canonical.push_back(spec.name);
  return canonical;
}

std::string FileText(const reports::Rendered& rendered, const std::string& name) {
  for (const reports::OutputFile& file : rendered.files) {
    if (file.name == name) return file.text;
  }
  DRAINSIM_CHECK(false && "the rendered output has no such file");
  return "";
}

}  // namespace drainsim::python
