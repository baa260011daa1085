#include "reports/compare_report.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "reports/censored_report.h"
#include "reports/compare_comment.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

using experiments::BetterName;
using experiments::ComparedScenario;
using experiments::CompareVerdictName;
using experiments::Comparison;
using experiments::ComparisonResult;
using experiments::GateResult;
using experiments::GateRow;
using experiments::MetricColumn;
using experiments::MetricComparison;
using experiments::RunRecord;
using experiments::Statistics;
using experiments::VerdictBasis;
using experiments::VerdictBasisName;

namespace {

using nlohmann::json;

std::string Signed(double value) { return SignedNumber(value); }

json ScenarioJson(const ComparedScenario& s) {
  return json{{"name", s.name}, {"path", s.path}, {"hash", s.hash}};
}

// The explanation printed above the table of outcomes a run may never reach.
constexpr std::string_view kNeverText =
    "outcomes a run may never reach (\"never\" ranks after every instant): the runs that reached\n"
    "it, with the Wilson interval of the share; the pairs where only A or only B reached it, with\n"
    "McNemar's exact test; Wilcoxon's signed-rank test on B - A over every pair (never ranked\n"
    "last, zero differences dropped), which gives the verdict when some run never reached it";

// kNeverText as a Markdown sentence: one line, capitalised.
std::string OneLine(std::string_view text) {
  std::string line(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  if (!line.empty() && line[0] >= 'a' && line[0] <= 'z')
    line[0] = static_cast<char>(line[0] - 'a' + 'A');
  return line;
}

// compare.json's "gate": {"metrics": [...gated...], "failed": bool, "verdicts": {name: verdict}}.
json GateJson(const GateResult& gate) {
  json metrics = json::array();
  json verdicts = json::object();
  for (const GateRow& row : gate.rows) {
    if (!row.gated) continue;
    metrics.push_back(row.metric);
    verdicts[row.metric] = std::string(GateVerdictName(row.verdict));
  }
  return json{{"metrics", std::move(metrics)},
              {"verdicts", std::move(verdicts)},
              {"failed", gate.Failed()}};
}

Table MainTable(const Comparison& c, const std::vector<MetricComparison>& results) {
  Table table;
  table.header = {"metric",         "better",  "mean A",
                  "mean B",         "B - A",   LevelPercent(c.confidence) + " CI of B - A",
                  "unpaired CI +-", "verdict", "by"};
  table.right = {false, false, true, true, true, true, true, false, false};
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    const MetricComparison& r = results[m];
    const Statistics& d = r.difference;
    table.rows.push_back(
        {c.metrics[m].name, std::string(BetterName(c.metrics[m].better)), MeanText(r.a),
         MeanText(r.b), MeanText(d, " pairs", true),
         d.has_interval() ? "[" + Signed(d.ci_low) + ", " + Signed(d.ci_high) + "]" : "-",
         r.unpaired_half_width ? Number(*r.unpaired_half_width) : "-",
         std::string(CompareVerdictName(r.verdict)), std::string(VerdictBasisName(r.verdict_by))});
  }
  return table;
}

// The reached shares and paired tests of the metrics whose undefined means "never"; nullopt when
// there is none.
std::optional<Table> NeverTable(const Comparison& c, const std::vector<MetricComparison>& results) {
  Table table;
  table.header = {"metric"};
  for (const std::string& h : CensoredHeader(c.confidence)) table.header.push_back(h);
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    if (!results[m].censored) continue;
    std::vector<std::string> row = {c.metrics[m].name};
    for (std::string& cell : CensoredCells(*results[m].censored)) row.push_back(std::move(cell));
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty()) return std::nullopt;
  return table;
}

json MetricJson(const MetricColumn& column, const MetricComparison& r) {
  return json{{"name", column.name},
              {"better", std::string(BetterName(column.better))},
              {"undefined_means", r.censored ? "never" : "no value"},
              {"a", StatisticsJson(r.a)},
              {"b", StatisticsJson(r.b)},
              {"difference", StatisticsJson(r.difference)},
              {"unpaired_half_width",
               r.unpaired_half_width ? json(Fixed(*r.unpaired_half_width)) : json(nullptr)},
              {"never", r.censored ? CensoredJson(*r.censored) : json(nullptr)},
              {"verdict", std::string(CompareVerdictName(r.verdict))},
              {"verdict_by", r.verdict_by == VerdictBasis::kNone
                                 ? json(nullptr)
                                 : json(std::string(VerdictBasisName(r.verdict_by)))}};
}

