#include "experiments/replications_report.h"

#include <algorithm>

#include "experiments/seeds.h"
#include "reports/csv_report.h"
#include "reports/metrics.h"
#include "reports/replications_html.h"
#include "reports/replications_junit.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

using reports::IntervalText;
using reports::Number;
using reports::Rendered;
using reports::StatisticsJson;
using reports::Table;

namespace {

using nlohmann::json;

std::string Percent(double level) { return reports::Decimal(level * 100, 4) + "%"; }

std::string SeedText(uint64_t seed) { return std::to_string(seed); }

std::string Header(const Experiment& e) {
  std::string text = "scenario " + e.scenario_name + "  " + std::to_string(e.replications) +
                     " replications  base seed " + std::to_string(e.base_seed) + "\n";
  text += "replication i runs with seed ReplicationSeed(" + std::to_string(e.base_seed) +
          ", i); replication 0: drainsim run " + e.scenario_path + " --seed " +
          SeedText(ReplicationSeed(e.base_seed, 0)) + "\n";
  if (e.stop) {
    text += e.stop->met ? "stopped when every metric's confidence interval was within +-" +
                              Number(e.stop->width * 100) + "% of its mean\n"
                        : "stopped at the maximum of " + std::to_string(e.stop->replications_max) +
                              " replications before every interval was within +-" +
                              Number(e.stop->width * 100) + "% of its mean\n";
  }
  return text;
}

Table StatisticsTable(const Experiment& e, const std::vector<Statistics>& stats) {
  Table t;
  t.header = {"metric", "runs", "undefined", "mean", "sd", Percent(e.confidence) + " CI",
              "p50",    "p95",  "min",       "max"};
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    const Statistics& s = stats[m];
    const bool any = s.count > 0;
    t.rows.push_back({e.metrics[m].name, std::to_string(s.runs), std::to_string(s.undefined),
                      any ? Number(s.mean) : "-", s.has_interval() ? Number(s.sd) : "-",
                      IntervalText(s), any ? Number(s.p50) : "-", any ? Number(s.p95) : "-",
                      any ? Number(s.min) : "-", any ? Number(s.max) : "-"});
  }
  return t;
}

struct ExpectationTally {
  int64_t passed = 0;
  std::optional<size_t> first_failure;
};

std::vector<ExpectationTally> Tally(const Experiment& e, const std::vector<RunRecord>& records) {
  std::vector<ExpectationTally> tally(e.expectations.size());
  for (size_t r = 0; r < records.size(); ++r) {
    for (size_t x = 0; x < tally.size(); ++x) {
      if (records[r].passed[x]) {
        ++tally[x].passed;
      } else if (!tally[x].first_failure) {
        tally[x].first_failure = r;
      }
    }
  }
  return tally;
}

std::string Csv(const Experiment& e, const std::vector<RunRecord>& records) {
  constexpr const char* kLineEnd = "\r\n";
  std::string out = "replication,seed,fingerprint";
  for (const MetricColumn& m : e.metrics) out += "," + reports::CsvField(m.name);
  out += kLineEnd;
  for (size_t r = 0; r < records.size(); ++r) {
    out += std::to_string(r) + "," + SeedText(records[r].seed) + "," +
           reports::Hex16(records[r].fingerprint);
    for (const std::optional<double>& v : records[r].values) {
      out += "," + (v ? reports::JsonNumber(*v) : std::string());
    }
    out += kLineEnd;
  }
  return out;
}

}  // namespace

Statistics MetricStatistics(std::span<const RunRecord> records, size_t m, double confidence) {
  std::vector<std::optional<double>> values;
  values.reserve(records.size());
  for (const RunRecord& r : records) {
    DRAINSIM_CHECK(m < r.values.size());
    values.push_back(r.values[m]);
  }
  return Describe(values, confidence);
}

base::Expected<ReplicationFormats> ParseReplicationFormats(std::string_view list) {
  ReplicationFormats formats;
  size_t start = 0;
  while (true) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string name(list.substr(start, comma - start));
    if (name == "junit") {
      formats.junit = true;
    } else if (name == "html") {
      formats.html = true;
    } else if (name != "json" && name != "csv" && name != "md") {
      return base::Failure{"unknown format '" + name + "' for replications; formats are: " +
                           "json, csv, md (always written), junit, html"};
    }
    if (comma == list.size()) return formats;
    start = comma + 1;
  }
}

