// DistributionSpec: a probability distribution exactly as the scenario states it.
//
// The configuration does not sample; the model turns a spec into the engine's distribution
// later. The spec keeps the user's form (a lognormal given as median/p99 stays median/p99) so
// that the canonical dump writes back what the user wrote.
//
// Values are in the unit of the field that holds the spec: `db_op_ms` holds milliseconds,
// a field ending in `_s` would hold seconds. Every distribution field of the format is a
// duration, so every value is >= 0 (normal is truncated at 0).
//
// Invariants of a loaded spec (the loader checks them):
//  (1) constant: value >= 0.
//  (2) uniform: 0 <= low <= high.
//  (3) exponential: mean > 0.
//  (4) lognormal: within the engine's limits (sim/engine/distributions.h): mu/sigma form:
//      |mu| <= 100, 0 < sigma <= 10; median/p99 form: 0 < median < p99, and the derived
//      mu = ln median and sigma = (ln p99 - ln median) / 2.3263478740408408 (z of 0.99) obey
//      the same limits (p99 at most about 1.27e10 times the median).
//  (5) normal: mean >= 0, sd >= 0; sd == 0 is the constant `mean` (the model builds it so).
//  (6) empirical: 1..10000 points; probabilities strictly increasing in (0, 1], the last
//      exactly 1.0; values >= 0 and nondecreasing.
//  (7) every value, converted to microseconds, is within engine::kInputMicrosMax (so every
//      parameter is finite and far below the engine's 1e18 bound on magnitudes).
#pragma once

#include <cstddef>
#include <variant>
#include <vector>

#include "sim/config/enums.h"

namespace drainsim::config {

// {"constant": 5}
struct ConstantDist {
  double value = 0;
  bool operator==(const ConstantDist&) const = default;
};

// {"uniform": {"low": 1, "high": 3}}
struct UniformDist {
  double low = 0;
  double high = 0;
  bool operator==(const UniformDist&) const = default;
};

// {"exponential": {"mean": 5}}
struct ExponentialDist {
  double mean = 0;
  bool operator==(const ExponentialDist&) const = default;
};

// {"lognormal": {"median": 8, "p99": 60}} or {"lognormal": {"mu": 2.1, "sigma": 0.8}}.
// median/p99 is how engineers read latency dashboards; mu/sigma is how papers state fits.
// Only the two fields of `form` are meaningful; the other two stay 0.
struct LognormalDist {
  enum class Form : uint8_t { kMedianP99, kMuSigma };
  Form form = Form::kMedianP99;
  double median = 0;
  double p99 = 0;
  double mu = 0;
  double sigma = 0;
  bool operator==(const LognormalDist&) const = default;
};

// {"normal": {"mean": 10, "sd": 2}}, truncated at 0.
struct NormalDist {
  double mean = 0;
  double sd = 0;
  bool operator==(const NormalDist&) const = default;
};

// One row of an empirical table: P(X <= value) = probability.
struct EmpiricalPoint {
  double probability = 0;
  double value = 0;
  bool operator==(const EmpiricalPoint&) const = default;
};

// {"empirical": [[0.5, 3], [0.9, 10], [1.0, 40]]}: a measured latency histogram.
struct EmpiricalDist {
  std::vector<EmpiricalPoint> points;
  bool operator==(const EmpiricalDist&) const = default;
};

struct DistributionSpec {
  using Shape = std::variant<ConstantDist, UniformDist, ExponentialDist, LognormalDist, NormalDist,
                             EmpiricalDist>;
  Shape shape = ConstantDist{};

  static DistributionSpec Constant(double value) { return {ConstantDist{value}}; }
  DistributionKind kind() const { return static_cast<DistributionKind>(shape.index()); }
  bool operator==(const DistributionSpec&) const = default;
};
static_assert(std::variant_size_v<DistributionSpec::Shape> ==
              static_cast<size_t>(DistributionKind::kEmpirical) + 1);

}  // namespace drainsim::config
