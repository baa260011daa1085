// `drainsim sweep SCENARIO --vary PATH=VALUES... --replications N`: the grid over JSON pointer
// paths, every point validated as a scenario first, then every point replicated; statistics per
// point and metric on stdout and as sweep.json, sweep.csv, sweep.md and one SVG chart per metric
// (reports/sweep_report.h). With --shard i/N, only the runs of that slice, written as a
// partial result for `drainsim merge`.
#include <cstdio>

#include "experiments/experiment_result.h"
#include "experiments/grid.h"
#include "experiments/partial.h"
#include "experiments/replicate.h"
#include "tools/drainsim/experiment_cli.h"

namespace drainsim::cli {

namespace {

constexpr int64_t kRunsMax = 10'000'000;

const char* kSweepDescription =
    "Varies one or more fields of the scenario, each named by its JSON pointer:\n"
    "  --vary /drains/0/rate_per_s=5:200:5        a range START:STOP:STEP (inclusive)\n"
    "  --vary /retry/backoff/jitter/kind=none,full a list (JSON values, or plain words)\n"
    "Several --vary make a grid (the first outermost). Every point is checked by the scenario\n"
    "loader before anything runs: a bad value exits 2 with the loader's message and pointer.\n"
    "Each point runs N replications with the seeds of `run --replications` (the same at every\n"
    "point). The chart of each metric plots it against the first varied field.\n"
    "Exit code 0, or 2 on bad input or usage.";

int SweepUsageError(const std::string& message) { return BadInput("sweep", message); }

void AddSweepOptions(CommandLine& line) {
  line.options.add_options()("scenario", po::value<std::string>()->required(), "scenario JSON")(
      "vary", po::value<std::vector<std::string>>()->required()->composing(),
      "PATH=LIST or PATH=START:STOP:STEP (repeatable: a grid)")(
      "replications", po::value<int64_t>()->default_value(10), "replications per point")(
      "seed", po::value<uint64_t>(), "base seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/SCENARIO-NAME-sweep)")(
      "shard", po::value<std::string>(),
      "run only shard i of N (numbered from 1: the runs whose index is i - 1 modulo N) "
      "and write DIR/part-i-of-N.json for drainsim merge");
  AddMetricOptions(line.options);
  AddJobsOption(line.options);
  AddPendingMessagesMaxOption(line.options);
  AddQuietOption(line.options);
  line.positional.add("scenario", 1);
}

// What the flags ask for, checked before the scenario is read.
struct SweepFlags {
  int64_t replications = 0;
  double confidence = 0;
  int jobs = 1;
  std::optional<experiments::Shard> shard;
  std::vector<experiments::Axis> axes;
};

// The --vary axes, or why not: a bad one, or one field varied twice.
base::Expected<std::vector<experiments::Axis>> AxesOption(const po::variables_map& vm) {
  std::vector<experiments::Axis> axes;
  for (const std::string& text : vm["vary"].as<std::vector<std::string>>()) {
    base::Expected<experiments::Axis> axis = experiments::ParseVary(text);
    if (!axis) return base::Failure{"--vary " + axis.error()};
    for (const experiments::Axis& earlier : axes) {
      // Two axes on one field would label every row with a value the run did not use.
      if (earlier.pointer == axis->pointer) {
        return base::Failure{"--vary " + axis->pointer +
                             " is given twice; list all its values in one --vary"};
      }
    }
    axes.push_back(std::move(*axis));
  }
  return axes;
}

// The flags, or the usage error; in the order they were always checked.
base::Expected<SweepFlags> ReadSweepFlags(const po::variables_map& vm) {
  SweepFlags flags;
  flags.replications = vm["replications"].as<int64_t>();
  if (flags.replications < 1) return base::Failure{"--replications must be >= 1"};
  if (const base::Status read = ReadConfidenceAndJobs(vm, &flags.confidence, &flags.jobs); !read) {
    return base::Failure{read.error()};
  }
  base::Expected<std::optional<experiments::Shard>> shard = ShardOption(vm);
  if (!shard) return base::Failure{shard.error()};
  base::Expected<std::vector<experiments::Axis>> axes = AxesOption(vm);
  if (!axes) return base::Failure{axes.error()};
  flags.shard = *shard;
  flags.axes = std::move(*axes);
  return flags;
}

// The scenario of every grid point, with every problem printed ("FILE: --vary EDIT: ...").
std::optional<std::vector<config::Scenario>> PointsOf(const LoadedScenario& loaded,
                                                      const std::vector<experiments::Axis>& axes) {
  std::vector<std::string> errors;
  std::optional<std::vector<config::Scenario>> points =
      experiments::BuildPoints(loaded.document, axes, &errors);
  for (const std::string& error : errors) {
    std::fprintf(stderr, "%s: %s\n", loaded.path.c_str(), error.c_str());
  }
  return points;
}

// The sweep of the loaded scenario: its points, its runs (or the shard's), its output.
int Sweep(const po::variables_map& vm, const SweepFlags& flags, const LoadedScenario& loaded) {
  const std::optional<std::vector<config::Scenario>> points = PointsOf(loaded, flags.axes);
  if (!points) return kExitBadInput;
  const std::optional<std::vector<experiments::MetricSpec>> metrics =
      MetricsFromOptions("sweep", vm, loaded.document);
  if (!metrics) return kExitBadInput;
  experiments::Experiment e =
      ExperimentFor("sweep", loaded, vm, flags.replications, flags.confidence, *metrics);
  e.axes = flags.axes;
  if (e.RunCount() > kRunsMax) return SweepUsageError("more than 10000000 runs");
  const std::optional<std::string> out_dir = OutDirFor("sweep", vm, e.scenario_name + "-sweep");
  if (!out_dir) return kExitBadInput;

  ProgressLine progress(ProgressWanted(vm));
  experiments::ShardRuns runs = experiments::RunSweep(e, *points, *metrics, flags.shard,
                                                      RunnerOptionsFrom(vm, flags.jobs, &progress));
  progress.Finish();
  if (!flags.shard) return Emit("sweep", experiments::RenderExperiment(e, runs.records), *out_dir);
  const experiments::Partial partial{e, *flags.shard, std::move(runs.indices),
                                     std::move(runs.records)};
  return EmitPartial("sweep", *out_dir, partial, "the sweep of " + loaded.path, e.RunCount(),
                     "runs");
}

}  // namespace

int RunSweep(const Args& args) {
  CommandLine line("sweep",
                   "sweep SCENARIO --vary PATH=VALUES [--vary ...] [--replications N] "
                   "[--metric M]... [--jobs K] [--out DIR] [--shard i/N]",
                   kSweepDescription);
  AddSweepOptions(line);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const base::Expected<SweepFlags> flags = ReadSweepFlags(vm);
  if (!flags) return SweepUsageError(flags.error());
  const std::optional<LoadedScenario> loaded = LoadForExperiment(vm["scenario"].as<std::string>());
  if (!loaded) return kExitBadInput;
  return Sweep(vm, *flags, *loaded);
}

}  // namespace drainsim::cli
