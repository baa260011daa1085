#include "sim/model/durations.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace drainsim::model {

namespace {

struct ToEngine {
  engine::Distribution operator()(const scenario::ConstantDist& d) const {
    return engine::Distribution::Constant(d.value);
  }
  engine::Distribution operator()(const scenario::UniformDist& d) const {
    return engine::Distribution::Uniform(d.low, d.high);
  }
  engine::Distribution operator()(const scenario::ExponentialDist& d) const {
    return engine::Distribution::Exponential(d.mean);
  }
  engine::Distribution operator()(const scenario::LognormalDist& d) const {
    if (d.form == scenario::LognormalDist::Form::kMedianP99) {
      return engine::Distribution::LogNormalFromMedianP99(d.median, d.p99);
    }
    return engine::Distribution::LogNormal(d.mu, d.sigma);
  }
  engine::Distribution operator()(const scenario::NormalDist& d) const {
    // A zero spread is a constant; the engine's normal wants sd > 0.
    if (d.sd == 0) return engine::Distribution::Constant(d.mean);
    return engine::Distribution::Normal(d.mean, d.sd, /*truncate_at_zero=*/true);
  }
  engine::Distribution operator()(const scenario::EmpiricalDist& d) const {
    std::vector<engine::EmpiricalPoint> points;
    points.reserve(d.points.size());
    for (const auto& p : d.points) points.push_back({p.probability, p.value});
    return engine::Distribution::Empirical(std::move(points));
  }
};

}  // namespace

engine::Distribution ToDistribution(const scenario::DistributionSpec& spec) {
  return std::visit(ToEngine{}, spec.shape);
}

engine::Duration DurationSampler::Sample(engine::Rng& rng) const {
  const double micros = std::nearbyint(distribution_.Sample(rng) * micros_per_unit_);
  const double capped = std::clamp(micros, 0.0, static_cast<double>(engine::kInputMicrosMax));
  return engine::Duration::Micros(static_cast<int64_t>(capped));
}

}  // namespace drainsim::model
