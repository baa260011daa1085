// `drainsim run`: load, simulate, print a summary, write the report.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "reports/json_report.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/summary.h"
#include "tools/drainsim/version.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

// Writes `text` to `path` through a temporary file and a rename, so a reader never sees a
// half-written report. Returns an error message, or "" on success.
std::string WriteAtomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + tmp.string();
    out << text;
    if (!out.flush()) return "cannot write " + tmp.string();
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return "cannot rename " + tmp.string() + ": " + ec.message();
  return "";
}

}  // namespace

int RunRun(const Args& args) {
  CommandLine line("run", "run SCENARIO [--seed N] [--out DIR]",
                   "Simulates the scenario and prints a summary; writes DIR/report.json.\n"
                   "Same scenario, seed and binary: byte-identical report.");
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file")("seed", po::value<uint64_t>(),
                                                   "seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/SCENARIO-NAME)")(
      "audit", po::bool_switch(),
      "recount every message against the ledger after every event (slow; for debugging)");
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  const std::string path = vm["scenario"].as<std::string>();
  scenario::LoadResult loaded = scenario::LoadScenarioFile(path);
  for (const scenario::Problem& problem : loaded.problems) {
    std::fprintf(stderr, "%s\n", scenario::FormatProblem(path, problem).c_str());
  }
  if (!loaded.ok()) return kExitBadInput;
  const scenario::Scenario& scenario = *loaded.scenario;
  const uint64_t seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : scenario.seed;
  const fs::path out_dir =
      vm.count("out") ? fs::path(vm["out"].as<std::string>()) : fs::path("out") / scenario.name;

  model::RunOptions options;
  options.audit_every_event = vm["audit"].as<bool>();
  const model::Results results = model::RunSimulation(scenario, seed, options);

  reports::ReportContext context;
  context.scenario_path = path;
  context.scenario_hash = reports::HashHex(scenario::DumpCanonical(scenario));
  context.drainsim_version = std::string(VersionString()) + " (commit " + GitCommit() + ")";
  const std::string report = reports::JsonReport(results, context);

  std::fputs(Summary(results, context).c_str(), stdout);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "drainsim run: cannot create %s: %s\n", out_dir.c_str(),
                 ec.message().c_str());
    return kExitBadInput;
  }
  if (const std::string error = WriteAtomically(out_dir / "report.json", report); !error.empty()) {
    std::fprintf(stderr, "drainsim run: %s\n", error.c_str());
    return kExitBadInput;
  }
  std::printf("report: %s\n", (out_dir / "report.json").c_str());
  std::printf("reproduce: drainsim run %s --seed %llu\n", path.c_str(),
              static_cast<unsigned long long>(seed));
  return kExitOk;
}

}  // namespace drainsim::cli