ReplicationsResult ReplicationsResultOf(const Experiment& e,
                                        const std::vector<RunRecord>& records) {
  DRAINSIM_CHECK(e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  DRAINSIM_CHECK(e.expectation_columns.size() == e.expectations.size());
  ReplicationsResult r;
  r.scenario_name = e.scenario_name;
  r.scenario_path = e.scenario_path;
  r.scenario_hash = e.scenario_hash;
  r.drainsim_version = e.drainsim_version;
  r.base_seed = e.base_seed;
  r.replications = e.replications;
  r.confidence = e.confidence;
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    ReplicatedMetric metric;
    metric.name = e.metrics[m].name;
    // The unit is the metric's, without its :KIND and @WINDOW.
    metric.unit = reports::UnitOf(metric.name.substr(0, metric.name.find_first_of(":@")));
    metric.better = e.metrics[m].better;
    metric.stats = MetricStatistics(records, m, e.confidence);
    for (const RunRecord& record : records) {
      if (record.values[m]) metric.values.push_back(*record.values[m]);
    }
    r.metrics.push_back(std::move(metric));
  }
  const std::vector<ExpectationTally> tally = Tally(e, records);
  for (size_t x = 0; x < e.expectations.size(); ++x) {
    ReplicatedExpectation expectation;
    expectation.text = e.expectations[x];
    expectation.bound = e.expectation_columns[x].bound;
    expectation.unit = e.expectation_columns[x].unit;
    expectation.passed = tally[x].passed;
    expectation.runs = static_cast<int64_t>(records.size());
    if (tally[x].first_failure) {
      const size_t first = *tally[x].first_failure;
      expectation.first_failure = static_cast<int64_t>(first);
      expectation.first_failure_reproduce =
          "drainsim run " + e.scenario_path + " --seed " + SeedText(records[first].seed);
    }
    std::vector<std::optional<double>> measured;
    for (const RunRecord& record : records) {
      DRAINSIM_CHECK(x < record.measured.size());
      measured.push_back(record.measured[x]);
    }
    expectation.measured = Describe(measured, e.confidence);
    r.expectations.push_back(std::move(expectation));
  }
  return r;
}

Rendered RenderReplications(const Experiment& e, const std::vector<RunRecord>& records,
                            const ReplicationFormats& formats) {
  DRAINSIM_CHECK(e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  std::vector<Statistics> stats;
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    stats.push_back(MetricStatistics(records, m, e.confidence));
  }
  const std::vector<ExpectationTally> tally = Tally(e, records);
  const Table table = StatisticsTable(e, stats);

  Rendered out;
  out.text = Header(e) + "\n" + table.Text();
  std::string md = "# " + e.scenario_name + ": " + std::to_string(e.replications) +
                   " replications\n\nScenario `" + e.scenario_path + "` (hash `" + e.scenario_hash +
                   "`), base seed " + std::to_string(e.base_seed) + "; drainsim " +
                   e.drainsim_version + ". Intervals: " + Percent(e.confidence) +
                   ", Student t; p50 and p95 by nearest rank.\n\n" + table.Markdown();
  if (!tally.empty()) {
    out.text += "\nexpectations (replications that passed):\n";
    md += "\n## Expectations\n\n| passed | expectation | first failure |\n| ---: | --- | --- |\n";
    for (size_t x = 0; x < tally.size(); ++x) {
      const std::string ratio =
          std::to_string(tally[x].passed) + "/" + std::to_string(records.size());
      std::string failure;
      if (tally[x].first_failure) {
        out.exit_code = 1;
        failure = "replication " + std::to_string(*tally[x].first_failure) + ": drainsim run " +
                  e.scenario_path + " --seed " + SeedText(records[*tally[x].first_failure].seed);
      }
      char line[64];
      std::snprintf(line, sizeof(line), "  %9s  ", ratio.c_str());
      out.text += line + e.expectations[x] +
                  (failure.empty() ? "" : "  (first failed in " + failure + ")") + "\n";
      md += "| " + ratio + " | `" + e.expectations[x] + "` | " +
            (failure.empty() ? "" : "`" + failure + "`") + " |\n";
    }
  }

  json metrics = json::array();
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    json entry = StatisticsJson(stats[m]);
    entry["name"] = e.metrics[m].name;
    entry["better"] = std::string(BetterName(e.metrics[m].better));
    metrics.push_back(std::move(entry));
  }
  json expectations = json::array();
  for (size_t x = 0; x < tally.size(); ++x) {
    expectations.push_back({{"expectation", e.expectations[x]},
                            {"passed", tally[x].passed},
                            {"runs", records.size()},
                            {"first_failure", tally[x].first_failure ? json(*tally[x].first_failure)
                                                                     : json(nullptr)}});
  }
  json runs = json::array();
  for (size_t r = 0; r < records.size(); ++r) {
    json values = json::object();
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      const std::optional<double>& v = records[r].values[m];
      values[e.metrics[m].name] = v ? json(*v) : json(nullptr);
    }
    runs.push_back({{"replication", r},
                    {"seed", SeedText(records[r].seed)},
                    {"fingerprint", reports::Hex16(records[r].fingerprint)},
                    {"values", std::move(values)},
                    {"passed", records[r].passed}});
  }
  const json document = {{"experiments_version", 1},
                         {"experiment", ToJson(e)},
                         {"metrics", std::move(metrics)},
                         {"expectations", std::move(expectations)},
                         {"runs", std::move(runs)}};
  out.files.push_back({"replications.json", document.dump(2) + "\n"});
  out.files.push_back({"replications.csv", Csv(e, records)});
  out.files.push_back({"replications.md", md});
  if (formats.junit || formats.html) {
    const ReplicationsResult result = ReplicationsResultOf(e, records);
    if (formats.junit) out.files.push_back({"junit.xml", reports::ReplicationsJunit(result)});
    if (formats.html) out.files.push_back({"replications.html", reports::ReplicationsHtml(result)});
  }
  return out;
}

}  // namespace drainsim::experiments
