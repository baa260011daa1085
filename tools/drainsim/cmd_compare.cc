// `drainsim compare A.json B.json --replications N`: both scenarios replicated with common
// random numbers, the paired differences per metric with their intervals and a verdict
// (experiments/compare.h), and for instants a run may never reach the reached shares and rank
// tests (experiments/compare_censored.h); tables on stdout, compare.json, compare.md and
// comment.md in --out DIR. With --fail-if-worse, a gate: exit 1 when B is worse on a named metric
// (experiments/compare_gate.h); with --format markdown, stdout is the pull-request comment.
#include <algorithm>
#include <cstdio>

#include "experiments/compare.h"
#include "experiments/compare_gate.h"
#include "experiments/compare_setup.h"
#include "tools/drainsim/experiment_cli.h"

namespace drainsim::cli {

namespace {

const char* kCompareDescription =
    "Runs both scenarios N times. Replication i of A and of B use the same seed (common random\n"
    "numbers): wherever the scenarios share an element - a producer, a message id, an attempt -\n"
    "they share its fate (arrival, poison, failed attempts, durations), so the paired\n"
    "difference B - A shows the policy rather than the luck of the draw. Per metric: both\n"
    "means, the mean difference with its Student-t interval, and a verdict - A better, B\n"
    "better, or no significant difference (metrics with no natural direction, such as\n"
    "published or db_utilisation, only say whether they differ).\n"
    "Instants a run may never reach (time_to_empty_s, time_to_quiet_s, the alerts' first\n"
    "times): the share of runs that reached them with a Wilson interval, McNemar's exact test\n"
    "on the pairs where one side never did, and the signed-rank test on B - A with \"never\"\n"
    "ranked last, which decides the verdict when some run never reached it (docs/METRICS.md).\n"
    "--fail-if-worse M1,M2 makes it a gate: exit 1 when B is worse than A on one of them by\n"
    "that verdict (higher is worse for duplicates, human_needed, times and latencies, lower for\n"
    "acked); a difference that is not significant never fails. comment.md holds a Markdown\n"
    "table for a pull-request comment; --format markdown prints it instead of the text.\n"
    "Exit code 0, 1 when the gate failed, or 2 on bad input or usage.";

// --fail-if-worse's names, split at commas.
std::vector<std::string> GateNames(const po::variables_map& vm) {
  std::vector<std::string> names;
  if (!vm.count("fail-if-worse")) return names;
  for (const std::string& item : vm["fail-if-worse"].as<std::vector<std::string>>()) {
    size_t start = 0;
    while (start <= item.size()) {
      const size_t comma = std::min(item.find(',', start), item.size());
      if (comma > start) names.push_back(item.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return names;
}

// --metric's names, each checked in both scenarios, (or the defaults both scenarios share) and
// then the gated ones (experiments/compare_setup.h (1)). nullopt, with the reason printed, when
// none applies to both.
std::optional<std::vector<experiments::MetricSpec>> ComparedMetrics(
    const po::variables_map& vm, const LoadedScenario& a, const LoadedScenario& b,
    const std::vector<experiments::MetricSpec>& gate) {
  std::optional<std::vector<std::string>> names;
  if (vm.count("metric")) {
    std::optional<std::vector<experiments::MetricSpec>> from_a =
        MetricsFromOptions("compare", vm, a.document);
    std::optional<std::vector<experiments::MetricSpec>> from_b =
        MetricsFromOptions("compare", vm, b.document);
    if (!from_a || !from_b) return std::nullopt;
    names.emplace();
    for (const experiments::MetricSpec& spec : *from_a) names->push_back(spec.name);
  }
  std::optional<std::vector<experiments::MetricSpec>> metrics =
      experiments::ComparedMetrics(a.document, b.document, names, gate);
  if (!metrics) std::fprintf(stderr, "drainsim compare: no metric applies to both scenarios\n");
  return metrics;
}

// Both sides' replications, with the progress line unless --quiet.
reports::Rendered RunBothSides(const experiments::Comparison& c, const LoadedScenario& a,
                               const LoadedScenario& b,
                               const std::vector<experiments::MetricSpec>& metrics,
                               const po::variables_map& vm, int jobs) {
  ProgressLine progress(ProgressWanted(vm));
  reports::Rendered rendered = experiments::RunComparison(c, a.scenario, b.scenario, metrics,
                                                          RunnerOptionsFrom(vm, jobs, &progress));
  progress.Finish();
  return rendered;
}

// What the flags ask for, checked before the scenarios are read.
struct CompareFlags {
  int64_t replications = 0;
  double confidence = 0;
  int jobs = 1;
  bool markdown = false;  // --format markdown
};

// The flags, or the usage error; in the order they were always checked.
base::Expected<CompareFlags> ReadCompareFlags(const po::variables_map& vm) {
  CompareFlags flags;
  flags.replications = vm["replications"].as<int64_t>();
  if (flags.replications < 1 || flags.replications > experiments::kReplicationsMax) {
    return base::Failure{"--replications must be in 1..1000000"};
  }
  if (const base::Status read = ReadConfidenceAndJobs(vm, &flags.confidence, &flags.jobs); !read) {
    return base::Failure{read.error()};
  }
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "markdown") {
    return base::Failure{"--format must be text or markdown (got '" + format + "')"};
  }
  flags.markdown = format == "markdown";
  return flags;
}

// --fail-if-worse's metrics, each resolved in both scenarios (none without the flag); nullopt,
// with the reason printed, when one cannot gate.
std::optional<std::vector<experiments::MetricSpec>> GateMetrics(const po::variables_map& vm,
                                                                const LoadedScenario& a,
                                                                const LoadedScenario& b) {
  if (!vm.count("fail-if-worse")) return std::vector<experiments::MetricSpec>();
  base::Expected<std::vector<experiments::MetricSpec>> resolved =
      experiments::ResolveGateMetrics(a.document, b.document, GateNames(vm));
  if (!resolved) {
    BadInput("compare", resolved.error());
    return std::nullopt;
  }
  return std::move(*resolved);
}

// The comparison of the loaded scenarios: metrics, gate, both sides' runs, the output.
int Compare(const po::variables_map& vm, const CompareFlags& flags, const LoadedScenario& a,
            const LoadedScenario& b) {
  const std::optional<std::vector<experiments::MetricSpec>> gate = GateMetrics(vm, a, b);
  if (!gate) return kExitBadInput;
  const std::optional<std::vector<experiments::MetricSpec>> metrics =
      ComparedMetrics(vm, a, b, *gate);
  if (!metrics) return kExitBadInput;
  experiments::Comparison c = experiments::ComparisonOf(a, b, *metrics, *gate);
  c.base_seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : a.scenario.seed;
  c.replications = flags.replications;
  c.confidence = flags.confidence;
  c.independent = vm["independent"].as<bool>();
  c.markdown = flags.markdown;
  const std::optional<std::string> out_dir =
      OutDirFor("compare", vm, "compare-" + c.a.name + "-vs-" + c.b.name);
  if (!out_dir) return kExitBadInput;
  return Emit("compare", RunBothSides(c, a, b, *metrics, vm, flags.jobs), *out_dir);
}

}  // namespace

int RunCompare(const Args& args) {
  CommandLine line("compare",
                   "compare A.json B.json [--replications N] [--seed S] [--metric M]... "
                   "[--fail-if-worse M,...] [--format text|markdown] [--jobs K] [--out DIR] "
                   "[--independent]",
                   kCompareDescription);
  line.options.add_options()("a", po::value<std::string>()->required(), "scenario A")(
      "b", po::value<std::string>()->required(), "scenario B")(
      "replications", po::value<int64_t>()->default_value(30), "replications of each")(
      "seed", po::value<uint64_t>(), "base seed (default: A's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/compare-A-vs-B)")(
      "independent", po::bool_switch(),
      "run B with independent seeds instead of common random numbers (to see what they buy)")(
      "fail-if-worse", po::value<std::vector<std::string>>()->composing(),
      "exit 1 when B is significantly worse than A on one of these metrics (repeatable or "
      "comma-separated; each is compared even if --metric leaves it out)")(
      "format", po::value<std::string>()->default_value("text"),
      "stdout: text (the tables) or markdown (comment.md: the pull-request comment)");
  AddMetricOptions(line.options);
  AddJobsOption(line.options);
  AddPendingMessagesMaxOption(line.options);
  AddQuietOption(line.options);
  line.positional.add("a", 1).add("b", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  const base::Expected<CompareFlags> flags = ReadCompareFlags(vm);
  if (!flags) return BadInput("compare", flags.error());
  const std::optional<LoadedScenario> a = LoadForExperiment(vm["a"].as<std::string>());
  const std::optional<LoadedScenario> b = LoadForExperiment(vm["b"].as<std::string>());
  if (!a || !b) return kExitBadInput;
  return Compare(vm, *flags, *a, *b);
}

}  // namespace drainsim::cli
