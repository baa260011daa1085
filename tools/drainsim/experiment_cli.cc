#include "tools/drainsim/experiment_cli.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "experiments/experiment_setup.h"
#include "experiments/parallel.h"
#include "sim/model/memory_cost.h"
#include "tools/drainsim/out_dir.h"
#include "tools/drainsim/output_set.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace fs = std::filesystem;

std::optional<LoadedScenario> LoadForExperiment(const std::string& path) {
  experiments::ScenarioLoad load = experiments::LoadScenarioForExperiment(path);
  // Warnings first: a load that failed has none, and one whose text nlohmann/json refuses has
  // its warnings, then that one problem (experiments/loaded_scenario.h (2)).
  ReportLoad(path, load.problems, load.warnings);
  return std::move(load.loaded);
}

void AddMetricOptions(po::options_description& options) {
  options.add_options()(
      "metric", po::value<std::vector<std::string>>()->composing(),
      "a metric to report, NAME[:KIND][@drains|@faults] (any metric of the `expect` block; "
      "repeatable or comma-separated; default: the headline figures that apply and the "
      "scenario's own metric expectations)")("confidence",
                                             po::value<double>()->default_value(0.95, "0.95"),
                                             "confidence level of the intervals (Student t)");
}

void AddJobsOption(po::options_description& options) {
  options.add_options()("jobs,j", po::value<int>()->default_value(1),
                        "runs at once, one thread each (results are identical for every value)");
}

void AddPendingMessagesMaxOption(po::options_description& options) {
  const auto in_range = [](int64_t n) {
    if (n < 1 || n > model::kPendingMessagesMaxLimit) {
      throw po::error("--pending-messages-max must be in 1.." +
                      std::to_string(model::kPendingMessagesMaxLimit) + " (got " +
                      std::to_string(n) + ")");
    }
  };
  options.add_options()(
      "pending-messages-max",
      po::value<int64_t>()->default_value(model::kPendingMessagesMaxDefault)->notifier(in_range),
      "stop a run (exit 7, nothing written) that would hold more messages pending at once; "
      "the default is 16 GiB at the measured 210 bytes a message");
}

int64_t PendingMessagesMax(const po::variables_map& vm) {
  if (!vm.count("pending-messages-max")) return model::kPendingMessagesMaxDefault;
  return vm["pending-messages-max"].as<int64_t>();
}

std::optional<std::vector<experiments::MetricSpec>> MetricsFromOptions(
    const char* command, const po::variables_map& vm, const nlohmann::json& document) {
  std::vector<std::string> names;
  if (vm.count("metric")) {
    for (const std::string& item : vm["metric"].as<std::vector<std::string>>()) {
      size_t start = 0;
      while (start <= item.size()) {
        const size_t comma = std::min(item.find(',', start), item.size());
        if (comma > start) names.push_back(item.substr(start, comma - start));
        start = comma + 1;
      }
    }
  } else {
    names = experiments::DefaultMetricNames(document);
  }
  if (names.empty()) {
    std::fprintf(stderr, "drainsim %s: no metric to report\n", command);
    return std::nullopt;
  }
  std::vector<std::string> errors;
  std::optional<std::vector<experiments::MetricSpec>> specs =
      experiments::ResolveMetrics(document, names, &errors);
  for (const std::string& error : errors) {
    std::fprintf(stderr, "drainsim %s: --metric %s\n", command, error.c_str());
  }
  return specs;
}

base::Expected<double> ConfidenceOption(const po::variables_map& vm) {
  const double confidence = vm["confidence"].as<double>();
  if (experiments::ConfidenceInRange(confidence)) return confidence;
  char got[64];
  std::snprintf(got, sizeof(got), "%g", confidence);
  return base::Failure{"--confidence must be in [0.5, 1) (got " + std::string(got) + ")"};
}

base::Expected<int> JobsOption(const po::variables_map& vm) {
  const int jobs = vm["jobs"].as<int>();
  if (jobs >= 1 && jobs <= experiments::kJobsMax) return jobs;
  return base::Failure{"--jobs must be in 1.." + std::to_string(experiments::kJobsMax)};
}

base::Status ReadConfidenceAndJobs(const po::variables_map& vm, double* confidence, int* jobs) {
  const base::Expected<double> c = ConfidenceOption(vm);
  if (!c) return base::Failure{c.error()};
  const base::Expected<int> j = JobsOption(vm);
  if (!j) return base::Failure{j.error()};
  *confidence = *c;
  *jobs = *j;
  return {};
}

