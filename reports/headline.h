// The headline phrases: what happened to the DLQ, to each drain and to the alerts, in words that
// cannot contradict the figures beside them. The summary, the Markdown and the HTML report all
// print these, so one story is told once (docs/METRICS.md defines the figures).
//
// Contract:
//  (1) A phrase reads Results only, and states what happened: "no drain planned" rather than
//      "never"; a time to empty next to a refilled DLQ says the DLQ filled again.
//  (2) Numbers in phrases use the reports' number forms (Decimal, 3 decimals for seconds; a
//      rate with 1), so a phrase and a table cell show the same figure the same way.
//  (3) Alerts the scenario did not configure have no phrase (AlertPhrases leaves them out).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/model/results.h"

namespace drainsim::reports {

// The value of "time to empty": "1689.5 s", "no drain planned", "never: no drain started",
// "never: 120 replayable messages left in the DLQ", "never: replays still in the queue".
std::string TimeToEmptyValue(const model::Results& r);

// What the time to empty leaves out, or "" when nothing: "the DLQ emptied at 1689.5 s after the
// first drain started; 20346 in it again by the end".
std::string TimeToEmptyDetail(const model::Results& r);

// One drain's replays: "never started"; "replayed 25000 in 5 s (5000.2/s)"; "replayed 1 at
// 14400 s"; "replayed 25000 at once"; "replayed nothing".
std::string DrainReplayPhrase(const model::DrainResults& d);
// The same without the count, for a table that has a count column: "in 4.999 s (5000.2/s)",
// "at 14400 s", "at once", "-" (nothing replayed, or never started).
std::string DrainReplayPace(const model::DrainResults& d);

// The rate of a drain's replays: replayed / (last replay - start), the rate it moved messages
// at (achieved_rate_per_s is over its whole active time, settling included). Null when it
// replayed fewer than two or all at one instant.
std::optional<double> ReplayRatePerS(const model::DrainResults& d);

// Attempts per first attempt while a fault window was open; null when none started in it.
std::optional<double> RetryAmplification(const model::FaultWindowAttempts& w);
// "1.967 (2400 attempts over 1220 first attempts)", then per fault window that saw a first
// attempt "; db_slowdown 120-400 s: 3.412"; "no attempt" when nothing ran.
std::string RetryAmplificationText(const model::Results& r);

// broker_lost's causes that happened: "dlq_full 12, crash 3"; "none" when nothing was lost.
std::string BrokerLossCauses(const model::Results& r);

// The end states of the messages, adding up to published: "1000 published, 900 acked, 10 parked,
// 40 in the DLQ, 0 expired, 50 unfinished", with ", N rejected" and ", N lost by the broker"
// when there are any, so that every term of the conservation identity that is not 0 is there.
std::string MessagesLine(const model::Results& r);

// One line per configured alert: "oldest age: first at 600 s", "DLQ depth: never fired".
struct AlertPhrase {
  std::string name;   // "oldest age", "depth", "DLQ depth"
  std::string value;  // "first at 600 s" or "never fired"
  bool fired = false;
};
std::vector<AlertPhrase> AlertPhrases(const model::Results& r);

// The figures of the platform the scenario configures, one per feature it uses (partitions,
// a Lambda event-source mapping, autoscaled workers, message groups) and the messages waiting for DLQ room: the
// Markdown report's rows (Joined()) and the HTML report's cards (value large, detail below).
struct PlatformPhrase {
  std::string name;    // "partitions"
  std::string value;   // "8 partitions"
  std::string detail;  // "3 rebalances; longest hold 12.000 s; 0 ordering violations"
  std::string joiner = "; ";
  std::string Joined() const { return detail.empty() ? value : value + joiner + detail; }
};
std::vector<PlatformPhrase> PlatformPhrases(const model::Results& r);

}  // namespace drainsim::reports
