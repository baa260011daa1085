// Broker presets as defaults by JSON pointer (docs/PRESETS.md, "How a preset applies").
//
// Contract:
//  (1) PresetDefaults(p, version) lists the defaults of preset p, one per pointer, each with its
//      value as JSON text and a one-line source. Only rabbitmq-quorum and sidekiq depend on
//      `version` ("MAJOR.MINOR"; an empty or unreadable one counts as the preset's default,
//      DefaultBrokerVersion(p)); nats-jetstream and kafka-share have a version but one table for
//      all they accept.
//  (2) ApplyPresetDefaults inserts, into a parsed scenario whose /broker/preset names a preset,
//      every default whose pointer the document does not give (an explicit null counts as
//      given), creating the parent objects /broker, /retry, /retry/classes as needed. It never
//      overwrites a value and never touches a parent that is present but not an object (the
//      readers report that). Variant-shaped objects (/retry/backoff, /broker/redelivery_backoff,
//      /retry/classes/<class>) are single entries, so they are inserted whole or not at all.
//      One exception, so that a version's formula reaches a backoff the scenario wrote itself:
//      with preset sidekiq, a sidekiq backoff at /retry/backoff or /retry/classes/<class>/backoff
//      that gives no random_term gets the version's, and a backoff of another kind there that
//      gives no jitter gets {"kind": "sidekiq", "random_term": the version's} (Sidekiq adds its
//      random term to a custom sidekiq_retry_in delay too).
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
// Sidekiq 8.1 is the current major's release line (v8.1.7, docs/PRESETS-AUDIT.md section 2).
inline constexpr std::string_view kSidekiqDefaultVersion = "8.1";
// NATS 2.14 is the current release line (v2.14.5, docs/PRESETS-AUDIT.md section 4).
inline constexpr std::string_view kNatsDefaultVersion = "2.14";
// Kafka 4.2 is the first release with production-ready share groups (KIP-932; docs/PRESETS.md).
inline constexpr std::string_view kKafkaShareDefaultVersion = "4.2";
// Kafka consumer groups: the same 4.2 (docs/PRESETS.md); every rule modelled holds from 3.0.
inline constexpr std::string_view kKafkaDefaultVersion = "4.2";
// Celery 5.6 (v5.6.3, with kombu v5.6.2: docs/PRESETS-AUDIT.md section 3).
inline constexpr std::string_view kCeleryDefaultVersion = "5.6";
// BullMQ 5.81 (v5.81.3: docs/PRESETS-AUDIT.md section 9).
inline constexpr std::string_view kBullmqDefaultVersion = "5.81";

// The version a preset assumes when broker.version is not given; empty for a managed service
// (sqs, pubsub, azure-service-bus), which has no version to choose: broker.version is then
// refused, and its rules are its documentation as read on the dates docs/PRESETS.md gives.
std::string_view DefaultBrokerVersion(config::BrokerPreset preset);

std::span<const PresetDefault> PresetDefaults(config::BrokerPreset preset,
                                              std::string_view version = {});

// "MAJOR.MINOR" with 1..4 digits each (no sign, no leading '+'); false otherwise.
bool ParseBrokerVersion(std::string_view text, int* major, int* minor);

namespace internal {

// See (2). `document` is the whole parsed scenario.
void ApplyPresetDefaults(Json& document);

}  // namespace internal

}  // namespace drainsim::scenario
