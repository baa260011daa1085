// Broker presets (sim/scenario/presets.h, docs/PRESETS.md): defaults by JSON pointer that the
// scenario overrides field by field (variant-shaped objects whole), and the brokers' hard limits.
#include "sim/scenario/presets.h"

#include <catch2/catch.hpp>
#include <set>

#include "sim/config/enum_names.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace presets_test {
namespace {

using engine::Duration;
using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Minimal(std::string_view preset) { return testing::PresetScenario(preset); }

Json WithDrain(Json s, const char* drain) {
  s["drains"] = Json::array({Json::parse(drain)});
  return s;
}

// Every key of `part` is in `whole` with an equal value (recursively for objects).
bool Within(const Json& part, const Json& whole) {
  if (!part.is_object()) return part == whole;
  if (!whole.is_object()) return false;
  for (const auto& [key, value] : part.items()) {
    if (!whole.contains(key) || !Within(value, whole.at(key))) return false;
  }
  return true;
}

std::array<bool, config::kReturnKindCount> Counted(
    std::initializer_list<config::ReturnKind> kinds) {
  std::array<bool, config::kReturnKindCount> out{};
  for (config::ReturnKind k : kinds) out[static_cast<size_t>(k)] = true;
  return out;
}

TEST_CASE("preset tables: one entry per pointer, each value valid JSON", "[presets]") {
  for (const auto& entry : config::EnumNames<config::BrokerPreset>()) {
    for (std::string_view version : {"3.10", "4.2", "4.3"}) {
      INFO(entry.name << " " << version);
      std::set<std::string_view> pointers;
      const auto defaults = PresetDefaults(entry.value, version);
      CHECK_FALSE(defaults.empty());
      for (const PresetDefault& d : defaults) {
        INFO(d.pointer);
        CHECK(pointers.insert(d.pointer).second);
        CHECK(d.pointer.rfind("/", 0) == 0);
        CHECK_FALSE(d.source.empty());
        CHECK_NOTHROW(Json::parse(d.value));
      }
    }
  }
}

TEST_CASE("every preset alone loads, and every default lands in the dump", "[presets]") {
  for (const auto& entry : config::EnumNames<config::BrokerPreset>()) {
    INFO(entry.name);
    const config::Scenario s = MustLoad(Minimal(entry.name));
    REQUIRE(s.broker.preset == entry.value);
    const Json dump = Json::parse(DumpCanonical(s));
    for (const PresetDefault& d : PresetDefaults(entry.value)) {
      INFO(d.pointer << " = " << d.value);
      const Json::json_pointer pointer{std::string(d.pointer)};
      // Added to the kafka table after its reports existed: written only when they differ from
      // what the preset fills (dump.cc), so that every earlier kafka scenario keeps its hash.
      const std::string_view p = d.pointer;
      if (p == "/broker/max_poll_records" || p == "/broker/offset_commit") {
        CHECK_FALSE(dump.contains(pointer));
        continue;
      }
      REQUIRE(dump.contains(pointer));
      CHECK(Within(Json::parse(d.value), dump.at(pointer)));
    }
    CheckRoundTrip(s);
  }
}

TEST_CASE("preset sqs: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("sqs"));
  const config::Broker& b = s.broker;
  CHECK(b.visibility_timeout == engine::Duration::Seconds(30));
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kAfterVisibilityTimeout);
  CHECK(b.receive_count_max == 10);
  CHECK(b.retention == engine::Duration::Seconds(345600));
  CHECK(b.dlq_retention == engine::Duration::Seconds(345600));
  CHECK(b.dlq_retention_from == config::RetentionFrom::kEnqueued);
  CHECK(b.redrive_rate_max_per_s == 500.0);
  CHECK(b.redrive_attempts == config::RedriveAttempts::kReset);
  CHECK_FALSE(b.version.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kVisibilityTimeout);
  for (const config::ClassPolicy* p : {&s.retry.classes.rate_limited, &s.retry.classes.transient,
                                       &s.retry.classes.permanent, &s.retry.classes.unknown}) {
    CHECK(p->action == config::ClassAction::kRetry);
    CHECK(p->attempts_max == 1000);
    CHECK_FALSE(p->backoff.has_value());
  }
}

