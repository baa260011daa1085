// `drainsim explain SCENARIO --message ID | --key KEY [--seed N]`: runs the scenario with a
// recorder that keeps only the message asked for (or every message with the key) and tells
// its life in words (reports/explain_report.h). The run is the same run `drainsim run` makes:
// observers never change results.
#include <cstdio>
#include <string>

#include "experiments/explain.h"
#include "reports/explain_report.h"
#include "reports/metrics.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/run_watch.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

constexpr const char* kDescription =
    "Runs the scenario and tells the life of one message (--message ID: ids count publishes\n"
    "from 0, the backlog first) or of every message with one idempotency key (--key KEY, as the\n"
    "kind's key_pattern renders it, e.g. purge:course-4812:2026-03-01): delivered to which\n"
    "worker, failed how, retried when, dead-lettered why, replayed, why it ran twice. Times are\n"
    "simulated seconds. Ends with a paragraph on why: what needed a human, what caused a\n"
    "duplicate execution.\n"
    "Exit code 0, or 2 on bad input or an id or key no message has.";

}  // namespace

int RunExplain(const Args& args) {
  CommandLine line("explain", "explain SCENARIO (--message ID | --key KEY) [--seed N] [--quiet]",
                   kDescription);
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file")("message", po::value<uint64_t>(),
                                                   "the message's id")(
      "key", po::value<std::string>(), "an idempotency key: every message that carries it")(
      "seed", po::value<uint64_t>(), "seed (default: the scenario's `seed`)")(
      "quiet", po::bool_switch(), "no progress line on stderr");
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  if (vm.count("message") == vm.count("key")) {
    std::fprintf(stderr,
                 "drainsim explain: give exactly one of --message ID and --key KEY\n"
                 "usage: drainsim %s (see drainsim explain --help)\n",
                 line.synopsis);
    return kExitBadInput;
  }

  const std::string path = vm["scenario"].as<std::string>();
  scenario::LoadResult loaded = LoadAndReport(path);
  if (!loaded.ok()) return kExitBadInput;
  const config::Scenario& scenario = *loaded.scenario;
  const uint64_t seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : scenario.seed;

  model::TraceOptions trace_options;
  trace_options.spans = false;
  if (vm.count("message")) {
    trace_options.only_id = vm["message"].as<uint64_t>();
    // One life: it may keep more of its events (about 300 KB) than the sample's 64 each.
    trace_options.life_events_max = 4096;
  }
  if (vm.count("key")) trace_options.only_key = vm["key"].as<std::string>();
  RunWatch watch(scenario, trace_options, !vm["quiet"].as<bool>());
  model::RunOptions options;
  options.observer = watch.observer();
  const model::Results results = model::RunSimulation(scenario, seed, options);
  const model::TraceLog log = *watch.Finish(results);

  if (log.lives.empty()) {
    if (trace_options.only_id) {
      std::fprintf(
          stderr, "drainsim explain: no message %llu: the run published %lld (ids 0 to %lld)\n",
          static_cast<unsigned long long>(*trace_options.only_id),
          static_cast<long long>(log.published), static_cast<long long>(log.published - 1));
    } else {
      std::string hint;
      for (const std::string& key : log.similar_keys) hint += "\n  " + key;
      std::fprintf(stderr,
                   "drainsim explain: no message has key '%s' (%lld messages published)%s%s\n",
                   trace_options.only_key->c_str(), static_cast<long long>(log.published),
                   hint.empty() ? "" : "; keys containing it:", hint.c_str());
    }
    return kExitBadInput;
  }
  std::printf("scenario %s  seed %llu  fingerprint %s\n", scenario.name.c_str(),
              static_cast<unsigned long long>(seed), reports::Hex16(results.fingerprint).c_str());
  std::fputs(reports::ExplainLives(log, experiments::ExplainSceneOf(scenario)).c_str(), stdout);
  return kExitOk;
}

}  // namespace drainsim::cli
