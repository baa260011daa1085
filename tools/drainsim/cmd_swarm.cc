// `drainsim swarm`: the chaos swarm over one scenario (docs/SWARM.md). The work is in
// chaos/; this file reads the command line, prints, and picks the exit code.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "chaos/isolate.h"
#include "chaos/plan.h"
#include "chaos/seed_check.h"
#include "chaos/seed_progress.h"
#include "chaos/variant.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/output_set.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

using chaos::Verdict;

constexpr uint64_t kSeedsDefault = 100;

const char kSwarmDescription[] =
    "Runs the scenario once per seed with a random set of faults drawn from the seed (each\n"
    "applicable fault type on with probability 1/2, its rate and window drawn too) and, unless\n"
    "--vary-policies none, a random retry and broker policy (broker preset or none, retry\n"
    "delivery, retry budget on/off, circuit breaker on/off, with their parameters), in a\n"
    "safety phase [0, T) that ends when the producers stop, followed by a liveness phase\n"
    "[T, T + L) without faults, L derived from each variant's own policy unless --liveness-s.\n"
    "Each seed runs in its own child process and is checked for:\n"
    "  conservation  the ledger audited as the run goes (docs/SWARM.md); published = acked +\n"
    "                parked + expired + DLQ + rejected + not terminal, and nothing lost\n"
    "  determinism   a second run gives the same fingerprint and figures\n"
    "  liveness      at the end nothing is ready, delayed or in flight (the DLQ, the parking\n"
    "                lot, acked and expired are resting states), and run.events_max not hit\n"
    "Each failure is printed with the command that reproduces it; stdout does not depend on\n"
    "the wall clock or on --jobs. Unless --quiet, stderr gets \"swarm: D of N seeds done, E s\"\n"
    "at most every 10 s (a terminal or not).\n\n"
    "SIGINT or SIGTERM to the swarm kills every child it started before it ends.\n\n"
    "exit codes: 0 every seed passed; 2 bad input or usage; 3 a correctness failure\n"
    "(conservation, determinism, invalid variant, failed internal check); 4 a liveness\n"
    "failure; 5 a crash (signal, exception); 6 a timeout (a seed still running after\n"
    "--seed-timeout-s: nothing found wrong, but not checked to the end). With several\n"
    "failures, the most severe wins: crash > correctness > liveness > timeout.";

int SwarmExitCode(Verdict worst) {
  switch (worst) {
    case Verdict::kPass:
      return kExitOk;
    case Verdict::kTimeout:
      return kExitSwarmTimeout;
    case Verdict::kLiveness:
      return kExitSwarmLiveness;
    case Verdict::kCorrectness:
      return kExitSwarmCorrectness;
    case Verdict::kCrash:
      return kExitSwarmCrash;
  }
  return kExitSwarmCrash;
}

// Quotes `word` for a POSIX shell when it needs it, so a reproduction line can be pasted.
std::string ShellQuote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-./=:,+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Reads a `*-s` option as a span (nullopt when not given), or the usage error when it is not
// a finite number of seconds.
base::Expected<std::optional<engine::Duration>> SecondsOption(const po::variables_map& vm,
                                                              const char* name) {
  if (!vm.count(name)) return std::optional<engine::Duration>();
  const double seconds = vm[name].as<double>();
  const auto span = engine::DurationFromSeconds(seconds);
  if (!span) {
    char got[64];
    std::snprintf(got, sizeof(got), "%g", seconds);
    return base::Failure{"--" + std::string(name) + " must be a finite number of seconds (got " +
                         got + ")"};
  }
  return std::optional<engine::Duration>(*span);
}

struct Tally {
  uint64_t run = 0;
  std::array<uint64_t, chaos::kVerdictCount> by_verdict{};
  Verdict worst = Verdict::kPass;
};

