#include "tools/drainsim/cli.h"

#include <cstdio>
#include <string>

#include "reports/version.h"

namespace drainsim::cli {

const std::vector<Subcommand>& Subcommands() {
  static const std::vector<Subcommand> kSubcommands = {
      {"run", "simulate a scenario: summary on stdout, report.json in --out", RunRun},
      {"check", "validate scenarios; list every problem with its JSON pointer", RunCheck},
      {"dump", "print a scenario's canonical form (sorted keys, defaults filled in)", RunDump},
      {"compare", "two scenarios on common random numbers: paired differences, CIs, verdicts",
       RunCompare},
      {"sweep", "vary scenario fields over a grid: statistics per point, CSV, JSON, SVG charts",
       RunSweep},
      {"tune", "the largest (or smallest) value of a field that meets constraints with confidence",
       RunTune},
      {"merge", "combine the partial results of --shard i/N runs into the unsharded output",
       RunMerge},
      {"swarm", "chaos swarm: random faults per seed, then check safety and liveness", RunSwarm},
      {"explain", "one message's life in words: retries, dead letters, why it ran twice",
       RunExplain},
      {"fit", "fit a scenario's numbers to OpenTelemetry traces (OTLP/JSON): a fragment",
       RunFit},
      {"backtest", "a scenario's replications against a recorded incident's metric series",
       RunBacktest},
      {"live", "run the scenario for real on loopback RabbitMQ and PostgreSQL (README)", RunLive},
  };
  return kSubcommands;
}

namespace {

void PrintUsage(std::FILE* out) {
  std::fprintf(out,
               "drainsim %s: deterministic discrete-event simulator for queue recovery\n\n"
               "usage: drainsim COMMAND [options] [args]\n"
               "       drainsim COMMAND --help\n"
               "       drainsim --version\n\ncommands:\n",
               reports::VersionString());
  for (const Subcommand& sub : Subcommands()) {
    std::fprintf(out, "  %-10s %s\n", sub.name, sub.summary);
  }
  std::fprintf(out,
               "\nexit codes: 0 ok, 1 an expectation failed, 2 bad input or usage, 3 a model\n"
               "error (a drainsim bug); swarm: 3 correctness failure, 4 liveness failure, 5 crash,\n"
               "6 timeout\n");
}

}  // namespace

std::string ShellQuoted(const std::string& arg) {
  const bool plain = !arg.empty() && arg.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./=:,+@%-") == std::string::npos;
  if (plain) return arg;
  std::string quoted = "'";
  for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

int Main(const Args& args) {
  if (args.empty()) {
    PrintUsage(stderr);
    return kExitBadInput;
  }
  const std::string& first = args.front();
  if (first == "--help" || first == "-h" || first == "help") {
    PrintUsage(stdout);
    return kExitOk;
  }
  if (first == "--version") {
    std::printf("drainsim %s (commit %s)\n", reports::VersionString(), reports::GitCommit());
    return kExitOk;
  }
  for (const Subcommand& sub : Subcommands()) {
    if (first == sub.name) return sub.run(Args(args.begin() + 1, args.end()));
  }
  std::fprintf(stderr, "drainsim: unknown command '%s' (see drainsim --help)\n", first.c_str());
  return kExitBadInput;
}

}  // namespace drainsim::cli