TEST_CASE("preset rabbitmq-quorum: defaults in the struct, delivery_counted by version",
          "[presets]") {
  const config::Scenario s = MustLoad(Minimal("rabbitmq-quorum"));
  const config::Broker& b = s.broker;
  CHECK(b.version == "4.3");
  CHECK(b.visibility_timeout == engine::Duration::Seconds(1800));
  CHECK(b.on_visibility_timeout == config::OnVisibilityTimeout::kCancelConsumer);
  CHECK(b.stale_ack == config::StaleAck::kRefused);
  CHECK(b.requeue_position == config::RequeuePosition::kHead);
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kImmediate);
  CHECK(b.delivery_limit == 20);
  CHECK(b.delivery_counted == Counted({config::ReturnKind::kReject, config::ReturnKind::kCrash}));
  CHECK_FALSE(b.dlq_retention.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kRequeue);
  CHECK(s.retry.requeue_with == config::RequeueWith::kReject);
  CHECK(s.retry.classes.permanent.action == config::ClassAction::kRetry);
  CHECK(s.retry.classes.permanent.attempts_max == 1000);

  const config::Scenario old = MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/version", "4.2"));
  CHECK(old.broker.version == "4.2");
  CHECK(old.broker.on_visibility_timeout == config::OnVisibilityTimeout::kCloseChannel);
  CHECK(old.broker.stale_ack == config::StaleAck::kHonored);
  CHECK(old.broker.requeue_position == config::RequeuePosition::kHead);
  CHECK(old.broker.delivery_counted ==
        Counted({config::ReturnKind::kNack, config::ReturnKind::kReject, config::ReturnKind::kCrash,
                 config::ReturnKind::kConsumerTimeout}));
  for (const char* version : {"4.0", "4.1"}) {
    CHECK(MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/version", version))
              .broker.delivery_counted == old.broker.delivery_counted);
  }
  CHECK(old.broker.delivery_limit == 20);
  // 3.10-3.13 (Debian 12 ships 3.10): every return counts too, and there is no default limit.
  for (const char* version : {"3.10", "3.13"}) {
    const config::Scenario three =
        MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/version", version));
    CHECK(three.broker.delivery_counted == old.broker.delivery_counted);
    CHECK_FALSE(three.broker.delivery_limit.has_value());
    // Before 3.13 a return waits near the head; 3.13 moved it to the back (without a limit).
    CHECK(three.broker.requeue_position == (std::string(version) == "3.13"
                                                ? config::RequeuePosition::kTail
                                                : config::RequeuePosition::kHead));
    CHECK(three.broker.on_visibility_timeout == config::OnVisibilityTimeout::kCloseChannel);
    CheckRoundTrip(three);
  }
  for (const char* version : {"4.3", "4.10", "5.0"}) {
    CHECK(MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/version", version))
              .broker.delivery_counted ==
          Counted({config::ReturnKind::kReject, config::ReturnKind::kCrash}));
  }
  // An explicit delivery_counted wins over the version's default, even an empty one.
  const config::Scenario none =
      MustLoad(With(With(Minimal("rabbitmq-quorum"), "/broker/version", "4.2"),
                    "/broker/delivery_counted", Json::array()));
  CHECK(none.broker.delivery_counted == Counted({}));
  CheckRoundTrip(old);
  CheckRoundTrip(none);
}

