// The one mapping between the configuration's enums and their JSON strings.
//
// Contract:
//  (1) For each enum E, EnumNames<E>() lists every enumerator exactly once, in declaration
//      order, each with a distinct name.
//  (2) EnumFromName(EnumName(e)) == e for every enumerator; EnumFromName of any other string
//      is nullopt (matching is exact and case-sensitive).
// The scenario tests check (1) and compare each table with the enum lists of
// scenarios/schema.json, so the loader, the dump and the schema cannot drift apart.
//
// Thread-safety: constant tables; safe everywhere.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "sim/base/check.h"
#include "sim/config/enums.h"

namespace drainsim::config {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

// Specialised below for every enum of enums.h.
template <typename E>
std::span<const EnumName<E>> EnumNames();

#define DRAINSIM_ENUM_TABLE(E, ...)                        \
  template <>                                              \
  inline std::span<const EnumName<E>> EnumNames<E>() {     \
    static constexpr EnumName<E> kTable[] = {__VA_ARGS__}; \
    return kTable;                                         \
  }

DRAINSIM_ENUM_TABLE(Idempotency, {Idempotency::kClaim, "claim"},
                    {Idempotency::kConverge, "converge"}, {Idempotency::kNone, "none"})
DRAINSIM_ENUM_TABLE(ErrorClass, {ErrorClass::kRateLimited, "rate_limited"},
                    {ErrorClass::kTransient, "transient"}, {ErrorClass::kPermanent, "permanent"},
                    {ErrorClass::kUnknown, "unknown"})
DRAINSIM_ENUM_TABLE(DlqReason, {DlqReason::kMaxAttempts, "max_attempts"},
                    {DlqReason::kNotRetryable, "not_retryable"},
                    {DlqReason::kReceiveCountMax, "receive_count_max"},
                    {DlqReason::kRetryBudget, "retry_budget"},
                    {DlqReason::kMaxLength, "max_length"},
                    {DlqReason::kDeliveryLimit, "delivery_limit"}, {DlqReason::kStalled, "stalled"},
                    {DlqReason::kWorkerLost, "worker_lost"})
DRAINSIM_ENUM_TABLE(BacklogWhere, {BacklogWhere::kMain, "main"},
                    {BacklogWhere::kDelayed, "delayed"}, {BacklogWhere::kDlq, "dlq"})
DRAINSIM_ENUM_TABLE(BrokerPreset, {BrokerPreset::kSqs, "sqs"},
                    {BrokerPreset::kRabbitmqQuorum, "rabbitmq-quorum"},
                    {BrokerPreset::kSidekiq, "sidekiq"}, {BrokerPreset::kCelery, "celery"},
                    {BrokerPreset::kBullmq, "bullmq"}, {BrokerPreset::kPubsub, "pubsub"},
                    {BrokerPreset::kAzureServiceBus, "azure-service-bus"},
                    {BrokerPreset::kNatsJetstream, "nats-jetstream"}, {BrokerPreset::kKafka, "kafka"},
                    {BrokerPreset::kKafkaShare, "kafka-share"})
DRAINSIM_ENUM_TABLE(Overflow, {Overflow::kDropHead, "drop_head"},
                    {Overflow::kRejectPublish, "reject_publish"})
DRAINSIM_ENUM_TABLE(RequeueOnCrash, {RequeueOnCrash::kImmediate, "immediate"},
                    {RequeueOnCrash::kAfterVisibilityTimeout, "after_visibility_timeout"},
                    {RequeueOnCrash::kFail, "fail"}, {RequeueOnCrash::kLost, "lost"})
DRAINSIM_ENUM_TABLE(DeadLetterStrategy, {DeadLetterStrategy::kAtMostOnce, "at_most_once"},
                    {DeadLetterStrategy::kAtLeastOnce, "at_least_once"})
DRAINSIM_ENUM_TABLE(WithoutDlq, {WithoutDlq::kFailed, "failed"}, {WithoutDlq::kDropped, "dropped"},
                    {WithoutDlq::kSkipped, "skipped"}, {WithoutDlq::kArchived, "archived"})
DRAINSIM_ENUM_TABLE(OnVisibilityTimeout, {OnVisibilityTimeout::kRedeliver, "redeliver"},
                    {OnVisibilityTimeout::kCloseChannel, "close_channel"},
                    {OnVisibilityTimeout::kCancelConsumer, "cancel_consumer"})
DRAINSIM_ENUM_TABLE(DelayedRetryType, {DelayedRetryType::kAll, "all"},
                    {DelayedRetryType::kFailed, "failed"},
                    {DelayedRetryType::kReturned, "returned"})
DRAINSIM_ENUM_TABLE(RequeuePosition, {RequeuePosition::kTail, "tail"},
                    {RequeuePosition::kHead, "head"},
                    {RequeuePosition::kRedeliveriesFirst, "redeliveries_first"},
                    {RequeuePosition::kRestoredToHead, "restored_to_head"})
DRAINSIM_ENUM_TABLE(MessageGroupKind, {MessageGroupKind::kFifoGroup, "fifo_group"},
                    {MessageGroupKind::kSession, "session"},
                    {MessageGroupKind::kOrderingKey, "ordering_key"})
DRAINSIM_ENUM_TABLE(ReturnKind, {ReturnKind::kNack, "nack"}, {ReturnKind::kReject, "reject"},
                    {ReturnKind::kCrash, "crash"},
                    {ReturnKind::kConsumerTimeout, "consumer_timeout"})
DRAINSIM_ENUM_TABLE(RequeueWith, {RequeueWith::kReject, "reject"}, {RequeueWith::kNack, "nack"})
DRAINSIM_ENUM_TABLE(StaleAck, {StaleAck::kHonored, "honored"}, {StaleAck::kRefused, "refused"})
DRAINSIM_ENUM_TABLE(OffsetCommit, {OffsetCommit::kRecord, "record"},
                    {OffsetCommit::kBatch, "batch"}, {OffsetCommit::kAuto, "auto"},
                    {OffsetCommit::kBeforeProcessing, "before_processing"})
DRAINSIM_ENUM_TABLE(RedriveAttempts, {RedriveAttempts::kReset, "reset"},
                    {RedriveAttempts::kKeep, "keep"})
DRAINSIM_ENUM_TABLE(RetentionFrom, {RetentionFrom::kDeadLettered, "dead_lettered"},
                    {RetentionFrom::kEnqueued, "enqueued"})
DRAINSIM_ENUM_TABLE(DlqTrim, {DlqTrim::kContinuous, "continuous"},
                    {DlqTrim::kOnDeadLetter, "on_dead_letter"})
DRAINSIM_ENUM_TABLE(RetryAfterFormat, {RetryAfterFormat::kSeconds, "seconds"},
                    {RetryAfterFormat::kHttpDate, "http_date"}, {RetryAfterFormat::kNone, "none"})
DRAINSIM_ENUM_TABLE(RetryDelivery, {RetryDelivery::kRepublish, "republish"},
                    {RetryDelivery::kSleepInConsumer, "sleep_in_consumer"},
                    {RetryDelivery::kRequeue, "requeue"},
                    {RetryDelivery::kVisibilityTimeout, "visibility_timeout"},
                    {RetryDelivery::kEtaInConsumer, "eta_in_consumer"})
DRAINSIM_ENUM_TABLE(BackoffKind, {BackoffKind::kConstant, "constant"},
                    {BackoffKind::kLinear, "linear"}, {BackoffKind::kExponential, "exponential"},
                    {BackoffKind::kSidekiq, "sidekiq"})
DRAINSIM_ENUM_TABLE(SidekiqRandomTerm, {SidekiqRandomTerm::kStepped, "stepped"},
                    {SidekiqRandomTerm::kFullRange, "full_range"})
DRAINSIM_ENUM_TABLE(JitterKind, {JitterKind::kNone, "none"}, {JitterKind::kFull, "full"},
                    {JitterKind::kEqual, "equal"}, {JitterKind::kDecorrelated, "decorrelated"},
                    {JitterKind::kProportional, "proportional"},
                    {JitterKind::kFullWholeSeconds, "full_whole_seconds"},
                    {JitterKind::kSidekiq, "sidekiq"})
DRAINSIM_ENUM_TABLE(ClassAction, {ClassAction::kRetry, "retry"},
                    {ClassAction::kDeadLetter, "dead_letter"}, {ClassAction::kPark, "park"})
DRAINSIM_ENUM_TABLE(CrashPoint, {CrashPoint::kAnywhere, "anywhere"},
                    {CrashPoint::kBetweenCommitAndAck, "between_commit_and_ack"})
DRAINSIM_ENUM_TABLE(DrainOthers, {DrainOthers::kPark, "park"}, {DrainOthers::kLeave, "leave"})
DRAINSIM_ENUM_TABLE(During, {During::kRun, "run"}, {During::kDrains, "drains"},
                    {During::kFaults, "faults"})
DRAINSIM_ENUM_TABLE(Quantifier, {Quantifier::kAlways, "always"},
                    {Quantifier::kSometimes, "sometimes"})
DRAINSIM_ENUM_TABLE(
    RunMetric, {RunMetric::kTimeToEmpty, "time_to_empty_s"},
    {RunMetric::kTimeToQuiet, "time_to_quiet_s"},
    {RunMetric::kDuplicateExecutions, "duplicate_executions"},
    {RunMetric::kDuplicatesSuppressed, "duplicates_suppressed"},
    {RunMetric::kVisibleDuplicates, "visible_duplicates"},
    {RunMetric::kHumanNeeded, "human_needed"}, {RunMetric::kParked, "parked"},
    {RunMetric::kLost, "lost"}, {RunMetric::kExpired, "expired"},
    {RunMetric::kRefilled, "refilled"}, {RunMetric::kPublished, "published"},
    {RunMetric::kAcked, "acked"}, {RunMetric::kAttempts, "attempts"},
    {RunMetric::kAttemptsPerSuccess, "attempts_per_success"},
    {RunMetric::kWastedWorker, "wasted_worker_s"}, {RunMetric::kOldestAge, "oldest_age_s"},
    {RunMetric::kMessageLatencyMean, "message_latency_mean_s"},
    {RunMetric::kMessageLatencyP50, "message_latency_p50_s"},
    {RunMetric::kMessageLatencyP99, "message_latency_p99_s"},
    {RunMetric::kMessageLatencyMax, "message_latency_max_s"},
    {RunMetric::kQueueWaitMean, "queue_wait_mean_s"},
    {RunMetric::kQueueWaitP50, "queue_wait_p50_s"}, {RunMetric::kQueueWaitP99, "queue_wait_p99_s"},
    {RunMetric::kDlqInflow, "dlq_inflow"}, {RunMetric::kDlqOutflow, "dlq_outflow"},
    {RunMetric::kDbUtilisation, "db_utilisation"}, {RunMetric::kDbTimeouts, "db_timeouts"},
    {RunMetric::kDbQueueMax, "db_queue_max"}, {RunMetric::kLiveP50, "live_p50_ms"},
    {RunMetric::kLiveP99, "live_p99_ms"}, {RunMetric::kLiveErrors, "live_errors"},
    {RunMetric::kAgeAlertFirst, "age_alert_first_s"},
    {RunMetric::kDepthAlertFirst, "depth_alert_first_s"},
    {RunMetric::kDlqDepthAlertFirst, "dlq_depth_alert_first_s"},
    {RunMetric::kBacklogCleared, "backlog_cleared_s"},
    {RunMetric::kRetryAmplification, "retry_amplification"},
    {RunMetric::kTimeToRecover, "time_to_recover_s"}, {RunMetric::kBrokerLost, "broker_lost"},
    {RunMetric::kOrderingViolations, "ordering_violations"},
    {RunMetric::kGroupHoldMax, "group_hold_max_s"}, {RunMetric::kRebalances, "rebalances"},
    {RunMetric::kThrottles, "throttles"},
    {RunMetric::kDeadLetteredUnprocessed, "dead_lettered_unprocessed"})
DRAINSIM_ENUM_TABLE(
    SeriesMetric, {SeriesMetric::kDepth, "depth"}, {SeriesMetric::kDelayedDepth, "delayed_depth"},
    {SeriesMetric::kDlqDepth, "dlq_depth"}, {SeriesMetric::kParked, "parked"},
    {SeriesMetric::kInFlight, "in_flight"}, {SeriesMetric::kOldestAge, "oldest_age_s"},
    {SeriesMetric::kDlqInflow, "dlq_inflow_per_s"},
    {SeriesMetric::kDlqOutflow, "dlq_outflow_per_s"}, {SeriesMetric::kWorkersBusy, "workers_busy"},
    {SeriesMetric::kDbUtilisation, "db_utilisation"}, {SeriesMetric::kDbQueue, "db_queue"},
    {SeriesMetric::kLiveP50, "live_p50_ms"}, {SeriesMetric::kLiveP99, "live_p99_ms"},
    {SeriesMetric::kLiveErrors, "live_errors_per_s"},
    {SeriesMetric::kPartitionLagMax, "partition_lag_max"})
DRAINSIM_ENUM_TABLE(DistributionKind, {DistributionKind::kConstant, "constant"},
                    {DistributionKind::kUniform, "uniform"},
                    {DistributionKind::kExponential, "exponential"},
                    {DistributionKind::kLognormal, "lognormal"},
                    {DistributionKind::kNormal, "normal"},
                    {DistributionKind::kEmpirical, "empirical"})
DRAINSIM_ENUM_TABLE(ProducerShape, {ProducerShape::kFanout, "fanout"},
                    {ProducerShape::kConstant, "constant"}, {ProducerShape::kPoisson, "poisson"},
                    {ProducerShape::kBurst, "burst"})
DRAINSIM_ENUM_TABLE(DrainStrategy, {DrainStrategy::kBulk, "bulk"}, {DrainStrategy::kDrip, "drip"},
                    {DrainStrategy::kBounded, "bounded"}, {DrainStrategy::kAdaptive, "adaptive"})

DRAINSIM_ENUM_TABLE(AutoscaleMetric, {AutoscaleMetric::kDepth, "depth"},
                    {AutoscaleMetric::kAge, "age"})
#undef DRAINSIM_ENUM_TABLE

// Fault types are named by their kInfo (sim/config/faults.h), gathered in the variant's order.
template <>
std::span<const EnumName<FaultType>> EnumNames<FaultType>();

// The JSON string of `value`. REQUIRES: `value` is an enumerator of E.
template <typename E>
std::string_view NameOf(E value) {
  for (const EnumName<E>& entry : EnumNames<E>()) {
    if (entry.value == value) return entry.name;
  }
  DRAINSIM_CHECK(false && "enumerator missing from its name table");
  return {};
}

// The enumerator named `name`, or nullopt iff no enumerator has exactly that name.
template <typename E>
std::optional<E> FromName(std::string_view name) {
  for (const EnumName<E>& entry : EnumNames<E>()) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

}  // namespace drainsim::config
