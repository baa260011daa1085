// Readers for the system under test: broker, workers, database and downstream API.
#include <algorithm>
#include <cmath>

#include "sim/scenario/presets.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr double kFleetMax = 100000;  // workers, prefetch, connections
constexpr double kBurstMax = 1e9;

}  // namespace

int64_t DefaultBurst(std::optional<double> rate_per_s) {
  if (!rate_per_s) return 1;
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(*rate_per_s)));
}

namespace {

// broker.version: only with a preset that has versions (DefaultBrokerVersion), canonical
// "MAJOR.MINOR".
void ReadBrokerVersion(const Node& version, const Node& preset_node, config::Broker* broker) {
  if (!version.present()) return;
  int major = 0;
  int minor = 0;
  constexpr std::string_view kWhich =
      "applies only with a preset of a versioned broker ('rabbitmq-quorum', 'sidekiq', "
      "'celery', 'bullmq', 'nats-jetstream', 'kafka' or 'kafka-share')";
  if (!preset_node.present()) {
    version.Error(std::string(kWhich) + " (the scenario has no preset)");
  } else if (broker->preset && DefaultBrokerVersion(*broker->preset).empty()) {
    version.Error(std::string(kWhich) + ": '" + std::string(config::NameOf(*broker->preset)) +
                  "' is a managed service with one version, its documentation as read for "
                  "docs/PRESETS.md");
  } else if (auto text = ReadString(version, 9, false)) {
    if (!ParseBrokerVersion(*text, &major, &minor)) {
      version.Error("must be a version \"MAJOR.MINOR\" such as \"" +
                    std::string(broker->preset ? DefaultBrokerVersion(*broker->preset) : "4.3") +
                    "\" (got " + Describe(version.json()) + ")");
    } else {
      // Canonical: "4.03" reads as "4.3". The bounds (RabbitMQ 3.10..3.13, 4.0 and later;
      // Sidekiq 6.5 and later) are the presets' hard limits (check_presets.cc).
      broker->version = std::to_string(major) + "." + std::to_string(minor);
    }
  }
}

// broker.delivery_counted: a list of return kinds, each at most once.
void ReadDeliveryCounted(const Node& counted, config::Broker* broker) {
  if (!counted.present()) return;
  std::array<bool, config::kReturnKindCount> kinds{};
  bool ok = counted.json().is_array();
  for (const Node& item : ArrayItems(counted, 0, config::kReturnKindCount * 4)) {
    auto kind = ReadEnum<config::ReturnKind>(item);
    if (!kind) {
      ok = false;
    } else if (kinds[static_cast<size_t>(*kind)]) {
      item.Error("repeats " + Quote(config::NameOf(*kind)));
      ok = false;
    } else {
      kinds[static_cast<size_t>(*kind)] = true;
    }
  }
  if (ok) broker->delivery_counted = kinds;
}

// The broker's DLQ: whether there is one, what becomes of dead letters it cannot keep, its
// retention, cap and trimming, duplicate dead-lettering. Reads `o`'s keys in the schema's order.
// broker.delayed_retry: {type, min_s, max_s}; max_s defaults to min_s (RabbitMQ's rule: a
// missing max is the min).
void ReadDelayedRetry(const Node& node, config::Broker* broker) {
  ObjectReader o(node);
  if (!o.valid()) return;
  config::DelayedRetry delayed;
  const auto type = ReadEnum<config::DelayedRetryType>(o.Required("type"));
  const auto min = ReadSeconds(o.Required("min_s"), Range::AboveAtMost(0, kDaySeconds));
  const auto max = ReadSeconds(o.Optional("max_s"), Range::AboveAtMost(0, kDaySeconds));
  o.Finish();
  if (!type || !min) return;
  delayed.type = *type;
  delayed.min = *min;
  delayed.max = max.value_or(*min);
  broker->delayed_retry = delayed;
}

void ReadDlqFields(ObjectReader& o, config::Broker* broker) {
  if (auto v = ReadBool(o.Optional("dead_letter_queue"))) broker->dead_letter_queue = *v;
  if (auto v = ReadEnum<config::WithoutDlq>(o.Optional("without_dlq"))) broker->without_dlq = *v;
  if (auto v = ReadEnum<config::DeadLetterStrategy>(o.Optional("dead_letter_strategy"))) {
    broker->dead_letter_strategy = *v;
  }
  const Node retention = o.Optional("dlq_retention_s");
  if (retention.is_null()) {
    broker->dlq_retention.reset();
  } else if (auto d = ReadSeconds(retention, Range::Above(0))) {
    broker->dlq_retention = *d;
  }
  if (auto v = ReadEnum<config::RetentionFrom>(o.Optional("dlq_retention_from"))) {
    broker->dlq_retention_from = *v;
  }
  broker->dlq_max_length =
      ReadInt(NullAsAbsent(o.Optional("dlq_max_length")), Range::Closed(1, 1'000'000'000));
  if (auto v = ReadEnum<config::DlqTrim>(o.Optional("dlq_trim"))) broker->dlq_trim = *v;
  if (auto v = ReadEnum<config::Overflow>(o.Optional("dlq_overflow"))) broker->dlq_overflow = *v;
  if (auto v = ReadNumber(o.Optional("dead_letter_duplicate_probability"), Range::Probability())) {
    broker->dead_letter_duplicate_probability = *v;
  }
}

}  // namespace

void ReadBroker(const Node& node, Context& c, config::Broker* broker) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  const Node preset_node = NullAsAbsent(o.Optional("preset"));
  broker->preset = ReadEnum<config::BrokerPreset>(preset_node);
  ReadBrokerVersion(NullAsAbsent(o.Optional("version")), preset_node, broker);
  if (auto d =
          ReadSeconds(o.Optional("visibility_timeout_s"), Range::AboveAtMost(0, kRunSecondsMax))) {
    broker->visibility_timeout = *d;
  }
  if (auto v = ReadEnum<config::OnVisibilityTimeout>(o.Optional("on_visibility_timeout"))) {
    broker->on_visibility_timeout = *v;
  }
  if (auto v = ReadBool(o.Optional("lock_renewal"))) broker->lock_renewal = *v;
  broker->stalled_check = ReadSeconds(NullAsAbsent(o.Optional("stalled_check_s")),
                                      Range::AboveAtMost(0, kRunSecondsMax));
  broker->restore_sweep = ReadSeconds(NullAsAbsent(o.Optional("restore_sweep_s")),
                                      Range::AboveAtMost(0, kRunSecondsMax));
  broker->stalled_count_max =
      ReadInt(NullAsAbsent(o.Optional("stalled_count_max")), Range::Closed(0, 1000));
  if (auto v = ReadEnum<config::RequeueOnCrash>(o.Optional("requeue_on_crash"))) {
    broker->requeue_on_crash = *v;
  }
  broker->receive_count_max =
      ReadInt(NullAsAbsent(o.Optional("receive_count_max")), Range::Closed(1, 1000));
  broker->delivery_limit =
      ReadInt(NullAsAbsent(o.Optional("delivery_limit")), Range::Closed(0, 1000));
  ReadDeliveryCounted(o.Optional("delivery_counted"), broker);
  if (auto v = ReadEnum<config::RequeuePosition>(o.Optional("requeue_position"))) {
    broker->requeue_position = *v;
  }
  broker->ack_pending_max =
      ReadInt(NullAsAbsent(o.Optional("ack_pending_max")), Range::Closed(1, 1'000'000));
  broker->message_groups =
      ReadInt(NullAsAbsent(o.Optional("message_groups")), Range::Closed(1, 1'000'000));
  broker->message_group_kind =
      ReadEnum<config::MessageGroupKind>(NullAsAbsent(o.Optional("message_group_kind")));
  broker->partitions = ReadInt(NullAsAbsent(o.Optional("partitions")), Range::Closed(1, 100'000));
  broker->session_timeout = ReadSeconds(NullAsAbsent(o.Optional("session_timeout_s")),
                                        Range::AboveAtMost(0, kDaySeconds));
  c.has_message_groups = broker->message_groups.has_value() || broker->partitions.has_value();
  c.has_partitions = broker->partitions.has_value();
  broker->max_poll_records =
      ReadInt(NullAsAbsent(o.Optional("max_poll_records")), Range::Closed(1, 100'000));
  broker->offset_commit = ReadEnum<config::OffsetCommit>(NullAsAbsent(o.Optional("offset_commit")));
  broker->auto_commit_interval = ReadSeconds(NullAsAbsent(o.Optional("auto_commit_interval_s")),
                                             Range::AboveAtMost(0, kDaySeconds));
  broker->max_length =
      ReadInt(NullAsAbsent(o.Optional("max_length")), Range::Closed(0, 1'000'000'000));
  if (auto v = ReadEnum<config::Overflow>(o.Optional("overflow"))) broker->overflow = *v;
  broker->retention = ReadSeconds(NullAsAbsent(o.Optional("retention_s")), Range::Above(0));
  const Node redelivery = NullAsAbsent(o.Optional("redelivery_backoff"));
  if (redelivery.present()) {
    config::Backoff backoff;
    ReadBackoff(redelivery, &backoff);
    broker->redelivery_backoff = backoff;
  }
  ReadDelayedRetry(NullAsAbsent(o.Optional("delayed_retry")), broker);
  ReadDlqFields(o, broker);
  broker->redrive_rate_max_per_s = ReadNumber(NullAsAbsent(o.Optional("redrive_rate_max_per_s")),
                                              Range::Closed(kTokenRatePerSecondMin, kRateMax));
  if (auto v = ReadEnum<config::StaleAck>(o.Optional("stale_ack"))) broker->stale_ack = *v;
  if (auto v = ReadEnum<config::RedriveAttempts>(o.Optional("redrive_attempts"))) {
    broker->redrive_attempts = *v;
  }
  o.Finish();
}

// workers.lambda_esm; its agreement with the rest of the scenario is check_scenario.cc's.
void ReadLambdaEsm(const Node& node, config::Workers* workers) {
  ObjectReader o(NullAsAbsent(node));
  if (!o.valid()) return;
  constexpr double kMax = config::kLambdaEsmPollersMax;
  config::LambdaEsm esm;
  if (auto n = ReadInt(o.Required("function_concurrency"), Range::Closed(1, kMax))) {
    esm.function_concurrency = *n;
  }
  // ScalingConfig MaximumConcurrency: "Minimum: 2 Maximum: 1000" (CloudFormation).
  esm.maximum_concurrency =
      ReadInt(NullAsAbsent(o.Optional("maximum_concurrency")), Range::Closed(2, kMax));
  if (auto n = ReadInt(o.Optional("pollers_initial"), Range::Closed(1, kMax))) {
    esm.pollers_initial = *n;
  }
  if (auto n = ReadInt(o.Optional("pollers_added_per_min"), Range::Closed(1, kMax))) {
    esm.pollers_added_per_min = *n;
  }
  o.Finish();
  workers->lambda_esm = esm;
}

// workers.autoscale; its agreement with the rest of the scenario (count within [min, max], no
// partitions, no lambda_esm) is check_scenario.cc's.
void ReadAutoscale(const Node& node, config::Workers* workers) {
  ObjectReader o(NullAsAbsent(node));
  if (!o.valid()) return;
  config::Autoscale a;
  if (auto m = ReadEnum<config::AutoscaleMetric>(o.Required("metric"))) a.metric = *m;
  if (auto v = ReadNumber(o.Required("target"), Range::AboveAtMost(0, 1e9))) a.target = *v;
  if (auto n = ReadInt(o.Optional("min"), Range::Closed(1, kFleetMax))) a.min = *n;
  if (auto n = ReadInt(o.Required("max"), Range::Closed(1, kFleetMax))) a.max = *n;
  if (auto d = ReadSeconds(o.Optional("interval_s"), Range::AboveAtMost(0, 3600))) {
    a.interval = *d;
  }
  if (auto d = ReadSeconds(o.Optional("lag_s"), Range::Closed(0, 3600))) a.lag = *d;
  if (auto d = ReadSeconds(o.Optional("cooldown_s"), Range::Closed(0, kDaySeconds))) {
    a.cooldown = *d;
  }
  if (auto d = ReadSeconds(o.Optional("grace_s"), Range::Closed(0, kDaySeconds))) a.grace = *d;
  o.Finish();
  workers->autoscale = a;
}

void ReadWorkers(const Node& node, Context& c, config::Workers* workers) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  if (auto n = ReadInt(o.Required("count"), Range::Closed(1, kFleetMax))) {
    workers->count = *n;
    c.workers_count = *n;
  }
  auto prefetch = ReadInt(o.Optional("prefetch"), Range::Closed(1, kFleetMax));
  const Node concurrency_node = o.Optional("concurrency");
  auto concurrency = ReadInt(concurrency_node, Range::Closed(1, kFleetMax));
  if (prefetch) workers->prefetch = *prefetch;
  if (concurrency) {
    if (*concurrency > workers->prefetch && (prefetch || !o.Has("prefetch"))) {
      concurrency_node.Error("must be <= prefetch = " + std::to_string(workers->prefetch) +
                             " (got " + std::to_string(*concurrency) +
                             "); a consumer cannot run more attempts than it holds");
    } else {
      workers->concurrency = *concurrency;
    }
  }
  if (auto d = ReadSeconds(o.Optional("restart_s"), Range::Closed(0, kDaySeconds))) {
    workers->restart = *d;
  }
  ReadLambdaEsm(o.Optional("lambda_esm"), workers);
  c.has_lambda_esm = workers->lambda_esm.has_value();
  ReadAutoscale(o.Optional("autoscale"), workers);
  o.Finish();
}

void ReadDatabase(const Node& node, Context& c, std::optional<config::Database>* database) {
  ObjectReader o(NullAsAbsent(node));
  if (!o.valid()) return;
  c.has_database = true;
  config::Database db;
  if (auto n = ReadInt(o.Required("connections"), Range::Closed(1, kFleetMax))) {
    db.connections = *n;
  }
  if (auto d = ReadMillis(o.Optional("timeout_ms"), Range::AboveAtMost(0, kDaySeconds * 1000))) {
    db.timeout = *d;
  }
  if (auto v = ReadNumber(o.Optional("overload_factor"), Range::Closed(0, 100))) {
    db.overload_factor = *v;
  }
  db.cores = ReadNumber(NullAsAbsent(o.Optional("cores")), Range::AboveAtMost(0, kFleetMax));
  ObjectReader live(NullAsAbsent(o.Optional("live_traffic")));
  if (live.valid()) {
    c.has_live_traffic = true;
    config::LiveTraffic traffic;
    if (auto v = ReadNumber(live.Required("rate_per_s"), Range::AboveAtMost(0, kRateMax))) {
      traffic.rate_per_s = *v;
    }
    if (auto d = ReadDistribution(live.Required("query_ms"))) traffic.query_ms = *d;
    live.Finish();
    db.live_traffic = traffic;
  }
  o.Finish();
  *database = db;
}

void ReadDownstream(const Node& node, Context& c, std::optional<config::Downstream>* downstream) {
  ObjectReader o(NullAsAbsent(node));
  if (!o.valid()) return;
  c.has_downstream = true;
  config::Downstream api;
  api.rate_limit_per_s = ReadNumber(NullAsAbsent(o.Optional("rate_limit_per_s")),
                                    Range::Closed(kTokenRatePerSecondMin, kTokenRatePerSecondMax));
  api.burst = DefaultBurst(api.rate_limit_per_s);
  if (auto n = ReadInt(o.Optional("burst"), Range::Closed(1, kBurstMax))) api.burst = *n;
  if (auto v = ReadEnum<config::RetryAfterFormat>(o.Optional("retry_after"))) api.retry_after = *v;
  if (auto d = ReadSeconds(o.Optional("clock_skew_s"), Range::Closed(-kDaySeconds, kDaySeconds))) {
    api.clock_skew = *d;
  }
  if (auto d = ReadDistribution(o.Required("call_ms"))) api.call_ms = *d;
  o.Finish();
  *downstream = api;
}

}  // namespace drainsim::scenario::internal
