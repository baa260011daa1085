// The fault part of scenarios/schema.json, made from the fault descriptors (sim/config/faults.h:
// each type's kInfo and field table): the `<Type>Fault` defs, the `FaultType` enum and the
// `Fault` oneOf. tools/docs/regenerate writes it into the schema; tests/scenario/
// fault_schema_test.cc fails when the committed schema differs.
//
// Invariants:
//  (1) One def per fault type, named from its `type` word in CamelCase plus "Fault"
//      ("db_slowdown" -> "DbSlowdownFault"), in FaultType's order; then "FaultType", "Fault".
//  (2) A def's `required` lists "type" then the table's required keys in table order; its
//      properties are "type", the table's keys in table order with the window's from_s and
//      until_s last, then extras a type declares beside its table (ErrorsFault::kFittedDoc).
//
// Thread-safety: pure.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace drainsim::tools {

// The def name of a fault type word: "db_slowdown" -> "DbSlowdownFault".
std::string FaultDefName(std::string_view type_word);

// {"<Type>Fault": ..., ..., "FaultType": ..., "Fault": ...} in invariant (1)'s order.
nlohmann::ordered_json FaultSchemaDefs();

}  // namespace drainsim::tools
