// The system under test: broker, workers, database (with its live traffic) and the downstream
// API. Field comments state the JSON name where it differs, the unit, the default, and why one
// would change the value (LevelDB options.h style).
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) 1 <= workers.concurrency <= workers.prefetch.
//  (2) Scenario::database is set if any kind has db_ops > 0, any fault touches the database,
//      an adaptive drain runs, or an expectation reads a db_* or live_* metric.
//  (3) Scenario::downstream is set if any kind has downstream_calls > 0 or a fault touches it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/config/distribution.h"
#include "sim/config/enums.h"
#include "sim/config/retry.h"
#include "sim/engine/time.h"

namespace drainsim::config {

using engine::Duration;

// broker.delayed_retry: a returned message waits min(min x max(1, delivery_count), max) before it
// is ready again, delivery_count after this return's own count (RabbitMQ 4.3 quorum queues,
// rabbit_fifo.erl@v4.3.5 calculate_ready_at).
struct DelayedRetry {
  DelayedRetryType type = DelayedRetryType::kAll;
  Duration min;  // JSON min_s, > 0
  Duration max;  // JSON max_s, > 0; default min_s (a constant delay). Below min_s: a constant max
  bool operator==(const DelayedRetry&) const = default;
};

struct Broker {
  // The broker being modelled. Default null: drainsim's own defaults below. A preset fills the
  // broker's documented defaults into every field the scenario leaves out (the loader does it;
  // `drainsim dump` shows the result) and adds its hard limits to the checks.
  std::optional<BrokerPreset> preset;
  // rabbitmq-quorum, sidekiq, nats-jetstream and kafka-share only: the broker's version,
  // "MAJOR.MINOR", which picks the preset's defaults. RabbitMQ (3.10-3.13, 4.0 and later; default
  // "4.3"): before 4.3 every return counts towards delivery_limit, from 4.3 only reject and crash
  // do. Sidekiq (6.5 and later; default "8.1"): the backoff's random_term, "stepped" before 8.0,
  // "full_range" from 8.0. NATS (2.10 and later; default "2.14"): one table; older versions are
  // refused. Kafka share groups (4.2 and later, default "4.2"): one table; a dead-letter topic
  // (dead_letter_queue true) needs 4.4.
  std::optional<std::string> version;
  // JSON `visibility_timeout_s`, > 0. Default 30 s (SQS). A delivery not acked in this time is
  // delivered again even if its worker is still busy: set it above the slowest attempt
  // (including database timeouts) or expect duplicates. It is SQS's visibility timeout, Pub/Sub's
  // ack deadline, Service Bus's and BullMQ's lock duration, RabbitMQ's consumer timeout.
  Duration visibility_timeout = Duration::Seconds(30);
  // Default "redeliver". "close_channel": RabbitMQ's consumer timeout (up to 4.2) closes the
  // channel, so every unacked delivery of that consumer is returned, and the work it still runs
  // is stale. "cancel_consumer" (4.3 quorum queues): only the timed-out delivery is returned.
  OnVisibilityTimeout on_visibility_timeout = OnVisibilityTimeout::kRedeliver;
  // Default "honored": the ack of a copy whose visibility timeout ran out still deletes the
  // message (SQS). "refused": its lock is lost and the ack fails (Service Bus); the redelivered
  // copy decides.
  StaleAck stale_ack = StaleAck::kHonored;
  // Default false. True: a live consumer renews its lock (BullMQ's lock renewal), except while
  // an attempt's CPU step blocks it; the visibility timeout then runs out only during a CPU step
  // longer than it, or after a crash.
  bool lock_renewal = false;
  // JSON `stalled_check_s`, > 0. Default null: an expired lock is noticed at once. BullMQ checks
  // for stalled jobs every 30 s: an expiry is acted on at the next multiple of this period.
  std::optional<Duration> stalled_check;
  // JSON `restore_sweep_s`, > 0. Default null: a delivery is handed out again the moment its
  // visibility timeout runs out. Set: only a periodic sweep restores timed-out deliveries, at
  // every multiple of this period from t = 0 (the phase drainsim assumes: the sweeping worker
  // started with the run); each sweep restores every delivery whose timeout ran out strictly
  // before it, so a delivery fetched at a sweep (a restored message taken at once) waits a
  // whole period more. Celery on Redis (kombu 5.4-5.6): each worker sweeps about every 100 s
  // (a 10 s timer, 1 call in 10 scans). No effect with lock_renewal: a renewed lock has no
  // visibility timer (stalled_check_s is its sweep); not refused, as the celery preset sets it.
  std::optional<Duration> restore_sweep;
  // Times a message's visibility timeout (lock) may run out before it is dead-lettered with
  // reason "stalled" instead of redelivered, 0..1000. Default null: unlimited. BullMQ: 1.
  std::optional<int64_t> stalled_count_max;
  // Default "immediate" (AMQP). "after_visibility_timeout" models SQS, where a crashed
  // consumer's messages stay invisible until their timeout runs out; "fail" models Celery's
  // acks_late without task_reject_on_worker_lost.
  RequeueOnCrash requeue_on_crash = RequeueOnCrash::kImmediate;
  // Broker-side dead-lettering after this many receives (SQS maxReceiveCount, Service Bus
  // MaxDeliveryCount, Pub/Sub max delivery attempts), >= 1. Default null: off. Counts deliveries,
  // not attempts: visibility timeouts and crashes count too. Checked when the message would be
  // delivered again: it is dead-lettered (reason receive_count_max) instead.
  std::optional<int64_t> receive_count_max;
  // Quorum-queue delivery limit, 0..1000. Default null: off. A message whose counted returns
  // (see delivery_counted) exceed it is dead-lettered (reason delivery_limit) when returned.
  std::optional<int64_t> delivery_limit;
  // The returns that count towards delivery_limit, as a set. Default: all of them (RabbitMQ
  // 4.0-4.2); the rabbitmq-quorum preset at 4.3+ counts reject and crash only.
  std::array<bool, kReturnKindCount> delivery_counted{true, true, true, true};
  // Where a returned message waits again. Default "tail". "head": quorum queues serve returned
  // messages first, in the order returned (RabbitMQ 4.x). "redeliveries_first": every message
  // ready again after a delivery (returned, timed out, backoff over) is served first (NATS
  // JetStream).
  RequeuePosition requeue_position = RequeuePosition::kTail;
  // Most messages delivered and not yet settled (acked, dead-lettered, parked or lost), 1..1e6:
  // in flight, or waiting (ready or delayed) to be delivered again. Default null: no limit. At
  // the limit a message never delivered is not delivered (nor any behind it) until one
  // settles; redeliveries go on. NATS JetStream's MaxAckPending (1000 by default): the stall is
  // silent, seen only in the series (ack_pending) and in results.ack_pending_stalled_s.
  std::optional<int64_t> ack_pending_max;
  // Message group IDs the messages are spread over, 1..1e6 (SQS FIFO queues' MessageGroupId).
  // Default null: none, one FIFO for all. Set: each message belongs to one group, a hash of its
  // publish number; a group's messages are delivered in order, and none while one of them is in
  // flight (received, not yet deleted, returned or timed out), so a failing message holds its
  // group while the other groups flow. A returned or timed-out message goes back to its group's
  // front; a publish, a replay or the end of a delay joins its back. Not with requeue_position
  // other than tail, max_length, ack_pending_max or delayed_retry, nor a preset other than sqs
  // (message_group_kind below: azure-service-bus's sessions, pubsub's ordering keys).
  std::optional<int64_t> message_groups;
  // Whose ordered delivery message_groups models. Default null: "fifo_group" (the rules above,
  // SQS FIFO; allowed with preset sqs or none). "session": Azure Service Bus sessions (preset
  // azure-service-bus or none): the same one-message-in-flight rule per session, with Service
  // Bus's own retries (an abandoned message comes back at its session's front at once, so a
  // poison message holds its session for MaxDeliveryCount runs). "ordering_key": Google Pub/Sub
  // ordering keys (preset pubsub or none; needs workers.concurrency 1): a key free to deliver
  // goes to one worker with as many of its ready messages as the worker's prefetch has room
  // for, run in order; a message of the key nacked or past its ack deadline comes back in its
  // place, and every later message of the key delivered with or after it is delivered again
  // (even when its run succeeded: a duplicate execution, cause ordering_key); a delayed
  // redelivery (redelivery_backoff) holds the key. Needs message_groups. Why you would change
  // it: to see what your broker's ordering does to a poison message and to the other groups.
  std::optional<MessageGroupKind> message_group_kind;
  // Partitions of the topic, 1..100000 (Kafka). Default null: a shared queue. Set: each message
  // goes to one partition, a hash of its publish number (a keyed record's), and each partition
  // belongs to one consumer: worker i of N takes a contiguous range of them (Kafka's
  // RangeAssignor; with more workers than partitions the rest stay idle). A consumer takes its
  // partitions' records in order, one at a time per partition, the oldest front first; a failed
  // or timed-out record goes back to its partition's front and the consumer takes it again
  // before anything behind it (Spring Kafka's seek to the failed offset). A crashed consumer's
  // partitions wait for its restart, or move at a rebalance (session_timeout). Needs
  // workers.concurrency 1 (a consumer is one thread); not with message_groups or the fields
  // message_groups refuses, nor a preset other than kafka.
  std::optional<int64_t> partitions;
  // JSON `session_timeout_s`, in (0, 86400]. Default null: a crashed consumer keeps its
  // partitions until it restarts. Set (with partitions only): this long after a consumer
  // crashed, if it is still down, the group rebalances: the partitions are assigned again, in
  // ranges, over the consumers alive; a consumer that comes back and was left out rejoins with
  // another rebalance. A record in flight at a rebalance stays with its consumer until it is
  // acked or returned (the consumer gives up its partitions at its next poll). Kafka's
  // session.timeout.ms (45 s since 3.0).
  std::optional<Duration> session_timeout;
  // Most records a consumer's poll returns, 1..100000 (Kafka's max.poll.records), with
  // partitions only. Default null: Kafka's 500 (the kafka preset fills 500). A poll takes up to
  // this many ready records from the consumer's partitions, the oldest front first, and the
  // consumer processes them one at a time, in order. Under offset_commit "record" the model
  // takes them one at a time as before (the batch changes nothing a per-record commit sees);
  // under the other modes the whole batch is delivered at the poll and the visibility timeout
  // (max.poll.interval.ms) bounds the batch, from the poll to its last record. Lower it when
  // slow records make a batch outlast max.poll.interval.ms (the consumer leaves its group).
  std::optional<int64_t> max_poll_records;
  // When a consumer commits its records' offsets, with partitions only. Default null: "record"
  // (the kafka preset fills "record": every kafka report stays as it was). "batch" is Spring's
  // default AckMode.BATCH: set it to match a Spring listener with its defaults; a crash or a
  // leave then redelivers the whole uncommitted batch (duplicates of its processed records).
  // "auto" is enable.auto.commit (a crash redelivers what was processed since the last
  // commit); "before_processing" commits at the poll (at most once: a crash loses the batch's
  // unprocessed records, broker_lost cause committed_unprocessed).
  std::optional<OffsetCommit> offset_commit;
  // JSON `auto_commit_interval_s`, > 0, with offset_commit "auto" only. Default null: 5 s
  // (Kafka's auto.commit.interval.ms 5000). A longer interval commits less often and
  // redelivers more after a crash.
  std::optional<Duration> auto_commit_interval;
  // Most messages the main queue holds ready (RabbitMQ's x-max-length, which counts ready
  // messages only), 0..1e9. Default null: unbounded. Checked when producers publish: a publish
  // that leaves more ready messages than this overflows.
  std::optional<int64_t> max_length;
  // What a full queue does with a publish. Default "drop_head" (RabbitMQ's default).
  Overflow overflow = Overflow::kDropHead;
  // JSON `retention_s`, > 0. Default null: kept forever. Main-queue retention counted from
  // entering the queue (publish or redrive): an older message is deleted (expired) instead of
  // delivered. SQS: 4 days.
  std::optional<Duration> retention;
  // Broker-side delay before a requeued message (retry delivery "requeue") is deliverable again
  // (Pub/Sub's retry policy). Default null: at once. Its jitter applies.
  std::optional<Backoff> redelivery_backoff;
  // Default null: a return is ready again at once. Set: a return of the type's kinds (nack,
  // reject, crash, consumer timeout) waits delayed for the DelayedRetry's delay, then joins the
  // returned messages (requeue_position decides where). The delivery limit is checked before the
  // wait, at the return. RabbitMQ 4.3 quorum queues' delayed retry (x-delayed-retry-type, -min,
  // -max; default disabled). Not with redelivery_backoff. Unlike RabbitMQ, max_length does not
  // count the waiting messages (it counts ready ones only).
  std::optional<DelayedRetry> delayed_retry;
  // Default true. False: the broker has no DLQ (Celery): what would be dead-lettered ends as
  // without_dlq says; drains find nothing.
  bool dead_letter_queue = true;
  // With dead_letter_queue false. Default "failed": the message ends failed, for a human
  // (reported as parked, reason "failed:<dlq reason>"). "dropped": the broker discards it
  // (broker_lost, cause no_dead_letter_target), as RabbitMQ does without a dead-letter exchange.
  // "skipped": the consumer logs it and moves past it (broker_lost, cause skipped: Spring Kafka).
  // "archived": the broker archives it (broker_lost, cause archived: a Kafka share group).
  WithoutDlq without_dlq = WithoutDlq::kFailed;
  // Default "at_most_once". How dead-lettering hands a message to a DLQ that may refuse it
  // (dlq_overflow reject_publish): "at_most_once" loses a refused one (broker_lost, cause
  // dlq_full); "at_least_once" keeps it in the main queue, undeliverable, until the DLQ has room
  // (results: dead_letter_waiting_end).
  DeadLetterStrategy dead_letter_strategy = DeadLetterStrategy::kAtMostOnce;
  // JSON `dlq_retention_s`, > 0. Default 1209600 s (14 days, the SQS maximum); null: kept
  // forever. Shorten it to see data loss when a drain comes too late.
  std::optional<Duration> dlq_retention = Duration::Seconds(1209600);
  // Default "dead_lettered". "enqueued" counts retention from the first publish, as SQS
  // standard queues do: messages that took long to fail expire soon after dead-lettering.
  RetentionFrom dlq_retention_from = RetentionFrom::kDeadLettered;
  // Most messages the DLQ keeps, 1..1e9. Default null: unbounded. Past it the oldest expire
  // when a message is dead-lettered (Sidekiq's dead_max_jobs, 10,000); see dlq_trim for how
  // many are left.
  std::optional<int64_t> dlq_max_length;
  // Default "continuous": retention expires each entry at its own deadline, and a dead-letter
  // trims the oldest until dlq_max_length are left. "on_dead_letter": only a dead-letter trims
  // (entries past retention, then the oldest until dlq_max_length - 1 are left), as Sidekiq's
  // dead set does: an entry past retention stays until the next death.
  DlqTrim dlq_trim = DlqTrim::kContinuous;
  // What a DLQ at dlq_max_length does with another dead letter (the DLQ's own x-overflow).
  // Default "drop_head": the oldest entries go, as dlq_trim says (counted expired and
  // dlq_trimmed). "reject_publish": the new one is refused; dead_letter_strategy says what then.
  Overflow dlq_overflow = Overflow::kDropHead;
  // Probability, in [0, 1], that dead-lettering delivers the message to the DLQ twice (Pub/Sub's
  // forwarding is best effort). Default 0. The second copy is a new message with the same
  // idempotency key: replaying both runs the work twice.
  double dead_letter_duplicate_probability = 0;
  // JSON `redrive_rate_max_per_s`, in [1e-9, 1e6]. Default null: no cap. The broker's limit on
  // a drain's replay rate: bulk drains are paced at it, and a drain asking for more is an error
  // (SQS StartMessageMoveTask: 500 messages/s).
  std::optional<double> redrive_rate_max_per_s;
  // Default "reset": a redriven message starts a new life (SQS: a new message). "keep": the
  // attempt count survives, minus the replayed attempt itself (Sidekiq's manual retry).
  RedriveAttempts redrive_attempts = RedriveAttempts::kReset;
  bool operator==(const Broker&) const = default;
};

// workers.lambda_esm: an AWS Lambda event-source mapping (ESM) for SQS consumes the queue
// (docs/PRESETS.md, "lambda_esm"; only with broker.preset "sqs"). The workers are the function's
// execution environments: workers.count must equal function_concurrency, and prefetch and
// concurrency must be 1 (one invocation, one message: batches are not modelled). Pollers, not
// workers, receive: a poller receives one message and invokes the function, waiting for the
// invocation to end; when every environment is busy the invocation is throttled: the message was
// received (its receive count is up by one, its visibility timeout runs) but is not processed,
// and the poller is free again at once.
// The most pollers an ESM runs ("the maximum number of batches that an event source mapping can
// process simultaneously is 1,000", services-sqs-scaling.html, read 2026-12-07), and the bound of
// function_concurrency, maximum_concurrency and the scaling fields.
inline constexpr int64_t kLambdaEsmPollersMax = 1000;

struct LambdaEsm {
  // The function's reserved concurrency, 1..1000 (the default account concurrency quota).
  // Required. Must equal workers.count.
  int64_t function_concurrency = 1;
  // The ESM's ScalingConfig MaximumConcurrency, 2..1000. Default null: not set, the pollers
  // grow to pollers_max whatever the function's concurrency. Set: at most this many pollers,
  // so at most this many invocations in flight; at or below function_concurrency nothing is
  // throttled.
  std::optional<int64_t> maximum_concurrency;
  // Pollers when the run starts, 1..1000. Default 5 ("starts processing five batches at a
  // time"). Capped by maximum_concurrency.
  int64_t pollers_initial = 5;
  // Pollers added per minute while messages wait, 1..1000. Default 300 (Lambda developer
  // guide, services-sqs-scaling.html, read 2026-12-07; the 2023 Compute blog said 60): added
  // each whole second, initial + floor(rate x seconds scaled / 60), up to 1000 pollers.
  int64_t pollers_added_per_min = 300;
  bool operator==(const LambdaEsm&) const = default;
};

// workers.autoscale: a Kubernetes HorizontalPodAutoscaler as KEDA configures it for a queue
// scaler (metricType AverageValue), deciding how many workers run (docs/MODEL.md, "Autoscaled
// workers"; sources there). Every interval it reads the metric and proposes
// ceil(metric / target) workers, none if the metric is within 10% of target x current; a
// scale-up adds at most max(current, 4) workers per 15 s; a scale-down takes the largest
// proposal of the last cooldown. Not with broker.partitions or workers.lambda_esm.
struct Autoscale {
  // What a worker is meant to handle: "depth", the main queue's messages ready or in flight (the
  // backlog a queue scaler reports), or "age", the age in seconds of the oldest ready message.
  // Required.
  AutoscaleMetric metric = AutoscaleMetric::kDepth;
  // The metric's target per worker (AverageValue), > 0. Required. Lower it to scale out sooner.
  double target = 1;
  // Fewest workers, 1..max. Default 1. 0 (KEDA's activation, scaling to and from zero) is not
  // modelled.
  int64_t min = 1;
  // Most workers, min..100000. Required. What the database behind the workers must survive.
  int64_t max = 1;
  // JSON `interval_s`, (0, 3600]. Default 15 s, the HPA's sync period
  // (--horizontal-pod-autoscaler-sync-period): how often the metric is read. KEDA's
  // pollingInterval (30 s) matters only at zero, which is not modelled.
  Duration interval = Duration::Seconds(15);
  // JSON `lag_s`, [0, 3600]. Default 30 s. From a scale-up's decision until its new workers can
  // receive: pod scheduling, image pull, start-up and readiness.
  Duration lag = Duration::Seconds(30);
  // JSON `cooldown_s`, [0, 86400]. Default 300 s, the HPA's scaleDown stabilizationWindowSeconds:
  // a scale-down goes only as low as the largest proposal of this window. Longer holds workers
  // through a lull; shorter gives them back sooner and flaps more.
  Duration cooldown = Duration::Seconds(300);
  // JSON `grace_s`, [0, 86400]. Default 30 s, a pod's terminationGracePeriodSeconds: a removed
  // worker stops receiving at once, returns its prefetched messages, and its attempts still
  // running this long after are killed as by a crash.
  Duration grace = Duration::Seconds(30);
  bool operator==(const Autoscale&) const = default;
};

struct Workers {
  // Consumers, 1..100000. Required. With autoscale: the workers at the start, in
  // [autoscale.min, autoscale.max].
  int64_t count = 1;
  // Max unacked deliveries per consumer, 1..100000. Default 1. Prefetched messages beyond
  // `concurrency` wait in the consumer's buffer, invisible to other consumers: raise it for
  // throughput, lower it to see less starvation behind a slow or sleeping consumer.
  int64_t prefetch = 1;
  // Attempts a consumer runs at once, 1..prefetch. Default 1.
  int64_t concurrency = 1;
  // JSON `restart_s`, >= 0. Default 30 s. Time for a crashed consumer to come back.
  Duration restart = Duration::Seconds(30);
  // JSON `lambda_esm`. Default null: workers receive from the broker themselves. Set: a Lambda
  // event-source mapping's pollers receive for them (LambdaEsm).
  std::optional<LambdaEsm> lambda_esm;
  // JSON `autoscale`. Default null: `count` workers for the whole run. Set: an autoscaler
  // changes how many there are (Autoscale).
  std::optional<Autoscale> autoscale;
  bool operator==(const Workers&) const = default;
};

// Non-queue traffic that shares the connection pool: the users who pay for a drain.
struct LiveTraffic {
  // Poisson arrival rate of live queries, > 0. Required.
  double rate_per_s = 0;
  // JSON `query_ms`. Service time of one live query before overload and faults. Required.
  DistributionSpec query_ms;
  bool operator==(const LiveTraffic&) const = default;
};

struct Database {
  // Concurrent queries (pool size), 1..100000. Required. Waiting queries queue FIFO.
  int64_t connections = 1;
  // JSON `timeout_ms`, > 0. Default 30000 ms. Bounds wait + service: past it the caller gets
  // a transient error after having waited the whole timeout ("failing slowly").
  Duration timeout = Duration::Millis(30000);
  // 0..100. Default 0.5. Service time is multiplied by 1 + overload_factor * waiting /
  // connections, so an overloaded database does less useful work; 0 turns this off (a plain
  // M/M/c queue, as the validation suite wants).
  double overload_factor = 0.5;
  // CPUs the server's work shares, in (0, 100000]. Default null: no CPU limit, every running
  // query at full speed. With K, the running queries share K CPUs (processor sharing): each
  // progresses at min(1, K / running), so 8 queries on 1 CPU each take 8 times as long. What a
  // CPU-bound PostgreSQL did when measured (docs/LIVE.md); pair it with overload_factor 0.
  std::optional<double> cores;
  // Default null: no live traffic.
  std::optional<LiveTraffic> live_traffic;
  bool operator==(const Database&) const = default;
};

struct Downstream {
  // Token-bucket refill rate of the API's rate limit, in [1e-9, 1e9] (the token bucket's
  // range). Default null: unlimited.
  std::optional<double> rate_limit_per_s;
  // Token-bucket capacity, 1..1e9. Default: rate_limit_per_s rounded up (one second's worth),
  // or 1 without a rate limit.
  int64_t burst = 1;
  // How a 429 states Retry-After. Default "seconds".
  RetryAfterFormat retry_after = RetryAfterFormat::kSeconds;
  // JSON `clock_skew_s`, within +-86400. Default 0. The server clock minus ours; matters for
  // "http_date" only (a skewed date makes clients retry early or late).
  Duration clock_skew;
  // JSON `call_ms`. Duration of one successful call. Required.
  DistributionSpec call_ms;
  bool operator==(const Downstream&) const = default;
};

}  // namespace drainsim::config
