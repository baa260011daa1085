// The words the trace and `drainsim explain` share (reports/life_text.h): every failure cause,
// every way an attempt span ends, every duplicate and redelivery cause has its own text, and the
// texts the user reads are exactly the documented ones.
#include "reports/life_text.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

namespace drainsim::reports {
namespace life_text_test {
namespace {

using config::ErrorClass;
using model::AckFate;
using model::AttemptOutcome;
using model::AttemptSpan;
using model::FailureCause;

const std::vector<std::string> kFaultTypes = {"synthetic_failures", "db_slowdown"};

TEST_CASE("life text: a failure names its class and where it came from", "[reports][life]") {
  CHECK(FailureText(ErrorClass::kTransient, FailureCause::kNone, -1, kFaultTypes) == "transient");
  CHECK(FailureText(ErrorClass::kTransient, FailureCause::kInjected, 0, kFaultTypes) ==
        "transient (injected by fault 0, synthetic_failures)");
  // A fault index the list does not have (a log from another scenario) is named by number only.
  CHECK(FailureText(ErrorClass::kPermanent, FailureCause::kInjected, 7, kFaultTypes) ==
        "permanent (injected by fault 7)");
  CHECK(FailureText(ErrorClass::kPermanent, FailureCause::kInjected, -1, kFaultTypes) ==
        "permanent (injected by fault -1)");
  CHECK(FailureText(ErrorClass::kTransient, FailureCause::kDbTimeout, -1, kFaultTypes) ==
        "transient (database statement timeout)");
  CHECK(FailureText(ErrorClass::kTransient, FailureCause::kDbRefused, -1, kFaultTypes) ==
        "transient (database refused the connection: outage)");
  CHECK(FailureText(ErrorClass::kTransient, FailureCause::kDownstreamOutage, -1, kFaultTypes) ==
        "transient (downstream answered 503)");
  CHECK(FailureText(ErrorClass::kRateLimited, FailureCause::kRateLimited, -1, kFaultTypes) ==
        "rate_limited (downstream answered 429)");
}

AttemptSpan Span(AttemptOutcome outcome, AckFate ack) {
  AttemptSpan span;
  span.outcome = outcome;
  span.ack = ack;
  return span;
}

TEST_CASE("life text: every way an attempt span ends", "[reports][life]") {
  SECTION("sleeps and open spans") {
    AttemptSpan sleep;
    sleep.sleep = true;
    CHECK(SpanOutcomeText(sleep, kFaultTypes) == "slept through its backoff");
    sleep.ended = false;
    CHECK(SpanOutcomeText(sleep, kFaultTypes) == "still sleeping at the end");
    AttemptSpan running;
    running.ended = false;
    CHECK(SpanOutcomeText(running, kFaultTypes) == "still running when the run stopped");
  }
  SECTION("acks") {
    CHECK(SpanOutcomeText(Span(AttemptOutcome::kSucceeded, AckFate::kAcked), kFaultTypes) ==
          "acked");
    CHECK(SpanOutcomeText(Span(AttemptOutcome::kSucceeded, AckFate::kLost), kFaultTypes) ==
          "ack lost");
    CHECK(SpanOutcomeText(Span(AttemptOutcome::kSucceeded, AckFate::kBrokerDown), kFaultTypes) ==
          "ack lost (broker down)");
    for (AckFate moved_on : {AckFate::kIgnored, AckFate::kNone}) {
      CHECK(SpanOutcomeText(Span(AttemptOutcome::kSucceeded, moved_on), kFaultTypes) ==
            "ack ignored (the message had moved on)");
    }
  }
  SECTION("a suppressed duplicate says so before its ack") {
    CHECK(SpanOutcomeText(Span(AttemptOutcome::kSuppressed, AckFate::kAcked), kFaultTypes) ==
          "found the claim row (duplicate suppressed), acked");
  }
  SECTION("failures, current and stale") {
    AttemptSpan failed = Span(AttemptOutcome::kFailed, AckFate::kNone);
    failed.error = ErrorClass::kTransient;
    failed.failure = FailureCause::kInjected;
    failed.fault = 0;
    CHECK(SpanOutcomeText(failed, kFaultTypes) ==
          "failed: transient (injected by fault 0, synthetic_failures)");
    failed.current = false;
    failed.failure = FailureCause::kDbTimeout;
    CHECK(SpanOutcomeText(failed, kFaultTypes) ==
          "failed: transient (database statement timeout) (a stale copy)");
  }
  SECTION("crashes, before and after the commit") {
    AttemptSpan crashed = Span(AttemptOutcome::kCrashed, AckFate::kNone);
    CHECK(SpanOutcomeText(crashed, kFaultTypes) == "worker crashed");
    crashed.committed = true;
    CHECK(SpanOutcomeText(crashed, kFaultTypes) == "worker crashed between commit and ack");
  }
  SECTION("a duplicate execution is appended with its cause") {
    AttemptSpan again = Span(AttemptOutcome::kSucceeded, AckFate::kAcked);
    again.committed = true;
    again.duplicate = true;
    again.duplicate_cause = model::DuplicateCause::kRedrive;
    CHECK(SpanOutcomeText(again, kFaultTypes) == "acked, duplicate execution (redrive)");
  }
}

TEST_CASE("life text: each duplicate and redelivery cause has its own clause", "[reports][life]") {
  using model::DuplicateCause;
  using model::RedeliveryCause;
  std::set<std::string_view> duplicate_texts;
  for (DuplicateCause c :
       {DuplicateCause::kLostAck, DuplicateCause::kCrashAfterCommit,
        DuplicateCause::kVisibilityTimeout, DuplicateCause::kRedrive, DuplicateCause::kOther,
        DuplicateCause::kRebalance, DuplicateCause::kOrderingKey}) {
    CHECK(!DuplicateCauseText(c).empty());
    duplicate_texts.insert(DuplicateCauseText(c));
  }
  CHECK(duplicate_texts.size() == model::kDuplicateCauseCount);
  CHECK(DuplicateCauseText(DuplicateCause::kRedrive) ==
        "a drain replayed it from the DLQ although its work had already committed");
  CHECK(DuplicateCauseText(DuplicateCause::kVisibilityTimeout).find("both ran it") !=
        std::string_view::npos);

  CHECK(RedeliveryText(RedeliveryCause::kLostAck) == "its ack was lost");
  CHECK(RedeliveryText(RedeliveryCause::kCrashAfterCommit) ==
        "its worker died between commit and ack");
  CHECK(RedeliveryText(RedeliveryCause::kVisibilityTimeout) ==
        "no ack came in time: a worker was still on it");
  CHECK(RedeliveryText(RedeliveryCause::kRedrive) == "a drain replayed it");
  CHECK(RedeliveryText(RedeliveryCause::kNotDeleted) ==
        "its attempt had failed and the consumer left it for the timeout (no delete)");
  CHECK(RedeliveryText(RedeliveryCause::kRebalance) ==
        "its consumer overran max.poll.interval.ms and left the group: a rebalance");
  CHECK(RedeliveryText(RedeliveryCause::kOrderingKey) ==
        "an earlier message of its ordering key came back, and the key's later ones with it");
  // No recorded cause reads as the common one: a crash before the ack.
  CHECK(RedeliveryText(RedeliveryCause::kNone) == "its worker crashed before the ack");
  CHECK(RedeliveryText(RedeliveryCause::kOther) == "its worker crashed before the ack");
}

TEST_CASE("life text: seconds print with three decimals", "[reports][life]") {
  CHECK(Seconds3(engine::Instant::Micros(612'400'000)) == "612.400");
  CHECK(Seconds3(engine::Instant::Micros(1)) == "0.000");
  CHECK(Seconds3(engine::Instant::Micros(1'501)) == "0.002");  // rounded, not cut
}

}  // namespace
}  // namespace life_text_test
}  // namespace drainsim::reports
