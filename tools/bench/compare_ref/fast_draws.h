// fast_draws.h: the random draws of tools/bench/compare's hand-written loop — xoshiro256**, a
// Bernoulli test on 53 bits, and a ziggurat exponential — plus a self-check of the exponential.
// Standard library only, on purpose: the loop is the model's bare cost, not a library's.
//
// Invariants: (1) Xoshiro256::Next is xoshiro256** of Blackman & Vigna, seeded by splitmix64;
// (2) Exponential::Draw returns a standard exponential (mean 1), exactly in distribution up to
// the 2^-53 granularity of its uniforms; (3) (Next() >> 11) < ProbabilityThreshold53(p) has
// probability p to within 2^-53.
#ifndef DRAINSIM_TOOLS_BENCH_COMPARE_REF_FAST_DRAWS_H_
#define DRAINSIM_TOOLS_BENCH_COMPARE_REF_FAST_DRAWS_H_

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace mmc {

class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    for (uint64_t& word : s_) word = SplitMix64(seed);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1), 53 bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

// The u53 below which an event of probability p happens. REQUIRES: 0 <= p <= 1.
inline uint64_t ProbabilityThreshold53(double p) {
  return static_cast<uint64_t>(std::ldexp(p, 53));
}

// Standard exponential by the ziggurat of Marsaglia & Tsang (2000), 256 layers of equal area
// v under exp(-x), the base layer continued by the tail beyond r. One 64-bit word gives the
// layer (low 8 bits) and a 53-bit uniform (high bits); x = u * x_i / 2^53 is accepted at once
// when it lies under the layer above (x < x_{i-1}), about 98.9% of draws. Otherwise: in the
// base layer, r + a fresh exponential (the tail is memoryless); elsewhere, accept x if a
// uniform height in the layer falls under exp(-x), else start over. The tables are computed
// here from r and v (the published 256-layer constants), as in Marsaglia & Tsang's code.
class Exponential {
 public:
  Exponential() {
    constexpr double kScale = 0x1.0p53;
    const double q = kV / std::exp(-kR);  // the base layer's width
    double x = kR, x_above = kR;
    accept_below_[0] = static_cast<uint64_t>(kR / q * kScale);
    accept_below_[1] = 0;
    width_[0] = q / kScale;
    width_[255] = kR / kScale;
    height_[0] = 1.0;
    height_[255] = std::exp(-kR);
    for (int i = 254; i >= 1; --i) {
      x = -std::log(kV / x + std::exp(-x));  // x_i from x_{i+1}: each layer has area v
      accept_below_[i + 1] = static_cast<uint64_t>(x / x_above * kScale);
      x_above = x;
      height_[i] = std::exp(-x);
      width_[i] = x / kScale;
    }
  }
  template <typename Rng>
  double Draw(Rng& rng) const {
    for (;;) {
      const uint64_t bits = rng.Next();
      const unsigned layer = static_cast<unsigned>(bits & 0xff);
      const uint64_t u = bits >> 11;
      const double x = static_cast<double>(u) * width_[layer];
      if (u < accept_below_[layer]) return x;
      if (layer == 0) return kR - std::log1p(-rng.Uniform());
      const double y = height_[layer] + (height_[layer - 1] - height_[layer]) * rng.Uniform();
      if (y < std::exp(-x)) return x;
    }
  }

 private:
  static constexpr double kR = 7.69711747013104972;   // the base layer's right edge
  static constexpr double kV = 3.949659822581572e-3;  // each layer's area
  uint64_t accept_below_[256];
  double width_[256];   // x_i / 2^53
  double height_[256];  // exp(-x_i)
};

// `--check-sampler N`: draws N exponentials and tests them against exp(1): the probability
// integral transform 1 - exp(-x) must be uniform (chi-square over 4096 equal bins, so the tail
// beyond r, 4.5e-4 of the mass, spans two bins), and the mean and the variance must be 1
// within 5 standard errors. Prints one JSON line; returns 0 if all pass, 1 if not.
// REQUIRES: draws >= 100000 (the chi-square needs ~25 per bin).
template <typename Rng>
int CheckSampler(const Exponential& exponential, Rng& rng, int64_t draws) {
  constexpr int kBins = 4096;
  std::vector<int64_t> count(kBins, 0);
  double sum = 0, sum_sq = 0, sum_4 = 0;
  for (int64_t i = 0; i < draws; ++i) {
    const double x = exponential.Draw(rng);
    sum += x;
    sum_sq += x * x;
    sum_4 += x * x * x * x;
    int bin = static_cast<int>(-std::expm1(-x) * kBins);
    if (bin >= kBins) bin = kBins - 1;
    ++count[static_cast<size_t>(bin)];
  }
  const double n = static_cast<double>(draws), expected = n / kBins;
  double chi2 = 0;
  for (const int64_t c : count)
    chi2 += (static_cast<double>(c) - expected) * (static_cast<double>(c) - expected) / expected;
  const double dof = kBins - 1, chi2_limit = dof + 5 * std::sqrt(2 * dof);
  const double mean = sum / n, var = sum_sq / n - mean * mean;
  // Exp(1): Var X = 1, Var X^2 = E X^4 - (E X^2)^2 = 24 - 4 = 20.
  const double z_mean = (mean - 1) / std::sqrt(1 / n), z_var = (var - 1) / std::sqrt(20 / n);
  const bool ok = chi2 <= chi2_limit && std::fabs(z_mean) <= 5 && std::fabs(z_var) <= 5;
  std::printf("{\"sampler_check\": \"%s\", \"draws\": %" PRId64
              ", \"chi2\": %.1f, \"dof\": %.0f, "
              "\"chi2_limit\": %.1f, \"mean\": %.6f, \"z_mean\": %.2f, \"var\": %.6f, "
              "\"z_var\": %.2f, \"mean_x4\": %.3f}\n",
              ok ? "pass" : "FAIL", draws, chi2, dof, chi2_limit, mean, z_mean, var, z_var,
              sum_4 / n);
  return ok ? 0 : 1;
}

}  // namespace mmc

#endif  // DRAINSIM_TOOLS_BENCH_COMPARE_REF_FAST_DRAWS_H_
