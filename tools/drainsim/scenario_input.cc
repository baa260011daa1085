#include "tools/drainsim/scenario_input.h"

#include <cstdio>

namespace drainsim::cli {

void PrintProblems(const std::string& path, const std::vector<scenario::Problem>& problems) {
  for (const scenario::Problem& problem : problems) {
    std::fprintf(stderr, "%s\n", scenario::FormatProblem(path, problem).c_str());
  }
}

void PrintWarnings(const std::string& path, const std::vector<scenario::Problem>& warnings) {
  for (const scenario::Problem& warning : warnings) {
    std::fprintf(stderr, "%s\n", scenario::FormatWarning(path, warning).c_str());
  }
}

void ReportLoad(const std::string& path, const scenario::LoadResult& result) {
  PrintProblems(path, result.problems);
  PrintWarnings(path, result.warnings);
}

scenario::LoadResult LoadAndReport(const std::string& path) {
  scenario::LoadResult result = scenario::LoadScenarioFile(path);
  ReportLoad(path, result);
  return result;
}

}  // namespace drainsim::cli
