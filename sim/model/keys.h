// Idempotency keys derived from the work, as the seed insists: "purge:course-4812:2026-03-01",
// never a random id, so that every delivery of the same work carries the same key.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/scenario/scenario_workload.h"

namespace drainsim::model {

// Fills `pattern`'s placeholders: {id} with `id`, {kind} with `kind_name`, any other {name}
// from `fields`. REQUIRES: the pattern is one the loader accepted for this kind and these
// fields (every placeholder is satisfiable); an unknown placeholder fails a check.
std::string RenderKey(std::string_view pattern, uint64_t id, std::string_view kind_name,
                      const scenario::Fields& fields);

}  // namespace drainsim::model
