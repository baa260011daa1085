// `drainsim tune` from its options to a search ready to run (experiments/tune.h): the grid's
// number type, the constraints' metrics resolved against the scenario, the scenario at each
// value, and the check that both ends of the range load. The CLI parses options and prints;
// this is the experiment's side.
//
// Contract: pure functions of their arguments; error texts are what the CLI prints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "experiments/tune.h"
#include "sim/base/expected.h"

namespace drainsim::experiments {

// Values are written as JSON integers iff low, high and the resolution are whole numbers.
bool IsIntegerGrid(double low, double high, double resolution);

// Resolves every constraint's metric against the scenario: spec->metrics, and each
// constraint's metric in its canonical name. Or why not, one problem per line, each as the
// CLI prints it after "drainsim tune: " ("--constraint NAME: ...").
base::Status ResolveConstraints(const nlohmann::json& document, TuneSpec* spec);

// The scenario at a value: `document` with spec.pointer set to it (ValueJson), loaded; refused
// with one line per problem, "PATH: --param /p=V: /pointer: message". Copies what it needs.
ScenarioAt ScenarioAtFor(const nlohmann::json& document, const std::string& path,
                         const TuneSpec& spec);

// Both ends of the range give valid scenarios (checked before anything runs).
base::Status CheckEnds(const TuneSpec& spec, const ScenarioAt& scenario_at);

}  // namespace drainsim::experiments
