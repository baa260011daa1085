#include "experiments/compare.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "experiments/compare_gate.h"
#include "experiments/metric_spec.h"
#include "experiments/seeds.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

std::vector<std::optional<double>> Column(const std::vector<RunRecord>& records, size_t m) {
  std::vector<std::optional<double>> values;
  values.reserve(records.size());
  for (const RunRecord& r : records) values.push_back(r.values[m]);
  return values;
}

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

}  // namespace

uint64_t ComparisonSeed(const Comparison& c, bool b_side, int64_t replication) {
  const uint64_t index = static_cast<uint64_t>(replication);
  return b_side && c.independent ? IndependentSeed(c.base_seed, index)
                                 : ReplicationSeed(c.base_seed, index);
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

ComparisonResult ComparisonResultOf(const Comparison& c, const std::vector<RunRecord>& a,
                                    const std::vector<RunRecord>& b) {
  DRAINSIM_CHECK(static_cast<int64_t>(a.size()) == c.replications);
  DRAINSIM_CHECK(static_cast<int64_t>(b.size()) == c.replications);
  ComparisonResult result;
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    result.metrics.push_back(CompareMetric(a, b, m, c.metrics[m].better, c.confidence,
                                           UndefinedMeansNever(c.metrics[m].name)));
  }
  result.gate = JudgeComparison(c, result.metrics);
  return result;
}

}  // namespace drainsim::experiments
