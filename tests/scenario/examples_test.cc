// The example scenarios and the schema: every example loads, round-trips, and validates
// against scenarios/schema.json; the schema describes every key the dump can contain and
// lists exactly the loader's enum values.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "sim/config/enum_names.h"
#include "sim/scenario/load.h"
#include "tests/scenario/mini_schema.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace examples_test {
namespace {

using testing::Json;
using testing::MiniSchema;

MiniSchema LoadSchema() {
  return MiniSchema(Json::parse(testing::ReadFile(testing::SourcePath("scenarios/schema.json"))));
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

TEST_CASE("there are example scenarios, including the two that cover the format", "[examples]") {
  const std::vector<std::string> paths = testing::ExampleScenarioPaths();
  CHECK(paths.size() >= 2);
  auto has = [&](const std::string& name) {
    return std::any_of(paths.begin(), paths.end(),
                       [&](const std::string& p) { return p.ends_with("/" + name); });
  };
  CHECK(has("monthly-rehearsal.json"));
  CHECK(has("full-vocabulary.json"));
}

TEST_CASE("every example loads and round-trips through the canonical dump", "[examples]") {
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    INFO(path);
    const LoadResult first = LoadScenarioFile(path);
    CHECK_LOADS(first);
    if (!first.ok()) continue;
    const std::string dump = DumpCanonical(*first.scenario);
    const LoadResult second = LoadScenarioText(dump);
    CHECK_LOADS(second);
    if (!second.ok()) continue;
    CHECK(*second.scenario == *first.scenario);
    CHECK(DumpCanonical(*second.scenario) == dump);
  }
}

TEST_CASE("every example and its dump validate against the schema", "[examples][schema]") {
  const MiniSchema schema = LoadSchema();
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    INFO(path);
    const Json source = Json::parse(testing::ReadFile(path));
    CHECK(Join(schema.Validate(source)) == "");
    const LoadResult result = LoadScenarioFile(path);
    if (!result.ok()) continue;
    const Json dump = Json::parse(DumpCanonical(*result.scenario));
    CHECK(Join(schema.Validate(dump)) == "");
  }
}

TEST_CASE("the schema describes every key of the canonical dumps", "[examples][schema]") {
  const MiniSchema schema = LoadSchema();
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    INFO(path);
    const LoadResult result = LoadScenarioFile(path);
    if (!result.ok()) continue;
    const Json dump = Json::parse(DumpCanonical(*result.scenario));
    CHECK(Join(schema.UndescribedKeys(dump)) == "");
  }
}

TEST_CASE("the full-vocabulary example uses every fault type, drain strategy and section",
          "[examples]") {
  const LoadResult result = LoadScenarioFile(testing::SourcePath("scenarios/full-vocabulary.json"));
  REQUIRE(result.ok());
  const config::Scenario& s = *result.scenario;
  std::set<config::FaultType> fault_types;
  for (const config::Fault& f : s.faults) fault_types.insert(config::TypeOf(f));
  CHECK(fault_types.size() == config::EnumNames<config::FaultType>().size());
  std::set<config::DrainStrategy> strategies;
  for (const config::Drain& d : s.drains) strategies.insert(d.kind());
  CHECK(strategies.size() == config::EnumNames<config::DrainStrategy>().size());
  std::set<config::ProducerShape> shapes;
  for (const config::Producer& p : s.producers) shapes.insert(p.shape());
  CHECK(shapes.size() == config::EnumNames<config::ProducerShape>().size());
  std::set<config::BacklogWhere> wheres;
  for (const config::BacklogEntry& b : s.backlog) wheres.insert(b.where);
  CHECK(wheres.size() == config::EnumNames<config::BacklogWhere>().size());
  CHECK(s.database.has_value());
  CHECK(s.database->live_traffic.has_value());
  CHECK(s.downstream.has_value());
  CHECK(s.retry.budget.has_value());
  CHECK(s.retry.circuit_breaker.has_value());
  CHECK(s.broker.preset.has_value());
  CHECK(s.alerts.oldest_age.has_value());
  CHECK(s.alerts.depth.has_value());
  CHECK(s.alerts.dlq_depth.has_value());
  bool metric = false, always = false, sometimes = false;
  for (const config::Expectation& e : s.expect) {
    if (std::holds_alternative<config::MetricExpectation>(e)) metric = true;
    if (const auto* p = std::get_if<config::PropertyExpectation>(&e)) {
      (p->quantifier == config::Quantifier::kAlways ? always : sometimes) = true;
    }
  }
  CHECK((metric && always && sometimes));
}

