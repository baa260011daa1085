#include "live/restart_report.h"

namespace drainsim::live {

namespace {

nlohmann::json OrNull(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nullptr; }

}  // namespace

void PrintRestartSummary(std::FILE* out, const LiveResult& r) {
  if (!r.restart.active) return;
  for (const RestartRecord& x : r.restart.restarts) {
    std::fprintf(out,
                 "broker restart: planned at %.3f s for %.3f s; stopped at %.3f s (in %.3f s), "
                 "started at %.3f s (in %.3f s), accepting at %.3f s: real downtime %.3f s\n",
                 x.planned_at_s, x.downtime_s, x.stop_called_s, x.stop_returned_s - x.stop_called_s,
                 x.start_called_s, x.start_returned_s - x.start_called_s,
                 x.up_s.value_or(x.start_returned_s), x.real_downtime_s());
    // The model's recovery_s beside what it stands for, measured (live/broker_restart.h).
    const std::optional<double> measured = x.measured_recovery_s();
    if (measured) {
      std::fprintf(out,
                   "broker recovery: measured %.3f s (the start %.3f s, then the first consumer "
                   "back at %.3f s), scenario recovery_s %.3f s\n",
                   *measured, x.up_s.value_or(x.start_returned_s) - x.start_called_s,
                   *x.first_consumer_s, x.recovery_s);
    } else {
      std::fprintf(out, "broker recovery: no consumer came back; scenario recovery_s %.3f s\n",
                   x.recovery_s);
    }
  }
  std::fprintf(out,
               "broker restarts: node starts %lld -> %lld; connections lost %lld, reconnected "
               "%lld, publishes sent again %lld, settles dropped %lld\n",
               static_cast<long long>(r.restart.starts_before),
               static_cast<long long>(r.restart.starts_after),
               static_cast<long long>(r.connections_lost), static_cast<long long>(r.reconnects),
               static_cast<long long>(r.publishes_resent),
               static_cast<long long>(r.settles_dropped));
}

nlohmann::json RestartJson(const LiveResult& r, const Plan& plan) {
  if (!r.restart.active) return nullptr;
  nlohmann::json restarts = nlohmann::json::array();
  for (const RestartRecord& x : r.restart.restarts) {
    restarts.push_back({{"planned_at_s", x.planned_at_s},
                        {"downtime_s", x.downtime_s},
                        {"stop_called_s", x.stop_called_s},
                        {"stop_returned_s", x.stop_returned_s},
                        {"start_called_s", x.start_called_s},
                        {"start_returned_s", x.start_returned_s},
                        {"up_s", x.up_s ? nlohmann::json(*x.up_s) : nlohmann::json()},
                        {"real_downtime_s", x.real_downtime_s()},
                        {"recovery_s", x.recovery_s},
                        {"first_consumer_s", OrNull(x.first_consumer_s)},
                        {"measured_recovery_s", OrNull(x.measured_recovery_s())}});
  }
  const model::Results& sim = plan.simulated;
  return {{"restarts", restarts},
          {"node_starts_before", r.restart.starts_before},
          {"node_starts_after", r.restart.starts_after},
          {"connections_lost", r.connections_lost},
          {"reconnects", r.reconnects},
          {"publishes_resent", r.publishes_resent},
          {"settles_dropped", r.settles_dropped},
          {"simulated",
           {{"duplicates_other",
             sim.duplicates_by_cause[static_cast<size_t>(model::DuplicateCause::kOther)]},
            {"duplicates_suppressed", sim.duplicates_suppressed},
            {"attempts", sim.attempts}}}};
}

}  // namespace drainsim::live
