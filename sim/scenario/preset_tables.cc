// The presets' rule tables: each preset's defaults by JSON pointer, with a one-line source
// (scenarios/presets/README.md is the user's copy; docs/PRESETS-AUDIT.md the audit at named
// versions), and the choice of a table by preset and broker version. presets.cc inserts them.
#include "sim/scenario/presets.h"

namespace drainsim::scenario {

namespace {

// The same route for every class: the broker (or the framework) does the counting.
#define DRAINSIM_CLASSES_ALL(value, source)                                                    \
  {"/retry/classes/rate_limited", value, source}, {"/retry/classes/transient", value, source}, \
      {"/retry/classes/permanent", value, source}, {                                           \
    "/retry/classes/unknown", value, source                                                    \
  }

constexpr PresetDefault kSqs[] = {
    {"/broker/visibility_timeout_s", "30", "SQS CreateQueue VisibilityTimeout default 30 s"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     "SQS: an unacked message reappears when its visibility timeout ends"},
    {"/broker/receive_count_max", "10",
     "SQS redrive policy maxReceiveCount (1..1000) has no default: 10 is drainsim's choice"},
    {"/broker/retention_s", "345600", "SQS MessageRetentionPeriod default 4 days"},
    {"/broker/dlq_retention_s", "345600", "SQS MessageRetentionPeriod default 4 days (the DLQ)"},
    {"/broker/dlq_retention_from", "\"enqueued\"",
     "SQS standard queues keep the original enqueue timestamp in the DLQ"},
    {"/broker/redrive_rate_max_per_s", "500",
     "SQS StartMessageMoveTask MaxNumberOfMessagesPerSecond at most 500"},
    {"/broker/redrive_attempts", "\"reset\"", "SQS: a moved message is a new message"},
    {"/retry/delivery", "\"visibility_timeout\"",
     "SQS: a failed message is not deleted and reappears after the visibility timeout"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",
                         "SQS: maxReceiveCount decides, not the application"),
};

// RabbitMQ quorum queues: the rules every version shares; each version's table adds its own
// (docs/PRESETS-AUDIT.md, section 1, has the sources at named versions).
#define DRAINSIM_RABBITMQ_QUORUM_COMMON                                                           \
  {"/broker/version", "\"4.3\"", "drainsim models RabbitMQ 4.3 unless told otherwise"},           \
      {"/broker/visibility_timeout_s", "1800", "RabbitMQ consumer_timeout default 30 minutes"},   \
      {"/broker/requeue_on_crash", "\"immediate\"",                                               \
       "AMQP: a closed channel's unacked deliveries are requeued at once"},                       \
      {"/broker/dlq_retention_s", "null", "RabbitMQ: a dead-letter queue has no TTL by default"}, \
      {"/retry/delivery", "\"requeue\"", "AMQP: basic.reject / basic.nack with requeue=true"},    \
      {"/retry/requeue_with", "\"reject\"", "AMQP clients commonly basic.reject a failure"},      \
      DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",                        \
                           "RabbitMQ: the delivery limit decides, not the application")

constexpr const char* kEveryReturn = "[\"nack\",\"reject\",\"crash\",\"consumer_timeout\"]";
constexpr const char* kLimit20 =
    "RabbitMQ 4.0 release notes: quorum queues now have a default redelivery limit (20)";
constexpr PresetDefault kCloseChannel = {
    "/broker/on_visibility_timeout", "\"close_channel\"",
    "RabbitMQ up to 4.2 (Consumers guide, delivery acknowledgement timeout): a consumer timeout "
    "closes the channel with PRECONDITION_FAILED and requeues all its deliveries"};
constexpr PresetDefault kReturnsFirst = {
    "/broker/requeue_position", "\"head\"",
    "RabbitMQ quorum queues with a delivery limit (always from 4.0): returned messages wait in "
    "a returns queue served before new ones (rabbit_fifo take_next_msg, v4.3.5)"};

// 3.10-3.13 differ only in where a return waits.
#define DRAINSIM_RABBITMQ_QUORUM_3X                                                               \
  DRAINSIM_RABBITMQ_QUORUM_COMMON, kCloseChannel,                                                 \
      {"/broker/delivery_limit", "null",                                                          \
       "RabbitMQ 3.10-3.13: no default delivery limit (Quorum Queues guide 3.13, poison message " \
       "handling: set by the delivery-limit policy or x-delivery-limit)"},                        \
  {                                                                                               \
    "/broker/delivery_counted", kEveryReturn,                                                     \
        "RabbitMQ 3.10-3.13: every return increments the delivery count"                          \
  }

constexpr PresetDefault kRabbitmqQuorum310[] = {
    DRAINSIM_RABBITMQ_QUORUM_3X,
    {"/broker/requeue_position", "\"head\"",
     "RabbitMQ before 3.13 returns a message near the head of the queue (Quorum Queues guide "
     "3.13, repeated requeues: 3.13 keeps this 'original behaviour' only with a delivery limit)"},
};

constexpr PresetDefault kRabbitmqQuorum313[] = {
    DRAINSIM_RABBITMQ_QUORUM_3X,
    {"/broker/requeue_position", "\"tail\"",
     "RabbitMQ 3.13 Quorum Queues guide, repeated requeues: without a delivery limit a returned "
     "message goes to the back of the queue (with one, near the head: set requeue_position "
     "head)"},
};

constexpr PresetDefault kRabbitmqQuorum40[] = {
    DRAINSIM_RABBITMQ_QUORUM_COMMON,
    kCloseChannel,
    kReturnsFirst,
    {"/broker/delivery_limit", "20", kLimit20},
    {"/broker/delivery_counted", kEveryReturn,
     "RabbitMQ 4.0-4.2: every return increments the acquired count the limit is checked on"},
};

constexpr PresetDefault kRabbitmqQuorum43[] = {
    DRAINSIM_RABBITMQ_QUORUM_COMMON,
    kReturnsFirst,
    {"/broker/delivery_limit", "20", kLimit20},
    {"/broker/delivery_counted", "[\"reject\",\"crash\"]",
     "RabbitMQ 4.3 Quorum Queues guide (when is the delivery count incremented): basic.reject and "
     "a client crash or connection loss count, basic.nack and the consumer timeout do not"},
    {"/broker/on_visibility_timeout", "\"cancel_consumer\"",
     "RabbitMQ 4.3 Quorum Queues guide, consumer timeout: the consumer is cancelled and only "
     "the timed-out deliveries are returned"},
    {"/broker/stale_ack", "\"refused\"",
     "RabbitMQ 4.3: the channel ignores a late ack for a delivery the queue took back at the "
     "consumer timeout (rabbitmq-server discussion #18207)"},
};

// Sidekiq; only the backoff's random term differs between the versions (job_retry.rb, commit
// e887ac6b, first released in 8.0.0).
#define DRAINSIM_SIDEKIQ(random_term, random_source)                                               \
  {"/broker/version", "\"8.1\"",                                                                   \
   "drainsim models Sidekiq 8.1 (the current major, v8.1.7) unless told otherwise"},               \
      {"/retry/delivery", "\"republish\"", "Sidekiq: a failed job goes to the retry set"},         \
      {"/retry/backoff", "{\"kind\":\"sidekiq\",\"random_term\":\"" random_term "\"}",             \
       random_source},                                                                             \
      DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":26}",                           \
                           "Sidekiq: retry: 25 by default (26 attempts in all)"),                  \
      {"/broker/dlq_max_length", "10000", "Sidekiq dead_max_jobs default 10,000"},                 \
      {"/broker/dlq_retention_s", "15552000", "Sidekiq dead_timeout_in_seconds default 6 months"}, \
      {"/broker/dlq_retention_from", "\"dead_lettered\"",                                          \
       "Sidekiq: the dead set keeps the death time"},                                              \
      {"/broker/dlq_trim", "\"on_dead_letter\"",                                                   \
       "Sidekiq send_to_morgue (job_retry.rb@v8.1.7 l.283-294): ZADD, then ZREMRANGEBYSCORE "      \
       "(older than dead_timeout) and ZREMRANGEBYRANK 0 -dead_max_jobs, only when a job dies"},    \
      {"/broker/redrive_attempts", "\"keep\"",                                                     \
       "Sidekiq: a manual retry from the dead set keeps retry_count"},                             \
      {"/broker/visibility_timeout_s", "8640000",                                                  \
       "Sidekiq (OSS): a running job is never redelivered while its process lives"},               \
  {                                                                                                \
    "/broker/requeue_on_crash", "\"lost\"",                                                        \
        "Sidekiq OSS fetches with BRPOP: a job its process held when it crashed is lost forever "  \
        "(wiki Reliability, super_fetch; a graceful shutdown pushes unfinished jobs back). "       \
        "Sidekiq Pro's super_fetch: set \"immediate\""                                             \
  }

constexpr PresetDefault kSidekiq7[] = {DRAINSIM_SIDEKIQ(
    "stepped",
    "Sidekiq up to 7.x (job_retry.rb@v7.3.10 l.192): count^4 + 15 + rand(10) * (count + 1) s")};

constexpr PresetDefault kSidekiq8[] = {DRAINSIM_SIDEKIQ(
    "full_range",
    "Sidekiq 8.0 and later (job_retry.rb@v8.1.7 l.202, commit e887ac6b): count^4 + 15 + "
    "rand(10 * (count + 1)) s")};

constexpr PresetDefault kCelery[] = {
    {"/broker/version", "\"5.6\"",
     "drainsim models Celery 5.6 (v5.6.3, kombu v5.6.2) unless told otherwise; every rule "
     "below holds from 5.4"},
    {"/broker/visibility_timeout_s", "3600",
     "Celery Redis transport visibility_timeout default 1 hour"},
    {"/broker/requeue_on_crash", "\"fail\"",
     "Celery acks_late without task_reject_on_worker_lost: WorkerLostError fails the task and "
     "its message is acked; nothing runs it again"},
    {"/broker/restore_sweep_s", "100",
     "kombu Redis transport (redis.py@v5.6.2 l.410-425, l.551-566, l.1382): the worker calls "
     "restore_visible every 10 s and it scans on every 10th call, restoring the unacked "
     "messages fetched at least visibility_timeout ago"},
    {"/broker/requeue_position", "\"restored_to_head\"",
     "kombu Redis transport (redis.py@v5.6.2 l.1039 LPUSH publish, l.963-973 BRPOP, l.796-811 "
     "restore with RPUSH): a message restored after its visibility timeout is popped next"},
    {"/broker/dead_letter_queue", "false", "Celery has no dead-letter queue of its own"},
    {"/broker/dlq_retention_s", "null", "Celery: failed results are kept, not expired"},
    {"/retry/delivery", "\"eta_in_consumer\"",
     "Celery Task.retry re-sends the task with an ETA (countdown)"},
    {"/retry/backoff", "{\"kind\":\"constant\",\"delay_s\":180,\"jitter\":{\"kind\":\"none\"}}",
     "Celery Task.default_retry_delay 3 minutes"},
    {"/retry/classes/rate_limited", "{\"action\":\"retry\",\"attempts_max\":4}",
     "Celery Task.max_retries default 3 (4 attempts in all)"},
    {"/retry/classes/transient", "{\"action\":\"retry\",\"attempts_max\":4}",
     "Celery Task.max_retries default 3 (4 attempts in all)"},
    {"/retry/classes/permanent", "{\"action\":\"dead_letter\"}",
     "Celery: an exception outside autoretry_for fails the task at once"},
    {"/retry/classes/unknown", "{\"action\":\"retry\",\"attempts_max\":4}",
     "Celery Task.max_retries default 3 (4 attempts in all)"},
};

constexpr PresetDefault kBullmq[] = {
    {"/broker/version", "\"5.81\"",
     "drainsim models BullMQ 5.81 (v5.81.3) unless told otherwise; the same defaults are "
     "assumed for every 5.x"},
    {"/broker/visibility_timeout_s", "30", "BullMQ Worker lockDuration default 30 s"},
    {"/broker/lock_renewal", "true", "BullMQ renews the lock every lockDuration / 2"},
    {"/broker/stalled_check_s", "30", "BullMQ Worker stalledInterval default 30 s"},
    {"/broker/stalled_count_max", "1", "BullMQ Worker maxStalledCount default 1"},
    {"/broker/stale_ack", "\"refused\"", "BullMQ: completing a job needs its lock token"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     "BullMQ: a dead worker's job stalls when its lock expires"},
    {"/broker/dlq_retention_s", "null", "BullMQ removeOnFail default: failed jobs are kept"},
    {"/retry/delivery", "\"republish\"", "BullMQ: a retried job moves to the delayed set"},
    {"/retry/backoff", "{\"kind\":\"constant\",\"delay_s\":0,\"jitter\":{\"kind\":\"none\"}}",
     "BullMQ without a backoff option retries at once"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1}",
                         "BullMQ JobsOptions.attempts default 1"),
};

