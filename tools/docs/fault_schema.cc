#include "tools/docs/fault_schema.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>

#include "sim/config/enum_names.h"
#include "sim/config/enums.h"
#include "sim/config/fault_field.h"
#include "sim/config/fault_types.h"
#include "sim/config/faults.h"
#include "sim/config/fitted.h"
#include "sim/config/workload.h"

namespace drainsim::tools {

namespace {

using config::FieldKind;
using config::Presence;
using Json = nlohmann::ordered_json;

// The schema's texts for a window nobody described otherwise (kWindow fields without a Doc).
constexpr std::string_view kFromDoc =
    "Start of the window, in seconds from the start of the run; at least 0 and before "
    "run.until_s.";
constexpr std::string_view kUntilDoc =
    "End of the window (exclusive), in seconds from the start of the run; after from_s and at "
    "most run.until_s.";

// The $defs name of an enum a kEnum field holds; a new enum type adds a line here.
template <typename E>
constexpr std::string_view EnumDefName() {
  if constexpr (std::is_same_v<E, config::ErrorClass>) {
    return "ErrorClass";
  } else {
    static_assert(std::is_same_v<E, config::CrashPoint>, "name the enum's schema def here");
    return "CrashPoint";
  }
}

// Integral limits are written as integers, as a person would ("maximum": 1000).
Json Number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    return static_cast<int64_t>(value);
  }
  return value;
}

template <typename M>
struct Unwrap {
  using type = M;
};
template <typename M>
struct Unwrap<std::optional<M>> {
  using type = M;
};

Json TypeWord(FieldKind kind, Presence presence) {
  const char* word = kind == FieldKind::kKind    ? "string"
                     : kind == FieldKind::kCount ? "integer"
                                                 : "number";
  if (presence == Presence::kNullable) return Json::array({word, "null"});
  return word;
}

// One key's property: its type (or $ref), description, then its limits.
template <typename Field>
Json Property(const Field& field) {
  using F = typename Field::Fault;
  using Value = typename Unwrap<typename Field::Member>::type;
  Json p;
  std::string doc(field.doc);
  if constexpr (std::is_enum_v<Value>) {
    p["$ref"] = "#/$defs/" + std::string(EnumDefName<Value>());
    doc += " Default: \"" + std::string(config::NameOf(F{}.*field.member)) + "\".";
  } else {
    p["type"] = TypeWord(field.kind, field.presence);
  }
  p["description"] = doc;
  if (field.kind == FieldKind::kKind) {
    p["minLength"] = 1;
    p["maxLength"] = config::kNameBytesMax;
  }
  if (field.kind == FieldKind::kInstant) p["minimum"] = 0;
  if (std::isfinite(field.limit.min)) {
    p[field.limit.min_open ? "exclusiveMinimum" : "minimum"] = Number(field.limit.min);
  }
  if (std::isfinite(field.limit.max)) {
    p[field.limit.max_open ? "exclusiveMaximum" : "maximum"] = Number(field.limit.max);
  }
  return p;
}

// from_s and until_s of a kWindow field.
template <typename Field>
void AddWindow(const Field& field, Json& properties) {
  const bool required = field.presence == Presence::kRequired;
  const auto text = [&](std::string_view doc, std::string_view usual, std::string_view or_else) {
    if (!doc.empty()) return std::string(doc);
    return std::string(usual) + (required ? " Required." : std::string(or_else));
  };
  properties["from_s"] = {
      {"type", "number"},
      {"description", text(field.doc, kFromDoc, " Default: 0 (the start of the run).")},
      {"minimum", 0}};
  properties["until_s"] = {{"type", "number"},
                           {"description", text(field.doc_until, kUntilDoc,
                                                " Default: run.until_s (the end of the run).")},
                           {"exclusiveMinimum", 0}};
}

// The oneOf of an "exactly one of" pair: each alternative requires its key, as a value.
template <typename Field>
Json Alternative(const Field& field) {
  return {{"required", Json::array({field.key})},
          {"properties", {{field.key, {{"type", TypeWord(field.kind, Presence::kRequired)}}}}}};
}

template <typename F>
Json FaultDef() {
  const config::FaultInfo& info = F::kInfo;
  Json required = Json::array({"type"});
  Json properties;
  properties["type"] = {{"const", info.name}, {"description", "The fault type. Required."}};
  Json windows = Json::object();
  Json one_of = Json::array();
  std::string_view pair_second;
  config::ForEachField<F>([&](const auto& field) {
    if (field.presence == Presence::kRequired) {
      if (field.kind == FieldKind::kWindow) {
        required.push_back("from_s");
        required.push_back("until_s");
      } else {
        required.push_back(field.key);
      }
    }
    if (field.kind == FieldKind::kWindow) {
      AddWindow(field, windows);
    } else {
      properties[std::string(field.key)] = Property(field);
    }
    if (!field.one_of.empty()) pair_second = field.one_of;
    if (!field.one_of.empty() || field.key == pair_second) one_of.push_back(Alternative(field));
  });
  for (auto& [key, value] : windows.items()) properties[key] = value;
  if constexpr (requires { F::kFittedDoc; }) {
    properties["fitted"] = {{"$ref", "#/$defs/Fitted"}, {"description", F::kFittedDoc}};
  }
  if constexpr (std::is_same_v<F, config::ErrorsFault>) {
    properties["fail_after_fitted"] = {{"$ref", "#/$defs/Fitted"},
                                       {"description", config::kFailAfterFittedDoc}};
  }
  Json def = {{"type", "object"},
              {"description", info.description},
              {"additionalProperties", false},
              {"required", required},
              {"properties", properties}};
  if (!one_of.empty()) def["oneOf"] = one_of;
  return def;
}

template <typename... Ts>
void AddFaultDefs(const std::variant<Ts...>*, Json& defs) {
  ((defs[FaultDefName(Ts::kInfo.name)] = FaultDef<Ts>()), ...);
}

}  // namespace

std::string FaultDefName(std::string_view type_word) {
  std::string name;
  bool upper = true;
  for (char c : type_word) {
    if (c == '_') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name + "Fault";
}

Json FaultSchemaDefs() {
  Json defs = Json::object();
  AddFaultDefs(static_cast<config::Fault*>(nullptr), defs);
  Json words = Json::array();
  Json refs = Json::array();
  for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
    words.push_back(d.name);
    refs.push_back({{"$ref", "#/$defs/" + FaultDefName(d.name)}});
  }
  defs["FaultType"] = {{"type", "string"}, {"enum", words}, {"description", "Fault types."}};
  defs["Fault"] = {{"description", "One injected fault; its type picks the fields."},
                   {"oneOf", refs}};
  return defs;
}

}  // namespace drainsim::tools
