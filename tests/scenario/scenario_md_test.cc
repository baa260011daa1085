// SCENARIO.md's complete example loads unchanged, and the forms it uses: the object form of
// `expect` (a shorthand for metric expectations), the built-in {date} placeholder, and the
// editors' top-level "$schema" key (accepted and dropped).
#include <catch2/catch.hpp>

#include "tests/scenario/mini_schema.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace scenario_md_test {
namespace {

using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

const char kExamplePath[] = "tests/scenario/data/scenario_md_example.json";

config::MetricExpectation Metric(config::RunMetric metric, config::Bounds bounds) {
  config::MetricExpectation e;
  e.metric = metric;
  e.bounds = bounds;
  return e;
}

TEST_CASE("the complete example of SCENARIO.md loads unchanged and round-trips", "[examples]") {
  const LoadResult first = LoadScenarioFile(testing::SourcePath(kExamplePath));
  CHECK_LOADS(first);
  REQUIRE(first.ok());
  const config::Scenario& s = *first.scenario;
  CHECK(s.name == "monthly-rehearsal");
  CHECK(s.kinds.at("purge").key_pattern == "purge:course-{id}:{date}");
  CHECK(s.producers.at(0).fields.empty());
  // The object form, in sorted key order.
  const std::vector<config::Expectation> expected = {
      Metric(config::RunMetric::kDuplicateExecutions, {std::nullopt, 0, std::nullopt}),
      Metric(config::RunMetric::kHumanNeeded, {std::nullopt, 20, std::nullopt}),
      Metric(config::RunMetric::kLost, {std::nullopt, std::nullopt, 0}),
      Metric(config::RunMetric::kTimeToEmpty, {std::nullopt, 1800, std::nullopt}),
  };
  CHECK(s.expect == expected);

  const std::string dump = DumpCanonical(s);
  CHECK(Json::parse(dump).at("expect").is_array());
  const LoadResult second = LoadScenarioText(dump);
  CHECK_LOADS(second);
  REQUIRE(second.ok());
  CHECK(*second.scenario == s);
  CHECK(DumpCanonical(*second.scenario) == dump);
}

TEST_CASE("the example of SCENARIO.md and its dump validate against the schema", "[schema]") {
  const testing::MiniSchema schema(
      Json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json"))));
  const Json source = Json::parse(testing::ReadFile(testing::SourcePath(kExamplePath)));
  CHECK(schema.Validate(source).empty());
  CHECK(schema.UndescribedKeys(source).empty());
  const LoadResult r = LoadScenarioFile(testing::SourcePath(kExamplePath));
  REQUIRE(r.ok());
  CHECK(schema.Validate(Json::parse(DumpCanonical(*r.scenario))).empty());
}

TEST_CASE("expect: the object form is a shorthand for metric expectations", "[rules]") {
  Json document = With(BaseScenario(), "/alerts/depth", 100);
  const Json object = Json::parse(R"({
    "visible_duplicates": {"max": 0, "kind": "job", "during": "faults"},
    "lost": {"equals": 0},
    "depth_alert_first_s": {"min": 60, "max": 600}
  })");
  const Json array = Json::parse(R"([
    {"metric": "depth_alert_first_s", "min": 60, "max": 600},
    {"metric": "lost", "equals": 0},
    {"metric": "visible_duplicates", "max": 0, "kind": "job", "during": "faults"}
  ])");
  document["faults"] = Json::parse(R"([{"type": "db_outage", "from_s": 10, "until_s": 20}])");
  const config::Scenario from_object = MustLoad(With(document, "/expect", object));
  CHECK(from_object == MustLoad(With(document, "/expect", array)));
  CHECK(Json::parse(DumpCanonical(from_object)).at("expect").size() == 3);
  CHECK(MustLoad(With(document, "/expect", Json::object())).expect.empty());
}

