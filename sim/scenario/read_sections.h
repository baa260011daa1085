// The loader's section readers: each turns one part of the document into its struct,
// reporting every problem on the way. Internal to sim/scenario.
//
// Sections are read in dependency order (run, kinds, system, retry, producers, backlog,
// faults, drains, alerts, expect) so that each can check its references against what was
// read before it; what needs the whole scenario is checked last by CheckScenario.
//
// Contract: a reader given an absent node leaves the defaults (required sections report
// their absence at the top level); a reader never reports the same mistake twice, and a
// value it could not read leaves the default so later checks do not cascade on it.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/base/expected.h"
#include "sim/config/config.h"
#include "sim/scenario/json_reader.h"

namespace drainsim::scenario::internal {

// What earlier sections established, for the checks of later ones.
struct Context {
  explicit Context(Problems& p) : problems(p) {}
  Problems& problems;
  std::optional<engine::Instant> run_until;  // set iff run.until_s was valid
  // True iff /kinds was an object, so unknown references are real mistakes.
  bool kinds_known = false;
  std::set<std::string, std::less<>> kinds;
  // Sections that are present (even if some of their fields were bad).
  bool has_database = false;
  bool has_live_traffic = false;
  bool has_downstream = false;
  // /drains lists at least one drain, and which alerts are set: expectations that need them
  // are checked against what the file gives, so that a bad drain or alert is reported once,
  // not again at every expectation that reads it.
  bool has_drains = false;
  bool has_age_alert = false;
  bool has_depth_alert = false;
  bool has_dlq_depth_alert = false;
  bool has_message_groups = false;  // broker.message_groups or broker.partitions is set
  bool has_partitions = false;      // broker.partitions is set
  bool has_lambda_esm = false;      // workers.lambda_esm is set
  std::optional<int64_t> workers_count;
  // For each producer / backlog entry that was read: its index in the JSON array, and whether
  // its `fields` were read without problems (the key_pattern check skips the others rather
  // than report a second problem). Parallel to Scenario::producers / backlog.
  struct Origin {
    size_t index = 0;
    bool fields_ok = false;
  };
  std::vector<Origin> producer_origins;
  std::vector<Origin> backlog_origins;
  // The index in the JSON array of each drain that was read, parallel to Scenario::drains.
  std::vector<size_t> drain_origins;
  // The latest bug fix (Drain::start_after_fix counts from it) and whether any fault has a
  // window (During::kFaults needs one).
  std::optional<engine::Instant> last_fix;
  bool has_fault_window = false;
};

// The range of a token bucket's rate (model::TokenBucket, which the scenario layer cannot
// include): a token every 31.7 years up to a thousand per microsecond. The downstream rate
// limit and the downstream_rate_limit fault use all of it; drain rates stop at 1e6 per second.
inline constexpr double kTokenRatePerSecondMin = 1e-9;
inline constexpr double kTokenRatePerSecondMax = 1e9;

// Helpers shared by the readers (read_common.cc).
std::optional<config::DistributionSpec> ReadDistribution(const Node& node);
// `drainsim fit`'s provenance (sim/config/fitted.h), read_fitted.cc; nullopt when absent or bad
// (bad reports its problems).
std::optional<config::Fitted> ReadFitted(const Node& node);
bool ReadWindow(ObjectReader& object, const Context& context, bool required,
                config::Window* window);
std::optional<engine::Instant> ReadAt(const Node& node, const Context& context);
std::optional<std::string> ReadKindRef(const Node& node, const Context& context);
bool ReadFields(const Node& node, config::Fields* fields);
// [A-Za-z_][A-Za-z0-9_]{0,63}: names of fields and key_pattern placeholders.
bool IsFieldName(std::string_view name);
// Splits a key_pattern into its placeholder names, in order (repeats kept); fails iff a brace is
// unmatched or a placeholder is not a name.
base::Expected<std::vector<std::string>> ParseKeyPattern(std::string_view pattern);
// A token bucket's default capacity: one second's worth of its rate (1 without a rate).
int64_t DefaultBurst(std::optional<double> rate_per_s);
// A backoff object (kind plus the curve's fields, and its jitter) over *backoff's defaults;
// retry.backoff, a class's backoff and broker.redelivery_backoff (read_retry.cc).
void ReadBackoff(const Node& node, config::Backoff* backoff);
// "run.until_s = 21600": how messages name the end of the run.
std::string RunEndText(const Context& context);

void ReadKinds(const Node& node, Context& context, std::map<std::string, config::Kind>* kinds);
void ReadProducers(const Node& node, Context& context, std::vector<config::Producer>* producers);
void ReadBacklog(const Node& node, Context& context, std::vector<config::BacklogEntry>* backlog);
void ReadBroker(const Node& node, Context& context, config::Broker* broker);
void ReadWorkers(const Node& node, Context& context, config::Workers* workers);
void ReadDatabase(const Node& node, Context& context, std::optional<config::Database>* database);
void ReadDownstream(const Node& node, Context& context,
                    std::optional<config::Downstream>* downstream);
void ReadRetry(const Node& node, Context& context, config::RetryPolicy* retry);
void ReadFaults(const Node& node, Context& context, std::vector<config::Fault>* faults);
void ReadDrains(const Node& node, Context& context, std::vector<config::Drain>* drains);
void ReadAlerts(const Node& node, Context& context, config::Alerts* alerts);
// After ReadDrains and ReadAlerts: expectations are checked against what they found.
void ReadExpect(const Node& node, Context& context, std::vector<config::Expectation>* expect);

// Checks that need the whole scenario: key_pattern placeholders, sections that kinds and
// faults rely on, that something is published, and the size estimate.
void CheckScenario(const config::Scenario& scenario, Context& context);
// Part of CheckScenario: message groups, partitions, polls and commits, the Lambda ESM and
// autoscale (check_consumers.cc).
void CheckConsumerShapes(const config::Scenario& scenario, Context& context);

// The broker's hard limits (presets.h): a value the scenario gave beyond what the preset's
// broker allows, and drains faster than broker.redrive_rate_max_per_s (check_presets.cc).
void CheckBrokerLimits(const config::Scenario& scenario, Context& context);

}  // namespace drainsim::scenario::internal
