// How far a swarm has got, for a person or a CI log watching a long one: "seeds done of N" on
// stderr, whether or not it is a terminal (a CI job shows no redrawn line, and a silent hour
// reads as a hang).
//
//    swarm: 37 of 200 seeds done, 612 s
//
// Contract:
//  (1) SeedDone() counts one seed whose report the swarm has printed. A line is written when
//      at least `interval_s` of wall clock have passed since the start and since the last line:
//      at most one line per interval, and none for a swarm shorter than one.
//  (2) No line after the last seed: the summary on stdout says it all then.
//  (3) Wall-clock time is read through `clock` and goes to `write` only (the caller's stderr),
//      never into a seed's report or the summary, which stay byte-identical for any --jobs.
//  (4) Lines are whole, newline-terminated: no "\r" redrawing, so a log keeps each one.
//
// Thread-safety: none; the swarm's parent calls it from its one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace drainsim::chaos {

inline constexpr double kSeedProgressIntervalS = 10;

class SeedProgress {
 public:
  using Clock = std::function<double()>;  // monotonic seconds, any origin
  using Write = std::function<void(const std::string& line)>;

  // REQUIRES: total >= 1, interval_s > 0.
  SeedProgress(uint64_t total, double interval_s, Clock clock, Write write);

  void SeedDone();
  uint64_t done() const { return done_; }

 private:
  uint64_t total_;
  double interval_s_;
  Clock clock_;
  Write write_;
  uint64_t done_ = 0;
  double start_s_;
  double last_line_s_;
};

// Lines to stderr (flushed), the clock std::chrono::steady_clock; kSeedProgressIntervalS.
SeedProgress StderrSeedProgress(uint64_t total);

}  // namespace drainsim::chaos
