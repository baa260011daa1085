// `drainsim sweep SCENARIO --vary PATH=VALUES... --replications N`: the grid over JSON pointer
// paths, every point validated as a scenario first, then every point replicated; statistics per
// point and metric on stdout and as sweep.json, sweep.csv, sweep.md and one SVG chart per metric
// (experiments/sweep_report.h). With --shard i/N, only the runs of that slice, written as a
// partial result for `drainsim merge`.
#include <cstdio>
#include <filesystem>

#include "experiments/grid.h"
#include "experiments/partial.h"
#include "experiments/seeds.h"
#include "experiments/sweep_report.h"
#include "tools/drainsim/experiment_cli.h"
#include "tools/drainsim/output_set.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kRunsMax = 10'000'000;

const char* kDescription =
    "Varies one or more fields of the scenario, each named by its JSON pointer:\n"
    "  --vary /drains/0/rate_per_s=5:200:5        a range START:STOP:STEP (inclusive)\n"
    "  --vary /retry/backoff/jitter/kind=none,full a list (JSON values, or plain words)\n"
    "Several --vary make a grid (the first outermost). Every point is checked by the scenario\n"
    "loader before anything runs: a bad value exits 2 with the loader's message and pointer.\n"
    "Each point runs N replications with the seeds of `run --replications` (the same at every\n"
    "point). The chart of each metric plots it against the first varied field.\n"
    "Exit code 0, or 2 on bad input or usage.";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "drainsim sweep: %s\n", message.c_str());
  return kExitBadInput;
}

}  // namespace

int RunSweep(const Args& args) {
  CommandLine line("sweep",
                   "sweep SCENARIO --vary PATH=VALUES [--vary ...] [--replications N] "
                   "[--metric M]... [--jobs K] [--out DIR] [--shard i/N]",
                   kDescription);
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
  AddQuietOption(line.options);
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  const int64_t replications = vm["replications"].as<int64_t>();
  if (replications < 1) return UsageError("--replications must be >= 1");
  double confidence = 0;
  int jobs = 1;
  if (!ReadConfidence("sweep", vm, &confidence) || !ReadJobs("sweep", vm, &jobs)) {
    return kExitBadInput;
  }
  std::optional<experiments::Shard> shard;
  if (vm.count("shard")) {
    const base::Expected<experiments::Shard> parsed =
        experiments::ParseShard(vm["shard"].as<std::string>());
    if (!parsed) return UsageError("--shard " + parsed.error());
    shard = *parsed;
  }
  std::vector<experiments::Axis> axes;
  for (const std::string& text : vm["vary"].as<std::vector<std::string>>()) {
    base::Expected<experiments::Axis> axis = experiments::ParseVary(text);
    if (!axis) return UsageError("--vary " + axis.error());
    for (const experiments::Axis& earlier : axes) {
      // Two axes on one field would label every row with a value the run did not use.
      if (earlier.pointer == axis->pointer) {
        return UsageError("--vary " + axis->pointer +
                          " is given twice; list all its values in one --vary");
      }
    }
    axes.push_back(std::move(*axis));
  }

  const std::string path = vm["scenario"].as<std::string>();
  std::optional<LoadedScenario> loaded = LoadForExperiment(path);
  if (!loaded) return kExitBadInput;
  std::vector<std::string> errors;
  std::optional<std::vector<config::Scenario>> points =
      experiments::BuildPoints(loaded->document, axes, &errors);
  if (!points) {
    for (const std::string& error : errors)
      std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return kExitBadInput;
  }
  std::optional<std::vector<experiments::MetricSpec>> metrics =
      MetricsFromOptions("sweep", vm, loaded->document);
  if (!metrics) return kExitBadInput;

  experiments::Experiment e =
      ExperimentFor("sweep", *loaded, vm, replications, confidence, *metrics);
  e.axes = std::move(axes);
  if (e.RunCount() > kRunsMax) return UsageError("more than 10000000 runs");

  const std::optional<std::string> out = OutDirFor("sweep", vm, e.scenario_name + "-sweep");
  if (!out) return kExitBadInput;
  const std::string& out_dir = *out;

  std::vector<int64_t> indices;
  std::vector<experiments::Task> tasks;
  for (int64_t k = 0; k < e.RunCount(); ++k) {
    if (shard && !shard->Holds(k)) continue;
    indices.push_back(k);
    tasks.push_back(
        {&(*points)[static_cast<size_t>(k / replications)],
         experiments::ReplicationSeed(e.base_seed, static_cast<uint64_t>(k % replications))});
  }
  ProgressLine progress(ProgressWanted(vm));
  std::vector<experiments::RunRecord> records =
      experiments::RunTasks(tasks, *metrics, RunnerOptionsFrom(vm, jobs, &progress));
  progress.Finish();
  // A sweep reports metrics only; verdicts of the points' `expect` blocks are not kept.
  for (experiments::RunRecord& record : records) {
    record.passed.clear();
    record.measured.clear();
  }
  if (!shard) return Emit("sweep", experiments::RenderSweep(e, records), out_dir);

  experiments::Partial partial{e, *shard, indices, std::move(records)};
  const std::string name = experiments::PartialFileName(*shard);
  if (const std::string error = WriteOutputSet(out_dir, {{name, PartialText(partial)}});
      !error.empty()) {
    std::fprintf(stderr, "drainsim sweep: %s\n", error.c_str());
    return kExitBadInput;
  }
  std::printf("shard %lld/%lld of the sweep of %s: %zu of %lld runs\npartial: %s\n",
              static_cast<long long>(shard->number), static_cast<long long>(shard->count),
              path.c_str(), indices.size(), static_cast<long long>(e.RunCount()),
              (fs::path(out_dir) / name).c_str());
  return kExitOk;
}

}  // namespace drainsim::cli
