// The loader's checks of how consumers take messages: message groups and their kinds, Kafka
// partitions with their polls and commits, a Lambda event-source mapping, an autoscaled pool
// (called by CheckScenario, in this order).
#include "sim/config/enum_names.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

// Message groups order the main queue by group; the fields below order or bound it by other
// rules, which no broker combines with message groups.
// Partitions are message groups that belong to a consumer: the same refusals, and neither
// with the other.
void CheckMessageGroups(const config::Broker& b, Context& c) {
  if (!b.message_groups && !b.partitions) return;
  if (b.message_groups && b.partitions) {
    c.problems.Add("/broker/partitions",
                   "cannot be combined with message_groups: a Kafka topic's partitions and an "
                   "SQS FIFO queue's groups are two brokers' ways to order messages");
    return;
  }
  const std::string by = b.partitions ? "partitions (a topic's partitions decide the order of "
                                        "delivery)"
                                      : "message_groups (a FIFO queue's groups decide the order "
                                        "of delivery)";
  const auto refuse = [&](const char* field, const std::string& got) {
    c.problems.Add(std::string("/broker/") + field,
                   got + " cannot be combined with " + by + ": remove one");
  };
  if (b.requeue_position != config::RequeuePosition::kTail) {
    refuse("requeue_position", Quote(config::NameOf(b.requeue_position)));
  }
  if (b.max_length) refuse("max_length", std::to_string(*b.max_length));
  if (b.ack_pending_max) refuse("ack_pending_max", std::to_string(*b.ack_pending_max));
  if (b.delayed_retry) refuse("delayed_retry", "a delayed retry");
}

// message_group_kind says whose groups message_groups are: nothing to say without them. Pub/Sub's
// client libraries run one ordering key's messages one at a time; drainsim runs a key's batch on
// one worker in order, which needs the worker to run one message at a time.
void CheckMessageGroupKind(const config::Scenario& s, Context& c) {
  const std::optional<config::MessageGroupKind>& kind = s.broker.message_group_kind;
  if (!kind) return;
  if (!s.broker.message_groups) {
    c.problems.Add("/broker/message_group_kind",
                   Quote(config::NameOf(*kind)) +
                       " applies only with broker.message_groups (the groups, sessions or "
                       "ordering keys the messages are spread over)");
    return;
  }
  if (*kind == config::MessageGroupKind::kOrderingKey && s.workers.concurrency != 1) {
    c.problems.Add("/workers/concurrency",
                   "must be 1 with message_group_kind \"ordering_key\" (got " +
                       std::to_string(s.workers.concurrency) +
                       "): a key's messages delivered together run one at a time, in order, "
                       "on the worker that received them");
  }
}

// A poll's batch and its offset commits (kafka_commit.h) are a consumer group's: refused
// without partitions, unless they are what the kafka preset fills (inert then).
void CheckOffsetCommit(const config::Scenario& s, Context& c) {
  const config::Broker& b = s.broker;
  const bool kafka = b.preset == config::BrokerPreset::kKafka;
  const char* why =
      "applies only with broker.partitions (a Kafka consumer's poll and offset "
      "commits are a consumer group's)";
  if (!b.partitions) {
    if (b.max_poll_records && !(kafka && *b.max_poll_records == 500)) {
      c.problems.Add("/broker/max_poll_records", why);
    }
    if (b.offset_commit && !(kafka && *b.offset_commit == config::OffsetCommit::kRecord)) {
      c.problems.Add("/broker/offset_commit", why);
    }
  }
  if (b.auto_commit_interval && b.offset_commit != config::OffsetCommit::kAuto) {
    c.problems.Add("/broker/auto_commit_interval_s",
                   "applies only with offset_commit \"auto\" (Kafka's auto.commit.interval.ms "
                   "is enable.auto.commit's)");
  }
}

// A Kafka consumer is one thread: it processes its partitions' records one at a time. A session
// timeout is a consumer group's: nothing to rebalance without partitions.
void CheckPartitions(const config::Scenario& s, Context& c) {
  if (s.broker.session_timeout && !s.broker.partitions) {
    c.problems.Add("/broker/session_timeout_s",
                   "applies only with broker.partitions (a consumer group's partitions are what "
                   "a rebalance moves)");
  }
  CheckOffsetCommit(s, c);
  if (!s.broker.partitions || s.workers.concurrency == 1) return;
  c.problems.Add("/workers/concurrency",
                 std::to_string(s.workers.concurrency) +
                     " cannot be combined with broker.partitions: a Kafka consumer processes "
                     "its records one at a time (set 1; more consumers are workers.count)");
}

