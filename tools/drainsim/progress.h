// A progress line on stderr for long commands: `drainsim run`, and the replications and sweeps
// of the experiment commands.
//
//    37%  simulated 8000 s of 21600 s  2.31 M events/s  ETA 1.2 s
//
// Usage: make one ProgressLine per command (enabled unless --quiet), call Update() as work gets
// done, Finish() at the end (the destructor does too). For a single simulation, attach a
// RunProgress as the run's observer (RunOptions::observer, or through a model::ObserverTee).
//
// Contract:
//  (1) Draws only when enabled and stderr is a terminal (isatty(2)); otherwise every call does
//      nothing, so CI logs and tests see an empty stderr.
//  (2) Draws nothing before the command has run for ~1 s (short commands never flicker), then
//      redraws the one line ("\r", erase to the end) at most every ~0.25 s.
//  (3) Wall-clock time (std::chrono::steady_clock) is read here and reaches stderr only: never a
//      result, a report or a file, which stay byte-identical run to run.
//  (4) Finish() erases the line if one was drawn, so the command's own output starts clean.
//
// Thread-safety: none. Commands with worker threads call Update() from one thread (e.g. the one
// collecting finished replications) or behind their own lock.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "sim/model/observer.h"

namespace drainsim::cli {

class ProgressLine {
 public:
  // `enabled`: false with --quiet. Drawing also needs stderr to be a terminal.
  explicit ProgressLine(bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // False iff nothing will ever be drawn (disabled, or stderr is not a terminal).
  bool active() const { return active_; }

  // True iff Update() would draw now: lets a caller skip building its detail text.
  bool Due() const;

  // `fraction` of the work done, in [0, 1] (clamped): the percentage and the ETA come from it.
  // `detail` follows the percentage ("simulated 8000 s of 21600 s, 2.31 M events/s").
  void Update(double fraction, const std::string& detail);

  // Erases the line if one was drawn. Safe to call more than once.
  void Finish();

  // Seconds of wall-clock time since construction.
  double ElapsedSeconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  bool active_ = false;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

// Feeds a ProgressLine from one simulation's OnProgress: simulated time reached of run.until,
// events per second of wall-clock time, and the ETA. Asks for no per-message callbacks.
class RunProgress final : public model::RunObserver {
 public:
  explicit RunProgress(ProgressLine& line) : line_(line) {}
  bool WantsMessages() const override { return false; }
  void OnProgress(engine::Instant now, engine::Instant until, int64_t events) override;

 private:
  ProgressLine& line_;
};

}  // namespace drainsim::cli