void AddSwarmOptions(CommandLine& line) {
  line.options.add_options()("scenario", po::value<std::string>()->required(),
                             "base scenario JSON file (its faults are replaced)")(
      "seeds", po::value<uint64_t>(), "how many seeds to run (default 100)")(
      "first-seed", po::value<uint64_t>(), "the first seed (default 1): runs S .. S+N-1")(
      "seed", po::value<uint64_t>(), "run this one seed only (as a failure's reproduce line does)")(
      "safety-s", po::value<double>(),
      "end of the safety phase T, in s (default: the scenario's run.until_s); producers, faults "
      "and drain starts are kept inside it")(
      "liveness-s", po::value<double>(),
      "liveness bound L, in s: every message must rest by T + L (default: per variant, a bound "
      "derived from its retry policy and timeouts)")(
      "vary-policies", po::value<std::string>()->default_value("all"),
      "all: each seed also draws its retry and broker policy (docs/SWARM.md); none: every "
      "seed keeps the scenario's policy and only the faults vary")(
      "jobs", po::value<int>()->default_value(1), "seeds run at once, each in its own process")(
      "seed-timeout-s", po::value<double>()->default_value(600),
      "wall-clock limit per seed, in s (fractions allowed); a seed still running is killed and "
      "gets the verdict timeout, exit code 6 (0: none)")(
      "dump-variant", po::value<std::string>(),
      "with --seed: write the variant scenario to FILE (`drainsim run FILE` replays "
      "the run)")("verbose", po::bool_switch(),
                  "print every seed: its faults and its run's figures")(
      "quiet", po::bool_switch(),
      "no progress lines on stderr (by default \"swarm: D of N seeds done\", at most one "
      "per 10 s of wall clock, terminal or not)");
  line.positional.add("scenario", 1);
}

// What the flags ask for, checked before the scenario is read.
struct SwarmFlags {
  uint64_t first_seed = 1;
  uint64_t count = kSeedsDefault;
  int jobs = 1;
  double timeout_s = 600;
  std::optional<engine::Duration> safety;
  std::optional<engine::Duration> liveness;
  bool vary_policies = true;
};

// A usage mistake, as the swarm words it: with a pointer to --help.
base::Failure Usage(const char* message) {
  return {std::string(message) + " (see drainsim swarm --help)"};
}

// The seeds to run: --seed alone, or --first-seed and --seeds.
base::Status ReadSeeds(const po::variables_map& vm, SwarmFlags* flags) {
  const bool one_seed = vm.count("seed") > 0;
  if (one_seed && (vm.count("seeds") || vm.count("first-seed"))) {
    return Usage("--seed runs one seed; it cannot be combined with --seeds or --first-seed");
  }
  if (vm.count("dump-variant") && !one_seed) return Usage("--dump-variant needs --seed");
  flags->first_seed = one_seed ? vm["seed"].as<uint64_t>()
                               : (vm.count("first-seed") ? vm["first-seed"].as<uint64_t>() : 1);
  flags->count = one_seed ? 1 : (vm.count("seeds") ? vm["seeds"].as<uint64_t>() : kSeedsDefault);
  if (flags->count == 0) return Usage("--seeds must be at least 1");
  if (flags->first_seed + (flags->count - 1) < flags->first_seed) {
    return Usage("the seed range overflows");
  }
  return {};
}

// The flags, or the usage error (each line without "drainsim swarm: "); in the order they were
// always checked.
base::Expected<SwarmFlags> ReadSwarmFlags(const po::variables_map& vm) {
  SwarmFlags flags;
  if (const base::Status seeds = ReadSeeds(vm, &flags); !seeds) {
    return base::Failure{seeds.error()};
  }
  flags.jobs = vm["jobs"].as<int>();
  if (flags.jobs < 1 || flags.jobs > chaos::kIsolationJobsMax) {
    return Usage("--jobs must be in 1..256");
  }
  flags.timeout_s = vm["seed-timeout-s"].as<double>();
  if (!(flags.timeout_s >= 0 && flags.timeout_s <= 1e6)) {
    return Usage("--seed-timeout-s must be in 0..1000000");
  }
  const auto safety = SecondsOption(vm, "safety-s");
  const auto liveness = SecondsOption(vm, "liveness-s");
  if (!safety || !liveness) {  // both said when both are wrong, one line each
    return base::Failure{!safety ? safety.error() + (!liveness ? "\n" + liveness.error() : "")
                                 : liveness.error()};
  }
  flags.safety = *safety;
  flags.liveness = *liveness;
  const std::string vary = vm["vary-policies"].as<std::string>();
  if (vary != "all" && vary != "none") return Usage("--vary-policies must be all or none");
  flags.vary_policies = vary == "all";
  return flags;
}

