#include "live/live_series.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "sim/base/check.h"

namespace drainsim::live {

namespace {

struct Moves {
  std::vector<std::pair<double, int>> deltas;  // (t_s, +1 / -1)
  std::map<uint64_t, double> last_requeue_s;   // per id
  std::set<uint64_t> removed;                  // ids whose leaving was logged
  std::set<uint64_t> in_dlq;                   // found in the DLQ at the end
  double last_s = 0;
};

void Read(const nlohmann::json& e, Moves* m) {
  const std::string event = e["event"].get<std::string>();
  const uint64_t id = e["id"].get<uint64_t>();
  const double t_s = e["t_s"].get<double>();
  m->last_s = std::max(m->last_s, t_s);
  if (event == "publish") {
    m->deltas.emplace_back(t_s, +1);
  } else if (event == "ack" || event == "park" || event == "reject_dead_letter" ||
             event == "nack_dead_letter") {
    m->deltas.emplace_back(t_s, -1);
    m->removed.insert(id);
  } else if (event == "reject_requeue" || event == "nack_requeue") {
    m->last_requeue_s[id] = t_s;
  } else if (event == "dead_letter") {
    m->in_dlq.insert(id);
  }
}

}  // namespace

std::optional<LiveSeries> LiveMainQueue(const std::string& events_path, double dt_s,
                                        size_t samples_min) {
  DRAINSIM_CHECK(dt_s > 0);
  std::ifstream in(events_path);
  if (!in) return std::nullopt;
  Moves m;
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json e = nlohmann::json::parse(line, nullptr, false);
    if (e.is_object() && e.contains("event") && e["event"].is_string() && e.contains("id") &&
        e["id"].is_number_unsigned() && e.contains("t_s") && e["t_s"].is_number()) {
      Read(e, &m);
    }
  }
  for (uint64_t id : m.in_dlq) {  // contract (1): dead-lettered by the broker
    const auto last = m.last_requeue_s.find(id);
    if (!m.removed.count(id) && last != m.last_requeue_s.end()) {
      m.deltas.emplace_back(last->second, -1);
    }
  }
  std::sort(m.deltas.begin(), m.deltas.end());
  LiveSeries series;
  series.last_event_s = m.last_s;
  const size_t samples =
      std::max(samples_min, static_cast<size_t>(std::floor(m.last_s / dt_s)) + 2);
  series.main_queue.assign(samples, 0);
  size_t next = 0;
  int64_t count = 0;
  for (size_t k = 0; k < samples; ++k) {
    const double t_s = static_cast<double>(k) * dt_s;
    while (next < m.deltas.size() && m.deltas[next].first <= t_s) count += m.deltas[next++].second;
    series.main_queue[k] = static_cast<double>(count);
  }
  return series;
}

}  // namespace drainsim::live
