// Scenarios edited at JSON pointers and validated again by the real loader: the values of a
// sweep's grid point, of a tune's candidate, or of `compare`'s variants.
//
// Contract:
//  (1) An edit replaces the value at an existing pointer, or adds a member to an existing object
//      (so a default the file leaves out can be varied); it never creates intermediate objects,
//      and never appends to an array ("/-" is refused).
//  (2) Every edited scenario goes through scenario::LoadScenarioText, so a bad value is reported
//      exactly as `drainsim check` reports it ("/drains/0/rate_per_s: must be > 0 (got 0)").
//  (3) Edits are applied in order; the original document is never modified.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"

namespace drainsim::experiments {

struct Edit {
  std::string pointer;  // "/drains/0/rate_per_s"
  nlohmann::json value;
};

// `document` with `edits` applied, or an error naming the pointer ("/drains/7/rate_per_s: no
// such place in the scenario (/drains has 1 element)").
base::Expected<nlohmann::json> ApplyEdits(const nlohmann::json& document,
                                          const std::vector<Edit>& edits);

// Parses `text` as JSON for editing, or the syntax error.
base::Expected<nlohmann::json> ParseDocument(const std::string& text);

// "/drains/0/rate_per_s=120": how an edit is named in messages and reports (the value as
// reports::ValueText prints it).
std::string EditText(const Edit& edit);

}  // namespace drainsim::experiments
