// The fault descriptors (sim/config/fault_types.h) against the loader and each other: every
// fault type has one, its name is the JSON type, the section it needs is the one the loader
// asks for, its shape is what TimingOf gives, its kind is what KindOf finds, and the limits are
// the loader's.
#include "sim/config/fault_types.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "sim/config/enum_names.h"
#include "sim/scenario/load.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace fault_types_test {
namespace {

using config::FaultShape;
using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;
using testing::Without;

// A valid value of a field that must be given, from its table: the kind "job", an instant or
// a window at `second`, the type's default enum, or a number at an edge of its limit.
template <typename Field>
Json SampleValue(const Field& field, double second) {
  using config::FieldKind;
  if constexpr (std::is_enum_v<typename Field::Member>) {
    return std::string(config::NameOf(typename Field::Fault{}.*field.member));
  } else {
    if (field.kind == FieldKind::kKind) return "job";
    if (field.kind == FieldKind::kInstant) return second;
    if (field.kind == FieldKind::kFixAt) return second + 5;
    const config::Limit& limit = field.limit;
    double value = std::isfinite(limit.min) ? limit.min + 1 : 1.0;
    if (config::Inside(limit, limit.min)) {
      value = limit.min;
    } else if (std::isfinite(limit.max)) {
      value = limit.max;
    }
    if (field.kind == FieldKind::kCount) return static_cast<int64_t>(value);
    return value;
  }
}

// A valid fault of type F made from its table alone: every required field, the first of an
// "exactly one of" pair, a kind wherever it has one, and its instants and window at `second`
// (so that each sample starts at its own second and TimingOf can be checked against it).
template <typename F>
Json TableSample(double second) {
  Json fault = {{"type", std::string(F::kInfo.name)}};
  std::string_view skip;  // the second of a pair
  config::ForEachField<F>([&](const auto& field) {
    using config::FieldKind;
    const bool timed = field.kind == FieldKind::kInstant || field.kind == FieldKind::kWindow;
    const bool wanted =
        field.key != skip && (field.presence == config::Presence::kRequired ||
                              !field.one_of.empty() || field.kind == FieldKind::kKind || timed);
    if (!field.one_of.empty()) skip = field.one_of;
    if (!wanted) return;
    if (field.kind == FieldKind::kWindow) {
      fault["from_s"] = second;
      fault["until_s"] = second + 5;
    } else {
      fault[std::string(field.key)] = SampleValue(field, second);
    }
  });
  return fault;
}

// Every type's TableSample, its window at 1000 s plus 10 s per place in the variant.
template <typename... Ts>
void AddTableSamples(const std::variant<Ts...>*, std::map<std::string, Json>& samples) {
  double second = 1000;
  ((samples[std::string(Ts::kInfo.name)] = TableSample<Ts>(second), second += 10), ...);
}

// One valid fault of each type for BaseScenario (run of 3600 s, kind "job"): made from each
// type's table (windows from 1000 s, 10 s apart), so a new type needs no sample written here;
// the few that tests below read values from are written out.
const std::map<std::string, Json>& Samples() {
  static const auto* samples = [] {
    auto* made = new std::map<std::string, Json>;
    AddTableSamples(static_cast<config::Fault*>(nullptr), *made);
    // Read by the timing, legend and dump tests below.
    (*made)["bug"] = {
        {"type", "bug"}, {"kind", "job"}, {"fraction", 0.5}, {"from_s", 50}, {"fixed_at_s", 60}};
    (*made)["db_slowdown"] = {
        {"type", "db_slowdown"}, {"factor", 25}, {"from_s", 70}, {"until_s", 80}};
    (*made)["worker_crash"] = {
        {"type", "worker_crash"}, {"rate_per_h", 10}, {"from_s", 170}, {"until_s", 180}};
    // recovery_s set: the dump writes it only when set (the dump test counts every key).
    (*made)["broker_restart"] = {
        {"type", "broker_restart"}, {"at_s", 210}, {"downtime_s", 5}, {"recovery_s", 2}};
    return made;
  }();
  return *samples;
}

config::Fault LoadOne(const Json& fault) {
  const config::Scenario s = MustLoad(With(BaseScenario(), "/faults", Json::array({fault})));
  REQUIRE(s.faults.size() == 1);
  return s.faults[0];
}

TEST_CASE("every fault type has one descriptor, named as in the scenario format", "[faults]") {
  const auto descriptors = config::FaultDescriptors();
  REQUIRE(descriptors.size() == std::variant_size_v<config::Fault>);
  for (size_t i = 0; i < descriptors.size(); ++i) {
    const auto type = static_cast<config::FaultType>(i);
    INFO(config::NameOf(type));
    CHECK(descriptors[i].type == type);
    CHECK(&config::DescriptorOf(type) == &descriptors[i]);
    CHECK(descriptors[i].name == config::NameOf(type));
    CHECK(descriptors[i].what.size() > 10);
    // A sample for each type (made from its table): it loads as its type.
    REQUIRE(Samples().count(std::string(descriptors[i].name)) == 1);
    CHECK(config::TypeOf(LoadOne(Samples().at(std::string(descriptors[i].name)))) == type);
  }
  CHECK(Samples().size() == descriptors.size());
}

TEST_CASE("a descriptor's shape, kind and legend agree with the fault as loaded", "[faults]") {
  const auto until = engine::Instant::Zero() + engine::Duration::Seconds(3600);
  for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
    INFO(d.name);
    const config::Fault fault = LoadOne(Samples().at(std::string(d.name)));
    REQUIRE(config::TypeOf(fault) == d.type);
    const config::FaultTiming timing = config::TimingOf(fault, until);
    CHECK(timing.shape == d.shape);
    CHECK((config::WindowOf(fault) != nullptr) == (d.shape == FaultShape::kWindow));
    CHECK((config::KindOf(fault) != nullptr) == d.per_kind);
    if (config::KindOf(fault) != nullptr) CHECK(*config::KindOf(fault) == "job");
    const bool outage = d.type == config::kTypeOf<config::DbOutageFault> ||
                        d.type == config::kTypeOf<config::DownstreamOutageFault>;
    CHECK(config::DetailOf(fault).empty() == outage);
    // The samples' windows start at distinct seconds; TimingOf finds each start.
    CHECK(timing.from.micros() % 1'000'000 == 0);
    CHECK(timing.from > engine::Instant::Zero());
  }
}