json ComparisonJson(const Comparison& c, const std::vector<MetricComparison>& results,
                    const GateResult& gate, const std::vector<RunRecord>& a,
                    const std::vector<RunRecord>& b) {
  json metrics = json::array();
  for (size_t m = 0; m < c.metrics.size(); ++m)
    metrics.push_back(MetricJson(c.metrics[m], results[m]));
  json runs = json::array();
  for (int64_t i = 0; i < c.replications; ++i) {
    const size_t r = static_cast<size_t>(i);
    json values_a = json::object();
    json values_b = json::object();
    for (size_t m = 0; m < c.metrics.size(); ++m) {
      values_a[c.metrics[m].name] = a[r].values[m] ? json(*a[r].values[m]) : json(nullptr);
      values_b[c.metrics[m].name] = b[r].values[m] ? json(*b[r].values[m]) : json(nullptr);
    }
    runs.push_back({{"replication", i},
                    {"a",
                     {{"seed", std::to_string(a[r].seed)},
                      {"fingerprint", Hex16(a[r].fingerprint)},
                      {"values", std::move(values_a)}}},
                    {"b",
                     {{"seed", std::to_string(b[r].seed)},
                      {"fingerprint", Hex16(b[r].fingerprint)},
                      {"values", std::move(values_b)}}}});
  }
  return json{{"experiments_version", 1},
              {"command", "compare"},
              {"a", ScenarioJson(c.a)},
              {"b", ScenarioJson(c.b)},
              {"drainsim_version", c.drainsim_version},
              {"base_seed", c.base_seed},
              {"replications", c.replications},
              {"confidence", c.confidence},
              {"common_random_numbers", !c.independent},
              {"metrics", std::move(metrics)},
              {"gate", gate.AnyGated() ? GateJson(gate) : json(nullptr)},
              {"runs", std::move(runs)}};
}

// How the seeds were chosen, in the header of stdout and compare.md.
std::string SeedsText(const Comparison& c) {
  return c.independent ? "independent seeds: A runs replication i with ReplicationSeed(" +
                             std::to_string(c.base_seed) + ", i), B with IndependentSeed(" +
                             std::to_string(c.base_seed) + ", i) (no common random numbers)"
                       : "common random numbers: replication i of A and of B both run with seed "
                         "ReplicationSeed(" +
                             std::to_string(c.base_seed) + ", i)";
}

std::string CompareText(const Comparison& c, const Table& table, const std::optional<Table>& never,
                        const GateResult& gate) {
  std::string text =
      "compare A: " + c.a.name + " (" + c.a.path + ")\n        B: " + c.b.name + " (" + c.b.path +
      ")\n" + std::to_string(c.replications) + " replications; " + SeedsText(c) +
      "\ndifferences are B - A, paired per replication; " + LevelPercent(c.confidence) +
      " Student-t intervals; 'unpaired' is the half-width independent runs would give "
      "(Welch); means are over the runs with a value ('over k of n')\n\n" +
      table.Text();
  if (never) text += "\n" + std::string(kNeverText) + ":\n" + never->Text();
  if (gate.AnyGated()) text += "\n" + GateText(gate);
  return text;
}

std::string Markdown(const Comparison& c, const Table& table, const std::optional<Table>& never) {
  std::string md = "# Compare " + c.a.name + " (A) with " + c.b.name + " (B)\n\n" + "- A: `" +
                   c.a.path + "` (hash `" + c.a.hash + "`)\n- B: `" + c.b.path + "` (hash `" +
                   c.b.hash + "`)\n- " + std::to_string(c.replications) + " replications; " +
                   SeedsText(c) + "\n- drainsim " + c.drainsim_version +
                   "\n\nDifferences are B - A, paired per replication, with " +
                   LevelPercent(c.confidence) +
                   " Student-t intervals. *Unpaired CI ±* is the half-width that independent runs "
                   "of the same size would give (Welch), for scale. Means are over the runs with "
                   "a value (*over k of n*).\n\n" +
                   table.Markdown();
  if (never) md += "\n" + OneLine(kNeverText) + ".\n\n" + never->Markdown();
  if (!c.metrics.empty()) md += "\n";
  return md;
}

}  // namespace

Rendered RenderComparison(const Comparison& c, const ComparisonResult& result,
                          const std::vector<RunRecord>& a, const std::vector<RunRecord>& b) {
  DRAINSIM_CHECK(static_cast<int64_t>(a.size()) == c.replications);
  DRAINSIM_CHECK(static_cast<int64_t>(b.size()) == c.replications);
  DRAINSIM_CHECK(result.metrics.size() == c.metrics.size());
  const Table table = MainTable(c, result.metrics);
  const std::optional<Table> never = NeverTable(c, result.metrics);
  const std::string comment = CompareCommentMarkdown(result.gate);
  Rendered out;
  out.text = CompareText(c, table, never, result.gate);
  out.files.push_back(
      {"compare.json", ComparisonJson(c, result.metrics, result.gate, a, b).dump(2) + "\n"});
  out.files.push_back({"compare.md", Markdown(c, table, never)});
  out.files.push_back({"comment.md", comment});
  if (c.markdown) {
    out.text = comment;
    out.list_files_on_stderr = true;
  }
  out.exit_code = result.gate.Failed() ? 1 : 0;
  return out;
}

}  // namespace drainsim::reports
