// `drainsim check` and `drainsim dump`: the two subcommands that only read scenarios.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "sim/scenario/fitted_values.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

// Larger files are not scenarios either; they fail to load and are reported as such.
constexpr std::uintmax_t kSchemaBytesMax = std::uintmax_t{16} << 20;

// True iff `path` is a JSON document whose top level is an object with a "$schema" string
// naming json-schema.org: a JSON Schema such as scenarios/schema.json, which sits next to the
// scenarios it describes, so that `drainsim check scenarios/*.json` meets it.
bool IsJsonSchemaDocument(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > kSchemaBytesMax) return false;
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json document =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/false);
  if (!document.is_object()) return false;  // a parse error gives a discarded value
  const auto it = document.find("$schema");
  return it != document.end() && it->is_string() &&
         it->get_ref<const std::string&>().find("json-schema.org") != std::string::npos;
}

}  // namespace

int RunCheck(const Args& args) {
  CommandLine line("check", "check [--strict] SCENARIO...",
                   "Validates each scenario without running it. Every problem is listed on stderr "
                   "as FILE: /json/pointer: message, every plausibility warning (a legal value "
                   "that is almost certainly a mistake, such as a timeout below the query time) "
                   "as FILE: /json/pointer: warning: message.\nA JSON Schema document (a "
                   "top-level \"$schema\" naming json-schema.org, such as scenarios/schema.json) "
                   "is skipped.\nExit code 0 when all are valid or skipped, 2 when any is not "
                   "(with --strict: or has a warning).");
  line.options.add_options()("strict", po::bool_switch(), "treat warnings as errors (exit 2)")(
      "scenario", po::value<std::vector<std::string>>()->required(), "scenario JSON files");
  line.positional.add("scenario", -1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const bool strict = vm["strict"].as<bool>();

  int exit_code = kExitOk;
  for (const std::string& path : vm["scenario"].as<std::vector<std::string>>()) {
    const scenario::LoadResult result = scenario::LoadScenarioFile(path);
    if (result.ok() && !(strict && !result.warnings.empty())) {
      ReportLoad(path, result.problems, result.warnings);
      std::printf("%s: ok%s\n", path.c_str(), result.warnings.empty() ? "" : " (with warnings)");
    } else if (!result.ok() && IsJsonSchemaDocument(path)) {
      // Only what fails to load as a scenario is examined, so a scenario is never skipped.
      std::printf("%s: skipped (a JSON Schema document, not a scenario)\n", path.c_str());
    } else {
      ReportLoad(path, result.problems, result.warnings);
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

  const std::string path = vm["scenario"].as<std::string>();
  scenario::LoadResult result = LoadAndReport(path);
  if (!result.ok()) return kExitBadInput;
  // `drainsim fit`'s provenance, kept beside the configuration: read again with the text.
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const scenario::FittedLoad fitted = scenario::LoadScenarioTextWithFitted(text);
  std::fputs(scenario::DumpCanonicalWithFitted(*result.scenario, fitted.fitted).c_str(), stdout);
  return kExitOk;
}

}  // namespace drainsim::cli
