// Runs: one run's report.json (`drainsim run`), the replications' summary (`drainsim run
// --replications`) and a comparison (`drainsim compare`), each the JSON text the CLI writes.
// Values are checked and converted with the GIL held; the simulations run without it.
#include <pybind11/stl.h>

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "experiments/compare_gate.h"
#include "experiments/compare_setup.h"
#include "experiments/experiment_result.h"
#include "experiments/experiment_setup.h"
#include "experiments/loaded_scenario.h"
#include "experiments/replicate.h"
#include "experiments/single_run.h"
#include "python/arguments.h"
#include "python/bindings.h"
#include "reports/formats.h"
#include "sim/base/check.h"

namespace drainsim::python {

namespace py = pybind11;
using experiments::LoadedScenario;
using experiments::MetricSpec;

namespace {

using Names = std::optional<std::vector<std::string>>;

// report.json of the run of `s` with `seed` (default: the scenario's), as `drainsim run --format
// json` writes it.
std::string RunReport(const LoadedScenario& s, std::optional<uint64_t> seed) {
  const uint64_t used = seed.value_or(s.scenario.seed);
  const reports::Format* json = reports::FindFormat("json");
  DRAINSIM_CHECK(json != nullptr);
  py::gil_scoped_release release;
  const experiments::SingleRun run = experiments::RunSingle(s.scenario, s.path, used);
  if (run.results.model_error) {
    throw experiments::ModelErrorInRun(s.scenario.name, used, *run.results.model_error);
  }
  return json->write(run.Input());
}

// replications.json of `drainsim run PATH --replications N [--seed S] [--metric M]...`.
std::string ReplicationsJson(const LoadedScenario& s, int64_t replications,
                             std::optional<uint64_t> seed, int jobs, const Names& metrics,
                             double confidence) {
  CheckReplications(replications);
  CheckConfidence(confidence);
  const experiments::RunnerOptions options = RunnerOptionsFor(jobs);
  const std::vector<MetricSpec> specs = MetricsFor(s.document, metrics);
  experiments::Experiment e = experiments::ExperimentOf("run", s, seed.value_or(s.scenario.seed),
                                                        replications, confidence, specs);
  experiments::AddExpectations(s.scenario, &e);
  std::vector<int64_t> indices(static_cast<size_t>(replications));
  std::iota(indices.begin(), indices.end(), int64_t{0});
  py::gil_scoped_release release;
  const std::vector<experiments::RunRecord> records =
      experiments::RunReplications(s.scenario, specs, e.base_seed, indices, options);
  return FileText(experiments::RenderExperiment(e, records), "replications.json");
}

// The comparison's metrics: compare's --metric (checked in both) or the shared defaults, then
// the gate's.
std::vector<MetricSpec> ComparedMetrics(const LoadedScenario& a, const LoadedScenario& b,
                                        const Names& metrics, const std::vector<MetricSpec>& gate) {
  Names names;
  if (metrics) names = MetricNamesInBoth(a.document, b.document, *metrics);
  std::optional<std::vector<MetricSpec>> specs =
      experiments::ComparedMetrics(a.document, b.document, names, gate);
  if (!specs) throw std::invalid_argument("no metric applies to both scenarios");
  return std::move(*specs);
}

// compare.json of `drainsim compare A B --replications N [--seed S] [--metric M]...
// [--fail-if-worse M,...] [--independent]`; the seed defaults to A's.
std::string CompareJson(const LoadedScenario& a, const LoadedScenario& b, int64_t replications,
                        std::optional<uint64_t> seed, int jobs, const Names& metrics,
                        const Names& fail_if_worse, bool independent, double confidence) {
  CheckReplications(replications);
  CheckConfidence(confidence);
  const experiments::RunnerOptions options = RunnerOptionsFor(jobs);
  std::vector<MetricSpec> gate;
  if (fail_if_worse) {
    base::Expected<std::vector<MetricSpec>> resolved =
        experiments::ResolveGateMetrics(a.document, b.document, *fail_if_worse);
    if (!resolved) throw std::invalid_argument(resolved.error());
    gate = std::move(*resolved);
  }
  const std::vector<MetricSpec> specs = ComparedMetrics(a, b, metrics, gate);
  experiments::Comparison c = experiments::ComparisonOf(a, b, specs, gate);
  c.base_seed = seed.value_or(a.scenario.seed);
  c.replications = replications;
  c.confidence = confidence;
  c.independent = independent;
  py::gil_scoped_release release;
  return FileText(experiments::RunComparison(c, a.scenario, b.scenario, specs, options),
                  "compare.json");
}

}  // namespace

void BindRuns(py::module_& m) {
  m.def("run_report", &RunReport, py::arg("scenario"), py::arg("seed"));
  m.def("replications_json", &ReplicationsJson, py::arg("scenario"), py::arg("replications"),
        py::arg("seed"), py::arg("jobs"), py::arg("metrics"), py::arg("confidence"));
  m.def("compare_json", &CompareJson, py::arg("a"), py::arg("b"), py::arg("replications"),
        py::arg("seed"), py::arg("jobs"), py::arg("metrics"), py::arg("fail_if_worse"),
        py::arg("independent"), py::arg("confidence"));
}

}  // namespace drainsim::python