constexpr PresetDefault kPubsub[] = {
    {"/broker/visibility_timeout_s", "10", "Pub/Sub ackDeadlineSeconds default 10 s"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     "Pub/Sub: an unacked message is redelivered after its ack deadline"},
    {"/broker/receive_count_max", "5", "Pub/Sub dead-letter policy maxDeliveryAttempts default 5"},
    {"/broker/redelivery_backoff",
     "{\"kind\":\"exponential\",\"base_s\":10,\"factor\":2,\"cap_s\":600,"
     "\"jitter\":{\"kind\":\"none\"}}",
     "Pub/Sub retry policy minimumBackoff 10 s, maximumBackoff 600 s"},
    {"/broker/dead_letter_duplicate_probability", "0.01",
     "Pub/Sub forwards to the dead-letter topic on a best-effort basis"},
    {"/broker/dlq_retention_s", "604800",
     "Pub/Sub subscription messageRetentionDuration default 7 days"},
    {"/broker/dlq_retention_from", "\"dead_lettered\"",
     "Pub/Sub: the dead-letter topic publishes a new message"},
    {"/retry/delivery", "\"requeue\"", "Pub/Sub: a nacked message is redelivered"},
    {"/retry/requeue_with", "\"nack\"", "Pub/Sub: modifyAckDeadline 0 (nack)"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",
                         "Pub/Sub: maxDeliveryAttempts decides, not the application"),
};

