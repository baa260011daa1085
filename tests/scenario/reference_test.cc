// docs/SCENARIO-REFERENCE.md is generated from scenarios/schema.json; this keeps them in step.
#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace reference_test {
namespace {

TEST_CASE("the scenario reference lists every field of the schema, nested ones too",
          "[reference]") {
  const auto schema =
      nlohmann::json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json")));
  const std::string doc = testing::ReadFile(testing::SourcePath("docs/SCENARIO-REFERENCE.md"));
  INFO("regenerate with: python3 tools/docs/scenario_reference.py");
  std::function<void(const std::string&, const nlohmann::json&)> check_section;
  // Inline objects under a field have their own section, "Parent.field" ("Parent.field[]" for
  // an array's items): producer schedules, distribution parameters, retry class routes.
  auto check_nested = [&](const std::string& heading, const nlohmann::json& properties) {
    for (const auto& [name, property] : properties.items()) {
      if (property.contains("properties")) {
        check_section(heading + "." + name, property.at("properties"));
      }
      if (property.contains("items") && property.at("items").contains("properties")) {
        check_section(heading + "." + name + "[]", property.at("items").at("properties"));
      }
    }
  };
  check_section = [&](const std::string& heading, const nlohmann::json& properties) {
    const size_t at = doc.find("\n## " + heading + "\n");
    INFO(heading);
    REQUIRE(at != std::string::npos);
    const size_t end = doc.find("\n## ", at + 1);
    const std::string section =
        doc.substr(at, end == std::string::npos ? std::string::npos : end - at);
    for (const auto& [name, property] : properties.items()) {
      INFO(name);
      CHECK(section.find("| `" + name + "` |") != std::string::npos);
      // The description travels with the field (its unit, default and why).
      const std::string description = property.value("description", "");
      CHECK(section.find(description.substr(0, 40)) != std::string::npos);
    }
    check_nested(heading, properties);
  };
  check_section("Scenario (top level)", schema.at("properties"));
  for (const auto& [name, def] : schema.at("$defs").items()) {
    if (def.contains("properties")) check_section(name, def.at("properties"));
  }
}

}  // namespace
}  // namespace reference_test
}  // namespace drainsim::scenario
