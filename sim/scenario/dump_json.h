// Building the canonical JSON of a scenario, section by section. Internal to sim/scenario.
//
// Contract: for every value v of a loaded scenario, reading the JSON built here gives back v
// exactly: durations are written as the decimal seconds (or milliseconds) that round to the
// same microsecond, doubles in nlohmann's shortest round-trip form, integral doubles as
// integers. Optional fields are written as null when empty, so that the dump shows every
// field of the vocabulary (within the chosen variant).
#pragma once

#include <optional>

#include "sim/config/config.h"
#include "sim/scenario/json_reader.h"

namespace drainsim::scenario::internal {

Json NumberJson(double value);
Json SecondsJson(engine::Duration span);
Json SecondsJson(engine::Instant instant);
Json MillisJson(engine::Duration span);
Json DistributionJson(const config::DistributionSpec& spec);
// `drainsim fit`'s provenance (sim/config/fitted.h) as it was read.
Json FittedJson(const config::Fitted& fitted);

template <typename T, typename F>
Json OrNull(const std::optional<T>& value, F to_json) {
  if (!value) return nullptr;
  return to_json(*value);
}

template <typename E>
Json EnumJson(E value) {
  return std::string(config::NameOf(value));
}

// dump_policy.cc
Json BackoffJson(const config::Backoff& backoff);
Json RetryJson(const config::RetryPolicy& retry);
Json FaultJson(const config::Fault& fault);
Json DrainJson(const config::Drain& drain);
Json ExpectationJson(const config::Expectation& expectation);

}  // namespace drainsim::scenario::internal