TEST_CASE("preset sidekiq: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("sidekiq"));
  const config::Broker& b = s.broker;
  CHECK(s.retry.delivery == config::RetryDelivery::kRepublish);
  CHECK(s.retry.backoff.kind() == config::BackoffKind::kSidekiq);
  CHECK(s.retry.backoff.jitter.kind == config::JitterKind::kNone);
  CHECK(s.retry.classes.transient.attempts_max == 26);
  CHECK(s.retry.classes.permanent.action == config::ClassAction::kRetry);
  CHECK(s.retry.classes.permanent.attempts_max == 26);
  CHECK(b.dlq_max_length == 10000);
  CHECK(b.dlq_retention == engine::Duration::Seconds(15552000));
  CHECK(b.dlq_retention_from == config::RetentionFrom::kDeadLettered);
  CHECK(b.redrive_attempts == config::RedriveAttempts::kKeep);
  CHECK(b.visibility_timeout == engine::Duration::Seconds(8640000));
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kLost);  // Sidekiq OSS: BRPOP fetch
  CHECK(b.version == "8.1");
  CHECK(b.dlq_trim == config::DlqTrim::kOnDeadLetter);
}

config::SidekiqRandomTerm RandomTerm(const config::Backoff& backoff) {
  REQUIRE(backoff.kind() == config::BackoffKind::kSidekiq);
  return std::get<config::SidekiqBackoff>(backoff.curve).random_term;
}

TEST_CASE("preset sidekiq: broker.version picks the random term (8.0: rand(10 * (count + 1)))",
          "[presets]") {
  using config::SidekiqRandomTerm;
  CHECK(RandomTerm(MustLoad(Minimal("sidekiq")).retry.backoff) == SidekiqRandomTerm::kFullRange);
  for (const char* version : {"8.0", "8.1", "9.0"}) {
    INFO(version);
    CHECK(
        RandomTerm(MustLoad(With(Minimal("sidekiq"), "/broker/version", version)).retry.backoff) ==
        SidekiqRandomTerm::kFullRange);
  }
  for (const char* version : {"6.5", "7.0", "7.3"}) {
    INFO(version);
    CHECK(
        RandomTerm(MustLoad(With(Minimal("sidekiq"), "/broker/version", version)).retry.backoff) ==
        SidekiqRandomTerm::kStepped);
  }
  // A sidekiq backoff the scenario writes itself gets the version's term unless it gives one.
  const Json own = With(Minimal("sidekiq"), "/retry/backoff", Json{{"kind", "sidekiq"}});
  CHECK(RandomTerm(MustLoad(own).retry.backoff) == SidekiqRandomTerm::kFullRange);
  CHECK(RandomTerm(MustLoad(With(own, "/broker/version", "7.3")).retry.backoff) ==
        SidekiqRandomTerm::kStepped);
  const Json given = With(own, "/retry/backoff/random_term", "stepped");
  CHECK(RandomTerm(MustLoad(given).retry.backoff) == SidekiqRandomTerm::kStepped);
  const Json per_class = With(Minimal("sidekiq"), "/retry/classes/transient",
                              Json{{"action", "retry"}, {"backoff", {{"kind", "sidekiq"}}}});
  REQUIRE(MustLoad(per_class).retry.classes.transient.backoff.has_value());
  CHECK(RandomTerm(*MustLoad(per_class).retry.classes.transient.backoff) ==
        SidekiqRandomTerm::kFullRange);
  // Without the preset, a hand-written sidekiq backoff keeps the formula it always had.
  Json plain = Minimal("sidekiq");
  plain.erase("broker");
  plain["retry"] = {{"backoff", {{"kind", "sidekiq"}}}};
  const config::Scenario no_preset = MustLoad(plain);
  CHECK(RandomTerm(no_preset.retry.backoff) == SidekiqRandomTerm::kStepped);
  CHECK(no_preset.broker.dlq_trim == config::DlqTrim::kContinuous);
  CheckRoundTrip(MustLoad(With(Minimal("sidekiq"), "/broker/version", "7.3")));
  CheckRoundTrip(MustLoad(Minimal("sidekiq")));
}

