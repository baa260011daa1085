// `drainsim backtest SCENARIO --observed FILE [--replications N] [--seed S] [--out DIR]
// [--tolerance KEY=VALUE]... [--map NAME=FIGURE]... [--jobs K]`: a scenario's replications
// against a recorded incident's metric series (docs/TELEMETRY.md, "drainsim backtest"). Reading
// is sim/telemetry/metric_series.h, the comparison experiments/backtest.h, the outputs
// reports/backtest_report.h; this file only wires them to files.
//
// Exit 0: the model reproduces the observation within the tolerances; 1: it misses (the files
// are written all the same); 2: bad input or usage (the file, line or JSON pointer, and the
// reason; nothing written); 3: a run broke a model invariant.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "experiments/backtest.h"
#include "reports/backtest_report.h"
#include "reports/metrics.h"
#include "reports/version.h"
#include "tools/drainsim/experiment_cli.h"
#include "tools/drainsim/series_options.h"

namespace drainsim::cli {

namespace {

int BacktestFail(const std::string& reason) { return BadInput("backtest", reason); }

base::Expected<std::string> ReadObservedText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::Failure{path + ": cannot open"};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > telemetry::kSeriesTextBytesMax) {
    return base::Failure{path + ": larger than 1024 MiB"};
  }
  return text;
}

base::Expected<experiments::BacktestTolerances> Tolerances(const po::variables_map& vm) {
  experiments::BacktestTolerances t;
  if (!vm.count("tolerance")) return t;
  for (const std::string& item : vm["tolerance"].as<std::vector<std::string>>()) {
    const auto kv = KeyValue("--tolerance", item);
    if (!kv) return base::Failure{kv.error()};
    char* end = nullptr;
    const double value = std::strtod(kv->second.c_str(), &end);
    if (end == kv->second.c_str() || *end != '\0' || !(value >= 0 && value <= 1)) {
      return base::Failure{"--tolerance " + item + ": the value must be a number in 0..1"};
    }
    if (kv->first == "share") {
      t.share_in_band_min = value;
    } else if (kv->first == "relative") {
      t.relative = value;
    } else {
      return base::Failure{"--tolerance " + item + ": unknown key (share, relative)"};
    }
  }
  return t;
}

void AddOptions(CommandLine& line) {
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file")(
      "observed", po::value<std::string>()->required(),
      "the recorded series: CSV (t_s + depth, dlq_depth, oldest_age_s, inflow_per_s), a "
      "Prometheus query_range response or a CloudWatch GetMetricData response (JSON)")(
      "offset-s", po::value<double>()->default_value(0, "0"),
      "the scenario's time 0 lies this many seconds after the observation's origin (CSV: t_s 0; "
      "JSON: its earliest timestamp); earlier points are left out")(
      "replications", po::value<int64_t>()->default_value(40), "replications (2..100000)")(
      "seed", po::value<uint64_t>(), "base seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/SCENARIO-NAME-backtest)")(
      "tolerance", po::value<std::vector<std::string>>(),
      "share=S: a series misses below this share of points in the band (default 0.8); "
      "relative=R: a figure misses outside the band widened by R (default 0.1)")(
      "map", po::value<std::vector<std::string>>(),
      "read the series named NAME (Prometheus __name__, CloudWatch Id or Label) as FIGURE, "
      "e.g. rabbitmq_queue_messages_ready=depth");
  AddJobsOption(line.options);
  AddQuietOption(line.options);
  line.positional.add("scenario", 1);
}

}  // namespace

int RunBacktest(const Args& args) {
  CommandLine line(
      "backtest", "backtest SCENARIO --observed FILE [--replications N] [--seed S] [--out DIR]",
      "Runs the scenario's replications and compares them with a recorded incident's series:\n"
      "per figure (depth, dlq_depth, oldest_age_s) the share of the observed points inside the\n"
      "simulated 2.5%-97.5% band and the error against the median; time to empty and peak DLQ\n"
      "depth against their bands. Writes backtest.json, backtest.md and backtest.html.\n"
      "docs/TELEMETRY.md has the formats and rules.\n"
      "Exit code 0, 1 when the model misses beyond the tolerances, 2 on bad input.");
  AddOptions(line);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const int64_t replications = vm["replications"].as<int64_t>();
  if (replications < 2 || replications > 100000)
    return BacktestFail("--replications must be in 2..100000");
  const base::Expected<experiments::BacktestTolerances> tolerances = Tolerances(vm);
  if (!tolerances) return BacktestFail(tolerances.error());
  const base::Expected<telemetry::SeriesReadOptions> read_options = SeriesOptions(
      vm.count("map") ? vm["map"].as<std::vector<std::string>>() : std::vector<std::string>{});
  if (!read_options) return BacktestFail(read_options.error());
  const base::Expected<int> jobs = JobsOption(vm);
  if (!jobs) return BacktestFail(jobs.error());

  const std::string observed_path = vm["observed"].as<std::string>();
  const base::Expected<std::string> text = ReadObservedText(observed_path);
  if (!text) return BacktestFail(text.error());
  const double offset_s = vm["offset-s"].as<double>();
  if (!(std::abs(offset_s) <= 1e9))
    return BacktestFail("--offset-s must be a number of seconds, |x| <= 1e9");
  base::Expected<telemetry::ObservedSeries> observed =
      telemetry::ReadSeries(*text, observed_path, *read_options);
  if (observed && offset_s != 0) observed = telemetry::Shifted(std::move(*observed), offset_s);
  if (!observed) return BacktestFail(observed.error());
  const std::optional<LoadedScenario> loaded = LoadForExperiment(vm["scenario"].as<std::string>());
  if (!loaded) return kExitBadInput;
  const std::optional<std::string> out_dir =
      OutDirFor("backtest", vm, loaded->scenario.name + "-backtest");
  if (!out_dir) return kExitBadInput;

  ProgressLine progress(ProgressWanted(vm));
  const uint64_t seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : loaded->scenario.seed;
  base::Expected<experiments::BacktestResult> result =
      experiments::RunBacktest(loaded->scenario, *observed, seed, replications, *tolerances,
                               RunnerOptionsFrom(vm, *jobs, &progress));
  progress.Finish();
  if (!result) return BacktestFail(result.error());
  result->scenario_path = loaded->path;
  result->scenario_hash = loaded->hash;
  result->version = reports::VersionText();
  reports::Rendered rendered;
  rendered.text = reports::BacktestSummary(*result);
  rendered.files = {{"backtest.html", reports::BacktestHtml(*result)},
                    {"backtest.json", reports::BacktestJson(*result)},
                    {"backtest.md", reports::BacktestMarkdown(*result)}};
  rendered.exit_code = result->passed ? kExitOk : kExitExpectationFailed;
  return Emit("backtest", rendered, *out_dir);
}

}  // namespace drainsim::cli