base::Expected<std::optional<experiments::Shard>> ShardOption(const po::variables_map& vm) {
  if (!vm.count("shard")) return std::optional<experiments::Shard>();
  const base::Expected<experiments::Shard> shard =
      experiments::ParseShard(vm["shard"].as<std::string>());
  if (!shard) return base::Failure{"--shard " + shard.error()};
  return std::optional<experiments::Shard>(*shard);
}

int BadInput(const char* command, const std::string& message) {
  std::fprintf(stderr, "drainsim %s: %s\n", command, message.c_str());
  return kExitBadInput;
}

void AddQuietOption(po::options_description& options) {
  options.add_options()("quiet", po::bool_switch(),
                        "no progress line on stderr (drawn only when stderr is a terminal)");
}

bool ProgressWanted(const po::variables_map& vm) {
  return !(vm.count("quiet") && vm["quiet"].as<bool>());
}

engine::Instant TestStallAt() {
  const char* text = std::getenv("DRAINSIM_TEST_STALL_AT_S");
  if (text == nullptr) return engine::Instant::Never();
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(seconds >= 0) || seconds > 1e9) {
    return engine::Instant::Never();
  }
  return engine::Instant::Micros(static_cast<int64_t>(std::llround(seconds * 1e6)));
}

experiments::RunnerOptions RunnerOptionsFrom(const po::variables_map& vm, int jobs,
                                             ProgressLine* progress) {
  experiments::RunnerOptions options;
  options.jobs = jobs;
  options.run.test_stall_at = TestStallAt();
  if (vm.count("audit")) options.run.audit_every_event = vm["audit"].as<bool>();
  options.run.pending_messages_max = PendingMessagesMax(vm);
  if (progress != nullptr && progress->active()) {
    // Called under the runner's lock, one call at a time, as ProgressLine requires.
    options.on_done = [progress](size_t done, size_t total) {
      if (!progress->Due()) return;
      progress->Update(static_cast<double>(done) / static_cast<double>(total),
                       "run " + std::to_string(done) + " of " + std::to_string(total));
    };
  }
  return options;
}

experiments::Experiment ExperimentFor(const char* command, const LoadedScenario& loaded,
                                      const po::variables_map& vm, int64_t replications,
                                      double confidence,
                                      const std::vector<experiments::MetricSpec>& metrics) {
  const uint64_t base_seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : loaded.scenario.seed;
  return experiments::ExperimentOf(command, loaded, base_seed, replications, confidence, metrics);
}

std::optional<std::string> OutDirFor(const char* command, const po::variables_map& vm,
                                     const std::string& default_component) {
  const std::string dir =
      vm.count("out") ? vm["out"].as<std::string>() : DefaultOutDir(command, default_component);
  if (const base::Status usable = CheckOutDir(dir); !usable) {
    std::fprintf(stderr, "drainsim %s: %s\n", command, usable.error().c_str());
    return std::nullopt;
  }
  return dir;
}

int Emit(const char* command, const reports::Rendered& rendered, const std::string& dir) {
  if (const base::Status written = WriteOutputSet(dir, rendered.files); !written) {
    return BadInput(command, written.error());
  }
  std::fputs(rendered.text.c_str(), stdout);
  std::FILE* listing = rendered.list_files_on_stderr ? stderr : stdout;
  for (const reports::OutputFile& file : rendered.files) {
    std::fprintf(listing, "report: %s\n", (fs::path(dir) / file.name).c_str());
  }
  return rendered.exit_code;
}

int EmitPartial(const char* command, const std::string& dir, const experiments::Partial& partial,
                const std::string& subject, int64_t total, const char* unit) {
  const std::string name = experiments::PartialFileName(partial.shard);
  if (const base::Status written = WriteOutputSet(dir, {{name, PartialText(partial)}}); !written) {
    return BadInput(command, written.error());
  }
  std::printf("shard %lld/%lld of %s: %zu of %lld %s\npartial: %s\n",
              static_cast<long long>(partial.shard.number),
              static_cast<long long>(partial.shard.count), subject.c_str(), partial.indices.size(),
              static_cast<long long>(total), unit, (fs::path(dir) / name).c_str());
  return kExitOk;
}

}  // namespace drainsim::cli