TEST_CASE("preset sidekiq: broker.version MAJOR.MINOR, 6.5 and later", "[presets]") {
  CHECK_PROBLEM(Load(With(Minimal("sidekiq"), "/broker/version", "8")), "/broker/version",
                "must be a version \"MAJOR.MINOR\" such as \"8.1\"");
  CHECK_PROBLEM(Load(With(Minimal("sidekiq"), "/broker/version", "8.x")), "/broker/version",
                "must be a version \"MAJOR.MINOR\"");
  CHECK_PROBLEM(Load(With(Minimal("sidekiq"), "/broker/version", "6.4")), "/broker/version",
                "\"6.4\" is older than the Sidekiq model allows");
  CHECK(Load(With(Minimal("sidekiq"), "/broker/version", "6.5")).ok());
  CHECK(MustLoad(With(Minimal("sidekiq"), "/broker/version", "8.01")).broker.version == "8.1");
}

TEST_CASE("preset celery: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("celery"));
  const config::Broker& b = s.broker;
  CHECK(b.visibility_timeout == engine::Duration::Seconds(3600));
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kFail);
  CHECK(b.requeue_position == config::RequeuePosition::kRestoredToHead);
  CHECK_FALSE(b.dead_letter_queue);
  CHECK_FALSE(b.dlq_retention.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kEtaInConsumer);
  CHECK(s.retry.backoff.curve ==
        config::Backoff::Curve(config::ConstantBackoff{engine::Duration::Seconds(180)}));
  CHECK(s.retry.backoff.jitter.kind == config::JitterKind::kNone);
  for (const config::ClassPolicy* p :
       {&s.retry.classes.rate_limited, &s.retry.classes.transient, &s.retry.classes.unknown}) {
    CHECK(p->action == config::ClassAction::kRetry);
    CHECK(p->attempts_max == 4);
  }
  CHECK(s.retry.classes.permanent.action == config::ClassAction::kDeadLetter);
}

TEST_CASE("preset bullmq: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("bullmq"));
  const config::Broker& b = s.broker;
  CHECK(b.visibility_timeout == engine::Duration::Seconds(30));
  CHECK(b.lock_renewal);
  CHECK(b.stalled_check == engine::Duration::Seconds(30));
  CHECK(b.stalled_count_max == 1);
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kAfterVisibilityTimeout);
  CHECK_FALSE(b.dlq_retention.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kRepublish);
  CHECK(s.retry.backoff.curve ==
        config::Backoff::Curve(config::ConstantBackoff{engine::Duration::Seconds(0)}));
  CHECK(s.retry.backoff.jitter.kind == config::JitterKind::kNone);
  CHECK(s.retry.classes.unknown.attempts_max == 1);
  CHECK(s.retry.classes.permanent.action == config::ClassAction::kRetry);
  CHECK(s.retry.classes.permanent.attempts_max == 1);
}

TEST_CASE("preset pubsub: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("pubsub"));
  const config::Broker& b = s.broker;
  CHECK(b.visibility_timeout == engine::Duration::Seconds(10));
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kAfterVisibilityTimeout);
  CHECK(b.receive_count_max == 5);
  REQUIRE(b.redelivery_backoff.has_value());
  CHECK(b.redelivery_backoff->curve ==
        config::Backoff::Curve(config::ExponentialBackoff{engine::Duration::Seconds(10), 2,
                                                          engine::Duration::Seconds(600)}));
  CHECK(b.redelivery_backoff->jitter.kind == config::JitterKind::kNone);
  CHECK(b.dead_letter_duplicate_probability == 0.01);
  CHECK(b.dlq_retention == engine::Duration::Seconds(604800));
  CHECK(b.dlq_retention_from == config::RetentionFrom::kDeadLettered);
  CHECK(s.retry.delivery == config::RetryDelivery::kRequeue);
  CHECK(s.retry.requeue_with == config::RequeueWith::kNack);
  CHECK(s.retry.classes.transient.attempts_max == 1000);
}

TEST_CASE("preset azure-service-bus: defaults in the struct", "[presets]") {
  const config::Scenario s = MustLoad(Minimal("azure-service-bus"));
  const config::Broker& b = s.broker;
  CHECK(b.visibility_timeout == engine::Duration::Seconds(60));
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kAfterVisibilityTimeout);
  CHECK(b.receive_count_max == 10);
  CHECK_FALSE(b.dlq_retention.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kRequeue);
  CHECK(s.retry.classes.rate_limited.attempts_max == 1000);
}

