// Helpers shared by the scenario tests: the repository's files, a small valid scenario to
// mutate, and checks on the problems a load reports.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/load.h"

namespace drainsim::scenario::testing {

using Json = nlohmann::json;

// DRAINSIM_SOURCE_DIR + "/" + relative.
std::string SourcePath(std::string_view relative);
std::string ReadFile(const std::string& path);
// Every scenarios/*.json except schema.json, sorted.
std::vector<std::string> ExampleScenarioPaths();

// A minimal valid scenario that uses a database and a downstream API, for rule tests.
Json BaseScenario();
// A scenario that names only the broker preset (none when empty): no database, no downstream,
// no retry, no drains; for the preset tests.
Json PresetScenario(std::string_view preset);
// `document` with the value at `pointer` replaced (created if missing).
Json With(Json document, const std::string& pointer, Json value);
// `document` without the value at `pointer`.
Json Without(Json document, const std::string& pointer);
LoadResult Load(const Json& document);
// Loads `document`, failing the test (with every problem printed) unless it is valid.
config::Scenario MustLoad(const Json& document);

// Dumps `s`, loads the dump and checks it is `s` again and that the dump is a fixed point.
void CheckRoundTrip(const config::Scenario& s);

// All problems as "pointer: message" lines, for failure output.
std::string Describe(const LoadResult& result);
// True iff some problem has exactly `pointer` and a message containing `fragment`.
bool HasProblem(const LoadResult& result, std::string_view pointer, std::string_view fragment);

}  // namespace drainsim::scenario::testing

// Checks that `result` failed with a problem at `pointer` whose message contains `fragment`,
// printing every problem when it did not.
#define CHECK_PROBLEM(result, pointer, fragment)                                        \
  do {                                                                                  \
    const auto& check_result_ = (result);                                               \
    INFO(::drainsim::scenario::testing::Describe(check_result_));                       \
    CHECK_FALSE(check_result_.ok());                                                    \
    CHECK(::drainsim::scenario::testing::HasProblem(check_result_, pointer, fragment)); \
  } while (false)

#define CHECK_LOADS(result)                                       \
  do {                                                            \
    const auto& check_result_ = (result);                         \
    INFO(::drainsim::scenario::testing::Describe(check_result_)); \
    CHECK(check_result_.ok());                                    \
  } while (false)
