#include "tools/fuzz/fuzz_check.h"

#include "sim/scenario/load.h"

namespace drainsim::fuzz {

std::string CheckScenarioBytes(std::string_view bytes) {
  const scenario::LoadResult first = scenario::LoadScenarioText(bytes);
  if (first.ok() == !first.problems.empty()) {
    return first.ok() ? "a scenario and problems at once" : "neither a scenario nor a problem";
  }
  for (const scenario::Problem& problem : first.problems) {
    if (problem.message.empty()) return "a problem without a message at '" + problem.pointer + "'";
  }
  if (!first.ok()) return "";
  const std::string dump = scenario::DumpCanonical(*first.scenario);
  const scenario::LoadResult second = scenario::LoadScenarioText(dump);
  if (!second.ok()) {
    return "the canonical dump does not load: " +
           scenario::FormatProblem("<dump>", second.problems.front());
  }
  if (!(*second.scenario == *first.scenario)) return "load -> dump -> load changed the scenario";
  if (scenario::DumpCanonical(*second.scenario) != dump) return "the dump is not a fixed point";
  return "";
}

}  // namespace drainsim::fuzz
