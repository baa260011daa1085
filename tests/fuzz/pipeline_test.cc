// Whole-pipeline fuzzing, seeded: DRAINSIM_FUZZ_PIPELINE_CASES generated scenarios (2,000 in the
// plain build, fewer under ASan/UBSan: tests/fuzz/CMakeLists.txt) through the model with the
// audit on and every report format (tools/fuzz/pipeline_check.h). A failing case prints its seed
// and the command that writes its scenario and reproduces it with drainsim. An internal check of
// the model or a writer aborts the whole test: the abort handler below prints the seed first.
// DRAINSIM_FUZZ_FIRST_SEED (environment) moves the seed range, to explore beyond it by hand.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/fuzz/pipeline_check.h"
#include "tools/fuzz/scenario_gen.h"

namespace drainsim::fuzz {
namespace pipeline_test {
namespace {

// What the abort handler prints: the case being checked, formatted before it runs.
char g_current_case[512] = "";

void OnAbort(int) {
  const ssize_t ignored = write(2, g_current_case, std::strlen(g_current_case));
  (void)ignored;
}

uint64_t FirstSeed() {
  const char* text = std::getenv("DRAINSIM_FUZZ_FIRST_SEED");
  return text == nullptr ? 1 : std::strtoull(text, nullptr, 10);
}

TEST_CASE("generated scenarios keep every pipeline property", "[fuzz][pipeline]") {
  const uint64_t first = FirstSeed();
  const int64_t cases = DRAINSIM_FUZZ_PIPELINE_CASES;
  const auto previous = std::signal(SIGABRT, OnAbort);
  int64_t refused = 0, quiescent = 0, stopped = 0, reached_until = 0, failed = 0;
  for (uint64_t seed = first; seed < first + static_cast<uint64_t>(cases); ++seed) {
    std::snprintf(g_current_case, sizeof g_current_case,
                  "\nfuzz pipeline: aborted in the case of seed %llu; reproduce:\n  %s\n",
                  static_cast<unsigned long long>(seed), ReproduceSeedCommand(seed).c_str());
    const std::string text = GenerateScenarioJson(BytesForSeed(seed));
    const PipelineOutcome outcome = CheckPipeline(text);
    refused += outcome.refused ? 1 : 0;
    quiescent += outcome.quiescent ? 1 : 0;
    stopped += outcome.events_max_reached ? 1 : 0;
    reached_until += !outcome.quiescent && !outcome.events_max_reached ? 1 : 0;
    if (!outcome.failure.empty()) {
      ++failed;
      FAIL_CHECK("seed " << seed << ": " << outcome.failure
                         << "\nreproduce: " << ReproduceSeedCommand(seed));
    }
  }
  std::signal(SIGABRT, previous);
  g_current_case[0] = '\0';
  INFO("cases " << cases << ": " << quiescent << " quiescent, " << stopped
                << " stopped by events_max, " << reached_until << " reached run.until_s");
  CHECK(failed == 0);
  // The generator emits only valid scenarios.
  CHECK(refused == 0);
  // Every way a run ends is exercised.
  CHECK(quiescent >= cases / 10);
  CHECK(stopped >= cases / 50);
  CHECK(reached_until >= cases / 10);
}

// Inputs the fuzz_pipeline target kept or crashed on (tools/fuzz/run --target pipeline): the
// same decoder and property, everything checked.
TEST_CASE("the pipeline fuzz corpus replays without a property violation", "[fuzz][pipeline]") {
  namespace fs = std::filesystem;
  int replayed = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/pipeline_corpus")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    std::snprintf(g_current_case, sizeof g_current_case,
                  "\nfuzz pipeline: aborted replaying %s; reproduce:\n  build/tools/fuzz/fuzz_gen "
                  "--bytes %s > gen.json && build/tools/drainsim/drainsim run gen.json --audit\n",
                  entry.path().c_str(), entry.path().c_str());
    const auto previous = std::signal(SIGABRT, OnAbort);
    const PipelineOutcome outcome = CheckPipeline(GenerateScenarioJson(bytes.str()));
    std::signal(SIGABRT, previous);
    INFO(entry.path().string());
    CHECK(outcome.failure == "");
    ++replayed;
  }
  CHECK(replayed >= 1);
}

// Scenarios the fuzzers found defects with, minimised by hand (tests/fuzz/regressions/, each
// with its story in `description`): the whole property, nothing stepped around.
TEST_CASE("the minimised regression scenarios keep every pipeline property", "[fuzz][pipeline]") {
  namespace fs = std::filesystem;
  int replayed = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/regressions")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::snprintf(g_current_case, sizeof g_current_case,
                  "\nfuzz pipeline: aborted replaying %s; reproduce:\n  "
                  "build/tools/drainsim/drainsim run %s --audit\n",
                  entry.path().c_str(), entry.path().c_str());
    const auto previous = std::signal(SIGABRT, OnAbort);
    const PipelineOutcome outcome = CheckPipeline(text.str());
    std::signal(SIGABRT, previous);
    INFO(entry.path().string());
    CHECK(outcome.failure == "");
    ++replayed;
  }
  CHECK(replayed >= 1);
}

}  // namespace
}  // namespace pipeline_test
}  // namespace drainsim::fuzz