// The first lines: what runs, the phases and the plan's notes.
void PrintHeader(const std::string& path, const SwarmFlags& flags, const chaos::SwarmPlan& plan) {
  const std::string safety_s = chaos::FormatSeconds(plan.safety_end - engine::Instant::Zero());
  const std::string liveness_s = chaos::FormatSeconds(plan.liveness);
  const uint64_t first = flags.first_seed;
  const std::string seeds = flags.count == 1 ? "seed " + std::to_string(first)
                                             : "seeds " + std::to_string(first) + ".." +
                                                   std::to_string(first + (flags.count - 1));
  const char* policies = flags.vary_policies ? "policies drawn per seed" : "the scenario's policy";
  if (plan.liveness_given) {
    std::printf("swarm %s: %s, safety phase [0, %s) s, %s, liveness bound %s s\n", path.c_str(),
                seeds.c_str(), safety_s.c_str(), policies, liveness_s.c_str());
  } else {
    std::printf(
        "swarm %s: %s, safety phase [0, %s) s, %s, liveness bound per seed from its policy "
        "(%s s for the scenario's own)\n",
        path.c_str(), seeds.c_str(), safety_s.c_str(), policies, liveness_s.c_str());
  }
  for (const std::string& note : plan.notes) std::printf("note: %s\n", note.c_str());
}

// --dump-variant FILE: the seed's variant, printed and written. nullopt to go on, or the exit
// code to stop with.
std::optional<int> DumpVariant(const std::string& out_path, const chaos::SwarmPlan& plan,
                               uint64_t seed) {
  const chaos::Variant variant = chaos::DrawVariant(plan, seed);
  for (const std::string& line : variant.policy) std::printf("policy: %s\n", line.c_str());
  if (!variant.scenario) {
    // A drawn policy the loader refuses is the swarm's bug; the seed's check reports it.
    for (const std::string& problem : variant.problems) {
      std::fprintf(stderr, "drainsim swarm: --dump-variant: %s\n", problem.c_str());
    }
    return kExitSwarmCorrectness;
  }
  std::printf("liveness bound: %s s\n", chaos::FormatSeconds(variant.liveness).c_str());
  const std::filesystem::path where(out_path);
  const std::string dir = where.has_parent_path() ? where.parent_path().string() : ".";
  const base::Status written = WriteOutputSet(
      dir, {{where.filename().string(), scenario::DumpCanonical(*variant.scenario)}});
  if (!written) {
    std::fprintf(stderr, "drainsim swarm: --dump-variant: %s\n", written.error().c_str());
    return kExitBadInput;
  }
  std::printf("variant: %s (drainsim run %s replays the run)\n", out_path.c_str(),
              ShellQuote(out_path).c_str());
  return std::nullopt;
}

// What a seed's report prints: a failure always (with its reproduce line), a pass with --verbose.
struct SeedPrinter {
  const chaos::SwarmPlan& plan;
  std::string path;
  std::string repeat;  // the options the reproduce line repeats besides the seed
  bool vary_policies = true;
  bool verbose = false;

  void operator()(const chaos::SeedReport& report) const {
    const bool failed = report.verdict != Verdict::kPass;
    if (!failed && !verbose) return;
    std::printf("seed %llu: %s%s\n", static_cast<unsigned long long>(report.seed),
                failed ? "FAIL " : "", chaos::VerdictName(report.verdict));
    if (vary_policies) {
      // Drawn again here (a pure function) so that a seed whose child died has it too.
      for (const std::string& line : chaos::DrawVariant(plan, report.seed).policy) {
        std::printf("  policy: %s\n", line.c_str());
      }
    }
    if (verbose) {
      for (const std::string& detail : report.details) std::printf("  %s\n", detail.c_str());
    }
    for (const std::string& problem : report.problems) std::printf("  %s\n", problem.c_str());
    if (failed) {
      std::printf("  reproduce: drainsim swarm %s --seed %llu%s --verbose\n",
                  ShellQuote(path).c_str(), static_cast<unsigned long long>(report.seed),
                  repeat.c_str());
    }
  }
};

// What the reproduce line must repeat besides the seed: the options that change the variant.
std::string RepeatedOptions(const chaos::SwarmPlan& plan, bool vary_policies) {
  std::string repeat =
      " --safety-s " + chaos::FormatSeconds(plan.safety_end - engine::Instant::Zero());
  if (plan.liveness_given) repeat += " --liveness-s " + chaos::FormatSeconds(plan.liveness);
  if (!vary_policies) repeat += " --vary-policies none";
  return repeat;
}