constexpr PresetDefault kAzureServiceBus[] = {
    {"/broker/visibility_timeout_s", "60", "Service Bus LockDuration default 1 minute"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     "Service Bus: a lost lock makes the message available again"},
    {"/broker/receive_count_max", "10", "Service Bus MaxDeliveryCount default 10"},
    {"/broker/stale_ack", "\"refused\"",
     "Service Bus: settling with an expired lock throws MessageLockLostException"},
    {"/broker/dlq_retention_s", "null", "Service Bus: the dead-letter subqueue never expires"},
    {"/retry/delivery", "\"requeue\"", "Service Bus: Abandon makes the message available again"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",
                         "Service Bus: MaxDeliveryCount decides, not the application"),
};

// NATS JetStream 2.10 and later: one table (the rules below are the same in v2.10.29, v2.11.17,
// v2.12.15 and v2.14.5; docs/PRESETS-AUDIT.md, section 4, has the line numbers of each).
#define DRAINSIM_NATS_SOURCE "nats-server server/consumer.go@v2.14.5 "
constexpr PresetDefault kNatsJetstream[] = {
    {"/broker/version", "\"2.14\"", "drainsim models NATS 2.14 (v2.14.5) unless told otherwise"},
    {"/broker/visibility_timeout_s", "30",
     DRAINSIM_NATS_SOURCE "l.571, l.648-650: AckWait defaults to JsAckWaitDefault, 30 s"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     DRAINSIM_NATS_SOURCE "checkPending l.5964-6049: an unacked message is redelivered only when "
                          "its AckWait has run out, whatever became of the consumer"},
    {"/broker/receive_count_max", "null",
     DRAINSIM_NATS_SOURCE "l.587-592: MaxDeliver 0 or unset becomes -1, no limit"},
    {"/broker/ack_pending_max", "1000",
     DRAINSIM_NATS_SOURCE "l.578, l.671-680: MaxAckPending defaults to JsDefaultMaxAckPending, "
                          "1000, for explicit acks; getNextMsg l.4873-4876 stalls new deliveries "
                          "there (errMaxAckPending)"},
    {"/broker/requeue_position", "\"redeliveries_first\"",
     DRAINSIM_NATS_SOURCE "getNextMsg l.4823-4870: the redelivery queue (rdq) is served before "
                          "new messages, and before the MaxAckPending check"},
    {"/broker/redelivery_backoff", "null",
     DRAINSIM_NATS_SOURCE "processNak l.3155-3228: a plain Nak is redelivered at once (rdq); a "
                          "Nak with a delay (NakWithDelay): set a constant redelivery_backoff"},
    {"/broker/dead_letter_queue", "true",
     "NATS has no DLQ: the usual pattern consumes the MAX_DELIVERIES advisory (consumer.go "
     "notifyDeliveryExceeded l.4754, sent once from getNextMsg l.4835) and copies the message "
     "into a DLQ stream; dead_letter_queue false: the message stays in the stream, undelivered"},
    {"/broker/dlq_retention_s", "null",
     "NATS: a stream's MaxAge 0 (the default) never ages messages out (filestore.go@v2.14.5 "
     "l.605, l.746: only MaxAge != 0 starts the age check)"},
    {"/broker/dlq_retention_from", "\"dead_lettered\"",
     "NATS: the advisory consumer publishes a new message into the DLQ stream"},
    {"/retry/delivery", "\"requeue\"", "NATS: a failed message is Nak'd and redelivered"},
    {"/retry/requeue_with", "\"nack\"", "NATS: AckNak (msg.Nak())"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",
                         "NATS: MaxDeliver decides, not the application"),
};
#undef DRAINSIM_NATS_SOURCE

