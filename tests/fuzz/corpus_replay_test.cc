// The fuzz corpus as plain files: every input the fuzzer kept (tests/fuzz/corpus/), every
// shipped scenario and every bad input must satisfy the fuzzer's property, in every build.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/fuzz/fuzz_check.h"
#include "tools/fuzz/merge_check.h"
#include "tools/fuzz/otlp_check.h"

namespace drainsim::fuzz {
namespace corpus_replay_test {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int ReplayFolder(const fs::path& folder) {
  int replayed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    CHECK(CheckScenarioBytes(ReadBytes(entry.path())) == "");
    ++replayed;
  }
  return replayed;
}

TEST_CASE("the fuzz corpus replays without a property violation", "[fuzz]") {
  const fs::path source = DRAINSIM_SOURCE_DIR;
  CHECK(ReplayFolder(source / "tests/fuzz/corpus") >= 1);
  CHECK(ReplayFolder(source / "scenarios") >= 8);
  CHECK(ReplayFolder(source / "tests/bad_inputs") >= 40);
}

// The merge target's corpus (tools/fuzz/merge_check.h): part files `drainsim run --shard` and
// `drainsim sweep --shard` wrote, combinations of them split at form feeds, and every input the
// fuzzer crashed on (regression-*).
TEST_CASE("the merge fuzz corpus replays without a property violation", "[fuzz][merge]") {
  int replayed = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/merge_corpus")) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    CHECK(CheckMergeBytes(ReadBytes(entry.path())) == "");
    ++replayed;
  }
  CHECK(replayed >= 4);
}

// The otlp target's corpus (tools/fuzz/otlp_check.h): OTLP/JSON files drainsim wrote and
// hand-made ones (other span kinds, odd encodings, failures), and every input the fuzzer crashed
// on (regression-*).
TEST_CASE("the otlp fuzz corpus replays without a property violation", "[fuzz][otlp]") {
  int replayed = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/otlp_corpus")) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    CHECK(CheckOtlpBytes(ReadBytes(entry.path())) == "");
    ++replayed;
  }
  CHECK(replayed >= 4);
}

}  // namespace
}  // namespace corpus_replay_test
}  // namespace drainsim::fuzz
