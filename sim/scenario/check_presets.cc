// The brokers' hard limits (docs/PRESETS.md): a value the scenario gave beyond what the preset's
// broker allows is a problem at that value, naming the broker, its limit and the limit's source.
// The presets' own defaults satisfy every limit (presets_test.cc), so only overrides trip these.
#include <limits>

#include "sim/config/enum_names.h"
#include "sim/scenario/presets.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr double kSqsRedriveRateMax = 500;

struct Limits {
  const config::Scenario& s;
  Context& c;

  std::string Tail() const {
    return ", a hard limit of preset \"" + std::string(config::NameOf(*s.broker.preset)) + "\"";
  }
  // "<got> is <relation> than <broker> allows: <rule>, a hard limit of preset "<name>"".
  void Add(const std::string& pointer, const std::string& got, std::string_view relation,
           std::string_view broker, std::string_view rule) const {
    c.problems.Add(pointer, got + " " + std::string(relation) + " " + std::string(broker) +
                                " allows: " + std::string(rule) + Tail());
  }
  // Seconds in [min, max]; nullopt (forever) is outside when `forever_ok` is false.
  void Seconds(const std::string& pointer, std::optional<engine::Duration> value, double min,
               double max, bool forever_ok, std::string_view broker, std::string_view rule) const {
    if (!value) {
      if (!forever_ok) Add(pointer, "null (kept forever)", "is longer than", broker, rule);
      return;
    }
    const double seconds = value->seconds();
    if (seconds < min) Add(pointer, FormatNumber(seconds) + " s", "is shorter than", broker, rule);
    if (seconds > max) Add(pointer, FormatNumber(seconds) + " s", "is longer than", broker, rule);
  }
  void Count(const std::string& pointer, std::optional<int64_t> value, int64_t min, int64_t max,
             std::string_view broker, std::string_view rule) const {
    if (!value) return;
    if (*value < min) Add(pointer, std::to_string(*value), "is less than", broker, rule);
    if (*value > max) Add(pointer, std::to_string(*value), "is more than", broker, rule);
  }
};

// The fastest a drain may replay: broker.redrive_rate_max_per_s, and SQS's move-task cap.
void CheckDrainRates(const config::Scenario& s, Context& c) {
  const bool sqs = s.broker.preset == config::BrokerPreset::kSqs;
  const std::optional<double> cap = s.broker.redrive_rate_max_per_s;
  if (!sqs && !cap) return;
  for (size_t i = 0; i < s.drains.size(); ++i) {
    const config::Drain& d = s.drains[i];
    std::optional<double> rate;
    std::string_view key;
    if (const auto* drip = std::get_if<config::DripDrain>(&d.strategy)) {
      rate = drip->rate_per_s;
      key = "rate_per_s";
    } else if (const auto* bounded = std::get_if<config::BoundedDrain>(&d.strategy)) {
      rate = bounded->rate_per_s;
      key = "rate_per_s";
    } else if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&d.strategy)) {
      rate = adaptive->rate_max_per_s;
      key = "rate_max_per_s";
    }
    if (!rate) continue;  // bulk and unpaced bounded drains are paced at the cap
    const std::string pointer = ChildPointer("/drains/" + std::to_string(c.drain_origins[i]), key);
    const std::string got = FormatNumber(*rate) + " messages/s is faster than ";
    if (sqs && *rate > kSqsRedriveRateMax) {
      c.problems.Add(pointer, got +
                                  "SQS allows: a DLQ redrive (StartMessageMoveTask) moves at most "
                                  "500 messages/s (MaxNumberOfMessagesPerSecond), a hard limit of "
                                  "preset \"sqs\"");
    } else if (cap && *rate > *cap) {
      c.problems.Add(pointer, got + "broker.redrive_rate_max_per_s = " + FormatNumber(*cap) +
                                  " allows: the broker moves dead-lettered messages back at most "
                                  "that fast");
    }
  }
}