// A Kafka consumer group whose consumers are Spring for Apache Kafka listener containers with
// their defaults: the record listener, the DefaultErrorHandler (SeekUtils.java, spring-kafka
// 2.8 and later: DEFAULT_MAX_FAILURES 10, DEFAULT_BACK_OFF FixedBackOff(0, 9)) and its default
// recoverer, which logs the record and skips it. docs/PRESETS.md has the sources.
#define DRAINSIM_SPRING_KAFKA "spring-kafka SeekUtils.java (2.8+): "
constexpr PresetDefault kKafka[] = {
    {"/broker/version", "\"4.2\"",
     "drainsim models Kafka 4.2 consumer groups unless told otherwise; every rule below holds "
     "from 3.0 (session.timeout.ms 45 s, KIP-735)"},
    {"/broker/partitions", "1",
     "Kafka broker config num.partitions default 1 (a topic created without a count)"},
    {"/broker/session_timeout_s", "45",
     "Kafka consumer config session.timeout.ms default 45000 (since 3.0, KIP-735): a consumer "
     "that stops heartbeating is removed and the group rebalances"},
    {"/broker/max_poll_records", "500",
     "Kafka consumer config max.poll.records default 500: the most records one poll returns"},
    {"/broker/offset_commit", "\"record\"",
     "Spring Kafka AckMode.RECORD (commit after each record); Spring's default AckMode.BATCH is "
     "offset_commit \"batch\", not filled so that every kafka report stays as it was "
     "(docs/PRESETS.md)"},
    {"/broker/visibility_timeout_s", "300",
     "Kafka consumer config max.poll.interval.ms default 300000: a consumer still on a record "
     "after 5 minutes leaves the group and its partition's record is fetched again"},
    {"/broker/stale_ack", "\"refused\"",
     "Kafka: a consumer that left the group cannot commit (CommitFailedException)"},
    {"/broker/requeue_on_crash", "\"immediate\"",
     "Kafka: a crashed consumer's uncommitted records are fetched again from the committed "
     "offset by the partition's next owner"},
    {"/broker/retention_s", "604800", "Kafka broker config log.retention.hours default 168"},
    {"/broker/dead_letter_queue", "false",
     DRAINSIM_SPRING_KAFKA "the default recoverer logs a record whose attempts ran out; "
                           "dead_letter_queue true models a DeadLetterPublishingRecoverer "
                           "(a dead-letter topic)"},
    {"/broker/without_dlq", "\"skipped\"",
     DRAINSIM_SPRING_KAFKA "the recovered record's offset is committed: it is skipped"},
    {"/broker/dlq_retention_s", "604800",
     "Kafka broker config log.retention.hours default 168 (the dead-letter topic)"},
    {"/broker/dlq_retention_from", "\"dead_lettered\"",
     "Spring Kafka DeadLetterPublishingRecoverer publishes a new record to the dead-letter topic"},
    {"/broker/redrive_attempts", "\"reset\"",
     "Kafka: a record republished from the dead-letter topic is a new record"},
    {"/retry/delivery", "\"requeue\"",
     DRAINSIM_SPRING_KAFKA "doSeeks seeks the failed record's partition back to its offset, so "
                           "the next poll fetches it again first"},
    {"/retry/backoff", "{\"kind\":\"constant\",\"delay_s\":0,\"jitter\":{\"kind\":\"none\"}}",
     DRAINSIM_SPRING_KAFKA "DEFAULT_BACK_OFF is FixedBackOff(0, 9): no delay"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":10}",
                         DRAINSIM_SPRING_KAFKA "DEFAULT_MAX_FAILURES 10 (9 retries)"),
};
#undef DRAINSIM_SPRING_KAFKA

