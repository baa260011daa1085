#include "experiments/loaded_scenario.h"

#include <fstream>
#include <iterator>
#include <utility>

#include "experiments/scenario_edit.h"
#include "reports/json_report.h"

namespace drainsim::experiments {

namespace {

// The loader's verdict on `text`, and the document the experiments edit (contract (2)).
ScenarioLoad Complete(const std::string& path, scenario::LoadResult result,
                      const std::string& text) {
  ScenarioLoad load{std::nullopt, std::move(result.problems), std::move(result.warnings)};
  if (!result.ok()) return load;
  base::Expected<nlohmann::json> document = ParseDocument(text);
  if (!document) {
    // The loader accepted it, so this is a JSON extension nlohmann refuses; say so plainly.
    load.problems.push_back({"", "cannot be edited as JSON: " + document.error()});
    return load;
  }
  LoadedScenario loaded;
  loaded.path = path;
  loaded.scenario = std::move(*result.scenario);
  loaded.document = std::move(*document);
  loaded.hash = reports::HashHex(scenario::DumpCanonical(loaded.scenario));
  load.loaded = std::move(loaded);
  return load;
}

}  // namespace

ScenarioLoad LoadScenarioForExperiment(const std::string& path) {
  scenario::LoadResult result = scenario::LoadScenarioFile(path);
  if (!result.ok()) return {std::nullopt, std::move(result.problems), {}};
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return Complete(path, std::move(result), text);
}

ScenarioLoad LoadScenarioTextForExperiment(const std::string& path, std::string_view text) {
  return Complete(path, scenario::LoadScenarioText(text), std::string(text));
}

}  // namespace drainsim::experiments
