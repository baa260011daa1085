// live-events.jsonl read for `drainsim fit` (sim/telemetry/live_events_read.h): attempts become
// spans with their kind, failure class and censoring; bad lines are refused with their number
// and leave the set as it was.
#include "sim/telemetry/live_events_read.h"

#include <catch2/catch.hpp>
#include <string>

namespace drainsim::telemetry {
namespace live_events_read_test {
namespace {

using Catch::Matchers::Contains;

constexpr const char* kLog =
    R"LOG({"t_s":0.000100,"event":"publish","id":0,"detail":"job"}
{"t_s":0.000200,"event":"publish","id":1,"detail":"job"}
{"t_s":0.900000,"event":"delivery","id":0,"worker":0,"attempt":1}
{"t_s":1.000000,"event":"attempt","id":0,"worker":0,"attempt":1}
{"t_s":1.500000,"event":"reject_requeue","id":0,"worker":0,"attempt":1,"detail":"failed:transient (injected by fault 0)"}
{"t_s":2.000000,"event":"attempt","id":0,"worker":1,"attempt":2}
{"t_s":2.100000,"event":"commit","id":0,"worker":1,"attempt":2}
{"t_s":2.250000,"event":"ack","id":0,"worker":1,"attempt":2,"detail":"committed"}
{"t_s":3.000000,"event":"attempt","id":1,"worker":0,"attempt":1}
{"t_s":3.100000,"event":"rolled_back","id":1,"worker":0,"attempt":1,"detail":"worker crashed"}
{"t_s":3.200000,"event":"crash","id":null,"worker":0,"detail":"point anywhere"}
{"t_s":4.000000,"event":"attempt","id":1,"worker":0,"attempt":2}
{"t_s":4.500000,"event":"republish","id":1,"worker":0,"attempt":2,"detail":"failed:permanent (database error: x); delay_ms=1000"}
{"t_s":6.000000,"event":"attempt","id":1,"worker":0,"attempt":3}
{"t_s":7.000000,"event":"drain_end","id":0,"detail":"limit"}
)LOG";

TEST_CASE("live events: each attempt a span, settled by the line that settles it", "[telemetry]") {
  TelemetrySet set;
  REQUIRE(ReadLiveEvents(kLog, "live-events.jsonl", &set).ok());
  REQUIRE(set.spans.size() == 5);
  CHECK(set.kinds == std::vector<std::string>{"job"});
  CHECK(set.classes == std::vector<std::string>{"transient", "permanent"});
  CHECK(set.messages == std::vector<std::string>{"job/0", "job/1"});
  const ProcessSpan& failed = set.spans[0];
  CHECK(failed.start_ns == 1'000'000'000);
  CHECK(failed.end_ns == 1'500'000'000);
  CHECK(failed.failed);
  CHECK(set.classes.at(failed.error_class) == "transient");
  CHECK_FALSE(failed.censored);
  const ProcessSpan& acked = set.spans[1];
  CHECK(acked.end_ns - acked.start_ns == 250'000'000);
  CHECK_FALSE(acked.failed);
  CHECK_FALSE(acked.censored);
  CHECK(set.spans[2].censored);  // rolled back: its worker died
  CHECK(set.spans[2].end_ns == 3'100'000'000);
  CHECK(set.spans[3].failed);
  CHECK(set.classes.at(set.spans[3].error_class) == "permanent");
  CHECK(set.spans[4].censored);  // still open at the end of the file
  CHECK(set.spans[4].end_ns == 7'000'000'000);
  CHECK(set.spans[4].message == 1);
}

TEST_CASE("live events: a bad line is refused with its number, the set left as it was",
          "[telemetry]") {
  TelemetrySet set;
  REQUIRE(ReadLiveEvents(kLog, "a.jsonl", &set).ok());
  const size_t spans = set.spans.size();
  const auto refused = [&](const std::string& text) {
    const base::Status s = ReadLiveEvents(text, "b.jsonl", &set);
    REQUIRE_FALSE(s.ok());
    CHECK(set.spans.size() == spans);
    CHECK(set.files == std::vector<std::string>{"a.jsonl"});
    return s.error();
  };
  const std::string good = R"({"t_s":1,"event":"attempt","id":5,"worker":0,"attempt":1})";
  CHECK_THAT(refused(good + "\n[1,2]\n"), Contains("b.jsonl: line 2: not a JSON object"));
  CHECK_THAT(refused(good + "\n{\"event\":\"ack\"}\n"), Contains("b.jsonl: line 2: no t_s"));
  CHECK_THAT(refused(good + "\n{\"t_s\":-1,\"event\":\"ack\"}\n"), Contains("line 2: no t_s"));
  CHECK_THAT(refused(good + "\n{\"t_s\":2}\n"), Contains("line 2: no \"event\""));
  CHECK_THAT(refused(good + "\n{\"t_s\":2,\"event\":\"ack\",\"id\":5}\n"),
             Contains("line 2: \"ack\" without its worker and attempt"));
  CHECK_THAT(
      refused(good + "\n{\"t_s\":0.5,\"event\":\"ack\",\"id\":5,\"worker\":0,\"attempt\":1}\n"),
      Contains("line 2: settles attempt 1 of message 5 before its attempt line's t_s"));
  CHECK_THAT(refused(good + "\n{\"t_s\":2,\"event\":\"ack\"" + std::string(70000, ' ') + "}\n"),
             Contains("line 2: longer than 64 KiB"));
  // Blank lines and lines about no message are fine.
  CHECK(ReadLiveEvents(good + "\n\n{\"t_s\":2,\"event\":\"broker_up\",\"id\":null}\n", "c.jsonl",
                       &set)
            .ok());
  CHECK(set.spans.size() == spans + 1);
  CHECK(set.kinds.back() == "unknown");  // message 5 has no publish line
}

}  // namespace
}  // namespace live_events_read_test
}  // namespace drainsim::telemetry
