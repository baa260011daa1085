#include "live/fault_report.h"

namespace drainsim::live {

namespace {

long long L(int64_t v) { return static_cast<long long>(v); }

}  // namespace

std::vector<Check> FaultChecks(const LiveResult& r, const Plan& plan) {
  if (!plan.faults.active) return {};
  const FaultFigures& sim = plan.faults;
  return {{"crashes", r.crashes, sim.crashes},
          {"crash_after_commit", r.crash_after_commit, sim.crash_after_commit},
          {"acks_lost", r.acks_lost, sim.acks_lost},
          {"duplicates_after_fault", r.duplicates_after_fault, sim.duplicates_after_fault},
          {"suppressed_after_fault", r.suppressed_after_fault, sim.suppressed_after_fault}};
}

void PrintFaultSummary(std::FILE* out, const LiveResult& r, const Plan& plan) {
  if (!plan.faults.active) return;
  const model::Results& sim = plan.simulated;
  std::fprintf(out,
               "faults: %lld crashes (%lld between commit and ack), %lld acks lost; %lld channels "
               "closed by the broker, %lld settles dropped with their channel, %lld handlers "
               "rolled back by a crash\n",
               L(r.crashes), L(r.crash_after_commit), L(r.acks_lost), L(r.channel_closes),
               L(r.settles_dropped), L(r.rolled_back));
  std::fprintf(out,
               "after them: %lld duplicate executions, %lld suppressed by a claim (simulated %lld, "
               "%lld)\n",
               L(r.duplicates_after_fault), L(r.suppressed_after_fault),
               L(plan.faults.duplicates_after_fault), L(plan.faults.suppressed_after_fault));
  std::fprintf(out,
               "in all (not judged): duplicate executions live %lld, simulated %lld; suppressed "
               "live %lld, simulated %lld\n",
               L(r.duplicate_executions), L(sim.duplicate_executions), L(r.suppressed),
               L(sim.duplicates_suppressed));
}

nlohmann::json FaultJson(const LiveResult& r, const Plan& plan) {
  if (!plan.faults.active) return nullptr;
  const FaultFigures& f = plan.faults;
  const model::Results& sim = plan.simulated;
  nlohmann::json crashes = nlohmann::json::array();
  for (const PlannedCrash& c : plan.crashes) {
    crashes.push_back(
        {{"worker", c.worker},
         {"at_s", c.at_s},
         {"after_commit", c.after_commit},
         {"message_id", c.message_id >= 0 ? nlohmann::json(c.message_id) : nlohmann::json()}});
  }
  return {{"live",
           {{"crashes", r.crashes},
            {"crash_after_commit", r.crash_after_commit},
            {"acks_lost", r.acks_lost},
            {"channel_closes", r.channel_closes},
            {"settles_dropped", r.settles_dropped},
            {"rolled_back", r.rolled_back},
            {"duplicates_after_fault", r.duplicates_after_fault},
            {"suppressed_after_fault", r.suppressed_after_fault},
            {"duplicate_executions", r.duplicate_executions},
            {"suppressed", r.suppressed}}},
          {"simulated",
           {{"crashes", f.crashes},
            {"crash_after_commit", f.crash_after_commit},
            {"acks_lost", f.acks_lost},
            {"duplicates_after_fault", f.duplicates_after_fault},
            {"suppressed_after_fault", f.suppressed_after_fault},
            {"duplicate_executions", sim.duplicate_executions},
            {"duplicates_suppressed", sim.duplicates_suppressed}}},
          {"planned_crashes", crashes}};
}

}  // namespace drainsim::live
