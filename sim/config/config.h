// The typed configuration: one bad night, as data. The typed form of a scenario JSON file
// (format version 1), and what the model runs.
//
// Layer (README.md, Layout): sim/config/ sits below the model and the scenario format; it
// includes only sim/base/ and sim/engine/. sim/scenario/ converts JSON to and from it (load,
// validate, presets, plausibility, dump); sim/model/ runs it and never includes sim/scenario/.
// Naming (issue 15 step 1): the types moved from sim/scenario/scenario*.h with their names
// unchanged, into namespace drainsim::config (config::Scenario is a whole scenario's
// configuration, config::Kind one message kind, ...); the headers lost their "scenario_" prefix.
//
// The vocabulary is split over several headers by topic; this one holds the top level:
//   workload.h            kinds, handlers, producers, backlog, windows
//   system.h              broker, workers, database (+ live traffic), downstream API
//   retry.h               retry policy: classes, backoff, jitter, budget, circuit breaker
//   faults.h              faults (one struct per type)
//   drains.h              drain plans
//   expect.h              alerts and expectations
//   distribution.h        DistributionSpec
//   enums.h               the closed word lists (JSON strings in enum_names.h)
//   engine_distribution.h a DistributionSpec as an engine::Distribution
// scenarios/schema.json documents the same vocabulary for users; the tests keep them in step.
//
// Conventions:
//  (1) Times are engine::Instant (from `*_s` JSON fields, seconds from the start of the run),
//      spans engine::Duration (from `*_s` / `*_ms` fields); both are integer microseconds, so
//      an input is rounded to the microsecond once, on load.
//  (2) Rates are double `*_per_s` (or `*_per_h`), counts int64, probabilities double in [0, 1].
//  (3) A std::optional field is "off" or "not given" when empty; every other field always
//      holds a value (the default when the input left it out).
//  (4) A Scenario returned by the loader satisfies every invariant stated in these headers.
//      One built by hand need not; load it through DumpCanonical to check it.
//  (5) A top-level "$schema" string (for editors) is accepted and dropped: no field holds it,
//      and the canonical dump does not write it.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/time.h"
#include "sim/config/distribution.h"
#include "sim/config/drains.h"
#include "sim/config/enums.h"
#include "sim/config/expect.h"
#include "sim/config/faults.h"
#include "sim/config/retry.h"
#include "sim/config/system.h"
#include "sim/config/workload.h"

namespace drainsim::config {

struct Run {
  // JSON `until_s`, in (0, 100 days]. Required. A hard stop; the run also ends early once
  // nothing can happen any more.
  Instant until;
  // JSON `sample_every_s`, > 0, at most 1e7 samples per run (until / sample_every). Default
  // 10 s. Period of the time series (depths, ages, live latency) that reports chart and
  // always/sometimes expectations check; shorten it to catch short spikes.
  Duration sample_every = Duration::Seconds(10);
  // 1..1e11. Default 50,000,000. A run that needs more events stops with an error instead of
  // running away; raise it for week-long, high-rate scenarios.
  int64_t events_max = 50'000'000;
  bool operator==(const Run&) const = default;
};

struct Scenario {
  // Required, 1..200 bytes, no control characters. Names the scenario in every report.
  std::string name;
  // Default "". Free text, at most 10000 bytes.
  std::string description;
  // Default 1. The run's seed when the command line gives none (--seed wins).
  uint64_t seed = 1;
  Run run;
  // Required, 1..1000 kinds, by name.
  std::map<std::string, Kind> kinds;
  // Default []. At most 1000. Producers and backlog together must publish something.
  std::vector<Producer> producers;
  // Default []. At most 1000 entries.
  std::vector<BacklogEntry> backlog;
  // Default: every Broker default.
  Broker broker;
  // Required (workers.count has no sensible default).
  Workers workers;
  // Default null: no database (then no kind may use one).
  std::optional<Database> database;
  // Default null: no downstream API (then no kind may call one).
  std::optional<Downstream> downstream;
  // Default: every RetryPolicy default.
  RetryPolicy retry;
  // Default []. At most 1000.
  std::vector<Fault> faults;
  // Default []. At most 100.
  std::vector<Drain> drains;
  // Default: every alert off.
  Alerts alerts;
  // Default []. At most 1000.
  std::vector<Expectation> expect;
  bool operator==(const Scenario&) const = default;
};

}  // namespace drainsim::config
