// The generator's system sections: database, downstream, workers, broker (with its presets'
// hard limits respected), and the retry policy.
#include <algorithm>

#include "tools/fuzz/scenario_gen_parts.h"

namespace drainsim::fuzz::internal {

Json Database(Choices& in, GenContext& c) {
  if (!in.Chance(50)) return nullptr;
  c.has_database = true;
  Json db = {{"connections", in.IntIn(1, 6)}};
  if (in.Chance(60)) db["timeout_ms"] = in.RealIn(1, 30000);
  if (in.Chance(40)) db["overload_factor"] = in.RealIn(0, 5);
  if (in.Chance(40)) {
    c.has_live_traffic = true;
    // At most about 2000 live queries in the run.
    db["live_traffic"] = {{"rate_per_s", std::max(0.001, in.RealIn(1, 2000) / c.until_s)},
                          {"query_ms", Distribution(in, 20)}};
  }
  return db;
}

Json Downstream(Choices& in, GenContext& c) {
  static const char* const kRetryAfter[] = {"seconds", "http_date", "none"};
  if (!in.Chance(40)) return nullptr;
  c.has_downstream = true;
  Json api = {{"call_ms", Distribution(in, 30)}};
  if (in.Chance(60)) api["rate_limit_per_s"] = in.RealIn(0.01, 50);
  if (in.Chance(40)) api["burst"] = in.IntIn(1, 20);
  if (in.Chance(60)) api["retry_after"] = in.Pick(kRetryAfter);
  if (in.Chance(40)) api["clock_skew_s"] = in.RealIn(-30, 30);
  return api;
}

Json Workers(Choices& in, GenContext& c) {
  c.workers = in.IntIn(1, 6);
  const int64_t prefetch = in.IntIn(1, 8);
  Json workers = {{"count", c.workers}, {"prefetch", prefetch}};
  if (in.Chance(50)) workers["concurrency"] = in.IntIn(1, prefetch);
  if (in.Chance(50)) workers["restart_s"] = in.RealIn(0, 60);
  return workers;
}

// An SQS queue's Lambda event-source mapping, within the loader's rules (check_scenario.cc
// CheckLambdaEsm): the sqs preset only; workers.count is the function's concurrency, prefetch
// and concurrency 1; not beside message groups, lock renewal, a restore sweep, an
// on_visibility_timeout other than redeliver, or a retry that waits in the consumer. Drawn last,
// so that the scenarios drawn before it stay as they were.
void LambdaEsm(Choices& in, const GenContext& c, Json& s) {
  if (c.preset != "sqs" || !in.Chance(30)) return;
  const Json& b = s["broker"];
  for (const char* field : {"message_groups", "restore_sweep_s"}) {
    if (b.contains(field) && !b[field].is_null()) return;
  }
  if (b.value("lock_renewal", false)) return;
  if (b.contains("on_visibility_timeout") && b["on_visibility_timeout"] != "redeliver") return;
  const Json& retry = s["retry"];
  if (retry.contains("delivery") &&
      (retry["delivery"] == "sleep_in_consumer" || retry["delivery"] == "eta_in_consumer")) {
    return;
  }
  Json esm = {{"function_concurrency", c.workers}};
  // At, below and above the function's concurrency (2..1000), or not set.
  if (in.Chance(60))
    esm["maximum_concurrency"] = in.Chance(50) ? in.IntIn(2, 8) : in.IntIn(2, 1000);
  if (in.Chance(30)) esm["pollers_initial"] = in.IntIn(1, 1000);
  if (in.Chance(30)) esm["pollers_added_per_min"] = in.IntIn(1, 1000);
  s["workers"]["prefetch"] = 1;
  s["workers"].erase("concurrency");
  s["workers"]["lambda_esm"] = esm;
}

// An autoscaled worker pool, within the loader's rules (check_scenario.cc CheckAutoscale): not
// beside broker.partitions (nor the kafka preset, whose table sets them) or lambda_esm;
// workers.count within [min, max]. Short intervals, lags, windows and grace periods often, so
// that scale-ups, cancelled starts, drains and kills all happen within the generated runs. Drawn
// after LambdaEsm, last, so that the scenarios drawn before stay as they were.
void Autoscale(Choices& in, const GenContext& c, Json& s) {
  if (!in.Chance(20)) return;
  if (c.preset == "kafka" || s["workers"].contains("lambda_esm")) return;
  const Json& b = s["broker"];
  if (b.contains("partitions") && !b["partitions"].is_null()) return;
  Json a = {{"metric", in.Chance(50) ? "depth" : "age"}};
  a["target"] = in.Chance(50) ? in.RealIn(0.5, 20) : in.RealIn(1e-3, 1e4);
  const int64_t min = in.IntIn(1, c.workers);
  a["min"] = min;
  a["max"] = c.workers + in.IntIn(0, in.Chance(70) ? 8 : 200);
  if (in.Chance(50)) a["interval_s"] = in.Chance(50) ? in.RealIn(0.5, 30) : in.RealIn(1e-3, 3600);
  if (in.Chance(50)) a["lag_s"] = in.RealIn(0, 60);
  if (in.Chance(50)) a["cooldown_s"] = in.Chance(50) ? in.RealIn(0, 60) : in.RealIn(0, 86400);
  if (in.Chance(50)) a["grace_s"] = in.RealIn(0, 60);
  s["workers"]["autoscale"] = a;
}

Json Backoff(Choices& in, bool for_pubsub) {
  static const char* const kKinds[] = {"exponential", "constant", "linear", "sidekiq"};
  static const char* const kJitters[] = {"none",         "full",         "equal",
                                         "decorrelated", "proportional", "full_whole_seconds"};
  // Pub/Sub's redelivery backoff is at most 600 s and never sidekiq's (no maximum).
  const double longest_s = for_pubsub ? 600 : 3600;
  const std::string kind = kKinds[in.Below(for_pubsub ? 3 : 4)];
  Json backoff = {{"kind", kind}};
  if (kind == "constant") backoff["delay_s"] = in.RealIn(0, 30);
  if (kind == "linear" || kind == "exponential") {
    const double base_s = in.RealIn(0.001, 20);
    backoff["base_s"] = base_s;
    backoff["cap_s"] = std::min(longest_s, base_s + in.RealIn(0, 300));
    if (kind == "linear") backoff["step_s"] = in.RealIn(0, 30);
    if (kind == "exponential" && in.Chance(50)) backoff["factor"] = in.RealIn(1, 5);
  }
  if (in.Chance(60)) {
    std::string jitter = in.Pick(kJitters);
    if (jitter == "decorrelated" && kind != "exponential") jitter = "equal";
    Json j = {{"kind", jitter}};
    if (jitter == "proportional") {
      const double low = in.RealIn(0, 2);
      j["low"] = low;
      j["high"] = low + in.RealIn(0, 2);
    }
    backoff["jitter"] = j;
  }
  return backoff;
}

namespace {

void BrokerTimeouts(Choices& in, const GenContext& c, Json& b) {
  static const char* const kOnTimeout[] = {"redeliver", "close_channel", "cancel_consumer"};
  static const char* const kOnCrash[] = {"immediate", "after_visibility_timeout", "fail", "lost"};
  // 10..300 s satisfies every preset (SQS <= 43200, Pub/Sub 10..600, Service Bus 5..300); a
  // short one makes handlers with slow faults overrun it.
  if (in.Chance(60)) b["visibility_timeout_s"] = in.RealIn(10, 300);
  if (in.Chance(30)) b["on_visibility_timeout"] = in.Pick(kOnTimeout);
  if (in.Chance(20)) b["lock_renewal"] = in.Chance(50);
  if (in.Chance(20)) b["stalled_check_s"] = in.RealIn(0.5, 60);
  if (in.Chance(20)) b["stalled_count_max"] = in.IntIn(0, 3);
  // Lease-based brokers redeliver a dead consumer's messages only when the lease runs out: any
  // other value is a hard limit of their presets (sim/scenario/check_presets.cc).
  const bool lease_only = c.preset == "sqs" || c.preset == "pubsub" ||
                          c.preset == "azure-service-bus" || c.preset == "bullmq" ||
                          c.preset == "nats-jetstream" || c.preset == "kafka-share";
  if (in.Chance(40)) {
    const char* on_crash = in.Pick(kOnCrash);
    b["requeue_on_crash"] = lease_only ? "after_visibility_timeout" : on_crash;
  }
  // Kafka's preset refuses a broker-side delivery count (check_presets.cc CheckKafka);
  // kafka-share's is group.share.delivery.count.limit, 2..10 (CheckKafkaShare).
  if (c.preset == "kafka-share") {
    if (in.Chance(30)) b["receive_count_max"] = in.IntIn(2, 10);
  } else if (c.preset != "kafka" && in.Chance(30)) {
    b["receive_count_max"] = in.IntIn(c.preset == "pubsub" ? 5 : 1, 12);
  }
  if (in.Chance(25)) b["stale_ack"] = in.Chance(50) ? "honored" : "refused";
  // Celery's sweep (its preset: 100 s); null restores at the exact timeout; short sweeps beside
  // short timeouts, long ones far beyond them.
  if (in.Chance(15)) {
    b["restore_sweep_s"] = in.Chance(20) ? Json(nullptr) : Json(in.RealIn(0.5, 400));
  }
}

// What the broker does with dead letters it cannot keep (broker_lost, at-least-once waiting),
// within the loader's rules: without_dlq only without a DLQ; a strategy and a refusing DLQ only
// with one, the latter with a cap and not under Sidekiq's trim-on-death (its preset's dlq_trim).
void DeadLetterHandling(Choices& in, const GenContext& c, Json& b) {
  if (c.no_dlq) {
    static const char* const kWithoutDlq[] = {"failed", "dropped", "skipped", "archived"};
    if (in.Chance(30)) b["without_dlq"] = in.Pick(kWithoutDlq);
    return;
  }
  if (in.Chance(20)) b["dead_letter_strategy"] = in.Chance(50) ? "at_most_once" : "at_least_once";
  if (b.contains("dlq_max_length") && c.preset != "sidekiq" && in.Chance(40)) {
    b["dlq_overflow"] = in.Chance(70) ? "reject_publish" : "drop_head";
  }
}

// RabbitMQ 4.3's delayed retry, within the loader's rules: no preset or rabbitmq-quorum at 4.3
// or later, never beside redelivery_backoff.
void DelayedRetry(Choices& in, const GenContext& c, Json& b) {
  static const char* const kTypes[] = {"all", "failed", "returned"};
  const bool rabbit_43 = c.preset == "rabbitmq-quorum" &&
                         (!b.contains("version") || b["version"] == "4.3" || b["version"] == "5.1");
  if ((c.preset && !rabbit_43) || b.contains("redelivery_backoff") || !in.Chance(20)) return;
  Json delayed = {{"type", in.Pick(kTypes)}, {"min_s", in.RealIn(0.01, 30)}};
  if (in.Chance(70)) delayed["max_s"] = in.RealIn(0.01, 600);
  b["delayed_retry"] = delayed;
}

// Message groups, within the loader's rules: SQS FIFO's (no preset or sqs), Service Bus
// sessions (no preset or azure-service-bus), Pub/Sub ordering keys (no preset or pubsub; the
// generator sets workers.concurrency 1 for them); never beside a requeue_position but tail,
// max_length, ack_pending_max or delayed_retry. Few groups often, so that groups hold each
// other up.
void MessageGroups(Choices& in, const GenContext& c, Json& b) {
  static const char* const kKinds[] = {"fifo_group", "session", "ordering_key"};
  if ((c.preset && c.preset != "sqs" && c.preset != "azure-service-bus" && c.preset != "pubsub") ||
      !in.Chance(20)) {
    return;
  }
  for (const char* field : {"max_length", "ack_pending_max", "delayed_retry"}) {
    if (b.contains(field)) return;
  }
  if (b.contains("requeue_position") && b["requeue_position"] != "tail") return;
  b["message_groups"] = in.Chance(50) ? in.IntIn(1, 4) : in.IntIn(1, 100'000);
  if (c.preset == "azure-service-bus") {
    b["message_group_kind"] = "session";
  } else if (c.preset == "pubsub") {
    b["message_group_kind"] = "ordering_key";
  } else if (in.Chance(50)) {
    b["message_group_kind"] = c.preset ? "fifo_group" : in.Pick(kKinds);
  }
}

// Kafka's partitions, within the loader's rules: no preset or kafka (whose table sets 1), not
// beside message groups or what they refuse (BrokerLimits draws none of those under kafka).
// Fewer partitions than workers often, so that consumers stay idle.
void Partitions(Choices& in, const GenContext& c, Json& b) {
  if (c.preset != "kafka" && (c.preset || b.contains("message_groups") || !in.Chance(15))) return;
  for (const char* field : {"max_length", "ack_pending_max", "delayed_retry"}) {
    if (b.contains(field)) return;
  }
  if (b.contains("requeue_position") && b["requeue_position"] != "tail") return;
  if (c.preset == "kafka" && !in.Chance(70)) return;  // the preset's one partition
  b["partitions"] = in.Chance(70) ? in.IntIn(1, 8) : in.IntIn(1, 100'000);
  if (in.Chance(40)) {
    b["session_timeout_s"] = in.Chance(20) ? Json(nullptr) : Json(in.RealIn(0.5, 90));
  }
  // A poll's batch and its commits (world_kafka.cc): the preset's "record" most often.
  if (in.Chance(30)) {
    static const char* const kCommits[] = {"record", "batch", "auto", "before_processing"};
    b["offset_commit"] = in.Pick(kCommits);
    b["max_poll_records"] = in.Chance(70) ? in.IntIn(1, 10) : in.IntIn(1, 100'000);
    if (b["offset_commit"] == "auto" && in.Chance(50)) {
      b["auto_commit_interval_s"] = in.RealIn(0.5, 30);
    }
  }
}

void BrokerLimits(Choices& in, GenContext& c, Json& b) {
  static const char* const kReturns[] = {"nack", "reject", "crash", "consumer_timeout"};
  const bool kafka = c.preset == "kafka";  // partitions: the fields message groups refuse
  const bool kafka_share = c.preset == "kafka-share";  // refuses delivery_limit
  if (!kafka && !kafka_share && in.Chance(25)) b["delivery_limit"] = in.IntIn(0, 6);
  if (in.Chance(20)) {
    Json counted = Json::array();
    for (const char* kind : kReturns) {
      if (in.Chance(50)) counted.push_back(kind);
    }
    b["delivery_counted"] = counted;
  }
  static const char* const kPositions[] = {"tail", "head", "redeliveries_first",
                                           "restored_to_head"};
  if (in.Chance(20)) b["requeue_position"] = kafka ? "tail" : in.Pick(kPositions);
  // ack_pending_max needs redeliveries first (the loader's rule); nats-jetstream and kafka-share
  // set both.
  const bool sets_ack_pending = c.preset == "nats-jetstream" || kafka_share;
  const bool redeliveries_first = b.contains("requeue_position")
                                      ? b["requeue_position"] == "redeliveries_first"
                                      : sets_ack_pending;
  if (!redeliveries_first) {
    if (sets_ack_pending) b["ack_pending_max"] = nullptr;
  } else if (in.Chance(30)) {
    b["ack_pending_max"] = in.IntIn(1, 50);
  }
  if (!kafka && in.Chance(20)) b["max_length"] = in.IntIn(0, 30);
  if (in.Chance(20)) b["overflow"] = in.Chance(50) ? "drop_head" : "reject_publish";
  // SQS keeps messages 60 s..14 days; 60..3600 s fits every preset.
  if (in.Chance(20)) b["retention_s"] = in.RealIn(60, 3600);
  if (in.Chance(20)) b["redelivery_backoff"] = Backoff(in, c.preset == "pubsub");
  DelayedRetry(in, c, b);
  MessageGroups(in, c, b);
  Partitions(in, c, b);
  if (in.Chance(15)) b["dead_letter_queue"] = in.Chance(50);
  // A share group's dead-letter topic is Kafka 4.4's (KIP-1191): the loader refuses it before.
  if (kafka_share && b.contains("dead_letter_queue") && b["dead_letter_queue"].get<bool>()) {
    b["version"] = "4.4";
  }
  c.no_dlq = b.contains("dead_letter_queue") ? !b["dead_letter_queue"].get<bool>()
                                             : c.preset == "celery" || kafka || kafka_share;
  if (in.Chance(25)) b["dlq_retention_s"] = in.RealIn(60, 86400);
  if (in.Chance(20)) b["dlq_retention_from"] = in.Chance(50) ? "dead_lettered" : "enqueued";
  if (in.Chance(15)) b["dlq_max_length"] = in.IntIn(1, 20);
  DeadLetterHandling(in, c, b);
  if (in.Chance(15)) b["dead_letter_duplicate_probability"] = in.RealIn(0, 1);
  if (in.Chance(20)) {
    const double cap = in.RealIn(0.01, 500);
    b["redrive_rate_max_per_s"] = cap;
    c.drain_rate_max_per_s = std::min(c.drain_rate_max_per_s, cap);
  }
  if (in.Chance(20)) b["redrive_attempts"] = in.Chance(50) ? "reset" : "keep";
}

}  // namespace

Json Broker(Choices& in, GenContext& c) {
  static const char* const kPresets[] = {
      "sqs",    "rabbitmq-quorum",   "sidekiq",        "celery", "bullmq",
      "pubsub", "azure-service-bus", "nats-jetstream", "kafka",  "kafka-share"};
  static const char* const kVersions[] = {"4.0", "4.2", "4.3", "5.1"};
  Json b = Json::object();
  if (in.Chance(50)) {
    c.preset = in.Pick(kPresets);
    b["preset"] = *c.preset;
    if (*c.preset == "sqs") c.drain_rate_max_per_s = 500;
    if (*c.preset == "rabbitmq-quorum" && in.Chance(50)) b["version"] = in.Pick(kVersions);
    static const char* const kKafkaVersions[] = {"4.2", "4.3", "4.4"};
    if (*c.preset == "kafka-share" && in.Chance(30)) b["version"] = in.Pick(kKafkaVersions);
  }
  BrokerTimeouts(in, c, b);
  BrokerLimits(in, c, b);
  return b;
}

Json Retry(Choices& in) {
  static const char* const kDelivery[] = {"republish", "sleep_in_consumer", "requeue",
                                          "visibility_timeout", "eta_in_consumer"};
  static const char* const kClasses[] = {"rate_limited", "transient", "permanent", "unknown"};
  static const char* const kActions[] = {"retry", "dead_letter", "park"};
  Json retry = Json::object();
  if (in.Chance(60)) retry["delivery"] = in.Pick(kDelivery);
  if (in.Chance(20)) retry["requeue_with"] = in.Chance(50) ? "reject" : "nack";
  if (in.Chance(50)) retry["backoff"] = Backoff(in, false);
  Json classes = Json::object();
  for (const char* name : kClasses) {
    if (!in.Chance(40)) continue;
    const std::string action = in.Pick(kActions);
    Json route = {{"action", action}};
    if (action == "retry") {
      if (in.Chance(60)) route["attempts_max"] = in.IntIn(1, 6);
      if (in.Chance(30)) route["backoff"] = Backoff(in, false);
    }
    if (std::string(name) == "rate_limited" && in.Chance(30)) {
      route["honor_retry_after"] = in.Chance(50);
    }
    classes[name] = route;
  }
  if (!classes.empty()) retry["classes"] = classes;
  if (in.Chance(25)) {
    retry["budget"] = {
        {"ratio", in.RealIn(0, 1)}, {"burst", in.IntIn(0, 10)}, {"window_s", in.RealIn(0.1, 60)}};
  }
  if (in.Chance(30)) {
    retry["circuit_breaker"] = {{"error_rate_open", in.RealIn(0.01, 1)},
                                {"window_s", in.RealIn(0.1, 60)},
                                {"open_s", in.RealIn(0.1, 60)},
                                {"half_open_probes", in.IntIn(1, 5)},
                                {"attempts_min", in.IntIn(1, 20)}};
  }
  return retry;
}

}  // namespace drainsim::fuzz::internal
