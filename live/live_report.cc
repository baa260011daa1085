#include "live/live_report.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "live/downstream_report.h"
#include "live/drainer_busy.h"
#include "live/fault_report.h"
#include "live/injected_report.h"
#include "live/live_traffic_report.h"
#include "live/restart_report.h"
#include "sim/base/json_integers.h"

namespace drainsim::live {

std::vector<Check> ExactChecks(const LiveResult& live, const Plan& plan) {
  const model::Results& sim = plan.simulated;
  std::vector<Check> checks = {{"published", live.published, sim.published},
                               {"human_needed", live.dead_lettered + live.parked, sim.human_needed},
                               {"dlq_end", live.dead_lettered, sim.dlq_end},
                               {"parked", live.parked, sim.parked},
                               {"lost", live.lost, sim.lost}};
  if (live.drain_planned) {  // a drain's replays and what they came to
    checks.push_back({"replayed", live.drain.replayed, sim.replays});
    checks.push_back(
        {"drain_parked", live.drain.parked, sim.drains.empty() ? 0 : sim.drains[0].parked});
    checks.push_back({"acked", live.acked, sim.acked});
  }
  for (Check& c : FaultChecks(live, plan)) checks.push_back(std::move(c));     // crashes, lost acks
  for (Check& c : InjectedChecks(live, plan)) checks.push_back(std::move(c));  // errors
  return checks;
}

namespace {

std::string Seconds(const std::optional<double>& s) {
  if (!s) return "never";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", *s);
  return text;
}

void PrintDrain(std::FILE* out, const LiveResult& r, const Plan& plan) {
  if (!r.drain_planned) return;
  const DrainFigures& d = r.drain;
  const model::Results& sim = plan.simulated;
  std::fprintf(out,
               "drain: %s; %lld replayed, %lld parked (others), %lld left; last replay at %s; "
               "DLQ backlog %lld\n",
               d.started ? ("started at " + Seconds(d.started_at_s)).c_str() : "never started",
               static_cast<long long>(d.replayed), static_cast<long long>(d.parked),
               static_cast<long long>(d.left), Seconds(d.last_replay_at_s).c_str(),
               static_cast<long long>(r.dlq_seeded));
  if (!d.busy_ms.empty()) {
    const DrainerBusy busy = SummariseDrainerBusy(d.busy_ms, d.slack_ms);
    std::fprintf(out, "drainer: %s; to model it, the drain's \"replay_ms\": %s\n",
                 DrainerBusyText(busy).c_str(), busy.replay_ms.dump().c_str());
  }
  std::fprintf(out, "time to empty (drain start -> last settle): live %s%s, simulated %s\n",
               Seconds(r.drain_time_to_empty_s).c_str(), r.drain_time_to_empty_s ? " wall" : "",
               Seconds(sim.time_to_empty_s).c_str());
}

nlohmann::json BusyJson(const DrainerBusy& b) {
  return {{"count", b.count},         {"p50_ms", b.p50_ms},      {"p99_ms", b.p99_ms},
          {"max_ms", b.max_ms},       {"slack_ms", b.slack_ms},  {"stalls", b.stalls},
          {"stalled_s", b.stalled_s}, {"replay_ms", b.replay_ms}};
}

nlohmann::json DrainJson(const LiveResult& r) {
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json();
  };
  const DrainFigures& d = r.drain;
  return {{"started", d.started},
          {"started_at_s", d.started ? nlohmann::json(d.started_at_s) : nlohmann::json()},
          {"ended_at_s", opt(d.ended_at_s)},
          {"replayed", d.replayed},
          {"parked", d.parked},
          {"left", d.left},
          {"last_replay_at_s", opt(d.last_replay_at_s)},
          {"dlq_seeded", r.dlq_seeded},
          {"drainer_busy", BusyJson(SummariseDrainerBusy(d.busy_ms, d.slack_ms))},
          {"time_to_empty_s", opt(r.drain_time_to_empty_s)}};
}

}  // namespace

