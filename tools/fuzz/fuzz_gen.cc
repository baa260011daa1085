// fuzz_gen: writes the scenario the generator (scenario_gen.h) makes, to reproduce a failing
// case of the seeded test or of the fuzzer with plain drainsim:
//   fuzz_gen --seed N           the scenario of seed N (tests/fuzz/pipeline_test.cc's cases)
//   fuzz_gen --bytes FILE       the scenario libFuzzer's input FILE decodes to (fuzz_pipeline)
//   ... --write-bytes FILE      also write the decoder's bytes to FILE (a fuzz_pipeline input)
//   ... --check                 instead: run the pipeline check on it and print the verdict
//   fuzz_gen --seed N --scan K  check seeds N..N+K-1 (pipeline_check.h): one line per seed that
//                               fails, then a summary
// The scenario goes to stdout; run it with `drainsim run gen.json --audit --format ...`.
// Exit: 0 written (or the check passed), 1 the check failed, 2 usage.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/fuzz/pipeline_check.h"
#include "tools/fuzz/scenario_gen.h"

namespace {

int Scan(uint64_t first_seed, int64_t count) {
  using namespace drainsim::fuzz;
  int64_t failed = 0;
  int64_t quiescent = 0;
  int64_t stopped = 0;
  for (uint64_t seed = first_seed; seed < first_seed + static_cast<uint64_t>(count); ++seed) {
    const PipelineOutcome outcome = CheckPipeline(GenerateScenarioJson(BytesForSeed(seed)));
    quiescent += outcome.quiescent ? 1 : 0;
    stopped += outcome.events_max_reached ? 1 : 0;
    if (!outcome.failure.empty()) {
      ++failed;
      std::printf("seed %llu: FAILED: %s\n", static_cast<unsigned long long>(seed),
                  outcome.failure.c_str());
    }
    std::fflush(stdout);
  }
  std::printf(
      "%lld seeds: %lld failed; %lld quiescent, %lld stopped by events_max\n",
      static_cast<long long>(count), static_cast<long long>(failed),
      static_cast<long long>(quiescent), static_cast<long long>(stopped));
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string bytes;
  bool check = false;
  uint64_t first_seed = 0;
  int64_t scan = 0;
  std::string bytes_out;
  bool have_input = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--check") {
      check = true;
    } else if (arg == "--seed" && i + 1 < argc) {
      first_seed = std::strtoull(argv[++i], nullptr, 10);
      bytes = drainsim::fuzz::BytesForSeed(first_seed);
      have_input = true;
    } else if (arg == "--write-bytes" && i + 1 < argc) {
      bytes_out = argv[++i];
    } else if (arg == "--scan" && i + 1 < argc) {
      scan = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--bytes" && i + 1 < argc) {
      std::ifstream in(argv[++i], std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "fuzz_gen: cannot read %s\n", argv[i]);
        return 2;
      }
      std::ostringstream text;
      text << in.rdbuf();
      bytes = text.str();
      have_input = true;
    } else {
      have_input = false;
      break;
    }
  }
  if (!have_input) {
    std::fprintf(stderr,
                 "usage: fuzz_gen (--seed N [--scan K] | --bytes FILE) [--write-bytes FILE] "
                 "[--check]\n");
    return 2;
  }
  if (scan > 0) return Scan(first_seed, scan);
  if (!bytes_out.empty()) {
    std::ofstream out(bytes_out, std::ios::binary);
    out << bytes;
    if (!out.flush()) {
      std::fprintf(stderr, "fuzz_gen: cannot write %s\n", bytes_out.c_str());
      return 2;
    }
  }
  const std::string text = drainsim::fuzz::GenerateScenarioJson(bytes);
  if (!check) {
    std::printf("%s\n", text.c_str());
    return 0;
  }
  const drainsim::fuzz::PipelineOutcome outcome = drainsim::fuzz::CheckPipeline(text);
  std::printf("%s (events %lld%s%s)\n", outcome.failure.empty() ? "ok" : outcome.failure.c_str(),
              static_cast<long long>(outcome.events), outcome.quiescent ? ", quiescent" : "",
              outcome.events_max_reached ? ", events_max reached" : "");
  return outcome.failure.empty() ? 0 : 1;
}
