// The bad-input corpus (tests/bad_inputs/MANIFEST.tsv): every case fails to load and its
// formatted problems contain the expected text, as `drainsim check` would print them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace bad_inputs_test {
namespace {

struct Case {
  std::string path;
  std::string expected;
};

std::vector<Case> ReadManifest() {
  std::istringstream in(testing::ReadFile(testing::SourcePath("tests/bad_inputs/MANIFEST.tsv")));
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    cases.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return cases;
}

TEST_CASE("the bad-input corpus is large and every file is in the manifest", "[bad_inputs]") {
  const std::vector<Case> cases = ReadManifest();
  CHECK(cases.size() >= 45);
  std::set<std::string> listed;
  for (const Case& c : cases) {
    CHECK(listed.insert(c.path).second);
    CHECK_FALSE(c.expected.empty());
  }
  const std::filesystem::path root = testing::SourcePath("tests/bad_inputs");
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (name == "MANIFEST.tsv" || name == "README.md") continue;
    INFO(name);
    CHECK(listed.count(name) == 1);
  }
}

TEST_CASE("every bad input is refused with the expected problem", "[bad_inputs]") {
  for (const Case& c : ReadManifest()) {
    const std::string path = testing::SourcePath("tests/bad_inputs/" + c.path);
    const LoadResult r = LoadScenarioFile(path);
    std::string output;
    for (const Problem& p : r.problems) output += FormatProblem(path, p) + "\n";
    INFO(c.path << "\n" << output);
    CHECK_FALSE(r.ok());
    CHECK(output.find(c.expected) != std::string::npos);
  }
}

}  // namespace
}  // namespace bad_inputs_test
}  // namespace drainsim::scenario
