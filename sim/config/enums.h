// The closed sets of words a scenario uses (error classes, strategies, metric names, ...).
//
// Every enum here is mapped to exactly one JSON string by the tables in enum_names.h; the
// loader accepts only those strings (an unknown one is a problem that lists the allowed
// values), and the dump writes them back. The order of the enumerators is the order in which
// the allowed values are listed in messages and in scenarios/schema.json.
//
// Where an enum names the alternatives of a std::variant (ProducerShape, FaultType, ...), the
// enumerators are in the same order as the variant's alternatives, so that
// `static_cast<E>(v.index())` names the alternative. static_asserts next to each variant keep
// the two in step.
#pragma once

#include <cstdint>

namespace drainsim::config {

// How a kind's handler protects itself against running twice for the same key.
enum class Idempotency : uint8_t {
  kClaim,     // "claim": a unique claim row (INSERT ... ON CONFLICT DO NOTHING) stops re-runs.
  kConverge,  // "converge": set-shaped work; a re-run costs time but changes nothing.
  kNone,      // "none": a re-run is a visible duplicate (a second email, an inflated counter).
};

// Why an attempt failed; picks the retry route (see RetryPolicy).
enum class ErrorClass : uint8_t {
  kRateLimited,  // "rate_limited": 429 with Retry-After.
  kTransient,    // "transient": lock timeout, connection reset, 503.
  kPermanent,    // "permanent": validation error, missing tenant, poison pill.
  kUnknown,      // "unknown": anything unclassified.
};

// Why a message is in the dead letter queue. Drains select on it.
enum class DlqReason : uint8_t {
  kMaxAttempts,      // "max_attempts": its class's attempts_max ran out.
  kNotRetryable,     // "not_retryable": its class's action is dead_letter (no retry at all).
  kReceiveCountMax,  // "receive_count_max": the broker's receive_count_max was reached.
  kRetryBudget,      // "retry_budget": the retry budget refused a retry.
  kMaxLength,        // "max_length": dropped from the head of a full queue (overflow drop_head).
  kDeliveryLimit,    // "delivery_limit": its counted returns exceeded broker.delivery_limit.
  kStalled,          // "stalled": its lock expired more than broker.stalled_count_max times.
  kWorkerLost,       // "worker_lost": its worker died mid-attempt (requeue_on_crash "fail").
};
inline constexpr int kDlqReasonCount = 8;

// Where a backlog entry's messages are when the run starts.
enum class BacklogWhere : uint8_t {
  kMain,     // "main": ready in the main queue.
  kDelayed,  // "delayed": waiting in the delay queue for a retry.
  kDlq,      // "dlq": in the dead letter queue.
};

// Named broker flavours. A preset fills documented defaults (scenarios/presets/README.md) under
// whatever the scenario gives; every field stays overridable within the broker's hard limits.
enum class BrokerPreset : uint8_t {
  kSqs,              // "sqs"
  kRabbitmqQuorum,   // "rabbitmq-quorum"
  kSidekiq,          // "sidekiq"
  kCelery,           // "celery"
  kBullmq,           // "bullmq"
  kPubsub,           // "pubsub"
  kAzureServiceBus,  // "azure-service-bus"
  kNatsJetstream,    // "nats-jetstream"
  kKafka,            // "kafka": a Kafka consumer group under Spring for Apache Kafka's defaults
  kKafkaShare,       // "kafka-share": a Kafka share group (KIP-932, Kafka 4.2 and later)
};

// When a crashed consumer's unacked deliveries become deliverable again.
enum class RequeueOnCrash : uint8_t {
  kImmediate,               // "immediate": AMQP channel close requeues at once.
  kAfterVisibilityTimeout,  // "after_visibility_timeout": SQS waits out the timeout.
  // "fail": running attempts are acked as failed and nothing runs them again (broker_lost, cause
  // worker_lost), as Celery's acks_late does without task_reject_on_worker_lost; buffered
  // deliveries are requeued at once.
  kFail,
  // "lost": every delivery the consumer held is gone with it (broker_lost, cause crash): Sidekiq
  // OSS fetches with BRPOP, which removes the job from Redis before it runs.
  kLost,
};

// How dead-lettering hands a message to the DLQ.
enum class DeadLetterStrategy : uint8_t {
  // "at_most_once": published once and forgotten; a DLQ that refuses it loses it (RabbitMQ's
  // default, and the only mode of classic queues).
  kAtMostOnce,
  // "at_least_once": the main queue keeps the message, undeliverable, until the DLQ has taken
  // it (RabbitMQ quorum queues with dead-letter-strategy at-least-once).
  kAtLeastOnce,
};

// What becomes of a message that would be dead-lettered on a broker without a DLQ.
enum class WithoutDlq : uint8_t {
  kFailed,   // "failed": it ends failed, for a human (Celery's result backend records it).
  kDropped,  // "dropped": the broker discards it (RabbitMQ with no dead-letter exchange).
  // "skipped": the consumer's error handler logs it and moves past it (Spring Kafka's
  // DefaultErrorHandler without a recoverer): lost to the application.
  kSkipped,
  // "archived": the broker archives it and delivers it no more (a Kafka share group's record at
  // its delivery count limit, without a dead-letter topic): lost to the application.
  kArchived,
};

// What a visibility timeout (lock, ack deadline, consumer timeout) running out does.
enum class OnVisibilityTimeout : uint8_t {
  kRedeliver,     // "redeliver": that one message becomes deliverable again (SQS, Pub/Sub, ASB).
  kCloseChannel,  // "close_channel": RabbitMQ's consumer timeout closes the consumer's channel:
                  // every unacked delivery of that consumer is returned at once (up to 4.2).
  // "cancel_consumer": RabbitMQ 4.3 quorum queues cancel the consumer and return only the
  // deliveries that timed out (return kind consumer_timeout); the consumer subscribes again at
  // once.
  kCancelConsumer,
};

// Where a message a consumer returned (nack, reject, crash, consumer timeout) waits again.
// broker.delayed_retry's type: which returns the broker holds back (RabbitMQ 4.3 quorum queues'
// x-delayed-retry-type; its "disabled" is the field's null).
enum class DelayedRetryType : uint8_t {
  kAll,       // "all": every return
  kFailed,    // "failed": the returns delivery_counted lists (RabbitMQ: those that increment the
              // delivery count, reject and a crashed consumer's)
  kReturned,  // "returned": the others (RabbitMQ 4.3: nack and the consumer timeout)
};

enum class RequeuePosition : uint8_t {
  kTail,  // "tail": behind every ready message (classic queues; quorum queues of 3.x without a
          // delivery limit).
  kHead,  // "head": before every message never delivered, in the order returned (quorum queues'
          // returns queue, RabbitMQ 4.x and 3.x with a delivery limit).
  // "redeliveries_first": every message that was delivered before and is ready again (returned,
  // its visibility timeout run out, its redelivery backoff over) waits before every message
  // never delivered, in the order it became ready (NATS JetStream's redelivery queue).
  kRedeliveriesFirst,
  // "restored_to_head": a message whose visibility timeout ran out is put in front of every ready
  // message, so the last one restored is delivered next; returns (nack, reject, crash) wait at
  // the tail. Celery on Redis: kombu publishes with LPUSH, consumes with BRPOP and restores with
  // RPUSH, but requeues a reject with LPUSH (kombu/transport/redis.py@v5.6.2).
  kRestoredToHead,
};

// broker.message_group_kind: whose ordered delivery broker.message_groups models
// (docs/PRESETS.md, `message_group_kind`).
enum class MessageGroupKind : uint8_t {
  kFifoGroup,    // "fifo_group": SQS FIFO queues' MessageGroupId (the default)
  kSession,      // "session": Azure Service Bus sessions (SessionId)
  kOrderingKey,  // "ordering_key": Google Pub/Sub ordering keys
};

// The kinds of return a broker can count towards delivery_limit.
enum class ReturnKind : uint8_t {
  kNack,             // "nack": basic.nack with requeue.
  kReject,           // "reject": basic.reject with requeue.
  kCrash,            // "crash": the consumer's channel or connection closed (a crash).
  kConsumerTimeout,  // "consumer_timeout": returned by on_visibility_timeout close_channel or
                     // cancel_consumer.
};
inline constexpr int kReturnKindCount = 4;

// What a queue at its max_length does with a new publish.
enum class Overflow : uint8_t {
  kDropHead,       // "drop_head": the oldest ready message goes to the DLQ (RabbitMQ's default).
  kRejectPublish,  // "reject_publish": the publish is refused (nack); the message never enters.
};

// The moment from which DLQ retention is counted.
enum class RetentionFrom : uint8_t {
  kDeadLettered,  // "dead_lettered": from the moment the message entered the DLQ.
  kEnqueued,      // "enqueued": from its first publish (SQS standard queues do this).
};

// When the DLQ's retention and length cap remove entries.
enum class DlqTrim : uint8_t {
  // "continuous": each entry expires at its own retention deadline; after a dead-letter the
  // oldest go until at most dlq_max_length are left.
  kContinuous,
  // "on_dead_letter": only a dead-letter trims, in one step after adding its entry: every entry
  // past retention goes, then the oldest go until at most dlq_max_length - 1 are left (Sidekiq's
  // send_to_morgue: ZADD, ZREMRANGEBYSCORE, ZREMRANGEBYRANK 0 -dead_max_jobs).
  kOnDeadLetter,
};

// How the downstream API states Retry-After on a 429.
enum class RetryAfterFormat : uint8_t {
  kSeconds,   // "seconds": "Retry-After: 7".
  kHttpDate,  // "http_date": an HTTP date: whole seconds, on the server's (skewed) clock.
  kNone,      // "none": no header; the client falls back to its own backoff.
};

// How a retry waits.
enum class RetryDelivery : uint8_t {
  kRepublish,        // "republish": re-published with a delay; the worker slot is freed.
  kSleepInConsumer,  // "sleep_in_consumer": the consumer sleeps and keeps its slot.
  // "requeue": nack/reject with requeue (AMQP), abandon (Service Bus), nack (Pub/Sub): back to the
  // queue at once, or after broker.redelivery_backoff.
  kRequeue,
  // "visibility_timeout": the consumer does not delete it; it reappears when the delivery's
  // visibility timeout ends (SQS: no backoff of its own).
  kVisibilityTimeout,
  // "eta_in_consumer": re-published at once with an ETA; a consumer takes it and holds it
  // (outside its prefetch, as Celery raises its QoS) until the ETA, while the visibility timeout
  // runs: a delay longer than the timeout is redelivered, and every holder runs it.
  kEtaInConsumer,
};

// Which AMQP method a "requeue" retry uses (RabbitMQ 4.3 counts reject, not nack).
enum class RequeueWith : uint8_t {
  kReject,  // "reject"
  kNack,    // "nack"
};

// When a Kafka consumer commits the offsets of the records a poll returned (broker.partitions).
enum class OffsetCommit : uint8_t {
  kRecord,  // "record": after each record (Spring's AckMode.RECORD; the kafka preset's).
  kBatch,   // "batch": once the whole batch is processed (Spring's default AckMode.BATCH).
  // "auto": at a poll, once auto_commit_interval has passed since the last commit, the records
  // the previous polls returned (Kafka's enable.auto.commit).
  kAuto,
  // "before_processing": the batch's offsets at the poll, before processing (at most once).
  kBeforeProcessing,
};

// Whether the broker accepts the ack of a delivery whose visibility timeout (lock) ran out.
enum class StaleAck : uint8_t {
  kHonored,  // "honored": the message is deleted (an SQS delete with an old receipt handle).
  kRefused,  // "refused": the lock is lost (Service Bus MessageLockLostException): it stays.
};

// What a redriven message's attempt count becomes.
enum class RedriveAttempts : uint8_t {
  kReset,  // "reset": a new life, attempt 1 (SQS move task, the default).
  kKeep,   // "keep": the manual retry itself is not counted (Sidekiq retry_count - 1).
};

enum class BackoffKind : uint8_t {
  kConstant,     // "constant": delay_s every time.
  kLinear,       // "linear": base_s + step_s * (attempt - 1), capped at cap_s.
  kExponential,  // "exponential": base_s * factor^(attempt - 1), capped at cap_s.
  kSidekiq,      // "sidekiq": count^4 + 15 + a random term (SidekiqRandomTerm) seconds.
};

// The random term of Sidekiq's retry delay, count = retries so far (0 at the first failure).
enum class SidekiqRandomTerm : uint8_t {
  kStepped,    // "stepped": rand(10) * (count + 1), Sidekiq up to 7.x.
  kFullRange,  // "full_range": rand(10 * (count + 1)), Sidekiq 8.0 and later (commit e887ac6b).
};

enum class JitterKind : uint8_t {
  kNone,   // "none": the delay as computed.
  kFull,   // "full": uniform(0, delay).
  kEqual,  // "equal": delay / 2 + uniform(0, delay / 2).
  // "decorrelated": AWS's min(cap, uniform(base, 3 * previous)), the previous delay being base
  // before the first retry. The growth is the constant 3, not the backoff's `factor`; needs an
  // exponential backoff for base and cap.
  kDecorrelated,
  kProportional,  // "proportional": delay * uniform(low, high).
  // "full_whole_seconds": a whole number of seconds, uniform over 0..floor(delay) (Celery's
  // retry_jitter: random.randrange(countdown + 1)).
  kFullWholeSeconds,
  // "sidekiq": the delay plus Sidekiq's random term in whole seconds (Jitter::random_term), as
  // Sidekiq adds it to a custom sidekiq_retry_in delay (job_retry.rb delay_for).
  kSidekiq,
};

// What a retry class does with a failed attempt.
enum class ClassAction : uint8_t {
  kRetry,       // "retry": delayed retry until attempts_max, then dead letter.
  kDeadLetter,  // "dead_letter": dead letter at once (reason not_retryable).
  kPark,        // "park": straight to the parking lot for a human.
};

enum class CrashPoint : uint8_t {
  kAnywhere,             // "anywhere": at a random moment of whatever the worker is doing.
  kBetweenCommitAndAck,  // "between_commit_and_ack": work committed, ack never sent.
};

enum class DrainOthers : uint8_t {
  kPark,   // "park": DLQ messages the drain does not select go to the parking lot.
  kLeave,  // "leave": they stay in the DLQ (and may expire).
};

// The part of the run an expectation looks at.
enum class During : uint8_t {
  kRun,     // "run": the whole run.
  kDrains,  // "drains": while at least one drain is active.
  kFaults,  // "faults": while at least one fault window is open.
};

// "always": every sample in the window satisfies the bounds; "sometimes": at least one does.
enum class Quantifier : uint8_t {
  kAlways,
  kSometimes,
};

// Figures of a finished run (docs/METRICS.md), for `metric` expectations.
enum class RunMetric : uint8_t {
  kTimeToEmpty,           // "time_to_empty_s"
  kTimeToQuiet,           // "time_to_quiet_s"
  kDuplicateExecutions,   // "duplicate_executions"
  kDuplicatesSuppressed,  // "duplicates_suppressed"
  kVisibleDuplicates,     // "visible_duplicates"
  kHumanNeeded,           // "human_needed"
  kParked,                // "parked"
  kLost,                  // "lost"
  kExpired,               // "expired"
  kRefilled,              // "refilled"
  kPublished,             // "published"
  kAcked,                 // "acked"
  kAttempts,              // "attempts"
  kAttemptsPerSuccess,    // "attempts_per_success"
  kWastedWorker,          // "wasted_worker_s"
  kOldestAge,             // "oldest_age_s" (the maximum over the window)
  kMessageLatencyMean,    // "message_latency_mean_s"
  kMessageLatencyP50,     // "message_latency_p50_s"
  kMessageLatencyP99,     // "message_latency_p99_s"
  kMessageLatencyMax,     // "message_latency_max_s"
  kQueueWaitMean,         // "queue_wait_mean_s"
  kQueueWaitP50,          // "queue_wait_p50_s"
  kQueueWaitP99,          // "queue_wait_p99_s"
  kDlqInflow,             // "dlq_inflow"
  kDlqOutflow,            // "dlq_outflow"
  kDbUtilisation,         // "db_utilisation"
  kDbTimeouts,            // "db_timeouts"
  kDbQueueMax,            // "db_queue_max"
  kLiveP50,               // "live_p50_ms"
  kLiveP99,               // "live_p99_ms"
  kLiveErrors,            // "live_errors"
  kAgeAlertFirst,         // "age_alert_first_s"
  kDepthAlertFirst,       // "depth_alert_first_s"
  kDlqDepthAlertFirst,    // "dlq_depth_alert_first_s"
  kBacklogCleared,        // "backlog_cleared_s"
  kRetryAmplification,    // "retry_amplification"
  kTimeToRecover,         // "time_to_recover_s": after the last fault window (reports/recovery.h)
  kBrokerLost,            // "broker_lost": discarded by the broker by design (Results::broker_lost)
  kOrderingViolations,    // "ordering_violations": broker.message_groups (Results)
  kGroupHoldMax,          // "group_hold_max_s": broker.message_groups (Results)
  kRebalances,            // "rebalances": broker.partitions (Results)
  kThrottles,             // "throttles": workers.lambda_esm (Results)
  kDeadLetteredUnprocessed,  // "dead_lettered_unprocessed": workers.lambda_esm (Results)
};

// Sampled series (every run.sample_every_s), for `always` / `sometimes` expectations.
enum class SeriesMetric : uint8_t {
  kDepth,          // "depth": ready messages in the main queue.
  kDelayedDepth,   // "delayed_depth"
  kDlqDepth,       // "dlq_depth"
  kParked,         // "parked"
  kInFlight,       // "in_flight"
  kOldestAge,      // "oldest_age_s": age of the oldest message ready, delayed or in flight.
  kDlqInflow,      // "dlq_inflow_per_s"
  kDlqOutflow,     // "dlq_outflow_per_s"
  kWorkersBusy,    // "workers_busy": busy worker slots.
  kDbUtilisation,  // "db_utilisation"
  kDbQueue,        // "db_queue": queries waiting for a connection.
  kLiveP50,        // "live_p50_ms"
  kLiveP99,        // "live_p99_ms"
  kLiveErrors,     // "live_errors_per_s"
  // "partition_lag_max": the largest lag of any partition (broker.partitions only).
  kPartitionLagMax,
};

// Discriminators of the variants (order = order of the variant's alternatives).
enum class DistributionKind : uint8_t {
  kConstant,
  kUniform,
  kExponential,
  kLognormal,
  kNormal,
  kEmpirical,
};
enum class ProducerShape : uint8_t { kFanout, kConstant, kPoisson, kBurst };
// A fault type: the index of its struct in the variant config::Fault (faults.h), whose order
// is the one of the allowed values; config::kTypeOf<F> names one, and its JSON word is its
// struct's kInfo.name (faults.h), so adding a type needs no enumerator here.
enum class FaultType : uint8_t {};
enum class DrainStrategy : uint8_t { kBulk, kDrip, kBounded, kAdaptive };
// workers.autoscale.metric: what the autoscaler reads (config::Autoscale).
enum class AutoscaleMetric : uint8_t { kDepth, kAge };

}  // namespace drainsim::config
