// Mutation tests: thousands of damaged variants of the example scenarios never crash the
// loader, always honour load.h's contract (a scenario xor problems), and whatever loads also
// round-trips through the canonical dump. A cheap, deterministic stand-in for the fuzzer.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace robustness_test {
namespace {

using testing::Json;

// xorshift64*: deterministic across platforms, unlike the standard distributions.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed | 1) {}
  uint64_t Next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1Dull;
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }

 private:
  uint64_t state_;
};

void CheckContract(const std::string& text) {
  const LoadResult r = LoadScenarioText(text);
  REQUIRE(r.ok() == r.problems.empty());
  if (!r.ok()) return;
  const std::string dump = DumpCanonical(*r.scenario);
  const LoadResult again = LoadScenarioText(dump);
  INFO(text);
  INFO(testing::Describe(again));
  REQUIRE(again.ok());
  CHECK(*again.scenario == *r.scenario);
  CHECK(DumpCanonical(*again.scenario) == dump);
}

TEST_CASE("byte-level damage never breaks the loader", "[robustness]") {
  Random random(20261129);
  const char tokens[] = "{}[]\",:0123456789.eE+-tfn \n\\\xff\xc3";
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    const std::string original = testing::ReadFile(path);
    for (int i = 0; i < 100; ++i) {
      std::string text = original;
      const size_t at = random.Below(text.size());
      switch (random.Below(4)) {
        case 0:
          text[at] = tokens[random.Below(sizeof tokens - 1)];
          break;
        case 1:
          text.erase(at, random.Below(64));
          break;
        case 2:
          text.insert(at, text.substr(random.Below(text.size()), random.Below(64)));
          break;
        default:
          text.resize(at);
          break;
      }
      CheckContract(text);
    }
  }
}

// Every number, string and boolean in the document, by pointer.
void Leaves(const Json& value, const std::string& pointer, std::vector<std::string>& out) {
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) Leaves(child, pointer + "/" + key, out);
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i)
      Leaves(value[i], pointer + "/" + std::to_string(i), out);
  } else {
    out.push_back(pointer);
  }
}

TEST_CASE("value-level damage and dropped keys never break the round trip", "[robustness]") {
  Random random(7);
  const std::vector<Json> replacements = {Json(0),
                                          Json(-1),
                                          Json(1),
                                          Json(0.5),
                                          Json(1e-7),
                                          Json(1e-300),
                                          Json(3.0e9),
                                          Json(1e18),
                                          Json(-0.0),
                                          Json(2.5e-6),
                                          Json(1.0 / 3.0),
                                          Json(nullptr),
                                          Json("x"),
                                          Json(true),
                                          Json::array(),
                                          Json::object(),
                                          Json(18446744073709551615ull),
                                          Json(8640000),
                                          Json(86400.0000005)};
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    const Json original = Json::parse(testing::ReadFile(path));
    std::vector<std::string> leaves;
    Leaves(original, "", leaves);
    for (int i = 0; i < 100; ++i) {
      Json document = original;
      const std::string& pointer = leaves[random.Below(leaves.size())];
      const Json::json_pointer at(pointer);
      Json& parent = document[at.parent_pointer()];
      if (random.Below(3) == 0 && parent.is_object()) {
        // Dropping a key exercises the defaults: each must satisfy the rules it meets.
        parent.erase(at.back());
      } else {
        document[at] = replacements[random.Below(replacements.size())];
      }
      CheckContract(document.dump());
    }
  }
}

}  // namespace
}  // namespace robustness_test
}  // namespace drainsim::scenario
