#include "sim/config/engine_distribution.h"

#include <variant>
#include <vector>

namespace drainsim::config {

namespace {

struct ToEngine {
  engine::Distribution operator()(const ConstantDist& d) const {
    return engine::Distribution::Constant(d.value);
  }
  engine::Distribution operator()(const UniformDist& d) const {
    return engine::Distribution::Uniform(d.low, d.high);
  }
  engine::Distribution operator()(const ExponentialDist& d) const {
    return engine::Distribution::Exponential(d.mean);
  }
  engine::Distribution operator()(const LognormalDist& d) const {
    if (d.form == LognormalDist::Form::kMedianP99) {
      return engine::Distribution::LogNormalFromMedianP99(d.median, d.p99);
    }
    return engine::Distribution::LogNormal(d.mu, d.sigma);
  }
  engine::Distribution operator()(const NormalDist& d) const {
    // A zero spread is a constant; the engine's normal wants sd > 0.
    if (d.sd == 0) return engine::Distribution::Constant(d.mean);
    return engine::Distribution::Normal(d.mean, d.sd, /*truncate_at_zero=*/true);
  }
  engine::Distribution operator()(const EmpiricalDist& d) const {
    std::vector<engine::EmpiricalPoint> points;
    points.reserve(d.points.size());
    for (const auto& p : d.points) points.push_back({p.probability, p.value});
    return engine::Distribution::Empirical(std::move(points));
  }
};

}  // namespace

engine::Distribution ToEngineDistribution(const DistributionSpec& spec) {
  return std::visit(ToEngine{}, spec.shape);
}

}  // namespace drainsim::config
