// The pieces of OTLP/JSON (the OpenTelemetry protocol's JSON encoding) that otlp-traces.json and
// otlp-metrics.json (reports/otlp_traces.h, reports/otlp_metrics.h) are made of: attribute
// lists, time stamps, ids. Only the encoding lives here; what the files say is theirs.
//
// Encoding (opentelemetry-proto, docs/specification.md "JSON Protobuf Encoding"): field names
// in lowerCamelCase, 64-bit integers (times, intValue, asInt) as decimal strings, enums as
// integers, trace and span ids as lowercase hex (32 and 16 digits), never base64.
//
// Contract:
//  (1) Deterministic: members in a fixed order; the same values give the same bytes.
//  (2) Simulated time maps to unix nanoseconds from a fixed epoch, kOtlpEpochUnixNanos: the
//      wall clock is never read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/model/observer.h"  // engine::Instant, as the model hands it out

namespace drainsim::reports {

// Simulated time 0 is 2026-01-01T00:00:00Z. A constant, not 0 (1970), so that Jaeger, Tempo
// and Grafana, which hide or refuse spans decades old, show the run; documented in
// docs/TELEMETRY.md.
inline constexpr int64_t kOtlpEpochUnixSeconds = 1'767'225'600;
inline constexpr int64_t kOtlpEpochUnixNanos = kOtlpEpochUnixSeconds * 1'000'000'000;

// `at` (simulated) as unix nanoseconds, quoted: "\"1767225600000001000\"".
// REQUIRES: at is not Never().
std::string OtlpTime(engine::Instant at);

// A KeyValue list ("attributes": [...]): each member {"key": K, "value": {"stringValue": V}}
// (intValue, doubleValue, boolValue), in the order added.
class OtlpAttributes {
 public:
  OtlpAttributes& Str(std::string_view key, std::string_view value);
  OtlpAttributes& Int(std::string_view key, int64_t value);
  OtlpAttributes& Double(std::string_view key, double value);  // through JsonNumber()
  OtlpAttributes& Bool(std::string_view key, bool value);
  bool empty() const { return body_.empty(); }
  std::string Text() const { return "[" + body_ + "]"; }

 private:
  OtlpAttributes& Add(std::string_view key, std::string_view value_json);
  std::string body_;
};

// The resource and scope both files share: service.name "drainsim", the scenario, seed and
// fingerprint; `extra` attributes (what was left out) are appended to the resource's.
struct OtlpOrigin {
  std::string scenario_name;
  std::string scenario_path;
  std::string scenario_hash;
  std::string drainsim_version;
  uint64_t seed = 0;
  uint64_t fingerprint = 0;
};
std::string OtlpResource(const OtlpOrigin& origin, const OtlpAttributes& extra);
std::string OtlpScope(const OtlpOrigin& origin);

}  // namespace drainsim::reports
