#include "tools/drainsim/scenario_input.h"

#include <cstdio>

namespace drainsim::cli {

void ReportLoad(const std::string& path, const scenario::LoadResult& result) {
  for (const scenario::Problem& problem : result.problems) {
    std::fprintf(stderr, "%s\n", scenario::FormatProblem(path, problem).c_str());
  }
  for (const scenario::Problem& warning : result.warnings) {
    std::fprintf(stderr, "%s\n", scenario::FormatWarning(path, warning).c_str());
  }
}

scenario::LoadResult LoadAndReport(const std::string& path) {
  scenario::LoadResult result = scenario::LoadScenarioFile(path);
  ReportLoad(path, result);
  return result;
}

}  // namespace drainsim::cli
