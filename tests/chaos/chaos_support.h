// Shared by the chaos tests: scenarios loaded through the real loader, and the shipped ones.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "chaos/plan.h"
#include "sim/scenario/load.h"

namespace drainsim::chaos::testing {

inline const std::string kSource = DRAINSIM_SOURCE_DIR;

inline config::Scenario LoadTextOrFail(const std::string& json_text) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(json_text);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem("<test scenario>", problem));
  }
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

inline config::Scenario LoadShipped(const std::string& name) {
  const std::string path = kSource + "/scenarios/" + name;
  scenario::LoadResult loaded = scenario::LoadScenarioFile(path);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem(path, problem));
  }
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// The text of scenarios/NAME.
inline std::string ReadShippedText(const std::string& name) {
  std::ifstream in(kSource + "/scenarios/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Sets the member at JSON `pointer` of the scenario text to `value_json`.
inline void SetJson(std::string& text, const std::string& pointer, const std::string& value_json) {
  nlohmann::json doc = nlohmann::json::parse(text);
  doc[nlohmann::json::json_pointer(pointer)] = nlohmann::json::parse(value_json);
  text = doc.dump();
}

// Every scenario file in scenarios/ (schema.json is not one), sorted.
inline std::vector<std::string> ShippedScenarioNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/scenarios")) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".json" && name != "schema.json") names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline SwarmPlan PlanOrFail(const config::Scenario& base, const SwarmParams& params = {}) {
  PlanOrError made = MakeSwarmPlan(base, params);
  INFO(made.error);
  REQUIRE(made.plan.has_value());
  return *made.plan;
}

}  // namespace drainsim::chaos::testing
