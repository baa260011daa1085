#include "chaos/fault_draw.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <string>

#include "sim/base/check.h"
#include "sim/config/fault_types.h"
#include "sim/engine/rng.h"

namespace drainsim::chaos {

namespace {

using config::ErrorClass;
using config::FaultType;
using engine::Duration;
using engine::Instant;
using engine::Rng;

constexpr uint64_t kSwarmStream = engine::StreamId("swarm");

// 1-2-5 ladders: log-uniform enough to reach both the barely noticeable and the brutal, and
// exact in decimal so a dumped variant reads as it was drawn.
constexpr std::array kProbabilities = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};
constexpr std::array kPoisonFractions = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1};
constexpr std::array kCrashRatesPerH = {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0};
constexpr std::array kSlowdownFactors = {1.5, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0};
constexpr std::array kRateLimitsPerS = {0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0};
// Up to the seed's 30 s "failing slowly": long enough to outlast a visibility timeout.
constexpr std::array<int64_t, 6> kFailAfterMs = {0, 10, 100, 1000, 5000, 30000};
constexpr std::array<int64_t, 6> kDowntimeS = {0, 1, 5, 30, 60, 120};
// Invariant (4): the ladders stay inside the loader's limits.
using Limits = config::FaultLimits;
static_assert(kSlowdownFactors.front() >= Limits::kSlowdownFactorMin);
static_assert(kSlowdownFactors.back() <= Limits::kSlowdownFactorMax);
static_assert(kCrashRatesPerH.back() <= Limits::kCrashRatePerHMax);
static_assert(kFailAfterMs.back() <= Limits::kFailAfterMsMax);
static_assert(kDowntimeS.back() <= Limits::kDowntimeSMax);

// One generator per fault type, with the draws every type needs.
class Draw {
 public:
  Draw(uint64_t seed, FaultType type, Instant safety_end)
      : rng_(Rng::ForStream(seed, kSwarmStream, static_cast<uint64_t>(type))),
        safety_ms_(safety_end.micros() / 1000) {
    DRAINSIM_CHECK(safety_ms_ >= 1);
  }

  bool Coin() { return rng_.Bernoulli(1, 2); }

  // Uniform on [low, high].
  int64_t Int(int64_t low, int64_t high) {
    DRAINSIM_CHECK(low <= high);
    return low + static_cast<int64_t>(rng_.UniformInt(static_cast<uint64_t>(high - low) + 1));
  }

  template <typename T, size_t N>
  T Pick(const std::array<T, N>& ladder) {
    return ladder[rng_.UniformInt(N)];
  }

  // A whole millisecond in [0, safety_end).
  Instant At() { return Ms(Int(0, safety_ms_ - 1)); }

  // [from, until) with whole-millisecond ends inside [0, safety_end), at least 1 ms long.
  config::Window Window() {
    const int64_t from_ms = Int(0, safety_ms_ - 1);
    const int64_t until_ms = Int(from_ms + 1, safety_ms_);
    return config::Window{Ms(from_ms), Ms(until_ms)};
  }

  ErrorClass Error() { return static_cast<ErrorClass>(rng_.UniformInt(4)); }

  std::optional<Duration> FailAfter() {
    if (!Coin()) return std::nullopt;
    return Duration::Millis(Pick(kFailAfterMs));
  }

  int64_t safety_ms() const { return safety_ms_; }

 private:
  static Instant Ms(int64_t ms) { return Instant::Zero() + Duration::Millis(ms); }

  Rng rng_;
  int64_t safety_ms_;
};

std::string PickKind(Draw& draw, const config::Scenario& s) {
  auto it = s.kinds.begin();
  std::advance(it, draw.Int(0, static_cast<int64_t>(s.kinds.size()) - 1));
  return it->first;
}

// One drawer per fault type the swarm draws. Each draws its fields in a fixed order: a seed's
// plan depends on it.
config::ErrorsFault DrawErrorsFault(Draw& draw, const config::Scenario& s) {
  config::ErrorsFault f;
  if (draw.Coin()) f.kind = PickKind(draw, s);
  f.probability = draw.Pick(kProbabilities);
  f.error = draw.Error();
  f.fail_after = draw.FailAfter();
  f.window = draw.Window();
  return f;
}

config::PoisonFault DrawPoisonFault(Draw& draw, const config::Scenario& s) {
  config::PoisonFault f;
  f.kind = PickKind(draw, s);
  f.fraction = draw.Pick(kPoisonFractions);
  f.error = draw.Error();
  f.fail_after = draw.FailAfter();
  // A pill that hangs can outlast its visibility (in a prefetch buffer behind other pills,
  // or on its own): its failure then comes from a stale copy and is ignored, and it is
  // delivered again, for ever. Only the broker's receive count can end that, so without
  // one the pills fail fast. The draw above still happens, to keep the stream aligned.
  if (!s.broker.receive_count_max) f.fail_after.reset();
  f.from = draw.At();
  return f;
}

