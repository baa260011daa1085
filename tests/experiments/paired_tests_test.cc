// The statistics of outcomes a run may never reach (experiments/paired_tests.h) and compare's
// verdicts on them (compare_censored.h, compare.h), against published values and values
// computed by hand. Where a figure needed more digits than a table gives, it was computed
// offline with python3's standard library (scipy is not installed):
//   Wilson:   z = statistics.NormalDist().inv_cdf((1 + level) / 2), then the formula of
//             paired_tests.h (1);
//   McNemar:  2 * Fraction(sum(math.comb(n, i) for i in range(min(b, c) + 1)), 2**n);
//   signed rank: every one of the 2^n sign assignments enumerated (itertools.product) with
//             exact midranks (fractions.Fraction), counting those with W+ <= w and >= w;
//   normal approximation: the tie-corrected variance, p = math.erfc(|z| / math.sqrt(2)).
#include "experiments/paired_tests.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "experiments/compare.h"
#include "experiments/compare_censored.h"
#include "experiments/metric_spec.h"
#include "reports/censored_report.h"

namespace drainsim::experiments {
namespace paired_tests_test {
namespace {

using reports::PValueJson;
using reports::PValueText;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST_CASE("WilsonInterval: published values", "[experiments][statistics][wilson]") {
  struct Case {
    int64_t k, n;
    double low, high;
  };
  // Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score, no continuity
  // correction), to 4 decimals; and the two examples of the brief.
  const std::vector<Case> published = {{81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605},
                                       {0, 20, 0.0, 0.1611},      {1, 29, 0.0061, 0.1718},
                                       {0, 10, 0.0, 0.2775},      {5, 10, 0.2366, 0.7634}};
  for (const Case& c : published) {
    INFO(c.k << " of " << c.n);
    const Proportion p = WilsonInterval(c.k, c.n, 0.95);
    CHECK(p.k == c.k);
    CHECK(p.n == c.n);
    CHECK(p.share == Approx(static_cast<double>(c.k) / static_cast<double>(c.n)));
    CHECK(p.low == Approx(c.low).margin(0.00005));
    CHECK(p.high == Approx(c.high).margin(0.00005));
  }
  // More digits (python3, statistics.NormalDist().inv_cdf): 0 of 10, 5 of 10, 3 of 12 at 90%.
  CHECK(WilsonInterval(0, 10, 0.95).low == 0);  // exactly, not rounding noise
  CHECK(WilsonInterval(0, 10, 0.95).high == Approx(0.2775327999).epsilon(1e-9));
  CHECK(WilsonInterval(5, 10, 0.95).low == Approx(0.2365930905).epsilon(1e-9));
  CHECK(WilsonInterval(3, 12, 0.90).low == Approx(0.1046525656).epsilon(1e-9));
  CHECK(WilsonInterval(3, 12, 0.90).high == Approx(0.4873380318).epsilon(1e-9));
  const Proportion all = WilsonInterval(7, 7, 0.95);
  CHECK(all.high == 1);
  CHECK(all.low == Approx(0.6456695649).epsilon(1e-9));
}

TEST_CASE("McNemarExactP: exact binomial tails", "[experiments][statistics][mcnemar]") {
  // By hand: 2 * P(X <= min) with X ~ Binomial(discordant, 1/2).
  CHECK(McNemarExactP(0, 9) == Approx(2.0 / 512).epsilon(1e-12));     // 2 * 1/512
  CHECK(McNemarExactP(9, 0) == Approx(2.0 / 512).epsilon(1e-12));     // symmetric
  CHECK(McNemarExactP(1, 9) == Approx(22.0 / 1024).epsilon(1e-12));   // 2 * (1 + 10)/1024
  CHECK(McNemarExactP(2, 8) == Approx(112.0 / 1024).epsilon(1e-12));  // 2 * (1 + 10 + 45)/1024
  CHECK(McNemarExactP(0, 6) == Approx(1.0 / 32).epsilon(1e-12));
  CHECK(McNemarExactP(3, 4) == 1);  // 2 * 64/128 = 1
  CHECK(McNemarExactP(0, 0) == 1);  // no discordant pair: nothing to tell the sides apart
  // python3, Fraction(sum(comb(100, i) for i in range(41)), 2**100) * 2.
  CHECK(McNemarExactP(40, 60) == Approx(0.056887933641).epsilon(1e-9));
}

TEST_CASE("WilcoxonSignedRank: exact, by hand and by enumeration",
          "[experiments][statistics][signed-rank]") {
  // By hand: ranks 1..5, W+ = 1 + 2 + 3 + 5 = 11; P(W+ >= 11) = 7/32 (the subsets of {1..5}
  // whose complement sums to at most 4: {}, {1}, {2}, {3}, {4}, {1,2}, {1,3}); p = 2 * 7/32.
  const std::vector<double> simple = {1, 2, 3, -4, 5};
  const SignedRank s = WilcoxonSignedRank(simple);
  CHECK(s.nonzero == 5);
  CHECK(s.zeros == 0);
  CHECK(s.w_plus == 11);
  CHECK(s.w_minus == 4);
  CHECK(s.exact);
  CHECK(s.p == Approx(0.4375).epsilon(1e-12));

  // Ties, zeros and infinite differences ("never" on one side): midranks, zeros dropped, the
  // three infinities tie above every finite magnitude. Enumerated in python3 over 2^8 signs:
  // W+ = 28.5, p = 21/128.
  const std::vector<double> mixed = {0, 1.5, -1.5, 2, kInf, kInf, -3, kInf, 0.5, 0};
  const SignedRank m = WilcoxonSignedRank(mixed);
  CHECK(m.nonzero == 8);
  CHECK(m.zeros == 2);
  CHECK(m.w_plus == 28.5);
  CHECK(m.w_minus == 36 - 28.5);
  CHECK(m.p == Approx(21.0 / 128).epsilon(1e-12));

  // Ties among finite values: enumerated over 2^12 signs, W+ = 27, p = 759/2048.
  const std::vector<double> ties = {-2, -2, -2, 1, 1, 3, -5, -5, 4, -6, 7, -8};
  const SignedRank t = WilcoxonSignedRank(ties);
  CHECK(t.w_plus == 27);
  CHECK(t.p == Approx(759.0 / 2048).epsilon(1e-12));

  // Six pairs where only A reached it (B - A = +infinity) and one where neither did: a sign
  // test, 2 * (1/2)^6.
  const std::vector<double> never = {kInf, kInf, kInf, kInf, kInf, kInf, 0};
  const SignedRank n = WilcoxonSignedRank(never);
  CHECK(n.w_plus == 21);
  CHECK(n.w_minus == 0);
  CHECK(n.p == Approx(1.0 / 32).epsilon(1e-12));

  // Nothing but zeros: no evidence either way.
  const std::vector<double> zeros = {0, 0, 0};
  const SignedRank z = WilcoxonSignedRank(zeros);
  CHECK(z.nonzero == 0);
  CHECK(z.p == 1);
}

TEST_CASE("WilcoxonSignedRank: the normal approximation above the exact limit",
          "[experiments][statistics][signed-rank]") {
  // 300 differences, 3 of them 0, many ties. python3: W+ = 26227.5, variance with the tie
  // correction, p = erfc(|z| / sqrt(2)) = 0.005628679514084813.
  std::vector<double> d;
  for (int i = 0; i < 300; ++i) d.push_back(static_cast<double>((i * 37) % 101) - 45);
  const SignedRank r = WilcoxonSignedRank(d);
  CHECK(r.nonzero == 297);
  CHECK(r.zeros == 3);
  CHECK_FALSE(r.exact);
  CHECK(r.w_plus == 26227.5);
  CHECK(r.p == Approx(0.005628679514084813).epsilon(1e-9));

  // At the limit the exact and the approximate p agree closely (a check of both).
  std::vector<double> at_limit(d.begin(), d.begin() + 202);  // 200 nonzero, 2 zeros
  const SignedRank exact = WilcoxonSignedRank(at_limit);
  REQUIRE(exact.nonzero == kSignedRankExactMax);
  CHECK(exact.exact);
  at_limit.push_back(1000);  // one more: approximate
  const SignedRank approx = WilcoxonSignedRank(at_limit);
  CHECK_FALSE(approx.exact);
  CHECK(std::abs(approx.p - exact.p) < 0.05);
}

TEST_CASE("CompareCensored: never ranks last, pairs counted once",
          "[experiments][statistics][censored]") {
  using V = std::optional<double>;
  // Pairs: both reached (B faster), only A, only B, neither, both reached (B slower).
  const std::vector<V> a = {10.0, 12.0, std::nullopt, std::nullopt, 5.0};
  const std::vector<V> b = {8.0, std::nullopt, 20.0, std::nullopt, 6.0};
  const CensoredComparison c = CompareCensored(a, b, 0.95);
  CHECK(c.reached_a.k == 3);
  CHECK(c.reached_b.k == 3);
  CHECK(c.reached_a.n == 5);
  CHECK(c.a_only == 1);
  CHECK(c.b_only == 1);
  CHECK(c.mcnemar_p == 1);
  CHECK(c.AnyNever());
  // B - A: -2, +inf, -inf, 0 (dropped), +1: ranks 2, 3.5, 3.5, 1 -> W+ = 4.5, W- = 5.5.
  CHECK(c.rank.nonzero == 4);
  CHECK(c.rank.zeros == 1);
  CHECK(c.rank.w_plus == 4.5);
  CHECK(c.rank.w_minus == 5.5);
  CHECK(PValueText(0.00390625) == "0.00391");
  CHECK(PValueText(1) == "1");
  CHECK(PValueJson(0.056887933641) == 0.0568879);
}

TEST_CASE("UndefinedMeansNever: the instants a run may never reach, and only they",
          "[experiments][censored]") {
  for (const char* name : {"time_to_empty_s", "time_to_quiet_s", "backlog_cleared_s",
                           "age_alert_first_s", "depth_alert_first_s", "dlq_depth_alert_first_s"}) {
    CHECK(UndefinedMeansNever(name));
  }
  for (const char* name : {"message_latency_p99_s", "attempts_per_success", "live_p99_ms@drains",
                           "message_latency_mean_s:purge", "acked", "retry_amplification",
                           "no_such_metric"}) {
    CHECK_FALSE(UndefinedMeansNever(name));
  }
}

// Records with one metric: `values[i]` is replication i's value (nullopt: never reached).
std::vector<RunRecord> Records(const std::vector<std::optional<double>>& values) {
  std::vector<RunRecord> records;
  for (const std::optional<double>& v : values) records.push_back({0, 0, {v}, {}, {}});
  return records;
}

TEST_CASE("CompareMetric: never decides through the signed-rank test",
          "[experiments][compare][censored]") {
  using V = std::optional<double>;
  const std::vector<RunRecord> fast = Records({10.0, 11.0, 12.0, 13.0, 14.0, 15.0});
  const std::vector<RunRecord> never = Records({V(), V(), V(), V(), V(), 20.0});
  // B never reaches it in 5 of 6 pairs and is later in the sixth: six positive differences,
  // p = 2 / 2^6 < 0.05. B's mean (20, over 1 of 6) is not what decides.
  MetricComparison lower = CompareMetric(fast, never, 0, Better::kLower, 0.95, true);
  CHECK(lower.verdict == CompareVerdict::kABetter);
  CHECK(lower.verdict_by == VerdictBasis::kSignedRank);
  CHECK(lower.b.count == 1);
  CHECK(lower.censored->a_only == 5);
  CHECK(lower.censored->rank.p == Approx(1.0 / 32).epsilon(1e-12));
  // Without a direction (the alerts): only "differs".
  CHECK(CompareMetric(fast, never, 0, Better::kNone, 0.95, true).verdict ==
        CompareVerdict::kDiffers);
  // At 99% confidence 1/32 is not enough.
  CHECK(CompareMetric(fast, never, 0, Better::kLower, 0.99, true).verdict ==
        CompareVerdict::kNoDifference);
  // The same values for a metric whose undefined means "no value": the old paired t over the
  // one pair with both values, too few pairs.
  const MetricComparison missing = CompareMetric(fast, never, 0, Better::kLower, 0.95, false);
  CHECK_FALSE(missing.censored);
  CHECK(missing.verdict == CompareVerdict::kTooFew);
  CHECK(missing.verdict_by == VerdictBasis::kPairedT);
  // Every run reached it: the paired t interval decides, the shares are 6 of 6.
  const std::vector<RunRecord> slower = Records({12.0, 13.5, 14.0, 15.5, 16.0, 17.5});
  const MetricComparison all = CompareMetric(fast, slower, 0, Better::kLower, 0.95, true);
  CHECK(all.verdict == CompareVerdict::kABetter);
  CHECK(all.verdict_by == VerdictBasis::kPairedT);
  CHECK(all.censored->reached_b.k == 6);
  // Nobody ever reaches it: no evidence either way, not "undefined".
  const std::vector<RunRecord> none = Records({V(), V(), V()});
  const MetricComparison nothing = CompareMetric(none, none, 0, Better::kLower, 0.95, true);
  CHECK(nothing.verdict == CompareVerdict::kNoDifference);
  CHECK(nothing.censored->rank.zeros == 3);
}

}  // namespace
}  // namespace paired_tests_test
}  // namespace drainsim::experiments
