// `drainsim run SCENARIO --replications N`: N runs with seeds derived from (seed, replication
// index), and per metric the statistics of reports/replications_report.h; with --shard i/N
// only the i-th of N shards (from 1), written as a partial result for `drainsim merge`; with
// --until-ci-width as many replications as the intervals need. --format junit and html add
// junit.xml and replications.html to the three files replications always write.
#include <algorithm>
#include <cstdio>

#include "experiments/experiment_result.h"
#include "experiments/experiment_setup.h"
#include "experiments/partial.h"
#include "experiments/replicate.h"
#include "reports/replications_report.h"
#include "tools/drainsim/experiment_cli.h"

namespace drainsim::cli {

namespace {

int ReplicationsUsageError(const std::string& message) { return BadInput("run", message); }

// What the replication flags ask for, checked before the scenario is read.
struct ReplicationFlags {
  int64_t replications = 0;
  reports::ReplicationFormats formats;
  double confidence = 0;
  int jobs = 1;
  std::optional<experiments::Shard> shard;
  std::optional<double> width;  // --until-ci-width
  int64_t minimum = 0;          // --min-replications, at most `replications`
};

// --shard's and --until-ci-width's own rules; or the usage error.
base::Status CheckShardAndWidth(const po::variables_map& vm, ReplicationFlags* flags) {
  base::Expected<std::optional<experiments::Shard>> shard = ShardOption(vm);
  if (!shard) return base::Failure{shard.error()};
  flags->shard = *shard;
  if (flags->shard && (flags->formats.junit || flags->formats.html)) {
    return base::Failure{
        "--format junit and html are not written by a shard: drainsim merge "
        "--format junit,html writes them with the merged replications"};
  }
  if (flags->shard && vm.count("until-ci-width")) {
    return base::Failure{
        "--until-ci-width decides on all replications together; it cannot be "
        "sharded"};
  }
  if (vm.count("until-ci-width")) {
    flags->width = vm["until-ci-width"].as<double>();
    flags->minimum = std::min(vm["min-replications"].as<int64_t>(), flags->replications);
    if (!(*flags->width > 0)) return base::Failure{"--until-ci-width must be > 0"};
    if (flags->minimum < 2) return base::Failure{"--until-ci-width needs at least 2 replications"};
  }
  return {};
}

// The flags, or the usage error; in the order they were always checked.
base::Expected<ReplicationFlags> ReadReplicationFlags(const po::variables_map& vm) {
  if (!vm.count("replications")) {
    return base::Failure{"--until-ci-width and --shard need --replications N"};
  }
  ReplicationFlags flags;
  flags.replications = vm["replications"].as<int64_t>();
  if (flags.replications < 1 || flags.replications > experiments::kReplicationsMax) {
    return base::Failure{"--replications must be in 1..1000000"};
  }
  const base::Expected<reports::ReplicationFormats> formats =
      reports::ParseReplicationFormats(vm["format"].as<std::string>());
  if (!formats) return base::Failure{"--format: " + formats.error()};
  flags.formats = *formats;
  if (vm["expect-only"].as<bool>()) return base::Failure{"--expect-only is for a single run"};
  if (const base::Status read = ReadConfidenceAndJobs(vm, &flags.confidence, &flags.jobs); !read) {
    return base::Failure{read.error()};
  }
  if (const base::Status checked = CheckShardAndWidth(vm, &flags); !checked) {
    return base::Failure{checked.error()};
  }
  return flags;
}

// The replications of the loaded scenario (all, the shard's, or as many as --until-ci-width
// needs) and their output.
int Replicate(const po::variables_map& vm, const ReplicationFlags& flags,
              const LoadedScenario& loaded) {
  const std::optional<std::vector<experiments::MetricSpec>> metrics =
      MetricsFromOptions("run", vm, loaded.document);
  if (!metrics) return kExitBadInput;
  experiments::Experiment e =
      ExperimentFor("run", loaded, vm, flags.replications, flags.confidence, *metrics);
  experiments::AddExpectations(loaded.scenario, &e);
  const std::optional<std::string> out_dir = OutDirFor("run", vm, e.scenario_name);
  if (!out_dir) return kExitBadInput;
  ProgressLine progress(ProgressWanted(vm));
  const experiments::RunnerOptions options = RunnerOptionsFrom(vm, flags.jobs, &progress);

  std::vector<int64_t> indices;
  std::vector<experiments::RunRecord> records;
  if (flags.width) {
    experiments::CiStopResult result =
        experiments::RunUntilCiWidth(loaded.scenario, *metrics, e.base_seed, *flags.width,
                                     flags.minimum, flags.replications, flags.confidence, options);
    e.replications = static_cast<int64_t>(result.records.size());
    e.stop = experiments::CiStop{*flags.width, flags.replications, result.met};
    records = std::move(result.records);
  } else {
    indices = experiments::ShardIndices(flags.replications, flags.shard);
    records =
        experiments::RunReplications(loaded.scenario, *metrics, e.base_seed, indices, options);
  }
  progress.Finish();
  if (!flags.shard) {
    return Emit("run", experiments::RenderExperiment(e, records, flags.formats), *out_dir);
  }
  const experiments::Partial partial{e, *flags.shard, std::move(indices), std::move(records)};
  return EmitPartial("run", *out_dir, partial, loaded.path, flags.replications, "replications");
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
  const base::Expected<ReplicationFlags> flags = ReadReplicationFlags(vm);
  if (!flags) return ReplicationsUsageError(flags.error());
  const std::optional<LoadedScenario> loaded = LoadForExperiment(vm["scenario"].as<std::string>());
  if (!loaded) return kExitBadInput;
  return Replicate(vm, *flags, *loaded);
}

}  // namespace drainsim::cli
