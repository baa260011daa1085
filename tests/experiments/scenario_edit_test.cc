// experiments/scenario_edit.h: edits at JSON pointers, the contract's three rules, and every
// error message a user can get from a bad --vary, --param or compare variant.
#include "experiments/scenario_edit.h"

#include <catch2/catch.hpp>
#include <string>

#include "reports/table.h"

namespace drainsim::experiments {
namespace scenario_edit_test {
namespace {

using nlohmann::json;
using reports::ValueText;

const json kDocument = json::parse(R"({"name": "s", "run": {"until_s": 100},
  "drains": [{"rate_per_s": 10}], "seed": 3})");

// The error ApplyEdits gives for one edit, or "" when it succeeds.
std::string ErrorOf(const std::string& pointer, const json& value = 1) {
  const base::Expected<json> edited = ApplyEdits(kDocument, {{pointer, value}});
  return edited.ok() ? "" : edited.error();
}

TEST_CASE("scenario edit: replaces a value, adds a member, in order, on a copy",
          "[experiments][edit]") {
  const base::Expected<json> edited =
      ApplyEdits(kDocument, {{"/drains/0/rate_per_s", 120},
                             {"/run/sample_every_s", 5},  // a member the file leaves out: added
                             {"/drains/0/rate_per_s", 130}});  // later edits win
  REQUIRE(edited.ok());
  CHECK((*edited)["drains"][0]["rate_per_s"] == 130);
  CHECK((*edited)["run"]["sample_every_s"] == 5);
  CHECK((*edited)["run"]["until_s"] == 100);
  // The original is untouched.
  CHECK(kDocument["drains"][0]["rate_per_s"] == 10);
  CHECK(!kDocument["run"].contains("sample_every_s"));
  // A whole array element can be replaced.
  const base::Expected<json> element = ApplyEdits(kDocument, {{"/drains/0", json::object()}});
  REQUIRE(element.ok());
  CHECK((*element)["drains"][0] == json::object());
}

TEST_CASE("scenario edit: every place that is not there is refused with where it is not",
          "[experiments][edit]") {
  CHECK(ErrorOf("") == "\"\" names the whole scenario; give the pointer of one field");
  CHECK(ErrorOf("run/until_s").rfind("run/until_s: not a JSON pointer (", 0) == 0);
  // Intermediate objects are never created: the deepest existing place is named.
  CHECK(ErrorOf("/broker/preset") ==
        "/broker/preset: no such place in the scenario (the scenario has no 'broker')");
  CHECK(ErrorOf("/run/faults/x/y") ==
        "/run/faults/x/y: no such place in the scenario (/run has no 'faults')");
  CHECK(ErrorOf("/drains/7/rate_per_s") ==
        "/drains/7/rate_per_s: no such place in the scenario (/drains has 1 element)");
  // Arrays: an index past the end, "-" (append), a leading zero and a name are all refused.
  for (const char* index : {"1", "-", "00", "first", "99999999999"}) {
    INFO(index);
    CHECK(ErrorOf(std::string("/drains/") + index) ==
          std::string("/drains/") + index +
              ": no such place in the scenario (/drains has 1 element)");
  }
  CHECK(ErrorOf("/seed/x") ==
        "/seed/x: no such place in the scenario (/seed is a number, not an object or array)");
  CHECK(ErrorOf("/name/x") ==
        "/name/x: no such place in the scenario (/name is a string, not an object or array)");
  // The first failing edit stops the rest: nothing is returned.
  const base::Expected<json> refused = ApplyEdits(kDocument, {{"/seed", 4}, {"/nope/x", 1}});
  REQUIRE(!refused.ok());
  CHECK(refused.error() == "/nope/x: no such place in the scenario (the scenario has no 'nope')");
}

TEST_CASE("scenario edit: the element count is grammatical", "[experiments][edit]") {
  const json two = json::parse(R"({"drains": [{}, {}], "grid": [[1, 2]]})");
  const base::Expected<json> past = ApplyEdits(two, {{"/drains/2", 1}});
  REQUIRE(!past.ok());
  CHECK(past.error() == "/drains/2: no such place in the scenario (/drains has 2 elements)");
  // A missing parent under an array: the array is named with its size.
  const base::Expected<json> under = ApplyEdits(two, {{"/grid/3/0", 1}});
  REQUIRE(!under.ok());
  CHECK(under.error() == "/grid/3/0: no such place in the scenario (/grid has 1 element)");
}

TEST_CASE("scenario edit: parsing a document", "[experiments][edit]") {
  const base::Expected<json> ok = ParseDocument(R"({"a": [1, 2]})");
  REQUIRE(ok.ok());
  CHECK((*ok)["a"][1] == 2);
  const base::Expected<json> bad = ParseDocument(R"({"a": )");
  REQUIRE(!bad.ok());
  CHECK(bad.error().find("parse error") != std::string::npos);
}

TEST_CASE("scenario edit: values print as the tables print them", "[experiments][edit]") {
  CHECK(ValueText("drip") == "drip");  // strings without quotes
  CHECK(ValueText(120) == "120");
  CHECK(ValueText(json(uint64_t{18446744073709551615ULL})) == "18446744073709551615");
  CHECK(ValueText(-3) == "-3");
  CHECK(ValueText(0.25) == "0.25");
  CHECK(ValueText(true) == "true");
  CHECK(ValueText(nullptr) == "null");
  CHECK(ValueText(json::parse(R"({"constant": 5})")) == R"({"constant":5})");
  CHECK(EditText({"/drains/0/rate_per_s", 120}) == "/drains/0/rate_per_s=120");
  CHECK(EditText({"/drains/0/strategy", "bulk"}) == "/drains/0/strategy=bulk");
}

}  // namespace
}  // namespace scenario_edit_test
}  // namespace drainsim::experiments