TEST_CASE("the monthly rehearsal uses every section of the format", "[examples]") {
  const std::string path = testing::SourcePath("scenarios/monthly-rehearsal.json");
  const Json source = Json::parse(testing::ReadFile(path));
  for (const char* section : {"format_version", "name", "description", "seed", "run", "kinds",
                              "producers", "backlog", "broker", "workers", "database", "downstream",
                              "retry", "faults", "drains", "alerts", "expect"}) {
    INFO(section);
    CHECK(source.contains(section));
    if (source.contains(section) && source.at(section).is_array()) {
      CHECK_FALSE(source.at(section).empty());
    }
  }
  // The budget and the breaker are left out on purpose: a fleet-wide breaker keeps tripping
  // on the 500 synthetic failures and stalls the whole rehearsal (docs/MODEL.md); the
  // full-vocabulary scenario covers them.
  CHECK(source.at("retry").at("budget").is_null());
  CHECK(source.at("retry").at("circuit_breaker").is_null());
  CHECK_FALSE(source.at("database").at("live_traffic").is_null());
}

template <typename E>
void CheckEnumDef(const MiniSchema& schema, const char* def) {
  INFO(def);
  std::vector<std::string> table;
  std::set<std::string_view> unique;
  for (const auto& entry : config::EnumNames<E>()) {
    table.emplace_back(entry.name);
    unique.insert(entry.name);
    CHECK(config::FromName<E>(entry.name) == entry.value);
    CHECK(config::NameOf(entry.value) == entry.name);
  }
  CHECK(unique.size() == table.size());
  REQUIRE(schema.root().at("$defs").contains(def));
  CHECK(schema.root().at("$defs").at(def).at("enum").get<std::vector<std::string>>() == table);
}

TEST_CASE("the schema's enums are exactly the loader's", "[schema]") {
  const MiniSchema schema = LoadSchema();
  CheckEnumDef<config::Idempotency>(schema, "Idempotency");
  CheckEnumDef<config::ErrorClass>(schema, "ErrorClass");
  CheckEnumDef<config::DlqReason>(schema, "DlqReason");
  CheckEnumDef<config::BacklogWhere>(schema, "BacklogWhere");
  CheckEnumDef<config::BrokerPreset>(schema, "BrokerPreset");
  CheckEnumDef<config::RequeueOnCrash>(schema, "RequeueOnCrash");
  CheckEnumDef<config::OnVisibilityTimeout>(schema, "OnVisibilityTimeout");
  CheckEnumDef<config::ReturnKind>(schema, "ReturnKind");
  CheckEnumDef<config::RequeueWith>(schema, "RequeueWith");
  CheckEnumDef<config::MessageGroupKind>(schema, "MessageGroupKind");
  CheckEnumDef<config::RedriveAttempts>(schema, "RedriveAttempts");
  CheckEnumDef<config::StaleAck>(schema, "StaleAck");
  CheckEnumDef<config::OffsetCommit>(schema, "OffsetCommit");
  CheckEnumDef<config::RetentionFrom>(schema, "RetentionFrom");
  CheckEnumDef<config::RetryAfterFormat>(schema, "RetryAfterFormat");
  CheckEnumDef<config::RetryDelivery>(schema, "RetryDelivery");
  CheckEnumDef<config::BackoffKind>(schema, "BackoffKind");
  CheckEnumDef<config::JitterKind>(schema, "JitterKind");
  CheckEnumDef<config::ClassAction>(schema, "ClassAction");
  CheckEnumDef<config::CrashPoint>(schema, "CrashPoint");
  CheckEnumDef<config::DrainOthers>(schema, "DrainOthers");
  CheckEnumDef<config::During>(schema, "During");
  CheckEnumDef<config::RunMetric>(schema, "RunMetric");
  CheckEnumDef<config::SeriesMetric>(schema, "SeriesMetric");
  CheckEnumDef<config::DistributionKind>(schema, "DistributionKind");
  CheckEnumDef<config::FaultType>(schema, "FaultType");
  CheckEnumDef<config::DrainStrategy>(schema, "DrainStrategy");

  const Json& defs = schema.root().at("$defs");
  for (const auto& entry : config::EnumNames<config::ProducerShape>()) {
    CHECK(defs.at("Producer").at("properties").contains(entry.name));
  }
  for (const auto& entry : config::EnumNames<config::DistributionKind>()) {
    CHECK(defs.at("Distribution").at("properties").contains(entry.name));
  }
  // Each fault type has its own branch whose `type` is that constant.
  std::vector<std::string> fault_consts;
  for (const Json& branch : defs.at("Fault").at("oneOf")) {
    const Json& fault = schema.Resolve(branch.at("$ref").get<std::string>());
    fault_consts.push_back(fault.at("properties").at("type").at("const").get<std::string>());
  }
  CHECK(fault_consts == defs.at("FaultType").at("enum").get<std::vector<std::string>>());
  CHECK(defs.contains("AlwaysExpectation"));
  CHECK(defs.contains("SometimesExpectation"));
}