// A Kafka share group (KIP-932: "Queues for Kafka", production-ready in Kafka 4.2) whose
// consumers acknowledge explicitly, RELEASE a record that failed and ACCEPT one that succeeded.
// Broker configs from ShareGroupConfig.java, the delivery-count rule from InFlightState.java,
// the fetch order from SharePartition.java (docs/PRESETS.md names the stored commits read).
#define DRAINSIM_KAFKA_SHARE "Kafka 4.2 share groups, "
constexpr PresetDefault kKafkaShare[] = {
    {"/broker/version", "\"4.2\"",
     "drainsim models Kafka 4.2 share groups (KIP-932, production-ready from 4.2) unless told "
     "otherwise"},
    {"/broker/visibility_timeout_s", "30",
     DRAINSIM_KAFKA_SHARE "broker config group.share.record.lock.duration.ms default 30000 "
                          "(ShareGroupConfig.java): an acquired record's lock"},
    {"/broker/on_visibility_timeout", "\"redeliver\"",
     DRAINSIM_KAFKA_SHARE "a record whose acquisition lock expires is AVAILABLE again "
                          "(SharePartition.java, acquisition lock timeout)"},
    {"/broker/stale_ack", "\"refused\"",
     DRAINSIM_KAFKA_SHARE "acknowledging a record whose lock expired fails "
                          "(InvalidRecordStateException): the redelivered copy decides"},
    {"/broker/requeue_on_crash", "\"after_visibility_timeout\"",
     DRAINSIM_KAFKA_SHARE "a crashed consumer's acquired records come back when their "
                          "acquisition locks expire (30 s, before the 45 s session timeout)"},
    {"/broker/receive_count_max", "5",
     DRAINSIM_KAFKA_SHARE "broker config group.share.delivery.count.limit default 5 (2..10): "
                          "every acquisition counts, a lock expiry too; at the limit a released "
                          "or expired record is ARCHIVED (InFlightState.java)"},
    {"/broker/requeue_position", "\"redeliveries_first\"",
     DRAINSIM_KAFKA_SHARE "SharePartition.nextFetchOffset: after a RELEASE or a lock expiry the "
                          "next fetch starts at the first AVAILABLE offset, before new records"},
    {"/broker/ack_pending_max", "2000",
     DRAINSIM_KAFKA_SHARE "broker config group.share.partition.max.record.locks default 2000 "
                          "(ShareGroupConfig.java): in-flight records per share-partition"},
    {"/broker/retention_s", "604800", "Kafka broker config log.retention.hours default 168"},
    {"/broker/dead_letter_queue", "false",
     DRAINSIM_KAFKA_SHARE "no dead-letter topic: a share group's DLQ (KIP-1191, group config "
                          "errors.deadletterqueue.topic.name) comes with Kafka 4.4"},
    {"/broker/without_dlq", "\"archived\"",
     DRAINSIM_KAFKA_SHARE "a record at the delivery count limit is ARCHIVED: never delivered "
                          "again (InFlightState.java)"},
    {"/broker/dlq_retention_s", "604800",
     "Kafka broker config log.retention.hours default 168 (the dead-letter topic)"},
    {"/broker/dlq_retention_from", "\"dead_lettered\"",
     "Kafka 4.4 share-group DLQ (KIP-1191): the broker writes a new record to the DLQ topic"},
    {"/broker/redrive_attempts", "\"reset\"",
     "Kafka: a record republished from the dead-letter topic is a new record"},
    {"/retry/delivery", "\"requeue\"",
     DRAINSIM_KAFKA_SHARE "the consumer acknowledges a failed record with RELEASE: AVAILABLE "
                          "again at once"},
    {"/retry/backoff", "{\"kind\":\"constant\",\"delay_s\":0,\"jitter\":{\"kind\":\"none\"}}",
     DRAINSIM_KAFKA_SHARE "a RELEASEd record is AVAILABLE at once, with no delay"},
    DRAINSIM_CLASSES_ALL("{\"action\":\"retry\",\"attempts_max\":1000}",
                         "Kafka share groups: the delivery count limit decides, not the "
                         "application"),
};
#undef DRAINSIM_KAFKA_SHARE

