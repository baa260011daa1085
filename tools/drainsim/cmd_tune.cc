// `drainsim tune SCENARIO --param PTR --range LO:HI --maximize --constraint 'M<=B'...`: the
// largest (or smallest) value of one field for which every constraint holds with the requested
// confidence (experiments/tune.h); the recommendation, why, and the evidence on stdout, tune.json
// and tune.md in --out DIR. Exit 1 when no value in the range satisfies the constraints.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "experiments/tune.h"
#include "experiments/tune_setup.h"
#include "reports/tune_report.h"
#include "reports/version.h"
#include "tools/drainsim/experiment_cli.h"

namespace drainsim::cli {

namespace {

const char* kTuneDescription =
    "Finds the largest (--maximize) or smallest (--minimize) value of the field at --param for\n"
    "which every --constraint holds with --confidence, e.g. the fastest drip rate the database\n"
    "survives:\n"
    "  drainsim tune scenarios/bulk-vs-drip-drip.json --param /drains/0/rate_per_s \\\n"
    "    --range 1:1000 --maximize --constraint 'live_p99_ms@drains<=250' --constraint "
    "'refilled==0'\n"
    "A constraint is METRIC<=B, METRIC>=B or METRIC==B (any metric of the `expect` block,\n"
    "NAME[:KIND][@drains|@faults]). <= holds when the one-sided upper confidence bound of the\n"
    "mean is <= B (>=: the lower bound), == when every replication measured B. Nine evenly\n"
    "spaced values are tried from the optimised end until one holds, then bisection narrows the\n"
    "step down to --resolution; this assumes one threshold in the range.\n"
    "Exit code 0 with a recommendation, 1 when no value satisfies the constraints, 2 on bad\n"
    "input or usage.";

int TuneUsageError(const std::string& message) { return BadInput("tune", message); }

bool ParseRange(const std::string& text, double* low, double* high) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) return false;
  try {
    size_t used = 0;
    const std::string a = text.substr(0, colon);
    const std::string b = text.substr(colon + 1);
    *low = std::stod(a, &used);
    if (used != a.size()) return false;
    *high = std::stod(b, &used);
    if (used != b.size()) return false;
  } catch (const std::exception&) {
    return false;
  }
  return std::isfinite(*low) && std::isfinite(*high);
}

// The search's spec from the options (the scenario's part comes later), or the usage error.
base::Expected<experiments::TuneSpec> SpecFrom(const po::variables_map& vm) {
  experiments::TuneSpec spec;
  if (vm["maximize"].as<bool>() == vm["minimize"].as<bool>()) {
    return base::Failure{"give exactly one of --maximize and --minimize"};
  }
  spec.maximize = vm["maximize"].as<bool>();
  spec.pointer = vm["param"].as<std::string>();
  if (!ParseRange(vm["range"].as<std::string>(), &spec.low, &spec.high) ||
      !(spec.low < spec.high)) {
    return base::Failure{"--range '" + vm["range"].as<std::string>() +
                         "' is not LO:HI with LO < HI"};
  }
  spec.resolution = vm.count("resolution") ? vm["resolution"].as<double>()
                                           : experiments::DefaultResolution(spec.low, spec.high);
  if (!(spec.resolution >= 1e-6) || (spec.high - spec.low) / spec.resolution > 1e9) {
    return base::Failure{"--resolution must be >= 1e-6 and give at most 1e9 values in the range"};
  }
  spec.integer = experiments::IsIntegerGrid(spec.low, spec.high, spec.resolution);
  spec.replications = vm["replications"].as<int64_t>();
  if (spec.replications < 1 || spec.replications > 100'000) {
    return base::Failure{"--replications must be in 1..100000"};
  }
  spec.confidence = vm["confidence"].as<double>();
  if (!(spec.confidence >= 0.5 && spec.confidence < 1)) {
    return base::Failure{"--confidence must be in [0.5, 1)"};
  }
  return spec;
}

// Each line of `lines` on stderr after "drainsim tune: ".
void PrintLines(const std::string& lines) {
  size_t start = 0;
  while (start <= lines.size()) {
    const size_t end = std::min(lines.find('\n', start), lines.size());
    std::fprintf(stderr, "drainsim tune: %s\n", lines.substr(start, end - start).c_str());
    start = end + 1;
  }
}