// The last line, the operating error if any, and the exit code.
int Finish(const Tally& tally, const std::string& error, uint64_t count) {
  const auto& v = tally.by_verdict;
  std::printf(
      "swarm: %llu seeds run, %llu passed, %llu failed (%llu crash, %llu correctness, "
      "%llu liveness, %llu timeout)\n",
      static_cast<unsigned long long>(tally.run),
      static_cast<unsigned long long>(v[static_cast<size_t>(Verdict::kPass)]),
      static_cast<unsigned long long>(tally.run - v[static_cast<size_t>(Verdict::kPass)]),
      static_cast<unsigned long long>(v[static_cast<size_t>(Verdict::kCrash)]),
      static_cast<unsigned long long>(v[static_cast<size_t>(Verdict::kCorrectness)]),
      static_cast<unsigned long long>(v[static_cast<size_t>(Verdict::kLiveness)]),
      static_cast<unsigned long long>(v[static_cast<size_t>(Verdict::kTimeout)]));
  if (!error.empty()) {
    std::fprintf(stderr, "drainsim swarm: %s; %llu of %llu seeds run\n", error.c_str(),
                 static_cast<unsigned long long>(tally.run),
                 static_cast<unsigned long long>(count));
    // A failure found before the operating error still decides the exit code.
    if (tally.worst == Verdict::kPass) return kExitBadInput;
  }
  return SwarmExitCode(tally.worst);
}

// Every seed in its own process, each report printed as it comes (in seed order).
int RunSeeds(const po::variables_map& vm, const SwarmFlags& flags, const std::string& path,
             const chaos::SwarmPlan& plan) {
  const SeedPrinter print{plan, path, RepeatedOptions(plan, flags.vary_policies),
                          flags.vary_policies, vm["verbose"].as<bool>()};
  std::optional<chaos::SeedProgress> progress;
  if (!vm["quiet"].as<bool>()) progress.emplace(chaos::StderrSeedProgress(flags.count));
  Tally tally;
  const auto on_report = [&](const chaos::SeedReport& report) {
    ++tally.run;
    if (progress) progress->SeedDone();
    ++tally.by_verdict[static_cast<size_t>(report.verdict)];
    tally.worst = std::max(tally.worst, report.verdict);
    print(report);
  };
  const std::string error = chaos::RunIsolated(
      flags.first_seed, flags.count, chaos::IsolationOptions{flags.jobs, flags.timeout_s},
      [&plan](uint64_t seed) { return chaos::CheckSeed(plan, seed); }, on_report);
  return Finish(tally, error, flags.count);
}

}  // namespace

int RunSwarm(const Args& args) {
  CommandLine line("swarm",
                   "swarm SCENARIO [--seeds N] [--first-seed S] [--seed K] [--safety-s T] "
                   "[--liveness-s L] [--vary-policies all|none] [--jobs J] [--dump-variant FILE] "
                   "[--verbose] [--quiet]",
                   kSwarmDescription);
  AddSwarmOptions(line);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const base::Expected<SwarmFlags> flags = ReadSwarmFlags(vm);
  if (!flags) {
    for (size_t start = 0; start <= flags.error().size();) {
      const size_t end = std::min(flags.error().find('\n', start), flags.error().size());
      std::fprintf(stderr, "drainsim swarm: %s\n",
                   flags.error().substr(start, end - start).c_str());
      start = end + 1;
    }
    return kExitBadInput;
  }
  const std::string path = vm["scenario"].as<std::string>();
  const scenario::LoadResult loaded = LoadAndReport(path);
  if (!loaded.ok()) return kExitBadInput;
  const chaos::PlanOrError made = chaos::MakeSwarmPlan(
      *loaded.scenario, {flags->safety, flags->liveness, flags->vary_policies});
  if (!made.plan) {
    std::fprintf(stderr, "drainsim swarm: %s: %s\n", path.c_str(), made.error.c_str());
    return kExitBadInput;
  }
  PrintHeader(path, *flags, *made.plan);
  if (vm.count("dump-variant")) {
    const std::string out_path = vm["dump-variant"].as<std::string>();
    if (const std::optional<int> stop = DumpVariant(out_path, *made.plan, flags->first_seed)) {
      return *stop;
    }
  }
  return RunSeeds(vm, *flags, path, *made.plan);
}

}  // namespace drainsim::cli