TEST_CASE("fault timing: windows, onsets and instants", "[faults]") {
  const auto until = engine::Instant::Zero() + engine::Duration::Seconds(3600);
  const auto at_s = [](double s) {
    return engine::Instant::Zero() + engine::Duration::Micros(static_cast<int64_t>(s * 1e6));
  };
  SECTION("a window is [from_s, until_s)") {
    const auto t = config::TimingOf(LoadOne(Samples().at("db_slowdown")), until);
    CHECK(t.from == at_s(70));
    CHECK(t.until == at_s(80));
  }
  SECTION("poison starts and never ends; a bug ends at its fix, or with the run") {
    CHECK_FALSE(config::TimingOf(LoadOne(Samples().at("poison")), until).until.has_value());
    CHECK(config::TimingOf(LoadOne(Samples().at("bug")), until).until == at_s(60));
    const Json never = Without(Samples().at("bug"), "/fixed_at_s");
    CHECK(config::TimingOf(LoadOne(never), until).until == until);
  }
  SECTION("a broker restart is down until downtime + recovery, or is only an instant") {
    const auto t = config::TimingOf(LoadOne(Samples().at("broker_restart")), until);
    CHECK(t.shape == FaultShape::kInstant);
    CHECK(t.from == at_s(210));
    CHECK(t.until == at_s(217));
    const Json instant = {{"type", "broker_restart"}, {"at_s", 5}};
    CHECK_FALSE(config::TimingOf(LoadOne(instant), until).until.has_value());
  }
  SECTION("a worker crash at an instant is an instant; at a rate, a window") {
    const Json at = {{"type", "worker_crash"}, {"at_s", 5}, {"count", 2}};
    const auto t = config::TimingOf(LoadOne(at), until);
    CHECK(t.shape == FaultShape::kInstant);
    CHECK(t.from == at_s(5));
    CHECK_FALSE(t.until.has_value());
    CHECK(config::WindowOf(LoadOne(at)) == nullptr);  // its window field is unused
    CHECK(config::DetailOf(LoadOne(at)) == "anywhere, 2 at once");
    CHECK(config::DetailOf(LoadOne(Samples().at("worker_crash"))) == "anywhere, 10/h");
  }
}

TEST_CASE("the section a fault needs is the one the loader asks for", "[faults]") {
  for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
    INFO(d.name);
    const Json faults = Json::array({Samples().at(std::string(d.name))});
    for (const char* section : {"database", "downstream"}) {
      const bool needed =
          (d.needs == config::FaultNeeds::kDatabase && section == std::string("database")) ||
          (d.needs == config::FaultNeeds::kDownstream && section == std::string("downstream"));
      Json document = Without(With(BaseScenario(), "/faults", faults), std::string("/") + section);
      if (std::string(section) == "database") {
        // The base's kind uses the database; without one it must not.
        document["kinds"]["job"]["handler"].erase("db_ops");
        document["kinds"]["job"]["handler"].erase("db_op_ms");
        document["kinds"]["job"]["idempotency"] = "none";
      } else {
        document["kinds"]["job"]["handler"].erase("downstream_calls");
      }
      const LoadResult result = Load(document);
      INFO(section << "\n" << testing::Describe(result));
      if (needed) {
        CHECK_PROBLEM(result, "/faults/0/type",
                      "needs a '" + std::string(section) + "' section, and the scenario has none");
      } else {
        CHECK(result.ok());
      }
    }
  }
}

