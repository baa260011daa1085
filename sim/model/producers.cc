#include "sim/model/producers.h"

#include <cmath>
#include <utility>
#include <variant>

#include "sim/base/check.h"
#include "sim/model/publish_spacing.h"

namespace drainsim::model {

namespace {

// An exponential gap at `rate_per_s`, whole microseconds; nullopt past the clock's range.
std::optional<engine::Duration> PoissonGap(engine::Rng& rng, double rate_per_s) {
  const double gap_us = std::nearbyint(-std::log(rng.NextOpenDouble()) / rate_per_s * 1e6);
  if (!(gap_us < static_cast<double>(engine::kInputMicrosMax))) return std::nullopt;
  return engine::Duration::Micros(static_cast<int64_t>(gap_us));
}

}  // namespace

Producers::Producers(const std::vector<config::Producer>& producers,
                     std::vector<uint32_t> kind_index, uint64_t seed)
    : producers_(producers), kind_index_(std::move(kind_index)), states_(producers.size()) {
  DRAINSIM_CHECK(kind_index_.size() == producers_.size());
  for (uint32_t p = 0; p < producers_.size(); ++p) {
    const config::Producer::Schedule& schedule = producers_[p].schedule;
    State& state = states_[p];
    state.rng = engine::Rng::ForStream(seed, kStreamArrivals, p);
    engine::Instant first;
    if (const auto* fanout = std::get_if<config::FanoutSchedule>(&schedule)) {
      first = fanout->at;
    } else if (const auto* constant = std::get_if<config::ConstantSchedule>(&schedule)) {
      first = constant->window.from;
    } else if (const auto* poisson = std::get_if<config::PoissonSchedule>(&schedule)) {
      const double gap_s = -std::log(state.rng.NextOpenDouble()) / poisson->rate_per_s;
      first = poisson->window.from +
              engine::Duration::Micros(static_cast<int64_t>(std::nearbyint(gap_s * 1e6)));
    } else {
      first = std::get<config::BurstSchedule>(schedule).at;
    }
    state.firing_at = first;
    state.first_tick = first;
  }
}

void Producers::FireFanout(const config::FanoutSchedule& fanout, State& state, Tick& tick) {
  if (!fanout.publish_rate_per_s) {
    // All at once, again every `every`.
    tick.count = fanout.count;
    ++state.firing;
    if (fanout.every) tick.next = fanout.at + *fanout.every * state.firing;
    return;
  }
  // Paced: one publish per tick, the k-th of a firing at Spaced(firing start, k).
  tick.count = 1;
  ++state.index;
  if (state.index < fanout.count) {
    tick.next = Spaced(state.firing_at, state.index, *fanout.publish_rate_per_s);
    return;
  }
  state.index = 0;
  ++state.firing;
  if (fanout.every) {
    state.firing_at = fanout.at + *fanout.every * state.firing;
    tick.next = state.firing_at;
  }
}

Producers::Tick Producers::Fire(uint32_t p, engine::Instant now) {
  const config::Producer::Schedule& schedule = producers_[p].schedule;
  State& state = states_[p];
  Tick tick{kind_index_[p], 0, engine::Instant::Never()};
  if (const auto* fanout = std::get_if<config::FanoutSchedule>(&schedule)) {
    FireFanout(*fanout, state, tick);
  } else if (const auto* burst = std::get_if<config::BurstSchedule>(&schedule)) {
    tick.count = burst->count;
    ++state.firing;
    if (burst->every) tick.next = burst->at + *burst->every * state.firing;
  } else if (const auto* constant = std::get_if<config::ConstantSchedule>(&schedule)) {
    tick.count = 1;
    ++state.index;
    tick.next = Spaced(constant->window.from, state.index, constant->rate_per_s);
    if (tick.next >= constant->window.until) tick.next = engine::Instant::Never();
  } else {
    const auto& poisson = std::get<config::PoissonSchedule>(schedule);
    tick.count = 1;
    if (const auto gap = PoissonGap(state.rng, poisson.rate_per_s)) {
      tick.next = now + *gap;
      if (tick.next >= poisson.window.until) tick.next = engine::Instant::Never();
    }
  }
  return tick;
}

}  // namespace drainsim::model
