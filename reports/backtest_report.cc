#include "reports/backtest_report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/metrics.h"

namespace drainsim::reports {

namespace {

using Json = nlohmann::json;
using experiments::BacktestResult;
using experiments::ScalarComparison;
using experiments::SeriesComparison;

Json FixedOrNull(double value) { return std::isinf(value) ? Json(nullptr) : Json(Fixed(value)); }

std::string Text(double value) { return std::isinf(value) ? "never" : Decimal(value, 3); }

std::string Percent(double share) { return Decimal(100 * share, 1) + "%"; }

const char* PassOrMiss(bool passed) { return passed ? "pass" : "MISS"; }

Json SeriesJson(const SeriesComparison& s) {
  Json points = Json::array();
  for (const experiments::BandPoint& p : s.points) {
    points.push_back({{"t_s", FixedOrNull(p.t_s)},
                      {"observed", FixedOrNull(p.observed)},
                      {"low", FixedOrNull(p.low)},
                      {"median", FixedOrNull(p.median)},
                      {"high", FixedOrNull(p.high)},
                      {"inside", p.inside}});
  }
  return {{"name", s.name},
          {"points", points},
          {"points_compared", static_cast<int64_t>(s.points.size())},
          {"points_beyond_run", s.points_beyond_run},
          {"share_in_band", FixedOrNull(s.share_in_band)},
          {"share_floor", FixedOrNull(s.share_floor)},
          {"mean_abs_error", FixedOrNull(s.mean_abs_error)},
          {"max_abs_error", FixedOrNull(s.max_abs_error)},
          {"passed", s.passed}};
}

Json ScalarJson(const ScalarComparison& s) {
  Json error = nullptr;
  if (std::isfinite(s.observed) && std::isfinite(s.median))
    error = FixedOrNull(s.observed - s.median);
  return {{"name", s.name},
          {"rule", s.rule},
          {"observed", FixedOrNull(s.observed)},
          {"low", FixedOrNull(s.low)},
          {"median", FixedOrNull(s.median)},
          {"high", FixedOrNull(s.high)},
          {"error", error},
          {"never_share", FixedOrNull(s.never_share)},
          {"inside", s.inside},
          {"passed", s.passed}};
}

}  // namespace

std::string BacktestJson(const BacktestResult& r) {
  Json series = Json::array();
  for (const SeriesComparison& s : r.series) series.push_back(SeriesJson(s));
  Json scalars = Json::array();
  for (const ScalarComparison& s : r.scalars) scalars.push_back(ScalarJson(s));
  const Json document = {
      {"scenario",
       {{"name", r.scenario_name}, {"path", r.scenario_path}, {"hash", r.scenario_hash}}},
      {"drainsim_version", r.version},
      {"observed", r.observed_file},
      {"base_seed", r.base_seed},
      {"replications", r.replications},
      {"band", {{"low_quantile", 0.025}, {"high_quantile", 0.975}}},
      {"tolerances",
       {{"share_in_band_min", FixedOrNull(r.tolerances.share_in_band_min)},
        {"relative", FixedOrNull(r.tolerances.relative)}}},
      {"series", series},
      {"figures", scalars},
      {"notes", r.notes},
      {"passed", r.passed}};
  return document.dump(2) + "\n";
}

std::string BacktestMarkdown(const BacktestResult& r) {
  std::string md = "# Backtest: " + r.scenario_name + " against " + r.observed_file + "\n\n";
  md += std::string("**") +
        (r.passed ? "The model reproduces the observation" : "The model misses") +
        "** within the tolerances (series: at least " + Percent(r.tolerances.share_in_band_min) +
        " of the observed points inside the simulated 95% band; figures: inside the band widened "
        "by " +
        Percent(r.tolerances.relative) + ").\n\n";
  md += "Scenario `" + r.scenario_path + "` (hash " + r.scenario_hash + "), " +
        std::to_string(r.replications) + " replications from seed " + std::to_string(r.base_seed) +
        "; drainsim " + r.version + ".\n\n";
  md +=
      "## Series\n\n| figure | points | inside the 95% band | required | mean abs error | "
      "max abs error | beyond the run | verdict |\n|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const SeriesComparison& s : r.series) {
    md += "| " + s.name + " | " + std::to_string(s.points.size()) + " | " +
          Percent(s.share_in_band) + " | " + Percent(s.share_floor) + " | " +
          Text(s.mean_abs_error) + " | " + Text(s.max_abs_error) + " | " +
          std::to_string(s.points_beyond_run) + " | " + PassOrMiss(s.passed) + " |\n";
  }
  md +=
      "\n## Figures\n\n| figure | observed | simulated 2.5% | median | 97.5% | error | verdict |"
      "\n|---|---:|---:|---:|---:|---:|---|\n";
  for (const ScalarComparison& s : r.scalars) {
    const bool finite = std::isfinite(s.observed) && std::isfinite(s.median);
    md += "| " + s.name + " | " + Text(s.observed) + " | " + Text(s.low) + " | " + Text(s.median) +
          " | " + Text(s.high) + " | " + (finite ? Decimal(s.observed - s.median, 3) : "-") +
          " | " + PassOrMiss(s.passed) + " |\n";
  }
  md += "\n";
  for (const ScalarComparison& s : r.scalars) md += "- " + s.name + ": " + s.rule + ".\n";
  for (const std::string& note : r.notes) md += "- " + note + ".\n";
  return md;
}

std::string BacktestSummary(const BacktestResult& r) {
  std::string text = "backtest " + r.scenario_name + " against " + r.observed_file + ": " +
                     std::to_string(r.replications) + " replications\n";
  for (const SeriesComparison& s : r.series) {
    text += "  " + s.name + ": " + Percent(s.share_in_band) + " of " +
            std::to_string(s.points.size()) + " points inside the 95% band (required " +
            Percent(s.share_floor) + "), mean abs error " + Text(s.mean_abs_error) + "  " +
            PassOrMiss(s.passed) + "\n";
  }
  for (const ScalarComparison& s : r.scalars) {
    text += "  " + s.name + ": observed " + Text(s.observed) + ", simulated " + Text(s.low) +
            " .. " + Text(s.high) + " (median " + Text(s.median) + ")  " + PassOrMiss(s.passed) +
            "\n";
  }
  text += r.passed ? "backtest: pass\n" : "backtest: the model misses beyond the tolerances\n";
  return text;
}

}  // namespace drainsim::reports
