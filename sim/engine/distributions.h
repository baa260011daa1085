// The project's probability distributions: what a scenario's service times, delays and sizes
// are drawn from.
//
// drainsim never uses std::*_distribution: their algorithms differ between standard libraries,
// so the same seed would give different runs on different machines. Every kind here samples by
// inverse transform, Sample(rng) == Quantile(rng.NextOpenDouble()), which gives three
// properties the simulator relies on:
//  - exactly one generator draw per sample, whatever the kind and parameters, so two policies
//    run with common random numbers stay aligned draw for draw;
//  - sampling always terminates (no rejection loops, even for the truncated normal);
//  - a sample is a monotone function of its uniform draw, so "the same draw" means "the same
//    rank" across policies.
//
// Factories REQUIRE valid parameters and fail a check otherwise: validating user input is the
// scenario loader's job, which should test the same conditions (and the k*Max constants below)
// and report errors as values before calling a factory.
//
// Invariants:
//  (1) Quantile is nondecreasing on [0, 1]; Sample returns Quantile of one open-uniform draw.
//  (2) Mean() and Variance() are the exact (analytic) moments, finite for every valid
//      distribution; for the truncated normal they are the truncated moments.
//  (3) A truncated normal never returns a negative value.
//
// Thread-safety: a Distribution is an immutable value; Sample mutates only the Rng passed in.
#pragma once

#include <cstddef>
#include <variant>
#include <vector>

#include "sim/engine/rng.h"

namespace drainsim::engine {

// One point of an empirical CDF: P(X <= value) == cumulative_probability.
struct EmpiricalPoint {
  double cumulative_probability;
  double value;
};

class Distribution {
 public:
  enum class Kind { kConstant, kUniform, kExponential, kLogNormal, kNormal, kEmpirical };

  // Every parameter and table value is finite with magnitude at most this, so that means,
  // variances and (high - low) cannot overflow.
  static constexpr double kParameterAbsMax = 1e18;
  // Lognormal bounds: with |mu| <= 100 and sigma <= 10, exp(2 mu + 2 sigma^2) < e^400, so the
  // variance is finite. sigma = 10 is a p99/median ratio of about 1.3e10, beyond any real tail.
  static constexpr double kLogNormalMuAbsMax = 100;
  static constexpr double kLogNormalSigmaMax = 10;
  // A truncated normal's mean may lie at most this many sd below zero: it keeps at least
  // P(Z > 10) ~ 7.6e-24 of the mass, far above what the tail arithmetic needs, while a normal
  // truncated further out would be a scenario mistake.
  static constexpr double kNormalTruncationSdMax = 10;
  // A limit on table size, as on everything else.
  static constexpr std::size_t kEmpiricalPointsMax = 100'000;

  // Always `value`.
  // REQUIRES: |value| <= kParameterAbsMax
  static Distribution Constant(double value);

  // Uniform between low and high.
  // REQUIRES: low <= high; both within kParameterAbsMax
  static Distribution Uniform(double low, double high);

  // Exponential with the given mean (rate 1 / mean).
  // REQUIRES: 0 < mean <= kParameterAbsMax
  static Distribution Exponential(double mean);

  // exp(N(mu, sigma^2)).
  // REQUIRES: |mu| <= kLogNormalMuAbsMax; 0 < sigma <= kLogNormalSigmaMax
  static Distribution LogNormal(double mu, double sigma);

  // The lognormal with this median and 99th percentile: mu = ln median,
  // sigma = (ln p99 - ln median) / z_0.99. The usual way to state a latency.
  // REQUIRES: 0 < median < p99, and the resulting mu and sigma valid for LogNormal
  static Distribution LogNormalFromMedianP99(double median, double p99);

  // Normal(mean, sd^2). With truncate_at_zero, conditioned on X >= 0 (sampled by inverse CDF
  // over the kept range, never by rejection); Mean and Variance are then the truncated moments.
  // REQUIRES: |mean| <= kParameterAbsMax; 0 < sd <= kParameterAbsMax
  // REQUIRES: if truncate_at_zero, mean >= -kNormalTruncationSdMax * sd
  static Distribution Normal(double mean, double sd, bool truncate_at_zero);

  // An empirical CDF: ascending (cumulative_probability, value) points, ending at probability
  // 1. The first point's probability is an atom at its value; between points the CDF is linear
  // (the value is uniform on that segment). So {{0.5, 3}, {0.9, 10}, {1.0, 40}} is 3 with
  // probability 0.5, uniform on (3, 10] with 0.4 and uniform on (10, 40] with 0.1. A first
  // probability of 0 means no atom.
  // REQUIRES: 1 <= table.size() <= kEmpiricalPointsMax
  // REQUIRES: 0 <= first probability; probabilities strictly increasing; last exactly 1.0
  // REQUIRES: values nondecreasing, each within kParameterAbsMax
  static Distribution Empirical(std::vector<EmpiricalPoint> table);

  // One sample: exactly one rng.NextOpenDouble() draw, by inverse transform.
  double Sample(Rng& rng) const { return Quantile(rng.NextOpenDouble()); }

  // The inverse CDF. For 0 < p < 1, the smallest x with P(X <= x) >= p (so every p up to the
  // empirical atom's probability gives the atom's value); at p = 0 and p = 1, the bottom and
  // top of the support, which are infinite for the unbounded kinds.
  // REQUIRES: 0 <= p <= 1
  double Quantile(double p) const;

  double Mean() const { return mean_; }
  double Variance() const { return variance_; }
  Kind kind() const { return static_cast<Kind>(params_.index()); }

 private:
  struct ConstantParams {
    double value;
  };
  struct UniformParams {
    double low;
    double high;
  };
  struct ExponentialParams {
    double mean;
  };
  struct LogNormalParams {
    double mu;
    double sigma;
  };
  struct NormalParams {
    double mean;
    double sd;
    bool truncated;
    // P(X >= 0) before truncation; 1 when not truncated.
    double kept_mass;
  };
  struct EmpiricalParams {
    std::vector<EmpiricalPoint> points;
  };
  // Alternatives are in Kind's order, so that kind() is the variant's index.
  using Params = std::variant<ConstantParams, UniformParams, ExponentialParams, LogNormalParams,
                              NormalParams, EmpiricalParams>;

  Distribution(Params params, double mean, double variance);

  Params params_;
  double mean_;
  double variance_;
};

}  // namespace drainsim::engine