// The keys the loader declares for a fault of type F, in its table's order: "type" first, a
// window as from_s and until_s, errors' `fitted` provenance last.
template <typename F>
std::vector<std::string> TableKeys() {
  std::vector<std::string> keys = {"type"};
  config::ForEachField<F>([&](const auto& field) {
    if (field.kind == config::FieldKind::kWindow) {
      keys.insert(keys.end(), {"from_s", "until_s"});
    } else {
      keys.emplace_back(field.key);
    }
  });
  if constexpr (std::is_same_v<F, config::ErrorsFault>) keys.emplace_back("fitted");
  return keys;
}

template <size_t... I>
std::vector<std::string> TableKeysOf(config::FaultType type, std::index_sequence<I...>) {
  using Keys = std::vector<std::string> (*)();
  static constexpr Keys kKeys[] = {&TableKeys<std::variant_alternative_t<I, config::Fault>>...};
  return kKeys[static_cast<size_t>(type)]();
}

std::vector<std::string> TableKeysOf(config::FaultType type) {
  return TableKeysOf(type, std::make_index_sequence<std::variant_size_v<config::Fault>>());
}

template <typename... Ts>
constexpr bool EveryTypeHasATable(const std::variant<Ts...>*) {
  return (config::kHasFieldTable<Ts> && ...);
}

TEST_CASE("every fault type has a field table, which the loader and the dump follow", "[faults]") {
  // faults.h static_asserts the same; this names the type that lacks one.
  CHECK(EveryTypeHasATable(static_cast<config::Fault*>(nullptr)));
  for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
    INFO(d.name);
    const std::vector<std::string> keys = TableKeysOf(d.type);
    // The loader declares exactly the table's keys, in its order (its "allowed keys").
    const std::string unknown = "zzzzzzzzzzzzzzzzzzzz";
    const Json bad = With(Samples().at(std::string(d.name)), "/" + unknown, 1);
    std::string allowed;
    for (const std::string& key : keys) allowed += (allowed.empty() ? "" : ", ") + key;
    CHECK_PROBLEM(Load(With(BaseScenario(), "/faults", Json::array({bad}))), "/faults/0/" + unknown,
                  "unknown key '" + unknown + "' for type '" + std::string(d.name) +
                      "'; allowed keys: " + allowed);
    // The dump writes the table's keys and no others (a worker crash those of its form).
    const Json dumped =
        Json::parse(DumpCanonical(MustLoad(With(BaseScenario(), "/faults",
                                                Json::array({Samples().at(std::string(d.name))})))))
            .at("faults")
            .at(0);
    for (const auto& [key, value] : dumped.items()) {
      INFO(key);
      CHECK(std::find(keys.begin(), keys.end(), key) != keys.end());
    }
    if (d.type != config::kTypeOf<config::WorkerCrashFault>) {
      // Every key but errors' provenance (written apart) and broker_restart's recovery_s
      // (written only when set, and set in the sample).
      CHECK(dumped.size() + (d.type == config::kTypeOf<config::ErrorsFault> ? 1 : 0) ==
            keys.size());
    }
  }
}

TEST_CASE("the loader's fault limits are the descriptors' limits", "[faults]") {
  using Limits = config::FaultLimits;
  const auto check_edge = [](Json fault, const std::string& pointer, double at_limit,
                             double beyond) {
    INFO(fault.dump() << " " << pointer);
    CHECK_LOADS(
        Load(With(BaseScenario(), "/faults", Json::array({With(fault, pointer, at_limit)}))));
    CHECK_PROBLEM(
        Load(With(BaseScenario(), "/faults", Json::array({With(fault, pointer, beyond)}))),
        "/faults/0" + pointer, "must be");
  };
  check_edge(Samples().at("db_slowdown"), "/factor", Limits::kSlowdownFactorMax,
             Limits::kSlowdownFactorMax + 1);
  check_edge(Samples().at("db_slowdown"), "/factor", Limits::kSlowdownFactorMin, 0.5);
  check_edge(Samples().at("db_connections"), "/connections",
             static_cast<double>(Limits::kConnectionsMax),
             static_cast<double>(Limits::kConnectionsMax) + 1);
  check_edge(Samples().at("worker_crash"), "/rate_per_h", Limits::kCrashRatePerHMax,
             Limits::kCrashRatePerHMax * 2);
  check_edge(Samples().at("poison"), "/fail_after_ms", Limits::kFailAfterMsMax,
             Limits::kFailAfterMsMax + 1);
  check_edge(Samples().at("broker_restart"), "/recovery_s", Limits::kDowntimeSMax,
             Limits::kDowntimeSMax + 1);
  check_edge(Samples().at("synthetic_failures"), "/count", Limits::kCountMax,
             Limits::kCountMax + 1);
  check_edge(Samples().at("downstream_rate_limit"), "/burst", Limits::kBurstMax,
             Limits::kBurstMax + 1);
}

}  // namespace
}  // namespace fault_types_test
}  // namespace drainsim::scenario