#undef DRAINSIM_CLASSES_ALL
#undef DRAINSIM_RABBITMQ_QUORUM_COMMON
#undef DRAINSIM_RABBITMQ_QUORUM_3X
#undef DRAINSIM_SIDEKIQ

}  // namespace

std::string_view DefaultBrokerVersion(config::BrokerPreset preset) {
  switch (preset) {
    case config::BrokerPreset::kRabbitmqQuorum:
      return kRabbitmqDefaultVersion;
    case config::BrokerPreset::kSidekiq:
      return kSidekiqDefaultVersion;
    case config::BrokerPreset::kNatsJetstream:
      return kNatsDefaultVersion;
    case config::BrokerPreset::kKafkaShare:
      return kKafkaShareDefaultVersion;
    case config::BrokerPreset::kKafka:
      return kKafkaDefaultVersion;
    case config::BrokerPreset::kCelery:
      return kCeleryDefaultVersion;
    case config::BrokerPreset::kBullmq:
      return kBullmqDefaultVersion;
    case config::BrokerPreset::kSqs:
    case config::BrokerPreset::kPubsub:
    case config::BrokerPreset::kAzureServiceBus:
      break;
  }
  return {};
}

std::span<const PresetDefault> PresetDefaults(config::BrokerPreset preset,
                                              std::string_view version) {
  int major = 0;
  int minor = 0;
  if (!ParseBrokerVersion(version, &major, &minor) &&
      !ParseBrokerVersion(DefaultBrokerVersion(preset), &major, &minor)) {
    major = 0;  // a preset without versions: its one table
  }
  switch (preset) {
    case config::BrokerPreset::kSqs:
      return kSqs;
    case config::BrokerPreset::kRabbitmqQuorum:
      if (major < 4) {
        return minor < 13 ? std::span<const PresetDefault>(kRabbitmqQuorum310)
                          : std::span<const PresetDefault>(kRabbitmqQuorum313);
      }
      return major == 4 && minor < 3 ? std::span<const PresetDefault>(kRabbitmqQuorum40)
                                     : std::span<const PresetDefault>(kRabbitmqQuorum43);
    case config::BrokerPreset::kSidekiq:
      return major < 8 ? std::span<const PresetDefault>(kSidekiq7)
                       : std::span<const PresetDefault>(kSidekiq8);
    case config::BrokerPreset::kCelery:
      return kCelery;
    case config::BrokerPreset::kBullmq:
      return kBullmq;
    case config::BrokerPreset::kPubsub:
      return kPubsub;
    case config::BrokerPreset::kAzureServiceBus:
      return kAzureServiceBus;
    case config::BrokerPreset::kNatsJetstream:
      return kNatsJetstream;
    case config::BrokerPreset::kKafka:
      return kKafka;
    case config::BrokerPreset::kKafkaShare:
      return kKafkaShare;
  }
  return {};
}

}  // namespace drainsim::scenario
