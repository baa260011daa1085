// Internals of the scenario generator (scenario_gen.h): what the sections decided so far, which
// later sections must respect to stay valid (a fault needs its section, a drain its rate cap, an
// expectation its alert), and one function per section.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/fuzz/scenario_gen.h"

namespace drainsim::fuzz::internal {

using Json = nlohmann::json;

struct GenKind {
  std::string name;
  bool needs_tenant = false;  // its key_pattern uses {tenant}: every source must set it
};

struct GenContext {
  double until_s = 1;
  std::vector<GenKind> kinds;
  bool has_database = false;
  bool has_live_traffic = false;
  bool has_downstream = false;
  int64_t workers = 1;
  std::optional<std::string> preset;
  double drain_rate_max_per_s = 1e6;   // the broker's redrive cap (SQS: 500)
  std::optional<double> latest_fix_s;  // the latest fixed_at_s of the bug faults
  bool has_fault_window = false;
  bool has_drain = false;
  // No dead-letter queue (celery, or dead_letter_queue false): no DLQ backlog, no drains.
  bool no_dlq = false;
  bool alert_age = false;
  bool alert_depth = false;
  bool alert_dlq_depth = false;
};

// An instant strictly inside the run, [0, until_s).
double InstantIn(Choices& in, const GenContext& c);
// A window [from_s, until_s] inside the run with from_s < until_s.
std::pair<double, double> WindowIn(Choices& in, const GenContext& c);

Json Distribution(Choices& in, double scale_ms);
Json Backoff(Choices& in, bool for_pubsub);

Json Kinds(Choices& in, GenContext& c);
Json Producers(Choices& in, const GenContext& c);
Json Backlog(Choices& in, const GenContext& c);
Json Broker(Choices& in, GenContext& c);
Json Workers(Choices& in, GenContext& c);
Json Database(Choices& in, GenContext& c);
Json Downstream(Choices& in, GenContext& c);
Json Retry(Choices& in);
Json Faults(Choices& in, GenContext& c);
Json Drains(Choices& in, GenContext& c);
Json Alerts(Choices& in, GenContext& c);
Json Expect(Choices& in, const GenContext& c);
// Adds workers.lambda_esm to the finished scenario `s` when the loader would accept it.
void LambdaEsm(Choices& in, const GenContext& c, Json& s);
void Autoscale(Choices& in, const GenContext& c, Json& s);

}  // namespace drainsim::fuzz::internal
