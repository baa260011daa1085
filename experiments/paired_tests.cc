#include "experiments/paired_tests.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

struct Ranked {
  int64_t doubled_rank = 0;  // 2 x the midrank: an integer even with ties
  bool positive = false;
};

// The nonzero differences with their doubled midranks by |d|, and the tie groups' sizes.
std::vector<Ranked> RankMagnitudes(std::span<const double> differences, int64_t* zeros,
                                   std::vector<int64_t>* tie_sizes) {
  std::vector<std::pair<double, bool>> magnitudes;
  for (const double d : differences) {
    DRAINSIM_CHECK(!std::isnan(d));
    if (d == 0) {
      ++*zeros;
    } else {
      magnitudes.emplace_back(std::abs(d), d > 0);
    }
  }
  std::sort(magnitudes.begin(), magnitudes.end());
  std::vector<Ranked> ranked;
  ranked.reserve(magnitudes.size());
  for (size_t i = 0; i < magnitudes.size();) {
    size_t j = i;
    while (j < magnitudes.size() && magnitudes[j].first == magnitudes[i].first) ++j;
    // Positions i..j-1 (0-based) hold ranks i+1..j: midrank (i + 1 + j) / 2.
    const auto doubled = static_cast<int64_t>(i + 1 + j);
    for (size_t k = i; k < j; ++k) ranked.push_back({doubled, magnitudes[k].second});
    tie_sizes->push_back(static_cast<int64_t>(j - i));
    i = j;
  }
  return ranked;
}

// P(W <= w) and P(W >= w) for W = sum of the doubled ranks given a + sign, each sign
// independently with probability 1/2: the permutation distribution, by convolution.
double ExactTwoSided(const std::vector<Ranked>& ranked, int64_t doubled_w_plus) {
  int64_t total = 0;
  for (const Ranked& r : ranked) total += r.doubled_rank;
  std::vector<double> p(static_cast<size_t>(total) + 1, 0.0);
  p[0] = 1;
  int64_t reach = 0;
  for (const Ranked& r : ranked) {
    reach += r.doubled_rank;
    for (int64_t s = reach; s >= 0; --s) {
      const double with = s >= r.doubled_rank ? p[static_cast<size_t>(s - r.doubled_rank)] : 0;
      p[static_cast<size_t>(s)] = 0.5 * (p[static_cast<size_t>(s)] + with);
    }
  }
  double lower = 0;
  double upper = 0;
  for (int64_t s = 0; s <= total; ++s) {
    if (s <= doubled_w_plus) lower += p[static_cast<size_t>(s)];
    if (s >= doubled_w_plus) upper += p[static_cast<size_t>(s)];
  }
  return std::min(1.0, 2 * std::min(lower, upper));
}

double NormalTwoSided(int64_t n, double w_plus, const std::vector<int64_t>& tie_sizes) {
  const double nd = static_cast<double>(n);
  const double mean = nd * (nd + 1) / 4;
  double variance = nd * (nd + 1) * (2 * nd + 1) / 24;
  for (const int64_t t : tie_sizes) {
    const double td = static_cast<double>(t);
    variance -= (td * td * td - td) / 48;
  }
  if (variance <= 0) return 1;
  const double z = std::abs(w_plus - mean) / std::sqrt(variance);
  const boost::math::normal_distribution<double> normal;
  return std::min(1.0, 2 * boost::math::cdf(boost::math::complement(normal, z)));
}

}  // namespace

Proportion WilsonInterval(int64_t k, int64_t n, double level) {
  DRAINSIM_CHECK(n >= 1);
  DRAINSIM_CHECK(k >= 0 && k <= n);
  DRAINSIM_CHECK(level > 0 && level < 1);
  const boost::math::normal_distribution<double> normal;
  const double z = boost::math::quantile(normal, (1 + level) / 2);
  const double kd = static_cast<double>(k);
  const double nd = static_cast<double>(n);
  const double z2 = z * z;
  const double centre = (kd + z2 / 2) / (nd + z2);
  const double half = z / (nd + z2) * std::sqrt(kd * (nd - kd) / nd + z2 / 4);
  Proportion p;
  p.k = k;
  p.n = n;
  p.share = kd / nd;
  // At k = 0 (k = n) the bound is 0 (1) exactly; the formula leaves rounding noise there.
  p.low = k == 0 ? 0.0 : std::clamp(centre - half, 0.0, 1.0);
  p.high = k == n ? 1.0 : std::clamp(centre + half, 0.0, 1.0);
  return p;
}

double McNemarExactP(int64_t a_only, int64_t b_only) {
  DRAINSIM_CHECK(a_only >= 0 && b_only >= 0);
  const int64_t discordant = a_only + b_only;
  if (discordant == 0) return 1;
  const boost::math::binomial_distribution<double> binomial(static_cast<double>(discordant), 0.5);
  const double tail = boost::math::cdf(binomial, static_cast<double>(std::min(a_only, b_only)));
  return std::min(1.0, 2 * tail);
}

SignedRank WilcoxonSignedRank(std::span<const double> differences) {
  SignedRank result;
  std::vector<int64_t> tie_sizes;
  const std::vector<Ranked> ranked = RankMagnitudes(differences, &result.zeros, &tie_sizes);
  result.nonzero = static_cast<int64_t>(ranked.size());
  int64_t doubled_w_plus = 0;
  int64_t doubled_w_minus = 0;
  for (const Ranked& r : ranked) (r.positive ? doubled_w_plus : doubled_w_minus) += r.doubled_rank;
  result.w_plus = static_cast<double>(doubled_w_plus) / 2;
  result.w_minus = static_cast<double>(doubled_w_minus) / 2;
  if (ranked.empty()) return result;  // p = 1: nothing to tell the sides apart
  result.exact = result.nonzero <= kSignedRankExactMax;
  result.p = result.exact ? ExactTwoSided(ranked, doubled_w_plus)
                          : NormalTwoSided(result.nonzero, result.w_plus, tie_sizes);
  return result;
}

}  // namespace drainsim::experiments
