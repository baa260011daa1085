#include "experiments/fit_merge.h"

#include <nlohmann/json.hpp>
#include <set>

#include "sim/scenario/load.h"

namespace drainsim::experiments {

namespace {

using Json = nlohmann::json;

// Drops the array's members that are about one of `kinds` and satisfy `also`, then appends `add`.
void Replace(Json& array, const std::set<std::string>& kinds, const Json& add,
             bool (*also)(const Json&)) {
  Json kept = Json::array();
  for (const Json& item : array) {
    const auto kind = item.find("kind");
    const bool fitted = kind != item.end() && kind->is_string() && kinds.count(*kind) && also(item);
    if (!fitted) kept.push_back(item);
  }
  for (const Json& item : add) kept.push_back(item);
  array = std::move(kept);
}

// An `errors` fault whose kind is null (or absent: every kind) also strikes the fitted kinds,
// whose errors the fit already counts: it becomes one copy per kind that was not fitted, where
// it stood, and goes when every kind was fitted.
void SplitEveryKindErrors(Json& faults, const Json& scenario_kinds,
                          const std::set<std::string>& fitted) {
  Json out = Json::array();
  for (const Json& fault : faults) {
    const auto kind = fault.find("kind");
    const bool every_kind = kind == fault.end() || kind->is_null();
    if (fault.value("type", Json()) != "errors" || !every_kind) {
      out.push_back(fault);
      continue;
    }
    for (const auto& [name, unused] : scenario_kinds.items()) {
      if (fitted.count(name)) continue;
      Json copy = fault;
      copy["kind"] = name;
      out.push_back(std::move(copy));
    }
  }
  faults = std::move(out);
}

// The scenario's kind (if it has it) claims its key with a database statement before its work.
bool ClaimsFirst(const config::Scenario& scenario, const std::string& kind) {
  const auto it = scenario.kinds.find(kind);
  return it != scenario.kinds.end() && it->second.idempotency == config::Idempotency::kClaim;
}

}  // namespace

base::Expected<std::string> MergeFitInto(std::string_view scenario_text,
                                         const std::string& scenario_path,
                                         std::string_view fragment_text) {
  const scenario::LoadResult base = scenario::LoadScenarioText(scenario_text);
  if (!base.ok()) return base::Failure{scenario::FormatProblem(scenario_path, base.problems[0])};
  Json merged = Json::parse(scenario_text);  // it loaded: valid JSON, an object
  const Json fragment = Json::parse(fragment_text);
  std::set<std::string> kinds;
  for (const auto& [kind, fit] : fragment.at("kinds").items()) {
    kinds.insert(kind);
    Json& target = merged["kinds"][kind];
    if (!target.is_object()) target = Json::object();
    Json& handler = target["handler"];
    if (!handler.is_object()) handler = Json::object();
    for (const auto& [field, value] : fit.at("handler").items()) handler[field] = value;
    if (!fit.at("handler").contains("db_op_ms")) {
      handler["db_op_ms"] = nullptr;
    } else if (ClaimsFirst(*base.scenario, kind) && handler.at("db_ops").get<int64_t>() > 0) {
      // The claim's insert is one of the statements counted, and the model makes it anyway.
      handler["db_ops"] = handler.at("db_ops").get<int64_t>() - 1;
    }
  }
  if (!merged.contains("faults")) merged["faults"] = Json::array();
  if (!merged.contains("producers")) merged["producers"] = Json::array();
  SplitEveryKindErrors(merged["faults"], merged["kinds"], kinds);
  Replace(merged["faults"], kinds, fragment.at("faults"),
          [](const Json& fault) { return fault.value("type", Json()) == "errors"; });
  std::set<std::string> arriving;
  for (const Json& producer : fragment.at("producers")) arriving.insert(producer.at("kind"));
  Replace(merged["producers"], arriving, fragment.at("producers"),
          [](const Json&) { return true; });
  const std::string text = merged.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  const scenario::LoadResult check = scenario::LoadScenarioText(text);
  if (!check.ok()) {
    return base::Failure{
        scenario::FormatProblem(scenario_path + " (merged with the fit)", check.problems[0])};
  }
  return text;
}

}  // namespace drainsim::experiments
