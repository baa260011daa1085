// What `drainsim live` reports of the downstream API (live/downstream_calls.h): the summary line,
// live.json's "downstream", and the side-by-side's rows (live/side_by_side.h).
//
// The side-by-side's figures, with a downstream section only, named as report.json's counts:
//   downstream_calls   calls made (the model's downstream_calls: 429s and 503s included);
//   downstream_429s    answered 429 by the rate limit (the model's downstream_429s);
//   downstream_503s    answered 503 during a downstream_outage. The model has no counter of its
//                      own for them: DownstreamWatch counts its attempts that failed with
//                      FailureCause::kDownstreamOutage (one call each: a 503 ends the attempt).
// Counts, tolerance 0; exact where every replication agrees (live/comparison.h).
//
// Thread-safety: pure functions; a DownstreamWatch observes one run.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "live/harness.h"
#include "live/plan.h"
#include "sim/model/observer.h"

namespace drainsim::live {

class DownstreamWatch final : public model::RunObserver {
 public:
  void OnAttemptEnd(const model::AttemptEndInfo& info) override {
    if (info.outcome == model::AttemptOutcome::kFailed &&
        info.failure == model::FailureCause::kDownstreamOutage) {
      ++answered_503_;
    }
  }
  int64_t answered_503() const { return answered_503_; }

 private:
  int64_t answered_503_ = 0;
};

// {"downstream_calls", "downstream_429s", "downstream_503s"} with a downstream section, else {}.
std::vector<std::string> DownstreamFigures(const config::Scenario& scenario);
// In DownstreamFigures' order.
std::vector<std::optional<double>> DownstreamSimulated(const model::Results& results,
                                                       const DownstreamWatch& watch);
std::vector<std::optional<double>> DownstreamLive(const LiveResult& live);
inline constexpr const char* kDownstreamUnit = "calls";

// Nothing without a downstream section.
void PrintDownstreamSummary(std::FILE* out, const LiveResult& live, const Plan& plan);
// null without a downstream section.
nlohmann::json DownstreamJson(const LiveResult& live, const Plan& plan);

}  // namespace drainsim::live
