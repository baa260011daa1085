#include "experiments/single_run.h"

#include "reports/json_report.h"
#include "reports/scenario_marks.h"
#include "reports/version.h"
#include "sim/base/check.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {

reports::ReportInput SingleRun::Input(const model::TraceLog* trace) const {
  DRAINSIM_CHECK(!results.model_error);
  return reports::ReportInput{results, context, verdicts, reproduce, trace};
}

reports::ReportContext ReportContextFor(const config::Scenario& scenario, const std::string& path) {
  reports::ReportContext context;
  context.scenario_path = path;
  context.scenario_hash = reports::HashHex(scenario::DumpCanonical(scenario));
  context.drainsim_version = reports::VersionText();
  context.marks = reports::ScenarioMarksOf(scenario);
  return context;
}

SingleRun RunSingle(const config::Scenario& scenario, const std::string& path, uint64_t seed,
                    const model::RunOptions& options) {
  SingleRun run;
  run.results = model::RunSimulation(scenario, seed, options);
  // Contract (2): the figures of a run that broke an invariant are not to be trusted.
  if (!run.results.model_error) {
    run.verdicts = reports::EvaluateExpectations(run.results, scenario.expect);
  }
  run.context = ReportContextFor(scenario, path);
  run.reproduce = reports::ReproduceCommand(path, seed);
  return run;
}

}  // namespace drainsim::experiments
