#include "tools/drainsim/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace drainsim::cli {

namespace {

// Before this much wall-clock time nothing is drawn, then at most once per redraw interval.
constexpr std::chrono::milliseconds kQuietStart{1000};
constexpr std::chrono::milliseconds kRedrawEvery{250};

std::string Eta(double seconds) {
  char text[32];
  if (seconds < 60) {
    std::snprintf(text, sizeof(text), "%.1f s", seconds);
  } else if (seconds < 3600) {
    std::snprintf(text, sizeof(text), "%d min %02d s", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(text, sizeof(text), "%.1f h", seconds / 3600);
  }
  return text;
}

}  // namespace

ProgressLine::ProgressLine(bool enabled)
    : active_(enabled && isatty(STDERR_FILENO) == 1), start_(Clock::now()), last_draw_(start_) {}

ProgressLine::~ProgressLine() { Finish(); }

double ProgressLine::ElapsedSeconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

bool ProgressLine::Due() const {
  if (!active_) return false;
  const Clock::time_point now = Clock::now();
  return now - start_ >= kQuietStart && (!drawn_ || now - last_draw_ >= kRedrawEvery);
}

void ProgressLine::Update(double fraction, const std::string& detail) {
  if (!Due()) return;
  fraction = std::clamp(fraction, 0.0, 1.0);
  last_draw_ = Clock::now();
  drawn_ = true;
  std::string line = std::to_string(static_cast<int>(fraction * 100)) + "%  " + detail;
  if (fraction > 0.001 && fraction < 1) {
    line += "  ETA " + Eta(ElapsedSeconds() * (1 - fraction) / fraction);
  }
  // "\r" back to the line's start, ESC [K erases what a longer previous line left behind.
  std::fprintf(stderr, "\r%s\x1b[K", line.c_str());
  std::fflush(stderr);
}

void ProgressLine::Finish() {
  if (!drawn_) return;
  drawn_ = false;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
}

void RunProgress::OnProgress(engine::Instant now, engine::Instant until, int64_t events) {
  if (!line_.Due()) return;
  const double until_s = until.seconds();
  const double elapsed = line_.ElapsedSeconds();
  char detail[160];
  std::snprintf(detail, sizeof(detail), "simulated %.0f s of %.0f s  %.2f M events/s",
                now.seconds(), until_s,
                elapsed > 0 ? static_cast<double>(events) / elapsed / 1e6 : 0.0);
  line_.Update(until_s > 0 ? now.seconds() / until_s : 0, detail);
}

}  // namespace drainsim::cli
