// A lost ack with on_visibility_timeout close_channel (RabbitMQ): the delivery stays unacked on
// its worker's channel, so a crash returns it at once and the consumer timeout returns every
// unacked delivery of the channel with it. drainsim live measured both against RabbitMQ 3.10
// (docs/LIVE.md, "Crashes and lost acks"); before, the model requeued the lost one alone at its
// timeout.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace lost_ack_channel_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

int64_t ByCause(const Results& r, DuplicateCause cause) {
  return r.duplicates_by_cause[static_cast<size_t>(cause)];
}

// One worker, one slot; the first message's ack is lost (the only ack in the fault's window).
std::string Scenario(const std::string& on_timeout, const std::string& extra_faults,
                     const std::string& producers) {
  return R"({"format_version": 1, "name": "withheld", "run": {"until_s": 60},
    "kinds": {"job": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
    "producers": [)" +
         producers + R"(],
    "broker": {"visibility_timeout_s": 5, "on_visibility_timeout": ")" +
         on_timeout + R"("},
    "workers": {"count": 1, "prefetch": 2, "concurrency": 1, "restart_s": 1},
    "faults": [{"type": "ack_loss", "probability": 1, "from_s": 0, "until_s": 1.5})" +
         extra_faults + "]}";
}

TEST_CASE("close_channel: a crash returns a delivery whose ack was lost at once",
          "[model][sim][duplicates]") {
  // The ack of the message published at 0 is lost at 1 s; the worker crashes at 2 s and is
  // back at 3 s. RabbitMQ returned the withheld delivery with the crash: it runs again at 3 s,
  // not at its timeout (5 s after its delivery).
  const std::string one = R"({"kind": "job", "constant": {"rate_per_s": 1, "until_s": 0.5}})";
  const Results r = RunAudited(LoadOrFail(Scenario(
      "close_channel", R"(, {"type": "worker_crash", "at_s": 2, "point": "anywhere"})", one)));
  CheckConserved(r);
  CHECK(r.acked == 1);
  CHECK(r.duplicate_executions == 1);
  CHECK(ByCause(r, DuplicateCause::kLostAck) == 1);
  CHECK(r.message_latency_us.max() == 4'000'000);  // back at 3 s, done at 4 s
  // A broker that redelivers the one message (redeliver) waits for its timeout.
  const Results plain = RunAudited(LoadOrFail(
      Scenario("redeliver", R"(, {"type": "worker_crash", "at_s": 2, "point": "anywhere"})", one)));
  CHECK(plain.message_latency_us.max() == 6'000'000);  // redelivered at 5 s, done at 6 s
}

TEST_CASE("close_channel: the consumer timeout of a lost ack returns the channel's running work",
          "[model][sim][duplicates]") {
  // Message 0's ack is lost at 1 s; message 1, published at 4.5 s, is running when the consumer
  // timeout fires at 5 s: the channel closes, both come back, and message 1's work runs twice
  // (its first run commits on a closed channel: the ack is void).
  const std::string two = R"({"kind": "job", "constant": {"rate_per_s": 1, "until_s": 0.5}},
      {"kind": "job", "constant": {"rate_per_s": 1, "from_s": 4.5, "until_s": 5}})";
  const Results r = RunAudited(LoadOrFail(Scenario("close_channel", "", two)));
  CheckConserved(r);
  CHECK(r.acked == 2);
  CHECK(ByCause(r, DuplicateCause::kLostAck) == 1);
  CHECK(r.duplicate_executions == 2);
  // Redelivering the one message leaves the running one alone.
  const Results plain = RunAudited(LoadOrFail(Scenario("redeliver", "", two)));
  CHECK(plain.acked == 2);
  CHECK(plain.duplicate_executions == 1);
}

}  // namespace
}  // namespace lost_ack_channel_test
}  // namespace drainsim::model
