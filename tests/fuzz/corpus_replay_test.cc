// The fuzz corpus as plain files: every input the fuzzer kept (tests/fuzz/corpus/), every
// shipped scenario and every bad input must satisfy the fuzzer's property, in every build.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/fuzz/fuzz_check.h"

namespace drainsim::fuzz {
namespace {

namespace fs = std::filesystem;

int ReplayFolder(const fs::path& folder) {
  int replayed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    INFO(entry.path().string());
    CHECK(CheckScenarioBytes(bytes.str()) == "");
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

}  // namespace
}  // namespace drainsim::fuzz
