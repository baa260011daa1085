// The fault part of scenarios/schema.json is generated from the fault descriptors
// (tools/docs/fault_schema.cc); this keeps the committed schema in step with them.
#include "tools/docs/fault_schema.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "sim/config/fault_types.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace fault_schema_test {
namespace {

TEST_CASE("the schema's fault part is the one the fault descriptors generate", "[schema][faults]") {
  const auto schema =
      nlohmann::json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json")));
  const auto& defs = schema.at("$defs");
  // Compared as values: key order inside a def is the generator's, not a meaning.
  const auto generated = nlohmann::json::parse(tools::FaultSchemaDefs().dump());
  INFO("regenerate with: cmake --build build --target fault_schema && tools/docs/regenerate");
  REQUIRE(generated.size() == std::variant_size_v<config::Fault> + 2);
  for (const auto& [name, def] : generated.items()) {
    INFO(name);
    REQUIRE(defs.contains(name));
    CHECK(defs.at(name) == def);
  }
  // No hand-written def of a fault type that no longer exists.
  for (const auto& [name, def] : defs.items()) {
    const bool fault_def = name.size() > 5 && name.ends_with("Fault");
    if (fault_def) CHECK(generated.contains(name));
  }
}

TEST_CASE("every field of a fault table has a schema description", "[schema][faults]") {
  const auto generated = nlohmann::json::parse(tools::FaultSchemaDefs().dump());
  for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
    const std::string name = tools::FaultDefName(d.name);
    INFO(name);
    const auto& def = generated.at(name);
    CHECK(def.at("description").get<std::string>().size() > 10);
    for (const auto& [key, property] : def.at("properties").items()) {
      INFO(key);
      const std::string description = property.at("description").get<std::string>();
      // A unit, range or default: every text ends as a sentence, never an empty Doc().
      CHECK(description.size() > 10);
      CHECK(description.back() == '.');
    }
  }
  CHECK(tools::FaultDefName("db_slowdown") == "DbSlowdownFault");
  CHECK(tools::FaultDefName("errors") == "ErrorsFault");
}

}  // namespace
}  // namespace fault_schema_test
}  // namespace drainsim::scenario