// workers.lambda_esm (docs/PRESETS.md, "lambda_esm"): an SQS queue's Lambda event-source
// mapping. The workers are the function's execution environments, one invocation of one message
// each, so every field that says otherwise is refused at its own pointer.
void CheckLambdaEsm(const config::Scenario& s, Context& c) {
  if (!s.workers.lambda_esm) return;
  const config::LambdaEsm& esm = *s.workers.lambda_esm;
  if (s.broker.preset != config::BrokerPreset::kSqs) {
    c.problems.Add("/workers/lambda_esm",
                   "applies only with broker.preset \"sqs\" (a Lambda event-source mapping "
                   "reads an SQS queue)");
  }
  if (s.workers.count != esm.function_concurrency) {
    c.problems.Add("/workers/count",
                   std::to_string(s.workers.count) + " contradicts workers.lambda_esm." +
                       "function_concurrency " + std::to_string(esm.function_concurrency) +
                       ": with lambda_esm the workers are the function's execution environments "
                       "(set both to the function's reserved concurrency)");
  }
  const auto one = [&](const char* field, int64_t value) {
    if (value == 1) return;
    c.problems.Add(std::string("/workers/") + field,
                   std::to_string(value) +
                       " cannot be combined with workers.lambda_esm: an invocation processes "
                       "one message (set 1; batches are not modelled)");
  };
  one("prefetch", s.workers.prefetch);
  one("concurrency", s.workers.concurrency);
  const config::RetryDelivery delivery = s.retry.delivery;
  if (delivery == config::RetryDelivery::kSleepInConsumer ||
      delivery == config::RetryDelivery::kEtaInConsumer) {
    c.problems.Add("/retry/delivery",
                   Quote(config::NameOf(delivery)) +
                       " cannot be combined with workers.lambda_esm: an invocation that ends "
                       "returns its message; it cannot wait in the function");
  }
  if (s.broker.on_visibility_timeout != config::OnVisibilityTimeout::kRedeliver) {
    c.problems.Add("/broker/on_visibility_timeout",
                   Quote(config::NameOf(s.broker.on_visibility_timeout)) +
                       " cannot be combined with workers.lambda_esm: SQS makes one message "
                       "visible again (redeliver)");
  }
  if (s.broker.message_groups) {
    c.problems.Add("/broker/message_groups",
                   "cannot be combined with workers.lambda_esm: a FIFO queue's event-source "
                   "mapping scales by message group, which is not modelled");
  }
  if (s.broker.restore_sweep) {
    c.problems.Add("/broker/restore_sweep_s",
                   "cannot be combined with workers.lambda_esm: SQS makes a message visible "
                   "again when its visibility timeout ends, without a sweep");
  }
  if (s.broker.lock_renewal) {
    c.problems.Add("/broker/lock_renewal",
                   "cannot be combined with workers.lambda_esm: the ESM does not extend a "
                   "message's visibility timeout");
  }
}

// workers.autoscale (docs/MODEL.md, "Autoscaled workers"): the range and what it cannot be
// combined with, each at its own pointer.
void CheckAutoscale(const config::Scenario& s, Context& c) {
  if (!s.workers.autoscale) return;
  const config::Autoscale& a = *s.workers.autoscale;
  if (a.min > a.max) {
    c.problems.Add("/workers/autoscale/min",
                   std::to_string(a.min) + " is more than max " + std::to_string(a.max));
  } else if (s.workers.count < a.min || s.workers.count > a.max) {
    c.problems.Add("/workers/count", std::to_string(s.workers.count) +
                                         " is outside workers.autoscale's [min, max] = [" +
                                         std::to_string(a.min) + ", " + std::to_string(a.max) +
                                         "]: with autoscale it is the workers at the start");
  }
  if (s.broker.partitions) {
    c.problems.Add("/workers/autoscale",
                   "cannot be combined with broker.partitions: a Kafka consumer group "
                   "rebalances its partitions whenever a consumer joins or leaves, which "
                   "autoscaled workers would do at every decision (not modelled)");
  }
  if (s.workers.lambda_esm) {
    c.problems.Add("/workers/autoscale",
                   "cannot be combined with workers.lambda_esm: Lambda scales its own execution "
                   "environments and pollers; there is no worker pool to autoscale");
  }
}

}  // namespace

void CheckConsumerShapes(const config::Scenario& s, Context& c) {
  CheckMessageGroups(s.broker, c);
  CheckMessageGroupKind(s, c);
  CheckPartitions(s, c);
  CheckLambdaEsm(s, c);
  CheckAutoscale(s, c);
}

}  // namespace drainsim::scenario::internal
