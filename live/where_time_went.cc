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
  std::vector<double> enqueue_ms;
  for (size_t id = 0; id < n; ++id) {
    if (!published[id]) continue;
    ++w.published;
    const double lag_s = *published[id] - plan.messages[id].publish_at_s;
    w.publish_lag_max_s = std::max(w.publish_lag_max_s, lag_s);
    if (id + 1 == n) w.last_publish_lag_s = lag_s;
    if (delivered[id]) enqueue_ms.push_back((*delivered[id] - *published[id]) * 1e3);
  }
  w.delivered = static_cast<int64_t>(enqueue_ms.size());
  if (!enqueue_ms.empty()) {
    std::sort(enqueue_ms.begin(), enqueue_ms.end());
    w.enqueue_p50_ms = NearestRank(enqueue_ms, 0.50);
    w.enqueue_p99_ms = NearestRank(enqueue_ms, 0.99);
    w.enqueue_max_ms = enqueue_ms.back();
  }
  w.ok = w.published > 0;
  return w;
}

std::string WhereTimeWentText(const WhereTimeWent& w) {
  using reports::Number;
  if (!w.ok) return "";
  std::string text = "the last publish was " + Number(w.last_publish_lag_s) +
                     " s behind its planned instant (at most " + Number(w.publish_lag_max_s) +
                     " s); publish -> first delivery (the broker's enqueue, which the model "
                     "takes as instant) ";
  if (w.delivered == 0) return text + "not measured";
  return text + "p50 " + Number(w.enqueue_p50_ms) + " ms, p99 " + Number(w.enqueue_p99_ms) +
         " ms, max " + Number(w.enqueue_max_ms) + " ms over " + std::to_string(w.delivered) +
         " messages";
}

}  // namespace drainsim::live
