// Loading and running the canonical scenarios of scenarios/ for the story tests, and small
// helpers to read a run's figures in the units the stories speak.
#pragma once

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/histogram.h"
#include "sim/model/results.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace drainsim::stories {

// scenarios/NAME.json, loaded through the real loader (the path `drainsim run` takes).
inline config::Scenario LoadStory(const std::string& name) {
  const std::string path = std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name + ".json";
  scenario::LoadResult loaded = scenario::LoadScenarioFile(path);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem(path, problem));
  }
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// The scenario's own seed first (the run scenarios/README.md quotes), then three others: a
// story must not depend on one lucky seed. Under ASan and UBSan (DRAINSIM_SANITIZED, as the chaos
// variant test's seeds: tests/chaos/variant_test.cc) the first two only: the stories' runs took
// about 110 s of CI's two cores there (16 s plain; the sqs and sidekiq examples 32 and 28 s),
// and the plain build still checks every story at all four.
inline std::vector<uint64_t> StorySeeds(const config::Scenario& s) {
#ifdef DRAINSIM_SANITIZED
  return {s.seed, 101};
#else
  return {s.seed, 101, 202, 303};
#endif
}

inline model::Results Run(const config::Scenario& s, uint64_t seed) {
  return model::RunSimulation(s, seed);
}

// Nothing lost, and every published message accounted for exactly once.
inline void CheckConserved(const model::Results& r) {
  CHECK(r.lost == 0);
  CHECK(r.acked + r.parked + r.expired + r.dlq_end + r.rejected + r.broker_lost +
            r.not_terminal_end ==
        r.published);
  CHECK_FALSE(r.events_max_reached);
}

// A histogram's p-quantile in milliseconds or seconds (the histograms hold microseconds).
inline double QuantileMs(const model::Histogram& h, double p) {
  REQUIRE_FALSE(h.empty());
  return static_cast<double>(h.Quantile(p)) / 1e3;
}
inline double QuantileS(const model::Histogram& h, double p) {
  REQUIRE_FALSE(h.empty());
  return static_cast<double>(h.Quantile(p)) / 1e6;
}
inline double MaxS(const model::Histogram& h) {
  REQUIRE_FALSE(h.empty());
  return static_cast<double>(h.max()) / 1e6;
}

// The samples taken in [from_s, until_s).
inline std::vector<model::Sample> SamplesBetween(const model::Results& r, double from_s,
                                                 double until_s) {
  std::vector<model::Sample> out;
  for (const model::Sample& s : r.series) {
    if (s.t_s >= from_s && s.t_s < until_s) out.push_back(s);
  }
  return out;
}

// The largest and smallest value of a sampled figure over [from_s, until_s); REQUIREs samples.
inline double MaxOf(const model::Results& r, double from_s, double until_s,
                    const std::function<double(const model::Sample&)>& figure) {
  const std::vector<model::Sample> samples = SamplesBetween(r, from_s, until_s);
  REQUIRE_FALSE(samples.empty());
  double best = -std::numeric_limits<double>::infinity();
  for (const model::Sample& s : samples) best = std::max(best, figure(s));
  return best;
}
inline double MinOf(const model::Results& r, double from_s, double until_s,
                    const std::function<double(const model::Sample&)>& figure) {
  const std::vector<model::Sample> samples = SamplesBetween(r, from_s, until_s);
  REQUIRE_FALSE(samples.empty());
  double best = std::numeric_limits<double>::infinity();
  for (const model::Sample& s : samples) best = std::min(best, figure(s));
  return best;
}

inline int64_t Reason(const model::Results& r, const std::string& reason) {
  const auto it = r.human_needed_by_reason.find(reason);
  return it == r.human_needed_by_reason.end() ? 0 : it->second;
}

inline const model::KindResults& Kind(const model::Results& r, const std::string& name) {
  const auto it = r.kinds.find(name);
  REQUIRE(it != r.kinds.end());
  return it->second;
}

}  // namespace drainsim::stories
