// `drainsim explain SCENARIO --message ID | --key KEY | --list CLASS [--seed N]`: runs the
// scenario with a recorder that keeps only the message asked for (or every message with the
// key) and tells its life in words (reports/explain_report.h); or lists every message of a
// class report.json counts (tools/drainsim/explain_list.h). The run is the same run `drainsim
// run` makes: observers never change results.
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>

#include "experiments/explain.h"
#include "reports/explain_report.h"
#include "reports/metrics.h"
#include "sim/model/message_classes.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/explain_list.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/run_watch.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

constexpr const char* kExplainDescription =
    "Runs the scenario and tells the life of one message (--message ID: ids count publishes\n"
    "from 0, the backlog first) or of every message with one idempotency key (--key KEY, as the\n"
    "kind's key_pattern renders it, e.g. purge:course-4812:2026-03-01): delivered to which\n"
    "worker, failed how, retried when, dead-lettered why, replayed, why it ran twice. Times are\n"
    "simulated seconds. Ends with a paragraph on why: what needed a human, what caused a\n"
    "duplicate execution.\n"
    "--list CLASS lists every message of a class instead, one a line by id: id, key and why,\n"
    "tab-separated, under a header with the count report.json gives for the same seed:\n"
    "  duplicates  every duplicate execution (duplicate_executions), with its cause\n"
    "  human       the DLQ at the end and the parked (human_needed), with the reason\n"
    "  dlq         the messages in the DLQ at the end (dlq_end), with the reason\n"
    "  parked      the parked messages (parked), with the reason\n"
    "  lost        the messages the broker or its consumer discarded by design (broker_lost),\n"
    "              with the cause (skipped: a Kafka consumer logged and skipped it)\n"
    "It runs the scenario twice (the second run reads only the listed messages' keys), so\n"
    "that memory follows the list, not the messages published.\n"
    "Exit code 0, or 2 on bad input or an id or key no message has; 3 when --list's run\n"
    "broke a model invariant (a drainsim bug).";

// "duplicates, human, dlq, parked or lost".
std::string ClassWords() {
  std::string words;
  for (size_t i = 0; i < std::size(model::kMessageClasses); ++i) {
    if (i > 0) words += i + 1 == std::size(model::kMessageClasses) ? " or " : ", ";
    words += model::MessageClassName(model::kMessageClasses[i]);
  }
  return words;
}

// The class --list names, or nullopt (with the valid words on stderr) iff it names none.
std::optional<model::MessageClass> ListClassOf(const std::string& word) {
  const std::optional<model::MessageClass> found = model::MessageClassFromName(word);
  if (!found) {
    std::fprintf(stderr, "drainsim explain: --list takes %s (got '%s')\n", ClassWords().c_str(),
                 word.c_str());
  }
  return found;
}

// An id or key no message had: bad input, with what the run did publish.
int NoSuchMessage(const model::TraceOptions& asked, const model::TraceLog& log) {
  if (asked.only_id) {
    std::fprintf(stderr,
                 "drainsim explain: no message %llu: the run published %lld (ids 0 to %lld)\n",
                 static_cast<unsigned long long>(*asked.only_id),
                 static_cast<long long>(log.published), static_cast<long long>(log.published - 1));
  } else {
    std::string hint;
    for (const std::string& key : log.similar_keys) hint += "\n  " + key;
    std::fprintf(stderr,
                 "drainsim explain: no message has key '%s' (%lld messages published)%s%s\n",
                 asked.only_key->c_str(), static_cast<long long>(log.published),
                 hint.empty() ? "" : "; keys containing it:", hint.c_str());
  }
  return kExitBadInput;
}

}  // namespace

int RunExplain(const Args& args) {
  CommandLine line("explain",
                   "explain SCENARIO (--message ID | --key KEY | --list CLASS) [--seed N] "
                   "[--quiet]",
                   kExplainDescription);
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "scenario JSON file")("message", po::value<uint64_t>(),
                                                   "the message's id")(
      "key", po::value<std::string>(), "an idempotency key: every message that carries it")(
      "list", po::value<std::string>(),
      "duplicates, human, dlq or parked: every message of that class")(
      "seed", po::value<uint64_t>(), "seed (default: the scenario's `seed`)")(
      "quiet", po::bool_switch(), "no progress line on stderr");
  line.positional.add("scenario", 1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  if (vm.count("message") + vm.count("key") + vm.count("list") != 1) {
    std::fprintf(stderr,
                 "drainsim explain: give exactly one of --message ID, --key KEY and --list CLASS\n"
                 "usage: drainsim %s (see drainsim explain --help)\n",
                 line.synopsis);
    return kExitBadInput;
  }
  std::optional<model::MessageClass> list;
  if (vm.count("list") && !(list = ListClassOf(vm["list"].as<std::string>()))) {
    return kExitBadInput;
  }

  const std::string path = vm["scenario"].as<std::string>();
  scenario::LoadResult loaded = LoadAndReport(path);
  if (!loaded.ok()) return kExitBadInput;
  const config::Scenario& scenario = *loaded.scenario;
  const uint64_t seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : scenario.seed;
  if (list) return ListClass(scenario, path, seed, *list, !vm["quiet"].as<bool>());

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

  if (log.lives.empty()) return NoSuchMessage(trace_options, log);
  std::printf("scenario %s  seed %llu  fingerprint %s\n", scenario.name.c_str(),
              static_cast<unsigned long long>(seed), reports::Hex16(results.fingerprint).c_str());
  std::fputs(reports::ExplainLives(log, experiments::ExplainSceneOf(scenario)).c_str(), stdout);
  return kExitOk;
}

}  // namespace drainsim::cli
