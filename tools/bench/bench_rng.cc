// Cost of one random draw: the generator alone and each distribution kind's Sample.
//
// Every sample is one NextOpenDouble plus the kind's inverse CDF, so these numbers are the
// price of the "exactly one draw per sample" rule (no ziggurat, no rejection): see RESULTS.md.
#include <benchmark/benchmark.h>

#include "sim/engine/distributions.h"
#include "sim/engine/rng.h"

namespace drainsim::engine {
namespace {

void BM_NextU64(benchmark::State& state) {
  Rng rng = Rng::FromSeed(1);
  for (auto _ : state) benchmark::DoNotOptimize(rng.NextU64());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NextU64);

void BM_UniformInt(benchmark::State& state) {
  Rng rng = Rng::FromSeed(1);
  for (auto _ : state) benchmark::DoNotOptimize(rng.UniformInt(1'000'003));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UniformInt);

void BM_Sample(benchmark::State& state, const Distribution& d) {
  Rng rng = Rng::FromSeed(1);
  for (auto _ : state) benchmark::DoNotOptimize(d.Sample(rng));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Sample, constant, Distribution::Constant(1.0));
BENCHMARK_CAPTURE(BM_Sample, uniform, Distribution::Uniform(0.0, 1.0));
BENCHMARK_CAPTURE(BM_Sample, exponential, Distribution::Exponential(1.0));
BENCHMARK_CAPTURE(BM_Sample, lognormal, Distribution::LogNormalFromMedianP99(0.1, 1.0));
BENCHMARK_CAPTURE(BM_Sample, normal, Distribution::Normal(1.0, 0.5, false));
BENCHMARK_CAPTURE(BM_Sample, normal_truncated, Distribution::Normal(1.0, 0.5, true));
BENCHMARK_CAPTURE(BM_Sample, empirical_3_points,
                  Distribution::Empirical({{0.5, 3.0}, {0.9, 10.0}, {1.0, 40.0}}));

}  // namespace
}  // namespace drainsim::engine
