// `drainsim run`: load, simulate, judge the expectations, write the reports, print a summary.
//
// Outputs are atomic as a set (tools/drainsim/output_set.h): every requested file is rendered
// in memory, then all of them replace their earlier versions together, or none does. Bad input
// (exit 2) writes nothing, and an unusable --out is found before the simulation; a failed
// expectation (exit 1) still writes every requested file, since CI needs the JUnit and the
// summary most when something failed.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiments/single_run.h"
#include "reports/expectations.h"
#include "reports/formats.h"
#include "reports/health.h"
#include "reports/run_summary.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/experiment_cli.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/output_set.h"
#include "tools/drainsim/run_watch.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

// The --help paragraph: what run does, its exit codes, and one line per format.
std::string Description() {
  std::string text =
      "Simulates the scenario, judges its `expect` entries, prints a summary and the verdicts,\n"
      "and writes the reports --format asks for into DIR. Same scenario, seed and binary:\n"
      "byte-identical files.\n"
      "Exit code 0 when every expectation passed (or there are none), 1 when any failed (the\n"
      "files are still written, and the command that reproduces the run is printed), 2 on bad\n"
      "input or usage (nothing is written), or when DIR cannot be written (checked before the\n"
      "run; a write that fails later leaves DIR's earlier files as they were), 3 on a model\n"
      "error: the run broke one of the model's invariants (e.g. it ended with nothing left to\n"
      "happen while messages were still waiting), which is a drainsim bug, never the\n"
      "scenario's; what is stuck and the command that reproduces it go to stderr and no file is\n"
      "written. With --replications, and in compare, sweep and tune, a model error in any run\n"
      "stops the experiment the same way. 7 when the run would hold more messages pending at\n"
      "once than --pending-messages-max: it is stopped there and nothing is written.\n"
      "The files are one set: all replaced, or none (a Ctrl-C takes effect after the set).\n\n"
      "formats (--format, comma-separated; each writes one file into DIR):";
  for (const reports::Format& format : reports::Formats()) {
    char line[200];
    std::snprintf(line, sizeof(line), "\n  %-6s %-12s %s", std::string(format.name).c_str(),
                  std::string(format.file_name).c_str(), std::string(format.summary).c_str());
    text += line;
  }
  return text;
}

// The health findings (reports/health.h) under the verdicts: observations no expectation
// covered; they never change the exit code.
void PrintFindings(const model::Results& results, const std::vector<reports::Verdict>& verdicts) {
  for (const reports::Finding& f : reports::HealthFindings(results, verdicts)) {
    std::printf("not covered by any expectation: %s\n", f.text.c_str());
  }
}

void AddRunOptions(CommandLine& line) {
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file")("seed", po::value<uint64_t>(),
                                                   "seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/SCENARIO-NAME)")(
      "format", po::value<std::string>()->default_value("json"),
      "report formats, comma-separated (see formats above)")(
      "expect-only", po::bool_switch(),
      "print only the verdicts (one PASS/FAIL line per expectation) and, if any failed, the "
      "reproduction command; the files are written all the same")(
      "audit", po::bool_switch(),
      "audit the ledger as the run goes: each message at its transitions, the counts after "
      "every event, every message recounted every max(4096, records) events (for debugging)")(
      "quiet", po::bool_switch(),
      "no progress line on stderr (drawn only when stderr is a terminal and the run is long)");
  AddPendingMessagesMaxOption(line.options);
  AddReplicationOptions(line.options);  // --replications, --jobs, --shard, ...
  line.positional.add("scenario", 1);
}