// Progress over the whole search: evaluations finished of about the most the search makes.
std::function<void(size_t, size_t)> SearchProgress(ProgressLine& progress,
                                                   const experiments::TuneSpec& spec) {
  const double expected = experiments::ExpectedEvaluations(spec);
  return [&progress, expected, evaluations = 0](size_t done, size_t total) mutable {
    if (done == total) ++evaluations;
    if (!progress.Due()) return;
    const double fraction =
        (evaluations + (done == total ? 0.0 : static_cast<double>(done) / total)) / expected;
    progress.Update(std::min(fraction, 0.99), "value " + std::to_string(evaluations + 1) +
                                                  ", run " + std::to_string(done) + " of " +
                                                  std::to_string(total));
  };
}

}  // namespace

int RunTune(const Args& args) {
  CommandLine line("tune",
                   "tune SCENARIO --param PTR --range LO:HI (--maximize | --minimize) "
                   "--constraint 'METRIC<=B'... [--confidence C] [--replications N] [--jobs K]",
                   kTuneDescription);
  line.options.add_options()("scenario", po::value<std::string>()->required(), "scenario JSON")(
      "param", po::value<std::string>()->required(),
      "JSON pointer of the field to tune, e.g. /drains/0/rate_per_s")(
      "range", po::value<std::string>()->required(), "LO:HI, the values to search")(
      "maximize", po::bool_switch(), "find the largest value that satisfies the constraints")(
      "minimize", po::bool_switch(), "find the smallest value that satisfies the constraints")(
      "constraint", po::value<std::vector<std::string>>()->required()->composing(),
      "METRIC<=B, METRIC>=B or METRIC==B (repeatable; all must hold)")(
      "confidence", po::value<double>()->default_value(0.95, "0.95"),
      "confidence with which each constraint must hold")(
      "replications", po::value<int64_t>()->default_value(10), "replications per value tried")(
      "resolution", po::value<double>(),
      "the step of the answer (default: a round tenth to hundredth of the range, e.g. 1 for "
      "1:500)")("seed", po::value<uint64_t>(), "base seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/SCENARIO-NAME-tune)");
  AddJobsOption(line.options);
  AddPendingMessagesMaxOption(line.options);
  AddQuietOption(line.options);
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  const base::Expected<experiments::TuneSpec> parsed = SpecFrom(vm);
  if (!parsed) return TuneUsageError(parsed.error());
  experiments::TuneSpec spec = *parsed;
  const base::Expected<int> jobs = JobsOption(vm);
  if (!jobs) return TuneUsageError(jobs.error());
  for (const std::string& text : vm["constraint"].as<std::vector<std::string>>()) {
    base::Expected<experiments::Constraint> c = experiments::ParseConstraint(text);
    if (!c) return TuneUsageError("--constraint " + c.error());
    spec.constraints.push_back(std::move(*c));
  }

  const std::string path = vm["scenario"].as<std::string>();
  std::optional<LoadedScenario> loaded = LoadForExperiment(path);
  if (!loaded) return kExitBadInput;
  if (const base::Status resolved = experiments::ResolveConstraints(loaded->document, &spec);
      !resolved) {
    PrintLines(resolved.error());
    return kExitBadInput;
  }
  spec.base_seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : loaded->scenario.seed;
  const experiments::ScenarioAt scenario_at =
      experiments::ScenarioAtFor(loaded->document, path, spec);
  const std::optional<std::string> out_dir = OutDirFor("tune", vm, loaded->scenario.name + "-tune");
  if (!out_dir) return kExitBadInput;
  if (const base::Status ends = experiments::CheckEnds(spec, scenario_at); !ends) {
    std::fprintf(stderr, "%s\n", ends.error().c_str());
    return kExitBadInput;
  }

  ProgressLine progress(ProgressWanted(vm));
  experiments::RunnerOptions options = RunnerOptionsFrom(vm, *jobs);
  if (progress.active()) options.on_done = SearchProgress(progress, spec);
  const base::Expected<experiments::TuneResult> result =
      experiments::Tune(spec, scenario_at, options);
  progress.Finish();
  if (!result) {
    std::fprintf(stderr, "%s\n", result.error().c_str());
    return kExitBadInput;
  }
  const experiments::TuneContext context{loaded->scenario.name, path, loaded->hash,
                                         reports::VersionText()};
  return Emit("tune", reports::RenderTune(spec, *result, context), *out_dir);
}

}  // namespace drainsim::cli