TEST_CASE("expect: problems of the object form point inside it", "[rules]") {
  auto with = [](const char* text) {
    return Load(With(BaseScenario(), "/expect", Json::parse(text)));
  };
  CHECK_PROBLEM(with(R"({"lost": {"max": "none"}})"), "/expect/lost/max",
                "must be a number (got string \"none\")");
  CHECK_PROBLEM(with(R"({"lost": {"max": 5, "min": 9}})"), "/expect/lost/max",
                "must be >= min = 9 (got 5)");
  CHECK_PROBLEM(with(R"({"lost": {}})"), "/expect/lost", "needs a bound: min, max or equals");
  CHECK_PROBLEM(with(R"({"lost": {"equal": 0}})"), "/expect/lost/equal",
                "unknown key 'equal' for a metric expectation (did you mean 'equals'?)");
  CHECK_PROBLEM(with(R"({"lost": {"metric": "lost", "max": 0}})"), "/expect/lost/metric",
                "unknown key 'metric'");
  CHECK_PROBLEM(with(R"({"lots": {"max": 0}})"), "/expect/lots",
                "unknown metric \"lots\" (did you mean \"lost\"?)");
  CHECK_PROBLEM(with(R"({"dlq_depth": {"max": 0}})"), "/expect/dlq_depth",
                "'always' and 'sometimes' expectations need the array form");
  CHECK_PROBLEM(with(R"({"lost": null})"), "/expect/lost", "must be an object (got null)");
  CHECK_PROBLEM(with(R"({"lost": 0})"), "/expect/lost", "must be an object (got 0)");
  CHECK_PROBLEM(with(R"({"time_to_empty_s": {"max": 1800}})"), "/expect/time_to_empty_s",
                "\"time_to_empty_s\" needs a drain");
  CHECK_PROBLEM(with(R"({"db_timeouts": {"max": 0, "kind": "job"}})"), "/expect/db_timeouts/kind",
                "which is not per kind");
  CHECK_PROBLEM(with(R"({"lost": {"equals": 0, "during": "drains"}})"), "/expect/lost/during",
                "'drains' needs at least one drain");
  // Every member is judged: two mistakes, two problems.
  const LoadResult two = with(R"({"lots": {"max": 0}, "parked": {"max": "x"}})");
  CHECK(two.problems.size() == 2);
}

TEST_CASE("{date} is a built-in placeholder, and a field named date overrides it", "[rules]") {
  const std::string at = "/kinds/job/key_pattern";
  const Json dated = With(BaseScenario(), at, "purge:course-{id}:{date}");
  CHECK_LOADS(Load(dated));
  const Json backlog =
      With(dated, "/backlog", Json::parse(R"([{"where": "dlq", "kind": "job", "count": 5,
                                             "age_s": 90000}])"));
  CHECK_LOADS(Load(backlog));
  const config::Scenario overridden =
      MustLoad(With(dated, "/producers/0/fields/date", "2026-03-01"));
  CHECK(overridden.producers.at(0).fields.at("date") == "2026-03-01");
  CHECK(Json::parse(DumpCanonical(overridden)).at("producers").at(0).at("fields").at("date") ==
        "2026-03-01");
  // {id} and {kind} stay reserved; other placeholders still need fields.
  CHECK_PROBLEM(Load(With(dated, "/producers/0/fields/kind", "x")), "/producers/0/fields/kind",
                "'kind' is built in and cannot be set");
  CHECK_PROBLEM(Load(With(dated, at, "purge:{date}:{day}")), "/producers/0/fields",
                "misses field \"day\"");
}

TEST_CASE("a top-level $schema string is accepted and dropped", "[rules][dump]") {
  const config::Scenario plain = MustLoad(BaseScenario());
  const config::Scenario with_schema = MustLoad(With(BaseScenario(), "/$schema", "./schema.json"));
  CHECK(with_schema == plain);
  const std::string dump = DumpCanonical(with_schema);
  CHECK(dump == DumpCanonical(plain));
  CHECK(dump.find("$schema") == std::string::npos);
  CHECK_PROBLEM(Load(With(BaseScenario(), "/$schema", 7)), "/$schema", "must be a string (got 7)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/$schema", "")), "/$schema", "must not be empty");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/$schemas", "x")), "/$schemas",
                "unknown key '$schemas' (did you mean '$schema'?)");
  const testing::MiniSchema schema(
      Json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json"))));
  CHECK(schema.Validate(With(BaseScenario(), "/$schema", "./schema.json")).empty());
  CHECK_FALSE(schema.Validate(With(BaseScenario(), "/$schema", 7)).empty());
}

TEST_CASE("the schema's $id names the format version it describes", "[rules]") {
  // Editors and validators key schemas by $id; it follows format_version, not the release, so
  // that it only changes when the format does (the schema's description says so).
  const Json schema = Json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json")));
  const int format_version = schema.at("properties").at("format_version").at("const").get<int>();
  CHECK(schema.at("$id") == "https://drainsim.invalid/schema/scenario-format-" +
                                std::to_string(format_version) + ".json");
  CHECK(schema.at("description").get<std::string>().find(schema.at("$id").get<std::string>()) !=
        std::string::npos);
}

}  // namespace
}  // namespace scenario_md_test
}  // namespace drainsim::scenario