namespace {

void PrintServices(std::FILE* out, const LiveResult& r, const ServiceFigures& services) {
  std::fprintf(
      out, "broker: %s %s (%s queue%s)%s\n", r.broker_product.c_str(), r.broker_version.c_str(),
      r.quorum ? "quorum" : "classic",
      r.delivery_limit ? (", x-delivery-limit " + std::to_string(*r.delivery_limit)).c_str() : "",
      services.private_rabbitmq ? ", private" : ", given by --amqp");
  if (!r.postgres_version.empty()) {
    std::fprintf(out, "database: PostgreSQL %s%s\n", r.postgres_version.c_str(),
                 services.private_postgres ? ", private" : ", given by --postgres");
    PrintDbWork(out, r.db_work);
  }
  if (services.private_rabbitmq || services.private_postgres) {
    std::fprintf(out, "services ready in %.1f s (RabbitMQ %.1f s, PostgreSQL %.1f s)\n",
                 services.start_s, services.rabbitmq_ready_s, services.postgres_ready_s);
  }
}

void PrintCounts(std::FILE* out, const LiveResult& r) {
  std::fprintf(out,
               "messages: %lld planned, %lld published, %lld acked, %lld dead-lettered, %lld "
               "parked, %lld unfinished, %lld lost\n",
               static_cast<long long>(r.planned), static_cast<long long>(r.published),
               static_cast<long long>(r.acked), static_cast<long long>(r.dead_lettered),
               static_cast<long long>(r.parked), static_cast<long long>(r.unfinished),
               static_cast<long long>(r.lost));
  std::fprintf(out,
               "deliveries: %lld; attempts %lld, failures %lld, commits %lld, suppressed %lld\n",
               static_cast<long long>(r.deliveries), static_cast<long long>(r.attempts),
               static_cast<long long>(r.failures), static_cast<long long>(r.commits),
               static_cast<long long>(r.suppressed));
  if (!r.delay_dead_letter.empty()) {
    std::fprintf(out, "delay queues: %s dead-lettering; %lld duplicate copies (acked, not run)\n",
                 r.delay_dead_letter.c_str(), static_cast<long long>(r.duplicate_copies));
  }
  if (r.fated > 0) {
    std::fprintf(out, "fated to fail: %lld messages, delivered %lld to %lld times each\n",
                 static_cast<long long>(r.fated), static_cast<long long>(r.fated_deliveries_min),
                 static_cast<long long>(r.fated_deliveries_max));
  }
  std::fprintf(
      out, "duplicates: %lld keys committed twice (%lld extra executions), found in the database\n",
      static_cast<long long>(r.duplicate_keys), static_cast<long long>(r.duplicate_executions));
}

void PrintOutcome(std::FILE* out, const LiveResult& r) {
  std::fprintf(out, "human needed: %lld", static_cast<long long>(r.dead_lettered + r.parked));
  for (const auto& [reason, n] : r.dlq_by_reason) {
    std::fprintf(out, "  dlq:%s=%lld", reason.c_str(), static_cast<long long>(n));
  }
  if (r.parked > 0) std::fprintf(out, "  parked=%lld", static_cast<long long>(r.parked));
  std::fprintf(out, "\n");
  if (r.time_to_empty_s) {
    std::fprintf(out,
                 "time to empty: %.3f s wall (last publish at %.3f s); %.0f messages/s settled\n",
                 *r.time_to_empty_s, r.last_publish_s, r.throughput_per_s);
  } else {
    std::fprintf(out, "time to empty: never (the main queue did not empty in time)\n");
  }
}

void PrintLostIds(std::FILE* out, const LiveResult& r) {
  if (r.lost_ids.empty()) return;
  std::fprintf(out, "LOST:");
  for (size_t i = 0; i < r.lost_ids.size() && i < 50; ++i) {
    std::fprintf(out, " %llu", static_cast<unsigned long long>(r.lost_ids[i]));
  }
  std::fprintf(out, r.lost_ids.size() > 50 ? " ...\n" : "\n");
}

void PrintSimulated(std::FILE* out, const model::Results& sim, const std::vector<Check>& checks) {
  std::fprintf(out,
               "simulated (same seed, one run): %lld published, %lld acked, %lld in the DLQ, %lld "
               "parked, human needed %lld\n",
               static_cast<long long>(sim.published), static_cast<long long>(sim.acked),
               static_cast<long long>(sim.dlq_end), static_cast<long long>(sim.parked),
               static_cast<long long>(sim.human_needed));
  for (const Check& c : checks) {
    std::fprintf(out, "  %s  %s: live %lld, simulated %lld\n", c.passed() ? "SAME" : "DIFF",
                 c.name.c_str(), static_cast<long long>(c.live),
                 static_cast<long long>(c.simulated));
  }
}

}  // namespace

void PrintSummary(std::FILE* out, const std::string& scenario_name, const LiveResult& r,
                  const Plan& plan, const ServiceFigures& services,
                  const std::vector<Check>& checks) {
  std::fprintf(out, "live %s  seed %llu  run %s\n", scenario_name.c_str(),
               static_cast<unsigned long long>(plan.seed), r.run_id.c_str());
  PrintServices(out, r, services);
  PrintCounts(out, r);
  PrintFaultSummary(out, r, plan);       // crashes and lost acks, when the scenario has them
  PrintDownstreamSummary(out, r, plan);  // the downstream API, when the scenario has one
  PrintInjectedSummary(out, r, plan);    // errors and bug faults
  PrintRestartSummary(out, r);           // broker restarts, when the scenario has them
  PrintOutcome(out, r);
  PrintDrain(out, r, plan);
  PrintLiveTraffic(out, r.live_traffic, plan.simulated);
  PrintLostIds(out, r);
  PrintSimulated(out, plan.simulated, checks);
}

