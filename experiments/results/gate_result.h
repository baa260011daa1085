// `drainsim compare`'s judgement from B's side, as reports read it (reports/compare_comment.h
// renders it; experiments/compare_gate.h computes it from the comparison): per metric A's and
// B's means, the paired difference B - A with its interval, and whether B is worse, better or
// neither; and the gate of --fail-if-worse: which metrics were judged and whether it failed.
//
// Contract: plain data.
//  (1) rows are in the comparison's metric order; `gated` marks the metrics --fail-if-worse
//      named, each of which has a direction (better != kNone).
//  (2) verdict kWorse iff the comparison found a significant difference in the direction the
//      metric's `better` calls worse (higher for a lower-is-better metric); kBetter the other
//      way. A difference that is not significant is never kWorse.
//  (3) Failed() iff some gated row is kWorse; a gate with no gated row never fails.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/results/metric.h"
#include "experiments/results/statistics.h"

namespace drainsim::experiments {

enum class GateVerdict : uint8_t {
  kWorse,         // B significantly worse than A
  kBetter,        // B significantly better
  kNoDifference,  // no significant difference
  kDiffers,       // significant, but the metric has no direction (published, db_utilisation)
  kTooFew,        // one pair: no interval
  kUndefined,     // no pair has a value
};

// "worse", "better", "no significant difference", "differs", "too few pairs", "undefined".
inline std::string_view GateVerdictName(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::kWorse:
      return "worse";
    case GateVerdict::kBetter:
      return "better";
    case GateVerdict::kNoDifference:
      return "no significant difference";
    case GateVerdict::kDiffers:
      return "differs";
    case GateVerdict::kTooFew:
      return "too few pairs";
    case GateVerdict::kUndefined:
      return "undefined";
  }
  return "undefined";
}

struct GateRow {
  std::string metric;  // canonical NAME[:KIND][@WINDOW]
  Better better = Better::kNone;
  Statistics a;
  Statistics b;
  Statistics difference;   // of B - A, paired per replication
  std::string verdict_by;  // "paired t", "signed rank" or "-"
  GateVerdict verdict = GateVerdict::kUndefined;
  bool gated = false;  // named by --fail-if-worse
};

struct GateResult {
  std::string a_name;
  std::string b_name;
  int64_t replications = 0;
  double confidence = 0.95;
  std::vector<GateRow> rows;

  bool AnyGated() const {
    for (const GateRow& row : rows) {
      if (row.gated) return true;
    }
    return false;
  }
  bool Failed() const {
    for (const GateRow& row : rows) {
      if (row.gated && row.verdict == GateVerdict::kWorse) return true;
    }
    return false;
  }
};

}  // namespace drainsim::experiments
