#include "tools/drainsim/scenario_input.h"

#include <cstdio>

namespace drainsim::cli {

void ReportLoad(const std::string& path, const std::vector<scenario::Problem>& problems,
                const std::vector<scenario::Problem>& warnings) {
  for (const scenario::Problem& warning : warnings) {
    std::fprintf(stderr, "%s\n", scenario::FormatWarning(path, warning).c_str());
  }
  for (const scenario::Problem& problem : problems) {
    std::fprintf(stderr, "%s\n", scenario::FormatProblem(path, problem).c_str());
  }
}

scenario::LoadResult LoadAndReport(const std::string& path) {
  scenario::LoadResult result = scenario::LoadScenarioFile(path);
  ReportLoad(path, result.problems, result.warnings);
  return result;
}

}  // namespace drainsim::cli
