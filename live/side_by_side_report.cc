#include "live/side_by_side_report.h"

#include <nlohmann/json.hpp>

#include "experiments/results/statistics.h"
#include "experiments/seeds.h"
#include "live/drainer_busy.h"
#include "live/live_traffic_report.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "sim/base/check.h"
#include "sim/base/json_integers.h"

namespace drainsim::live {

namespace {

using nlohmann::json;
using reports::Number;
using reports::NumberOr;

constexpr const char* kFormula = "mean +- t(0.975, n - 1) * sd * sqrt(1 + 1/n)";

json RealOrNull(const std::optional<double>& value) {
  return value ? json(reports::Fixed(*value)) : json(nullptr);
}

std::string IntervalCell(const Comparison& c) {
  if (!c.interval) return "-";
  if (c.exact) return "exactly " + Number(c.interval->low);
  // append(), not "[" + ...: GCC 12 warns falsely (-Wrestrict) on a one-character literal + string.
  std::string text = "[";
  return text.append(Number(c.interval->low)).append(", ").append(Number(c.interval->high)) + "]";
}

std::string ToleranceCell(const Comparison& c) {
  return c.tolerance > 0 ? "+-" + Number(c.tolerance) : "";
}

std::string VerdictCell(const Comparison& c) {
  std::string text = VerdictName(c.verdict);
  if (!c.note.empty()) text += " (" + c.note + ")";
  return text;
}

reports::Table MakeTable(const SideBySideRun& run) {
  reports::Table t;
  t.header = {"figure",    "unit",   "live", "simulated mean", "95% prediction interval",
              "tolerance", "verdict"};
  t.right = {false, false, true, true, true, true, false};
  for (const Comparison& c : run.rows) {
    const bool compared = c.verdict != Verdict::kNotCompared || c.simulated.runs > 0;
    t.rows.push_back({c.name, c.unit, compared ? NumberOr(c.live, "never") : "-",
                      c.simulated.count > 0 ? Number(c.simulated.mean) : "-", IntervalCell(c),
                      ToleranceCell(c), VerdictCell(c)});
  }
  return t;
}

std::string Header(const SideBySideRun& run) {
  return "side by side: the live run against " + std::to_string(run.simulated->replications) +
         " simulated replications (seeds ReplicationSeed(" + std::to_string(run.seed) +
         ", i); replication 0: drainsim run " + run.scenario_path + " --seed " +
         std::to_string(experiments::ReplicationSeed(run.seed, 0)) + ")\n";
}

std::string Closing(const SideBySideRun& run) {
  std::string text;
  for (const Comparison& c : run.rows) {
    if (c.verdict != Verdict::kOutside) continue;
    text += "- " + c.name + ": live " + NumberOr(c.live, "never") + ", simulated " +
            (c.simulated.count > 0 ? "mean " + Number(c.simulated.mean) + " " : "") +
            IntervalCell(c);
    if (const std::optional<double> gap = Gap(c)) {
      text += "; the live value is " + Number(*gap > 0 ? *gap : -*gap) + " " + c.unit + " " +
              (*gap > 0 ? "above" : "below") + " the interval" +
              (c.tolerance > 0 ? " and its tolerance" : "");
    } else if (!c.note.empty()) {
      text += " (" + c.note + ")";
    }
    text += "\n";
    if (c.name == "main_queue_settled_s" && run.where.ok) {
      text += "  where the live time went: " + WhereTimeWentText(run.where) + "\n";
    }
    if (c.name == "time_to_empty_s" && run.live->drain_planned &&
        !run.live->drain.busy_ms.empty()) {
      const DrainFigures& d = run.live->drain;
      const DrainerBusy busy = SummariseDrainerBusy(d.busy_ms, d.slack_ms);
      text += "  where the drain's time went: the drainer's " + DrainerBusyText(busy) +
              "; the simulated drainer takes no time unless the drain's replay_ms says so: " +
              busy.replay_ms.dump() + "\n";
    }
    if ((c.name == "live_p50_ms" || c.name == "live_p99_ms") && run.live->live_traffic.present) {
      text +=
          "  where the live latency went: " + WhereLatencyWentText(run.live->live_traffic) + "\n";
    }
  }
  return text;
}

}  // namespace

std::optional<double> Gap(const Comparison& c) {
  if (c.verdict != Verdict::kOutside || !c.live || !c.interval) return std::nullopt;
  if (*c.live > c.interval->high + c.tolerance) return *c.live - (c.interval->high + c.tolerance);
  return *c.live - (c.interval->low - c.tolerance);
}

std::string SideBySideText(const SideBySideRun& run) {
  std::string text = Header(run) + MakeTable(run).Text("  ");
  const std::string closing = Closing(run);
  text += run.exit_code == 0 ? "model and reality agree on every compared figure\n"
                             : "model and reality DISAGREE:\n" + closing;
  return text;
}

std::string SideBySideMarkdown(const SideBySideRun& run) {
  std::string md = "# drainsim live: " + run.scenario_name + ", side by side\n\n";
  md += "The live run (seed " + std::to_string(run.seed) + ", " + run.live->run_id + ", " +
        run.live->broker_product + " " + run.live->broker_version + ") against " +
        std::to_string(run.simulated->replications) +
        " simulated replications of the same scenario. Interval: the 95% prediction interval for "
        "one new observation, " +
        std::string(kFormula) +
        "; a figure constant over the replications is compared exactly; wall times have a "
        "tolerance of +-" +
        Number(run.options.time_tolerance_s) + " s.\n\n";
  md += MakeTable(run).Markdown() + "\n";
  const std::string closing = Closing(run);
  md += run.exit_code == 0 ? "**Model and reality agree** on every compared figure.\n"
                           : "**Model and reality disagree.** The measured gaps:\n\n" + closing;
  return md;
}

namespace {

json MethodJson(const SideBySideRun& run) {
  return {{"interval", "prediction"},
          {"level", run.options.level},
          {"formula", kFormula},
          {"exact", "a figure with the same value in every replication"},
          {"time_tolerance_s", reports::Fixed(run.options.time_tolerance_s)},
          {"latency_tolerance_ms", reports::Fixed(run.options.latency_tolerance_ms)}};
}

json WhereTimeWentJson(const WhereTimeWent& w) {
  if (!w.ok) return nullptr;
  json where = {{"last_publish_lag_s", reports::Fixed(w.last_publish_lag_s)},
                {"publish_lag_max_s", reports::Fixed(w.publish_lag_max_s)},
                {"first_delivery_p50_ms", reports::Fixed(w.first_delivery_p50_ms)},
                {"first_delivery_p99_ms", reports::Fixed(w.first_delivery_p99_ms)},
                {"first_delivery_max_ms", reports::Fixed(w.first_delivery_max_ms)},
                {"delivered", w.delivered}};
  if (w.simulated && w.simulated->replications > 0) {
    where["simulated_queue_wait_p50_ms"] = reports::Fixed(w.simulated->p50_ms);
    where["simulated_queue_wait_p99_ms"] = reports::Fixed(w.simulated->p99_ms);
  }
  return where;
}

json ComparisonJson(const Comparison& c) {
  const bool any = c.simulated.count > 0;
  return {{"metric", c.name},
          {"unit", c.unit},
          {"live", RealOrNull(c.live)},
          {"simulated_mean", any ? RealOrNull(c.simulated.mean) : json(nullptr)},
          {"simulated_sd", c.simulated.has_interval() ? RealOrNull(c.simulated.sd) : json(nullptr)},
          {"simulated_min", any ? RealOrNull(c.simulated.min) : json(nullptr)},
          {"simulated_max", any ? RealOrNull(c.simulated.max) : json(nullptr)},
          {"interval_low", c.interval ? RealOrNull(c.interval->low) : json(nullptr)},
          {"interval_high", c.interval ? RealOrNull(c.interval->high) : json(nullptr)},
          {"tolerance", reports::Fixed(c.tolerance)},
          {"exact", c.exact},
          {"verdict", VerdictName(c.verdict)},
          {"gap", RealOrNull(Gap(c))},
          {"note", c.note}};
}

// Every replication's value of each figure, with their statistics.
json SimulatedFiguresJson(const SimulatedSide& sim) {
  json figures;
  for (size_t f = 0; f < sim.names.size(); ++f) {
    json entry = reports::StatisticsJson(experiments::Describe(sim.values[f], 0.95));
    json values = json::array();
    for (const std::optional<double>& v : sim.values[f]) values.push_back(RealOrNull(v));
    entry["values"] = std::move(values);
    figures[sim.names[f]] = std::move(entry);
  }
  return figures;
}

}  // namespace

std::string SideBySideJson(const SideBySideRun& run) {
  DRAINSIM_CHECK(run.live && run.simulated);
  const SimulatedSide& sim = *run.simulated;
  json j;
  j["report_version"] = 1;
  j["kind"] = "live side-by-side";
  j["scenario"] = {{"name", run.scenario_name}, {"path", run.scenario_path}};
  j["seed"] = base::Uint64Json(run.seed);
  j["run_id"] = run.live->run_id;
  j["method"] = MethodJson(run);
  json live = {{"broker_version", run.live->broker_version},
               {"postgres_version", run.live->postgres_version},
               {"started_at_utc", run.started_at_utc},
               {"where_time_went", WhereTimeWentJson(run.where)}};
  if (run.live->live_traffic.present)
    live["live_traffic"] = LiveTrafficJson(run.live->live_traffic);
  json comparison = json::array();
  for (const Comparison& c : run.rows) {
    live[c.name] = RealOrNull(c.live);
    comparison.push_back(ComparisonJson(c));
  }
  j["live"] = std::move(live);
  j["simulated"] = {{"replications", sim.replications},
                    {"base_seed", base::Uint64Json(sim.base_seed)},
                    {"seeds", "replication i: ReplicationSeed(base_seed, i)"},
                    {"figures", SimulatedFiguresJson(sim)}};
  j["comparison"] = std::move(comparison);
  j["verdict"] = run.exit_code == 0 ? "agree" : "disagree";
  j["exit_code"] = run.exit_code;
  return j.dump(2) + "\n";
}

}  // namespace drainsim::live
