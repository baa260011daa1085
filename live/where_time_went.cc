#include "live/where_time_went.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "live/nearest_rank.h"
#include "reports/table.h"

namespace drainsim::live {

WhereTimeWent ReadWhereTimeWent(const std::string& events_path, const Plan& plan) {
  WhereTimeWent w;
  std::ifstream in(events_path);
  if (!in) return w;
  const size_t n = plan.messages.size();
  std::vector<std::optional<double>> published(n), delivered(n);
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json e = nlohmann::json::parse(line, nullptr, false);
    if (e.is_discarded() || !e.is_object() || !e.contains("event") || !e["event"].is_string() ||
        !e.contains("id") || !e["id"].is_number_unsigned() || !e.contains("t_s") ||
        !e["t_s"].is_number()) {
      ++w.bad_lines;
      continue;
    }
    const std::string event = e["event"].get<std::string>();
    const uint64_t id = e["id"].get<uint64_t>();
    if (id >= n) continue;
    const double t_s = e["t_s"].get<double>();
    if (event == "publish" && !published[id]) published[id] = t_s;
    if (event == "delivery" && !delivered[id]) delivered[id] = t_s;
  }
  std::vector<double> first_delivery_ms;
  for (size_t id = 0; id < n; ++id) {
    if (!published[id]) continue;
    ++w.published;
    const double lag_s = *published[id] - plan.messages[id].publish_at_s;
    w.publish_lag_max_s = std::max(w.publish_lag_max_s, lag_s);
    if (id + 1 == n) w.last_publish_lag_s = lag_s;
    if (delivered[id]) first_delivery_ms.push_back((*delivered[id] - *published[id]) * 1e3);
  }
  w.delivered = static_cast<int64_t>(first_delivery_ms.size());
  if (!first_delivery_ms.empty()) {
    std::sort(first_delivery_ms.begin(), first_delivery_ms.end());
    w.first_delivery_p50_ms = NearestRank(first_delivery_ms, 0.50);
    w.first_delivery_p99_ms = NearestRank(first_delivery_ms, 0.99);
    w.first_delivery_max_ms = first_delivery_ms.back();
  }
  w.ok = w.published > 0;
  return w;
}

std::string WhereTimeWentText(const WhereTimeWent& w) {
  using reports::Number;
  if (!w.ok) return "";
  std::string text = "the last publish was " + Number(w.last_publish_lag_s) +
                     " s behind its planned instant (at most " + Number(w.publish_lag_max_s) +
                     " s); publish -> first delivery ";
  if (w.delivered == 0) return text + "not measured";
  text += "p50 " + Number(w.first_delivery_p50_ms) + " ms, p99 " + Number(w.first_delivery_p99_ms) +
          " ms, max " + Number(w.first_delivery_max_ms) + " ms over " +
          std::to_string(w.delivered) + " messages";
  if (!w.simulated) return text;
  const SimulatedWait& sim = *w.simulated;
  if (sim.replications == 0) return text + ", and the simulation delivered nothing";
  return text + ", against the simulation's queue wait (a backlog's wait; it takes the broker's " +
         "enqueue as instant) p50 " + Number(sim.p50_ms) + " ms, p99 " + Number(sim.p99_ms) +
         " ms (mean of " + std::to_string(sim.replications) + " replications)";
}

}  // namespace drainsim::live