// What stdout says of a finished run: with --expect-only the verdicts alone, else the summary,
// the verdicts, the findings and the files; then the reproduce line. Returns the exit code.
int PrintOutcome(bool expect_only, const experiments::SingleRun& run,
                 const reports::ReportInput& input, const std::vector<reports::OutputFile>& outputs,
                 const std::string& out_dir) {
  const std::vector<reports::Verdict>& verdicts = run.verdicts;
  const size_t failed = reports::CountFailed(verdicts);
  if (expect_only) {
    if (verdicts.empty()) std::printf("no expectations\n");
    for (const reports::Verdict& v : verdicts) std::printf("%s\n", VerdictLine(v).c_str());
    PrintFindings(run.results, verdicts);
    if (failed > 0) std::printf("reproduce: %s\n", input.reproduce.c_str());
    return failed > 0 ? kExitExpectationFailed : kExitOk;
  }
  std::fputs(reports::RunSummary(run.results, run.context).c_str(), stdout);
  if (!verdicts.empty()) {
    std::printf("expectations: %zu passed, %zu failed\n", verdicts.size() - failed, failed);
    for (const reports::Verdict& v : verdicts) std::printf("  %s\n", VerdictLine(v).c_str());
  }
  PrintFindings(run.results, verdicts);
  for (const reports::OutputFile& output : outputs) {
    std::printf("report: %s\n", (fs::path(out_dir) / output.name).c_str());
  }
  std::printf("reproduce: %s\n", input.reproduce.c_str());
  return failed > 0 ? kExitExpectationFailed : kExitOk;
}

// Simulates the loaded scenario once, writes the --format files and prints the outcome.
int RunOnce(const po::variables_map& vm, const std::vector<const reports::Format*>& formats,
            const std::string& path, const config::Scenario& scenario) {
  const uint64_t seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : scenario.seed;
  const std::optional<std::string> out_dir = OutDirFor("run", vm, scenario.name);
  if (!out_dir) return kExitBadInput;

  model::RunOptions options;
  options.audit_every_event = vm["audit"].as<bool>();
  options.test_stall_at = TestStallAt();
  options.pending_messages_max = PendingMessagesMax(vm);
  const bool record = std::any_of(formats.begin(), formats.end(),
                                  [](const reports::Format* f) { return f->needs_trace_log; });
  model::TraceOptions trace_options;
  trace_options.statements = std::any_of(
      formats.begin(), formats.end(), [](const reports::Format* f) { return f->needs_statements; });
  RunWatch watch(scenario, record ? std::optional(trace_options) : std::nullopt,
                 !vm["quiet"].as<bool>());
  options.observer = watch.observer();
  const experiments::SingleRun run = experiments::RunSingle(scenario, path, seed, options);
  const std::optional<model::TraceLog> trace_log = watch.Finish(run.results);
  if (run.results.model_error) {
    // Figures of a run that broke an invariant are not to be trusted: no report is written.
    std::fprintf(stderr,
                 "drainsim run: model error (a drainsim bug, not the scenario's): invariant %s "
                 "broken: %s\nreproduce: %s\n",
                 run.results.model_error->invariant.c_str(),
                 run.results.model_error->detail.c_str(), run.reproduce.c_str());
    return kExitModelError;
  }
  const reports::ReportInput input = run.Input(trace_log ? &*trace_log : nullptr);
  std::vector<reports::OutputFile> outputs;
  for (const reports::Format* format : formats) {
    for (reports::OutputFile& file : reports::RenderFormat(*format, input)) {
      outputs.push_back(std::move(file));
    }
  }
  if (const base::Status written = WriteOutputSet(*out_dir, outputs); !written) {
    std::fprintf(stderr, "drainsim run: %s\n", written.error().c_str());
    return kExitBadInput;
  }
  return PrintOutcome(vm["expect-only"].as<bool>(), run, input, outputs, *out_dir);
}

}  // namespace

int RunRun(const Args& args) {
  const std::string description = Description();
  CommandLine line(
      "run", "run SCENARIO [--seed N] [--out DIR] [--format json,md,junit,csv] [--expect-only]",
      description.c_str());
  AddRunOptions(line);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  if (WantsReplications(vm)) return RunReplicated(vm);

  const base::Expected<std::vector<const reports::Format*>> formats =
      reports::ParseFormatList(vm["format"].as<std::string>());
  if (!formats) {
    std::fprintf(stderr, "drainsim run: --format: %s\n", formats.error().c_str());
    return kExitBadInput;
  }
  const std::string path = vm["scenario"].as<std::string>();
  const scenario::LoadResult loaded = LoadAndReport(path);
  if (!loaded.ok()) return kExitBadInput;
  return RunOnce(vm, *formats, path, *loaded.scenario);
}

}  // namespace drainsim::cli
