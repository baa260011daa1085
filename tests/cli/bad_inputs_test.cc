// The bad-input corpus through the real binary: every malformed scenario gets exit code 2,
// a message naming the expected place, and no crash.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace bad_inputs_test {
namespace {

const std::string kCorpus = std::string(DRAINSIM_SOURCE_DIR) + "/tests/bad_inputs/";

// MANIFEST.tsv rows: relative path <TAB> a substring the error output must contain.
std::vector<std::pair<std::string, std::string>> ReadManifest() {
  std::vector<std::pair<std::string, std::string>> rows;
  std::ifstream in(kCorpus + "MANIFEST.tsv");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    rows.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return rows;
}

TEST_CASE("every bad input exits 2 naming the problem's place", "[cli][bad-input]") {
  const auto rows = ReadManifest();
  REQUIRE(rows.size() >= 40);
  for (const auto& [file, expected] : rows) {
    INFO("drainsim check " << kCorpus + file);
    ProcessResult r = RunDrainsim({"check", kCorpus + file});
    CHECK(r.signal == 0);
    CHECK(r.exit_code == 2);
    CHECK(r.stdout_text.empty());
    INFO("stderr: " << r.stderr_text);
    CHECK(r.stderr_text.find(expected) != std::string::npos);
    // One line per problem, each naming the file first.
    std::istringstream lines(r.stderr_text);
    std::string one;
    while (std::getline(lines, one)) CHECK(one.rfind(kCorpus + file + ": ", 0) == 0);
  }
}

}  // namespace
}  // namespace bad_inputs_test
}  // namespace drainsim::testing