void CheckSqs(const Limits& l) {
  const config::Broker& b = l.s.broker;
  if (!b.redrive_rate_max_per_s || *b.redrive_rate_max_per_s > kSqsRedriveRateMax) {
    const std::string got = b.redrive_rate_max_per_s
                                ? FormatNumber(*b.redrive_rate_max_per_s) + " messages/s"
                                : std::string("null (no cap)");
    l.Add("/broker/redrive_rate_max_per_s", got, "is faster than", "SQS",
          "a DLQ redrive (StartMessageMoveTask) moves at most 500 messages/s "
          "(MaxNumberOfMessagesPerSecond)");
  }
  l.Seconds("/broker/visibility_timeout_s", b.visibility_timeout, 0, 43200, false, "SQS",
            "a visibility timeout lasts at most 43200 s, 12 hours (VisibilityTimeout)");
  constexpr std::string_view kRetention =
      "a queue keeps messages 60..1209600 s, 1 minute to 14 days (MessageRetentionPeriod)";
  l.Seconds("/broker/retention_s", b.retention, 60, 1209600, false, "SQS", kRetention);
  l.Seconds("/broker/dlq_retention_s", b.dlq_retention, 60, 1209600, false, "SQS", kRetention);
  l.Count("/broker/receive_count_max", b.receive_count_max, 1, 1000, "SQS",
          "a redrive policy's maxReceiveCount is 1..1000");
}

void CheckPubsub(const Limits& l) {
  const config::Broker& b = l.s.broker;
  l.Count("/broker/receive_count_max", b.receive_count_max, 5, 100, "Pub/Sub",
          "a dead-letter policy's maximum delivery attempts are 5..100 (maxDeliveryAttempts)");
  l.Seconds("/broker/visibility_timeout_s", b.visibility_timeout, 10, 600, false, "Pub/Sub",
            "an ack deadline is 10..600 s (ackDeadlineSeconds)");
  l.Seconds("/broker/dlq_retention_s", b.dlq_retention, 0, 2678400, false, "Pub/Sub",
            "a subscription keeps messages at most 2678400 s, 31 days "
            "(messageRetentionDuration)");
  if (!b.redelivery_backoff) return;
  constexpr std::string_view kBackoff =
      "a retry policy backs off 0..600 s (minimumBackoff, maximumBackoff)";
  const std::string base = "/broker/redelivery_backoff/";
  const config::Backoff::Curve& curve = b.redelivery_backoff->curve;
  std::optional<engine::Duration> longest;
  std::string key;
  if (const auto* c = std::get_if<config::ConstantBackoff>(&curve)) {
    longest = c->delay;
    key = "delay_s";
  } else if (const auto* c = std::get_if<config::LinearBackoff>(&curve)) {
    longest = c->cap;
    key = "cap_s";
  } else if (const auto* c = std::get_if<config::ExponentialBackoff>(&curve)) {
    longest = c->cap;
    key = "cap_s";
  } else {
    l.Add(base + "kind", "\"sidekiq\" (no maximum)", "is longer than", "Pub/Sub", kBackoff);
    return;
  }
  l.Seconds(base + key, longest, 0, 600, false, "Pub/Sub", kBackoff);
}

void CheckAzureServiceBus(const Limits& l) {
  l.Seconds("/broker/visibility_timeout_s", l.s.broker.visibility_timeout, 5, 300, false,
            "Service Bus", "a message lock lasts 5..300 s, at most 5 minutes (LockDuration)");
}

void CheckRabbitmqQuorum(const Limits& l) {
  int major = 0;
  int minor = 0;
  const std::string version = l.s.broker.version.value_or(std::string(kRabbitmqDefaultVersion));
  if (!ParseBrokerVersion(version, &major, &minor)) return;
  if (major < 3 || (major == 3 && minor < 10)) {
    l.Add("/broker/version", Quote(version), "is older than", "the RabbitMQ model",
          "drainsim models quorum queues of RabbitMQ 3.10 and later (3.10-3.13: every return "
          "counts, no default delivery limit; 4.0: a default limit of 20; 4.3: reject and crash "
          "only)");
  } else if (major == 3 && minor > 13) {
    l.c.problems.Add("/broker/version", Quote(version) +
                                            " is not a RabbitMQ release: the 3.x series ended "
                                            "with 3.13, then 4.0" +
                                            l.Tail());
  } else if (l.s.broker.delayed_retry && (major < 4 || (major == 4 && minor < 3))) {
    l.c.problems.Add("/broker/delayed_retry",
                     "RabbitMQ " + version +
                         " has no delayed retry: quorum queues delay returns from 4.3.0 "
                         "(x-delayed-retry-type, release notes 4.3.0)" +
                         l.Tail());
  }
}