namespace {

nlohmann::json OptionalJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

nlohmann::json ServicesJson(const ServiceFigures& services) {
  return {{"private_rabbitmq", services.private_rabbitmq},
          {"private_postgres", services.private_postgres},
          {"start_s", services.start_s},
          {"rabbitmq_ready_s", services.rabbitmq_ready_s},
          {"postgres_ready_s", services.postgres_ready_s},
          {"stop_s", services.stop_s}};
}

nlohmann::json BrokerJson(const LiveResult& r) {
  return {
      {"product", r.broker_product},
      {"version", r.broker_version},
      {"queue_type", r.quorum ? "quorum" : "classic"},
      {"delivery_limit", r.delivery_limit ? nlohmann::json(*r.delivery_limit) : nlohmann::json()}};
}

// The live run's counts, at the top level of live.json.
void AddCounts(const LiveResult& r, nlohmann::json* j) {
  for (const auto& [k, v] : std::initializer_list<std::pair<const char*, int64_t>>{
           {"planned", r.planned},
           {"published", r.published},
           {"acked", r.acked},
           {"dead_lettered", r.dead_lettered},
           {"parked", r.parked},
           {"unfinished", r.unfinished},
           {"lost", r.lost},
           {"human_needed", r.dead_lettered + r.parked},
           {"deliveries", r.deliveries},
           {"attempts", r.attempts},
           {"failures", r.failures},
           {"commits", r.commits},
           {"suppressed", r.suppressed},
           {"db_timeouts", r.db_timeouts},
           {"duplicate_keys", r.duplicate_keys},
           {"duplicate_executions", r.duplicate_executions},
           {"executions", r.executions}}) {
    (*j)[k] = v;
  }
  (*j)["duplicate_copies"] = r.duplicate_copies;
  (*j)["fated"] = {{"count", r.fated},
                   {"deliveries_min", r.fated_deliveries_min},
                   {"deliveries_max", r.fated_deliveries_max}};
}

nlohmann::json SimulatedJson(const model::Results& sim) {
  return {{"published", sim.published},
          {"acked", sim.acked},
          {"dlq_end", sim.dlq_end},
          {"parked", sim.parked},
          {"human_needed", sim.human_needed},
          {"lost", sim.lost},
          {"duplicate_executions", sim.duplicate_executions},
          {"replays", sim.replays},
          {"time_to_empty_s", OptionalJson(sim.time_to_empty_s)}};
}

nlohmann::json ChecksJson(const std::vector<Check>& checks) {
  nlohmann::json jc = nlohmann::json::array();
  for (const Check& c : checks) {
    jc.push_back(
        {{"name", c.name}, {"live", c.live}, {"simulated", c.simulated}, {"passed", c.passed()}});
  }
  return jc;
}

}  // namespace

std::string LiveJson(const std::string& scenario_name, const std::string& scenario_path,
                     const std::string& started_at_utc, const LiveResult& r, const Plan& plan,
                     const ServiceFigures& services, const std::vector<Check>& checks) {
  nlohmann::json j;  // an object: its keys are written sorted, whatever the order here
  j["live_version"] = 1;
  j["scenario"] = {{"name", scenario_name}, {"path", scenario_path}};
  j["seed"] = base::Uint64Json(plan.seed);
  j["run_id"] = r.run_id;
  j["started_at_utc"] = started_at_utc;
  j["services"] = ServicesJson(services);
  j["broker"] = BrokerJson(r);
  j["postgres_version"] = r.postgres_version;
  j["db_work"] = DbWorkJson(r.db_work);
  AddCounts(r, &j);
  j["delay_dead_letter"] =
      r.delay_dead_letter.empty() ? nlohmann::json() : nlohmann::json(r.delay_dead_letter);
  j["lost_ids"] = r.lost_ids;
  j["double_ids"] = r.double_ids;
  j["dlq_by_reason"] = r.dlq_by_reason;
  j["time_to_empty_s"] = OptionalJson(r.time_to_empty_s);
  j["last_publish_s"] = r.last_publish_s;
  j["throughput_per_s"] = r.throughput_per_s;
  j["interrupted"] = r.interrupted;
  j["error"] = r.error;
  j["simulated"] = SimulatedJson(plan.simulated);
  if (r.drain_planned) j["drain"] = DrainJson(r);
  if (r.live_traffic.present) j["live_traffic"] = LiveTrafficJson(r.live_traffic);
  j["checks"] = ChecksJson(checks);
  j["faults"] = FaultJson(r, plan);
  j["downstream"] = DownstreamJson(r, plan);
  j["injected"] = InjectedJson(r, plan);
  j["broker_restart"] = RestartJson(r, plan);
  return j.dump(2) + "\n";
}

}  // namespace drainsim::live