// Every declared property says what it is and either its default or that it is required.
void CheckDescriptions(const Json& schema, const std::string& path, std::vector<std::string>& bad) {
  if (schema.is_array()) {
    for (size_t i = 0; i < schema.size(); ++i) {
      CheckDescriptions(schema[i], path + "/" + std::to_string(i), bad);
    }
    return;
  }
  if (!schema.is_object()) return;
  for (const auto& [key, value] : schema.items()) {
    if (key == "properties") {
      for (const auto& [name, property] : value.items()) {
        const std::string description = property.value("description", std::string());
        if (description.find("Default") == std::string::npos &&
            description.find("Required") == std::string::npos) {
          bad.push_back(path + "/properties/" + name);
        }
        CheckDescriptions(property, path + "/properties/" + name, bad);
      }
    } else if (key == "oneOf" || key == "anyOf") {
      // Branches that only constrain (required, const) repeat properties described above.
      for (size_t i = 0; i < value.size(); ++i) {
        if (value[i].contains("type") || value[i].contains("$defs")) {
          CheckDescriptions(value[i], path + "/" + key + "/" + std::to_string(i), bad);
        }
      }
    } else {
      CheckDescriptions(value, path + "/" + key, bad);
    }
  }
}

TEST_CASE("every schema property states its default or that it is required", "[schema]") {
  const MiniSchema schema = LoadSchema();
  std::vector<std::string> bad;
  CheckDescriptions(schema.root(), "", bad);
  CHECK(Join(bad) == "");
  CHECK(schema.root().at("required").get<std::vector<std::string>>() ==
        std::vector<std::string>{"format_version", "name", "run", "kinds", "workers"});
}

TEST_CASE("the mini validator rejects what the schema forbids", "[schema]") {
  const MiniSchema schema = LoadSchema();
  const Json base = testing::BaseScenario();
  CHECK(schema.Validate(base).empty());
  CHECK_FALSE(schema.Validate(testing::With(base, "/surprise", 1)).empty());
  CHECK_FALSE(schema.Validate(testing::With(base, "/workers/count", 0)).empty());
  CHECK_FALSE(schema.Validate(testing::With(base, "/broker/requeue_on_crash", "later")).empty());
  CHECK_FALSE(schema.Validate(testing::Without(base, "/format_version")).empty());
  CHECK_FALSE(schema
                  .Validate(testing::With(base, "/faults",
                                          Json::parse(R"([{"type": "db_outage", "from_s": 1}])")))
                  .empty());
  CHECK_FALSE(schema
                  .Validate(testing::With(base, "/kinds/job/handler/cpu_ms",
                                          Json::parse(R"({"constant": 1, "uniform": {}})")))
                  .empty());
}

}  // namespace
}  // namespace examples_test
}  // namespace drainsim::scenario
