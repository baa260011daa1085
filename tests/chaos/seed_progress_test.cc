// The swarm's progress lines (chaos/seed_progress.h) on a clock the test moves by hand.
#include "chaos/seed_progress.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace drainsim::chaos::testing {
namespace seed_progress_test {
namespace {

struct Watched {
  double now_s = 100;  // any origin
  std::vector<std::string> lines;
  SeedProgress progress;
  explicit Watched(uint64_t total)
      : progress(
            total, 10, [this] { return now_s; },
            [this](const std::string& line) { lines.push_back(line); }) {}
};

TEST_CASE("seed progress: at most one line per interval, counting seeds done",
          "[chaos][progress]") {
  Watched w(5);
  w.now_s += 3;
  w.progress.SeedDone();  // 3 s in: too early
  CHECK(w.lines.empty());
  w.now_s += 7;
  w.progress.SeedDone();  // 10 s in: due
  REQUIRE(w.lines.size() == 1);
  CHECK(w.lines[0] == "swarm: 2 of 5 seeds done, 10 s\n");
  w.now_s += 9;
  w.progress.SeedDone();  // 9 s after the last line
  CHECK(w.lines.size() == 1);
  w.now_s += 25;
  w.progress.SeedDone();  // long after: one line, not one per interval missed
  REQUIRE(w.lines.size() == 2);
  CHECK(w.lines[1] == "swarm: 4 of 5 seeds done, 44 s\n");
  CHECK(w.progress.done() == 4);
}

TEST_CASE("seed progress: nothing after the last seed, nothing for a short swarm",
          "[chaos][progress]") {
  Watched slow(2);
  slow.now_s += 60;
  slow.progress.SeedDone();
  slow.now_s += 60;
  slow.progress.SeedDone();  // the last: the summary says it
  CHECK(slow.lines == std::vector<std::string>{"swarm: 1 of 2 seeds done, 60 s\n"});

  Watched quick(100);
  for (int i = 0; i < 99; ++i) {
    quick.now_s += 0.05;
    quick.progress.SeedDone();
  }
  CHECK(quick.lines.empty());
}

}  // namespace
}  // namespace seed_progress_test
}  // namespace drainsim::chaos::testing
