// Broker presets as defaults by JSON pointer (docs/PRESETS.md, "How a preset applies").
//
// Contract:
//  (1) PresetDefaults(p, version) lists the defaults of preset p, one per pointer, each with its
//      value as JSON text and a one-line source. Only rabbitmq-quorum depends on `version`
//      ("MAJOR.MINOR"; an unreadable one counts as the default, kRabbitmqDefaultVersion).
//  (2) ApplyPresetDefaults inserts, into a parsed scenario whose /broker/preset names a preset,
//      every default whose pointer the document does not give (an explicit null counts as
//      given), creating the parent objects /broker, /retry, /retry/classes as needed. It never
//      overwrites a value and never touches a parent that is present but not an object (the
//      readers report that). Variant-shaped objects (/retry/backoff, /broker/redelivery_backoff,
//      /retry/classes/<class>) are single entries, so they are inserted whole or not at all.
//  (3) Every default, inserted into a minimal scenario, loads and satisfies the preset's hard
//      limits (presets_test.cc).
//
// Thread-safety: constant tables; safe everywhere.
#pragma once

#include <span>
#include <string_view>

#include "sim/config/enums.h"
#include "sim/scenario/json_reader.h"

namespace drainsim::scenario {

struct PresetDefault {
  std::string_view pointer;  // RFC 6901, e.g. "/broker/visibility_timeout_s"
  std::string_view value;    // JSON text, e.g. "30" or "{\"kind\":\"sidekiq\"}"
  std::string_view source;   // where the broker documents it
};

inline constexpr std::string_view kRabbitmqDefaultVersion = "4.3";

std::span<const PresetDefault> PresetDefaults(config::BrokerPreset preset,
                                              std::string_view version = kRabbitmqDefaultVersion);

// "MAJOR.MINOR" with 1..4 digits each (no sign, no leading '+'); false otherwise.
bool ParseBrokerVersion(std::string_view text, int* major, int* minor);

namespace internal {

// See (2). `document` is the whole parsed scenario.
void ApplyPresetDefaults(Json& document);

}  // namespace internal

}  // namespace drainsim::scenario