TEST_CASE("an explicit value wins over the preset's default", "[presets]") {
  const config::Scenario sqs = MustLoad(With(Minimal("sqs"), "/broker/receive_count_max", 3));
  CHECK(sqs.broker.receive_count_max == 3);
  CHECK(sqs.broker.retention == engine::Duration::Seconds(345600));  // the rest still applies

  // A class given by the scenario gets none of the preset's fields for that class.
  const config::Scenario celery = MustLoad(
      With(Minimal("celery"), "/retry/classes/transient", Json::parse(R"({"action": "park"})")));
  CHECK(celery.retry.classes.transient.action == config::ClassAction::kPark);
  CHECK(celery.retry.classes.unknown.attempts_max == 4);
  CHECK(celery.retry.classes.permanent.action == config::ClassAction::kDeadLetter);
  const config::Scenario celery_retry = MustLoad(
      With(Minimal("celery"), "/retry/classes/transient", Json::parse(R"({"action": "retry"})")));
  CHECK(celery_retry.retry.classes.transient.attempts_max == 5);  // drainsim's default, not 4

  // A backoff given by the scenario replaces the preset's as a whole.
  const config::Scenario backoff =
      MustLoad(With(Minimal("celery"), "/retry/backoff",
                    Json::parse(R"({"kind": "exponential", "base_s": 2, "cap_s": 60})")));
  CHECK(backoff.retry.backoff.curve ==
        config::Backoff::Curve(config::ExponentialBackoff{engine::Duration::Seconds(2), 2,
                                                          engine::Duration::Seconds(60)}));
  CHECK(backoff.retry.backoff.jitter.kind == config::JitterKind::kFull);
  CheckRoundTrip(sqs);
  CheckRoundTrip(celery);
}

TEST_CASE("an explicit null wins over the preset's non-null default", "[presets]") {
  CHECK_FALSE(MustLoad(With(Minimal("sqs"), "/broker/receive_count_max", nullptr))
                  .broker.receive_count_max.has_value());
  CHECK_FALSE(MustLoad(With(Minimal("sidekiq"), "/broker/dlq_max_length", nullptr))
                  .broker.dlq_max_length.has_value());
  const config::Scenario pubsub =
      MustLoad(With(Minimal("pubsub"), "/broker/redelivery_backoff", nullptr));
  CHECK_FALSE(pubsub.broker.redelivery_backoff.has_value());
  CheckRoundTrip(pubsub);
  // Null is not a value where the field is not nullable.
  CHECK_PROBLEM(Load(With(Minimal("bullmq"), "/broker/lock_renewal", nullptr)),
                "/broker/lock_renewal", "must be a boolean (got null)");
}

TEST_CASE("no preset, an unknown preset: nothing is filled in", "[presets]") {
  Json plain = Minimal("sqs");
  plain["broker"] = Json::object();
  const config::Scenario s = MustLoad(plain);
  CHECK(s.broker == config::Broker{});
  CHECK(s.retry == config::RetryPolicy{});
  const LoadResult unknown = Load(Minimal("activemq"));
  CHECK_PROBLEM(unknown, "/broker/preset", "must be one of");
  CHECK(unknown.problems.size() == 1);
}

