#include "reports/otlp_json.h"

#include "reports/metrics.h"
#include "reports/trace_events.h"
#include "sim/base/check.h"

namespace drainsim::reports {

std::string OtlpTime(engine::Instant at) {
  DRAINSIM_CHECK(at != engine::Instant::Never());
  return "\"" + std::to_string(kOtlpEpochUnixNanos + at.micros() * 1000) + "\"";
}

OtlpAttributes& OtlpAttributes::Add(std::string_view key, std::string_view value_json) {
  if (!body_.empty()) body_ += ',';
  body_ += "{\"key\":";
  body_ += JsonQuote(key);
  body_ += ",\"value\":";
  body_ += value_json;
  body_ += '}';
  return *this;
}

OtlpAttributes& OtlpAttributes::Str(std::string_view key, std::string_view value) {
  return Add(key, "{\"stringValue\":" + JsonQuote(value) + "}");
}

OtlpAttributes& OtlpAttributes::Int(std::string_view key, int64_t value) {
  return Add(key, "{\"intValue\":\"" + std::to_string(value) + "\"}");
}

OtlpAttributes& OtlpAttributes::Double(std::string_view key, double value) {
  return Add(key, "{\"doubleValue\":" + JsonNumber(value) + "}");
}

OtlpAttributes& OtlpAttributes::Bool(std::string_view key, bool value) {
  return Add(key, std::string("{\"boolValue\":") + (value ? "true" : "false") + "}");
}

std::string OtlpResource(const OtlpOrigin& origin, const OtlpAttributes& extra) {
  OtlpAttributes attributes;
  attributes.Str("service.name", "drainsim")
      .Str("drainsim.scenario.name", origin.scenario_name)
      .Str("drainsim.scenario.path", origin.scenario_path)
      .Str("drainsim.scenario.hash", origin.scenario_hash)
      // The seed as a string: it may exceed 2^63, which intValue (int64) cannot hold.
      .Str("drainsim.seed", std::to_string(origin.seed))
      .Str("drainsim.fingerprint", Hex16(origin.fingerprint))
      .Str("drainsim.epoch", "simulated time 0 is 2026-01-01T00:00:00Z");
  std::string text = attributes.Text();
  if (!extra.empty()) {
    text.pop_back();
    text += "," + extra.Text().substr(1);
  }
  return "{\"attributes\":" + text + "}";
}

std::string OtlpScope(const OtlpOrigin& origin) {
  return "{\"name\":\"drainsim\",\"version\":" + JsonQuote(origin.drainsim_version) + "}";
}

}  // namespace drainsim::reports
