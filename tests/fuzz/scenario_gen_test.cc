// The scenario generator of the whole-pipeline fuzzer (tools/fuzz/scenario_gen.h): a pure
// function of its bytes, valid for any bytes, and covering the whole vocabulary.
#include "tools/fuzz/scenario_gen.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/scenario/load.h"

namespace drainsim::fuzz {
namespace scenario_gen_test {
namespace {

TEST_CASE("the generator is a pure function of its bytes", "[fuzz][generator]") {
  CHECK(GenerateScenarioJson(BytesForSeed(7)) == GenerateScenarioJson(BytesForSeed(7)));
  CHECK(GenerateScenarioJson(BytesForSeed(7)) != GenerateScenarioJson(BytesForSeed(8)));
  CHECK(BytesForSeed(7) == BytesForSeed(7));
}

TEST_CASE("any bytes decode to a scenario the loader accepts", "[fuzz][generator]") {
  // Empty and short inputs (every read past the end is 0) and arbitrary byte patterns.
  const std::string inputs[] = {
      "",         std::string(1, '\xff'), std::string(64, '\xff'), std::string(3000, '\x80'),
      "drainsim", std::string(9, '\0')};
  for (const std::string& bytes : inputs) {
    const std::string text = GenerateScenarioJson(bytes);
    const scenario::LoadResult loaded = scenario::LoadScenarioText(text);
    INFO(text);
    CHECK(loaded.ok());
  }
}

TEST_CASE("the generated scenarios cover the vocabulary", "[fuzz][generator]") {
  // Each must appear in at least one of the first 2000 seeds' scenarios.
  const char* const kNeedles[] = {
      // idempotency, distributions (lognormal in both forms)
      "\"claim\"", "\"converge\"", "\"constant\":", "\"uniform\":", "\"exponential\":",
      "\"median\":", "\"mu\":", "\"normal\":", "\"empirical\":",
      // schedules, backlog
      "\"fanout\":", "\"poisson\":", "\"burst\":", "\"publish_rate_per_s\":", "\"every_s\":",
      "\"delayed\"", "\"dlq\"", "\"due_in_s\":",
      // presets
      "\"sqs\"", "\"rabbitmq-quorum\"", "\"sidekiq\"", "\"celery\"", "\"bullmq\"", "\"pubsub\"",
      "\"azure-service-bus\"", "\"nats-jetstream\"", "\"version\":",
      // broker fields
      "\"close_channel\"", "\"cancel_consumer\"", "\"requeue_position\":", "\"redeliveries_first\"",
      "\"restored_to_head\"", "\"restore_sweep_s\":", "\"delayed_retry\":", "\"returned\"",
      "\"ack_pending_max\":", "\"lock_renewal\":", "\"stalled_count_max\":", "\"fail\"",
      "\"delivery_limit\":", "\"delivery_counted\":", "\"reject_publish\"", "\"retention_s\":",
      "\"redelivery_backoff\":", "\"dead_letter_queue\":", "\"dlq_max_length\":",
      "\"dead_letter_duplicate_probability\":", "\"redrive_rate_max_per_s\":", "\"keep\"",
      "\"refused\"", "\"message_group_kind\":", "\"fifo_group\"", "\"session\"", "\"ordering_key\"",
      // retry deliveries, classes, budget, breaker, backoffs and jitters
      "\"sleep_in_consumer\"", "\"requeue\"", "\"visibility_timeout\"", "\"eta_in_consumer\"",
      "\"nack\"", "\"park\"", "\"dead_letter\"",
      "\"honor_retry_after\":", "\"budget\":", "\"circuit_breaker\":", "\"linear\"", "\"sidekiq\"",
      "\"decorrelated\"", "\"proportional\"", "\"full_whole_seconds\"",
      // sections
      "\"live_traffic\":", "\"http_date\"", "\"clock_skew_s\":",
      // every fault type
      "\"errors\"", "\"synthetic_failures\"", "\"poison\"", "\"bug\"", "\"db_slowdown\"",
      "\"db_outage\"", "\"db_connections\"", "\"downstream_outage\"", "\"downstream_rate_limit\"",
      "\"worker_crash\"", "\"between_commit_and_ack\"", "\"ack_loss\"", "\"broker_restart\"",
      "\"recovery_s\":",
      // every drain strategy, start after fix
      "\"bulk\"", "\"drip\"", "\"bounded\"", "\"adaptive\"",
      "\"start_after_fix_s\":", "\"replay_ms\":",
      // alerts and expectations
      "\"oldest_age_s\":", "\"dlq_depth\":", "\"always\":", "\"sometimes\":", "\"during\":",
      "\"time_to_empty_s\"", "\"live_p99_ms\"", "\"equals\":"};
  std::string all;
  for (uint64_t seed = 1; seed <= 2000; ++seed) all += GenerateScenarioJson(BytesForSeed(seed));
  for (const char* needle : kNeedles) {
    INFO(needle);
    CHECK(all.find(needle) != std::string::npos);
  }
}

}  // namespace
}  // namespace scenario_gen_test
}  // namespace drainsim::fuzz
