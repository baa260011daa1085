#include "reports/replications_report.h"

#include <algorithm>
#include <cstdio>

#include "reports/csv_report.h"
#include "reports/metrics.h"
#include "reports/replications_html.h"
#include "reports/replications_junit.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

using experiments::Experiment;
using experiments::MetricColumn;
using experiments::ReplicatedExpectation;
using experiments::ReplicatedMetric;
using experiments::ReplicationsResult;
using experiments::RunRecord;
using experiments::Statistics;

namespace {

using nlohmann::json;

std::string SeedText(uint64_t seed) { return std::to_string(seed); }

std::string ReplicationsHeader(const Experiment& e, const ReplicationsResult& result) {
  std::string text = "scenario " + e.scenario_name + "  " + std::to_string(e.replications) +
                     " replications  base seed " + std::to_string(e.base_seed) + "\n";
  text += "replication i runs with seed ReplicationSeed(" + std::to_string(e.base_seed) +
          ", i); replication 0: drainsim run " + e.scenario_path + " --seed " +
          SeedText(result.replication_0_seed) + "\n";
  if (e.stop) {
    text += e.stop->met ? "stopped when every metric's confidence interval was within +-" +
                              Number(e.stop->width * 100) + "% of its mean\n"
                        : "stopped at the maximum of " + std::to_string(e.stop->replications_max) +
                              " replications before every interval was within +-" +
                              Number(e.stop->width * 100) + "% of its mean\n";
  }
  return text;
}

Table StatisticsTable(const Experiment& e, const ReplicationsResult& result) {
  Table t;
  t.header = {"metric", "runs", "undefined", "mean", "sd", LevelPercent(e.confidence) + " CI",
              "p50",    "p95",  "min",       "max"};
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    const Statistics& s = result.metrics[m].stats;
    const bool any = s.count > 0;
    t.rows.push_back({e.metrics[m].name, std::to_string(s.runs), std::to_string(s.undefined),
                      any ? Number(s.mean) : "-", s.has_interval() ? Number(s.sd) : "-",
                      IntervalText(s), any ? Number(s.p50) : "-", any ? Number(s.p95) : "-",
                      any ? Number(s.min) : "-", any ? Number(s.max) : "-"});
  }
  return t;
}

// "replication 3: drainsim run PATH --seed S", or "" when every replication passed.
std::string FirstFailure(const ReplicatedExpectation& x) {
  if (!x.first_failure) return "";
  return "replication " + std::to_string(*x.first_failure) + ": " + x.first_failure_reproduce;
}

// The expectations' lines under the table on stdout, and their section of replications.md.
void AddExpectations(const ReplicationsResult& result, std::string* text, std::string* md) {
  if (result.expectations.empty()) return;
  *text += "\nexpectations (replications that passed):\n";
  *md += "\n## Expectations\n\n| passed | expectation | first failure |\n| ---: | --- | --- |\n";
  for (const ReplicatedExpectation& x : result.expectations) {
    const std::string ratio = std::to_string(x.passed) + "/" + std::to_string(x.runs);
    const std::string failure = FirstFailure(x);
    char line[64];
    std::snprintf(line, sizeof(line), "  %9s  ", ratio.c_str());
    *text += line + x.text + (failure.empty() ? "" : "  (first failed in " + failure + ")") + "\n";
    *md += "| " + ratio + " | `" + x.text + "` | " + (failure.empty() ? "" : "`" + failure + "`") +
           " |\n";
  }
}

std::string MarkdownHead(const Experiment& e) {
  return "# " + e.scenario_name + ": " + std::to_string(e.replications) +
         " replications\n\nScenario `" + e.scenario_path + "` (hash `" + e.scenario_hash +
         "`), base seed " + std::to_string(e.base_seed) + "; drainsim " + e.drainsim_version +
         ". Intervals: " + LevelPercent(e.confidence) +
         ", Student t; p50 and p95 by nearest rank.\n\n";
}

json RunsJson(const Experiment& e, const std::vector<RunRecord>& records) {
  json runs = json::array();
  for (size_t r = 0; r < records.size(); ++r) {
    json values = json::object();
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      const std::optional<double>& v = records[r].values[m];
      values[e.metrics[m].name] = v ? json(*v) : json(nullptr);
    }
    runs.push_back({{"replication", r},
                    {"seed", SeedText(records[r].seed)},
                    {"fingerprint", Hex16(records[r].fingerprint)},
                    {"values", std::move(values)},
                    {"passed", records[r].passed}});
  }
  return runs;
}

std::string ReplicationsJson(const Experiment& e, const std::vector<RunRecord>& records,
                             const ReplicationsResult& result) {
  json metrics = json::array();
  for (const ReplicatedMetric& m : result.metrics) {
    json entry = StatisticsJson(m.stats);
    entry["name"] = m.name;
    entry["better"] = std::string(BetterName(m.better));
    metrics.push_back(std::move(entry));
  }
  json expectations = json::array();
  for (const ReplicatedExpectation& x : result.expectations) {
    expectations.push_back(
        {{"expectation", x.text},
         {"passed", x.passed},
         {"runs", records.size()},
         {"first_failure", x.first_failure ? json(*x.first_failure) : json(nullptr)}});
  }
  const json document = {{"experiments_version", 1},
                         {"experiment", ToJson(e)},
                         {"metrics", std::move(metrics)},
                         {"expectations", std::move(expectations)},
                         {"runs", RunsJson(e, records)}};
  return document.dump(2) + "\n";
}

std::string Csv(const Experiment& e, const std::vector<RunRecord>& records) {
  constexpr const char* kLineEnd = "\r\n";
  std::string out = "replication,seed,fingerprint";
  for (const MetricColumn& m : e.metrics) out += "," + CsvField(m.name);
  out += kLineEnd;
  for (size_t r = 0; r < records.size(); ++r) {
    out +=
        std::to_string(r) + "," + SeedText(records[r].seed) + "," + Hex16(records[r].fingerprint);
    for (const std::optional<double>& v : records[r].values) {
      out += "," + (v ? JsonNumber(*v) : std::string());
    }
    out += kLineEnd;
  }
  return out;
}

}  // namespace

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

Rendered RenderReplications(const Experiment& e, const std::vector<RunRecord>& records,
                            const ReplicationsResult& result, const ReplicationFormats& formats) {
  DRAINSIM_CHECK(e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  DRAINSIM_CHECK(result.metrics.size() == e.metrics.size());
  DRAINSIM_CHECK(result.expectations.size() == e.expectations.size());
  const Table table = StatisticsTable(e, result);
  Rendered out;
  out.text = ReplicationsHeader(e, result) + "\n" + table.Text();
  std::string md = MarkdownHead(e) + table.Markdown();
  AddExpectations(result, &out.text, &md);
  out.exit_code = result.FailedExpectations() > 0 ? 1 : 0;
  out.files.push_back({"replications.json", ReplicationsJson(e, records, result)});
  out.files.push_back({"replications.csv", Csv(e, records)});
  out.files.push_back({"replications.md", md});
  if (formats.junit) out.files.push_back({"junit.xml", ReplicationsJunit(result)});
  if (formats.html) out.files.push_back({"replications.html", ReplicationsHtml(result)});
  return out;
}

}  // namespace drainsim::reports