config::WorkerCrashFault DrawWorkerCrashFault(Draw& draw, const config::Scenario& s) {
  config::WorkerCrashFault f;
  if (draw.Coin()) {
    f.rate_per_h = draw.Pick(kCrashRatesPerH);
    f.window = draw.Window();
  } else {
    f.at = draw.At();
    f.count = draw.Int(1, s.workers.count);
  }
  f.point = draw.Coin() ? config::CrashPoint::kAnywhere : config::CrashPoint::kBetweenCommitAndAck;
  return f;
}

config::AckLossFault DrawAckLossFault(Draw& draw) {
  config::AckLossFault f;
  f.probability = draw.Pick(kProbabilities);
  f.window = draw.Window();
  return f;
}

config::BrokerRestartFault DrawBrokerRestartFault(Draw& draw) {
  config::BrokerRestartFault f;
  f.at = draw.At();
  const int64_t left_ms = draw.safety_ms() - f.at.micros() / 1000;
  f.downtime = Duration::Millis(std::min(draw.Pick(kDowntimeS) * 1000, left_ms));
  return f;
}

config::DbSlowdownFault DrawDbSlowdownFault(Draw& draw) {
  config::DbSlowdownFault f;
  f.window = draw.Window();
  f.factor = draw.Pick(kSlowdownFactors);
  return f;
}

config::DbConnectionsFault DrawDbConnectionsFault(Draw& draw, const config::Scenario& s) {
  config::DbConnectionsFault f;
  f.window = draw.Window();
  f.connections = draw.Int(1, std::min(Limits::kConnectionsMax, 2 * s.database->connections));
  return f;
}

config::DownstreamRateLimitFault DrawDownstreamRateLimitFault(Draw& draw) {
  config::DownstreamRateLimitFault f;
  f.window = draw.Window();
  f.rate_limit_per_s = draw.Pick(kRateLimitsPerS);
  f.burst = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(f.rate_limit_per_s)));
  return f;
}

std::optional<config::Fault> DrawOne(FaultType type, Draw& draw, const config::Scenario& s) {
  switch (type) {
    case FaultType::kErrors:
      return DrawErrorsFault(draw, s);
    case FaultType::kPoison:
      return DrawPoisonFault(draw, s);
    case FaultType::kWorkerCrash:
      return DrawWorkerCrashFault(draw, s);
    case FaultType::kAckLoss:
      return DrawAckLossFault(draw);
    case FaultType::kBrokerRestart:
      return DrawBrokerRestartFault(draw);
    case FaultType::kDbSlowdown:
      return DrawDbSlowdownFault(draw);
    case FaultType::kDbOutage:
      return config::DbOutageFault{draw.Window()};
    case FaultType::kDbConnections:
      return DrawDbConnectionsFault(draw, s);
    case FaultType::kDownstreamOutage:
      return config::DownstreamOutageFault{draw.Window()};
    case FaultType::kDownstreamRateLimit:
      return DrawDownstreamRateLimitFault(draw);
    case FaultType::kSyntheticFailures:
    case FaultType::kBug:
      return std::nullopt;
  }
  return std::nullopt;
}

// The descriptor says which types the swarm draws and which section each needs.
bool Applicable(FaultType type, const config::Scenario& s) {
  const config::FaultDescriptor& d = config::DescriptorOf(type);
  if (!d.swarm_draws) return false;
  switch (d.needs) {
    case config::FaultNeeds::kNothing:
      return true;
    case config::FaultNeeds::kDatabase:
      return s.database.has_value();
    case config::FaultNeeds::kDownstream:
      return s.downstream.has_value();
  }
  return false;
}

}  // namespace

Duration FailAfterMax() { return Duration::Millis(kFailAfterMs.back()); }
Duration BrokerDowntimeMax() { return Duration::Seconds(kDowntimeS.back()); }

std::vector<config::Fault> DrawFaults(const config::Scenario& skeleton, Instant safety_end,
                                      uint64_t seed) {
  std::vector<config::Fault> faults;
  for (const config::FaultDescriptor& descriptor : config::FaultDescriptors()) {
    const FaultType type = descriptor.type;
    if (!Applicable(type, skeleton)) continue;
    Draw draw(seed, type, safety_end);
    if (!draw.Coin()) continue;
    if (auto fault = DrawOne(type, draw, skeleton)) faults.push_back(std::move(*fault));
  }
  return faults;
}

}  // namespace drainsim::chaos
