#include "experiments/compare.h"

#include "experiments/replications_report.h"
#include "experiments/seeds.h"
#include "experiments/table.h"
#include "reports/metrics.h"
#include "sim/engine/check.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

std::vector<std::optional<double>> Column(const std::vector<RunRecord>& records, size_t m) {
  std::vector<std::optional<double>> values;
  values.reserve(records.size());
  for (const RunRecord& r : records) values.push_back(r.values[m]);
  return values;
}

std::string Percent(double level) { return reports::Decimal(level * 100, 4) + "%"; }

std::string Signed(double value) { return (value > 0 ? "+" : "") + Number(value); }

// "280.606", "280.606 (3 undef)", "- (30 undef)".
std::string MeanCell(const Statistics& s) {
  std::string text = s.count > 0 ? Number(s.mean) : "-";
  if (s.undefined > 0) text += " (" + std::to_string(s.undefined) + " undef)";
  return text;
}

json ScenarioJson(const ComparedScenario& s) {
  return json{{"name", s.name}, {"path", s.path}, {"hash", s.hash}};
}

}  // namespace

uint64_t ComparisonSeed(const Comparison& c, bool b_side, int64_t replication) {
  const uint64_t index = static_cast<uint64_t>(replication);
  return b_side && c.independent ? IndependentSeed(c.base_seed, index)
                                 : ReplicationSeed(c.base_seed, index);
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
                               size_t metric, Better better, double confidence) {
  DRAINSIM_CHECK(a.size() == b.size());
  const std::vector<std::optional<double>> va = Column(a, metric);
  const std::vector<std::optional<double>> vb = Column(b, metric);
  MetricComparison c;
  c.a = Describe(va, confidence);
  c.b = Describe(vb, confidence);
  c.difference = DescribeDifferences(va, vb, confidence);
  c.unpaired_half_width = UnpairedHalfWidth(c.a, c.b);
  const Statistics& d = c.difference;
  if (d.count == 0) {
    c.verdict = CompareVerdict::kUndefined;
  } else if (!d.has_interval()) {
    c.verdict = CompareVerdict::kTooFew;
  } else if (d.ci_low <= 0 && 0 <= d.ci_high) {
    c.verdict = CompareVerdict::kNoDifference;
  } else if (better == Better::kNone) {
    c.verdict = CompareVerdict::kDiffers;
  } else {
    const bool b_higher = d.mean > 0;
    c.verdict = (b_higher == (better == Better::kHigher)) ? CompareVerdict::kBBetter
                                                          : CompareVerdict::kABetter;
  }
  return c;
}

Rendered RenderComparison(const Comparison& c, const std::vector<RunRecord>& a,
                          const std::vector<RunRecord>& b) {
  DRAINSIM_CHECK(static_cast<int64_t>(a.size()) == c.replications);
  DRAINSIM_CHECK(static_cast<int64_t>(b.size()) == c.replications);
  std::vector<MetricComparison> results;
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    results.push_back(CompareMetric(a, b, m, c.metrics[m].better, c.confidence));
  }

  const std::string ci = Percent(c.confidence) + " CI of B - A";
  Table table;
  table.header = {"metric", "better", "mean A", "mean B", "B - A", ci, "unpaired CI +-", "verdict"};
  table.right = {false, false, true, true, true, true, true, false};
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    const MetricComparison& r = results[m];
    const Statistics& d = r.difference;
    table.rows.push_back(
        {c.metrics[m].name, std::string(BetterName(c.metrics[m].better)), MeanCell(r.a),
         MeanCell(r.b), d.count > 0 ? Signed(d.mean) : "-",
         d.has_interval() ? "[" + Signed(d.ci_low) + ", " + Signed(d.ci_high) + "]" : "-",
         r.unpaired_half_width ? Number(*r.unpaired_half_width) : "-",
         std::string(CompareVerdictName(r.verdict))});
  }

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
             "(Welch)\n\n" +
             table.Text();

  std::string md = "# Compare " + c.a.name + " (A) with " + c.b.name + " (B)\n\n" + "- A: `" +
                   c.a.path + "` (hash `" + c.a.hash + "`)\n- B: `" + c.b.path + "` (hash `" +
                   c.b.hash + "`)\n- " + std::to_string(c.replications) + " replications; " +
                   seeds + "\n- drainsim " + c.drainsim_version +
                   "\n\nDifferences are B - A, paired per replication, with " +
                   Percent(c.confidence) +
                   " Student-t intervals. *Unpaired CI ±* is the half-width that independent runs "
                   "of the same size would give (Welch), for scale.\n\n" +
                   table.Markdown();
  if (!c.metrics.empty()) md += "\n";

  json metrics = json::array();
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    const MetricComparison& r = results[m];
    metrics.push_back(
        {{"name", c.metrics[m].name},
         {"better", std::string(BetterName(c.metrics[m].better))},
         {"a", StatisticsJson(r.a)},
         {"b", StatisticsJson(r.b)},
         {"difference", StatisticsJson(r.difference)},
         {"unpaired_half_width",
          r.unpaired_half_width ? json(reports::Fixed(*r.unpaired_half_width)) : json(nullptr)},
         {"verdict", std::string(CompareVerdictName(r.verdict))}});
  }
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
  const json document = {{"experiments_version", 1},
                         {"command", "compare"},
                         {"a", ScenarioJson(c.a)},
                         {"b", ScenarioJson(c.b)},
                         {"drainsim_version", c.drainsim_version},
                         {"base_seed", c.base_seed},
                         {"replications", c.replications},
                         {"confidence", c.confidence},
                         {"common_random_numbers", !c.independent},
                         {"metrics", std::move(metrics)},
                         {"runs", std::move(runs)}};
  out.files.push_back({"compare.json", document.dump(2) + "\n"});
  out.files.push_back({"compare.md", md});
  return out;
}

}  // namespace drainsim::experiments
