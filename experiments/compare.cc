#include "experiments/compare.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "experiments/compare_gate.h"
#include "experiments/replications_report.h"
#include "experiments/seeds.h"
#include "reports/compare_comment.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

using reports::Number;
using reports::Rendered;
using reports::StatisticsJson;
using reports::Table;

namespace {

using nlohmann::json;

std::vector<std::optional<double>> Column(const std::vector<RunRecord>& records, size_t m) {
  std::vector<std::optional<double>> values;
  values.reserve(records.size());
  for (const RunRecord& r : records) values.push_back(r.values[m]);
  return values;
}

std::string Percent(double level) { return reports::Decimal(level * 100, 4) + "%"; }

using reports::MeanText;

std::string Signed(double value) { return reports::SignedNumber(value); }

CompareVerdict Directed(bool b_higher, Better better) {
  if (better == Better::kNone) return CompareVerdict::kDiffers;
  return b_higher == (better == Better::kHigher) ? CompareVerdict::kBBetter
                                                 : CompareVerdict::kABetter;
}

// Contract (2): the paired t interval.
void TVerdict(MetricComparison* c, Better better) {
  const Statistics& d = c->difference;
  c->verdict_by = d.count > 0 ? VerdictBasis::kPairedT : VerdictBasis::kNone;
  if (d.count == 0) {
    c->verdict = CompareVerdict::kUndefined;
  } else if (!d.has_interval()) {
    c->verdict = CompareVerdict::kTooFew;
  } else if (d.ci_low <= 0 && 0 <= d.ci_high) {
    c->verdict = CompareVerdict::kNoDifference;
  } else {
    c->verdict = Directed(d.mean > 0, better);
  }
}

// Contract (3): the signed-rank test, "never" ranked last.
void RankVerdict(MetricComparison* c, Better better, double confidence) {
  const SignedRank& r = c->censored->rank;
  c->verdict_by = VerdictBasis::kSignedRank;
  c->verdict =
      r.p < 1 - confidence ? Directed(r.w_plus > r.w_minus, better) : CompareVerdict::kNoDifference;
}

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

Table MainTable(const Comparison& c, const std::vector<MetricComparison>& results) {
  Table table;
  table.header = {"metric",         "better",  "mean A",
                  "mean B",         "B - A",   Percent(c.confidence) + " CI of B - A",
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
  return json{
      {"name", column.name},
      {"better", std::string(BetterName(column.better))},
      {"undefined_means", r.censored ? "never" : "no value"},
      {"a", StatisticsJson(r.a)},
      {"b", StatisticsJson(r.b)},
      {"difference", StatisticsJson(r.difference)},
      {"unpaired_half_width",
       r.unpaired_half_width ? json(reports::Fixed(*r.unpaired_half_width)) : json(nullptr)},
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
                      {"fingerprint", reports::Hex16(a[r].fingerprint)},
                      {"values", std::move(values_a)}}},
                    {"b",
                     {{"seed", std::to_string(b[r].seed)},
                      {"fingerprint", reports::Hex16(b[r].fingerprint)},
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

}  // namespace

uint64_t ComparisonSeed(const Comparison& c, bool b_side, int64_t replication) {
  const uint64_t index = static_cast<uint64_t>(replication);
  return b_side && c.independent ? IndependentSeed(c.base_seed, index)
                                 : ReplicationSeed(c.base_seed, index);
}

std::string_view VerdictBasisName(VerdictBasis basis) {
  switch (basis) {
    case VerdictBasis::kNone:
      return "-";
    case VerdictBasis::kPairedT:
      return "paired t";
    case VerdictBasis::kSignedRank:
      return "signed rank";
  }
  return "-";
}

std::string_view CompareVerdictName(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::kABetter:
      return "A better";
    case CompareVerdict::kBBetter:
      return "B better";
    case CompareVerdict::kDiffers:
      return "differs";
    case CompareVerdict::kNoDifference:
      return "no significant difference";
    case CompareVerdict::kTooFew:
      return "too few pairs";
    case CompareVerdict::kUndefined:
      return "undefined";
  }
  return "undefined";
}

MetricComparison CompareMetric(const std::vector<RunRecord>& a, const std::vector<RunRecord>& b,
                               size_t metric, Better better, double confidence,
                               bool undefined_means_never) {
  DRAINSIM_CHECK(a.size() == b.size());
  DRAINSIM_CHECK(!a.empty());
  const std::vector<std::optional<double>> va = Column(a, metric);
  const std::vector<std::optional<double>> vb = Column(b, metric);
  MetricComparison c;
  c.a = Describe(va, confidence);
  c.b = Describe(vb, confidence);
  c.difference = DescribeDifferences(va, vb, confidence);
  c.unpaired_half_width = UnpairedHalfWidth(c.a, c.b);
  if (undefined_means_never) c.censored = CompareCensored(va, vb, confidence);
  if (c.censored && c.censored->AnyNever()) {
    RankVerdict(&c, better, confidence);
  } else {
    TVerdict(&c, better);
  }
  return c;
}

Rendered RenderComparison(const Comparison& c, const std::vector<RunRecord>& a,
                          const std::vector<RunRecord>& b) {
  DRAINSIM_CHECK(static_cast<int64_t>(a.size()) == c.replications);
  DRAINSIM_CHECK(static_cast<int64_t>(b.size()) == c.replications);
  std::vector<MetricComparison> results;
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    results.push_back(CompareMetric(a, b, m, c.metrics[m].better, c.confidence,
                                    UndefinedMeansNever(c.metrics[m].name)));
  }
  const Table table = MainTable(c, results);
  const std::optional<Table> never = NeverTable(c, results);
  const GateResult gate = JudgeComparison(c, results);

  const std::string seeds =
      c.independent ? "independent seeds: A runs replication i with ReplicationSeed(" +
                          std::to_string(c.base_seed) + ", i), B with IndependentSeed(" +
                          std::to_string(c.base_seed) + ", i) (no common random numbers)"
                    : "common random numbers: replication i of A and of B both run with seed "
                      "ReplicationSeed(" +
                          std::to_string(c.base_seed) + ", i)";
  Rendered out;
  out.text = "compare A: " + c.a.name + " (" + c.a.path + ")\n        B: " + c.b.name + " (" +
             c.b.path + ")\n" + std::to_string(c.replications) + " replications; " + seeds +
             "\ndifferences are B - A, paired per replication; " + Percent(c.confidence) +
             " Student-t intervals; 'unpaired' is the half-width independent runs would give "
             "(Welch); means are over the runs with a value ('over k of n')\n\n" +
             table.Text();
  if (never) out.text += "\n" + std::string(kNeverText) + ":\n" + never->Text();
  if (gate.AnyGated()) out.text += "\n" + reports::GateText(gate);

  std::string md = "# Compare " + c.a.name + " (A) with " + c.b.name + " (B)\n\n" + "- A: `" +
                   c.a.path + "` (hash `" + c.a.hash + "`)\n- B: `" + c.b.path + "` (hash `" +
                   c.b.hash + "`)\n- " + std::to_string(c.replications) + " replications; " +
                   seeds + "\n- drainsim " + c.drainsim_version +
                   "\n\nDifferences are B - A, paired per replication, with " +
                   Percent(c.confidence) +
                   " Student-t intervals. *Unpaired CI ±* is the half-width that independent runs "
                   "of the same size would give (Welch), for scale. Means are over the runs with "
                   "a value (*over k of n*).\n\n" +
                   table.Markdown();
  if (never) md += "\n" + OneLine(kNeverText) + ".\n\n" + never->Markdown();
  if (!c.metrics.empty()) md += "\n";

  const std::string comment = reports::CompareCommentMarkdown(gate);
  out.files.push_back({"compare.json", ComparisonJson(c, results, gate, a, b).dump(2) + "\n"});
  out.files.push_back({"compare.md", md});
  out.files.push_back({"comment.md", comment});
  if (c.markdown) {
    out.text = comment;
    out.list_files_on_stderr = true;
  }
  out.exit_code = gate.Failed() ? 1 : 0;
  return out;
}

}  // namespace drainsim::experiments
