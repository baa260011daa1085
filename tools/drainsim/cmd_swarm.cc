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

const char kDescription[] =
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

int ExitCode(Verdict worst) {
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

// Reads a `*-s` option as a span; prints the usage error and returns nullopt when it is not
// a finite number of seconds.
std::optional<std::optional<engine::Duration>> SecondsOption(const po::variables_map& vm,
                                                             const char* name) {
  if (!vm.count(name)) return std::optional<engine::Duration>();
  const double seconds = vm[name].as<double>();
  const auto span = engine::DurationFromSeconds(seconds);
  if (!span) {
    std::fprintf(stderr, "drainsim swarm: --%s must be a finite number of seconds (got %g)\n", name,
                 seconds);
    return std::nullopt;
  }
  return span;
}

struct Tally {
  uint64_t run = 0;
  std::array<uint64_t, chaos::kVerdictCount> by_verdict{};
  Verdict worst = Verdict::kPass;
};

}  // namespace

int RunSwarm(const Args& args) {
  CommandLine line("swarm",
                   "swarm SCENARIO [--seeds N] [--first-seed S] [--seed K] [--safety-s T] "
                   "[--liveness-s L] [--vary-policies all|none] [--jobs J] [--dump-variant FILE] "
                   "[--verbose] [--quiet]",
                   kDescription);
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
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;

  auto usage_error = [](const char* message) {
    std::fprintf(stderr, "drainsim swarm: %s (see drainsim swarm --help)\n", message);
    return kExitBadInput;
  };
  const bool one_seed = vm.count("seed") > 0;
  if (one_seed && (vm.count("seeds") || vm.count("first-seed"))) {
    return usage_error("--seed runs one seed; it cannot be combined with --seeds or --first-seed");
  }
  if (vm.count("dump-variant") && !one_seed) return usage_error("--dump-variant needs --seed");
  const uint64_t first_seed = one_seed
                                  ? vm["seed"].as<uint64_t>()
                                  : (vm.count("first-seed") ? vm["first-seed"].as<uint64_t>() : 1);
  const uint64_t count =
      one_seed ? 1 : (vm.count("seeds") ? vm["seeds"].as<uint64_t>() : kSeedsDefault);
  if (count == 0) return usage_error("--seeds must be at least 1");
  if (first_seed + (count - 1) < first_seed) return usage_error("the seed range overflows");
  const int jobs = vm["jobs"].as<int>();
  if (jobs < 1 || jobs > chaos::kIsolationJobsMax) return usage_error("--jobs must be in 1..256");
  const double timeout_s = vm["seed-timeout-s"].as<double>();
  if (!(timeout_s >= 0 && timeout_s <= 1e6)) {
    return usage_error("--seed-timeout-s must be in 0..1000000");
  }
  const auto safety = SecondsOption(vm, "safety-s");
  const auto liveness = SecondsOption(vm, "liveness-s");
  if (!safety || !liveness) return kExitBadInput;
  const std::string vary = vm["vary-policies"].as<std::string>();
  if (vary != "all" && vary != "none") return usage_error("--vary-policies must be all or none");
  const bool vary_policies = vary == "all";

  const std::string path = vm["scenario"].as<std::string>();
  const scenario::LoadResult loaded = LoadAndReport(path);
  if (!loaded.ok()) return kExitBadInput;
  const chaos::PlanOrError made =
      chaos::MakeSwarmPlan(*loaded.scenario, {*safety, *liveness, vary_policies});
  if (!made.plan) {
    std::fprintf(stderr, "drainsim swarm: %s: %s\n", path.c_str(), made.error.c_str());
    return kExitBadInput;
  }
  const chaos::SwarmPlan& plan = *made.plan;
  const std::string safety_s = chaos::FormatSeconds(plan.safety_end - engine::Instant::Zero());
  const std::string liveness_s = chaos::FormatSeconds(plan.liveness);

  const std::string seeds = count == 1 ? "seed " + std::to_string(first_seed)
                                       : "seeds " + std::to_string(first_seed) + ".." +
                                             std::to_string(first_seed + (count - 1));
  if (plan.liveness_given) {
    std::printf("swarm %s: %s, safety phase [0, %s) s, %s, liveness bound %s s\n", path.c_str(),
                seeds.c_str(), safety_s.c_str(),
                vary_policies ? "policies drawn per seed" : "the scenario's policy",
                liveness_s.c_str());
  } else {
    std::printf(
        "swarm %s: %s, safety phase [0, %s) s, %s, liveness bound per seed from its policy "
        "(%s s for the scenario's own)\n",
        path.c_str(), seeds.c_str(), safety_s.c_str(),
        vary_policies ? "policies drawn per seed" : "the scenario's policy", liveness_s.c_str());
  }
  for (const std::string& note : plan.notes) std::printf("note: %s\n", note.c_str());

  if (vm.count("dump-variant")) {
    const chaos::Variant variant = chaos::DrawVariant(plan, first_seed);
    for (const std::string& line : variant.policy) std::printf("policy: %s\n", line.c_str());
    if (!variant.scenario) {
      // A drawn policy the loader refuses is the swarm's bug; the seed's check reports it.
      for (const std::string& problem : variant.problems) {
        std::fprintf(stderr, "drainsim swarm: --dump-variant: %s\n", problem.c_str());
      }
      return kExitSwarmCorrectness;
    }
    std::printf("liveness bound: %s s\n", chaos::FormatSeconds(variant.liveness).c_str());
    const std::string out_path = vm["dump-variant"].as<std::string>();
    const std::filesystem::path where(out_path);
    const std::string dir = where.has_parent_path() ? where.parent_path().string() : ".";
    const std::string error = WriteOutputSet(
        dir, {{where.filename().string(), scenario::DumpCanonical(*variant.scenario)}});
    if (!error.empty()) {
      std::fprintf(stderr, "drainsim swarm: --dump-variant: %s\n", error.c_str());
      return kExitBadInput;
    }
    std::printf("variant: %s (drainsim run %s replays the run)\n", out_path.c_str(),
                ShellQuote(out_path).c_str());
  }

  // What the reproduce line must repeat besides the seed: the options that change the variant.
  std::string repeat = " --safety-s " + safety_s;
  if (plan.liveness_given) repeat += " --liveness-s " + liveness_s;
  if (!vary_policies) repeat += " --vary-policies none";
  const bool verbose = vm["verbose"].as<bool>();
  std::optional<chaos::SeedProgress> progress;
  if (!vm["quiet"].as<bool>()) progress.emplace(chaos::StderrSeedProgress(count));
  Tally tally;
  const auto on_report = [&](const chaos::SeedReport& report) {
    ++tally.run;
    if (progress) progress->SeedDone();
    ++tally.by_verdict[static_cast<size_t>(report.verdict)];
    tally.worst = std::max(tally.worst, report.verdict);
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
  };
  const std::string error = chaos::RunIsolated(
      first_seed, count, chaos::IsolationOptions{jobs, timeout_s},
      [&plan](uint64_t seed) { return chaos::CheckSeed(plan, seed); }, on_report);

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
  return ExitCode(tally.worst);
}

}  // namespace drainsim::cli
