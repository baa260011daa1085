// `drainsim run SCENARIO --replications N`: N runs with seeds derived from (seed, replication
// index), and per metric the statistics of experiments/replications_report.h; with --shard i/N
// only the i-th of N shards (from 1), written as a partial result for `drainsim merge`; with
// --until-ci-width as many replications as the intervals need. --format junit and html add
// junit.xml and replications.html to the three files replications always write.
#include <cstdio>
#include <filesystem>

#include "experiments/experiment_setup.h"
#include "experiments/partial.h"
#include "experiments/replicate.h"
#include "experiments/replications_report.h"
#include "tools/drainsim/experiment_cli.h"
#include "tools/drainsim/output_set.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

int UsageError(const std::string& message) {
  std::fprintf(stderr, "drainsim run: %s\n", message.c_str());
  return kExitBadInput;
}

}  // namespace

void AddReplicationOptions(po::options_description& options) {
  options.add_options()("replications", po::value<int64_t>(),
                        "run N replications (seeds derived from --seed and the replication "
                        "index) and report statistics per metric instead of one run's report "
                        "(replications.json, .csv, .md; --format junit,html adds junit.xml and "
                        "replications.html)")(
      "until-ci-width", po::value<double>(),
      "with --replications N: stop as soon as every metric's confidence half-width is below "
      "this fraction of its mean (0.05: +-5%), at most N replications")(
      "min-replications", po::value<int64_t>()->default_value(10),
      "with --until-ci-width: replications before the first check");
  AddMetricOptions(options);
  AddJobsOption(options);
  options.add_options()("shard", po::value<std::string>(),
                        "with --replications: run only shard i of N (numbered from 1: the "
                        "replications whose index is i - 1 modulo N) and write "
                        "DIR/part-i-of-N.json for drainsim merge");
}

bool WantsReplications(const po::variables_map& vm) {
  return vm.count("replications") || vm.count("until-ci-width") || vm.count("shard");
}

int RunReplicated(const po::variables_map& vm) {
  if (!vm.count("replications")) {
    return UsageError("--until-ci-width and --shard need --replications N");
  }
  const int64_t replications = vm["replications"].as<int64_t>();
  if (replications < 1 || replications > experiments::kReplicationsMax) {
    return UsageError("--replications must be in 1..1000000");
  }
  const base::Expected<experiments::ReplicationFormats> formats =
      experiments::ParseReplicationFormats(vm["format"].as<std::string>());
  if (!formats) return UsageError("--format: " + formats.error());
  if (vm["expect-only"].as<bool>()) return UsageError("--expect-only is for a single run");
  double confidence = 0;
  int jobs = 1;
  if (!ReadConfidence("run", vm, &confidence) || !ReadJobs("run", vm, &jobs)) return kExitBadInput;
  std::optional<experiments::Shard> shard;
  if (vm.count("shard")) {
    const base::Expected<experiments::Shard> parsed =
        experiments::ParseShard(vm["shard"].as<std::string>());
    if (!parsed) return UsageError("--shard " + parsed.error());
    shard = *parsed;
    if (formats->junit || formats->html) {
      return UsageError(
          "--format junit and html are not written by a shard: drainsim merge "
          "--format junit,html writes them with the merged replications");
    }
    if (vm.count("until-ci-width")) {
      return UsageError(
          "--until-ci-width decides on all replications together; it cannot be "
          "sharded");
    }
  }
  std::optional<double> width;
  int64_t minimum = 0;
  if (vm.count("until-ci-width")) {
    width = vm["until-ci-width"].as<double>();
    minimum = std::min(vm["min-replications"].as<int64_t>(), replications);
    if (!(*width > 0)) return UsageError("--until-ci-width must be > 0");
    if (minimum < 2) return UsageError("--until-ci-width needs at least 2 replications");
  }

  const std::string path = vm["scenario"].as<std::string>();
  std::optional<LoadedScenario> loaded = LoadForExperiment(path);
  if (!loaded) return kExitBadInput;
  std::optional<std::vector<experiments::MetricSpec>> metrics =
      MetricsFromOptions("run", vm, loaded->document);
  if (!metrics) return kExitBadInput;

  experiments::Experiment e = ExperimentFor("run", *loaded, vm, replications, confidence, *metrics);
  experiments::AddExpectations(loaded->scenario, &e);
  const std::optional<std::string> out = OutDirFor("run", vm, e.scenario_name);
  if (!out) return kExitBadInput;
  const std::string& out_dir = *out;
  ProgressLine progress(ProgressWanted(vm));
  const experiments::RunnerOptions options = RunnerOptionsFrom(vm, jobs, &progress);

  if (width) {
    experiments::CiStopResult result =
        experiments::RunUntilCiWidth(loaded->scenario, *metrics, e.base_seed, *width, minimum,
                                     replications, confidence, options);
    e.replications = static_cast<int64_t>(result.records.size());
    e.stop = experiments::CiStop{*width, replications, result.met};
    progress.Finish();
    return Emit("run", experiments::RenderReplications(e, result.records, *formats), out_dir);
  }

  std::vector<int64_t> indices;
  for (int64_t i = 0; i < replications; ++i) {
    if (!shard || shard->Holds(i)) indices.push_back(i);
  }
  std::vector<experiments::RunRecord> records =
      experiments::RunReplications(loaded->scenario, *metrics, e.base_seed, indices, options);
  progress.Finish();
  if (!shard) return Emit("run", experiments::RenderReplications(e, records, *formats), out_dir);

  experiments::Partial partial{e, *shard, indices, std::move(records)};
  const std::string name = experiments::PartialFileName(*shard);
  if (const std::string error = WriteOutputSet(out_dir, {{name, PartialText(partial)}});
      !error.empty()) {
    std::fprintf(stderr, "drainsim run: %s\n", error.c_str());
    return kExitBadInput;
  }
  std::printf("shard %lld/%lld of %s: %zu of %lld replications\npartial: %s\n",
              static_cast<long long>(shard->number), static_cast<long long>(shard->count),
              path.c_str(), indices.size(), static_cast<long long>(replications),
              (fs::path(out_dir) / name).c_str());
  return kExitOk;
}

}  // namespace drainsim::cli