// A field that models one broker's own feature, set under another preset: refused at
// `pointer` with "<is> <broker's name> <what>".
void OnlyUnder(const Limits& l, bool set, config::BrokerPreset owner, const char* pointer,
               const std::string& is, const std::string& what) {
  if (!set || *l.s.broker.preset == owner) return;
  l.c.problems.Add(pointer, is + std::string(config::NameOf(*l.s.broker.preset)) + what + l.Tail());
}

// delayed_retry is RabbitMQ 4.3 quorum queues' own: another preset's broker has its own way
// (Pub/Sub's retry policy is redelivery_backoff, NATS's NakWithDelay too). message_groups is SQS
// FIFO queues' MessageGroupId, or with message_group_kind Service Bus sessions or Pub/Sub
// ordering keys: each only under its own broker's preset (docs/PRESETS.md); Kafka's partitions
// are `partitions`, each owned by one consumer.
void FeaturesOfOtherBrokers(const Limits& l) {
  OnlyUnder(l, l.s.broker.delayed_retry.has_value(), config::BrokerPreset::kRabbitmqQuorum,
            "/broker/delayed_retry", "is RabbitMQ 4.3 quorum queues' delayed retry, not something ",
            " does (a broker-side delay of a return: see redelivery_backoff)");
  const config::MessageGroupKind kind =
      l.s.broker.message_group_kind.value_or(config::MessageGroupKind::kFifoGroup);
  if (kind == config::MessageGroupKind::kFifoGroup) {
    OnlyUnder(l, l.s.broker.message_groups.has_value(), config::BrokerPreset::kSqs,
              "/broker/message_groups", "are SQS FIFO queues' message groups, and ",
              " orders messages by other rules (message_group_kind \"session\" for Service Bus, "
              "\"ordering_key\" for Pub/Sub)");
  } else if (l.s.broker.message_groups) {
    const bool session = kind == config::MessageGroupKind::kSession;
    OnlyUnder(l, true,
              session ? config::BrokerPreset::kAzureServiceBus : config::BrokerPreset::kPubsub,
              "/broker/message_group_kind",
              session ? "\"session\" is Azure Service Bus sessions, and "
                      : "\"ordering_key\" is Google Pub/Sub ordering keys, and ",
              session ? " has no sessions (preset azure-service-bus, or none)"
                      : " has no ordering keys (preset pubsub, or none)");
  }
  OnlyUnder(l, l.s.broker.partitions.has_value(), config::BrokerPreset::kKafka,
            "/broker/partitions", "are a Kafka topic's partitions, and ",
            " has no partitions owned by one consumer each");
}

// broker.version (or the preset's default) against the oldest release `model` covers: older is
// refused with `rule`, which names what was checked.
void CheckOldestVersion(const Limits& l, std::string_view default_version, int oldest_major,
                        int oldest_minor, std::string_view model, std::string_view rule) {
  int major = 0;
  int minor = 0;
  const std::string version = l.s.broker.version.value_or(std::string(default_version));
  if (!ParseBrokerVersion(version, &major, &minor)) return;
  if (major < oldest_major || (major == oldest_major && minor < oldest_minor)) {
    l.Add("/broker/version", Quote(version), "is older than", model, rule);
  }
}

void CheckSidekiq(const Limits& l) {
  CheckOldestVersion(l, kSidekiqDefaultVersion, 6, 5, "the Sidekiq model",
                     "drainsim models Sidekiq 6.5 and later, the releases whose retry formula "
                     "docs/PRESETS-AUDIT.md checked (up to 7.x: rand(10) * (count + 1); 8.0 and "
                     "later: rand(10 * (count + 1)))");
}

void CheckNats(const Limits& l) {
  CheckOldestVersion(l, kNatsDefaultVersion, 2, 10, "the NATS model",
                     "drainsim models NATS JetStream 2.10 and later, the releases whose "
                     "consumer.go docs/PRESETS-AUDIT.md checked (AckWait 30 s, MaxDeliver "
                     "unlimited, MaxAckPending 1000)");
}