TEST_CASE(
    "broker.version: versioned brokers only, MAJOR.MINOR, 3.10-3.13 or 4.0 and later",
    "[presets]") {
  for (const char* managed : {"sqs", "pubsub", "azure-service-bus"}) {
    INFO(managed);
    CHECK_PROBLEM(Load(With(Minimal(managed), "/broker/version", "4.3")), "/broker/version",
                  "applies only with a preset of a versioned broker ('rabbitmq-quorum', "
                  "'sidekiq', 'celery', 'bullmq', 'nats-jetstream', 'kafka' or 'kafka-share'): '" +
                      std::string(managed) +
                      "' is a managed service with one version, its documentation as read for "
                      "docs/PRESETS.md");
  }
  Json none = Minimal("sqs");
  none["broker"] = {{"version", "4.3"}};
  CHECK_PROBLEM(Load(none), "/broker/version", "the scenario has no preset");
  CHECK_PROBLEM(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", "4")), "/broker/version",
                "must be a version \"MAJOR.MINOR\"");
  CHECK_PROBLEM(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", 4.3)), "/broker/version",
                "must be a string");
  CHECK_PROBLEM(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", "3.9")), "/broker/version",
                "\"3.9\" is older than the RabbitMQ model allows");
  CHECK_PROBLEM(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", "3.14")),
                "/broker/version", "\"3.14\" is not a RabbitMQ release");
  CHECK(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", "3.10")).ok());
  CHECK(Load(With(Minimal("rabbitmq-quorum"), "/broker/version", "3.13")).ok());
  CHECK(MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/version", "4.03")).broker.version ==
        "4.3");
}

TEST_CASE(
    "broker.version: celery from 5.4, bullmq from 5.0, kafka from 3.0, each with its default "
    "filled in",
    "[presets]") {
  CHECK(MustLoad(Minimal("celery")).broker.version == "5.6");
  CHECK(MustLoad(Minimal("bullmq")).broker.version == "5.81");
  CHECK(MustLoad(Minimal("kafka")).broker.version == "4.2");
  CHECK(MustLoad(Minimal("sqs")).broker.version == std::nullopt);
  CHECK(Load(With(Minimal("celery"), "/broker/version", "5.4")).ok());
  CHECK_PROBLEM(Load(With(Minimal("celery"), "/broker/version", "5.3")), "/broker/version",
                "\"5.3\" is older than the Celery model allows: drainsim models Celery 5.4 and "
                "later");
  CHECK(Load(With(Minimal("bullmq"), "/broker/version", "5.0")).ok());
  CHECK_PROBLEM(Load(With(Minimal("bullmq"), "/broker/version", "4.9")), "/broker/version",
                "\"4.9\" is older than the BullMQ model allows: drainsim models BullMQ 5.x");
  CHECK(Load(With(Minimal("kafka"), "/broker/version", "3.0")).ok());
  CHECK_PROBLEM(Load(With(Minimal("kafka"), "/broker/version", "2.8")), "/broker/version",
                "\"2.8\" is older than the Kafka consumer-group model allows: drainsim models "
                "Kafka 3.0 and later consumer groups");
  CheckRoundTrip(MustLoad(With(Minimal("kafka"), "/broker/version", "3.9")));
}

TEST_CASE("hard limits: overrides beyond the broker's limits are problems", "[presets]") {
  CHECK_PROBLEM(Load(WithDrain(Minimal("sqs"), R"({"start_at_s": 60, "strategy": "drip",
                                                   "rate_per_s": 1000})")),
                "/drains/0/rate_per_s",
                "1000 messages/s is faster than SQS allows: a DLQ redrive (StartMessageMoveTask) "
                "moves at most 500 messages/s (MaxNumberOfMessagesPerSecond)");
  CHECK(Load(WithDrain(Minimal("sqs"), R"({"start_at_s": 60, "strategy": "drip",
                                          "rate_per_s": 500})"))
            .ok());
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/redrive_rate_max_per_s", 1000)),
                "/broker/redrive_rate_max_per_s",
                "1000 messages/s is faster than SQS allows: a DLQ redrive");
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/redrive_rate_max_per_s", nullptr)),
                "/broker/redrive_rate_max_per_s", "null (no cap) is faster than SQS allows");
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/visibility_timeout_s", 43201)),
                "/broker/visibility_timeout_s",
                "43201 s is longer than SQS allows: a visibility timeout lasts at most 43200 s");
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/retention_s", 30)), "/broker/retention_s",
                "30 s is shorter than SQS allows: a queue keeps messages 60..1209600 s");
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/dlq_retention_s", nullptr)),
                "/broker/dlq_retention_s", "null (kept forever) is longer than SQS allows");
  CHECK_PROBLEM(Load(With(Minimal("sqs"), "/broker/dlq_retention_s", 1209601)),
                "/broker/dlq_retention_s", "a hard limit of preset \"sqs\"");

  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/receive_count_max", 200)),
                "/broker/receive_count_max",
                "200 is more than Pub/Sub allows: a dead-letter policy's maximum delivery "
                "attempts are 5..100 (maxDeliveryAttempts), a hard limit of preset \"pubsub\"");
  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/receive_count_max", 4)),
                "/broker/receive_count_max", "4 is less than Pub/Sub allows");
  CHECK(Load(With(Minimal("pubsub"), "/broker/receive_count_max", nullptr)).ok());
  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/visibility_timeout_s", 601)),
                "/broker/visibility_timeout_s",
                "an ack deadline is 10..600 s (ackDeadlineSeconds)");
  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/redelivery_backoff",
                          Json::parse(R"({"kind": "exponential", "base_s": 10, "cap_s": 900})"))),
                "/broker/redelivery_backoff/cap_s", "900 s is longer than Pub/Sub allows");
  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/redelivery_backoff",
                          Json::parse(R"({"kind": "constant", "delay_s": 700})"))),
                "/broker/redelivery_backoff/delay_s", "(minimumBackoff, maximumBackoff)");
  CHECK_PROBLEM(Load(With(Minimal("pubsub"), "/broker/dlq_retention_s", 2678401)),
                "/broker/dlq_retention_s", "at most 2678400 s, 31 days");

  CHECK_PROBLEM(Load(With(Minimal("azure-service-bus"), "/broker/visibility_timeout_s", 301)),
                "/broker/visibility_timeout_s",
                "301 s is longer than Service Bus allows: a message lock lasts 5..300 s");
  CHECK_PROBLEM(Load(With(Minimal("azure-service-bus"), "/broker/visibility_timeout_s", 4)),
                "/broker/visibility_timeout_s", "4 s is shorter than Service Bus allows");
  CHECK(Load(With(Minimal("azure-service-bus"), "/broker/visibility_timeout_s", 300)).ok());
}

