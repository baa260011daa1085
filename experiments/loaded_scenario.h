// A scenario loaded for an experiment: the validated Scenario, the document it came from (what
// --vary, --param and the metric names are checked against) and its hash. One loader for the
// CLI's experiment commands and the Python module (python/), so both read a scenario the same
// way and name its problems the same way.
//
// Contract:
//  (1) Exactly one of `loaded` and a non-empty `problems` (as scenario::LoadResult (1)).
//  (2) The problems are the loader's (sim/scenario/load.h), with the document's if the loader
//      accepted text that nlohmann/json refuses: {"", "cannot be edited as JSON: ..."}, which
//      scenario::FormatProblem prints as "FILE: cannot be edited as JSON: ...".
//  (3) Warnings (plausibility) come only with a scenario; they never stop a load.
//
// Thread-safety: pure functions of their arguments (and of the file).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/config.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {

struct LoadedScenario {
  std::string path;  // as given: report.json's scenario.path and the reproduce line name it
  config::Scenario scenario;
  nlohmann::json document;  // the file as JSON: what --vary and --param edit
  std::string hash;         // of the canonical dump, as report.json's scenario.hash
};

struct ScenarioLoad {
  std::optional<LoadedScenario> loaded;
  std::vector<scenario::Problem> problems;
  std::vector<scenario::Problem> warnings;
};

// Reads and loads the file at `path` (scenario::LoadScenarioFile).
ScenarioLoad LoadScenarioForExperiment(const std::string& path);

// Loads `text` (scenario::LoadScenarioText), named `path` in reports and messages.
ScenarioLoad LoadScenarioTextForExperiment(const std::string& path, std::string_view text);

}  // namespace drainsim::experiments
