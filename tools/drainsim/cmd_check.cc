// `drainsim check` and `drainsim dump`: the two subcommands that only read scenarios.
#include <cstdio>
#include <string>
#include <vector>

#include "sim/scenario/load.h"
#include "tools/drainsim/options.h"

namespace drainsim::cli {

namespace {

// Loads `path`, printing every problem to stderr. Returns the result either way.
scenario::LoadResult LoadAndReport(const std::string& path) {
  scenario::LoadResult result = scenario::LoadScenarioFile(path);
  for (const scenario::Problem& problem : result.problems) {
    std::fprintf(stderr, "%s\n", scenario::FormatProblem(path, problem).c_str());
  }
  return result;
}

}  // namespace

int RunCheck(const Args& args) {
  CommandLine line("check", "check SCENARIO...",
                   "Validates each scenario without running it. Every problem is listed on stderr "
                   "as FILE: /json/pointer: message.\nExit code 0 when all are valid, 2 when any "
                   "is not.");
  line.options.add_options()("scenario", po::value<std::vector<std::string>>()->required(),
                             "scenario JSON files");
  line.positional.add("scenario", -1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  int exit_code = kExitOk;
  for (const std::string& path : vm["scenario"].as<std::vector<std::string>>()) {
    if (LoadAndReport(path).ok()) {
      std::printf("%s: ok\n", path.c_str());
    } else {
      exit_code = kExitBadInput;
    }
  }
  return exit_code;
}

int RunDump(const Args& args) {
  CommandLine line("dump", "dump SCENARIO",
                   "Prints the scenario's canonical form on stdout: sorted keys, every default "
                   "filled in.\nLoading the output gives the same scenario.");
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file");
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  scenario::LoadResult result = LoadAndReport(vm["scenario"].as<std::string>());
  if (!result.ok()) return kExitBadInput;
  std::fputs(scenario::DumpCanonical(*result.scenario).c_str(), stdout);
  return kExitOk;
}

}  // namespace drainsim::cli
