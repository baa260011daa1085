// The first stage of a load: bytes to a JSON document. Syntax errors keep their line and
// column; hostile inputs (deep nesting, huge files, bad UTF-8) are refused without harm; files
// that cannot be read are problems, not exceptions.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace syntax_test {
namespace {

std::string OnlyMessage(const LoadResult& r) {
  INFO(testing::Describe(r));
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].pointer.empty());
  return r.problems[0].message;
}

TEST_CASE("syntax errors name the line and column", "[syntax]") {
  // Missing comma: the position is where the parser gave up, the end of the next key.
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\n  \"a\": 1\n  \"b\": 2\n}")),
             Catch::StartsWith("syntax error at line 3, column 5:"));
  // Trailing comma: the closing brace is where the parser gives up.
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\n  \"a\": 1,\n}\n")),
             Catch::StartsWith("syntax error at line 3, column 1:"));
  // Unclosed brace: the end of the input.
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\n  \"a\": [1, 2]\n")),
             Catch::Contains("line 3, column 1") && Catch::Contains("unexpected end of input"));
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": NaN}")),
             Catch::StartsWith("syntax error at line 1, column 7:"));
  CHECK_THAT(
      OnlyMessage(LoadScenarioText("{\"a\": 1e400}")),
      Catch::StartsWith("syntax error at line 1, column") && Catch::Contains("number overflow"));
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": 1} trailing")),
             Catch::StartsWith("syntax error at line 1, column 12:"));
}

TEST_CASE("empty input, whitespace and non-objects are refused clearly", "[syntax]") {
  CHECK_THAT(OnlyMessage(LoadScenarioText("")), Catch::StartsWith("input is empty"));
  CHECK_THAT(OnlyMessage(LoadScenarioText(" \n\t\r\n ")), Catch::StartsWith("input is empty"));
  CHECK(OnlyMessage(LoadScenarioText("[1, 2]")) == "must be a JSON object (got array)");
  CHECK(OnlyMessage(LoadScenarioText("42")) == "must be a JSON object (got 42)");
}

TEST_CASE("nesting deeper than 64 levels is refused before parsing", "[syntax]") {
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  CHECK_THAT(OnlyMessage(LoadScenarioText(deep)),
             Catch::StartsWith("nesting is deeper than 64 levels at line 1, column 65"));
  // 64 levels pass the depth check (and fail later, as a non-object).
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  CHECK(OnlyMessage(LoadScenarioText(ok)) == "must be a JSON object (got array)");
  // Brackets inside strings do not count, escaped quotes do not end strings.
  const std::string text = "{\"a\": \"" + std::string(100, '[') + "\\\"" + "\"}";
  const LoadResult strings = LoadScenarioText(text);
  CHECK(testing::HasProblem(strings, "/format_version", "is required"));
  CHECK_FALSE(testing::Describe(strings).find("nesting") != std::string::npos);
  // Unbalanced closers never make the depth negative.
  CHECK_THAT(OnlyMessage(LoadScenarioText("]]]]" + std::string(70, '['))),
             Catch::StartsWith("nesting is deeper"));
}

TEST_CASE("bytes that are not UTF-8 are refused with their position", "[syntax]") {
  CHECK(OnlyMessage(LoadScenarioText("{\"name\": \"caf\xff\"}")) ==
        "not valid UTF-8: byte 0xFF at line 1, column 14; scenarios must be UTF-8 text");
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": \"\xc0\xaf\"}")), Catch::Contains("0xC0"));
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": \"\xed\xa0\x80\"}")), Catch::Contains("UTF-8"));
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": \"\xe2\x82")), Catch::Contains("UTF-8"));
  CHECK_THAT(OnlyMessage(LoadScenarioText("{\"a\": \"\xf4\x90\x80\x80\"}")),
             Catch::Contains("UTF-8"));
  // Valid multi-byte text and a byte-order mark are fine.
  testing::Json doc = testing::BaseScenario();
  doc["name"] = "r\xc3\xa9p\xc3\xa9tition \xe2\x9c\x93";
  CHECK_LOADS(LoadScenarioText("\xef\xbb\xbf" + doc.dump()));
}

TEST_CASE("inputs over 16 MiB are refused", "[syntax]") {
  const std::string big(16 * 1024 * 1024 + 1, ' ');
  CHECK_THAT(OnlyMessage(LoadScenarioText(big)),
             Catch::Contains("16.0 MiB; scenarios of at most 16 MiB are supported"));
}

TEST_CASE("duplicate keys are refused at their pointer", "[syntax]") {
  const LoadResult r = LoadScenarioText(R"({"a": {"b": [1, {"c": 1, "c": 2}]}, "a": 3})");
  INFO(testing::Describe(r));
  CHECK(testing::HasProblem(r, "/a/b/1/c", "duplicate key \"c\""));
  CHECK(testing::HasProblem(r, "/a", "duplicate key \"a\""));
}

TEST_CASE("files that cannot be read are problems, not exceptions", "[syntax][files]") {
  CHECK(OnlyMessage(LoadScenarioFile("/nonexistent/drainsim/x.json")) == "no such file");
  CHECK(OnlyMessage(LoadScenarioFile(testing::SourcePath("scenarios"))) ==
        "is a directory, not a scenario file");
  const std::string fifo =
      std::filesystem::temp_directory_path() / ("drainsim-fifo-" + std::to_string(::getpid()));
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Must not block waiting for a writer.
  CHECK(OnlyMessage(LoadScenarioFile(fifo)) == "is not a regular file");
  ::unlink(fifo.c_str());
  if (::geteuid() != 0) {
    const std::string locked = std::filesystem::temp_directory_path() /
                               ("drainsim-locked-" + std::to_string(::getpid()) + ".json");
    std::ofstream(locked) << "{}";
    ::chmod(locked.c_str(), 0);
    CHECK_THAT(OnlyMessage(LoadScenarioFile(locked)), Catch::StartsWith("cannot open:"));
    ::unlink(locked.c_str());
  }
}

}  // namespace
}  // namespace syntax_test
}  // namespace drainsim::scenario
