#include "chaos/seed_progress.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <utility>

#include "sim/base/check.h"

namespace drainsim::chaos {

SeedProgress::SeedProgress(uint64_t total, double interval_s, Clock clock, Write write)
    : total_(total), interval_s_(interval_s), clock_(std::move(clock)), write_(std::move(write)) {
  DRAINSIM_CHECK(total_ >= 1 && interval_s_ > 0);
  start_s_ = clock_();
  last_line_s_ = start_s_;
}

void SeedProgress::SeedDone() {
  ++done_;
  if (done_ >= total_) return;  // (2)
  const double now_s = clock_();
  if (now_s - last_line_s_ < interval_s_) return;  // (1)
  last_line_s_ = now_s;
  char line[128];
  std::snprintf(line, sizeof line, "swarm: %" PRIu64 " of %" PRIu64 " seeds done, %.0f s\n", done_,
                total_, now_s - start_s_);
  write_(line);
}

SeedProgress StderrSeedProgress(uint64_t total) {
  return SeedProgress(
      total, kSeedProgressIntervalS,
      [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
      },
      [](const std::string& line) {
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
      });
}

}  // namespace drainsim::chaos
