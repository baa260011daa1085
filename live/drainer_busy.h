// The live drainer's busy time per replay (DrainFigures::busy_ms), summarised as the model's
// Drain::replay_ms would need it: where a paced drain lost time the simulation does not know
// about, and the empirical distribution that tells the simulation (a calibration to paste
// into the scenario's drain, `replay_ms`).
//
// Why: a token bucket of burst b makes up a stall of the drainer only up to (b - 1) token
// intervals; every busy time beyond that is lost for good. At idle on loopback the drainer is
// busy well under a millisecond per replay, but a slow basic.get or a descheduled thread now
// and then takes tens of milliseconds, and over 5,000 replays at 50/s that is a few tenths of
// a second the instantaneous simulated drainer never loses.
//
// Contract:
//  (1) Quantiles are nearest-rank over `busy_ms`; an empty input gives count 0 and no table.
//  (2) stalls counts the busy times longer than `slack_ms`; stalled_s sums their excess
//      over it (seconds), an estimate of the time the drain lost.
//  (3) The empirical table has strictly increasing probabilities ending at exactly 1 and
//      nondecreasing values >= 0 (the loader's rule 6 of sim/config/distribution.h), values
//      rounded to the microsecond.
//  (4) Wall-clock figures only: never passed to the simulator by drainsim itself.
//
// Thread-safety: pure.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/config/drains.h"

namespace drainsim::live {

struct DrainerBusy {
  int64_t count = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  double slack_ms = 0;  // what the bucket absorbs: burst token intervals
  int64_t stalls = 0;   // busy times longer than slack_ms
  double stalled_s = 0;
  nlohmann::json replay_ms;  // {"empirical": [[p, ms], ...]}; null when count == 0
};

// `slack_ms`: burst × the token interval of a paced drain (a busy time shorter than that costs
// nothing); 0 for an unpaced one (then every busy time counts).
DrainerBusy SummariseDrainerBusy(std::vector<double> busy_ms, double slack_ms);

// burst × the token interval for a drip drain, the interval for a bounded one with a rate (and
// for an adaptive one at its lowest rate); 0 for a drain without a bucket.
double BucketSlackMs(const config::Drain& drain);

// One sentence: "busy per replay p50 0.310 ms, p99 4.200 ms, max 369.000 ms; 27 of 4999
// replays outlasted the token interval (20 ms) by 0.994 s in all".
std::string DrainerBusyText(const DrainerBusy& busy);

}  // namespace drainsim::live