void CheckCelery(const Limits& l) {
  CheckOldestVersion(l, kCeleryDefaultVersion, 5, 4, "the Celery model",
                     "drainsim models Celery 5.4 and later on kombu's Redis transport, the "
                     "releases whose restore sweep docs/PRESETS-AUDIT.md checked (kombu 5.4.2, "
                     "5.5.4 and 5.6.2: identical)");
}

void CheckBullmq(const Limits& l) {
  CheckOldestVersion(l, kBullmqDefaultVersion, 5, 0, "the BullMQ model",
                     "drainsim models BullMQ 5.x (worker.ts and the stalled-job script read at "
                     "v5.81.3); Bull 3.x and BullMQ before 5.0 were not checked");
}

// A consumer group's broker counts no deliveries of a record (only share groups do: the
// kafka-share preset): the consumer's error handler counts failures (retry.classes'
// attempts_max).
void CheckKafka(const Limits& l) {
  CheckOldestVersion(l, kKafkaDefaultVersion, 3, 0, "the Kafka consumer-group model",
                     "drainsim models Kafka 3.0 and later consumer groups (session.timeout.ms "
                     "45 s from 3.0, KIP-735) with Spring for Apache Kafka 2.8 and later "
                     "(DefaultErrorHandler)");
  const char* rule =
      "a consumer group's broker keeps offsets, not a delivery count per record; "
      "Spring Kafka's DefaultErrorHandler counts failures (retry.classes' "
      "attempts_max)";
  if (l.s.broker.receive_count_max) {
    l.c.problems.Add("/broker/receive_count_max",
                     "is not something Kafka can do: " + std::string(rule) + l.Tail());
  }
  if (l.s.broker.delivery_limit) {
    l.c.problems.Add("/broker/delivery_limit",
                     "is not something Kafka can do: " + std::string(rule) + l.Tail());
  }
}

// Kafka share groups (KIP-932): the broker counts deliveries (receive_count_max is
// group.share.delivery.count.limit) and locks each acquired record (visibility_timeout_s is
// group.share.record.lock.duration.ms). Sources: ShareGroupConfig.java's ConfigDef ranges, the
// upgrade notes (share groups production-ready in 4.2), the 4.4 group configs (a DLQ topic,
// KIP-1191); docs/PRESETS.md names the stored commits read.
void CheckKafkaShare(const Limits& l) {
  const config::Broker& b = l.s.broker;
  int major = 0;
  int minor = 0;
  const std::string version = b.version.value_or(std::string(kKafkaShareDefaultVersion));
  if (ParseBrokerVersion(version, &major, &minor)) {
    if (major < 4 || (major == 4 && minor < 2)) {
      l.Add("/broker/version", Quote(version), "is older than", "the Kafka share-group model",
            "drainsim models share groups from Kafka 4.2, where they are production-ready "
            "(early access in 4.0, preview in 4.1: KIP-932, upgrade notes 4.2)");
    } else if (b.dead_letter_queue && major == 4 && minor < 4) {
      l.c.problems.Add("/broker/dead_letter_queue",
                       "true needs Kafka 4.4 (broker.version \"" + version +
                           "\"): a share group's dead-letter topic is KIP-1191, the group "
                           "config errors.deadletterqueue.topic.name of Kafka 4.4; before it a "
                           "record at the delivery count limit is archived (without_dlq "
                           "\"archived\")" +
                           l.Tail());
    }
  }
  if (!b.receive_count_max) {
    l.Add("/broker/receive_count_max", "null (no limit)", "is more than", "Kafka",
          "a share group's delivery count limit is 2..10 (group.share.delivery.count.limit, "
          "ShareGroupConfig.java)");
  }
  l.Count("/broker/receive_count_max", b.receive_count_max, 2, 10, "Kafka",
          "a share group's delivery count limit is 2..10 (group.share.delivery.count.limit, "
          "ShareGroupConfig.java)");
  l.Seconds("/broker/visibility_timeout_s", b.visibility_timeout, 1, 3600, false, "Kafka",
            "a share group's record lock lasts 1..3600 s (group.share.record.lock.duration.ms "
            "1000..3600000 ms, within group.share.min/max.record.lock.duration.ms, by default "
            "15..60 s; ShareGroupConfig.java)");
  if (b.delivery_limit) {
    l.c.problems.Add("/broker/delivery_limit",
                     "is not something Kafka share groups do: the broker counts every delivery "
                     "of a record, lock expiries too (group.share.delivery.count.limit: "
                     "receive_count_max)" +
                         l.Tail());
  }
}