TEST_CASE(
    "drains faster than broker.redrive_rate_max_per_s are problems, with or without a "
    "preset",
    "[presets]") {
  Json plain = Minimal("sqs");
  plain["broker"] = {{"redrive_rate_max_per_s", 50}};
  plain["database"] = {{"connections", 4}};
  CHECK(Load(WithDrain(plain, R"({"start_at_s": 60, "strategy": "bulk"})")).ok());
  CHECK(Load(WithDrain(plain, R"({"start_at_s": 60, "strategy": "bounded", "limit": 10})")).ok());
  CHECK_PROBLEM(Load(WithDrain(plain, R"({"start_at_s": 60, "strategy": "drip",
                                          "rate_per_s": 60})")),
                "/drains/0/rate_per_s",
                "60 messages/s is faster than broker.redrive_rate_max_per_s = 50 allows");
  CHECK_PROBLEM(Load(WithDrain(plain, R"({"start_at_s": 60, "strategy": "bounded", "limit": 10,
                                          "rate_per_s": 51})")),
                "/drains/0/rate_per_s", "faster than broker.redrive_rate_max_per_s = 50");
  CHECK_PROBLEM(Load(WithDrain(plain, R"({"start_at_s": 60, "strategy": "adaptive",
                                          "rate_min_per_s": 1, "rate_max_per_s": 80,
                                          "increase_per_s": 1, "latency_target_ms": 50})")),
                "/drains/0/rate_max_per_s", "80 messages/s is faster than");
  // The pointer names the drain's place in the file.
  Json two = plain;
  two["drains"] = Json::array({Json::parse(R"({"start_at_s": 60, "strategy": "bulk"})"),
                               Json::parse(R"({"start_at_s": 60, "strategy": "drip",
                                               "rate_per_s": 60})")});
  CHECK_PROBLEM(Load(two), "/drains/1/rate_per_s", "faster than");
}

}  // namespace
}  // namespace presets_test
}  // namespace drainsim::scenario
