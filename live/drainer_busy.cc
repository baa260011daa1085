#include "live/drainer_busy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "live/nearest_rank.h"

namespace drainsim::live {

namespace {

// Enough points for the body and for the tail, where the stalls are.
constexpr double kTableProbabilities[] = {0.1,   0.2,    0.3,    0.4,    0.5,  0.6,   0.7,
                                          0.8,   0.9,    0.95,   0.98,   0.99, 0.995, 0.998,
                                          0.999, 0.9995, 0.9998, 0.9999, 1.0};

double Micros(double ms) { return std::round(ms * 1000.0) / 1000.0; }

}  // namespace

DrainerBusy SummariseDrainerBusy(std::vector<double> busy_ms, double slack_ms) {
  DrainerBusy out;
  out.slack_ms = slack_ms;
  if (busy_ms.empty()) return out;
  for (double& b : busy_ms) b = std::max(0.0, b);
  std::sort(busy_ms.begin(), busy_ms.end());
  out.count = static_cast<int64_t>(busy_ms.size());
  out.p50_ms = NearestRank(busy_ms, 0.50);
  out.p99_ms = NearestRank(busy_ms, 0.99);
  out.max_ms = busy_ms.back();
  for (double b : busy_ms) {
    if (b > slack_ms) {
      ++out.stalls;
      out.stalled_s += (b - slack_ms) / 1000.0;
    }
  }
  nlohmann::json table = nlohmann::json::array();
  for (double p : kTableProbabilities) {
    // A point whose rank repeats the previous one's adds nothing (small samples).
    const double value = Micros(NearestRank(busy_ms, p));
    if (!table.empty() && p < 1.0 && table.back()[1].get<double>() == value) continue;
    table.push_back({p, value});
  }
  out.replay_ms = {{"empirical", table}};
  return out;
}

double BucketSlackMs(const config::Drain& drain) {
  if (const auto* drip = std::get_if<config::DripDrain>(&drain.strategy)) {
    return static_cast<double>(drip->burst) * 1000.0 / drip->rate_per_s;
  }
  if (const auto* bounded = std::get_if<config::BoundedDrain>(&drain.strategy)) {
    return bounded->rate_per_s ? 1000.0 / *bounded->rate_per_s : 0.0;
  }
  if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&drain.strategy)) {
    return 1000.0 / adaptive->rate_min_per_s;
  }
  return 0.0;
}

std::string DrainerBusyText(const DrainerBusy& b) {
  if (b.count == 0) return "no replay after the first: nothing measured";
  char text[320];
  std::snprintf(text, sizeof text,
                "busy per replay p50 %.3f ms, p99 %.3f ms, max %.3f ms; %lld of %lld replays "
                "outlasted what the bucket absorbs (%.3f ms) by %.3f s in all",
                b.p50_ms, b.p99_ms, b.max_ms, static_cast<long long>(b.stalls),
                static_cast<long long>(b.count), b.slack_ms, b.stalled_s);
  return text;
}

}  // namespace drainsim::live