// Brokers that learn of a dead consumer only when its lease runs out: nothing hands its
// messages back at once (requeue_on_crash immediate) or fails them (fail), as a closed AMQP
// channel or Celery's worker does. `rule` names what the broker does instead and its source
// (the URLs are in scenarios/presets/README.md, the preset's "crashed consumer" row).
void CrashOnlyByTimeout(const Limits& l, std::string_view broker, std::string_view rule) {
  const config::RequeueOnCrash value = l.s.broker.requeue_on_crash;
  if (value == config::RequeueOnCrash::kAfterVisibilityTimeout) return;
  l.c.problems.Add("/broker/requeue_on_crash",
                   Quote(config::NameOf(value)) + " is not something " + std::string(broker) +
                       " can do: " + std::string(rule) +
                       "; only \"after_visibility_timeout\" models it" + l.Tail());
}

}  // namespace

void CheckBrokerLimits(const config::Scenario& s, Context& c) {
  CheckDrainRates(s, c);
  if (!s.broker.preset) return;
  const Limits limits{s, c};
  FeaturesOfOtherBrokers(limits);
  switch (*s.broker.preset) {
    case config::BrokerPreset::kSqs:
      CheckSqs(limits);
      // https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html
      CrashOnlyByTimeout(limits, "SQS",
                         "a received message stays invisible until its visibility timeout ends, "
                         "whatever became of the consumer (VisibilityTimeout)");
      break;
    case config::BrokerPreset::kPubsub:
      CheckPubsub(limits);
      // https://cloud.google.com/pubsub/docs/subscription-properties
      CrashOnlyByTimeout(limits, "Pub/Sub",
                         "an unacknowledged message is redelivered when its ack deadline "
                         "expires (ackDeadlineSeconds)");
      break;
    case config::BrokerPreset::kAzureServiceBus:
      CheckAzureServiceBus(limits);
      // https://learn.microsoft.com/azure/service-bus-messaging/message-transfers-locks-settlement
      CrashOnlyByTimeout(limits, "Service Bus",
                         "a crashed receiver's message becomes available again when its lock "
                         "expires (LockDuration)");
      break;
    case config::BrokerPreset::kRabbitmqQuorum:
      CheckRabbitmqQuorum(limits);
      break;
    case config::BrokerPreset::kBullmq:
      CheckBullmq(limits);
      // https://docs.bullmq.io/guide/workers/stalled-jobs
      CrashOnlyByTimeout(limits, "BullMQ",
                         "a crashed worker's job stays active until its lock expires and the "
                         "stalled-job check moves it back to wait (lockDuration)");
      break;
    case config::BrokerPreset::kSidekiq:
      CheckSidekiq(limits);
      break;
    case config::BrokerPreset::kNatsJetstream:
      CheckNats(limits);
      // nats-server server/consumer.go@v2.14.5, checkPending
      CrashOnlyByTimeout(limits, "NATS JetStream",
                         "a message delivered to a consumer that went away is redelivered when "
                         "its AckWait runs out (checkPending)");
      break;
    case config::BrokerPreset::kKafka:
      CheckKafka(limits);
      break;
    case config::BrokerPreset::kKafkaShare:
      CheckKafkaShare(limits);
      // SharePartition.java: an acquired record's lock times out and the record is AVAILABLE
      CrashOnlyByTimeout(limits, "Kafka share groups",
                         "a crashed consumer's acquired records become available again when "
                         "their acquisition locks expire (group.share.record.lock.duration.ms)");
      break;
    case config::BrokerPreset::kCelery:
      CheckCelery(limits);
      break;
  }
}

}  // namespace drainsim::scenario::internal
